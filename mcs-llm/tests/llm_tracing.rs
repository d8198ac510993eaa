//! What a request to a model tells `tracing`: one `chat` client span per request, attributed
//! after OpenTelemetry's conventions for generative AI (provider, model asked and answering,
//! the answer's id, tokens in and out, finish reasons, `error.type`), for whole and streamed
//! answers of both APIs — and never the conversation or the answer's text.
#![cfg(all(feature = "openai", feature = "anthropic"))]

use std::collections::HashMap;
use std::fmt::Debug;
use std::sync::{Arc, Mutex};

use mcs_llm::{AnthropicClient, LlmClient, LlmError, OpenAiClient, TurnDelta};
use serde_json::json;
use tracing::Subscriber;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const SECRET_PROMPT: &str = "my-private-question";
const SECRET_ANSWER: &str = "the-private-answer";

/// A span's name and its fields as text.
type Named = (String, HashMap<String, String>);

/// Every span's name and fields as text, by span id, updated as fields are recorded; and
/// which spans have closed.
#[derive(Clone, Default)]
struct Spans {
    open: Arc<Mutex<HashMap<u64, Named>>>,
    closed: Arc<Mutex<Vec<u64>>>,
}

impl Spans {
    /// The fields of the only span named `chat`, and whether it has closed.
    fn chat(&self) -> (HashMap<String, String>, bool) {
        let spans = self.open.lock().unwrap();
        let chats: Vec<_> = spans
            .iter()
            .filter(|(_, (name, _))| name == "chat")
            .collect();
        assert_eq!(chats.len(), 1, "one chat span");
        let (id, (_, fields)) = chats[0];
        (fields.clone(), self.closed.lock().unwrap().contains(id))
    }
}

struct Text<'a>(&'a mut HashMap<String, String>);

impl Visit for Text<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl<S: Subscriber + for<'a> LookupSpan<'a>> tracing_subscriber::Layer<S> for Spans {
    fn on_new_span(&self, attributes: &Attributes<'_>, id: &Id, _: Context<'_, S>) {
        let mut fields = HashMap::new();
        attributes.record(&mut Text(&mut fields));
        let name = attributes.metadata().name().to_owned();
        self.open
            .lock()
            .unwrap()
            .insert(id.into_u64(), (name, fields));
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, _: Context<'_, S>) {
        if let Some((_, fields)) = self.open.lock().unwrap().get_mut(&id.into_u64()) {
            values.record(&mut Text(fields));
        }
    }

    fn on_close(&self, id: Id, _: Context<'_, S>) {
        self.closed.lock().unwrap().push(id.into_u64());
    }
}

fn field<'a>(fields: &'a HashMap<String, String>, name: &str) -> &'a str {
    fields.get(name).map_or("", String::as_str)
}

fn no_content(fields: &HashMap<String, String>) {
    let all = format!("{fields:?}");
    assert!(
        !all.contains(SECRET_PROMPT) && !all.contains(SECRET_ANSWER),
        "{all}"
    );
}

#[tokio::test]
async fn a_whole_answer_records_its_model_id_tokens_and_finish() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "chatcmpl-7",
            "model": "gpt-test-2025-01",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": SECRET_ANSWER}}],
            "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17}
        })))
        .mount(&server)
        .await;
    let spans = Spans::default();
    let _default =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(spans.clone()));
    let client = OpenAiClient::new(format!("{}/v1", server.uri()), "gpt-test").unwrap();
    client
        .complete(&[json!({"role": "user", "content": SECRET_PROMPT})])
        .await
        .unwrap();

    let (fields, closed) = spans.chat();
    assert!(closed, "the span ends with the request");
    for (name, value) in [
        ("otel.name", "chat gpt-test"),
        ("otel.kind", "client"),
        ("gen_ai.operation.name", "chat"),
        ("gen_ai.provider.name", "openai"),
        ("gen_ai.request.model", "gpt-test"),
        ("gen_ai.response.model", "gpt-test-2025-01"),
        ("gen_ai.response.id", "chatcmpl-7"),
        ("gen_ai.usage.input_tokens", "12"),
        ("gen_ai.usage.output_tokens", "5"),
        ("gen_ai.response.finish_reasons", r#"["stop"]"#),
        ("mcs.stream", "false"),
    ] {
        assert_eq!(field(&fields, name), value, "{name} in {fields:?}");
    }
    assert_eq!(field(&fields, "error.type"), "", "{fields:?}");
    no_content(&fields);
}

#[tokio::test]
async fn a_streamed_answer_records_what_its_events_say_and_ends_with_it() {
    let events = [
        json!({"type": "message_start", "message": {"id": "msg_9", "model": "claude-test-1",
               "usage": {"input_tokens": 30, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": SECRET_ANSWER}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 9}}),
        json!({"type": "message_stop"}),
    ];
    let body: String = events
        .iter()
        .map(|event| {
            format!(
                "event: {}\ndata: {event}\n\n",
                event["type"].as_str().unwrap()
            )
        })
        .collect();
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/messages"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(body, "text/event-stream"))
        .mount(&server)
        .await;
    let spans = Spans::default();
    let _default =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(spans.clone()));
    let client = AnthropicClient::new("key", "claude-test")
        .unwrap()
        .with_base_url(format!("{}/v1", server.uri()));
    let messages = [json!({"role": "user", "content": SECRET_PROMPT})];
    let mut turn = client.stream(&messages).await.unwrap();
    let mut text = String::new();
    while let Some(delta) = std::future::poll_fn(|cx| turn.as_mut().poll_next(cx)).await {
        if let TurnDelta::Text(piece) = delta.unwrap() {
            text.push_str(&piece);
        }
    }
    assert_eq!(text, SECRET_ANSWER);
    drop(turn);

    let (fields, closed) = spans.chat();
    assert!(closed, "the span ends with the turn");
    for (name, value) in [
        ("otel.name", "chat claude-test"),
        ("gen_ai.provider.name", "anthropic"),
        ("gen_ai.request.model", "claude-test"),
        ("gen_ai.response.model", "claude-test-1"),
        ("gen_ai.response.id", "msg_9"),
        ("gen_ai.usage.input_tokens", "30"),
        ("gen_ai.usage.output_tokens", "9"),
        ("gen_ai.response.finish_reasons", r#"["end_turn"]"#),
        ("mcs.stream", "true"),
    ] {
        assert_eq!(field(&fields, name), value, "{name} in {fields:?}");
    }
    no_content(&fields);
}

#[tokio::test]
async fn a_refused_request_records_its_status_as_the_error() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(429).set_body_string("slow down"))
        .mount(&server)
        .await;
    let spans = Spans::default();
    let _default =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(spans.clone()));
    let client = OpenAiClient::new(server.uri(), "m").unwrap();
    let error = client
        .complete(&[json!({"role": "user", "content": SECRET_PROMPT})])
        .await
        .unwrap_err();
    assert!(
        matches!(error, LlmError::Status { status: 429, .. }),
        "{error:?}"
    );
    let (fields, _) = spans.chat();
    assert_eq!(field(&fields, "error.type"), "429", "{fields:?}");
    assert_eq!(field(&fields, "otel.status_code"), "ERROR", "{fields:?}");
    no_content(&fields);
}
