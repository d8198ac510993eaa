//! One operation of a document turned into an [`Operation`] row: its name and texts, its
//! parameters and body as arguments, the schema of those arguments, and its security.

use serde_json::{Map, Value, json};

use super::body::{self, BodyArg};
use super::error::OpenApiError;
use super::names::{argument_key, cap_text};
use super::params::{self, ParamIn};
use super::reader::Reader;
use super::schema::SchemaBuilder;
use super::security::Schemes;
use super::source::Loc;
use mcs_core::ToolAnnotations;
use mcs_core::export::unused_argument_key;
use mcs_rest::{Location, Method, Operation, Parameter, Style};

/// An operation found in `paths`, before it is read.
pub(crate) struct Candidate<'a> {
    pub path: String,
    pub method: Method,
    pub item: &'a Map<String, Value>,
    pub item_loc: Loc,
    pub op: &'a Map<String, Value>,
    pub op_loc: Loc,
}

impl Candidate<'_> {
    /// The operation's `operationId`, if it has one.
    pub(crate) fn operation_id(&self) -> Option<&str> {
        self.op.get("operationId").and_then(Value::as_str)
    }

    /// The operation's tags (non-string entries ignored).
    pub(crate) fn tags(&self) -> Vec<String> {
        match self.op.get("tags") {
            Some(Value::Array(tags)) => tags
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            _ => Vec::new(),
        }
    }

    /// `GET /pets`, for messages.
    pub(crate) fn label(&self) -> String {
        format!("{} {}", self.method, self.path)
    }
}

/// The order arguments (and parameter rows) are listed in.
const LOCATION_ORDER: [Location; 4] = [
    Location::Path,
    Location::Query,
    Location::Header,
    Location::Cookie,
];

/// Reads `candidate` into an operation row named `name`.
pub(crate) fn build(
    reader: &Reader<'_>,
    builder: &mut SchemaBuilder<'_>,
    schemes: &Schemes,
    candidate: &Candidate<'_>,
    name: String,
) -> Result<Operation, OpenApiError> {
    let op = candidate.op;
    let max = reader.options.max_description_chars;
    let summary = op
        .get("summary")
        .and_then(Value::as_str)
        .and_then(|t| cap_text(t, max));
    let description = op
        .get("description")
        .and_then(Value::as_str)
        .and_then(|t| cap_text(t, max));
    let deprecated = op.get("deprecated").and_then(Value::as_bool) == Some(true);
    let title = match (&summary, &description) {
        (None, None) => Some(candidate.label()),
        _ => summary,
    };
    // A description that only repeats the title costs context and says nothing: the
    // tool falls back to the title anyway.
    let description = description.filter(|text| Some(text) != title.as_ref());
    let description = if deprecated {
        let text = description
            .as_deref()
            .or(title.as_deref())
            .unwrap_or_default();
        Some(format!("Deprecated. {text}"))
    } else {
        description
    };

    let specs = params::collect(
        reader,
        [
            (
                candidate.item.get("parameters"),
                candidate.item_loc.child("parameters"),
            ),
            (op.get("parameters"), candidate.op_loc.child("parameters")),
        ],
    )?;
    let placeholders = params::placeholders(&candidate.path);
    let mut wire: Vec<(Parameter, Value)> = Vec::new();
    for location in LOCATION_ORDER {
        for spec in specs
            .iter()
            .filter(|s| s.location == ParamIn::Wire(location))
        {
            // A path parameter the template does not name could never be sent.
            if location == Location::Path && !placeholders.contains(&spec.name) {
                continue;
            }
            let row = params::row(reader, spec, location);
            let schema = params::schema(reader, builder, spec)?;
            wire.push((row, schema));
        }
        if location == Location::Path {
            // Documents forget to declare path parameters; the template still needs a
            // value for each placeholder, so each gets a required string argument.
            for placeholder in &placeholders {
                let declared = wire.iter().any(|(row, _)| {
                    row.location == Location::Path && row.name == placeholder.as_str()
                });
                if !declared {
                    wire.push((
                        implicit_path_parameter(placeholder),
                        json!({"type": "string"}),
                    ));
                }
            }
        }
    }
    let security = match op.get("security") {
        Some(own) => Some((own, candidate.op_loc.child("security"))),
        None => reader.sources.root().get("security").map(|global| {
            (
                global,
                Loc {
                    doc: 0,
                    pointer: "/security".into(),
                },
            )
        }),
    };
    let security = schemes.requirements(reader, security)?;
    // A parameter that an API-key scheme of the operation fills (Trello declares `key` and
    // `token` as parameters of every operation, and as its schemes) is the credential's,
    // not the model's: asked of the model, it would be sent twice, the model's guess first.
    let filled: Vec<(Location, &str)> = security
        .iter()
        .flat_map(|requirement| requirement.schemes.iter())
        .filter_map(|name| schemes.api_key_place(name))
        .collect();
    wire.retain(|(row, _)| {
        !filled.iter().any(|(location, key)| {
            *location == row.location
                && if row.location == Location::Header {
                    row.name.eq_ignore_ascii_case(key)
                } else {
                    row.name == *key
                }
        })
    });
    name_arguments(&mut wire);

    let plan = if reader.is_swagger() {
        let (consumes, consumes_loc) = consumes(reader, op, &candidate.op_loc);
        body::plan_v2(reader, builder, &specs, &consumes, &consumes_loc)?
    } else {
        body::plan_v3(
            reader,
            builder,
            op.get("requestBody"),
            &candidate.op_loc.child("requestBody"),
        )?
    };
    // Every schema the operation refers to is converted before the body is looked into.
    builder.complete()?;
    let taken: Vec<String> = wire
        .iter()
        .map(|(row, _)| row.argument.to_string())
        .collect();
    let (body_row, body_args) = match plan {
        Some(plan) => {
            let (row, args) = body::finish(reader, builder, plan, &taken);
            (Some(row), args)
        }
        None => (None, Vec::new()),
    };

    let mut properties = Map::new();
    let mut required = Vec::new();
    for (row, schema) in &wire {
        properties.insert(row.argument.to_string(), schema.clone());
        if row.required {
            required.push(Value::String(row.argument.to_string()));
        }
    }
    for BodyArg {
        name,
        schema,
        required: is_required,
    } in body_args
    {
        if is_required {
            required.push(Value::String(name.clone()));
        }
        properties.insert(name, schema);
    }
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".into(), Value::Array(required));
    }

    Ok(Operation {
        name: name.into(),
        title: title.map(Into::into),
        description: description.map(Into::into),
        method: candidate.method,
        path: candidate.path.clone().into(),
        // An operation's own servers, else its path's (OpenAPI 3 only; Swagger 2.0 has
        // neither).
        servers: Some(super::servers::servers(candidate.op))
            .filter(|servers| !servers.is_empty())
            .unwrap_or_else(|| super::servers::servers(candidate.item))
            .into(),
        parameters: wire
            .into_iter()
            .map(|(row, _)| row)
            .collect::<Vec<_>>()
            .into(),
        body: body_row,
        security: security.into(),
        tags: candidate
            .tags()
            .into_iter()
            .map(Into::into)
            .collect::<Vec<_>>()
            .into(),
        deprecated,
        schema: Value::Object(schema).to_string().into(),
        annotations: annotations(reader, candidate)?,
    })
}

/// The keys `x-mcs-annotations` takes: MCP's names, and the words of `#[tool(...)]`.
const HINTS: [(&str, &str); 4] = [
    ("readOnlyHint", "read_only"),
    ("destructiveHint", "destructive"),
    ("idempotentHint", "idempotent"),
    ("openWorldHint", "open_world"),
];

/// Verbs an `operationId` leads with that change something, and whether they remove it.
const CHANGING_VERBS: &[(&str, bool)] = &[
    ("delete", true),
    ("remove", true),
    ("destroy", true),
    ("terminate", true),
    ("purge", true),
    ("revoke", true),
    ("detach", true),
    ("disassociate", true),
    ("deregister", true),
    ("create", false),
    ("put", false),
    ("update", false),
    ("modify", false),
    ("set", false),
    ("add", false),
    ("attach", false),
    ("associate", false),
    ("register", false),
    ("enable", false),
    ("disable", false),
    ("reset", false),
    ("reboot", false),
    ("start", false),
    ("stop", false),
    ("cancel", false),
    ("send", false),
    ("tag", false),
    ("untag", false),
    ("upload", false),
];

/// Whether an `operationId` leads with a verb that changes something (past a method word:
/// `GET_DeleteUser`), and whether that verb removes it.
fn changing_verb(operation_id: &str) -> Option<bool> {
    let id = ["GET_", "get_", "HEAD_", "head_"]
        .iter()
        .find_map(|method| operation_id.strip_prefix(method))
        .unwrap_or(operation_id);
    let first: String = id
        .char_indices()
        .take_while(|(i, c)| c.is_ascii_alphabetic() && (*i == 0 || !c.is_ascii_uppercase()))
        .map(|(_, c)| c.to_ascii_lowercase())
        .collect();
    CHANGING_VERBS
        .iter()
        .find(|(verb, _)| *verb == first)
        .map(|(_, removes)| *removes)
}

/// What the operation does: what its method says, with what the document's
/// `x-mcs-annotations` says instead (`{readOnlyHint: true}`, or `{read_only: true}`): a
/// `POST` that only searches, a `GET` with side effects. A `GET` whose `operationId` says
/// it changes something (AWS's query APIs offer every action as a `GET` too:
/// `GET /#Action=DeleteUser`, `GET_DeleteUser`) is not claimed read-only: a policy that
/// lets read-only tools run unasked must not run it.
fn annotations(
    reader: &Reader<'_>,
    candidate: &Candidate<'_>,
) -> Result<ToolAnnotations, OpenApiError> {
    let mut annotations = candidate.method.annotations();
    if annotations.read_only == Some(true)
        && let Some(removes) = candidate.operation_id().and_then(changing_verb)
    {
        annotations = annotations
            .read_only(false)
            .destructive(removes)
            .idempotent(false);
    }
    let Some(given) = candidate.op.get("x-mcs-annotations") else {
        return Ok(annotations);
    };
    let loc = candidate.op_loc.child("x-mcs-annotations");
    let Value::Object(given) = given else {
        return Err(reader
            .sources
            .error(&loc, "`x-mcs-annotations` is not an object"));
    };
    for (key, value) in given {
        let Some(index) = HINTS
            .iter()
            .position(|(mcp, word)| key == mcp || key == word)
        else {
            let known: Vec<&str> = HINTS.iter().map(|(mcp, _)| *mcp).collect();
            return Err(reader.sources.error(
                &loc.child(key),
                format!(
                    "`{key}` is not an annotation; expected one of {}",
                    known.join(", ")
                ),
            ));
        };
        let Some(flag) = value.as_bool() else {
            return Err(reader
                .sources
                .error(&loc.child(key), format!("`{key}` must be true or false")));
        };
        annotations = match index {
            0 => annotations.read_only(flag),
            1 => annotations.destructive(flag),
            2 => annotations.idempotent(flag),
            _ => annotations.open_world(flag),
        };
    }
    Ok(annotations)
}

fn implicit_path_parameter(name: &str) -> Parameter {
    Parameter {
        argument: name.to_owned().into(),
        name: name.to_owned().into(),
        location: Location::Path,
        style: Style::Simple,
        explode: false,
        allow_reserved: false,
        required: true,
    }
}

/// Gives every parameter its argument name: its name, made a key every provider takes
/// (`filter[name]` → `filter_name`, see [`argument_key`]; the argument's description then
/// says what is sent); the first holder of a key (in path, query, header, cookie order)
/// keeps it, a later one becomes `{location}_{key}`, made unique with `_2`, `_3`, ...
fn name_arguments(wire: &mut [(Parameter, Value)]) {
    let mut taken: Vec<String> = Vec::new();
    let mut clashing = Vec::new();
    for (i, (row, schema)) in wire.iter_mut().enumerate() {
        let key = argument_key(&row.name);
        if key != row.name.as_ref() {
            let note = format!(
                "Sent as the {} parameter `{}`.",
                row.location.as_str(),
                row.name
            );
            append_description(schema, &note);
        }
        if taken.contains(&key) {
            clashing.push(i);
        } else {
            taken.push(key.clone());
        }
        row.argument = key.into();
    }
    for i in clashing {
        let Some((row, _)) = wire.get_mut(i) else {
            continue;
        };
        let base = format!("{}_{}", row.location.as_str(), row.argument);
        let candidate = unused_argument_key(&base, |key| taken.iter().any(|t| t == key));
        taken.push(candidate.clone());
        row.argument = candidate.into();
    }
}

/// `note` after the schema's own description.
fn append_description(schema: &mut Value, note: &str) {
    if let Value::Bool(true) = schema {
        *schema = json!({});
    }
    if let Value::Object(map) = schema {
        let text = match map.get("description").and_then(Value::as_str) {
            Some(own) => format!("{own}\n{note}"),
            None => note.to_owned(),
        };
        map.insert("description".into(), Value::String(text));
    }
}

/// Swagger 2.0's `consumes`: the operation's, else the document's; each media type with
/// its index in the list, and where the list is (for messages).
fn consumes<'a>(
    reader: &Reader<'a>,
    op: &'a Map<String, Value>,
    op_loc: &Loc,
) -> (Vec<(usize, &'a str)>, Loc) {
    let (list, loc) = match op.get("consumes") {
        Some(own) => (Some(own), op_loc.child("consumes")),
        None => (
            reader.sources.root().get("consumes"),
            Loc {
                doc: 0,
                pointer: "/consumes".into(),
            },
        ),
    };
    let media_types = match list {
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .filter_map(|(index, item)| Some((index, item.as_str()?)))
            .collect(),
        _ => Vec::new(),
    };
    (media_types, loc)
}
