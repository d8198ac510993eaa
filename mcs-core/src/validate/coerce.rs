//! Reading argument values that arrive as text, by the rules of [`schema::coerce`].

use serde_json::Value;

use crate::schema::{self, CoercionPolicy};
use crate::types::Tool;

/// Reads an argument value that arrived as text (XML-like call formats carry every value as
/// text) as the JSON value `schema` expects, by the rules written once at
/// [`TextReading::Text`](schema::TextReading::Text). A value that fits no reading stays a
/// string, so validation afterwards names what was expected and shows what came. `$ref`s
/// resolve against `schema` itself (a parameter's schema is its own root). This is
/// [`schema::coerce`] with [`CoercionPolicy::TEXT`].
pub fn coerce_text(value: &str, schema: &Value) -> Value {
    schema::coerce(value, schema, &CoercionPolicy::TEXT)
}

/// Reads, in place, the arguments a model wrote as JSON strings where `tool`'s schemas want
/// a number, an integer or a boolean (`"days": "12"`, `"ratio": "2.5"`, `"on": "true"`),
/// at any depth inside objects and arrays: models write these all the time, and the value
/// they meant is not in doubt. Call it before [`validate_arguments`](super::validate_arguments),
/// so what is recorded and executed is the value read.
///
/// Only unambiguous text is read, by the rules written once at
/// [`TextReading::JsonString`](schema::TextReading::JsonString): `"12abc"`, `" 12"`, `"01"`,
/// `"1e999"`, `"yes"` and `"2.5"` for an integer stay strings, and validation names them as
/// before. Arguments the tool does not have, parameters without
/// a schema (strings, by the standard) and arguments that are not an object are left alone.
pub fn coerce_arguments(tool: &Tool, arguments: &mut Value) {
    let Value::Object(given) = arguments else {
        return;
    };
    for parameter in tool.parameters() {
        if let (Some(schema), Some(value)) =
            (parameter.resolved_schema(), given.get_mut(&parameter.name))
        {
            schema::coerce_value(value, &schema, &CoercionPolicy::JSON_STRING);
        }
    }
}
