//! JSON Schema post-processing: what generators emit, turned into what models and
//! providers accept.
//!
//! Schemas handed out by mcs are object-rooted and self-contained: references are inlined
//! (only recursive types keep `$ref`, with their definitions carried along), generator
//! noise such as `$schema` and `title` is dropped, and enums list their values.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use crate::types::ToolParameter;

/// Keywords whose value is one schema.
const SCHEMA_KEYWORDS: &[&str] = &[
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
];
/// Keywords whose value is a list of schemas.
const SCHEMA_LIST_KEYWORDS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
/// Keywords whose value maps names to schemas.
const SCHEMA_MAP_KEYWORDS: &[&str] = &[
    "properties",
    "patternProperties",
    "dependentSchemas",
    "$defs",
    "definitions",
];

/// Where definitions live, by the convention of each generator we read.
const DEFINITION_PREFIXES: &[&str] = &["#/$defs/", "#/definitions/", "#/components/schemas/"];

/// Makes `schema` self-contained given the `definitions` its references point into.
///
/// Every `$ref` to a definition is replaced by the definition (keywords written next to
/// the reference win over the definition's). A reference that would recurse forever stays a
/// reference to `#/$defs/NAME`, and the definitions it needs are added under `$defs` at the
/// root of `schema`. Unresolvable references are left as they are.
pub fn normalize(schema: &mut Value, definitions: &Map<String, Value>) {
    let mut inliner = Inliner {
        definitions,
        stack: Vec::new(),
        recursive: BTreeSet::new(),
    };
    inliner.walk(schema);

    // Definitions a recursive type needs, themselves normalized, may name further ones.
    let mut kept = Map::new();
    let mut pending: Vec<String> = inliner.recursive.iter().cloned().collect();
    while let Some(name) = pending.pop() {
        if kept.contains_key(&name) {
            continue;
        }
        let Some(definition) = definitions.get(&name) else {
            continue;
        };
        let mut definition = definition.clone();
        let mut inliner = Inliner {
            definitions,
            stack: vec![name.clone()],
            recursive: BTreeSet::new(),
        };
        inliner.walk(&mut definition);
        pending.extend(
            inliner
                .recursive
                .into_iter()
                .filter(|n| !kept.contains_key(n)),
        );
        kept.insert(name, definition);
    }

    if let Value::Object(root) = schema {
        root.remove("$schema");
        root.remove("$defs");
        root.remove("definitions");
        if !kept.is_empty() {
            root.insert("$defs".to_owned(), Value::Object(kept));
        }
    }
}

struct Inliner<'d> {
    definitions: &'d Map<String, Value>,
    /// Definitions being inlined, outermost first: meeting one again means recursion.
    stack: Vec<String>,
    /// Definitions that must stay as references.
    recursive: BTreeSet<String>,
}

impl Inliner<'_> {
    fn walk(&mut self, schema: &mut Value) {
        let Value::Object(object) = schema else {
            return;
        };
        if let Some(name) = object
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(definition_name)
        {
            if self.stack.contains(&name) {
                self.recursive.insert(name.clone());
                object.insert(
                    "$ref".to_owned(),
                    Value::String(format!("#/$defs/{}", escape_pointer(&name))),
                );
            } else if let Some(definition) = self.definitions.get(&name) {
                let mut body = definition.clone();
                self.stack.push(name);
                self.walk(&mut body);
                self.stack.pop();
                object.remove("$ref");
                match body {
                    Value::Object(body) => {
                        for (key, value) in body {
                            match (key.as_str(), object.get(&key), &value) {
                                // Both say something: the use site first, then the type.
                                (
                                    "description",
                                    Some(Value::String(here)),
                                    Value::String(there),
                                ) if here.trim() != there.trim() => {
                                    let merged = format!("{}\n\n{}", here.trim_end(), there.trim());
                                    object.insert(key, Value::String(merged));
                                }
                                _ => {
                                    object.entry(key).or_insert(value);
                                }
                            }
                        }
                    }
                    Value::Bool(false) => {
                        object.insert("not".to_owned(), json!({}));
                    }
                    _ => {}
                }
                tidy(object);
                return;
            }
        }
        for (key, value) in object.iter_mut() {
            let key = key.as_str();
            if SCHEMA_KEYWORDS.contains(&key) {
                match value {
                    // Draft-07 tuple form: `items` as a list of schemas.
                    Value::Array(items) => items.iter_mut().for_each(|item| self.walk(item)),
                    value => self.walk(value),
                }
            } else if SCHEMA_LIST_KEYWORDS.contains(&key) {
                if let Value::Array(items) = value {
                    items.iter_mut().for_each(|item| self.walk(item));
                }
            } else if SCHEMA_MAP_KEYWORDS.contains(&key)
                && key != "$defs"
                && key != "definitions"
                && let Value::Object(map) = value
            {
                map.values_mut().for_each(|item| self.walk(item));
            }
        }
        tidy(object);
    }
}

/// Drops generator noise and lists enum values on one schema object.
fn tidy(object: &mut Map<String, Value>) {
    if object.get("title").is_some_and(Value::is_string) {
        object.remove("title");
    }
    object.remove("$schema");
    collapse_constant_alternatives(object);
}

/// `oneOf: [{const: "a", description}, {const: "b"}]` (how schemars writes an enum whose
/// variants have doc comments) becomes `enum: ["a", "b"]`, with the variants' docs listed in
/// the description: every provider understands `enum`, few take `oneOf` of constants.
fn collapse_constant_alternatives(object: &mut Map<String, Value>) {
    let key = if object.contains_key("oneOf") {
        "oneOf"
    } else {
        "anyOf"
    };
    let Some(Value::Array(alternatives)) = object.get(key) else {
        return;
    };
    let mut values = Vec::new();
    let mut notes = Vec::new();
    let mut types = BTreeSet::new();
    for alternative in alternatives {
        let Value::Object(alternative) = alternative else {
            return;
        };
        let allowed: &[&str] = &["const", "enum", "type", "description"];
        if alternative.keys().any(|k| !allowed.contains(&k.as_str())) {
            return;
        }
        let these: Vec<Value> = match (alternative.get("const"), alternative.get("enum")) {
            (Some(value), None) => vec![value.clone()],
            (None, Some(Value::Array(values))) => values.clone(),
            _ => return,
        };
        match alternative.get("type") {
            Some(Value::String(t)) => {
                types.insert(t.clone());
            }
            Some(_) => return,
            None => {
                for value in &these {
                    types.insert(json_type(value).to_owned());
                }
            }
        }
        if let Some(Value::String(note)) = alternative.get("description") {
            let shown: Vec<String> = these.iter().map(|v| format!("`{}`", plain(v))).collect();
            notes.push(format!("- {}: {}", shown.join(", "), note.trim()));
        }
        values.extend(these);
    }
    if values.is_empty() {
        return;
    }
    object.remove(key);
    if types.len() == 1 && !object.contains_key("type") {
        let only = types.into_iter().next().unwrap_or_default();
        object.insert("type".to_owned(), Value::String(only));
    }
    object.insert("enum".to_owned(), Value::Array(values));
    if !notes.is_empty() {
        let listing = notes.join("\n");
        let description = match object.get("description").and_then(Value::as_str) {
            Some(existing) if !existing.trim().is_empty() => {
                format!("{}\n{listing}", existing.trim_end())
            }
            _ => listing,
        };
        object.insert("description".to_owned(), Value::String(description));
    }
}

/// The definition name a `$ref` points at, if it points into a definitions section.
pub(crate) fn definition_name(reference: &str) -> Option<String> {
    DEFINITION_PREFIXES
        .iter()
        .find_map(|prefix| reference.strip_prefix(prefix))
        .filter(|rest| !rest.contains('/'))
        .map(unescape_pointer)
}

/// The definition `name` in the `$defs` at `root`, where [`normalize`] keeps the definitions
/// of recursive types.
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

fn escape_pointer(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// Puts `description` in front of the schema's own description (they say different things:
/// what this argument is for, and what the type is).
pub fn merge_description(schema: &mut Value, description: &str) {
    let description = description.trim();
    if description.is_empty() {
        return;
    }
    let Value::Object(object) = schema else {
        return;
    };
    let merged = match object.get("description").and_then(Value::as_str) {
        Some(own) if !own.trim().is_empty() && own.trim() != description => {
            format!("{description}\n\n{}", own.trim())
        }
        _ => description.to_owned(),
    };
    object.insert("description".to_owned(), Value::String(merged));
}

/// The schema of an arguments object with these parameters.
pub fn object_schema(parameters: &[ToolParameter]) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    let mut definitions = Map::new();
    for parameter in parameters {
        let mut schema = parameter.property_schema();
        if let Value::Object(object) = &mut schema
            && let Some(Value::Object(defs)) = object.remove("$defs")
        {
            for (name, definition) in defs {
                definitions.entry(name).or_insert(definition);
            }
        }
        if parameter.required {
            required.push(Value::String(parameter.name.clone()));
        }
        properties.insert(parameter.name.clone(), schema);
    }
    let mut root = Map::new();
    root.insert("type".to_owned(), json!("object"));
    root.insert("properties".to_owned(), Value::Object(properties));
    root.insert("required".to_owned(), Value::Array(required));
    if !definitions.is_empty() {
        root.insert("$defs".to_owned(), Value::Object(definitions));
    }
    Value::Object(root)
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

/// A short phrase for what `schema` accepts, for error messages: `a string`,
/// `one of "metric", "imperial"`, `an array of integers`.
pub fn describe(schema: &Value) -> String {
    let text = describe_within(schema, 0);
    match schema.get("not") {
        Some(forbidden) => format!("{text}, but not {}", describe_within(forbidden, 1)),
        None => text,
    }
}

fn describe_within(schema: &Value, depth: usize) -> String {
    let Some(object) = schema.as_object() else {
        return match schema {
            Value::Bool(false) => "nothing (no value is allowed)".to_owned(),
            _ => "any JSON value".to_owned(),
        };
    };
    if depth > 3 {
        return "a value".to_owned();
    }
    if let Some(value) = object.get("const") {
        return format!("exactly {}", render_value(value, 40));
    }
    if let Some(Value::Array(values)) = object.get("enum") {
        let shown: Vec<String> = values
            .iter()
            .take(12)
            .map(|v| render_value(v, 40))
            .collect();
        let more = if values.len() > 12 {
            format!(" (and {} more)", values.len() - 12)
        } else {
            String::new()
        };
        return format!("one of {}{more}", shown.join(", "));
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(alternatives)) = object.get(key) {
            let texts: Vec<String> = alternatives
                .iter()
                .map(|a| describe_within(a, depth + 1))
                .collect();
            return dedup_join(texts, " or ");
        }
    }
    if let Some(Value::Array(all)) = object.get("allOf")
        && let [only] = all.as_slice()
    {
        return describe_within(only, depth + 1);
    }
    match object.get("type") {
        Some(Value::String(kind)) => describe_type(kind, object, depth),
        Some(Value::Array(kinds)) => {
            let texts: Vec<String> = kinds
                .iter()
                .filter_map(Value::as_str)
                .map(|kind| describe_type(kind, object, depth))
                .collect();
            dedup_join(texts, " or ")
        }
        _ if object.contains_key("properties") => describe_type("object", object, depth),
        _ if object.contains_key("$ref") => "a value of the referenced type".to_owned(),
        _ => "any JSON value".to_owned(),
    }
}

fn describe_type(kind: &str, object: &Map<String, Value>, depth: usize) -> String {
    let format = object.get("format").and_then(Value::as_str);
    let with_format = |base: &str| match format {
        Some(format) => format!("{base} ({format})"),
        None => base.to_owned(),
    };
    match kind {
        "string" => {
            let text = match object.get("pattern").and_then(Value::as_str) {
                Some(pattern) => format!("{} matching `{}`", with_format("a string"), cut(pattern)),
                None => with_format("a string"),
            };
            with_count(text, object, "Length", "character")
        }
        "integer" => with_bounds(with_format("an integer"), object),
        "number" => with_bounds(with_format("a number"), object),
        "boolean" => "a boolean (true or false)".to_owned(),
        "null" => "null".to_owned(),
        "array" => {
            let unique = object.get("uniqueItems") == Some(&Value::Bool(true));
            let distinct = if unique { "distinct " } else { "" };
            let text = match object.get("items") {
                Some(items) if items.is_object() => {
                    let items = plural(&describe_within(items, depth + 1));
                    format!("an array of {distinct}{items}")
                }
                _ if unique => "an array of distinct values".to_owned(),
                _ => "an array".to_owned(),
            };
            with_count(text, object, "Items", "item")
        }
        "object" => match object.get("properties").and_then(Value::as_object) {
            Some(properties) if !properties.is_empty() => {
                let names: Vec<&str> = properties.keys().map(String::as_str).take(8).collect();
                format!("an object with fields {}", names.join(", "))
            }
            _ => "an object".to_owned(),
        },
        other => format!("a value of type {other}"),
    }
}

fn with_bounds(text: String, object: &Map<String, Value>) -> String {
    let bound = |key: &str| {
        object
            .get(key)
            .filter(|v| v.is_number())
            .map(ToString::to_string)
    };
    // (inclusive, bound); an exclusive bound is the stricter one when both are given.
    let lower = bound("exclusiveMinimum")
        .map(|min| (false, min))
        .or_else(|| bound("minimum").map(|min| (true, min)));
    let upper = bound("exclusiveMaximum")
        .map(|max| (false, max))
        .or_else(|| bound("maximum").map(|max| (true, max)));
    if let (Some((true, min)), Some((true, max))) = (&lower, &upper) {
        return format!("{text} from {min} to {max}");
    }
    let lower =
        lower.map(|(inclusive, min)| format!("{} {min}", if inclusive { "≥" } else { ">" }));
    let upper =
        upper.map(|(inclusive, max)| format!("{} {max}", if inclusive { "≤" } else { "<" }));
    let parts: Vec<String> = lower.into_iter().chain(upper).collect();
    if parts.is_empty() {
        text
    } else {
        format!("{text} {}", parts.join(" and "))
    }
}

/// Appends the `min{what}`/`max{what}` bounds (`minLength`, `maxItems`, ...) of `object`:
/// `a string (3 to 10 characters)`.
fn with_count(text: String, object: &Map<String, Value>, what: &str, unit: &str) -> String {
    let count = |key: String| object.get(&key).and_then(Value::as_u64);
    let units = |n: u64| {
        if n == 1 {
            format!("1 {unit}")
        } else {
            format!("{n} {unit}s")
        }
    };
    let bounds = match (count(format!("min{what}")), count(format!("max{what}"))) {
        (Some(min), Some(max)) if min == max => format!("exactly {}", units(max)),
        (Some(0) | None, Some(max)) => format!("at most {}", units(max)),
        (Some(min), Some(max)) => format!("{min} to {}", units(max)),
        (Some(0) | None, None) => return text,
        (Some(min), None) => format!("at least {}", units(min)),
    };
    format!("{text} ({bounds})")
}

fn plural(phrase: &str) -> String {
    for article in ["an ", "a "] {
        if let Some(rest) = phrase.strip_prefix(article) {
            return match rest.split_once(' ') {
                Some((noun, tail)) => format!("{noun}s {tail}"),
                None => format!("{rest}s"),
            };
        }
    }
    phrase.to_owned()
}

fn dedup_join(texts: Vec<String>, separator: &str) -> String {
    let mut seen = Vec::new();
    for text in texts {
        if !seen.contains(&text) {
            seen.push(text);
        }
    }
    seen.join(separator)
}

/// The JSON type name of a value.
pub fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A value as compact JSON, cut to about `limit` characters.
pub fn render_value(value: &Value, limit: usize) -> String {
    let text = value.to_string();
    if text.chars().count() <= limit {
        return text;
    }
    let cut: String = text.chars().take(limit).collect();
    format!("{cut}…")
}

/// A pattern as an error shows it: whole when it is short enough to read.
fn cut(pattern: &str) -> String {
    match pattern.char_indices().nth(80) {
        Some((end, _)) => format!("{}…", &pattern[..end]),
        None => pattern.to_owned(),
    }
}

/// A value as it reads in prose: strings without quotes.
fn plain(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// How a received value reads in an error: its JSON, cut short, and its type when the JSON
/// alone could mislead (a number written as a string).
pub fn describe_received(value: &Value) -> String {
    let shown = render_value(value, 80);
    match value {
        Value::String(_) => format!("the string {shown}"),
        Value::Array(items) => format!("an array of {} item(s): {shown}", items.len()),
        Value::Object(_) => format!("an object: {shown}"),
        _ => shown,
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
