//! The two data models side by side: mcs tools, results and errors in MCP's shapes, and
//! back.
//!
//! MCP carries a tool result as content blocks (text, images, resources) plus optional
//! structured JSON, and a failure as a result with `isError: true`. mcs results are one JSON
//! value and failures are [`ToolError`]s. Serving writes what any MCP host reads (the text
//! of the value, the object as `structuredContent`, the error in words with a retry hint);
//! it also writes, under [`META_KEY`] in `_meta`, what mcs needs to read the same value or
//! error back exactly, so that a driver served and consumed again answers as it did before.

use std::fmt::Write as _;

use mcs::schema::kind_of;
use mcs::{ArgumentError, ArgumentErrorKind, Tool, ToolAnnotations, ToolError, ToolParameter};
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, MetaObject};
use serde_json::{Map, Value, json};

/// The `_meta` key under which an mcs server describes its results and errors for mcs
/// clients. Other clients ignore it (`_meta` is open to extensions).
pub const META_KEY: &str = "rs.mcs/result";

/// A tool in the shape of an MCP `tools/list` entry, written by [`mcs::export::mcp_tool`].
pub(crate) fn mcp_tool(tool: &Tool) -> Result<rmcp::model::Tool, String> {
    serde_json::from_value(mcs::export::mcp_tool(tool))
        .map_err(|error| format!("tool `{}` has no MCP shape: {error}", tool.name()))
}

/// What a successful call gives an MCP client: the value as text (a string as itself), an
/// object also as `structuredContent`.
pub(crate) fn success(value: Value) -> CallToolResult {
    let (text, encoding) = match &value {
        Value::String(text) => (text.clone(), "text"),
        other => (other.to_string(), "json"),
    };
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    if let Value::Object(_) = &value {
        result.structured_content = Some(value);
    }
    result.meta = Some(meta(json!({ "encoding": encoding })));
    result
}

/// What a failed call gives an MCP client: `isError: true`, the error in words followed by
/// the retry hint, and the error's parts under [`META_KEY`].
pub(crate) fn failure(error: &ToolError, tool: Option<&Tool>) -> CallToolResult {
    let mut result = CallToolResult::error(vec![ContentBlock::text(retry_hint(error, tool))]);
    result.meta = Some(meta(json!({ "error": error_to_json(error) })));
    result
}

fn meta(value: Value) -> MetaObject {
    let mut object = JsonObject::new();
    object.insert(META_KEY.to_owned(), value);
    MetaObject(object)
}

/// The error in words, what the tool takes when the arguments were wrong, and what to do:
/// the text a model reads to correct its call.
pub fn retry_hint(error: &ToolError, tool: Option<&Tool>) -> String {
    let mut hint = error.to_string();
    match (error, tool) {
        // The schema of the tool called, when the arguments were its own: a tool that
        // calls another (a gateway's `call_tool`) passes on the other's error.
        (ToolError::InvalidArguments { tool: name, .. }, Some(tool)) if name == tool.name() => {
            let _ = write!(
                hint,
                "\n`{}` takes these arguments: {}\nCorrect the arguments and call the tool again.",
                tool.name(),
                tool.input_schema()
            );
        }
        (ToolError::InvalidArguments { tool: name, .. }, _) => {
            let _ = write!(
                hint,
                "\nCorrect the arguments of `{name}` and call it again."
            );
        }
        (ToolError::UnknownTool { .. }, _) => {
            hint.push_str("\nCall one of the listed tools, by its exact name.");
        }
        // The tool ran and failed, or a policy stopped it: its message says whether trying
        // again can help (a call the user declined must not come back).
        (ToolError::Execution { .. } | ToolError::Rejected { .. }, _) => {
            hint.push_str(
                "\nCall the tool again only where this message says that can help; otherwise \
                 answer without it.",
            );
        }
        _ => {}
    }
    hint
}

fn error_to_json(error: &ToolError) -> Value {
    match error {
        ToolError::UnknownTool { name, suggestion } => {
            json!({ "kind": "unknown_tool", "tool": name, "suggestion": suggestion })
        }
        ToolError::InvalidArguments { tool, problems } => {
            let problems: Vec<Value> = problems.iter().map(problem_to_json).collect();
            json!({ "kind": "invalid_arguments", "tool": tool, "problems": problems })
        }
        ToolError::Rejected { tool, reason } => {
            json!({ "kind": "rejected", "tool": tool, "reason": reason })
        }
        ToolError::Execution { tool, message, .. } => {
            json!({ "kind": "execution", "tool": tool, "message": message })
        }
        other => json!({ "kind": "execution", "tool": other.tool(), "message": other.to_string() }),
    }
}

fn problem_to_json(problem: &ArgumentError) -> Value {
    let argument = &problem.argument;
    match &problem.kind {
        ArgumentErrorKind::Missing { expected } => {
            json!({ "argument": argument, "missing": { "expected": expected } })
        }
        ArgumentErrorKind::Unknown {
            accepted,
            suggestion,
        } => json!({
            "argument": argument,
            "unknown": { "accepted": accepted, "suggestion": suggestion },
        }),
        ArgumentErrorKind::Invalid { expected, received } => json!({
            "argument": argument,
            "invalid": { "expected": expected, "received": received },
        }),
        // A kind added later reaches the client as the words it displays as.
        _ => json!({
            "argument": argument,
            "invalid": { "expected": problem.to_string(), "received": "" },
        }),
    }
}

/// The [`ToolError`] an mcs server described under [`META_KEY`], if it is one this crate
/// reads.
fn error_from_json(error: &Value) -> Option<ToolError> {
    let text = |key: &str| error.get(key).and_then(Value::as_str).map(str::to_owned);
    let tool = text("tool")?;
    Some(match error.get("kind")?.as_str()? {
        "unknown_tool" => ToolError::UnknownTool {
            name: tool,
            suggestion: text("suggestion"),
        },
        "invalid_arguments" => ToolError::InvalidArguments {
            tool,
            problems: error
                .get("problems")?
                .as_array()?
                .iter()
                .map(problem_from_json)
                .collect::<Option<_>>()?,
        },
        "rejected" => ToolError::rejected(tool, text("reason")?),
        "execution" => ToolError::execution(tool, text("message")?),
        _ => return None,
    })
}

fn problem_from_json(problem: &Value) -> Option<ArgumentError> {
    let argument = problem.get("argument")?.as_str()?;
    let text = |value: &Value, key: &str| value.get(key).and_then(Value::as_str).map(str::to_owned);
    if let Some(missing) = problem.get("missing") {
        return Some(ArgumentError::missing(argument, text(missing, "expected")?));
    }
    if let Some(unknown) = problem.get("unknown") {
        let accepted = unknown
            .get("accepted")?
            .as_array()?
            .iter()
            .map(|name| name.as_str().map(str::to_owned))
            .collect::<Option<Vec<_>>>()?;
        let mut error = ArgumentError::unknown(argument, accepted);
        if let ArgumentErrorKind::Unknown { suggestion, .. } = &mut error.kind {
            *suggestion = text(unknown, "suggestion");
        }
        return Some(error);
    }
    let invalid = problem.get("invalid")?;
    Some(ArgumentError::invalid(
        argument,
        text(invalid, "expected")?,
        text(invalid, "received")?,
    ))
}

/// The result of an MCP `tools/call` as mcs reads it.
///
/// - `isError: true` is a [`ToolError`]: the one an mcs server described, or an execution
///   failure whose message is the result's content.
/// - `structuredContent`, when present, is the result.
/// - Otherwise a single text block is the result as a string (or, from an mcs server that
///   marked it as JSON, the value it encodes); no content at all is `null`.
/// - Any other mix of blocks is summarised into one string: texts as they are, images and
///   audio by type and size, resources by URI with their text, links by name and URI.
pub(crate) fn read_result(tool: &str, result: CallToolResult) -> Result<Value, ToolError> {
    let ours = result
        .meta
        .as_ref()
        .and_then(|meta| meta.0.get(META_KEY))
        .cloned();
    if result.is_error == Some(true) {
        if let Some(error) = ours
            .as_ref()
            .and_then(|ours| ours.get("error"))
            .and_then(error_from_json)
        {
            return Err(error);
        }
        let message = summarise(&result.content);
        let message = if message.is_empty() {
            "the MCP server reported an error without saying what it was".to_owned()
        } else {
            message
        };
        return Err(ToolError::execution(tool, message));
    }
    if let Some(structured) = result.structured_content {
        return Ok(structured);
    }
    let json_encoded = ours
        .as_ref()
        .and_then(|ours| ours.get("encoding"))
        .and_then(Value::as_str)
        == Some("json");
    match result.content.as_slice() {
        [] => Ok(Value::Null),
        [block] => match block.as_text() {
            Some(text) if json_encoded => {
                Ok(serde_json::from_str(&text.text).unwrap_or_else(|_| json!(text.text)))
            }
            Some(text) => Ok(Value::String(text.text.clone())),
            None => Ok(Value::String(summarise(&result.content))),
        },
        blocks => Ok(Value::String(summarise(blocks))),
    }
}

/// A server's `-32602 Invalid params` answer to `tools/call` as a [`ToolError`]: the tool is
/// unknown to it when it says so (the MCP specification's example of an unknown tool is a
/// `-32602` whose message starts `Unknown tool`, and an mcs server says `unknown tool`);
/// otherwise the arguments were refused, and the server's words say why.
pub(crate) fn invalid_params(tool: &str, message: &str, arguments: &Value) -> ToolError {
    let lower = message.to_lowercase();
    if lower.contains("unknown tool") || lower.contains("tool not found") {
        return ToolError::UnknownTool {
            name: tool.to_owned(),
            suggestion: None,
        };
    }
    ToolError::invalid_argument(
        tool,
        ArgumentError::invalid(
            "",
            format!("arguments the MCP server accepts (it answered: {message})"),
            mcs::schema::describe_received(arguments),
        ),
    )
}

/// Whether an MCP tool's schema takes arguments besides its properties: `additionalProperties`
/// at the root is `true` or a schema. (Absent, it is taken as closed, as the schemas of SDKs
/// mean it: mcs checks the keys.)
pub(crate) fn takes_other_arguments(tool: &rmcp::model::Tool) -> bool {
    match tool.input_schema.get("additionalProperties") {
        Some(Value::Bool(open)) => *open,
        Some(Value::Object(_)) => true,
        _ => false,
    }
}

/// The content blocks in words: texts as they are, everything else described.
pub(crate) fn summarise(blocks: &[ContentBlock]) -> String {
    let parts: Vec<String> = blocks
        .iter()
        .map(|block| {
            serde_json::to_value(block)
                .map(|value| describe_block(&value))
                .unwrap_or_else(|error| format!("[content that could not be read: {error}]"))
        })
        .collect();
    parts.join("\n\n")
}

/// One content block, from its wire shape (`type` and the fields of that type), so that
/// kinds of content added to the protocol later are still named.
pub(crate) fn describe_block(block: &Value) -> String {
    let field = |key: &str| block.get(key).and_then(Value::as_str).unwrap_or_default();
    let base64_bytes = |data: &str| data.len() / 4 * 3;
    match field("type") {
        "text" => field("text").to_owned(),
        kind @ ("image" | "audio") => format!(
            "[{kind}: {}, {} bytes]",
            field("mimeType"),
            base64_bytes(field("data"))
        ),
        "resource" => {
            let resource = block.get("resource").cloned().unwrap_or(Value::Null);
            let inner = |key: &str| {
                resource
                    .get(key)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            };
            let mime = inner("mimeType");
            let mime = if mime.is_empty() {
                String::new()
            } else {
                format!(" ({mime})")
            };
            match resource.get("text").and_then(Value::as_str) {
                Some(text) => format!("[resource {}{mime}]\n{text}", inner("uri")),
                None => format!(
                    "[resource {}{mime}, {} bytes]",
                    inner("uri"),
                    base64_bytes(&inner("blob"))
                ),
            }
        }
        "resource_link" => {
            let description = match field("description") {
                "" => String::new(),
                description => format!(": {description}"),
            };
            format!(
                "[resource link {} <{}>{description}]",
                field("name"),
                field("uri")
            )
        }
        other => format!("[{other} content]"),
    }
}

/// An MCP tool as an mcs [`Tool`], or why it cannot be one.
///
/// The title is `title`, else `annotations.title`; the description is `description`. A tool
/// with neither (MCP allows it; the standard does not) is titled with its name. Each property
/// of `inputSchema` becomes a parameter, its `description` the parameter's; `required` says
/// which are required; `$defs` (and draft-07 `definitions`, whose references are rewritten to
/// `$defs`) go with the parameters that refer to them, so the tool's
/// [`input_schema`](Tool::input_schema) is the one the server listed.
///
/// Refused, with the reason: a schema whose root is not an object schema (`type` other than
/// `"object"`, or `anyOf`/`oneOf`/`allOf`/`not` at the root, which named parameters cannot
/// express), `properties` that is not an object of schemas, `required` that is not a list of
/// names. Root keywords that only restrict (`additionalProperties`, `$schema`, a title) are
/// dropped: mcs rejects unknown arguments already.
#[cfg(test)]
pub(crate) fn mcs_tool(tool: &rmcp::model::Tool) -> Result<Tool, String> {
    mcs_tool_renamed(tool, &tool.name).map(|(tool, _)| tool)
}

/// For each of the server's tool `names`, the name it is listed under when the server's is
/// one a provider refuses, else `None`.
///
/// MCP allows `math.add` or `filter[name]`; OpenAI and Anthropic refuse a whole request in
/// which one tool name falls outside `^[a-zA-Z0-9_-]{1,64}$`. Such a name is made portable
/// by [`mcs_options::names::sanitize`] (`math_add`; cut and hashed past 64 characters;
/// `tool` if nothing is left) and made unique among all the names listed, never taking one
/// another tool holds as its own (`math_add_2`).
pub(crate) fn portable_tool_names(names: &[&str]) -> Vec<Option<String>> {
    use mcs_options::names::{is_tool_name, is_tool_name_char, sanitize, unused_argument_key};
    let mut taken: Vec<String> = names
        .iter()
        .filter(|name| is_tool_name(name))
        .map(|name| (*name).to_owned())
        .collect();
    names
        .iter()
        .map(|name| {
            if is_tool_name(name) {
                return None;
            }
            let base = sanitize(name, is_tool_name_char).unwrap_or_else(|| "tool".to_owned());
            // `_2`, `_3`… are tool-name characters too, so the key rule's counter serves.
            let portable =
                unused_argument_key(&base, |candidate| taken.iter().any(|t| t == candidate));
            taken.push(portable.clone());
            Some(portable)
        })
        .collect()
}

/// A server's argument key, and the key mcs lists it under.
pub(crate) struct Renamed {
    pub listed: String,
    pub server: String,
}

/// [`mcs_tool`], listed as `listed` (see [`portable_tool_names`]; a description notes the
/// server's name when it differs), with its arguments under keys every provider takes: an
/// MCP server may name a property `filter[name]` or `$top`, and one such key in a tool's
/// schema makes Anthropic's Messages API refuse the whole request. Such a property is
/// listed under [`mcs::export::argument_key`] of its name (made unique in the tool), its
/// description says so, and the renames are returned for calls to map back.
pub(crate) fn mcs_tool_renamed(
    tool: &rmcp::model::Tool,
    listed: &str,
) -> Result<(Tool, Vec<Renamed>), String> {
    let name = tool.name.as_ref();
    if name.trim().is_empty() {
        return Err("a tool has an empty name".to_owned());
    }
    let title = tool
        .title
        .clone()
        .or_else(|| tool.annotations.as_ref().and_then(|a| a.title.clone()));
    let mut description = tool.description.as_deref().map(str::to_owned);
    // An mcs server leads the description with the title where the title says more
    // ([`Tool::model_description`]); read back, the title is its own field again.
    if let (Some(title), Some(text)) = (&title, &description)
        && let Some(rest) = text.strip_prefix(title.trim()).map(|rest| {
            rest.strip_prefix('.')
                .unwrap_or(rest)
                .trim_start()
                .to_owned()
        })
        && !rest.is_empty()
        && Tool::try_new(name, Some(title.clone()), Some(rest.clone()))
            .is_ok_and(|tool| tool.model_description() == *text)
    {
        description = Some(rest);
    }
    if listed != name {
        let note = format!("The MCP server calls this tool `{name}`.");
        description = Some(match description {
            Some(text) if !text.trim().is_empty() => format!("{text}\n{note}"),
            _ => note,
        });
    }
    let mcs_tool = match Tool::try_new(listed, title, description) {
        Ok(tool) => tool,
        Err(_) => Tool::with_only_title(listed, name),
    };
    let mcs_tool = match &tool.annotations {
        Some(hints) => {
            let mut annotations = ToolAnnotations::default();
            annotations.read_only = hints.read_only_hint;
            annotations.destructive = hints.destructive_hint;
            annotations.idempotent = hints.idempotent_hint;
            annotations.open_world = hints.open_world_hint;
            mcs_tool.with_annotations(annotations)
        }
        None => mcs_tool,
    };
    let mut parameters =
        parameters(&tool.input_schema).map_err(|why| format!("tool `{name}`: {why}"))?;
    let renamed = portable_keys(&mut parameters);
    Ok((mcs_tool.with_parameters(parameters), renamed))
}

/// Renames the parameters whose names are not [portable keys](mcs::export::is_argument_key).
fn portable_keys(parameters: &mut [ToolParameter]) -> Vec<Renamed> {
    let mut taken: Vec<String> = parameters
        .iter()
        .filter(|p| mcs::export::is_argument_key(&p.name))
        .map(|p| p.name.clone())
        .collect();
    let mut renamed = Vec::new();
    for parameter in parameters.iter_mut() {
        if mcs::export::is_argument_key(&parameter.name) {
            continue;
        }
        let base = mcs::export::argument_key(&parameter.name);
        let key = mcs::export::unused_argument_key(&base, |key| taken.iter().any(|t| t == key));
        taken.push(key.clone());
        let note = format!("Sent to the server as `{}`.", parameter.name);
        if parameter.description.is_empty() {
            parameter.description = note;
        } else {
            parameter.description = format!("{}\n{note}", parameter.description);
        }
        renamed.push(Renamed {
            listed: key.clone(),
            server: std::mem::replace(&mut parameter.name, key),
        });
    }
    renamed
}

/// `arguments` with the keys `renamed` lists put back as the server named them.
pub(crate) fn server_keys(arguments: &mut Map<String, Value>, renamed: &[Renamed]) {
    for rename in renamed {
        if let Some(value) = arguments.remove(&rename.listed) {
            arguments.insert(rename.server.clone(), value);
        }
    }
}

fn parameters(schema: &JsonObject) -> Result<Vec<ToolParameter>, String> {
    match schema.get("type") {
        None => {}
        Some(Value::String(kind)) if kind == "object" => {}
        Some(other) => {
            return Err(format!(
                "inputSchema must have `type: \"object\"`, found `type: {other}`"
            ));
        }
    }
    for keyword in ["anyOf", "oneOf", "allOf", "not", "if", "$ref"] {
        if schema.contains_key(keyword) {
            return Err(format!(
                "inputSchema has `{keyword}` at its root, which named parameters cannot express"
            ));
        }
    }
    let empty = Map::new();
    let properties = match schema.get("properties") {
        None => &empty,
        Some(Value::Object(properties)) => properties,
        Some(other) => {
            return Err(format!(
                "inputSchema `properties` must be an object, found {}",
                kind_of(other)
            ));
        }
    };
    let required: Vec<&str> = match schema.get("required") {
        None => Vec::new(),
        Some(Value::Array(names)) => names
            .iter()
            .map(|name| {
                name.as_str().ok_or_else(|| {
                    format!(
                        "inputSchema `required` must list property names, found {}",
                        kind_of(name)
                    )
                })
            })
            .collect::<Result<_, _>>()?,
        Some(other) => {
            return Err(format!(
                "inputSchema `required` must be an array, found {}",
                kind_of(other)
            ));
        }
    };
    let definitions = definitions(schema)?;
    let mut parameters = Vec::with_capacity(properties.len());
    for (name, property) in properties {
        let mut property = match property {
            Value::Object(_) | Value::Bool(_) => property.clone(),
            other => {
                return Err(format!(
                    "property `{name}` must have a schema (an object or a boolean), found {}",
                    kind_of(other)
                ));
            }
        };
        rewrite_draft7_refs(&mut property);
        let description = match &mut property {
            Value::Object(object) => match object.shift_remove("description") {
                Some(Value::String(text)) => text,
                Some(other) => {
                    object.insert("description".to_owned(), other);
                    String::new()
                }
                None => String::new(),
            },
            _ => String::new(),
        };
        attach_definitions(&mut property, &definitions);
        parameters.push(
            ToolParameter::new(name.clone(), description)
                .required(required.contains(&name.as_str()))
                .with_schema(property),
        );
    }
    // A required name without a property still has to be sent: it takes any value.
    for name in required {
        if !properties.contains_key(name) {
            parameters.push(ToolParameter::new(name, "").with_schema(json!({})));
        }
    }
    Ok(parameters)
}

/// The root's `$defs` and `definitions`, merged, with their own references rewritten.
fn definitions(schema: &JsonObject) -> Result<Map<String, Value>, String> {
    let mut merged = Map::new();
    for keyword in ["definitions", "$defs"] {
        match schema.get(keyword) {
            None => {}
            Some(Value::Object(definitions)) => {
                for (name, definition) in definitions {
                    let mut definition = definition.clone();
                    rewrite_draft7_refs(&mut definition);
                    merged.insert(name.clone(), definition);
                }
            }
            Some(other) => {
                return Err(format!(
                    "inputSchema `{keyword}` must be an object, found {}",
                    kind_of(other)
                ));
            }
        }
    }
    Ok(merged)
}

/// Gives a property that refers to the root's definitions its own copy of them: a
/// parameter's schema is its own root (see [`mcs::validate::validate_arguments`]), and
/// [`Tool::input_schema`] hoists them back to the root.
fn attach_definitions(property: &mut Value, definitions: &Map<String, Value>) {
    if definitions.is_empty() || !refers_to_definitions(property) {
        return;
    }
    if let Value::Object(object) = property {
        let own = object
            .entry("$defs")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(own) = own {
            for (name, definition) in definitions {
                own.entry(name.clone())
                    .or_insert_with(|| definition.clone());
            }
        }
    }
}

fn refers_to_definitions(value: &Value) -> bool {
    match value {
        Value::Object(object) => object.iter().any(|(key, value)| {
            (key == "$ref" && value.as_str().is_some_and(|r| r.starts_with("#/$defs/")))
                || refers_to_definitions(value)
        }),
        Value::Array(items) => items.iter().any(refers_to_definitions),
        _ => false,
    }
}

/// `#/definitions/x` → `#/$defs/x`, at any depth.
fn rewrite_draft7_refs(value: &mut Value) {
    match value {
        Value::Object(object) => {
            for (key, value) in object.iter_mut() {
                if key == "$ref"
                    && let Value::String(reference) = value
                    && let Some(rest) = reference.strip_prefix("#/definitions/")
                {
                    *reference = format!("#/$defs/{rest}");
                } else {
                    rewrite_draft7_refs(value);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(rewrite_draft7_refs),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn mcp(schema: Value) -> rmcp::model::Tool {
        let Value::Object(schema) = schema else {
            panic!("test schemas are objects")
        };
        rmcp::model::Tool::new("t", "a tool", Arc::new(schema))
    }

    #[test]
    fn the_schema_shown_is_that_of_the_tool_whose_arguments_were_wrong() {
        let tool = Tool::new("call_tool", "Calls another tool.");
        let own = ToolError::invalid_argument(
            "call_tool",
            ArgumentError::missing("name", "the tool's name"),
        );
        assert!(retry_hint(&own, Some(&tool)).contains("`call_tool` takes these arguments"));
        // An error passed on from the tool it called: not call_tool's schema.
        let passed_on = ToolError::invalid_argument(
            "accountsBalanceGet",
            ArgumentError::missing("access_token", "a string"),
        );
        let hint = retry_hint(&passed_on, Some(&tool));
        assert!(!hint.contains("takes these arguments"), "{hint}");
        assert!(
            hint.contains("Correct the arguments of `accountsBalanceGet`"),
            "{hint}"
        );
    }

    #[test]
    fn a_failed_call_is_not_sent_back_to_try_again() {
        let declined = ToolError::execution(
            "delete_repo",
            "the user declined this call: not today; it did not run",
        );
        let hint = retry_hint(&declined, None);
        assert!(hint.contains("the user declined this call"), "{hint}");
        assert!(!hint.contains("try again"), "{hint}");
        assert!(hint.contains("only where this message says"), "{hint}");
    }

    #[test]
    fn tool_names_a_provider_refuses_get_portable_unique_names() {
        let long = "a.".repeat(40);
        let names = [
            "math.add",
            "filter[name]",
            "math_add",
            "math:add",
            "ok-name_1",
            "???",
            long.as_str(),
        ];
        let portable = portable_tool_names(&names);
        let expected = [
            Some("math_add_2"),
            Some("filter_name"),
            None,
            Some("math_add_3"),
            None,
            Some("tool"),
        ];
        for (got, expected) in portable.iter().zip(expected) {
            assert_eq!(got.as_deref(), expected);
        }
        let last = portable[6].as_deref().unwrap();
        // How a long name is shortened is mcs_options::names::sanitize's business; that the
        // result is a tool name, and not one of the others, is this function's.
        assert!(mcs::export::is_tool_name(last), "{last}");
        assert!(portable[..6].iter().all(|p| p.as_deref() != Some(last)) && !names.contains(&last));

        let tool = rmcp::model::Tool::new("math.add", "Adds.", Arc::new(JsonObject::new()));
        let (tool, _) = mcs_tool_renamed(&tool, "math_add").unwrap();
        assert_eq!(tool.name(), "math_add");
        assert_eq!(
            tool.description(),
            "Adds.\nThe MCP server calls this tool `math.add`."
        );
    }

    #[test]
    fn keys_a_provider_refuses_are_listed_renamed_and_mapped_back() {
        let tool = mcp(json!({
            "type": "object",
            "properties": {
                "filter[name]": {"type": "string", "description": "Filters by name."},
                "$top": {"type": "integer"},
                "top": {"type": "integer"},
                "ok.key-1": {"type": "string"}
            },
            "required": ["$top"]
        }));
        let (tool, renamed) = mcs_tool_renamed(&tool, "t").unwrap();
        let names: Vec<(&str, bool)> = tool
            .parameters()
            .iter()
            .map(|p| (p.name.as_str(), p.required))
            .collect();
        assert_eq!(
            names,
            [
                ("filter_name", false),
                ("top_2", true),
                ("top", false),
                ("ok.key-1", false)
            ]
        );
        assert_eq!(
            tool.parameters()[0].description,
            "Filters by name.\nSent to the server as `filter[name]`."
        );
        for key in tool.input_schema()["properties"]
            .as_object()
            .unwrap()
            .keys()
        {
            assert!(mcs::export::is_argument_key(key), "{key}");
        }
        let mut arguments = json!({"filter_name": "rex", "top_2": 2, "top": 1, "ok.key-1": "k"});
        server_keys(arguments.as_object_mut().unwrap(), &renamed);
        assert_eq!(
            arguments,
            json!({"filter[name]": "rex", "$top": 2, "top": 1, "ok.key-1": "k"})
        );
    }

    #[test]
    fn an_enum_behind_a_reference_is_named_by_its_values_when_missing() {
        let tool = mcp(json!({
            "type": "object",
            "properties": {"color": {"$ref": "#/definitions/Color"}},
            "required": ["color"],
            "definitions": {"Color": {"type": "string", "enum": ["red", "green"]}}
        }));
        let tool = mcs_tool(&tool).unwrap();
        let problems = mcs::validate::validate_arguments(&tool, &json!({})).unwrap_err();
        assert_eq!(
            problems[0].to_string(),
            "missing required argument `color` (expected one of \"red\", \"green\")"
        );
    }

    #[test]
    fn an_mcs_tool_survives_the_mcp_shape() {
        let tool = Tool::new("add", "Adds.")
            .with_title("Add")
            .with_parameter(
                ToolParameter::new("a", "first")
                    .with_schema(json!({"type": "integer", "description": "an integer"})),
            )
            .with_parameter(ToolParameter::new("b", "second").required(false));
        let back = mcs_tool(&mcp_tool(&tool).unwrap()).unwrap();
        assert_eq!(back.name(), "add");
        assert_eq!(back.title(), Some("Add"));
        assert_eq!(back.description(), "Adds.");
        assert_eq!(back.input_schema(), tool.input_schema());
    }

    #[test]
    fn shared_definitions_follow_the_parameters_that_use_them() {
        let tool = mcp(json!({
            "type": "object",
            "properties": {
                "node": {"$ref": "#/definitions/Node"},
                "plain": {"type": "string"}
            },
            "definitions": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/definitions/Node"}}}}
        }));
        let tool = mcs_tool(&tool).unwrap();
        let schema = tool.input_schema();
        assert_eq!(schema["properties"]["node"]["$ref"], "#/$defs/Node");
        assert_eq!(
            schema["$defs"]["Node"]["properties"]["next"]["$ref"],
            "#/$defs/Node"
        );
        assert!(tool.parameter("plain").unwrap().schema.as_ref().unwrap()["$defs"].is_null());
    }

    #[test]
    fn schemas_named_parameters_cannot_express_are_refused_with_the_reason() {
        let cases = [
            (json!({"type": "array"}), "must have `type: \"object\"`"),
            (
                json!({"anyOf": [{"type": "object"}]}),
                "`anyOf` at its root",
            ),
            (
                json!({"type": "object", "properties": []}),
                "`properties` must be an object, found an array",
            ),
            (
                json!({"type": "object", "properties": {"x": 3}}),
                "property `x` must have a schema",
            ),
            (
                json!({"type": "object", "required": "x"}),
                "`required` must be an array, found a string",
            ),
            (
                json!({"type": "object", "required": [1]}),
                "must list property names, found a number",
            ),
        ];
        for (schema, expected) in cases {
            let error = mcs_tool(&mcp(schema.clone())).unwrap_err();
            assert!(error.contains(expected), "{schema}: {error}");
            assert!(error.starts_with("tool `t`"), "{error}");
        }
    }

    #[test]
    fn a_tool_without_words_is_titled_with_its_name() {
        let tool = rmcp::model::Tool::new_with_raw("bare", None, Arc::new(JsonObject::new()));
        let tool = mcs_tool(&tool).unwrap();
        assert_eq!(tool.title(), Some("bare"));
        assert!(tool.parameters().is_empty());
    }

    #[test]
    fn results_read_back_as_they_were_written() {
        for value in [
            json!("plain text"),
            json!(42),
            json!(null),
            json!([1, "two"]),
            json!({"id": 1, "done": false}),
            json!("42"),
        ] {
            assert_eq!(read_result("t", success(value.clone())).unwrap(), value);
        }
    }

    #[test]
    fn errors_read_back_as_they_were_written() {
        let errors = [
            ToolError::InvalidArguments {
                tool: "t".into(),
                problems: vec![
                    ArgumentError::missing("city", "a string"),
                    ArgumentError::unknown("cty", vec!["city".into()]),
                    ArgumentError::invalid("days", "an integer", "\"many\""),
                ],
            },
            ToolError::unknown_tool_among("ad", ["add"]),
            ToolError::rejected("t", "not here"),
            ToolError::execution("t", "disk full"),
        ];
        for error in errors {
            let back = read_result("t", failure(&error, None)).unwrap_err();
            assert_eq!(back.to_string(), error.to_string());
            assert_eq!(
                std::mem::discriminant(&back),
                std::mem::discriminant(&error)
            );
        }
    }

    #[test]
    fn foreign_results_are_read_from_their_content() {
        let mut error = CallToolResult::error(vec![ContentBlock::text("no such city")]);
        error.meta = None;
        let error = read_result("weather", error).unwrap_err();
        assert_eq!(error.to_string(), "tool `weather` failed: no such city");

        let mixed = CallToolResult::success(vec![
            ContentBlock::text("Here it is:"),
            ContentBlock::image("aGVsbG8h", "image/png"),
            ContentBlock::embedded_text("file:///a.txt", "contents"),
        ]);
        let text = read_result("t", mixed).unwrap();
        assert_eq!(
            text,
            json!(
                "Here it is:\n\n[image: image/png, 6 bytes]\n\n[resource file:///a.txt (text/plain)]\ncontents"
            )
        );
        let number_text = CallToolResult::success(vec![ContentBlock::text("42")]);
        assert_eq!(read_result("t", number_text).unwrap(), json!("42"));
    }
}
