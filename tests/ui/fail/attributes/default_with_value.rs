// `#[arg(default = ...)]` is rejected on the key: `default` takes no value.
struct Files;

#[mcs::tool_driver]
impl Files {
    /// Lists files.
    #[tool]
    fn list(&self, #[arg(default = 10)] limit: u32) -> u32 {
        limit
    }
}

fn main() {}
