// An unknown key in `#[arg(...)]` is reported on the key, listing the valid ones.
struct Files;

#[mcs::tool_driver]
impl Files {
    /// Lists files.
    #[tool]
    fn list(&self, #[arg(rename = "directory")] dir: String) -> String {
        dir
    }
}

fn main() {}
