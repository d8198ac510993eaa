// `compact_threshold` is a number of tools.
struct Weather;

#[mcs::tool_driver]
#[mcs::hybrid(compact_threshold = -3)]
impl Weather {
    /// Says hi.
    #[tool]
    fn hi(&self) -> String {
        "hi".into()
    }
}

fn main() {}
