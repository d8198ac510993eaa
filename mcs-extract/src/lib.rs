//! Finding the tool calls in a model's output.
//!
//! [`extract`] takes what a model produced — plain text or a provider-native message — and
//! returns every tool call in it, in order, plus every *recognisable but unrecoverable* call
//! (a [`MalformedCall`]), so the caller can ask the model to try again instead of taking the
//! broken call for a final answer. It neither validates arguments against schemas nor
//! executes anything (it reads them as their schemas want, where that is not in doubt).
//!
//! # Text
//!
//! Text is searched for the delimiters of some thirty native formats (Hermes `<tool_call>`,
//! Mistral `[TOOL_CALLS]`, Llama `<|python_tag|>`, DeepSeek `<｜tool▁calls▁begin｜>`,
//! Qwen3-Coder `<function=…>`, Harmony `to=functions.…`, …; see [`CallFormat`]). What lies
//! between them is searched for the weaker conventions: JSON calls (fenced, bare, in prose,
//! arrays, wrappers), pythonic calls, ReAct `Action:` blocks and LangChain `<tool>` tags.
//! Reasoning (`<think>…</think>`, `[THINK]…[/THINK]`, `<seed:think>`, Command-R thinking,
//! Harmony's analysis channel, Kimi `◁think▷`, Gemma 4's thought channel, K2's
//! `<ifm|think…>`, Solar Open's `<|think:start|>`, PLaMo's `<|plamo:begin_think:plamo|>`, Inkling's
//! `<|content_thinking|>`, Hunyuan's `<think:SUFFIX>`) never yields calls; a reasoning tag inside a
//! string of valid JSON (a note titled `about </think>`) is the call's data, not reasoning.
//! A block the output ends inside that ends in calls after its last prose (`<think>… <tool_call>
//! {…}</tool_call>` and nothing after) is a model that went from thinking to calling without
//! writing the closer, as Qwen3, GLM and Kimi do: those calls are read; a draft followed by
//! more reasoning is not. A tool's result the model wrote itself (`<tool_response>`, a
//! ReAct `Observation:`, a Harmony message from `functions.NAME`, ChatML's `tool` role,
//! Mistral's `[TOOL_RESULTS]`, ...) ends what the output can call: only the runtime has a
//! tool's result, so what follows one goes on from invented data, and it neither runs nor
//! shows — where the marker is written as a result (its line's start, or right after
//! another marker), not named in a sentence, inline code or a fenced sample. A text that is
//! one JSON call and nothing else, the format the default system prompt asks for, is read
//! with one strict parse and none of those searches: whatever its strings hold is data. A
//! text that is a whole provider payload (an OpenAI chat completion, an Ollama `/api/chat`
//! response, an OpenAI Responses body, an Anthropic message, a Gemini response, content,
//! `parts` list or lone `functionCall` part) is read as that message is (see below); the
//! source stays [`CallSource::Text`], because the answer goes back as text. A text that
//! starts as a chat template's transcript (a beginning-of-text token, a system or user
//! turn's header, or that role's name alone on the first line: a prompt decoded with its
//! answer) is read from the model's last turn only: the turns before it are the prompt's,
//! and the calls in them ran already.
//!
//! The rules that keep prose and data from being taken for calls:
//!
//! - **Delimited formats** accept any tool name, so a caller can pass calls for tools it
//!   does not own on to another driver. Broken content after a delimiter is malformed,
//!   except after a delimiter that sits mid-sentence and is not followed by anything that
//!   begins like a call: "Qwen writes `<tool_call>` followed by JSON" mentions the tag.
//! - **JSON without a delimiter** is a call when an object has a name key (`name`, `tool`,
//!   `tool_name`, `function`) holding a plausible tool name (no whitespace) *and* an
//!   argument key (`arguments`, `parameters`, `args`, `input`, `tool_input`). Without an
//!   argument key, an object is a call only when the name is one of `tools` and every
//!   other key (besides `id`/`type`) is a parameter of that tool: `{"name": "get_time"}`,
//!   or arguments written beside the name, `{"tool": "search", "query": "x"}`. Objects with a `description` key are tool definitions, never calls; an
//!   array is a list of calls only when every element is one. JSON that is not a call is
//!   skipped whole: calls nested in data are not searched for.
//! - **Weak formats** — pythonic calls without a delimiter, ReAct, LangChain XML, the
//!   `{"action", "action_input"}` blob — are calls only for names in `tools`. A pythonic
//!   list that is cut off or unbalanced (`[get_weather(city="Paris"` at the end) is a
//!   malformed call when it names a known tool or passes keyword arguments; a bracket in
//!   prose (`[f(x) for x in xs]`, `[link](url)`) is not.
//!
//! # Messages
//!
//! A [`LlmResponse::Message`] is read by its provider's shape (OpenAI chat completion or
//! message, including the deprecated `function_call`, Ollama's object arguments and Cohere
//! v1's `parameters`; OpenAI Responses; Anthropic; Gemini; AWS Bedrock Converse, whose
//! `toolUse` blocks are read but for those the service ran itself, and whose last call is
//! cut when the response stopped for `max_tokens`). A chat message with no calls in its
//! fields whose text holds a model's own call markup (`<tool_call>`, `[TOOL_CALLS]`,
//! DeepSeek's tokens) comes from a server that parsed none (vLLM without a tool parser,
//! Ollama with a template that does not), and that markup is read; JSON, a Python list or a
//! ReAct step in a message's text is the model's answer, not a call, and a message of any
//! other shape with no calls yields none. A value that matches no provider shape is read as
//! a JSON call if it is one (say, a client that parsed the model's JSON itself); otherwise
//! its `content`, `text`, `response` (Ollama's `/api/generate`) or `generated_text` (TGI, a
//! transformers pipeline, whose list of messages ends with the output) string, if any, is
//! read as text, as is a legacy completion's `choices[0].text`; otherwise it holds no
//! calls.
#![cfg_attr(docsrs, feature(doc_cfg))]

//!
//! # Layout
//!
//! Modules import only from the layers below their own (`scripts/import-graph.py
//! --under extract` checks that no two files import each other, directly or not):
//!
//! 1. Reading text: `scan` (positions, names, reasoning), `json` (a lenient JSON
//!    reader), `coerce` (typing raw text values with a schema), `visible` (special
//!    tokens left out of what is shown), `transcript` (where the model's turn starts in
//!    a prompt handed back with its answer), `work` (the count of bytes examined, in
//!    debug builds).
//! 2. Results and recording: `extraction` (what [`extract`] returns) and `record`
//!    (`Cx` (in `record`), through which every call attempt is recorded).
//! 3. Call shapes: `call_shape` (which JSON values are calls) and `call_body` (the
//!    JSON after a delimiter: a run of calls, or one call's arguments).
//! 4. Formats: `tagged`, `tokens`, `xml`, `elements` (arguments as a tree of elements:
//!    MiniMax-M3), `pythonic`, `react`, `bare_json` and `native` (provider messages). A
//!    format may use another's reader when its delimiter can hold that format
//!    (`<tool_call>` holds `<function=…>`).
//! 5. Where formats are looked for: `delimiters` (the table of native delimiters and
//!    the one pass that finds them) and `gaps` (the text between them).
//! 6. This module: the entry point.
//!
//! # Adding a format
//!
//! 1. A [`CallFormat`] variant, documented with what the format looks like, and its
//!    [`CallFormat::as_str`] name (lowercase, as vLLM or llama.cpp name the parser).
//! 2. The reader, in the format module whose kind it is (JSON between tags:
//!    `tagged`; special tokens around a name and JSON: `tokens`; raw-text values:
//!    `xml`; Python calls: `pythonic`), recording through `Cx` (in `record`) only.
//! 3. With a delimiter: its row in `delimiters::DELIMITERS`; check that a mention of the
//!    delimiter in prose is not a call (`delimiters::tests`). Without one, a weak format:
//!    a recogniser run from `gaps`, for known tools only.
//! 4. Corpus cases in `tests/corpus/*.toml`: a real output, a broken one (`malformed`),
//!    and prose that mentions the format without calling (no `calls`).

pub(crate) mod bare_json;
pub(crate) mod call_body;
mod call_shape;
mod channels;
mod coerce;
mod delimiters;
mod elements;
mod gaps;
pub(crate) mod horizon;
mod json;
mod markdown;
pub(crate) mod native;
mod pythonic;
mod react;
pub(crate) mod reasoning;
pub(crate) mod record;
pub(crate) mod scan;
pub mod stream;
mod tagged;
pub(crate) mod text;
mod tokens;
mod transcript;
mod visible;
mod work;
mod xml;

pub use mcs_core::call::{
    CallFormat, CallSource, Extraction, FoundCall, MAX_MALFORMED, MalformedCall, ReasoningStart,
};
#[doc(hidden)]
pub use work::take_examined;

use mcs_core::LlmResponse;
use mcs_core::Tool;
use native::MessageReading;
use record::Cx;
pub use record::ToolIndex;
use text::TextScan;

/// Finds every tool call in `response`.
///
/// `tools` are the tools the caller knows; weak formats (see the [module docs](self)) only
/// count calls to them, XML-like formats convert argument values with their schemas, and
/// every call to a known tool comes with its arguments read as a driver reads them before
/// it validates ([`coerce_arguments`](mcs_core::validate::coerce_arguments): `"days": "3"`
/// is 3, an optional `null` the schema refuses is not given). Never panics, and takes time roughly linear in the size of the output.
pub fn extract(response: LlmResponse<'_>, tools: &[Tool]) -> Extraction {
    extract_with(response, tools, None)
}

/// [`extract`], looking tools up through `index` instead of scanning `tools`: what
/// `process_llm_response` uses, so that an output costs the same for 1,000 tools as for 10.
/// An index that disagrees with `tools` falls back to a scan.
pub fn extract_indexed(
    response: LlmResponse<'_>,
    tools: &[Tool],
    index: ToolIndex<'_>,
) -> Extraction {
    extract_with(response, tools, Some(index))
}

fn extract_with(
    response: LlmResponse<'_>,
    tools: &[Tool],
    index: Option<ToolIndex<'_>>,
) -> Extraction {
    match response {
        LlmResponse::Text(text) => extract_text(text, tools, index),
        LlmResponse::Message(message) => match native::read_message(message, tools, index) {
            MessageReading::Read(extraction) => extraction,
            MessageReading::Text(text) => extract_text(text, tools, index),
            MessageReading::Unparsed(read, text) => unparsed(read, text, tools, index),
        },
    }
}

/// The calls of a chat message's text that the server left unparsed (see
/// [`MessageReading::Unparsed`]): those a model's own markup holds (`<tool_call>`,
/// `[TOOL_CALLS]`, DeepSeek's tokens…), read as text. Else `read`, the message's own
/// reading, with no calls: JSON, a Python list or a ReAct step in a chat message's text is
/// what models served with tool calling write when they show a call (`Here is JSON: {…}`),
/// not markup a server failed to parse.
pub(crate) fn unparsed(
    read: Extraction,
    text: &str,
    tools: &[Tool],
    index: Option<ToolIndex<'_>>,
) -> Extraction {
    let extraction = extract_text(text, tools, index);
    let weak = |format: &CallFormat| {
        matches!(
            format,
            CallFormat::Json | CallFormat::React | CallFormat::Pythonic | CallFormat::LangChainXml
        )
    };
    let calls = extraction.calls.iter().map(|call| &call.format);
    let mut formats = calls.chain(extraction.malformed.iter().map(|call| &call.format));
    if extraction.is_empty() || formats.any(weak) {
        read
    } else {
        extraction
    }
}

/// The calls of a text that is one JSON value: a pasted provider payload, or the bare call
/// the system prompt asks for. `None` when the text is something else, for the full scan.
pub(crate) fn whole_value(
    text: &str,
    tools: &[Tool],
    index: Option<ToolIndex<'_>>,
) -> Option<Extraction> {
    let (value, start, end) = bare_json::whole_json(text)?;
    if let Some(extraction) = native::pasted_value(&value, tools, index) {
        return Some(extraction);
    }
    let mut whole = Cx::new(text, tools).indexed(index);
    bare_json::whole_parsed(&mut whole, &value, start, end).then(|| whole.finish(CallSource::Text))
}

/// Extraction from text.
fn extract_text(text: &str, tools: &[Tool], index: Option<ToolIndex<'_>>) -> Extraction {
    // A byte-order mark a file or a Windows tool put first is no part of the answer: read
    // as blank space (offsets stay those of the text).
    let blanked;
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => {
            blanked = format!("   {rest}");
            blanked.as_str()
        }
        None => text,
    };
    // A transcript handed back whole (a prompt decoded with its answer) is read from the
    // model's last turn: the turns before it are the prompt's.
    let echoed;
    let text = match transcript::model_turn(text) {
        Some(start) => {
            echoed = transcript::blank_before(text, start);
            echoed.as_str()
        }
        None => text,
    };
    // A text that is one JSON value is parsed once, else left to the full scan.
    if let Some(extraction) = whole_value(text, tools, index) {
        return extraction;
    }
    let (visible, unclosed) = reasoning::blank_reasoning(text, ReasoningStart::Auto);
    // So is an answer that is one JSON value after its reasoning.
    if unclosed.is_none()
        && matches!(visible, std::borrow::Cow::Owned(_))
        && let Some(extraction) = whole_value(&visible, tools, index)
    {
        return extraction;
    }
    let mut scan = TextScan::new();
    {
        // Reading that runs into the end of the output met a call cut off there.
        let _end = horizon::open(&visible);
        scan.read(&visible, tools, index, true);
    }
    if let Some(content) = unclosed {
        text::read_calls_ending_reasoning(&mut scan, text, &visible, content, tools, index);
    }
    scan.into_found().finish(CallSource::Text)
}
