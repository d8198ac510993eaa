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
/// and numbers where they want a string (`"zip": 94107` is `"94107"`), at any depth inside
/// objects and arrays: models write these all the time, and the value they meant is not
/// in doubt. Call it before [`validate_arguments`](super::validate_arguments),
/// so what is recorded and executed is the value read.
///
/// Only unambiguous text is read, by the rules written once at
/// [`TextReading::JsonString`](schema::TextReading::JsonString): `"12abc"`, `" 12"`,
/// `"1e999"`, `"yes"` and `"2.5"` for an integer stay strings, and validation names them as
/// before. Arguments the tool does not have, parameters without
/// a schema (strings, by the standard) and arguments that are not an object are left alone.
///
/// An optional argument given as `null` whose schema does not admit null is removed: it
/// means "not given" (`days=None` in a Python-style call, or a model used to filling every
/// field with `null`), as [`validate_arguments`](super::validate_arguments) counts it, and a
/// tool behind the call (an MCP server, a REST API) should not receive a value its own
/// schema refuses. Where the schema admits null (`"type": ["integer", "null"]`) the null is
/// kept: it may mean "clear this field".
///
/// A required argument left out whose schema allows one value only (`const`, or an `enum`
/// of one: EC2's `Action: DescribeInstances` and `Version: 2016-11-15` on every operation)
/// is filled with that value: there is nothing to choose, and a model that leaves it out
/// would only be told to write it.
///
/// ```
/// use mcs_core::{Tool, ToolParameter};
/// use serde_json::json;
///
/// let days = ToolParameter::new("days", "How many days.").required(false);
/// let note = ToolParameter::new("note", "A note, or null to clear it.").required(false);
/// let tool = Tool::new("get_weather", "The forecast.")
///     .with_parameter(ToolParameter::new("city", "A city."))
///     .with_parameter(days.with_schema(json!({"type": "integer"})))
///     .with_parameter(note.with_schema(json!({"type": ["string", "null"]})));
/// let mut arguments = json!({"city": "Kyiv", "days": null, "note": null});
/// mcs_core::validate::coerce_arguments(&tool, &mut arguments);
/// assert_eq!(arguments, json!({"city": "Kyiv", "note": null}));
/// let mut arguments = json!({"city": "Kyiv", "days": "3"});
/// mcs_core::validate::coerce_arguments(&tool, &mut arguments);
/// assert_eq!(arguments, json!({"city": "Kyiv", "days": 3}));
///
/// let version = ToolParameter::new("Version", "").with_schema(json!({"enum": ["2016-11-15"]}));
/// let mut arguments = json!({"city": "Kyiv"});
/// mcs_core::validate::coerce_arguments(&tool.with_parameter(version), &mut arguments);
/// assert_eq!(arguments, json!({"city": "Kyiv", "Version": "2016-11-15"}));
/// ```
pub fn coerce_arguments(tool: &Tool, arguments: &mut Value) {
    let Value::Object(given) = arguments else {
        return;
    };
    for parameter in tool.parameters() {
        let Some(schema) = parameter.resolved_schema() else {
            continue;
        };
        match given.get_mut(&parameter.name) {
            // The schema admits null when the text `null` reads as null by it.
            Some(Value::Null)
                if !parameter.required
                    && !schema::coerce("null", &schema, &CoercionPolicy::TEXT).is_null() =>
            {
                given.remove(&parameter.name);
            }
            Some(value) => schema::coerce_value(value, &schema, &CoercionPolicy::JSON_STRING),
            None if parameter.required => {
                if let Some(only) = schema::only_value(&schema) {
                    given.insert(parameter.name.clone(), only.clone());
                }
            }
            None => {}
        }
    }
}
