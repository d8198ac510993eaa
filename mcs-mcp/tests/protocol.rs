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
