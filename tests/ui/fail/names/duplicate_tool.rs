// Two tools with one name (one renamed to clash) are rejected on the second name.
struct Files;

#[mcs::tool_driver]
impl Files {
    /// Lists files.
    #[tool]
    fn list(&self) -> u32 {
        0
    }

    /// Lists files, again.
    #[tool(name = "list")]
    fn list_again(&self) -> u32 {
        0
    }
}

fn main() {}
