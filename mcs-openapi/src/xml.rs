//! The XML layout of a request body: its schema cut down to what places each part of the
//! body in XML — the `xml` objects (`name`, `namespace`, `prefix`, `attribute`, `wrapped`),
//! `properties` (in order), `items`, `allOf`/`anyOf`/`oneOf` — with the schemas it refers to
//! held once in its own `$defs`, so a recursive schema stays finite. `mcs_rest` writes an
//! XML body by it ([`RequestBody::xml`](mcs_rest::RequestBody::xml)).
//!
//! The argument schemas leave `xml` out (it means nothing to a model or a validator), so
//! the layout is taken from the document's schema itself, not from the converted one.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value, json};

use super::error::{OpenApiError, last_token};
use super::reader::Reader;
use super::source::{Loc, ref_of};
use mcs_rest::is_xml_name;

/// Schemas nested deeper than this within one schema are left out of the layout (their
/// parts are then named by default); the walk must not exhaust the stack.
const MAX_DEPTH: usize = 64;

/// At most this many references are followed in a row to find the root element's name.
const MAX_REFS: usize = 32;

/// The layout of a body whose schema is `schema` (with where it is; `None` when the media
/// type has none). The root element is named by the schema's `xml.name` (through its
/// references), else by the name of the schema it refers to, else `default_root`.
pub(crate) fn layout(
    reader: &Reader<'_>,
    schema: Option<(&Value, &Loc)>,
    default_root: &str,
) -> Result<Value, OpenApiError> {
    let mut builder = LayoutBuilder {
        reader,
        defs: Map::new(),
        def_of: HashMap::new(),
        taken: HashSet::new(),
        pending: Vec::new(),
    };
    let mut root = match schema {
        Some((schema, loc)) => builder.node(schema, loc, 0)?,
        None => json!({}),
    };
    while let Some(target) = builder.pending.pop() {
        let name = builder.def_of[&target].clone();
        let converted = match reader.sources.get(&target) {
            Some(value) => builder.node(value, &target, 0)?,
            None => json!({}),
        };
        builder.defs.insert(name, converted);
    }
    let name = match schema {
        Some((schema, loc)) => root_name(reader, schema, loc)?,
        None => None,
    }
    .unwrap_or_else(|| default_root.to_owned());
    if let Value::Object(map) = &mut root {
        let xml = map.entry("xml").or_insert_with(|| json!({}));
        xml["name"] = Value::String(name);
        if !builder.defs.is_empty() {
            map.insert("$defs".into(), Value::Object(builder.defs));
        }
    }
    Ok(root)
}

/// The root element's name the document gives: the first `xml.name` met following the
/// schema's references, else the name of the first schema referred to when it is an XML
/// name.
fn root_name(
    reader: &Reader<'_>,
    schema: &Value,
    loc: &Loc,
) -> Result<Option<String>, OpenApiError> {
    let sources = reader.sources;
    let mut current = (loc.clone(), schema);
    let mut referred_name = None;
    for _ in 0..MAX_REFS {
        let (at, value) = current;
        if let Some(name) = value
            .get("xml")
            .and_then(|xml| xml.get("name"))
            .and_then(Value::as_str)
        {
            return Ok(Some(name.to_owned()));
        }
        let Some(reference) = ref_of(value) else {
            break;
        };
        let target = sources.resolve(reference, &at)?;
        if referred_name.is_none() {
            referred_name = Some(last_token(&target.pointer)).filter(|name| is_xml_name(name));
        }
        let Some(next) = sources.get(&target) else {
            break;
        };
        current = (target, next);
    }
    Ok(referred_name)
}

/// Builds one layout, naming each referenced schema once.
struct LayoutBuilder<'r> {
    reader: &'r Reader<'r>,
    /// The layouts of referenced schemas, by name.
    defs: Map<String, Value>,
    /// The name given to a referenced schema, by where it is.
    def_of: HashMap<Loc, String>,
    /// The names given so far.
    taken: HashSet<String>,
    /// Referenced schemas named but not laid out yet.
    pending: Vec<Loc>,
}

impl LayoutBuilder<'_> {
    fn node(&mut self, value: &Value, loc: &Loc, depth: usize) -> Result<Value, OpenApiError> {
        let Some(map) = value.as_object() else {
            return Ok(json!({}));
        };
        let mut out = Map::new();
        if let Some(xml) = map.get("xml") {
            let hints = self.hints(xml, &loc.child("xml"))?;
            if !hints.is_empty() {
                out.insert("xml".into(), Value::Object(hints));
            }
        }
        if depth > MAX_DEPTH {
            return Ok(Value::Object(out));
        }
        // Keywords beside a `$ref` other than `xml` are not followed: the reference says
        // what the part is, `xml` beside it where it goes.
        if let Some(reference) = ref_of(value) {
            let sources = &self.reader.sources;
            let target = sources.follow(&sources.resolve(reference, loc)?)?;
            let name = self.definition_name(target);
            out.insert("$ref".into(), Value::String(format!("#/$defs/{name}")));
            return Ok(Value::Object(out));
        }
        if let Some(Value::Object(properties)) = map.get("properties") {
            let at = loc.child("properties");
            let mut converted = Map::new();
            for (name, schema) in properties {
                let node = self.node(schema, &at.child(name), depth + 1)?;
                converted.insert(name.clone(), node);
            }
            out.insert("properties".into(), Value::Object(converted));
        }
        if let Some(items @ Value::Object(_)) = map.get("items") {
            let node = self.node(items, &loc.child("items"), depth + 1)?;
            out.insert("items".into(), node);
        }
        for keyword in ["allOf", "anyOf", "oneOf"] {
            if let Some(Value::Array(members)) = map.get(keyword) {
                let at = loc.child(keyword);
                let mut converted = Vec::with_capacity(members.len());
                for (index, member) in members.iter().enumerate() {
                    converted.push(self.node(member, &at.index(index), depth + 1)?);
                }
                out.insert(keyword.into(), Value::Array(converted));
            }
        }
        Ok(Value::Object(out))
    }

    /// The hints of an `xml` object that place a part, checked: a name or prefix no element
    /// could have is the document's error, named where it is.
    fn hints(&self, xml: &Value, loc: &Loc) -> Result<Map<String, Value>, OpenApiError> {
        let sources = &self.reader.sources;
        let Some(xml) = xml.as_object() else {
            return Err(sources.error(loc, "`xml` is not an object"));
        };
        let mut hints = Map::new();
        for key in ["name", "namespace", "prefix"] {
            match xml.get(key) {
                None => {}
                Some(Value::String(text)) => {
                    if key == "name" && !is_xml_name(text) {
                        return Err(sources.error(
                            &loc.child(key),
                            format!("`xml.name` \"{text}\" is not an XML name"),
                        ));
                    }
                    if key == "prefix" && (text.contains(':') || !is_xml_name(text)) {
                        return Err(sources.error(
                            &loc.child(key),
                            format!("`xml.prefix` \"{text}\" is not an XML name without `:`"),
                        ));
                    }
                    hints.insert(key.into(), Value::String(text.clone()));
                }
                Some(_) => {
                    return Err(
                        sources.error(&loc.child(key), format!("`xml.{key}` is not a string"))
                    );
                }
            }
        }
        for key in ["attribute", "wrapped"] {
            match xml.get(key) {
                None => {}
                Some(Value::Bool(flag)) => {
                    hints.insert(key.into(), Value::Bool(*flag));
                }
                Some(_) => {
                    return Err(
                        sources.error(&loc.child(key), format!("`xml.{key}` is not true or false"))
                    );
                }
            }
        }
        // OpenAPI 3.2 says `nodeType: attribute` for what earlier versions call
        // `attribute: true`.
        if xml.get("nodeType").and_then(Value::as_str) == Some("attribute") {
            hints.insert("attribute".into(), Value::Bool(true));
        }
        Ok(hints)
    }

    /// The name of the referenced schema at `target` in the layout's `$defs`, given (and the
    /// schema queued) the first time it is referred to.
    fn definition_name(&mut self, target: Loc) -> String {
        if let Some(name) = self.def_of.get(&target) {
            return name.clone();
        }
        // Any unique name does: it only links a reference to its entry. Characters a
        // JSON pointer would escape are left out, so `#/$defs/NAME` reads as it is.
        let token: String = last_token(&target.pointer)
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
            .collect();
        let base = if token.is_empty() {
            "schema".to_owned()
        } else {
            token
        };
        let mut name = base.clone();
        let mut counter = 2;
        while self.taken.contains(&name) {
            name = format!("{base}_{counter}");
            counter += 1;
        }
        self.taken.insert(name.clone());
        self.def_of.insert(target.clone(), name.clone());
        self.pending.push(target);
        name
    }
}
