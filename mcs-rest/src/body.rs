//! Request bodies: JSON, form-urlencoded, multipart (with files), XML, text and raw bytes.

use std::path::{Component, Path, PathBuf};

use base64::Engine as _;
use serde_json::{Map, Value};

use super::charset;
use super::params::{form_encode_bytes, scalar_text};
use super::table::{BodyArgument, BodyEncoding, RequestBody, Text};
use super::xml;

/// An encoded body and its `Content-Type`.
pub(crate) struct Encoded {
    pub content_type: String,
    pub bytes: Vec<u8>,
}

/// Why a body could not be encoded; `argument` names the argument at fault (a path such
/// as `pet.tags[1]` when the fault is inside it).
pub(crate) struct BodyError {
    pub argument: String,
    pub message: String,
    /// What was received there, when it is not the whole body.
    pub received: Option<String>,
}

impl BodyError {
    fn new(argument: &str, message: impl Into<String>) -> Self {
        BodyError {
            argument: argument.to_owned(),
            message: message.into(),
            received: None,
        }
    }
}

/// The body's value taken out of the arguments: the whole argument, or an object of the
/// flattened properties that are present. `None` when the call gave no body.
pub(crate) fn take_body(body: &RequestBody, arguments: &mut Map<String, Value>) -> Option<Value> {
    match &body.argument {
        // A required JSON or form body left out is sent empty (`{}`): a tool whose schema
        // lets the call leave it out says an empty object fits it.
        BodyArgument::Whole(name) => arguments
            .remove(name.as_ref())
            .filter(|v| !v.is_null())
            .or_else(|| {
                (body.required && matches!(body.encoding, BodyEncoding::Json | BodyEncoding::Form))
                    .then(|| Value::Object(Map::new()))
            }),
        BodyArgument::Properties(names) => {
            let mut object = Map::new();
            for name in names.iter() {
                if let Some(value) = arguments.remove(name.as_ref()) {
                    object.insert(name.to_string(), value);
                }
            }
            // A required body whose properties are all optional is sent empty (`{}`):
            // the tool's schema lets the call leave every one out.
            (!object.is_empty() || body.required).then_some(Value::Object(object))
        }
    }
}

/// Encodes `value` as `body` says. `files` is the directory file paths may be read from.
pub(crate) fn encode(
    body: &RequestBody,
    value: &Value,
    files: Option<&Path>,
) -> Result<Encoded, BodyError> {
    let whole = match &body.argument {
        BodyArgument::Whole(name) => name.as_ref(),
        BodyArgument::Properties(_) => "",
    };
    let media_type = body.media_type.to_string();
    match body.encoding {
        BodyEncoding::Json => Ok(Encoded {
            content_type: media_type,
            bytes: serde_json::to_vec(value).map_err(|e| BodyError::new(whole, e.to_string()))?,
        }),
        BodyEncoding::Text => Ok(Encoded {
            bytes: charset::encode(&scalar_text(value), &media_type, false)
                .map_err(|why| BodyError::new(whole, format!("cannot be sent: {why}")))?,
            content_type: media_type,
        }),
        BodyEncoding::Binary => {
            let file = read_file(whole, value, files)?;
            Ok(Encoded {
                content_type: media_type,
                bytes: file.bytes,
            })
        }
        BodyEncoding::Form => Ok(Encoded {
            bytes: form(whole, value, &media_type, &body.deep_objects)
                .map_err(|why| BodyError::new(whole, format!("cannot be sent: {why}")))?
                .into_bytes(),
            content_type: media_type,
        }),
        BodyEncoding::Multipart => multipart(body, whole, value, files),
        BodyEncoding::Xml => {
            // In the charset the document declares, which the XML declaration names too; a
            // character that charset lacks is written as a character reference.
            let encoding = charset::xml_name(&media_type).unwrap_or("UTF-8");
            let document =
                xml::write(body.xml.as_deref(), value, whole, encoding).map_err(|problem| {
                    BodyError {
                        argument: problem.argument,
                        message: problem.expected,
                        received: Some(problem.received),
                    }
                })?;
            Ok(Encoded {
                bytes: charset::encode(&document, &media_type, true)
                    .map_err(|why| BodyError::new(whole, format!("cannot be sent: {why}")))?,
                content_type: media_type,
            })
        }
    }
}

/// `a=1&tags=x&tags=y`: arrays repeat their key, objects are written as JSON, except the
/// properties in `deep` (`deepObject` in the document's `encoding`), whose objects and
/// arrays are spread into bracketed keys: `address[city]=Paris`, `items[0][price]=p1`.
/// Keys and values are percent-encoded bytes of the charset `media_type` declares (UTF-8
/// when it declares none), as a browser sends a form in the page's charset.
fn form(
    whole: &str,
    value: &Value,
    media_type: &str,
    deep: &[Text],
) -> Result<String, charset::Unwritable> {
    let encode = |text: &str| -> Result<String, charset::Unwritable> {
        Ok(form_encode_bytes(&charset::encode(
            text, media_type, false,
        )?))
    };
    let mut pairs = Vec::new();
    let mut push = |key: &str, value: &Value| -> Result<(), charset::Unwritable> {
        let mut spread = Vec::new();
        if deep.iter().any(|name| name == key) {
            deep_pairs(key.to_owned(), value, &mut spread);
        } else {
            let items: &[Value] = match value {
                Value::Null => &[],
                Value::Array(items) => items,
                other => std::slice::from_ref(other),
            };
            spread.extend(items.iter().map(|item| (key.to_owned(), item)));
        }
        for (key, item) in spread {
            pairs.push(format!("{}={}", encode(&key)?, encode(&scalar_text(item))?));
        }
        Ok(())
    };
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                push(key, value)?;
            }
        }
        other => push(if whole.is_empty() { "body" } else { whole }, other)?,
    }
    Ok(pairs.join("&"))
}

/// The pairs of `value` under `key` in the `deepObject` style: an object's members as
/// `key[member]`, an array's items as `key[index]`, to any depth; null is left out.
fn deep_pairs<'v>(key: String, value: &'v Value, pairs: &mut Vec<(String, &'v Value)>) {
    match value {
        Value::Null => {}
        Value::Object(map) => {
            for (member, value) in map {
                deep_pairs(format!("{key}[{member}]"), value, pairs);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                deep_pairs(format!("{key}[{index}]"), item, pairs);
            }
        }
        scalar => pairs.push((key, scalar)),
    }
}

struct Part {
    name: String,
    filename: Option<String>,
    content_type: Option<String>,
    bytes: Vec<u8>,
}

fn multipart(
    body: &RequestBody,
    whole: &str,
    value: &Value,
    files: Option<&Path>,
) -> Result<Encoded, BodyError> {
    let mut parts = Vec::new();
    let entries: Vec<(&str, &Value)> = match value {
        Value::Object(map) => map.iter().map(|(k, v)| (k.as_str(), v)).collect(),
        other => vec![(if whole.is_empty() { "body" } else { whole }, other)],
    };
    for (name, value) in entries {
        let is_file = body.files.iter().any(|f| f == name);
        let items: Vec<&Value> = match value {
            Value::Array(items) => items.iter().collect(),
            Value::Null => Vec::new(),
            other => vec![other],
        };
        for item in items {
            parts.push(if is_file {
                let file = read_file(name, item, files)?;
                Part {
                    name: name.to_owned(),
                    filename: Some(file.filename),
                    content_type: Some(file.content_type),
                    bytes: file.bytes,
                }
            } else {
                let json = matches!(item, Value::Object(_));
                Part {
                    name: name.to_owned(),
                    filename: None,
                    content_type: json.then(|| "application/json".to_owned()),
                    bytes: scalar_text(item).into_bytes(),
                }
            });
        }
    }
    let boundary = boundary_for(&parts);
    let mut bytes = Vec::new();
    for part in &parts {
        bytes.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        let mut disposition = format!(
            "Content-Disposition: form-data; name=\"{}\"",
            quote(&part.name)
        );
        if let Some(filename) = &part.filename {
            disposition.push_str(&format!("; filename=\"{}\"", quote(filename)));
        }
        bytes.extend_from_slice(disposition.as_bytes());
        bytes.extend_from_slice(b"\r\n");
        if let Some(content_type) = &part.content_type {
            bytes.extend_from_slice(format!("Content-Type: {content_type}\r\n").as_bytes());
        }
        bytes.extend_from_slice(b"\r\n");
        bytes.extend_from_slice(&part.bytes);
        bytes.extend_from_slice(b"\r\n");
    }
    bytes.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    Ok(Encoded {
        content_type: format!("multipart/form-data; boundary={boundary}"),
        bytes,
    })
}

/// Names in a `Content-Disposition` header: quotes and line breaks escaped, as browsers do.
fn quote(text: &str) -> String {
    text.replace('"', "%22")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A boundary that occurs in no part; deterministic, so requests are reproducible.
fn boundary_for(parts: &[Part]) -> String {
    (0u32..)
        .map(|n| format!("mcs-boundary-{n:08x}"))
        .find(|candidate| {
            !parts
                .iter()
                .any(|p| contains(&p.bytes, candidate.as_bytes()))
        })
        .unwrap_or_else(|| "mcs-boundary".to_owned())
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

struct File {
    filename: String,
    content_type: String,
    bytes: Vec<u8>,
}

/// A file argument: `{"base64": ..., "filename"?, "content_type"?}`, `{"path": ...}` (inside
/// the granted directory), or a plain string taken as the file's text.
fn read_file(argument: &str, value: &Value, root: Option<&Path>) -> Result<File, BodyError> {
    let text = |key: &str| value.get(key).and_then(Value::as_str);
    let content_type = text("content_type")
        .unwrap_or("application/octet-stream")
        .to_owned();
    if let Value::String(content) = value {
        return Ok(File {
            filename: argument.to_owned(),
            content_type: "text/plain".to_owned(),
            bytes: content.clone().into_bytes(),
        });
    }
    if let Some(encoded) = text("base64") {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(encoded.trim())
            .map_err(|e| BodyError::new(argument, format!("`base64` is not valid base64: {e}")))?;
        return Ok(File {
            filename: text("filename").unwrap_or(argument).to_owned(),
            content_type,
            bytes,
        });
    }
    if let Some(path) = text("path") {
        let Some(root) = root else {
            return Err(BodyError {
                argument: argument.to_owned(),
                message: "the file's content as `base64` (this driver was given no directory \
                          to read files from by `path`)"
                    .into(),
                received: Some(format!("the `path` {path:?}")),
            });
        };
        let resolved = resolve_inside(root, path).ok_or_else(|| {
            BodyError::new(
                argument,
                format!("`{path}` is not a file inside the directory this driver may read"),
            )
        })?;
        let bytes = std::fs::read(&resolved)
            .map_err(|e| BodyError::new(argument, format!("cannot read `{path}`: {e}")))?;
        let filename = resolved
            .file_name()
            .map_or_else(|| argument.to_owned(), |n| n.to_string_lossy().into_owned());
        return Ok(File {
            filename: text("filename").map_or(filename, str::to_owned),
            content_type,
            bytes,
        });
    }
    Err(BodyError::new(
        argument,
        "a file is `{\"base64\": \"...\", \"filename\": \"...\"}` or `{\"path\": \"...\"}`",
    ))
}

/// `path` resolved inside `root`, symbolic links followed; `None` if it leaves the root.
fn resolve_inside(root: &Path, path: &str) -> Option<PathBuf> {
    let relative = Path::new(path);
    if relative
        .components()
        .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return None;
    }
    let root = root.canonicalize().ok()?;
    let resolved = root.join(relative).canonicalize().ok()?;
    (resolved.starts_with(&root) && resolved.is_file()).then_some(resolved)
}
