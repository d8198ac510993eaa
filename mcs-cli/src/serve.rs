//! `mcs serve`: a document's operations as an MCP server.

use std::sync::Arc;
use std::time::Duration;

use clap::{Args, ValueEnum};
use mcs::ToolDriver;
use mcs::orchestrator::{ConflictPolicy, Discovery, Orchestrator, Registration};
use mcs::rest::RestDriver;
use mcs_mcp::{MCP_PATH, McpServer};

use crate::credentials::CredentialArgs;
use crate::document::DocumentArgs;
use crate::gateway::Gateway;

/// `--discovery auto` switches discovery on above this many tools.
///
/// Forty: Cursor sends a model at most 40 tools from all its MCP servers together, and
/// past a few dozen tools models pick worse and every request pays for the whole listing
/// (GitHub's 1,000 operations are about a million characters of schemas). Below it a
/// listing is cheap enough that the extra discovery round trip is not worth it.
pub(crate) const DISCOVERY_ABOVE: usize = 40;

/// Where `--transport http` listens unless `--listen` says.
const DEFAULT_LISTEN: &str = "127.0.0.1:8000";

/// `mcs serve SPEC`.
#[derive(Args)]
pub(crate) struct ServeArgs {
    #[command(flatten)]
    document: DocumentArgs,

    /// How MCP clients connect: stdio (the host starts `mcs serve` and talks over its
    /// stdin and stdout) or http (streamable HTTP at http://ADDRESS/mcp).
    #[arg(long, value_enum, default_value_t = Transport::Stdio, help_heading = "Transport")]
    transport: Transport,
    /// The address to listen on with --transport http (port 0 picks a free port; the URL
    /// is printed on stderr) [default: 127.0.0.1:8000]
    #[arg(long, value_name = "ADDRESS", help_heading = "Transport")]
    listen: Option<String>,
    /// With --transport http, let web pages from this origin call the server (repeatable;
    /// `https://app.example.com`, `http://localhost:*`), instead of only pages from this
    /// machine. Programs (no Origin header) always can.
    #[arg(
        long = "allow-origin",
        value_name = "ORIGIN",
        help_heading = "Transport"
    )]
    allow_origins: Vec<String>,
    /// With --transport http, serve requests addressed to this host name (repeatable;
    /// `mcp.example.com`) instead of only localhost, 127.0.0.1 and ::1.
    #[arg(long = "allow-host", value_name = "HOST", help_heading = "Transport")]
    allow_hosts: Vec<String>,
    /// With --transport http, how many client sessions are held at once (each about 55 KB;
    /// one idle for five minutes ends) [default: 1000]
    #[arg(long, value_name = "N", help_heading = "Transport")]
    max_sessions: Option<usize>,
    /// List every tool (off), only the discovery tools (on: search_tools, load_toolset,
    /// describe_tool, and call_tool to call what they find), or decide by size (auto: on
    /// above 40 tools).
    #[arg(long, value_enum, default_value_t = DiscoveryMode::Auto, help_heading = "Transport")]
    discovery: DiscoveryMode,

    /// Send requests to this URL instead of the document's first server (may hold
    /// `{variables}`, filled by --server-var).
    #[arg(long, value_name = "URL", help_heading = "The API")]
    base_url: Option<String>,
    /// A variable of the server URL, `NAME=VALUE` (repeatable; `region=us`).
    #[arg(long = "server-var", value_name = "NAME=VALUE", value_parser = name_value, help_heading = "The API")]
    server_variables: Vec<(String, String)>,
    /// A header sent with every request, `"Name: value"` (repeatable). Not printed, but
    /// visible in process lists like any argument: put secrets in the credential variables.
    #[arg(long = "header", value_name = "NAME: VALUE", help_heading = "The API")]
    headers: Vec<String>,
    /// Let file arguments (uploads) name a file by `path` inside this directory, as well as
    /// give its content as `base64`: for a host on this machine. Paths outside it are
    /// refused.
    #[arg(long, value_name = "DIR", help_heading = "The API")]
    file_root: Option<std::path::PathBuf>,
    /// How long one request to the API may take, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0, value_parser = seconds, help_heading = "The API")]
    timeout: f64,

    #[command(flatten)]
    credentials: CredentialArgs,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Transport {
    Stdio,
    Http,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum DiscoveryMode {
    Auto,
    On,
    Off,
}

impl DiscoveryMode {
    fn is_on(self, tools: usize) -> bool {
        match self {
            DiscoveryMode::Auto => tools > DISCOVERY_ABOVE,
            DiscoveryMode::On => true,
            DiscoveryMode::Off => false,
        }
    }
}

pub(crate) async fn run(arguments: ServeArgs) -> Result<(), String> {
    let document = arguments.document.read().await?;
    let api = &document.api;
    let (title, version) = (api.title.to_string(), api.version.to_string());
    let label = label_of(&api.name);
    if api.operations.is_empty() {
        eprintln!("mcs: warning: the document yields no tools (check --tag and --exclude)");
    }
    let mut document = document;
    if arguments
        .credentials
        .send_bearer_everywhere(&mut document.api)
    {
        eprintln!(
            "mcs: no operation of the document requires a security scheme: the bearer token \
             goes with every request, as `Authorization: Bearer`"
        );
    }
    warn_ignored(&arguments);
    let driver = configure(document.into_driver(), &arguments)?;
    warn_server_variables(driver.api(), &arguments);
    let (driver, given) = arguments.credentials.apply(driver)?;
    for what in arguments.credentials.unused(driver.api(), &given) {
        eprintln!(
            "mcs: warning: {what} is given, but no security scheme of the document takes \
             one: it is not sent (--header \"Name: value\" sends a header with every request)"
        );
    }
    let missing = arguments.credentials.missing(driver.api(), &given);
    warn_missing(&missing, driver.api().operations.len());
    match driver.base_url() {
        Err(message) => eprintln!(
            "mcs: warning: {message} (with --base-url URL or --server-var NAME=VALUE); every \
             call will fail until then"
        ),
        Ok(url) if !url.starts_with("http://") && !url.starts_with("https://") => eprintln!(
            "mcs: warning: the document's server `{url}` is not an absolute URL: pass \
             --base-url URL"
        ),
        Ok(_) => {}
    }

    let tools = driver.list_tools().len();
    let gateway = if arguments.discovery.is_on(tools) {
        let orchestrator = Orchestrator::new(title.clone(), ConflictPolicy::Reject)
            .with_discovery(Discovery::Always);
        orchestrator
            .register(label, Arc::new(driver), Registration::new())
            .map_err(|error| format!("cannot set up discovery: {error}"))?;
        eprintln!(
            "mcs: discovery mode: {tools} tools, reached through search_tools, load_toolset, \
             describe_tool and call_tool"
        );
        Gateway::discovery(orchestrator, tools, missing)
    } else {
        Gateway::all(driver, missing)
    };
    let instructions = gateway.instructions();
    let mut server = McpServer::new(gateway).with_implementation(title, version);
    if let Some(instructions) = instructions {
        server = server.with_instructions(instructions);
    }

    match arguments.transport {
        Transport::Stdio => server
            .serve_stdio()
            .await
            .map_err(|error| format!("serving over stdio: {error}")),
        Transport::Http => {
            let listen = arguments.listen.as_deref().unwrap_or(DEFAULT_LISTEN);
            let listener = tokio::net::TcpListener::bind(listen)
                .await
                .map_err(|error| format!("cannot listen on {listen}: {error}"))?;
            let address = listener
                .local_addr()
                .map_err(|error| format!("cannot listen on {listen}: {error}"))?;
            // Scripts and tests read this line to learn the port (`--listen 127.0.0.1:0`).
            eprintln!("mcs: serving MCP at http://{address}{MCP_PATH}");
            let mut http = server.http();
            if let Some(sessions) = arguments.max_sessions {
                http = http.max_sessions(sessions);
            }
            if !arguments.allow_origins.is_empty() {
                http = http.allowed_origins(arguments.allow_origins.iter().cloned());
            }
            if !arguments.allow_hosts.is_empty() {
                http = http.allowed_hosts(arguments.allow_hosts.iter().cloned());
            }
            http.serve(listener, async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|error| error.to_string())
        }
    }
}

/// Options that only `--transport http` reads, given without it.
fn warn_ignored(arguments: &ServeArgs) {
    if arguments.transport == Transport::Http {
        return;
    }
    let given = [
        ("--listen", arguments.listen.is_some()),
        ("--allow-origin", !arguments.allow_origins.is_empty()),
        ("--allow-host", !arguments.allow_hosts.is_empty()),
        ("--max-sessions", arguments.max_sessions.is_some()),
    ];
    for (option, _) in given.iter().filter(|(_, given)| *given) {
        eprintln!("mcs: warning: {option} is read only with --transport http: ignored");
    }
}

/// A `--server-var` that no server of the document (nor `--base-url`) has, or whose value
/// the document's list for it does not hold: a typo would otherwise send every request to
/// the default.
fn warn_server_variables(api: &mcs::rest::Api, arguments: &ServeArgs) {
    let servers: Vec<&mcs::rest::Server> = api
        .servers
        .iter()
        .chain(api.operations.iter().flat_map(|op| op.servers.iter()))
        .collect();
    for (name, value) in &arguments.server_variables {
        let in_base = arguments
            .base_url
            .as_deref()
            .is_some_and(|url| url.contains(&format!("{{{name}}}")));
        let variables: Vec<&mcs::rest::ServerVariable> = servers
            .iter()
            .flat_map(|server| server.variables.iter())
            .filter(|variable| *variable.name == **name)
            .collect();
        if variables.is_empty() && !in_base {
            let mut known: Vec<&str> = servers
                .iter()
                .flat_map(|server| server.variables.iter().map(|v| v.name.as_ref()))
                .collect();
            known.sort_unstable();
            known.dedup();
            let has = if known.is_empty() {
                "it has none".to_owned()
            } else {
                format!("it has {}", known.join(", "))
            };
            eprintln!(
                "mcs: warning: --server-var {name}: no server of the document has this \
                 variable ({has}): ignored"
            );
            continue;
        }
        let allowed: Vec<&str> = variables
            .iter()
            .flat_map(|variable| variable.allowed.iter().map(AsRef::as_ref))
            .collect();
        if !allowed.is_empty() && !allowed.contains(&value.as_str()) {
            eprintln!(
                "mcs: warning: --server-var {name}={value}: the document lists {} for it; \
                 used anyway",
                allowed.join(", ")
            );
        }
    }
}

/// Headers the HTTP client writes itself: given, they would contradict it (a wrong
/// `Content-Length` makes every request wait for bytes that never come).
const CLIENT_HEADERS: [&str; 5] = [
    "content-length",
    "transfer-encoding",
    "host",
    "connection",
    "content-type",
];

/// `driver` with the API options (not the credentials) applied.
fn configure(mut driver: RestDriver, arguments: &ServeArgs) -> Result<RestDriver, String> {
    if let Some(url) = &arguments.base_url {
        // Given by hand, a URL that cannot work is refused at once rather than on each call.
        let lower = mcs::rest::url_to_show(url).to_ascii_lowercase();
        let rest = lower
            .strip_prefix("https://")
            .or_else(|| lower.strip_prefix("http://"));
        if rest.is_none_or(|rest| rest.is_empty() || rest.starts_with(['/', '?', '#'])) {
            return Err(format!(
                "--base-url {}: not an absolute http(s) URL (such as https://api.example.com/v1)",
                mcs::rest::url_to_show(url)
            ));
        }
        driver = driver.with_base_url(url);
    }
    for (name, value) in &arguments.server_variables {
        driver = driver.with_server_variable(name, value);
    }
    for (position, text) in arguments.headers.iter().enumerate() {
        let number = position + 1;
        let (name, value) = header(text).ok_or_else(|| {
            // Not the text itself: it may hold a secret.
            format!("--header number {number} is not `Name: value` (such as `X-Tenant: acme`)")
        })?;
        if value.chars().any(|c| c.is_control() && c != '\t') {
            return Err(format!(
                "--header number {number} (`{name}`): its value holds a control character, \
                 such as a line break, which no HTTP header may hold"
            ));
        }
        if CLIENT_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
            return Err(format!(
                "--header number {number}: `{name}` is written by the HTTP client for each \
                 request and cannot be given"
            ));
        }
        driver = driver.with_header(name, value);
    }
    if let Some(directory) = &arguments.file_root {
        if !directory.is_dir() {
            return Err(format!(
                "--file-root {}: not a directory",
                directory.display()
            ));
        }
        driver = driver.with_file_root(directory);
    }
    Ok(driver.with_timeout(Duration::from_secs_f64(arguments.timeout)))
}

/// One warning per distinct way out, with how many tools it concerns.
fn warn_missing(missing: &std::collections::HashMap<String, String>, total: usize) {
    let mut ways: Vec<(&str, usize)> = Vec::new();
    for how in missing.values() {
        match ways.iter_mut().find(|(way, _)| *way == how.as_str()) {
            Some((_, count)) => *count += 1,
            None => ways.push((how, 1)),
        }
    }
    ways.sort_unstable();
    for (how, count) in ways {
        eprintln!(
            "mcs: warning: {count} of {total} tools need a credential that was not given \
             ({how}); they are listed, and a call answers with this"
        );
    }
}

/// The orchestrator label (the start of toolset ids): the API's name in lower case.
fn label_of(name: &str) -> String {
    let label: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if label.is_empty() {
        "api".to_owned()
    } else {
        label
    }
}

fn name_value(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_owned(), value.to_owned()))
        }
        _ => Err("expected NAME=VALUE, such as `region=us`".to_owned()),
    }
}

/// `Name: value` split, or `None`. Parsed after clap rather than by a clap value parser,
/// whose error would print the text, and a header may hold a secret.
fn header(text: &str) -> Option<(&str, &str)> {
    let (name, value) = text.split_once(':')?;
    let name = name.trim();
    let token = !name.is_empty() && name.bytes().all(|b| b.is_ascii_graphic());
    token.then(|| (name, value.trim()))
}

fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds.is_finite() && seconds > 0.0 && seconds <= 86_400.0 => Ok(seconds),
        _ => Err("expected a number of seconds, more than 0 and at most 86400".to_owned()),
    }
}
