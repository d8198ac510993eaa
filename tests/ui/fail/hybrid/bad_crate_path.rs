// `crate = "..."` takes a Rust path; the dashed name of a package in Cargo.toml is not one,
// and the error says what to write instead, on the string.
struct Weather;

#[mcs::tool_driver]
#[mcs::hybrid(crate = "my-mcs")]
impl Weather {
    /// Says hi.
    #[tool]
    fn hi(&self) -> String {
        "hi".into()
    }
}

fn main() {}
