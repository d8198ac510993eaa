// An unknown key in `#[mcs::tool_driver(...)]` is reported on the key, listing the valid ones.
struct Files;

#[mcs::tool_driver(nmae = "files")]
impl Files {
    /// Lists files.
    #[tool]
    fn list(&self) -> u32 {
        0
    }
}

fn main() {}
