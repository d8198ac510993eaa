//! What the extraction tests share: the tool set and the corpus inputs.

#![allow(dead_code)]

use std::path::Path;

use mcs_core::{LlmResponse, Tool, ToolParameter};
use mcs_extract::{Extraction, extract};
use proptest::prelude::*;
use serde_json::{Value, json};

/// The tools every case is extracted against.
pub(crate) fn tools() -> Vec<Tool> {
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

/// Whether `text` starts as a transcript does (a prompt decoded with its answer): with a
/// beginning-of-text token, the header of a system or user turn, or that role's name alone
/// on the first line (decoded skipping special tokens). Only its last turn is
/// the model's output, so a transcript cut after an earlier turn of the model's reads as
/// one that ends there (a stream reads a transcript at its end).
pub(crate) fn starts_as_transcript(text: &str) -> bool {
    const OPENINGS: &[&str] = &[
        "<|im_start|>system",
        "<|im_start|>user",
        "<|begin_of_text|>",
        "<|start_header_id|>system",
        "<|start_header_id|>user",
        "<|header_start|>system",
        "<|header_start|>user",
        "<s>",
        "<bos>",
        "<｜begin▁of▁sentence｜>",
        "<BOS_TOKEN>",
        "<|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|>",
        "<|START_OF_TURN_TOKEN|><|USER_TOKEN|>",
        "<|endoftext|>",
        "<pad>",
        "[gMASK]",
        "[INST]",
        "[SYSTEM_PROMPT]",
        "[AVAILABLE_TOOLS]",
        "<|system|>",
        "<|user|>",
        "<|im_system|>",
        "<|im_user|>",
        "<｜User｜>",
        "<start_of_turn>user",
        "<start_of_turn>system",
        "<|start|>system",
        "<|start|>user",
        "<|start_of_role|>system",
        "<|start_of_role|>user",
    ];
    let text = text.trim_start();
    // Decoded skipping special tokens: a role's name alone on the first line.
    let first_line = text.lines().next().unwrap_or_default().trim_end();
    OPENINGS.iter().any(|opening| text.starts_with(opening))
        || (["system", "user"].contains(&first_line) && text.contains('\n'))
}

/// Tools declared as a model API takes them: a JSON array of `{"name", "description",
/// "parameters"}`, the parameters an object schema.
pub(crate) fn declared_tools(json: &str) -> Result<Vec<Tool>, String> {
    let declared: Vec<Value> =
        serde_json::from_str(json).map_err(|e| format!("tools are not a JSON array: {e}"))?;
    declared
        .iter()
        .map(|tool| {
            let name = tool
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("a tool without a name: {tool}"))?;
            let description = tool
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or(name);
            let parameters = tool
                .get("parameters")
                .and_then(mcs_core::dispatch::object_parameters)
                .unwrap_or_default();
            Ok(Tool::new(name, description).with_parameters(parameters))
        })
        .collect()
}

/// Every case of the corpus, in file order.
fn corpus_cases() -> Vec<toml::Value> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("the corpus directory")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    paths.sort();
    let mut cases = Vec::new();
    for path in paths {
        let file: toml::Table =
            toml::from_str(&std::fs::read_to_string(&path).expect("a corpus file"))
                .expect("valid TOML");
        if let Some(toml::Value::Array(found)) = file.get("case") {
            cases.extend(found.iter().cloned());
        }
    }
    cases
}

/// The model outputs of the corpus (`input`s as text, `message`s parsed as JSON).
pub(crate) fn corpus_inputs() -> (Vec<String>, Vec<Value>) {
    let (mut texts, mut messages) = (Vec::new(), Vec::new());
    for case in corpus_cases() {
        if let Some(input) = case.get("input").and_then(toml::Value::as_str) {
            texts.push(input.to_owned());
        }
        if let Some(message) = case.get("message").and_then(toml::Value::as_str) {
            messages.push(serde_json::from_str(message).expect("message JSON"));
        }
    }
    (texts, messages)
}

/// The corpus's recorded provider streams, each a list of events.
pub(crate) fn corpus_event_streams() -> Vec<Vec<Value>> {
    corpus_cases()
        .iter()
        .filter_map(|case| case.get("events").and_then(toml::Value::as_str))
        .map(|events| serde_json::from_str(events).expect("events JSON"))
        .collect()
}

/// Pieces real outputs are made of: delimiters of every format, JSON, Python, unicode.
const FRAGMENTS: &[&str] = &[
    "<tool_call>",
    "</tool_call>",
    "<tool_calls>",
    "</tool_calls>",
    "[TOOL_CALLS]",
    "[ARGS]",
    "[CALL_ID]",
    "<|python_tag|>",
    "<|python_start|>",
    "<|python_end|>",
    "<|tool_call_start|>",
    "<|tool_call_end|>",
    "```tool_code\n",
    "```json\n",
    "```\n",
    "```",
    "<|tool_call>",
    "<tool_call|>",
    "<|\"|>",
    "call:",
    "<function=",
    "<function name=\"",
    "</function>",
    "<parameter=",
    "</parameter>",
    "<seed:tool_call>",
    "</seed:tool_call>",
    "<minimax:tool_call>",
    "<invoke name=\"",
    "<parameter name=\"",
    "\" string=\"false\">",
    "</invoke>",
    "<function_calls>",
    "</function_calls>",
    "<｜DSML｜function_calls>",
    "<｜DSML｜invoke name=\"",
    "<｜tool▁calls▁begin｜>",
    "<｜tool▁call▁begin｜>",
    "<｜tool▁sep｜>",
    "<｜tool▁call▁end｜>",
    "<｜tool▁calls▁end｜>",
    "<｜tool calls begin｜>",
    "<|tool▁calls▁begin|>",
    "<|tool_calls_section_begin|>",
    "<|tool_call_begin|>",
    "functions.get_weather:0",
    "<|tool_call_argument_begin|>",
    "<|tool_call_end|>",
    "<|tool_calls_section_end|>",
    "<arg_key>",
    "</arg_key>",
    "<arg_value>",
    "</arg_value>",
    "<|tool_call|>",
    "<function_call>",
    "<|action_start|><|plugin|>",
    "<|action_end|>",
    "<TOOLCALL>",
    "</TOOLCALL>",
    "<|tools_prefix|>",
    "<|tools_suffix|>",
    "<|START_ACTION|>",
    "<|END_ACTION|>",
    "<|START_THINKING|>",
    "<|END_THINKING|>",
    ">>>",
    ">>>get_weather\n",
    "functools[",
    "to=functions.",
    "<|channel|>analysis<|message|>",
    "<|channel|>commentary ",
    "<|message|>",
    "<|call|>",
    "<|end|>",
    "<|start|>assistant",
    "<think>",
    "</think>",
    "[THINK]",
    "[/THINK]",
    "<seed:think>",
    "</seed:think>",
    "Action: ",
    "Action Input: ",
    "Action 1: ",
    "Observation: ",
    "\nThought: ",
    "Final Answer: ",
    "<tool>",
    "</tool>",
    "<tool_input>",
    "</tool_input>",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    ",",
    ":",
    ";",
    "=",
    "\"",
    "'",
    "\\",
    "\\u",
    "\\ud83d",
    "\n",
    " ",
    "\t",
    "{\"name\": ",
    "{\"tool\": ",
    "\"get_weather\"",
    "\"search\"",
    "\"arguments\": ",
    "\"parameters\": ",
    "{\"city\": \"Paris\"}",
    "\"{\\\"city\\\": 1}\"",
    "get_weather",
    "search",
    "get_time",
    "calc",
    "set_flag",
    "(city=\"Paris\")",
    "(query='x', limit=3)",
    "print(",
    "default_api.",
    "True",
    "None",
    "false",
    "null",
    "17",
    "-2.5e3",
    "“",
    "”",
    "‘",
    "’",
    "//",
    "/*",
    "*/",
    "｜",
    "▁",
    "é",
    "東京",
    "🌦️",
    "\u{0}",
    "\u{a0}",
    "</s>",
    "<|eot_id|>",
    "<｜DSML｜tool_calls>",
    "</｜DSML｜tool_calls>",
    "<｜DSML｜ calls>",
    "<｜DSML｜ invoke name=\"",
    "</｜DSML｜ invoke>",
    "<｜DSML｜ parameter name=\"",
    "</｜DSML｜ parameter>",
    "\"/>",
    "<|open|>tools<|sep|>",
    "<|open|>call tool=\"",
    "\" index=\"1\"<|sep|>",
    "<|open|>argument key=\"",
    "\" type=\"string\"<|sep|>",
    "<|close|>argument<|sep|>",
    "<|close|>call<|sep|>",
    "<|close|>tools<|sep|>",
    "<|open|>think<|sep|>",
    "<|close|>think<|sep|>",
    "<|open|>response<|sep|>",
    "<|close|>response<|sep|>",
    "<|channel>thought\n",
    "<channel|>",
    "<|channel|>final<|message|>",
    "<|return|>",
    "<|START_RESPONSE|>",
    "<|END_RESPONSE|>",
    "&quot;",
];

pub(crate) fn fragments() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..40).prop_map(|parts| parts.concat())
}

/// A corpus text, cut at a character boundary and with two characters swapped.
/// The corpus's texts, read once.
fn corpus_texts() -> &'static [String] {
    static CORPUS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    CORPUS.get_or_init(|| corpus_inputs().0)
}

pub(crate) fn mutated_corpus() -> impl Strategy<Value = String> {
    let count = corpus_texts().len().max(1);
    (
        0..count,
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
    )
        .prop_map(|(which, cut, a, b)| {
            let text = corpus_texts().get(which).cloned().unwrap_or_default();
            let mut chars: Vec<char> = text.chars().collect();
            if chars.len() > 1 {
                let (i, j) = (a.index(chars.len()), b.index(chars.len()));
                chars.swap(i, j);
            }
            let keep = cut.index(chars.len() + 1);
            chars.into_iter().take(keep).collect()
        })
}

/// Reads a recorded provider stream event by event; checks that what it ends in is what
/// the batch path finds in the message the events make up (but for `cut_off`, which only
/// the stream can know), and that the calls it reported on the way are those calls.
pub(crate) fn stream_events(events: &[Value], tools: &[Tool]) -> Result<Extraction, String> {
    use mcs_extract::stream::{StreamEvent, StreamOutput, StreamReader};
    let mut reader = StreamReader::new(tools.to_vec());
    let mut seen = Vec::new();
    for event in events {
        seen.extend(reader.feed_event(event));
    }
    let end = reader.finish();
    seen.extend(end.events);
    let StreamOutput::Message(message) = &end.output else {
        return Err("a provider stream must make up a message".into());
    };
    let mut batch = extract(LlmResponse::Message(message), tools);
    for (streamed, batch) in end.extraction.malformed.iter().zip(&mut batch.malformed) {
        batch.cut_off = streamed.cut_off;
    }
    if batch != end.extraction {
        return Err(format!(
            "the stream ended in {:#?}\nbut its message {message:#} reads {batch:#?}",
            end.extraction
        ));
    }
    let reported: Vec<_> = seen
        .iter()
        .filter_map(|event| match event {
            StreamEvent::Call { call, .. } => Some(call.clone()),
            _ => None,
        })
        .collect();
    if reported != end.extraction.calls {
        return Err(format!("reported calls {reported:#?}"));
    }
    Ok(end.extraction)
}
