//! The tools the exports are checked on, built as drivers build them.

use std::collections::{HashMap, HashSet};

use mcs_core::__private::{ParamDef, ParamKind, ToolDef, ToolSet, schema_for};
use mcs_core::{Tool, ToolParameter};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

#[allow(dead_code)]
pub(crate) mod types {
    use super::*;

    /// Units of measurement.
    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "lowercase")]
    pub(crate) enum Units {
        /// Celsius and kilometres.
        Metric,
        /// Fahrenheit and miles.
        Imperial,
    }

    /// A tag.
    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct Tag {
        /// Its name.
        #[schemars(length(min = 1, max = 40))]
        pub name: String,
        pub weight: Option<f32>,
    }

    /// Which rows to return.
    #[derive(Deserialize, JsonSchema)]
    pub(crate) struct Filter {
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
    pub(crate) struct Node {
        /// The label.
        pub name: String,
        pub children: Vec<Node>,
        pub parent: Option<Box<Node>>,
    }

    /// A shape.
    #[derive(Deserialize, JsonSchema)]
    #[serde(tag = "kind", rename_all = "lowercase")]
    pub(crate) enum Shape {
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
    pub(crate) enum Id {
        Number(u64),
        Name(String),
    }

    /// Paging, flattened into the arguments.
    #[derive(Deserialize, JsonSchema)]
    pub(crate) struct Paging {
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
        annotations: mcs_core::ToolAnnotations::new(),
    }
}

/// Every tool of the test set: the driver-built ones, and hand-written ones for what
/// schemars does not produce.
pub(crate) fn tools() -> Vec<Tool> {
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

pub(crate) fn tool(name: &str) -> Tool {
    tools().into_iter().find(|t| t.name() == name).expect(name)
}
