//! The vocabulary of argument schemas: which keywords are kept, the file argument's
//! shape, and the rewrites from OpenAPI 3.0 and Swagger idioms to 2020-12.

use serde_json::{Map, Value, json};

/// The keywords copied as they are (after a type check where a wrong type would confuse
/// a validator). Everything else — OpenAPI's `discriminator`, `xml`, `externalDocs`,
/// extensions, `$id`, `$schema` and so on — is left out: it means nothing to a model or
/// a validator of arguments.
pub(crate) const PLAIN_KEYWORDS: &[&str] = &[
    "format",
    "const",
    "default",
    "multipleOf",
    "maximum",
    "minimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "dependentRequired",
    "contentEncoding",
    "contentMediaType",
];

/// Keywords whose value is one schema describing the same instance.
pub(crate) const IN_PLACE_SCHEMA: &[&str] = &["not", "if", "then", "else"];

/// Keywords whose value is one schema describing a part of the instance.
pub(crate) const CHILD_SCHEMA: &[&str] = &[
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "propertyNames",
    "contains",
];

/// Keywords whose value is a list of schemas for the same instance.
pub(crate) const SCHEMA_LISTS: &[&str] = &["allOf", "anyOf", "oneOf"];

/// Keywords next to a `$ref` that only annotate it.
pub(crate) const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "default",
    "readOnly",
    "writeOnly",
    "deprecated",
    "example",
    "examples",
];

/// The description every file argument carries, so the model knows the two shapes.
pub(crate) const FILE_DESCRIPTION: &str =
    "A file: {\"base64\": ..., \"filename\": ...} or {\"path\": ...}";

/// The schema of a file argument: inline content or a path the driver may read.
pub(crate) fn file_schema(description: Option<&str>) -> Value {
    let description = match description {
        Some(own) => format!("{own}\n{FILE_DESCRIPTION}"),
        None => FILE_DESCRIPTION.to_owned(),
    };
    json!({
        "type": "object",
        "description": description,
        "properties": {
            "base64": {"type": "string", "contentEncoding": "base64"},
            "filename": {"type": "string"},
            "content_type": {"type": "string"},
            "path": {"type": "string"},
        },
        "anyOf": [{"required": ["base64"]}, {"required": ["path"]}],
    })
}

/// A reference to the `$defs` entry `name`.
pub(crate) fn def_ref(name: &str) -> Value {
    json!({ "$ref": format!("#/$defs/{name}") })
}

/// `schema` with `key` set; `true` becomes an object to carry it, `false` stays `false`.
pub(crate) fn with_key(schema: Value, key: &str, value: Value) -> Value {
    match schema {
        Value::Object(mut map) => {
            map.insert(key.to_owned(), value);
            Value::Object(map)
        }
        Value::Bool(true) => json!({ key: value }),
        other => other,
    }
}

pub(crate) fn push_example(out: &mut Map<String, Value>, example: Value) {
    match out.get_mut("examples") {
        Some(Value::Array(list)) => list.push(example),
        _ => {
            out.insert("examples".into(), Value::Array(vec![example]));
        }
    }
}

/// OpenAPI 3.0's `nullable: true`, or Swagger's `x-nullable: true`.
pub(crate) fn is_nullable(map: &Map<String, Value>) -> bool {
    [map.get("nullable"), map.get("x-nullable")]
        .into_iter()
        .any(|flag| flag.and_then(Value::as_bool) == Some(true))
}

pub(crate) fn is_file_type(value: Option<&Value>) -> bool {
    value.and_then(Value::as_str) == Some("file")
}

/// `type` as a string or a list of strings; anything else is dropped.
pub(crate) fn clean_type(value: &Value) -> Option<Value> {
    match value {
        Value::String(_) => Some(value.clone()),
        Value::Array(list) => {
            let mut types: Vec<Value> = Vec::new();
            for item in list.iter().filter(|item| item.is_string()) {
                if !types.contains(item) {
                    types.push(item.clone());
                }
            }
            match types.len() {
                0 => None,
                1 => types.pop(),
                _ => Some(Value::Array(types)),
            }
        }
        _ => None,
    }
}

/// `schema` accepting `null` as well, the 2020-12 way: `"null"` added to its type (and to
/// its `enum`), or `anyOf` with `{"type": "null"}` where there is no type to extend.
pub(crate) fn make_nullable(schema: Value) -> Value {
    let Value::Object(mut map) = schema else {
        return schema;
    };
    let null = Value::String("null".into());
    match map.get_mut("type") {
        Some(Value::String(single)) => {
            if single != "null" {
                let single = std::mem::take(single);
                map.insert("type".into(), json!([single, "null"]));
            }
        }
        Some(Value::Array(list)) => {
            if !list.contains(&null) {
                list.push(null);
            }
        }
        _ => {
            let constrained = ["$ref", "allOf", "anyOf", "oneOf", "enum", "const"]
                .iter()
                .any(|key| map.contains_key(*key));
            if constrained {
                return json!({"anyOf": [Value::Object(map), {"type": "null"}]});
            }
            return Value::Object(map);
        }
    }
    if let Some(Value::Array(values)) = map.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
    Value::Object(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nullable_extends_the_type_and_enum_or_wraps() {
        assert_eq!(
            make_nullable(json!({"type": "string", "enum": ["a"]})),
            json!({"type": ["string", "null"], "enum": ["a", null]})
        );
        assert_eq!(
            make_nullable(json!({"type": ["integer", "null"]})),
            json!({"type": ["integer", "null"]})
        );
        assert_eq!(
            make_nullable(json!({"$ref": "#/$defs/A"})),
            json!({"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]})
        );
        assert_eq!(
            make_nullable(json!({"description": "any"})),
            json!({"description": "any"})
        );
        assert_eq!(make_nullable(json!(true)), json!(true));
    }

    #[test]
    fn types_are_cleaned() {
        assert_eq!(
            clean_type(&json!(["string", 3, "string"])),
            Some(json!("string"))
        );
        assert_eq!(
            clean_type(&json!(["string", "null"])),
            Some(json!(["string", "null"]))
        );
        assert_eq!(clean_type(&json!(7)), None);
    }
}
