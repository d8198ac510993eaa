//! The vocabulary of argument schemas: which keywords are kept, the file argument's
//! shape, and the rewrites from OpenAPI 3.0 and Swagger idioms to 2020-12.

use serde_json::{Map, Value, json};

/// The keywords copied as they are, once [`clean_keyword`] has checked their value has
/// the shape JSON Schema gives it. Everything else — OpenAPI's `discriminator`, `xml`, `externalDocs`,
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

/// The value of the plain keyword `key` (one of [`PLAIN_KEYWORDS`]) when it has the shape
/// JSON Schema gives it, `None` when it cannot be read as one: a schema with
/// `maxLength: "10"` or `pattern: 0` is not a valid JSON Schema, and a host that checks
/// the tools it is given (OpenAI's API does) refuses the whole list for one such
/// keyword. A count written as `5.0` is read as `5`.
pub(crate) fn clean_keyword(key: &str, value: &Value) -> Option<Value> {
    match key {
        "const" | "default" => Some(value.clone()),
        "pattern" => value
            .as_str()
            .filter(|pattern| is_regular_expression(pattern))
            .map(|_| value.clone()),
        "format" | "contentEncoding" | "contentMediaType" => {
            value.is_string().then(|| value.clone())
        }
        "maximum" | "minimum" => value.is_number().then(|| value.clone()),
        "multipleOf" => value
            .as_f64()
            .filter(|n| *n > 0.0 && n.is_finite())
            .map(|_| value.clone()),
        "uniqueItems" => value.is_boolean().then(|| value.clone()),
        "dependentRequired" => {
            let map = value.as_object()?;
            let cleaned: Map<String, Value> = map
                .iter()
                .filter_map(|(name, list)| {
                    Some((name.clone(), Value::Array(unique_strings(list.as_array()?))))
                })
                .collect();
            Some(Value::Object(cleaned))
        }
        // maxLength, minLength, maxItems, minItems, maxContains, minContains,
        // maxProperties, minProperties: counts.
        _ => match value.as_u64() {
            Some(_) => Some(value.clone()),
            None => value
                .as_f64()
                .filter(|n| *n >= 0.0 && n.fract() == 0.0 && *n <= u64::MAX as f64)
                .map(|n| Value::from(n as u64)),
        },
    }
}

/// Whether `pattern` can be a regular expression of JSON Schema (ECMA-262): it parses, or
/// fails only on what ECMA-262 has and the regex crate's parser does not (look-around,
/// back-references). `[unclosed` is no expression in any dialect: a host that compiles
/// the schemas it is given (Ajv does) fails on it.
fn is_regular_expression(pattern: &str) -> bool {
    use regex_syntax::ast::ErrorKind;
    match regex_syntax::ast::parse::Parser::new().parse(pattern) {
        Ok(_) => true,
        Err(error) => matches!(
            error.kind(),
            ErrorKind::UnsupportedLookAround
                | ErrorKind::UnsupportedBackreference
                | ErrorKind::EscapeUnrecognized
                | ErrorKind::NestLimitExceeded(_)
        ),
    }
}

/// The strings of `list`, each once, in their first order (JSON Schema's `required` and
/// `dependentRequired` lists must not repeat a name).
pub(crate) fn unique_strings(list: &[Value]) -> Vec<Value> {
    let mut names: Vec<Value> = Vec::new();
    for name in list.iter().filter(|name| name.is_string()) {
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    names
}

/// The JSON Schema type a document's `type` word means: one of the seven as written, or
/// a word documents use for one (`Integer`, `int64`, `long`, `float`, `bool`, `date`,
/// `dateTime`). `None` for a word that names none (`any`, `file` is read elsewhere).
fn json_type(word: &str) -> Option<&'static str> {
    const TYPES: [&str; 7] = [
        "string", "integer", "number", "boolean", "object", "array", "null",
    ];
    if let Some(exact) = TYPES.iter().find(|t| **t == word) {
        return Some(exact);
    }
    let lower = word.to_ascii_lowercase();
    if let Some(named) = TYPES.iter().find(|t| **t == lower) {
        return Some(named);
    }
    Some(match lower.as_str() {
        "int" | "int32" | "int64" | "long" | "short" | "uint" | "uint32" | "uint64" => "integer",
        "float" | "double" | "decimal" | "float32" | "float64" | "numeric" => "number",
        "bool" => "boolean",
        "str" | "text" | "date" | "datetime" | "date-time" | "time" | "uuid" | "binary"
        | "byte" => "string",
        "list" => "array",
        "map" | "dict" | "dictionary" => "object",
        _ => return None,
    })
}

/// `type` as one of JSON Schema's seven types or a list of them (words documents use for
/// one read as it, see [`json_type`]); anything else is dropped, so the schema says
/// nothing of the type rather than something no validator reads.
pub(crate) fn clean_type(value: &Value) -> Option<Value> {
    match value {
        Value::String(word) => json_type(word).map(Value::from),
        Value::Array(list) => {
            let words: Vec<Value> = list
                .iter()
                .filter_map(Value::as_str)
                .filter_map(json_type)
                .map(Value::from)
                .collect();
            let mut types = unique_strings(&words);
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
        assert_eq!(clean_type(&json!("Integer")), Some(json!("integer")));
        assert_eq!(clean_type(&json!("int64")), Some(json!("integer")));
        assert_eq!(
            clean_type(&json!(["date", "null", "string"])),
            Some(json!(["string", "null"]))
        );
        assert_eq!(clean_type(&json!("any")), None);
    }

    #[test]
    fn plain_keywords_keep_only_values_of_their_shape() {
        assert_eq!(clean_keyword("pattern", &json!(0)), None);
        assert_eq!(clean_keyword("pattern", &json!("^a$")), Some(json!("^a$")));
        assert_eq!(clean_keyword("pattern", &json!("[unclosed")), None);
        assert_eq!(clean_keyword("pattern", &json!("(a")), None);
        // ECMA-262 has what the regex crate lacks: kept.
        for ecma in [
            r"^(?!admin).*$",
            r"(a)\1",
            r"^\d{3}-\d{4}$",
            r"^[\w.+-]+@\w+$",
        ] {
            assert_eq!(
                clean_keyword("pattern", &json!(ecma)),
                Some(json!(ecma)),
                "{ecma}"
            );
        }
        assert_eq!(clean_keyword("maxLength", &json!("10")), None);
        assert_eq!(clean_keyword("maxLength", &json!(10.0)), Some(json!(10)));
        assert_eq!(clean_keyword("minItems", &json!(-1)), None);
        assert_eq!(clean_keyword("minItems", &json!(1.5)), None);
        assert_eq!(clean_keyword("multipleOf", &json!(0)), None);
        assert_eq!(clean_keyword("multipleOf", &json!(0.01)), Some(json!(0.01)));
        assert_eq!(clean_keyword("maximum", &json!("5")), None);
        assert_eq!(clean_keyword("uniqueItems", &json!("true")), None);
        assert_eq!(clean_keyword("format", &json!(3)), None);
        assert_eq!(clean_keyword("default", &json!("x")), Some(json!("x")));
        assert_eq!(
            clean_keyword("dependentRequired", &json!({"a": ["b", 3, "b"], "c": "d"})),
            Some(json!({"a": ["b"]}))
        );
    }
}
