//! Talking to models: the [`LlmClient`] trait, clients for OpenAI-compatible servers and for
//! Anthropic's Messages API, a scripted client for tests and examples, and the bounded
//! conversation loop.
//!
//! # Streaming
//!
//! [`LlmClient::stream`] hands over a turn as it comes, as [`TurnDelta`]s. A client asked
//! for text (prompt mode) streams [`TurnDelta::Text`] pieces that join into the turn's
//! text; a client asked for native tool calls streams the provider's own events,
//! unchanged, as [`TurnDelta::Event`] (OpenAI chat-completion chunks, Anthropic message
//! events), so nothing the provider said is lost on the way. A client that cannot stream
//! answers with the whole turn as one delta ([`TurnDelta::Message`] for a native message).
//! The HTTP clients read server-sent events as they arrive; a turn ends at the provider's
//! closing event or when the server closes the connection, and an error the server
//! reports mid-stream ends it as an [`LlmError`]. [`ScriptedClient`] streams its script,
//! in pieces of a chosen size or exactly as scripted.
//!
//! # Tracing
//!
//! Each request of the HTTP clients is a `tracing` span `chat` (target `mcs`), attributed
//! after OpenTelemetry's conventions for generative AI: the provider, the model asked for
//! and the one that answered, the answer's id, the tokens in and out, why it finished, and
//! `error.type` when it failed. A streamed request's span lasts until its turn ends. The
//! conversation and the answer's text are never recorded.
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "anthropic")]
mod anthropic;
mod client;
mod conversation;
#[cfg(any(feature = "openai", feature = "anthropic"))]
mod http;
#[cfg(feature = "openai")]
mod openai;
mod scripted;

#[cfg(feature = "anthropic")]
pub use anthropic::AnthropicClient;
pub use client::{LlmClient, LlmError, ModelTurn, TurnDelta, TurnStream, message_text, whole_turn};
pub use conversation::{Conversation, ConversationEvent, StopReason, Transcript};
#[cfg(any(feature = "openai", feature = "anthropic"))]
pub use http::ToolMode;
#[cfg(feature = "openai")]
pub use openai::OpenAiClient;
pub use scripted::ScriptedClient;
