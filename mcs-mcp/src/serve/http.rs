//! The server over streamable HTTP.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use mcs::ToolDriver;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;

use super::McpServer;
use crate::error::ServeError;

/// The path the MCP endpoint is mounted at: clients connect to `http://HOST:PORT/mcp`.
pub const MCP_PATH: &str = "/mcp";

/// An [`McpServer`] over the streamable HTTP transport of MCP, one session per client.
///
/// By default only requests whose `Host` is a loopback name (`localhost`, `127.0.0.1`,
/// `::1`) are served, which protects a local server from DNS rebinding; a server meant for
/// other hosts names them with [`allowed_hosts`](Self::allowed_hosts).
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
}

impl<D: ToolDriver + 'static> HttpServer<D> {
    pub(super) fn new(server: McpServer<D>) -> Self {
        let config = StreamableHttpServerConfig::default()
            .with_max_request_body_bytes(server.limits.incoming());
        HttpServer { server, config }
    }

    /// Serves requests whose `Host` header is one of these (`example.com` or
    /// `example.com:8080`) instead of the loopback names.
    #[must_use]
    pub fn allowed_hosts(mut self, hosts: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.config = self.config.with_allowed_hosts(hosts);
        self
    }

    /// Replaces rmcp's configuration of the transport (keep-alive, JSON responses, session
    /// mode, body limits). The request body limit starts as the server's
    /// [incoming limit](McpServer::message_limits) only without this call.
    #[must_use]
    pub fn with_config(mut self, config: StreamableHttpServerConfig) -> Self {
        self.config = config;
        self
    }

    /// The endpoint as an axum router with the MCP endpoint at [`MCP_PATH`], to merge into an
    /// application's own router.
    pub fn router(self) -> axum::Router {
        let server = self.server;
        let service = StreamableHttpService::new(
            move || Ok(server.for_new_session()),
            Arc::new(LocalSessionManager::default()),
            self.config,
        );
        axum::Router::new().route_service(MCP_PATH, service)
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
