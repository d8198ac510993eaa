// A tool method taking `self` by value is rejected on the receiver.
struct Once;

#[mcs::tool_driver]
impl Once {
    /// Runs once.
    #[tool]
    fn run(self) -> u32 {
        1
    }
}

fn main() {}
