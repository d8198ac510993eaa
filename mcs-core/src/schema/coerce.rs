//! Reading a value that arrived as text as the JSON value a schema expects.
//!
//! Text reaches a tool two ways: as the whole value, in call formats that write every value
//! as text (`<parameter=days>3</parameter>`), and as a JSON string the model put where the
//! schema wants a number or a boolean (`"days": "3"`). Extraction and validation read both
//! here, by one set of rules; [`CoercionPolicy`] says which of the two a text is.

use serde_json::{Map, Number, Value};

use super::describe::json_type;
use super::navigate::{only_value, referenced};

/// What a text is, and so how boldly it is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextReading {
    /// The text is the whole value, as call formats that write every value as text deliver
    /// it (Qwen3-Coder, Claude XML, GLM, ...): nothing but the schema says what it is.
    ///
    /// In order: a value the schema enumerates (`enum`/`const`), matched exactly and then,
    /// for strings, ignoring case (`"Metric"` → `"metric"`); `null`/`None` where null is
    /// allowed (and the empty text, where a string is not); else the empty text as `[]` or
    /// `{}` where a list or an object is taken, not both, and no string; `true`/`false` in
    /// any case where a boolean is; an integer (`"3.0"` → `3`, `"1e3"` → `1000`); a number;
    /// JSON text where an object or array is (or where the schema accepts anything);
    /// otherwise the text itself, untouched. Surrounding whitespace is layout and ignored by every reading but
    /// the string.
    ///
    /// When the schema admits a string and another type, the other reading wins: `"42"` for
    /// `["string", "integer"]` is `42`, since text is all these formats can write. A schema
    /// that admits only strings keeps every text a string, JSON-looking or not.
    Text,
    /// The text is a JSON string the model wrote, where a number, an integer, a boolean, an
    /// array or an object may have been meant (`"days": "12"`, `"tags": "[\"a\"]"`). It is
    /// read only when the reading is unambiguous:
    ///
    /// - the schema admits no string (and does not accept anything), so the string would
    ///   fail validation as it is — a string the schema takes is never touched, and one its
    ///   `enum` lists in another case is the value listed, when exactly one is
    ///   (`"Celsius"` → `"celsius"`);
    /// - the text is exactly the JSON literal the model meant, quotes removed: `"12"`,
    ///   `"-2.5"`, `"1e3"`, `"true"`, `"false"` (also capitalised, as Python writes them:
    ///   `"True"`), a JSON array or object, or digits padded with zeros (`"07"` → `7`:
    ///   where only a number is taken, a code would have been asked as a string).
    ///   Surrounding whitespace, signs JSON has not (`"+1"`), other spellings (`"yes"`,
    ///   `"NaN"`) and numbers beyond `f64` (`"1e999"`) are ambiguous and stay strings, and
    ///   so does a list written as prose (`"ana, raj"`);
    /// - the value read is of a type the schema wants: a number where a number is; where
    ///   only an integer is, an integer within `i64`/`u64` (and, written with a fraction or
    ///   an exponent, below 2^53, where a double is exact: `"12.0"` → `12`, `"1e3"` →
    ///   `1000`), so `"2.5"`, `"18446744073709551616"` and `"1e20"` stay strings; an array
    ///   where an array is, an object where an object is.
    ///
    /// `"null"` is never read as null: a model that quotes it more likely means the word.
    /// Whatever stays a string fails validation as it did before, naming what was expected.
    ///
    /// The other way round, a number where the schema admits only a string is its text
    /// (`"zip": 94107` → `"94107"`, `"version": 1.5` → `"1.5"`): what the model meant is
    /// not in doubt either, and a digit string (a postal code, an account number) is what
    /// such a parameter holds.
    JsonString,
}

/// How [`coerce`] and [`coerce_value`] read text: what the text is, and how deep the schema
/// and the value are followed.
///
/// References resolve into the `$defs` at the root of the schema passed in (where
/// [`normalize`](super::normalize) keeps the definitions of recursive types); the types a
/// schema admits are gathered from `type` (a single type or a list), `enum`/`const`, and
/// every alternative of `anyOf`/`oneOf`/`allOf`. A schema without any of these (`{}` or
/// `true`) accepts anything; one with only `properties` is an object, with only `items` an
/// array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CoercionPolicy {
    /// What the text is.
    pub reading: TextReading,
    /// How many references, alternatives and nested values deep the schema is followed;
    /// deeper parts stay as they are. It bounds the work hostile input can cause and keeps
    /// recursive definitions from looping.
    pub max_depth: usize,
}

impl CoercionPolicy {
    /// The depth both policies follow: as deep as validation checks.
    pub const DEFAULT_MAX_DEPTH: usize = 64;

    /// For a text that is the whole value ([`TextReading::Text`]).
    pub const TEXT: CoercionPolicy = CoercionPolicy {
        reading: TextReading::Text,
        max_depth: Self::DEFAULT_MAX_DEPTH,
    };

    /// For a JSON string where the schema wants a number, an integer or a boolean
    /// ([`TextReading::JsonString`]).
    pub const JSON_STRING: CoercionPolicy = CoercionPolicy {
        reading: TextReading::JsonString,
        max_depth: Self::DEFAULT_MAX_DEPTH,
    };

    /// The same policy, following the schema `max_depth` levels deep.
    #[must_use]
    pub const fn with_max_depth(mut self, max_depth: usize) -> Self {
        self.max_depth = max_depth;
        self
    }
}

/// The value `text` stands for, given the `schema` it must fit and the `policy` that says
/// what the text is (see [`TextReading`] for the rules). A text that fits no reading comes
/// back as the string it was, so validation afterwards names what was expected and shows
/// what came.
pub fn coerce(text: &str, schema: &Value, policy: &CoercionPolicy) -> Value {
    read(text, schema, schema, policy, 0, &|_| None)
        .map_or_else(|| Value::String(text.to_owned()), |(value, _)| value)
}

/// [`coerce`], where object and array text that is not strict JSON is given to `repair`,
/// which answers the value and whether it had to mend the text (extraction's lenient JSON
/// reader: single quotes, trailing commas). Returns the value and whether it was mended.
pub fn coerce_repairing(
    text: &str,
    schema: &Value,
    policy: &CoercionPolicy,
    repair: &dyn Fn(&str) -> Option<(Value, bool)>,
) -> (Value, bool) {
    read(text, schema, schema, policy, 0, repair)
        .unwrap_or_else(|| (Value::String(text.to_owned()), false))
}

/// Reads, in place, the strings inside `value` (itself, an object's members, an array's
/// items, at any depth up to the policy's) that `schema` types otherwise, as [`coerce`]
/// would read each by the sub-schema at its place.
///
/// Where `anyOf`/`oneOf` offers alternatives, an object or array is followed into the one
/// alternative that admits it, or among several, the one whose constant properties the
/// object carries (a tagged enum); when which one was meant is unclear, the value inside is
/// left as it is.
pub fn coerce_value(value: &mut Value, schema: &Value, policy: &CoercionPolicy) {
    coerce_within(value, schema, schema, policy, 0);
}

fn coerce_within(
    value: &mut Value,
    root: &Value,
    schema: &Value,
    policy: &CoercionPolicy,
    depth: usize,
) {
    if depth > policy.max_depth {
        return;
    }
    // The common cases, decided without reading the schema's alternatives: a number, a
    // boolean or null holds nothing to read, and a quoted string where the schema says
    // `string` stays one (a whole text may still match an enum ignoring case: not skipped).
    let wants_string = || schema.get("type").and_then(Value::as_str) == Some("string");
    match value {
        // A number where the schema wants a string is its text (`"zip": 94107`).
        Value::Number(number) if policy.reading == TextReading::JsonString && wants_string() => {
            *value = Value::String(number.to_string());
            return;
        }
        Value::Number(_) | Value::Bool(_) | Value::Null => return,
        Value::String(text) if policy.reading == TextReading::JsonString && wants_string() => {
            // Only a value its enumeration does not list as written may be one it lists in
            // another case.
            match schema.get("enum") {
                Some(Value::Array(listed))
                    if !listed.iter().any(|l| l.as_str() == Some(text.as_str())) => {}
                _ => return,
            }
        }
        _ => {}
    }
    if let Value::String(text) = value {
        if let Some((read, _)) = read(text, root, schema, policy, depth, &|_| None) {
            *value = read;
        }
        return;
    }
    let mut branches = Vec::new();
    collect_branches(root, schema, value, policy, depth, &mut branches);
    match value {
        Value::Object(members) => {
            for (name, member) in members.iter_mut() {
                let member_schema = branches.iter().find_map(|branch| {
                    branch
                        .get("properties")
                        .and_then(|p| p.get(name.as_str()))
                        .or_else(|| branch.get("additionalProperties").filter(|s| s.is_object()))
                });
                if let Some(member_schema) = member_schema {
                    coerce_within(member, root, member_schema, policy, depth + 1);
                }
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter_mut().enumerate() {
                let item_schema =
                    branches
                        .iter()
                        .find_map(|branch| match branch.get("prefixItems") {
                            Some(Value::Array(prefix)) if index < prefix.len() => prefix.get(index),
                            _ => branch.get("items").filter(|s| s.is_object()),
                        });
                if let Some(item_schema) = item_schema {
                    coerce_within(item, root, item_schema, policy, depth + 1);
                }
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => {}
    }
}

/// The schema objects that apply to `value` (an object or an array) described by `schema`:
/// itself, what its `$ref` points at, every `allOf` part, and the `anyOf`/`oneOf`
/// alternative meant, each followed the same way.
///
/// The alternative meant is the one that admits the value's type, or among several that do,
/// the one whose constant properties the object carries (`"kind": "circle"`, how a tagged
/// enum reads). Otherwise none is followed: guessing could read a string the intended
/// alternative wanted kept.
fn collect_branches<'s>(
    root: &'s Value,
    schema: &'s Value,
    value: &Value,
    policy: &CoercionPolicy,
    depth: usize,
    out: &mut Vec<&'s Value>,
) {
    if depth > policy.max_depth {
        return;
    }
    let Some(object) = schema.as_object() else {
        return;
    };
    if let Some(target) = referenced(root, schema) {
        collect_branches(root, target, value, policy, depth + 1, out);
    }
    out.push(schema);
    if let Some(Value::Array(parts)) = object.get("allOf") {
        for part in parts {
            collect_branches(root, part, value, policy, depth + 1, out);
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(alternatives)) = object.get(key)
            && let Some(meant) = meant_alternative(root, alternatives, value, policy, depth)
        {
            collect_branches(root, meant, value, policy, depth + 1, out);
        }
    }
}

/// See [`collect_branches`].
fn meant_alternative<'s>(
    root: &'s Value,
    alternatives: &'s [Value],
    value: &Value,
    policy: &CoercionPolicy,
    depth: usize,
) -> Option<&'s Value> {
    let kind = json_type(value);
    let admitting: Vec<&Value> = alternatives
        .iter()
        .filter(|alternative| {
            let mut kinds = Kinds::default();
            collect_kinds(
                root,
                alternative,
                policy,
                depth + 1,
                &mut kinds,
                &mut Vec::new(),
            );
            kinds.any || kinds.admits(kind)
        })
        .collect();
    if let [only] = admitting.as_slice() {
        return Some(only);
    }
    let Value::Object(members) = value else {
        return None;
    };
    let mut tagged = admitting
        .into_iter()
        .filter(|alternative| carries_tags(root, alternative, members));
    match (tagged.next(), tagged.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// Whether `members` carry every constant the object schema `schema` fixes for a property,
/// when it fixes at least one.
fn carries_tags(root: &Value, schema: &Value, members: &Map<String, Value>) -> bool {
    let schema = referenced(root, schema).unwrap_or(schema);
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return false;
    };
    let mut tags = properties
        .iter()
        .filter_map(|(name, property)| {
            let property = referenced(root, property).unwrap_or(property);
            only_value(property).map(|constant| (name, constant))
        })
        .peekable();
    tags.peek().is_some() && tags.all(|(name, constant)| members.get(name) == Some(constant))
}

/// The value `text` is read as, and whether `repair` mended it; `None` when it stays the
/// string it is.
fn read(
    text: &str,
    root: &Value,
    schema: &Value,
    policy: &CoercionPolicy,
    depth: usize,
    repair: &dyn Fn(&str) -> Option<(Value, bool)>,
) -> Option<(Value, bool)> {
    let mut kinds = Kinds::default();
    let mut allowed = Vec::new();
    collect_kinds(root, schema, policy, depth, &mut kinds, &mut allowed);
    match policy.reading {
        TextReading::Text => read_text(text, &kinds, &allowed, repair),
        TextReading::JsonString => {
            read_json_string(text, &kinds, &allowed).map(|value| (value, false))
        }
    }
}

/// [`TextReading::Text`].
fn read_text(
    text: &str,
    kinds: &Kinds,
    allowed: &[&Value],
    repair: &dyn Fn(&str) -> Option<(Value, bool)>,
) -> Option<(Value, bool)> {
    let trimmed = text.trim();
    let listed = allowed
        .iter()
        .find(|candidate| match candidate {
            Value::String(listed) => listed == text || listed == trimmed,
            other => other.to_string() == trimmed,
        })
        .or_else(|| {
            allowed.iter().find(|candidate| {
                candidate
                    .as_str()
                    .is_some_and(|listed| listed.eq_ignore_ascii_case(trimmed))
            })
        });
    if let Some(found) = listed {
        return Some(((*found).clone(), false));
    }
    if kinds.null
        && (trimmed == "null" || trimmed == "None" || (trimmed.is_empty() && !kinds.string))
    {
        return Some((Value::Null, false));
    }
    // An empty element where only a list or only an object is taken: an empty one.
    if trimmed.is_empty() && !kinds.string && !kinds.any && kinds.array != kinds.object {
        let empty = if kinds.array {
            Value::Array(Vec::new())
        } else {
            Value::Object(Map::new())
        };
        return Some((empty, false));
    }
    if kinds.boolean {
        if trimmed.eq_ignore_ascii_case("true") {
            return Some((Value::Bool(true), false));
        }
        if trimmed.eq_ignore_ascii_case("false") {
            return Some((Value::Bool(false), false));
        }
    }
    if kinds.integer || kinds.number {
        // Full-width digits, as CJK input methods write them (`３`, `１２．５`).
        let ascii = ascii_digits(trimmed);
        let trimmed = ascii.as_deref().unwrap_or(trimmed);
        if let Ok(integer) = trimmed.parse::<i64>() {
            return Some((Value::from(integer), false));
        }
        if let Ok(integer) = trimmed.parse::<u64>() {
            return Some((Value::from(integer), false));
        }
        if let Some(float) = trimmed.parse::<f64>().ok().filter(|f| f.is_finite()) {
            // Whole numbers read as integers where integers are wanted (`"3.0"` → `3`);
            // anything else stays the number it is, for validation to judge.
            const EXACT: f64 = 9_007_199_254_740_992.0;
            if kinds.integer && float.fract() == 0.0 && float.abs() < EXACT {
                return Some((Value::from(float as i64), false));
            }
            if let Some(number) = Number::from_f64(float) {
                return Some((Value::Number(number), false));
            }
        }
    }
    if kinds.object || kinds.array || kinds.any {
        let parsed = match serde_json::from_str::<Value>(trimmed) {
            Ok(value) => Some((value, false)),
            Err(_) if trimmed.starts_with(['{', '[']) => repair(trimmed),
            Err(_) => None,
        };
        if let Some((parsed, repaired)) = parsed {
            let fits = kinds.any
                || (kinds.object && parsed.is_object())
                || (kinds.array && parsed.is_array());
            if fits {
                return Some((parsed, repaired));
            }
        }
    }
    None
}

/// `text` with its full-width digits, sign and point (U+FF10–FF19, `－`, `＋`, `．`) in
/// ASCII, when it has any and nothing else but ASCII; `None` otherwise.
fn ascii_digits(text: &str) -> Option<String> {
    if text.is_ascii() {
        return None;
    }
    text.chars()
        .map(|c| match c {
            '\u{FF10}'..='\u{FF19}' => char::from_u32(c as u32 - 0xFF10 + u32::from(b'0')),
            '\u{FF0D}' => Some('-'),
            '\u{FF0B}' => Some('+'),
            '\u{FF0E}' => Some('.'),
            c if c.is_ascii() => Some(c),
            _ => None,
        })
        .collect()
}

/// [`TextReading::JsonString`].
fn read_json_string(text: &str, kinds: &Kinds, allowed: &[&Value]) -> Option<Value> {
    if kinds.any {
        return None;
    }
    if kinds.string {
        // A string the schema takes stays; one its enumeration lists in another case is
        // that value, when exactly one is (`"Celsius"` → `"celsius"`).
        if allowed.iter().any(|listed| listed.as_str() == Some(text)) {
            return None;
        }
        let mut listed = allowed.iter().filter(|listed| {
            listed
                .as_str()
                .is_some_and(|l| l.eq_ignore_ascii_case(text))
        });
        return match (listed.next(), listed.next()) {
            (Some(only), None) => Some((*only).clone()),
            _ => None,
        };
    }
    // serde_json would skip the whitespace; here it makes the text ambiguous.
    if text.trim() != text {
        return None;
    }
    // A capitalised literal is Python's (`"True"`), and means the boolean as much.
    if kinds.boolean {
        if text.eq_ignore_ascii_case("true") {
            return Some(Value::Bool(true));
        }
        if text.eq_ignore_ascii_case("false") {
            return Some(Value::Bool(false));
        }
    }
    // Digits with leading zeros (`"07"`, `"000858"`) where only a number is taken: a
    // zero-padded number, since a code the schema would have asked as a string.
    let digits = text.strip_prefix('-').unwrap_or(text);
    if (kinds.integer || kinds.number)
        && digits.len() > 1
        && digits.starts_with('0')
        && digits.bytes().all(|b| b.is_ascii_digit())
    {
        return text.parse::<i64>().ok().map(Value::from);
    }
    // The JSON grammar rejects `+`, `.5`, `NaN` and capitalised literals, and serde_json
    // numbers beyond `f64`.
    match serde_json::from_str::<Value>(text).ok()? {
        Value::Number(number) if kinds.number => Some(Value::Number(number)),
        Value::Number(number) if kinds.integer => integral(&number),
        // An array or object encoded once more as JSON text (`"[\"ana\", \"raj\"]"`).
        value @ Value::Array(_) if kinds.array => Some(value),
        value @ Value::Object(_) if kinds.object => Some(value),
        _ => None,
    }
}

/// `number` as an integer, when it is exactly one that `i64` or `u64` holds.
fn integral(number: &Number) -> Option<Value> {
    if number.is_i64() || number.is_u64() {
        return Some(Value::Number(number.clone()));
    }
    // A fraction or an exponent was written (`12.0`, `1e3`), or the digits overflowed 64
    // bits and were rounded to a double. Only below 2^53 is the double the number written.
    const EXACT: f64 = 9_007_199_254_740_992.0;
    let float = number
        .as_f64()
        .filter(|f| f.fract() == 0.0 && f.abs() < EXACT)?;
    Some(Value::from(float as i64))
}

/// The JSON types a schema admits, gathered through references and alternatives.
#[derive(Default)]
struct Kinds {
    null: bool,
    boolean: bool,
    integer: bool,
    number: bool,
    string: bool,
    array: bool,
    object: bool,
    /// The schema does not say: any JSON value.
    any: bool,
}

impl Kinds {
    fn add(&mut self, kind: &str) {
        match kind {
            "null" => self.null = true,
            "boolean" => self.boolean = true,
            "integer" => self.integer = true,
            "number" => self.number = true,
            "string" => self.string = true,
            "array" => self.array = true,
            "object" => self.object = true,
            _ => self.any = true,
        }
    }

    /// Whether the JSON type `kind` is among these.
    fn admits(&self, kind: &str) -> bool {
        match kind {
            "null" => self.null,
            "boolean" => self.boolean,
            "integer" => self.integer || self.number,
            "number" => self.number,
            "string" => self.string,
            "array" => self.array,
            "object" => self.object,
            _ => self.any,
        }
    }
}

fn collect_kinds<'s>(
    root: &'s Value,
    schema: &'s Value,
    policy: &CoercionPolicy,
    depth: usize,
    kinds: &mut Kinds,
    allowed: &mut Vec<&'s Value>,
) {
    if depth > policy.max_depth {
        return;
    }
    let Some(object) = schema.as_object() else {
        if schema == &Value::Bool(true) {
            kinds.any = true;
        }
        return;
    };
    if let Some(target) = referenced(root, schema) {
        collect_kinds(root, target, policy, depth + 1, kinds, allowed);
        return;
    }
    let mut said = false;
    match object.get("type") {
        Some(Value::String(kind)) => {
            kinds.add(kind);
            said = true;
        }
        Some(Value::Array(list)) => {
            list.iter()
                .filter_map(Value::as_str)
                .for_each(|k| kinds.add(k));
            said = true;
        }
        _ => {}
    }
    let constants: Vec<&Value> = match (object.get("const"), object.get("enum")) {
        (Some(constant), _) => vec![constant],
        (None, Some(Value::Array(values))) => values.iter().collect(),
        _ => Vec::new(),
    };
    if !constants.is_empty() {
        if !said {
            for constant in &constants {
                kinds.add(json_type(constant));
            }
            said = true;
        }
        allowed.extend(constants);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(alternatives)) = object.get(key) {
            for alternative in alternatives {
                collect_kinds(root, alternative, policy, depth + 1, kinds, allowed);
            }
            said = true;
        }
    }
    if !said {
        if object.contains_key("properties") {
            kinds.object = true;
        } else if object.contains_key("items") {
            kinds.array = true;
        } else {
            kinds.any = true;
        }
    }
}
