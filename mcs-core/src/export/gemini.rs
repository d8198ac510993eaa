//! Gemini's `Schema`: a select subset of the OpenAPI 3.0 schema object.

use serde_json::{Map, Value, json};

use super::rewrite::{NOISE, add_notes, merge_all_of, note};
use crate::schema::{self, definition_name, describe, render_value};

/// The fields of Gemini's `Schema` (Gemini API reference, `Schema`): type, format, title,
/// description, nullable, enum, maxItems, minItems, properties, required, minProperties,
/// maxProperties, minLength, maxLength, pattern, example, anyOf, propertyOrdering, default,
/// items, minimum, maximum. `title` is dropped rather than kept, as schemas handed out by mcs
/// carry none.
const GEMINI_KEYWORDS: &[&str] = &[
    "type",
    "format",
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

/// Keywords that only apply to one type; Gemini rejects them elsewhere ("properties: only
/// allowed for OBJECT type").
const TYPE_KEYWORDS: &[(&str, &[&str])] = &[
    (
        "object",
        &[
            "properties",
            "required",
            "minProperties",
            "maxProperties",
            "propertyOrdering",
        ],
    ),
    ("array", &["items", "minItems", "maxItems"]),
    ("string", &["minLength", "maxLength", "pattern"]),
    ("integer", &["minimum", "maximum"]),
    ("number", &["minimum", "maximum"]),
];

/// The formats Gemini accepts, by type: `float`/`double` for numbers, `int32`/`int64` for
/// integers, `enum`/`date-time` for strings (other values fail the request).
const FORMATS: &[(&str, &[&str])] = &[
    ("number", &["float", "double"]),
    ("integer", &["int32", "int64"]),
    ("string", &["enum", "date-time"]),
];

/// How many times one definition of a recursive type is spelled out along a path before the
/// rest is described in words.
const RECURSION_LEVELS: usize = 2;

/// `schema` rewritten into the subset of OpenAPI 3.0 that Gemini's `Schema` takes, for the
/// `parameters` of a function declaration.
///
/// What changes, by the fields of `Schema` in the Gemini API reference and the errors its
/// validation gives:
/// - only `Schema`'s fields remain; other keywords (`additionalProperties`, `const`,
///   `exclusiveMinimum`, `multipleOf`, `uniqueItems`, `examples`, `not`, ...) are removed, and
///   those that constrain the value are written into the description (`(multipleOf: 5)`);
/// - type lists become one type with `nullable: true` (`["string", "null"]`), or `anyOf` of
///   one schema per type; `null` alternatives of an `anyOf`/`oneOf` become `nullable: true`;
///   `oneOf` becomes `anyOf`; `allOf` is merged into its schema;
/// - `const` becomes a one-value `enum`; `enum` takes strings only, so an enum of other values
///   is removed and its values listed in the description (a `null` among them becomes
///   `nullable`);
/// - `format` stays only where Gemini accepts it (`int32`/`int64`, `float`/`double`,
///   `enum`/`date-time`); other string formats go into the description, other numeric ones
///   are dropped (their range is in `minimum`/`maximum`);
/// - keywords of another type are dropped (Gemini rejects `properties` on a non-object);
///   `required` keeps only names that are among the `properties`;
/// - Gemini takes no `$ref`: references are inlined. A recursive type is spelled out two
///   levels deep along each path; below that, its place holds a schema without a type whose
///   description says what belongs there;
/// - Gemini rejects an object schema without properties ("should be non-empty for OBJECT
///   type"), so an object with free members (a map: `additionalProperties` with a schema) or
///   any value (no type) becomes a schema without a type that says in its description what
///   it takes; a tuple (`prefixItems`) becomes an array of `anyOf` its item schemas, with the
///   order written into the description.
pub fn gemini_schema(schema: &Value) -> Value {
    Gemini {
        root: schema,
        expanding: Vec::new(),
    }
    .convert(schema)
}

struct Gemini<'s> {
    /// The schema being converted, where `$ref`s resolve.
    root: &'s Value,
    /// Definitions being inlined, outermost first.
    expanding: Vec<String>,
}

impl Gemini<'_> {
    fn convert(&mut self, schema: &Value) -> Value {
        let Value::Object(source) = schema else {
            return json!({ "description": "Any JSON value." });
        };
        let mut object = source.clone();
        // Definitions are inlined where they are used.
        for key in NOISE.iter().chain(&["$defs", "definitions"]) {
            object.shift_remove(*key);
        }
        if let Some(inlined) = self.inline_reference(&mut object) {
            return inlined;
        }
        if let Some(Value::Array(parts)) = object.shift_remove("allOf") {
            let root = self.root;
            // A part that cannot be merged is dropped: the schema only gets wider.
            let _ = merge_all_of(&mut object, parts, |part| {
                schema::referenced(root, part).cloned()
            });
        }
        if let Some(Value::Array(alternatives)) = object.shift_remove("oneOf") {
            let mut all = match object.shift_remove("anyOf") {
                Some(Value::Array(existing)) => existing,
                _ => Vec::new(),
            };
            all.extend(alternatives);
            object.insert("anyOf".to_owned(), Value::Array(all));
        }
        if let Some(constant) = object.shift_remove("const") {
            object.insert("enum".to_owned(), json!([constant]));
        }
        if object.contains_key("properties") && !object.contains_key("type") {
            object.insert("type".to_owned(), json!("object"));
        }
        if let Some(Value::Array(values)) = object.get("enum")
            && !object.contains_key("type")
        {
            let kinds: Vec<&str> = values
                .iter()
                .filter(|v| !v.is_null())
                .map(schema::json_type)
                .collect();
            if let [first, rest @ ..] = kinds.as_slice()
                && rest.iter().all(|k| k == first)
            {
                object.insert("type".to_owned(), json!(first));
            }
        }
        if let Some(Value::Array(kinds)) = object.get("type").cloned() {
            return self.split_types(object, &kinds);
        }
        if object.contains_key("anyOf") {
            return self.convert_alternatives(object);
        }
        match object.get("type").and_then(Value::as_str) {
            Some(kind) => {
                let kind = kind.to_owned();
                self.convert_typed(object, &kind)
            }
            None if object.contains_key("enum") => {
                let mut notes = Vec::new();
                enum_to_notes(&mut object, &mut notes);
                keep_supported(&mut object, &mut notes);
                add_notes(&mut object, &notes);
                Value::Object(object)
            }
            None => free_form(object, "any JSON value"),
        }
    }

    /// Inlines a `$ref`, keywords beside it winning; `None` when the schema is not one.
    fn inline_reference(&mut self, object: &mut Map<String, Value>) -> Option<Value> {
        let reference = object.get("$ref")?.as_str()?.to_owned();
        object.shift_remove("$ref");
        let name = definition_name(&reference);
        let target = name
            .as_deref()
            .and_then(|name| schema::definition(self.root, name));
        let (Some(name), Some(target)) = (name, target) else {
            return Some(free_form(
                object.clone(),
                "a value of a type not described here",
            ));
        };
        let depth = self.expanding.iter().filter(|n| **n == name).count();
        if depth >= RECURSION_LEVELS {
            let what = format!(
                "a {name} (a recursive type; its levels from here down are not spelled out: \
                 it takes the same fields as the {name} enclosing it)"
            );
            return Some(free_form(object.clone(), &what));
        }
        // Keywords beside the reference win over the definition's; descriptions join.
        let mut merged = object.clone();
        let _ = merge_all_of(&mut merged, vec![target.clone()], |_| None);
        self.expanding.push(name);
        let converted = self.convert(&Value::Object(merged));
        self.expanding.pop();
        Some(converted)
    }

    /// A type list: one type and `nullable`, or `anyOf` with a schema per type.
    fn split_types(&mut self, mut object: Map<String, Value>, kinds: &[Value]) -> Value {
        let mut kinds: Vec<&str> = kinds.iter().filter_map(Value::as_str).collect();
        let nullable = kinds.contains(&"null");
        kinds.retain(|k| *k != "null");
        let mut converted = match kinds.as_slice() {
            [] => {
                object.shift_remove("type");
                free_form(object, "null")
            }
            [only] => {
                object.insert("type".to_owned(), json!(only));
                self.convert(&Value::Object(object))
            }
            several => {
                let description = object.shift_remove("description");
                let alternatives: Vec<Value> = several
                    .iter()
                    .map(|kind| {
                        let mut one = object.clone();
                        one.insert("type".to_owned(), json!(kind));
                        self.convert(&Value::Object(one))
                    })
                    .collect();
                let mut wrapper = Map::new();
                if let Some(description) = description {
                    wrapper.insert("description".to_owned(), description);
                }
                wrapper.insert("anyOf".to_owned(), Value::Array(alternatives));
                Value::Object(wrapper)
            }
        };
        if nullable && let Value::Object(object) = &mut converted {
            object.insert("nullable".to_owned(), json!(true));
        }
        converted
    }

    /// `anyOf`: alternatives converted, `null` ones folded into `nullable`, a single
    /// remaining alternative merged into the schema.
    fn convert_alternatives(&mut self, mut object: Map<String, Value>) -> Value {
        let Some(Value::Array(alternatives)) = object.shift_remove("anyOf") else {
            return Value::Object(object);
        };
        let mut nullable = false;
        let mut converted = Vec::new();
        for alternative in &alternatives {
            if alternative.get("type") == Some(&json!("null")) {
                nullable = true;
                continue;
            }
            converted.push(self.convert(alternative));
        }
        let mut result = match converted.len() {
            0 => {
                object.shift_remove("type");
                free_form(object, "null")
            }
            1 => {
                let mut only = converted.pop().unwrap_or_default();
                if let Some(Value::String(here)) = object.shift_remove("description") {
                    schema::merge_description(&mut only, &here);
                }
                only
            }
            _ => {
                let mut notes = Vec::new();
                keep_supported(&mut object, &mut notes);
                object.insert("anyOf".to_owned(), Value::Array(converted));
                add_notes(&mut object, &notes);
                Value::Object(object)
            }
        };
        if nullable && let Value::Object(result) = &mut result {
            result.insert("nullable".to_owned(), json!(true));
        }
        result
    }

    /// A schema of one type.
    fn convert_typed(&mut self, mut object: Map<String, Value>, kind: &str) -> Value {
        let mut notes = Vec::new();
        match kind {
            "object" => {
                if let Err(free) = self.convert_object(&mut object, &mut notes) {
                    return free;
                }
            }
            "array" => self.convert_array(&mut object, &mut notes),
            _ => {}
        }
        enum_to_notes(&mut object, &mut notes);
        match object.get("format").and_then(Value::as_str) {
            Some(format) if !format_allowed(kind, format) => {
                if kind == "string" {
                    notes.push(note("format", &json!(format)));
                }
                object.shift_remove("format");
            }
            _ => {}
        }
        let own: &[&str] = TYPE_KEYWORDS
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or(&[], |(_, keys)| keys);
        for (_, keys) in TYPE_KEYWORDS {
            for key in *keys {
                if !own.contains(key) {
                    object.shift_remove(*key);
                }
            }
        }
        keep_supported(&mut object, &mut notes);
        add_notes(&mut object, &notes);
        Value::Object(object)
    }

    /// An object's properties converted; `Err` with the free-form stand-in when it has none
    /// (Gemini cannot take an object schema without properties).
    fn convert_object(
        &mut self,
        object: &mut Map<String, Value>,
        notes: &mut Vec<String>,
    ) -> Result<(), Value> {
        let properties = match object.shift_remove("properties") {
            Some(Value::Object(properties)) => properties,
            _ => Map::new(),
        };
        if properties.is_empty() {
            let what = match object.get("additionalProperties") {
                Some(values @ Value::Object(_)) => {
                    let values = self.resolved(values);
                    format!(
                        "a JSON object whose member values are each {}",
                        describe(values)
                    )
                }
                _ => "a JSON object".to_owned(),
            };
            object.shift_remove("type");
            return Err(free_form(std::mem::take(object), &what));
        }
        let mut converted = Map::new();
        for (name, property) in &properties {
            converted.insert(name.clone(), self.convert(property));
        }
        if let Some(Value::Array(required)) = object.get_mut("required") {
            required.retain(|name| name.as_str().is_some_and(|n| converted.contains_key(n)));
        }
        object.insert("properties".to_owned(), Value::Object(converted));
        // `required` reads best after the properties it names.
        if let Some(required) = object.shift_remove("required") {
            object.insert("required".to_owned(), required);
        }
        if let Some(extra) = object.shift_remove("additionalProperties")
            && (extra.is_object() || extra == Value::Bool(true))
        {
            notes.push("other members are allowed too".to_owned());
        }
        Ok(())
    }

    /// An array's items converted; a tuple (`prefixItems`) becomes alternatives and a note.
    fn convert_array(&mut self, object: &mut Map<String, Value>, notes: &mut Vec<String>) {
        match object.shift_remove("prefixItems") {
            Some(Value::Array(prefix)) if !prefix.is_empty() => {
                let shown: Vec<String> = prefix.iter().map(describe).collect();
                notes.push(format!("in this order: {}", shown.join(", ")));
                let alternatives: Vec<Value> =
                    prefix.iter().map(|item| self.convert(item)).collect();
                object.insert("items".to_owned(), json!({ "anyOf": alternatives }));
            }
            _ => {
                let items = match object.get("items") {
                    Some(items) if items.is_object() => self.convert(items),
                    _ => json!({ "description": "Any JSON value." }),
                };
                object.insert("items".to_owned(), items);
            }
        }
    }

    /// `schema`, or its definition when it is a reference.
    fn resolved<'v>(&'v self, schema: &'v Value) -> &'v Value {
        schema::referenced(self.root, schema).unwrap_or(schema)
    }
}

/// Gemini's `enum` takes strings: a `null` among the values becomes `nullable`, and an enum
/// of other values is replaced by a note listing them.
fn enum_to_notes(object: &mut Map<String, Value>, notes: &mut Vec<String>) {
    let Some(Value::Array(values)) = object.shift_remove("enum") else {
        return;
    };
    let mut values = values;
    if values.iter().any(Value::is_null) {
        values.retain(|v| !v.is_null());
        object.insert("nullable".to_owned(), json!(true));
    }
    if values.is_empty() {
        return;
    }
    if values.iter().all(Value::is_string) {
        object.insert("enum".to_owned(), Value::Array(values));
    } else {
        let shown: Vec<String> = values.iter().map(|v| render_value(v, 40)).collect();
        notes.push(format!("one of {}", shown.join(", ")));
    }
}

/// Removes what `Schema` has no field for, noting in `notes` what constrains the value.
fn keep_supported(object: &mut Map<String, Value>, notes: &mut Vec<String>) {
    let unsupported: Vec<String> = object
        .keys()
        .filter(|key| !GEMINI_KEYWORDS.contains(&key.as_str()))
        .cloned()
        .collect();
    for key in unsupported {
        if let Some(value) = object.shift_remove(&key)
            && key != "additionalProperties"
        {
            notes.push(note(&key, &value));
        }
    }
}

fn format_allowed(kind: &str, format: &str) -> bool {
    FORMATS
        .iter()
        .any(|(k, formats)| *k == kind && formats.contains(&format))
}

/// A schema without a type (Gemini's "unspecified"), for what its `Schema` cannot state:
/// the description says what the value is.
fn free_form(mut object: Map<String, Value>, what: &str) -> Value {
    let mut kept = Map::new();
    let what = capitalized(what);
    let description = match object
        .shift_remove("description")
        .and_then(|d| d.as_str().map(str::to_owned))
    {
        Some(existing) if !existing.trim().is_empty() => {
            format!("{}\n\n{what}.", existing.trim_end())
        }
        _ => format!("{what}."),
    };
    kept.insert("description".to_owned(), json!(description));
    if let Some(nullable) = object.shift_remove("nullable") {
        kept.insert("nullable".to_owned(), nullable);
    }
    Value::Object(kept)
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
