//! Talking to models: the [`LlmClient`] trait, a client for OpenAI-compatible servers, a
//! scripted client for tests and examples, and the bounded conversation loop.

mod client;
mod conversation;
#[cfg(feature = "openai")]
mod openai;
mod scripted;

pub use client::{LlmClient, LlmError, ModelTurn, TurnDelta, TurnStream, message_text, whole_turn};
pub use conversation::{Conversation, StopReason, Transcript};
#[cfg(feature = "openai")]
pub use openai::{OpenAiClient, ToolMode};
pub use scripted::ScriptedClient;
