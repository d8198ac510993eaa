//! Any [`ToolDriver`] as an MCP server.

mod catalog;
mod http;
mod lines;

use std::sync::{Arc, Mutex};

use mcs::{Tool, ToolDriver, ToolError};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CustomRequest, CustomResult,
    ErrorCode, GetPromptRequestParams, GetPromptResponse, Implementation, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    PromptsCapability, ReadResourceRequestParams, ReadResourceResponse, ResourcesCapability,
    ServerCapabilities, ServerConfig, SubscriptionFilter,
};
use rmcp::service::{NotificationContext, RequestContext, RunningService, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::Value;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::convert;
use crate::error::ServeError;
use crate::limits::{self, MessageLimits};

pub use http::{DEFAULT_MAX_SESSIONS, HttpServer, LOOPBACK_ORIGINS, MCP_PATH};

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
/// - Prompts and resources are the program's to add: [`with_prompt`](Self::with_prompt),
///   [`with_driver_prompt`](Self::with_driver_prompt) (a [`Driver`](mcs::Driver)'s system
///   prompt), [`with_resource`](Self::with_resource),
///   [`with_dynamic_resource`](Self::with_dynamic_resource). The prompts and resources
///   capabilities are announced only when there is one to list.
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
    limits: MessageLimits,
    /// The prompts and resources offered (see `with_prompt`, `with_resource`).
    catalog: Arc<catalog::Catalog>,
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
            limits: self.limits,
            catalog: Arc::clone(&self.catalog),
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
            limits: MessageLimits::default(),
            catalog: Arc::default(),
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

    /// Sets the largest message taken in and sent out (by default
    /// [`DEFAULT_MESSAGE_LIMIT`](crate::DEFAULT_MESSAGE_LIMIT) each way); see
    /// [`MessageLimits`] for what happens to a message over a limit. The incoming limit
    /// applies over stdio ([`serve_stdio`](Self::serve_stdio), [`serve_io`](Self::serve_io))
    /// and HTTP; the outgoing one to `tools/call` results on every transport, and to every
    /// answer over stdio.
    #[must_use]
    pub fn message_limits(mut self, limits: MessageLimits) -> Self {
        self.limits = limits;
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
            limits: self.limits,
            catalog: Arc::clone(&self.catalog),
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
    ///
    /// Messages are read as [`serve_io`](Self::serve_io) reads them.
    pub async fn serve_stdio(self) -> Result<(), ServeError> {
        let (stdin, stdout) = rmcp::transport::stdio();
        let running = self.serve_io(stdin, stdout).await?;
        running
            .waiting()
            .await
            .map_err(|error| ServeError::Stopped(error.to_string()))?;
        Ok(())
    }

    /// Serves one client speaking newline-delimited JSON-RPC (MCP's stdio framing) over a
    /// pair of byte streams (a socket's halves, a pipe), and returns once the client has
    /// initialized.
    ///
    /// Unlike rmcp's own framing, every request gets an answer: one over the
    /// [incoming limit](Self::message_limits) is skipped without being held in memory and
    /// answered with `-32600` for its id (read from the line as it passes, wherever the id
    /// is in it); a line that is not JSON (invalid UTF-8 included) with `-32700`; JSON
    /// that is not a JSON-RPC message with `-32600`. An answer over the outgoing limit is
    /// replaced by a `-32603` error that gives its size.
    pub async fn serve_io<R, W>(
        self,
        read: R,
        write: W,
    ) -> Result<RunningService<RoleServer, Self>, ServeError>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        let transport = lines::LineTransport::new(read, write, self.limits);
        self.serve(transport).await
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
                None => return self.call_unlisted(name, arguments, &tools).await,
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
        self.execute(name, arguments).await
    }

    /// The driver's call of `name`, in its tracing span, its outcome recorded.
    async fn execute(&self, name: &str, arguments: Value) -> Result<Value, ToolError> {
        let span = mcs::telemetry::execute_tool_span(&self.shared.driver.meta().id, name, None);
        let future = {
            let _entered = span.enter();
            self.shared.driver.execute_tool(name, arguments)
        };
        let result = tracing::Instrument::instrument(future, span.clone()).await;
        mcs::telemetry::record_outcome(&span, &result);
        result
    }

    /// `result`, or, when it would make a message over the outgoing limit, a tool error that
    /// says so: the model learns why there is no result instead of the client seeing the
    /// connection fail.
    fn within_limit(&self, name: &str, result: CallToolResult) -> CallToolResult {
        // The JSON-RPC envelope around the result: `{"jsonrpc":"2.0","id":…,"result":…}`.
        const ENVELOPE: usize = 64;
        let limit = self.limits.outgoing();
        let bytes = match serde_json::to_vec(&result) {
            Ok(text) => text.len() + ENVELOPE,
            Err(error) => {
                let error = ToolError::execution(
                    name,
                    format!("the result could not be written as JSON: {error}"),
                );
                return convert::failure(&error, None);
            }
        };
        if bytes <= limit {
            return result;
        }
        let error = ToolError::execution(
            name,
            format!(
                "the result is {} as an MCP message (an object is sent twice, as text and as \
                 structured content), over this server's limit of {} for one message; ask \
                 for less at a time",
                limits::size(bytes),
                limits::size(limit)
            ),
        );
        convert::failure(&error, None)
    }

    /// A call of a tool the driver does not list goes to the driver all the same: one that
    /// reaches more tools than it lists (an orchestrator in discovery mode lists the tools
    /// that find the others) runs it, checking its arguments itself, and a model that calls
    /// a tool it found by name, as the discovery tools say it may, is served. Any other
    /// driver answers that it has no such tool, with the closest listed name.
    async fn call_unlisted(
        &self,
        name: &str,
        arguments: Value,
        listed: &[Tool],
    ) -> Result<Value, ToolError> {
        match self.execute(name, arguments).await {
            Err(ToolError::UnknownTool {
                suggestion: None, ..
            }) => Err(ToolError::unknown_tool_among(
                name,
                listed.iter().map(Tool::name),
            )),
            other => other,
        }
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
        let mut capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .build();
        // Announced only when there is something to list: a client then knows not to ask.
        if self.catalog.has_prompts() {
            capabilities.prompts = Some(PromptsCapability::default());
        }
        if self.catalog.has_resources() {
            capabilities.resources = Some(ResourcesCapability::default());
        }
        let config = ServerConfig::new(capabilities).with_server_info(self.implementation.clone());
        match &self.instructions {
            Some(instructions) => config.with_instructions(instructions.to_string()),
            None => config,
        }
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let listing = self.listing();
        let start = match request.and_then(|request| request.cursor) {
            None => 0,
            Some(cursor) => cursor
                .parse::<usize>()
                .ok()
                .filter(|&start| start > 0 && start < listing.len())
                .ok_or_else(|| {
                    ErrorData::invalid_params(
                        format!("the cursor `{cursor}` is not one this server gave"),
                        None,
                    )
                })?,
        };
        // A listing over half the outgoing limit (Microsoft Graph's 11,000 tools are 25 MB)
        // is given in pages of at most that size, each with the cursor of the next.
        let budget = self.limits.outgoing() / 2;
        let mut used = 0;
        let mut end = start;
        for tool in &listing[start..] {
            let size = serde_json::to_vec(tool).map_or(0, |bytes| bytes.len()) + 1;
            if end > start && used + size > budget {
                break;
            }
            used += size;
            end += 1;
        }
        let mut page = ListToolsResult::with_all_items(listing[start..end].to_vec());
        if end < listing.len() {
            page.next_cursor = Some(end.to_string());
        }
        Ok(page)
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
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.map_or(Value::Null, Value::Object);
        // A call the client cancels stops where it is: the request to the API is dropped
        // (its connection closed) rather than left running until its timeout. No answer
        // goes out for a cancelled request; the error below is never sent.
        let outcome = tokio::select! {
            outcome = self.call(&request.name, arguments) => outcome,
            () = context.ct.cancelled() => {
                return Err(ErrorData::internal_error("the call was cancelled", None));
            }
        };
        let result = match outcome {
            Ok(value) => self.within_limit(&request.name, convert::success(value)),
            Err(error @ ToolError::UnknownTool { .. }) => {
                return Err(ErrorData::invalid_params(error.to_string(), None));
            }
            Err(error) => convert::failure(&error, self.tool(&request.name).as_ref()),
        };
        Ok(CallToolResponse::Complete(result))
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        if !self.catalog.has_prompts() {
            return Err(not_offered("prompts"));
        }
        Ok(ListPromptsResult::with_all_items(self.catalog.prompts()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        // As `prompts/list` answers without prompts: the method is not offered at all.
        if !self.catalog.has_prompts() {
            return Err(not_offered("prompts"));
        }
        self.catalog
            .get_prompt(&request)
            .map(GetPromptResponse::Complete)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        if !self.catalog.has_resources() {
            return Err(not_offered("resources"));
        }
        Ok(ListResourcesResult::with_all_items(
            self.catalog.resources(),
        ))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        if !self.catalog.has_resources() {
            return Err(not_offered("resources"));
        }
        Ok(ListResourceTemplatesResult::with_all_items(Vec::new()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if !self.catalog.has_resources() {
            return Err(not_offered("resources"));
        }
        self.catalog
            .read(&request.uri)
            .map(ReadResourceResponse::Complete)
    }

    /// rmcp reads a request whose params do not fit its method (`tools/call` without a
    /// `name`, say) as a custom request, which it would answer `-32601 Method not found`;
    /// for a method of MCP the answer is `-32602 Invalid params`, with what does not fit.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let method = request.method.as_str();
        let problem = match method {
            "tools/call" => request
                .params_as::<CallToolRequestParams>()
                .err()
                .map(|error| error.to_string())
                .or_else(|| {
                    request
                        .params
                        .is_none()
                        .then(|| "a `tools/call` needs params with the tool's `name`".to_owned())
                }),
            "tools/list" | "prompts/list" | "resources/list" | "resources/templates/list" => {
                request
                    .params_as::<PaginatedRequestParams>()
                    .err()
                    .map(|error| error.to_string())
            }
            _ => None,
        };
        match problem {
            Some(problem) => Err(ErrorData::invalid_params(
                format!("the params of `{method}` do not fit it: {problem}"),
                None,
            )),
            None if is_mcp_method(method) => Err(ErrorData::invalid_params(
                format!("the params of `{method}` do not fit it"),
                None,
            )),
            None => Err(ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                format!("method `{method}` not found"),
                None,
            )),
        }
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

/// The answer to a request for what this server does not offer (it did not announce it).
fn not_offered(what: &str) -> ErrorData {
    ErrorData::new(
        ErrorCode::METHOD_NOT_FOUND,
        format!("this server offers no {what}"),
        None,
    )
}

/// What is wrong with the params of `initialize` in `message` (a whole JSON-RPC request),
/// if anything: rmcp reads an `initialize` whose params do not fit as another request,
/// and before a session answers that with words about request metadata the client never
/// needed.
pub(crate) fn initialize_problem(message: &Value) -> Option<String> {
    let params = message.get("params").cloned().unwrap_or(Value::Null);
    let problem = match serde_json::from_value::<rmcp::model::InitializeRequestParams>(params) {
        Ok(_) => return None,
        Err(error) => error.to_string(),
    };
    Some(format!(
        "the params of `initialize` do not fit it: {problem}"
    ))
}

/// Whether `method` is a request of MCP (one rmcp reads as such when its params fit).
fn is_mcp_method(method: &str) -> bool {
    matches!(
        method,
        "initialize"
            | "ping"
            | "completion/complete"
            | "logging/setLevel"
            | "prompts/get"
            | "prompts/list"
            | "resources/list"
            | "resources/read"
            | "resources/subscribe"
            | "resources/unsubscribe"
            | "resources/templates/list"
            | "tools/call"
            | "tools/list"
    )
}
