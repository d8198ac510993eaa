// A tool method taking `&mut self` is rejected on the receiver: drivers are shared.
struct Counter;

#[mcs::tool_driver]
impl Counter {
    /// Adds one.
    #[tool]
    fn bump(&mut self) -> u32 {
        1
    }
}

fn main() {}
