//! The size limits of one message, both ways: the largest request served, an answer for a
//! request over the limit (with its id, at once), a result over the outgoing limit, and a
//! client whose errors name the limit rather than a timeout.

use std::time::{Duration, Instant};

use mcs::{ToolDriver, ToolError};
use mcs_mcp::{
    ConnectOptions, DEFAULT_MESSAGE_LIMIT, McpError, McpServer, McpToolDriver, MessageLimits,
};
use serde_json::{Value, json};

#[path = "common/raw.rs"]
mod raw;

use raw::Raw;

/// Measures and makes text.
struct Texts;

#[mcs::tool_driver(name = "texts")]
impl Texts {
    /// The length of a text, in bytes.
    #[tool]
    fn length(&self, text: String) -> usize {
        text.len()
    }

    /// A text of `times` letters x.
    #[tool]
    fn repeat(&self, times: usize) -> String {
        "x".repeat(times)
    }
}

/// A `tools/call` of `length` on a text of `letters` letters, as one line of JSON, the id
/// last (where the TypeScript SDK writes it).
fn length_call(id: u64, letters: usize) -> Vec<u8> {
    format!(
        r#"{{"method":"tools/call","params":{{"name":"length","arguments":{{"text":"{}"}}}},"jsonrpc":"2.0","id":{id}}}"#,
        "x".repeat(letters)
    )
    .into_bytes()
}

/// The number of letters that make [`length_call`] exactly `bytes` long.
fn letters_for(bytes: usize, id: u64) -> usize {
    bytes - length_call(id, 0).len()
}

#[tokio::test]
async fn a_request_over_the_limit_is_answered_with_its_id_at_once_and_the_session_goes_on() {
    let mut raw = Raw::connect(McpServer::new(Texts)).await;
    let line = length_call(7, letters_for(DEFAULT_MESSAGE_LIMIT + 1, 7));
    assert_eq!(line.len(), DEFAULT_MESSAGE_LIMIT + 1);
    let started = Instant::now();
    raw.write_line(&line).await;
    let answer = raw.answer().await;
    let elapsed = started.elapsed();
    assert_eq!(answer["id"], 7, "{answer}");
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert_eq!(
        message,
        "the request is 16777217 bytes (16.0 MiB), over this server's limit of 16777216 bytes \
         (16.0 MiB) for one message"
    );
    assert_eq!(
        answer["error"]["data"],
        json!({"messageBytes": DEFAULT_MESSAGE_LIMIT + 1, "limitBytes": DEFAULT_MESSAGE_LIMIT})
    );
    // The figure in the crate docs; a debug build, so the bound is loose.
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");

    let next = raw.call(8, "length", json!({"text": "abc"})).await;
    assert_eq!(next["id"], 8);
    assert_eq!(next["result"]["content"][0]["text"], "3", "{next}");
}

#[tokio::test]
async fn a_request_exactly_at_the_limit_is_served() {
    let mut raw = Raw::connect(McpServer::new(Texts)).await;
    let letters = letters_for(DEFAULT_MESSAGE_LIMIT, 9);
    raw.write_line(&length_call(9, letters)).await;
    let answer = raw.answer().await;
    assert_eq!(answer["id"], 9);
    assert_eq!(
        answer["result"]["content"][0]["text"],
        letters.to_string(),
        "{}",
        &answer.to_string()[..200.min(answer.to_string().len())]
    );
}

#[tokio::test]
async fn the_limit_is_configurable_and_a_notification_over_it_is_dropped() {
    let limits = MessageLimits::new(1024);
    let mut raw = Raw::connect(McpServer::new(Texts).message_limits(limits)).await;
    // A notification over the limit has no one waiting for it: no answer.
    let notification = format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"x":"{}"}}}}"#,
        "y".repeat(2000)
    );
    raw.write_line(notification.as_bytes()).await;
    raw.write_line(&length_call(3, 1100)).await;
    let answer = raw.answer().await;
    assert_eq!(
        answer["id"], 3,
        "the first answer is the request's: {answer}"
    );
    assert_eq!(answer["error"]["data"]["limitBytes"], 1024);
}

#[tokio::test]
async fn a_result_over_the_outgoing_limit_is_a_tool_error_that_says_so() {
    let limits = MessageLimits::default().with_outgoing(1024 * 1024);
    let mut raw = Raw::connect(McpServer::new(Texts).message_limits(limits)).await;
    let answer = raw.call(4, "repeat", json!({"times": 2_000_000})).await;
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("over this server's limit of 1048576 bytes (1.0 MiB) for one message"),
        "{text}"
    );
    let small = raw.call(5, "repeat", json!({"times": 3})).await;
    assert_eq!(small["result"]["content"][0]["text"], "xxx");
}

/// The server's side of a connection: the session runs while this is held.
type Serving = mcs_mcp::rmcp::service::RunningService<mcs_mcp::rmcp::RoleServer, McpServer<Texts>>;

/// A consumer of `Texts` served with the stdio framing over an in-process pipe.
async fn consumer(server: McpServer<Texts>, options: ConnectOptions) -> (McpToolDriver, Serving) {
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let (read, write) = tokio::io::split(server_end);
    let serving = tokio::spawn(server.serve_io(read, write));
    let remote = McpToolDriver::connect("texts", client_end, options)
        .await
        .expect("connects");
    (remote, serving.await.unwrap().expect("serves"))
}

/// The `McpError` inside a failed call.
fn mcp_error(error: &ToolError) -> &McpError {
    let ToolError::Execution {
        source: Some(source),
        ..
    } = error
    else {
        panic!("not an execution error with a source: {error:?}")
    };
    source
        .downcast_ref::<McpError>()
        .unwrap_or_else(|| panic!("not an McpError: {source:?}"))
}

#[tokio::test]
async fn the_client_refuses_a_request_over_its_limit_before_sending_it() {
    let (remote, _serving) = consumer(McpServer::new(Texts), ConnectOptions::default()).await;
    let text = "x".repeat(DEFAULT_MESSAGE_LIMIT);
    let started = Instant::now();
    let error = remote
        .execute_tool("length", json!({ "text": text }))
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(5));
    let McpError::MessageTooLarge { bytes, limit, .. } = mcp_error(&error) else {
        panic!("{error:?}")
    };
    assert!(*bytes > DEFAULT_MESSAGE_LIMIT);
    assert_eq!(*limit, DEFAULT_MESSAGE_LIMIT);
    let message = error.to_string();
    assert!(
        message.contains("over this client's limit of 16777216 bytes (16.0 MiB)"),
        "{message}"
    );
    assert!(message.contains("it was not sent"), "{message}");
}

#[tokio::test]
async fn a_request_over_the_servers_limit_fails_at_once_naming_the_servers_limit() {
    let options = ConnectOptions::default().message_limits(MessageLimits::new(64 * 1024 * 1024));
    let (remote, _serving) = consumer(McpServer::new(Texts), options).await;
    let started = Instant::now();
    let error = remote
        .execute_tool(
            "length",
            json!({ "text": "x".repeat(DEFAULT_MESSAGE_LIMIT) }),
        )
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(10));
    let McpError::MessageTooLarge { limit, .. } = mcp_error(&error) else {
        panic!("{error:?}")
    };
    assert_eq!(*limit, DEFAULT_MESSAGE_LIMIT);
    let message = error.to_string();
    assert!(
        message.contains("over this server's limit of 16777216 bytes (16.0 MiB)"),
        "{message}"
    );
    assert!(!message.contains("did not answer"), "{message}");
    // The connection is still good.
    let value: Value = remote
        .execute_tool("length", json!({"text": "four"}))
        .await
        .unwrap();
    assert_eq!(value, json!(4));
}

#[tokio::test]
async fn a_listing_over_half_the_outgoing_limit_comes_in_pages() {
    // Each of the two tools is some 300 bytes; 800 bytes out make a page budget of 400.
    let limits = MessageLimits::default().with_outgoing(800);
    let mut raw = Raw::connect(McpServer::new(Texts).message_limits(limits)).await;
    raw.send(&json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list"}))
        .await;
    let first = raw.answer().await;
    let tools = first["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1, "{first}");
    let cursor = first["result"]["nextCursor"].as_str().unwrap().to_owned();
    raw.send(
        &json!({"jsonrpc": "2.0", "id": 8, "method": "tools/list", "params": {"cursor": cursor}}),
    )
    .await;
    let second = raw.answer().await;
    assert_eq!(
        second["result"]["tools"].as_array().unwrap().len(),
        1,
        "{second}"
    );
    assert!(second["result"].get("nextCursor").is_none(), "{second}");
    assert_ne!(tools[0]["name"], second["result"]["tools"][0]["name"]);
    // A cursor it never gave is an invalid request, said so.
    raw.send(
        &json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": {"cursor": "x"}}),
    )
    .await;
    let wrong = raw.answer().await;
    assert_eq!(wrong["error"]["code"], -32602, "{wrong}");
}

#[tokio::test]
async fn a_consumer_reads_every_page_of_a_listing() {
    let limits = MessageLimits::default().with_outgoing(800);
    let (remote, _serving) = consumer(
        McpServer::new(Texts).message_limits(limits),
        ConnectOptions::default(),
    )
    .await;
    let names: Vec<String> = remote
        .list_tools()
        .iter()
        .map(|tool| tool.name().to_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}
