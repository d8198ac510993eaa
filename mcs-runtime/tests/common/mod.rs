//! What the extraction tests share: the tool set and the corpus inputs.

#![allow(dead_code)]

use std::path::Path;

use mcs_runtime::{Tool, ToolParameter};
use serde_json::{Value, json};

/// The tools every case is extracted against.
pub fn tools() -> Vec<Tool> {
    let param = |name: &str, schema: Value| ToolParameter::new(name, "").with_schema(schema);
    vec![
        Tool::new("get_weather", "Current weather and forecast for a city").with_parameters(vec![
            param("city", json!({"type": "string"})),
            param("days", json!({"type": "integer"})).required(false),
            param(
                "units",
                json!({"type": "string", "enum": ["celsius", "fahrenheit"]}),
            )
            .required(false),
        ]),
        Tool::new("search", "Web search").with_parameters(vec![
            param("query", json!({"type": "string"})),
            param("limit", json!({"type": "integer"})).required(false),
        ]),
        Tool::new("send_email", "Send an email").with_parameters(vec![
            ToolParameter::new("to", ""),
            ToolParameter::new("subject", ""),
            ToolParameter::new("body", ""),
        ]),
        Tool::new("calc", "Arithmetic").with_parameters(vec![
            param("a", json!({"type": "number"})),
            param("b", json!({"type": "number"})),
            param(
                "op",
                json!({"type": "string", "enum": ["add", "sub", "mul", "div"]}),
            ),
        ]),
        Tool::new("set_flag", "Turn a flag on or off")
            .with_parameter(param("on", json!({"type": "boolean"}))),
        Tool::new("create_event", "Create a calendar event").with_parameters(vec![
            param("title", json!({"type": "string"})),
            param(
                "attendees",
                json!({"type": "array", "items": {"type": "string"}}),
            ),
            param("meta", json!({"type": "object"})).required(false),
        ]),
        Tool::new("get_time", "The current time"),
    ]
}

/// The model outputs of the corpus (`input`s as text, `message`s parsed as JSON).
pub fn corpus_inputs() -> (Vec<String>, Vec<Value>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("the corpus directory")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    paths.sort();
    let (mut texts, mut messages) = (Vec::new(), Vec::new());
    for path in paths {
        let file: toml::Table =
            toml::from_str(&std::fs::read_to_string(&path).expect("a corpus file"))
                .expect("valid TOML");
        for case in file
            .get("case")
            .and_then(toml::Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(input) = case.get("input").and_then(toml::Value::as_str) {
                texts.push(input.to_owned());
            }
            if let Some(message) = case.get("message").and_then(toml::Value::as_str) {
                messages.push(serde_json::from_str(message).expect("message JSON"));
            }
        }
    }
    (texts, messages)
}
