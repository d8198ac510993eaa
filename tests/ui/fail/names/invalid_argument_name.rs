// An argument name with characters providers reject is reported on the name literal.
struct Files;

#[mcs::tool_driver]
impl Files {
    /// Lists files.
    #[tool]
    fn list(&self, #[arg(name = "dir name")] dir: String) -> String {
        dir
    }
}

fn main() {}
