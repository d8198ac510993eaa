//! The two MCS interfaces: [`ToolDriver`] (the technical bridge) and [`Driver`] (the side a
//! model meets).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use serde_json::Value;

use crate::error::ToolError;
use crate::stream::{Delta, StreamEvent, StreamOptions, StreamOutput};
use crate::types::{DriverMeta, DriverResponse, Tool};

/// A boxed, sendable future, the return type of the object-safe async methods here.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What [`ToolDriver::execute_tool`] returns: the result of one tool call, now or later.
///
/// A tool that finishes synchronously gives a ready future, which costs no allocation;
/// an async tool gives a boxed one.
#[must_use = "a tool call does nothing unless awaited"]
pub struct ToolFuture<'a> {
    state: ToolFutureState<'a>,
}

enum ToolFutureState<'a> {
    Ready(Option<Result<Value, ToolError>>),
    Pending(BoxFuture<'a, Result<Value, ToolError>>),
}

// The ready path is `#[inline]` so that generated `execute_tool`s and executors, which live
// in other crates, can inline it (see benches/dispatch.rs and BENCHMARKS.md).
impl<'a> ToolFuture<'a> {
    /// A call that has already finished.
    #[inline]
    pub fn ready(result: Result<Value, ToolError>) -> Self {
        ToolFuture {
            state: ToolFutureState::Ready(Some(result)),
        }
    }

    /// A call that finishes when `future` does.
    pub fn new(future: impl Future<Output = Result<Value, ToolError>> + Send + 'a) -> Self {
        ToolFuture {
            state: ToolFutureState::Pending(Box::pin(future)),
        }
    }

    /// The result, if the call finished without waiting; otherwise the future back.
    #[inline]
    pub fn into_ready(self) -> Result<Result<Value, ToolError>, Self> {
        match self.state {
            ToolFutureState::Ready(Some(result)) => Ok(result),
            state => Err(ToolFuture { state }),
        }
    }
}

impl Future for ToolFuture<'_> {
    type Output = Result<Value, ToolError>;

    #[inline]
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match &mut self.state {
            ToolFutureState::Ready(result) => Poll::Ready(result.take().unwrap_or_else(|| {
                Err(ToolError::execution(
                    "",
                    "the tool call was polled again after it had completed",
                ))
            })),
            ToolFutureState::Pending(future) => future.as_mut().poll(cx),
        }
    }
}

impl std::fmt::Debug for ToolFuture<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match self.state {
            ToolFutureState::Ready(Some(_)) => "ready",
            ToolFutureState::Ready(None) => "taken",
            ToolFutureState::Pending(_) => "pending",
        };
        f.debug_struct("ToolFuture").field("state", &state).finish()
    }
}

/// The technical bridge: a set of tools and the means to execute them. It knows nothing of
/// models or prompts.
///
/// Object-safe: drivers are usually held as `Arc<dyn ToolDriver>`. Implementations must be
/// stateless with respect to conversations (the client owns the history).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an MCS ToolDriver",
    label = "needs tools",
    note = "put #[mcs::tool_driver] on an impl block of `{Self}` with #[tool] methods, or implement `mcs::ToolDriver` by hand"
)]
pub trait ToolDriver: Send + Sync {
    /// Who this driver is.
    fn meta(&self) -> &DriverMeta;

    /// The tools this driver offers. Cheap to call repeatedly: implementations hand out a
    /// shared list built once, not a fresh one per call.
    fn list_tools(&self) -> Arc<[Tool]>;

    /// Executes the tool `name` with `arguments` (a JSON object; `null` counts as no
    /// arguments) and returns its raw result.
    ///
    /// Fails with [`ToolError::UnknownTool`] for a name this driver does not have,
    /// [`ToolError::InvalidArguments`] when the arguments do not fit the tool, and
    /// [`ToolError::Execution`] when the tool itself fails.
    fn execute_tool<'a>(&'a self, name: &'a str, arguments: Value) -> ToolFuture<'a>;

    /// Where the tool `name` is in [`list_tools`](Self::list_tools), if this driver has it.
    ///
    /// The default scans the list. Drivers with many tools and a name index of their own
    /// (orchestrators, REST drivers) answer from it, so that reading a model's output costs
    /// the same for 1,000 tools as for 10. Callers check the answer against the list they
    /// hold (`tools[i].name() == name`): the tools may have changed in between.
    fn tool_position(&self, name: &str) -> Option<usize> {
        self.list_tools()
            .iter()
            .position(|tool| tool.name() == name)
    }

    /// The tags of the tool called `name`: the groups it belongs to, which an
    /// `Orchestrator` (mcs-orchestrator) turns into toolsets. Generated
    /// REST drivers answer with their operations' OpenAPI tags, annotated tools with
    /// `#[tool(tags = [...])]`; the default is none.
    fn tool_tags(&self, name: &str) -> Vec<String> {
        let _ = name;
        Vec::new()
    }

    /// What the tag `tag` (one of [`tool_tags`](Self::tool_tags)' answers) stands for, in a
    /// sentence or two; an orchestrator shows it beside the toolset it makes from the tag.
    /// Generated REST drivers answer with the OpenAPI document's `tags[].description`; the
    /// default is none.
    fn tag_description(&self, tag: &str) -> Option<String> {
        let _ = tag;
        None
    }

    /// Asks to be told when [`list_tools`](Self::list_tools) changes while the driver
    /// serves. A driver whose tools can change — an
    /// `Orchestrator` (mcs-orchestrator) that registers or removes drivers,
    /// an MCP client that follows its server — keeps `listener` (a [`ToolsWatchers`] holds
    /// them), calls it after each change (on the thread that made it; it must return
    /// quickly) and returns `true`. The default, a list fixed for the driver's life, drops
    /// it and returns `false`.
    ///
    /// An orchestrator watches every driver it registers, so a change deep in a nest reaches
    /// the top; an MCP server (`mcs_mcp::McpServer`) watches the driver it serves and
    /// announces each change to its clients.
    fn watch_tools(&self, listener: ToolsListener) -> bool {
        let _ = listener;
        false
    }
}

/// What [`ToolDriver::watch_tools`] calls after a driver's tools changed.
pub type ToolsListener = Arc<dyn Fn() + Send + Sync>;

/// The listeners a driver whose tools change keeps for [`ToolDriver::watch_tools`]: `add`
/// there, `notify` after each change.
#[derive(Default)]
pub struct ToolsWatchers {
    listeners: std::sync::Mutex<Vec<ToolsListener>>,
}

impl ToolsWatchers {
    /// Keeps `listener` for every later [`notify`](Self::notify).
    pub fn add(&self, listener: ToolsListener) {
        self.listeners
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(listener);
    }

    /// Calls every listener, in the order added, on this thread. The list is copied out
    /// first, so a listener may add another without a deadlock.
    pub fn notify(&self) {
        let listeners = self
            .listeners
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        for listener in listeners {
            listener();
        }
    }
}

impl std::fmt::Debug for ToolsWatchers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let count = self.listeners.lock().map_or(0, |l| l.len());
        f.debug_struct("ToolsWatchers")
            .field("listeners", &count)
            .finish()
    }
}

/// A model's output as handed to [`Driver::process_llm_response`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LlmResponse<'a> {
    /// Plain text, as a model wrote it.
    Text(&'a str),
    /// A provider-native message: an OpenAI chat message with `tool_calls`, an OpenAI
    /// Responses output, an Anthropic message with `tool_use` blocks, a Gemini candidate.
    Message(&'a Value),
}

impl<'a> From<&'a str> for LlmResponse<'a> {
    fn from(text: &'a str) -> Self {
        LlmResponse::Text(text)
    }
}

impl<'a> From<&'a String> for LlmResponse<'a> {
    fn from(text: &'a String) -> Self {
        LlmResponse::Text(text)
    }
}

impl<'a> From<&'a Value> for LlmResponse<'a> {
    fn from(message: &'a Value) -> Self {
        match message {
            Value::String(text) => LlmResponse::Text(text),
            message => LlmResponse::Message(message),
        }
    }
}

// Here rather than with `StreamOutput`, so that the stream types need nothing of drivers.
impl StreamOutput {
    /// The output as drivers take it.
    pub fn as_response(&self) -> LlmResponse<'_> {
        match self {
            StreamOutput::Text(text) => LlmResponse::Text(text),
            StreamOutput::Message(message) => LlmResponse::Message(message),
        }
    }
}

/// The side of a driver that a model meets: prompts out, model output in.
///
/// A `Driver` is a [`ToolDriver`] too: its name, version and tools are the tool driver's
/// ([`ToolDriver::meta`], [`ToolDriver::list_tools`]), and the calls it reads are run by
/// [`ToolDriver::execute_tool`].
pub trait Driver: ToolDriver {
    /// A machine-readable listing of the tools, for clients that build their own prompt.
    fn get_function_description(&self, model: Option<&str>) -> String;

    /// A ready-to-use system prompt that lists the tools and teaches the call format,
    /// tuned for `model` when the driver knows it.
    fn get_driver_system_message(&self, model: Option<&str>) -> String;

    /// Finds the tool calls in a model's output, executes the ones this driver owns, and
    /// says what happened. An output with no call for this driver gives the empty
    /// [`DriverResponse`].
    fn process_llm_response<'a>(
        &'a self,
        response: LlmResponse<'a>,
    ) -> BoxFuture<'a, DriverResponse>;

    /// The streaming counterpart of [`process_llm_response`](Self::process_llm_response):
    /// feed it the output as it streams in, and it says what it decided on the way (text,
    /// reasoning, calls begun and complete, calls run — see [`StreamEvent`]); at the end it
    /// answers what `process_llm_response` answers for the whole output.
    ///
    /// Drivers built on `mcs-hybrid` (annotated, generated, REST, orchestrators,
    /// `Hybrid`) read the stream as it comes and, with
    /// [`Execution::AsCompleted`](crate::stream::Execution), run each call as soon as it is
    /// complete. The default keeps the output and hands it to `process_llm_response` at the
    /// end, with no events on the way.
    fn process_llm_stream<'a>(&'a self, options: StreamOptions) -> DriverStream<'a> {
        let _ = options;
        DriverStream::new(Buffered {
            driver: self,
            text: String::new(),
            message: None,
        })
    }
}

/// A model's output being read by a driver as it streams in: see
/// [`Driver::process_llm_stream`].
pub struct DriverStream<'a> {
    session: Box<dyn StreamSession<'a> + 'a>,
}

impl std::fmt::Debug for DriverStream<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DriverStream").finish_non_exhaustive()
    }
}

/// What a driver does with a streamed output; [`DriverStream`] holds one. Implement it for
/// a [`Driver`] of your own that reads streams as they come.
pub trait StreamSession<'a>: Send {
    /// Takes in one delta; answers what it decided.
    fn feed<'s>(&'s mut self, delta: Delta<'s>) -> BoxFuture<'s, Vec<StreamEvent>>;

    /// Ends the stream: the events still to come, and the driver's answer.
    fn finish(self: Box<Self>) -> BoxFuture<'a, StreamedResponse>;
}

/// What a [`DriverStream`] ends with.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamedResponse {
    /// The events not given out yet.
    pub events: Vec<StreamEvent>,
    /// The driver's answer to the whole output: what
    /// [`Driver::process_llm_response`] answers for it.
    pub response: DriverResponse,
    /// The whole output.
    pub output: StreamOutput,
}

impl<'a> DriverStream<'a> {
    /// A stream read by `session`.
    pub fn new(session: impl StreamSession<'a> + 'a) -> Self {
        DriverStream {
            session: Box::new(session),
        }
    }

    /// Takes in one delta of a client's `TurnStream` (mcs-llm); answers what
    /// it decided. A driver that runs calls as they complete runs them here.
    pub async fn feed(&mut self, delta: impl Into<Delta<'_>>) -> Vec<StreamEvent> {
        self.session.feed(delta.into()).await
    }

    /// Takes in a piece of text.
    pub async fn feed_text(&mut self, text: &str) -> Vec<StreamEvent> {
        self.session.feed(Delta::Text(text)).await
    }

    /// Ends the stream: the events still to come, and the driver's answer.
    pub async fn finish(self) -> StreamedResponse {
        self.session.finish().await
    }
}

/// The default stream of a [`Driver`]: the output kept whole for
/// [`process_llm_response`](Driver::process_llm_response).
struct Buffered<'a, D: ?Sized> {
    driver: &'a D,
    text: String,
    message: Option<Value>,
}

impl<'a, D: Driver + ?Sized> StreamSession<'a> for Buffered<'a, D> {
    fn feed<'s>(&'s mut self, delta: Delta<'s>) -> BoxFuture<'s, Vec<StreamEvent>> {
        match delta {
            Delta::Text(text) => self.text.push_str(text),
            Delta::Bytes(bytes) => self.text.push_str(&String::from_utf8_lossy(bytes)),
            // Without a reader of provider streams, only a whole message can be kept.
            Delta::Message(message) => self.message = Some(message.clone()),
            Delta::Event(_) => {}
        }
        Box::pin(std::future::ready(Vec::new()))
    }

    fn finish(self: Box<Self>) -> BoxFuture<'a, StreamedResponse> {
        Box::pin(async move {
            let output = match self.message {
                Some(message) => StreamOutput::Message(message),
                None => StreamOutput::Text(self.text),
            };
            let response = self.driver.process_llm_response(output.as_response()).await;
            StreamedResponse {
                events: Vec::new(),
                response,
                output,
            }
        })
    }
}

macro_rules! forward_through_pointer {
    ($($pointer:ty),*) => {$(
        impl<T: ToolDriver + ?Sized> ToolDriver for $pointer {
            fn meta(&self) -> &DriverMeta {
                (**self).meta()
            }

            fn list_tools(&self) -> Arc<[Tool]> {
                (**self).list_tools()
            }

            fn execute_tool<'a>(&'a self, name: &'a str, arguments: Value) -> ToolFuture<'a> {
                (**self).execute_tool(name, arguments)
            }

            fn tool_position(&self, name: &str) -> Option<usize> {
                (**self).tool_position(name)
            }

            fn tool_tags(&self, name: &str) -> Vec<String> {
                (**self).tool_tags(name)
            }

            fn tag_description(&self, tag: &str) -> Option<String> {
                (**self).tag_description(tag)
            }

            fn watch_tools(&self, listener: ToolsListener) -> bool {
                (**self).watch_tools(listener)
            }
        }

        impl<T: Driver + ?Sized> Driver for $pointer {
            fn get_function_description(&self, model: Option<&str>) -> String {
                (**self).get_function_description(model)
            }

            fn get_driver_system_message(&self, model: Option<&str>) -> String {
                (**self).get_driver_system_message(model)
            }

            fn process_llm_response<'a>(
                &'a self,
                response: LlmResponse<'a>,
            ) -> BoxFuture<'a, DriverResponse> {
                (**self).process_llm_response(response)
            }

            fn process_llm_stream<'a>(&'a self, options: StreamOptions) -> DriverStream<'a> {
                (**self).process_llm_stream(options)
            }
        }
    )*};
}

forward_through_pointer!(Arc<T>, Box<T>, &T);
