//! The streamable-HTTP endpoint as a browser or a script would meet it, request by request:
//! which origins it serves, and what it answers.

use std::net::SocketAddr;

use mcs_mcp::{HttpServer, McpServer};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[path = "../../examples/common/todo.rs"]
mod todo;

/// An HTTP answer: the status, the headers (names in lower case) and the body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Serves `server` on a free loopback port until the test ends.
async fn serve(server: HttpServer<todo::Todo>) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(server.serve(listener, std::future::pending()));
    address
}

/// Sends one HTTP/1.1 request to `/mcp` and reads the whole answer (the connection closes).
async fn request(
    address: SocketAddr,
    method: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Answer {
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let mut text = format!(
        "{method} /mcp HTTP/1.1\r\nhost: {address}\r\nconnection: close\r\n\
         accept: application/json, text/event-stream\r\ncontent-length: {}\r\n",
        body.len()
    );
    if !body.is_empty() {
        text.push_str("content-type: application/json\r\n");
    }
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    text.push_str("\r\n");
    text.push_str(body);
    stream.write_all(text.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    // An SSE answer to `initialize` stays open: read until its first event is in.
    let mut buffer = [0u8; 4096];
    loop {
        let read =
            tokio::time::timeout(std::time::Duration::from_secs(10), stream.read(&mut buffer))
                .await
                .expect("the server answers within 10 s")
                .unwrap();
        raw.extend_from_slice(&buffer[..read]);
        let text = String::from_utf8_lossy(&raw);
        let complete = text.split_once("\r\n\r\n").is_some_and(|(head, body)| {
            head.contains("text/event-stream") && body.contains("\"jsonrpc\"")
        });
        if read == 0 || complete {
            break;
        }
    }
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP answer");
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_owned(),
    }
}

fn initialize() -> String {
    json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}
        }
    })
    .to_string()
}

#[tokio::test]
async fn a_page_of_another_site_cannot_start_a_session() {
    let address = serve(McpServer::new(todo::Todo::default()).http()).await;
    let refused = request(
        address,
        "POST",
        &[("origin", "http://evil.example")],
        &initialize(),
    )
    .await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(refused.body.contains("Origin"), "{}", refused.body);
    assert!(refused.header("mcp-session-id").is_none());

    // A page of this machine, and a program (no Origin at all), are served.
    let local_origin = format!("http://localhost:{}", address.port());
    for headers in [&[("origin", local_origin.as_str())][..], &[]] {
        let served = request(address, "POST", headers, &initialize()).await;
        assert_eq!(served.status, 200, "{headers:?}: {}", served.body);
        assert!(served.header("mcp-session-id").is_some(), "{headers:?}");
        assert!(served.body.contains("serverInfo"), "{}", served.body);
    }
}

#[tokio::test]
async fn the_allowed_origins_can_be_named() {
    let server = McpServer::new(todo::Todo::default())
        .http()
        .allowed_origins(["https://app.example.com"]);
    let address = serve(server).await;
    let served = request(
        address,
        "POST",
        &[("origin", "https://app.example.com")],
        &initialize(),
    )
    .await;
    assert_eq!(served.status, 200, "{}", served.body);
    let local_origin = format!("http://localhost:{}", address.port());
    for origin in [
        "https://app.example.com:8443",
        "http://app.example.com",
        &local_origin,
    ] {
        let refused = request(address, "POST", &[("origin", origin)], &initialize()).await;
        assert_eq!(refused.status, 403, "{origin}");
    }

    // None at all: no browser is served, programs still are.
    let closed = McpServer::new(todo::Todo::default())
        .http()
        .allowed_origins(Vec::<String>::new());
    let address = serve(closed).await;
    let local_origin = format!("http://localhost:{}", address.port());
    let refused = request(address, "POST", &[("origin", &local_origin)], &initialize()).await;
    assert_eq!(refused.status, 403);
    assert_eq!(
        request(address, "POST", &[], &initialize()).await.status,
        200
    );
}

#[tokio::test]
async fn a_body_that_is_not_json_gets_a_parse_error_in_json_rpc() {
    let address = serve(McpServer::new(todo::Todo::default()).http()).await;
    let answer = request(address, "POST", &[], "{\"jsonrpc\": \"2.0\", \"id\": 2,").await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert_eq!(answer.header("content-type"), Some("application/json"));
    let body: serde_json::Value = serde_json::from_str(&answer.body).unwrap();
    assert_eq!(body["error"]["code"], -32700, "{body}");
    assert_eq!(body["id"], 2, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("the message is not JSON: "),
        "{body}"
    );
}

#[tokio::test]
async fn a_body_over_the_limit_is_refused_with_the_limit() {
    let server = McpServer::new(todo::Todo::default())
        .message_limits(mcs_mcp::MessageLimits::new(1024))
        .http();
    let address = serve(server).await;
    let big =
        json!({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": "y".repeat(2000)}});
    let answer = request(address, "POST", &[], &big.to_string()).await;
    assert_eq!(answer.status, 413, "{}", answer.body);
    let body: serde_json::Value = serde_json::from_str(&answer.body).unwrap();
    assert_eq!(
        body["error"]["message"],
        "the request is over this server's limit of 1024 bytes (1.0 KiB) for one message"
    );
}

#[tokio::test]
async fn ending_a_session_answers_200() {
    let address = serve(McpServer::new(todo::Todo::default()).http()).await;
    let started = request(address, "POST", &[], &initialize()).await;
    let session = started.header("mcp-session-id").unwrap().to_owned();
    let ended = request(
        address,
        "DELETE",
        &[
            ("mcp-session-id", &session),
            ("mcp-protocol-version", "2025-06-18"),
        ],
        "",
    )
    .await;
    // The Python SDK 2.x takes 200 and 204 as success; rmcp answers 202.
    assert_eq!(ended.status, 200, "{}", ended.body);
    // The session is gone.
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).to_string();
    let again = request(
        address,
        "POST",
        &[
            ("mcp-session-id", &session),
            ("mcp-protocol-version", "2025-06-18"),
        ],
        &list,
    )
    .await;
    assert_eq!(again.status, 404, "{}", again.body);
    // Ending it again, or a session that never was, is a 404 too, as for any request.
    for id in [session.as_str(), "never-issued"] {
        let ended = request(
            address,
            "DELETE",
            &[
                ("mcp-session-id", id),
                ("mcp-protocol-version", "2025-06-18"),
            ],
            "",
        )
        .await;
        assert_eq!(ended.status, 404, "{id}: {}", ended.body);
    }
}

#[tokio::test]
async fn sessions_are_bounded_and_a_session_ended_makes_room() {
    let address = serve(McpServer::new(todo::Todo::default()).http().max_sessions(2)).await;
    let mut sessions = Vec::new();
    for _ in 0..2 {
        let started = request(address, "POST", &[], &initialize()).await;
        assert_eq!(started.status, 200, "{}", started.body);
        sessions.push(started.header("mcp-session-id").unwrap().to_owned());
    }
    let refused = request(address, "POST", &[], &initialize()).await;
    assert_eq!(refused.status, 503, "{}", refused.body);
    assert_eq!(refused.header("retry-after"), Some("30"));
    let error: serde_json::Value = serde_json::from_str(&refused.body).unwrap();
    assert_eq!(error["id"], 1, "{error}");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("too many sessions"),
        "{error}"
    );
    let ended = request(
        address,
        "DELETE",
        &[
            ("mcp-session-id", &sessions[0]),
            ("mcp-protocol-version", "2025-06-18"),
        ],
        "",
    )
    .await;
    assert_eq!(ended.status, 200, "{}", ended.body);
    let started = request(address, "POST", &[], &initialize()).await;
    assert_eq!(started.status, 200, "{}", started.body);
}

#[tokio::test]
async fn an_allowed_origin_gets_what_a_browser_needs() {
    let address = serve(
        McpServer::new(todo::Todo::default())
            .http()
            .allowed_origins(["https://app.example.com"]),
    )
    .await;
    // The preflight a browser sends before a JSON POST.
    let preflight = request(
        address,
        "OPTIONS",
        &[
            ("origin", "https://app.example.com"),
            ("access-control-request-method", "POST"),
            (
                "access-control-request-headers",
                "content-type,mcp-session-id",
            ),
        ],
        "",
    )
    .await;
    assert_eq!(preflight.status, 204, "{}", preflight.body);
    assert_eq!(
        preflight.header("access-control-allow-origin"),
        Some("https://app.example.com")
    );
    let methods = preflight.header("access-control-allow-methods").unwrap();
    assert!(
        methods.contains("POST") && methods.contains("DELETE"),
        "{methods}"
    );
    let headers = preflight.header("access-control-allow-headers").unwrap();
    assert!(headers.contains("mcp-session-id"), "{headers}");
    // The answer itself lets the page read the session id.
    let started = request(
        address,
        "POST",
        &[("origin", "https://app.example.com")],
        &initialize(),
    )
    .await;
    assert_eq!(started.status, 200, "{}", started.body);
    assert_eq!(
        started.header("access-control-allow-origin"),
        Some("https://app.example.com")
    );
    assert!(
        started
            .header("access-control-expose-headers")
            .unwrap()
            .contains("mcp-session-id")
    );
    // Another origin gets neither.
    let refused = request(
        address,
        "OPTIONS",
        &[
            ("origin", "https://evil.example.com"),
            ("access-control-request-method", "POST"),
        ],
        "",
    )
    .await;
    assert_eq!(refused.status, 403);
    assert_eq!(refused.header("access-control-allow-origin"), None);
}

#[tokio::test]
async fn json_that_is_not_a_message_of_mcp_gets_400_not_415() {
    let address = serve(McpServer::new(todo::Todo::default()).http()).await;
    for body in [
        json!([{"jsonrpc": "2.0", "id": 1, "method": "ping"}]),
        json!({"jsonrpc": "2.0", "id": 7}),
        json!({"jsonrpc": "1.0", "id": 7, "method": "ping"}),
        json!(42),
    ] {
        let answer = request(address, "POST", &[], &body.to_string()).await;
        assert_eq!(answer.status, 400, "{body}: {}", answer.body);
        let error: serde_json::Value = serde_json::from_str(&answer.body).unwrap();
        assert_eq!(error["error"]["code"], -32600, "{body}: {error}");
    }
}

/// The empty "priming" event rmcp starts each event stream with is for clients of
/// 2025-11-25 on: those of earlier versions parse it as a message and fail.
#[tokio::test]
async fn priming_events_go_only_to_clients_of_2025_11_25() {
    let address = serve(McpServer::new(todo::Todo::default()).http()).await;
    for (version, primed) in [
        ("2024-11-05", false),
        ("2025-03-26", false),
        ("2025-06-18", false),
        ("2025-11-25", true),
    ] {
        let initialize = initialize().replace("2025-06-18", version);
        let started = request(address, "POST", &[], &initialize).await;
        assert_eq!(started.status, 200, "{version}: {}", started.body);
        let first = started.body.split("\n\n").next().unwrap_or_default();
        let first_is_priming = !first.contains("\"jsonrpc\"");
        assert_eq!(first_is_priming, primed, "{version}: {}", started.body);
        assert!(
            started.body.contains("serverInfo"),
            "{version}: {}",
            started.body
        );
        // A later request says its version in the header; without it, 2025-03-26.
        let session = started.header("mcp-session-id").unwrap().to_owned();
        let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}).to_string();
        let mut headers = vec![("mcp-session-id", session.as_str())];
        if version != "2025-03-26" && version != "2024-11-05" {
            headers.push(("mcp-protocol-version", version));
        }
        let pinged = request(address, "POST", &headers, &ping).await;
        assert_eq!(pinged.status, 200, "{version}: {}", pinged.body);
        let first = pinged.body.split("\n\n").next().unwrap_or_default();
        assert_eq!(
            !first.contains("\"jsonrpc\""),
            primed,
            "{version}: {}",
            pinged.body
        );
    }
}

#[tokio::test]
async fn an_initialize_whose_params_do_not_fit_says_what_is_wrong() {
    let address = serve(McpServer::new(todo::Todo::default()).http()).await;
    let body =
        json!({"jsonrpc": "2.0", "id": 5, "method": "initialize", "params": {"capabilities": {}}});
    let answer = request(address, "POST", &[], &body.to_string()).await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    let error: serde_json::Value = serde_json::from_str(&answer.body).unwrap();
    assert_eq!(error["id"], 5, "{error}");
    assert_eq!(error["error"]["code"], -32602, "{error}");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("protocolVersion"),
        "{error}"
    );
}
