//! Schemas and values in words, for error messages and listings: `an array of integers`,
//! `the string "3"`.

use serde_json::{Map, Value};

/// A short phrase for what `schema` accepts, for error messages: `a string`,
/// `one of "metric", "imperial"`, `an array of integers`. A `$ref` into the schema's own
/// `$defs` is described by what it refers to.
pub fn describe(schema: &Value) -> String {
    describe_in(schema, schema)
}

/// [`describe`] for `schema`, a part of `root`, whose `$ref`s resolve in `root`'s `$defs`.
pub(crate) fn describe_in(root: &Value, schema: &Value) -> String {
    let text = describe_within(root, schema, 0);
    match schema.get("not") {
        Some(forbidden) => format!("{text}, but not {}", describe_within(root, forbidden, 1)),
        None => text,
    }
}

fn describe_within(root: &Value, schema: &Value, depth: usize) -> String {
    let Some(object) = schema.as_object() else {
        return match schema {
            Value::Bool(false) => "nothing (no value is allowed)".to_owned(),
            _ => ANY.to_owned(),
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
                .map(|a| describe_within(root, a, depth + 1))
                .collect();
            // Alternatives that only add constraints to the type beside them (a file's
            // `anyOf: [{required: [base64]}, {required: [path]}]`) say nothing alone: the
            // type does.
            if texts.iter().any(|text| text != ANY) || !object.contains_key("type") {
                return dedup_join(texts, " or ");
            }
        }
    }
    if let Some(Value::Array(all)) = object.get("allOf")
        && let [only] = all.as_slice()
    {
        return describe_within(root, only, depth + 1);
    }
    match object.get("type") {
        Some(Value::String(kind)) => describe_type(root, kind, object, depth),
        Some(Value::Array(kinds)) => {
            let texts: Vec<String> = kinds
                .iter()
                .filter_map(Value::as_str)
                .map(|kind| describe_type(root, kind, object, depth))
                .collect();
            dedup_join(texts, " or ")
        }
        _ if object.contains_key("properties") => describe_type(root, "object", object, depth),
        _ if object.contains_key("$ref") => match super::navigate::referenced(root, schema) {
            Some(target) => describe_within(root, target, depth + 1),
            None => "a value of the referenced type".to_owned(),
        },
        _ => ANY.to_owned(),
    }
}

/// What a schema that constrains nothing accepts, in words.
const ANY: &str = "any JSON value";

fn describe_type(root: &Value, kind: &str, object: &Map<String, Value>, depth: usize) -> String {
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
                    let items = plural(&describe_within(root, items, depth + 1));
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

/// What a value is, with its article, for messages: "a string", "an array", "null", …
/// (numbers are "a number", whole or not).
pub fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
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
pub(super) fn plain(value: &Value) -> String {
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
