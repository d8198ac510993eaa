//! Checking a call's arguments against a tool's schemas before anything executes, and reading
//! argument values that arrive as text.
//!
//! [`coerce_arguments`] goes first on the call path (the hybrid and REST drivers call it):
//! the numbers and booleans models write as strings (`"days": "12"`) are read as what they
//! say, when that is unambiguous, so only real mistakes reach validation.
//!
//! Decoding in a driver already rejects what its Rust types cannot hold; validation here works
//! from the [`Tool`] alone, so it serves tools that are only described (an OpenAPI operation, a
//! tool forwarded to another process) and names every problem at once, in the words of
//! [`schema::describe`].
//!
//! Checked: the arguments object, required and unknown arguments, `type` (a type list too;
//! `3.0` is an integer), `enum`, `const`, `properties`, `required`, `additionalProperties`,
//! `items`, `prefixItems`, `allOf`, `anyOf`, `oneOf` (as `anyOf`: one fitting alternative is
//! enough), `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `minLength`,
//! `maxLength`, `minItems`, `maxItems`, `$ref` into the schema's own `$defs`, the string
//! formats `date`, `date-time`, `time`, `email`, `uuid`, `uri`, `uri-reference`, `ipv4`,
//! `ipv6` and `hostname` (JSON Schema 2020-12 makes `format` an annotation; REST APIs mean it
//! as a rule, and their servers enforce it), `pattern` with the `pattern` feature (which
//! `rest` turns on; a pattern the `regex` crate cannot compile, with lookaround or
//! backreferences, is not checked), `uniqueItems` (by the same equality as `enum`), and `not`.
//! Not checked: other formats, `pattern` without the feature, `patternProperties` (an object
//! with it is not checked for unknown members either), and the rarer keywords (`if`/`then`/
//! `else`, `contains`, `multipleOf`, `minProperties`, `propertyNames`, ...).

mod coerce;
mod format;
mod pattern;
mod unique;

use std::borrow::Cow;

use serde_json::{Map, Number, Value, json};

use crate::error::ArgumentError;
use crate::schema::{self, PathSegment, describe_in, describe_received, join_path};
use crate::types::Tool;
use unique::same_value;

pub use coerce::{coerce_arguments, coerce_text};
#[doc(hidden)]
pub use pattern::ecma_regex;

/// How deep validation follows nested values and references. Deeper parts are accepted
/// unchecked: recursion on hostile input must not exhaust the stack.
const MAX_DEPTH: usize = 64;

/// Checks a call's `arguments` against `tool` before it executes.
///
/// `arguments` must be an object (`null` counts as `{}`). Every problem is reported, in
/// parameter order, then the arguments the tool does not have:
/// a required argument that is absent, a value that does not fit its parameter's schema (with
/// the path to the offending part, `filter.limit` or `items[2].name`), and an unknown
/// argument (with the accepted names and the closest one). An optional argument given as
/// `null` counts as absent, as it does when a driver decodes it.
///
/// A parameter's schema is its own root: its `#/$defs/...` references resolve in it.
pub fn validate_arguments(tool: &Tool, arguments: &Value) -> Result<(), Vec<ArgumentError>> {
    let empty = Map::new();
    let given = match arguments {
        Value::Object(map) => map,
        Value::Null => &empty,
        other => {
            return Err(vec![ArgumentError::invalid(
                "",
                "a JSON object of named arguments",
                describe_received(other),
            )]);
        }
    };
    let mut problems = Vec::new();
    for parameter in tool.parameters() {
        let schema = parameter
            .resolved_schema()
            .unwrap_or_else(|| Cow::Owned(json!({ "type": "string" })));
        match field(given, &parameter.name) {
            None if parameter.required => {
                let validator = Validator::new(&schema, &parameter.name);
                problems.push(ArgumentError::missing(
                    parameter.name.as_str(),
                    validator.expected_missing(&schema),
                ));
            }
            None => {}
            Some(Value::Null) if !parameter.required => {}
            Some(value) => {
                let validator = Validator::new(&schema, &parameter.name);
                validator.check(&schema, value, &mut Vec::new(), 0, &mut problems);
            }
        }
    }
    for name in given.keys() {
        if tool.parameter(name).is_none() {
            let accepted = tool.parameters().iter().map(|p| p.name.clone()).collect();
            problems.push(ArgumentError::unknown(name.as_str(), accepted));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(without_repeats(problems))
    }
}

/// `problems` with each said once: a member several parts of a schema require (each
/// alternative of an `allOf` requiring `@odata.type`) was reported once per part.
fn without_repeats(problems: Vec<ArgumentError>) -> Vec<ArgumentError> {
    let mut kept: Vec<ArgumentError> = Vec::with_capacity(problems.len());
    for problem in problems {
        if !kept.contains(&problem) {
            kept.push(problem);
        }
    }
    kept
}

/// Checks `value` against `schema` (a self-contained schema: its `#/$defs/...` references
/// resolve at its root), naming problems from `path` (`""` for the value itself).
pub fn validate_value(path: &str, schema: &Value, value: &Value) -> Result<(), Vec<ArgumentError>> {
    let mut problems = Vec::new();
    Validator::new(schema, path).check(schema, value, &mut Vec::new(), 0, &mut problems);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// Whether `schema`, a part of `root`, accepts `value`.
pub(crate) fn accepts(root: &Value, schema: &Value, value: &Value) -> bool {
    let mut problems = Vec::new();
    Validator::new(root, "").check(schema, value, &mut Vec::new(), 0, &mut problems);
    problems.is_empty()
}

struct Validator<'s> {
    /// Where `$ref`s resolve.
    root: &'s Value,
    /// The argument's name, the start of every path.
    base: &'s str,
}

impl<'s> Validator<'s> {
    fn new(root: &'s Value, base: &'s str) -> Self {
        Validator { root, base }
    }

    fn check(
        &self,
        schema: &Value,
        value: &Value,
        path: &mut Vec<PathSegment>,
        depth: usize,
        out: &mut Vec<ArgumentError>,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let object = match schema {
            Value::Object(object) => object,
            Value::Bool(false) => {
                out.push(self.invalid(path, schema, value));
                return;
            }
            _ => return,
        };
        if let Some(target) = schema::referenced(self.root, schema) {
            let before = out.len();
            self.check(target, value, path, depth + 1, out);
            if out.len() > before {
                return;
            }
        }
        if let Some(Value::Array(all)) = field(object, "allOf") {
            let before = out.len();
            for part in all {
                self.check(part, value, path, depth + 1, out);
            }
            if out.len() > before {
                return;
            }
        }
        for (key, exclusive) in [("anyOf", false), ("oneOf", true)] {
            if let Some(Value::Array(alternatives)) = field(object, key)
                && !self.check_alternatives(
                    schema,
                    alternatives,
                    exclusive,
                    value,
                    path,
                    depth,
                    out,
                )
            {
                return;
            }
        }
        if let Some(kinds) = field(object, "type") {
            let fits = match kinds {
                Value::String(kind) => is_of_type(kind, value),
                Value::Array(kinds) => kinds
                    .iter()
                    .filter_map(Value::as_str)
                    .any(|kind| is_of_type(kind, value)),
                _ => true,
            };
            if !fits {
                out.push(self.invalid(path, schema, value));
                return;
            }
        }
        if let Some(Value::Array(allowed)) = field(object, "enum")
            && !allowed.iter().any(|candidate| same_value(candidate, value))
        {
            out.push(self.invalid(path, schema, value));
            return;
        }
        if let Some(constant) = field(object, "const")
            && !same_value(constant, value)
        {
            out.push(self.invalid(path, schema, value));
            return;
        }
        // Deeper than validation follows, the `not` schema would accept everything unchecked,
        // and so reject what it never looked at.
        if let Some(forbidden) = field(object, "not")
            && depth < MAX_DEPTH
        {
            let mut problems = Vec::new();
            self.check(forbidden, value, path, depth + 1, &mut problems);
            if problems.is_empty() {
                out.push(ArgumentError::invalid(
                    join_path(self.base, path),
                    format!(
                        "a value that is not {}",
                        describe_in(self.root, self.resolved(forbidden))
                    ),
                    describe_received(value),
                ));
                return;
            }
        }
        match value {
            Value::Number(number) => {
                if !within_bounds(number, object) {
                    out.push(self.invalid(path, schema, value));
                }
            }
            Value::String(text) => {
                // A value the schema lists itself (`enum: [now]` beside `format: date-time`,
                // as SendGrid writes) is not held to the format: the list is the document's
                // own word, and the format only an annotation by default in JSON Schema.
                let listed = field(object, "enum")
                    .and_then(Value::as_array)
                    .is_some_and(|values| values.contains(value))
                    || field(object, "const") == Some(value);
                let fits = within_count(|| text.chars().count(), object, LENGTH)
                    && (listed
                        || field(object, "format")
                            .and_then(Value::as_str)
                            .is_none_or(|name| format::conforms(name, text)))
                    && field(object, "pattern")
                        .and_then(Value::as_str)
                        .is_none_or(|regex| pattern::matches(regex, text));
                if !fits {
                    out.push(self.invalid(path, schema, value));
                }
            }
            Value::Array(items) => {
                if !within_count(|| items.len(), object, ITEMS) {
                    out.push(self.invalid(path, schema, value));
                    return;
                }
                self.check_items(object, items, path, depth, out);
                if field(object, "uniqueItems") == Some(&Value::Bool(true)) {
                    self.check_unique(items, path, out);
                }
            }
            Value::Object(members) => self.check_members(object, members, path, depth, out),
            Value::Null | Value::Bool(_) => {}
        }
    }

    /// `anyOf`/`oneOf`: fine if one alternative fits. Otherwise, when the value's type (or
    /// its discriminating constants) singles out one alternative, that alternative's
    /// problems are the precise ones; else the error lists every alternative.
    /// Returns whether checking may go on.
    #[allow(clippy::too_many_arguments)]
    fn check_alternatives(
        &self,
        schema: &Value,
        alternatives: &[Value],
        exclusive: bool,
        value: &Value,
        path: &mut Vec<PathSegment>,
        depth: usize,
        out: &mut Vec<ArgumentError>,
    ) -> bool {
        let mut outcomes = Vec::with_capacity(alternatives.len());
        let mut matched: Vec<usize> = Vec::new();
        for (index, alternative) in alternatives.iter().enumerate() {
            let mut problems = Vec::new();
            self.check(alternative, value, path, depth + 1, &mut problems);
            if problems.is_empty() {
                // `anyOf` is content with one; `oneOf` wants no second.
                if !exclusive {
                    return true;
                }
                matched.push(index + 1);
                continue;
            }
            outcomes.push((alternative, problems));
        }
        match matched.as_slice() {
            [] => {}
            [_] => return true,
            // An alternative that takes any object (nothing required, nothing refused) is
            // fitted by every object that fits another: no value can fit only that other, so
            // the document's `oneOf` can only mean `anyOf` (GererMesAffaires' document body:
            // `oneOf [{DocumentId}, {Title, File, …}]`, neither requiring anything).
            matched
                if value.is_object()
                    && matched.iter().any(|&number| {
                        let mut problems = Vec::new();
                        let empty = Value::Object(Map::new());
                        self.check(
                            &alternatives[number - 1],
                            &empty,
                            path,
                            depth + 1,
                            &mut problems,
                        );
                        problems.is_empty()
                    }) =>
            {
                return true;
            }
            [first, second, ..] => {
                out.push(ArgumentError::invalid(
                    join_path(self.base, path),
                    format!(
                        "a value that fits exactly one of the `oneOf` alternatives (it fits \
                         alternatives {first} and {second}; leave out what only one of them \
                         has, or what tells them apart)"
                    ),
                    describe_received(value),
                ));
                return false;
            }
        }
        let mut plausible: Vec<_> = outcomes
            .into_iter()
            .filter(|(alternative, _)| self.admits_type_of(alternative, value, depth))
            .collect();
        if plausible.len() > 1
            && let Value::Object(members) = value
        {
            let tagged: Vec<_> = plausible
                .iter()
                .map(|(alternative, _)| self.discriminated(alternative, members))
                .collect();
            if tagged.iter().filter(|t| **t == Some(true)).count() == 1 {
                plausible = plausible
                    .into_iter()
                    .zip(tagged)
                    .filter(|(_, tagged)| *tagged == Some(true))
                    .map(|(outcome, _)| outcome)
                    .collect();
            }
        }
        match plausible.as_slice() {
            [(_, problems)] => out.extend(problems.iter().cloned()),
            _ => out.push(self.invalid(path, schema, value)),
        }
        false
    }

    /// Whether `schema` admits values of `value`'s JSON type at all.
    fn admits_type_of(&self, schema: &Value, value: &Value, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return true;
        }
        let Some(object) = schema.as_object() else {
            return schema != &Value::Bool(false);
        };
        if let Some(target) = schema::referenced(self.root, schema) {
            return self.admits_type_of(target, value, depth + 1);
        }
        match object.get("type") {
            Some(Value::String(kind)) => return is_of_type(kind, value),
            Some(Value::Array(kinds)) => {
                return kinds
                    .iter()
                    .filter_map(Value::as_str)
                    .any(|kind| is_of_type(kind, value));
            }
            _ => {}
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(alternatives)) = object.get(key) {
                return alternatives
                    .iter()
                    .any(|alternative| self.admits_type_of(alternative, value, depth + 1));
            }
        }
        if let Some(constant) = object.get("const") {
            return schema::json_type(constant) == schema::json_type(value)
                || (constant.is_number() && value.is_number());
        }
        if let Some(Value::Array(allowed)) = object.get("enum") {
            return allowed.iter().any(|candidate| {
                schema::json_type(candidate) == schema::json_type(value)
                    || (candidate.is_number() && value.is_number())
            });
        }
        true
    }

    /// For an object alternative whose properties fix constants (`"kind": {"const":
    /// "circle"}`, how a tagged enum reads): whether `members` carry those constants.
    /// `None` when the alternative fixes none.
    fn discriminated(&self, schema: &Value, members: &Map<String, Value>) -> Option<bool> {
        let schema = self.resolved(schema);
        let properties = schema.get("properties")?.as_object()?;
        let mut tags = properties
            .iter()
            .filter_map(|(name, property)| {
                schema::only_value(self.resolved(property)).map(|constant| (name, constant))
            })
            .peekable();
        tags.peek()?;
        Some(tags.all(|(name, constant)| {
            members
                .get(name)
                .is_some_and(|given| same_value(given, constant))
        }))
    }

    fn check_items(
        &self,
        object: &Map<String, Value>,
        items: &[Value],
        path: &mut Vec<PathSegment>,
        depth: usize,
        out: &mut Vec<ArgumentError>,
    ) {
        let prefix: &[Value] = match object.get("prefixItems") {
            Some(Value::Array(prefix)) => prefix,
            _ => &[],
        };
        for (index, item) in items.iter().enumerate() {
            let Some(schema) = prefix.get(index).or_else(|| object.get("items")) else {
                continue;
            };
            path.push(PathSegment::Index(index));
            self.check(schema, item, path, depth + 1, out);
            path.pop();
        }
    }

    /// `uniqueItems`: each repeat is named with the item it repeats (`tags[3]` repeats
    /// `tags[1]`), so the model knows which one to drop.
    fn check_unique(
        &self,
        items: &[Value],
        path: &mut Vec<PathSegment>,
        out: &mut Vec<ArgumentError>,
    ) {
        for (repeat, first) in unique::repeats(items) {
            path.push(PathSegment::Index(first));
            let earlier = join_path(self.base, path);
            path.pop();
            path.push(PathSegment::Index(repeat));
            out.push(ArgumentError::invalid(
                join_path(self.base, path),
                format!("a value different from `{earlier}` (the array's items must be unique)"),
                describe_received(&items[repeat]),
            ));
            path.pop();
        }
    }

    fn check_members(
        &self,
        object: &Map<String, Value>,
        members: &Map<String, Value>,
        path: &mut Vec<PathSegment>,
        depth: usize,
        out: &mut Vec<ArgumentError>,
    ) {
        let properties = object.get("properties").and_then(Value::as_object);
        if let Some(Value::Array(required)) = object.get("required") {
            for name in required.iter().filter_map(Value::as_str) {
                if members.contains_key(name) {
                    continue;
                }
                let expected = properties
                    .and_then(|p| p.get(name))
                    .map_or_else(|| "a value".to_owned(), |s| self.expected_missing(s));
                path.push(PathSegment::Field(name.to_owned()));
                out.push(ArgumentError::missing(join_path(self.base, path), expected));
                path.pop();
            }
        }
        let extra = object.get("additionalProperties");
        let unknown_is_checked = !object.contains_key("patternProperties");
        for (name, member) in members {
            let schema = match properties.and_then(|p| p.get(name)) {
                Some(schema) => schema,
                None => match extra {
                    Some(Value::Bool(false)) if unknown_is_checked => {
                        let accepted = properties
                            .map(|p| p.keys().cloned().collect())
                            .unwrap_or_default();
                        path.push(PathSegment::Field(name.clone()));
                        out.push(ArgumentError::unknown(join_path(self.base, path), accepted));
                        path.pop();
                        continue;
                    }
                    Some(schema @ Value::Object(_)) if unknown_is_checked => schema,
                    _ => continue,
                },
            };
            path.push(PathSegment::Field(name.clone()));
            self.check(schema, member, path, depth + 1, out);
            path.pop();
        }
    }

    /// What `schema` accepts, in words, seen through a reference. A checked string format
    /// comes with how it is written: `a string (date), written YYYY-MM-DD`. (That is said here
    /// rather than in [`describe`], whose short `a string (date)` also serves listings.)
    fn expected(&self, schema: &Value) -> String {
        let schema = self.resolved(schema);
        let text = describe_in(self.root, schema);
        let admits_strings = match schema.get("type") {
            Some(Value::String(kind)) => kind == "string",
            Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == "string"),
            _ => false,
        };
        let listed = schema.get("enum").is_some() || schema.get("const").is_some();
        match schema.get("format").and_then(Value::as_str) {
            Some(name) if admits_strings && !listed => match format::hint(name) {
                Some(hint) => format!("{text}, {hint}"),
                None => text,
            },
            _ => text,
        }
    }

    /// What a missing `schema` value should have been: [`expected`](Self::expected), and the
    /// schema's `default` when it has one (Microsoft Graph requires `@odata.type` and gives
    /// the value only as its default).
    fn expected_missing(&self, schema: &Value) -> String {
        let text = self.expected(schema);
        match self.resolved(schema).get("default") {
            Some(default) if !default.is_null() => {
                format!(
                    "{text}; its default is {}",
                    schema::render_value(default, 60)
                )
            }
            _ => text,
        }
    }

    /// `schema`, or what its `$ref` points at when it is only a reference.
    fn resolved<'a>(&'a self, schema: &'a Value) -> &'a Value {
        let mut schema = schema;
        for _ in 0..8 {
            match schema::referenced(self.root, schema) {
                Some(target) if schema.as_object().is_some_and(|o| o.len() == 1) => {
                    schema = target;
                }
                _ => break,
            }
        }
        schema
    }

    fn invalid(&self, path: &[PathSegment], schema: &Value, value: &Value) -> ArgumentError {
        ArgumentError::invalid(
            join_path(self.base, path),
            self.expected(schema),
            describe_received(value),
        )
    }
}

/// `map.get(key)`. Schemas and arguments are small objects, and comparing a key with a few
/// others costs less than hashing it (`preserve_order` maps hash every lookup but a single
/// key's).
fn field<'m>(map: &'m Map<String, Value>, key: &str) -> Option<&'m Value> {
    if map.len() <= 8 {
        map.iter().find_map(|(k, v)| (k == key).then_some(v))
    } else {
        map.get(key)
    }
}

/// Whether `value` is of the JSON Schema type `kind`. An integer is any number without a
/// fractional part (`3.0` is one); a type name this code does not know accepts everything.
fn is_of_type(kind: &str, value: &Value) -> bool {
    match kind {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "string" => value.is_string(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "number" => value.is_number(),
        "integer" => match value {
            Value::Number(number) => is_integral(number),
            _ => false,
        },
        _ => true,
    }
}

fn is_integral(number: &Number) -> bool {
    number.is_i64()
        || number.is_u64()
        || number
            .as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

fn within_bounds(number: &Number, object: &Map<String, Value>) -> bool {
    let Some(n) = number.as_f64() else {
        return true;
    };
    let bound = |key: &str| field(object, key).and_then(Value::as_f64);
    bound("minimum").is_none_or(|min| n >= min)
        && bound("maximum").is_none_or(|max| n <= max)
        && bound("exclusiveMinimum").is_none_or(|min| n > min)
        && bound("exclusiveMaximum").is_none_or(|max| n < max)
}

/// The bounds on a string's length.
const LENGTH: [&str; 2] = ["minLength", "maxLength"];
/// The bounds on an array's length.
const ITEMS: [&str; 2] = ["minItems", "maxItems"];

/// Whether `count` lies within the bounds `[min, max]` ([`LENGTH`] or [`ITEMS`]); counts
/// only when there is a bound (a string's characters take a pass over it).
fn within_count(
    count: impl FnOnce() -> usize,
    object: &Map<String, Value>,
    [min, max]: [&str; 2],
) -> bool {
    let bound = |key: &str| field(object, key).and_then(Value::as_u64);
    let (min, max) = (bound(min), bound(max));
    if min.is_none() && max.is_none() {
        return true;
    }
    let count = count() as u64;
    min.is_none_or(|min| count >= min) && max.is_none_or(|max| count <= max)
}
