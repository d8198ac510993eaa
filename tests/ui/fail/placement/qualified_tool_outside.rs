// `#[mcs::tool]` outside a `#[mcs::tool_driver]` impl is reported on the attribute.
struct Files;

impl Files {
    /// Lists files.
    #[mcs::tool]
    fn list(&self) -> u32 {
        0
    }
}

fn main() {
    let _ = Files.list();
}
