//! What the HTTP model clients share: how tools reach the model, sending a request and
//! reading the answer whole or as server-sent events, and the texts of their errors.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use eventsource_stream::{Event, EventStreamError, Eventsource};
use futures_core::Stream;
use serde_json::{Value, json};
use tracing::field::Empty;
use tracing::{Instrument, Span};

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
    /// The provider, as OpenTelemetry names it (`openai`, `anthropic`).
    const PROVIDER: &'static str;

    /// The model asked for.
    fn model_name(&self) -> &str;

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
pub(super) async fn complete<A: HttpApi>(
    api: &A,
    messages: &[Value],
) -> Result<ModelTurn, LlmError> {
    let span = chat_span(A::PROVIDER, api.model_name(), false);
    let reply = async { read_json(send(api.request(messages, false)).await?).await }
        .instrument(span.clone())
        .await;
    let turn = reply.and_then(|reply| {
        record_answer(&span, &reply);
        api.turn(reply)
    });
    if let Err(error) = &turn {
        record_error(&span, error);
    }
    turn
}

/// Asks `api` for a streamed answer, and hands over the turn as [`HttpApi::step`] makes it
/// of each server-sent event. A server that ignores `"stream": true` and answers one JSON
/// document has its answer handed over as one delta.
pub(super) async fn stream<'a, A: HttpApi>(
    api: &A,
    messages: &[Value],
) -> Result<TurnStream<'a>, LlmError> {
    let span = chat_span(A::PROVIDER, api.model_name(), true);
    let opened = open_stream(api, messages, &span)
        .instrument(span.clone())
        .await;
    if let Err(error) = &opened {
        record_error(&span, error);
    }
    opened
}

/// The request of [`stream`], and its answer read as events; `span` is the request's, which
/// the turn keeps until it ends.
async fn open_stream<'a, A: HttpApi>(
    api: &A,
    messages: &[Value],
    span: &Span,
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
        let reply = read_json(response).await?;
        record_answer(span, &reply);
        return api.turn(reply).map(whole_turn);
    }
    Ok(Box::pin(EventTurn {
        events: Some(Box::pin(response.bytes_stream().eventsource())),
        step: A::step,
        native: matches!(api.mode(), ToolMode::Native(_)),
        span: span.clone(),
        finish_reasons: Vec::new(),
    }))
}

/// The client span of one request to a model, named and attributed after OpenTelemetry's
/// conventions for generative AI (`chat gpt-4o`; the provider, the model asked for and the
/// one that answered, the answer's id, tokens in and out, why it finished, `error.type`).
/// Neither the messages nor the answer are recorded: they may hold anything.
fn chat_span(provider: &'static str, model: &str, stream: bool) -> Span {
    let span = tracing::info_span!(
        target: mcs_core::telemetry::TARGET,
        "chat",
        "otel.name" = Empty,
        "otel.kind" = "client",
        "otel.status_code" = Empty,
        "gen_ai.operation.name" = "chat",
        "gen_ai.provider.name" = provider,
        "gen_ai.request.model" = model,
        "gen_ai.response.model" = Empty,
        "gen_ai.response.id" = Empty,
        "gen_ai.response.finish_reasons" = Empty,
        "gen_ai.usage.input_tokens" = Empty,
        "gen_ai.usage.output_tokens" = Empty,
        "mcs.stream" = stream,
        "error.type" = Empty,
    );
    mcs_core::telemetry::record_name(&span, || format!("chat {model}"));
    span
}

/// Records on `span` what an answer (or a streamed event) says of itself, in either API's
/// words: the model and id (`model`, `id`, or a `message` holding them), the tokens used
/// (`usage.prompt_tokens`/`completion_tokens` or `input_tokens`/`output_tokens`), and why
/// it finished (`choices[].finish_reason`, `stop_reason`, `delta.stop_reason`), gathered
/// into `finish_reasons`.
fn observe(span: &Span, answer: &Value, finish_reasons: &mut Vec<String>) {
    let answer = answer
        .get("message")
        .filter(|m| m.is_object())
        .unwrap_or(answer);
    if let Some(model) = answer.get("model").and_then(Value::as_str) {
        span.record("gen_ai.response.model", model);
    }
    if let Some(id) = answer.get("id").and_then(Value::as_str) {
        span.record("gen_ai.response.id", id);
    }
    if let Some(usage) = answer.get("usage") {
        let tokens = |names: [&str; 2]| names.iter().find_map(|name| usage.get(*name)?.as_u64());
        if let Some(input) = tokens(["prompt_tokens", "input_tokens"]) {
            span.record("gen_ai.usage.input_tokens", input);
        }
        if let Some(output) = tokens(["completion_tokens", "output_tokens"]) {
            span.record("gen_ai.usage.output_tokens", output);
        }
    }
    let choices = answer
        .get("choices")
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    let reasons = choices
        .filter_map(|choice| choice.get("finish_reason"))
        .chain(answer.get("stop_reason"))
        .chain(answer.pointer("/delta/stop_reason"))
        .filter_map(Value::as_str);
    for reason in reasons {
        if !finish_reasons.iter().any(|known| known == reason) {
            finish_reasons.push(reason.to_owned());
        }
    }
    if !finish_reasons.is_empty() {
        span.record(
            "gen_ai.response.finish_reasons",
            format!("{finish_reasons:?}"),
        );
    }
}

/// [`observe`] of a whole answer.
fn record_answer(span: &Span, reply: &Value) {
    if !span.is_disabled() {
        observe(span, reply, &mut Vec::new());
    }
}

/// Records that the request failed: `error.type` (the HTTP status, or what kind of failure)
/// and an error status.
fn record_error(span: &Span, error: &LlmError) {
    if span.is_disabled() {
        return;
    }
    let kind = match error {
        LlmError::Status { status, .. } => status.to_string(),
        LlmError::Transport(_) => "transport".to_owned(),
        LlmError::Protocol(_) => "protocol".to_owned(),
        _ => "other".to_owned(),
    };
    mcs_core::telemetry::record_failure(span, &kind);
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
    /// The request's span, open until the turn ends: each event's model, id, tokens and
    /// finish reason are recorded on it.
    span: Span,
    finish_reasons: Vec<String>,
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
                Poll::Ready(Some(Ok(event))) => {
                    if !this.span.is_disabled()
                        && let Ok(Some(data)) = event_json(&event)
                    {
                        observe(&this.span, &data, &mut this.finish_reasons);
                    }
                    (this.step)(&event, this.native)
                }
                Poll::Ready(Some(Err(error))) => Err(stream_error(error)),
            };
            match step {
                Ok(Step::Skip) => {}
                Ok(Step::Delta(delta)) => return Poll::Ready(Some(Ok(delta))),
                Ok(Step::End(last)) => {
                    this.events = None;
                    this.span = Span::none();
                    return Poll::Ready(last.map(Ok));
                }
                Err(error) => {
                    this.events = None;
                    record_error(&this.span, &error);
                    this.span = Span::none();
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
