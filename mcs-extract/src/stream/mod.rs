//! Reading a model's output while it is written.
//!
//! A [`StreamReader`] takes the output as it streams in — text deltas of any size, or a
//! provider's own stream events — and says, in order, what is decided:
//!
//! - [`StreamEvent::Text`]: the answer, with call markup and reasoning taken out. Text that
//!   may still turn out to be the start of a call (`<tool_`, `[TOOL_`, `<｜`, an open
//!   `{` that may be a JSON call) is held back until what follows decides.
//! - [`StreamEvent::Reasoning`]: reasoning (`<think>…</think>` and the other families'),
//!   as it comes.
//! - [`StreamEvent::CallBegun`]: a call has begun and this is its tool, as soon as the name
//!   is written — so a UI can say "calling get_weather…" while the arguments stream.
//! - [`StreamEvent::Call`] / [`StreamEvent::CallFailed`]: a call is complete — its closing
//!   delimiter, or the end of its JSON value, has arrived — or it cannot be read.
//!
//! [`StreamReader::finish`] gives what [`extract`](crate::extract) finds in the
//! whole output: the events and the batch path agree exactly, because the stream runs
//! the batch readers themselves, each as far as the text so far decides (a reader that
//! looks past the end of what has arrived is read again later; see the module
//! `horizon`). Work per delta is proportional to the delta: the text is read
//! once, bar re-reads that back off geometrically.
//!
//! # Nothing cut off runs
//!
//! A call the output ends inside of — in an argument, or before its closing delimiter
//! where more arguments could follow — is a [`MalformedCall`](crate::MalformedCall) with
//! [`cut_off`](crate::MalformedCall::cut_off) set, never a call: `write_file(path="/tmp/x.sh",
//! content="rm -rf /` cut mid-value is not run with the half value. An output that ends
//! right after an opening marker, with nothing of a call written yet, holds one such call
//! cut off: reported, so that the model may write it again.
//!
//! # Transcripts
//!
//! An output that starts as a chat template's transcript (a beginning-of-text token, or a
//! system or user turn's header: a prompt decoded with its answer) is read at its end, as
//! [`extract`](crate::extract) reads it, from the model's last turn: until then no event is
//! given, since a call of an earlier turn (one that ran already) cannot be told from the
//! model's own before the transcript ends.
//!
//! # Reasoning whose opener was in the prompt
//!
//! DeepSeek-R1 and V4, QwQ, Qwen3 thinking models and Kimi K3 put the reasoning opener in
//! the prompt: their output starts inside reasoning and holds only the closer. By default
//! ([`ReasoningStart::Auto`]) the first reasoning marker decides: a closer without an opener
//! makes everything before it reasoning (calls written there are drafts, never run), and
//! [`StreamEvent::TextWasReasoning`] tells a UI that the text it showed was reasoning. Until
//! that marker (or the end), `Call` events are held back — a draft must not be reported
//! as a call. Say where your model starts with [`StreamReader::with_reasoning`]
//! ([`Inside`](ReasoningStart::Inside) or [`Outside`](ReasoningStart::Outside)) and calls
//! are reported the moment they complete.
//!
//! # Example
//!
//! ```
//! use mcs_extract::stream::{StreamEvent, StreamReader};
//! use mcs_core::Tool;
//! use mcs_extract::ReasoningStart;
//!
//! let tools = vec![Tool::new("get_weather", "Weather in a city")];
//! let mut reader = StreamReader::new(tools).with_reasoning(ReasoningStart::Outside);
//! let mut shown = String::new();
//! let mut calls = Vec::new();
//! for delta in ["Let me check.\n<tool_", "call>{\"name\": \"get_wea", "ther\", \"arguments\": ",
//!               "{\"city\": \"Paris\"}}</tool_call>"] {
//!     for event in reader.feed_text(delta) {
//!         match event {
//!             StreamEvent::Text(text) => shown.push_str(&text),
//!             StreamEvent::Call { call, .. } => calls.push(call.name),
//!             _ => {}
//!         }
//!     }
//! }
//! let end = reader.finish();
//! assert_eq!(shown, "Let me check.\n");
//! assert_eq!(calls, ["get_weather"]);
//! assert_eq!(end.extraction.calls.len(), 1);
//! ```

mod native;
mod text;

use std::sync::Arc;

use serde_json::Value;

use crate::{Extraction, ReasoningStart};
use mcs_core::stream::push_text;
pub use mcs_core::stream::{
    Delta, Execution, StreamEvent, StreamOptions, StreamOutput, ToolLookup,
};
use mcs_core::{Tool, message_text};
use native::{NativeStream, push_calls};
use text::TextStream;

/// What a [`StreamReader`] ends with.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamEnd {
    /// The events not given out yet.
    pub events: Vec<StreamEvent>,
    /// Every call of the whole output, as [`extract`](crate::extract) finds it.
    pub extraction: Extraction,
    /// The whole output.
    pub output: StreamOutput,
}

enum Reading {
    /// Nothing came yet.
    Empty,
    Text(Box<TextStream>),
    Native(Box<NativeStream>),
    /// A whole message, from a client that does not stream.
    Message(Value),
}

/// Reads a model's output as it streams in; see the [module docs](self).
///
/// The first delta decides what the stream is: text ([`feed_text`](Self::feed_text),
/// [`feed_bytes`](Self::feed_bytes)), a provider's events
/// ([`feed_event`](Self::feed_event)), or a whole message. Deltas of another kind after
/// that are ignored.
pub struct StreamReader {
    tools: Arc<[Tool]>,
    lookup: Option<ToolLookup>,
    reasoning: ReasoningStart,
    reading: Reading,
    events: Vec<StreamEvent>,
}

impl std::fmt::Debug for StreamReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let reading = match &self.reading {
            Reading::Empty => "nothing yet",
            Reading::Text(_) => "text",
            Reading::Native(_) => "provider events",
            Reading::Message(_) => "a whole message",
        };
        f.debug_struct("StreamReader")
            .field("tools", &self.tools.len())
            .field("reasoning", &self.reasoning)
            .field("reading", &reading)
            .finish()
    }
}

impl StreamReader {
    /// A reader for an output that may call `tools`: weak formats (pythonic calls, ReAct,
    /// JSON without a name key's usual partner) count only for them, and XML-like values
    /// are typed with their schemas, as in [`extract`](crate::extract).
    pub fn new(tools: impl Into<Arc<[Tool]>>) -> Self {
        StreamReader {
            tools: tools.into(),
            lookup: None,
            reasoning: ReasoningStart::Auto,
            reading: Reading::Empty,
            events: Vec::new(),
        }
    }

    /// Says where the output starts (see the [module docs](self)).
    #[must_use]
    pub fn with_reasoning(mut self, start: ReasoningStart) -> Self {
        self.reasoning = start;
        self
    }

    /// Looks tools up through `lookup` instead of scanning the list.
    #[must_use]
    pub fn with_lookup(mut self, lookup: ToolLookup) -> Self {
        self.lookup = Some(lookup);
        self
    }

    fn text(&mut self) -> Option<&mut TextStream> {
        if matches!(self.reading, Reading::Empty) {
            self.reading = Reading::Text(Box::new(TextStream::new(
                Arc::clone(&self.tools),
                self.lookup.clone(),
                self.reasoning,
            )));
        }
        match &mut self.reading {
            Reading::Text(stream) => Some(stream),
            _ => None,
        }
    }

    /// Takes in a piece of text; returns what it decided.
    pub fn feed_text(&mut self, delta: &str) -> std::vec::Drain<'_, StreamEvent> {
        let mut events = std::mem::take(&mut self.events);
        if let Some(stream) = self.text() {
            stream.feed(delta, &mut events);
        }
        self.events = events;
        self.events.drain(..)
    }

    /// Takes in raw bytes of UTF-8 text, which may end inside a character; returns what
    /// they decided.
    pub fn feed_bytes(&mut self, delta: &[u8]) -> std::vec::Drain<'_, StreamEvent> {
        let mut events = std::mem::take(&mut self.events);
        if let Some(stream) = self.text() {
            stream.feed_bytes(delta, &mut events);
        }
        self.events = events;
        self.events.drain(..)
    }

    /// Takes in one event of a provider's stream — an OpenAI chat-completion chunk, an
    /// OpenAI Responses event, an Anthropic message event, a Gemini streamed response, an
    /// AWS Bedrock ConverseStream event (`{"contentBlockDelta": {…}}` as the AWS SDKs give
    /// it, or the bare payload of its event-stream frame), an Ollama `/api/chat` chunk or
    /// a Cohere v2 chat event — as the provider sent it; returns what it decided.
    pub fn feed_event(&mut self, event: &Value) -> std::vec::Drain<'_, StreamEvent> {
        if matches!(self.reading, Reading::Empty) {
            self.reading = Reading::Native(Box::new(NativeStream::new(
                Arc::clone(&self.tools),
                self.lookup.clone(),
            )));
        }
        if let Reading::Native(stream) = &mut self.reading {
            stream.feed(event, &mut self.events);
        }
        self.events.drain(..)
    }

    /// Takes in a delta of any kind, such as one of a client's
    /// `TurnStream` (mcs-llm).
    pub fn feed<'d>(&mut self, delta: impl Into<Delta<'d>>) -> std::vec::Drain<'_, StreamEvent> {
        match delta.into() {
            Delta::Text(text) => self.feed_text(text),
            Delta::Bytes(bytes) => self.feed_bytes(bytes),
            Delta::Event(event) => self.feed_event(event),
            Delta::Message(message) => {
                if matches!(self.reading, Reading::Empty) {
                    self.reading = Reading::Message(message.clone());
                }
                self.events.drain(..)
            }
        }
    }

    /// Ends the stream: the events still to come, every call of the whole output, and the
    /// output itself.
    pub fn finish(mut self) -> StreamEnd {
        let mut events = std::mem::take(&mut self.events);
        let (extraction, output) = match std::mem::replace(&mut self.reading, Reading::Empty) {
            Reading::Empty => (Extraction::default(), StreamOutput::Text(String::new())),
            Reading::Text(mut stream) => {
                let extraction = stream.finish(&mut events);
                (extraction, StreamOutput::Text(stream.text().to_owned()))
            }
            Reading::Native(mut stream) => {
                let (message, extraction) = stream.finish(&mut events);
                (extraction, StreamOutput::Message(message))
            }
            Reading::Message(message) => {
                let index = self.lookup.as_deref().map(|l| l as crate::ToolIndex<'_>);
                let extraction = match index {
                    Some(index) => crate::extract_indexed((&message).into(), &self.tools, index),
                    None => crate::extract((&message).into(), &self.tools),
                };
                push_text(&mut events, StreamEvent::Text, &message_text(&message));
                push_calls(&mut events, &extraction);
                (extraction, StreamOutput::Message(message))
            }
        };
        StreamEnd {
            events,
            extraction,
            output,
        }
    }
}
