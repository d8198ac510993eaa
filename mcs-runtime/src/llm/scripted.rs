//! A model that answers from a script: for tests, examples, and runs without a server.

use std::sync::Mutex;

use serde_json::Value;

use super::client::{LlmClient, LlmError, ModelTurn};
use crate::driver::BoxFuture;

/// Answers with the turns it was given, in order, and remembers what it was sent.
#[derive(Debug)]
pub struct ScriptedClient {
    model: Option<String>,
    turns: Vec<ModelTurn>,
    state: Mutex<ScriptState>,
}

#[derive(Debug, Default)]
struct ScriptState {
    next: usize,
    requests: Vec<Vec<Value>>,
}

impl ScriptedClient {
    /// A client that answers with `turns`, one per request.
    pub fn new(turns: impl IntoIterator<Item = ModelTurn>) -> Self {
        ScriptedClient {
            model: None,
            turns: turns.into_iter().collect(),
            state: Mutex::new(ScriptState::default()),
        }
    }

    /// A client that answers with these texts.
    pub fn from_texts<S: Into<String>>(texts: impl IntoIterator<Item = S>) -> Self {
        Self::new(texts.into_iter().map(|text| ModelTurn::Text(text.into())))
    }

    /// Names the model it pretends to be, so drivers pick that model's prompt.
    #[must_use]
    pub fn with_model(mut self, model: impl Into<String>) -> Self {
        self.model = Some(model.into());
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
        let mut state = self.lock();
        state.requests.push(messages.to_vec());
        let turn = self.turns.get(state.next).cloned();
        state.next += 1;
        let total = self.turns.len();
        drop(state);
        Box::pin(async move { turn.ok_or(LlmError::ScriptExhausted(total)) })
    }
}
