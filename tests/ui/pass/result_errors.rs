// Every documented error type of a `Result`-returning tool compiles and reaches the caller:
// `std::io::Error` (and the `io::Result` alias), `String`, `ToolError` (passed through) and
// `Box<dyn Error + Send + Sync>`; plus a tool returning `()`.
use std::error::Error;
use std::io;

use mcs::{ToolDriver, ToolError};

struct Failing;

#[mcs::tool_driver]
impl Failing {
    /// Fails with an I/O error.
    #[tool]
    fn io(&self) -> Result<u32, io::Error> {
        Err(io::Error::other("disk on fire"))
    }

    /// Fails through the `io::Result` alias.
    #[tool]
    fn io_alias(&self) -> io::Result<u32> {
        Err(io::Error::other("disk still on fire"))
    }

    /// Fails with a message.
    #[tool]
    fn text(&self) -> Result<u32, String> {
        Err("no luck".to_owned())
    }

    /// Fails with a tool error, passed through as it is.
    #[tool]
    fn tool_error(&self) -> Result<u32, ToolError> {
        Err(ToolError::execution("tool_error", "as is"))
    }

    /// Fails with a boxed error.
    #[tool]
    async fn boxed(&self) -> Result<u32, Box<dyn Error + Send + Sync>> {
        Err("boxed failure".into())
    }

    /// Succeeds with nothing.
    #[tool]
    fn nothing(&self) -> Result<(), String> {
        Ok(())
    }

    /// Returns unit.
    #[tool]
    fn unit(&self) {}
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let driver = Failing;
    let message = |name: &'static str| {
        let driver = &driver;
        async move {
            let error = driver
                .execute_tool(name, serde_json::Value::Null)
                .await
                .unwrap_err();
            error.to_string()
        }
    };
    assert!(message("io").await.contains("disk on fire"));
    assert!(message("io_alias").await.contains("disk still on fire"));
    assert!(message("text").await.contains("no luck"));
    assert_eq!(
        message("tool_error").await,
        "tool `tool_error` failed: as is"
    );
    assert!(message("boxed").await.contains("boxed failure"));
    let io_error = driver
        .execute_tool("io", serde_json::Value::Null)
        .await
        .unwrap_err();
    assert!(
        io_error.source().is_some(),
        "an std::error::Error is kept as the source"
    );
    let nothing = driver
        .execute_tool("nothing", serde_json::Value::Null)
        .await;
    assert_eq!(nothing.unwrap(), serde_json::Value::Null);
    let unit = driver.execute_tool("unit", serde_json::Value::Null).await;
    assert_eq!(unit.unwrap(), serde_json::Value::Null);
}
