// One mistake gives one diagnostic: the driver is still usable as a `ToolDriver` (the
// macro emits a stub impl next to the error), so uses of it raise nothing more.
use std::sync::Arc;

struct Counter;

#[mcs::tool_driver]
impl Counter {
    /// Adds one.
    #[tool]
    fn bump(&mut self) -> u32 {
        1
    }

    fn helper(&self) -> u32 {
        2
    }
}

fn main() {
    let driver: Arc<dyn mcs::ToolDriver> = Arc::new(Counter);
    let _ = driver.list_tools();
    let _ = Counter.helper();
}
