// An async tool whose future is not `Send` (an `Rc` held across an `.await`) is rejected:
// drivers run tools on any thread.
use std::rc::Rc;

struct Slow;

#[mcs::tool_driver]
impl Slow {
    /// Waits.
    #[tool]
    async fn wait(&self) -> u32 {
        let shared = Rc::new(1);
        std::future::ready(()).await;
        *shared
    }
}

fn main() {}
