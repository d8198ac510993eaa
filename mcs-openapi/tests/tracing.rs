//! What a REST call through the model side tells `tracing`: an `execute_tool` span with the
//! OpenTelemetry GenAI attributes (the call's id included), inside it the HTTP client span
//! with the method, route template and status, events for extraction and for invalid
//! arguments — and no credential, argument value or URL anywhere in them. A layer of the
//! test's own captures every span and event field as text.
#![cfg(feature = "http")]

use std::collections::HashMap;
use std::fmt::Debug;
use std::sync::{Arc, Mutex};

use mcs_core::{Driver, LlmResponse, ToolDriver};
use mcs_openapi::{ReadOptions, read_str};
use serde_json::json;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Subscriber};
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const TOKEN: &str = "tok-7f3a9c-secret";
const KEY: &str = "key-d41d8c-secret";
const VALUE: &str = "private-note-text";

const DOC: &str = r#"
openapi: 3.0.3
info: { title: Notes, version: "1" }
components:
  securitySchemes:
    token: { type: http, scheme: bearer }
    key: { type: apiKey, in: query, name: api_key }
security: [{ token: [], key: [] }]
paths:
  /notes/{id}:
    put:
      operationId: saveNote
      parameters:
        - { name: id, in: path, required: true, schema: { type: integer } }
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [text]
              properties:
                text: { type: string, maxLength: 40 }
"#;

#[derive(Clone, Debug)]
struct Captured {
    kind: &'static str,
    name: String,
    parent: Option<String>,
    fields: HashMap<String, String>,
}

#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<Captured>>>);

struct Fields<'a>(&'a mut HashMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl<S: Subscriber + for<'a> LookupSpan<'a>> tracing_subscriber::Layer<S> for Capture {
    fn on_new_span(&self, attributes: &Attributes<'_>, id: &Id, context: Context<'_, S>) {
        let mut fields = HashMap::new();
        attributes.record(&mut Fields(&mut fields));
        let parent = context
            .span(id)
            .and_then(|span| span.parent())
            .map(|parent| parent.name().to_owned());
        fields.insert("#id".into(), id.into_u64().to_string());
        self.0.lock().unwrap().push(Captured {
            kind: "span",
            name: attributes.metadata().name().to_owned(),
            parent,
            fields,
        });
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, _: Context<'_, S>) {
        let mut spans = self.0.lock().unwrap();
        let id = id.into_u64().to_string();
        if let Some(span) = spans
            .iter_mut()
            .rev()
            .find(|c| c.fields.get("#id") == Some(&id))
        {
            values.record(&mut Fields(&mut span.fields));
        }
    }

    fn on_event(&self, event: &Event<'_>, context: Context<'_, S>) {
        let mut fields = HashMap::new();
        event.record(&mut Fields(&mut fields));
        let parent = context.event_span(event).map(|span| span.name().to_owned());
        self.0.lock().unwrap().push(Captured {
            kind: "event",
            name: event.metadata().name().to_owned(),
            parent,
            fields,
        });
    }
}

#[tokio::test]
async fn a_rest_call_is_traced_without_its_secrets() {
    let server = MockServer::start().await;
    Mock::given(method("PUT"))
        .and(path("/notes/7"))
        .and(header("authorization", format!("Bearer {TOKEN}").as_str()))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"saved": true})))
        .mount(&server)
        .await;
    let driver = read_str(DOC, "notes.yaml", None, &ReadOptions::default())
        .unwrap()
        .into_driver()
        .with_base_url(server.uri())
        .with_bearer_token(TOKEN)
        .with_api_key(KEY);

    let capture = Capture::default();
    let subscriber = tracing_subscriber::registry().with(capture.clone());
    let _default = tracing::subscriber::set_default(subscriber);

    // A native call with an id, then a text call with a wrong argument.
    let message = json!({"role": "assistant", "content": null, "tool_calls": [{
        "id": "call_42", "type": "function",
        "function": {"name": "saveNote", "arguments": json!({"id": 7, "text": VALUE}).to_string()}
    }]});
    let response = driver
        .process_llm_response(LlmResponse::Message(&message))
        .await;
    assert!(response.call_executed, "{response:?}");
    let text = format!(
        "<tool_call>{}</tool_call>",
        json!({"name": "saveNote", "arguments": {"id": 7, "text": format!("{VALUE} {}", "x".repeat(40))}})
    );
    let response = driver.process_llm_response(LlmResponse::Text(&text)).await;
    assert!(response.call_failed);
    // A direct call whose request fails (nothing mounted there): an error status.
    let error = driver
        .execute_tool("saveNote", json!({"id": 8, "text": "short"}))
        .await
        .unwrap_err();
    assert!(error.to_string().contains("404"), "{error}");

    let captured = capture.0.lock().unwrap().clone();
    let all = format!("{captured:#?}");
    for secret in [TOKEN, KEY, VALUE, "api_key=", &server.uri()] {
        assert!(!all.contains(secret), "`{secret}` reached a trace:\n{all}");
    }

    let spans: Vec<&Captured> = captured.iter().filter(|c| c.kind == "span").collect();
    let tool_span = spans
        .iter()
        .find(|s| s.name == "execute_tool")
        .expect("an execute_tool span");
    let field = |c: &Captured, name: &str| c.fields.get(name).cloned().unwrap_or_default();
    assert_eq!(field(tool_span, "gen_ai.operation.name"), "execute_tool");
    assert_eq!(field(tool_span, "gen_ai.tool.name"), "saveNote");
    assert_eq!(field(tool_span, "gen_ai.tool.call.id"), "call_42");
    assert_eq!(field(tool_span, "otel.name"), "execute_tool saveNote");
    assert_eq!(field(tool_span, "mcs.driver.id"), driver.meta().id);

    let requests: Vec<&&Captured> = spans.iter().filter(|s| s.name == "http_request").collect();
    assert_eq!(
        requests.len(),
        2,
        "the invalid call sent nothing: {requests:#?}"
    );
    assert_eq!(requests[0].parent.as_deref(), Some("execute_tool"));
    assert_eq!(field(requests[0], "http.request.method"), "PUT");
    assert_eq!(field(requests[0], "url.template"), "/notes/{id}");
    assert_eq!(field(requests[0], "http.response.status_code"), "200");
    assert_eq!(field(requests[0], "otel.kind"), "client");
    assert_eq!(field(requests[1], "http.response.status_code"), "404");
    assert_eq!(field(requests[1], "error.type"), "404");
    // The direct call had no model side around it: its request span stands alone.
    assert_eq!(requests[1].parent, None);

    let events: Vec<&Captured> = captured.iter().filter(|c| c.kind == "event").collect();
    let extracted: Vec<&&Captured> = events
        .iter()
        .filter(|e| field(e, "message") == "calls extracted")
        .collect();
    assert_eq!(extracted.len(), 2, "{events:#?}");
    assert_eq!(field(extracted[0], "source"), "OpenAiChat");
    assert_eq!(field(extracted[0], "calls"), "1");
    let invalid = events
        .iter()
        .find(|e| field(e, "message") == "invalid arguments")
        .expect("an invalid-arguments event");
    assert_eq!(field(invalid, "tool"), "saveNote");
    assert_eq!(field(invalid, "paths"), "text");
}
