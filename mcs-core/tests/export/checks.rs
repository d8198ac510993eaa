//! Each provider's documented rules, as checkers that return every violation they find.
//!
//! They are written from the providers' documentation, independently of the export code (own
//! keyword lists, own walks), so that an export passing them means something.

use std::collections::HashSet;

use mcs_core::Tool;
use serde_json::{Map, Value};

// ---------------------------------------------------------------------------------------
// Walking schemas.

/// Every schema inside `schema` (itself included), with its JSON pointer.
fn subschemas(schema: &Value) -> Vec<(String, &Value)> {
    let mut found = Vec::new();
    collect(schema, String::new(), &mut found);
    found
}

fn collect<'v>(schema: &'v Value, at: String, found: &mut Vec<(String, &'v Value)>) {
    found.push((at.clone(), schema));
    let Some(object) = schema.as_object() else {
        return;
    };
    for key in ["items", "additionalProperties", "not", "contains"] {
        if let Some(child) = object.get(key).filter(|c| c.is_object()) {
            collect(child, format!("{at}/{key}"), found);
        }
    }
    for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
        if let Some(Value::Array(children)) = object.get(key) {
            for (index, child) in children.iter().enumerate() {
                collect(child, format!("{at}/{key}/{index}"), found);
            }
        }
    }
    for key in ["properties", "$defs"] {
        if let Some(Value::Object(children)) = object.get(key) {
            for (name, child) in children {
                collect(child, format!("{at}/{key}/{name}"), found);
            }
        }
    }
}

fn types_of(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(kind)) => vec![kind.as_str()],
        Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

pub(crate) fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .map(|o| o.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

/// How many objects deep `schema` nests, through properties, items and alternatives.
fn object_nesting(schema: &Value) -> usize {
    let Some(object) = schema.as_object() else {
        return 0;
    };
    let own = usize::from(types_of(schema).contains(&"object"));
    let mut inner = object.get("items").map_or(0, object_nesting);
    if let Some(Value::Object(properties)) = object.get("properties") {
        inner = inner.max(properties.values().map(object_nesting).max().unwrap_or(0));
    }
    if let Some(Value::Array(alternatives)) = object.get("anyOf") {
        inner = inner.max(alternatives.iter().map(object_nesting).max().unwrap_or(0));
    }
    own + inner
}

// ---------------------------------------------------------------------------------------
// The providers' rules.

/// OpenAI strict mode ("Supported schemas" of Structured Outputs, and function calling with
/// `strict: true`).
const OPENAI_STRICT_KEYWORDS: &[&str] = &[
    "type",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "pattern",
    "format",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
];
const OPENAI_STRICT_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

fn check_openai_name_and_description(
    name: &Value,
    description: &Value,
    problems: &mut Vec<String>,
) {
    let name = name.as_str().unwrap_or_default();
    let plain = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if name.is_empty() || name.chars().count() > 64 || !name.chars().all(plain) {
        problems.push(format!("name {name:?} is not ^[a-zA-Z0-9_-]{{1,64}}$"));
    }
    match description.as_str() {
        Some(text) if text.chars().count() <= 1024 => {}
        _ => problems.push("description missing or longer than 1024 characters".to_owned()),
    }
}

/// A chat completions function tool, plain or strict.
pub(crate) fn check_openai_chat(exported: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    if exported["type"] != "function" {
        problems.push("type is not \"function\"".to_owned());
    }
    let function = &exported["function"];
    check_openai_name_and_description(&function["name"], &function["description"], &mut problems);
    check_openai_parameters(
        &function["parameters"],
        function["strict"] == true,
        &mut problems,
    );
    problems
}

/// A Responses API function tool: flat, with `strict` always present.
pub(crate) fn check_openai_responses(exported: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    if exported["type"] != "function" || exported.get("function").is_some() {
        problems.push("not a flat function tool".to_owned());
    }
    if !exported["strict"].is_boolean() {
        problems.push("strict is not written (the Responses API defaults it to true)".to_owned());
    }
    check_openai_name_and_description(&exported["name"], &exported["description"], &mut problems);
    check_openai_parameters(
        &exported["parameters"],
        exported["strict"] == true,
        &mut problems,
    );
    problems
}

fn check_openai_parameters(parameters: &Value, strict: bool, problems: &mut Vec<String>) {
    if parameters["type"] != "object" || parameters.get("anyOf").is_some() {
        problems.push("parameters are not an object schema".to_owned());
    }
    if !strict {
        return;
    }
    if object_nesting(parameters) > 10 {
        problems.push("more than 10 levels of object nesting".to_owned());
    }
    let definitions = parameters.get("$defs").and_then(Value::as_object);
    for (at, schema) in subschemas(parameters) {
        let Some(object) = schema.as_object() else {
            problems.push(format!("{at}: a boolean schema"));
            continue;
        };
        for key in object.keys() {
            if !OPENAI_STRICT_KEYWORDS.contains(&key.as_str()) {
                problems.push(format!("{at}: keyword {key} is not supported"));
            }
        }
        if !["type", "$ref", "anyOf", "enum", "const"]
            .iter()
            .any(|k| object.contains_key(*k))
        {
            problems.push(format!("{at}: no type"));
        }
        if object.contains_key("$ref") && object.len() > 1 {
            problems.push(format!("{at}: $ref with sibling keywords"));
        }
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            let name = reference.strip_prefix("#/$defs/").unwrap_or("?");
            if !definitions.is_some_and(|d| d.contains_key(name)) {
                problems.push(format!("{at}: $ref {reference} does not resolve"));
            }
        }
        if let Some(format) = object.get("format").and_then(Value::as_str)
            && !OPENAI_STRICT_FORMATS.contains(&format)
        {
            problems.push(format!("{at}: format {format} is not supported"));
        }
        let kinds = types_of(schema);
        if kinds.contains(&"object") {
            if object.get("additionalProperties") != Some(&Value::Bool(false)) {
                problems.push(format!("{at}: additionalProperties is not false"));
            }
            let properties: HashSet<&str> = object
                .get("properties")
                .map(keys)
                .unwrap_or_default()
                .into_iter()
                .collect();
            let required: HashSet<&str> = object
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if object.get("properties").is_none() || properties != required {
                problems.push(format!("{at}: required is not every property"));
            }
        }
        if kinds.contains(&"array") && !object.get("items").is_some_and(Value::is_object) {
            problems.push(format!("{at}: an array without items"));
        }
    }
}

/// Anthropic Messages API tools: `{name, description, input_schema}`, the name matching
/// `^[a-zA-Z0-9_-]{1,64}$`, `input_schema` an object schema without a combinator at its root.
pub(crate) fn check_anthropic(exported: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    if keys(exported) != ["name", "description", "input_schema"] {
        problems.push(format!("fields are {:?}", keys(exported)));
    }
    let name = exported["name"].as_str().unwrap_or_default();
    let plain = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if name.is_empty() || name.len() > 64 || !name.chars().all(plain) {
        problems.push(format!("name {name:?} is not ^[a-zA-Z0-9_-]{{1,64}}$"));
    }
    let schema = &exported["input_schema"];
    if schema["type"] != "object" {
        problems.push("input_schema is not type: object".to_owned());
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if schema.get(key).is_some() {
            problems.push(format!("input_schema has {key} at its root"));
        }
    }
    problems
}

/// Gemini's `Schema` fields, from the Gemini API reference.
const GEMINI_FIELDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];

/// A Gemini function declaration.
pub(crate) fn check_gemini(declaration: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let name = declaration["name"].as_str().unwrap_or_default();
    let mut chars = name.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    let rest_ok = chars.all(|c| c.is_ascii_alphanumeric() || "_.:-".contains(c));
    if !first_ok || !rest_ok || name.len() > 64 {
        problems.push(format!("name {name:?} breaks Gemini's naming rule"));
    }
    let Some(parameters) = declaration.get("parameters") else {
        return problems;
    };
    if parameters["type"] != "object" {
        problems.push("parameters are not an object".to_owned());
    }
    for (at, schema) in subschemas(parameters) {
        let Some(object) = schema.as_object() else {
            problems.push(format!("{at}: not a schema object"));
            continue;
        };
        for key in object.keys() {
            if !GEMINI_FIELDS.contains(&key.as_str()) {
                problems.push(format!("{at}: {key} is not a Schema field"));
            }
        }
        let kind = match object.get("type") {
            None => None,
            Some(Value::String(kind)) => Some(kind.to_lowercase()),
            Some(other) => {
                problems.push(format!("{at}: type {other} is not one type"));
                continue;
            }
        };
        let kind = kind.as_deref();
        if let Some(kind) = kind
            && !["string", "number", "integer", "boolean", "array", "object"].contains(&kind)
        {
            problems.push(format!("{at}: unknown type {kind}"));
        }
        if let Some(Value::Array(values)) = object.get("enum")
            && !values.iter().all(Value::is_string)
        {
            problems.push(format!("{at}: enum values are not all strings"));
        }
        if object.get("nullable").is_some_and(|n| !n.is_boolean()) {
            problems.push(format!("{at}: nullable is not a boolean"));
        }
        let properties = object.get("properties").and_then(Value::as_object);
        if kind == Some("object") && properties.is_none_or(Map::is_empty) {
            problems.push(format!("{at}: an OBJECT without properties"));
        }
        if properties.is_some() && kind != Some("object") {
            problems.push(format!("{at}: properties on a non-object"));
        }
        if let Some(Value::Array(required)) = object.get("required") {
            for name in required.iter().filter_map(Value::as_str) {
                if !properties.is_some_and(|p| p.contains_key(name)) {
                    problems.push(format!("{at}: required {name} is not a property"));
                }
            }
        }
        if (kind == Some("array")) != object.contains_key("items") {
            problems.push(format!("{at}: items and type array do not go together"));
        }
        let format_ok = |format: &str| match kind {
            Some("number") => ["float", "double"].contains(&format),
            Some("integer") => ["int32", "int64"].contains(&format),
            Some("string") => ["enum", "date-time"].contains(&format),
            _ => false,
        };
        if let Some(format) = object.get("format").and_then(Value::as_str)
            && !format_ok(format)
        {
            problems.push(format!("{at}: format {format} for {kind:?}"));
        }
        let type_specific: &[(&str, &[&str])] = &[
            ("string", &["minLength", "maxLength", "pattern"]),
            ("array", &["minItems", "maxItems"]),
            (
                "object",
                &[
                    "minProperties",
                    "maxProperties",
                    "propertyOrdering",
                    "required",
                ],
            ),
        ];
        for (owner, keys) in type_specific {
            for key in *keys {
                if object.contains_key(*key) && kind != Some(owner) {
                    problems.push(format!("{at}: {key} on a {kind:?}"));
                }
            }
        }
        if ["minimum", "maximum"]
            .iter()
            .any(|k| object.contains_key(*k))
            && !matches!(kind, Some("integer" | "number"))
        {
            problems.push(format!("{at}: bounds on a {kind:?}"));
        }
    }
    problems
}

/// An MCP `tools/list` entry (MCP specification, `Tool`): `name`, optional `title`,
/// `description`, and an `inputSchema` of `type: "object"`; the name 1 to 128 characters of
/// letters, digits, `_`, `-`, `.`.
pub(crate) fn check_mcp(entry: &Value, tool: &Tool) -> Vec<String> {
    let mut problems = Vec::new();
    for key in keys(entry) {
        if !["name", "title", "description", "inputSchema"].contains(&key) {
            problems.push(format!("unexpected field {key}"));
        }
    }
    let name = entry["name"].as_str().unwrap_or_default();
    if name.is_empty()
        || name.len() > 128
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
    {
        problems.push(format!("name {name:?} breaks the MCP naming rule"));
    }
    if entry["inputSchema"]["type"] != "object" {
        problems.push("inputSchema is not type: object".to_owned());
    }
    if entry.get("title").and_then(Value::as_str) != tool.title() {
        problems.push("title is not the tool's title".to_owned());
    }
    if !entry["description"].is_string() {
        problems.push("no description".to_owned());
    }
    problems
}
