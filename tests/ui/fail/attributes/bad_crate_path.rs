// `crate = "..."` takes a path; the error is on the string, with the forms it accepts.
struct Files;

#[mcs::tool_driver(crate = "mcs::")]
impl Files {
    /// Lists files.
    #[tool]
    fn list(&self) -> u32 {
        0
    }
}

fn main() {}
