//! The conversation loop of the standard (Phase C), bounded: send the history, let the
//! driver look at the answer, append what it returns, go again, until the model answers
//! without a tool call — or a cap is reached.

use serde_json::{Value, json};

use super::client::{LlmClient, LlmError, ModelTurn, message_text};
use mcs_core::stream::{StreamEvent, StreamOptions, StreamOutput};
use mcs_core::{Driver, DriverResponse, ToolCallRecord};

/// A conversation between one model and one driver.
///
/// For several drivers, register them with an `Orchestrator` (mcs-orchestrator) and
/// converse with it: it is a driver too, routes every call of an answer to the driver that
/// owns it (an answer may call tools of several), and decides what a name two drivers
/// share means.
pub struct Conversation<'d> {
    driver: &'d dyn Driver,
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
    /// A conversation with `driver`; at most 8 rounds and 2 failed calls in a row.
    pub fn new(driver: &'d dyn Driver) -> Self {
        Conversation {
            driver,
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

    /// The system prompt: the driver's, for `model`.
    pub fn system_prompt(&self, model: Option<&str>) -> String {
        self.driver.get_driver_system_message(model)
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
    /// each round's start, what the driver decides while the model writes (text, reasoning,
    /// calls begun and complete — see [`StreamEvent`]) and each call's result. The
    /// transcript is what [`run`](Self::run) gives for the same answers.
    ///
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
            let (output, response) = match &mut streaming {
                None => {
                    let turn = client.complete(&messages).await?;
                    let output = match turn {
                        ModelTurn::Text(text) => StreamOutput::Text(text),
                        ModelTurn::Native(message) => StreamOutput::Message(message),
                    };
                    let response = self.driver.process_llm_response(output.as_response()).await;
                    (output, response)
                }
                Some((options, on_event)) => {
                    on_event(ConversationEvent::Round(rounds));
                    self.streamed_round(client, &messages, *options, &mut **on_event)
                        .await?
                }
            };
            if response.is_empty() {
                messages.push(assistant_message(&output));
                return Ok(Transcript {
                    messages,
                    answer: Some(output_text(&output)),
                    rounds,
                    tool_calls,
                    stop: StopReason::Answered,
                });
            }
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

    /// One round with the answer streamed to the driver.
    async fn streamed_round(
        &self,
        client: &dyn LlmClient,
        messages: &[Value],
        options: StreamOptions,
        on_event: &mut (dyn FnMut(ConversationEvent) + Send),
    ) -> Result<(StreamOutput, DriverResponse), LlmError> {
        let mut turn = client.stream(messages).await?;
        let mut stream = self.driver.process_llm_stream(options);
        while let Some(delta) = std::future::poll_fn(|cx| turn.as_mut().poll_next(cx)).await {
            let events = stream.feed(&delta?).await;
            events
                .into_iter()
                .map(ConversationEvent::Stream)
                .for_each(&mut *on_event);
        }
        let end = stream.finish().await;
        end.events
            .into_iter()
            .map(ConversationEvent::Stream)
            .for_each(&mut *on_event);
        Ok((end.output, end.response))
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
