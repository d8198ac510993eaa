//! A client for OpenAI-compatible chat-completion servers: OpenAI itself, and the local
//! servers that speak the same protocol (llama.cpp, vLLM, Ollama, LM Studio, ...).

use eventsource_stream::Event;
use serde_json::{Value, json};

use super::client::{LlmClient, LlmError, ModelTurn, TurnDelta, TurnStream, message_text};
use super::http::{self, HttpApi, Step, ToolMode, excerpt, non_empty_var};
use mcs_core::BoxFuture;

/// Talks to `POST {base_url}/chat/completions`, for whole answers or streamed ones.
#[derive(Clone)]
pub struct OpenAiClient {
    http: reqwest::Client,
    base_url: String,
    api_key: Option<String>,
    model: String,
    mode: ToolMode,
    temperature: Option<f64>,
}

impl std::fmt::Debug for OpenAiClient {
    // Without the key: clients end up in logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiClient")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("mode", &self.mode)
            .field("temperature", &self.temperature)
            .field("api_key", &self.api_key.as_ref().map(|_| "…"))
            .finish_non_exhaustive()
    }
}

impl OpenAiClient {
    /// A client for the server at `base_url` (e.g. `http://localhost:8080/v1`) and `model`.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Result<Self, LlmError> {
        Ok(OpenAiClient {
            http: http::http_client()?,
            base_url: base_url.into().trim_end_matches('/').to_owned(),
            api_key: None,
            model: model.into(),
            mode: ToolMode::Prompt,
            temperature: None,
        })
    }

    /// A client configured from the environment, or `None` when `MCS_LLM_BASE_URL` is unset.
    ///
    /// - `MCS_LLM_BASE_URL`: the server, e.g. `https://api.openai.com/v1` or
    ///   `http://localhost:11434/v1`;
    /// - `MCS_LLM_MODEL`: the model name (default `gpt-4o-mini`);
    /// - `MCS_LLM_API_KEY`, else `OPENAI_API_KEY`: the bearer token, if the server wants one.
    pub fn from_env() -> Result<Option<Self>, LlmError> {
        let Some(base_url) = non_empty_var("MCS_LLM_BASE_URL") else {
            return Ok(None);
        };
        let model = non_empty_var("MCS_LLM_MODEL").unwrap_or_else(|| "gpt-4o-mini".to_owned());
        let mut client = Self::new(base_url, model)?;
        client.api_key =
            non_empty_var("MCS_LLM_API_KEY").or_else(|| non_empty_var("OPENAI_API_KEY"));
        Ok(Some(client))
    }

    /// Sends this bearer token.
    #[must_use]
    pub fn with_api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(key.into());
        self
    }

    /// Chooses how tools reach the model (prompt by default).
    #[must_use]
    pub fn with_tool_mode(mut self, mode: ToolMode) -> Self {
        self.mode = mode;
        self
    }

    /// Sets the sampling temperature.
    #[must_use]
    pub fn with_temperature(mut self, temperature: f64) -> Self {
        self.temperature = Some(temperature);
        self
    }
}

impl HttpApi for OpenAiClient {
    const PROVIDER: &'static str = "openai";

    fn model_name(&self) -> &str {
        &self.model
    }

    fn mode(&self) -> &ToolMode {
        &self.mode
    }

    fn request(&self, messages: &[Value], stream: bool) -> reqwest::RequestBuilder {
        let mut body = json!({"model": self.model, "messages": messages});
        // No `stream_options.include_usage` when streaming: some compatible servers refuse
        // fields they do not know, and usage is not part of a turn.
        http::add_options(&mut body, &self.mode, self.temperature, stream);
        let mut request = self
            .http
            .post(format!("{}/chat/completions", self.base_url))
            .json(&body);
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key);
        }
        request
    }

    /// The turn in a whole chat-completion answer.
    fn turn(&self, reply: Value) -> Result<ModelTurn, LlmError> {
        let message = reply.pointer("/choices/0/message").ok_or_else(|| {
            LlmError::Protocol(format!(
                "no choices[0].message in {}",
                excerpt(&reply.to_string())
            ))
        })?;
        Ok(match self.mode {
            ToolMode::Native(_) => ModelTurn::Native(message.clone()),
            ToolMode::Prompt => ModelTurn::Text(message_text(message)),
        })
    }

    /// One event of a streamed chat completion: a chunk (`choices[0].delta`), or `[DONE]`.
    fn step(event: &Event, native: bool) -> Result<Step, LlmError> {
        if event.data.trim() == "[DONE]" {
            return Ok(Step::End(None));
        }
        let Some(chunk) = http::event_json(event)? else {
            return Ok(Step::Skip);
        };
        if native {
            return Ok(Step::Delta(TurnDelta::Event(chunk)));
        }
        // The first chunk carries the role and an empty content, the last one the finish
        // reason and none: only text is a piece of a prompt-mode turn.
        Ok(match chunk.pointer("/choices/0/delta/content") {
            Some(Value::String(text)) if !text.is_empty() => {
                Step::Delta(TurnDelta::Text(text.clone()))
            }
            _ => Step::Skip,
        })
    }
}

impl LlmClient for OpenAiClient {
    fn model(&self) -> Option<&str> {
        Some(&self.model)
    }

    fn complete<'a>(&'a self, messages: &'a [Value]) -> BoxFuture<'a, Result<ModelTurn, LlmError>> {
        Box::pin(http::complete(self, messages))
    }

    /// Asks with `"stream": true` and hands over the server-sent chunks as they come: each
    /// chunk whole as [`TurnDelta::Event`] with native tools, its `delta.content` as
    /// [`TurnDelta::Text`] in prompt mode. The turn ends at `data: [DONE]` or when the
    /// server closes the connection; an `{"error": ...}` chunk ends it with
    /// [`LlmError::Protocol`]. A server that answers with one JSON document instead is
    /// handed over as one delta.
    fn stream<'a>(
        &'a self,
        messages: &'a [Value],
    ) -> BoxFuture<'a, Result<TurnStream<'a>, LlmError>> {
        Box::pin(http::stream(self, messages))
    }
}
