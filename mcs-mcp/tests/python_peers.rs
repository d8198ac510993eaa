//! Against the official Python MCP SDK (`mcp` on PyPI, pinned by `tests/python/
//! requirements.txt`): its `Client` drives the mcs example server, over stdio and streamable
//! HTTP, in both the 2026-07-28 protocol (`server/discover`) and the initialize handshake;
//! and a server written with its `MCPServer` (`tests/python/server.py`) is consumed by
//! `McpToolDriver`, over both transports.
//!
//! `.ci/run` installs the SDK into `target/python-peers` (a venv); `MCS_PYTHON_PEERS` names
//! another Python that has it. Without either, each test prints why and returns.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use mcs::{ToolDriver, ToolError};
use mcs_mcp::{ConnectOptions, McpServer, McpToolDriver};
use serde_json::{Value, json};
use tokio::process::Command;

mod common;

#[path = "../../examples/common/todo.rs"]
mod todo;

fn scripts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python")
}

/// The Python that has the SDK, or why the test cannot run.
fn python() -> Option<PathBuf> {
    let python = std::env::var_os("MCS_PYTHON_PEERS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/python-peers/bin/python"),
        PathBuf::from,
    );
    let has_sdk = std::process::Command::new(&python)
        .args(["-c", "import mcp.server.mcpserver"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !has_sdk {
        eprintln!(
            "skipped: {} cannot import the MCP SDK; run .ci/run's step for Python peers, or \
             set MCS_PYTHON_PEERS to a Python that has `mcp` installed",
            python.display()
        );
        return None;
    }
    Some(python)
}

/// What the SDK's client saw of `target` (a command line or a URL), in `mode`.
async fn drive(python: &Path, target: &str, mode: &str) -> Value {
    let output = tokio::time::timeout(
        Duration::from_secs(120),
        Command::new(python)
            .arg(scripts().join("client.py"))
            .args([target, mode])
            .kill_on_drop(true)
            .output(),
    )
    .await
    .expect("the Python client finishes")
    .expect("the Python client runs");
    assert!(
        output.status.success(),
        "the Python client failed against {target} ({mode}):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("the client prints JSON")
}

/// What the SDK's client must see of the example server, whatever the transport and mode.
fn check_the_example_server(seen: &Value, protocol: &str) {
    assert_eq!(seen["protocol"], protocol, "{seen}");
    common::check_example_tools(&seen["tools"]);

    common::check_task_added(&seen["added"]);
    let listed = &seen["listed"];
    assert_eq!(listed["isError"], false, "{listed}");
    let text: Value = serde_json::from_str(listed["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text[0]["title"], "Buy milk");
    assert_eq!(seen["converted"]["content"][0]["text"], "212.0");

    // Wrong and missing arguments are tool errors a model can read and correct.
    common::check_wrong_priority(&seen["wrong"]);
    let missing = &seen["missing"];
    assert_eq!(missing["isError"], true, "{missing}");
    assert!(
        missing["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("missing required argument `id`"),
        "{missing}"
    );
    // A tool the server does not have is a protocol error (MCP: invalid params), which the
    // SDK raises with the server's message.
    let unknown = seen["unknown"]["raised"].as_str().unwrap_or_default();
    assert!(
        unknown.contains("unknown tool `no_such_tool`"),
        "{}",
        seen["unknown"]
    );
}

#[tokio::test]
async fn the_python_sdk_client_drives_the_mcs_server_over_stdio() {
    let Some(python) = python() else {
        return;
    };
    let server = common::example_server();
    let server = server.to_str().unwrap();
    // The SDK probes the 2026-07-28 protocol first; asked for the handshake, it gets it.
    check_the_example_server(&drive(&python, server, "auto").await, "2026-07-28");
    check_the_example_server(&drive(&python, server, "legacy").await, "2025-11-25");
}

#[tokio::test]
async fn the_python_sdk_client_drives_the_mcs_server_over_http() {
    let Some(python) = python() else {
        return;
    };
    for (mode, protocol) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let serving = tokio::spawn(McpServer::new(todo::Todo::default()).http().serve(
            listener,
            async move {
                let _ = stopped.await;
            },
        ));
        let seen = drive(&python, &url, mode).await;
        assert_eq!(seen["protocol"], protocol, "{seen}");
        assert_eq!(seen["tools"].as_array().unwrap().len(), 3, "{seen}");
        assert_eq!(seen["added"]["structuredContent"]["id"], 1, "{seen}");
        assert_eq!(seen["wrong"]["isError"], true, "{seen}");
        assert_eq!(seen["missing"]["isError"], true, "{seen}");
        stop.send(()).unwrap();
        serving.await.unwrap().unwrap();
    }
}

fn options() -> ConnectOptions {
    ConnectOptions::default()
        .connect_timeout(Duration::from_secs(60))
        .call_timeout(Duration::from_secs(30))
}

/// What `McpToolDriver` must make of the Python server, whatever the transport.
async fn check_the_python_server(remote: &McpToolDriver) {
    assert!(
        remote.skipped_tools().is_empty(),
        "{:?}",
        remote.skipped_tools()
    );
    let tools = remote.list_tools();
    let names: Vec<&str> = tools.iter().map(|t| t.name()).collect();
    // Its resources reach a model as two tools of the driver's.
    assert_eq!(
        names,
        [
            "add",
            "forecast",
            "centroid",
            "fail",
            "list_resources",
            "read_resource"
        ]
    );
    let forecast = &tools[1];
    assert_eq!(forecast.description(), "A made-up forecast for a city.");
    assert_eq!(forecast.input_schema()["required"], json!(["city"]));
    assert_eq!(
        forecast.input_schema()["properties"]["units"]["enum"],
        json!(["celsius", "fahrenheit"])
    );
    // Pydantic's `$defs` come along, so a nested model's schema is whole.
    assert_eq!(
        tools[2].input_schema()["$defs"]["Point"]["required"],
        json!(["x", "y"])
    );

    // A structured answer is the result; a primitive one is as the server's output schema
    // declares it (`{"result": …}`).
    let sum = remote
        .execute_tool("add", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert_eq!(sum, json!({"result": 5}));
    let days = remote
        .execute_tool("forecast", json!({"city": "Oslo", "days": 2}))
        .await
        .unwrap();
    assert_eq!(
        days,
        json!({"city": "Oslo", "days": 2, "temperatures": [20.0, 21.0]})
    );
    let middle = remote
        .execute_tool(
            "centroid",
            json!({"points": [{"x": 0, "y": 0}, {"x": 2, "y": 4}]}),
        )
        .await
        .unwrap();
    assert_eq!(middle, json!({"x": 1.0, "y": 2.0}));
    let notes = remote
        .execute_tool("read_resource", json!({"uri": "notes://today"}))
        .await
        .unwrap();
    assert!(notes.to_string().contains("Buy milk. Call Ana."), "{notes}");

    // The server's own error is the tool's, with its message.
    let failed = remote
        .execute_tool("fail", json!({"reason": "testing"}))
        .await
        .unwrap_err();
    assert!(matches!(failed, ToolError::Execution { .. }), "{failed:?}");
    assert!(
        failed.to_string().contains("failed on purpose: testing"),
        "{failed}"
    );
    // Wrong arguments are caught against the listed schema before they are sent, in
    // mcs's words, the nested model's too.
    let wrong = remote
        .execute_tool("forecast", json!({"city": "Oslo", "units": "kelvin"}))
        .await
        .unwrap_err();
    assert_eq!(
        wrong.to_string(),
        "invalid arguments for tool `forecast`: argument `units`: expected one of \
         \"celsius\", \"fahrenheit\", got the string \"kelvin\""
    );
    let wrong = remote
        .execute_tool("centroid", json!({"points": [{"x": 1}]}))
        .await
        .unwrap_err();
    assert!(
        matches!(wrong, ToolError::InvalidArguments { .. }),
        "{wrong:?}"
    );
    assert_eq!(
        wrong.to_string(),
        "invalid arguments for tool `centroid`: missing required argument `points[0].y` \
         (expected a number)"
    );

    // Its prompt is conversation messages.
    let review = remote
        .get_prompt("review", [("code", "fn main() {}")])
        .await
        .unwrap();
    assert_eq!(
        review,
        [json!({"role": "user", "content": "Review this rust code:\n\nfn main() {}"})]
    );
}

#[tokio::test]
async fn the_mcs_client_consumes_a_python_sdk_server_over_stdio() {
    let Some(python) = python() else {
        return;
    };
    let mut command = Command::new(&python);
    command.arg(scripts().join("server.py"));
    let remote = McpToolDriver::spawn_with(command, options())
        .await
        .expect("the Python server starts");
    check_the_python_server(&remote).await;
    remote.close().await;
}

#[tokio::test]
async fn the_mcs_client_consumes_a_python_sdk_server_over_http() {
    let Some(python) = python() else {
        return;
    };
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut server = Command::new(&python)
        .arg(scripts().join("server.py"))
        .args(["http", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("the Python server starts");
    let url = format!("http://127.0.0.1:{port}/mcp");
    // The server takes a moment to listen.
    let mut remote = None;
    for _ in 0..120 {
        match McpToolDriver::connect_url_with(&url, options()).await {
            Ok(connected) => {
                remote = Some(connected);
                break;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(250)).await,
        }
    }
    let remote = remote.expect("the Python server listens within 30 s");
    check_the_python_server(&remote).await;
    remote.close().await;
    server.kill().await.unwrap();
}
