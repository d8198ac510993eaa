//! A model given an MCP server's tools: the server is consumed by `McpToolDriver`, wrapped in
//! `Hybrid`, and the conversation runs as with any mcs driver.
//!
//! ```text
//! cargo run -p mcs-mcp --example mcp_client
//! ```
//!
//! Without arguments, the to-do list of the repository's examples is served over MCP in this
//! process (an in-memory pipe between an `McpServer` and the `McpToolDriver`), and a scripted
//! model plays the part, mistakes included. Point it at a real model with
//! `MCS_LLM_BASE_URL` (and `MCS_LLM_MODEL`, `MCS_LLM_API_KEY`), as for the `conversation`
//! example. Any other MCP server is reached by giving its command line:
//!
//! ```text
//! MCS_LLM_BASE_URL=http://localhost:8080/v1 MCS_LLM_MODEL=qwen2.5-7b-instruct \
//!     cargo run -p mcs-mcp --example mcp_client -- npx -y @modelcontextprotocol/server-everything
//! ```

use mcs::ToolDriver;
use mcs::hybrid::Hybrid;
use mcs::llm::OpenAiClient;
use mcs_mcp::{ConnectOptions, McpServer, McpToolDriver};

#[path = "../../examples/common/converse.rs"]
mod converse;
#[path = "../../examples/common/todo.rs"]
mod todo;
#[path = "../../examples/common/todo_script.rs"]
mod todo_script;

use todo_script::{REQUEST, scripted_model};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let command: Vec<String> = std::env::args().skip(1).collect();
    let model = OpenAiClient::from_env()?;
    // The server's side of the in-process pipe runs while this is held.
    let mut _serving = None;
    let remote = match command.split_first() {
        Some((program, arguments)) => {
            let mut command = tokio::process::Command::new(program);
            command.args(arguments);
            McpToolDriver::spawn_with(command, ConnectOptions::default()).await?
        }
        None => {
            let (server_end, client_end) = tokio::io::duplex(64 * 1024);
            let server = tokio::spawn(McpServer::new(todo::Todo::default()).serve(server_end));
            let remote =
                McpToolDriver::connect("todo (in process)", client_end, ConnectOptions::default())
                    .await?;
            _serving = Some(server.await??);
            remote
        }
    };
    println!(
        "(connected to {}: {} tools)",
        remote.server(),
        remote.list_tools().len()
    );
    if model.is_none() && !command.is_empty() {
        for tool in remote.list_tools().iter() {
            println!("{}: {}", tool.name(), tool.label());
        }
        println!("\n(set MCS_LLM_BASE_URL to give these tools to a model)");
        return Ok(());
    }

    converse::converse(&Hybrid::new(remote), scripted_model(), REQUEST).await?;
    Ok(())
}
