//! What the HTTP model clients share: how tools reach the model, sending a request and
//! reading the answer whole or as server-sent events, and the texts of their errors.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use eventsource_stream::{Event, EventStreamError, Eventsource};
use futures_core::Stream;
use serde_json::{Value, json};

use super::client::{LlmError, ModelTurn, TurnDelta, TurnStream, whole_turn};

/// How tools reach the model.
#[derive(Clone, Debug, PartialEq)]
pub enum ToolMode {
    /// Tools are described in the system prompt and the model writes its calls as text; the
    /// answer is handed to drivers as text. Works with every model.
    Prompt,
    /// Tools are sent in the request's `tools` field, in the provider's shape (OpenAI
    /// function tools from [`openai_chat_tools`](mcs_core::export::openai_chat_tools) for
    /// `OpenAiClient`, `{name, description, input_schema}` from
    /// [`anthropic_tools`](mcs_core::export::anthropic_tools) for `AnthropicClient`), and the
    /// model answers with native tool calls; the answer is handed to drivers as the message.
    Native(Vec<Value>),
}

/// The HTTP client of the model clients. The timeout bounds a whole exchange, streamed or
/// not, so a server that stops sending cannot hold a turn forever.
pub(super) fn http_client() -> Result<reqwest::Client, LlmError> {
    mcs_http::ensure_provider();
    reqwest::Client::builder()
        .timeout(Duration::from_secs(300))
        .build()
        .map_err(|error| LlmError::Config(error.to_string()))
}

/// A model API over HTTP, as [`complete`] and [`stream`] drive it.
pub(super) trait HttpApi: Sync {
    /// How tools reach the model.
    fn mode(&self) -> &ToolMode;

    /// The request that sends `messages`; with `stream`, one that asks for server-sent
    /// events.
    fn request(&self, messages: &[Value], stream: bool) -> reqwest::RequestBuilder;

    /// The turn in a whole answer.
    fn turn(&self, reply: Value) -> Result<ModelTurn, LlmError>;

    /// What one event of a streamed answer means for the turn: handed over whole with
    /// `native` tools, as text otherwise.
    fn step(event: &Event, native: bool) -> Result<Step, LlmError>;
}

/// Asks `api` for a whole answer.
pub(super) async fn complete(
    api: &impl HttpApi,
    messages: &[Value],
) -> Result<ModelTurn, LlmError> {
    api.turn(read_json(send(api.request(messages, false)).await?).await?)
}

/// Asks `api` for a streamed answer, and hands over the turn as [`HttpApi::step`] makes it
/// of each server-sent event. A server that ignores `"stream": true` and answers one JSON
/// document has its answer handed over as one delta.
pub(super) async fn stream<'a, A: HttpApi>(
    api: &A,
    messages: &[Value],
) -> Result<TurnStream<'a>, LlmError> {
    let request = api.request(messages, true);
    let response = send(request.header(reqwest::header::ACCEPT, "text/event-stream")).await?;
    let json = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.trim_start().starts_with("application/json"));
    if json {
        // Read as events, a JSON body has no `data:` line: the turn would end empty.
        return api.turn(read_json(response).await?).map(whole_turn);
    }
    Ok(Box::pin(EventTurn {
        events: Some(Box::pin(response.bytes_stream().eventsource())),
        step: A::step,
        native: matches!(api.mode(), ToolMode::Native(_)),
    }))
}

/// Adds what both APIs take beside the conversation to a request body: the tools in
/// native mode (none is no field: an empty list is refused), the temperature, streaming.
pub(super) fn add_options(
    body: &mut Value,
    mode: &ToolMode,
    temperature: Option<f64>,
    stream: bool,
) {
    if let ToolMode::Native(tools) = mode
        && !tools.is_empty()
    {
        body["tools"] = Value::Array(tools.clone());
    }
    if let Some(temperature) = temperature {
        body["temperature"] = json!(temperature);
    }
    if stream {
        body["stream"] = json!(true);
    }
}

/// Sends `request`; a status other than 2xx is an error that carries the start of the body.
async fn send(request: reqwest::RequestBuilder) -> Result<reqwest::Response, LlmError> {
    let response = request.send().await.map_err(transport)?;
    let status = response.status();
    if status.is_success() {
        return Ok(response);
    }
    let body = response.text().await.map_err(transport)?;
    Err(LlmError::Status {
        status: status.as_u16(),
        body: excerpt(&body),
    })
}

async fn read_json(response: reqwest::Response) -> Result<Value, LlmError> {
    let body = response.text().await.map_err(transport)?;
    serde_json::from_str(&body).map_err(|error| {
        LlmError::Protocol(format!("{error}; the body starts with {}", excerpt(&body)))
    })
}

fn transport(error: reqwest::Error) -> LlmError {
    LlmError::Transport(mcs_http::describe_error(error))
}

/// What one server-sent event means for the turn.
pub(super) enum Step {
    /// Nothing for the caller: an event without data, a ping, a part that prompt mode leaves
    /// out.
    Skip,
    /// A piece of the turn.
    Delta(TurnDelta),
    /// The end of the turn, after this last piece if there is one. The connection is
    /// dropped at once rather than waiting for the server to close it.
    End(Option<TurnDelta>),
}

type Events = Pin<Box<dyn Stream<Item = Result<Event, EventStreamError<reqwest::Error>>> + Send>>;

/// The turn of a streamed answer. It ends where `step` says so, at the first error, or
/// when the server closes the connection: servers differ on whether they send a closing
/// event first, so a close is an end, not an error. `events` is `None` once it has ended.
struct EventTurn {
    events: Option<Events>,
    step: fn(&Event, bool) -> Result<Step, LlmError>,
    native: bool,
}

impl Stream for EventTurn {
    type Item = Result<TurnDelta, LlmError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            let Some(events) = this.events.as_mut() else {
                return Poll::Ready(None);
            };
            let step = match events.as_mut().poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => Ok(Step::End(None)),
                Poll::Ready(Some(Ok(event))) => (this.step)(&event, this.native),
                Poll::Ready(Some(Err(error))) => Err(stream_error(error)),
            };
            match step {
                Ok(Step::Skip) => {}
                Ok(Step::Delta(delta)) => return Poll::Ready(Some(Ok(delta))),
                Ok(Step::End(last)) => {
                    this.events = None;
                    return Poll::Ready(last.map(Ok));
                }
                Err(error) => {
                    this.events = None;
                    return Poll::Ready(Some(Err(error)));
                }
            }
        }
    }
}

fn stream_error(error: EventStreamError<reqwest::Error>) -> LlmError {
    match error {
        EventStreamError::Transport(error) => transport(error),
        EventStreamError::Utf8(error) => {
            LlmError::Protocol(format!("the event stream is not UTF-8: {error}"))
        }
        EventStreamError::Parser(error) => LlmError::Protocol(format!(
            "the event stream is not server-sent events: {error}"
        )),
    }
}

/// The JSON of an event's data, or `None` for an event without data.
///
/// A chunk with an `error` member is an error with its message: OpenAI-compatible servers
/// send `{"error": {...}}` when generation fails mid-stream, Anthropic an `error` event
/// shaped `{"type": "error", "error": {"type", "message"}}`.
pub(super) fn event_json(event: &Event) -> Result<Option<Value>, LlmError> {
    let data = event.data.trim();
    if data.is_empty() {
        return Ok(None);
    }
    let value: Value = serde_json::from_str(data).map_err(|error| {
        LlmError::Protocol(format!(
            "a streamed event is not JSON ({error}); its data starts with {}",
            excerpt(data)
        ))
    })?;
    match value.get("error") {
        None | Some(Value::Null) => Ok(Some(value)),
        Some(error) => Err(LlmError::Protocol(format!(
            "the server reported an error mid-stream: {}",
            error_text(error)
        ))),
    }
}

/// `message (type)` of an error object, or what there is of it.
fn error_text(error: &Value) -> String {
    let message = match (error.get("message").and_then(Value::as_str), error.as_str()) {
        (Some(message), _) | (None, Some(message)) => message.to_owned(),
        (None, None) => excerpt(&error.to_string()),
    };
    match error
        .get("type")
        .or_else(|| error.get("code"))
        .and_then(Value::as_str)
    {
        Some(kind) => format!("{message} ({kind})"),
        None => message,
    }
}

/// The value of an environment variable, unless it is unset or blank.
pub(super) fn non_empty_var(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .filter(|value| !value.trim().is_empty())
}

/// The start of a body, for error messages.
pub(super) fn excerpt(body: &str) -> String {
    let cut: String = body.chars().take(500).collect();
    if cut.len() < body.len() {
        format!("{cut}…")
    } else {
        cut
    }
}
