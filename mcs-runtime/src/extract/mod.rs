//! Finding the tool calls in a model's output.
//!
//! [`extract`] takes what a model produced — plain text or a provider-native message — and
//! returns every tool call in it, in order, plus every *recognisable but unrecoverable* call
//! (a [`MalformedCall`]), so the caller can ask the model to try again instead of taking the
//! broken call for a final answer. It neither validates arguments against schemas nor
//! executes anything.
//!
//! # Text
//!
//! Text is searched for the delimiters of some thirty native formats (Hermes `<tool_call>`,
//! Mistral `[TOOL_CALLS]`, Llama `<|python_tag|>`, DeepSeek `<｜tool▁calls▁begin｜>`,
//! Qwen3-Coder `<function=…>`, Harmony `to=functions.…`, …; see [`CallFormat`]). What lies
//! between them is searched for the weaker conventions: JSON calls (fenced, bare, in prose,
//! arrays, wrappers), pythonic calls, ReAct `Action:` blocks and LangChain `<tool>` tags.
//! Reasoning (`<think>…</think>`, `[THINK]…[/THINK]`, `<seed:think>`, Command-R thinking,
//! Harmony's analysis channel) never yields calls; a reasoning tag inside a string of valid
//! JSON (a note titled `about </think>`) is the call's data, not reasoning. A text that is
//! one JSON call and nothing else, the format the default system prompt asks for, is read
//! with one strict parse and none of those searches: whatever its strings hold is data.
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
//!   `{"action", "action_input"}` blob — are calls only for names in `tools`.
//!
//! # Messages
//!
//! A [`LlmResponse::Message`] is read by its provider's shape (OpenAI chat completion or
//! message, including the deprecated `function_call` and Ollama's object arguments; OpenAI
//! Responses; Anthropic; Gemini). A message whose shape says it carries no tool calls
//! yields none: JSON in its text content is the model's answer, not a call. A value that
//! matches no provider shape is read as a JSON call if it is one (say, a client that
//! parsed the model's JSON itself); otherwise its `content` or `text` string, if any, is
//! read as text; otherwise it holds no calls.

mod coerce;
mod generic;
mod json;
mod native;
mod pythonic;
mod react;
mod scan;
mod sentinel;
mod shape;
mod tagged;
mod tokens;
mod xml;

use serde_json::Value;

use crate::driver::LlmResponse;
use crate::types::Tool;

/// How many malformed calls one text reports at most: a retry hint needs a few, and
/// locating each one costs a pass over the text.
pub const MAX_MALFORMED: usize = 64;

/// How many positions one text has located (line and column) before details fall back to
/// byte offsets, which cost nothing.
const MAX_LOCATED: usize = 256;

/// Every tool call found in one model output.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Extraction {
    /// Where the calls came from; decides the shape of the messages that answer them.
    pub source: CallSource,
    /// The calls that could be read, in the order they appear.
    pub calls: Vec<FoundCall>,
    /// The calls that are recognisably calls but could not be read, in order (at most
    /// [`MAX_MALFORMED`] of them from one text).
    pub malformed: Vec<MalformedCall>,
}

impl Extraction {
    /// Whether the output holds no call at all, readable or not: it is a final answer.
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty() && self.malformed.is_empty()
    }
}

/// The kind of output the calls were found in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CallSource {
    /// Plain text (including provider JSON pasted as text).
    #[default]
    Text,
    /// An OpenAI chat completion or chat message (also Ollama's chat message).
    OpenAiChat,
    /// An OpenAI Responses API response or output list.
    OpenAiResponses,
    /// An Anthropic Messages API message or content list.
    Anthropic,
    /// A Gemini `generateContent` response, candidate or content.
    Gemini,
}

/// One tool call read from the output.
#[derive(Clone, Debug, PartialEq)]
pub struct FoundCall {
    /// The tool's name, without namespace prefixes (`functions.`, `default_api.`) or
    /// Kimi's `:IDX` suffix.
    pub name: String,
    /// The arguments, always a JSON object. Values of XML-like formats are converted with
    /// the tool's parameter schema (`<parameter=days>3</parameter>` gives `3` for an
    /// integer parameter).
    pub arguments: Value,
    /// The call's id, when the format carries one (OpenAI `call_…`, Anthropic `toolu_…`,
    /// Mistral `[CALL_ID]`, Kimi `functions.NAME:IDX`, Command-R `tool_call_id`).
    pub id: Option<String>,
    /// The format the call was written in.
    pub format: CallFormat,
    /// The call could only be read after repairing damaged JSON (trailing commas, single
    /// or typographic quotes, unquoted keys, Python literals, comments, raw control
    /// characters in strings).
    pub repaired: bool,
}

/// A call that is recognisably a call but cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MalformedCall {
    /// The format the call was attempted in.
    pub format: CallFormat,
    /// The tool's name, when it could be read.
    pub name: Option<String>,
    /// What is wrong, and where (line and column in the output).
    pub detail: String,
    /// A short excerpt of the output where the call starts.
    pub snippet: String,
}

/// The format a call was written in.
///
/// The names follow the tool-call parsers of vLLM, SGLang and llama.cpp.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CallFormat {
    /// A JSON call without delimiters: fenced, bare or in prose; also xLAM arrays and
    /// Llama 3's bare `{"name", "parameters"}`.
    Json,
    /// Hermes / Qwen 2.5 / Qwen 3 `<tool_call>{json}</tool_call>`.
    Hermes,
    /// Mistral `[TOOL_CALLS]`, every version.
    Mistral,
    /// Llama 3.x `<|python_tag|>` JSON or built-in tool call.
    Llama3,
    /// Pythonic `[f(a=1)]`, also Llama 4's `<|python_start|>`.
    Pythonic,
    /// Liquid LFM2 `<|tool_call_start|>[f(a=1)]<|tool_call_end|>`.
    Lfm2,
    /// Gemma 3 ```` ```tool_code ```` blocks.
    GemmaToolCode,
    /// Gemma 4 `<|tool_call>call:NAME{…}<tool_call|>`.
    Gemma4,
    /// Qwen3-Coder / Nemotron 3 `<function=NAME><parameter=K>v</parameter></function>`.
    Qwen3Coder,
    /// ByteDance Seed-OSS `<seed:tool_call>`.
    SeedOss,
    /// MiniMax-M1 `<tool_calls>` with one JSON call per line.
    MiniMaxM1,
    /// MiniMax-M2 `<minimax:tool_call><invoke name=…>`.
    MiniMaxM2,
    /// Legacy Claude text tool use `<function_calls><invoke name=…>`.
    ClaudeXml,
    /// DeepSeek V3 / R1 / V3.1 `<｜tool▁calls▁begin｜>`.
    DeepSeek,
    /// DeepSeek V3.2 DSML `<｜DSML｜function_calls>`.
    DeepSeekDsml,
    /// Kimi K2 `<|tool_calls_section_begin|>`.
    KimiK2,
    /// GLM-4.5 / 4.6 `<tool_call>NAME<arg_key>…`.
    Glm4,
    /// IBM Granite `<|tool_call|>`, `<tool_call>[…]`, `<function_call>`.
    Granite,
    /// InternLM `<|action_start|><|plugin|>`.
    InternLm,
    /// AI21 Jamba / Apriel `<tool_calls>[…]</tool_calls>`.
    Jamba,
    /// Nemotron Nano v2 `<TOOLCALL>[…]</TOOLCALL>`.
    Nemotron,
    /// Swiss AI Apertus `<|tools_prefix|>[{NAME: {…}}]<|tools_suffix|>`.
    Apertus,
    /// Cohere Command R7B / A `<|START_ACTION|>`.
    CommandR,
    /// MeetKai Functionary `>>>NAME` and `<function=NAME>{json}</function>`.
    Functionary,
    /// Phi-4-mini / FireFunction `functools[…]`.
    Phi4Mini,
    /// gpt-oss Harmony `to=functions.NAME … <|message|>{json}`.
    Harmony,
    /// ReAct `Action:` / `Action Input:`, and LangChain's `{"action", "action_input"}` blob.
    React,
    /// LangChain XML agent `<tool>NAME</tool><tool_input>…</tool_input>`.
    LangChainXml,
    /// OpenAI chat `tool_calls` (or deprecated `function_call`), also Ollama's.
    OpenAiChat,
    /// OpenAI Responses `function_call` output items.
    OpenAiResponses,
    /// Anthropic `tool_use` content blocks.
    Anthropic,
    /// Gemini `functionCall` parts.
    Gemini,
}

impl CallFormat {
    /// A short lowercase name, e.g. `"hermes"`, `"qwen3_coder"`, `"openai_chat"`.
    pub fn as_str(self) -> &'static str {
        match self {
            CallFormat::Json => "json",
            CallFormat::Hermes => "hermes",
            CallFormat::Mistral => "mistral",
            CallFormat::Llama3 => "llama3",
            CallFormat::Pythonic => "pythonic",
            CallFormat::Lfm2 => "lfm2",
            CallFormat::GemmaToolCode => "gemma_tool_code",
            CallFormat::Gemma4 => "gemma4",
            CallFormat::Qwen3Coder => "qwen3_coder",
            CallFormat::SeedOss => "seed_oss",
            CallFormat::MiniMaxM1 => "minimax_m1",
            CallFormat::MiniMaxM2 => "minimax_m2",
            CallFormat::ClaudeXml => "claude_xml",
            CallFormat::DeepSeek => "deepseek",
            CallFormat::DeepSeekDsml => "deepseek_dsml",
            CallFormat::KimiK2 => "kimi_k2",
            CallFormat::Glm4 => "glm4",
            CallFormat::Granite => "granite",
            CallFormat::InternLm => "internlm",
            CallFormat::Jamba => "jamba",
            CallFormat::Nemotron => "nemotron",
            CallFormat::Apertus => "apertus",
            CallFormat::CommandR => "command_r",
            CallFormat::Functionary => "functionary",
            CallFormat::Phi4Mini => "phi4_mini",
            CallFormat::Harmony => "harmony",
            CallFormat::React => "react",
            CallFormat::LangChainXml => "langchain_xml",
            CallFormat::OpenAiChat => "openai_chat",
            CallFormat::OpenAiResponses => "openai_responses",
            CallFormat::Anthropic => "anthropic",
            CallFormat::Gemini => "gemini",
        }
    }
}

impl std::fmt::Display for CallFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Finds every tool call in `response`.
///
/// `tools` are the tools the caller knows; weak formats (see the [module docs](self)) only
/// count calls to them, and XML-like formats convert argument values with their schemas.
/// Never panics, and takes time roughly linear in the size of the output.
pub fn extract(response: LlmResponse<'_>, tools: &[Tool]) -> Extraction {
    match response {
        LlmResponse::Text(text) => extract_text(text, tools),
        LlmResponse::Message(message) => native::extract_message(message, tools),
    }
}

/// Extraction from text.
fn extract_text(text: &str, tools: &[Tool]) -> Extraction {
    if let Some(extraction) = native::pasted_response(text, tools) {
        return extraction;
    }
    let mut whole = Cx::new(text, tools);
    if generic::whole_value(&mut whole) {
        return whole.finish(CallSource::Text);
    }
    let visible = scan::blank_reasoning(text);
    let mut cx = Cx::new(&visible, tools);
    let regions = sentinel::scan(&mut cx);
    let mut cursor = 0;
    for (start, end) in regions {
        generic::scan_gap(&mut cx, cursor, start);
        cursor = end;
    }
    generic::scan_gap(&mut cx, cursor, visible.len());
    cx.finish(CallSource::Text)
}

/// A call as a format parser reads it, before it is placed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RawCall {
    pub name: String,
    pub arguments: Value,
    pub id: Option<String>,
    pub repaired: bool,
}

/// A call that could not be read, as a format parser reports it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Broken {
    pub name: Option<String>,
    pub detail: String,
}

enum Item {
    Call(FoundCall),
    Malformed(MalformedCall),
}

/// What the format parsers share: the text, the known tools, and what was found so far.
pub(crate) struct Cx<'t> {
    pub text: &'t str,
    pub tools: &'t [Tool],
    items: Vec<(usize, Item)>,
    malformed: usize,
    located: std::cell::Cell<usize>,
}

impl<'t> Cx<'t> {
    pub(crate) fn new(text: &'t str, tools: &'t [Tool]) -> Self {
        Cx {
            text,
            tools,
            items: Vec::new(),
            malformed: 0,
            located: std::cell::Cell::new(0),
        }
    }

    /// The tool called `name`, if the caller knows it.
    pub(crate) fn tool(&self, name: &str) -> Option<&'t Tool> {
        self.tools.iter().find(|tool| tool.name() == name)
    }

    pub(crate) fn is_known(&self, name: &str) -> bool {
        self.tool(name).is_some()
    }

    /// Records a call that starts at byte `at`.
    pub(crate) fn call(&mut self, at: usize, format: CallFormat, call: RawCall) {
        // Every format cleans names; one that was only a namespace (`default_api.`) is
        // empty now, and a call without a name is no call.
        if !scan::plausible_name(&call.name) {
            let detail = format!("`{}` is not a tool name", call.name);
            return self.malformed(at, format, Broken { name: None, detail });
        }
        self.items.push((
            at,
            Item::Call(FoundCall {
                name: call.name,
                arguments: call.arguments,
                id: call.id,
                format,
                repaired: call.repaired,
            }),
        ));
    }

    /// Records a malformed call that starts at byte `at`; `detail` says what is wrong and
    /// this adds where.
    pub(crate) fn malformed(&mut self, at: usize, format: CallFormat, broken: Broken) {
        if self.malformed >= MAX_MALFORMED {
            return;
        }
        self.malformed += 1;
        let detail = format!(
            "{} call at {}: {}",
            format.as_str(),
            self.at(at),
            broken.detail
        );
        self.items.push((
            at,
            Item::Malformed(MalformedCall {
                format,
                name: broken.name,
                detail,
                snippet: scan::snippet(self.text, at),
            }),
        ));
    }

    /// Records the outcome of one call attempt.
    pub(crate) fn outcome(
        &mut self,
        at: usize,
        format: CallFormat,
        outcome: Result<RawCall, Broken>,
    ) {
        match outcome {
            Ok(call) => self.call(at, format, call),
            Err(broken) => self.malformed(at, format, broken),
        }
    }

    /// `where` as "line L, column C", for details that point inside a call.
    pub(crate) fn at(&self, pos: usize) -> String {
        let located = self.located.get();
        if located >= MAX_LOCATED {
            return format!("byte {pos}");
        }
        self.located.set(located + 1);
        let (line, column) = scan::line_column(self.text, pos);
        format!("line {line}, column {column}")
    }

    fn finish(mut self, source: CallSource) -> Extraction {
        // Stable: items at the same offset keep the order they were found in.
        self.items.sort_by_key(|(at, _)| *at);
        let mut extraction = Extraction {
            source,
            ..Extraction::default()
        };
        for (_, item) in self.items {
            match item {
                Item::Call(call) => extraction.calls.push(call),
                Item::Malformed(malformed) => extraction.malformed.push(malformed),
            }
        }
        extraction
    }
}
