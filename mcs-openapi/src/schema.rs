//! Schemas of a document turned into the JSON Schema (2020-12 flavoured) a tool's arguments
//! are described and validated with.
//!
//! One [`SchemaBuilder`] serves a whole document: every schema a reference points at is
//! converted once, into the document's definitions, and the operations' schemas refer to it
//! (`{"$ref": "#/$defs/Pet"}`). Tools share those definitions (`mcs_core::Definitions`), and
//! a tool's schema is assembled self-contained when it is asked for — references inlined
//! while it stays small, recursive ones kept — so memory grows with the document, not with
//! operations × the schemas each reaches.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value, json};

use super::error::{OpenApiError, last_token};
use super::keywords::{
    ANNOTATIONS, CHILD_SCHEMA, IN_PLACE_SCHEMA, PLAIN_KEYWORDS, SCHEMA_LISTS, clean_keyword,
    clean_type, def_ref, file_schema, is_file_type, is_nullable, make_nullable, push_example,
    unique_strings, with_key,
};
use super::names::{cap_text, def_name};
use super::reader::Reader;
use super::source::{Loc, ref_of};

/// Schemas nested deeper than this (within one schema, references aside) are cut (to a
/// schema accepting anything, saying so): no real schema is that deep, and the walk must not
/// exhaust the stack on a hostile one.
const MAX_DEPTH: usize = 64;

/// The note a schema cut at [`MAX_DEPTH`] carries.
const CUT_DEEP: &str = "(not described: nested too deeply)";

/// Converts a document's schemas, collecting what references point at as shared
/// definitions.
pub(crate) struct SchemaBuilder<'r> {
    reader: &'r Reader<'r>,
    /// The definitions converted so far, by name.
    defs: Map<String, Value>,
    /// The definition name given to a referenced schema, by where the schema is.
    def_of: HashMap<Loc, String>,
    /// The names given so far.
    taken: HashSet<String>,
    /// Referenced schemas named but not converted yet.
    pending: Vec<Loc>,
    /// Whether `readOnly` properties are kept (marked so) rather than left out: for the
    /// schemas of answers, where they are what the API fills in.
    keep_read_only: bool,
    /// Whether a `oneOf`/`anyOf`'s `discriminator` is kept (its mapping pointing into the
    /// definitions): for the schemas of answers, whose types read it to tell variants
    /// apart. Argument schemas leave it out: it means nothing to a model or a validator.
    keep_discriminator: bool,
}

impl<'r> SchemaBuilder<'r> {
    /// A builder for one document.
    pub(crate) fn new(reader: &'r Reader<'r>) -> Self {
        SchemaBuilder {
            reader,
            defs: Map::new(),
            def_of: HashMap::new(),
            taken: HashSet::new(),
            pending: Vec::new(),
            keep_read_only: false,
            keep_discriminator: false,
        }
    }

    /// A builder for the schemas of answers: `readOnly` properties kept, and every schema
    /// this one named converted again under the same name, so a type made from a request's
    /// schema and one made from an answer's agree on what `#/$defs/Pet` is.
    /// It is given with what is to be converted again, one by one through
    /// [`convert_again`](Self::convert_again), so that one that fails here (a read-only
    /// part the requests never read) loses only itself.
    pub(crate) fn for_answers(&self) -> (SchemaBuilder<'r>, Vec<Loc>) {
        let mut again: Vec<Loc> = self
            .def_of
            .iter()
            .filter(|(_, name)| self.defs.contains_key(name.as_str()))
            .map(|(loc, _)| loc.clone())
            .collect();
        // Converted in name order: the result must not depend on a hash map's order.
        again.sort_by(|a, b| self.def_of[a].cmp(&self.def_of[b]));
        let builder = SchemaBuilder {
            reader: self.reader,
            defs: Map::new(),
            def_of: self.def_of.clone(),
            taken: self.taken.clone(),
            pending: Vec::new(),
            keep_read_only: true,
            keep_discriminator: true,
        };
        (builder, again)
    }

    /// Converts the schema at `target` (named already) and what it refers to, unless that
    /// was done; on failure nothing of this run is kept.
    pub(crate) fn convert_again(&mut self, target: Loc) -> Result<(), OpenApiError> {
        let done = self
            .def_of
            .get(&target)
            .is_none_or(|name| self.defs.contains_key(name.as_str()));
        if !done {
            self.pending.push(target);
        }
        self.complete()
    }

    /// The definitions of the whole document (empty when nothing referred to any).
    pub(crate) fn into_defs(self) -> Map<String, Value> {
        self.defs
    }

    /// Converts every schema referred to since the last call (and what those refer to): an
    /// operation's schemas are complete, and [`def_target`](Self::def_target) can look
    /// through their references, once this has returned. A worklist rather than recursion,
    /// so a chain of ten thousand references costs no stack.
    pub(crate) fn complete(&mut self) -> Result<(), OpenApiError> {
        let mut done = Vec::new();
        while let Some(target) = self.pending.pop() {
            let name = self.def_of[&target].clone();
            let converted = match self.reader.sources.get(&target) {
                Some(value) => self.node(value, &target, 0),
                None => Ok(json!({})),
            };
            match converted {
                Ok(converted) => {
                    self.defs.insert(name, converted);
                    done.push(target);
                }
                Err(error) => {
                    // What this run converted may refer to the schema that failed: it all
                    // goes, so an operation reaching it later fails the same way.
                    for target in done.into_iter().chain([target]) {
                        if let Some(name) = self.def_of.remove(&target) {
                            self.defs.shift_remove(&name);
                        }
                    }
                    self.abandon();
                    return Err(error);
                }
            }
        }
        Ok(())
    }

    /// Forgets the references named since the last [`complete`](Self::complete): the
    /// operation that made them failed, and the next one must not convert (and fail on)
    /// what it never used. Their names stay taken, so that no other schema answers to them.
    pub(crate) fn abandon(&mut self) {
        for target in std::mem::take(&mut self.pending) {
            self.def_of.remove(&target);
        }
    }

    /// The definition `$ref` points to, when `schema` is a reference into the definitions.
    pub(crate) fn def_target<'s>(&'s self, schema: &'s Value) -> &'s Value {
        let mut current = schema;
        for _ in 0..8 {
            let Some(name) = ref_of(current).and_then(|r| r.strip_prefix("#/$defs/")) else {
                break;
            };
            match self.defs.get(name) {
                Some(target) => current = target,
                None => break,
            }
        }
        current
    }

    /// Converts the schema `value`, found at `loc` (references in it resolve from there).
    pub(crate) fn convert(&mut self, value: &Value, loc: &Loc) -> Result<Value, OpenApiError> {
        self.node(value, loc, 0)
    }

    /// Whether the property schema `value` at `loc` is marked `readOnly` (directly or
    /// through its reference): such properties are never sent, so requests leave them out.
    pub(crate) fn is_read_only(&self, value: &Value, loc: &Loc) -> bool {
        if value.get("readOnly").and_then(Value::as_bool) == Some(true) {
            return true;
        }
        let sources = &self.reader.sources;
        let Some(reference) = ref_of(value) else {
            return false;
        };
        let target = sources
            .resolve(reference, loc)
            .and_then(|first| sources.follow(&first));
        match target.ok().as_ref().and_then(|target| sources.get(target)) {
            Some(target) => target.get("readOnly").and_then(Value::as_bool) == Some(true),
            None => false,
        }
    }

    /// `depth` counts nested schemas within one referenced schema (the stack bound).
    fn node(&mut self, value: &Value, loc: &Loc, depth: usize) -> Result<Value, OpenApiError> {
        // Past the bound the schema accepts anything, and says so, so the model is not
        // left guessing why a part is unconstrained.
        if depth > MAX_DEPTH {
            return Ok(json!({ "description": CUT_DEEP }));
        }
        match value {
            Value::Bool(_) => Ok(value.clone()),
            Value::Object(map) => {
                if let Some(reference) = ref_of(value) {
                    let sources = &self.reader.sources;
                    let target = sources.follow(&sources.resolve(reference, loc)?)?;
                    let converted = def_ref(&self.definition_name(target));
                    self.overlay(converted, map, loc, depth)
                } else {
                    self.object(map, loc, depth)
                }
            }
            // Not a schema at all: the most honest reading is "anything".
            _ => Ok(json!({})),
        }
    }

    /// The definition name of the schema at `target`, given (and the schema queued for
    /// conversion) the first time it is referred to.
    fn definition_name(&mut self, target: Loc) -> String {
        if let Some(name) = self.def_of.get(&target) {
            return name.clone();
        }
        let token = last_token(&target.pointer);
        let base = if token.is_empty() {
            // A whole file: its stem names it.
            let file = self.reader.sources.name(target.doc);
            let stem = std::path::Path::new(file)
                .file_stem()
                .and_then(|s| s.to_str());
            def_name(stem.unwrap_or("Schema"))
        } else {
            def_name(&token)
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

    /// What a reference's sibling keywords add to the schema it resolved to.
    fn overlay(
        &mut self,
        converted: Value,
        siblings: &Map<String, Value>,
        loc: &Loc,
        depth: usize,
    ) -> Result<Value, OpenApiError> {
        let structural = siblings.keys().any(|key| {
            key != "$ref"
                && key != "nullable"
                && !key.starts_with("x-")
                && !ANNOTATIONS.contains(&key.as_str())
        });
        // OpenAPI 3.1 schemas are full JSON Schema: keywords next to `$ref` apply too.
        // Earlier versions ignore them, except the annotations kept below.
        let mut result = if structural && self.reader.ref_siblings_apply() {
            let mut rest = siblings.clone();
            rest.remove("$ref");
            let rest = self.object(&rest, loc, depth + 1)?;
            json!({"allOf": [converted, rest]})
        } else {
            converted
        };
        if let Some(text) = siblings
            .get("description")
            .and_then(Value::as_str)
            .and_then(|text| cap_text(text, self.reader.options.max_description_chars))
        {
            result = with_key(result, "description", Value::String(text));
        }
        if let Some(default) = siblings.get("default") {
            result = with_key(result, "default", default.clone());
        }
        if is_nullable(siblings) {
            result = make_nullable(result);
        }
        Ok(result)
    }

    fn object(
        &mut self,
        map: &Map<String, Value>,
        loc: &Loc,
        depth: usize,
    ) -> Result<Value, OpenApiError> {
        let options = self.reader.options;
        let description = map
            .get("description")
            .and_then(Value::as_str)
            .and_then(|text| cap_text(text, options.max_description_chars));
        if is_file_type(map.get("type")) {
            // Swagger 2.0 `type: file`: an upload.
            return Ok(file_schema(description.as_deref()));
        }
        let mut out = Map::new();
        let mut read_only = Vec::new();
        let mut exclusive = (false, false);
        for (key, value) in map {
            let at = || loc.child(key);
            match key.as_str() {
                "type" => {
                    if let Some(types) = clean_type(value) {
                        out.insert(key.clone(), types);
                    }
                }
                "description" => {
                    if let Some(text) = &description {
                        out.insert(key.clone(), Value::String(text.clone()));
                    }
                }
                "title" if description.is_none() => {
                    if let Some(text) = value
                        .as_str()
                        .and_then(|t| cap_text(t, options.max_description_chars))
                    {
                        out.insert(key.clone(), Value::String(text));
                    }
                }
                "properties" | "patternProperties" | "dependentSchemas" => {
                    let Some(members) = value.as_object() else {
                        continue;
                    };
                    let map_loc = at();
                    let mut converted = Map::new();
                    for (name, schema) in members {
                        let member_loc = map_loc.child(name);
                        let read_only_here =
                            key == "properties" && self.is_read_only(schema, &member_loc);
                        if read_only_here && !self.keep_read_only {
                            read_only.push(name.clone());
                            continue;
                        }
                        let mut member = self.node(schema, &member_loc, depth + 1)?;
                        if read_only_here {
                            member = with_key(member, "readOnly", Value::Bool(true));
                        }
                        converted.insert(name.clone(), member);
                    }
                    out.insert(key.clone(), Value::Object(converted));
                }
                "items" => match value {
                    // A list under `items` is the draft-4 tuple form; 2020-12 spells it
                    // `prefixItems`.
                    Value::Array(list) => {
                        let list = self.list(list, &at(), depth)?;
                        out.insert("prefixItems".into(), list);
                    }
                    _ => {
                        let item = self.node(value, &at(), depth + 1)?;
                        out.insert(key.clone(), item);
                    }
                },
                "prefixItems" => {
                    if let Value::Array(list) = value {
                        let list = self.list(list, &at(), depth)?;
                        out.insert(key.clone(), list);
                    }
                }
                key_str if SCHEMA_LISTS.contains(&key_str) => {
                    if let Value::Array(list) = value {
                        let list = self.list(list, &at(), depth)?;
                        out.insert(key.clone(), list);
                    }
                }
                key_str if IN_PLACE_SCHEMA.contains(&key_str) => {
                    let converted = self.node(value, &at(), depth + 1)?;
                    out.insert(key.clone(), converted);
                }
                key_str if CHILD_SCHEMA.contains(&key_str) => {
                    let converted = self.node(value, &at(), depth + 1)?;
                    out.insert(key.clone(), converted);
                }
                "required" => {
                    if let Value::Array(names) = value {
                        out.insert(key.clone(), Value::Array(unique_strings(names)));
                    }
                }
                "enum" if value.is_array() => {
                    out.insert(key.clone(), value.clone());
                }
                "exclusiveMinimum" | "exclusiveMaximum" => match value {
                    Value::Bool(flag) => {
                        if key == "exclusiveMinimum" {
                            exclusive.0 = *flag;
                        } else {
                            exclusive.1 = *flag;
                        }
                    }
                    Value::Number(_) => {
                        out.insert(key.clone(), value.clone());
                    }
                    _ => {}
                },
                "example" if options.keep_examples => {
                    push_example(&mut out, value.clone());
                }
                "examples" if options.keep_examples => {
                    if let Value::Array(list) = value {
                        for example in list {
                            push_example(&mut out, example.clone());
                        }
                    }
                }
                key_str if PLAIN_KEYWORDS.contains(&key_str) => {
                    if let Some(value) = clean_keyword(key_str, value) {
                        out.insert(key.clone(), value);
                    }
                }
                "discriminator" if self.keep_discriminator => {
                    if let Some(discriminator) = self.discriminator(value, map, loc) {
                        out.insert(key.clone(), discriminator);
                    }
                }
                _ => {}
            }
        }
        if let Some(Value::Array(required)) = out.get_mut("required") {
            required.retain(|name| !read_only.iter().any(|r| Some(r.as_str()) == name.as_str()));
        }
        if matches!(out.get("required"), Some(Value::Array(list)) if list.is_empty()) {
            out.remove("required");
        }
        // OpenAPI 3.0 and Swagger 2.0 write `exclusiveMinimum: true` next to `minimum`;
        // 2020-12 puts the bound itself under `exclusiveMinimum`.
        for (flag, plain, exclusive_key) in [
            (exclusive.0, "minimum", "exclusiveMinimum"),
            (exclusive.1, "maximum", "exclusiveMaximum"),
        ] {
            if flag && let Some(bound) = out.remove(plain) {
                out.insert(exclusive_key.into(), bound);
            }
        }
        let result = Value::Object(out);
        Ok(if is_nullable(map) {
            make_nullable(result)
        } else {
            result
        })
    }

    /// The `discriminator` of the union `map` (at `loc`), for the types of answers: the
    /// property whose value names the variant, and for each value the definition it names
    /// (`{"propertyName": "petType", "mapping": {"dog": "#/$defs/Dog"}}`) — what the
    /// document maps, then each referenced variant it does not by its schema's name, as
    /// OpenAPI's implicit mapping does. `None` when it names no property (Swagger 2.0's
    /// `discriminator` is a bare property name on a base schema, not on a union). A mapping
    /// that resolves to nothing is left out: the types then try the variants in turn.
    fn discriminator(
        &mut self,
        value: &Value,
        map: &Map<String, Value>,
        loc: &Loc,
    ) -> Option<Value> {
        let property = value.get("propertyName")?.as_str()?;
        let mut mapping = Map::new();
        let mut mapped = HashSet::new();
        if let Some(Value::Object(explicit)) = value.get("mapping") {
            for (tag, target) in explicit {
                let Some(target) = target.as_str() else {
                    continue;
                };
                // A bare name is a schema of the document's components.
                let reference = if target.contains(['/', '#']) {
                    target.to_owned()
                } else {
                    format!("#/components/schemas/{target}")
                };
                let sources = &self.reader.sources;
                let Ok(target) = sources
                    .resolve(&reference, loc)
                    .and_then(|first| sources.follow(&first))
                else {
                    continue;
                };
                if sources.get(&target).is_none() {
                    continue;
                }
                let name = self.definition_name(target);
                mapping.insert(tag.clone(), Value::String(format!("#/$defs/{name}")));
                mapped.insert(name);
            }
        }
        for key in ["oneOf", "anyOf"] {
            let Some(Value::Array(variants)) = map.get(key) else {
                continue;
            };
            for variant in variants {
                let sources = &self.reader.sources;
                let Some(target) = ref_of(variant)
                    .and_then(|reference| sources.resolve(reference, loc).ok())
                    .and_then(|first| sources.follow(&first).ok())
                else {
                    continue;
                };
                let tag = last_token(&target.pointer);
                let name = self.definition_name(target);
                if !mapped.contains(&name) && !tag.is_empty() {
                    mapping
                        .entry(tag)
                        .or_insert_with(|| Value::String(format!("#/$defs/{name}")));
                }
            }
        }
        Some(json!({ "propertyName": property, "mapping": mapping }))
    }

    fn list(&mut self, list: &[Value], loc: &Loc, depth: usize) -> Result<Value, OpenApiError> {
        let mut out = Vec::with_capacity(list.len());
        for (i, item) in list.iter().enumerate() {
            out.push(self.node(item, &loc.index(i), depth + 1)?);
        }
        Ok(Value::Array(out))
    }
}
