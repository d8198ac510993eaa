//! OpenAI strict mode: the JSON Schema subset of Structured Outputs, and the arguments it
//! makes models send.

use serde_json::{Map, Value, json};

use super::rewrite::{NOISE, add_notes, merge_all_of, note};
use crate::schema;
use crate::types::Tool;
use crate::validate::accepts;

/// Keywords strict mode takes (OpenAI, Structured Outputs, "Supported schemas": types,
/// `enum`/`const`, `anyOf`, `$defs`/`$ref`; string `pattern` and `format`; number
/// `multipleOf`, `minimum`, `maximum` and their exclusive forms; array `minItems`,
/// `maxItems`; objects with `properties`, `required`, `additionalProperties`).
const STRICT_KEYWORDS: &[&str] = &[
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

/// The string formats strict mode takes.
const STRICT_FORMATS: &[&str] = &[
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

/// Strict mode's documented size limits: object nesting levels, properties in all, enum
/// values in all.
const MAX_NESTING: usize = 10;
const MAX_PROPERTIES: usize = 5000;
const MAX_ENUM_VALUES: usize = 1000;

/// Why a schema cannot be used in OpenAI strict mode.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("OpenAI strict mode cannot express the schema at `{location}`: {reason}")]
pub struct StrictModeError {
    /// A JSON pointer to the offending part of the schema (`/properties/tags`).
    pub location: String,
    /// What strict mode cannot take there.
    pub reason: String,
}

/// `schema` (an object-rooted schema, such as [`Tool::input_schema`]) rewritten for OpenAI
/// strict mode (function calling with `strict: true`, Structured Outputs).
///
/// What changes, by the rules of OpenAI's "Supported schemas" for Structured Outputs:
/// - every object gets `additionalProperties: false` and lists all its properties in
///   `required` ("all fields must be required", "additionalProperties: false must always be
///   set"), nested objects and `$defs` included;
/// - a property that was optional becomes nullable, as the guide says to emulate optional
///   fields: `type: ["string", "null"]` for a simple type (with `null` added to its `enum`),
///   otherwise `anyOf: [schema, {"type": "null"}]`;
/// - `oneOf` becomes `anyOf` (strict mode takes only `anyOf`), `allOf` is merged into its
///   schema (unsupported), and a `$ref` with keywords beside it becomes `anyOf: [{"$ref"}]`
///   with the keywords kept (strict mode rejects siblings of `$ref`);
/// - keywords outside the supported list (`minLength`, `maxLength`, `uniqueItems`,
///   `default`, `examples`, `not`, ...) and string formats outside the supported list, or
///   patterns with look-around, are removed and written into the description instead
///   (`(minLength: 3)`), so the model still reads them; numeric formats (`int32`, `uint8`)
///   are removed, their ranges being in `minimum`/`maximum`; `title` and `$schema` are dropped.
///
/// It fails, saying where and why, for what strict mode cannot express: an object with free
/// members (a map, `additionalProperties` with a schema, `patternProperties`), a value of any
/// type (no `type`, `enum`, `const`, `anyOf` or `$ref`), an array without an item type or a
/// tuple (`prefixItems`), and schemas over the documented limits (10 levels of object
/// nesting, 5000 properties, 1000 enum values).
pub fn openai_strict_schema(schema: &Value) -> Result<Value, StrictModeError> {
    let mut converter = Strict {
        root: schema,
        properties: 0,
        enum_values: 0,
    };
    let converted = converter.convert(schema, "", 1)?;
    if converter.properties > MAX_PROPERTIES {
        return Err(fail(
            "",
            &format!(
                "{} properties in all, more than {MAX_PROPERTIES}",
                converter.properties
            ),
        ));
    }
    if converter.enum_values > MAX_ENUM_VALUES {
        return Err(fail(
            "",
            &format!(
                "{} enum values in all, more than {MAX_ENUM_VALUES}",
                converter.enum_values
            ),
        ));
    }
    Ok(converted)
}

fn fail(location: &str, reason: &str) -> StrictModeError {
    StrictModeError {
        location: if location.is_empty() {
            "/".to_owned()
        } else {
            location.to_owned()
        },
        reason: reason.to_owned(),
    }
}

struct Strict<'s> {
    /// The schema being converted, where `$ref`s resolve.
    root: &'s Value,
    properties: usize,
    enum_values: usize,
}

impl Strict<'_> {
    /// Converts one schema; `level` is the object nesting level it sits at.
    fn convert(
        &mut self,
        schema: &Value,
        location: &str,
        level: usize,
    ) -> Result<Value, StrictModeError> {
        let Value::Object(source) = schema else {
            return Err(fail(
                location,
                "a value of any type; strict mode needs a type",
            ));
        };
        let mut object = source.clone();
        for key in NOISE {
            object.shift_remove(*key);
        }
        if object.get("default") == Some(&Value::Null) {
            object.shift_remove("default");
        }
        if let Some(Value::Array(parts)) = object.shift_remove("allOf") {
            let root = self.root;
            merge_all_of(&mut object, parts, |part| {
                schema::referenced(root, part).cloned()
            })
            .map_err(|reason| fail(location, &reason))?;
        }
        if let Some(alternatives) = object.shift_remove("oneOf") {
            if object.contains_key("anyOf") {
                return Err(fail(location, "both anyOf and oneOf"));
            }
            object.insert("anyOf".to_owned(), alternatives);
        }
        if object.len() > 1
            && let Some(reference) = object.shift_remove("$ref")
        {
            if object.contains_key("anyOf") {
                return Err(fail(location, "both $ref and anyOf"));
            }
            object.insert("anyOf".to_owned(), json!([{ "$ref": reference }]));
        }
        if object.contains_key("properties") && !object.contains_key("type") {
            object.insert("type".to_owned(), json!("object"));
        }
        let typed = ["type", "$ref", "anyOf", "enum", "const"]
            .iter()
            .any(|key| object.contains_key(*key));
        if !typed {
            return Err(fail(
                location,
                "a value of any type; strict mode needs a type",
            ));
        }
        for key in ["patternProperties", "prefixItems"] {
            if object.contains_key(key) {
                let what = if key == "prefixItems" {
                    "a tuple (prefixItems)"
                } else {
                    "an object with patternProperties"
                };
                return Err(fail(location, what));
            }
        }

        let mut notes = Vec::new();
        let numeric = has_type(&object, "integer") || has_type(&object, "number");
        let keys: Vec<String> = object.keys().cloned().collect();
        for key in keys {
            let keep = match key.as_str() {
                "format" => object
                    .get("format")
                    .and_then(Value::as_str)
                    .is_some_and(|format| STRICT_FORMATS.contains(&format)),
                "pattern" => !object
                    .get("pattern")
                    .and_then(Value::as_str)
                    .is_some_and(has_lookaround),
                other => STRICT_KEYWORDS.contains(&other),
            };
            if keep {
                continue;
            }
            if let Some(value) = object.shift_remove(&key)
                && !(key == "format" && numeric)
            {
                notes.push(note(&key, &value));
            }
        }
        add_notes(&mut object, &notes);

        if let Some(Value::Array(values)) = object.get("enum") {
            self.enum_values += values.len();
        }
        if let Some(Value::Object(definitions)) = object.get("$defs").cloned() {
            let mut converted = Map::new();
            for (name, definition) in definitions {
                let here = format!("{location}/$defs/{name}");
                converted.insert(name, self.convert(&definition, &here, 1)?);
            }
            object.insert("$defs".to_owned(), Value::Object(converted));
        }
        if let Some(Value::Array(alternatives)) = object.get("anyOf").cloned() {
            let mut converted = Vec::with_capacity(alternatives.len());
            for (index, alternative) in alternatives.iter().enumerate() {
                let here = format!("{location}/anyOf/{index}");
                converted.push(self.convert(alternative, &here, level)?);
            }
            object.insert("anyOf".to_owned(), Value::Array(converted));
        }
        if has_type(&object, "array") {
            let here = format!("{location}/items");
            let items = object
                .get("items")
                .ok_or_else(|| fail(&here, "an array without an item type"))?;
            let items = self.convert(items, &here, level)?;
            object.insert("items".to_owned(), items);
        }
        if has_type(&object, "object") {
            self.close_object(&mut object, location, level)?;
        }
        Ok(Value::Object(object))
    }

    /// Closes an object schema: every property converted and required, optional ones made
    /// nullable, no other members allowed.
    fn close_object(
        &mut self,
        object: &mut Map<String, Value>,
        location: &str,
        level: usize,
    ) -> Result<(), StrictModeError> {
        if level > MAX_NESTING {
            return Err(fail(
                location,
                &format!("objects nested more than {MAX_NESTING} levels deep"),
            ));
        }
        match object.get("additionalProperties") {
            None | Some(Value::Bool(false)) => {}
            Some(_) => {
                return Err(fail(
                    &format!("{location}/additionalProperties"),
                    "an object with free members (a map); strict mode closes every object",
                ));
            }
        }
        let required: Vec<String> = match object.get("required") {
            Some(Value::Array(names)) => names
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            _ => Vec::new(),
        };
        let properties = match object.shift_remove("properties") {
            Some(Value::Object(properties)) => properties,
            _ => Map::new(),
        };
        self.properties += properties.len();
        let mut converted = Map::new();
        for (name, property) in &properties {
            let here = format!("{location}/properties/{}", escape(name));
            let mut strict = self.convert(property, &here, level + 1)?;
            if !required.contains(name) && !accepts(self.root, property, &Value::Null) {
                strict = nullable(strict);
            }
            converted.insert(name.clone(), strict);
        }
        let names: Vec<Value> = converted.keys().map(|name| json!(name)).collect();
        object.shift_remove("required");
        object.insert("properties".to_owned(), Value::Object(converted));
        object.insert("required".to_owned(), Value::Array(names));
        object.insert("additionalProperties".to_owned(), Value::Bool(false));
        Ok(())
    }
}

fn has_type(object: &Map<String, Value>, kind: &str) -> bool {
    match object.get("type") {
        Some(Value::String(t)) => t == kind,
        Some(Value::Array(types)) => types.iter().any(|t| t == kind),
        _ => false,
    }
}

/// Look-around in a regular expression, which strict mode's pattern engine rejects.
fn has_lookaround(pattern: &str) -> bool {
    ["(?=", "(?!", "(?<=", "(?<!"]
        .iter()
        .any(|token| pattern.contains(token))
}

fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// `schema` that also accepts `null`: a type list for simple types, else `anyOf` with null.
fn nullable(schema: Value) -> Value {
    let Value::Object(mut object) = schema else {
        return schema;
    };
    let null_schema = json!({ "type": "null" });
    let simple = ["string", "integer", "number", "boolean"];
    let kinds: Option<Vec<String>> = match object.get("type") {
        Some(Value::String(kind)) => Some(vec![kind.clone()]),
        Some(Value::Array(kinds)) => kinds
            .iter()
            .map(|k| k.as_str().map(str::to_owned))
            .collect(),
        _ => None,
    };
    if kinds
        .as_ref()
        .is_some_and(|k| k.iter().any(|k| k == "null"))
    {
        return Value::Object(object);
    }
    match kinds {
        Some(mut kinds)
            if kinds.iter().all(|k| simple.contains(&k.as_str()))
                && !object.contains_key("const")
                && !object.contains_key("anyOf") =>
        {
            kinds.push("null".to_owned());
            object.insert("type".to_owned(), json!(kinds));
            if let Some(Value::Array(values)) = object.get_mut("enum")
                && !values.contains(&Value::Null)
            {
                values.push(Value::Null);
            }
            Value::Object(object)
        }
        None if object.keys().all(|k| k == "anyOf" || k == "description") => {
            if let Some(Value::Array(alternatives)) = object.get_mut("anyOf")
                && !alternatives.contains(&null_schema)
            {
                alternatives.push(null_schema);
            }
            Value::Object(object)
        }
        _ => {
            let mut wrapper = Map::new();
            if let Some(description) = object.shift_remove("description") {
                wrapper.insert("description".to_owned(), description);
            }
            wrapper.insert(
                "anyOf".to_owned(),
                Value::Array(vec![Value::Object(object), null_schema]),
            );
            Value::Object(wrapper)
        }
    }
}

/// Undoes what strict mode does to a call's arguments, before they are validated or
/// decoded: strict mode makes the model send every property, `null` for those it would have
/// left out, and a `null` where the tool's schema does not allow one would fail decoding
/// (`#[serde(default)] limit: u32`, say).
///
/// Removes each `null` whose property is optional and whose schema does not accept `null`, at
/// the top level and inside nested objects and arrays (following `$ref`s, and through
/// `anyOf`/`oneOf`/`allOf` the alternative the value fits). Anything else is left as it came.
pub fn openai_strict_arguments(tool: &Tool, mut arguments: Value) -> Value {
    let Value::Object(members) = &mut arguments else {
        return arguments;
    };
    for parameter in tool.parameters() {
        let Some(value) = members.get_mut(&parameter.name) else {
            continue;
        };
        if value.is_null() && !parameter.required {
            members.shift_remove(&parameter.name);
            continue;
        }
        if let Some(schema) = parameter.resolved_schema() {
            strip_nulls(&schema, &schema, value, 0);
        }
    }
    arguments
}

fn strip_nulls(root: &Value, schema: &Value, value: &mut Value, depth: usize) {
    const MAX_DEPTH: usize = 64;
    if depth > MAX_DEPTH {
        return;
    }
    if let Some(target) = schema::referenced(root, schema) {
        strip_nulls(root, target, value, depth + 1);
        return;
    }
    let Some(object) = schema.as_object() else {
        return;
    };
    if let Some(Value::Array(parts)) = object.get("allOf") {
        for part in parts {
            strip_nulls(root, part, value, depth + 1);
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(alternatives)) = object.get(key) {
            // The first alternative the value fits once its nulls are gone.
            for alternative in alternatives {
                let mut candidate = value.clone();
                strip_nulls(root, alternative, &mut candidate, depth + 1);
                if accepts(root, alternative, &candidate) {
                    *value = candidate;
                    break;
                }
            }
        }
    }
    match value {
        Value::Object(members) => {
            let properties = object.get("properties").and_then(Value::as_object);
            let required: Vec<&str> = match object.get("required") {
                Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            let extra = object.get("additionalProperties").filter(|s| s.is_object());
            members.retain(|name, member| {
                let optional = !required.contains(&name.as_str());
                let property = properties.and_then(|p| p.get(name));
                !(member.is_null()
                    && optional
                    && property.is_some_and(|p| !accepts(root, p, &Value::Null)))
            });
            for (name, member) in members.iter_mut() {
                if let Some(property) = properties.and_then(|p| p.get(name)).or(extra) {
                    strip_nulls(root, property, member, depth + 1);
                }
            }
        }
        Value::Array(items) => {
            let prefix: &[Value] = match object.get("prefixItems") {
                Some(Value::Array(prefix)) => prefix,
                _ => &[],
            };
            for (index, item) in items.iter_mut().enumerate() {
                if let Some(schema) = prefix.get(index).or_else(|| object.get("items")) {
                    strip_nulls(root, schema, item, depth + 1);
                }
            }
        }
        _ => {}
    }
}
