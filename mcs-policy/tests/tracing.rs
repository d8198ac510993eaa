//! Every call is an `execute_tool` span with the OpenTelemetry GenAI attributes, every
//! decision an event, and no secret appears in any of them: a subscriber of our own
//! captures every span and event field as text, and the test searches it.

mod common;

use std::collections::HashMap;
use std::fmt::Debug;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use mcs::ToolDriver;
use mcs_policy::{ApprovalRequest, Decision, Policy};
use serde_json::json;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

use common::{process_text, repos, text_call};

const SECRET: &str = "hunter2-secret";

/// One span: its name and every field recorded on it, as text.
#[derive(Clone, Debug, Default)]
struct CapturedSpan {
    name: String,
    fields: HashMap<String, String>,
}

#[derive(Default)]
struct Captured {
    spans: HashMap<u64, CapturedSpan>,
    /// Each span's metadata, for `current_span`.
    metadata: HashMap<u64, &'static Metadata<'static>>,
    /// Each event's fields, with the id of its parent span.
    events: Vec<(Option<u64>, HashMap<String, String>)>,
}

/// A subscriber that keeps everything.
#[derive(Clone, Default)]
struct Capture {
    captured: Arc<Mutex<Captured>>,
    next: Arc<AtomicU64>,
}

struct Fields<'a>(&'a mut HashMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, attributes: &Attributes<'_>) -> Id {
        let id = self.next.fetch_add(1, Ordering::SeqCst) + 1;
        let mut span = CapturedSpan {
            name: attributes.metadata().name().to_owned(),
            ..CapturedSpan::default()
        };
        attributes.record(&mut Fields(&mut span.fields));
        let mut captured = self.captured.lock().unwrap();
        captured.spans.insert(id, span);
        captured.metadata.insert(id, attributes.metadata());
        Id::from_u64(id)
    }

    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut captured = self.captured.lock().unwrap();
        if let Some(span) = captured.spans.get_mut(&span.into_u64()) {
            values.record(&mut Fields(&mut span.fields));
        }
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut fields = HashMap::new();
        event.record(&mut Fields(&mut fields));
        let parent = event.parent().map(Id::into_u64);
        self.captured.lock().unwrap().events.push((parent, fields));
    }

    // The spans entered on this thread, innermost last: what `Span::current` reads (a layer
    // that joins a span already open for the call needs it, as tracing-subscriber has it).
    fn enter(&self, span: &Id) {
        ENTERED.with(|entered| entered.borrow_mut().push(span.into_u64()));
    }

    fn exit(&self, span: &Id) {
        ENTERED.with(|entered| {
            let mut entered = entered.borrow_mut();
            if let Some(at) = entered.iter().rposition(|id| *id == span.into_u64()) {
                entered.remove(at);
            }
        });
    }

    fn current_span(&self) -> tracing_core::span::Current {
        let Some(id) = ENTERED.with(|entered| entered.borrow().last().copied()) else {
            return tracing_core::span::Current::none();
        };
        match self.captured.lock().unwrap().metadata.get(&id) {
            Some(metadata) => tracing_core::span::Current::new(Id::from_u64(id), metadata),
            None => tracing_core::span::Current::none(),
        }
    }
}

thread_local! {
    static ENTERED: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Capture {
    /// Everything captured, as one text to search.
    fn all_text(&self) -> String {
        let captured = self.captured.lock().unwrap();
        let mut text = String::new();
        for span in captured.spans.values() {
            text.push_str(&format!("{span:?}\n"));
        }
        for event in &captured.events {
            text.push_str(&format!("{event:?}\n"));
        }
        text
    }

    fn spans(&self) -> Vec<CapturedSpan> {
        let captured = self.captured.lock().unwrap();
        let mut ids: Vec<&u64> = captured.spans.keys().collect();
        ids.sort();
        ids.into_iter()
            .map(|id| captured.spans[id].clone())
            .collect()
    }

    /// The `decision` of the events of the span named `otel_name`.
    fn decisions(&self, otel_name: &str) -> Vec<String> {
        let captured = self.captured.lock().unwrap();
        let ids: Vec<u64> = captured
            .spans
            .iter()
            .filter(|(_, span)| span.fields.get("otel.name").map(String::as_str) == Some(otel_name))
            .map(|(id, _)| *id)
            .collect();
        captured
            .events
            .iter()
            .filter(|(parent, _)| parent.is_some_and(|p| ids.contains(&p)))
            .filter_map(|(_, fields)| fields.get("decision").cloned())
            .collect()
    }
}

#[tokio::test(flavor = "current_thread")]
async fn spans_carry_the_genai_attributes_and_no_secret() {
    let capture = Capture::default();
    let _default = tracing::subscriber::set_default(capture.clone());

    let (driver, _log) = repos();
    let asked = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&asked);
    let guarded = Policy::new()
        .approve_tools(["login", "delete_repo"])
        .approver(move |request: ApprovalRequest| {
            kept.lock().unwrap().push(request.arguments.clone());
            let decision = if request.tool.name() == "login" {
                Decision::Approve
            } else {
                Decision::decline(format!("not with {SECRET} in it"))
            };
            async move { decision }
        })
        .redact_value(SECRET)
        .trace_content(true)
        .wrap(driver);

    // A password argument (by key), a session token in the result (by key, and the
    // literal inside it).
    let result = guarded
        .execute_tool("login", json!({"user": "ada", "password": SECRET}))
        .await
        .unwrap();
    assert!(result["session_token"].as_str().unwrap().contains(SECRET));
    // A key in an argument of another name, echoed in the tool's error message.
    let error = guarded
        .execute_tool("push", json!({"api_key": SECRET}))
        .await
        .unwrap_err();
    assert!(
        error.to_string().contains(SECRET),
        "the model sees the real text"
    );
    // The secret in a text call, and in an approver's reason.
    let text = text_call("delete_repo", json!({"name": format!("repo-{SECRET}")}));
    let response = process_text(&guarded, &text).await;
    assert!(response.call_failed);

    let all = capture.all_text();
    assert!(!all.contains(SECRET), "a secret reached a trace:\n{all}");
    assert!(
        !all.contains("hunter2"),
        "part of a secret reached a trace:\n{all}"
    );
    assert!(all.contains("[REDACTED]"), "{all}");

    // The approver saw the arguments redacted too.
    let asked = asked.lock().unwrap();
    assert_eq!(asked[0], json!({"user": "ada", "password": "[REDACTED]"}));
    assert_eq!(asked[1], json!({"name": "repo-[REDACTED]"}));

    // One span per call, named and attributed per the OpenTelemetry GenAI conventions.
    let spans = capture.spans();
    assert_eq!(spans.len(), 3, "{spans:#?}");
    for (span, tool) in spans.iter().zip(["login", "push", "delete_repo"]) {
        assert_eq!(span.name, "execute_tool");
        let field = |name: &str| span.fields.get(name).map(String::as_str);
        assert_eq!(
            field("otel.name"),
            Some(format!("execute_tool {tool}").as_str())
        );
        assert_eq!(field("gen_ai.operation.name"), Some("execute_tool"));
        assert_eq!(field("gen_ai.tool.name"), Some(tool));
        assert_eq!(field("mcs.driver.id"), Some(guarded.meta().id.as_str()));
        assert!(field("gen_ai.tool.call.arguments").is_some(), "{span:?}");
    }
    let field = |index: usize, name: &str| spans[index].fields.get(name).cloned();
    assert_eq!(
        field(0, "gen_ai.tool.call.arguments").as_deref(),
        Some(r#"{"user":"ada","password":"[REDACTED]"}"#)
    );
    assert_eq!(field(0, "error.type"), None);
    assert!(
        field(0, "gen_ai.tool.call.result")
            .unwrap()
            .contains(r#""session_token":"[REDACTED]""#)
    );
    assert_eq!(field(1, "error.type").as_deref(), Some("execution"));
    assert_eq!(field(1, "otel.status_code").as_deref(), Some("ERROR"));
    assert_eq!(field(2, "error.type").as_deref(), Some("declined"));

    // The decisions, as events of their call's span.
    assert_eq!(
        capture.decisions("execute_tool login"),
        ["approval_requested", "approved"]
    );
    assert_eq!(
        capture.decisions("execute_tool delete_repo"),
        ["approval_requested", "declined"]
    );
    assert!(capture.decisions("execute_tool push").is_empty());
}

#[tokio::test(flavor = "current_thread")]
async fn content_is_not_traced_unless_asked() {
    let capture = Capture::default();
    let _default = tracing::subscriber::set_default(capture.clone());
    let (driver, _log) = repos();
    let guarded = Policy::new().wrap(driver);
    guarded
        .execute_tool("login", json!({"user": "ada", "password": SECRET}))
        .await
        .unwrap();
    let spans = capture.spans();
    assert_eq!(spans.len(), 1);
    assert!(!spans[0].fields.contains_key("gen_ai.tool.call.arguments"));
    assert!(!spans[0].fields.contains_key("gen_ai.tool.call.result"));
    assert!(!capture.all_text().contains(SECRET));
}
