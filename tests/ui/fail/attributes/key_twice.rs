// A key given twice in `#[tool(...)]` is reported on the second occurrence.
struct Files;

#[mcs::tool_driver]
impl Files {
    /// Lists files.
    #[tool(name = "list", name = "ls")]
    fn list(&self) -> u32 {
        0
    }
}

fn main() {}
