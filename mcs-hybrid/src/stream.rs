//! `process_llm_stream`: a model's output read as it streams in, by any `ToolDriver`.

use std::sync::Arc;

use super::options::HybridOptions;
use super::outcome::Outcome;
use super::process::{Owner, SCAN_LIMIT, respond_to, run};
use mcs_core::Tool;
use mcs_core::{BoxFuture, DriverStream, StreamSession, StreamedResponse, ToolDriver};
use mcs_extract::FoundCall;
use mcs_extract::stream::{Delta, Execution, StreamEvent, StreamOptions, StreamReader};

/// Reads a model's output for `driver` as it streams in: what
/// [`Driver::process_llm_stream`](mcs_core::Driver::process_llm_stream) is for every driver
/// built on this module. Events come as the [`StreamReader`] decides them; with
/// [`Execution::AsCompleted`] each call the driver owns runs as soon as it is complete
/// (validated first) and a [`StreamEvent::CallResult`] follows it. At the end the answer is
/// what [`process_llm_response`](super::process_llm_response) gives for the whole output,
/// calls that already ran not run again.
pub fn process_llm_stream<'a, D: ToolDriver + ?Sized>(
    driver: &'a D,
    options: &'a HybridOptions,
    stream: StreamOptions,
) -> DriverStream<'a> {
    let tools = driver.list_tools();
    let mut reader = StreamReader::new(Arc::clone(&tools)).with_reasoning(stream.reasoning);
    if tools.len() > SCAN_LIMIT {
        // The driver's own name index, checked against the list the reader holds.
        let names: Arc<[Tool]> = Arc::clone(&tools);
        let positions: Vec<Option<usize>> = names
            .iter()
            .map(|tool| driver.tool_position(tool.name()))
            .collect();
        let index: std::collections::HashMap<String, usize> = names
            .iter()
            .zip(positions)
            .filter_map(|(tool, position)| position.map(|p| (tool.name().to_owned(), p)))
            .collect();
        reader = reader.with_lookup(Arc::new(move |name: &str| index.get(name).copied()));
    }
    DriverStream::new(HybridStream {
        driver,
        options,
        tools,
        reader,
        execution: stream.execution,
        ran: Vec::new(),
    })
}

struct HybridStream<'a, D: ?Sized> {
    driver: &'a D,
    options: &'a HybridOptions,
    tools: Arc<[Tool]>,
    reader: StreamReader,
    execution: Execution,
    /// Calls run while the output streamed, in order, with what became of them.
    ran: Vec<(FoundCall, Outcome)>,
}

impl<D: ToolDriver + ?Sized> HybridStream<'_, D> {
    /// Runs the calls of `events` this driver owns, when calls run as they complete; adds
    /// a `CallResult` after each.
    async fn run_completed(&mut self, events: Vec<StreamEvent>) -> Vec<StreamEvent> {
        if self.execution != Execution::AsCompleted {
            return events;
        }
        let owner = Owner::new(self.driver, self.options, &self.tools);
        let mut out = Vec::with_capacity(events.len());
        for event in events {
            let call = match &event {
                StreamEvent::Call { call, .. } if owner.owns(&self.tools, &call.name) => {
                    Some(call.clone())
                }
                _ => None,
            };
            out.push(event);
            if let Some(call) = call {
                let outcome = run(self.driver, &self.tools, call.clone()).await;
                out.push(StreamEvent::CallResult {
                    record: outcome.to_record(),
                });
                self.ran.push((call, outcome));
            }
        }
        out
    }
}

impl<'a, D: ToolDriver + ?Sized> StreamSession<'a> for HybridStream<'a, D> {
    fn feed<'s>(&'s mut self, delta: Delta<'s>) -> BoxFuture<'s, Vec<StreamEvent>> {
        let events: Vec<StreamEvent> = self.reader.feed(delta).collect();
        Box::pin(self.run_completed(events))
    }

    fn finish(self: Box<Self>) -> BoxFuture<'a, StreamedResponse> {
        Box::pin(async move {
            let mut this = *self;
            let reader = std::mem::replace(&mut this.reader, StreamReader::new(Vec::new()));
            let end = reader.finish();
            // Reading went on all along; what the event can time is the last step.
            super::process::extracted(&end.extraction, std::time::Duration::ZERO);
            let mut events = this.run_completed(end.events).await;
            let ran = std::mem::take(&mut this.ran);
            let already = ran.len();
            let response = respond_to(
                this.driver,
                this.options,
                Arc::clone(&this.tools),
                end.output.as_response(),
                end.extraction,
                ran,
            )
            .await;
            // What ran at the end is reported too, after what ran on the way.
            let ran_before = if this.execution == Execution::AsCompleted {
                already
            } else {
                0
            };
            events.extend(
                response
                    .executed_calls
                    .iter()
                    .skip(ran_before)
                    .cloned()
                    .map(|record| StreamEvent::CallResult { record }),
            );
            StreamedResponse {
                events,
                response,
                output: end.output,
            }
        })
    }
}
