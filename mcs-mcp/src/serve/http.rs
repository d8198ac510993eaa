//! The server over streamable HTTP.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use mcs::ToolDriver;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::ServerSseMessage;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::{
    SessionId, SessionManager, StreamableHttpServerConfig, StreamableHttpService,
};
use tokio::net::TcpListener;

use super::McpServer;
use crate::error::ServeError;
use crate::framing::Fields;
use crate::limits;

/// The path the MCP endpoint is mounted at: clients connect to `http://HOST:PORT/mcp`.
pub const MCP_PATH: &str = "/mcp";

/// The origins an [`HttpServer`] takes by default: pages served from this machine, on any
/// port, over HTTP or HTTPS.
pub const LOOPBACK_ORIGINS: [&str; 6] = [
    "http://localhost:*",
    "http://127.0.0.1:*",
    "http://[::1]:*",
    "https://localhost:*",
    "https://127.0.0.1:*",
    "https://[::1]:*",
];

/// An [`McpServer`] over the streamable HTTP transport of MCP, one session per client.
///
/// By default only requests whose `Host` is a loopback name (`localhost`, `127.0.0.1`,
/// `::1`) are served, and a request that carries an `Origin` header (one a browser sent) only
/// if that origin is a loopback one too ([`LOOPBACK_ORIGINS`]): together they protect a
/// local server from DNS rebinding and from pages of other sites, as the MCP specification
/// asks. Anything else is refused with `403 Forbidden` before it reaches the session.
/// Requests without `Origin` (programs, not browsers) are served. A server meant for other
/// hosts names them with [`allowed_hosts`](Self::allowed_hosts), and the web applications
/// allowed to call it with [`allowed_origins`](Self::allowed_origins). A page from an
/// allowed origin gets the CORS answers a browser needs: its preflight (`OPTIONS`) is
/// answered `204` with the methods and headers it may send, and every answer names the
/// origin and exposes `mcp-session-id`.
///
/// A body that is not JSON gets `400` with a JSON-RPC `-32700` error, a body over the
/// server's [incoming limit](McpServer::message_limits) `413` with a JSON-RPC error naming
/// the limit, and a `DELETE` that ends a session `200 OK` (rmcp alone answers `415` with
/// text, `413` with text, and `202`, which the Python SDK logs as a failed close).
///
/// ```no_run
/// # struct Greeter;
/// # #[mcs::tool_driver]
/// # impl Greeter {
/// #     /// Says hello.
/// #     #[tool]
/// #     fn greet(&self, name: String) -> String { format!("Hello, {name}!") }
/// # }
/// # #[tokio::main]
/// # async fn main() -> Result<(), mcs_mcp::ServeError> {
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8000").await?;
/// mcs_mcp::McpServer::new(Greeter)
///     .http()
///     .serve(listener, async { tokio::signal::ctrl_c().await.ok(); })
///     .await
/// # }
/// ```
pub struct HttpServer<D> {
    server: McpServer<D>,
    config: StreamableHttpServerConfig,
    max_sessions: usize,
}

/// How many sessions an [`HttpServer`] holds at once unless
/// [`max_sessions`](HttpServer::max_sessions) says: each costs about 55 KB, so this bounds
/// them near 55 MB. A session idle for five minutes is ended (rmcp's keep-alive).
pub const DEFAULT_MAX_SESSIONS: usize = 1_000;

impl<D: ToolDriver + 'static> HttpServer<D> {
    pub(super) fn new(server: McpServer<D>) -> Self {
        let config = StreamableHttpServerConfig::default()
            .with_max_request_body_bytes(server.limits.incoming())
            .with_allowed_origins(LOOPBACK_ORIGINS);
        HttpServer {
            server,
            config,
            max_sessions: DEFAULT_MAX_SESSIONS,
        }
    }

    /// At most this many sessions at once: a client that opens one more is refused (`503
    /// Service Unavailable` with `Retry-After`, "too many sessions") until one ends, by
    /// `DELETE`, or by five idle minutes. Any allowed client can open sessions, so without a
    /// bound they could take the machine's memory. At least 1.
    #[must_use]
    pub fn max_sessions(mut self, sessions: usize) -> Self {
        self.max_sessions = sessions.max(1);
        self
    }

    /// Serves requests whose `Host` header is one of these (`example.com` or
    /// `example.com:8080`) instead of the loopback names.
    #[must_use]
    pub fn allowed_hosts(mut self, hosts: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.config = self.config.with_allowed_hosts(hosts);
        self
    }

    /// Serves requests whose `Origin` header is one of these instead of the loopback ones
    /// ([`LOOPBACK_ORIGINS`]). An origin is a scheme, a host and a port:
    /// `https://app.example.com` (the scheme's port, 443), `https://app.example.com:8443`,
    /// or `http://dev.example.com:*` (any port); `null` is the origin browsers send from
    /// sandboxed pages and files. An empty list refuses every request that has
    /// an `Origin`, that is, every browser.
    #[must_use]
    pub fn allowed_origins(mut self, origins: impl IntoIterator<Item = impl Into<String>>) -> Self {
        let origins: Vec<String> = origins
            .into_iter()
            .map(|origin| with_port(origin.into()))
            .collect();
        self.config = if origins.is_empty() {
            self.config
                .with_allowed_origins(origins)
                .enforce_origin_validation()
        } else {
            self.config.with_allowed_origins(origins)
        };
        self
    }

    /// Replaces rmcp's configuration of the transport (keep-alive, JSON responses, session
    /// mode, body limits, allowed hosts and origins). Without this call the request body
    /// limit is the server's [incoming limit](McpServer::message_limits) and the allowed
    /// origins are [`LOOPBACK_ORIGINS`]; with it, they are what `config` says (rmcp's
    /// default checks no origin at all).
    #[must_use]
    pub fn with_config(mut self, config: StreamableHttpServerConfig) -> Self {
        self.config = config;
        self
    }

    /// The endpoint as an axum router with the MCP endpoint at [`MCP_PATH`], to merge into an
    /// application's own router.
    pub fn router(self) -> axum::Router {
        let limit = self.config.max_request_body_bytes;
        let server = self.server;
        let sessions = Arc::new(Capped {
            inner: LocalSessionManager::default(),
            max: self.max_sessions,
        });
        let service = StreamableHttpService::new(
            move || Ok(server.for_new_session()),
            Arc::clone(&sessions),
            self.config,
        );
        axum::Router::new()
            .route_service(MCP_PATH, service)
            .layer(axum::middleware::from_fn(move |request, next| {
                edges(request, next, limit, Arc::clone(&sessions))
            }))
    }

    /// Serves on `listener` until `shutdown` completes; then open sessions are ended.
    pub async fn serve(
        mut self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let cancel = self.config.cancellation_token.clone();
        let local = listener.local_addr().ok();
        self.config = self.config.with_cancellation_token(cancel.child_token());
        axum::serve(listener, self.router())
            .with_graceful_shutdown(async move {
                shutdown.await;
                cancel.cancel();
            })
            .await
            .map_err(|source| ServeError::Http {
                address: local.map_or_else(|| "?".to_owned(), |a: SocketAddr| a.to_string()),
                source,
            })
    }
}

/// What rmcp's endpoint answers otherwise, where MCP and its SDKs expect something else:
///
/// - A `POST` whose body is not JSON (invalid UTF-8 included) gets `400 Bad Request` with a
///   JSON-RPC `-32700` error as its body, as the streamable-HTTP transport of MCP describes,
///   instead of rmcp's `415` and a line of text; a body over the limit gets `413` with a
///   JSON-RPC error that gives the limit.
/// - A `POST` of JSON that is not a JSON-RPC message of MCP (a batch, no method, a null id)
///   gets `400` with a JSON-RPC `-32600` error, instead of rmcp's `415 Unsupported Media
///   Type` for a body whose media type was right.
/// - A `DELETE` that ended a session gets `200 OK` (as the TypeScript SDK's server answers)
///   instead of rmcp's `202 Accepted`, which the Python SDK logs as a failed termination on
///   every close; a `DELETE` of a session that ended or never began gets `404`, as MCP
///   answers any request naming one, instead of `202`.
/// - An `initialize` while the sessions are at their bound gets `503 Service Unavailable`
///   with `Retry-After`, instead of `500`.
/// - A client of a protocol version before 2025-11-25 is not sent the empty "priming" event
///   that starts each of rmcp's event streams: the SDKs of those versions read it as a
///   message and fail to parse it (the TypeScript SDK's 1.13 throws on every request).
async fn edges(
    request: axum::extract::Request,
    next: axum::middleware::Next,
    limit: usize,
    sessions: Arc<Capped>,
) -> axum::response::Response {
    use axum::http::{Method, StatusCode, header};
    let method = request.method().clone();
    let session = request
        .headers()
        .get("mcp-session-id")
        .and_then(|value| value.to_str().ok())
        .map(SessionId::from);
    // MCP's version of this request: its header, or for `initialize` the version asked for;
    // without either, 2025-03-26, as the transport's text says to assume.
    let mut version = request
        .headers()
        .get("mcp-protocol-version")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let origin = request.headers().get(header::ORIGIN).cloned();
    let asked_headers = request
        .headers()
        .get(header::ACCESS_CONTROL_REQUEST_HEADERS)
        .cloned();
    let mut message_id = None;
    let json_body = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.trim_start().starts_with("application/json"));
    let request = if method == Method::POST && json_body {
        let (parts, body) = request.into_parts();
        let bytes = match axum::body::to_bytes(body, limit).await {
            Ok(bytes) => bytes,
            Err(_) => {
                let message = format!(
                    "the request is over this server's limit of {} for one message",
                    limits::size(limit)
                );
                return rpc_error(StatusCode::PAYLOAD_TOO_LARGE, None, -32600, &message);
            }
        };
        if let Err(error) = serde_json::from_slice::<mcs::serde::de::IgnoredAny>(&bytes) {
            let why = match std::str::from_utf8(&bytes) {
                Err(utf8) => format!(
                    "the message is not UTF-8 (invalid byte at offset {})",
                    utf8.valid_up_to()
                ),
                Ok(_) => format!("the message is not JSON: {error}"),
            };
            let id = Fields::of(&bytes).id;
            return rpc_error(StatusCode::BAD_REQUEST, id, -32700, &why);
        }
        let fields = Fields::of(&bytes);
        if fields.method.as_deref() == Some("initialize") && session.is_none() {
            let message: serde_json::Value =
                serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null);
            // rmcp would answer "Session ID is required", taking it for another request.
            if let Some(why) = super::initialize_problem(&message) {
                return rpc_error(StatusCode::BAD_REQUEST, fields.id, -32602, &why);
            }
            if version.is_none() {
                version = message
                    .pointer("/params/protocolVersion")
                    .and_then(serde_json::Value::as_str)
                    .map(str::to_owned);
            }
            if sessions.is_full().await {
                let message = CappedError::Full(sessions.max).to_string();
                let mut refused =
                    rpc_error(StatusCode::SERVICE_UNAVAILABLE, fields.id, -32600, &message);
                refused
                    .headers_mut()
                    .insert(header::RETRY_AFTER, header::HeaderValue::from_static("30"));
                return refused;
            }
        }
        message_id = fields.id;
        axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes))
    } else {
        request
    };
    if method == Method::DELETE
        && let Some(id) = &session
        && !sessions.inner.has_session(id).await.unwrap_or(true)
    {
        let message = format!("no session `{id}`: it ended, or never began");
        return rpc_error(StatusCode::NOT_FOUND, None, -32600, &message);
    }
    let mut response = next.run(request).await;
    if method == Method::DELETE && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::OK;
    }
    if method == Method::POST
        && json_body
        && response.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE
    {
        let message = "the message is not a JSON-RPC request, notification or response of MCP \
                       (one object with `jsonrpc: \"2.0\"`, a `method` or a `result`/`error`, and \
                       an `id` that is a string or a number; batches are not part of MCP)";
        return rpc_error(StatusCode::BAD_REQUEST, message_id, -32600, message);
    }
    let old_client = matches!(
        version.as_deref().unwrap_or("2025-03-26"),
        "2024-11-05" | "2025-03-26" | "2025-06-18"
    );
    if old_client && is_event_stream(&response) {
        response = response.map(|body| {
            axum::body::Body::from_stream(WithoutPriming::new(body.into_data_stream()))
        });
    }
    // rmcp checks the `Origin` first (`403` for one not allowed): past it, a browser's
    // page from an allowed origin gets the CORS answers it needs, a preflight (which rmcp
    // answers `405`) and the headers that let it read the answer and the session id.
    let Some(origin) = origin.filter(|_| response.status() != StatusCode::FORBIDDEN) else {
        return response;
    };
    if method == Method::OPTIONS && response.status() == StatusCode::METHOD_NOT_ALLOWED {
        let allowed_headers = asked_headers.unwrap_or_else(|| {
            header::HeaderValue::from_static(
                "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, \
                 last-event-id",
            )
        });
        let mut preflight = axum::response::Response::new(axum::body::Body::empty());
        *preflight.status_mut() = StatusCode::NO_CONTENT;
        let headers = preflight.headers_mut();
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_METHODS,
            header::HeaderValue::from_static("GET, POST, DELETE"),
        );
        headers.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, allowed_headers);
        headers.insert(
            header::ACCESS_CONTROL_MAX_AGE,
            header::HeaderValue::from_static("600"),
        );
        headers.insert(header::VARY, header::HeaderValue::from_static("Origin"));
        return preflight;
    }
    let headers = response.headers_mut();
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    headers.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        header::HeaderValue::from_static("mcp-session-id, mcp-protocol-version"),
    );
    headers.append(header::VARY, header::HeaderValue::from_static("Origin"));
    response
}

fn rpc_error(
    status: axum::http::StatusCode,
    id: Option<serde_json::Value>,
    code: i64,
    message: &str,
) -> axum::response::Response {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code, "message": message },
    });
    axum::response::Response::builder()
        .status(status)
        .header(axum::http::header::CONTENT_TYPE, "application/json")
        .body(axum::body::Body::from(body.to_string()))
        .unwrap_or_else(|_| axum::response::Response::new(axum::body::Body::empty()))
}

/// `origin` with its scheme's port written out when it has none (`https://a.example` →
/// `https://a.example:443`): an origin is a scheme, a host and a port (RFC 6454), while rmcp
/// lets an entry without a port match any port.
fn with_port(origin: String) -> String {
    let Some((scheme, rest)) = origin.split_once("://") else {
        return origin;
    };
    let authority = rest.trim_end_matches('/');
    // After an IPv6 literal's `]`, or anywhere in another host, a `:` starts the port.
    let host_end = authority.rfind(']').map_or(0, |at| at + 1);
    if authority[host_end..].contains(':') {
        return origin;
    }
    let port = match scheme.to_ascii_lowercase().as_str() {
        "https" => 443,
        "http" => 80,
        _ => return origin,
    };
    format!("{scheme}://{authority}:{port}")
}

#[cfg(test)]
mod tests {
    use super::with_port;

    #[test]
    fn an_origin_without_a_port_gets_its_schemes() {
        let cases = [
            ("https://app.example.com", "https://app.example.com:443"),
            ("http://app.example.com/", "http://app.example.com:80"),
            ("http://[::1]", "http://[::1]:80"),
            ("http://[::1]:8080", "http://[::1]:8080"),
            ("https://app.example.com:*", "https://app.example.com:*"),
            ("null", "null"),
        ];
        for (given, expected) in cases {
            assert_eq!(with_port(given.to_owned()), expected);
        }
    }
}

/// Whether `response` is an event stream (`text/event-stream`).
fn is_event_stream(response: &axum::response::Response) -> bool {
    response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/event-stream"))
}

/// An event stream without its first event when that is a priming event: one whose data
/// is empty (`data:` with nothing after it, as rmcp writes it before the answers). Bytes
/// are held only until the first event is whole, then passed on as they come.
struct WithoutPriming<S> {
    inner: S,
    /// The start of the stream while the first event is not whole; `None` after.
    head: Option<Vec<u8>>,
}

impl<S> WithoutPriming<S> {
    fn new(inner: S) -> Self {
        WithoutPriming {
            inner,
            head: Some(Vec::new()),
        }
    }
}

/// Where the first event of `bytes` ends (after its blank line), if it is whole.
fn first_event_end(bytes: &[u8]) -> Option<usize> {
    ["\n\n", "\r\n\r\n", "\r\r"]
        .iter()
        .filter_map(|blank| {
            bytes
                .windows(blank.len())
                .position(|window| window == blank.as_bytes())
                .map(|at| at + blank.len())
        })
        .min()
}

/// Whether the event `event` (its lines, blank line included) carries no data: a priming
/// event, or one of comments and fields only.
fn is_priming(event: &[u8]) -> bool {
    String::from_utf8_lossy(event)
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .all(|data| data.trim().is_empty())
}

impl<S, E> futures_core::Stream for WithoutPriming<S>
where
    S: futures_core::Stream<Item = Result<axum::body::Bytes, E>> + Unpin,
{
    type Item = Result<axum::body::Bytes, E>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        context: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        use std::task::Poll;
        loop {
            let polled = std::pin::Pin::new(&mut self.inner).poll_next(context);
            let Some(head) = self.head.as_mut() else {
                return polled;
            };
            match polled {
                Poll::Ready(Some(Ok(bytes))) => {
                    head.extend_from_slice(&bytes);
                    let Some(end) = first_event_end(head) else {
                        continue;
                    };
                    let mut head = self.head.take().unwrap_or_default();
                    let rest = if is_priming(&head[..end]) {
                        head.split_off(end)
                    } else {
                        head
                    };
                    if !rest.is_empty() {
                        return Poll::Ready(Some(Ok(axum::body::Bytes::from(rest))));
                    }
                }
                Poll::Ready(None) => {
                    let head = self.head.take().unwrap_or_default();
                    if head.is_empty() {
                        return Poll::Ready(None);
                    }
                    return Poll::Ready(Some(Ok(axum::body::Bytes::from(head))));
                }
                other => return other,
            }
        }
    }
}

/// rmcp's session manager, refusing a new session while `max` are open.
struct Capped {
    inner: LocalSessionManager,
    max: usize,
}

impl Capped {
    /// Whether a new session would be refused.
    async fn is_full(&self) -> bool {
        self.inner.sessions.read().await.len() >= self.max
    }
}

/// What [`Capped`] answers: rmcp's error, or that the bound is reached.
#[derive(Debug, thiserror::Error)]
enum CappedError {
    #[error(transparent)]
    Inner(#[from] LocalSessionManagerError),
    #[error(
        "too many sessions: this server holds at most {0} at once; end one (DELETE) or try later"
    )]
    Full(usize),
}

impl SessionManager for Capped {
    type Error = CappedError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        if self.is_full().await {
            return Err(CappedError::Full(self.max));
        }
        Ok(self.inner.create_session().await?)
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        Ok(self.inner.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        Ok(self.inner.close_session(id).await?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<
        impl futures_core::Stream<Item = ServerSseMessage> + Send + Sync + 'static,
        Self::Error,
    > {
        Ok(self.inner.create_stream(id, message).await?)
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<
        impl futures_core::Stream<Item = ServerSseMessage> + Send + Sync + 'static,
        Self::Error,
    > {
        Ok(self.inner.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<
        impl futures_core::Stream<Item = ServerSseMessage> + Send + Sync + 'static,
        Self::Error,
    > {
        Ok(self.inner.resume(id, last_event_id).await?)
    }
}
