// A tool name with characters providers reject is reported on the name literal.
struct Files;

#[mcs::tool_driver]
impl Files {
    /// Lists files.
    #[tool(name = "list files!")]
    fn list(&self) -> u32 {
        0
    }
}

fn main() {}
