//! The schemas a generated driver hands out: object-rooted, self-contained, enum values
//! listed, doc comments carried into them.

// The parameter types exist for their schemas; the tools never read their fields.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use mcs::{Tool, ToolDriver};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// Sort order of results.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Order {
    /// Newest first.
    Newest,
    /// Most relevant first.
    Relevance,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "UPPERCASE")]
enum Method {
    Get,
    Post,
}

/// Where to look.
#[derive(Deserialize, JsonSchema)]
struct Scope {
    /// Folder to search in.
    folder: String,
    /// Also search subfolders.
    #[serde(default)]
    recursive: bool,
    /// Sort order, if any.
    order: Option<Order>,
}

/// A tree of folders.
#[derive(Deserialize, JsonSchema)]
struct Folder {
    /// The folder's name.
    name: String,
    /// Folders inside it.
    children: Vec<Folder>,
}

/// An operation, tagged by kind.
#[derive(Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Operation {
    /// Copy a file.
    Copy {
        /// Source path.
        from: String,
        /// Destination path.
        to: String,
    },
    /// Delete a file.
    Delete {
        /// The path.
        path: String,
    },
}

/// Paging options.
#[derive(Deserialize, JsonSchema)]
struct Paging {
    /// Page size.
    limit: u32,
    /// Opaque cursor from the previous page.
    cursor: Option<String>,
}

struct Shapes;

#[mcs::tool_driver]
impl Shapes {
    /// Optional scalars and enums.
    #[tool]
    fn optional(&self, query: String, order: Option<Order>, method: Option<Method>) {
        let _ = (query, order, method);
    }

    /// Vectors and maps.
    #[tool]
    fn collections(
        &self,
        tags: Vec<String>,
        scores: HashMap<String, f64>,
        headers: BTreeMap<String, Vec<String>>,
    ) {
        let _ = (tags, scores, headers);
    }

    /// Nested structs.
    #[tool]
    fn nested(
        &self,
        /// Where to search.
        scope: Scope,
    ) {
        let _ = scope;
    }

    /// Recursive types.
    #[tool]
    fn recursive(&self, root: Folder) {
        let _ = root;
    }

    /// Enums with data.
    #[tool]
    fn tagged(&self, operations: Vec<Operation>) {
        let _ = operations;
    }

    /// Flattened paging.
    #[tool]
    fn flattened(&self, query: String, #[arg(flatten)] paging: Paging) {
        let _ = (query, paging);
    }

    /// Optional struct.
    #[tool]
    fn optional_struct(&self, scope: Option<Scope>) {
        let _ = scope;
    }
}

fn tool(name: &str) -> Tool {
    Shapes
        .list_tools()
        .iter()
        .find(|t| t.name() == name)
        .cloned()
        .unwrap()
}

fn schema(tool_name: &str, parameter: &str) -> Value {
    tool(tool_name)
        .parameter(parameter)
        .unwrap()
        .schema
        .clone()
        .unwrap()
}

/// Every `$ref` in `value`.
fn refs(value: &Value) -> Vec<String> {
    match value {
        Value::Object(object) => object
            .iter()
            .flat_map(|(key, value)| match (key.as_str(), value) {
                ("$ref", Value::String(target)) => vec![target.clone()],
                _ => refs(value),
            })
            .collect(),
        Value::Array(items) => items.iter().flat_map(refs).collect(),
        _ => Vec::new(),
    }
}

fn keys_anywhere(value: &Value, key: &str) -> usize {
    match value {
        Value::Object(object) => {
            usize::from(object.contains_key(key))
                + object
                    .values()
                    .map(|v| keys_anywhere(v, key))
                    .sum::<usize>()
        }
        Value::Array(items) => items.iter().map(|v| keys_anywhere(v, key)).sum(),
        _ => 0,
    }
}

#[test]
fn option_makes_a_parameter_optional_without_a_null_in_its_schema() {
    let tool = tool("optional");
    let required: Vec<(&str, bool)> = tool
        .parameters()
        .iter()
        .map(|p| (p.name.as_str(), p.required))
        .collect();
    assert_eq!(
        required,
        [("query", true), ("order", false), ("method", false)]
    );
    assert_eq!(
        schema("optional", "method"),
        json!({"type": "string", "enum": ["GET", "POST"]})
    );
}

#[test]
fn enum_variant_docs_are_listed_next_to_the_values() {
    assert_eq!(
        schema("optional", "order"),
        json!({
            "type": "string",
            "enum": ["newest", "relevance"],
            "description": "Sort order of results.\n- `newest`: Newest first.\n- `relevance`: Most relevant first."
        })
    );
}

#[test]
fn vectors_and_maps() {
    assert_eq!(
        schema("collections", "tags"),
        json!({"type": "array", "items": {"type": "string"}})
    );
    assert_eq!(
        schema("collections", "scores"),
        json!({"type": "object", "additionalProperties": {"type": "number", "format": "double"}})
    );
    assert_eq!(
        schema("collections", "headers"),
        json!({"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}})
    );
}

#[test]
fn nested_structs_are_inlined_with_their_field_docs() {
    assert_eq!(
        schema("nested", "scope"),
        json!({
            "type": "object",
            "description": "Where to look.",
            "properties": {
                "folder": {"type": "string", "description": "Folder to search in."},
                "recursive": {"type": "boolean", "description": "Also search subfolders.", "default": false},
                "order": {
                    "description": "Sort order, if any.",
                    "anyOf": [
                        {
                            "type": "string",
                            "enum": ["newest", "relevance"],
                            "description": "Sort order of results.\n- `newest`: Newest first.\n- `relevance`: Most relevant first."
                        },
                        {"type": "null"}
                    ]
                }
            },
            "required": ["folder"]
        })
    );
    // The parameter's own doc comes first where the model reads it.
    let input = tool("nested").input_schema();
    assert_eq!(
        input["properties"]["scope"]["description"],
        "Where to search.\n\nWhere to look."
    );
}

#[test]
fn recursive_types_keep_a_reference_and_carry_their_definition() {
    let root = schema("recursive", "root");
    assert_eq!(refs(&root), ["#/$defs/Folder", "#/$defs/Folder"]);
    assert_eq!(
        root["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Folder"})
    );
    assert_eq!(
        root["$defs"]["Folder"]["properties"]["name"]["description"],
        "The folder's name."
    );

    // In the tool's input schema the definitions sit at the root, where the references resolve.
    let input = tool("recursive").input_schema();
    assert!(input["$defs"]["Folder"].is_object());
    assert!(input["properties"]["root"].get("$defs").is_none());
}

#[test]
fn no_refs_or_defs_remain_for_non_recursive_types() {
    for tool in Shapes
        .list_tools()
        .iter()
        .filter(|t| t.name() != "recursive")
    {
        let input = tool.input_schema();
        assert!(refs(&input).is_empty(), "{}: {input}", tool.name());
        assert_eq!(
            keys_anywhere(&input, "$defs"),
            0,
            "{}: {input}",
            tool.name()
        );
    }
}

#[test]
fn no_schema_or_title_noise() {
    for tool in Shapes.list_tools().iter() {
        let input = tool.input_schema();
        assert_eq!(keys_anywhere(&input, "$schema"), 0, "{input}");
        // "title" may only appear as a property name, never as a keyword.
        assert!(!input.to_string().contains("\"title\":\""), "{input}");
    }
}

#[test]
fn internally_tagged_enums_keep_their_alternatives() {
    let operations = schema("tagged", "operations");
    let alternatives = operations["items"]["oneOf"].as_array().unwrap();
    assert_eq!(alternatives.len(), 2);
    assert_eq!(
        alternatives[0]["properties"]["kind"],
        json!({"type": "string", "const": "copy"})
    );
    assert_eq!(alternatives[0]["description"], "Copy a file.");
    assert_eq!(
        alternatives[1]["properties"]["path"]["description"],
        "The path."
    );
}

#[test]
fn flattened_struct_fields_become_top_level_parameters() {
    let tool = tool("flattened");
    let parameters: Vec<(&str, bool, &str)> = tool
        .parameters()
        .iter()
        .map(|p| (p.name.as_str(), p.required, p.description.as_str()))
        .collect();
    assert_eq!(
        parameters,
        [
            ("query", true, ""),
            ("limit", true, "Page size."),
            ("cursor", false, "Opaque cursor from the previous page.")
        ]
    );
}

#[test]
fn optional_struct_parameter() {
    let tool = tool("optional_struct");
    assert!(!tool.parameters()[0].required);
    assert_eq!(schema("optional_struct", "scope")["type"], "object");
}

#[test]
fn input_schema_is_object_rooted() {
    for tool in Shapes.list_tools().iter() {
        let input = tool.input_schema();
        assert_eq!(input["type"], "object");
        assert!(input["properties"].is_object());
        assert!(input["required"].is_array());
    }
}

#[test]
fn list_tools_hands_out_the_same_list_every_time() {
    let first = Shapes.list_tools();
    let second = Shapes.list_tools();
    assert!(
        Arc::ptr_eq(&first, &second),
        "the list is built once and shared"
    );
}

#[tokio::test]
async fn flattened_and_tagged_arguments_decode() {
    let driver = Shapes;
    driver
        .execute_tool("flattened", json!({"query": "q", "limit": 10}))
        .await
        .unwrap();
    driver
        .execute_tool("tagged", json!({"operations": [{"kind": "copy", "from": "a", "to": "b"}, {"kind": "delete", "path": "c"}]}))
        .await
        .unwrap();
    let error = driver
        .execute_tool("flattened", json!({"query": "q", "limit": 10, "page": 2}))
        .await
        .unwrap_err();
    assert!(
        error.to_string().contains("unknown argument `page`"),
        "{error}"
    );
    assert!(
        error
            .to_string()
            .contains("(this tool takes: query, limit, cursor)"),
        "{error}"
    );
}
