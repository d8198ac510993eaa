//! Turning the schemas generators emit into the self-contained, object-rooted schemas models
//! and providers accept.
//!
//! References are inlined (only recursive types keep `$ref`, with their definitions carried
//! along), generator noise such as `$schema` and `title` is dropped, and enums list their
//! values.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use super::describe::{json_type, plain};
use super::navigate::{
    SCHEMA_KEYWORDS, SCHEMA_LIST_KEYWORDS, SCHEMA_MAP_KEYWORDS, definition_name, escape_pointer,
};

/// Makes `schema` self-contained given the `definitions` its references point into.
///
/// Every `$ref` to a definition is replaced by the definition (keywords written next to
/// the reference win over the definition's). A reference that would recurse forever stays a
/// reference to `#/$defs/NAME`, and the definitions it needs are added under `$defs` at the
/// root of `schema`. Unresolvable references are left as they are.
pub fn normalize(schema: &mut Value, definitions: &Map<String, Value>) {
    let mut inliner = Inliner {
        definitions,
        stack: Vec::new(),
        recursive: BTreeSet::new(),
    };
    inliner.walk(schema);

    // Definitions a recursive type needs, themselves normalized, may name further ones.
    let mut kept = Map::new();
    let mut pending: Vec<String> = inliner.recursive.iter().cloned().collect();
    while let Some(name) = pending.pop() {
        if kept.contains_key(&name) {
            continue;
        }
        let Some(definition) = definitions.get(&name) else {
            continue;
        };
        let mut definition = definition.clone();
        let mut inliner = Inliner {
            definitions,
            stack: vec![name.clone()],
            recursive: BTreeSet::new(),
        };
        inliner.walk(&mut definition);
        pending.extend(
            inliner
                .recursive
                .into_iter()
                .filter(|n| !kept.contains_key(n)),
        );
        kept.insert(name, definition);
    }

    if let Value::Object(root) = schema {
        root.remove("$schema");
        root.remove("$defs");
        root.remove("definitions");
        if !kept.is_empty() {
            root.insert("$defs".to_owned(), Value::Object(kept));
        }
    }
}

struct Inliner<'d> {
    definitions: &'d Map<String, Value>,
    /// Definitions being inlined, outermost first: meeting one again means recursion.
    stack: Vec<String>,
    /// Definitions that must stay as references.
    recursive: BTreeSet<String>,
}

impl Inliner<'_> {
    fn walk(&mut self, schema: &mut Value) {
        let Value::Object(object) = schema else {
            return;
        };
        if let Some(name) = object
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(definition_name)
        {
            if self.stack.contains(&name) {
                self.recursive.insert(name.clone());
                object.insert(
                    "$ref".to_owned(),
                    Value::String(format!("#/$defs/{}", escape_pointer(&name))),
                );
            } else if let Some(definition) = self.definitions.get(&name) {
                let mut body = definition.clone();
                self.stack.push(name);
                self.walk(&mut body);
                self.stack.pop();
                object.remove("$ref");
                match body {
                    Value::Object(body) => {
                        for (key, value) in body {
                            match (key.as_str(), object.get(&key), &value) {
                                // Both say something: the use site first, then the type.
                                (
                                    "description",
                                    Some(Value::String(here)),
                                    Value::String(there),
                                ) if here.trim() != there.trim() => {
                                    let merged = format!("{}\n\n{}", here.trim_end(), there.trim());
                                    object.insert(key, Value::String(merged));
                                }
                                _ => {
                                    object.entry(key).or_insert(value);
                                }
                            }
                        }
                    }
                    Value::Bool(false) => {
                        object.insert("not".to_owned(), json!({}));
                    }
                    _ => {}
                }
                tidy(object);
                return;
            }
        }
        for (key, value) in object.iter_mut() {
            let key = key.as_str();
            if SCHEMA_KEYWORDS.contains(&key) {
                match value {
                    // Draft-07 tuple form: `items` as a list of schemas.
                    Value::Array(items) => items.iter_mut().for_each(|item| self.walk(item)),
                    value => self.walk(value),
                }
            } else if SCHEMA_LIST_KEYWORDS.contains(&key) {
                if let Value::Array(items) = value {
                    items.iter_mut().for_each(|item| self.walk(item));
                }
            } else if SCHEMA_MAP_KEYWORDS.contains(&key)
                && key != "$defs"
                && key != "definitions"
                && let Value::Object(map) = value
            {
                map.values_mut().for_each(|item| self.walk(item));
            }
        }
        tidy(object);
    }
}

/// Drops generator noise and lists enum values on one schema object.
fn tidy(object: &mut Map<String, Value>) {
    if object.get("title").is_some_and(Value::is_string) {
        object.remove("title");
    }
    object.remove("$schema");
    collapse_constant_alternatives(object);
}

/// `oneOf: [{const: "a", description}, {const: "b"}]` (how schemars writes an enum whose
/// variants have doc comments) becomes `enum: ["a", "b"]`, with the variants' docs listed in
/// the description: every provider understands `enum`, few take `oneOf` of constants.
fn collapse_constant_alternatives(object: &mut Map<String, Value>) {
    let key = if object.contains_key("oneOf") {
        "oneOf"
    } else {
        "anyOf"
    };
    let Some(Value::Array(alternatives)) = object.get(key) else {
        return;
    };
    let mut values = Vec::new();
    let mut notes = Vec::new();
    let mut types = BTreeSet::new();
    for alternative in alternatives {
        let Value::Object(alternative) = alternative else {
            return;
        };
        let allowed: &[&str] = &["const", "enum", "type", "description"];
        if alternative.keys().any(|k| !allowed.contains(&k.as_str())) {
            return;
        }
        let these: Vec<Value> = match (alternative.get("const"), alternative.get("enum")) {
            (Some(value), None) => vec![value.clone()],
            (None, Some(Value::Array(values))) => values.clone(),
            _ => return,
        };
        match alternative.get("type") {
            Some(Value::String(t)) => {
                types.insert(t.clone());
            }
            Some(_) => return,
            None => {
                for value in &these {
                    types.insert(json_type(value).to_owned());
                }
            }
        }
        if let Some(Value::String(note)) = alternative.get("description") {
            let shown: Vec<String> = these.iter().map(|v| format!("`{}`", plain(v))).collect();
            notes.push(format!("- {}: {}", shown.join(", "), note.trim()));
        }
        values.extend(these);
    }
    if values.is_empty() {
        return;
    }
    object.remove(key);
    if types.len() == 1 && !object.contains_key("type") {
        let only = types.into_iter().next().unwrap_or_default();
        object.insert("type".to_owned(), Value::String(only));
    }
    object.insert("enum".to_owned(), Value::Array(values));
    if !notes.is_empty() {
        let listing = notes.join("\n");
        let description = match object.get("description").and_then(Value::as_str) {
            Some(existing) if !existing.trim().is_empty() => {
                format!("{}\n{listing}", existing.trim_end())
            }
            _ => listing,
        };
        object.insert("description".to_owned(), Value::String(description));
    }
}
