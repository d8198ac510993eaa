// Plain `#[tool]` outside a `#[mcs::tool_driver]` impl is not in scope: rustc's
// "cannot find attribute" is what the user sees (documents the behaviour).
struct Files;

impl Files {
    /// Lists files.
    #[tool]
    fn list(&self) -> u32 {
        0
    }
}

fn main() {
    let _ = Files.list();
}
