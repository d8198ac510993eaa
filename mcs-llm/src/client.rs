//! What every model client is: the [`LlmClient`] trait, a model's turn, and its errors.

use std::pin::Pin;

use futures_core::Stream;
use serde_json::Value;

use mcs_core::stream::Delta;
use mcs_core::{BoxFuture, LlmResponse};

/// One answer of a model.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelTurn {
    /// The text the model wrote (tool calls, if any, are written in it).
    Text(String),
    /// The provider's native assistant message, for models called with native tools.
    Native(Value),
}

impl ModelTurn {
    /// The turn as drivers take it.
    pub fn as_response(&self) -> LlmResponse<'_> {
        match self {
            ModelTurn::Text(text) => LlmResponse::Text(text),
            ModelTurn::Native(message) => LlmResponse::Message(message),
        }
    }

    /// The assistant message to append to the history when the turn is a final answer.
    pub fn to_message(&self) -> Value {
        match self {
            ModelTurn::Text(text) => serde_json::json!({"role": "assistant", "content": text}),
            ModelTurn::Native(message) => message.clone(),
        }
    }

    /// The text of the turn: the text itself, or a native message's text content.
    pub fn text(&self) -> String {
        match self {
            ModelTurn::Text(text) => text.clone(),
            ModelTurn::Native(message) => message_text(message),
        }
    }
}

pub use mcs_core::message_text;

/// A piece of a model's turn, as it streams in.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum TurnDelta {
    /// Text the model wrote, in prompt mode (its tool calls, if any, are written in it). A
    /// delta may end anywhere, even inside a character's tokens; pieces join into the turn.
    Text(String),
    /// One event of a provider's native stream, as the provider sent it: an OpenAI chat
    /// completion chunk (`choices[].delta`), an OpenAI Responses event
    /// (`response.output_item.added`, `response.function_call_arguments.delta`, …), an
    /// Anthropic message event (`content_block_start`, `content_block_delta`, …), a
    /// Gemini streamed response (`candidates[].content.parts`), or any other event
    /// `StreamReader::feed_event` (mcs-extract) reads (Bedrock ConverseStream, Ollama,
    /// Cohere v2).
    Event(Value),
    /// A whole native message at once, from a client that does not stream.
    Message(Value),
}

/// A model's turn as it streams in: deltas in order, then the end of the stream. An error
/// ends the turn; what came before it was cut off.
pub type TurnStream<'a> = Pin<Box<dyn Stream<Item = Result<TurnDelta, LlmError>> + Send + 'a>>;

/// A stream of one delta: what a client that cannot stream answers with.
pub fn whole_turn<'a>(turn: ModelTurn) -> TurnStream<'a> {
    let delta = match turn {
        ModelTurn::Text(text) => TurnDelta::Text(text),
        ModelTurn::Native(message) => TurnDelta::Message(message),
    };
    listed(vec![delta])
}

/// A stream of deltas that are all there already (a scripted or a whole turn).
pub(super) fn listed<'a>(deltas: Vec<TurnDelta>) -> TurnStream<'a> {
    Box::pin(Listed(deltas.into_iter()))
}

/// The stream behind [`listed`]: never pending.
struct Listed(std::vec::IntoIter<TurnDelta>);

impl Stream for Listed {
    type Item = Result<TurnDelta, LlmError>;

    fn poll_next(
        mut self: Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        std::task::Poll::Ready(self.0.next().map(Ok))
    }
}

/// Why a model could not be asked.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LlmError {
    /// The request did not get an answer (connection, timeout, TLS).
    #[error("the model server could not be reached: {0}")]
    Transport(String),
    /// The server answered with an error status.
    #[error("the model server answered {status}: {body}")]
    Status {
        /// The HTTP status code.
        status: u16,
        /// The start of the response body.
        body: String,
    },
    /// The server answered, but not in the expected shape.
    #[error("the model server's answer could not be read: {0}")]
    Protocol(String),
    /// A scripted client ran out of answers.
    #[error("the scripted model has no answer left (it had {0})")]
    ScriptExhausted(usize),
    /// The client is not configured.
    #[error("the model client is not configured: {0}")]
    Config(String),
}

/// A model behind some API. Implementations are cheap to share (`Send + Sync`).
pub trait LlmClient: Send + Sync {
    /// The model's name, used to pick per-model prompts; `None` if unknown.
    fn model(&self) -> Option<&str>;

    /// Sends the conversation (chat messages, system prompt first) and returns the model's
    /// answer.
    fn complete<'a>(&'a self, messages: &'a [Value]) -> BoxFuture<'a, Result<ModelTurn, LlmError>>;

    /// Sends the conversation and returns the model's answer as it streams in.
    ///
    /// The default asks [`complete`](Self::complete) and hands its answer over as one
    /// delta; clients of servers that stream override it.
    fn stream<'a>(
        &'a self,
        messages: &'a [Value],
    ) -> BoxFuture<'a, Result<TurnStream<'a>, LlmError>> {
        Box::pin(async move { self.complete(messages).await.map(whole_turn) })
    }
}

impl<T: LlmClient + ?Sized> LlmClient for std::sync::Arc<T> {
    fn model(&self) -> Option<&str> {
        (**self).model()
    }

    fn complete<'a>(&'a self, messages: &'a [Value]) -> BoxFuture<'a, Result<ModelTurn, LlmError>> {
        (**self).complete(messages)
    }

    fn stream<'a>(
        &'a self,
        messages: &'a [Value],
    ) -> BoxFuture<'a, Result<TurnStream<'a>, LlmError>> {
        (**self).stream(messages)
    }
}

impl<T: LlmClient + ?Sized> LlmClient for Box<T> {
    fn model(&self) -> Option<&str> {
        (**self).model()
    }

    fn complete<'a>(&'a self, messages: &'a [Value]) -> BoxFuture<'a, Result<ModelTurn, LlmError>> {
        (**self).complete(messages)
    }

    fn stream<'a>(
        &'a self,
        messages: &'a [Value],
    ) -> BoxFuture<'a, Result<TurnStream<'a>, LlmError>> {
        (**self).stream(messages)
    }
}

impl<'d> From<&'d TurnDelta> for Delta<'d> {
    fn from(delta: &'d TurnDelta) -> Self {
        match delta {
            TurnDelta::Text(text) => Delta::Text(text),
            TurnDelta::Event(event) => Delta::Event(event),
            TurnDelta::Message(message) => Delta::Message(message),
        }
    }
}
