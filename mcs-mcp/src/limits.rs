//! How large one JSON-RPC message may be, each way, and how a message over the limit is
//! reported.
//!
//! A limit is needed both ways: without one, a peer that never ends its line fills memory;
//! and a message larger than the peer's own limit is dropped by the peer without an answer
//! (rmcp, the Rust SDK, drops stdio lines over 16 MiB), so the sender waits out its timeout
//! and blames the wrong thing. The default, [`DEFAULT_MESSAGE_LIMIT`], is rmcp's own: what
//! an mcs peer sends, an rmcp peer reads.

use serde_json::{Value, json};

/// The default limit of one JSON-RPC message, each way: 16 MiB, the limit rmcp itself
/// applies to a stdio line and to a streamable-HTTP response.
pub const DEFAULT_MESSAGE_LIMIT: usize = 16 * 1024 * 1024;

/// The largest JSON-RPC message taken in and sent out, in bytes of its JSON text (a stdio
/// line without its newline, an HTTP body).
///
/// Served ([`McpServer::message_limits`](crate::McpServer::message_limits)), the incoming
/// limit bounds requests: a longer stdio line is skipped without being held in memory and
/// answered with a JSON-RPC error (`-32600`) for its id, read from the line as it passes; a
/// longer HTTP body is refused with `413`. The outgoing limit bounds answers: a `tools/call`
/// result over it becomes a tool error that says so (the model reads it), any other answer
/// over it a JSON-RPC error for its id.
///
/// Consumed ([`ConnectOptions::message_limits`](crate::ConnectOptions::message_limits)), the
/// outgoing limit bounds `tools/call` requests, checked before they are sent; the incoming
/// limit bounds the server's answers (from a child process, or over HTTP). Either way the
/// call fails at once with [`McpError::MessageTooLarge`](crate::McpError::MessageTooLarge),
/// which names the limit, instead of waiting for the call timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MessageLimits {
    incoming: usize,
    outgoing: usize,
}

impl Default for MessageLimits {
    fn default() -> Self {
        MessageLimits::new(DEFAULT_MESSAGE_LIMIT)
    }
}

impl MessageLimits {
    /// The same limit both ways.
    pub const fn new(bytes: usize) -> Self {
        MessageLimits {
            incoming: bytes,
            outgoing: bytes,
        }
    }

    /// Sets the limit of a message taken in.
    #[must_use]
    pub const fn with_incoming(mut self, bytes: usize) -> Self {
        self.incoming = bytes;
        self
    }

    /// Sets the limit of a message sent out.
    #[must_use]
    pub const fn with_outgoing(mut self, bytes: usize) -> Self {
        self.outgoing = bytes;
        self
    }

    /// The limit of a message taken in.
    pub const fn incoming(&self) -> usize {
        self.incoming
    }

    /// The limit of a message sent out.
    pub const fn outgoing(&self) -> usize {
        self.outgoing
    }
}

/// `17825792 bytes (17.0 MiB)`.
pub(crate) fn size(bytes: usize) -> String {
    const MIB: f64 = 1024.0 * 1024.0;
    const KIB: f64 = 1024.0;
    #[allow(clippy::cast_precision_loss)] // one decimal is shown
    let float = bytes as f64;
    if float >= MIB {
        format!("{bytes} bytes ({:.1} MiB)", float / MIB)
    } else if float >= KIB {
        format!("{bytes} bytes ({:.1} KiB)", float / KIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// The `data` of a JSON-RPC error about a message over a limit: the sizes, for a program
/// (an mcs client reads them back into [`McpError::MessageTooLarge`](crate::McpError)).
pub(crate) fn oversize_data(bytes: usize, limit: usize) -> Value {
    json!({ "messageBytes": bytes, "limitBytes": limit })
}

/// The sizes [`oversize_data`] wrote, if `data` is such.
pub(crate) fn read_oversize_data(data: Option<&Value>) -> Option<(usize, usize)> {
    let data = data?;
    let number = |key: &str| {
        data.get(key)
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
    };
    Some((number("messageBytes")?, number("limitBytes")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_bytes_and_binary_units() {
        assert_eq!(size(12), "12 bytes");
        assert_eq!(size(2048), "2048 bytes (2.0 KiB)");
        assert_eq!(size(17 * 1024 * 1024), "17825792 bytes (17.0 MiB)");
    }

    #[test]
    fn the_sizes_of_an_oversize_error_read_back() {
        let data = oversize_data(20, 10);
        assert_eq!(read_oversize_data(Some(&data)), Some((20, 10)));
        assert_eq!(read_oversize_data(Some(&json!({"messageBytes": 1}))), None);
        assert_eq!(read_oversize_data(None), None);
    }
}
