//! The conversation loop of the standard (Phase C), bounded: send the history, let the
//! drivers look at the answer, append what they return, go again, until the model answers
//! without a tool call — or a cap is reached.

use serde_json::{Value, json};

use super::client::{LlmClient, LlmError, ModelTurn, message_text};
use mcs_core::stream::{Execution, StreamEvent, StreamOptions, StreamOutput};
use mcs_core::{Driver, LlmResponse};
use mcs_core::{DriverResponse, ToolCallRecord};

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
        messages: Vec<Value>,
    ) -> Result<Transcript, LlmError> {
        self.run_with(client, messages, None).await
    }

    /// Runs the loop with the model's answers streamed: `on_event` hears, as they happen,
    /// each round's start, what the drivers decide while the model writes (text, reasoning,
    /// calls begun and complete — see [`StreamEvent`]) and each call's result. The
    /// transcript is what [`run`](Self::run) gives for the same answers.
    ///
    /// With several drivers, every driver reads the stream and the first that claims the
    /// answer at its end handles it; only the first driver's events are heard while the
    /// model writes, and only it runs calls as they complete, when `options` ask for that.
    /// A stream that breaks off ends the loop with the error: a call cut off by it never
    /// runs.
    pub async fn run_streaming(
        &self,
        client: &dyn LlmClient,
        messages: Vec<Value>,
        options: StreamOptions,
        on_event: &mut (dyn FnMut(ConversationEvent) + Send),
    ) -> Result<Transcript, LlmError> {
        self.run_with(client, messages, Some((options, on_event)))
            .await
    }

    async fn run_with(
        &self,
        client: &dyn LlmClient,
        mut messages: Vec<Value>,
        mut streaming: Option<(StreamOptions, &mut (dyn FnMut(ConversationEvent) + Send))>,
    ) -> Result<Transcript, LlmError> {
        let mut rounds = 0;
        let mut failures_in_a_row = 0;
        let mut tool_calls = Vec::new();
        let stop = loop {
            if rounds >= self.max_rounds {
                break StopReason::RoundLimit;
            }
            rounds += 1;
            let (output, claimed) = match &mut streaming {
                None => {
                    let turn = client.complete(&messages).await?;
                    let output = match turn {
                        ModelTurn::Text(text) => StreamOutput::Text(text),
                        ModelTurn::Native(message) => StreamOutput::Message(message),
                    };
                    let claimed = self.claim(output.as_response()).await;
                    (output, claimed)
                }
                Some((options, on_event)) => {
                    on_event(ConversationEvent::Round(rounds));
                    self.streamed_round(client, &messages, *options, &mut **on_event)
                        .await?
                }
            };
            let Some(response) = claimed else {
                messages.push(assistant_message(&output));
                return Ok(Transcript {
                    messages,
                    answer: Some(output_text(&output)),
                    rounds,
                    tool_calls,
                    stop: StopReason::Answered,
                });
            };
            match response.messages {
                Some(added) => messages.extend(added),
                None => messages.push(assistant_message(&output)),
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

    /// The first driver's answer that is not empty, in order: the pass-through rule.
    async fn claim(&self, response: LlmResponse<'_>) -> Option<DriverResponse> {
        for driver in &self.drivers {
            let response = driver.process_llm_response(response).await;
            if !response.is_empty() {
                return Some(response);
            }
        }
        None
    }

    /// One round with the answer streamed to every driver.
    async fn streamed_round(
        &self,
        client: &dyn LlmClient,
        messages: &[Value],
        options: StreamOptions,
        on_event: &mut (dyn FnMut(ConversationEvent) + Send),
    ) -> Result<(StreamOutput, Option<DriverResponse>), LlmError> {
        let mut turn = client.stream(messages).await?;
        let mut streams: Vec<_> = self
            .drivers
            .iter()
            .enumerate()
            .map(|(index, driver)| {
                // Only the first driver may run calls before the answer is whole: another
                // driver's claim comes only after it passed.
                let options = if index == 0 {
                    options
                } else {
                    options.execution(Execution::AfterStream)
                };
                driver.process_llm_stream(options)
            })
            .collect();
        while let Some(delta) = std::future::poll_fn(|cx| turn.as_mut().poll_next(cx)).await {
            let delta = delta?;
            for (index, stream) in streams.iter_mut().enumerate() {
                let events = stream.feed(&delta).await;
                if index == 0 {
                    events
                        .into_iter()
                        .map(ConversationEvent::Stream)
                        .for_each(&mut *on_event);
                }
            }
        }
        let mut output = None;
        let mut claimed = None;
        for (index, stream) in streams.into_iter().enumerate() {
            let end = stream.finish().await;
            let claims = claimed.is_none() && !end.response.is_empty();
            // The first driver's last events are heard; of a later one, only the results
            // of the calls it claimed.
            for event in end.events {
                if index == 0 || (claims && matches!(event, StreamEvent::CallResult { .. })) {
                    on_event(ConversationEvent::Stream(event));
                }
            }
            if claims {
                claimed = Some(end.response);
            }
            output.get_or_insert(end.output);
        }
        let output = output.unwrap_or_else(|| StreamOutput::Text(String::new()));
        Ok((output, claimed))
    }
}

/// What a streaming conversation reports as it goes.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
// Events are made one at a time and handed over at once: boxing the large one would cost
// an allocation per event for nothing.
#[allow(clippy::large_enum_variant)]
pub enum ConversationEvent {
    /// The model is asked again: round `n`, counted from 1.
    Round(usize),
    /// Something decided in the model's streamed answer, or a call's result.
    Stream(StreamEvent),
}

/// The assistant message that records `output` in the history.
fn assistant_message(output: &StreamOutput) -> Value {
    match output {
        StreamOutput::Text(text) => json!({"role": "assistant", "content": text}),
        StreamOutput::Message(message) => message.clone(),
    }
}

/// The text of an answer.
fn output_text(output: &StreamOutput) -> String {
    match output {
        StreamOutput::Text(text) => text.clone(),
        StreamOutput::Message(message) => message_text(message),
    }
}
