//! Typing the raw-text argument values of XML-like formats with the tool's schema.
//!
//! Qwen3-Coder, Seed-OSS, MiniMax-M2, Claude XML, GLM and DSML write every value as text:
//! `<parameter=days>3</parameter>`. Like vLLM, the value is converted by the parameter's
//! declared type: `3` becomes an integer for an `integer` parameter and stays a string for
//! a `string` one. The rules are validation's too ([`schema::coerce`] with
//! [`CoercionPolicy::TEXT`]); this file adds what only extraction knows: the lenient JSON
//! reader for object and array text, and what to do when there is no schema at all.

use serde_json::Value;

use super::json::parse_whole;
use super::scan::is_invisible;
use mcs_core::Tool;
use mcs_core::schema::{self, CoercionPolicy};

/// What to do with a value whose type is unknown (unknown tool or parameter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Untyped {
    /// Keep the text (Qwen3-Coder, MiniMax-M2, Claude XML, Hunyuan, Solar Open, DSML
    /// `string="true"`).
    Text,
    /// Read it as JSON when it is JSON (GLM, K2, DSML `string="false"`).
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
    let Some(schema) = declared.resolved_schema() else {
        return (Value::String(raw.to_owned()), false);
    };
    let (value, repaired) = schema::coerce_repairing(raw, &schema, &CoercionPolicy::TEXT, &repair);
    // `3` with a zero-width space after it, for an `integer`: what shows nothing is no
    // part of a number, a boolean or a structure (a string keeps it).
    if value.is_string() && !declares(&schema, "string") && raw.chars().any(is_invisible) {
        let visible: String = raw.chars().filter(|c| !is_invisible(*c)).collect();
        let (typed, _) =
            schema::coerce_repairing(&visible, &schema, &CoercionPolicy::TEXT, &repair);
        if !typed.is_string() {
            return (typed, true);
        }
    }
    // A string where the schema wants an object or an array (`"{'room': 'B2'}"`, encoded
    // twice): what it holds, when that is one.
    if let Value::String(text) = &value
        && ["object", "array"]
            .iter()
            .any(|kind| declares(&schema, kind))
        && let Some((inner, _)) =
            repair(text).filter(|(inner, _)| inner.is_object() || inner.is_array())
    {
        return (inner, true);
    }
    (value, repaired)
}

/// Whether `schema` declares the JSON type `kind` (alone or in a list of types).
pub(crate) fn declares(schema: &Value, kind: &str) -> bool {
    match schema.get("type") {
        Some(Value::String(declared)) => declared == kind,
        Some(Value::Array(declared)) => declared.iter().any(|t| t == kind),
        _ => false,
    }
}

/// Object or array text that is not JSON as written, read leniently (single quotes, Python
/// literals, trailing commas), or as the body of a JSON string when its quotes are escaped
/// (`[{\"id\": 1}]`, as GLM writes an array it encoded twice), or through a string that
/// holds it (`"{'key': 'value'}"`): what vLLM and SGLang recover there too.
fn repair(text: &str) -> Option<(Value, bool)> {
    let escaped = || {
        let body: String = serde_json::from_str(&format!("\"{}\"", text.trim())).ok()?;
        parse_whole(&body).ok().map(|(value, _)| (value, true))
    };
    // A Python tuple, `(1, 2)`, where a list is wanted.
    let tuple = || {
        let inner = text.trim().strip_prefix('(')?.strip_suffix(')')?;
        parse_whole(&format!("[{inner}]"))
            .ok()
            .map(|(value, _)| (value, true))
    };
    let (value, repaired) = parse_whole(text)
        .ok()
        .or_else(|| text.contains("\\\"").then(escaped).flatten())
        .or_else(tuple)?;
    Some(match value {
        Value::String(inner) => match parse_whole(&inner) {
            Ok((value, _)) if value.is_object() || value.is_array() => (value, true),
            _ => (Value::String(inner), repaired),
        },
        value => (value, repaired),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcs_core::ToolParameter;
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
