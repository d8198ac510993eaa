//! Servers that misbehave: they exit, hang, write garbage, or list schemas mcs cannot use.
//! Every case ends in an error that says what happened, within the timeouts, without a
//! panic.
//!
//! The misbehaving server is a short Python script (CI runs Python already), one mode per
//! fault.

use std::time::{Duration, Instant};

use mcs::{ToolDriver, ToolError};
use mcs_mcp::{ConnectOptions, McpError, McpToolDriver, MessageLimits};
use serde_json::json;
use tokio::process::Command;

const FAKE_SERVER: &str = r#"
import json, sys
mode = sys.argv[1]

def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()

if mode == "exit":
    sys.stderr.write("fatal: no configuration file at /etc/fake.toml\n")
    sys.stderr.flush()
    sys.exit(3)
if mode == "noise":
    print("Starting fake server v1...", flush=True)

tools = [
    {"name": "echo", "description": "Echoes.", "inputSchema": {"type": "object",
        "properties": {"message": {"type": "string"}}, "required": ["message"]}},
    {"name": "die", "description": "Exits.", "inputSchema": {"type": "object"}},
    {"name": "stall", "description": "Never answers.", "inputSchema": {"type": "object"}},
    {"name": "mumble", "description": "Answers garbage.", "inputSchema": {"type": "object"}},
    {"name": "huge", "description": "Answers 2 MB.", "inputSchema": {"type": "object"}},
    {"name": "picky", "description": "Refuses its arguments.", "inputSchema": {"type": "object",
        "properties": {"a": {}}}},
    {"name": "gone", "description": "Unknown to the server.", "inputSchema": {"type": "object"}},
    {"name": "loose", "description": "Takes any arguments.", "inputSchema": {"type": "object",
        "properties": {"a": {"type": "string"}}, "additionalProperties": True}},
    {"name": "listy", "description": "An array schema.", "inputSchema": {"type": "array"}},
    {"name": "choice", "description": "A root anyOf.", "inputSchema": {"type": "object",
        "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}},
    {"name": "echo", "description": "Listed twice.", "inputSchema": {"type": "object"}},
]

for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message or mode == "hang":
        continue
    method, id = message.get("method"), message["id"]
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": id, "result": {
            "protocolVersion": message["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "fake", "version": "1.0.0"}}})
    elif method == "tools/list":
        if mode == "garbage-list":
            send({"jsonrpc": "2.0", "id": id, "result": {"tools": [{"name": 7}]}})
        else:
            send({"jsonrpc": "2.0", "id": id, "result": {"tools": tools}})
    elif method == "tools/call":
        name = message["params"]["name"]
        if name == "echo":
            text = message["params"]["arguments"]["message"]
            send({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}]}})
        elif name == "die":
            sys.stderr.write("segfault in die()\n")
            sys.stderr.flush()
            sys.exit(5)
        elif name == "picky":
            send({"jsonrpc": "2.0", "id": id, "error": {"code": -32602,
                "message": "Invalid arguments for tool picky: a must be a number"}})
        elif name == "gone":
            send({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": "Unknown tool: gone"}})
        elif name == "loose":
            send({"jsonrpc": "2.0", "id": id, "result": {"content": [],
                "structuredContent": message["params"]["arguments"]}})
        elif name == "huge":
            send({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": "x" * 2000000}]}})
        elif name == "mumble":
            sys.stdout.write('{"jsonrpc": "2.0", "id": %s, "result": {"content": 12}}\n' % json.dumps(id))
            sys.stdout.flush()
    else:
        send({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "no " + method}})
"#;

fn fake(mode: &str) -> Command {
    let mut command = Command::new("python3");
    command.args(["-c", FAKE_SERVER, mode]);
    command
}

fn quick() -> ConnectOptions {
    ConnectOptions::default()
        .connect_timeout(Duration::from_secs(2))
        .list_timeout(Duration::from_secs(2))
        .call_timeout(Duration::from_secs(1))
}

async fn connect_error(mode: &str) -> String {
    let started = Instant::now();
    let error = McpToolDriver::spawn_with(fake(mode), quick())
        .await
        .expect_err("the connection fails");
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "took {:?}",
        started.elapsed()
    );
    error.to_string()
}

/// Connects to `url`, which fails within 4 s; the error's text.
async fn url_connect_error(url: &str) -> String {
    let started = Instant::now();
    let error = McpToolDriver::connect_url_with(url, quick())
        .await
        .unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    error.to_string()
}

#[tokio::test]
async fn a_server_that_exits_at_once_is_reported_with_its_status_and_stderr() {
    let error = connect_error("exit").await;
    assert!(error.contains("python3 -c"), "{error}");
    assert!(error.contains("`initialize`"), "{error}");
    assert!(error.contains("exit status: 3"), "{error}");
    assert!(error.contains("fatal: no configuration file"), "{error}");
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    let error = connect_error("hang").await;
    assert!(
        error.contains("did not answer `initialize` within 2s"),
        "{error}"
    );
}

#[tokio::test]
async fn a_garbled_listing_fails_at_once_with_the_reason() {
    let error = connect_error("garbage-list").await;
    assert!(error.contains("failed `tools/list`"), "{error}");
    assert!(error.contains("could not be read"), "{error}");
    assert!(error.contains("is not an MCP message"), "{error}");
    assert!(
        error.contains("python3 -c 'import json, sys…' garbage-list"),
        "{error}"
    );
}

#[tokio::test]
async fn a_program_that_is_not_there_is_named() {
    let error = McpToolDriver::spawn(Command::new("/nonexistent/mcp-server"))
        .await
        .unwrap_err();
    assert!(matches!(error, McpError::Spawn { .. }));
    assert!(
        error
            .to_string()
            .starts_with("could not start the MCP server `/nonexistent/mcp-server`"),
        "{error}"
    );
}

#[tokio::test]
async fn invalid_schemas_are_skipped_with_the_reason_and_the_rest_works() {
    let remote = McpToolDriver::spawn_with(fake("noise"), quick())
        .await
        .expect("a banner on stdout does not stop the connection");
    let tools = remote.list_tools();
    let names: Vec<&str> = tools.iter().map(|t| t.name()).collect();
    assert_eq!(
        names,
        [
            "echo", "die", "stall", "mumble", "huge", "picky", "gone", "loose"
        ]
    );
    let skipped = remote.skipped_tools();
    let reasons: Vec<(&str, &str)> = skipped
        .iter()
        .map(|s| (s.name.as_str(), s.reason.as_str()))
        .collect();
    assert_eq!(reasons.len(), 3, "{reasons:?}");
    assert!(
        reasons[0]
            .1
            .contains("`type: \"object\"`, found `type: \"array\"`")
    );
    assert!(reasons[1].1.contains("`anyOf` at its root"));
    assert!(reasons[2].1.contains("listed twice"));
    assert_eq!(remote.meta().name, "fake");

    let echoed = remote
        .execute_tool("echo", json!({"message": "still here"}))
        .await
        .unwrap();
    assert_eq!(echoed, json!("still here"));

    let unknown = remote.execute_tool("listy", json!({})).await.unwrap_err();
    assert!(
        matches!(unknown, ToolError::UnknownTool { .. }),
        "{unknown}"
    );

    let garbled = remote.execute_tool("mumble", json!({})).await.unwrap_err();
    let garbled = garbled.to_string();
    assert!(garbled.contains("could not be read"), "{garbled}");
    assert!(garbled.contains("Starting fake server v1..."), "{garbled}");

    let started = Instant::now();
    let stalled = remote.execute_tool("stall", json!({})).await.unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(
        stalled
            .to_string()
            .contains("did not answer `tools/call` within 1s"),
        "{stalled}"
    );

    let died = remote.execute_tool("die", json!({})).await.unwrap_err();
    let died = died.to_string();
    assert!(died.starts_with("tool `die` failed: "), "{died}");
    assert!(died.contains("exit status: 5"), "{died}");
    assert!(died.contains("segfault in die()"), "{died}");

    // After the server is gone, calls fail at once and say so.
    let after = remote
        .execute_tool("echo", json!({"message": "anyone?"}))
        .await
        .unwrap_err();
    assert!(after.to_string().contains("exit status: 5"), "{after}");
    let refresh = remote.refresh().await.unwrap_err();
    assert!(refresh.to_string().contains("`tools/list`"), "{refresh}");
    // The last listing is kept.
    assert_eq!(remote.list_tools().len(), 8);
}

#[tokio::test]
async fn calls_are_checked_against_the_listed_schema_before_they_are_sent() {
    let remote = McpToolDriver::spawn_with(fake("plain"), quick())
        .await
        .unwrap();
    let cases = [
        (
            json!({"message": "x", "extra": 1}),
            "invalid arguments for tool `echo`: unknown argument `extra` (this tool takes: message)",
        ),
        // The fake server would fail on this one (it reads the message without looking).
        (
            json!({}),
            "invalid arguments for tool `echo`: missing required argument `message` (expected a string)",
        ),
        (
            json!({"message": true}),
            "invalid arguments for tool `echo`: argument `message`: expected a string, got true",
        ),
    ];
    for (arguments, expected) in cases {
        let error = remote.execute_tool("echo", arguments).await.unwrap_err();
        assert!(
            matches!(error, ToolError::InvalidArguments { .. }),
            "{error:?}"
        );
        assert_eq!(error.to_string(), expected);
    }
    // None of them reached the server, which is still there.
    let echoed = remote
        .execute_tool("echo", json!({"message": "still here"}))
        .await
        .unwrap();
    assert_eq!(echoed, json!("still here"));
    // A number where the schema wants a string is sent as its text.
    let number = remote
        .execute_tool("echo", json!({"message": 5}))
        .await
        .unwrap();
    assert_eq!(number, json!("5"));
    // A schema open to other arguments takes them.
    let loose = remote
        .execute_tool("loose", json!({"a": "x", "b": 2}))
        .await
        .unwrap();
    assert_eq!(loose, json!({"a": "x", "b": 2}));
}

#[tokio::test]
async fn a_servers_protocol_errors_are_classified_by_code() {
    let remote = McpToolDriver::spawn_with(fake("plain"), quick())
        .await
        .unwrap();
    let refused = remote
        .execute_tool("picky", json!({"a": "one"}))
        .await
        .unwrap_err();
    assert!(
        matches!(refused, ToolError::InvalidArguments { .. }),
        "{refused:?}"
    );
    assert_eq!(
        refused.to_string(),
        "invalid arguments for tool `picky`: the arguments: expected arguments the MCP server \
         accepts (it answered: Invalid arguments for tool picky: a must be a number), got an \
         object: {\"a\":\"one\"}"
    );
    let gone = remote.execute_tool("gone", json!({})).await.unwrap_err();
    assert!(matches!(gone, ToolError::UnknownTool { .. }), "{gone:?}");
}

#[tokio::test]
async fn an_answer_over_the_clients_limit_fails_its_call_at_once_naming_the_limit() {
    let options = quick()
        .call_timeout(Duration::from_secs(20))
        .message_limits(MessageLimits::new(1024 * 1024));
    let remote = McpToolDriver::spawn_with(fake("plain"), options)
        .await
        .unwrap();
    let started = Instant::now();
    let error = remote.execute_tool("huge", json!({})).await.unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    let error = error.to_string();
    assert!(error.contains("the server's answer is 20000"), "{error}");
    assert!(
        error.contains(
            "over this client's limit of 1048576 bytes (1.0 MiB) for one message \
             (ConnectOptions::message_limits)"
        ),
        "{error}"
    );
    // The connection goes on.
    let echoed = remote
        .execute_tool("echo", json!({"message": "after"}))
        .await
        .unwrap();
    assert_eq!(echoed, json!("after"));
}

#[tokio::test]
async fn a_url_where_nothing_listens_fails_within_the_timeout() {
    // Bind and drop a listener so the port is (almost certainly) closed.
    let port = {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        listener.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{port}/mcp");
    let error = url_connect_error(&url).await;
    assert!(error.contains(&url), "{error}");
    assert!(error.contains("`initialize`"), "{error}");
}

#[tokio::test]
async fn a_web_server_that_is_not_mcp_is_named_as_such() {
    // Answers every request with a plain page.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut buffer = [0u8; 4096];
                let _ = socket.read(&mut buffer).await;
                let page = "<html>hello</html>";
                let answer = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{page}",
                    page.len()
                );
                let _ = socket.write_all(answer.as_bytes()).await;
            });
        }
    });
    let error = url_connect_error(&url).await;
    assert!(
        error.contains(&url) && error.contains("`initialize`"),
        "{error}"
    );
}
