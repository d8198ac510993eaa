//! Arguments built from a tool's own input schema: every argument, required and optional,
//! with a value its schema accepts — and arguments its schema refuses.
//!
//! Values come from the keywords a real document uses: `const`, `enum`, `default` and
//! `examples` when the schema accepts them, formats (`date-time`, `email`, `uuid`, ...),
//! patterns (a string generated from the regular expression), bounds on lengths, numbers
//! and items, `allOf` merged, the first `oneOf`/`anyOf` branch that yields a valid value,
//! and `$ref`s into the schema's `$defs` (recursion stops at a depth, optional parts first).

use mcs::validate::validate_value;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Map, Value, json};

/// How deep objects nest before optional properties are left out.
const OPTIONAL_DEPTH: usize = 3;
/// How deep anything nests before generation gives up on a branch.
const MAX_DEPTH: usize = 12;

/// A valid arguments object for the input schema `root`, or why none was found.
pub(crate) fn valid_arguments(root: &Value) -> Result<Value, String> {
    let mut builder = Builder {
        root,
        runner: TestRunner::new_with_rng(
            Config::default(),
            TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
        ),
    };
    let value = builder
        .value(root, 0)
        .ok_or_else(|| "no value satisfies the schema".to_owned())?;
    validate_value("", root, &value)
        .map(|()| value.clone())
        .map_err(|problems| {
            let problems: Vec<String> = problems.iter().map(ToString::to_string).collect();
            format!("built {value} but: {}", problems.join("; "))
        })
}

struct Builder<'a> {
    root: &'a Value,
    runner: TestRunner,
}

impl Builder<'_> {
    /// `schema` with the root's `$defs`, so that its `$ref`s resolve when validated alone.
    fn standalone(&self, schema: &Value) -> Value {
        let mut schema = schema.clone();
        if let (Value::Object(map), Some(defs)) = (&mut schema, self.root.get("$defs")) {
            map.entry("$defs").or_insert_with(|| defs.clone());
        }
        schema
    }

    fn accepts(&self, schema: &Value, value: &Value) -> bool {
        validate_value("", &self.standalone(schema), value).is_ok()
    }

    fn value(&mut self, schema: &Value, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        let object = match schema {
            Value::Bool(true) => return Some(json!("x")),
            Value::Object(object) => object,
            _ => return None,
        };
        if let Some(target) = object.get("$ref").and_then(Value::as_str) {
            let name = target.strip_prefix("#/$defs/")?;
            let resolved = self.root.get("$defs")?.get(name)?.clone();
            return self.value(&resolved, depth + 1);
        }
        if let Some(value) = object.get("const") {
            return Some(value.clone());
        }
        if let Some(values) = object.get("enum").and_then(Value::as_array) {
            return values
                .iter()
                .find(|v| !v.is_null() && self.accepts(schema, v))
                .or_else(|| values.first())
                .cloned();
        }
        let candidates = ["default", "example"]
            .into_iter()
            .filter_map(|key| object.get(key))
            .chain(
                object
                    .get("examples")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten(),
            );
        for candidate in candidates {
            if self.accepts(schema, candidate) {
                return Some(candidate.clone());
            }
        }
        if let Some(parts) = object.get("allOf").and_then(Value::as_array) {
            let merged = merge(object, parts);
            return self.value(&merged, depth + 1);
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(branches) = object.get(key).and_then(Value::as_array) {
                let rest = without(object, key);
                for branch in branches {
                    let combined = merge(&rest, std::slice::from_ref(branch));
                    // With every optional property, then with the required ones only (two
                    // branches that differ in what they require both accept the first).
                    for at in [depth + 1, OPTIONAL_DEPTH.max(depth + 1)] {
                        if let Some(value) = self.value(&combined, at)
                            && self.accepts(schema, &value)
                        {
                            return Some(value);
                        }
                    }
                }
                return None;
            }
        }
        match primary_type(object).as_deref() {
            Some("object") => self.object(object, depth),
            Some("array") => self.array(object, depth),
            Some("string") => Some(Value::String(self.string(object))),
            Some("integer") => Some(json!(integer(object))),
            Some("number") => Some(number(object)),
            Some("boolean") => Some(json!(true)),
            Some("null") => Some(Value::Null),
            _ if object.contains_key("properties") => self.object(object, depth),
            _ => Some(json!("x")),
        }
    }

    fn object(&mut self, object: &Map<String, Value>, depth: usize) -> Option<Value> {
        let required: Vec<&str> = object
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut out = Map::new();
        if let Some(properties) = object.get("properties").and_then(Value::as_object) {
            for (name, property) in properties {
                let needed = required.contains(&name.as_str());
                if !needed && (depth >= OPTIONAL_DEPTH || is_read_only(property)) {
                    continue;
                }
                match self.value(property, depth + 1) {
                    // An optional property no value satisfies (documents have contradictory
                    // ones, such as an array type with an enum of strings) is left out.
                    Some(value) if needed || self.accepts(property, &value) => {
                        out.insert(name.clone(), value);
                    }
                    None if needed => return None,
                    _ => {}
                }
            }
        }
        for name in required {
            if !out.contains_key(name) {
                let extra = object
                    .get("additionalProperties")
                    .cloned()
                    .unwrap_or(json!(true));
                out.insert(name.to_owned(), self.value(&extra, depth + 1)?);
            }
        }
        Some(Value::Object(out))
    }

    fn array(&mut self, object: &Map<String, Value>, depth: usize) -> Option<Value> {
        let items = object
            .get("items")
            .cloned()
            .unwrap_or(json!({"type": "string"}));
        let min = object
            .get("minItems")
            .and_then(Value::as_u64)
            .unwrap_or(1)
            .max(1);
        let max = object
            .get("maxItems")
            .and_then(Value::as_u64)
            .unwrap_or(min);
        let count = min.min(max.max(1));
        let first = self.value(&items, depth + 1)?;
        let mut out = vec![first];
        for i in 1..count {
            let mut next = self.value(&items, depth + 1)?;
            if let Value::String(text) = &mut next {
                text.push_str(&i.to_string());
            }
            out.push(next);
        }
        Some(Value::Array(out))
    }

    fn string(&mut self, object: &Map<String, Value>) -> String {
        let min = object.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = object
            .get("maxLength")
            .and_then(Value::as_u64)
            .map(|m| m as usize);
        if let Some(pattern) = object.get("pattern").and_then(Value::as_str)
            && let Some(text) = self.matching(pattern, min, max)
        {
            return text;
        }
        let format = object.get("format").and_then(Value::as_str).unwrap_or("");
        let encoding = object.get("contentEncoding").and_then(Value::as_str);
        let text = match (format, encoding) {
            (_, Some("base64")) => "aGVsbG8=",
            (format, _) => match format {
                "date-time" => "2024-01-02T03:04:05Z",
                "date" => "2024-01-02",
                "time" => "03:04:05Z",
                "email" | "idn-email" => "user@example.com",
                "uri" | "url" | "iri" | "uri-reference" | "iri-reference" => {
                    "https://example.com/x"
                }
                "uuid" => "123e4567-e89b-12d3-a456-426614174000",
                "ipv4" => "192.0.2.1",
                "ipv6" => "2001:db8::1",
                "hostname" | "idn-hostname" => "example.com",
                "byte" | "binary" => "aGVsbG8=",
                "duration" => "P1D",
                _ => "abc",
            },
        };
        let mut text = text.to_owned();
        while text.chars().count() < min {
            text.push('x');
        }
        if let Some(max) = max {
            text = text.chars().take(max.max(min)).collect();
        }
        text
    }

    /// A string matching `pattern` within the length bounds, from a few tries.
    fn matching(&mut self, pattern: &str, min: usize, max: Option<usize>) -> Option<String> {
        // What mcs checks (ECMA's ASCII `\d` and `\w`), anchors taken out for the generator
        // (which cannot place them); the result is checked against the anchored pattern.
        let ascii = mcs::validate::ecma_regex(pattern);
        let strategy = proptest::string::string_regex(&without_anchors(&ascii)).ok()?;
        let checker = regex::Regex::new(&ascii).ok()?;
        for _ in 0..32 {
            let text = strategy.new_tree(&mut self.runner).ok()?.current();
            let length = text.chars().count();
            if length >= min.max(1) && max.is_none_or(|m| length <= m) && checker.is_match(&text) {
                return Some(text);
            }
        }
        None
    }
}

/// `pattern` without its `^` and `$` anchors (outside classes, not escaped).
fn without_anchors(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                out.push(c);
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            }
            '[' => {
                in_class = true;
                out.push(c);
            }
            ']' => {
                in_class = false;
                out.push(c);
            }
            '^' | '$' if !in_class => {}
            _ => out.push(c),
        }
    }
    out
}

fn primary_type(object: &Map<String, Value>) -> Option<String> {
    match object.get("type") {
        Some(Value::String(t)) => Some(t.clone()),
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .or_else(|| types.iter().filter_map(Value::as_str).next())
            .map(str::to_owned),
        _ => None,
    }
}

fn is_read_only(schema: &Value) -> bool {
    schema.get("readOnly").and_then(Value::as_bool) == Some(true)
}

fn integer(object: &Map<String, Value>) -> i64 {
    let bound = |key: &str| object.get(key).and_then(Value::as_f64);
    let mut value = match (bound("minimum"), bound("exclusiveMinimum")) {
        (Some(min), _) => min.ceil() as i64,
        (None, Some(min)) => min.floor() as i64 + 1,
        _ => 1,
    };
    if let Some(step) = object
        .get("multipleOf")
        .and_then(Value::as_i64)
        .filter(|s| *s > 0)
        && value % step != 0
    {
        value += step - value.rem_euclid(step);
    }
    if let Some(max) = bound("maximum") {
        value = value.min(max.floor() as i64);
    }
    if let Some(max) = bound("exclusiveMaximum") {
        value = value.min(max.ceil() as i64 - 1);
    }
    value
}

fn number(object: &Map<String, Value>) -> Value {
    let bound = |key: &str| object.get(key).and_then(Value::as_f64);
    let value = match (
        bound("minimum"),
        bound("exclusiveMinimum"),
        bound("maximum"),
    ) {
        (Some(min), _, _) => min,
        (None, Some(min), _) => min + 1.0,
        (None, None, Some(max)) if max < 1.0 => max,
        _ => 1.0,
    };
    json!(value)
}

/// `object` without `key`.
fn without(object: &Map<String, Value>, key: &str) -> Map<String, Value> {
    let mut rest = object.clone();
    rest.remove(key);
    rest
}

/// `base` (without `allOf`) and `parts` as one schema: properties and required lists joined,
/// other keywords from the first that has them.
fn merge(base: &Map<String, Value>, parts: &[Value]) -> Value {
    let mut merged = without(base, "allOf");
    for part in parts {
        let Value::Object(part) = part else { continue };
        for (key, value) in part {
            match (key.as_str(), merged.get_mut(key)) {
                ("properties", Some(Value::Object(existing))) => {
                    if let Value::Object(more) = value {
                        for (name, schema) in more {
                            existing
                                .entry(name.clone())
                                .or_insert_with(|| schema.clone());
                        }
                    }
                }
                ("required", Some(Value::Array(existing))) => {
                    if let Value::Array(more) = value {
                        existing.extend(more.iter().cloned());
                    }
                }
                (_, Some(_)) => {}
                (_, None) => {
                    merged.insert(key.clone(), value.clone());
                }
            }
        }
    }
    Value::Object(merged)
}

/// Arguments `root` refuses, and the argument the refusal must name: a required argument
/// left out, or a typed argument given a value of another type.
pub(crate) fn invalid_arguments(root: &Value, valid: &Value) -> Option<(Value, String)> {
    let properties = root.get("properties")?.as_object()?;
    let required: Vec<&str> = root
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut arguments = valid.clone();
    // A required argument whose schema allows one value only is filled in when left out
    // (Spotify's `type: [artist]`): leaving it out is no mistake to refuse.
    let single_valued = |name: &str| {
        properties.get(name).is_some_and(|schema| {
            schema.get("const").is_some()
                || schema
                    .get("enum")
                    .and_then(Value::as_array)
                    .is_some_and(|values| values.len() == 1)
        })
    };
    if let Some(name) = required.iter().find(|name| !single_valued(name)) {
        arguments.as_object_mut()?.remove(*name);
        return Some((arguments, (*name).to_owned()));
    }
    // No required argument: give a typed one a value of the wrong type.
    for (name, schema) in properties {
        let wrong = match primary_type(schema.as_object()?).as_deref() {
            Some("integer" | "number" | "boolean") => json!({"not": "a scalar"}),
            Some("array") => json!(17),
            Some("object") => json!([1, 2]),
            _ => continue,
        };
        if schema.get("type").and_then(Value::as_array).is_some() {
            continue;
        }
        arguments.as_object_mut()?.insert(name.clone(), wrong);
        return Some((arguments, name.clone()));
    }
    None
}
