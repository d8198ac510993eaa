//! What the provider rewrites (OpenAI strict mode, Gemini) share: keywords dropped as noise,
//! keywords a provider cannot take kept as notes in the description, and `allOf` folded.

use serde_json::{Map, Value};

use crate::schema::render_value;

/// Annotations that say nothing a model needs: dropped rather than noted.
pub(super) const NOISE: &[&str] = &[
    "$schema",
    "$id",
    "$comment",
    "$anchor",
    "title",
    "discriminator",
];

/// Adds `notes` to the schema's description, in parentheses after what it already says.
pub(super) fn add_notes(object: &mut Map<String, Value>, notes: &[String]) {
    if notes.is_empty() {
        return;
    }
    let notes = notes.join("; ");
    let description = match object.get("description").and_then(Value::as_str) {
        Some(existing) if !existing.trim().is_empty() => {
            format!("{} ({notes})", existing.trim_end())
        }
        _ => notes,
    };
    object.insert("description".to_owned(), Value::String(description));
}

/// A keyword the target cannot take, as a note for the description: `minLength: 3`.
pub(super) fn note(key: &str, value: &Value) -> String {
    format!("{key}: {}", render_value(value, 80))
}

/// Folds the schemas of an `allOf` into `object`: their properties and required names are
/// united, their descriptions joined, and any other keyword is taken where `object` lacks it.
/// `resolve` turns a `$ref` part into its definition; a part it cannot resolve, or that is
/// not a schema object, makes the merge fail (with the reason).
pub(super) fn merge_all_of(
    object: &mut Map<String, Value>,
    parts: Vec<Value>,
    resolve: impl Fn(&Value) -> Option<Value>,
) -> Result<(), String> {
    for part in parts {
        let part = if part.get("$ref").is_some() {
            resolve(&part).ok_or_else(|| "an allOf part is an unresolvable reference".to_owned())?
        } else {
            part
        };
        let Value::Object(part) = part else {
            return Err("an allOf part is not a schema object".to_owned());
        };
        for (key, value) in part {
            match (key.as_str(), object.get_mut(&key), value) {
                ("properties", Some(Value::Object(mine)), Value::Object(theirs)) => {
                    for (name, property) in theirs {
                        mine.entry(name).or_insert(property);
                    }
                }
                ("required", Some(Value::Array(mine)), Value::Array(theirs)) => {
                    for name in theirs {
                        if !mine.contains(&name) {
                            mine.push(name);
                        }
                    }
                }
                ("description", Some(Value::String(mine)), Value::String(theirs)) => {
                    if mine.trim() != theirs.trim() {
                        *mine = format!("{}\n\n{}", mine.trim_end(), theirs.trim());
                    }
                }
                (_, Some(_), _) => {}
                (_, None, value) => {
                    object.insert(key, value);
                }
            }
        }
    }
    Ok(())
}
