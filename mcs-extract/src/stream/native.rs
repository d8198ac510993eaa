//! The reader of a provider's native stream: OpenAI chat-completion chunks, OpenAI
//! Responses events, Anthropic message events, Gemini streamed responses.
//!
//! Each event is folded into the message the provider would have answered whole; a call
//! is read — by the batch reader of that message shape, so the same checks apply — as
//! soon as it is complete in the stream: its block stopped (Anthropic), its arguments are
//! done (Responses), its part arrived (Gemini), or its arguments are a whole JSON value and
//! the next call began, or the choice finished (OpenAI chat). At the end, the assembled
//! message is read as `process_llm_response` reads it.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::native::{MessageReading, read_message, stopped_early};
use crate::{CallFormat, Extraction, MalformedCall, ToolIndex};
use mcs_core::Tool;
use mcs_core::stream::{StreamEvent, ToolLookup, push_text as push};

/// Whose stream it is, known from its first event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Provider {
    OpenAiChat,
    Responses,
    Anthropic,
    Gemini,
}

/// One call being assembled.
#[derive(Clone, Debug, Default)]
struct Call {
    /// The call's JSON as the provider's whole message holds it, arguments aside.
    value: Map<String, Value>,
    /// The arguments so far, as streamed.
    arguments: String,
    /// Read and reported.
    done: bool,
    begun: bool,
}

/// Reads a native stream; see [`StreamReader`](super::StreamReader).
pub(crate) struct NativeStream {
    tools: Arc<[Tool]>,
    lookup: Option<ToolLookup>,
    provider: Option<Provider>,
    text: String,
    reasoning: String,
    /// Calls and (Responses, Anthropic, Gemini) other items, in the order of the message.
    calls: Vec<Call>,
    /// Other parts of the message, by position, for providers that interleave them.
    blocks: Vec<Value>,
    /// Where each call sits in `blocks` (Anthropic, Responses, Gemini).
    call_blocks: Vec<usize>,
    /// OpenAI chat: the call each delta `index` adds to now (a server may start a new call
    /// at an index it used before).
    chat_slots: Vec<Option<usize>>,
    /// How the model stopped, when it said so.
    finish: Option<String>,
    /// Gemini's words on why it stopped (`finishMessage`), when it gave them.
    finish_message: Option<String>,
    /// Message fields the provider sent besides its content (`id`, `model`, …).
    header: Map<String, Value>,
    reported: usize,
    /// How many of the calls reported were read.
    read_ok: usize,
}

impl NativeStream {
    pub(crate) fn new(tools: Arc<[Tool]>, lookup: Option<ToolLookup>) -> Self {
        NativeStream {
            tools,
            lookup,
            provider: None,
            text: String::new(),
            reasoning: String::new(),
            calls: Vec::new(),
            blocks: Vec::new(),
            call_blocks: Vec::new(),
            chat_slots: Vec::new(),
            finish: None,
            finish_message: None,
            header: Map::new(),
            reported: 0,
            read_ok: 0,
        }
    }

    /// Takes in one event of the provider's stream.
    pub(crate) fn feed(&mut self, event: &Value, events: &mut Vec<StreamEvent>) {
        let provider = match self.provider {
            Some(provider) => provider,
            None => match provider_of(event) {
                Some(provider) => *self.provider.insert(provider),
                None => return,
            },
        };
        match provider {
            Provider::OpenAiChat => self.openai_chunk(event, events),
            Provider::Responses => self.responses_event(event, events),
            Provider::Anthropic => self.anthropic_event(event, events),
            Provider::Gemini => self.gemini_chunk(event, events),
        }
        self.report(false, events);
    }

    /// Ends the stream: the calls still open are read, and the assembled message with
    /// what the batch path finds in it.
    pub(crate) fn finish(&mut self, events: &mut Vec<StreamEvent>) -> (Value, Extraction) {
        self.report(true, events);
        let message = self.message(self.calls.len());
        let mut extraction = self.read(&message);
        // A stream that stopped for length, or without saying why, cut off its last call:
        // arguments that do not read are that, not a mistake of the model.
        if self.was_cut() {
            for malformed in &mut extraction.malformed {
                malformed.cut_off = true;
            }
        }
        (message, extraction)
    }

    fn was_cut(&self) -> bool {
        self.finish.as_deref().is_none_or(stopped_early)
    }

    fn read(&self, message: &Value) -> Extraction {
        let index = self.lookup.as_deref().map(|l| l as ToolIndex<'_>);
        match read_message(message, &self.tools, index) {
            MessageReading::Read(extraction) => extraction,
            MessageReading::Text(_) => Extraction::default(),
        }
    }

    /// Reports the calls that are complete (all of them with `end`), in order.
    fn report(&mut self, end: bool, events: &mut Vec<StreamEvent>) {
        for index in 0..self.calls.len() {
            let call = &self.calls[index];
            if !call.begun
                && let Some(Value::String(name)) = self.call_name(index)
            {
                let name = name.clone();
                self.calls[index].begun = true;
                events.push(StreamEvent::CallBegun { index, name });
            }
        }
        while self.reported < self.calls.len() {
            let index = self.reported;
            if !(end || self.calls[index].done || self.complete_openai(index)) {
                break;
            }
            self.calls[index].done = true;
            self.reported += 1;
            // Read in the message with the calls before it, so that what it says is what the
            // whole message will say.
            let mut extraction = self.read(&self.message(index + 1));
            let item = if extraction.calls.len() > self.read_ok {
                self.read_ok += 1;
                extraction.calls.pop().ok_or(())
            } else {
                Err(())
            };
            let item = item.map_err(|()| {
                extraction.malformed.pop().unwrap_or_else(|| MalformedCall {
                    format: CallFormat::Json,
                    name: None,
                    detail: format!("call {index} of the stream could not be read"),
                    snippet: String::new(),
                    cut_off: false,
                })
            });
            if !self.calls[index].begun {
                self.calls[index].begun = true;
                let name = match &item {
                    Ok(call) => Some(call.name.clone()),
                    Err(call) => call.name.clone(),
                };
                if let Some(name) = name {
                    events.push(StreamEvent::CallBegun { index, name });
                }
            }
            match item {
                Ok(call) => events.push(StreamEvent::Call { index, call }),
                Err(mut call) => {
                    call.cut_off |= end && index + 1 == self.calls.len() && self.was_cut();
                    events.push(StreamEvent::CallFailed { index, call });
                }
            }
        }
    }

    /// An OpenAI chat call is complete once a later one began and its arguments are a whole
    /// JSON value (nothing more can be added to one), or the choice finished.
    fn complete_openai(&self, index: usize) -> bool {
        self.provider == Some(Provider::OpenAiChat)
            && (self.finish.is_some()
                || (index + 1 < self.calls.len()
                    && serde_json::from_str::<serde::de::IgnoredAny>(&self.calls[index].arguments)
                        .is_ok()))
    }

    fn call_name(&self, index: usize) -> Option<&Value> {
        let value = &self.calls[index].value;
        match self.provider? {
            Provider::OpenAiChat => value.get("function")?.get("name"),
            Provider::Gemini => value.get("functionCall")?.get("name"),
            Provider::Responses | Provider::Anthropic => value.get("name"),
        }
        .filter(|name| name.as_str().is_some_and(|name| !name.is_empty()))
    }

    /// The message with its first `calls` calls, as the provider answers whole.
    fn message(&self, calls: usize) -> Value {
        let call = |index: usize| -> Value {
            let call = &self.calls[index];
            let mut value = call.value.clone();
            match self.provider {
                Some(Provider::OpenAiChat) => {
                    let function = value
                        .entry("function")
                        .or_insert_with(|| json!({}))
                        .as_object_mut()
                        .map(std::mem::take)
                        .unwrap_or_default();
                    let mut function = function;
                    function.insert("arguments".into(), Value::String(call.arguments.clone()));
                    value.insert("function".into(), Value::Object(function));
                }
                Some(Provider::Responses) => {
                    value.insert("arguments".into(), Value::String(call.arguments.clone()));
                }
                Some(Provider::Anthropic) => {
                    // `input` is an object; arguments that do not read stay text, which
                    // the reader reports as broken.
                    let input = if call.arguments.trim().is_empty() {
                        value.get("input").cloned().unwrap_or_else(|| json!({}))
                    } else {
                        serde_json::from_str(&call.arguments)
                            .unwrap_or_else(|_| Value::String(call.arguments.clone()))
                    };
                    value.insert("input".into(), input);
                }
                Some(Provider::Gemini) | None => {}
            }
            Value::Object(value)
        };
        match self.provider {
            Some(Provider::OpenAiChat) | None => {
                let mut message = self.header.clone();
                message.insert("role".into(), json!("assistant"));
                let content = if self.text.is_empty() {
                    Value::Null
                } else {
                    Value::String(self.text.clone())
                };
                message.insert("content".into(), content);
                if !self.reasoning.is_empty() {
                    message.insert("reasoning_content".into(), json!(self.reasoning));
                }
                if calls > 0 {
                    let calls: Vec<Value> = (0..calls).map(call).collect();
                    message.insert("tool_calls".into(), Value::Array(calls));
                }
                Value::Object(message)
            }
            Some(provider) => {
                // Blocks in order, calls past the first `calls` left out.
                let mut items = Vec::new();
                for (position, block) in self.blocks.iter().enumerate() {
                    match self.call_blocks.iter().position(|at| *at == position) {
                        Some(index) if index < calls => items.push(call(index)),
                        Some(_) => {}
                        None => items.push(block.clone()),
                    }
                }
                let mut message = self.header.clone();
                match provider {
                    Provider::Responses => {
                        message.insert("object".into(), json!("response"));
                        message.insert("output".into(), Value::Array(items));
                    }
                    Provider::Anthropic => {
                        message.insert("type".into(), json!("message"));
                        message.insert("role".into(), json!("assistant"));
                        message.insert("content".into(), Value::Array(items));
                        if let Some(reason) = &self.finish {
                            message.insert("stop_reason".into(), json!(reason));
                        }
                    }
                    Provider::Gemini => {
                        let mut candidate = json!({"content": {"role": "model", "parts": items}});
                        if let Some(reason) = &self.finish {
                            candidate["finishReason"] = json!(reason);
                        }
                        if let Some(words) = &self.finish_message {
                            candidate["finishMessage"] = json!(words);
                        }
                        message.insert("candidates".into(), json!([candidate]));
                    }
                    Provider::OpenAiChat => {}
                }
                Value::Object(message)
            }
        }
    }

    fn openai_chunk(&mut self, chunk: &Value, events: &mut Vec<StreamEvent>) {
        for key in ["id", "model"] {
            if let Some(value) = chunk.get(key) {
                self.header.entry(key).or_insert_with(|| value.clone());
            }
        }
        // One choice is read: the first (clients ask for one).
        let Some(choice) = chunk.get("choices").and_then(|c| c.get(0)) else {
            return;
        };
        let delta = choice.get("delta").unwrap_or(&Value::Null);
        if let Some(text) = delta.get("content").and_then(Value::as_str) {
            self.text.push_str(text);
            push(events, StreamEvent::Text, text);
        }
        for key in ["reasoning_content", "reasoning"] {
            if let Some(text) = delta.get(key).and_then(Value::as_str) {
                self.reasoning.push_str(text);
                push(events, StreamEvent::Reasoning, text);
            }
        }
        let pieces = match (delta.get("tool_calls"), delta.get("function_call")) {
            (Some(Value::Array(pieces)), _) => pieces.clone(),
            // The deprecated single call: one call at index 0.
            (_, Some(call @ Value::Object(_))) => vec![json!({"index": 0, "function": call})],
            _ => Vec::new(),
        };
        for piece in pieces {
            let Some(index) = self.chat_slot(&piece) else {
                continue;
            };
            let call = &mut self.calls[index];
            for key in ["id", "type"] {
                if let Some(value) = piece.get(key).filter(|v| !v.is_null()) {
                    call.value.insert(key.into(), value.clone());
                }
            }
            if let Some(function) = piece.get("function") {
                let entry = call.value.entry("function").or_insert_with(|| json!({}));
                if let (Some(name), Some(entry)) = (
                    function.get("name").and_then(Value::as_str),
                    entry.as_object_mut(),
                ) {
                    // Names come whole from OpenAI; some servers send them in pieces, and
                    // some send the whole name again with every piece.
                    let known = entry
                        .get("name")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    if known != name {
                        entry.insert("name".into(), json!(format!("{known}{name}")));
                    }
                }
                match function.get("arguments") {
                    Some(Value::String(piece)) => call.arguments.push_str(piece),
                    // Ollama-style servers send the arguments as an object.
                    Some(object @ Value::Object(_)) => call.arguments = object.to_string(),
                    _ => {}
                }
            }
        }
        if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
            self.finish = Some(reason.to_owned());
        }
    }

    /// The call an OpenAI chat delta adds to: the one its `index` (else the last index
    /// used) holds, or a new one when the delta starts another call there — a different
    /// id (Gemini's endpoint numbers every call 0), or, without ids, a name (a different
    /// one, or arguments that open anew) after arguments already whole. `None` past 64
    /// calls.
    fn chat_slot(&mut self, piece: &Value) -> Option<usize> {
        let index = piece
            .get("index")
            .and_then(Value::as_u64)
            .map_or(self.chat_slots.len().saturating_sub(1), |i| i as usize);
        if index > 64 {
            return None;
        }
        let id = piece
            .get("id")
            .and_then(Value::as_str)
            .filter(|id| !id.is_empty());
        let function = piece.get("function");
        let name = function
            .and_then(|f| f.get("name"))
            .and_then(Value::as_str)
            .filter(|name| !name.is_empty());
        let opens = function
            .and_then(|f| f.get("arguments"))
            .and_then(Value::as_str)
            .is_some_and(|arguments| arguments.trim_start().starts_with('{'));
        let another = self.chat_slots.get(index).copied().flatten().map(|slot| {
            let call = &self.calls[slot];
            let known_id = call.value.get("id").and_then(Value::as_str);
            let known_name = call
                .value
                .get("function")
                .and_then(|f| f.get("name"))
                .and_then(Value::as_str);
            match (id, known_id) {
                (Some(id), Some(known)) if !known.is_empty() => id != known,
                (None, _) => {
                    name.is_some_and(|name| known_name.is_some_and(|k| k != name) || opens)
                        && known_name.is_some()
                        && serde_json::from_str::<Value>(&call.arguments).is_ok()
                }
                _ => false,
            }
        });
        if another != Some(false) && self.calls.len() > 64 {
            return None;
        }
        if another != Some(false) {
            self.calls.push(Call::default());
            if self.chat_slots.len() <= index {
                self.chat_slots.resize(index + 1, None);
            }
            self.chat_slots[index] = Some(self.calls.len() - 1);
        }
        self.chat_slots[index]
    }

    fn responses_event(&mut self, event: &Value, events: &mut Vec<StreamEvent>) {
        let kind = event
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let position = event
            .get("output_index")
            .and_then(Value::as_u64)
            .map(|i| i as usize)
            .filter(|i| *i <= 1024);
        match kind {
            "response.output_item.added" | "response.output_item.done" => {
                let (Some(position), Some(item)) = (position, event.get("item")) else {
                    return;
                };
                let is_call = item.get("type").and_then(Value::as_str) == Some("function_call");
                let call = self.block_at(position, is_call);
                match call {
                    Some(index) => {
                        let call = &mut self.calls[index];
                        if let Value::Object(item) = item {
                            for (key, value) in item {
                                if key != "arguments" {
                                    call.value.insert(key.clone(), value.clone());
                                }
                            }
                        }
                        if kind == "response.output_item.done" {
                            if let Some(arguments) = item.get("arguments").and_then(Value::as_str) {
                                call.arguments = arguments.to_owned();
                            }
                            call.done = true;
                        }
                    }
                    None => {
                        if kind == "response.output_item.done" || self.blocks[position].is_null() {
                            self.blocks[position] = item.clone();
                        }
                    }
                }
            }
            "response.function_call_arguments.delta" => {
                if let (Some(index), Some(delta)) = (
                    position.and_then(|p| self.call_at(p)),
                    event.get("delta").and_then(Value::as_str),
                ) {
                    self.calls[index].arguments.push_str(delta);
                }
            }
            "response.function_call_arguments.done" => {
                if let Some(index) = position.and_then(|p| self.call_at(p)) {
                    if let Some(arguments) = event.get("arguments").and_then(Value::as_str) {
                        self.calls[index].arguments = arguments.to_owned();
                    }
                    self.calls[index].done = true;
                }
            }
            "response.output_text.delta" => {
                if let Some(delta) = event.get("delta").and_then(Value::as_str) {
                    self.text.push_str(delta);
                    push(events, StreamEvent::Text, delta);
                    if let Some(position) = position {
                        self.append_text(position, delta);
                    }
                }
            }
            "response.reasoning_summary_text.delta" | "response.reasoning_text.delta" => {
                if let Some(delta) = event.get("delta").and_then(Value::as_str) {
                    self.reasoning.push_str(delta);
                    push(events, StreamEvent::Reasoning, delta);
                }
            }
            "response.completed" | "response.incomplete" | "response.failed" => {
                let response = event.get("response").unwrap_or(&Value::Null);
                let status = response.get("status").and_then(Value::as_str);
                self.finish = Some(match response.pointer("/incomplete_details/reason") {
                    Some(Value::String(reason)) => reason.clone(),
                    _ => status.unwrap_or("completed").to_owned(),
                });
                for key in ["id", "model"] {
                    if let Some(value) = response.get(key) {
                        self.header.entry(key).or_insert_with(|| value.clone());
                    }
                }
            }
            _ => {}
        }
    }

    /// The text of a Responses message item, kept up to date as its deltas come.
    fn append_text(&mut self, position: usize, delta: &str) {
        if self.call_at(position).is_some() {
            return;
        }
        self.block_at(position, false);
        let block = &mut self.blocks[position];
        if block.is_null() {
            *block = json!({"type": "message", "role": "assistant", "content": []});
        }
        if let Some(Value::Array(content)) = block.get_mut("content") {
            match content.last_mut() {
                Some(Value::Object(part)) if part.get("type") == Some(&json!("output_text")) => {
                    let text = part.get("text").and_then(Value::as_str).unwrap_or_default();
                    let joined = format!("{text}{delta}");
                    part.insert("text".into(), json!(joined));
                }
                _ => content.push(json!({"type": "output_text", "text": delta})),
            }
        }
    }

    fn anthropic_event(&mut self, event: &Value, events: &mut Vec<StreamEvent>) {
        let kind = event
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let position = event
            .get("index")
            .and_then(Value::as_u64)
            .map(|i| i as usize)
            .filter(|i| *i <= 1024);
        match kind {
            "message_start" => {
                if let Some(Value::Object(message)) = event.get("message") {
                    for (key, value) in message {
                        if !matches!(key.as_str(), "content" | "stop_reason" | "usage" | "type") {
                            self.header.insert(key.clone(), value.clone());
                        }
                    }
                }
            }
            "content_block_start" => {
                let (Some(position), Some(block)) = (position, event.get("content_block")) else {
                    return;
                };
                let is_call = block.get("type").and_then(Value::as_str) == Some("tool_use");
                match self.block_at(position, is_call) {
                    Some(index) => {
                        if let Value::Object(block) = block {
                            self.calls[index].value = block.clone();
                        }
                    }
                    None => self.blocks[position] = block.clone(),
                }
            }
            "content_block_delta" => {
                let (Some(position), Some(delta)) = (position, event.get("delta")) else {
                    return;
                };
                let kind = delta
                    .get("type")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                if let Some(index) = self.call_at(position) {
                    if let Some(json) = delta.get("partial_json").and_then(Value::as_str) {
                        self.calls[index].arguments.push_str(json);
                    }
                    return;
                }
                self.block_at(position, false);
                let (field, text) = match kind {
                    "text_delta" => ("text", delta.get("text")),
                    "thinking_delta" => ("thinking", delta.get("thinking")),
                    "signature_delta" => ("signature", delta.get("signature")),
                    _ => return,
                };
                let Some(text) = text.and_then(Value::as_str) else {
                    return;
                };
                match field {
                    "text" => {
                        self.text.push_str(text);
                        push(events, StreamEvent::Text, text);
                    }
                    "thinking" => {
                        self.reasoning.push_str(text);
                        push(events, StreamEvent::Reasoning, text);
                    }
                    _ => {}
                }
                let block = &mut self.blocks[position];
                if let Value::Object(block) = block {
                    let known = block.get(field).and_then(Value::as_str).unwrap_or_default();
                    let joined = format!("{known}{text}");
                    block.insert(field.into(), json!(joined));
                }
            }
            "content_block_stop" => {
                if let Some(index) = position.and_then(|p| self.call_at(p)) {
                    self.calls[index].done = true;
                }
            }
            "message_delta" => {
                if let Some(reason) = event.pointer("/delta/stop_reason").and_then(Value::as_str) {
                    self.finish = Some(reason.to_owned());
                }
            }
            _ => {}
        }
    }

    fn gemini_chunk(&mut self, chunk: &Value, events: &mut Vec<StreamEvent>) {
        let Some(candidate) = chunk.get("candidates").and_then(|c| c.get(0)) else {
            return;
        };
        if let Some(reason) = candidate.get("finishReason").and_then(Value::as_str) {
            self.finish = Some(reason.to_owned());
        }
        if let Some(words) = candidate.get("finishMessage").and_then(Value::as_str) {
            self.finish_message = Some(words.to_owned());
        }
        let Some(Value::Array(parts)) = candidate.pointer("/content/parts") else {
            return;
        };
        for part in parts {
            let is_call = part
                .get("functionCall")
                .or_else(|| part.get("function_call"))
                .is_some();
            if is_call {
                let position = self.blocks.len();
                if let Some(index) = self.block_at(position, true)
                    && let Value::Object(part) = part
                {
                    self.calls[index].value = part.clone();
                    self.calls[index].done = true;
                }
                continue;
            }
            let Some(text) = part.get("text").and_then(Value::as_str) else {
                self.blocks.push(part.clone());
                continue;
            };
            let thought = part.get("thought").and_then(Value::as_bool) == Some(true);
            if thought {
                self.reasoning.push_str(text);
                push(events, StreamEvent::Reasoning, text);
            } else {
                self.text.push_str(text);
                push(events, StreamEvent::Text, text);
            }
            // Consecutive text parts of one kind are one part of the whole answer.
            let last_is_call = self
                .blocks
                .len()
                .checked_sub(1)
                .is_some_and(|last| self.call_blocks.contains(&last));
            match self.blocks.last_mut() {
                Some(Value::Object(last))
                    if !last_is_call
                        && last.get("text").is_some()
                        && (last.get("thought").and_then(Value::as_bool) == Some(true))
                            == thought =>
                {
                    let known = last.get("text").and_then(Value::as_str).unwrap_or_default();
                    let joined = format!("{known}{text}");
                    last.insert("text".into(), json!(joined));
                }
                _ => self.blocks.push(part.clone()),
            }
        }
    }

    /// The call at block `position`, creating the block (a call when `is_call`) if it is
    /// new; `None` when the block is not a call.
    fn block_at(&mut self, position: usize, is_call: bool) -> Option<usize> {
        while self.blocks.len() <= position {
            self.blocks.push(Value::Null);
        }
        if let Some(index) = self.call_at(position) {
            return Some(index);
        }
        if !is_call {
            return None;
        }
        self.call_blocks.push(position);
        self.calls.push(Call::default());
        // Calls are kept in the order of their blocks.
        let mut order: Vec<(usize, Call)> = self
            .call_blocks
            .iter()
            .copied()
            .zip(std::mem::take(&mut self.calls))
            .collect();
        order.sort_by_key(|(position, _)| *position);
        self.call_blocks = order.iter().map(|(position, _)| *position).collect();
        self.calls = order.into_iter().map(|(_, call)| call).collect();
        self.call_at(position)
    }

    fn call_at(&self, position: usize) -> Option<usize> {
        self.call_blocks.iter().position(|at| *at == position)
    }
}

/// Whose stream an event is from, by its shape.
fn provider_of(event: &Value) -> Option<Provider> {
    let kind = event
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if kind.starts_with("response.") {
        return Some(Provider::Responses);
    }
    if matches!(
        kind,
        "message_start"
            | "content_block_start"
            | "content_block_delta"
            | "content_block_stop"
            | "message_delta"
            | "message_stop"
            | "ping"
    ) {
        return Some(Provider::Anthropic);
    }
    if event.get("candidates").is_some() {
        return Some(Provider::Gemini);
    }
    if event
        .get("choices")
        .and_then(|c| c.get(0))
        .is_some_and(|choice| choice.get("delta").is_some())
    {
        return Some(Provider::OpenAiChat);
    }
    None
}
