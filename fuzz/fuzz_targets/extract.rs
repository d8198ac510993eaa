//! Feeds arbitrary bytes to `mcs_extract::extract`: as text (UTF-8, lossily), and,
//! when the bytes parse as JSON, as a provider message. Beyond "never panics" it checks what
//! every extraction promises: object arguments, non-empty names and details, a bounded
//! number of malformed calls, and the same answer twice.

#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use mcs_extract::{Extraction, MAX_MALFORMED, extract};
use mcs_core::{LlmResponse, Tool, ToolParameter};
use serde_json::{Value, json};

fn tools() -> &'static [Tool] {
    static TOOLS: OnceLock<Vec<Tool>> = OnceLock::new();
    TOOLS.get_or_init(|| {
        let param = |name: &str, schema: Value| ToolParameter::new(name, "").with_schema(schema);
        vec![
            Tool::new("get_weather", "Weather").with_parameters(vec![
                param("city", json!({"type": "string"})),
                param("days", json!({"type": "integer"})).required(false),
            ]),
            Tool::new("search", "Search").with_parameter(param("query", json!({"type": "string"}))),
            Tool::new("calc", "Arithmetic").with_parameters(vec![
                param("a", json!({"type": "number"})),
                param("b", json!({"type": "number"})),
                param("op", json!({"type": "string"})),
            ]),
            Tool::new("set_flag", "Flag").with_parameter(param("on", json!({"type": "boolean"}))),
            Tool::new("create_event", "Event").with_parameters(vec![
                param("attendees", json!({"type": "array"})),
                param("meta", json!({"type": "object"})),
            ]),
            Tool::new("get_time", "Time"),
        ]
    })
}

fn check(response: LlmResponse<'_>) {
    let got: Extraction = extract(response, tools());
    for call in &got.calls {
        assert!(
            call.arguments.is_object(),
            "arguments must be an object: {call:?}"
        );
        assert!(!call.name.is_empty(), "empty tool name: {call:?}");
    }
    assert!(got.malformed.len() <= MAX_MALFORMED);
    assert!(got.malformed.iter().all(|m| !m.detail.is_empty()));
    assert_eq!(
        extract(response, tools()),
        got,
        "extraction is not deterministic"
    );
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    check(LlmResponse::Text(&text));
    if let Ok(message) = serde_json::from_slice::<Value>(data) {
        check(LlmResponse::Message(&message));
    }
});
