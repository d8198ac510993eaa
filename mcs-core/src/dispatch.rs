//! The tool table behind a driver: tools built once from their definitions, and the
//! argument decoding that `execute_tool` runs against it.
//!
//! `#[mcs::tool_driver]` emits a [`ToolDef`] per method and calls into this module; a
//! hand-written driver can do the same.

use std::sync::Arc;

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::error::{ArgumentError, ToolError};
use crate::schema::{self, PathSegment, describe_received, join_path};
use crate::types::{Tool, ToolAnnotations, ToolParameter};

/// The definition of one tool, as a driver declares it.
#[derive(Clone, Copy, Debug)]
pub struct ToolDef {
    /// The name a model calls the tool by.
    pub name: &'static str,
    /// The short title, if any.
    pub title: Option<&'static str>,
    /// The description, if any. A tool needs a title or a description.
    pub description: Option<&'static str>,
    /// The parameters, in declaration order.
    pub params: &'static [ParamDef],
    /// What the tool does to the world (`#[tool(read_only)]`, …).
    pub annotations: ToolAnnotations,
}

/// The definition of one parameter of a [`ToolDef`].
#[derive(Clone, Copy, Debug)]
pub struct ParamDef {
    /// The argument's key (for a flattened parameter, a name used only in messages).
    pub name: &'static str,
    /// What the argument is for.
    pub description: Option<&'static str>,
    /// How the parameter appears among the arguments.
    pub kind: ParamKind,
    /// Generates the parameter type's schema; [`schema_for::<T>`](schema_for) does.
    pub schema: fn(&mut SchemaGenerator) -> Schema,
}

/// How a parameter appears among a call's arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// One argument that must be present.
    Required,
    /// One argument that may be absent (or `null`).
    Optional,
    /// The fields of a struct, each a top-level argument of its own.
    Flatten,
}

/// The schema generator function for `T`, for [`ParamDef::schema`].
pub fn schema_for<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}

/// A driver's tools, built once, with what decoding their arguments needs.
#[derive(Debug)]
pub struct ToolSet {
    tools: Arc<[Tool]>,
    entries: Vec<Entry>,
}

#[derive(Debug)]
struct Entry {
    params: Vec<ParamInfo>,
    /// Every argument name the tool accepts, in order.
    accepted: Vec<String>,
}

#[derive(Debug)]
struct ParamInfo {
    name: &'static str,
    /// The normalized schema of the whole parameter type.
    schema: Value,
    /// The type decodes from `null`, so an absent argument is decoded as `null`.
    nullable: bool,
    /// For a flattened parameter: the struct's fields, which are the arguments.
    fields: Option<Vec<String>>,
}

impl ToolSet {
    /// Builds the tools from their definitions: schemas are generated, made
    /// self-contained, and flattened parameters spread into their fields.
    ///
    /// A flattened parameter whose type is not an object with properties stays a single
    /// argument under its own name. When two arguments end up with the same name, the first
    /// one declared is kept.
    pub fn build(defs: &[ToolDef]) -> ToolSet {
        let mut tools = Vec::with_capacity(defs.len());
        let mut entries = Vec::with_capacity(defs.len());
        for def in defs {
            let (tool, entry) = build_tool(def);
            tools.push(tool);
            entries.push(entry);
        }
        ToolSet {
            tools: tools.into(),
            entries,
        }
    }

    /// The tools, shared.
    pub fn tools(&self) -> Arc<[Tool]> {
        Arc::clone(&self.tools)
    }

    /// Starts decoding the arguments of the tool at `index` (in definition order).
    pub fn arguments(&self, index: usize, arguments: Value) -> Result<Arguments<'_>, ToolError> {
        let (Some(tool), Some(entry)) = (self.tools.get(index), self.entries.get(index)) else {
            return Err(ToolError::execution(
                "",
                format!("no tool at index {index}"),
            ));
        };
        let map = match arguments {
            Value::Object(map) => map,
            Value::Null => Map::new(),
            other => {
                let problem = ArgumentError::invalid(
                    "",
                    "a JSON object of named arguments",
                    describe_received(&other),
                );
                return Err(ToolError::invalid_argument(tool.name(), problem));
            }
        };
        Ok(Arguments {
            tool,
            entry,
            map,
            problems: Vec::new(),
        })
    }

    /// The error for a name none of the tools has, with the closest name as a suggestion.
    pub fn unknown_tool(&self, name: &str) -> ToolError {
        ToolError::unknown_tool_among(name, self.tools.iter().map(Tool::name))
    }
}

fn build_tool(def: &ToolDef) -> (Tool, Entry) {
    let mut generator = SchemaSettings::draft2020_12().into_generator();
    let raw: Vec<Value> = def
        .params
        .iter()
        .map(|p| (p.schema)(&mut generator).to_value())
        .collect();
    let definitions = generator.take_definitions(true);

    let mut parameters: Vec<ToolParameter> = Vec::new();
    let mut infos = Vec::with_capacity(def.params.len());
    for (param, mut schema) in def.params.iter().zip(raw) {
        schema::normalize(&mut schema, &definitions);
        let description = param.description.unwrap_or_default().to_owned();
        let fields = match param.kind {
            ParamKind::Flatten => object_parameters(&schema),
            _ => None,
        };
        match &fields {
            Some(fields) => {
                for field in fields {
                    if parameters.iter().all(|p| p.name != field.name) {
                        parameters.push(field.clone());
                    }
                }
            }
            None => {
                if parameters.iter().all(|p| p.name != param.name) {
                    parameters.push(ToolParameter {
                        name: param.name.to_owned(),
                        description,
                        required: param.kind != ParamKind::Optional && !accepts_null(&schema),
                        schema: Some(schema.clone()),
                        definitions: None,
                    });
                }
            }
        }
        infos.push(ParamInfo {
            name: param.name,
            nullable: accepts_null(&schema),
            schema,
            fields: fields.map(|fields| fields.into_iter().map(|f| f.name).collect()),
        });
    }
    let accepted = parameters.iter().map(|p| p.name.clone()).collect();
    let tool = Tool::try_new(
        def.name,
        def.title.map(str::to_owned),
        def.description.map(str::to_owned),
    )
    .unwrap_or_else(|missing| Tool::new(missing.name, def.name))
    .with_parameters(parameters)
    .with_annotations(def.annotations);
    let entry = Entry {
        params: infos,
        accepted,
    };
    (tool, entry)
}

/// Whether the type decodes from `null` (an `Option` behind a type alias, say): such an
/// argument is not required, and its absence decodes as `null`.
fn accepts_null(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
        _ => false,
    }
}

/// The properties of an object schema as parameters (a flattened struct's fields, a REST
/// operation's arguments), or `None` if the schema is not one of an
/// object with properties.
#[doc(hidden)]
pub fn object_parameters(schema: &Value) -> Option<Vec<ToolParameter>> {
    let object = schema.as_object()?;
    let properties = object.get("properties")?.as_object()?;
    if properties.is_empty() {
        return None;
    }
    let required: Vec<&str> = object
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let definitions = object.get("$defs");
    let fields = properties
        .iter()
        .map(|(name, property)| {
            let mut property = property.clone();
            let description = match &mut property {
                Value::Object(object) => match object.remove("description") {
                    Some(Value::String(text)) => text,
                    _ => String::new(),
                },
                _ => String::new(),
            };
            let refers = property_refers(&property);
            if let (Some(definitions), Value::Object(object), true) =
                (definitions, &mut property, refers)
            {
                object.insert("$defs".to_owned(), definitions.clone());
            }
            ToolParameter {
                name: name.clone(),
                description,
                required: required.contains(&name.as_str()),
                schema: Some(property),
                definitions: None,
            }
        })
        .collect();
    Some(fields)
}

fn property_refers(value: &Value) -> bool {
    match value {
        Value::Object(object) => object
            .iter()
            .any(|(k, v)| k == "$ref" || property_refers(v)),
        Value::Array(items) => items.iter().any(property_refers),
        _ => false,
    }
}

/// The arguments of one call being decoded, parameter by parameter. Every problem is
/// collected, so the model hears about all of them at once.
#[derive(Debug)]
pub struct Arguments<'s> {
    tool: &'s Tool,
    entry: &'s Entry,
    map: Map<String, Value>,
    problems: Vec<ArgumentError>,
}

impl Arguments<'_> {
    /// Decodes the required parameter at `index`; `None` if it is missing or invalid (the
    /// problem is recorded).
    pub fn required<T: DeserializeOwned>(&mut self, index: usize) -> Option<T> {
        let info = self.entry.params.get(index)?;
        match self.map.remove(info.name) {
            Some(value) => self.decode(info, value),
            None if info.nullable => self.decode(info, Value::Null),
            None => {
                let expected = schema::describe(&info.schema);
                self.problems
                    .push(ArgumentError::missing(info.name, expected));
                None
            }
        }
    }

    /// Decodes the optional parameter at `index`: `Some(None)` when it is absent or `null`,
    /// `None` if it is invalid (the problem is recorded).
    pub fn optional<T: DeserializeOwned>(&mut self, index: usize) -> Option<Option<T>> {
        let info = self.entry.params.get(index)?;
        match self.map.remove(info.name) {
            None | Some(Value::Null) => Some(None),
            Some(value) => self.decode(info, value).map(Some),
        }
    }

    /// Decodes the flattened parameter at `index` from the top-level arguments that are its
    /// fields; `None` if they are invalid (the problems are recorded).
    pub fn flatten<T: DeserializeOwned>(&mut self, index: usize) -> Option<T> {
        let info = self.entry.params.get(index)?;
        let Some(fields) = &info.fields else {
            return self.required(index);
        };
        let mut object = Map::new();
        for field in fields {
            if let Some(value) = self.map.remove(field.as_str()) {
                object.insert(field.clone(), value);
            }
        }
        self.decode(info, Value::Object(object))
    }

    /// Ends decoding: fails with every problem recorded, and with one for each argument the
    /// tool does not have.
    pub fn finish(self) -> Result<(), ToolError> {
        let mut problems = self.problems;
        for name in self.map.keys() {
            problems.push(ArgumentError::unknown(
                name.clone(),
                self.entry.accepted.clone(),
            ));
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(ToolError::InvalidArguments {
                tool: self.tool.name().to_owned(),
                problems,
            })
        }
    }

    /// The error for decoded values that went missing without a recorded problem, which
    /// the calling code rules out; returned rather than panicking all the same.
    pub fn inconsistent(tool: &str) -> ToolError {
        ToolError::execution(tool, "internal error: an argument was lost while decoding")
    }

    fn decode<T: DeserializeOwned>(&mut self, info: &ParamInfo, value: Value) -> Option<T> {
        match T::deserialize(&value) {
            Ok(decoded) => Some(decoded),
            Err(_) => {
                // Decode again, slowly, to learn where inside the value it went wrong.
                let base = if info.fields.is_some() { "" } else { info.name };
                match serde_path_to_error::deserialize::<_, T>(&value) {
                    Ok(decoded) => Some(decoded),
                    Err(error) => {
                        let problem = locate_problem(base, &info.schema, &value, &error);
                        self.problems.push(problem);
                        None
                    }
                }
            }
        }
    }
}

/// Turns a serde error with its path into a problem that names the argument, what was
/// expected there and what came.
fn locate_problem(
    base: &str,
    root: &Value,
    value: &Value,
    error: &serde_path_to_error::Error<serde_json::Error>,
) -> ArgumentError {
    let mut segments: Vec<PathSegment> = error
        .path()
        .iter()
        .filter_map(|segment| match segment {
            serde_path_to_error::Segment::Seq { index } => Some(PathSegment::Index(*index)),
            serde_path_to_error::Segment::Map { key } => Some(PathSegment::Field(key.clone())),
            _ => None,
        })
        .collect();
    let message = error.inner().to_string();
    let message = strip_position(&message);

    if let Some(field) = between(message, "missing field `", "`") {
        segments.push(PathSegment::Field(field.to_owned()));
        let expected = schema::schema_at(root, root, &segments).map_or_else(
            || "a value".to_owned(),
            |schema| schema::describe_in(root, schema),
        );
        return ArgumentError::missing(join_path(base, &segments), expected);
    }
    if let Some(field) = between(message, "unknown field `", "`") {
        let accepted = message
            .split_once("expected one of ")
            .map(|(_, list)| {
                list.split(", ")
                    .map(|n| n.trim_matches('`').to_owned())
                    .collect()
            })
            .unwrap_or_default();
        segments.push(PathSegment::Field(field.to_owned()));
        return ArgumentError::unknown(join_path(base, &segments), accepted);
    }

    let from_schema = schema::schema_at(root, root, &segments).map(schema::describe);
    let from_serde = message
        .rsplit_once(", expected ")
        .map(|(_, expected)| expected.to_owned());
    // A type-correct value rejected by the type itself ("invalid value: integer `0`,
    // expected a nonzero u32") is explained best by serde's own words.
    let expected = if message.starts_with("invalid value") {
        from_serde.or(from_schema)
    } else {
        from_schema.or(from_serde)
    }
    .unwrap_or_else(|| message.to_owned());
    let received = value_at(value, &segments).map_or_else(|| message.to_owned(), describe_received);
    ArgumentError::invalid(join_path(base, &segments), expected, received)
}

/// serde_json appends " at line 1 column 5" to some messages; meaningless for a `Value`.
fn strip_position(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(at) if message[at..].contains(" column ") => &message[..at],
        _ => message,
    }
}

fn between<'m>(message: &'m str, start: &str, end: &str) -> Option<&'m str> {
    let rest = message.split_once(start)?.1;
    Some(rest.split_once(end)?.0)
}

fn value_at<'v>(value: &'v Value, segments: &[PathSegment]) -> Option<&'v Value> {
    segments
        .iter()
        .try_fold(value, |value, segment| match segment {
            PathSegment::Field(name) => value.get(name.as_str()),
            PathSegment::Index(index) => value.get(*index),
        })
}
