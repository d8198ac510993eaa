//! What extraction returns: the calls found, the malformed ones, and the format and kind of
//! output each came from. Plain data; every other module of `extract` builds on it.

use serde_json::Value;

/// How many malformed calls one output reports at most: a retry hint needs a few, and
/// locating each one costs a pass over the text.
pub const MAX_MALFORMED: usize = 64;

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

/// Where an output starts: in the visible answer, or inside reasoning whose opener was in
/// the prompt.
///
/// DeepSeek-R1 and V4, QwQ, Qwen3 thinking models and Kimi K3 put the reasoning opener
/// (`<think>`, `<|open|>think<|sep|>`) at the end of the prompt, so their outputs hold only
/// the closer: everything before it was reasoning, and calls written there are drafts,
/// never run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ReasoningStart {
    /// Decided by the output: when its first reasoning marker is a closer without an
    /// opener (`</think>`), what came before it was reasoning. A stream cannot know this
    /// before that marker or its end, so it reports a call complete only once the question
    /// is settled (see `stream`).
    #[default]
    Auto,
    /// The output starts inside reasoning: everything up to the first closer is reasoning,
    /// and an output without one is all reasoning.
    Inside,
    /// The output starts in the answer: a closer without an opener is ordinary text.
    Outside,
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
    /// An AWS Bedrock Converse response, message or content list (`toolUse` blocks).
    Bedrock,
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
    /// The output ended inside the call (the stream stopped, the model ran out of tokens):
    /// what is there was cut off, and nothing of it may run.
    pub cut_off: bool,
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
    /// Gemma 4 `<|tool_call>call:NAME{…}<tool_call|>`, and FunctionGemma's
    /// `<start_function_call>call:NAME{…}<end_function_call>`.
    Gemma4,
    /// Qwen3-Coder / Nemotron 3 `<function=NAME><parameter=K>v</parameter></function>`.
    Qwen3Coder,
    /// ByteDance Seed-OSS `<seed:tool_call>`.
    SeedOss,
    /// MiniMax-M1 `<tool_calls>` with one JSON call per line.
    MiniMaxM1,
    /// MiniMax-M2 `<minimax:tool_call><invoke name=…>`.
    MiniMaxM2,
    /// MiniMax-M3: `]<]minimax[>[` before every tag, `<tool_call><invoke name=…>` with each
    /// parameter an element named by its key (`<city>Tokyo</city>`), nested for objects
    /// and arrays (`<item>`).
    MiniMaxM3,
    /// Legacy Claude text tool use `<function_calls><invoke name=…>`, also in a namespace
    /// of the model's own (`<atem:function_calls><atem:invoke name=…>`).
    ClaudeXml,
    /// DeepSeek V3 / R1 / V3.1 `<｜tool▁calls▁begin｜>`.
    DeepSeek,
    /// StepFun Step 3 `<｜tool_call_begin｜><steptml:invoke name=…><steptml:parameter name=…>`:
    /// DeepSeek's call tokens around invoke markup.
    Step3,
    /// DeepSeek DSML: V3.2 `<｜DSML｜function_calls>`, V4 `<｜DSML｜tool_calls>`, V4.1
    /// `<｜DSML｜ calls>`.
    DeepSeekDsml,
    /// GigaChat 3.5 `<｜GCML｜tool_calls><｜GCML｜invoke name=…>`: DeepSeek's DSML markup in
    /// its own namespace.
    GigaChat,
    /// Kimi K2 `<|tool_calls_section_begin|>`.
    KimiK2,
    /// Kimi K3 `<|open|>tools<|sep|><|open|>call tool=…<|sep|>`.
    KimiK3,
    /// GLM-4.5 / 4.6 `<tool_call>NAME<arg_key>…`, also in a wrapper named after the model
    /// with pairs named the same way (LongCat's `<longcat_arg_key>`).
    Glm4,
    /// Tencent Hunyuan (HY 3, HY 4) `<tool_calls><tool_call>NAME<tool_sep><arg_key>K</arg_key>…`;
    /// HY 4 writes no `<tool_sep>`, and its checkpoints may suffix every tag
    /// (`<tool_call:opensource>`).
    Hunyuan,
    /// Upstage Solar Open 2 `<|tool_call:start|>NAME<|tool_arg:start|>K<|tool_arg:value|>V…`.
    SolarOpen,
    /// PFN PLaMo 3 `<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>NAME…
    /// <|plamo:msg|>{json}`.
    Plamo,
    /// MBZUAI K2 (K2-V3, K2 Horizon) `<ifm|tool_call>NAME<ifm|arg_key>K</ifm|arg_key>…`, or
    /// JSON inside `<ifm|tool_call>`.
    K2,
    /// IBM Granite `<|tool_call|>`, `<tool_call>[…]`, `<function_call>`.
    Granite,
    /// InternLM `<|action_start|><|plugin|>`.
    InternLm,
    /// AI21 Jamba / Apriel `<tool_calls>[…]</tool_calls>`.
    Jamba,
    /// Nemotron Nano v2 `<TOOLCALL>[…]</TOOLCALL>`.
    Nemotron,
    /// Meta Code World Model `<tool: function>⏎NAME input⏎</tool>`.
    Cwm,
    /// Inkling `<|message_model|>NAME<|content_invoke_tool_json|>{"name": NAME, "args": {…}}`.
    Inkling,
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
    /// Qwen-Agent's function-call prompt (Qwen 2, 2.5) `✿FUNCTION✿: NAME⏎✿ARGS✿: {…}`.
    QwenAgent,
    /// OpenAI chat `tool_calls` (or deprecated `function_call`), also Ollama's.
    OpenAiChat,
    /// OpenAI Responses `function_call` output items.
    OpenAiResponses,
    /// Anthropic `tool_use` content blocks.
    Anthropic,
    /// Gemini `functionCall` parts.
    Gemini,
    /// AWS Bedrock Converse `toolUse` content blocks.
    Bedrock,
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
            CallFormat::MiniMaxM3 => "minimax_m3",
            CallFormat::ClaudeXml => "claude_xml",
            CallFormat::DeepSeek => "deepseek",
            CallFormat::Step3 => "step3",
            CallFormat::DeepSeekDsml => "deepseek_dsml",
            CallFormat::GigaChat => "gigachat",
            CallFormat::KimiK2 => "kimi_k2",
            CallFormat::KimiK3 => "kimi_k3",
            CallFormat::Glm4 => "glm4",
            CallFormat::Hunyuan => "hunyuan",
            CallFormat::SolarOpen => "solar_open",
            CallFormat::Plamo => "plamo",
            CallFormat::K2 => "k2_horizon",
            CallFormat::Granite => "granite",
            CallFormat::InternLm => "internlm",
            CallFormat::Jamba => "jamba",
            CallFormat::Nemotron => "nemotron",
            CallFormat::Cwm => "cwm",
            CallFormat::Inkling => "inkling",
            CallFormat::Apertus => "apertus",
            CallFormat::CommandR => "command_r",
            CallFormat::Functionary => "functionary",
            CallFormat::Phi4Mini => "phi4_mini",
            CallFormat::Harmony => "harmony",
            CallFormat::React => "react",
            CallFormat::LangChainXml => "langchain_xml",
            CallFormat::QwenAgent => "qwen_agent",
            CallFormat::OpenAiChat => "openai_chat",
            CallFormat::OpenAiResponses => "openai_responses",
            CallFormat::Anthropic => "anthropic",
            CallFormat::Gemini => "gemini",
            CallFormat::Bedrock => "bedrock",
        }
    }
}

impl std::fmt::Display for CallFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
