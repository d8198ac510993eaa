//! The same tools in the shapes providers take: the MCS listing, OpenAI chat and Responses
//! function tools (plain and strict), Anthropic tools, Gemini function declarations and MCP
//! `tools/list` entries.
//!
//! Every export starts from [`Tool::input_schema`], which is already object-rooted and
//! self-contained (only recursive types keep `$ref`s, into the root's `$defs`). Where a
//! provider takes less than JSON Schema, the schema is rewritten; what is changed, why, and
//! where the rule comes from is written on each function. Tool names are never changed: a
//! renamed tool would come back in calls under a name no driver owns. Check them with
//! [`Provider::accepts_tool_name`] when tools are registered.

mod fit;
mod gemini;
mod openai;
mod rewrite;

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use crate::types::Tool;

pub use gemini::gemini_schema;
pub use mcs_options::names::{
    MAX_NAME, argument_key, is_argument_key, is_tool_name, unused_argument_key,
};
pub use openai::{StrictModeError, openai_strict_arguments, openai_strict_schema};

/// A provider whose rules for tool names [`Provider::accepts_tool_name`] knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Provider {
    /// OpenAI, chat completions and Responses: `^[a-zA-Z0-9_-]{1,64}$` (the API reference of
    /// `function.name`: "a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum
    /// length of 64").
    OpenAi,
    /// Anthropic Messages: `^[a-zA-Z0-9_-]{1,64}$` (the `tools[].name` pattern of the Messages
    /// API).
    Anthropic,
    /// Gemini: starts with a letter or an underscore, then letters, digits, `_`, `.`, `:` and
    /// `-`, at most 64 characters (`FunctionDeclaration.name` in the Gemini API reference).
    Gemini,
    /// Model Context Protocol: 1 to 128 characters of letters, digits, `_`, `-` and `.` (the
    /// tool-name rules of the MCP specification, 2025-11-25; a SHOULD there).
    Mcp,
}

impl Provider {
    /// Whether the provider takes `name` as a tool name.
    pub fn accepts_tool_name(self, name: &str) -> bool {
        use mcs_options::names::is_tool_name_char;
        let length = name.chars().count();
        match self {
            Provider::OpenAi | Provider::Anthropic => is_tool_name(name),
            Provider::Gemini => {
                let mut chars = name.chars();
                (1..=64).contains(&length)
                    && chars
                        .next()
                        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && chars.all(|c| is_tool_name_char(c) || c == '.' || c == ':')
            }
            Provider::Mcp => {
                (1..=128).contains(&length)
                    && name.chars().all(|c| is_tool_name_char(c) || c == '.')
            }
        }
    }
}

/// The MCS listing, as the reference SDK writes it into prompts:
/// `{"tools": [{name, description, parameters}]}` with `parameters` =
/// `{"type": "object", "properties", "required"}`.
///
/// Unchanged from [`Tool::input_schema`]; a parameter without a schema is a string, and the
/// description falls back to the title (the standard requires one of the two).
pub fn mcs_listing(tools: &[Tool]) -> Value {
    let tools: Vec<Value> = tools.iter().map(mcs_tool).collect();
    json!({ "tools": tools })
}

/// One entry of [`mcs_listing`]: `{name, description, parameters}`.
pub fn mcs_tool(tool: &Tool) -> Value {
    json!({
        "name": tool.name(),
        "description": tool.model_description(),
        "parameters": tool.input_schema(),
    })
}

/// [`mcs_tool`] within `budget` characters of JSON, for a model to read (a discovery
/// answer, `describe_tool`): unchanged when it fits; otherwise shortened step by step until
/// it does, and saying so in a `note`. Examples, long patterns and the values of long lists
/// go first, then descriptions, then an argument's fields are named rather than described,
/// then arguments (optional ones first) are named in the schema's description rather than
/// described.
///
/// What it shows is not a schema to validate against, nor one to hand a provider as a
/// function's parameters (a strict provider would refuse what it leaves out): the tool
/// still checks every argument against its whole schema when called.
///
/// ```
/// use mcs_core::{Tool, ToolParameter};
/// use mcs_core::export::mcs_tool_within;
/// use serde_json::json;
///
/// let fonts: Vec<String> = (0..2_000).map(|i| format!("Font {i}")).collect();
/// let tool = Tool::new("chart", "Draws a chart.").with_parameter(
///     ToolParameter::new("font", "The font.").with_schema(json!({"enum": fonts})),
/// );
/// let shown = mcs_tool_within(&tool, 4_000);
/// assert!(shown.to_string().len() <= 4_000);
/// assert_eq!(shown["parameters"]["properties"]["font"]["enum"][0], "Font 0");
/// assert!(shown["note"].is_string());
/// ```
pub fn mcs_tool_within(tool: &Tool, budget: usize) -> Value {
    fit::fit(mcs_tool(tool), budget)
}

/// The longest `function.description` OpenAI chat completions takes: longer ones are rejected
/// with `string_above_max_length` ("Expected a string with maximum length 1024").
pub const OPENAI_DESCRIPTION_LIMIT: usize = 1024;

/// An OpenAI chat completions function tool:
/// `{"type": "function", "function": {name, description, parameters}}`.
///
/// The schema is passed unchanged (without `strict`, the API takes JSON Schema as it is). A
/// description longer than [`OPENAI_DESCRIPTION_LIMIT`] characters is cut at a word boundary
/// and ends in `…`: the API rejects the whole request otherwise.
pub fn openai_chat_tool(tool: &Tool) -> Value {
    json!({
        "type": "function",
        "function": {
            "name": tool.name(),
            "description": openai_description(tool),
            "parameters": tool.input_schema(),
        },
    })
}

/// [`openai_chat_tool`] for each tool: the chat completions `tools` array.
pub fn openai_chat_tools(tools: &[Tool]) -> Value {
    Value::Array(tools.iter().map(openai_chat_tool).collect())
}

/// An OpenAI chat completions function tool in strict mode:
/// `{"type": "function", "function": {name, description, parameters, strict: true}}`, with the
/// schema rewritten by [`openai_strict_schema`] (every object closed and fully required,
/// optional properties nullable, unsupported keywords moved into descriptions).
///
/// A tool whose schema strict mode cannot express (a map, a value of any type, a tuple; see
/// [`StrictModeError`]) is exported as [`openai_chat_tool`] with `strict: false` instead:
/// strict mode would otherwise close the map and the model could never fill it.
///
/// Strict mode makes the model send `null` for an optional argument it leaves out; pass the
/// arguments of its calls through [`openai_strict_arguments`] before decoding them.
pub fn openai_chat_tool_strict(tool: &Tool) -> Value {
    let (parameters, strict) = strict_or_plain(tool);
    json!({
        "type": "function",
        "function": {
            "name": tool.name(),
            "description": openai_description(tool),
            "parameters": parameters,
            "strict": strict,
        },
    })
}

/// [`openai_chat_tool_strict`] for each tool.
pub fn openai_chat_tools_strict(tools: &[Tool]) -> Value {
    Value::Array(tools.iter().map(openai_chat_tool_strict).collect())
}

/// An OpenAI Responses API function tool:
/// `{"type": "function", name, description, parameters, strict}`, flat.
///
/// `strict` is always written, because the Responses API defaults it to `true`. With
/// `strict`, the schema is rewritten as for [`openai_chat_tool_strict`], and a tool strict mode
/// cannot express falls back to its plain schema with `strict: false`. The description is
/// limited as for chat completions.
pub fn openai_responses_tool(tool: &Tool, strict: bool) -> Value {
    let (parameters, strict) = if strict {
        strict_or_plain(tool)
    } else {
        (tool.input_schema(), false)
    };
    json!({
        "type": "function",
        "name": tool.name(),
        "description": openai_description(tool),
        "parameters": parameters,
        "strict": strict,
    })
}

/// [`openai_responses_tool`] for each tool.
pub fn openai_responses_tools(tools: &[Tool], strict: bool) -> Value {
    Value::Array(
        tools
            .iter()
            .map(|tool| openai_responses_tool(tool, strict))
            .collect(),
    )
}

/// An Anthropic Messages API tool: `{name, description, input_schema}`.
///
/// Anthropic takes JSON Schema as it is, so the schema is [`Tool::input_schema`] unchanged; it
/// meets the documented requirement that `input_schema` be `type: "object"` (and never has
/// `anyOf`/`oneOf`/`allOf` at its root, which Anthropic also rejects).
pub fn anthropic_tool(tool: &Tool) -> Value {
    json!({
        "name": tool.name(),
        "description": tool.model_description(),
        "input_schema": tool.input_schema(),
    })
}

/// [`anthropic_tool`] for each tool: the Messages API `tools` array.
pub fn anthropic_tools(tools: &[Tool]) -> Value {
    Value::Array(tools.iter().map(anthropic_tool).collect())
}

/// A Gemini function declaration: `{name, description, parameters}`, with `parameters`
/// rewritten into the OpenAPI 3.0 subset Gemini's `Schema` takes by [`gemini_schema`].
///
/// A tool without parameters has no `parameters` at all: Gemini rejects an object schema
/// whose `properties` are empty ("should be non-empty for OBJECT type"), and its reference
/// says to leave the field unset for a function without parameters.
pub fn gemini_function_declaration(tool: &Tool) -> Value {
    let mut declaration = Map::new();
    declaration.insert("name".to_owned(), json!(tool.name()));
    declaration.insert("description".to_owned(), json!(tool.model_description()));
    if !tool.parameters().is_empty() {
        declaration.insert("parameters".to_owned(), gemini_schema(&tool.input_schema()));
    }
    Value::Object(declaration)
}

/// The tools as one Gemini `Tool`: `{"functionDeclarations": [...]}`, each entry a
/// [`gemini_function_declaration`].
pub fn gemini_tools(tools: &[Tool]) -> Value {
    let declarations: Vec<Value> = tools.iter().map(gemini_function_declaration).collect();
    json!({ "functionDeclarations": declarations })
}

/// A Model Context Protocol tool, as an entry of a `tools/list` result:
/// `{name, title?, description, inputSchema, annotations?}`; `annotations` holds the hints
/// the tool says ([`ToolAnnotations`](crate::ToolAnnotations)) under their MCP names.
///
/// `title` is written when the tool has one (the field exists since the 2025-06-18 revision of
/// the specification; older clients ignore it). `inputSchema` is [`Tool::input_schema`]
/// unchanged: MCP takes JSON Schema 2020-12 with `type: "object"` at the root.
pub fn mcp_tool(tool: &Tool) -> Value {
    let mut entry = Map::new();
    entry.insert("name".to_owned(), json!(tool.name()));
    if let Some(title) = tool.title() {
        entry.insert("title".to_owned(), json!(title));
    }
    entry.insert("description".to_owned(), json!(tool.model_description()));
    entry.insert("inputSchema".to_owned(), tool.input_schema());
    if !tool.annotations().is_empty() {
        entry.insert("annotations".to_owned(), json!(tool.annotations()));
    }
    Value::Object(entry)
}

/// The result of an MCP `tools/list` request: `{"tools": [...]}`, each entry a [`mcp_tool`].
pub fn mcp_tools_list(tools: &[Tool]) -> Value {
    let tools: Vec<Value> = tools.iter().map(mcp_tool).collect();
    json!({ "tools": tools })
}

/// The strict schema and `true`, or the plain schema and `false` when strict mode cannot
/// express the tool's parameters.
fn strict_or_plain(tool: &Tool) -> (Value, bool) {
    let schema = tool.input_schema();
    match openai_strict_schema(&schema) {
        Ok(strict) => (strict, true),
        Err(_) => (schema, false),
    }
}

fn openai_description(tool: &Tool) -> Cow<'_, str> {
    let description = tool.model_description();
    if description.chars().count() <= OPENAI_DESCRIPTION_LIMIT {
        return description;
    }
    Cow::Owned(crate::types::cut_text(
        &description,
        OPENAI_DESCRIPTION_LIMIT - 1,
        false,
    ))
}
