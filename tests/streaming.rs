//! Drivers reading a model's output as it streams: annotated drivers, orchestrators and
//! the conversation loop; calls run as they complete when asked to, and nothing cut off
//! ever runs.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcs::extract::ReasoningStart;
use mcs::llm::{Conversation, ConversationEvent, ScriptedClient, StopReason};
use mcs::orchestrator::{ConflictPolicy, Orchestrator, Registration};
use mcs::stream::{Execution, StreamEvent, StreamOptions};
use mcs::{Driver, LlmResponse};

/// A file system double that counts what it wrote.
#[derive(Default)]
struct Disk {
    writes: AtomicUsize,
}

#[mcs::tool_driver(name = "disk")]
#[mcs::hybrid]
impl Disk {
    /// Writes `content` to the file at `path`.
    #[tool]
    fn write_file(&self, path: String, content: String) -> String {
        self.writes.fetch_add(1, Ordering::SeqCst);
        format!("wrote {} bytes to {path}", content.len())
    }
}

/// A clock.
struct Clock;

#[mcs::tool_driver(name = "clock")]
impl Clock {
    /// The time.
    #[tool]
    fn now(&self) -> &'static str {
        "12:00"
    }
}

fn eager() -> StreamOptions {
    StreamOptions::default()
        .execution(Execution::AsCompleted)
        .reasoning(ReasoningStart::Outside)
}

const CALL: &str = "<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"/tmp/x.sh\", \"content\": \"echo hi\"}}\n</tool_call>";

#[tokio::test]
async fn a_call_runs_as_soon_as_it_is_complete() {
    let disk = Disk::default();
    let mut stream = disk.process_llm_stream(eager());
    let text = format!("Writing it.\n{CALL}\nDone, I think.");
    // The end of the call's JSON value completes it (its closing tag need not come).
    let close = text.find("}}").unwrap() + 2;
    let mut before_close = Vec::new();
    for piece in text.as_bytes()[..close - 1].chunks(5) {
        before_close.extend(stream.feed_text(std::str::from_utf8(piece).unwrap()).await);
    }
    assert_eq!(disk.writes.load(Ordering::SeqCst), 0, "{before_close:#?}");
    assert!(before_close.iter().any(|event| matches!(
        event,
        StreamEvent::CallBegun { name, .. } if name == "write_file"
    )));
    // Its last brace completes the call: it runs before the model writes on.
    let at_close = stream.feed_text(&text[close - 1..close + 1]).await;
    assert_eq!(disk.writes.load(Ordering::SeqCst), 1, "{at_close:#?}");
    let result = at_close.iter().find_map(|event| match event {
        StreamEvent::CallResult { record } => record.result.clone(),
        _ => None,
    });
    assert_eq!(
        result,
        Some(serde_json::json!("wrote 7 bytes to /tmp/x.sh"))
    );
    stream.feed_text(&text[close + 1..]).await;
    let end = stream.finish().await;
    // Not run again; the answer is what the whole output gives.
    assert_eq!(disk.writes.load(Ordering::SeqCst), 1);
    let whole = Disk::default()
        .process_llm_response(LlmResponse::Text(&text))
        .await;
    assert_eq!(end.response, whole);
}

#[tokio::test]
async fn nothing_cut_off_runs() {
    for cut in [
        "<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"/tmp/x.sh\", \"content\": \"rm -rf /",
        "<tool_call>\n<function=write_file>\n<parameter=path>\n/tmp/x.sh\n</parameter>\n<parameter=content>\nrm -rf /",
        "<tool_call>\n<function=write_file>\n<parameter=path>\n/tmp/x.sh\n</parameter>\n",
        "[write_file(path=\"/tmp/x.sh\", content=\"rm -rf /",
        "<|tool_call>call:write_file{path:<|\"|>/tmp/x.sh<|\"|>,content:<|\"|>rm -rf /",
    ] {
        for execution in [Execution::AfterStream, Execution::AsCompleted] {
            let disk = Disk::default();
            let mut stream = disk.process_llm_stream(eager().execution(execution));
            for piece in cut.as_bytes().chunks(3) {
                stream.feed(mcs::stream::Delta::Bytes(piece)).await;
            }
            let end = stream.finish().await;
            assert_eq!(disk.writes.load(Ordering::SeqCst), 0, "{cut}");
            assert!(
                end.response.call_failed && !end.response.call_executed,
                "{cut}"
            );
            let retry = end.response.retry_prompt.unwrap_or_default();
            assert!(retry.contains("cut off"), "{cut}: {retry}");
        }
    }
}

#[tokio::test]
async fn an_orchestrator_routes_each_call_to_its_owner_as_it_completes() {
    let orchestrator = Orchestrator::new("office", ConflictPolicy::Reject);
    let disk = Arc::new(Disk::default());
    orchestrator
        .register(
            "disk",
            Arc::clone(&disk) as Arc<dyn mcs::ToolDriver>,
            Registration::new(),
        )
        .unwrap();
    orchestrator
        .register("clock", Arc::new(Clock), Registration::new())
        .unwrap();
    let text =
        format!("<tool_call>\n{{\"name\": \"now\", \"arguments\": {{}}}}\n</tool_call>\n{CALL}");
    let mut stream = orchestrator.process_llm_stream(eager());
    let mut events = Vec::new();
    let mut writes_seen_when_now_ran = None;
    for piece in text.as_bytes().chunks(4) {
        for event in stream.feed_text(std::str::from_utf8(piece).unwrap()).await {
            if let StreamEvent::CallResult { record } = &event
                && record.name == "now"
            {
                writes_seen_when_now_ran = Some(disk.writes.load(Ordering::SeqCst));
            }
            events.push(event);
        }
    }
    let end = stream.finish().await;
    // `now` ran while `write_file` was still being written, each by its own driver.
    assert_eq!(writes_seen_when_now_ran, Some(0), "{events:#?}");
    assert_eq!(disk.writes.load(Ordering::SeqCst), 1);
    let results: Vec<_> = events
        .iter()
        .chain(&end.events)
        .filter_map(|event| match event {
            StreamEvent::CallResult { record } => Some(record.name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(results, ["now", "write_file"]);
    assert!(end.response.call_executed && !end.response.call_failed);
    assert_eq!(end.response.executed_calls.len(), 2);
}

#[tokio::test]
async fn after_the_stream_is_the_default() {
    let disk = Disk::default();
    let mut stream = disk.process_llm_stream(StreamOptions::default());
    for piece in CALL.as_bytes().chunks(7) {
        stream.feed_text(std::str::from_utf8(piece).unwrap()).await;
    }
    assert_eq!(disk.writes.load(Ordering::SeqCst), 0);
    let end = stream.finish().await;
    assert_eq!(disk.writes.load(Ordering::SeqCst), 1);
    assert!(
        end.events
            .iter()
            .any(|event| matches!(event, StreamEvent::CallResult { .. }))
    );
}

/// The scripted model streams its answers in small pieces; the streamed conversation ends
/// as the whole one does, and says what happened on the way.
#[tokio::test]
async fn a_streamed_conversation_ends_as_the_whole_one() {
    let script = [
        format!("Let me write that.\n{CALL}"),
        "All done: the script is in /tmp/x.sh.".to_owned(),
    ];
    let whole = {
        let disk = Disk::default();
        let client = ScriptedClient::from_texts(script.clone());
        let conversation = Conversation::new(&disk);
        let opening = conversation.opening(None, "Write a script.");
        conversation.run(&client, opening).await.unwrap()
    };
    let disk = Disk::default();
    let client = ScriptedClient::from_texts(script).with_chunk_size(3);
    let conversation = Conversation::new(&disk);
    let opening = conversation.opening(None, "Write a script.");
    let mut heard = Vec::new();
    let streamed = conversation
        .run_streaming(&client, opening, eager(), &mut |event| heard.push(event))
        .await
        .unwrap();
    assert_eq!(streamed, whole);
    assert_eq!(streamed.stop, StopReason::Answered);
    let text: String = heard
        .iter()
        .filter_map(|event| match event {
            ConversationEvent::Stream(StreamEvent::Text(text)) => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        text,
        "Let me write that.\nAll done: the script is in /tmp/x.sh."
    );
    assert!(heard.contains(&ConversationEvent::Round(2)));
    let order: Vec<&str> = heard
        .iter()
        .filter_map(|event| match event {
            ConversationEvent::Stream(StreamEvent::CallBegun { .. }) => Some("begun"),
            ConversationEvent::Stream(StreamEvent::Call { .. }) => Some("call"),
            ConversationEvent::Stream(StreamEvent::CallResult { .. }) => Some("result"),
            _ => None,
        })
        .collect();
    assert_eq!(order, ["begun", "call", "result"]);
}
