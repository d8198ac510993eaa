//! Schemas of a document turned into the self-contained JSON Schema (2020-12 flavoured)
//! a tool's arguments are described and validated with.
//!
//! One [`SchemaBuilder`] serves one operation: every argument's schema goes through it, and
//! what must live in `$defs` (recursive schemas, and schemas reused so often that inlining
//! them again would make the schema too big) is collected once for the whole arguments
//! object. References that are neither are inlined, so the common case reads flat.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value, json};

use super::error::{OpenApiError, last_token};
use super::keywords::{
    ANNOTATIONS, CHILD_SCHEMA, IN_PLACE_SCHEMA, PLAIN_KEYWORDS, SCHEMA_LISTS, clean_type, def_ref,
    file_schema, is_file_type, is_nullable, make_nullable, push_example, with_key,
};
use super::names::{cap_text, def_name};
use super::reader::Reader;
use super::source::{Loc, ref_of};

/// Schemas nested deeper than this are cut (to a schema accepting anything, saying so):
/// no real schema is that deep, and the walk must not exhaust the stack on a hostile one.
const MAX_DEPTH: usize = 64;

/// After this many schema nodes in one operation, a schema referenced again goes to
/// `$defs` instead of being inlined again, so heavy reuse cannot grow the output
/// exponentially.
const INLINE_BUDGET: usize = 4_000;

/// After this many schema nodes in one operation, whatever is left is cut like a schema
/// nested too deeply: a hard bound on time and size whatever the document does.
const HARD_BUDGET: usize = 40_000;

/// The note a schema cut at [`MAX_DEPTH`] carries.
const CUT_DEEP: &str = "(not described: nested too deeply)";

/// The note a schema cut at [`HARD_BUDGET`] carries.
const CUT_LARGE: &str = "(not described: the schema is too large)";

/// Builds the schemas of one operation's arguments, sharing one `$defs`.
pub(crate) struct SchemaBuilder<'r> {
    reader: &'r Reader<'r>,
    defs: Map<String, Value>,
    /// The `$defs` key given to a schema, by where the schema is.
    def_of: HashMap<Loc, String>,
    /// Schemas already converted inline, with their size in nodes.
    cache: HashMap<Loc, (Value, usize)>,
    /// The referenced schemas being converted, with the instance level each began at.
    active: Vec<(Loc, usize)>,
    /// Referenced schemas found to contain themselves.
    recursive: HashSet<Loc>,
    nodes: usize,
}

impl<'r> SchemaBuilder<'r> {
    /// A builder for one operation.
    pub(crate) fn new(reader: &'r Reader<'r>) -> Self {
        SchemaBuilder {
            reader,
            defs: Map::new(),
            def_of: HashMap::new(),
            cache: HashMap::new(),
            active: Vec::new(),
            recursive: HashSet::new(),
            nodes: 0,
        }
    }

    /// The `$defs` collected so far (empty when nothing needed them).
    pub(crate) fn into_defs(self) -> Map<String, Value> {
        self.defs
    }

    /// The definition `$ref` points to, when `schema` is a reference into `$defs`.
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
        self.node(value, loc, 0, 0)
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

    /// `depth` counts nested schemas (the stack bound); `level` counts how far into the
    /// instance the schema applies (a property, an item), which tells real recursion
    /// from a reference that loops back without describing anything.
    fn node(
        &mut self,
        value: &Value,
        loc: &Loc,
        depth: usize,
        level: usize,
    ) -> Result<Value, OpenApiError> {
        // Past a bound the schema accepts anything, and says so, so the model is not
        // left guessing why a part is unconstrained.
        if depth > MAX_DEPTH {
            return Ok(json!({ "description": CUT_DEEP }));
        }
        if self.nodes > HARD_BUDGET {
            return Ok(json!({ "description": CUT_LARGE }));
        }
        self.nodes += 1;
        match value {
            Value::Bool(_) => Ok(value.clone()),
            Value::Object(map) => {
                if let Some(reference) = ref_of(value) {
                    let sources = &self.reader.sources;
                    let target = sources.follow(&sources.resolve(reference, loc)?)?;
                    let converted = self.reference(&target, depth, level)?;
                    self.overlay(converted, map, loc, depth, level)
                } else {
                    self.object(map, loc, depth, level)
                }
            }
            // Not a schema at all: the most honest reading is "anything".
            _ => Ok(json!({})),
        }
    }

    /// The schema a reference to `target` becomes: inline, or `{"$ref": "#/$defs/..."}`.
    fn reference(
        &mut self,
        target: &Loc,
        depth: usize,
        level: usize,
    ) -> Result<Value, OpenApiError> {
        if let Some(name) = self.def_of.get(target) {
            return Ok(def_ref(name));
        }
        if let Some((_, started)) = self.active.iter().find(|(loc, _)| loc == target) {
            if *started == level {
                // Back to itself without describing any part of the instance (`A: allOf
                // [A]`): it adds no constraint, and a validator following it would loop.
                return Ok(json!({}));
            }
            self.recursive.insert(target.clone());
            let name = self.assign_def_name(target);
            return Ok(def_ref(&name));
        }
        let Some(value) = self.reader.sources.get(target) else {
            return Ok(json!({}));
        };
        if let Some((cached, size)) = self.cache.get(target) {
            if self.nodes + size <= INLINE_BUDGET {
                self.nodes += *size;
                return Ok(cached.clone());
            }
            // Too big to inline once more: the schema moves to `$defs`. It is converted
            // again rather than copied from the cache, because past the budget the
            // schemas it uses are themselves referenced, not inlined, and the copy
            // would carry every one of them whole.
            let name = self.assign_def_name(target);
            self.active.push((target.clone(), level));
            let converted = self.node(value, target, depth + 1, level);
            self.active.pop();
            self.defs.insert(name.clone(), converted?);
            return Ok(def_ref(&name));
        }
        self.active.push((target.clone(), level));
        let start = self.nodes;
        let converted = self.node(value, target, depth + 1, level);
        self.active.pop();
        let converted = converted?;
        if self.recursive.contains(target) {
            let name = self.assign_def_name(target);
            self.defs.insert(name.clone(), converted);
            return Ok(def_ref(&name));
        }
        let size = self.nodes - start;
        self.cache.insert(target.clone(), (converted.clone(), size));
        Ok(converted)
    }

    fn assign_def_name(&mut self, target: &Loc) -> String {
        if let Some(name) = self.def_of.get(target) {
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
        let taken: HashSet<&String> = self.def_of.values().collect();
        let mut name = base.clone();
        let mut counter = 2;
        while taken.contains(&name) {
            name = format!("{base}_{counter}");
            counter += 1;
        }
        self.def_of.insert(target.clone(), name.clone());
        name
    }

    /// What a reference's sibling keywords add to the schema it resolved to.
    fn overlay(
        &mut self,
        converted: Value,
        siblings: &Map<String, Value>,
        loc: &Loc,
        depth: usize,
        level: usize,
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
            let rest = self.object(&rest, loc, depth + 1, level)?;
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
        level: usize,
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
                    let inner = if key == "dependentSchemas" {
                        level
                    } else {
                        level + 1
                    };
                    for (name, schema) in members {
                        let member_loc = map_loc.child(name);
                        if key == "properties" && self.is_read_only(schema, &member_loc) {
                            read_only.push(name.clone());
                            continue;
                        }
                        converted.insert(
                            name.clone(),
                            self.node(schema, &member_loc, depth + 1, inner)?,
                        );
                    }
                    out.insert(key.clone(), Value::Object(converted));
                }
                "items" => match value {
                    // A list under `items` is the draft-4 tuple form; 2020-12 spells it
                    // `prefixItems`.
                    Value::Array(list) => {
                        let list = self.list(list, &at(), depth, level + 1)?;
                        out.insert("prefixItems".into(), list);
                    }
                    _ => {
                        let item = self.node(value, &at(), depth + 1, level + 1)?;
                        out.insert(key.clone(), item);
                    }
                },
                "prefixItems" => {
                    if let Value::Array(list) = value {
                        let list = self.list(list, &at(), depth, level + 1)?;
                        out.insert(key.clone(), list);
                    }
                }
                key_str if SCHEMA_LISTS.contains(&key_str) => {
                    if let Value::Array(list) = value {
                        let list = self.list(list, &at(), depth, level)?;
                        out.insert(key.clone(), list);
                    }
                }
                key_str if IN_PLACE_SCHEMA.contains(&key_str) => {
                    let converted = self.node(value, &at(), depth + 1, level)?;
                    out.insert(key.clone(), converted);
                }
                key_str if CHILD_SCHEMA.contains(&key_str) => {
                    let converted = self.node(value, &at(), depth + 1, level + 1)?;
                    out.insert(key.clone(), converted);
                }
                "required" => {
                    if let Value::Array(names) = value {
                        let names: Vec<Value> =
                            names.iter().filter(|n| n.is_string()).cloned().collect();
                        out.insert(key.clone(), Value::Array(names));
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
                    out.insert(key.clone(), value.clone());
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

    fn list(
        &mut self,
        list: &[Value],
        loc: &Loc,
        depth: usize,
        level: usize,
    ) -> Result<Value, OpenApiError> {
        let mut out = Vec::with_capacity(list.len());
        for (i, item) in list.iter().enumerate() {
            out.push(self.node(item, &loc.index(i), depth + 1, level)?);
        }
        Ok(Value::Array(out))
    }
}
