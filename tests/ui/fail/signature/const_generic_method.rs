// A tool method with a const parameter is rejected on that parameter.
struct Echo;

#[mcs::tool_driver]
impl Echo {
    /// Echoes a value.
    #[tool]
    fn echo<const N: usize>(&self, value: u32) -> u32 {
        value
    }
}

fn main() {}
