//! The reader of a provider's native stream: OpenAI chat-completion chunks, OpenAI
//! Responses events, Anthropic message events, Gemini streamed responses, AWS Bedrock
//! ConverseStream events, Ollama's `/api/chat` chunks and Cohere's v2 chat events.
//!
//! Each event is folded into the message the provider would have answered whole; a call
//! is read — by the batch reader of that message shape, so the same checks apply — as
//! soon as it is complete in the stream: its arguments are done (Responses, Cohere), its
//! part or chunk arrived (Gemini, Ollama), its arguments are a whole JSON value and the
//! next call began, or the choice finished (OpenAI chat), or its block stopped and a later
//! block began or the message said why it stopped (Anthropic, Bedrock: a last block cut by
//! the token limit is reported, not run, even when what arrived reads as whole). At the
//! end, the assembled message is read as `process_llm_response` reads it.

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
    Bedrock,
    Ollama,
    Cohere,
}

impl Provider {
    /// Whether the provider's message is a chat message whose calls are a `tool_calls`
    /// list (rather than blocks, items or parts among the text).
    fn is_chat(self) -> bool {
        matches!(
            self,
            Provider::OpenAiChat | Provider::Ollama | Provider::Cohere
        )
    }
}

/// The most calls a chat-like stream (OpenAI chat, Ollama, Cohere) assembles.
const MAX_CHAT_CALLS: usize = 64;

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
    /// OpenAI chat and Cohere: the call each delta `index` adds to now (an OpenAI-compatible
    /// server may start a new call at an index it used before).
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
            Provider::Bedrock => self.bedrock_event(event, events),
            Provider::Ollama => self.ollama_chunk(event, events),
            Provider::Cohere => self.cohere_event(event, events),
        }
        self.report(false, events);
    }

    /// Ends the stream: the calls still open are read, and the assembled message with
    /// what the batch path finds in it.
    pub(crate) fn finish(&mut self, events: &mut Vec<StreamEvent>) -> (Value, Extraction) {
        self.report(true, events);
        let message = self.message(self.calls.len());
        let (mut extraction, unparsed) = self.read(&message, true);
        // Calls read from text the server left unparsed come only now.
        if unparsed {
            push_calls(events, &extraction);
        }
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

    /// The message's calls, and whether they were read from text the server left unparsed
    /// (only with `unparsed_text`).
    fn read(&self, message: &Value, unparsed_text: bool) -> (Extraction, bool) {
        let index = self.lookup.as_deref().map(|l| l as ToolIndex<'_>);
        match read_message(message, &self.tools, index) {
            MessageReading::Read(extraction) => (extraction, false),
            MessageReading::Text(_) => (Extraction::default(), false),
            MessageReading::Unparsed(read, _) if !unparsed_text => (read, false),
            MessageReading::Unparsed(read, text) => {
                let extraction = crate::unparsed(read, text, &self.tools, index);
                let unparsed = !extraction.is_empty();
                (extraction, unparsed)
            }
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
            let complete = (self.calls[index].done && !self.waits_for_stop(index))
                || self.complete_openai(index);
            if !(end || complete) {
                break;
            }
            self.calls[index].done = true;
            self.reported += 1;
            // Read in the message with the calls before it, so that what it says is what the
            // whole message will say.
            // The calls in the message's fields: text the server left unparsed is read at
            // the end.
            let (mut extraction, _) = self.read(&self.message(index + 1), false);
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

    /// Whether the call at `index`, its block stopped, still waits for the message to say
    /// how it ended: the last block of an Anthropic or Bedrock message cut by the token
    /// limit is cut off however whole its input looks (as the batch reader judges it), and
    /// only a later block or the stop reason says it was not the last.
    fn waits_for_stop(&self, index: usize) -> bool {
        let Some(&position) = self.call_blocks.get(index) else {
            return false;
        };
        let later = (position + 1..self.blocks.len())
            .any(|at| !self.blocks[at].is_null() || self.call_blocks.contains(&at));
        matches!(self.provider, Some(Provider::Anthropic | Provider::Bedrock))
            && self.finish.is_none()
            && !later
    }

    fn call_name(&self, index: usize) -> Option<&Value> {
        let value = &self.calls[index].value;
        match self.provider? {
            Provider::OpenAiChat | Provider::Ollama | Provider::Cohere => {
                value.get("function")?.get("name")
            }
            Provider::Gemini => value.get("functionCall")?.get("name"),
            Provider::Bedrock => value.get("toolUse")?.get("name"),
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
                Some(Provider::OpenAiChat | Provider::Cohere) => {
                    let mut function = value
                        .entry("function")
                        .or_insert_with(|| json!({}))
                        .as_object_mut()
                        .map(std::mem::take)
                        .unwrap_or_default();
                    function.insert("arguments".into(), Value::String(call.arguments.clone()));
                    value.insert("function".into(), Value::Object(function));
                }
                Some(Provider::Responses) => {
                    value.insert("arguments".into(), Value::String(call.arguments.clone()));
                }
                Some(Provider::Anthropic) => {
                    let input = streamed_input(&call.arguments, value.get("input"));
                    value.insert("input".into(), input);
                }
                Some(Provider::Bedrock) => {
                    if let Some(Value::Object(tool)) = value.get_mut("toolUse") {
                        let input = streamed_input(&call.arguments, tool.get("input"));
                        tool.insert("input".into(), input);
                    }
                }
                // Their calls come whole.
                Some(Provider::Gemini | Provider::Ollama) | None => {}
            }
            Value::Object(value)
        };
        let provider = self.provider.unwrap_or(Provider::OpenAiChat);
        if provider.is_chat() {
            return self.chat_message(provider, (0..calls).map(call).collect());
        }
        // Blocks in order, calls past the first `calls` left out.
        let mut items = Vec::new();
        for (position, block) in self.blocks.iter().enumerate() {
            match self.call_blocks.iter().position(|at| *at == position) {
                Some(index) if index < calls => items.push(call(index)),
                Some(_) => {}
                None if block.is_null() => {}
                None => items.push(block.clone()),
            }
        }
        // A message of the first calls, read to report one, is not cut in its last block:
        // a later call follows it.
        let stop = self.finish.as_ref().filter(|_| calls == self.calls.len());
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
                if let Some(reason) = stop {
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
            Provider::Bedrock => {
                let content = json!({"role": "assistant", "content": items});
                message.insert("output".into(), json!({"message": content}));
                if let Some(reason) = stop {
                    message.insert("stopReason".into(), json!(reason));
                }
            }
            Provider::OpenAiChat | Provider::Ollama | Provider::Cohere => {}
        }
        Value::Object(message)
    }

    /// A chat message holding `calls`: OpenAI's assistant message; Ollama's and Cohere's
    /// responses wrap one (`message`) beside how the model stopped.
    fn chat_message(&self, provider: Provider, calls: Vec<Value>) -> Value {
        let mut message = Map::new();
        message.insert("role".into(), json!("assistant"));
        let content = match provider {
            _ if self.text.is_empty() => Value::Null,
            Provider::Cohere => json!([{"type": "text", "text": self.text}]),
            _ => json!(self.text),
        };
        if !content.is_null() || provider == Provider::OpenAiChat {
            message.insert("content".into(), content);
        }
        if !self.reasoning.is_empty() {
            let key = match provider {
                Provider::Ollama => "thinking",
                Provider::Cohere => "tool_plan",
                _ => "reasoning_content",
            };
            message.insert(key.into(), json!(self.reasoning));
        }
        if !calls.is_empty() {
            message.insert("tool_calls".into(), Value::Array(calls));
        }
        if provider == Provider::OpenAiChat {
            let mut whole = self.header.clone();
            whole.append(&mut message);
            return Value::Object(whole);
        }
        let mut whole = self.header.clone();
        whole.insert("message".into(), Value::Object(message));
        match (provider, &self.finish) {
            (Provider::Ollama, finish) => {
                whole.insert("done".into(), json!(finish.is_some()));
                if let Some(reason) = finish {
                    whole.insert("done_reason".into(), json!(reason));
                }
            }
            (_, Some(reason)) => {
                whole.insert("finish_reason".into(), json!(reason));
            }
            (_, None) => {}
        }
        Value::Object(whole)
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
            self.shown(events, text);
        }
        for key in ["reasoning_content", "reasoning"] {
            if let Some(text) = delta.get(key).and_then(Value::as_str) {
                self.thought(events, text);
            }
        }
        let pieces = match (delta.get("tool_calls"), delta.get("function_call")) {
            (Some(Value::Array(pieces)), _) => pieces.clone(),
            // The deprecated single call: one call at index 0.
            (_, Some(call @ Value::Object(_))) => vec![json!({"index": 0, "function": call})],
            _ => Vec::new(),
        };
        for piece in pieces {
            let Some(call) = self.chat_slot(&piece).and_then(|i| self.open_call(i)) else {
                continue;
            };
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
            self.stopped(reason);
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
                        let Some(call) = self.open_call(index) else {
                            return;
                        };
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
                if let (Some(call), Some(delta)) = (
                    position.and_then(|p| self.open_block_call(p)),
                    event.get("delta").and_then(Value::as_str),
                ) {
                    call.arguments.push_str(delta);
                }
            }
            "response.function_call_arguments.done" => {
                if let Some(call) = position.and_then(|p| self.open_block_call(p)) {
                    if let Some(arguments) = event.get("arguments").and_then(Value::as_str) {
                        call.arguments = arguments.to_owned();
                    }
                    call.done = true;
                }
            }
            "response.output_text.delta" => {
                if let Some(delta) = event.get("delta").and_then(Value::as_str) {
                    self.shown(events, delta);
                    if let Some(position) = position {
                        self.append_text(position, delta);
                    }
                }
            }
            "response.reasoning_summary_text.delta" | "response.reasoning_text.delta" => {
                if let Some(delta) = event.get("delta").and_then(Value::as_str) {
                    self.thought(events, delta);
                }
            }
            "response.completed" | "response.incomplete" | "response.failed" => {
                let response = event.get("response").unwrap_or(&Value::Null);
                let status = response.get("status").and_then(Value::as_str);
                let reason = match response.pointer("/incomplete_details/reason") {
                    Some(Value::String(reason)) => reason.as_str(),
                    _ => status.unwrap_or("completed"),
                };
                self.stopped(reason);
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
                Some(part) if part.get("type") == Some(&json!("output_text")) => {
                    join_text(part, &["text"], delta);
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
        // The message said why it stopped: it is closed, and its last block decided.
        if self.finish.is_some() && kind.starts_with("content_block") {
            return;
        }
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
                        if let (Some(call), Value::Object(block)) = (self.open_call(index), block) {
                            call.value = block.clone();
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
                let piece = delta.get("partial_json").and_then(Value::as_str);
                let orphan = || json!({"type": "tool_use"});
                if self.call_input(position, kind == "input_json_delta", orphan, piece) {
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
                        self.shown(events, text);
                    }
                    "thinking" => {
                        self.thought(events, text);
                    }
                    _ => {}
                }
                if self.blocks[position].is_object() {
                    join_text(&mut self.blocks[position], &[field], text);
                }
            }
            "content_block_stop" => {
                if let Some(call) = position.and_then(|p| self.open_block_call(p)) {
                    call.done = true;
                }
            }
            "message_delta" => {
                if let Some(reason) = event.pointer("/delta/stop_reason").and_then(Value::as_str) {
                    self.stopped(reason);
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
            self.stopped(reason);
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
                self.thought(events, text);
            } else {
                self.shown(events, text);
            }
            // Consecutive text parts of one kind are one part of the whole answer.
            let last_is_call = self
                .blocks
                .len()
                .checked_sub(1)
                .is_some_and(|last| self.call_blocks.contains(&last));
            match self.blocks.last_mut() {
                Some(last)
                    if !last_is_call
                        && last.get("text").is_some()
                        && (last.get("thought").and_then(Value::as_bool) == Some(true))
                            == thought =>
                {
                    join_text(last, &["text"], text);
                }
                _ => self.blocks.push(part.clone()),
            }
        }
    }

    fn bedrock_event(&mut self, event: &Value, events: &mut Vec<StreamEvent>) {
        let Some((kind, body)) = bedrock_kind(event) else {
            return;
        };
        let position = body
            .get("contentBlockIndex")
            .and_then(Value::as_u64)
            .map(|i| i as usize)
            .filter(|i| *i <= 1024);
        // The message said why it stopped: it is closed, and its last block decided.
        let block = matches!(
            kind,
            BedrockEvent::BlockStart | BedrockEvent::BlockDelta | BedrockEvent::BlockStop
        );
        if self.finish.is_some() && block {
            return;
        }
        match kind {
            BedrockEvent::BlockStart => {
                let (Some(position), Some(Value::Object(start))) = (position, body.get("start"))
                else {
                    return;
                };
                // A tool the service runs itself (`"type": "server_tool_use"`) is no call.
                let is_call = start.get("toolUse").is_some_and(|tool| {
                    tool.is_object() && tool.get("type") != Some(&json!("server_tool_use"))
                });
                match self.block_at(position, is_call) {
                    Some(index) => {
                        if let Some(call) = self.open_call(index) {
                            call.value = start.clone();
                        }
                    }
                    None => self.blocks[position] = Value::Object(start.clone()),
                }
            }
            BedrockEvent::BlockDelta => {
                let (Some(position), Some(delta)) = (position, body.get("delta")) else {
                    return;
                };
                let piece = delta.pointer("/toolUse/input").and_then(Value::as_str);
                let orphan = || json!({"toolUse": {}});
                if self.call_input(position, delta.get("toolUse").is_some(), orphan, piece) {
                    return;
                }
                self.block_at(position, false);
                if let Some(text) = delta.get("text").and_then(Value::as_str) {
                    self.shown(events, text);
                    join_text(&mut self.blocks[position], &["text"], text);
                } else if let Some(reasoning) = delta.get("reasoningContent") {
                    if let Some(text) = reasoning.get("text").and_then(Value::as_str) {
                        self.thought(events, text);
                        let path = ["reasoningContent", "reasoningText", "text"];
                        join_text(&mut self.blocks[position], &path, text);
                    }
                    if let Some(signature) = reasoning.get("signature").and_then(Value::as_str) {
                        let path = ["reasoningContent", "reasoningText", "signature"];
                        join_text(&mut self.blocks[position], &path, signature);
                    }
                    if let Some(redacted) = reasoning.get("redactedContent") {
                        let block = json!({"reasoningContent": {"redactedContent": redacted}});
                        self.blocks[position] = block;
                    }
                }
            }
            BedrockEvent::BlockStop => {
                if let Some(call) = position.and_then(|p| self.open_block_call(p)) {
                    call.done = true;
                }
            }
            BedrockEvent::MessageStop => {
                if let Some(reason) = body.get("stopReason").and_then(Value::as_str) {
                    self.stopped(reason);
                }
            }
            BedrockEvent::Metadata => {
                for key in ["usage", "metrics"] {
                    if let Some(value) = body.get(key) {
                        self.header.insert(key.into(), value.clone());
                    }
                }
            }
            BedrockEvent::MessageStart => {}
        }
    }

    /// One object of Ollama's `/api/chat` stream: text, thinking, and calls that come
    /// whole (arguments as an object), until `done`.
    fn ollama_chunk(&mut self, chunk: &Value, events: &mut Vec<StreamEvent>) {
        for key in ["model", "created_at"] {
            if let Some(value) = chunk.get(key) {
                self.header.entry(key).or_insert_with(|| value.clone());
            }
        }
        let message = chunk.get("message").unwrap_or(&Value::Null);
        if let Some(text) = message.get("content").and_then(Value::as_str) {
            self.shown(events, text);
        }
        if let Some(text) = message.get("thinking").and_then(Value::as_str) {
            self.thought(events, text);
        }
        if let Some(Value::Array(calls)) = message.get("tool_calls") {
            for call in calls {
                if let Value::Object(value) = call
                    && self.calls.len() < MAX_CHAT_CALLS
                {
                    self.calls.push(Call {
                        value: value.clone(),
                        done: true,
                        ..Call::default()
                    });
                }
            }
        }
        if chunk.get("done") == Some(&Value::Bool(true)) {
            let reason = chunk.get("done_reason").and_then(Value::as_str);
            self.stopped(reason.unwrap_or("stop"));
        }
    }

    /// One event of Cohere's v2 chat stream (`content-delta`, `tool-plan-delta`,
    /// `tool-call-start`/`-delta`/`-end`, `message-end`, …).
    fn cohere_event(&mut self, event: &Value, events: &mut Vec<StreamEvent>) {
        let kind = event
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let message = event.pointer("/delta/message").unwrap_or(&Value::Null);
        let slot = event
            .get("index")
            .and_then(Value::as_u64)
            .and_then(|i| self.chat_slots.get(i as usize).copied().flatten());
        match kind {
            "message-start" => {
                if let Some(id) = event.get("id") {
                    self.header.insert("id".into(), id.clone());
                }
            }
            "content-delta" => {
                let content = message.get("content").unwrap_or(&Value::Null);
                if let Some(text) = content.get("text").and_then(Value::as_str) {
                    self.shown(events, text);
                }
                if let Some(text) = content.get("thinking").and_then(Value::as_str) {
                    self.thought(events, text);
                }
            }
            "tool-plan-delta" => {
                if let Some(text) = message.get("tool_plan").and_then(Value::as_str) {
                    self.thought(events, text);
                }
            }
            "tool-call-start" => {
                let index = event.get("index").and_then(Value::as_u64);
                let (Some(index), Some(Value::Object(call))) = (index, message.get("tool_calls"))
                else {
                    return;
                };
                let index = index as usize;
                if index > MAX_CHAT_CALLS || self.calls.len() >= MAX_CHAT_CALLS {
                    return;
                }
                let arguments = call
                    .get("function")
                    .and_then(|f| f.get("arguments"))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                self.calls.push(Call {
                    value: call.clone(),
                    arguments,
                    ..Call::default()
                });
                if self.chat_slots.len() <= index {
                    self.chat_slots.resize(index + 1, None);
                }
                self.chat_slots[index] = Some(self.calls.len() - 1);
            }
            "tool-call-delta" => {
                let piece = message
                    .pointer("/tool_calls/function/arguments")
                    .and_then(Value::as_str);
                if let (Some(call), Some(piece)) = (slot.and_then(|i| self.open_call(i)), piece) {
                    call.arguments.push_str(piece);
                }
            }
            "tool-call-end" => {
                if let Some(call) = slot.and_then(|i| self.open_call(i)) {
                    call.done = true;
                }
            }
            "message-end" => {
                if let Some(reason) = event
                    .pointer("/delta/finish_reason")
                    .and_then(Value::as_str)
                {
                    self.stopped(reason);
                }
            }
            _ => {}
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

    /// Text of the answer: kept for the message, and given out.
    fn shown(&mut self, events: &mut Vec<StreamEvent>, text: &str) {
        self.text.push_str(text);
        push(events, StreamEvent::Text, text);
    }

    /// Reasoning: kept for the message, and given out.
    fn thought(&mut self, events: &mut Vec<StreamEvent>, text: &str) {
        self.reasoning.push_str(text);
        push(events, StreamEvent::Reasoning, text);
    }

    /// Records why the model stopped. The first reason given holds: calls reported on it
    /// stay as reported.
    fn stopped(&mut self, reason: &str) {
        if self.finish.is_none() && !reason.is_empty() {
            self.finish = Some(reason.to_owned());
        }
    }

    /// The call at `index`, while it may still change: a call reported is final, and
    /// what a later event would add to it (a repeated event, a late delta) is dropped.
    fn open_call(&mut self, index: usize) -> Option<&mut Call> {
        if index < self.reported {
            return None;
        }
        self.calls.get_mut(index)
    }

    /// The call at block `position`, while it may still change (see `open_call`).
    fn open_block_call(&mut self, position: usize) -> Option<&mut Call> {
        let index = self.call_at(position)?;
        self.open_call(index)
    }

    /// A delta at block `position` that may add `piece` to a call's input (Anthropic,
    /// Bedrock); `is_input` says it is one of input. Whether the block is a call. Input whose
    /// block never began (a proxy lost its start) makes a call without a name, `orphan`,
    /// which the reader reports.
    fn call_input(
        &mut self,
        position: usize,
        is_input: bool,
        orphan: impl FnOnce() -> Value,
        piece: Option<&str>,
    ) -> bool {
        if is_input
            && self.unstarted(position)
            && let (Some(index), Value::Object(value)) = (self.block_at(position, true), orphan())
        {
            self.calls[index].value = value;
        }
        let Some(index) = self.call_at(position) else {
            return false;
        };
        if let (Some(call), Some(piece)) = (self.open_call(index), piece) {
            call.arguments.push_str(piece);
        }
        true
    }

    /// Whether no event began or filled block `position` yet.
    fn unstarted(&self, position: usize) -> bool {
        self.blocks.get(position).is_none_or(Value::is_null) && self.call_at(position).is_none()
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
    const COHERE: [&str; 4] = ["message-", "content-", "tool-", "citation-"];
    if COHERE.iter().any(|prefix| kind.starts_with(prefix)) {
        return Some(Provider::Cohere);
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
    if event.get("done").is_some_and(Value::is_boolean)
        && event
            .get("message")
            .is_some_and(|m| m.get("role").is_some())
    {
        return Some(Provider::Ollama);
    }
    if bedrock_kind(event).is_some() {
        return Some(Provider::Bedrock);
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

/// The input of a streamed call (Anthropic, Bedrock): the JSON its deltas made up, or what
/// its block began with when no delta came. Arguments that do not read stay text, which
/// the reader reports as broken.
fn streamed_input(arguments: &str, given: Option<&Value>) -> Value {
    if arguments.trim().is_empty() {
        return given.cloned().unwrap_or_else(|| json!({}));
    }
    serde_json::from_str(arguments).unwrap_or_else(|_| Value::String(arguments.to_owned()))
}

/// Appends `text` to the string at `path` in `block`, making the objects on the way. In
/// place: a long text streamed in small deltas costs its length, not its square.
fn join_text(block: &mut Value, path: &[&str], text: &str) {
    let mut at = block;
    for key in path {
        if !at.is_object() {
            *at = json!({});
        }
        let Value::Object(map) = at else {
            return;
        };
        at = map.entry(*key).or_insert(Value::Null);
    }
    match at {
        Value::String(known) => known.push_str(text),
        _ => *at = json!(text),
    }
}

/// The events of Bedrock's ConverseStream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BedrockEvent {
    MessageStart,
    BlockStart,
    BlockDelta,
    BlockStop,
    MessageStop,
    Metadata,
}

/// A ConverseStream event and its body: as the AWS SDKs give it as JSON, one key naming
/// the event (`{"contentBlockDelta": {…}}`), or the bare payload of an event-stream frame,
/// whose type was in the frame's headers (`{"contentBlockIndex": 0, "delta": {…}, "p": …}`).
fn bedrock_kind(event: &Value) -> Option<(BedrockEvent, &Value)> {
    const NAMED: [(&str, BedrockEvent); 6] = [
        ("contentBlockDelta", BedrockEvent::BlockDelta),
        ("contentBlockStart", BedrockEvent::BlockStart),
        ("contentBlockStop", BedrockEvent::BlockStop),
        ("messageStart", BedrockEvent::MessageStart),
        ("messageStop", BedrockEvent::MessageStop),
        ("metadata", BedrockEvent::Metadata),
    ];
    let Value::Object(map) = event else {
        return None;
    };
    let named = NAMED.iter().find_map(|(key, kind)| {
        let body = map.get(*key).filter(|body| body.is_object())?;
        Some((*kind, body))
    });
    if named.is_some() {
        return named;
    }
    // A frame's payload; `p` is the padding the service adds.
    let kind = if map.contains_key("contentBlockIndex") {
        if map.contains_key("delta") {
            BedrockEvent::BlockDelta
        } else if map.contains_key("start") {
            BedrockEvent::BlockStart
        } else {
            BedrockEvent::BlockStop
        }
    } else if map.get("stopReason").is_some_and(Value::is_string) {
        BedrockEvent::MessageStop
    } else if map.contains_key("role") && map.keys().all(|k| k == "role" || k == "p") {
        BedrockEvent::MessageStart
    } else if map.contains_key("usage") && map.contains_key("metrics") {
        BedrockEvent::Metadata
    } else {
        return None;
    };
    Some((kind, event))
}

/// The events of calls read at the end, all at once: each call begun and read, then each
/// malformed one failed.
pub(super) fn push_calls(events: &mut Vec<StreamEvent>, extraction: &Extraction) {
    for (index, call) in extraction.calls.iter().enumerate() {
        events.push(StreamEvent::CallBegun {
            index,
            name: call.name.clone(),
        });
        events.push(StreamEvent::Call {
            index,
            call: call.clone(),
        });
    }
    let offset = extraction.calls.len();
    for (index, call) in extraction.malformed.iter().enumerate() {
        events.push(StreamEvent::CallFailed {
            index: offset + index,
            call: call.clone(),
        });
    }
}
