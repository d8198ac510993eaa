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
use mcs::llm::{OpenAiClient, ScriptedClient};
use mcs_mcp::{ConnectOptions, McpServer, McpToolDriver};

#[path = "../../examples/common/converse.rs"]
mod converse;
#[path = "../../examples/common/todo.rs"]
mod todo;

const REQUEST: &str = "Put 'water the plants' on my list as urgent, and 'read a book' for \
                       whenever. Then tell me what is still open, most urgent first.";

/// What a Qwen-style model writes for this request against the to-do tools.
fn scripted_model() -> ScriptedClient {
    ScriptedClient::from_texts([
        // Two calls in Hermes tags; the second has a priority that does not exist, which the
        // schema that came over MCP catches before the call leaves.
        "<tool_call>\n{\"name\": \"add_task\", \"arguments\": {\"title\": \"Water the plants\", \"priority\": \"high\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"add_task\", \"arguments\": {\"title\": \"Read a book\", \"priority\": \"whenever\"}}\n</tool_call>",
        "<tool_call>\n{\"name\": \"add_task\", \"arguments\": {\"title\": \"Read a book\", \"priority\": \"low\"}}\n</tool_call>",
        "{\"tool\": \"list_tasks\", \"arguments\": {}}",
        "You have two open tasks:\n1. Water the plants (high)\n2. Read a book (low)",
    ])
    .with_model("qwen2.5-7b-instruct")
}

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
