//! Request bodies: which media type is sent, how, and which arguments make it up.

use serde_json::{Map, Value, json};

use super::error::OpenApiError;
use super::keywords::{FILE_DESCRIPTION, file_schema};
use super::media::{Family, family};
use super::names::is_argument_key;
use super::params::{ParamIn, ParamSpec, describe, schema as param_schema};
use super::reader::Reader;
use super::schema::SchemaBuilder;
use super::source::Loc;
use mcs_rest::{BodyArgument, BodyEncoding, RequestBody, is_xml_name};

/// A body before its arguments are named: the media type chosen and the schema of the
/// whole body.
pub(crate) struct BodyPlan {
    pub media_type: String,
    pub encoding: BodyEncoding,
    pub schema: Value,
    pub required: bool,
    pub description: Option<Value>,
    /// XML bodies only: the layout the body is written by (see [`super::xml`]).
    pub xml: Option<Value>,
    /// Form bodies only: the properties the media type's `encoding` sends as `deepObject`.
    pub deep_objects: Vec<String>,
}

/// What reading sends, said after every refusal of a body's media types.
const WHAT_IS_SENT: &str = "JSON, XML, form, multipart, text/* and binary media types can be \
                            sent, and any other media type whose schema is a string or binary";

/// What a body's schema says of its content, as far as choosing how to send it goes.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Shape {
    /// No schema, or one that constrains nothing (OpenAPI 3.1 writes binary content so).
    Unspecified,
    /// A string.
    Text,
    /// A string of base64 (`format: byte`, `contentEncoding: base64`): sent as the text it
    /// is — Spotify's playlist cover is `image/jpeg` carrying base64 — not decoded first.
    Base64,
    /// Binary data: a string with `format: binary`, a `contentMediaType` or another
    /// `contentEncoding`.
    Bytes,
    /// Anything else, in the words messages use (`object`, `integer or null`).
    Other(String),
}

/// Keywords that constrain an instance's structure; a schema with none of them and no
/// `type` says nothing of the content.
const STRUCTURAL: &[&str] = &[
    "properties",
    "additionalProperties",
    "patternProperties",
    "required",
    "items",
    "prefixItems",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "enum",
    "const",
];

/// The shape of the schema `schema` (at `loc`), its reference followed.
fn shape(reader: &Reader<'_>, schema: Option<&Value>, loc: &Loc) -> Result<Shape, OpenApiError> {
    let Some(schema) = schema else {
        return Ok(Shape::Unspecified);
    };
    let (_, schema) = reader.deref(schema, loc)?;
    let Some(map) = schema.as_object() else {
        return Ok(match schema {
            Value::Bool(true) => Shape::Unspecified,
            _ => Shape::Other("false".to_owned()),
        });
    };
    let types: Vec<&str> = match map.get("type") {
        Some(Value::String(single)) => vec![single.as_str()],
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| *t != "null")
            .collect(),
        _ => Vec::new(),
    };
    let text = |key: &str| map.get(key).and_then(Value::as_str);
    let base64 = text("format") == Some("byte")
        || text("contentEncoding").is_some_and(|e| e.eq_ignore_ascii_case("base64"));
    let binary = text("format") == Some("binary")
        || map.contains_key("contentMediaType")
        || (map.contains_key("contentEncoding") && !base64);
    let structural = STRUCTURAL.iter().any(|key| map.contains_key(*key));
    Ok(match types.as_slice() {
        ["string"] | [] if base64 && !structural => Shape::Base64,
        ["string"] | [] if binary && !structural => Shape::Bytes,
        // Swagger 2.0's upload type, misplaced on a body.
        ["file"] => Shape::Bytes,
        ["string"] => Shape::Text,
        [] if !structural => Shape::Unspecified,
        [] if [
            "properties",
            "additionalProperties",
            "patternProperties",
            "required",
        ]
        .iter()
        .any(|key| map.contains_key(*key)) =>
        {
            Shape::Other("object".to_owned())
        }
        [] if map.contains_key("items") || map.contains_key("prefixItems") => {
            Shape::Other("array".to_owned())
        }
        [] => {
            let keyword = STRUCTURAL
                .iter()
                .find(|key| map.contains_key(**key))
                .unwrap_or(&"");
            Shape::Other(format!("`{keyword}`"))
        }
        many => Shape::Other(many.join(" or ")),
    })
}

/// How a media type of `family` is sent, and its preference (lower wins), given the
/// shape of its schema (asked for only when the family needs it); `None` when it cannot be.
fn classify(
    family: Family,
    shape: impl FnOnce() -> Result<Shape, OpenApiError>,
) -> Result<Option<(BodyEncoding, u8)>, OpenApiError> {
    Ok(Some(match family {
        // A JSON Patch is an array of operations: where the document gives it an object
        // (Kubernetes' `Patch`), an object sent as one is refused, and a merge patch
        // offered beside it is what such a body means.
        Family::Json(2) => match shape()? {
            Shape::Other(shape) if shape == "array" => (BodyEncoding::Json, 1),
            _ => (BodyEncoding::Json, 11),
        },
        Family::Json(rank) => (BodyEncoding::Json, rank),
        // What a document writes for "any body": JSON, but a binary schema is a file, as
        // Spring's descriptions say of uploads.
        Family::Any => match shape()? {
            Shape::Bytes => (BodyEncoding::Binary, 7),
            _ => (BodyEncoding::Json, 1),
        },
        Family::Form => (BodyEncoding::Form, 2),
        Family::Multipart => (BodyEncoding::Multipart, 3),
        // XML the document describes as a string is XML the model writes, binary XML a
        // file: each ranks after the plain media type sent the same way, which asks less.
        Family::Xml => match shape()? {
            Shape::Text | Shape::Base64 | Shape::Unspecified => (BodyEncoding::Text, 6),
            Shape::Bytes => (BodyEncoding::Binary, 8),
            Shape::Other(_) => (BodyEncoding::Xml, 4),
        },
        Family::Text => (BodyEncoding::Text, 5),
        // JSON is YAML: a structured body goes as JSON text under the YAML media type; a
        // string as the YAML the model writes, binary YAML as a file.
        Family::Yaml => match shape()? {
            Shape::Text | Shape::Base64 => (BodyEncoding::Text, 9),
            Shape::Bytes | Shape::Unspecified => (BodyEncoding::Binary, 10),
            Shape::Other(_) => (BodyEncoding::Json, 9),
        },
        Family::Binary => match shape()? {
            Shape::Base64 => (BodyEncoding::Text, 7),
            _ => (BodyEncoding::Binary, 7),
        },
        Family::Other => match shape()? {
            Shape::Text | Shape::Base64 => (BodyEncoding::Text, 9),
            Shape::Bytes | Shape::Unspecified => (BodyEncoding::Binary, 10),
            Shape::Other(_) => return Ok(None),
        },
        Family::Invalid => return Ok(None),
    }))
}

/// The `Content-Type` actually sent for the document's media type `media`: a wildcard
/// is replaced by a concrete type of its family.
fn wire_media_type(media: &str, encoding: BodyEncoding) -> String {
    if !media.contains('*') {
        return media.trim().to_owned();
    }
    match encoding {
        BodyEncoding::Json => "application/json",
        BodyEncoding::Xml => "application/xml",
        BodyEncoding::Text => "text/plain",
        _ => "application/octet-stream",
    }
    .to_owned()
}

/// One media type a body may be sent as: the media type, where it is written, and where
/// its schema is (if it has one).
struct Alternative<'v> {
    media: &'v str,
    loc: Loc,
    schema: Option<(&'v Value, Loc)>,
}

/// The media type chosen for a body, and how it is sent.
struct Choice<'v> {
    media: &'v str,
    encoding: BodyEncoding,
    schema: Option<(&'v Value, Loc)>,
}

/// The best of `alternatives` (first wins among equals); `None` when there are none. When
/// none can be sent, the error names every one, each quoted (so an empty one shows as
/// `""`), with the schema that made an unknown media type unsendable; it is at the one
/// alternative, or at `container` when there are several.
fn choose<'v>(
    reader: &Reader<'_>,
    container: &Loc,
    alternatives: Vec<Alternative<'v>>,
) -> Result<Option<Choice<'v>>, OpenApiError> {
    let mut best: Option<(usize, BodyEncoding, u8)> = None;
    let mut refused = Vec::new();
    let mut broken = None;
    for (index, alternative) in alternatives.iter().enumerate() {
        let family = family(alternative.media);
        let mut why = None;
        let classified = classify(family, || {
            let (schema, loc) = match &alternative.schema {
                Some((schema, loc)) => (Some(*schema), loc.clone()),
                None => (None, alternative.loc.clone()),
            };
            let shape = shape(reader, schema, &loc)?;
            if let Shape::Other(words) = &shape {
                why = Some(words.clone());
            }
            Ok(shape)
        });
        match classified {
            Ok(Some((encoding, rank))) => {
                if best.is_none_or(|(_, _, best_rank)| rank < best_rank) {
                    best = Some((index, encoding, rank));
                }
            }
            // Quoted with escapes, so that `""` or a control character shows.
            Ok(None) => refused.push(match why {
                Some(words) => format!("{:?} (schema: {words})", alternative.media),
                None => format!("{:?}", alternative.media),
            }),
            // A schema that cannot be read rules its media type out; it is the error only
            // when no other media type can be sent.
            Err(error) => {
                broken.get_or_insert(error);
            }
        }
    }
    if let Some((index, encoding, _)) = best {
        let mut alternatives = alternatives;
        let chosen = alternatives.swap_remove(index);
        return Ok(Some(Choice {
            media: chosen.media,
            encoding,
            schema: chosen.schema,
        }));
    }
    if let Some(error) = broken {
        return Err(error);
    }
    let Some(first) = alternatives.first() else {
        return Ok(None);
    };
    let at = if alternatives.len() == 1 {
        &first.loc
    } else {
        container
    };
    let message = match refused.as_slice() {
        [one] => format!("request body media type {one} is not supported: {WHAT_IS_SENT}"),
        [init @ .., last] => format!(
            "request body media types {} and {last} are not supported: {WHAT_IS_SENT}",
            init.join(", ")
        ),
        [] => format!("request body media types are not supported: {WHAT_IS_SENT}"),
    };
    Err(reader.sources.error(at, message))
}

/// The plan for a body sent as `choice`: its schema converted, and for XML its layout.
fn plan(
    reader: &Reader<'_>,
    builder: &mut SchemaBuilder<'_>,
    choice: Choice<'_>,
    default_root: &str,
    required: bool,
    description: Option<Value>,
) -> Result<BodyPlan, OpenApiError> {
    let schema = match &choice.schema {
        Some((schema, loc)) => builder.convert(schema, loc)?,
        None => json!({}),
    };
    let xml = match choice.encoding {
        BodyEncoding::Xml => {
            let schema = choice.schema.as_ref().map(|(schema, loc)| (*schema, loc));
            Some(super::xml::layout(reader, schema, default_root)?)
        }
        _ => None,
    };
    Ok(BodyPlan {
        media_type: wire_media_type(choice.media, choice.encoding),
        encoding: choice.encoding,
        schema,
        required,
        description,
        xml,
        deep_objects: Vec::new(),
    })
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
    let alternatives = content
        .iter()
        .map(|(media, entry)| {
            let at = content_loc.child(media);
            let schema = entry
                .get("schema")
                .map(|schema| (schema, at.child("schema")));
            Alternative {
                media,
                loc: at,
                schema,
            }
        })
        .collect();
    let Some(choice) = choose(reader, &content_loc, alternatives)? else {
        return Ok(None);
    };
    let required = body.get("required").and_then(Value::as_bool) == Some(true);
    let description = body.get("description").cloned();
    let encoding = content
        .get(choice.media)
        .and_then(|entry| entry.get("encoding"))
        .and_then(Value::as_object);
    let form = choice.encoding == BodyEncoding::Form;
    let mut plan = plan(reader, builder, choice, "body", required, description)?;
    if form && let Some(encoding) = encoding {
        plan.deep_objects = encoding
            .iter()
            .filter(|(_, how)| how.get("style").and_then(Value::as_str) == Some("deepObject"))
            .map(|(name, _)| name.clone())
            .collect();
    }
    Ok(Some(plan))
}

/// The body of a Swagger 2.0 operation, from its `in: body` or `in: formData` parameters
/// and the `consumes` in force (each with its index in the list at `consumes_loc`).
pub(crate) fn plan_v2(
    reader: &Reader<'_>,
    builder: &mut SchemaBuilder<'_>,
    specs: &[ParamSpec<'_>],
    consumes: &[(usize, &str)],
    consumes_loc: &Loc,
) -> Result<Option<BodyPlan>, OpenApiError> {
    if let Some(body) = specs.iter().find(|s| s.location == ParamIn::Body) {
        let schema = body
            .map
            .get("schema")
            .map(|schema| (schema, body.loc.child("schema")));
        let choice = if consumes.is_empty() {
            None
        } else {
            let alternatives = consumes
                .iter()
                .map(|(index, media)| Alternative {
                    media,
                    loc: consumes_loc.index(*index),
                    schema: schema.clone(),
                })
                .collect();
            choose(reader, consumes_loc, alternatives)?
        };
        let choice = choice.unwrap_or(Choice {
            media: "application/json",
            encoding: BodyEncoding::Json,
            schema,
        });
        // The parameter's name is the document's own word for the body: a better root
        // element than a made-up one, when it can be an element.
        let root = if is_xml_name(&body.name) {
            body.name.as_str()
        } else {
            "body"
        };
        let required = body.map.get("required").and_then(Value::as_bool) == Some(true);
        let description = body.map.get("description").cloned();
        return plan(reader, builder, choice, root, required, description).map(Some);
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
    let multipart = has_file || consumes.iter().any(|(_, m)| family(m) == Family::Multipart);
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
        xml: None,
        deep_objects: Vec::new(),
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
        BodyEncoding::Json | BodyEncoding::Form | BodyEncoding::Multipart | BodyEncoding::Xml
    );
    let view = if spreadable {
        object_view(builder, &plan.schema, 0)
    } else {
        None
    };
    // A required JSON or form body that an empty object fits (every property optional)
    // need not be given: it is sent as `{}` (DynamoDB's `ListTables`, whose body stays
    // whole because its names are also the query's).
    let empty_fits = view
        .as_ref()
        .is_some_and(|(_, required)| required.is_empty())
        && matches!(plan.encoding, BodyEncoding::Json | BodyEncoding::Form)
        && plan.schema.get("minProperties").is_none();
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
                required: plan.required && !empty_fits,
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
        xml: plan.xml.map(|layout| layout.to_string().into()),
        deep_objects: plan
            .deep_objects
            .into_iter()
            .map(Into::into)
            .collect::<Vec<_>>()
            .into(),
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
    fn the_shape_decides_for_xml_binary_and_other_media_types() {
        let sent = |family, shape: Shape| classify(family, || Ok(shape)).ok().flatten();
        let object = || Shape::Other("object".to_owned());
        assert_eq!(sent(Family::Xml, object()), Some((BodyEncoding::Xml, 4)));
        assert_eq!(sent(Family::Any, object()), Some((BodyEncoding::Json, 1)));
        assert_eq!(
            sent(Family::Any, Shape::Text),
            Some((BodyEncoding::Json, 1))
        );
        assert_eq!(
            sent(Family::Any, Shape::Bytes),
            Some((BodyEncoding::Binary, 7))
        );
        assert_eq!(
            sent(Family::Xml, Shape::Text),
            Some((BodyEncoding::Text, 6))
        );
        assert_eq!(
            sent(Family::Xml, Shape::Bytes),
            Some((BodyEncoding::Binary, 8))
        );
        assert_eq!(
            sent(Family::Binary, Shape::Base64),
            Some((BodyEncoding::Text, 7))
        );
        assert_eq!(
            sent(Family::Binary, object()),
            Some((BodyEncoding::Binary, 7))
        );
        assert_eq!(
            sent(Family::Other, Shape::Text),
            Some((BodyEncoding::Text, 9))
        );
        assert_eq!(
            sent(Family::Other, Shape::Unspecified),
            Some((BodyEncoding::Binary, 10))
        );
        assert_eq!(sent(Family::Other, object()), None);
        assert_eq!(sent(Family::Yaml, object()), Some((BodyEncoding::Json, 9)));
        assert_eq!(
            sent(Family::Yaml, Shape::Text),
            Some((BodyEncoding::Text, 9))
        );
        assert_eq!(sent(Family::Invalid, Shape::Text), None);
        assert_eq!(
            wire_media_type("*/*", BodyEncoding::Json),
            "application/json"
        );
        assert_eq!(
            wire_media_type("image/*", BodyEncoding::Binary),
            "application/octet-stream"
        );
        assert_eq!(
            wire_media_type("*/*+xml", BodyEncoding::Xml),
            "application/xml"
        );
    }
}
