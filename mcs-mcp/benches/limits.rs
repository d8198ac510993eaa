//! What a message at the size limit costs, and how long an oversized one takes to be answered.
//!
//! One server (`McpServer::serve_io`, the stdio framing, default limits of 16 MiB) over an
//! in-process duplex pipe; a client that writes lines by hand and reads the answer:
//! - `at_limit`: a `tools/call` of exactly 16 MiB (the largest request served) — parsed,
//!   validated, executed (it returns the text's length), answered;
//! - `over_limit`: the same request one byte longer — skipped as it is read (the `id`, which
//!   comes last as the TypeScript SDK writes it, picked out on the way) and answered with a
//!   `-32600` error: the time until a client has a clear error;
//! - `refused_by_client`: `McpToolDriver` given a 16 MiB text: the request is measured and
//!   refused before it is sent.
//!
//! `cargo bench -p mcs-mcp --bench limits`; figures in the crate docs (`Limits`).

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use mcs::ToolDriver;
use mcs_mcp::{ConnectOptions, DEFAULT_MESSAGE_LIMIT, McpServer, McpToolDriver};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// Measures text.
struct Texts;

#[mcs::tool_driver(name = "texts")]
impl Texts {
    /// The length of a text, in bytes.
    #[tool]
    fn length(&self, text: String) -> usize {
        text.len()
    }
}

/// A `tools/call` of `length` exactly `bytes` long, with a newline, the id last.
fn call_line(bytes: usize) -> Vec<u8> {
    let line = |letters: usize| {
        format!(
            r#"{{"method":"tools/call","params":{{"name":"length","arguments":{{"text":"{}"}}}},"jsonrpc":"2.0","id":1}}"#,
            "x".repeat(letters)
        )
    };
    let mut line = line(bytes - line(0).len()).into_bytes();
    assert_eq!(line.len(), bytes);
    line.push(b'\n');
    line
}

fn limits(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let (client, server_end) = tokio::io::duplex(1024 * 1024);
    let (server_read, server_write) = tokio::io::split(server_end);
    let (read, mut write) = tokio::io::split(client);
    let mut read = BufReader::new(read).lines();
    let _serving = runtime.block_on(async {
        let serving = tokio::spawn(McpServer::new(Texts).serve_io(server_read, server_write));
        let hello = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "0"}}});
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        write
            .write_all(format!("{hello}\n{initialized}\n").as_bytes())
            .await
            .unwrap();
        read.next_line()
            .await
            .unwrap()
            .expect("initialize is answered");
        serving.await.unwrap().expect("the session starts")
    });
    let mut exchange = |line: &[u8]| -> Value {
        runtime.block_on(async {
            write.write_all(line).await.unwrap();
            let answer = read.next_line().await.unwrap().expect("an answer");
            serde_json::from_str(&answer).unwrap()
        })
    };
    let at_limit = call_line(DEFAULT_MESSAGE_LIMIT);
    let over_limit = call_line(DEFAULT_MESSAGE_LIMIT + 1);
    assert!(exchange(&at_limit)["result"].is_object());
    assert_eq!(exchange(&over_limit)["error"]["code"], -32600);

    let mut group = c.benchmark_group("a 16 MiB message");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("at_limit", |b| b.iter(|| exchange(&at_limit)));
    group.bench_function("over_limit", |b| b.iter(|| exchange(&over_limit)));

    let (remote, _session) = runtime.block_on(async {
        let (client_end, server_end) = tokio::io::duplex(64 * 1024);
        let (read, write) = tokio::io::split(server_end);
        let serving = tokio::spawn(McpServer::new(Texts).serve_io(read, write));
        let remote = McpToolDriver::connect("bench", client_end, ConnectOptions::default())
            .await
            .expect("connects");
        (remote, serving.await.unwrap().expect("serves"))
    });
    let text = json!({ "text": "x".repeat(DEFAULT_MESSAGE_LIMIT) });
    group.bench_function("refused_by_client", |b| {
        b.iter(|| {
            runtime
                .block_on(remote.execute_tool("length", text.clone()))
                .unwrap_err()
        })
    });
    group.finish();
}

criterion_group!(benches, limits);
criterion_main!(benches);
