// A driver type that is not `Sync` (a `Cell` field) cannot be a `ToolDriver`.
use std::cell::Cell;

struct Counter {
    count: Cell<u32>,
}

#[mcs::tool_driver]
impl Counter {
    /// Counts.
    #[tool]
    fn count(&self) -> u32 {
        self.count.get()
    }
}

fn main() {}
