//! The conversation loop of the standard (Phase C), bounded: send the history, let the
//! drivers look at the answer, append what they return, go again, until the model answers
//! without a tool call — or a cap is reached.

use serde_json::{Value, json};

use super::client::{LlmClient, LlmError};
use crate::driver::Driver;
use crate::types::ToolCallRecord;

/// A conversation between one model and one driver, or several chained.
///
/// With several drivers, each answer is offered to them in order and the first that claims
/// it (returns a non-empty response) handles it: the pass-through rule of the standard. An
/// answer that calls tools of two different drivers is handled by the first one only; put
/// such drivers behind an orchestrator instead.
pub struct Conversation<'d> {
    drivers: Vec<&'d dyn Driver>,
    max_rounds: usize,
    max_retries: usize,
}

/// Why the loop stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The model answered without a tool call.
    Answered,
    /// The model was asked as many times as allowed.
    RoundLimit,
    /// The model's calls failed as many times in a row as allowed.
    RetryLimit,
}

/// What happened in a conversation.
#[derive(Clone, Debug, PartialEq)]
pub struct Transcript {
    /// The whole history: what was sent in, and every message added by the loop.
    pub messages: Vec<Value>,
    /// The model's final answer, when it gave one.
    pub answer: Option<String>,
    /// How many times the model was asked.
    pub rounds: usize,
    /// Every tool call made, in order, with its outcome.
    pub tool_calls: Vec<ToolCallRecord>,
    /// Why the loop stopped.
    pub stop: StopReason,
}

impl Transcript {
    /// One line for logs: rounds, calls, failed calls and why the loop stopped.
    pub fn summary(&self) -> String {
        let failed = self.tool_calls.iter().filter(|c| c.error.is_some()).count();
        format!(
            "{} model round(s), {} tool call(s), {failed} failed; stopped: {:?}",
            self.rounds,
            self.tool_calls.len(),
            self.stop
        )
    }
}

/// The conversation as a reader follows it: each message as `[role]` and its text (the
/// system prompt cut to its first line and its length), then the [summary](Transcript::summary).
impl std::fmt::Display for Transcript {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for message in &self.messages {
            let role = message.get("role").and_then(Value::as_str).unwrap_or("?");
            let content = match message.get("content") {
                Some(Value::String(text)) => text.clone(),
                Some(other) => other.to_string(),
                None => message.to_string(),
            };
            if role == "system" {
                let first = content.lines().next().unwrap_or_default();
                writeln!(f, "[system]\n{first} … ({} characters)\n", content.len())?;
            } else {
                writeln!(f, "[{role}]\n{content}\n")?;
            }
        }
        write!(f, "---\n{}", self.summary())
    }
}

impl<'d> Conversation<'d> {
    /// A conversation with one driver; at most 8 rounds and 2 failed calls in a row.
    pub fn new(driver: &'d dyn Driver) -> Self {
        Self::chained([driver])
    }

    /// A conversation with drivers chained in this order.
    pub fn chained(drivers: impl IntoIterator<Item = &'d dyn Driver>) -> Self {
        Conversation {
            drivers: drivers.into_iter().collect(),
            max_rounds: 8,
            max_retries: 2,
        }
    }

    /// How many times the model may be asked.
    #[must_use]
    pub fn max_rounds(mut self, rounds: usize) -> Self {
        self.max_rounds = rounds;
        self
    }

    /// How many failed calls in a row are given another chance.
    #[must_use]
    pub fn max_retries(mut self, retries: usize) -> Self {
        self.max_retries = retries;
        self
    }

    /// The system prompt: each driver's, in order.
    pub fn system_prompt(&self, model: Option<&str>) -> String {
        let prompts: Vec<String> = self
            .drivers
            .iter()
            .map(|driver| driver.get_driver_system_message(model))
            .collect();
        prompts.join("\n\n")
    }

    /// The opening messages: the system prompt for `model`, then the user's request.
    pub fn opening(&self, model: Option<&str>, user: &str) -> Vec<Value> {
        vec![
            json!({"role": "system", "content": self.system_prompt(model)}),
            json!({"role": "user", "content": user}),
        ]
    }

    /// Runs the loop from `messages` until the model answers or a cap is reached.
    pub async fn run(
        &self,
        client: &dyn LlmClient,
        mut messages: Vec<Value>,
    ) -> Result<Transcript, LlmError> {
        let mut rounds = 0;
        let mut failures_in_a_row = 0;
        let mut tool_calls = Vec::new();
        let stop = loop {
            if rounds >= self.max_rounds {
                break StopReason::RoundLimit;
            }
            let turn = client.complete(&messages).await?;
            rounds += 1;
            let mut claimed = None;
            for driver in &self.drivers {
                let response = driver.process_llm_response(turn.as_response()).await;
                if !response.is_empty() {
                    claimed = Some(response);
                    break;
                }
            }
            let Some(response) = claimed else {
                messages.push(turn.to_message());
                return Ok(Transcript {
                    messages,
                    answer: Some(turn.text()),
                    rounds,
                    tool_calls,
                    stop: StopReason::Answered,
                });
            };
            match response.messages {
                Some(added) => messages.extend(added),
                None => messages.push(turn.to_message()),
            }
            tool_calls.extend(response.executed_calls);
            if response.call_failed && !response.call_executed {
                failures_in_a_row += 1;
                if failures_in_a_row > self.max_retries {
                    break StopReason::RetryLimit;
                }
            } else {
                failures_in_a_row = 0;
            }
        };
        Ok(Transcript {
            messages,
            answer: None,
            rounds,
            tool_calls,
            stop,
        })
    }
}
