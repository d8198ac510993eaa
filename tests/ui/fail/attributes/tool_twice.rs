// `#[tool]` written twice on one method is reported on the second attribute.
struct Files;

#[mcs::tool_driver]
impl Files {
    /// Lists files.
    #[tool]
    #[tool(title = "List")]
    fn list(&self) -> u32 {
        0
    }
}

fn main() {}
