//! A client for OpenAI-compatible chat-completion servers: OpenAI itself, and the local
//! servers that speak the same protocol (llama.cpp, vLLM, Ollama, LM Studio, ...).

use std::time::Duration;

use serde_json::{Value, json};

use super::client::{LlmClient, LlmError, ModelTurn};
use crate::driver::BoxFuture;

/// How tools reach the model.
#[derive(Clone, Debug, PartialEq)]
pub enum ToolMode {
    /// Tools are described in the system prompt and the model writes its calls as text; the
    /// answer is handed to drivers as text. Works with every model.
    Prompt,
    /// Tools are sent in the request's `tools` field (OpenAI function tools) and the model
    /// answers with native `tool_calls`; the answer is handed to drivers as the message.
    Native(Vec<Value>),
}

/// Talks to `POST {base_url}/chat/completions`.
#[derive(Clone, Debug)]
pub struct OpenAiClient {
    http: reqwest::Client,
    base_url: String,
    api_key: Option<String>,
    model: String,
    mode: ToolMode,
    temperature: Option<f64>,
}

impl OpenAiClient {
    /// A client for the server at `base_url` (e.g. `http://localhost:8080/v1`) and `model`.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Result<Self, LlmError> {
        crate::tls::ensure_provider();
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(300))
            .build()
            .map_err(|error| LlmError::Config(error.to_string()))?;
        Ok(OpenAiClient {
            http,
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

    fn request_body(&self, messages: &[Value]) -> Value {
        let mut body = json!({"model": self.model, "messages": messages});
        if let ToolMode::Native(tools) = &self.mode
            && !tools.is_empty()
        {
            body["tools"] = Value::Array(tools.clone());
        }
        if let Some(temperature) = self.temperature {
            body["temperature"] = json!(temperature);
        }
        body
    }

    async fn send(&self, messages: &[Value]) -> Result<ModelTurn, LlmError> {
        let mut request = self
            .http
            .post(format!("{}/chat/completions", self.base_url))
            .json(&self.request_body(messages));
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key);
        }
        let response = request
            .send()
            .await
            .map_err(|e| LlmError::Transport(e.to_string()))?;
        let status = response.status();
        let body = response
            .text()
            .await
            .map_err(|e| LlmError::Transport(e.to_string()))?;
        if !status.is_success() {
            return Err(LlmError::Status {
                status: status.as_u16(),
                body: excerpt(&body),
            });
        }
        let reply: Value = serde_json::from_str(&body).map_err(|e| {
            LlmError::Protocol(format!("{e}; the body starts with {}", excerpt(&body)))
        })?;
        let message = reply
            .pointer("/choices/0/message")
            .cloned()
            .ok_or_else(|| {
                LlmError::Protocol(format!("no choices[0].message in {}", excerpt(&body)))
            })?;
        Ok(match self.mode {
            ToolMode::Native(_) => ModelTurn::Native(message),
            ToolMode::Prompt => ModelTurn::Text(super::client::message_text(&message)),
        })
    }
}

impl LlmClient for OpenAiClient {
    fn model(&self) -> Option<&str> {
        Some(&self.model)
    }

    fn complete<'a>(&'a self, messages: &'a [Value]) -> BoxFuture<'a, Result<ModelTurn, LlmError>> {
        Box::pin(self.send(messages))
    }
}

fn non_empty_var(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .filter(|value| !value.trim().is_empty())
}

/// The start of a body, for error messages.
fn excerpt(body: &str) -> String {
    let cut: String = body.chars().take(500).collect();
    if cut.len() < body.len() {
        format!("{cut}…")
    } else {
        cut
    }
}
