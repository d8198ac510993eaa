//! A client that writes JSON-RPC lines by hand, for what no SDK client would send: lines over
//! the limit, lines that are not JSON, parameters of the wrong shape.

use std::time::Duration;

use mcs::ToolDriver;
use mcs_mcp::McpServer;
use mcs_mcp::rmcp::{RoleServer, service::RunningService};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};

/// A raw client of a server served with `serve_io`, past `initialize`.
pub(crate) struct Raw<D: ToolDriver + 'static> {
    write: WriteHalf<DuplexStream>,
    read: tokio::io::Lines<BufReader<ReadHalf<DuplexStream>>>,
    /// The server's session, kept running while the client is.
    _serving: RunningService<RoleServer, McpServer<D>>,
}

impl<D: ToolDriver + 'static> Raw<D> {
    pub(crate) async fn connect(server: McpServer<D>) -> Self {
        let (client, server_end) = tokio::io::duplex(64 * 1024);
        let (server_read, server_write) = tokio::io::split(server_end);
        let serving = tokio::spawn(server.serve_io(server_read, server_write));
        let (read, mut write) = tokio::io::split(client);
        let mut read = BufReader::new(read).lines();
        let initialize = json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"}
            }
        });
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        write
            .write_all(format!("{initialize}\n{initialized}\n").as_bytes())
            .await
            .expect("the server reads");
        let answer = read
            .next_line()
            .await
            .expect("readable")
            .expect("an answer");
        assert!(answer.contains("serverInfo"), "{answer}");
        let serving = serving
            .await
            .expect("the server task ends")
            .expect("the session starts");
        Raw {
            write,
            read,
            _serving: serving,
        }
    }

    /// Writes `line` and a newline.
    pub(crate) async fn write_line(&mut self, line: &[u8]) {
        self.write.write_all(line).await.expect("the server reads");
        self.write.write_all(b"\n").await.expect("the server reads");
        self.write.flush().await.expect("the server reads");
    }

    pub(crate) async fn send(&mut self, message: &Value) {
        self.write_line(message.to_string().as_bytes()).await;
    }

    /// The next message from the server, within 10 s.
    pub(crate) async fn answer(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(10), self.read.next_line())
            .await
            .expect("the server answers within 10 s")
            .expect("the server's output is readable")
            .expect("the server is still there");
        serde_json::from_str(&line).unwrap_or_else(|error| panic!("{error}: {line}"))
    }

    /// `tools/call` of `tool` with `arguments` as request `id`, and its answer.
    pub(crate) async fn call(&mut self, id: u64, tool: &str, arguments: Value) -> Value {
        self.send(&json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}
        }))
        .await;
        self.answer().await
    }
}
