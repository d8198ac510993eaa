// A prompt file that does not exist is a compile error on its path.
struct Weather;

#[mcs::tool_driver]
#[mcs::hybrid(prompt_file = "prompts/does-not-exist.toml")]
impl Weather {
    /// Says hi.
    #[tool]
    fn hi(&self) -> String {
        "hi".into()
    }
}

fn main() {}
