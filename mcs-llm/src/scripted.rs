//! A model that answers from a script: for tests, examples, and runs without a server.

use std::sync::Mutex;

use serde_json::Value;

use super::client::{LlmClient, LlmError, ModelTurn, TurnDelta, TurnStream, listed};
use mcs_core::BoxFuture;

/// Answers with the turns it was given, in order, and remembers what it was sent.
///
/// Asked to [`stream`](LlmClient::stream), it hands over a text turn as one
/// [`TurnDelta::Text`], or in pieces of [`with_chunk_size`](Self::with_chunk_size) bytes,
/// and a native turn as one [`TurnDelta::Message`]. A script made with
/// [`streamed`](Self::streamed) streams its deltas exactly as written, provider events
/// included.
#[derive(Debug)]
pub struct ScriptedClient {
    model: Option<String>,
    turns: Vec<ScriptedTurn>,
    chunk_size: Option<usize>,
    state: Mutex<ScriptState>,
}

/// One answer of the script.
#[derive(Clone, Debug)]
enum ScriptedTurn {
    /// A whole turn, streamed in pieces if asked to.
    Whole(ModelTurn),
    /// The deltas of a streamed turn, as they are to arrive.
    Streamed(Vec<TurnDelta>),
}

#[derive(Debug, Default)]
struct ScriptState {
    next: usize,
    requests: Vec<Vec<Value>>,
}

impl ScriptedClient {
    /// A client that answers with `turns`, one per request.
    pub fn new(turns: impl IntoIterator<Item = ModelTurn>) -> Self {
        Self::of(turns.into_iter().map(ScriptedTurn::Whole).collect())
    }

    /// A client that answers with these texts.
    pub fn from_texts<S: Into<String>>(texts: impl IntoIterator<Item = S>) -> Self {
        Self::new(texts.into_iter().map(|text| ModelTurn::Text(text.into())))
    }

    /// A client whose turns stream as these deltas, one list per request, handed over as
    /// they are (whatever [`with_chunk_size`](Self::with_chunk_size) says): the way to
    /// script a provider's native stream ([`TurnDelta::Event`]s) or text cut at chosen
    /// places.
    ///
    /// Asked to [`complete`](LlmClient::complete) instead, it answers a turn of text
    /// deltas with their text joined ([`ModelTurn::Text`]); a turn with an event or a
    /// message among its deltas has no whole form here, and answers [`LlmError::Config`].
    pub fn streamed(turns: impl IntoIterator<Item = Vec<TurnDelta>>) -> Self {
        Self::of(turns.into_iter().map(ScriptedTurn::Streamed).collect())
    }

    fn of(turns: Vec<ScriptedTurn>) -> Self {
        ScriptedClient {
            model: None,
            turns,
            chunk_size: None,
            state: Mutex::new(ScriptState::default()),
        }
    }

    /// Names the model it pretends to be, so drivers pick that model's prompt.
    #[must_use]
    pub fn with_model(mut self, model: impl Into<String>) -> Self {
        self.model = Some(model.into());
        self
    }

    /// Streams text turns in pieces of at most `bytes` bytes, cut at character boundaries;
    /// a character longer than that is a piece of its own, so every piece holds at least
    /// one. Without it a text turn streams as one piece. Native turns and
    /// [`streamed`](Self::streamed) scripts are not cut.
    #[must_use]
    pub fn with_chunk_size(mut self, bytes: usize) -> Self {
        self.chunk_size = Some(bytes);
        self
    }

    /// Every conversation it was sent, in order.
    pub fn requests(&self) -> Vec<Vec<Value>> {
        self.lock().requests.clone()
    }

    /// How many scripted turns are left.
    pub fn remaining(&self) -> usize {
        self.turns.len().saturating_sub(self.lock().next)
    }

    /// Records the request and takes the next turn of the script.
    fn next_turn(&self, messages: &[Value]) -> Result<ScriptedTurn, LlmError> {
        let mut state = self.lock();
        state.requests.push(messages.to_vec());
        let turn = self.turns.get(state.next).cloned();
        state.next += 1;
        turn.ok_or(LlmError::ScriptExhausted(self.turns.len()))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, ScriptState> {
        // The state is two plain fields, consistent at every point a panic could occur.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl LlmClient for ScriptedClient {
    fn model(&self) -> Option<&str> {
        self.model.as_deref()
    }

    fn complete<'a>(&'a self, messages: &'a [Value]) -> BoxFuture<'a, Result<ModelTurn, LlmError>> {
        let turn = self.next_turn(messages).and_then(|turn| match turn {
            ScriptedTurn::Whole(turn) => Ok(turn),
            ScriptedTurn::Streamed(deltas) => joined_text(deltas),
        });
        Box::pin(async move { turn })
    }

    fn stream<'a>(
        &'a self,
        messages: &'a [Value],
    ) -> BoxFuture<'a, Result<TurnStream<'a>, LlmError>> {
        let deltas = self.next_turn(messages).map(|turn| match turn {
            ScriptedTurn::Whole(ModelTurn::Text(text)) => match self.chunk_size {
                Some(bytes) => pieces(&text, bytes),
                None => vec![TurnDelta::Text(text)],
            },
            ScriptedTurn::Whole(ModelTurn::Native(message)) => vec![TurnDelta::Message(message)],
            ScriptedTurn::Streamed(deltas) => deltas,
        });
        Box::pin(async move { deltas.map(listed) })
    }
}

/// The text of a turn scripted as text deltas.
fn joined_text(deltas: Vec<TurnDelta>) -> Result<ModelTurn, LlmError> {
    let mut text = String::new();
    for delta in deltas {
        match delta {
            TurnDelta::Text(piece) => text.push_str(&piece),
            TurnDelta::Event(_) | TurnDelta::Message(_) => {
                return Err(LlmError::Config("this scripted turn only streams".into()));
            }
        }
    }
    Ok(ModelTurn::Text(text))
}

/// `text` cut into pieces of at most `bytes` bytes at character boundaries, at least one
/// character each.
fn pieces(text: &str, bytes: usize) -> Vec<TurnDelta> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while let Some(first) = rest.chars().next() {
        let mut end = bytes.min(rest.len());
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        // A character longer than `bytes` leaves nothing before the boundary: it goes alone.
        let end = end.max(first.len_utf8());
        let (piece, after) = rest.split_at(end);
        pieces.push(TurnDelta::Text(piece.to_owned()));
        rest = after;
    }
    pieces
}
