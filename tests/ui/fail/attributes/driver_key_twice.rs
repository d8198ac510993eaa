// A key given twice in `#[mcs::tool_driver(...)]` is reported on the second occurrence.
struct Files;

#[mcs::tool_driver(name = "files", name = "fs")]
impl Files {
    /// Lists files.
    #[tool]
    fn list(&self) -> u32 {
        0
    }
}

fn main() {}
