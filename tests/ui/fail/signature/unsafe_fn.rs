// An `unsafe fn` cannot be a tool: the error is on the `unsafe` keyword.
struct Raw;

#[mcs::tool_driver]
impl Raw {
    /// Reads memory.
    #[tool]
    unsafe fn peek(&self, address: u64) -> u64 {
        address
    }
}

fn main() {}
