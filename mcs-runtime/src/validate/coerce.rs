//! Reading argument values that arrive as text, by the rules of [`schema::coerce`].

use serde_json::Value;

use crate::schema::{self, CoercionPolicy};

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
/// schema is its own root). This is [`schema::coerce`] with [`CoercionPolicy::TEXT`].
pub fn coerce_text(value: &str, schema: &Value) -> Value {
    schema::coerce(value, schema, &CoercionPolicy::TEXT)
}
