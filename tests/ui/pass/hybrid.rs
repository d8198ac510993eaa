// #[mcs::hybrid] in either order with #[mcs::tool_driver], with options, on a generic impl.
use mcs::{Driver, DriverResponse, LlmResponse, ToolDriver};

struct Above;

#[mcs::hybrid(system = "Tools of {driver}: {tools}. Call as {call_format}.")]
#[mcs::tool_driver]
impl Above {
    /// Says hi.
    #[tool]
    fn hi(&self) -> String {
        "hi".into()
    }
}

struct Below;

#[mcs::tool_driver]
#[mcs::hybrid(unknown_tools = "reject", compact_threshold = 0)]
impl Below {
    /// Says bye.
    #[tool]
    async fn bye(&self) -> String {
        "bye".into()
    }
}

struct Generic<T> {
    marker: std::marker::PhantomData<fn() -> T>,
}

#[mcs::tool_driver]
#[mcs::hybrid]
impl<T: 'static> Generic<T> {
    /// Counts.
    #[tool]
    fn count(&self, to: u8) -> Vec<u8> {
        (0..to).collect()
    }
}

fn is_driver<D: Driver + ToolDriver>(_: &D) {}

fn main() {
    is_driver(&Above);
    is_driver(&Below);
    is_driver(&Generic::<String> {
        marker: std::marker::PhantomData,
    });
    assert!(Driver::get_driver_system_message(&Above, None).starts_with("Tools of Above:"));
    assert!(Driver::get_driver_system_message(&Below, None).contains("describe_tool"));
    let response: DriverResponse = block_on(
        Below.process_llm_response(LlmResponse::Text(r#"{"tool": "nope", "arguments": {}}"#)),
    );
    assert!(response.call_failed, "reject policy");
}

/// Drives a future that never waits (the tools here are ready at once).
fn block_on<F: std::future::Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut context = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
    }
}
