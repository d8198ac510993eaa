// An option #[mcs::hybrid] does not have.
struct Weather;

#[mcs::tool_driver]
#[mcs::hybrid(sytem = "You are {driver}.")]
impl Weather {
    /// Says hi.
    #[tool]
    fn hi(&self) -> String {
        "hi".into()
    }
}

fn main() {}
