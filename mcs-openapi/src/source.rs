//! The files a document is made of: parsing JSON or YAML, loading the files its `$ref`s
//! name, and resolving references into them.
//!
//! Every file a reference names is loaded up front, before any operation is read, so the
//! rest of the reader walks immutable values and can hold plain borrows of them. A file
//! that cannot be loaded is remembered as an error and reported only when a reference
//! that is actually followed leads into it: a broken file named from an unused corner of
//! a document does not stop the read.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use serde_json::Value;

use super::error::OpenApiError;

/// At most this many files are loaded for one document; beyond, a reference fails.
const MAX_FILES: usize = 512;

/// At most this many `$ref`s are followed in a row before a chain counts as a cycle.
const MAX_REF_CHAIN: usize = 64;

/// A place in one of the loaded files: which file, and a JSON pointer into it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Loc {
    pub doc: usize,
    pub pointer: String,
}

impl Loc {
    /// The place one `token` below this one.
    pub(crate) fn child(&self, token: &str) -> Loc {
        Loc {
            doc: self.doc,
            pointer: super::error::child(&self.pointer, token),
        }
    }

    /// The place at `index` of the array here.
    pub(crate) fn index(&self, index: usize) -> Loc {
        Loc {
            doc: self.doc,
            pointer: super::error::index(&self.pointer, index),
        }
    }
}

struct SourceFile {
    /// The name errors use: the path as given, the URL without its query, or the name
    /// handed to `read_str`.
    name: String,
    /// Where relative references in this file are resolved from.
    base: Option<Base>,
    value: Result<Value, OpenApiError>,
}

/// What a file's relative references are resolved against.
enum Base {
    /// The directory of a file read from disk.
    Dir(PathBuf),
    /// The URL of a file fetched over HTTP: its references name URLs too, never a file on
    /// this machine. (Only `fetch`, with the `http` feature, makes one.)
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    Url(String),
}

/// A file a reference names, and what makes two references the same file: the canonical
/// path for a file on disk (when it exists), the URL without its fragment for a remote one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Origin {
    Path(PathBuf),
    Url(String),
}

impl Origin {
    fn identity(&self) -> Origin {
        match self {
            Origin::Path(path) => Origin::Path(identity(path)),
            Origin::Url(url) => Origin::Url(url.clone()),
        }
    }
}

/// The root document and every file its references name.
pub(crate) struct Sources {
    files: Vec<SourceFile>,
    /// Loaded files by identity, to their index.
    by_origin: HashMap<Origin, usize>,
    /// Every file read from disk, in the order read.
    read: Vec<PathBuf>,
    /// How many files have had the files their references name loaded or asked for.
    scanned: usize,
    /// Remote files references name that are not fetched yet ([`Sources::take_wanted`]).
    wanted: Vec<String>,
}

impl Sources {
    /// Parses the root document and loads every file its references (and theirs) name.
    pub(crate) fn load(
        text: &str,
        name: &str,
        root_path: Option<&Path>,
        base_dir: Option<&Path>,
    ) -> Result<Sources, OpenApiError> {
        let value = parse(text, name, root_path.or_else(|| Some(Path::new(name))))?;
        let mut sources = Sources::new(SourceFile {
            name: name.to_owned(),
            base: base_dir.map(|dir| Base::Dir(dir.to_path_buf())),
            value: Ok(value),
        });
        if let Some(path) = root_path {
            sources.by_origin.insert(Origin::Path(identity(path)), 0);
            sources.read.push(path.to_path_buf());
        }
        sources.load_referenced_files();
        Ok(sources)
    }

    /// Parses the root document fetched from `url` (named `name` in messages). The remote
    /// files its references name are not fetched here: [`Sources::take_wanted`] says which
    /// to fetch, [`Sources::add_fetched`] takes each, until none is wanted.
    #[cfg(feature = "http")]
    pub(crate) fn load_remote(text: &str, name: &str, url: &str) -> Result<Sources, OpenApiError> {
        let value = parse(text, name, Some(Path::new(url_path(url))))?;
        let url = without_fragment(url).to_owned();
        let mut sources = Sources::new(SourceFile {
            name: name.to_owned(),
            base: Some(Base::Url(url.clone())),
            value: Ok(value),
        });
        sources.by_origin.insert(Origin::Url(url), 0);
        sources.load_referenced_files();
        Ok(sources)
    }

    fn new(root: SourceFile) -> Sources {
        Sources {
            files: vec![root],
            by_origin: HashMap::new(),
            read: Vec::new(),
            scanned: 0,
            wanted: Vec::new(),
        }
    }

    /// The remote files references name that are not loaded yet, each once; emptied.
    #[cfg(feature = "http")]
    pub(crate) fn take_wanted(&mut self) -> Vec<String> {
        std::mem::take(&mut self.wanted)
    }

    /// Adds the remote file at `url` (one [`Sources::take_wanted`] gave), its text or why
    /// it could not be fetched, and asks in turn for the files its references name.
    #[cfg(feature = "http")]
    pub(crate) fn add_fetched(&mut self, url: &str, name: &str, text: Result<String, String>) {
        let value = text
            .map_err(|why| OpenApiError::new(name, "", why))
            .and_then(|text| parse(&text, name, Some(Path::new(url_path(url)))));
        self.by_origin
            .insert(Origin::Url(url.to_owned()), self.files.len());
        self.files.push(SourceFile {
            name: name.to_owned(),
            base: Some(Base::Url(url.to_owned())),
            value,
        });
        self.load_referenced_files();
    }

    /// Every file read from disk.
    pub(crate) fn files_read(&self) -> Vec<PathBuf> {
        self.read.clone()
    }

    /// The name of file `doc`, for messages.
    pub(crate) fn name(&self, doc: usize) -> &str {
        self.files.get(doc).map_or("", |file| file.name.as_str())
    }

    /// The root document's value.
    pub(crate) fn root(&self) -> &Value {
        static NULL: Value = Value::Null;
        match self.files.first().map(|file| &file.value) {
            Some(Ok(value)) => value,
            _ => &NULL,
        }
    }

    /// The value at `loc`, if there is one.
    pub(crate) fn get(&self, loc: &Loc) -> Option<&Value> {
        match &self.files.get(loc.doc)?.value {
            Ok(value) => value.pointer(&loc.pointer),
            Err(_) => None,
        }
    }

    /// An error at `loc`.
    pub(crate) fn error(&self, loc: &Loc, message: impl Into<String>) -> OpenApiError {
        OpenApiError::new(self.name(loc.doc), loc.pointer.clone(), message)
    }

    /// `loc` written for a message: the pointer alone in the root document, `file#pointer`
    /// elsewhere.
    pub(crate) fn describe(&self, loc: &Loc) -> String {
        if loc.doc == 0 {
            loc.pointer.clone()
        } else {
            format!("{}#{}", self.name(loc.doc), loc.pointer)
        }
    }

    /// Where the reference `reference`, written at `at`, points.
    pub(crate) fn resolve(&self, reference: &str, at: &Loc) -> Result<Loc, OpenApiError> {
        let (file_part, fragment) = match reference.split_once('#') {
            Some((file, fragment)) => (file, fragment),
            None => (reference, ""),
        };
        let doc = if file_part.is_empty() {
            at.doc
        } else {
            let origin = self.file_origin(at.doc, file_part).map_err(|message| {
                self.error(
                    &at.child("$ref"),
                    format!("cannot follow `{reference}`: {message}"),
                )
            })?;
            *self.by_origin.get(&origin.identity()).ok_or_else(|| {
                self.error(
                    &at.child("$ref"),
                    format!("cannot follow `{reference}`: too many files referenced"),
                )
            })?
        };
        if let Some(Err(error)) = self.files.get(doc).map(|file| &file.value) {
            return Err(error.clone());
        }
        let pointer = fragment_pointer(fragment).ok_or_else(|| {
            self.error(
                &at.child("$ref"),
                format!("`{reference}`: only JSON-pointer fragments (`#/...`) are supported"),
            )
        })?;
        let target = Loc { doc, pointer };
        if self.get(&target).is_none() {
            return Err(self.error(
                &at.child("$ref"),
                format!("`{reference}` points at nothing"),
            ));
        }
        Ok(target)
    }

    /// Follows `$ref`s from `loc` until a value that is not a reference, and returns where
    /// that value is. A chain that comes back on itself is an error, not a hang.
    pub(crate) fn follow(&self, loc: &Loc) -> Result<Loc, OpenApiError> {
        let mut current = loc.clone();
        let mut seen = vec![current.clone()];
        loop {
            let Some(reference) = self.get(&current).and_then(ref_of) else {
                return Ok(current);
            };
            let next = self.resolve(reference, &current)?;
            if let Some(first) = seen.iter().position(|seen| *seen == next) {
                let cycle: Vec<String> =
                    seen[first..].iter().map(|loc| self.describe(loc)).collect();
                return Err(self.error(
                    loc,
                    format!(
                        "reference cycle: {} → {}",
                        cycle.join(" → "),
                        self.describe(&next)
                    ),
                ));
            }
            // A chain this long is no document's intent, and not a cycle either: say where
            // it starts and where it was given up.
            if seen.len() > MAX_REF_CHAIN {
                return Err(self.error(
                    loc,
                    format!(
                        "more than {MAX_REF_CHAIN} references in a row, given up: {} → {} → … → {} → {}",
                        self.describe(&seen[0]),
                        self.describe(&seen[1]),
                        self.describe(&current),
                        self.describe(&next)
                    ),
                ));
            }
            seen.push(next.clone());
            current = next;
        }
    }

    /// The file `reference` (a relative or absolute file path, or a URL) names, seen from
    /// file `doc`. In a fetched file every reference is a URL, resolved against the file's
    /// own; in a file from disk, a path.
    fn file_origin(&self, doc: usize, reference: &str) -> Result<Origin, String> {
        let base = self.files.get(doc).and_then(|file| file.base.as_ref());
        if let Some(Base::Url(url)) = base {
            return remote_reference(url, reference).map(Origin::Url);
        }
        if reference.contains("://") {
            return Err(
                "remote references are followed only in a document fetched by its URL".into(),
            );
        }
        let decoded = percent_encoding::percent_decode_str(reference).decode_utf8_lossy();
        let relative = Path::new(decoded.as_ref());
        if relative.is_absolute() {
            return Ok(Origin::Path(relative.to_path_buf()));
        }
        let Some(Base::Dir(dir)) = base else {
            return Err("a file reference needs the directory of the document (read it from a file, or give a base directory)".into());
        };
        Ok(Origin::Path(normalize(&dir.join(relative))))
    }

    /// Loads, breadth first, every file on disk a reference in a loaded file names, and
    /// asks for every remote one ([`Sources::take_wanted`]).
    fn load_referenced_files(&mut self) {
        while self.scanned < self.files.len() {
            let next = self.scanned;
            self.scanned += 1;
            let mut references = Vec::new();
            if let Ok(value) = &self.files[next].value {
                collect_file_refs(value, &mut references);
            }
            for reference in references {
                let Ok(origin) = self.file_origin(next, &reference) else {
                    continue;
                };
                let key = origin.identity();
                if self.by_origin.contains_key(&key)
                    || self.files.len() + self.wanted.len() >= MAX_FILES
                {
                    continue;
                }
                let path = match origin {
                    Origin::Path(path) => path,
                    Origin::Url(url) => {
                        if !self.wanted.contains(&url) {
                            self.wanted.push(url);
                        }
                        continue;
                    }
                };
                let name = path.display().to_string();
                let value = match std::fs::read_to_string(&path) {
                    Ok(text) => {
                        self.read.push(path.clone());
                        parse(&text, &name, Some(&path))
                    }
                    Err(error) => Err(OpenApiError::new(
                        &name,
                        "",
                        format!("cannot read: {error}"),
                    )),
                };
                self.by_origin.insert(key, self.files.len());
                self.files.push(SourceFile {
                    name,
                    base: path.parent().map(|dir| Base::Dir(dir.to_path_buf())),
                    value,
                });
            }
        }
    }
}

/// `url` without its `#fragment`.
#[cfg(feature = "http")]
fn without_fragment(url: &str) -> &str {
    url.split('#').next().unwrap_or(url)
}

/// The path part of `url` (no query, no fragment): its extension says JSON or YAML.
#[cfg(feature = "http")]
fn url_path(url: &str) -> &str {
    without_fragment(url).split('?').next().unwrap_or(url)
}

/// The URL `reference` names, resolved against the URL of the file that makes it, without
/// its fragment. Only `http` and `https`: a fetched document cannot make this process read
/// a file of its machine (`file:///etc/passwd`, or `/etc/passwd`, which names a path on the
/// document's server).
#[cfg(feature = "http")]
pub(crate) fn remote_reference(base: &str, reference: &str) -> Result<String, String> {
    let base = url::Url::parse(base).map_err(|e| format!("the document's URL: {e}"))?;
    let mut target = base
        .join(reference)
        .map_err(|e| format!("not a URL reference: {e}"))?;
    if !matches!(target.scheme(), "http" | "https") {
        return Err(format!(
            "a fetched document's references are fetched over http(s), not `{}:`",
            target.scheme()
        ));
    }
    target.set_fragment(None);
    Ok(target.into())
}

#[cfg(not(feature = "http"))]
fn remote_reference(_base: &str, _reference: &str) -> Result<String, String> {
    Err("following a fetched document's references needs mcs-openapi's `http` feature".into())
}

/// The target of `value` if it is a reference object (`{"$ref": "..."}`).
pub(crate) fn ref_of(value: &Value) -> Option<&str> {
    value.as_object()?.get("$ref")?.as_str()
}

/// Parses `text` as JSON or YAML: by the extension of `path`, else by its first character.
pub(crate) fn parse(text: &str, name: &str, path: Option<&Path>) -> Result<Value, OpenApiError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let extension = path
        .and_then(Path::extension)
        .and_then(|ext| ext.to_str())
        .map(str::to_ascii_lowercase);
    let json = match extension.as_deref() {
        Some("json") => true,
        Some("yaml" | "yml") => false,
        _ => text.trim_start().starts_with('{'),
    };
    if json {
        serde_json::from_str(text)
            .map_err(|error| OpenApiError::new(name, "", format!("invalid JSON: {error}")))
    } else {
        if let Some((line, column)) = runaway_flow_nesting(text) {
            return Err(OpenApiError::new(
                name,
                "",
                format!(
                    "invalid YAML: brackets nested deeper than {MAX_FLOW_NESTING} at line {line} column {column}"
                ),
            ));
        }
        serde_yaml_ng::from_str(text)
            .map(|YamlValue(value)| value)
            .map_err(|error| OpenApiError::new(name, "", format!("invalid YAML: {error}")))
    }
}

/// A YAML document read as JSON values, as [`Value`]'s own `Deserialize` reads it, except
/// for integers past 64 bits (`maximum: 99999999999999999999`): JSON documents hold those as
/// floating-point numbers, and so do YAML ones here, where `Value` refuses the whole document.
struct YamlValue(Value);

impl<'de> serde::Deserialize<'de> for YamlValue {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(YamlVisitor).map(YamlValue)
    }
}

struct YamlVisitor;

impl<'de> serde::de::Visitor<'de> for YamlVisitor {
    type Value = Value;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a YAML value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(value.into())
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(value.into())
    }

    fn visit_i128<E>(self, value: i128) -> Result<Value, E> {
        Ok(i64::try_from(value).map_or_else(|_| (value as f64).into(), Value::from))
    }

    fn visit_u128<E>(self, value: u128) -> Result<Value, E> {
        Ok(u64::try_from(value).map_or_else(|_| (value as f64).into(), Value::from))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        // Infinite and NaN have no JSON form: null, as `Value` reads them.
        Ok(value.into())
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        serde::Deserialize::deserialize(deserializer).map(|YamlValue(value)| value)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(YamlValue(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some((key, YamlValue(value))) = map.next_entry::<String, YamlValue>()? {
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// Deeper bracket nesting than this is refused before the YAML parser sees it.
const MAX_FLOW_NESTING: usize = 1024;

/// Where `text` opens more than [`MAX_FLOW_NESTING`] unclosed `[` or `{`, if it does.
///
/// The YAML parser gives up at depth 128 anyway, but only after scanning flow
/// collections in time that grows with the square of their depth: 100,000 brackets take
/// half a minute. Counting brackets without regard to quoting can only overcount by
/// brackets inside strings, and no real document holds a thousand unclosed ones.
fn runaway_flow_nesting(text: &str) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    let (mut line, mut column) = (1, 0);
    for ch in text.chars() {
        column += 1;
        match ch {
            '\n' => {
                line += 1;
                column = 0;
            }
            '[' | '{' => {
                depth += 1;
                if depth > MAX_FLOW_NESTING {
                    return Some((line, column));
                }
            }
            ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// The JSON pointer a reference's fragment stands for, percent-decoded; `None` for a
/// fragment that is not a pointer (a plain-name anchor).
fn fragment_pointer(fragment: &str) -> Option<String> {
    let decoded = percent_encoding::percent_decode_str(fragment).decode_utf8_lossy();
    if decoded.is_empty() || decoded.starts_with('/') {
        Some(decoded.into_owned())
    } else {
        None
    }
}

/// Collects the file parts of every `$ref` string in `value`, without recursion (a
/// deeply nested value cannot exhaust the stack).
fn collect_file_refs(value: &Value, out: &mut Vec<String>) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(reference)) = map.get("$ref") {
                    let file = reference.split('#').next().unwrap_or("");
                    if !file.is_empty() && !out.iter().any(|seen| seen == file) {
                        out.push(file.to_owned());
                    }
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
}

/// `path` with `.` and `..` folded away, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// What makes two paths the same file: the canonical path if the file exists.
fn identity(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| normalize(path))
}
