//! The provider exports, checked against each provider's documented rules.
//!
//! Each `check_*` function encodes one provider's rules independently of the export code (its
//! own keyword lists, written from the provider's documentation) and returns every violation
//! it finds. They run over tools whose schemas schemars generates, the way drivers build
//! them, chosen for what providers trip over: optional parameters, enums with docs, nested
//! and recursive structs, `Option<Struct>`, vectors, maps, tuples, any-value parameters,
//! integer formats, tagged and untagged enums, and a parameter without a schema.

use std::collections::{HashMap, HashSet};

use mcs_runtime::export::{self, Provider};
use mcs_runtime::table::{ParamDef, ParamKind, ToolDef, ToolSet, schema_for};
use mcs_runtime::validate::{validate_arguments, validate_value};
use mcs_runtime::{Tool, ToolParameter};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

#[allow(dead_code)]
mod types {
    use super::*;

    /// Units of measurement.
    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum Units {
        /// Celsius and kilometres.
        Metric,
        /// Fahrenheit and miles.
        Imperial,
    }

    /// A tag.
    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct Tag {
        /// Its name.
        #[schemars(length(min = 1, max = 40))]
        pub name: String,
        pub weight: Option<f32>,
    }

    /// Which rows to return.
    #[derive(Deserialize, JsonSchema)]
    pub struct Filter {
        /// At most this many rows.
        #[schemars(range(min = 1, max = 100))]
        pub limit: Option<u32>,
        /// Rows to skip.
        #[serde(default)]
        pub offset: u64,
        /// Words to look for.
        #[schemars(regex(pattern = r"^(?!\s)[\w ]+$"))]
        pub query: String,
        pub tags: Vec<Tag>,
        pub labels: HashSet<String>,
        pub units: Option<Units>,
    }

    /// A tree of labels.
    #[derive(Deserialize, JsonSchema)]
    pub struct Node {
        /// The label.
        pub name: String,
        pub children: Vec<Node>,
        pub parent: Option<Box<Node>>,
    }

    /// A shape.
    #[derive(Deserialize, JsonSchema)]
    #[serde(tag = "kind", rename_all = "lowercase")]
    pub enum Shape {
        /// Round.
        Circle {
            radius: f64,
        },
        Square {
            side: f32,
        },
    }

    /// A number or a name.
    #[derive(Deserialize, JsonSchema)]
    #[serde(untagged)]
    pub enum Id {
        Number(u64),
        Name(String),
    }

    /// Paging, flattened into the arguments.
    #[derive(Deserialize, JsonSchema)]
    pub struct Paging {
        /// Page number.
        #[schemars(extend("multipleOf" = 1, "examples" = [1, 2]))]
        pub page: Option<u16>,
        /// The cursor.
        pub cursor: Option<String>,
    }
}
use types::*;

const fn param(
    name: &'static str,
    description: &'static str,
    kind: ParamKind,
    schema: fn(&mut schemars::SchemaGenerator) -> schemars::Schema,
) -> ParamDef {
    ParamDef {
        name,
        description: Some(description),
        kind,
        schema,
    }
}

static WEATHER: &[ParamDef] = &[
    param(
        "city",
        "The city.",
        ParamKind::Required,
        schema_for::<String>,
    ),
    param(
        "units",
        "Unit system.",
        ParamKind::Optional,
        schema_for::<Units>,
    ),
    param("days", "Days ahead.", ParamKind::Optional, schema_for::<u8>),
    param(
        "at",
        "Reference time.",
        ParamKind::Optional,
        schema_for::<i64>,
    ),
];
static SEARCH: &[ParamDef] = &[
    param(
        "filter",
        "What to find.",
        ParamKind::Required,
        schema_for::<Filter>,
    ),
    param(
        "also",
        "A second filter.",
        ParamKind::Optional,
        schema_for::<Option<Filter>>,
    ),
    param(
        "paging",
        "Paging.",
        ParamKind::Flatten,
        schema_for::<Paging>,
    ),
];
static SHAPES: &[ParamDef] = &[
    param(
        "shape",
        "The shape.",
        ParamKind::Required,
        schema_for::<Shape>,
    ),
    param("id", "Which one.", ParamKind::Required, schema_for::<Id>),
    param("scale", "A factor.", ParamKind::Optional, schema_for::<f32>),
];
static TREE: &[ParamDef] = &[param(
    "tree",
    "The tree.",
    ParamKind::Required,
    schema_for::<Node>,
)];
static COUNTS: &[ParamDef] = &[
    param(
        "counts",
        "Counts by name.",
        ParamKind::Required,
        schema_for::<HashMap<String, u32>>,
    ),
    param("note", "A note.", ParamKind::Optional, schema_for::<String>),
];
static ANYTHING: &[ParamDef] = &[param(
    "value",
    "Any value.",
    ParamKind::Required,
    schema_for::<Value>,
)];
static PAIR: &[ParamDef] = &[param(
    "pair",
    "A pair.",
    ParamKind::Required,
    schema_for::<(u8, String)>,
)];
static DEFS: &[ToolDef] = &[
    tool_def("weather", WEATHER),
    tool_def("search", SEARCH),
    tool_def("shapes", SHAPES),
    tool_def("tree", TREE),
    tool_def("counts", COUNTS),
    tool_def("anything", ANYTHING),
    tool_def("pair", PAIR),
];

const fn tool_def(name: &'static str, params: &'static [ParamDef]) -> ToolDef {
    ToolDef {
        name,
        title: None,
        description: Some("A tool."),
        params,
    }
}

/// Every tool of the test set: the driver-built ones, and hand-written ones for what
/// schemars does not produce.
fn tools() -> Vec<Tool> {
    let mut tools: Vec<Tool> = ToolSet::build(DEFS).tools().to_vec();
    tools.push(
        Tool::new("note", "Takes a note.")
            .with_title("Note")
            .with_parameter(ToolParameter::new("text", "The note, as plain text.")),
    );
    tools.push(Tool::with_only_title("ping", "Checks the service is up"));
    tools.push(
        Tool::new("keywords", "Keywords some providers lack.")
            .with_parameter(ToolParameter::new("level", "A level.").with_schema(json!({
                "type": "integer", "enum": [1, 2, 3], "default": 2
            })))
            .with_parameter(ToolParameter::new("code", "A code.").with_schema(json!({
                "type": "string", "const": "X1"
            })))
            .with_parameter(ToolParameter::new("ratio", "A ratio.").with_schema(json!({
                "type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1, "multipleOf": 0.25
            })))
            .with_parameter(ToolParameter::new("site", "A site.").with_schema(json!({
                "type": "string", "format": "uri", "minLength": 8
            })))
            .with_parameter(ToolParameter::new("mixed", "Text or number.").required(false).with_schema(json!({
                "type": ["string", "integer", "null"]
            })))
            .with_parameter(ToolParameter::new("both", "All of two.").required(false).with_schema(json!({
                "allOf": [
                    {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                    {"properties": {"b": {"type": "boolean"}}}
                ]
            }))),
    );
    tools
}

fn tool(name: &str) -> Tool {
    tools().into_iter().find(|t| t.name() == name).expect(name)
}

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

fn keys(value: &Value) -> Vec<&str> {
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
fn check_openai_chat(exported: &Value) -> Vec<String> {
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
fn check_openai_responses(exported: &Value) -> Vec<String> {
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
fn check_anthropic(exported: &Value) -> Vec<String> {
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
fn check_gemini(declaration: &Value) -> Vec<String> {
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
fn check_mcp(entry: &Value, tool: &Tool) -> Vec<String> {
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

// ---------------------------------------------------------------------------------------
// Every tool, every provider.

fn assert_no_problems(provider: &str, tool: &Tool, problems: Vec<String>, exported: &Value) {
    assert!(
        problems.is_empty(),
        "{provider} rejects `{}`:\n{}\n\nexported:\n{}",
        tool.name(),
        problems.join("\n"),
        serde_json::to_string_pretty(exported).unwrap_or_default()
    );
}

#[test]
fn openai_chat_tools_meet_openai_rules() {
    for tool in tools() {
        let exported = export::openai_chat_tool(&tool);
        assert_no_problems(
            "OpenAI chat",
            &tool,
            check_openai_chat(&exported),
            &exported,
        );
        assert_eq!(exported["function"]["parameters"], tool.input_schema());
        assert!(exported["function"].get("strict").is_none());
    }
}

#[test]
fn openai_strict_tools_meet_strict_mode_rules() {
    for tool in tools() {
        let exported = export::openai_chat_tool_strict(&tool);
        assert_no_problems(
            "OpenAI strict",
            &tool,
            check_openai_chat(&exported),
            &exported,
        );
    }
}

#[test]
fn openai_responses_tools_meet_openai_rules() {
    for tool in tools() {
        for strict in [false, true] {
            let exported = export::openai_responses_tool(&tool, strict);
            assert_no_problems(
                "OpenAI Responses",
                &tool,
                check_openai_responses(&exported),
                &exported,
            );
        }
    }
}

#[test]
fn anthropic_tools_meet_anthropic_rules() {
    for tool in tools() {
        let exported = export::anthropic_tool(&tool);
        assert_no_problems("Anthropic", &tool, check_anthropic(&exported), &exported);
        assert_eq!(exported["input_schema"], tool.input_schema());
    }
}

#[test]
fn gemini_declarations_meet_gemini_rules() {
    for tool in tools() {
        let exported = export::gemini_function_declaration(&tool);
        assert_no_problems("Gemini", &tool, check_gemini(&exported), &exported);
    }
}

#[test]
fn mcp_entries_meet_the_mcp_tool_shape() {
    for tool in tools() {
        let exported = export::mcp_tool(&tool);
        assert_no_problems("MCP", &tool, check_mcp(&exported, &tool), &exported);
    }
}

#[test]
fn the_checkers_catch_what_they_are_for() {
    // Each checker on an input that breaks its rule, so a passing export means something.
    let open = json!({"type": "function", "function": {"name": "t", "description": "d", "strict": true,
        "parameters": {"type": "object", "properties": {"a": {"type": "string", "minLength": 2}}}}});
    let found = check_openai_chat(&open);
    assert!(
        found.iter().any(|p| p.contains("additionalProperties")),
        "{found:?}"
    );
    assert!(found.iter().any(|p| p.contains("required")), "{found:?}");
    assert!(found.iter().any(|p| p.contains("minLength")), "{found:?}");
    let gemini = json!({"name": "1bad", "parameters": {"type": "object", "properties": {
        "a": {"type": ["string", "null"]}, "b": {"$ref": "#/$defs/B"}, "c": {"type": "object", "properties": {}},
        "d": {"type": "integer", "enum": [1, 2]}, "e": {"type": "integer", "format": "uint8"}}}});
    let found = check_gemini(&gemini);
    for expected in [
        "naming rule",
        "is not one type",
        "$ref is not",
        "without properties",
        "enum values",
        "format uint8",
    ] {
        assert!(
            found.iter().any(|p| p.contains(expected)),
            "{expected}: {found:?}"
        );
    }
    let anthropic = json!({"name": "a b", "description": "d", "input_schema": {"anyOf": []}});
    assert_eq!(check_anthropic(&anthropic).len(), 3);
    let mcp =
        json!({"name": "x", "description": "d", "inputSchema": {"type": "string"}, "extra": 1});
    assert_eq!(check_mcp(&mcp, &tool("note")).len(), 3);
}

// ---------------------------------------------------------------------------------------
// What the exports change, shape by shape.

#[test]
fn mcs_listing_is_the_reference_sdk_shape() {
    let listing = export::mcs_listing(&[tool("note"), tool("ping")]);
    assert_eq!(
        listing,
        json!({"tools": [
            {"name": "note", "description": "Takes a note.", "parameters": {
                "type": "object",
                "properties": {"text": {"type": "string", "description": "The note, as plain text."}},
                "required": ["text"],
            }},
            {"name": "ping", "description": "Checks the service is up",
             "parameters": {"type": "object", "properties": {}, "required": []}},
        ]})
    );
}

#[test]
fn mcp_entries_carry_the_title_when_there_is_one() {
    let list = export::mcp_tools_list(&[tool("note"), tool("weather")]);
    assert_eq!(list["tools"][0]["title"], "Note");
    assert_eq!(list["tools"][0]["inputSchema"], tool("note").input_schema());
    assert!(list["tools"][1].get("title").is_none());
    assert_eq!(
        keys(&list["tools"][1]),
        ["name", "description", "inputSchema"]
    );
}

#[test]
fn strict_mode_makes_optional_parameters_nullable_and_required() {
    let exported = export::openai_chat_tool_strict(&tool("weather"));
    assert_eq!(exported["function"]["strict"], true);
    let parameters = &exported["function"]["parameters"];
    assert_eq!(
        parameters["required"],
        json!(["city", "units", "days", "at"])
    );
    assert_eq!(parameters["additionalProperties"], false);
    assert_eq!(
        parameters["properties"]["units"]["type"],
        json!(["string", "null"])
    );
    assert_eq!(
        parameters["properties"]["units"]["enum"],
        json!(["metric", "imperial", null])
    );
    // The city was required: not nullable.
    assert_eq!(parameters["properties"]["city"]["type"], "string");
    // u8: the range stays, the numeric format goes.
    assert_eq!(parameters["properties"]["days"]["maximum"], 255);
    assert!(parameters["properties"]["days"].get("format").is_none());
    // The enum's documentation survives.
    let units = parameters["properties"]["units"]["description"]
        .as_str()
        .unwrap_or_default();
    assert!(
        units.contains("`imperial`: Fahrenheit and miles."),
        "{units}"
    );
}

#[test]
fn strict_mode_closes_nested_objects_and_wraps_optional_structs() {
    let strict = export::openai_strict_schema(&tool("search").input_schema()).expect("strict");
    let also = &strict["properties"]["also"];
    // Option<Filter> already accepts null: it stays an anyOf with null, now closed inside.
    let inner = &also["anyOf"][0];
    assert_eq!(inner["additionalProperties"], false);
    assert_eq!(
        inner["required"],
        json!(["limit", "offset", "query", "tags", "labels", "units"])
    );
    assert_eq!(also["anyOf"][1], json!({"type": "null"}));
    // `#[serde(default)] offset: u64` was optional without accepting null: now it does.
    assert_eq!(
        strict["properties"]["filter"]["properties"]["offset"]["type"],
        json!(["integer", "null"])
    );
}

#[test]
fn strict_mode_moves_unsupported_keywords_into_descriptions() {
    let strict = export::openai_strict_schema(&tool("search").input_schema()).expect("strict");
    let filter = &strict["properties"]["filter"]["properties"];
    let name = &filter["tags"]["items"]["properties"]["name"];
    assert_eq!(
        name["description"],
        "Its name. (minLength: 1; maxLength: 40)"
    );
    assert!(name.get("minLength").is_none());
    // A pattern with look-ahead is beyond strict mode's regular expressions.
    let query = filter["query"]["description"].as_str().unwrap_or_default();
    assert!(
        query.starts_with("Words to look for. (pattern: "),
        "{query}"
    );
    assert!(filter["query"].get("pattern").is_none());
    // HashSet: uniqueItems is noted.
    let labels = filter["labels"]["description"].as_str().unwrap_or_default();
    assert_eq!(labels, "uniqueItems: true");
    // `default` is not supported either.
    assert_eq!(
        filter["offset"]["description"],
        "Rows to skip. (default: 0)"
    );

    let strict = export::openai_strict_schema(&tool("keywords").input_schema()).expect("strict");
    let site = &strict["properties"]["site"];
    assert_eq!(
        site["description"],
        "A site. (format: \"uri\"; minLength: 8)"
    );
    assert_eq!(strict["properties"]["ratio"]["multipleOf"], 0.25);
    // allOf is merged.
    let both = &strict["properties"]["both"]["anyOf"][0];
    assert_eq!(both["required"], json!(["a", "b"]));
    assert_eq!(both["properties"]["b"]["type"], json!(["boolean", "null"]));
}

#[test]
fn strict_mode_turns_one_of_into_any_of_and_unwraps_references_with_siblings() {
    let strict = export::openai_strict_schema(&tool("shapes").input_schema()).expect("strict");
    let shape = &strict["properties"]["shape"];
    assert!(shape.get("oneOf").is_none());
    assert_eq!(shape["anyOf"][0]["properties"]["kind"]["const"], "circle");
    assert_eq!(shape["anyOf"][0]["additionalProperties"], false);

    let strict = export::openai_strict_schema(&tool("tree").input_schema()).expect("strict");
    let node = &strict["$defs"]["Node"];
    assert_eq!(node["additionalProperties"], false);
    assert_eq!(node["required"], json!(["name", "children", "parent"]));
    assert_eq!(
        node["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Node"})
    );
    assert_eq!(
        node["properties"]["parent"],
        json!({"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]})
    );
    let with_sibling = json!({"type": "object", "properties": {
        "n": {"$ref": "#/$defs/N", "description": "Which."}},
        "required": ["n"],
        "$defs": {"N": {"type": "integer"}}});
    let strict = export::openai_strict_schema(&with_sibling).expect("strict");
    assert_eq!(
        strict["properties"]["n"],
        json!({"description": "Which.", "anyOf": [{"$ref": "#/$defs/N"}]})
    );
}

#[test]
fn strict_mode_falls_back_for_what_it_cannot_express() {
    let cases = [
        ("counts", "/properties/counts/additionalProperties", "a map"),
        ("anything", "/properties/value", "any type"),
        ("pair", "/properties/pair", "tuple"),
    ];
    for (name, location, reason) in cases {
        let tool = tool(name);
        let error = export::openai_strict_schema(&tool.input_schema()).expect_err(name);
        assert_eq!(error.location, location);
        assert!(error.reason.contains(reason), "{error}");
        let exported = export::openai_chat_tool_strict(&tool);
        assert_eq!(exported["function"]["strict"], false);
        assert_eq!(exported["function"]["parameters"], tool.input_schema());
        let responses = export::openai_responses_tool(&tool, true);
        assert_eq!(responses["strict"], false);
    }
    assert_eq!(
        export::openai_strict_schema(&tool("counts").input_schema())
            .expect_err("map")
            .to_string(),
        "OpenAI strict mode cannot express the schema at `/properties/counts/additionalProperties`: \
         an object with free members (a map); strict mode closes every object"
    );
}

#[test]
fn strict_mode_falls_back_beyond_ten_levels_of_nesting() {
    let mut schema = json!({"type": "string"});
    for _ in 0..10 {
        schema = json!({"type": "object", "properties": {"inner": schema}, "required": ["inner"]});
    }
    let tool = Tool::new("deep", "Deep.")
        .with_parameter(ToolParameter::new("x", "X.").with_schema(schema.clone()));
    let error = export::openai_strict_schema(&tool.input_schema()).expect_err("11 levels");
    assert!(error.reason.contains("10 levels"), "{error}");
    let shallower = schema["properties"]["inner"].clone();
    let tool = Tool::new("deep", "Deep.")
        .with_parameter(ToolParameter::new("x", "X.").with_schema(shallower));
    assert!(export::openai_strict_schema(&tool.input_schema()).is_ok());
}

#[test]
fn strict_schemas_accept_the_calls_strict_mode_produces() {
    let tool = tool("search");
    let strict = export::openai_strict_schema(&tool.input_schema()).expect("strict");
    let call = json!({
        "filter": {"limit": null, "offset": null, "query": "rain", "tags": [{"name": "a", "weight": null}],
                   "labels": [], "units": null},
        "also": null,
        "page": null,
        "cursor": null,
    });
    assert!(
        validate_value("", &strict, &call).is_ok(),
        "{:?}",
        validate_value("", &strict, &call)
    );
    // Leaving a property out is what strict mode forbids.
    let mut partial = call.clone();
    partial["filter"].as_object_mut().map(|f| f.remove("units"));
    assert!(validate_value("", &strict, &partial).is_err());
}

#[test]
fn strict_arguments_drop_the_nulls_strict_mode_adds() {
    let tool = tool("search");
    let call = json!({
        "filter": {"limit": null, "offset": null, "query": "rain", "tags": [{"name": "a", "weight": null}],
                   "labels": [], "units": null},
        "also": null,
        "page": null,
        "cursor": null,
    });
    // As sent, the null offset does not fit `#[serde(default)] offset: u64`.
    let problems = validate_arguments(&tool, &call).expect_err("null offset");
    assert_eq!(
        problems.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["argument `filter.offset`: expected an integer (uint64) ≥ 0, got null"]
    );
    let cleaned = export::openai_strict_arguments(&tool, call);
    assert_eq!(
        cleaned,
        json!({"filter": {"limit": null, "query": "rain", "tags": [{"name": "a", "weight": null}],
                          "labels": [], "units": null}})
    );
    assert!(validate_arguments(&tool, &cleaned).is_ok());
    let filter: Filter = serde_json::from_value(cleaned["filter"].clone()).expect("decodes");
    assert_eq!(filter.offset, 0);
}

#[test]
fn strict_arguments_follow_references_and_alternatives() {
    let tool = tool("tree");
    let call = json!({"tree": {"name": "a", "parent": null, "children": [
        {"name": "b", "children": [], "parent": {"name": "c", "children": [], "parent": null}}]}});
    // Every null here is Option's: it stays.
    assert_eq!(export::openai_strict_arguments(&tool, call.clone()), call);

    let tool = tool_with("also", schema_of::<Option<Filter>>());
    let call = json!({"also": {"offset": null, "query": "q", "tags": [], "labels": [], "limit": null, "units": null}});
    let cleaned = export::openai_strict_arguments(&tool, call);
    assert!(cleaned["also"].get("offset").is_none(), "{cleaned}");
    assert!(cleaned["also"].get("limit").is_some(), "{cleaned}");
}

fn schema_of<T: JsonSchema>() -> Value {
    let mut settings = schemars::generate::SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    settings
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

fn tool_with(name: &str, schema: Value) -> Tool {
    Tool::new("t", "T.").with_parameter(
        ToolParameter::new(name, "")
            .required(false)
            .with_schema(schema),
    )
}

#[test]
fn openai_descriptions_are_cut_to_the_limit() {
    let long = format!("{} end", "word ".repeat(300));
    let tool = Tool::new("long", long.clone());
    let exported = export::openai_chat_tool(&tool);
    let description = exported["function"]["description"]
        .as_str()
        .unwrap_or_default();
    assert!(description.chars().count() <= export::OPENAI_DESCRIPTION_LIMIT);
    assert!(description.ends_with("word…"), "{description}");
    assert_eq!(export::anthropic_tool(&tool)["description"], long.as_str());
    let short = Tool::new("short", "Short.");
    assert_eq!(
        export::openai_chat_tool(&short)["function"]["description"],
        "Short."
    );
}

#[test]
fn gemini_turns_type_lists_into_nullable_and_const_into_enum() {
    let declaration = export::gemini_function_declaration(&tool("keywords"));
    let properties = &declaration["parameters"]["properties"];
    assert_eq!(
        properties["code"],
        json!({"type": "string", "description": "A code.", "enum": ["X1"]})
    );
    let mixed = &properties["mixed"];
    assert_eq!(mixed["nullable"], true);
    assert_eq!(
        mixed["anyOf"],
        json!([{"type": "string"}, {"type": "integer"}])
    );
    // Integer enums are not Gemini enums: the values go into the description.
    assert_eq!(
        properties["level"],
        json!({"type": "integer", "description": "A level. (one of 1, 2, 3)", "default": 2})
    );
    assert_eq!(
        properties["ratio"]["description"],
        "A ratio. (exclusiveMinimum: 0; exclusiveMaximum: 1; multipleOf: 0.25)"
    );
    // Gemini takes minLength; the uri format goes into the description.
    assert_eq!(properties["site"]["minLength"], 8);
    assert_eq!(properties["site"]["description"], "A site. (format: uri)");
}

#[test]
fn gemini_folds_null_alternatives_and_keeps_its_formats() {
    let declaration = export::gemini_function_declaration(&tool("weather"));
    let properties = &declaration["parameters"]["properties"];
    assert_eq!(properties["at"]["format"], "int64");
    assert!(
        properties["days"].get("format").is_none(),
        "uint8 is not a Gemini format"
    );
    let declaration = export::gemini_function_declaration(&tool("search"));
    let also = &declaration["parameters"]["properties"]["also"];
    assert_eq!(also["type"], "object");
    assert_eq!(also["nullable"], true);
    assert!(
        also["description"]
            .as_str()
            .unwrap_or_default()
            .starts_with("A second filter.")
    );
    let units = &also["properties"]["units"];
    assert_eq!(
        (&units["type"], &units["nullable"]),
        (&json!("string"), &json!(true))
    );
}

#[test]
fn gemini_inlines_recursive_types_to_a_bounded_depth() {
    let declaration = export::gemini_function_declaration(&tool("tree"));
    let text = declaration.to_string();
    assert!(!text.contains("$ref") && !text.contains("$defs"), "{text}");
    let tree = &declaration["parameters"]["properties"]["tree"];
    let level2 = &tree["properties"]["children"]["items"];
    let level3 = &level2["properties"]["children"]["items"];
    assert_eq!(level3["type"], "object");
    let beyond = &level3["properties"]["children"]["items"];
    assert!(beyond.get("type").is_none(), "{beyond}");
    let said = beyond["description"].as_str().unwrap_or_default();
    assert!(
        said.contains("a recursive type") && said.contains("Node"),
        "{said}"
    );
    assert!(text.len() < 20_000, "{} bytes", text.len());
}

#[test]
fn gemini_describes_maps_any_values_and_tuples_in_words() {
    let declaration = export::gemini_function_declaration(&tool("counts"));
    assert_eq!(
        declaration["parameters"]["properties"]["counts"],
        json!({"description": "Counts by name.\n\nA JSON object whose member values are each an integer (uint32) ≥ 0."})
    );
    let declaration = export::gemini_function_declaration(&tool("anything"));
    assert_eq!(
        declaration["parameters"]["properties"]["value"],
        json!({"description": "Any value.\n\nAny JSON value."})
    );
    let declaration = export::gemini_function_declaration(&tool("pair"));
    let pair = &declaration["parameters"]["properties"]["pair"];
    assert_eq!(pair["items"]["anyOf"][1], json!({"type": "string"}));
    assert_eq!(pair["minItems"], 2);
    let said = pair["description"].as_str().unwrap_or_default();
    assert!(
        said.contains("in this order: an integer (uint8) from 0 to 255, a string"),
        "{said}"
    );
}

#[test]
fn gemini_leaves_out_parameters_of_a_tool_without_any() {
    let declaration = export::gemini_function_declaration(&tool("ping"));
    assert_eq!(
        declaration,
        json!({"name": "ping", "description": "Checks the service is up"})
    );
    let all = export::gemini_tools(&[tool("ping"), tool("note")]);
    assert_eq!(
        all["functionDeclarations"].as_array().map(Vec::len),
        Some(2)
    );
}

#[test]
fn gemini_merges_all_of_and_drops_additional_properties() {
    let declaration = export::gemini_function_declaration(&tool("keywords"));
    let both = &declaration["parameters"]["properties"]["both"];
    assert_eq!(both["required"], json!(["a"]));
    assert_eq!(both["properties"]["b"], json!({"type": "boolean"}));
    let declaration = export::gemini_function_declaration(&tool("search"));
    let tag = &declaration["parameters"]["properties"]["filter"]["properties"]["tags"]["items"];
    assert!(tag.get("additionalProperties").is_none());
}

#[test]
fn provider_name_rules() {
    let cases = [
        ("get_weather", [true, true, true, true]),
        ("get-weather-2", [true, true, true, true]),
        ("weather.get", [false, false, true, true]),
        ("ns:weather", [false, false, true, false]),
        ("2fast", [true, true, false, true]),
        ("has space", [false, false, false, false]),
        ("", [false, false, false, false]),
    ];
    let providers = [
        Provider::OpenAi,
        Provider::Anthropic,
        Provider::Gemini,
        Provider::Mcp,
    ];
    for (name, expected) in cases {
        for (provider, expected) in providers.iter().zip(expected) {
            assert_eq!(
                provider.accepts_tool_name(name),
                expected,
                "{provider:?} {name:?}"
            );
        }
    }
    let long = "a".repeat(65);
    assert!(!Provider::OpenAi.accepts_tool_name(&long));
    assert!(!Provider::Gemini.accepts_tool_name(&long));
    assert!(Provider::Mcp.accepts_tool_name(&long));
    assert!(!Provider::Mcp.accepts_tool_name(&"a".repeat(129)));
}
