//! What can go wrong serving and consuming MCP.

use std::time::Duration;

/// Why an [`McpServer`](crate::McpServer) stopped or could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// The client went away or spoke something other than MCP before the session began.
    #[error("the MCP session did not start: {0}")]
    Initialize(String),
    /// The service's task ended abnormally.
    #[error("the MCP service stopped abnormally: {0}")]
    Stopped(String),
    /// The HTTP server failed.
    #[error("the MCP HTTP server on {address} failed: {source}")]
    Http {
        /// The address it listened on.
        address: String,
        /// What failed.
        #[source]
        source: std::io::Error,
    },
    /// An I/O error before serving (binding a socket, say).
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Why an [`McpToolDriver`](crate::McpToolDriver) could not connect or list the tools.
///
/// Each error names the server (its command line or URL) and the request that failed, and,
/// for a child process, what it left behind: its exit status, the last lines it wrote to
/// stderr, and output on stdout that was not JSON-RPC.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum McpError {
    /// The server process could not be started.
    #[error("could not start the MCP server `{server}`: {source}")]
    Spawn {
        /// The command line.
        server: String,
        /// Why it did not start.
        #[source]
        source: std::io::Error,
    },
    /// The server did not answer in time.
    #[error("the MCP server `{server}` did not answer `{request}` within {timeout:?}{context}")]
    Timeout {
        /// The server's command line or URL.
        server: String,
        /// The request: `initialize`, `tools/list`, ...
        request: &'static str,
        /// How long it was given.
        timeout: Duration,
        /// What the server process left behind, if anything (starts with `; `).
        context: String,
    },
    /// A message was over a size limit: the request (this client's outgoing limit, checked
    /// before sending, or the server's, which it answered with an error) or the server's
    /// answer (this client's incoming limit). See [`MessageLimits`](crate::MessageLimits).
    #[error("the MCP server `{server}` failed `{request}`: {detail}{context}")]
    MessageTooLarge {
        /// The server's command line or URL.
        server: String,
        /// The request: `tools/call`, ...
        request: &'static str,
        /// Which message, how large, and whose limit it is over.
        detail: String,
        /// The size of the message, in bytes.
        bytes: usize,
        /// The limit it is over, in bytes.
        limit: usize,
        /// What the server process left behind, if anything (starts with `; `).
        context: String,
    },
    /// The server has no prompt of this name ([`McpToolDriver::get_prompt`](crate::McpToolDriver::get_prompt)).
    #[error("the MCP server `{server}` has no prompt `{name}`{}", offered_list(.offered))]
    UnknownPrompt {
        /// The server's command line or URL.
        server: String,
        /// The name asked for.
        name: String,
        /// The names of the prompts the server lists.
        offered: Vec<String>,
    },
    /// The arguments do not fit the prompt: one it requires is missing, or one it does not
    /// take is given. Nothing was sent.
    #[error("prompt `{prompt}` of the MCP server `{server}`: {detail}")]
    PromptArguments {
        /// The server's command line or URL.
        server: String,
        /// The prompt's name.
        prompt: String,
        /// Which argument, and what is wrong with it.
        detail: String,
    },
    /// The server answered with an error, closed the connection, or answered something
    /// that is not the answer to the request.
    #[error("the MCP server `{server}` failed `{request}`: {detail}{context}")]
    Request {
        /// The server's command line or URL.
        server: String,
        /// The request: `initialize`, `tools/list`, ...
        request: &'static str,
        /// What went wrong, as rmcp reported it.
        detail: String,
        /// What the server process left behind, if anything (starts with `; `).
        context: String,
    },
}

/// `; it offers: a, b` (or that it offers none), for [`McpError::UnknownPrompt`].
fn offered_list(offered: &[String]) -> String {
    if offered.is_empty() {
        return "; it offers no prompts".to_owned();
    }
    let names: Vec<String> = offered.iter().map(|name| format!("`{name}`")).collect();
    format!("; it offers: {}", names.join(", "))
}
