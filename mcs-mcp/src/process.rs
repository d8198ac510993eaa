//! An MCP server run as a child process, watched closely enough to say what went wrong.
//!
//! The child's stdout goes through a filter before rmcp reads it: each line must be a
//! JSON-RPC message rmcp can read. Anything else (a banner, a log line, a half-written
//! answer) is held back and remembered; an answer to a request that cannot be read becomes a
//! JSON-RPC error for that request, so the call fails at once, with the reason, instead of
//! waiting for its timeout. Its exit status and the last lines of its stderr are kept too,
//! and every error about the server ends with what was kept.

use std::collections::VecDeque;
use std::process::Stdio;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rmcp::model::{CallToolResult, ListToolsResult, ServerJsonRpcMessage};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader, DuplexStream};
use tokio::process::{ChildStdin, Command};
use tokio::sync::watch;
use tokio_util::sync::{CancellationToken, DropGuard};

use crate::framing::{Frame, LineReader};
use crate::limits;

/// How many of the last stderr lines are kept.
const STDERR_LINES: usize = 12;
/// How much of a line is quoted in an error.
const QUOTE_CHARS: usize = 160;

/// What the server process did besides speaking MCP.
#[derive(Debug, Default)]
pub(crate) struct Diagnostics {
    exit: Mutex<Option<String>>,
    exited: watch::Sender<bool>,
    stdout_closed: AtomicBool,
    /// Why reading stdout failed, if it did.
    stdout_failed: Mutex<Option<String>>,
    stderr: Mutex<VecDeque<String>>,
    garbage: Mutex<Garbage>,
}

#[derive(Debug, Default)]
struct Garbage {
    lines: usize,
    first: Option<String>,
}

impl Diagnostics {
    /// What was kept, as a suffix for an error message (`; ...`), or nothing. Waits briefly
    /// for the exit status of a process whose stdout has closed.
    pub(crate) async fn context(&self) -> String {
        if self.stdout_closed.load(Ordering::Acquire) {
            let mut exited = self.exited.subscribe();
            let _ = tokio::time::timeout(Duration::from_millis(500), exited.wait_for(|e| *e)).await;
            // Let the stderr reader take in what the process wrote last.
            tokio::task::yield_now().await;
        }
        let mut parts = Vec::new();
        if let Some(exit) = lock(&self.exit).clone() {
            parts.push(format!("the server process exited ({exit})"));
        } else if let Some(error) = lock(&self.stdout_failed).clone() {
            parts.push(format!("reading the server's stdout failed: {error}"));
        } else if self.stdout_closed.load(Ordering::Acquire) {
            parts.push("the server process closed its stdout".to_owned());
        }
        {
            let garbage = lock(&self.garbage);
            if let Some(first) = &garbage.first {
                let lines = match garbage.lines {
                    1 => "1 line on stdout that is not an MCP message".to_owned(),
                    n => format!("{n} lines on stdout that are not MCP messages, the first"),
                };
                parts.push(format!("it wrote {lines}: {first}"));
            }
        }
        let stderr = lock(&self.stderr);
        if !stderr.is_empty() {
            let lines: Vec<&str> = stderr.iter().map(String::as_str).collect();
            parts.push(format!("its last stderr lines:\n{}", lines.join("\n")));
        }
        parts.iter().map(|part| format!("; {part}")).collect()
    }

    fn garbage(&self, line: &[u8], why: &str) {
        let mut garbage = lock(&self.garbage);
        garbage.lines += 1;
        if garbage.first.is_none() {
            garbage.first = Some(format!("`{}` ({why})", quote(line)));
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn quote(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    let text = text.trim_end();
    if text.chars().count() <= QUOTE_CHARS {
        text.to_owned()
    } else {
        let cut: String = text.chars().take(QUOTE_CHARS).collect();
        format!("{cut}…")
    }
}

/// A running server process: the two ends rmcp talks through, what it left behind, and a
/// guard that kills it when dropped.
pub(crate) struct ChildServer {
    pub(crate) stdout: DuplexStream,
    pub(crate) stdin: ChildStdin,
    pub(crate) diagnostics: std::sync::Arc<Diagnostics>,
    pub(crate) guard: DropGuard,
}

/// The command line, for messages: the program and its arguments, a long or multi-line
/// argument (an inline script) cut short.
pub(crate) fn command_line(command: &Command) -> String {
    let command = command.as_std();
    let mut line = command.get_program().to_string_lossy().into_owned();
    for argument in command.get_args() {
        let argument = argument.to_string_lossy();
        line.push(' ');
        let first = argument.trim().lines().next().unwrap_or_default();
        if first.len() < argument.len() || first.chars().count() > 60 {
            let cut: String = first.chars().take(40).collect();
            line.push_str(&format!("'{cut}…'"));
        } else {
            line.push_str(&argument);
        }
    }
    line
}

/// Starts `command` with piped stdio and the watchers described in the module docs; a line
/// on its stdout longer than `limit` is skipped, and answered for the request it answers.
pub(crate) fn spawn(mut command: Command, limit: usize) -> std::io::Result<ChildServer> {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let mut child = command.spawn()?;
    let missing = |what| std::io::Error::other(format!("the child's {what} was not piped"));
    let stdin = child.stdin.take().ok_or_else(|| missing("stdin"))?;
    let stdout = child.stdout.take().ok_or_else(|| missing("stdout"))?;
    let stderr = child.stderr.take().ok_or_else(|| missing("stderr"))?;
    let diagnostics = std::sync::Arc::new(Diagnostics::default());
    let (filtered, sink) = tokio::io::duplex(64 * 1024);

    let stop = CancellationToken::new();
    let watcher = std::sync::Arc::clone(&diagnostics);
    let stopped = stop.clone();
    tokio::spawn(async move {
        let status = tokio::select! {
            status = child.wait() => status,
            () = stopped.cancelled() => {
                let _ = child.kill().await;
                child.wait().await
            }
        };
        *lock(&watcher.exit) = Some(match status {
            Ok(status) => status.to_string(),
            Err(error) => format!("its status could not be read: {error}"),
        });
        watcher.exited.send_replace(true);
    });
    tokio::spawn(filter_stdout(
        LineReader::new(BufReader::new(stdout), limit),
        sink,
        std::sync::Arc::clone(&diagnostics),
    ));
    tokio::spawn(keep_stderr(stderr, std::sync::Arc::clone(&diagnostics)));
    Ok(ChildServer {
        stdout: filtered,
        stdin,
        diagnostics,
        guard: stop.drop_guard(),
    })
}

async fn filter_stdout(
    mut lines: LineReader<BufReader<impl AsyncRead + Unpin>>,
    mut sink: DuplexStream,
    diagnostics: std::sync::Arc<Diagnostics>,
) {
    loop {
        let passed = match lines.next().await {
            Frame::Eof => break,
            Frame::Failed(error) => {
                *lock(&diagnostics.stdout_failed) = Some(error.to_string());
                break;
            }
            Frame::Line(line) if line.iter().all(u8::is_ascii_whitespace) => continue,
            Frame::Line(line) => match check(&line) {
                Ok(()) => sink.write_all(&line).await,
                Err(Unreadable { why, answer_to }) => {
                    diagnostics.garbage(&line, &why);
                    match answer_to {
                        Some(id) => {
                            let message = format!("the server's answer could not be read: {why}");
                            sink.write_all(error_line(&id, &message, None).as_bytes())
                                .await
                        }
                        None => continue,
                    }
                }
            },
            Frame::Oversized { bytes, fields } => {
                let limit = lines.limit();
                let why = format!("a line of {}, over the limit", limits::size(bytes));
                diagnostics.garbage("…".as_bytes(), &why);
                match (fields.id, fields.method) {
                    // An answer: its request fails now, and says why.
                    (Some(id), None) => {
                        let message = format!(
                            "the server's answer is {}, over this client's limit of {} for one \
                             message (ConnectOptions::message_limits)",
                            limits::size(bytes),
                            limits::size(limit)
                        );
                        let data = limits::oversize_data(bytes, limit);
                        sink.write_all(error_line(&id, &message, Some(data)).as_bytes())
                            .await
                    }
                    _ => continue,
                }
            }
        };
        if passed.is_err() || sink.write_all(b"\n").await.is_err() {
            break;
        }
    }
    diagnostics.stdout_closed.store(true, Ordering::Release);
    let _ = sink.shutdown().await;
}

/// A JSON-RPC error answering `id`, written in place of the server's own answer.
fn error_line(id: &Value, message: &str, data: Option<Value>) -> String {
    let mut error = json!({ "code": -32603, "message": message });
    if let Some(data) = data {
        error["data"] = data;
    }
    json!({ "jsonrpc": "2.0", "id": id, "error": error }).to_string()
}

struct Unreadable {
    why: String,
    /// The id of the request this line meant to answer, when it is a JSON-RPC response.
    answer_to: Option<Value>,
}

fn check(line: &[u8]) -> Result<(), Unreadable> {
    let value: Value = serde_json::from_slice(line).map_err(|error| Unreadable {
        why: format!("not JSON: {error}"),
        answer_to: None,
    })?;
    if value.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(Unreadable {
            why: "not a JSON-RPC 2.0 message".to_owned(),
            answer_to: None,
        });
    }
    let answer_to = match (&value.get("id"), value.get("method")) {
        (Some(id), None) => Some((*id).clone()),
        _ => None,
    };
    // rmcp reads any result it does not know as a custom one, so the two results a driver
    // asks for are read here, where the reason can still be told.
    let result = value.get("result");
    let known = |key: &str| result.is_some_and(|result| result.get(key).is_some());
    let read = if known("tools") {
        serde_json::from_value::<ListToolsResult>(result.cloned().unwrap_or_default()).map(drop)
    } else if known("content") || known("structuredContent") || known("isError") {
        serde_json::from_value::<CallToolResult>(result.cloned().unwrap_or_default()).map(drop)
    } else {
        serde_json::from_value::<ServerJsonRpcMessage>(value).map(drop)
    };
    read.map_err(|error| Unreadable {
        why: format!("not an MCP message: {error}"),
        answer_to,
    })
}

async fn keep_stderr(stderr: impl AsyncRead + Unpin, diagnostics: std::sync::Arc<Diagnostics>) {
    let mut lines = BufReader::new(stderr).split(b'\n');
    while let Ok(Some(line)) = lines.next_segment().await {
        let mut kept = lock(&diagnostics.stderr);
        if kept.len() == STDERR_LINES {
            kept.pop_front();
        }
        kept.push_back(quote(&line));
    }
}
