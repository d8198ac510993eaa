//! Any [`ToolDriver`] as an MCP server.

mod http;

use std::sync::{Arc, Mutex};

use mcs::{Tool, ToolDriver, ToolError};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, SubscriptionFilter,
};
use rmcp::service::{NotificationContext, RequestContext, RunningService, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::Value;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::convert;
use crate::error::ServeError;

pub use http::{HttpServer, MCP_PATH};

/// A [`ToolDriver`] served over the Model Context Protocol.
///
/// - `tools/list` answers the driver's [`list_tools`](ToolDriver::list_tools) in the shape
///   [`mcs::export::mcp_tool`] writes (name, title, description, `inputSchema`), in one page.
/// - `tools/call` reads the arguments as a model's would be read (numbers written as
///   strings are coerced, see [`mcs::validate::coerce_arguments`]), checks them against the
///   tool's schema, and runs [`execute_tool`](ToolDriver::execute_tool). A string result is
///   sent as text; any other value as its JSON text, an object also as `structuredContent`.
/// - A failed call (invalid arguments, a tool that failed or declined) is a result with
///   `isError: true` whose text names what was wrong and, for arguments, what the tool takes:
///   a model reads it and corrects its call. Only a call for a tool the driver does not have
///   is a protocol error (`-32602`, as the MCP specification asks), with the closest name.
/// - `notifications/tools/list_changed` goes to every connected client when the driver
///   reports a change of its tools through [`ToolDriver::watch_tools`] — an orchestrator's
///   registrations, an MCP client's refresh, or a driver of your own that keeps a
///   [`ToolsWatchers`](mcs::ToolsWatchers) and notifies it.
///
/// The server is cheap to clone (the driver is shared); each connection gets its own
/// handler. Serve it with [`serve_stdio`](Self::serve_stdio), [`serve`](Self::serve) (any
/// rmcp transport, an in-process duplex pipe for instance) or [`http`](Self::http).
///
/// ```no_run
/// use mcs_mcp::McpServer;
///
/// struct Greeter;
///
/// #[mcs::tool_driver]
/// impl Greeter {
///     /// Says hello.
///     #[tool]
///     fn greet(&self, name: String) -> String {
///         format!("Hello, {name}!")
///     }
/// }
///
/// #[tokio::main]
/// async fn main() -> Result<(), mcs_mcp::ServeError> {
///     McpServer::new(Greeter).serve_stdio().await
/// }
/// ```
pub struct McpServer<D> {
    shared: Arc<Shared<D>>,
    /// What clients are told when they connect. Held by each server value rather than
    /// shared, so that a setting applies to the value it is made on, whatever was cloned
    /// before.
    implementation: Implementation,
    instructions: Option<Arc<str>>,
    /// Ends this connection's list-changed forwarding when its last handle goes.
    session: Arc<Session>,
}

struct Shared<D> {
    driver: D,
    changes: watch::Sender<u64>,
    /// The MCP listing of the last tool list seen, rebuilt when the driver hands out a new
    /// one (an orchestrator that registered a driver, say).
    listing: Mutex<Option<Listing>>,
}

struct Listing {
    source: Arc<[Tool]>,
    tools: Arc<Vec<rmcp::model::Tool>>,
}

struct Session {
    ended: CancellationToken,
}

impl Drop for Session {
    fn drop(&mut self) {
        self.ended.cancel();
    }
}

impl Session {
    fn new() -> Arc<Self> {
        Arc::new(Session {
            ended: CancellationToken::new(),
        })
    }
}

impl<D> Clone for McpServer<D> {
    fn clone(&self) -> Self {
        McpServer {
            shared: Arc::clone(&self.shared),
            implementation: self.implementation.clone(),
            instructions: self.instructions.clone(),
            session: Arc::clone(&self.session),
        }
    }
}

impl<D> std::fmt::Debug for McpServer<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer")
            .field("implementation", &self.implementation)
            .finish_non_exhaustive()
    }
}

impl<D: ToolDriver + 'static> McpServer<D> {
    /// Serves `driver`, introduced to clients by its [`DriverMeta`](mcs::DriverMeta) name and
    /// version.
    ///
    /// A driver whose tools change while it serves (an orchestrator, an MCP client, anything
    /// that answers [`ToolDriver::watch_tools`]) has each change announced to the clients
    /// with `notifications/tools/list_changed`, with nothing to wire.
    pub fn new(driver: D) -> Self {
        let meta = driver.meta();
        let implementation = Implementation::new(meta.name.clone(), meta.version.clone());
        let changes = watch::Sender::new(0);
        let announce = changes.clone();
        driver.watch_tools(Arc::new(move || {
            announce.send_modify(|generation| *generation += 1);
        }));
        McpServer {
            shared: Arc::new(Shared {
                driver,
                changes,
                listing: Mutex::new(None),
            }),
            implementation,
            instructions: None,
            session: Session::new(),
        }
    }

    /// Sets the instructions sent to clients when they connect (hosts may put them in the
    /// model's prompt).
    #[must_use]
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into().into());
        self
    }

    /// Sets the name and version sent to clients when they connect (by default the driver's).
    #[must_use]
    pub fn with_implementation(
        mut self,
        name: impl Into<String>,
        version: impl Into<String>,
    ) -> Self {
        self.implementation = Implementation::new(name, version);
        self
    }

    /// The served driver.
    pub fn driver(&self) -> &D {
        &self.shared.driver
    }

    /// A handler for one more connection, sharing the driver.
    fn for_new_session(&self) -> Self {
        McpServer {
            shared: Arc::clone(&self.shared),
            implementation: self.implementation.clone(),
            instructions: self.instructions.clone(),
            session: Session::new(),
        }
    }

    /// Serves one client over `transport` (any rmcp transport: a pair of async pipes, a
    /// child's stdio, a socket) and returns once the client has initialized; the service
    /// runs until the client closes the connection or the returned handle is cancelled.
    pub async fn serve<T, E, A>(
        self,
        transport: T,
    ) -> Result<RunningService<RoleServer, Self>, ServeError>
    where
        T: rmcp::transport::IntoTransport<RoleServer, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let handler = self.for_new_session();
        ServiceExt::serve(handler, transport)
            .await
            .map_err(|error| ServeError::Initialize(error.to_string()))
    }

    /// Serves one client over this process's stdin and stdout, until the client closes
    /// stdin. Nothing else may write to stdout meanwhile: log to stderr.
    pub async fn serve_stdio(self) -> Result<(), ServeError> {
        let running = self.serve(rmcp::transport::stdio()).await?;
        running
            .waiting()
            .await
            .map_err(|error| ServeError::Stopped(error.to_string()))?;
        Ok(())
    }

    /// This server over streamable HTTP, mounted at `/mcp`: see [`HttpServer`].
    pub fn http(self) -> HttpServer<D> {
        HttpServer::new(self)
    }

    fn listing(&self) -> Arc<Vec<rmcp::model::Tool>> {
        let source = self.shared.driver.list_tools();
        let mut cache = self
            .shared
            .listing
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(listing) = cache.as_ref()
            && Arc::ptr_eq(&listing.source, &source)
        {
            return Arc::clone(&listing.tools);
        }
        // A tool the MCP model cannot hold is left out rather than failing the whole list;
        // `mcp_tool` only fails for a tool name or schema that is not JSON-serializable.
        let tools: Vec<rmcp::model::Tool> = source
            .iter()
            .filter_map(|tool| convert::mcp_tool(tool).ok())
            .collect();
        let tools = Arc::new(tools);
        *cache = Some(Listing {
            source,
            tools: Arc::clone(&tools),
        });
        tools
    }

    /// One `tools/call`: the result, a tool error as an `isError` result, or a protocol
    /// error for a tool this driver does not have.
    pub(crate) async fn call(&self, name: &str, arguments: Value) -> Result<Value, ToolError> {
        let tools = self.shared.driver.list_tools();
        let tool = match self.shared.driver.tool_position(name) {
            Some(index) if tools.get(index).is_some_and(|t| t.name() == name) => &tools[index],
            _ => match tools.iter().find(|tool| tool.name() == name) {
                Some(tool) => tool,
                None => {
                    return Err(ToolError::unknown_tool_among(
                        name,
                        tools.iter().map(Tool::name),
                    ));
                }
            },
        };
        let mut arguments = arguments;
        mcs::validate::coerce_arguments(tool, &mut arguments);
        if let Err(problems) = mcs::validate::validate_arguments(tool, &arguments) {
            return Err(ToolError::InvalidArguments {
                tool: name.to_owned(),
                problems,
            });
        }
        self.shared.driver.execute_tool(name, arguments).await
    }

    fn tool(&self, name: &str) -> Option<Tool> {
        self.shared
            .driver
            .list_tools()
            .iter()
            .find(|tool| tool.name() == name)
            .cloned()
    }

    /// Forwards list changes to `peer` until this connection ends.
    fn forward_changes(&self, peer: rmcp::Peer<RoleServer>) {
        let mut changes = self.shared.changes.subscribe();
        changes.mark_unchanged();
        let ended = self.session.ended.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    () = ended.cancelled() => break,
                    changed = changes.changed() => {
                        if changed.is_err() || peer.notify_tool_list_changed().await.is_err() {
                            break;
                        }
                    }
                }
            }
        });
    }
}

impl<D: ToolDriver + 'static> ServerHandler for McpServer<D> {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .build();
        let config = ServerConfig::new(capabilities).with_server_info(self.implementation.clone());
        match &self.instructions {
            Some(instructions) => config.with_instructions(instructions.to_string()),
            None => config,
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            self.listing().as_ref().clone(),
        ))
    }

    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        self.listing()
            .iter()
            .find(|tool| tool.name == name)
            .cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.map_or(Value::Null, Value::Object);
        let result = match self.call(&request.name, arguments).await {
            Ok(value) => convert::success(value),
            Err(error @ ToolError::UnknownTool { .. }) => {
                return Err(ErrorData::invalid_params(error.to_string(), None));
            }
            Err(error) => convert::failure(&error, self.tool(&request.name).as_ref()),
        };
        Ok(CallToolResponse::Complete(result))
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.forward_changes(context.peer);
    }

    fn accepted_subscription_filter(
        &self,
        _requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(SubscriptionFilter::builder().tools_list_changed().build())
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let mut changes = self.shared.changes.subscribe();
        changes.mark_unchanged();
        loop {
            tokio::select! {
                () = context.cancelled() => return Ok(()),
                changed = changes.changed() => {
                    if changed.is_err() {
                        return Ok(());
                    }
                    // A client that did not ask for tool changes is not sent them.
                    let _ = context.sink().notify_tool_list_changed().await;
                }
            }
        }
    }
}
