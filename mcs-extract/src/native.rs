//! Provider-native messages: OpenAI chat (and Ollama), OpenAI Responses, Anthropic, Gemini.
//!
//! A message is read in two steps: [`shape_of`] recognises whose message it is and where
//! its calls are, and [`read_shape`] records them through the same `Cx` as every text
//! format, so a call here gets the same checks (a plausible name, the cap on malformed
//! calls, a snippet) as one in text.

use serde_json::{Map, Value};

use super::call_shape::{Trust, calls_in, strong_calls};
use super::json::parse_whole;
use super::record::{Broken, Cx, Outcome, RawCall, ToolIndex};
use super::scan::{clean_name, floor_boundary};
use mcs_core::Tool;
use mcs_core::call::{CallFormat, CallSource, Extraction};
use mcs_core::schema::kind_of;

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

/// What reading a message gave: its calls, or a text to read as text (a message that is a
/// string, or one with no provider shape but a `content` or `text` string).
pub(crate) enum MessageReading<'v> {
    Read(Extraction),
    Text(&'v str),
    /// A chat message with no calls in its fields (the reading), and its text: the server
    /// may have parsed no calls out of it (vLLM without a tool parser, Ollama with a
    /// template that does not), and then its markup holds them. JSON, a Python list or a
    /// ReAct step there is the model's answer, not a call (see `unparsed` in the crate
    /// root).
    Unparsed(Extraction, &'v str),
}

/// The text of a chat message that a server may have left unparsed: the `content` of a
/// chat message with no calls in its fields.
fn unparsed_text<'v>(shape: &Shape<'v>, message: &'v Value) -> Option<&'v str> {
    match shape {
        Shape::OpenAiChat(Some(inner), _) => str_of(inner, "content"),
        Shape::NoCalls => str_of(message, "content"),
        _ => None,
    }
}

/// Calls in a provider-native message; see the [module docs](super) for the rules.
pub(crate) fn read_message<'v>(
    message: &'v Value,
    tools: &[Tool],
    index: Option<ToolIndex<'_>>,
) -> MessageReading<'v> {
    if let Value::String(text) = message {
        return MessageReading::Text(text);
    }
    let mut cx = Cx::new("", tools).indexed(index);
    if let Some(shape) = shape_of(message) {
        // A legacy completion's text is the model's output, whole.
        if let Shape::OpenAiChat(None, _) = shape
            && let Some(Value::String(text)) = message.pointer("/choices/0/text")
        {
            return MessageReading::Text(text);
        }
        let unparsed = unparsed_text(&shape, message);
        let source = read_shape(&mut cx, shape);
        let extraction = ran_out(message, cx.finish(source));
        return match unparsed {
            Some(text) if extraction.is_empty() => MessageReading::Unparsed(extraction, text),
            _ => MessageReading::Read(extraction),
        };
    }
    // A text-generation server's body: the output under its key (Ollama's /api/generate
    // `response`, TGI's `generated_text`), or a transformers pipeline's list of them,
    // whose `generated_text` may be the whole conversation (the last message is the
    // output).
    if let Value::Array(items) = message
        && let [item] = items.as_slice()
        && let Some(generated) = item.get("generated_text")
    {
        return match generated {
            Value::Array(messages) => match messages.last() {
                Some(last) => read_message(last, tools, index),
                None => MessageReading::Read(Extraction::default()),
            },
            other => read_message(other, tools, index),
        };
    }
    // Not a provider shape: maybe the client parsed a JSON call itself.
    if let Some(outcomes) = calls_in(message, &cx, Trust::Weak, false) {
        for outcome in outcomes {
            cx.message_outcome(CallFormat::Json, outcome, "the message", message);
        }
        return MessageReading::Read(cx.finish(CallSource::Text));
    }
    for key in ["content", "text", "response", "generated_text"] {
        if let Some(Value::String(text)) = message.get(key) {
            return MessageReading::Text(text);
        }
    }
    MessageReading::Read(Extraction::default())
}

/// A text that is a whole provider payload (already parsed), read as that message is; the
/// source stays [`CallSource::Text`] because the reply goes back as text. `None` when the
/// value is not one.
pub(crate) fn pasted_value(
    value: &Value,
    tools: &[Tool],
    index: Option<ToolIndex<'_>>,
) -> Option<Extraction> {
    let shape = pasted_shape(value)?;
    let mut cx = Cx::new("", tools).indexed(index);
    read_shape(&mut cx, shape);
    Some(ran_out(value, cx.finish(CallSource::Text)))
}

/// Whether a provider's reason for stopping (`finish_reason`, `stop_reason`,
/// `finishReason`, a Responses `status` or its `incomplete_details.reason`) says the output
/// ended before it was done: at its token limit, or by a failure.
pub(crate) fn stopped_early(reason: &str) -> bool {
    matches!(
        reason.to_ascii_lowercase().as_str(),
        "length" | "max_tokens" | "max_output_tokens" | "incomplete" | "failed"
    )
}

/// `extraction`, its broken calls marked cut off when the provider says the response
/// stopped early: at its token limit (OpenAI's `finish_reason: "length"`, Anthropic's
/// `stop_reason: "max_tokens"`, Gemini's `MAX_TOKENS`, Ollama's `done_reason: "length"`,
/// Bedrock's `stopReason: "max_tokens"`, Cohere's `finish_reason: "MAX_TOKENS"`)
/// or, for a Responses body, `incomplete` or `failed`: arguments that do not parse there
/// were cut, and the retry should say so.
fn ran_out(message: &Value, mut extraction: Extraction) -> Extraction {
    let first = |key: &str| {
        message
            .get(key)
            .and_then(Value::as_array)
            .and_then(|items| items.first())
    };
    let said = [
        first("choices").and_then(|choice| str_of(choice, "finish_reason")),
        str_of(message, "stop_reason"),
        // Cohere's v2 chat response.
        str_of(message, "finish_reason"),
        str_of(message, "stopReason"),
        first("candidates").and_then(|c| str_of(c, "finishReason").or(str_of(c, "finish_reason"))),
        str_of(message, "done_reason"),
        str_of(message, "status"),
    ];
    if let Some(reason) = said
        .into_iter()
        .flatten()
        .find(|reason| stopped_early(reason))
    {
        for malformed in &mut extraction.malformed {
            if !malformed.cut_off {
                malformed.cut_off = true;
                let said = format!(" (the response stopped early: `{reason}`)");
                malformed.detail.push_str(&said);
            }
        }
    }
    extraction
}

/// The shape of a pasted payload, when it is unmistakably a provider's: JSON a model wrote
/// as its answer (`{"tool_calls": […]}`, `{"name", "arguments"}`) is read as a JSON call
/// instead, by the text scan.
fn pasted_shape(value: &Value) -> Option<Shape<'_>> {
    /// The top-level keys one of which every provider payload has. Checked first, by one
    /// pass over the object's own (few) keys: a model's JSON call has none of them.
    const PAYLOAD_KEYS: [&str; 9] = [
        "choices",
        "candidates",
        "object",
        "type",
        "role",
        "message",
        "output",
        "parts",
        "functionCall",
    ];
    match value {
        Value::Object(map) if !map.keys().any(|k| PAYLOAD_KEYS.contains(&k.as_str())) => None,
        Value::Object(map) => {
            let native = map.contains_key("choices")
                || map.contains_key("candidates")
                || str_of(value, "object") == Some("response")
                || (str_of(value, "type") == Some("message")
                    && map.get("content").is_some_and(Value::is_array))
                || map.contains_key("role")
                // Ollama's /api/chat response.
                || map.get("message").is_some_and(|m| m.get("role").is_some())
                // An OpenAI Responses body; `shape_of` checks its item types.
                || map.get("output").is_some_and(Value::is_array)
                // Gemini content without a role, or one part.
                || map.get("parts").is_some_and(Value::is_array)
                // A Bedrock Converse response.
                || map.get("output").is_some_and(|o| o.get("message").is_some())
                // One Responses output item, or one Anthropic content block.
                || matches!(str_of(value, "type"), Some("function_call" | "tool_use"))
                || map.get("functionCall").is_some_and(Value::is_object);
            if native { shape_of(value) } else { None }
        }
        // A Gemini `parts` list, a Bedrock content list; other lists of calls are JSON calls.
        Value::Array(parts) if parts.iter().any(is_gemini_part) => {
            Some(Shape::GeminiParts(parts, "parts"))
        }
        Value::Array(blocks) if blocks.iter().any(is_bedrock_block) => {
            Some(Shape::Bedrock(blocks, "content", None))
        }
        _ => None,
    }
}

/// Whose message a value is, and where its calls are.
#[derive(Clone, Copy)]
enum Shape<'v> {
    /// An OpenAI chat message (also Ollama's), at `path`; `None` when a completion has no
    /// choice.
    OpenAiChat(Option<&'v Value>, &'static str),
    /// OpenAI chat `tool_calls` handed over alone.
    OpenAiToolCalls(&'v [Value]),
    /// OpenAI Responses output items, at `path`.
    Responses(&'v [Value], &'static str),
    /// Anthropic content blocks, at `path`, and the message's `stop_reason`.
    Anthropic(&'v [Value], &'static str, Option<&'v str>),
    /// Gemini parts, at `path`.
    GeminiParts(&'v [Value], &'static str),
    /// One Gemini part holding a `functionCall`.
    GeminiPart(&'v Value),
    /// The first candidate of a Gemini response, and its parts.
    GeminiCandidate(&'v Value, &'v [Value]),
    /// Bedrock Converse content blocks, at `path`, and the response's `stopReason`.
    Bedrock(&'v [Value], &'static str, Option<&'v str>),
    /// A chat message that says it has no tool calls: its text is the answer.
    NoCalls,
}

/// The provider shape of `message`; `None` when it has none.
fn shape_of(message: &Value) -> Option<Shape<'_>> {
    match message {
        Value::Object(map) => object_shape(message, map),
        Value::Array(items) if !items.is_empty() => list_shape(items),
        _ => None,
    }
}

/// The shape of a message that is an object; the checks go from the most specific key to
/// the least.
fn object_shape<'v>(message: &'v Value, map: &'v Map<String, Value>) -> Option<Shape<'v>> {
    // LangChain's serialization of a message: the message is its constructor's `kwargs`.
    if map.contains_key("lc")
        && let Some(Value::Object(kwargs)) = map.get("kwargs")
    {
        return object_shape(&map["kwargs"], kwargs);
    }
    if let Some(Value::Array(choices)) = map.get("choices") {
        let choice = choices.first();
        let inner = choice.and_then(|c| c.get("message").or_else(|| c.get("delta")));
        return Some(Shape::OpenAiChat(inner, "choices[0].message"));
    }
    if let Some(Value::Array(candidates)) = map.get("candidates") {
        let Some(candidate) = candidates.first() else {
            return Some(Shape::GeminiParts(&[], "candidates[0].content.parts"));
        };
        let parts = candidate
            .get("content")
            .and_then(|c| c.get("parts"))
            .and_then(Value::as_array);
        let parts = parts.map_or(&[][..], Vec::as_slice);
        return Some(Shape::GeminiCandidate(candidate, parts));
    }
    if let Some(Value::Array(blocks)) = message.pointer("/output/message/content") {
        let stop = str_of(message, "stopReason");
        return Some(Shape::Bedrock(blocks, "output.message.content", stop));
    }
    if let Some(Value::Array(output)) = map.get("output")
        && (str_of(message, "object") == Some("response")
            || typed_items(output).any(|t| RESPONSES_ITEMS.contains(&t)))
    {
        return Some(Shape::Responses(output, "output"));
    }
    if ["tool_calls", "toolCalls", "function_call"]
        .iter()
        .any(|key| map.contains_key(*key))
    {
        return Some(Shape::OpenAiChat(Some(message), "the message"));
    }
    if let Some(Value::Array(parts)) = map.get("parts") {
        return Some(Shape::GeminiParts(parts, "parts"));
    }
    // One Gemini candidate handed over alone: its content is an object of parts.
    if map
        .get("content")
        .and_then(|c| c.get("parts"))
        .is_some_and(Value::is_array)
    {
        let parts = message.pointer("/content/parts").and_then(Value::as_array);
        return Some(Shape::GeminiCandidate(
            message,
            parts.map_or(&[][..], Vec::as_slice),
        ));
    }
    // One output item or content block handed over alone.
    match str_of(message, "type") {
        Some("function_call") => {
            return Some(Shape::Responses(std::slice::from_ref(message), "the item"));
        }
        Some("tool_use") => {
            let block = std::slice::from_ref(message);
            return Some(Shape::Anthropic(block, "the block", None));
        }
        _ => {}
    }
    if is_gemini_part(message) {
        return Some(Shape::GeminiPart(message));
    }
    if let Some(Value::Array(blocks)) = map.get("content") {
        if blocks.iter().any(is_bedrock_block) {
            return Some(Shape::Bedrock(blocks, "content", None));
        }
        if is_anthropic_content(message, map, blocks) {
            let stop = str_of(message, "stop_reason");
            return Some(Shape::Anthropic(blocks, "content", stop));
        }
    }
    if let Some(inner @ Value::Object(_)) = map.get("message")
        && inner.get("role").is_some()
    {
        // Ollama's /api/chat response wraps the message.
        return Some(Shape::OpenAiChat(Some(inner), "message"));
    }
    let text_content = map
        .get("content")
        .is_some_and(|c| c.is_string() || c.is_null() || c.is_array());
    (map.contains_key("role") && text_content).then_some(Shape::NoCalls)
}

/// Whether a message with a `content` list is Anthropic's: it says so, or every block has
/// an Anthropic type.
fn is_anthropic_content(message: &Value, map: &Map<String, Value>, blocks: &[Value]) -> bool {
    str_of(message, "type") == Some("message")
        || map.contains_key("stop_reason")
        || (!blocks.is_empty()
            && typed_items(blocks).count() == blocks.len()
            && typed_items(blocks).all(|t| ANTHROPIC_BLOCKS.contains(&t)))
}

/// The shape of a message that is a non-empty list: output items, content blocks, parts,
/// or chat tool calls.
fn list_shape(items: &[Value]) -> Option<Shape<'_>> {
    let types: Vec<&str> = typed_items(items).collect();
    let all_typed = types.len() == items.len();
    if types.contains(&"function_call")
        || (all_typed
            && types.iter().all(|t| RESPONSES_ITEMS.contains(t))
            && types.contains(&"message"))
    {
        return Some(Shape::Responses(items, "output"));
    }
    if all_typed && types.iter().all(|t| ANTHROPIC_BLOCKS.contains(t)) {
        return Some(Shape::Anthropic(items, "content", None));
    }
    if items.iter().any(|item| {
        item.get("functionCall").is_some()
            || item.get("function_call").is_some_and(Value::is_object)
    }) {
        return Some(Shape::GeminiParts(items, "parts"));
    }
    if items.iter().any(is_bedrock_block) {
        return Some(Shape::Bedrock(items, "content", None));
    }
    if items
        .iter()
        .all(|item| item.get("function").is_some_and(Value::is_object))
    {
        return Some(Shape::OpenAiToolCalls(items));
    }
    None
}

/// A Bedrock Converse content block holding a `toolUse` object.
fn is_bedrock_block(value: &Value) -> bool {
    value.get("toolUse").is_some_and(Value::is_object)
}

/// A Gemini part with a camel-case `functionCall` object (the snake-case `function_call`
/// alone is OpenAI's deprecated call, read as such).
fn is_gemini_part(value: &Value) -> bool {
    value.get("functionCall").is_some_and(Value::is_object)
}

/// Records the calls of a message of shape `shape`; returns where they came from.
fn read_shape(cx: &mut Cx<'_>, shape: Shape<'_>) -> CallSource {
    match shape {
        Shape::OpenAiChat(message, path) => {
            if let Some(message) = message {
                openai_chat(cx, message, path);
            }
            CallSource::OpenAiChat
        }
        Shape::OpenAiToolCalls(calls) => {
            tool_calls(cx, calls, "tool_calls");
            CallSource::OpenAiChat
        }
        Shape::Responses(items, path) => {
            responses(cx, items, path);
            CallSource::OpenAiResponses
        }
        Shape::Anthropic(blocks, path, stop) => {
            anthropic_blocks(cx, blocks, path, stop);
            CallSource::Anthropic
        }
        Shape::GeminiParts(parts, path) => {
            for (index, part) in parts.iter().enumerate() {
                gemini_part(cx, part, &format!("{path}[{index}]"));
            }
            CallSource::Gemini
        }
        Shape::GeminiPart(part) => {
            gemini_part(cx, part, "the part");
            CallSource::Gemini
        }
        Shape::GeminiCandidate(candidate, parts) => {
            for (index, part) in parts.iter().enumerate() {
                gemini_part(cx, part, &format!("candidates[0].content.parts[{index}]"));
            }
            // Gemini says it could not read the call the model wrote, and sends none.
            if str_of(candidate, "finishReason") == Some("MALFORMED_FUNCTION_CALL")
                && !parts.iter().any(is_gemini_part)
            {
                let said = str_of(candidate, "finishMessage");
                let detail = unread_call("Gemini", "MALFORMED_FUNCTION_CALL", said);
                let outcome = Err(Broken::new(None, detail));
                cx.message_outcome(CallFormat::Gemini, outcome, "candidates[0]", candidate);
            }
            CallSource::Gemini
        }
        Shape::Bedrock(blocks, path, stop) => {
            bedrock_blocks(cx, blocks, path, stop);
            CallSource::Bedrock
        }
        Shape::NoCalls => CallSource::OpenAiChat,
    }
}

fn str_of<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
}

fn typed_items(items: &[Value]) -> impl Iterator<Item = &str> {
    items.iter().filter_map(|item| str_of(item, "type"))
}

/// Arguments given as an object or as a JSON-encoded string (OpenAI), possibly damaged.
fn decode_arguments(
    name: &str,
    value: Option<&Value>,
    field: &str,
) -> Result<(Value, bool), Broken> {
    let broken = |detail: String| Broken::new(Some(name.to_owned()), detail);
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
                text[..floor_boundary(text, error.pos)].chars().count() + 1
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
        Some(Value::String(name)) if !clean_name(name).is_empty() => Ok(clean_name(name)),
        _ => Err(Broken::new(None, "the call has no `name`".to_owned())),
    }
}

/// The call in `call`: its name under `"name"`, its arguments under `key` (`field` names
/// that key in messages), and `id`.
fn read_call(call: &Value, key: &str, field: &str, id: Option<String>) -> Outcome {
    let name = name_of(call.get("name"))?;
    let (arguments, repaired) = decode_arguments(&name, call.get(key), field)?;
    Ok(RawCall {
        name,
        arguments,
        id,
        repaired,
    })
}

fn openai_chat(cx: &mut Cx<'_>, message: &Value, path: &str) {
    // `toolCalls`: the Vercel AI SDK's and Spring AI's records of one. LangChain's message
    // chunk holds the arguments as they streamed in `tool_call_chunks`, where its
    // `tool_calls` hold a best-effort parse of them (a value cut short read as whole).
    let calls = ["tool_call_chunks", "tool_calls", "toolCalls"]
        .into_iter()
        .find_map(|key| match message.get(key) {
            Some(Value::Array(calls)) if !calls.is_empty() => Some((key, calls)),
            _ => None,
        });
    match calls {
        Some((key, calls)) => {
            tool_calls(cx, calls, &format!("{path}.{key}"));
        }
        _ => {
            if let Some(call @ Value::Object(_)) = message.get("function_call") {
                let outcome = read_call(call, "arguments", "function_call.arguments", None);
                let path = format!("{path}.function_call");
                cx.message_outcome(CallFormat::OpenAiChat, outcome, &path, call);
            }
        }
    }
    // LangChain's record of the calls it could not parse.
    if let Some(Value::Array(invalid)) = message.get("invalid_tool_calls") {
        for (index, call) in invalid.iter().enumerate() {
            let name = call.get("name").and_then(Value::as_str).map(clean_name);
            let why = call.get("error").and_then(Value::as_str);
            let why = why.unwrap_or("its arguments do not read as JSON");
            let detail = format!("the call was recorded as invalid: {why}");
            let path = format!("{path}.invalid_tool_calls[{index}]");
            cx.message_outcome(
                CallFormat::OpenAiChat,
                Err(Broken::new(name, detail)),
                &path,
                call,
            );
        }
    }
}

fn tool_calls(cx: &mut Cx<'_>, calls: &[Value], path: &str) {
    for (index, call) in calls.iter().enumerate() {
        let path = format!("{path}[{index}]");
        // Chat Completions nests the call in `function`; some proxies flatten it.
        let function = call.get("function").filter(|f| f.is_object());
        if function.is_none() && call.get("name").is_none() {
            // A framework's record of a call (`toolName`, `tool_name`, …): read as JSON
            // calls are, where the list says it is one.
            let what = format!("`{path}`");
            for outcome in strong_calls(call, cx, false, &what) {
                cx.message_outcome(CallFormat::OpenAiChat, outcome, &path, call);
            }
            continue;
        }
        let function = function.unwrap_or(call);
        let id = id_of(call, &["id"]);
        // Cohere's v1 API calls them `parameters`, LangChain's messages `args`.
        let key = ["arguments", "parameters", "args", "input"]
            .into_iter()
            .find(|key| function.get(*key).is_some())
            .unwrap_or("arguments");
        let field = if key == "arguments" {
            "function.arguments"
        } else {
            key
        };
        let outcome = read_call(function, key, field, id);
        cx.message_outcome(CallFormat::OpenAiChat, outcome, &path, call);
    }
}

fn responses(cx: &mut Cx<'_>, items: &[Value], path: &str) {
    for (index, item) in items.iter().enumerate() {
        if str_of(item, "type") != Some("function_call") {
            continue;
        }
        let id = id_of(item, &["call_id", "id"]);
        let outcome = read_call(item, "arguments", "arguments", id);
        let path = format!("{path}[{index}]");
        cx.message_outcome(CallFormat::OpenAiResponses, outcome, &path, item);
    }
}

/// Anthropic `tool_use` blocks. A message that stopped early (`max_tokens`) was cut in its
/// last block: a call there is reported, not run (see [`cut_in_last_block`]).
fn anthropic_blocks(cx: &mut Cx<'_>, blocks: &[Value], path: &str, stop: Option<&str>) {
    for (index, block) in blocks.iter().enumerate() {
        if str_of(block, "type") != Some("tool_use") {
            continue;
        }
        let outcome = read_call(block, "input", "input", id_of(block, &["id"]));
        let outcome = cut_in_last_block(outcome, block, index == blocks.len() - 1, stop);
        let path = format!("{path}[{index}]");
        cx.message_outcome(CallFormat::Anthropic, outcome, &path, block);
    }
}

/// `outcome`, unless the call is its message's last block and the message's stop reason
/// speaks of it. Stopped early (see [`stopped_early`]), the call was cut off: Anthropic
/// and Bedrock return the input of a block cut by the token limit parsed as far as it
/// came, so a whole-looking object may lack what the model was still writing, and nothing
/// cut off runs. Stopped with `malformed_tool_use`, Bedrock says it could not read the
/// call the model was writing: the call it returns anyway does not run either.
fn cut_in_last_block(outcome: Outcome, call: &Value, last: bool, stop: Option<&str>) -> Outcome {
    let Some(reason) = stop.filter(|_| last) else {
        return outcome;
    };
    let name = || call.get("name").and_then(Value::as_str).map(str::to_owned);
    if stopped_early(reason) {
        let detail = format!("the response stopped (`{reason}`) while this call was being written");
        return Err(Broken::cut(name(), detail));
    }
    if reason == "malformed_tool_use" {
        let detail = unread_call("Bedrock", reason, None);
        return Err(Broken::new(name(), detail));
    }
    outcome
}

/// What a provider that stopped with `reason` because it could not read the call the model
/// wrote (and sent none) says of it, with its own words when it gave some.
fn unread_call(provider: &str, reason: &str, said: Option<&str>) -> String {
    let said = said.map(|words| format!(": {words}")).unwrap_or_default();
    format!("{provider} stopped with {reason}: the model wrote a call it could not read{said}")
}

/// Bedrock Converse `toolUse` blocks. A response that stopped early (`max_tokens`) was cut
/// in its last block, and one that stopped with `malformed_tool_use` could not be read
/// there: a call in that block is reported, not run (see [`cut_in_last_block`]). One that
/// stopped with `malformed_tool_use` and holds no call tried one Bedrock could not read.
fn bedrock_blocks(cx: &mut Cx<'_>, blocks: &[Value], path: &str, stop: Option<&str>) {
    let last = blocks.len().saturating_sub(1);
    for (index, block) in blocks.iter().enumerate() {
        // A tool the service ran itself (`"type": "server_tool_use"`) is not the client's.
        let Some(call) = block
            .get("toolUse")
            .filter(|c| c.is_object() && str_of(c, "type") != Some("server_tool_use"))
        else {
            continue;
        };
        let outcome = read_call(call, "input", "input", id_of(call, &["toolUseId"]));
        let outcome = cut_in_last_block(outcome, call, index == last, stop);
        let path = format!("{path}[{index}]");
        cx.message_outcome(CallFormat::Bedrock, outcome, &path, block);
    }
    if stop == Some("malformed_tool_use") && !blocks.iter().any(is_bedrock_block) {
        let detail = unread_call("Bedrock", "malformed_tool_use", None);
        let outcome = Err(Broken::new(None, detail));
        cx.message_outcome(CallFormat::Bedrock, outcome, path, &Value::Null);
    }
}

/// The call in one Gemini part, if it holds one (`functionCall`, or `function_call` as
/// some SDKs serialize it).
fn gemini_part(cx: &mut Cx<'_>, part: &Value, path: &str) {
    let Some(call) = part
        .get("functionCall")
        .or_else(|| part.get("function_call"))
        .filter(|c| c.is_object())
    else {
        return;
    };
    let outcome = read_call(call, "args", "args", id_of(call, &["id"]));
    cx.message_outcome(CallFormat::Gemini, outcome, path, part);
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::MAX_MALFORMED;

    fn read(message: &Value) -> Extraction {
        match read_message(message, &[], None) {
            MessageReading::Read(extraction) => extraction,
            MessageReading::Text(text) | MessageReading::Unparsed(_, text) => {
                panic!("read as text: {text}")
            }
        }
    }

    #[test]
    fn a_response_stopped_at_its_token_limit_cut_its_broken_calls() {
        let call = json!({"id": "call_1", "type": "function",
            "function": {"name": "f", "arguments": "{\"a\": \"cu"}});
        let stopped = |reason: &str| {
            json!({"choices": [{"message": {"role": "assistant", "tool_calls": [call]},
                "finish_reason": reason}]})
        };
        let got = read(&stopped("length"));
        assert!(got.malformed[0].cut_off, "{got:#?}");
        assert!(got.malformed[0].detail.contains("stopped early: `length`"));
        assert!(!read(&stopped("tool_calls")).malformed[0].cut_off);
        let anthropic = json!({"type": "message", "stop_reason": "max_tokens",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": "{"}]});
        assert!(read(&anthropic).malformed[0].cut_off);
    }

    #[test]
    fn one_item_or_block_alone_is_read_as_its_provider_writes_it() {
        let item = json!({"type": "function_call", "id": "fc_1", "call_id": "call_1",
            "name": "f", "arguments": "{\"a\": 1}"});
        let got = read(&item);
        assert_eq!(got.source, CallSource::OpenAiResponses);
        assert_eq!(got.calls[0].id.as_deref(), Some("call_1"));
        let block = json!({"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}});
        let got = read(&block);
        assert_eq!(got.source, CallSource::Anthropic);
        assert_eq!(got.calls[0].id.as_deref(), Some("toolu_1"));
    }

    #[test]
    fn message_calls_get_the_checks_of_text_calls() {
        let spaced = json!({"role": "assistant", "tool_calls": [
            {"id": "a", "function": {"name": "get weather", "arguments": "{}"}}
        ]});
        let got = read(&spaced);
        assert!(got.calls.is_empty(), "{got:?}");
        let [malformed] = got.malformed.as_slice() else {
            panic!("{got:?}")
        };
        assert!(
            malformed.detail.contains("the message.tool_calls[0]")
                && malformed.detail.contains("not a tool name"),
            "{malformed:?}"
        );
        assert!(malformed.snippet.contains("get weather"), "{malformed:?}");
        let broken = json!({"function": {"name": "f", "arguments": "[1]"}});
        let many = json!({"role": "assistant", "tool_calls": vec![broken; 100]});
        assert_eq!(read(&many).malformed.len(), MAX_MALFORMED);
    }

    #[test]
    fn pasted_responses_are_read_whatever_spells_their_keys() {
        let plain = r#"{"choices": [{"message": {"tool_calls": [{"id": "call_1", "function": {"name": "f", "arguments": "{}"}}]}}]}"#;
        // The only key that makes it native is written with an escape.
        let escaped = plain.replacen("\"choices\"", "\"\\u0063hoices\"", 1);
        // Long texts too (a key far from the start).
        let padding = format!("{{\"note\": \"{}\", ", "x".repeat(600));
        let long = plain.replacen('{', &padding, 1);
        let long_escaped = escaped.replacen('{', &padding, 1);
        for text in [plain, &escaped, &long, &long_escaped] {
            let value: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}"));
            let extraction = pasted_value(&value, &[], None).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(extraction.source, CallSource::Text);
            assert_eq!(extraction.calls.len(), 1, "{text}");
        }
        let call = serde_json::json!({"tool": "f", "arguments": {}});
        assert!(pasted_value(&call, &[], None).is_none());
    }
}
