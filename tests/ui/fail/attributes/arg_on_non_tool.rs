// `#[arg]` on a parameter of a method that is not a tool is reported on the attribute.
struct Files;

#[mcs::tool_driver]
impl Files {
    /// Lists files.
    #[tool]
    fn list(&self) -> u32 {
        0
    }

    fn helper(&self, #[arg(name = "x")] x: u32) -> u32 {
        x
    }
}

fn main() {}
