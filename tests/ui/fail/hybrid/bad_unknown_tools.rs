// `unknown_tools` takes one of two policies.
struct Weather;

#[mcs::tool_driver]
#[mcs::hybrid(unknown_tools = "ignore")]
impl Weather {
    /// Says hi.
    #[tool]
    fn hi(&self) -> String {
        "hi".into()
    }
}

fn main() {}
