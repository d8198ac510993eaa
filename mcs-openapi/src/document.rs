//! The document as a whole: its version, info and servers, the operations under `paths`
//! (named, filtered and read one by one), and the security schemes they use.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::error::OpenApiError;
use super::error::Skipped;
use super::names::{dedupe, driver_name, fallback_name, sanitize_name, says_nothing};
use super::operation::{self, Candidate};
use super::options::Responses;
use super::options::{Document, ReadOptions};
use super::reader::{Reader, Version};
use super::responses;
use super::schema::SchemaBuilder;
use super::security::Schemes;
use super::servers::{scalar_text, servers, swagger_servers};
use super::source::{Loc, Sources};
use mcs_rest::{Api, Method, Operation, Tag};

/// Reads the loaded document into rows.
pub(crate) fn read(sources: &Sources, options: &ReadOptions) -> Result<Document, OpenApiError> {
    let root_loc = Loc {
        doc: 0,
        pointer: String::new(),
    };
    let Some(root) = sources.root().as_object() else {
        return Err(sources.error(&root_loc, "the document is not an object"));
    };
    let version = version(sources, root)?;
    let reader = Reader {
        sources,
        options,
        version,
    };

    let info = root.get("info");
    let title = info
        .and_then(|i| i.get("title"))
        .map(scalar_text)
        .unwrap_or_default();
    let api_version = info
        .and_then(|i| i.get("version"))
        .map(scalar_text)
        .unwrap_or_default();
    let name = match &options.driver_name {
        Some(name) => name.clone(),
        None => driver_name(&title),
    };
    let servers = if reader.is_swagger() {
        swagger_servers(root)
    } else {
        servers(root)
    };

    let mut skipped = Vec::new();
    let candidates = candidates(&reader, root, &mut skipped)?;
    // A bare method as operationId (`Get`, `Post`) that several operations share is a
    // generator's placeholder, not a name: their method and path say what they do.
    let mut bare_methods: std::collections::HashMap<String, usize> =
        std::collections::HashMap::new();
    for id in candidates.iter().filter_map(|c| c.operation_id()) {
        if says_nothing(id) {
            *bare_methods
                .entry(id.trim().to_ascii_lowercase())
                .or_default() += 1;
        }
    }
    let placeholder = |id: &str| {
        says_nothing(id)
            && bare_methods
                .get(&id.trim().to_ascii_lowercase())
                .is_some_and(|&count| count > 1)
    };
    let mut names: Vec<String> = candidates
        .iter()
        .map(|c| {
            c.operation_id()
                .filter(|id| !placeholder(id))
                .and_then(sanitize_name)
                .unwrap_or_else(|| fallback_name(c.method.key(), &c.path))
        })
        .collect();
    // Names are settled over every operation in the document, before filtering and
    // before any is skipped, so that a tool keeps its name whatever is left out.
    dedupe(&mut names);

    // Filters that name nothing in the document: a typo in `exclude_operations` would
    // leave the operation it meant to hide served.
    let unknown_exclusions = options
        .exclude_operations
        .iter()
        .filter(|x| {
            !candidates
                .iter()
                .zip(&names)
                .any(|(c, name)| *name == **x || c.operation_id() == Some(x.as_str()))
        })
        .cloned()
        .collect();
    let unknown_tags = options
        .include_tags
        .iter()
        .filter(|tag| !candidates.iter().any(|c| c.tags().contains(tag)))
        .cloned()
        .collect();

    let schemes = Schemes::read(&reader);
    let Built {
        operations,
        used_schemes,
        definitions,
        responses,
    } = build_operations(&reader, &schemes, &candidates, names, &mut skipped)?;
    let tags = tags(root, &operations, options.max_description_chars);

    Ok(Document {
        api: Api {
            name: name.into(),
            title: title.into(),
            version: api_version.into(),
            servers: servers.into(),
            security_schemes: schemes.rows(&used_schemes).into(),
            operations: operations.into(),
            tags: tags.into(),
            definitions: if definitions.is_empty() {
                "".into()
            } else {
                Value::Object(definitions).to_string().into()
            },
        },
        skipped,
        files: sources.files_read(),
        responses,
        unknown_exclusions,
        unknown_tags,
    })
}

/// What the operations of a document are built into.
struct Built {
    operations: Vec<Operation>,
    /// The names of the security schemes they use.
    used_schemes: HashSet<String>,
    /// The schemas they refer to.
    definitions: Map<String, Value>,
    /// What they answer, when asked.
    responses: Option<Responses>,
}

/// The operations the filters keep, built; in lenient mode one that fails is skipped.
fn build_operations(
    reader: &Reader<'_>,
    schemes: &Schemes,
    candidates: &[Candidate<'_>],
    names: Vec<String>,
    skipped: &mut Vec<Skipped>,
) -> Result<Built, OpenApiError> {
    let options = reader.options;
    let mut builder = SchemaBuilder::new(reader);
    let mut operations = Vec::new();
    let mut used_schemes = HashSet::new();
    let mut kept = Vec::new();
    for (candidate, name) in candidates.iter().zip(names) {
        let tagged = options.include_tags.is_empty()
            || candidate
                .tags()
                .iter()
                .any(|t| options.include_tags.contains(t));
        let excluded = options
            .exclude_operations
            .iter()
            .any(|x| *x == name || Some(x.as_str()) == candidate.operation_id());
        if !tagged || excluded {
            continue;
        }
        let built = operation::build(reader, &mut builder, schemes, candidate, name);
        if built.is_err() {
            builder.abandon();
        }
        match built {
            Ok(operation) => {
                for requirement in operation.security.iter() {
                    used_schemes.extend(requirement.schemes.iter().map(ToString::to_string));
                }
                kept.push(candidate);
                operations.push(operation);
            }
            Err(error) if options.lenient => {
                skipped.push(skip(reader.sources, candidate.label(), error));
            }
            Err(error) => return Err(error),
        }
    }
    let responses = options.responses.then(|| {
        // What the requests' schemas named is converted again, read-only parts kept.
        let (mut answers, again) = builder.for_answers();
        for target in again {
            // One that fails is left out: the types that refer to it become untyped values.
            let _ = answers.convert_again(target);
        }
        let operations = kept
            .iter()
            .map(|candidate| responses::read(reader, &mut answers, candidate))
            .collect();
        Responses {
            operations,
            definitions: answers.into_defs(),
        }
    });
    let definitions = used_definitions(builder.into_defs(), &operations);
    Ok(Built {
        operations,
        used_schemes,
        definitions,
        responses,
    })
}

/// The definitions the operations' schemas use, directly or through each other: a body
/// spread into arguments, or an operation skipped after its schemas were converted, leaves
/// some that nothing refers to.
fn used_definitions(mut defs: Map<String, Value>, operations: &[Operation]) -> Map<String, Value> {
    // Definition names are made of `[A-Za-z0-9_.-]` (`names::def_name`), so a reference
    // reads to the next quote in the JSON text.
    fn references(text: &str, found: &mut Vec<String>) {
        const MARK: &str = "\"#/$defs/";
        let mut rest = text;
        while let Some(at) = rest.find(MARK) {
            rest = &rest[at + MARK.len()..];
            let end = rest.find('"').unwrap_or(rest.len());
            found.push(rest[..end].to_owned());
            rest = &rest[end..];
        }
    }
    let mut queue = Vec::new();
    for operation in operations {
        references(&operation.schema, &mut queue);
    }
    let mut used = HashSet::new();
    while let Some(name) = queue.pop() {
        if used.contains(&name) {
            continue;
        }
        if let Some(definition) = defs.get(&name) {
            references(&definition.to_string(), &mut queue);
        }
        used.insert(name);
    }
    defs.retain(|name, _| used.contains(name));
    defs
}

fn skip(sources: &Sources, operation: String, error: OpenApiError) -> Skipped {
    let pointer = if error.file == sources.name(0) {
        error.pointer
    } else {
        format!("{}#{}", error.file, error.pointer)
    };
    Skipped {
        operation,
        pointer,
        reason: error.message,
    }
}

/// A string, or a number or boolean written where a string belongs (YAML's `version:
/// 1.0`), as text.
/// The top-level `tags` with a description that one of `operations` uses, in document order
/// (the first entry of a name repeated), descriptions capped like operations' descriptions.
fn tags(root: &Map<String, Value>, operations: &[Operation], max_chars: usize) -> Vec<Tag> {
    let used: HashSet<&str> = operations
        .iter()
        .flat_map(|operation| operation.tags.iter().map(AsRef::as_ref))
        .collect();
    let mut seen = HashSet::new();
    let entries = root.get("tags").and_then(Value::as_array);
    entries
        .into_iter()
        .flatten()
        .filter_map(|entry| {
            let name = entry.get("name")?.as_str()?;
            let description = entry.get("description")?.as_str()?;
            let description = super::names::cap_text(description, max_chars)?;
            (used.contains(name) && seen.insert(name)).then(|| Tag {
                name: name.to_owned().into(),
                description: description.into(),
            })
        })
        .collect()
}

fn version(sources: &Sources, root: &Map<String, Value>) -> Result<Version, OpenApiError> {
    let at = |field: &str| Loc {
        doc: 0,
        pointer: format!("/{field}"),
    };
    if let Some(value) = root.get("openapi") {
        let text = scalar_text(value);
        let minor = |prefix: &str| text == prefix || text.starts_with(&format!("{prefix}."));
        return if minor("3.0") {
            Ok(Version::OpenApi30)
        } else if minor("3.1") || minor("3.2") {
            Ok(Version::OpenApi31)
        } else {
            Err(sources.error(
                &at("openapi"),
                format!("unsupported OpenAPI version `{text}` (3.0.x, 3.1.x and Swagger 2.0 can be read)"),
            ))
        };
    }
    if let Some(value) = root.get("swagger") {
        let text = scalar_text(value);
        return if text == "2.0" || text == "2" {
            Ok(Version::Swagger2)
        } else {
            Err(sources.error(
                &at("swagger"),
                format!("unsupported Swagger version `{text}` (2.0 can be read)"),
            ))
        };
    }
    Err(sources.error(
        &at("openapi"),
        "no `openapi` or `swagger` version field: this is not an OpenAPI document",
    ))
}

/// Every operation under `paths`, in document order. A path item that cannot be read is
/// an error, or in lenient mode a [`Skipped`] entry named by its path.
fn candidates<'a>(
    reader: &Reader<'a>,
    root: &'a Map<String, Value>,
    skipped: &mut Vec<Skipped>,
) -> Result<Vec<Candidate<'a>>, OpenApiError> {
    let sources = reader.sources;
    let paths_loc = Loc {
        doc: 0,
        pointer: "/paths".into(),
    };
    let paths = match root.get("paths") {
        Some(Value::Object(paths)) => paths,
        // OpenAPI 3.1 made `paths` optional (a document may hold only webhooks or
        // components); earlier versions require it.
        None if reader.version == Version::OpenApi31 => return Ok(Vec::new()),
        None => return Err(sources.error(&paths_loc, "the document has no `paths`")),
        Some(_) => return Err(sources.error(&paths_loc, "`paths` is not an object")),
    };
    let mut out = Vec::new();
    for (path, item) in paths {
        if path.starts_with("x-") {
            continue;
        }
        let item_loc = paths_loc.child(path);
        let resolved = reader
            .deref(item, &item_loc)
            .and_then(|(loc, value)| match value {
                Value::Object(map) if path.starts_with('/') => Ok((loc, map)),
                Value::Object(_) => {
                    Err(sources.error(&item_loc, format!("path `{path}` does not start with `/`")))
                }
                _ => Err(sources.error(&loc, "a path item is not an object")),
            });
        let (item_loc, item) = match resolved {
            Ok(found) => found,
            Err(error) if reader.options.lenient => {
                skipped.push(skip(sources, path.clone(), error));
                continue;
            }
            Err(error) => return Err(error),
        };
        for (key, op) in item {
            let Some(method) = Method::ALL.into_iter().find(|m| m.key() == key) else {
                continue;
            };
            let op_loc = item_loc.child(key);
            match op {
                Value::Object(op) => out.push(Candidate {
                    path: path.clone(),
                    method,
                    item,
                    item_loc: item_loc.clone(),
                    op,
                    op_loc,
                }),
                _ => {
                    let error = sources.error(&op_loc, "an operation is not an object");
                    if !reader.options.lenient {
                        return Err(error);
                    }
                    skipped.push(skip(sources, format!("{method} {path}"), error));
                }
            }
        }
    }
    Ok(out)
}
