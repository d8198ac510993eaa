// `system` and `prompt_file` both set the default prompt: only one may be given.
struct Weather;

#[mcs::tool_driver]
#[mcs::hybrid(system = "Tools: {tools}", prompt_file = "prompts.toml")]
impl Weather {
    /// Says hi.
    #[tool]
    fn hi(&self) -> String {
        "hi".into()
    }
}

fn main() {}
