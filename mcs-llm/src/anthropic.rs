//! A client for Anthropic's Messages API.
//!
//! Conversations in this library are OpenAI-shaped chat messages (a system prompt first,
//! `tool` messages for results, `tool_calls` on assistant messages), with Anthropic-shaped
//! messages among them wherever a driver answered an Anthropic `tool_use`. The client turns
//! such a history into what the Messages API takes: one top-level `system`, `tool_use` and
//! `tool_result` blocks, and user and assistant turns that alternate.

use eventsource_stream::Event;
use serde_json::{Value, json};

use super::client::{LlmClient, LlmError, ModelTurn, TurnDelta, TurnStream, message_text};
use super::http::{self, HttpApi, Step, ToolMode, excerpt, non_empty_var};
use mcs_core::BoxFuture;

/// Where Anthropic serves the Messages API.
const DEFAULT_BASE_URL: &str = "https://api.anthropic.com/v1";

/// The model [`AnthropicClient::from_env`] asks when `MCS_ANTHROPIC_MODEL` is unset.
const DEFAULT_MODEL: &str = "claude-sonnet-4-5";

/// The API version the request and answer shapes here follow.
const API_VERSION: &str = "2023-06-01";

/// Talks to `POST {base_url}/messages`, for whole answers or streamed ones.
///
/// With [`ToolMode::Prompt`] the answer is the text of its text blocks
/// ([`ModelTurn::Text`]); with [`ToolMode::Native`] the tools go in the request's `tools`
/// field (`{name, description, input_schema}`, as
/// [`anthropic_tools`](mcs_core::export::anthropic_tools) makes them) and the answer is the
/// whole message ([`ModelTurn::Native`]), `tool_use` blocks and all.
#[derive(Clone)]
pub struct AnthropicClient {
    http: reqwest::Client,
    base_url: String,
    api_key: String,
    model: String,
    mode: ToolMode,
    max_tokens: u32,
    temperature: Option<f64>,
}

impl std::fmt::Debug for AnthropicClient {
    // Without the key: clients end up in logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnthropicClient")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("mode", &self.mode)
            .field("max_tokens", &self.max_tokens)
            .field("temperature", &self.temperature)
            .finish_non_exhaustive()
    }
}

impl AnthropicClient {
    /// A client for `model` (e.g. `claude-sonnet-4-5`) that sends `api_key` to Anthropic's
    /// API, in prompt mode, with at most 4096 tokens an answer.
    pub fn new(api_key: impl Into<String>, model: impl Into<String>) -> Result<Self, LlmError> {
        Ok(AnthropicClient {
            http: http::http_client()?,
            base_url: DEFAULT_BASE_URL.to_owned(),
            api_key: api_key.into(),
            model: model.into(),
            mode: ToolMode::Prompt,
            max_tokens: 4096,
            temperature: None,
        })
    }

    /// A client configured from the environment, or `None` when `ANTHROPIC_API_KEY` is
    /// unset.
    ///
    /// - `ANTHROPIC_API_KEY`: the key;
    /// - `MCS_ANTHROPIC_MODEL`: the model name (default `claude-sonnet-4-5`);
    /// - `MCS_ANTHROPIC_BASE_URL`: the API's base, for a proxy or a compatible server
    ///   (default `https://api.anthropic.com/v1`).
    pub fn from_env() -> Result<Option<Self>, LlmError> {
        let Some(api_key) = non_empty_var("ANTHROPIC_API_KEY") else {
            return Ok(None);
        };
        let model = non_empty_var("MCS_ANTHROPIC_MODEL").unwrap_or_else(|| DEFAULT_MODEL.into());
        let mut client = Self::new(api_key, model)?;
        if let Some(base_url) = non_empty_var("MCS_ANTHROPIC_BASE_URL") {
            client = client.with_base_url(base_url);
        }
        Ok(Some(client))
    }

    /// Sends requests to `{base_url}/messages` instead of Anthropic's API.
    #[must_use]
    pub fn with_base_url(mut self, base_url: impl Into<String>) -> Self {
        self.base_url = base_url.into().trim_end_matches('/').to_owned();
        self
    }

    /// Chooses how tools reach the model (prompt by default). Native tools are in the
    /// Messages API's shape, `{name, description, input_schema}`.
    #[must_use]
    pub fn with_tool_mode(mut self, mode: ToolMode) -> Self {
        self.mode = mode;
        self
    }

    /// Caps the tokens of an answer (`max_tokens`, which the API requires; 4096 by default).
    #[must_use]
    pub fn with_max_tokens(mut self, max_tokens: u32) -> Self {
        self.max_tokens = max_tokens;
        self
    }

    /// Sets the sampling temperature (from 0.0 to 1.0 on this API; OpenAI's goes to 2).
    #[must_use]
    pub fn with_temperature(mut self, temperature: f64) -> Self {
        self.temperature = Some(temperature);
        self
    }
}

impl HttpApi for AnthropicClient {
    const PROVIDER: &'static str = "anthropic";

    fn model_name(&self) -> &str {
        &self.model
    }

    fn mode(&self) -> &ToolMode {
        &self.mode
    }

    fn request(&self, messages: &[Value], stream: bool) -> reqwest::RequestBuilder {
        let (system, messages) = anthropic_messages(messages);
        let mut body = json!({
            "model": self.model,
            "max_tokens": self.max_tokens,
            "messages": messages,
        });
        if let Some(system) = system {
            body["system"] = json!(system);
        }
        http::add_options(&mut body, &self.mode, self.temperature, stream);
        self.http
            .post(format!("{}/messages", self.base_url))
            .header("x-api-key", &self.api_key)
            .header("anthropic-version", API_VERSION)
            .json(&body)
    }

    /// The turn in a whole Messages API answer.
    fn turn(&self, reply: Value) -> Result<ModelTurn, LlmError> {
        if !reply.get("content").is_some_and(Value::is_array) {
            return Err(LlmError::Protocol(format!(
                "no content blocks in {}",
                excerpt(&reply.to_string())
            )));
        }
        Ok(match self.mode {
            ToolMode::Native(_) => ModelTurn::Native(reply),
            ToolMode::Prompt => ModelTurn::Text(message_text(&reply)),
        })
    }

    /// One event of a streamed message.
    fn step(event: &Event, native: bool) -> Result<Step, LlmError> {
        let Some(data) = http::event_json(event)? else {
            return Ok(Step::Skip);
        };
        // The data names its type, as the SSE `event:` line does; the data is what a proxy
        // that rewrites events is least likely to drop.
        let kind = match data.get("type").and_then(Value::as_str) {
            Some(kind) => kind.to_owned(),
            None => event.event.clone(),
        };
        Ok(match kind.as_str() {
            "ping" => Step::Skip,
            "message_stop" => Step::End(native.then(|| TurnDelta::Event(data))),
            _ if native => Step::Delta(TurnDelta::Event(data)),
            "content_block_delta" => match (
                data.pointer("/delta/type").and_then(Value::as_str),
                data.pointer("/delta/text").and_then(Value::as_str),
            ) {
                (Some("text_delta"), Some(text)) if !text.is_empty() => {
                    Step::Delta(TurnDelta::Text(text.to_owned()))
                }
                _ => Step::Skip,
            },
            _ => Step::Skip,
        })
    }
}

impl LlmClient for AnthropicClient {
    fn model(&self) -> Option<&str> {
        Some(&self.model)
    }

    fn complete<'a>(&'a self, messages: &'a [Value]) -> BoxFuture<'a, Result<ModelTurn, LlmError>> {
        Box::pin(http::complete(self, messages))
    }

    /// Asks with `"stream": true` and hands over the message events as they come: with
    /// native tools each event's data whole as [`TurnDelta::Event`] (`message_start`,
    /// `content_block_start`, `content_block_delta`, `content_block_stop`,
    /// `message_delta`, `message_stop`; pings are left out), in prompt mode the text of
    /// each `text_delta` as [`TurnDelta::Text`]. The turn ends at `message_stop` or when
    /// the server closes the connection; an `error` event ends it with
    /// [`LlmError::Protocol`] and the server's message.
    fn stream<'a>(
        &'a self,
        messages: &'a [Value],
    ) -> BoxFuture<'a, Result<TurnStream<'a>, LlmError>> {
        Box::pin(http::stream(self, messages))
    }
}

/// The system prompt and the messages of a Messages API request, from a chat history.
///
/// System (and `developer`) messages are joined into the system prompt; `tool` messages
/// become `tool_result` blocks of a user turn; an assistant's OpenAI `tool_calls` become
/// `tool_use` blocks; Anthropic-shaped messages keep their content. Consecutive turns of
/// one role are merged, and every turn is reduced to `role` and `content` (the API refuses
/// other fields, such as the `id` and `usage` of an answer appended as it came).
fn anthropic_messages(messages: &[Value]) -> (Option<String>, Vec<Value>) {
    let mut system = Vec::new();
    let mut turns = Vec::new();
    for message in messages {
        match message.get("role").and_then(Value::as_str) {
            Some("system" | "developer") => {
                let text = message_text(message);
                if !text.trim().is_empty() {
                    system.push(text);
                }
            }
            Some("tool") => push_turn(&mut turns, "user", tool_result(message)),
            Some("assistant") => push_turn(&mut turns, "assistant", assistant_content(message)),
            _ => {
                let content = message.get("content").cloned().unwrap_or(Value::Null);
                push_turn(&mut turns, "user", content);
            }
        }
    }
    let system = (!system.is_empty()).then(|| system.join("\n\n"));
    (system, turns)
}

/// An OpenAI `tool` message as the content of a user turn: one `tool_result` block.
fn tool_result(message: &Value) -> Value {
    let content = match message.get("content") {
        Some(other @ (Value::Bool(_) | Value::Number(_) | Value::Object(_))) => other.to_string(),
        _ => message_text(message),
    };
    let id = message
        .get("tool_call_id")
        .and_then(Value::as_str)
        .unwrap_or_default();
    json!([{"type": "tool_result", "tool_use_id": id, "content": content}])
}

/// An assistant message's content, its OpenAI `tool_calls` as `tool_use` blocks after its
/// text.
fn assistant_content(message: &Value) -> Value {
    let content = message.get("content").cloned().unwrap_or(Value::Null);
    let Some(Value::Array(calls)) = message.get("tool_calls") else {
        return content;
    };
    let mut content = blocks(content);
    content.extend(calls.iter().map(tool_use));
    Value::Array(content)
}

/// An OpenAI tool call as a `tool_use` block.
fn tool_use(call: &Value) -> Value {
    let function = call.get("function").unwrap_or(&Value::Null);
    let name = function
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    // OpenAI's arguments are JSON text (some servers send the object). The API takes an
    // object only and refuses the whole request otherwise, so arguments that are not one
    // are sent as `{}`: the history still reaches the model, with the call's answer after it.
    let input = match function.get("arguments") {
        Some(Value::String(text)) => serde_json::from_str(text).ok().filter(Value::is_object),
        Some(object @ Value::Object(_)) => Some(object.clone()),
        _ => None,
    };
    json!({
        "type": "tool_use",
        "id": call.get("id").and_then(Value::as_str).unwrap_or_default(),
        "name": name,
        "input": input.unwrap_or_else(|| json!({})),
    })
}

/// Appends a turn, or merges it into the last one if that has the same role: the API
/// wants user and assistant turns to alternate. Empty content is left out (the API
/// refuses empty text).
fn push_turn(turns: &mut Vec<Value>, role: &str, content: Value) {
    if is_empty(&content) {
        return;
    }
    if let Some(last) = turns.last_mut()
        && last.get("role").and_then(Value::as_str) == Some(role)
    {
        let mut merged = blocks(last["content"].take());
        merged.extend(blocks(content));
        last["content"] = Value::Array(merged);
        return;
    }
    turns.push(json!({"role": role, "content": content}));
}

/// Content as a list of blocks: a string is one text block, blank text none.
fn blocks(content: Value) -> Vec<Value> {
    match content {
        Value::Array(blocks) => blocks,
        Value::String(text) if text.trim().is_empty() => Vec::new(),
        Value::String(text) => vec![json!({"type": "text", "text": text})],
        Value::Null => Vec::new(),
        other => vec![other],
    }
}

/// Whether content has no block ([`blocks`] would make none).
fn is_empty(content: &Value) -> bool {
    match content {
        Value::Array(blocks) => blocks.is_empty(),
        Value::String(text) => text.trim().is_empty(),
        Value::Null => true,
        _ => false,
    }
}
