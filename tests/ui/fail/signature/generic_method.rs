// A tool method with a type parameter is rejected on that parameter.
struct Echo;

#[mcs::tool_driver]
impl Echo {
    /// Echoes a value.
    #[tool]
    fn echo<T: serde::Serialize>(&self, value: u32) -> u32 {
        value
    }
}

fn main() {}
