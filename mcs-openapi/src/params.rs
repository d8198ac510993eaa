//! Parameters: gathered from the path item and the operation, merged, and turned into
//! [`Parameter`] rows and argument schemas.

use serde_json::{Map, Value, json};

use super::error::OpenApiError;
use super::names::cap_text;
use super::reader::Reader;
use super::schema::SchemaBuilder;
use super::source::Loc;
use mcs_rest::{Location, Parameter, Style};

/// Where a parameter goes, including Swagger 2.0's two body locations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ParamIn {
    /// Path, query, header or cookie.
    Wire(Location),
    /// Swagger 2.0 `in: body`.
    Body,
    /// Swagger 2.0 `in: formData`.
    FormData,
}

/// One declared parameter, its reference resolved.
pub(crate) struct ParamSpec<'a> {
    pub name: String,
    pub location: ParamIn,
    pub map: &'a Map<String, Value>,
    pub loc: Loc,
    /// The `description` written beside the parameter's `$ref`, which in OpenAPI 3.1
    /// overrides the referenced parameter's.
    pub description: Option<&'a Value>,
}

/// Headers that are not parameters: those OpenAPI says to ignore (set from the media types
/// and the security schemes), and those HTTP sets from the message itself (its length, its
/// framing, the connection). A value given for one of the latter would contradict the
/// message sent: Vercel declares `Content-Length` a required header of an upload, and a
/// `Content-Length: 1` before a longer body leaves the server waiting.
const IGNORED_HEADERS: [&str; 11] = [
    "accept",
    "content-type",
    "authorization",
    "content-length",
    "transfer-encoding",
    "connection",
    "keep-alive",
    "host",
    "te",
    "trailer",
    "upgrade",
];

/// The parameters of an operation: the path item's, then the operation's, one per
/// (name, location) with the operation's definition winning.
pub(crate) fn collect<'a>(
    reader: &Reader<'a>,
    lists: [(Option<&'a Value>, Loc); 2],
) -> Result<Vec<ParamSpec<'a>>, OpenApiError> {
    let mut specs: Vec<ParamSpec<'a>> = Vec::new();
    for (list, list_loc) in lists {
        let Some(list) = list else { continue };
        let Value::Array(items) = list else {
            return Err(reader
                .sources
                .error(&list_loc, "`parameters` is not a list"));
        };
        for (i, item) in items.iter().enumerate() {
            let (loc, value) = reader.deref(item, &list_loc.index(i))?;
            let Some(map) = value.as_object() else {
                return Err(reader.sources.error(&loc, "a parameter is not an object"));
            };
            let name = match map.get("name").and_then(Value::as_str) {
                Some(name) if !name.is_empty() => name.to_owned(),
                _ => return Err(reader.sources.error(&loc, "a parameter has no `name`")),
            };
            let location = match map.get("in").and_then(Value::as_str) {
                Some("path") => ParamIn::Wire(Location::Path),
                Some("query") => ParamIn::Wire(Location::Query),
                Some("header") => ParamIn::Wire(Location::Header),
                Some("cookie") => ParamIn::Wire(Location::Cookie),
                Some("body") if reader.is_swagger() => ParamIn::Body,
                Some("formData") if reader.is_swagger() => ParamIn::FormData,
                Some(other) => {
                    return Err(reader.sources.error(
                        &loc.child("in"),
                        format!("parameter `{name}` has an unknown location `{other}`"),
                    ));
                }
                None => {
                    return Err(reader
                        .sources
                        .error(&loc, format!("parameter `{name}` has no `in`")));
                }
            };
            if location == ParamIn::Wire(Location::Header)
                && IGNORED_HEADERS.iter().any(|h| name.eq_ignore_ascii_case(h))
            {
                continue;
            }
            let description = reader
                .ref_siblings_apply()
                .then(|| item.get("$ref").and(item.get("description")))
                .flatten();
            let spec = ParamSpec {
                name,
                location,
                map,
                loc,
                description,
            };
            match specs
                .iter_mut()
                .find(|s| s.name == spec.name && s.location == spec.location)
            {
                Some(existing) => *existing = spec,
                None => specs.push(spec),
            }
        }
    }
    Ok(specs)
}

/// The wire row of a path, query, header or cookie parameter (its argument still unset).
pub(crate) fn row(reader: &Reader<'_>, spec: &ParamSpec<'_>, location: Location) -> Parameter {
    let map = spec.map;
    let (style, explode) = if reader.is_swagger() {
        swagger_style(map, location)
    } else {
        let style = map
            .get("style")
            .and_then(Value::as_str)
            .and_then(parse_style)
            .unwrap_or(location.default_style());
        let explode = map
            .get("explode")
            .and_then(Value::as_bool)
            .unwrap_or(style == Style::Form);
        (style, explode)
    };
    let required =
        location == Location::Path || map.get("required").and_then(Value::as_bool) == Some(true);
    let allow_reserved = location == Location::Query
        && map.get("allowReserved").and_then(Value::as_bool) == Some(true);
    Parameter {
        argument: spec.name.clone().into(),
        name: spec.name.clone().into(),
        location,
        style,
        explode,
        allow_reserved,
        required,
    }
}

fn parse_style(style: &str) -> Option<Style> {
    Some(match style {
        "simple" => Style::Simple,
        "label" => Style::Label,
        "matrix" => Style::Matrix,
        "form" => Style::Form,
        "spaceDelimited" => Style::SpaceDelimited,
        "pipeDelimited" => Style::PipeDelimited,
        "deepObject" => Style::DeepObject,
        _ => return None,
    })
}

/// Swagger 2.0's `collectionFormat`, as the OpenAPI 3 style and explode it stands for.
/// Swagger allows each format in every location (a path's `ssv` is `1%202`), so the
/// delimited styles are read as such wherever they are; `tsv`, which OpenAPI 3 lacks, is
/// [`Style::TabDelimited`].
fn swagger_style(map: &Map<String, Value>, location: Location) -> (Style, bool) {
    let is_array = map.get("type").and_then(Value::as_str) == Some("array");
    let format = map
        .get("collectionFormat")
        .and_then(Value::as_str)
        .unwrap_or("csv");
    let plain = location.default_style();
    if !is_array {
        return (plain, plain == Style::Form);
    }
    match format {
        "ssv" => (Style::SpaceDelimited, false),
        "pipes" => (Style::PipeDelimited, false),
        "tsv" => (Style::TabDelimited, false),
        "multi" => (Style::Form, true),
        _ => (plain, false),
    }
}

/// The keywords of a Swagger 2.0 non-body parameter that describe its value.
const SWAGGER_VALUE_KEYWORDS: &[&str] = &[
    "type",
    "format",
    "items",
    "enum",
    "default",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "multipleOf",
    "x-nullable",
];

/// The schema of a parameter's argument, the parameter's description in front of the
/// schema's own.
pub(crate) fn schema(
    reader: &Reader<'_>,
    builder: &mut SchemaBuilder<'_>,
    spec: &ParamSpec<'_>,
) -> Result<Value, OpenApiError> {
    let map = spec.map;
    let converted = if reader.is_swagger() && spec.location != ParamIn::Body {
        let value_keys: Map<String, Value> = map
            .iter()
            .filter(|(key, _)| SWAGGER_VALUE_KEYWORDS.contains(&key.as_str()))
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        if value_keys.contains_key("type") {
            builder.convert(&Value::Object(value_keys), &spec.loc)?
        } else {
            json!({"type": "string"})
        }
    } else if let Some(schema) = map.get("schema") {
        builder.convert(schema, &spec.loc.child("schema"))?
    } else if let Some((media, media_value)) = map
        .get("content")
        .and_then(Value::as_object)
        .and_then(|c| c.iter().next())
    {
        match media_value.get("schema") {
            Some(schema) => builder.convert(
                schema,
                &spec.loc.child("content").child(media).child("schema"),
            )?,
            None => json!({}),
        }
    } else {
        json!({"type": "string"})
    };
    let described = describe(
        converted,
        spec.description.or_else(|| map.get("description")),
        reader.options.max_description_chars,
    );
    Ok(if reader.options.keep_examples {
        match map.get("example") {
            Some(example) => add_example(described, example),
            None => described,
        }
    } else {
        described
    })
}

/// `schema` with `description` (capped) put in front of the schema's own description.
pub(crate) fn describe(schema: Value, description: Option<&Value>, max: usize) -> Value {
    let Some(text) = description
        .and_then(Value::as_str)
        .and_then(|t| cap_text(t, max))
    else {
        return schema;
    };
    match schema {
        Value::Object(mut map) => {
            let merged = match map.get("description").and_then(Value::as_str) {
                Some(own) if own == text => text,
                Some(own) => format!("{text}\n{own}"),
                None => text,
            };
            map.insert("description".into(), Value::String(merged));
            Value::Object(map)
        }
        Value::Bool(true) => json!({ "description": text }),
        other => other,
    }
}

fn add_example(schema: Value, example: &Value) -> Value {
    match schema {
        Value::Object(mut map) => {
            if !map.contains_key("examples") {
                map.insert("examples".into(), json!([example]));
            }
            Value::Object(map)
        }
        other => other,
    }
}

/// The `{placeholders}` of a path template, in order.
pub(crate) fn placeholders(path: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        // `{` and `}` are ASCII, so the positions next to them are character boundaries.
        let after = rest.get(open + 1..).unwrap_or("");
        let Some(close) = after.find('}') else { break };
        let name = after.get(..close).unwrap_or("");
        if !name.is_empty() && !out.iter().any(|seen: &String| seen == name) {
            out.push(name.to_owned());
        }
        rest = after.get(close + 1..).unwrap_or("");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_found_once_each() {
        assert_eq!(placeholders("/a/{x}/b/{y}.{x}"), ["x", "y"]);
        assert_eq!(placeholders("/a/{unclosed"), Vec::<String>::new());
        assert_eq!(placeholders("/{}"), Vec::<String>::new());
    }
}
