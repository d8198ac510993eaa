// An impl block without any `#[tool]` method is reported on the type.
struct Files;

#[mcs::tool_driver]
impl Files {
    /// Lists files.
    fn list(&self) -> u32 {
        0
    }
}

fn main() {}
