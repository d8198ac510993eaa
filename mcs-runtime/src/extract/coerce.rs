//! Typing the raw-text argument values of XML-like formats with the tool's schema.
//!
//! Qwen3-Coder, Seed-OSS, MiniMax-M2, Claude XML, GLM and DSML write every value as text:
//! `<parameter=days>3</parameter>`. Like vLLM, the value is converted by the parameter's
//! declared type: `3` becomes an integer for an `integer` parameter and stays a string for
//! a `string` one. A value that does not convert stays a string, so validation can name
//! the mismatch.

use serde_json::{Number, Value};

use super::json::parse_whole;
use crate::types::Tool;

/// What to do with a value whose type is unknown (unknown tool or parameter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Untyped {
    /// Keep the text (Qwen3-Coder, MiniMax-M2, Claude XML, DSML `string="true"`).
    Text,
    /// Read it as JSON when it is JSON (GLM, DSML `string="false"`).
    Json,
}

/// The value of parameter `param` of `tool` written as `raw`, and whether reading it
/// needed a JSON repair.
pub(crate) fn convert(
    raw: &str,
    tool: Option<&Tool>,
    param: &str,
    untyped: Untyped,
) -> (Value, bool) {
    let declared = tool.and_then(|tool| tool.parameter(param));
    let Some(declared) = declared else {
        return match untyped {
            Untyped::Text => (Value::String(raw.to_owned()), false),
            Untyped::Json => match serde_json::from_str::<Value>(raw) {
                Ok(value) => (value, false),
                Err(_) => (Value::String(raw.to_owned()), false),
            },
        };
    };
    // MCS: a parameter without a schema is a string.
    let Some(schema) = &declared.schema else {
        return (Value::String(raw.to_owned()), false);
    };
    let mut types = Vec::new();
    collect_types(schema, &mut types, 0);
    if types.is_empty() {
        let trimmed = raw.trim();
        if (trimmed.starts_with('{') || trimmed.starts_with('['))
            && let Ok((value, repaired)) = parse_whole(trimmed)
        {
            return (value, repaired);
        }
        return (Value::String(raw.to_owned()), false);
    }
    if types.contains(&"string") {
        return (Value::String(raw.to_owned()), false);
    }
    let trimmed = raw.trim();
    for kind in ["null", "boolean", "integer", "number", "object", "array"] {
        if !types.contains(&kind) {
            continue;
        }
        let converted = match kind {
            "null" => matches!(trimmed, "null" | "None").then_some((Value::Null, false)),
            "boolean" => match trimmed.to_ascii_lowercase().as_str() {
                "true" => Some((Value::Bool(true), false)),
                "false" => Some((Value::Bool(false), false)),
                _ => None,
            },
            "integer" => integer(trimmed).map(|n| (n, false)),
            "number" => number(trimmed).map(|n| (n, false)),
            _ => parse_whole(trimmed).ok().filter(|(value, _)| {
                (kind == "object" && value.is_object()) || (kind == "array" && value.is_array())
            }),
        };
        if let Some(converted) = converted {
            return converted;
        }
    }
    (Value::String(raw.to_owned()), false)
}

fn integer(text: &str) -> Option<Value> {
    if let Ok(n) = text.parse::<i64>() {
        return Some(Value::from(n));
    }
    if let Ok(n) = text.parse::<u64>() {
        return Some(Value::from(n));
    }
    // `17.0` is an integer written loosely.
    let float = text
        .parse::<f64>()
        .ok()
        .filter(|f| f.is_finite() && f.fract() == 0.0)?;
    (float.abs() < 9.0e15).then(|| Value::from(float as i64))
}

fn number(text: &str) -> Option<Value> {
    integer(text)
        .filter(|_| !text.contains(['.', 'e', 'E']))
        .or_else(|| {
            text.parse::<f64>()
                .ok()
                .and_then(Number::from_f64)
                .map(Value::Number)
        })
}

/// The JSON types a schema admits, from `type`, `anyOf`/`oneOf`/`allOf`, `enum` and `const`.
fn collect_types(schema: &Value, types: &mut Vec<&'static str>, depth: usize) {
    const NAMES: [&str; 7] = [
        "string", "integer", "number", "boolean", "object", "array", "null",
    ];
    if depth > 8 {
        return;
    }
    let mut add = |name: &str| {
        if let Some(known) = NAMES.iter().find(|known| **known == name)
            && !types.contains(known)
        {
            types.push(known);
        }
    };
    match schema.get("type") {
        Some(Value::String(name)) => add(name),
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).for_each(&mut add),
        _ => {}
    }
    let literals = schema
        .get("enum")
        .and_then(Value::as_array)
        .map(|values| values.iter().collect::<Vec<_>>())
        .or_else(|| schema.get("const").map(|value| vec![value]));
    for literal in literals.into_iter().flatten() {
        add(match literal {
            Value::String(_) => "string",
            Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
            Value::Number(_) => "number",
            Value::Bool(_) => "boolean",
            Value::Null => "null",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        });
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(members)) = schema.get(key) {
            for member in members {
                collect_types(member, types, depth + 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::ToolParameter;
    use serde_json::json;

    fn tool() -> Tool {
        let param = |name: &str, schema: Value| ToolParameter::new(name, "").with_schema(schema);
        Tool::new("t", "test").with_parameters(vec![
            param("n", json!({"type": "integer"})),
            param("x", json!({"type": "number"})),
            param("b", json!({"type": "boolean"})),
            param("o", json!({"type": "object"})),
            param("a", json!({"type": "array", "items": {"type": "string"}})),
            param("s", json!({"type": "string"})),
            param(
                "maybe",
                json!({"anyOf": [{"type": "integer"}, {"type": "null"}]}),
            ),
            param("unit", json!({"enum": ["c", "f"]})),
            ToolParameter::new("plain", ""),
        ])
    }

    #[test]
    fn converts_by_declared_type() {
        let tool = tool();
        let cases = [
            ("n", "17", json!(17)),
            ("n", " 17.0\n", json!(17)),
            ("n", "seventeen", json!("seventeen")),
            ("x", "2.5", json!(2.5)),
            ("x", "3", json!(3)),
            ("b", "True", json!(true)),
            ("b", "false", json!(false)),
            ("o", "{\"k\": [1]}", json!({"k": [1]})),
            ("a", "[\"a\", \"b\"]", json!(["a", "b"])),
            ("s", "17", json!("17")),
            ("maybe", "null", json!(null)),
            ("maybe", "4", json!(4)),
            ("unit", "c", json!("c")),
            ("plain", "42", json!("42")),
        ];
        for (param, raw, expected) in cases {
            assert_eq!(
                convert(raw, Some(&tool), param, Untyped::Text).0,
                expected,
                "{param}={raw}"
            );
        }
    }

    #[test]
    fn unknown_values_follow_the_format_rule() {
        assert_eq!(convert("17", None, "n", Untyped::Text).0, json!("17"));
        assert_eq!(convert("17", None, "n", Untyped::Json).0, json!(17));
        assert_eq!(convert("Paris", None, "n", Untyped::Json).0, json!("Paris"));
        assert_eq!(
            convert("{'k': 1}", Some(&tool()), "o", Untyped::Text),
            (json!({"k": 1}), true)
        );
    }
}
