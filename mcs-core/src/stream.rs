//! What a stream says and is told: its events, the pieces it takes in, its options and
//! what it ends with. Plain data, below everything that streams.

use serde_json::Value;

use std::sync::Arc;

use crate::call::{FoundCall, MalformedCall, ReasoningStart};
use crate::types::ToolCallRecord;

/// A driver's index of its tools by name (see
/// [`ToolDriver::tool_position`](crate::ToolDriver::tool_position)), so that reading an
/// output costs the same for 1,000 tools as for 10.
pub type ToolLookup = Arc<dyn Fn(&str) -> Option<usize> + Send + Sync>;

/// Something a `StreamReader` (mcs-extract) or a driver's stream decided.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum StreamEvent {
    /// Text of the answer: what a UI shows.
    Text(String),
    /// Text of the model's reasoning.
    Reasoning(String),
    /// The text shown so far (every [`Text`](Self::Text) event until now) was reasoning:
    /// the output's first reasoning marker was a closer without an opener
    /// ([`ReasoningStart::Auto`]). A [`Reasoning`](Self::Reasoning) event with that text
    /// follows; calls begun before it were drafts.
    TextWasReasoning,
    /// A call has begun: its tool's name is written. `index` counts the calls (and broken
    /// calls) of the output from 0.
    CallBegun {
        /// The call's place among the output's calls.
        index: usize,
        /// The tool's name, as written.
        name: String,
    },
    /// A call is complete. Its arguments are not validated yet: a driver validates them
    /// against the tool's schema before it runs the call.
    Call {
        /// The call's place among the output's calls.
        index: usize,
        /// The call.
        call: FoundCall,
    },
    /// A call that cannot be read, or that the output ended inside of.
    CallFailed {
        /// The call's place among the output's calls.
        index: usize,
        /// What is wrong with it.
        call: MalformedCall,
    },
    /// A call a driver ran, with its result or error: as soon as it ran with
    /// [`Execution::AsCompleted`], else at the end of the stream (drivers only).
    CallResult {
        /// What the call was and what it gave.
        record: ToolCallRecord,
    },
}

/// When a driver runs the calls of a streamed output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Execution {
    /// After the stream ended, all calls in order: an output that ends cut off, or whose
    /// later text changes what an earlier part meant, has run nothing. The default.
    #[default]
    AfterStream,
    /// Each call as soon as it is complete (validated first), while the model writes on:
    /// a tool's result is ready when the output ends. A call is complete only once its
    /// delimiter or JSON value is closed, so nothing cut off runs; but a later part of the
    /// output (another call, or an answer saying the call was a mistake) can no longer
    /// stop it.
    AsCompleted,
}

/// How a driver reads a streamed output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StreamOptions {
    /// Where the model's output starts (see the [module docs](super)).
    pub reasoning: ReasoningStart,
    /// When calls run.
    pub execution: Execution,
}

impl StreamOptions {
    /// Sets where the output starts.
    #[must_use]
    pub fn reasoning(mut self, reasoning: ReasoningStart) -> Self {
        self.reasoning = reasoning;
        self
    }

    /// Sets when calls run.
    #[must_use]
    pub fn execution(mut self, execution: Execution) -> Self {
        self.execution = execution;
        self
    }
}

/// One piece of a streamed output, as a driver takes it in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Delta<'d> {
    /// A piece of text.
    Text(&'d str),
    /// Raw bytes of UTF-8 text, which may end inside a character.
    Bytes(&'d [u8]),
    /// One event of a provider's stream (see `StreamReader::feed_event` in mcs-extract).
    Event(&'d Value),
    /// A whole provider message, from a client that does not stream.
    Message(&'d Value),
}

impl<'d> From<&'d str> for Delta<'d> {
    fn from(text: &'d str) -> Self {
        Delta::Text(text)
    }
}

/// The whole output a stream held, as [`process_llm_response`](crate::Driver::process_llm_response)
/// takes it.
#[derive(Clone, Debug, PartialEq)]
pub enum StreamOutput {
    /// The text the deltas made up.
    Text(String),
    /// The provider message the events (or a whole message) made up.
    Message(Value),
}

/// Adds a text or reasoning event, joined to the last one when that is of the same kind.
#[doc(hidden)]
pub fn push_text(events: &mut Vec<StreamEvent>, make: fn(String) -> StreamEvent, text: &str) {
    if text.is_empty() {
        return;
    }
    match (events.last_mut(), make(String::new())) {
        (Some(StreamEvent::Text(last)), StreamEvent::Text(_))
        | (Some(StreamEvent::Reasoning(last)), StreamEvent::Reasoning(_)) => last.push_str(text),
        _ => events.push(make(text.to_owned())),
    }
}
