//! The server's end of newline-delimited JSON-RPC (stdio), with the message limits and the
//! protocol errors rmcp's own stdio transport leaves out.
//!
//! rmcp's transport drops a line over its limit without a word, and ignores a line that is
//! not JSON (its issue #938: no id to answer to, and answers to garbage can echo back and
//! forth). Either way the sender waits for an answer that never comes. This one answers:
//!
//! - a line over the incoming limit: `-32600` for the id read from the line as it went by,
//!   with the sizes in `data`; a notification over it is dropped (nothing waits for it);
//! - a line that is not JSON (invalid UTF-8 included): `-32700`, with the id when one can be
//!   read from the part before the fault (so a sender waiting on it is released; JSON-RPC
//!   asks for a null id when none can be read, and then it is null);
//! - JSON that is not a JSON-RPC message: `-32600`, with its id when it has one. Unknown
//!   notifications are ignored, as rmcp does, for peers that send LSP-style extras.
//!
//! Only a peer's unreadable *requests* are answered, and an answer is always a well-formed
//! error response, which a peer never answers: no echo can start.
//!
//! Before the session starts (an `initialize` request, or a request of the lifecycle
//! without one that carries its protocol version and capabilities inline), a notification
//! or an answer is dropped, where rmcp ends the session for it; a request other than
//! `initialize`, `ping` and `server/discover` is answered `-32600`, saying to initialize
//! first, where rmcp's answer spoke of request metadata the client never needed.

use std::future::Future;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ErrorCode, ErrorData, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

use crate::framing::{Fields, Frame, LineReader};
use crate::limits::{self, MessageLimits};

/// The server side of a newline-delimited JSON-RPC stream.
pub(crate) struct LineTransport<R, W> {
    reader: LineReader<BufReader<R>>,
    writer: Arc<Mutex<Option<W>>>,
    limits: MessageLimits,
    /// Whether the session has started (see the module's documentation).
    started: bool,
}

impl<R, W> LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    pub(crate) fn new(read: R, write: W, limits: MessageLimits) -> Self {
        LineTransport {
            reader: LineReader::new(BufReader::new(read), limits.incoming()),
            writer: Arc::new(Mutex::new(Some(write))),
            limits,
            started: false,
        }
    }

    /// Sends an error answer from a task of its own: `receive` may be cancelled at any
    /// await, and half an answer must never be left in the stream.
    fn answer(&self, id: Option<Value>, code: ErrorCode, message: String, data: Option<Value>) {
        let mut error = json!({ "code": code.0, "message": message });
        if let Some(data) = data {
            error["data"] = data;
        }
        let answer = json!({ "jsonrpc": "2.0", "id": id, "error": error });
        let writer = Arc::clone(&self.writer);
        tokio::spawn(async move {
            let _ = write_line(&writer, answer.to_string().into_bytes()).await;
        });
    }

    /// What to do with a line that was read whole.
    fn read(&mut self, line: &[u8]) -> Option<ClientJsonRpcMessage> {
        let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            return None;
        }
        let value: Value = match serde_json::from_slice(line) {
            Ok(value) => value,
            Err(error) => {
                let why = match std::str::from_utf8(line) {
                    Err(utf8) => format!(
                        "the message is not UTF-8 (invalid byte at offset {})",
                        utf8.valid_up_to()
                    ),
                    Ok(_) => format!("the message is not JSON: {error}"),
                };
                // JSON-RPC answers every parse error (there is no telling a request from a
                // notification in what cannot be read).
                self.answer(Fields::of(line).id, ErrorCode::PARSE_ERROR, why, None);
                return None;
            }
        };
        let id = value
            .get("id")
            .filter(|id| id.is_number() || id.is_string())
            .cloned();
        let method = value.get("method").and_then(Value::as_str);
        // MCP's ids are strings or numbers, never null; a request with another is answered
        // (with a null id, as JSON-RPC answers what it cannot identify), not left waiting.
        if let (Some(method), Some(bad)) = (method, value.get("id"))
            && id.is_none()
        {
            let kind = match bad {
                Value::Null => "null",
                Value::Bool(_) => "a boolean",
                Value::Array(_) => "an array",
                _ => "an object",
            };
            let why = format!(
                "the `{method}` request's `id` is {kind}: an MCP request's id is a string or a number"
            );
            self.answer(None, ErrorCode::INVALID_REQUEST, why, None);
            return None;
        }
        if !self.started {
            match (method, &id) {
                (Some("initialize"), Some(_)) => {
                    if let Some(why) = super::initialize_problem(&value) {
                        self.answer(id, ErrorCode::INVALID_PARAMS, why, None);
                        return None;
                    }
                    self.started = true;
                }
                (Some("ping" | "server/discover"), Some(_)) => {}
                (Some(_), Some(_)) if starts_inline(&value) => self.started = true,
                (Some(method), Some(_)) => {
                    let why = format!(
                        "`{method}` before `initialize`: the session has not started; send an \
                         `initialize` request first"
                    );
                    self.answer(id, ErrorCode::INVALID_REQUEST, why, None);
                    return None;
                }
                // A notification or an answer: no one waits on it.
                _ if value.is_object() => return None,
                _ => {}
            }
        }
        match serde_json::from_value::<ClientJsonRpcMessage>(value.clone()) {
            Ok(message) => Some(message),
            // An unknown notification, as rmcp ignores them.
            Err(_) if id.is_none() && method.is_some() => None,
            Err(error) => {
                let why = format!("the message is not a JSON-RPC 2.0 message of MCP: {error}");
                self.answer(id, ErrorCode::INVALID_REQUEST, why, None);
                None
            }
        }
    }
}

/// Whether the request `value` starts a session without `initialize`: MCP's lifecycle in
/// which each request carries its protocol version and the client's capabilities in
/// `params._meta`.
fn starts_inline(value: &Value) -> bool {
    let meta = value.pointer("/params/_meta");
    ["protocolVersion", "clientCapabilities"].iter().all(|key| {
        meta.and_then(|m| m.get(format!("io.modelcontextprotocol/{key}")))
            .is_some()
    })
}

async fn write_line<W: AsyncWrite + Unpin>(
    writer: &Mutex<Option<W>>,
    mut line: Vec<u8>,
) -> std::io::Result<()> {
    line.push(b'\n');
    let mut writer = writer.lock().await;
    let Some(writer) = writer.as_mut() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotConnected,
            "the transport is closed",
        ));
    };
    writer.write_all(&line).await?;
    writer.flush().await
}

/// `message` as one line, or, when that is over `limit`, an error answer for its id.
fn encode(message: &ServerJsonRpcMessage, limit: usize) -> std::io::Result<Vec<u8>> {
    let line = serde_json::to_vec(message)?;
    if line.len() <= limit {
        return Ok(line);
    }
    let id = match message {
        ServerJsonRpcMessage::Response(response) => response.id.clone(),
        ServerJsonRpcMessage::Error(error) => match &error.id {
            Some(id) => id.clone(),
            None => return Err(too_long(line.len(), limit)),
        },
        _ => return Err(too_long(line.len(), limit)),
    };
    let error = ErrorData::new(
        ErrorCode::INTERNAL_ERROR,
        format!(
            "the answer is {}, over this server's limit of {} for one message",
            limits::size(line.len()),
            limits::size(limit)
        ),
        Some(limits::oversize_data(line.len(), limit)),
    );
    Ok(serde_json::to_vec(&ServerJsonRpcMessage::error(
        error,
        Some(id),
    ))?)
}

fn too_long(bytes: usize, limit: usize) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!(
            "a message of {} is over this server's limit of {}; it was not sent",
            limits::size(bytes),
            limits::size(limit)
        ),
    )
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let writer = Arc::clone(&self.writer);
        let line = encode(&item, self.limits.outgoing());
        async move { write_line(&writer, line?).await }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            match self.reader.next().await {
                Frame::Line(line) => {
                    if let Some(message) = self.read(&line) {
                        return Some(message);
                    }
                }
                Frame::Oversized { bytes, fields } => {
                    // A notification or an answer over the limit has no one waiting on it.
                    if fields.method.is_some() && fields.id.is_some() {
                        let limit = self.limits.incoming();
                        let message = format!(
                            "the request is {}, over this server's limit of {} for one message",
                            limits::size(bytes),
                            limits::size(limit)
                        );
                        let data = limits::oversize_data(bytes, limit);
                        self.answer(fields.id, ErrorCode::INVALID_REQUEST, message, Some(data));
                    }
                }
                Frame::Eof | Frame::Failed(_) => return None,
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        let writer = self.writer.lock().await.take();
        if let Some(mut writer) = writer {
            writer.shutdown().await?;
        }
        Ok(())
    }
}
