//! What a `tools/call` through the MCP bridge costs next to calling the driver directly.
//!
//! One annotated driver (the to-do list of the repository's examples, with one task on it).
//! Two ways to call `list_tasks`:
//! - `direct`: `execute_tool` on the driver — the baseline;
//! - `bridge`: the same driver served by `McpServer` and called through `McpToolDriver`
//!   over an in-process duplex pipe: JSON-RPC encoding both ways, rmcp's service loops,
//!   argument validation on the server, the result as text and structured content and read
//!   back.
//!
//! Both run on one current-thread tokio runtime (`block_on` per call, so both lines pay it).
//! `cargo bench -p mcs-mcp --bench bridge`; figures in BENCHMARKS.md. The ratios printed after
//! the group come from the interleaved line (see `benches/common/interleave.rs`).

use criterion::{Criterion, criterion_group, criterion_main};
use mcs::ToolDriver;
use mcs_mcp::{ConnectOptions, McpServer, McpToolDriver};
use serde_json::json;

// The shared measuring code; its `complete` (for futures ready at once) is not needed here.
#[allow(dead_code)]
#[path = "../../benches/common/interleave.rs"]
mod interleave;

#[path = "../../examples/common/todo.rs"]
mod todo;

use interleave::{line, measure};

fn bridge(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let direct = todo::Todo::default();
    let (remote, _serving) = runtime.block_on(async {
        let (server_end, client_end) = tokio::io::duplex(64 * 1024);
        let serving = tokio::spawn(McpServer::new(todo::Todo::default()).serve(server_end));
        let remote = McpToolDriver::connect("bench", client_end, ConnectOptions::default())
            .await
            .expect("the bridge connects");
        (remote, serving.await.unwrap().expect("the server starts"))
    });
    let task = json!({"title": "Water the plants", "priority": "high"});
    runtime
        .block_on(direct.execute_tool("add_task", task.clone()))
        .unwrap();
    runtime
        .block_on(remote.execute_tool("add_task", task))
        .unwrap();
    let arguments = json!({"include_done": true});
    assert_eq!(
        runtime
            .block_on(direct.execute_tool("list_tasks", arguments.clone()))
            .unwrap(),
        runtime
            .block_on(remote.execute_tool("list_tasks", arguments.clone()))
            .unwrap()
    );

    let mut group = c.benchmark_group("tools/call");
    let mut lines = [
        line("direct", || {
            runtime
                .block_on(direct.execute_tool("list_tasks", arguments.clone()))
                .unwrap()
        }),
        line("bridge", || {
            runtime
                .block_on(remote.execute_tool("list_tasks", arguments.clone()))
                .unwrap()
        }),
    ];
    measure(&mut group, 50, 1, &mut lines);
    group.finish();
}

criterion_group!(benches, bridge);
criterion_main!(benches);
