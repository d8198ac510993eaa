//! A tool's description made to fit what a model is asked to read at once
//! ([`mcs_tool_within`](super::mcs_tool_within)).
//!
//! Most tools describe themselves in a few hundred tokens. A few real ones take tens of
//! thousands: a body of 700 settings (DocuSign's `PUT /settings`), a font argument that
//! lists 960 font names, a `pattern` of 10,000 characters, 400 filters of one listing.
//! [`fit`] shortens such a description in steps, each only when the previous one was not
//! enough, from what a model misses least to what it misses most:
//!
//! 1. examples go, a `pattern` longer than [`LONG_PATTERN`] characters goes, and the tool's
//!    own description is cut to [`LONG_TEXT`] characters;
//! 2. a list of more than [`ENUM_SHOWN`] values keeps its first ones, and says how many it
//!    has;
//! 3. descriptions are shortened as [`Tool::input_schema`](crate::Tool::input_schema)
//!    shortens them for a schema over its budget (below the arguments first, then the
//!    arguments' own);
//! 4. the fields of an argument are named, not described: `Its fields: a, b, c.`;
//! 5. the optional arguments lose their descriptions;
//! 6. optional arguments, then required ones, are named in the description instead of
//!    described, from the last, until the rest fits; when even their names are too many,
//!    as many as fit, and how many more there are.

use serde_json::{Map, Value, json};

use crate::definitions::{SCHEMA_KEYWORDS, SCHEMA_LIST_KEYWORDS, SCHEMA_MAP_KEYWORDS};
use crate::types::{cut_text, serialized_len, shorten_descriptions};

/// A `pattern` longer than this is left out (step 1).
const LONG_PATTERN: usize = 100;
/// The tool's description is cut to this many characters (step 1).
const LONG_TEXT: usize = 1_200;
/// How many values of a long list are shown (step 2).
const ENUM_SHOWN: usize = 30;

/// What a shortened description says of itself.
const NOTE: &str = "This description was shortened to fit: long lists, examples, nested fields \
                    or descriptions are left out. Every argument is still checked when the tool \
                    is called, and an error says what was wrong.";

/// `answer` (`{name, description, parameters}`) within `budget` characters of JSON, when it
/// can be; unchanged when it already is.
pub(crate) fn fit(mut answer: Value, budget: usize) -> Value {
    let steps: [fn(&mut Value, usize); 5] = [
        trim,
        shorten_lists,
        shorten_texts,
        name_fields,
        quiet_optional,
    ];
    if serialized_len(&answer) <= budget {
        return answer;
    }
    answer["note"] = json!(NOTE);
    for step in steps {
        step(&mut answer, budget);
        if serialized_len(&answer) <= budget {
            return answer;
        }
    }
    name_arguments(&mut answer, budget);
    answer
}

/// Calls `f` on every schema under `schema`, with its depth: the tool's arguments are at 1,
/// their fields (and shared definitions) at 2 and below. What applies to the same value
/// (alternatives, items, `not`) is at its holder's depth.
fn each_schema(
    schema: &mut Value,
    depth: usize,
    f: &mut dyn FnMut(&mut Map<String, Value>, usize),
) {
    // Deeper than any schema read from JSON (serde_json stops at 128 levels).
    const MAX_DEPTH: usize = 128;
    let Value::Object(object) = schema else {
        return;
    };
    if depth > MAX_DEPTH {
        return;
    }
    f(object, depth);
    for (key, value) in object.iter_mut() {
        let key = key.as_str();
        if SCHEMA_MAP_KEYWORDS.contains(&key) {
            if let Value::Object(children) = value {
                for child in children.values_mut() {
                    each_schema(child, depth + 1, f);
                }
            }
        } else if SCHEMA_KEYWORDS.contains(&key) {
            each_schema(value, depth, f);
        } else if SCHEMA_LIST_KEYWORDS.contains(&key)
            && let Value::Array(children) = value
        {
            for child in children {
                each_schema(child, depth, f);
            }
        }
    }
}

fn parameters(answer: &mut Value) -> &mut Value {
    &mut answer["parameters"]
}

/// Step 1: examples and long patterns out, the tool's description cut.
fn trim(answer: &mut Value, _: usize) {
    if let Some(Value::String(text)) = answer.get_mut("description")
        && text.chars().count() > LONG_TEXT
    {
        *text = cut_text(text, LONG_TEXT, true);
    }
    each_schema(parameters(answer), 0, &mut |object, _| {
        object.remove("examples");
        object.remove("example");
        if object
            .get("pattern")
            .and_then(Value::as_str)
            .is_some_and(|pattern| pattern.len() > LONG_PATTERN)
        {
            object.remove("pattern");
        }
    });
}

/// Step 2: long lists of values show their first ones.
fn shorten_lists(answer: &mut Value, _: usize) {
    each_schema(parameters(answer), 0, &mut |object, _| {
        let Some(Value::Array(values)) = object.get_mut("enum") else {
            return;
        };
        if values.len() <= ENUM_SHOWN {
            return;
        }
        let total = values.len();
        values.truncate(ENUM_SHOWN);
        append(
            object,
            &format!("One of {total} values; the first {ENUM_SHOWN} are listed."),
        );
    });
}

/// Step 3: descriptions shortened as an arguments schema over its budget has them, within
/// what the rest of the answer leaves.
fn shorten_texts(answer: &mut Value, budget: usize) {
    let rest = serialized_len(answer).saturating_sub(serialized_len(&answer["parameters"]));
    shorten_descriptions(parameters(answer), budget.saturating_sub(rest));
}

/// Step 4: an argument's fields named, not described (and shared definitions dropped, as
/// nothing is described below the arguments any more).
fn name_fields(answer: &mut Value, _: usize) {
    let schema = parameters(answer);
    if let Value::Object(root) = schema {
        root.remove("$defs");
        root.remove("definitions");
    }
    each_schema(schema, 0, &mut |object, depth| {
        if depth == 1 {
            collapse(object);
        }
    });
}

/// An argument's structure reduced to its type and the names of its fields.
fn collapse(object: &mut Map<String, Value>) {
    let mut names: Vec<String> = Vec::new();
    let mut add = |properties: Option<&Value>| {
        if let Some(Value::Object(properties)) = properties {
            for name in properties.keys() {
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
        }
    };
    add(object.get("properties"));
    add(object
        .get("items")
        .and_then(|items| items.get("properties")));
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(alternatives)) = object.get(key) {
            for alternative in alternatives {
                add(alternative.get("properties"));
            }
        }
    }
    let referenced = object.contains_key("$ref");
    for key in ["properties", "required", "patternProperties", "$ref"] {
        object.remove(key);
    }
    // What stays says of what type the argument is: its items', its map's members' and its
    // alternatives' types, without their fields.
    for key in ["items", "additionalProperties"] {
        if let Some(part) = object.get_mut(key) {
            type_only(part);
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(alternatives)) = object.get_mut(key) {
            alternatives.iter_mut().for_each(type_only);
        }
    }
    if !names.is_empty() {
        append(object, &format!("Its fields: {}.", names.join(", ")));
    } else if referenced {
        append(object, "Its fields are not listed here.");
    }
}

/// `schema` reduced to its `type` when it describes fields (a boolean schema, or one
/// without fields, stays).
fn type_only(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    if [
        "properties",
        "$ref",
        "items",
        "additionalProperties",
        "anyOf",
        "oneOf",
        "allOf",
    ]
    .iter()
    .any(|key| object.contains_key(*key))
    {
        let mut kept = Map::new();
        if let Some(kind) = object.get("type") {
            kept.insert("type".to_owned(), kind.clone());
        }
        *object = kept;
    }
}

/// Step 5: optional arguments lose their descriptions.
fn quiet_optional(answer: &mut Value, _: usize) {
    let required = required(answer);
    if let Some(Value::Object(properties)) = parameters(answer).get_mut("properties") {
        for (name, schema) in properties.iter_mut() {
            if !required.contains(name)
                && let Value::Object(object) = schema
            {
                object.remove("description");
            }
        }
    }
}

fn required(answer: &Value) -> Vec<String> {
    answer["parameters"]["required"]
        .as_array()
        .map(|names| {
            names
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Step 6: arguments named in the parameters' description instead of described, optional
/// ones first, from the last, until the rest fits; when even the names do not fit, as many
/// as fit, with how many more there are.
fn name_arguments(answer: &mut Value, budget: usize) {
    let original = answer.clone();
    let required = required(answer);
    let Some(Value::Object(properties)) = original["parameters"].get("properties") else {
        return;
    };
    let (must, may): (Vec<&String>, Vec<&String>) =
        properties.keys().partition(|name| required.contains(name));
    let order: Vec<&String> = may
        .into_iter()
        .rev()
        .chain(must.into_iter().rev())
        .collect();
    // A first guess: each one named saves its schema and costs its name once more.
    let mut excess = serialized_len(answer).saturating_sub(budget);
    let mut count = 0;
    for name in &order {
        if excess == 0 {
            break;
        }
        excess = excess.saturating_sub(properties.get(*name).map_or(0, serialized_len) + 2);
        count += 1;
    }
    loop {
        *answer = named(&original, &order[..count], &required, None);
        if serialized_len(answer) <= budget || count == order.len() {
            break;
        }
        count += ((order.len() - count) / 8).max(1);
    }
    if serialized_len(answer) <= budget {
        return;
    }
    // The names alone are too many: as many as fit, found by halving.
    let (mut fits, mut over) = (0, count);
    while over - fits > 1 {
        let middle = (fits + over) / 2;
        if serialized_len(&named(&original, &order[..count], &required, Some(middle))) <= budget {
            fits = middle;
        } else {
            over = middle;
        }
    }
    *answer = named(&original, &order[..count], &required, Some(fits));
}

/// `original` with `names` taken out of its arguments and named in the parameters'
/// description instead, the first `shown` of them when not all.
fn named(original: &Value, names: &[&String], required: &[String], shown: Option<usize>) -> Value {
    let mut answer = original.clone();
    let schema = parameters(&mut answer);
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        for name in names {
            properties.remove(*name);
        }
    }
    if let Some(Value::Array(list)) = schema.get_mut("required") {
        list.retain(|name| {
            name.as_str()
                .is_none_or(|name| !names.iter().any(|n| *n == name))
        });
    }
    let listed = &names[..shown.unwrap_or(names.len()).min(names.len())];
    let (must, may): (Vec<&str>, Vec<&str>) = listed
        .iter()
        .rev()
        .map(|name| name.as_str())
        .partition(|name| required.iter().any(|r| r == name));
    let mut text = String::from("Also takes, not described here:");
    if !must.is_empty() {
        text.push_str(&format!(" required {}", must.join(", ")));
        if !may.is_empty() {
            text.push(';');
        }
    }
    if !may.is_empty() {
        text.push_str(&format!(" optional {}", may.join(", ")));
    }
    text.push('.');
    if listed.len() < names.len() {
        text.push_str(&format!(" …and {} more.", names.len() - listed.len()));
    }
    if let Value::Object(root) = schema {
        root.insert("description".to_owned(), Value::String(text));
    }
    answer
}

/// Adds `sentence` to `object`'s description.
fn append(object: &mut Map<String, Value>, sentence: &str) {
    let text = match object.get("description").and_then(Value::as_str) {
        Some(text) if !text.is_empty() => format!("{} {sentence}", text.trim_end()),
        _ => sentence.to_owned(),
    };
    object.insert("description".to_owned(), Value::String(text));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(properties: Map<String, Value>, required: &[&str]) -> Value {
        json!({
            "name": "tool",
            "description": "Does a thing.",
            "parameters": {"type": "object", "properties": properties, "required": required},
        })
    }

    fn argument_names(answer: &Value) -> Vec<&str> {
        answer["parameters"]["properties"]
            .as_object()
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default()
    }

    #[test]
    fn a_description_that_fits_is_unchanged() {
        let mut properties = Map::new();
        properties.insert(
            "id".into(),
            json!({"type": "string", "description": "The id.", "examples": ["a1"]}),
        );
        let small = answer(properties, &["id"]);
        assert_eq!(fit(small.clone(), 20_000), small);
    }

    #[test]
    fn long_lists_and_patterns_go_first_and_every_argument_stays() {
        let fonts: Vec<String> = (0..960)
            .map(|i| format!("Font Family Number {i} Regular"))
            .collect();
        let mut properties = Map::new();
        properties.insert(
            "font".into(),
            json!({"type": "string", "description": "The font.", "enum": fonts}),
        );
        properties.insert(
            "marker".into(),
            json!({"type": "string", "pattern": format!("^({})$", "a|b|c|".repeat(2_000))}),
        );
        properties.insert("size".into(), json!({"type": "integer", "minimum": 1}));
        let fitted = fit(answer(properties, &[]), 20_000);
        assert!(serialized_len(&fitted) <= 20_000);
        assert_eq!(argument_names(&fitted), ["font", "marker", "size"]);
        let font = &fitted["parameters"]["properties"]["font"];
        assert_eq!(font["enum"].as_array().map(Vec::len), Some(ENUM_SHOWN));
        assert_eq!(font["enum"][0], "Font Family Number 0 Regular");
        assert!(
            font["description"]
                .as_str()
                .unwrap()
                .contains("One of 960 values")
        );
        assert!(
            fitted["parameters"]["properties"]["marker"]
                .get("pattern")
                .is_none()
        );
        assert!(fitted["note"].as_str().unwrap().contains("shortened"));
    }

    #[test]
    fn a_body_of_hundreds_of_fields_names_them() {
        let mut fields = Map::new();
        for i in 0..700 {
            fields.insert(
                format!("setting{i}"),
                json!({"type": "string", "description": format!("Whether setting {i} is on for the account, and how it behaves.")}),
            );
        }
        let mut properties = Map::new();
        properties.insert(
            "accountId".into(),
            json!({"type": "string", "description": "The account."}),
        );
        properties.insert(
            "body".into(),
            json!({"type": "object", "description": "The settings.", "properties": fields}),
        );
        let fitted = fit(answer(properties, &["accountId", "body"]), 20_000);
        assert!(
            serialized_len(&fitted) <= 20_000,
            "{}",
            serialized_len(&fitted)
        );
        assert_eq!(argument_names(&fitted), ["accountId", "body"]);
        let body = &fitted["parameters"]["properties"]["body"];
        assert_eq!(body["type"], "object");
        let text = body["description"].as_str().unwrap();
        assert!(
            text.starts_with("The settings. Its fields: setting0, setting1"),
            "{text}"
        );
        assert!(text.contains("setting699"), "{text}");
    }

    #[test]
    fn hundreds_of_optional_arguments_are_named_and_the_required_kept() {
        let mut properties = Map::new();
        properties.insert(
            "project".into(),
            json!({"type": "string", "description": "The project to export."}),
        );
        for i in 0..400 {
            properties.insert(
                format!("filter_by_field_number_{i}__in"),
                json!({"type": "array", "items": {"type": "string"}, "description": format!("Multiple values may be separated by commas. Filter {i} of the export, matched exactly.")}),
            );
        }
        let fitted = fit(answer(properties, &["project"]), 20_000);
        assert!(
            serialized_len(&fitted) <= 20_000,
            "{}",
            serialized_len(&fitted)
        );
        let project = &fitted["parameters"]["properties"]["project"];
        assert_eq!(project["description"], "The project to export.");
        let names = argument_names(&fitted);
        assert!(names.contains(&"filter_by_field_number_0__in"));
        let text = fitted["parameters"]["description"].as_str().unwrap();
        assert!(
            text.starts_with("Also takes, not described here: optional"),
            "{text}"
        );
        assert!(text.contains("filter_by_field_number_399__in"), "{text}");
        // Every argument is either described or named.
        for i in 0..400 {
            let name = format!("filter_by_field_number_{i}__in");
            assert!(
                names.contains(&name.as_str()) || text.contains(&name),
                "{name}"
            );
        }
    }

    #[test]
    fn even_thousands_of_required_arguments_fit() {
        let mut properties = Map::new();
        let mut required = Vec::new();
        for i in 0..5_000 {
            properties.insert(
                format!("a_rather_long_argument_name_{i}"),
                json!({"type": "string"}),
            );
            required.push(format!("a_rather_long_argument_name_{i}"));
        }
        let required: Vec<&str> = required.iter().map(String::as_str).collect();
        let fitted = fit(answer(properties, &required), 20_000);
        assert!(
            serialized_len(&fitted) <= 20_000,
            "{}",
            serialized_len(&fitted)
        );
        assert!(
            fitted["parameters"]["description"]
                .as_str()
                .unwrap()
                .contains("more.")
        );
    }

    #[test]
    fn each_step_reaches_every_schema_without_panicking() {
        let hostile = json!({
            "name": "t",
            "description": "é".repeat(5_000),
            "parameters": {
                "type": "object",
                "properties": {
                    "a": {"anyOf": [true, {"properties": {"x": {"enum": (0..100).collect::<Vec<_>>()}}}]},
                    "b": {"$ref": "#/$defs/B", "description": 7},
                    "c": {"items": [1, 2], "prefixItems": [{"description": "ü".repeat(400)}]},
                    "d": "not a schema",
                },
                "required": "not a list",
                "$defs": {"B": {"properties": {"y": {"type": "string"}}}},
            },
        });
        for budget in [0, 100, 1_000, 5_000] {
            let _ = fit(hostile.clone(), budget);
        }
        // An argument whose fields are named keeps its alternatives' and items' types.
        let mut fields = Map::new();
        for i in 0..400 {
            fields.insert(format!("field_number_{i}"), json!({"type": "string", "description": "A field of the object, described at some length."}));
        }
        let mut properties = Map::new();
        properties.insert(
            "either".into(),
            json!({"anyOf": [{"type": "string"}, {"type": "object", "properties": fields.clone()}]}),
        );
        properties.insert(
            "many".into(),
            json!({"type": "array", "items": {"type": "object", "properties": fields}}),
        );
        let fitted = fit(answer(properties, &[]), 20_000);
        let shown = &fitted["parameters"]["properties"];
        assert_eq!(
            shown["either"]["anyOf"],
            json!([{"type": "string"}, {"type": "object"}])
        );
        assert_eq!(shown["many"]["items"], json!({"type": "object"}));
        assert!(
            shown["many"]["description"]
                .as_str()
                .unwrap()
                .contains("field_number_0")
        );
    }
}
