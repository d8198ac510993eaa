//! The messages a driver hands back: the model's own turn and the tool results, in the shape
//! of the provider that made the call, so the client appends them and asks again.
//!
//! Native shapes answer every call the model made, even those this driver did not run
//! (providers reject a history with an unanswered call id).

use serde_json::{Value, json};

use super::outcome::Outcome;
use mcs_core::LlmResponse;
use mcs_extract::CallSource;

pub(super) fn reply(
    source: CallSource,
    response: LlmResponse<'_>,
    outcomes: &[Outcome],
    retry_prompt: Option<&str>,
) -> Vec<Value> {
    let native = match response {
        LlmResponse::Message(message) => Some(message),
        LlmResponse::Text(_) => None,
    };
    let mut answers = Answers::new(outcomes);
    let mut messages = match (source, native) {
        (CallSource::OpenAiChat, Some(message)) => openai_chat(message, &mut answers),
        (CallSource::OpenAiResponses, Some(message)) => openai_responses(message, &mut answers),
        (CallSource::Anthropic, Some(message)) => {
            return anthropic(message, &mut answers, retry_prompt);
        }
        (CallSource::Gemini, Some(message)) => return gemini(message, &mut answers, retry_prompt),
        (CallSource::Bedrock, Some(message)) => {
            return bedrock(message, &mut answers, retry_prompt);
        }
        _ => return text(response, outcomes, retry_prompt),
    };
    if let Some(retry) = retry_prompt {
        messages.push(json!({"role": "user", "content": retry}));
    }
    messages
}

/// Text mode: the model's text as the assistant turn, results and hints as a user turn.
fn text(response: LlmResponse<'_>, outcomes: &[Outcome], retry_prompt: Option<&str>) -> Vec<Value> {
    let said = match response {
        LlmResponse::Text(text) => text.to_owned(),
        LlmResponse::Message(message) => match message.get("content") {
            Some(Value::String(text)) => text.clone(),
            _ => message.to_string(),
        },
    };
    // The parts joined by blank lines, written in place: each result, then the retry hint.
    let mut told = String::new();
    let results = outcomes
        .iter()
        .filter_map(|o| o.result.as_ref().ok().map(|value| (&o.name, value)));
    for (index, (name, value)) in results.enumerate() {
        if index > 0 {
            told.push_str("\n\n");
        }
        told.push_str("Result of `");
        told.push_str(name);
        told.push_str("`:\n");
        write_content(&mut told, value);
    }
    if let Some(retry) = retry_prompt {
        if !told.is_empty() {
            told.push_str("\n\n");
        }
        told.push_str(retry);
    }
    vec![
        json!({"role": "assistant", "content": said}),
        json!({"role": "user", "content": told}),
    ]
}

fn openai_chat(message: &Value, answers: &mut Answers<'_>) -> Vec<Value> {
    let assistant = message.pointer("/choices/0/message").unwrap_or(message);
    let mut messages = vec![assistant.clone()];
    if let Some(Value::Array(calls)) = assistant.get("tool_calls") {
        for call in calls {
            let id = call.get("id").and_then(Value::as_str);
            let name = call
                .pointer("/function/name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let (text, _) = answers.answer(id, name);
            messages.push(
                json!({"role": "tool", "tool_call_id": id.unwrap_or_default(), "content": text}),
            );
        }
    } else if let Some(call) = assistant.get("function_call") {
        let name = call.get("name").and_then(Value::as_str).unwrap_or_default();
        let (text, _) = answers.answer(None, name);
        messages.push(json!({"role": "function", "name": name, "content": text}));
    }
    messages
}

fn openai_responses(message: &Value, answers: &mut Answers<'_>) -> Vec<Value> {
    let items: Vec<Value> = match message {
        Value::Array(items) => items.clone(),
        other => match other.get("output") {
            Some(Value::Array(items)) => items.clone(),
            _ => vec![other.clone()],
        },
    };
    let mut messages = items.clone();
    for item in items
        .iter()
        .filter(|i| i.get("type").and_then(Value::as_str) == Some("function_call"))
    {
        let id = item.get("call_id").and_then(Value::as_str);
        let name = item.get("name").and_then(Value::as_str).unwrap_or_default();
        let (text, _) = answers.answer(id, name);
        messages.push(json!({"type": "function_call_output", "call_id": id.unwrap_or_default(), "output": text}));
    }
    messages
}

fn anthropic(message: &Value, answers: &mut Answers<'_>, retry_prompt: Option<&str>) -> Vec<Value> {
    let content = match message {
        Value::Array(_) => message.clone(),
        other => other.get("content").cloned().unwrap_or_else(|| json!([])),
    };
    let mut results = Vec::new();
    if let Value::Array(blocks) = &content {
        for block in blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
        {
            let id = block.get("id").and_then(Value::as_str);
            let name = block
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let (text, failed) = answers.answer(id, name);
            let mut result = json!({"type": "tool_result", "tool_use_id": id.unwrap_or_default(), "content": text});
            if failed {
                result["is_error"] = json!(true);
            }
            results.push(result);
        }
    }
    if let Some(retry) = retry_prompt {
        results.push(json!({"type": "text", "text": retry}));
    }
    vec![
        json!({"role": "assistant", "content": content}),
        json!({"role": "user", "content": results}),
    ]
}

fn gemini(message: &Value, answers: &mut Answers<'_>, retry_prompt: Option<&str>) -> Vec<Value> {
    let content = message
        .pointer("/candidates/0/content")
        .or_else(|| message.get("content"))
        .unwrap_or(message);
    let parts = content.get("parts").cloned().unwrap_or_else(|| json!([]));
    let mut responses = Vec::new();
    if let Value::Array(items) = &parts {
        for part in items {
            let Some(call) = part
                .get("functionCall")
                .or_else(|| part.get("function_call"))
            else {
                continue;
            };
            let id = call.get("id").and_then(Value::as_str);
            let name = call.get("name").and_then(Value::as_str).unwrap_or_default();
            let response = match answers.take(id, name) {
                Some(Outcome {
                    result: Ok(value), ..
                }) => json!({"result": value}),
                Some(Outcome {
                    result: Err(failure),
                    ..
                }) => json!({"error": failure.text()}),
                None => json!({"error": not_handled(name)}),
            };
            let mut function_response = json!({"name": name, "response": response});
            if let Some(id) = id {
                function_response["id"] = json!(id);
            }
            responses.push(json!({"functionResponse": function_response}));
        }
    }
    if let Some(retry) = retry_prompt {
        responses.push(json!({"text": retry}));
    }
    vec![
        json!({"role": "model", "parts": parts}),
        json!({"role": "user", "parts": responses}),
    ]
}

/// AWS Bedrock Converse: the assistant's message as it came, then a user message of
/// `toolResult` blocks (`status: "error"` for a call that failed), and the hint as text.
fn bedrock(message: &Value, answers: &mut Answers<'_>, retry_prompt: Option<&str>) -> Vec<Value> {
    let content = match message {
        Value::Array(_) => message.clone(),
        other => other
            .pointer("/output/message/content")
            .or_else(|| other.get("content"))
            .cloned()
            .unwrap_or_else(|| json!([])),
    };
    let mut results = Vec::new();
    if let Value::Array(blocks) = &content {
        let calls = blocks
            .iter()
            .filter_map(|block| block.get("toolUse"))
            .filter(|call| call.get("type").and_then(Value::as_str) != Some("server_tool_use"));
        for call in calls {
            let id = call.get("toolUseId").and_then(Value::as_str);
            let name = call.get("name").and_then(Value::as_str).unwrap_or_default();
            let (text, failed) = answers.answer(id, name);
            let mut result =
                json!({"toolUseId": id.unwrap_or_default(), "content": [{"text": text}]});
            if failed {
                result["status"] = json!("error");
            }
            results.push(json!({"toolResult": result}));
        }
    }
    if let Some(retry) = retry_prompt {
        results.push(json!({"text": retry}));
    }
    vec![
        json!({"role": "assistant", "content": content}),
        json!({"role": "user", "content": results}),
    ]
}

/// Hands out each outcome once, to the native call it belongs to: by id, else by name in
/// order (unreadable calls have neither, and answer the calls left over).
struct Answers<'o> {
    outcomes: &'o [Outcome],
    used: Vec<bool>,
}

impl<'o> Answers<'o> {
    fn new(outcomes: &'o [Outcome]) -> Self {
        Answers {
            outcomes,
            used: vec![false; outcomes.len()],
        }
    }

    fn take(&mut self, id: Option<&str>, name: &str) -> Option<&'o Outcome> {
        let by_id = id.and_then(|id| self.position(|o| o.id.as_deref() == Some(id)));
        let index = by_id
            .or_else(|| self.position(|o| o.id.is_none() && o.name == name))
            .or_else(|| self.position(|o| o.id.is_none() && o.name.is_empty()))?;
        self.used[index] = true;
        self.outcomes.get(index)
    }

    fn position(&self, wanted: impl Fn(&Outcome) -> bool) -> Option<usize> {
        (0..self.outcomes.len()).find(|&i| !self.used[i] && wanted(&self.outcomes[i]))
    }

    /// The text answering a call, and whether it reports a failure.
    fn answer(&mut self, id: Option<&str>, name: &str) -> (String, bool) {
        match self.take(id, name) {
            Some(Outcome {
                result: Ok(value), ..
            }) => (content(value), false),
            Some(Outcome {
                result: Err(failure),
                ..
            }) => (format!("Error: {}", failure.text()), true),
            None => (not_handled(name), true),
        }
    }
}

fn not_handled(name: &str) -> String {
    format!("Not executed: no tool named `{name}` is available here.")
}

/// A result as message text: strings as they are, anything else as JSON.
fn content(value: &Value) -> String {
    let mut text = String::new();
    write_content(&mut text, value);
    text
}

/// [`content`], appended to `out`.
fn write_content(out: &mut String, value: &Value) {
    match value {
        Value::String(text) => out.push_str(text),
        // The compact JSON that `to_string` makes, written straight into the string's
        // bytes: `Display` would go through `fmt` for every token, about twice the work.
        other => {
            let mut bytes = std::mem::take(out).into_bytes();
            let _ = serde_json::to_writer(&mut bytes, other);
            // serde_json writes UTF-8, so this is the lossless case.
            *out = String::from_utf8(bytes)
                .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned());
        }
    }
}
