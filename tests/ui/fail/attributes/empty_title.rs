// An empty `title = ""` is reported on the literal.
struct Files;

#[mcs::tool_driver]
impl Files {
    /// Lists files.
    #[tool(title = "")]
    fn list(&self) -> u32 {
        0
    }
}

fn main() {}
