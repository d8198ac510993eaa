// An unknown key in `#[tool(...)]` is reported on the key, listing the valid ones.
struct Files;

#[mcs::tool_driver]
impl Files {
    /// Lists files.
    #[tool(descripton = "Lists files.")]
    fn list(&self) -> u32 {
        0
    }
}

fn main() {}
