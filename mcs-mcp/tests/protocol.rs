//! Protocol edges of the served side over stdio framing: what no SDK client sends, each
//! answered with the JSON-RPC error that names it, the session going on.

use serde_json::json;

#[path = "common/raw.rs"]
mod raw;
#[path = "../../examples/common/todo.rs"]
mod todo;

use mcs_mcp::McpServer;
use raw::Raw;

#[tokio::test]
async fn a_line_that_is_not_json_gets_a_parse_error() {
    let mut raw = Raw::connect(McpServer::new(todo::Todo::default())).await;
    raw.write_line(b"{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": ")
        .await;
    let answer = raw.answer().await;
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
    // What could be read of it names the request, so its sender is not left waiting.
    assert_eq!(answer["id"], 3, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("the message is not JSON: "),
        "{message}"
    );

    raw.write_line(b"hello").await;
    let answer = raw.answer().await;
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
    assert_eq!(answer["id"], json!(null));

    raw.write_line(b"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\",\"x\":\"\xff\"}")
        .await;
    let answer = raw.answer().await;
    assert_eq!(answer["id"], 4, "{answer}");
    assert_eq!(answer["error"]["code"], -32700);
    assert_eq!(
        answer["error"]["message"],
        "the message is not UTF-8 (invalid byte at offset 51)"
    );

    let listed = raw.call(5, "list_tasks", json!({})).await;
    assert_eq!(listed["id"], 5);
    assert_eq!(listed["result"]["isError"], false, "{listed}");
}

#[tokio::test]
async fn json_that_is_not_a_request_gets_an_invalid_request_error() {
    let mut raw = Raw::connect(McpServer::new(todo::Todo::default())).await;
    raw.send(&json!({"jsonrpc": "2.0", "id": 6, "method": 12}))
        .await;
    let answer = raw.answer().await;
    assert_eq!(answer["id"], 6, "{answer}");
    assert_eq!(answer["error"]["code"], -32600);
    // An unknown notification is ignored, as rmcp ignores them (LSP-style extras).
    raw.send(&json!({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {}}))
        .await;
    let listed = raw.call(7, "list_tasks", json!({})).await;
    assert_eq!(listed["id"], 7, "{listed}");
}

#[tokio::test]
async fn tools_call_with_params_of_the_wrong_shape_gets_invalid_params() {
    let mut raw = Raw::connect(McpServer::new(todo::Todo::default())).await;
    for (id, params) in [
        (8, json!({"name": 5})),
        (9, json!({"arguments": {}})),
        (10, json!({"name": "list_tasks", "arguments": [1]})),
    ] {
        raw.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}))
            .await;
        let answer = raw.answer().await;
        assert_eq!(answer["id"], id, "{answer}");
        assert_eq!(answer["error"]["code"], -32602, "{params}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with("the params of `tools/call` do not fit it: "),
            "{message}"
        );
    }
    // A method no one has is still not found.
    raw.send(&json!({"jsonrpc": "2.0", "id": 11, "method": "tools/frobnicate"}))
        .await;
    let answer = raw.answer().await;
    assert_eq!(answer["error"]["code"], -32601, "{answer}");
}

/// What a client may send before `initialize`: notifications and answers are dropped (rmcp
/// ended the session for them), a request is told to initialize first, ping is answered,
/// and the session then starts as ever.
#[tokio::test]
async fn messages_before_initialize_neither_end_the_session_nor_go_unanswered() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    let (client, server_end) = tokio::io::duplex(64 * 1024);
    let (server_read, server_write) = tokio::io::split(server_end);
    let serving =
        tokio::spawn(McpServer::new(todo::Todo::default()).serve_io(server_read, server_write));
    let (read, mut write) = tokio::io::split(client);
    let mut lines = BufReader::new(read).lines();
    let mut answer = async || -> serde_json::Value {
        let line = tokio::time::timeout(std::time::Duration::from_secs(10), lines.next_line())
            .await
            .expect("an answer within 10 s")
            .expect("readable")
            .expect("the server is still there");
        serde_json::from_str(&line).unwrap()
    };
    let before = [
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 9}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 77, "result": {}}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        json!({"jsonrpc": "2.0", "id": null, "method": "ping"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}),
    ];
    for message in &before {
        write
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }
    let mut answers = vec![answer().await, answer().await, answer().await];
    answers.sort_by_key(|a| a["id"].as_i64().unwrap_or(-1));
    assert_eq!(answers[0]["id"], json!(null), "{answers:?}");
    assert_eq!(answers[0]["error"]["code"], -32600);
    assert!(
        answers[0]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("`id` is null"),
        "{answers:?}"
    );
    assert_eq!(answers[1]["id"], 1);
    assert_eq!(answers[1]["error"]["code"], -32600);
    assert_eq!(
        answers[1]["error"]["message"],
        "`tools/list` before `initialize`: the session has not started; send an `initialize` request first"
    );
    assert_eq!(answers[2]["id"], 2);
    assert_eq!(answers[2]["result"], json!({}), "{answers:?}");

    // An `initialize` whose params do not fit says so, and the session can still start.
    write
        .write_all(
            format!(
                "{}\n",
                json!({"jsonrpc": "2.0", "id": 30, "method": "initialize", "params": {"capabilities": {}}})
            )
            .as_bytes(),
        )
        .await
        .unwrap();
    let refused = answer().await;
    assert_eq!(refused["id"], 30, "{refused}");
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("the params of `initialize` do not fit it: ")
            && message.contains("protocolVersion"),
        "{message}"
    );

    let initialize = json!({
        "jsonrpc": "2.0", "id": 3, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "raw", "version": "0"}}
    });
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let list = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list"});
    write
        .write_all(format!("{initialize}\n{initialized}\n{list}\n").as_bytes())
        .await
        .unwrap();
    let started = answer().await;
    assert_eq!(started["id"], 3);
    assert!(started["result"]["serverInfo"].is_object(), "{started}");
    let listed = answer().await;
    assert_eq!(listed["id"], 4);
    assert!(
        listed["result"]["tools"]
            .as_array()
            .is_some_and(|t| !t.is_empty())
    );
    drop(serving);
}

/// A tool that waits until it is dropped, and says when it started and when it was dropped.
struct Hanging {
    meta: mcs::DriverMeta,
    tools: std::sync::Arc<[mcs::Tool]>,
    started: std::sync::Arc<tokio::sync::Notify>,
    dropped: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

struct DropFlag(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

impl mcs::ToolDriver for Hanging {
    fn meta(&self) -> &mcs::DriverMeta {
        &self.meta
    }

    fn list_tools(&self) -> std::sync::Arc<[mcs::Tool]> {
        std::sync::Arc::clone(&self.tools)
    }

    fn execute_tool<'a>(
        &'a self,
        _name: &'a str,
        _arguments: serde_json::Value,
    ) -> mcs::ToolFuture<'a> {
        let flag = DropFlag(std::sync::Arc::clone(&self.dropped));
        let started = std::sync::Arc::clone(&self.started);
        mcs::ToolFuture::new(async move {
            let _flag = flag;
            started.notify_one();
            std::future::pending::<()>().await;
            Ok(serde_json::Value::Null)
        })
    }
}

/// `notifications/cancelled` stops the call where it is: its future is dropped (for a REST
/// tool, the request to the API with it), not left running to its timeout.
#[tokio::test]
async fn a_cancelled_call_is_dropped_at_once() {
    let started = std::sync::Arc::new(tokio::sync::Notify::new());
    let dropped = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let driver = Hanging {
        meta: mcs::DriverMeta::new("hanging", "hanging", "1"),
        tools: std::sync::Arc::from(vec![mcs::Tool::new("wait", "Waits.")]),
        started: std::sync::Arc::clone(&started),
        dropped: std::sync::Arc::clone(&dropped),
    };
    let mut raw = Raw::connect(McpServer::new(driver)).await;
    raw.send(&json!({"jsonrpc": "2.0", "id": 21, "method": "tools/call",
                     "params": {"name": "wait", "arguments": {}}}))
        .await;
    tokio::time::timeout(std::time::Duration::from_secs(10), started.notified())
        .await
        .expect("the call starts");
    assert!(!dropped.load(std::sync::atomic::Ordering::SeqCst));
    raw.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                     "params": {"requestId": 21, "reason": "user"}}),
    )
    .await;
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    while !dropped.load(std::sync::atomic::Ordering::SeqCst) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the call still runs"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    // The session goes on, and the cancelled request got no answer: the next one is ping's.
    raw.send(&json!({"jsonrpc": "2.0", "id": 22, "method": "ping"}))
        .await;
    let answer = raw.answer().await;
    assert_eq!(answer["id"], 22, "{answer}");
}

/// A driver that reaches more tools than it lists (as a gateway in discovery mode lists
/// only the tools that find the others): `find` is listed, `hidden` is not.
struct Reaching {
    meta: mcs::DriverMeta,
    tools: std::sync::Arc<[mcs::Tool]>,
}

impl mcs::ToolDriver for Reaching {
    fn meta(&self) -> &mcs::DriverMeta {
        &self.meta
    }

    fn list_tools(&self) -> std::sync::Arc<[mcs::Tool]> {
        std::sync::Arc::clone(&self.tools)
    }

    fn execute_tool<'a>(
        &'a self,
        name: &'a str,
        arguments: serde_json::Value,
    ) -> mcs::ToolFuture<'a> {
        mcs::ToolFuture::ready(match name {
            "find" => Ok(json!({"found": ["hidden"]})),
            "hidden" => Ok(json!({"called": "hidden", "with": arguments})),
            "hidden_near" => Err(mcs::ToolError::UnknownTool {
                name: name.to_owned(),
                suggestion: Some("hidden".to_owned()),
            }),
            _ => Err(mcs::ToolError::UnknownTool {
                name: name.to_owned(),
                suggestion: None,
            }),
        })
    }
}

/// A tool the driver reaches but does not list (a tool found through discovery) is served
/// when a model calls it by its name, as the discovery tools say it may; a name the driver
/// does not know is still an unknown tool, with the driver's suggestion when it has one.
#[tokio::test]
async fn a_tool_the_driver_reaches_but_does_not_list_is_called_by_its_name() {
    let driver = Reaching {
        meta: mcs::DriverMeta::new("reaching", "reaching", "1"),
        tools: std::sync::Arc::from(vec![mcs::Tool::new("find", "Finds the others.")]),
    };
    let mut raw = Raw::connect(McpServer::new(driver)).await;
    let called = raw.call(41, "hidden", json!({"x": 1})).await;
    assert_eq!(called["result"]["isError"], false, "{called}");
    assert_eq!(
        called["result"]["structuredContent"],
        json!({"called": "hidden", "with": {"x": 1}}),
        "{called}"
    );
    let near = raw.call(42, "hidden_near", json!({})).await;
    assert_eq!(near["error"]["code"], -32602, "{near}");
    assert!(
        near["error"]["message"]
            .as_str()
            .unwrap()
            .contains("`hidden`"),
        "{near}"
    );
    let unknown = raw.call(43, "nothing", json!({})).await;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
}
