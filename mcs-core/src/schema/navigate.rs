//! Finding one's way in a schema: which keywords hold sub-schemas, where `$ref`s point, the
//! sub-schema at a path inside a value, and how such a path is written.

use serde_json::Value;

pub(super) use crate::definitions::{SCHEMA_KEYWORDS, SCHEMA_LIST_KEYWORDS, SCHEMA_MAP_KEYWORDS};

/// Where definitions live, by the convention of each generator we read.
const DEFINITION_PREFIXES: &[&str] = &["#/$defs/", "#/definitions/", "#/components/schemas/"];

/// The definition name a `$ref` points at, if it points into a definitions section.
pub(crate) fn definition_name(reference: &str) -> Option<String> {
    DEFINITION_PREFIXES
        .iter()
        .find_map(|prefix| reference.strip_prefix(prefix))
        .filter(|rest| !rest.contains('/'))
        .map(unescape_pointer)
}

/// The definition `name` in the `$defs` at `root`, where [`normalize`](super::normalize)
/// keeps the definitions of recursive types.
pub(crate) fn definition<'s>(root: &'s Value, name: &str) -> Option<&'s Value> {
    root.get("$defs")?.get(name)
}

/// The schema a `{"$ref": "#/$defs/NAME"}` object points at inside `root`, if it is one.
pub(crate) fn referenced<'s>(root: &'s Value, schema: &Value) -> Option<&'s Value> {
    let name = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(definition_name)?;
    definition(root, &name)
}

fn unescape_pointer(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

pub(super) fn escape_pointer(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// The sub-schema that describes the value at `path` (segments of field names and indices)
/// inside a value described by `schema`, following `allOf`/`anyOf`/`oneOf` and recursive
/// references into `root`'s `$defs`.
pub fn schema_at<'s>(
    root: &'s Value,
    schema: &'s Value,
    path: &[PathSegment],
) -> Option<&'s Value> {
    let Some((first, rest)) = path.split_first() else {
        return Some(schema);
    };
    let object = schema.as_object()?;
    if let Some(target) = referenced(root, schema) {
        return schema_at(root, target, path);
    }
    for key in SCHEMA_LIST_KEYWORDS {
        if let Some(Value::Array(alternatives)) = object.get(*key)
            && let Some(found) = alternatives
                .iter()
                .find_map(|alt| schema_at(root, alt, path))
        {
            return Some(found);
        }
    }
    let child = match first {
        PathSegment::Field(name) => object
            .get("properties")
            .and_then(|p| p.get(name.as_str()))
            .or_else(|| object.get("additionalProperties").filter(|s| s.is_object())),
        PathSegment::Index(index) => match object.get("prefixItems") {
            Some(Value::Array(items)) if *index < items.len() => items.get(*index),
            _ => object.get("items").filter(|s| s.is_object()),
        },
    }?;
    schema_at(root, child, rest)
}

/// One step of a path into a JSON value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathSegment {
    /// An object member.
    Field(String),
    /// An array element.
    Index(usize),
}

/// The one value `schema` allows, when it allows one only: its `const`, or its `enum` of
/// one value (how a tagged union's tag, or EC2's `Action`, is written).
pub(crate) fn only_value(schema: &Value) -> Option<&Value> {
    if let Some(value) = schema.get("const") {
        return Some(value);
    }
    match schema.get("enum") {
        Some(Value::Array(values)) if values.len() == 1 => values.first(),
        _ => None,
    }
}

/// A path into an argument as errors name it: `filter.limit`, `items[2].name`.
pub(crate) fn join_path(base: &str, segments: &[PathSegment]) -> String {
    let mut path = base.to_owned();
    for segment in segments {
        match segment {
            PathSegment::Field(name) if path.is_empty() => path.push_str(name),
            PathSegment::Field(name) => {
                path.push('.');
                path.push_str(name);
            }
            PathSegment::Index(index) => path.push_str(&format!("[{index}]")),
        }
    }
    path
}
