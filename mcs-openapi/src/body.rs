//! Request bodies: which media type is sent, how, and which arguments make it up.

use serde_json::{Map, Value, json};

use super::error::OpenApiError;
use super::keywords::{FILE_DESCRIPTION, file_schema};
use super::names::is_argument_key;
use super::params::{ParamIn, ParamSpec, describe, schema as param_schema};
use super::reader::Reader;
use super::schema::SchemaBuilder;
use super::source::Loc;
use mcs_rest::{BodyArgument, BodyEncoding, RequestBody};

/// A body before its arguments are named: the media type chosen and the schema of the
/// whole body.
pub(crate) struct BodyPlan {
    pub media_type: String,
    pub encoding: BodyEncoding,
    pub schema: Value,
    pub required: bool,
    pub description: Option<Value>,
}

/// Why an operation's body cannot be sent: the message lenient reading records.
fn unsupported(reader: &Reader<'_>, loc: &Loc, media: &str) -> OpenApiError {
    reader.sources.error(
        loc,
        format!("request body media type {media} is not supported"),
    )
}

/// How a media type would be sent, and its preference (lower wins), or `None` when this
/// reader cannot send it.
fn classify(media: &str) -> Option<(BodyEncoding, u8)> {
    let essence = media
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let (kind, subtype) = essence.split_once('/')?;
    let encoding = if essence == "application/json" {
        return Some((BodyEncoding::Json, 0));
    } else if essence == "*/*"
        || (subtype.contains("json") && matches!(kind, "application" | "text" | "*"))
    {
        return Some((BodyEncoding::Json, 1));
    } else if essence == "application/x-www-form-urlencoded" {
        (BodyEncoding::Form, 2)
    } else if essence == "multipart/form-data" {
        (BodyEncoding::Multipart, 3)
    } else if kind == "text" {
        (BodyEncoding::Text, 4)
    } else if is_binary(kind, subtype) {
        (BodyEncoding::Binary, 5)
    } else {
        return None;
    };
    Some(encoding)
}

fn is_binary(kind: &str, subtype: &str) -> bool {
    match kind {
        "image" | "audio" | "video" | "font" => true,
        "application" => {
            matches!(
                subtype,
                "octet-stream"
                    | "*"
                    | "pdf"
                    | "zip"
                    | "gzip"
                    | "x-gzip"
                    | "x-tar"
                    | "x-zip-compressed"
                    | "x-7z-compressed"
                    | "x-binary"
                    | "x-bzip2"
                    | "wasm"
            ) || (subtype.starts_with("vnd.") && !subtype.ends_with("+xml"))
        }
        _ => false,
    }
}

/// The `Content-Type` actually sent for the document's media type `media`: a wildcard
/// is replaced by a concrete type of its family.
fn wire_media_type(media: &str, encoding: BodyEncoding) -> String {
    if !media.contains('*') {
        return media.trim().to_owned();
    }
    match encoding {
        BodyEncoding::Json => "application/json",
        BodyEncoding::Text => "text/plain",
        _ => "application/octet-stream",
    }
    .to_owned()
}

/// The best media type of `candidates` (first wins among equals), or the error naming the
/// first one when none can be sent.
fn choose<'m>(
    reader: &Reader<'_>,
    loc: &Loc,
    candidates: impl Iterator<Item = &'m str> + Clone,
) -> Result<Option<(&'m str, BodyEncoding)>, OpenApiError> {
    let mut best: Option<(&str, BodyEncoding, u8)> = None;
    for media in candidates.clone() {
        if let Some((encoding, rank)) = classify(media)
            && best.is_none_or(|(_, _, best_rank)| rank < best_rank)
        {
            best = Some((media, encoding, rank));
        }
    }
    match best {
        Some((media, encoding, _)) => Ok(Some((media, encoding))),
        None => match candidates.clone().next() {
            Some(first) => Err(unsupported(reader, loc, first)),
            None => Ok(None),
        },
    }
}

/// The body of an OpenAPI 3 operation, from its `requestBody`.
pub(crate) fn plan_v3(
    reader: &Reader<'_>,
    builder: &mut SchemaBuilder<'_>,
    request_body: Option<&Value>,
    loc: &Loc,
) -> Result<Option<BodyPlan>, OpenApiError> {
    let Some(request_body) = request_body else {
        return Ok(None);
    };
    let (loc, value) = reader.deref(request_body, loc)?;
    let Some(body) = value.as_object() else {
        return Err(reader.sources.error(&loc, "`requestBody` is not an object"));
    };
    let Some(content) = body.get("content").and_then(Value::as_object) else {
        return Ok(None);
    };
    let content_loc = loc.child("content");
    let Some((media, encoding)) = choose(reader, &content_loc, content.keys().map(String::as_str))?
    else {
        return Ok(None);
    };
    let media_loc = content_loc.child(media);
    let schema = match content.get(media).and_then(|m| m.get("schema")) {
        Some(schema) => builder.convert(schema, &media_loc.child("schema"))?,
        None => json!({}),
    };
    let encoding = sent_as(encoding, &schema);
    Ok(Some(BodyPlan {
        media_type: wire_media_type(media, encoding),
        encoding,
        schema,
        required: body.get("required").and_then(Value::as_bool) == Some(true),
        description: body.get("description").cloned(),
    }))
}

/// How a body of `encoding` whose schema is `schema` is sent: a binary media type whose
/// schema is a base64 string (`format: byte`, `contentEncoding: base64`) takes that text as
/// it is — Spotify's playlist cover is `image/jpeg` carrying base64 — rather than a file
/// whose bytes are decoded first.
fn sent_as(encoding: BodyEncoding, schema: &Value) -> BodyEncoding {
    let base64_text = schema.get("type").and_then(Value::as_str) == Some("string")
        && (schema.get("format").and_then(Value::as_str) == Some("byte")
            || schema.get("contentEncoding").and_then(Value::as_str) == Some("base64"));
    if encoding == BodyEncoding::Binary && base64_text {
        BodyEncoding::Text
    } else {
        encoding
    }
}

/// The body of a Swagger 2.0 operation, from its `in: body` or `in: formData` parameters
/// and the `consumes` in force.
pub(crate) fn plan_v2(
    reader: &Reader<'_>,
    builder: &mut SchemaBuilder<'_>,
    specs: &[ParamSpec<'_>],
    consumes: &[&str],
    loc: &Loc,
) -> Result<Option<BodyPlan>, OpenApiError> {
    if let Some(body) = specs.iter().find(|s| s.location == ParamIn::Body) {
        let (media, encoding) = if consumes.is_empty() {
            ("application/json", BodyEncoding::Json)
        } else {
            choose(reader, loc, consumes.iter().copied())?
                .unwrap_or(("application/json", BodyEncoding::Json))
        };
        let schema = match body.map.get("schema") {
            Some(schema) => builder.convert(schema, &body.loc.child("schema"))?,
            None => json!({}),
        };
        let encoding = sent_as(encoding, &schema);
        return Ok(Some(BodyPlan {
            media_type: wire_media_type(media, encoding),
            encoding,
            schema,
            required: body.map.get("required").and_then(Value::as_bool) == Some(true),
            description: body.map.get("description").cloned(),
        }));
    }
    let form: Vec<&ParamSpec<'_>> = specs
        .iter()
        .filter(|s| s.location == ParamIn::FormData)
        .collect();
    if form.is_empty() {
        return Ok(None);
    }
    let has_file = form
        .iter()
        .any(|s| s.map.get("type").and_then(Value::as_str) == Some("file"));
    let multipart = has_file
        || consumes.iter().any(|m| {
            m.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .eq_ignore_ascii_case("multipart/form-data")
        });
    let (media, encoding) = if multipart {
        ("multipart/form-data", BodyEncoding::Multipart)
    } else {
        ("application/x-www-form-urlencoded", BodyEncoding::Form)
    };
    let mut properties = Map::new();
    let mut required = Vec::new();
    for spec in form {
        properties.insert(spec.name.clone(), param_schema(reader, builder, spec)?);
        if spec.map.get("required").and_then(Value::as_bool) == Some(true) {
            required.push(Value::String(spec.name.clone()));
        }
    }
    let any_required = !required.is_empty();
    let mut schema = json!({"type": "object", "properties": properties});
    if any_required {
        schema["required"] = Value::Array(required);
    }
    Ok(Some(BodyPlan {
        media_type: media.to_owned(),
        encoding,
        schema,
        required: any_required,
        description: None,
    }))
}

/// One argument a body contributes to the arguments object.
pub(crate) struct BodyArg {
    pub name: String,
    pub schema: Value,
    pub required: bool,
}

/// The body row and its arguments. An object body whose property names are free
/// (`taken` holds the parameters' arguments) is spread into one argument per property;
/// any other body is one argument, `body` (or `body_`, ... when taken).
pub(crate) fn finish(
    reader: &Reader<'_>,
    builder: &SchemaBuilder<'_>,
    plan: BodyPlan,
    taken: &[String],
) -> (RequestBody, Vec<BodyArg>) {
    let max = reader.options.max_description_chars;
    let mut whole_name = String::from("body");
    while taken.contains(&whole_name) {
        whole_name.push('_');
    }
    let mut files = Vec::new();
    let spreadable = matches!(
        plan.encoding,
        BodyEncoding::Json | BodyEncoding::Form | BodyEncoding::Multipart
    );
    let view = if spreadable {
        object_view(builder, &plan.schema, 0)
    } else {
        None
    };
    let (argument, args) = match view {
        // Spread only when every property can be an argument as it is: a name another
        // argument has, or one a provider refuses as a key (`$schema`, `@odata.type`), keeps
        // the body whole, where its keys are nested and free.
        Some((properties, required))
            if properties
                .iter()
                .all(|(name, _)| !taken.contains(name) && is_argument_key(name)) =>
        {
            let mut args = Vec::new();
            let mut names = Vec::new();
            for (name, schema) in properties {
                let schema = if plan.encoding == BodyEncoding::Multipart {
                    file_property(builder, schema, &name, &mut files)
                } else {
                    schema
                };
                // The object's own `required` holds even when the body is optional:
                // documents rarely mark bodies required, and a model sending part of
                // the object must still send the required parts.
                args.push(BodyArg {
                    required: required.contains(&name),
                    name: name.clone(),
                    schema,
                });
                names.push(name.into());
            }
            (BodyArgument::Properties(names.into()), args)
        }
        _ => {
            let schema = match plan.encoding {
                BodyEncoding::Binary => file_schema(None),
                BodyEncoding::Multipart => spread_files(builder, plan.schema.clone(), &mut files),
                _ => plan.schema.clone(),
            };
            let schema = describe(schema, plan.description.as_ref(), max);
            let arg = BodyArg {
                name: whole_name.clone(),
                schema,
                required: plan.required,
            };
            (BodyArgument::Whole(whole_name.into()), vec![arg])
        }
    };
    let row = RequestBody {
        media_type: plan.media_type.into(),
        encoding: plan.encoding,
        argument,
        files: files.into_iter().map(Into::into).collect::<Vec<_>>().into(),
        required: plan.required,
    };
    (row, args)
}

/// The file schemas of a whole multipart body's inline properties.
fn spread_files(builder: &SchemaBuilder<'_>, mut schema: Value, files: &mut Vec<String>) -> Value {
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        for (name, property) in properties.iter_mut() {
            let taken = std::mem::take(property);
            *property = file_property(builder, taken, name, files);
        }
    }
    schema
}

/// A multipart property as a file argument when it is one (a binary string, or content
/// with a media type or encoding), else as it is; an array of files stays an array.
fn file_property(
    builder: &SchemaBuilder<'_>,
    schema: Value,
    name: &str,
    files: &mut Vec<String>,
) -> Value {
    let target = builder.def_target(&schema);
    let description = target
        .get("description")
        .and_then(Value::as_str)
        .map(str::to_owned);
    if is_file(target) {
        files.push(name.to_owned());
        return match description {
            Some(text) if text.contains(FILE_DESCRIPTION) => target.clone(),
            other => file_schema(other.as_deref()),
        };
    }
    if let Some(items) = target.get("items") {
        let items = builder.def_target(items);
        if is_file(items) {
            files.push(name.to_owned());
            let item_description = items
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_owned);
            let mut array =
                json!({"type": "array", "items": file_schema(item_description.as_deref())});
            if let Some(text) = description {
                array["description"] = Value::String(text);
            }
            return array;
        }
    }
    schema
}

fn is_file(schema: &Value) -> bool {
    let Some(map) = schema.as_object() else {
        return false;
    };
    map.get("format").and_then(Value::as_str) == Some("binary")
        || map.contains_key("contentEncoding")
        || map.contains_key("contentMediaType")
        || map
            .get("description")
            .and_then(Value::as_str)
            .is_some_and(|d| {
                d.contains(FILE_DESCRIPTION)
                    && map
                        .get("properties")
                        .and_then(|p| p.get("base64"))
                        .is_some()
            })
}

/// An object's properties, in order, and the names it requires.
type ObjectView = (Vec<(String, Value)>, Vec<String>);

/// The properties (in order) and required names of an object schema, looking through
/// `$defs` references and `allOf`; `None` when the schema is not plainly an object with
/// properties (a union, a map, a scalar).
fn object_view(builder: &SchemaBuilder<'_>, schema: &Value, depth: usize) -> Option<ObjectView> {
    if depth > 16 {
        return None;
    }
    let map = builder.def_target(schema).as_object()?;
    let is_object_type = match map.get("type") {
        None => true,
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        Some(_) => false,
    };
    if !is_object_type
        || ["anyOf", "oneOf", "not", "if"]
            .iter()
            .any(|k| map.contains_key(*k))
    {
        return None;
    }
    let mut properties: Vec<(String, Value)> = Vec::new();
    let mut required: Vec<String> = Vec::new();
    if let Some(Value::Array(members)) = map.get("allOf") {
        for member in members {
            let (member_properties, member_required) = object_view(builder, member, depth + 1)?;
            merge(
                &mut properties,
                &mut required,
                member_properties,
                member_required,
            );
        }
    }
    if let Some(Value::Object(own)) = map.get("properties") {
        let own: Vec<(String, Value)> = own.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        let own_required = map
            .get("required")
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        merge(&mut properties, &mut required, own, own_required);
    } else if let Some(Value::Array(list)) = map.get("required") {
        required.extend(list.iter().filter_map(Value::as_str).map(str::to_owned));
    }
    if properties.is_empty() {
        return None;
    }
    Some((properties, required))
}

/// Adds `more` properties to `properties`; a name already there is described by both
/// schemas at once.
fn merge(
    properties: &mut Vec<(String, Value)>,
    required: &mut Vec<String>,
    more: Vec<(String, Value)>,
    more_required: Vec<String>,
) {
    for (name, schema) in more {
        match properties
            .iter_mut()
            .find(|(existing, _)| *existing == name)
        {
            Some((_, existing)) => {
                let previous = std::mem::take(existing);
                *existing = json!({"allOf": [previous, schema]});
            }
            None => properties.push((name, schema)),
        }
    }
    for name in more_required {
        if !required.contains(&name) {
            required.push(name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_types_are_ranked() {
        assert_eq!(
            classify("application/json; charset=utf-8"),
            Some((BodyEncoding::Json, 0))
        );
        assert_eq!(
            classify("application/vnd.api+json"),
            Some((BodyEncoding::Json, 1))
        );
        assert_eq!(classify("*/*"), Some((BodyEncoding::Json, 1)));
        assert_eq!(
            classify("application/x-www-form-urlencoded"),
            Some((BodyEncoding::Form, 2))
        );
        assert_eq!(
            classify("multipart/form-data"),
            Some((BodyEncoding::Multipart, 3))
        );
        assert_eq!(classify("text/csv"), Some((BodyEncoding::Text, 4)));
        assert_eq!(classify("image/png"), Some((BodyEncoding::Binary, 5)));
        assert_eq!(classify("application/xml"), None);
        assert_eq!(classify("nonsense"), None);
        assert_eq!(
            wire_media_type("*/*", BodyEncoding::Json),
            "application/json"
        );
        assert_eq!(
            wire_media_type("image/*", BodyEncoding::Binary),
            "application/octet-stream"
        );
    }
}
