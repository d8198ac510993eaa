//! Any MCP server as a [`ToolDriver`].

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use mcs::{
    ArgumentError, Binding, DriverMeta, Tool, ToolDriver, ToolError, ToolFuture, ToolsListener,
    ToolsWatchers,
};
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ErrorCode, Implementation,
    ProtocolVersion,
};
use rmcp::service::{NotificationContext, RunningService, ServiceError};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, Peer, RoleClient, ServiceExt};
use serde_json::Value;
use tokio::process::Command;
use tokio_util::sync::DropGuard;

use crate::convert;
use crate::error::McpError;
use crate::limits::{self, MessageLimits};
use crate::process::{self, Diagnostics};

mod prompts;
mod resources;

use resources::ResourceTools;

/// How long to wait, and what to call the driver; see [`McpToolDriver::connect`].
#[derive(Clone, Debug)]
pub struct ConnectOptions {
    connect_timeout: Duration,
    list_timeout: Duration,
    call_timeout: Duration,
    limits: MessageLimits,
    id: Option<String>,
    name: Option<String>,
    resource_tools: bool,
}

impl Default for ConnectOptions {
    fn default() -> Self {
        ConnectOptions {
            connect_timeout: Duration::from_secs(30),
            list_timeout: Duration::from_secs(30),
            call_timeout: Duration::from_secs(120),
            limits: MessageLimits::default(),
            id: None,
            name: None,
            resource_tools: true,
        }
    }
}

impl ConnectOptions {
    /// The longest wait for the server to start and answer `initialize` (default 30 s; a
    /// server started through `npx` may download itself first).
    #[must_use]
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// The longest wait for a `tools/list` answer, all pages together (default 30 s).
    #[must_use]
    pub fn list_timeout(mut self, timeout: Duration) -> Self {
        self.list_timeout = timeout;
        self
    }

    /// The longest wait for one `tools/call` answer (default 120 s). A call that takes
    /// longer fails with a [`ToolError::Execution`] and is cancelled on the server.
    #[must_use]
    pub fn call_timeout(mut self, timeout: Duration) -> Self {
        self.call_timeout = timeout;
        self
    }

    /// The largest message sent and taken in (by default
    /// [`DEFAULT_MESSAGE_LIMIT`](crate::DEFAULT_MESSAGE_LIMIT) each way, which is also what
    /// servers built on rmcp take in). A `tools/call` request over the outgoing limit fails
    /// before it is sent; an answer over the incoming limit, from a child process or over
    /// HTTP, fails its call at once. Both are [`McpError::MessageTooLarge`], inside a
    /// [`ToolError::Execution`] for a call. Over another transport (see
    /// [`McpToolDriver::connect`]) the incoming limit is that transport's.
    #[must_use]
    pub fn message_limits(mut self, limits: MessageLimits) -> Self {
        self.limits = limits;
        self
    }

    /// The driver's [`DriverMeta::id`] (default `mcp:` and the server's name).
    #[must_use]
    pub fn id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }

    /// The driver's [`DriverMeta::name`] (default the server's title or name).
    #[must_use]
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// Whether a server that announces resources gets two more tools, `list_resources` and
    /// `read_resource`, through which a model reaches them (default `true`; see
    /// [`McpToolDriver`]). Off, the resources are still there for the program:
    /// [`McpToolDriver::resources`], [`McpToolDriver::read_resource`].
    #[must_use]
    pub fn resource_tools(mut self, offer: bool) -> Self {
        self.resource_tools = offer;
        self
    }
}

/// A tool the server listed that cannot be an mcs [`Tool`], and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedTool {
    /// The tool's name as listed.
    pub name: String,
    /// What is wrong with it.
    pub reason: String,
}

/// An MCP server as an ordinary [`ToolDriver`]: a child process spoken to over stdio, a
/// streamable-HTTP URL, or any rmcp transport.
///
/// The tools are listed when the driver connects and kept, so [`list_tools`] never waits on
/// the network; [`refresh`](Self::refresh) lists them again, and so does a
/// `notifications/tools/list_changed` from the server (to hear of it, give a listener to
/// [`ToolDriver::watch_tools`]). A listed tool whose schema mcs
/// cannot use is left out and reported by [`skipped_tools`](Self::skipped_tools); see
/// the crate docs for how tools and results are mapped.
///
/// [`execute_tool`] checks the arguments against the listed schema (numbers written as
/// strings are coerced first, as an [`McpServer`](crate::McpServer) does) and sends
/// `tools/call` only when they fit: wrong or unknown arguments are a
/// [`ToolError::InvalidArguments`] without a round trip (unknown keys pass only when the
/// tool's schema sets `additionalProperties` to `true` or a schema). A result with
/// `isError: true` is a [`ToolError`] (the very one, when the server is an mcs
/// `McpServer`). A protocol error is classified by its code: `-32602` (invalid params) is a
/// [`ToolError::InvalidArguments`] quoting the server, or a [`ToolError::UnknownTool`] when
/// the server says the tool is unknown; any other, or a server that closes, exits or does not
/// answer within the call timeout, gives a [`ToolError::Execution`] that says so. A call for
/// a tool the server did not list is a [`ToolError::UnknownTool`] without a round trip.
///
/// A server that announces resources gets two more tools, read-only, through which a model
/// reaches them: `list_resources` (the resources and resource templates, every page) and
/// `read_resource` (`uri`: a lone text as itself, several contents joined, binary contents
/// described by type and size; a URI the server refuses is a
/// [`ToolError::InvalidArguments`] on `uri` in the server's words). They are named apart
/// from the server's own tools (`list_resources_2` when the server has a `list_resources`),
/// ask the server afresh on every call, and are left out with
/// [`ConnectOptions::resource_tools`]. The program reaches resources and prompts directly:
/// [`resources`](Self::resources), [`read_resource`](Self::read_resource),
/// [`prompts`](Self::prompts), [`get_prompt`](Self::get_prompt). Prompts are not tools: in
/// MCP a user chooses them, not the model.
///
/// Wrapped in [`mcs::hybrid::Hybrid`] it is a [`Driver`](mcs::Driver): a model gets the
/// server's tools in every call format mcs reads.
///
/// ```no_run
/// use mcs::ToolDriver;
/// use mcs_mcp::McpToolDriver;
///
/// # #[tokio::main]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let mut command = tokio::process::Command::new("npx");
/// command.args(["-y", "@modelcontextprotocol/server-everything"]);
/// let everything = McpToolDriver::spawn(command).await?;
/// for tool in everything.list_tools().iter() {
///     println!("{}: {}", tool.name(), tool.label());
/// }
/// let echoed = everything
///     .execute_tool("echo", serde_json::json!({"message": "hi"}))
///     .await?;
/// # Ok(())
/// # }
/// ```
///
/// [`list_tools`]: ToolDriver::list_tools
/// [`execute_tool`]: ToolDriver::execute_tool
pub struct McpToolDriver {
    meta: DriverMeta,
    state: Arc<State>,
    peer: Peer<RoleClient>,
    call_timeout: Duration,
    limits: MessageLimits,
    service: Mutex<Option<RunningService<RoleClient, ClientSide>>>,
    /// Kills the child process, if there is one, when the driver goes.
    _child: Option<DropGuard>,
}

impl std::fmt::Debug for McpToolDriver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpToolDriver")
            .field("server", &self.state.server)
            .field("meta", &self.meta)
            .field("tools", &self.list_tools().len())
            .finish_non_exhaustive()
    }
}

/// The listing, shared with the handler that hears of changes.
struct State {
    server: String,
    diagnostics: Option<Arc<Diagnostics>>,
    list_timeout: Duration,
    /// Whether to list `list_resources` and `read_resource` when the server has resources.
    resource_tools: bool,
    /// The tools and their renamed keys, swapped together so that a call never pairs one
    /// listing's tools with another's keys.
    listing: RwLock<Listing>,
    skipped: RwLock<Arc<[SkippedTool]>>,
    /// Told after each new listing (see `ToolDriver::watch_tools`): an orchestrator this
    /// driver is registered in, say.
    listeners: ToolsWatchers,
}

/// The tools as listed last.
#[derive(Clone, Default)]
struct Listing {
    tools: Arc<[Tool]>,
    /// Per tool, the arguments listed under other keys than the server's (see
    /// `convert::mcs_tool_renamed`); calls map them back.
    renamed: Arc<HashMap<String, Vec<convert::Renamed>>>,
    /// The tools listed under another name than the server's (see
    /// `convert::portable_tool_names`), by the name listed; calls go out under the server's.
    server_names: Arc<HashMap<String, String>>,
    /// The tools whose schema takes arguments besides its properties
    /// (`additionalProperties` true or a schema): calls to them may carry other keys.
    open: Arc<HashSet<String>>,
    /// The names of the tools that reach the server's resources, when they are listed.
    resources: Option<Arc<ResourceTools>>,
}

impl State {
    fn listing(&self) -> Listing {
        self.listing
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    async fn context(&self) -> String {
        match &self.diagnostics {
            Some(diagnostics) => diagnostics.context().await,
            None => String::new(),
        }
    }

    async fn request_error(&self, request: &'static str, error: ServiceError) -> McpError {
        if let ServiceError::McpError(error) = &error
            && let Some((bytes, limit)) = limits::read_oversize_data(error.data.as_ref())
        {
            return McpError::MessageTooLarge {
                server: self.server.clone(),
                request,
                detail: error.message.to_string(),
                bytes,
                limit,
                context: self.context().await,
            };
        }
        let detail = match error {
            ServiceError::McpError(error) => {
                format!("error {}: {}", error.code.0, error.message)
            }
            ServiceError::TransportClosed => "the connection closed".to_owned(),
            ServiceError::UnexpectedResponse => format!("the answer is not a `{request}` result"),
            other => other.to_string(),
        };
        McpError::Request {
            server: self.server.clone(),
            request,
            detail,
            context: self.context().await,
        }
    }

    async fn timeout(&self, request: &'static str, timeout: Duration) -> McpError {
        McpError::Timeout {
            server: self.server.clone(),
            request,
            timeout,
            context: self.context().await,
        }
    }

    /// Lists the tools again and keeps them.
    async fn refresh(&self, peer: &Peer<RoleClient>) -> Result<Arc<[Tool]>, McpError> {
        let listed = match tokio::time::timeout(self.list_timeout, peer.list_all_tools()).await {
            Ok(Ok(listed)) => listed,
            Ok(Err(error)) => return Err(self.request_error("tools/list", error).await),
            Err(_) => return Err(self.timeout("tools/list", self.list_timeout).await),
        };
        let mut tools = Vec::with_capacity(listed.len());
        let mut skipped = Vec::new();
        let mut renamed = HashMap::new();
        let mut server_names = HashMap::new();
        let mut open = HashSet::new();
        // A name listed a second time is skipped; the portable names are made among the rest.
        let duplicate: Vec<bool> = listed
            .iter()
            .enumerate()
            .map(|(at, tool)| listed[..at].iter().any(|t| t.name == tool.name))
            .collect();
        let names: Vec<&str> = listed
            .iter()
            .zip(&duplicate)
            .filter(|(_, duplicate)| !**duplicate)
            .map(|(tool, _)| tool.name.as_ref())
            .collect();
        let mut portable = convert::portable_tool_names(&names).into_iter();
        for (tool, duplicate) in listed.iter().zip(duplicate) {
            if duplicate {
                skipped.push(SkippedTool {
                    name: tool.name.to_string(),
                    reason: format!("tool `{}` is listed twice; the first is kept", tool.name),
                });
                continue;
            }
            let portable = portable.next().flatten();
            let listed_as = portable.as_deref().unwrap_or(&tool.name);
            match convert::mcs_tool_renamed(tool, listed_as) {
                Ok((converted, keys)) => {
                    if !keys.is_empty() {
                        renamed.insert(converted.name().to_owned(), keys);
                    }
                    if portable.is_some() {
                        server_names.insert(converted.name().to_owned(), tool.name.to_string());
                    }
                    if convert::takes_other_arguments(tool) {
                        open.insert(converted.name().to_owned());
                    }
                    tools.push(converted);
                }
                Err(reason) => skipped.push(SkippedTool {
                    name: tool.name.to_string(),
                    reason,
                }),
            }
        }
        let resources = (self.resource_tools && has_resources(peer)).then(|| {
            let resource_tools = ResourceTools::named_among(&tools, &self.server);
            tools.extend(resource_tools.tools());
            Arc::new(resource_tools)
        });
        let tools: Arc<[Tool]> = tools.into();
        *self.listing.write().unwrap_or_else(|p| p.into_inner()) = Listing {
            tools: Arc::clone(&tools),
            renamed: Arc::new(renamed),
            server_names: Arc::new(server_names),
            open: Arc::new(open),
            resources,
        };
        *self.skipped.write().unwrap_or_else(|p| p.into_inner()) = skipped.into();
        self.listeners.notify();
        Ok(tools)
    }
}

/// The client side of the connection: who we are, and a listener for tool changes.
struct ClientSide {
    config: ClientConfig,
    state: Arc<State>,
}

impl ClientHandler for ClientSide {
    fn get_info(&self) -> ClientConfig {
        self.config.clone()
    }

    async fn on_tool_list_changed(&self, context: NotificationContext<RoleClient>) {
        let state = Arc::clone(&self.state);
        // Listed from a task of its own: the connection's loop is what delivers the answer.
        tokio::spawn(async move {
            // A failed refresh keeps the previous listing; the next call reports the fault.
            let _ = state.refresh(&context.peer).await;
        });
    }
}

impl McpToolDriver {
    /// Starts `command` as an MCP server speaking over its stdin and stdout, connects, and
    /// lists its tools. The process is killed when the driver is dropped.
    pub async fn spawn(command: Command) -> Result<Self, McpError> {
        Self::spawn_with(command, ConnectOptions::default()).await
    }

    /// [`spawn`](Self::spawn) with these options.
    pub async fn spawn_with(command: Command, options: ConnectOptions) -> Result<Self, McpError> {
        let server = process::command_line(&command);
        let child = process::spawn(command, options.limits.incoming()).map_err(|source| {
            McpError::Spawn {
                server: server.clone(),
                source,
            }
        })?;
        // The filter in front of stdout holds lines to the incoming limit already (and turns
        // an answer over it into an error for its request); rmcp's own cap, 16 MiB, must not
        // drop what the limit lets through. Two bytes more for a `\r\n`.
        let transport = AsyncRwTransport::new_client(child.stdout, child.stdin)
            .with_max_line_length(options.limits.incoming().saturating_add(2));
        Self::start(
            server,
            "stdio",
            transport,
            Some(child.diagnostics),
            Some(child.guard),
            options,
        )
        .await
    }

    /// Connects to the streamable-HTTP MCP endpoint at `url` (`http://127.0.0.1:8000/mcp`)
    /// and lists its tools.
    pub async fn connect_url(url: &str) -> Result<Self, McpError> {
        Self::connect_url_with(url, ConnectOptions::default()).await
    }

    /// [`connect_url`](Self::connect_url) with these options.
    pub async fn connect_url_with(url: &str, options: ConnectOptions) -> Result<Self, McpError> {
        // rmcp's HTTP client is reqwest over rustls without a provider of its own.
        mcs::tls::ensure_provider();
        let limit = options.limits.incoming();
        let transport = StreamableHttpClientTransport::from_config(
            StreamableHttpClientTransportConfig::with_uri(url)
                .max_json_response_size(limit)
                .max_sse_event_size(limit),
        );
        Self::start(
            url.to_owned(),
            "streamable-http",
            transport,
            None,
            None,
            options,
        )
        .await
    }

    /// Connects over any rmcp transport (an in-process duplex pipe, a socket), naming the
    /// server `server` in messages, and lists its tools.
    pub async fn connect<T, E, A>(
        server: impl Into<String>,
        transport: T,
        options: ConnectOptions,
    ) -> Result<Self, McpError>
    where
        T: rmcp::transport::IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        Self::start(server.into(), "custom", transport, None, None, options).await
    }

    async fn start<T, E, A>(
        server: String,
        adapter: &str,
        transport: T,
        diagnostics: Option<Arc<Diagnostics>>,
        child: Option<DropGuard>,
        options: ConnectOptions,
    ) -> Result<Self, McpError>
    where
        T: rmcp::transport::IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let state = Arc::new(State {
            server,
            diagnostics,
            list_timeout: options.list_timeout,
            resource_tools: options.resource_tools,
            listing: RwLock::new(Listing::default()),
            skipped: RwLock::new(Arc::from(Vec::new())),
            listeners: ToolsWatchers::default(),
        });
        let config = ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("mcs-mcp", env!("CARGO_PKG_VERSION")),
        )
        .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE);
        let handler = ClientSide {
            config,
            state: Arc::clone(&state),
        };
        let running = match tokio::time::timeout(
            options.connect_timeout,
            ServiceExt::serve(handler, transport),
        )
        .await
        {
            Ok(Ok(running)) => running,
            Ok(Err(error)) => {
                return Err(McpError::Request {
                    server: state.server.clone(),
                    request: "initialize",
                    detail: error.to_string(),
                    context: state.context().await,
                });
            }
            Err(_) => return Err(state.timeout("initialize", options.connect_timeout).await),
        };
        let peer = running.peer().clone();
        state.refresh(&peer).await?;
        let meta = meta(&peer, &state.server, adapter, &options);
        Ok(McpToolDriver {
            meta,
            state,
            peer,
            call_timeout: options.call_timeout,
            limits: options.limits,
            service: Mutex::new(Some(running)),
            _child: child,
        })
    }

    /// Lists the tools again, keeps them, and returns them.
    pub async fn refresh(&self) -> Result<Arc<[Tool]>, McpError> {
        self.state.refresh(&self.peer).await
    }

    /// The listed tools that were left out, and why (see [`McpToolDriver`]).
    pub fn skipped_tools(&self) -> Arc<[SkippedTool]> {
        Arc::clone(&self.state.skipped.read().unwrap_or_else(|p| p.into_inner()))
    }

    /// The server's command line or URL, as messages name it.
    pub fn server(&self) -> &str {
        &self.state.server
    }

    /// Closes the connection (and ends the child process, if there is one). Calls made
    /// afterwards fail.
    pub async fn close(&self) {
        let running = self
            .service
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(running) = running {
            let _ = running.cancel().await;
        }
    }

    async fn call(&self, name: &str, arguments: Value) -> Result<Value, ToolError> {
        let Listing {
            tools,
            renamed,
            server_names,
            open,
            resources,
        } = self.state.listing();
        let Some(tool) = tools.iter().find(|tool| tool.name() == name) else {
            return Err(ToolError::unknown_tool_among(
                name,
                tools.iter().map(Tool::name),
            ));
        };
        // Checked against the listed schema before anything is sent, as a served driver
        // checks its calls: the model learns what is wrong in the words mcs uses everywhere,
        // and a server that trusts its schema never sees a key it does not know.
        let mut arguments = arguments;
        mcs::validate::coerce_arguments(tool, &mut arguments);
        if let Err(mut problems) = mcs::validate::validate_arguments(tool, &arguments) {
            if open.contains(name) {
                problems.retain(|problem| {
                    !matches!(problem.kind, mcs::ArgumentErrorKind::Unknown { .. })
                });
            }
            if !problems.is_empty() {
                return Err(ToolError::InvalidArguments {
                    tool: name.to_owned(),
                    problems,
                });
            }
        }
        if let Some(resources) = resources
            && let Some(answer) = resources.answer(self, name, &arguments).await
        {
            return answer;
        }
        let server_name = server_names.get(name).map_or(name, String::as_str);
        let mut request = CallToolRequestParams::new(server_name.to_owned());
        let sent = arguments.clone();
        match arguments {
            Value::Object(mut arguments) => {
                if let Some(renamed) = renamed.get(name) {
                    convert::server_keys(&mut arguments, renamed);
                }
                request = request.with_arguments(arguments);
            }
            Value::Null => {}
            other => {
                return Err(ToolError::invalid_argument(
                    name,
                    ArgumentError::invalid(
                        "",
                        "a JSON object of named arguments",
                        mcs::schema::describe_received(&other),
                    ),
                ));
            }
        }
        let state = &self.state;
        let failure = |error: McpError| ToolError::execution_source(name, error);
        if let Some(error) = self.over_limit(&request).await {
            return Err(failure(error));
        }
        let span = tracing::info_span!(
            target: mcs::telemetry::TARGET,
            "mcp_request",
            "otel.name" = "tools/call",
            "otel.kind" = "client",
            "otel.status_code" = tracing::field::Empty,
            "mcp.method.name" = "tools/call",
            "gen_ai.tool.name" = server_name,
            "mcs.mcp.server" = %self.state.server,
            "error.type" = tracing::field::Empty,
        );
        let answer = tracing::Instrument::instrument(
            tokio::time::timeout(self.call_timeout, self.peer.call_tool(request)),
            span.clone(),
        )
        .await;
        if !span.is_disabled() {
            let error = match &answer {
                Ok(Ok(result)) if result.is_error == Some(true) => Some("tool_error"),
                Ok(Ok(_)) => None,
                Ok(Err(_)) => Some("mcp_error"),
                Err(_) => Some("timeout"),
            };
            if let Some(error) = error {
                mcs::telemetry::record_failure(&span, error);
            }
        }
        match answer {
            // An mcs server names its own tool in its errors: the model reads the name listed.
            Ok(Ok(result)) => convert::read_result(name, result).map_err(|e| e.for_tool(name)),
            Ok(Err(ServiceError::McpError(error)))
                if error.code == ErrorCode::INVALID_PARAMS
                    && limits::read_oversize_data(error.data.as_ref()).is_none() =>
            {
                Err(convert::invalid_params(name, &error.message, &sent))
            }
            Ok(Err(error)) => Err(failure(state.request_error("tools/call", error).await)),
            Err(_) => Err(failure(
                state.timeout("tools/call", self.call_timeout).await,
            )),
        }
    }
}

impl McpToolDriver {
    /// The error for a request over the outgoing limit: sent, it would be dropped by a
    /// server whose limit it is over too (rmcp's, 16 MiB by default) without an answer.
    async fn over_limit(&self, request: &CallToolRequestParams) -> Option<McpError> {
        // The JSON-RPC envelope around the parameters: `{"jsonrpc":"2.0","id":…,"method":…}`.
        const ENVELOPE: usize = 80;
        let limit = self.limits.outgoing();
        let bytes = serde_json::to_vec(request).map_or(0, |text| text.len()) + ENVELOPE;
        if bytes <= limit {
            return None;
        }
        Some(McpError::MessageTooLarge {
            server: self.state.server.clone(),
            request: "tools/call",
            detail: format!(
                "the request would be {}, over this client's limit of {} for one message \
                 (ConnectOptions::message_limits); it was not sent",
                limits::size(bytes),
                limits::size(limit)
            ),
            bytes,
            limit,
            context: self.state.context().await,
        })
    }
}

/// Whether the server announced the resources capability.
fn has_resources(peer: &Peer<RoleClient>) -> bool {
    peer.peer_info()
        .is_some_and(|info| info.capabilities.resources.is_some())
}

/// Whether the server announced the prompts capability.
fn has_prompts(peer: &Peer<RoleClient>) -> bool {
    peer.peer_info()
        .is_some_and(|info| info.capabilities.prompts.is_some())
}

fn meta(
    peer: &Peer<RoleClient>,
    server: &str,
    adapter: &str,
    options: &ConnectOptions,
) -> DriverMeta {
    let info = peer.peer_info();
    let implementation = info.as_ref().and_then(|info| info.server_info.clone());
    let (name, title, version) = match implementation {
        Some(implementation) => (
            implementation.name,
            implementation.title,
            implementation.version,
        ),
        None => (server.to_owned(), None, String::new()),
    };
    let id = options.id.clone().unwrap_or_else(|| format!("mcp:{name}"));
    let display = options
        .name
        .clone()
        .or(title)
        .unwrap_or_else(|| name.clone());
    DriverMeta::new(id, display, version)
        .with_binding(Binding::new("mcp", adapter).with_spec_format("MCP"))
}

impl ToolDriver for McpToolDriver {
    fn meta(&self) -> &DriverMeta {
        &self.meta
    }

    fn list_tools(&self) -> Arc<[Tool]> {
        self.state.listing().tools
    }

    fn execute_tool<'a>(&'a self, name: &'a str, arguments: Value) -> ToolFuture<'a> {
        ToolFuture::new(self.call(name, arguments))
    }

    /// Calls `listener` after each new listing: a [`refresh`](McpToolDriver::refresh), or
    /// the server's `notifications/tools/list_changed`.
    fn watch_tools(&self, listener: ToolsListener) -> bool {
        self.state.listeners.add(listener);
        true
    }
}
