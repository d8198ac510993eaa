//! Provider-native messages: OpenAI chat (and Ollama), OpenAI Responses, Anthropic, Gemini.

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
use serde_json::{Map, Value};

use super::json::parse_whole;
use super::shape::{Trust, calls_in, kind_of};
use super::{Broken, CallFormat, CallSource, Cx, Extraction, FoundCall, MalformedCall, RawCall};
use crate::types::Tool;

/// Anthropic content block types.
const ANTHROPIC_BLOCKS: &[&str] = &[
    "text",
    "tool_use",
    "thinking",
    "redacted_thinking",
    "server_tool_use",
    "web_search_tool_result",
    "image",
];
/// OpenAI Responses output item types.
const RESPONSES_ITEMS: &[&str] = &[
    "message",
    "reasoning",
    "function_call",
    "web_search_call",
    "file_search_call",
    "computer_call",
    "code_interpreter_call",
    "custom_tool_call",
];

/// Calls in a provider-native message; see the [module docs](super) for the rules.
pub(crate) fn extract_message(message: &Value, tools: &[Tool]) -> Extraction {
    if let Value::String(text) = message {
        return super::extract_text(text, tools);
    }
    if let Some(extraction) = provider(message) {
        return extraction;
    }
    // Not a provider shape: maybe the client parsed a JSON call itself.
    let cx = Cx::new("", tools);
    if let Some(outcomes) = calls_in(message, &cx, Trust::Weak, false) {
        let mut out = Builder::new(CallSource::Text);
        for outcome in outcomes {
            out.push(CallFormat::Json, outcome, "the message", message);
        }
        return out.extraction;
    }
    for key in ["content", "text"] {
        if let Some(Value::String(text)) = message.get(key) {
            return super::extract_text(text, tools);
        }
    }
    Extraction::default()
}

/// A provider response pasted as text, read as its provider's shape; the source stays
/// [`CallSource::Text`] because the reply goes back as text.
pub(crate) fn pasted_response(text: &str, _tools: &[Tool]) -> Option<Extraction> {
    let trimmed = text.trim();
    if !trimmed.starts_with('{') || !trimmed.ends_with('}') || !may_look_native(trimmed) {
        return None;
    }
    let value: Value = serde_json::from_str(trimmed).ok()?;
    let map = value.as_object()?;
    let looks_native = map.contains_key("choices")
        || map.contains_key("candidates")
        || map.get("object").and_then(Value::as_str) == Some("response")
        || (map.get("type").and_then(Value::as_str) == Some("message")
            && map.get("content").is_some_and(Value::is_array))
        || map.contains_key("role");
    if !looks_native {
        return None;
    }
    let mut extraction = provider(&value)?;
    extraction.source = CallSource::Text;
    Some(extraction)
}

/// Whether strict JSON `text` can have one of the keys that make a pasted response look
/// native (see [`pasted_response`]). A key without escapes appears in the text exactly as
/// `"choices"`, and only a `\u` escape can spell a letter, so a text with none of these
/// strings and no `\u` has none of the keys; the usual JSON call (no such key) is then not
/// parsed a second time.
fn may_look_native(text: &str) -> bool {
    const NEEDLES: [&str; 6] = [
        "\"choices\"",
        "\"candidates\"",
        "\"object\"",
        "\"type\"",
        "\"role\"",
        "\\u",
    ];
    // Six substring searches cost less than starting the automaton on a short text, and
    // more than its one pass on a long one (measured: about 600 bytes even).
    const SHORT: usize = 512;
    static AUTOMATON: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    let automaton = match text.len() {
        0..SHORT => None,
        _ => AUTOMATON
            .get_or_init(|| AhoCorasick::new(NEEDLES).ok())
            .as_ref(),
    };
    match automaton {
        Some(automaton) => automaton.is_match(text),
        None => NEEDLES.iter().any(|needle| text.contains(needle)),
    }
}

struct Builder {
    extraction: Extraction,
}

impl Builder {
    fn new(source: CallSource) -> Self {
        Builder {
            extraction: Extraction {
                source,
                ..Extraction::default()
            },
        }
    }

    fn push(
        &mut self,
        format: CallFormat,
        outcome: Result<RawCall, Broken>,
        location: &str,
        raw: &Value,
    ) {
        match outcome {
            Ok(call) => self.extraction.calls.push(FoundCall {
                name: call.name,
                arguments: call.arguments,
                id: call.id,
                format,
                repaired: call.repaired,
            }),
            Err(broken) => {
                let mut snippet = raw.to_string();
                if snippet.len() > 120 {
                    let cut = super::scan::floor_boundary(&snippet, 120);
                    snippet.truncate(cut);
                    snippet.push('…');
                }
                self.extraction.malformed.push(MalformedCall {
                    format,
                    name: broken.name,
                    detail: format!("{format} call at {location}: {}", broken.detail),
                    snippet,
                });
            }
        }
    }
}

fn str_of<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
}

fn typed_items(items: &[Value]) -> impl Iterator<Item = &str> {
    items.iter().filter_map(|item| str_of(item, "type"))
}

/// The provider shape of `message`, read; `None` when it has none.
fn provider(message: &Value) -> Option<Extraction> {
    match message {
        Value::Object(map) => {
            if let Some(Value::Array(choices)) = map.get("choices") {
                let choice = choices.first();
                let inner = choice.and_then(|c| c.get("message").or_else(|| c.get("delta")));
                return Some(openai_chat(inner, "choices[0].message"));
            }
            if let Some(Value::Array(candidates)) = map.get("candidates") {
                let parts = candidates
                    .first()
                    .and_then(|c| c.get("content"))
                    .and_then(|c| c.get("parts"))
                    .and_then(Value::as_array);
                return Some(gemini(
                    parts.map_or(&[][..], Vec::as_slice),
                    "candidates[0].content.parts",
                ));
            }
            if let Some(Value::Array(output)) = map.get("output")
                && (str_of(message, "object") == Some("response")
                    || typed_items(output).any(|t| RESPONSES_ITEMS.contains(&t)))
            {
                return Some(responses(output, "output"));
            }
            if map.contains_key("tool_calls") || map.contains_key("function_call") {
                return Some(openai_chat(Some(message), "the message"));
            }
            if let Some(Value::Array(parts)) = map.get("parts") {
                return Some(gemini(parts, "parts"));
            }
            if let Some(Value::Array(blocks)) = map.get("content") {
                let anthropic = str_of(message, "type") == Some("message")
                    || map.contains_key("stop_reason")
                    || (!blocks.is_empty()
                        && typed_items(blocks).count() == blocks.len()
                        && typed_items(blocks).all(|t| ANTHROPIC_BLOCKS.contains(&t)));
                if anthropic {
                    return Some(anthropic_blocks(blocks, "content"));
                }
            }
            if let Some(inner @ Value::Object(_)) = map.get("message") {
                // Ollama's /api/chat response wraps the message.
                if inner.get("role").is_some() {
                    return Some(openai_chat(Some(inner), "message"));
                }
            }
            if map.contains_key("role")
                && map
                    .get("content")
                    .is_some_and(|c| c.is_string() || c.is_null() || c.is_array())
            {
                // A chat message that says it has no tool calls: its text is the answer.
                return Some(Builder::new(CallSource::OpenAiChat).extraction);
            }
            None
        }
        Value::Array(items) if !items.is_empty() => {
            let types: Vec<&str> = typed_items(items).collect();
            if types.contains(&"function_call")
                || (types.len() == items.len()
                    && types.iter().all(|t| RESPONSES_ITEMS.contains(t))
                    && types.contains(&"message"))
            {
                return Some(responses(items, "output"));
            }
            if types.len() == items.len() && types.iter().all(|t| ANTHROPIC_BLOCKS.contains(t)) {
                return Some(anthropic_blocks(items, "content"));
            }
            if items.iter().any(|item| {
                item.get("functionCall").is_some()
                    || item.get("function_call").is_some_and(Value::is_object)
            }) {
                return Some(gemini(items, "parts"));
            }
            if items
                .iter()
                .all(|item| item.get("function").is_some_and(Value::is_object))
            {
                let mut out = Builder::new(CallSource::OpenAiChat);
                tool_calls(&mut out, items, "tool_calls");
                return Some(out.extraction);
            }
            None
        }
        _ => None,
    }
}

/// Arguments given as an object or as a JSON-encoded string (OpenAI), possibly damaged.
fn decode_arguments(
    name: &str,
    value: Option<&Value>,
    field: &str,
) -> Result<(Value, bool), Broken> {
    let broken = |detail: String| Broken {
        name: Some(name.to_owned()),
        detail,
    };
    match value {
        None | Some(Value::Null) => Ok((Value::Object(Map::new()), false)),
        Some(object @ Value::Object(_)) => Ok((object.clone(), false)),
        Some(Value::String(text)) if text.trim().is_empty() => {
            Ok((Value::Object(Map::new()), false))
        }
        Some(Value::String(text)) => match parse_whole(text) {
            Ok((object @ Value::Object(_), repaired)) => Ok((object, repaired)),
            Ok((Value::Null, repaired)) => Ok((Value::Object(Map::new()), repaired)),
            Ok((other, _)) => Err(broken(format!(
                "`{field}` of `{name}` is JSON {}, not an object",
                kind_of(&other)
            ))),
            Err(error) => Err(broken(format!(
                "`{field}` of `{name}` is not valid JSON: {} at character {} of the string",
                error.message,
                text[..super::scan::floor_boundary(text, error.pos)]
                    .chars()
                    .count()
                    + 1
            ))),
        },
        Some(other) => Err(broken(format!(
            "`{field}` of `{name}` must be an object or a JSON string, found {}",
            kind_of(other)
        ))),
    }
}

fn id_of(value: &Value, keys: &[&str]) -> Option<String> {
    keys.iter().find_map(|key| match value.get(*key) {
        Some(Value::String(id)) if !id.is_empty() => Some(id.clone()),
        Some(Value::Number(id)) => Some(id.to_string()),
        _ => None,
    })
}

/// A call's name, or what is wrong with it.
fn name_of(value: Option<&Value>) -> Result<String, Broken> {
    match value {
        Some(Value::String(name)) if !super::scan::clean_name(name).is_empty() => {
            Ok(super::scan::clean_name(name))
        }
        _ => Err(Broken {
            name: None,
            detail: "the call has no `name`".to_owned(),
        }),
    }
}

/// The call in `call`: its name under `"name"`, its arguments under `key` (`field` names
/// that key in messages), and `id`.
fn read_call(call: &Value, key: &str, field: &str, id: Option<String>) -> Result<RawCall, Broken> {
    let name = name_of(call.get("name"))?;
    let (arguments, repaired) = decode_arguments(&name, call.get(key), field)?;
    Ok(RawCall {
        name,
        arguments,
        id,
        repaired,
    })
}

fn openai_chat(message: Option<&Value>, location: &str) -> Extraction {
    let mut out = Builder::new(CallSource::OpenAiChat);
    let Some(message) = message else {
        return out.extraction;
    };
    match message.get("tool_calls") {
        Some(Value::Array(calls)) if !calls.is_empty() => {
            tool_calls(&mut out, calls, &format!("{location}.tool_calls"));
        }
        _ => {
            if let Some(call @ Value::Object(_)) = message.get("function_call") {
                let outcome = read_call(call, "arguments", "function_call.arguments", None);
                out.push(
                    CallFormat::OpenAiChat,
                    outcome,
                    &format!("{location}.function_call"),
                    call,
                );
            }
        }
    }
    out.extraction
}

fn tool_calls(out: &mut Builder, calls: &[Value], location: &str) {
    for (index, call) in calls.iter().enumerate() {
        // Chat Completions nests the call in `function`; some proxies flatten it.
        let function = call
            .get("function")
            .filter(|f| f.is_object())
            .unwrap_or(call);
        let outcome = read_call(
            function,
            "arguments",
            "function.arguments",
            id_of(call, &["id"]),
        );
        out.push(
            CallFormat::OpenAiChat,
            outcome,
            &format!("{location}[{index}]"),
            call,
        );
    }
}

fn responses(items: &[Value], location: &str) -> Extraction {
    let mut out = Builder::new(CallSource::OpenAiResponses);
    for (index, item) in items.iter().enumerate() {
        if str_of(item, "type") != Some("function_call") {
            continue;
        }
        let outcome = read_call(
            item,
            "arguments",
            "arguments",
            id_of(item, &["call_id", "id"]),
        );
        out.push(
            CallFormat::OpenAiResponses,
            outcome,
            &format!("{location}[{index}]"),
            item,
        );
    }
    out.extraction
}

fn anthropic_blocks(blocks: &[Value], location: &str) -> Extraction {
    let mut out = Builder::new(CallSource::Anthropic);
    for (index, block) in blocks.iter().enumerate() {
        if str_of(block, "type") != Some("tool_use") {
            continue;
        }
        let outcome = read_call(block, "input", "input", id_of(block, &["id"]));
        out.push(
            CallFormat::Anthropic,
            outcome,
            &format!("{location}[{index}]"),
            block,
        );
    }
    out.extraction
}

fn gemini(parts: &[Value], location: &str) -> Extraction {
    let mut out = Builder::new(CallSource::Gemini);
    for (index, part) in parts.iter().enumerate() {
        let Some(call) = part
            .get("functionCall")
            .or_else(|| part.get("function_call"))
            .filter(|c| c.is_object())
        else {
            continue;
        };
        let outcome = read_call(call, "args", "args", id_of(call, &["id"]));
        out.push(
            CallFormat::Gemini,
            outcome,
            &format!("{location}[{index}]"),
            part,
        );
    }
    out.extraction
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pasted_responses_are_read_whatever_spells_their_keys() {
        let plain = r#"{"choices": [{"message": {"tool_calls": [{"id": "call_1", "function": {"name": "f", "arguments": "{}"}}]}}]}"#;
        // The only key that makes it native is written with an escape.
        let escaped = plain.replacen("\"choices\"", "\"\\u0063hoices\"", 1);
        // Long texts are searched another way.
        let padding = format!("{{\"note\": \"{}\", ", "x".repeat(600));
        let long = plain.replacen('{', &padding, 1);
        let long_escaped = escaped.replacen('{', &padding, 1);
        for text in [plain, &escaped, &long, &long_escaped] {
            let extraction = pasted_response(text, &[]).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(extraction.source, CallSource::Text);
            assert_eq!(extraction.calls.len(), 1, "{text}");
        }
        assert!(!may_look_native(
            r#"{"tool": "f", "arguments": {"kind": "roles", "path": "C:\\Users"}}"#
        ));
        assert!(may_look_native(r#"{"role": "assistant", "content": "hi"}"#));
        assert!(!may_look_native(&format!(
            r#"{{"tool": "f", "arguments": {{"q": "{}"}}}}"#,
            "y".repeat(600)
        )));
        assert!(pasted_response(r#"{"tool": "f", "arguments": {}}"#, &[]).is_none());
    }
}
