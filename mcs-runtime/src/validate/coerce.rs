//! Reading argument values that arrive as text.

use serde_json::{Number, Value};

use super::MAX_DEPTH;
use crate::schema;

/// Reads an argument value that arrived as text (XML-like call formats carry every value as
/// text) as the JSON value `schema` expects.
///
/// In order: a value the schema enumerates (`enum`/`const`), matched exactly and then, for
/// strings, ignoring case (`"Metric"` → `"metric"`); `null`/`None` where null is allowed;
/// `true`/`false` in any case where a boolean is; an integer (`"3.0"` → `3`); a number; JSON
/// text where an object or array is (or where the schema accepts anything); and otherwise the
/// text itself as a string, untouched. Readings other than a string win when the schema
/// admits both. Surrounding whitespace is ignored for every reading except the string.
///
/// A value that fits no reading stays a string, so validation afterwards names what was
/// expected and shows what came. `$ref`s resolve against `schema` itself (a parameter's
/// schema is its own root).
pub fn coerce_text(value: &str, schema: &Value) -> Value {
    let mut kinds = Kinds::default();
    let mut allowed = Vec::new();
    collect_kinds(schema, schema, &mut kinds, &mut allowed, 0);
    let trimmed = value.trim();

    if let Some(found) = allowed
        .iter()
        .find(|candidate| match candidate {
            Value::String(text) => text == value || text == trimmed,
            other => other.to_string() == trimmed,
        })
        .or_else(|| {
            allowed.iter().find(|candidate| {
                candidate
                    .as_str()
                    .is_some_and(|text| text.eq_ignore_ascii_case(trimmed))
            })
        })
    {
        return (*found).clone();
    }
    if kinds.null
        && (trimmed == "null" || trimmed == "None" || (trimmed.is_empty() && !kinds.string))
    {
        return Value::Null;
    }
    if kinds.boolean {
        if trimmed.eq_ignore_ascii_case("true") {
            return Value::Bool(true);
        }
        if trimmed.eq_ignore_ascii_case("false") {
            return Value::Bool(false);
        }
    }
    if kinds.integer || kinds.number {
        if let Ok(integer) = trimmed.parse::<i64>() {
            return Value::from(integer);
        }
        if let Ok(integer) = trimmed.parse::<u64>() {
            return Value::from(integer);
        }
        if let Some(float) = trimmed.parse::<f64>().ok().filter(|f| f.is_finite()) {
            // Whole numbers read as integers where integers are wanted (`"3.0"` → `3`);
            // anything else stays the number it is, for validation to judge.
            const EXACT: f64 = 9_007_199_254_740_992.0;
            if kinds.integer && float.fract() == 0.0 && float.abs() < EXACT {
                return Value::from(float as i64);
            }
            if let Some(number) = Number::from_f64(float) {
                return Value::Number(number);
            }
        }
    }
    if (kinds.object || kinds.array || kinds.any)
        && let Ok(parsed) = serde_json::from_str::<Value>(trimmed)
    {
        let fits =
            kinds.any || (kinds.object && parsed.is_object()) || (kinds.array && parsed.is_array());
        if fits {
            return parsed;
        }
    }
    Value::String(value.to_owned())
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
}

fn collect_kinds<'s>(
    root: &'s Value,
    schema: &'s Value,
    kinds: &mut Kinds,
    allowed: &mut Vec<&'s Value>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let Some(object) = schema.as_object() else {
        if schema == &Value::Bool(true) {
            kinds.any = true;
        }
        return;
    };
    if let Some(target) = schema::referenced(root, schema) {
        collect_kinds(root, target, kinds, allowed, depth + 1);
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
                kinds.add(schema::json_type(constant));
            }
            said = true;
        }
        allowed.extend(constants);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(alternatives)) = object.get(key) {
            for alternative in alternatives {
                collect_kinds(root, alternative, kinds, allowed, depth + 1);
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
