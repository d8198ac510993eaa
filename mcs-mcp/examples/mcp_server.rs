//! The example drivers as an MCP server: the to-do list of the repository's examples and a
//! unit converter, behind one orchestrator.
//!
//! Over stdio (what MCP hosts start):
//!
//! ```text
//! cargo run -p mcs-mcp --example mcp_server
//! ```
//!
//! Over streamable HTTP, at `http://127.0.0.1:8000/mcp`:
//!
//! ```text
//! cargo run -p mcs-mcp --example mcp_server -- --http 127.0.0.1:8000
//! ```
//!
//! In an MCP host's configuration (Claude Desktop's `claude_desktop_config.json`, for one),
//! with the binary built once by `cargo build -p mcs-mcp --example mcp_server`:
//!
//! ```text
//! "mcpServers": { "mcs-examples": { "command": "/path/to/target/debug/examples/mcp_server" } }
//! ```

use std::sync::Arc;

use mcs::orchestrator::{ConflictPolicy, Orchestrator, Registration};
use mcs_mcp::McpServer;

#[path = "../../examples/common/todo.rs"]
mod todo;

/// Converts between units of temperature and length.
struct Units;

#[mcs::tool_driver(name = "units")]
impl Units {
    /// Converts a temperature from degrees Celsius to degrees Fahrenheit.
    ///
    /// # Arguments
    ///
    /// * `celsius` - The temperature in degrees Celsius.
    #[tool(title = "Celsius to Fahrenheit")]
    fn celsius_to_fahrenheit(&self, celsius: f64) -> f64 {
        celsius * 9.0 / 5.0 + 32.0
    }

    /// Converts a length from kilometres to miles.
    ///
    /// # Arguments
    ///
    /// * `km` - The length in kilometres.
    #[tool(title = "Kilometres to miles")]
    fn km_to_miles(&self, km: f64) -> f64 {
        km / 1.609_344
    }
}

fn drivers() -> Result<Orchestrator, Box<dyn std::error::Error>> {
    let orchestrator = Orchestrator::new("mcs-examples", ConflictPolicy::Reject);
    orchestrator.register("todo", Arc::new(todo::Todo::default()), Registration::new())?;
    orchestrator.register("units", Arc::new(Units), Registration::new())?;
    Ok(orchestrator)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server =
        McpServer::new(drivers()?).with_implementation("mcs-examples", env!("CARGO_PKG_VERSION"));
    let mut arguments = std::env::args().skip(1);
    match (arguments.next().as_deref(), arguments.next()) {
        (None, _) => server.serve_stdio().await?,
        (Some("--http"), Some(address)) => {
            let listener = tokio::net::TcpListener::bind(&address).await?;
            // Tests and scripts read this line to learn the port (`--http 127.0.0.1:0`).
            eprintln!("serving MCP at http://{}/mcp", listener.local_addr()?);
            server
                .http()
                .serve(listener, async {
                    let _ = tokio::signal::ctrl_c().await;
                })
                .await?;
        }
        _ => return Err("usage: mcp_server [--http ADDRESS]".into()),
    }
    Ok(())
}
