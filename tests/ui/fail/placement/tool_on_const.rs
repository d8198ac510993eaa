// `#[tool]` on an associated const is reported on the attribute.
struct Files;

#[mcs::tool_driver]
impl Files {
    /// The limit.
    #[tool]
    const LIMIT: u32 = 10;

    /// Lists files.
    #[tool]
    fn list(&self) -> u32 {
        Self::LIMIT
    }
}

fn main() {}
