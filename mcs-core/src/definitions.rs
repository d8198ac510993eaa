//! Schemas held once and shared by many parameters: [`Definitions`], and how a parameter's
//! schema that refers into them is made self-contained again ([`self_contained`]).
//!
//! A large API description reuses its schemas everywhere (Microsoft Graph's `user` is
//! reached from thousands of operations). Copying every referenced schema into every tool
//! makes memory grow with operations × schemas; referring to one shared copy keeps it linear
//! in the document. A model, a validator and an MCP client still receive a self-contained
//! schema: it is assembled when asked for, the way the OpenAPI reader used to build it —
//! references inlined while the schema stays small, recursive ones (and reuse past a budget)
//! kept as `$ref`s into the result's own `$defs`.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value, json};

/// Keywords whose value is one schema.
pub(crate) const SCHEMA_KEYWORDS: &[&str] = &[
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
];
/// Keywords whose value is a list of schemas.
pub(crate) const SCHEMA_LIST_KEYWORDS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
/// Keywords whose value maps names to schemas.
pub(crate) const SCHEMA_MAP_KEYWORDS: &[&str] = &[
    "properties",
    "patternProperties",
    "dependentSchemas",
    "$defs",
    "definitions",
];

/// Keywords whose schemas apply to the same instance as the schema holding them (the
/// others apply to a part of it: a property, an item). A reference back to a schema being
/// assembled, met without going down into the instance, adds nothing (`A: allOf [A]`).
const SAME_INSTANCE: &[&str] = &[
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
];

/// After this many schema nodes in one assembled schema, a definition used again goes to
/// `$defs` instead of being inlined again, so heavy reuse cannot grow it exponentially.
const INLINE_BUDGET: usize = 4_000;

/// After this many schema nodes, what is left is cut to a schema accepting anything that
/// says so: a hard bound on the time and size of assembling whatever the definitions hold.
const HARD_BUDGET: usize = 40_000;

/// Definitions nested deeper than this while inlining are cut, saying so (a bound on the
/// stack, and on what a model is asked to read, for definitions that nest without
/// recursing).
const MAX_DEPTH: usize = 64;

/// The note a schema cut at [`MAX_DEPTH`] carries.
const CUT_DEEP: &str = "(not described: nested too deeply)";

/// The note a schema cut at [`HARD_BUDGET`] (or a model's budget) carries.
const CUT_LARGE: &str = "(not described: the schema is too large)";

/// What a reference left unexpanded for a model says after the definition's description.
const NOT_EXPANDED: &str = "its fields are not listed here, to keep the description short";
/// The same for a list.
const NOT_EXPANDED_ITEMS: &str = "its items are not listed here, to keep the description short";

/// How much a schema shown to a model may hold, in characters (about 5,000 tokens): past it,
/// references deep in the schema are summarised rather than expanded.
pub(crate) const MODEL_BUDGET: usize = 20_000;

/// What one assembly may spend.
#[derive(Clone, Copy)]
struct Limits {
    /// Characters (roughly: keywords, names and texts) before what is left is cut.
    chars: usize,
    /// How many references deep definitions are expanded; deeper ones are summarised.
    expand: usize,
}

const NO_LIMITS: Limits = Limits {
    chars: usize::MAX,
    expand: usize::MAX,
};

/// `schema` made self-contained for a model: fully when that fits in `budget` characters,
/// otherwise with definitions expanded fewer references deep (the top of the schema
/// described, what lies deep below named and summarised) until it fits. Validation uses the
/// whole schema ([`self_contained`]); this bounds only what a model is asked to read.
pub(crate) fn for_model(schema: &Value, shared: &Definitions, budget: usize) -> Value {
    let mut last = Value::Null;
    for expand in [usize::MAX, 6, 4, 3, 2, 1, 0] {
        let (assembled, fits) = assemble(
            schema,
            shared,
            Limits {
                chars: budget,
                expand,
            },
        );
        if fits {
            return assembled;
        }
        last = assembled;
    }
    last
}

/// Named schemas that parameter schemas refer to as `{"$ref": "#/$defs/NAME"}`, held once
/// and shared (cloning is a reference-count increment).
///
/// A [`ToolParameter`](crate::ToolParameter) with definitions attached hands out its schema
/// self-contained ([`ToolParameter::resolved_schema`](crate::ToolParameter::resolved_schema)):
/// what it uses is inlined or carried in its own `$defs`. The OpenAPI reader attaches one
/// set per document, so a schema referenced by ten thousand operations is held once.
///
/// ```
/// use mcs_core::{Definitions, ToolParameter};
/// use serde_json::json;
///
/// let definitions = Definitions::new(
///     json!({"Pet": {"type": "object", "properties": {"name": {"type": "string"}}}})
///         .as_object()
///         .cloned()
///         .unwrap(),
/// );
/// let pet = ToolParameter::new("pet", "The pet to add.")
///     .with_schema(json!({"$ref": "#/$defs/Pet"}))
///     .with_definitions(definitions);
/// assert_eq!(
///     pet.resolved_schema().unwrap().into_owned(),
///     json!({"type": "object", "properties": {"name": {"type": "string"}}})
/// );
/// ```
#[derive(Clone, Default)]
pub struct Definitions(Arc<Map<String, Value>>);

impl Definitions {
    /// Definitions from a map of names to schemas.
    pub fn new(definitions: Map<String, Value>) -> Self {
        Definitions(Arc::new(definitions))
    }

    /// The schema named `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.0.get(name)
    }

    /// How many schemas there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The named schemas, in their order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.0.iter().map(|(name, schema)| (name.as_str(), schema))
    }

    /// `schema` made self-contained: each reference into these definitions inlined, or —
    /// when recursive, or used again once the schema has grown past a budget — kept as a
    /// reference with the definition carried in the result's own `$defs`.
    pub fn self_contained(&self, schema: &Value) -> Value {
        self_contained(schema, self)
    }

    /// `schema` self-contained down to `expand` references deep, what lies deeper named
    /// and summarised: what the top of a schema is (its type, its items' type, its
    /// description) at a cost that does not grow with how far its references reach. For
    /// mcs-codegen, which reads the top of each argument; not a stable API.
    #[doc(hidden)]
    pub fn self_contained_top(&self, schema: &Value, expand: usize) -> Value {
        assemble(
            schema,
            self,
            Limits {
                chars: usize::MAX,
                expand,
            },
        )
        .0
    }

    /// Whether `self` and `other` are the same shared set (not merely equal).
    pub fn ptr_eq(&self, other: &Definitions) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl PartialEq for Definitions {
    fn eq(&self, other: &Self) -> bool {
        self.ptr_eq(other) || self.0 == other.0
    }
}

impl fmt::Debug for Definitions {
    // A document's definitions can run to megabytes: a debug print names them only.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Definitions({} schemas)", self.0.len())
    }
}

impl From<Map<String, Value>> for Definitions {
    fn from(definitions: Map<String, Value>) -> Self {
        Definitions::new(definitions)
    }
}

/// Whether `schema` holds a `$ref` anywhere.
pub(crate) fn refers(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.contains_key("$ref") || map.values().any(refers),
        Value::Array(items) => items.iter().any(refers),
        _ => false,
    }
}

/// The name a `{"$ref": "#/$defs/NAME"}` refers to (the pointer segment unescaped).
pub(crate) fn defs_name(reference: &str) -> Option<String> {
    let rest = reference.strip_prefix("#/$defs/")?;
    (!rest.contains('/')).then(|| rest.replace("~1", "/").replace("~0", "~"))
}

fn defs_ref(name: &str) -> Value {
    json!({ "$ref": format!("#/$defs/{}", name.replace('~', "~0").replace('/', "~1")) })
}

/// `schema` made self-contained against `shared`: each reference into `shared` is inlined,
/// or — when recursive, or used again once the schema has grown past a budget — kept as a
/// reference with the definition carried in the result's `$defs`. References the schema
/// resolves itself (its own `$defs`) are left as they are.
pub(crate) fn self_contained(schema: &Value, shared: &Definitions) -> Value {
    assemble(schema, shared, NO_LIMITS).0
}

/// The assembled schema, and whether it fit in `limits.chars`.
fn assemble(schema: &Value, shared: &Definitions, limits: Limits) -> (Value, bool) {
    let own = schema.get("$defs").and_then(Value::as_object);
    let mut assembly = Assembly {
        shared,
        own,
        defs: Map::new(),
        placed: HashSet::new(),
        cache: HashMap::new(),
        active: Vec::new(),
        recursive: HashSet::new(),
        nodes: 0,
        chars: 0,
        limits,
        overflowed: false,
    };
    let mut result = assembly.node(schema, 0, 0);
    let fits = !assembly.overflowed;
    if assembly.defs.is_empty() {
        return (result, fits);
    }
    match &mut result {
        Value::Object(root) => {
            let defs = root
                .entry("$defs")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(defs) = defs {
                for (name, definition) in std::mem::take(&mut assembly.defs) {
                    defs.entry(name).or_insert(definition);
                }
            }
            (result, fits)
        }
        // A boolean root refers to nothing.
        _ => (result, fits),
    }
}

struct Assembly<'d> {
    shared: &'d Definitions,
    own: Option<&'d Map<String, Value>>,
    /// Definitions carried in the result's `$defs`.
    defs: Map<String, Value>,
    /// Names that are (or are being put) in `defs`: references to them stay references.
    placed: HashSet<String>,
    /// Definitions already inlined once, assembled, with their size in nodes and characters.
    cache: HashMap<String, (Value, usize, usize)>,
    /// Definitions being inlined, with the instance level each began at.
    active: Vec<(String, usize)>,
    /// Definitions found to contain themselves.
    recursive: HashSet<String>,
    nodes: usize,
    chars: usize,
    limits: Limits,
    /// Whether something was cut for want of characters.
    overflowed: bool,
}

impl Assembly<'_> {
    /// `depth` bounds the nesting of inlined definitions; `level` counts how far into the
    /// instance the schema applies, which tells recursion from a loop that describes nothing.
    fn node(&mut self, value: &Value, depth: usize, level: usize) -> Value {
        if depth > MAX_DEPTH {
            return json!({ "description": CUT_DEEP });
        }
        if self.nodes > HARD_BUDGET || self.chars > self.limits.chars {
            self.overflowed |= self.chars > self.limits.chars;
            return json!({ "description": CUT_LARGE });
        }
        self.nodes += 1;
        let Value::Object(map) = value else {
            return value.clone();
        };
        self.chars += weight(map);
        if let Some(name) = map.get("$ref").and_then(Value::as_str).and_then(defs_name)
            && self.own.is_none_or(|own| !own.contains_key(&name))
            && self.shared.get(&name).is_some()
        {
            let target = self.reference(&name, depth, level);
            return overlay(target, map);
        }
        let mut out = Map::with_capacity(map.len());
        for (key, child) in map {
            let key_str = key.as_str();
            let inner = if SAME_INSTANCE.contains(&key_str) {
                level
            } else {
                level + 1
            };
            let converted = if key_str == "$defs" || key_str == "definitions" {
                // The schema's own definitions resolve in it, as they are.
                child.clone()
            } else if let (true, Value::Array(items)) = (
                // A list of schemas; under `items`, the draft-07 tuple form.
                SCHEMA_KEYWORDS.contains(&key_str) || SCHEMA_LIST_KEYWORDS.contains(&key_str),
                child,
            ) {
                Value::Array(
                    items
                        .iter()
                        .map(|item| self.node(item, depth, inner))
                        .collect(),
                )
            } else if SCHEMA_KEYWORDS.contains(&key_str) {
                self.node(child, depth, inner)
            } else if SCHEMA_MAP_KEYWORDS.contains(&key_str) {
                match child {
                    Value::Object(members) => Value::Object(
                        members
                            .iter()
                            .map(|(name, schema)| (name.clone(), self.node(schema, depth, inner)))
                            .collect(),
                    ),
                    other => other.clone(),
                }
            } else {
                child.clone()
            };
            out.insert(key.clone(), converted);
        }
        nullable_type(out)
    }

    /// What a reference to the shared definition `name` becomes here.
    fn reference(&mut self, name: &str, depth: usize, level: usize) -> Value {
        if self.placed.contains(name) {
            return defs_ref(name);
        }
        if let Some((_, started)) = self.active.iter().find(|(active, _)| active == name) {
            if *started == level {
                // Back to itself without describing any part of the instance: no
                // constraint, and a validator following it would loop.
                return json!({});
            }
            self.recursive.insert(name.to_owned());
            self.placed.insert(name.to_owned());
            return defs_ref(name);
        }
        let shared = self.shared;
        let Some(target) = shared.get(name) else {
            return defs_ref(name);
        };
        if depth >= self.limits.expand {
            return summary(name, target);
        }
        if let Some((cached, size, chars)) = self.cache.get(name) {
            if self.nodes + size <= INLINE_BUDGET && self.chars + chars <= self.limits.chars {
                self.nodes += *size;
                self.chars += *chars;
                return cached.clone();
            }
            // Too big to inline once more: the definition moves to `$defs`, assembled
            // again (past the budget what it uses is referenced too, not copied whole).
            self.placed.insert(name.to_owned());
            self.active.push((name.to_owned(), level));
            let assembled = self.node(target, depth + 1, level);
            self.active.pop();
            self.defs.insert(name.to_owned(), assembled);
            return defs_ref(name);
        }
        self.active.push((name.to_owned(), level));
        let (start, start_chars) = (self.nodes, self.chars);
        let assembled = self.node(target, depth + 1, level);
        self.active.pop();
        if self.recursive.contains(name) {
            self.defs.insert(name.to_owned(), assembled);
            return defs_ref(name);
        }
        let size = self.nodes - start;
        let chars = self.chars - start_chars;
        self.cache
            .insert(name.to_owned(), (assembled.clone(), size, chars));
        assembled
    }
}

/// About how many characters a schema object adds when written out, not counting the
/// schemas inside it (they are counted as they are visited).
fn weight(map: &Map<String, Value>) -> usize {
    map.iter()
        .map(|(key, value)| {
            key.len()
                + 4
                + match value {
                    Value::String(text) => text.len() + 2,
                    Value::Array(items) => items
                        .iter()
                        .map(|item| match item {
                            Value::String(text) => text.len() + 3,
                            _ => 6,
                        })
                        .sum(),
                    Value::Object(_) => 2,
                    _ => 6,
                }
        })
        .sum()
}

/// A definition named rather than expanded: its type and description, and that its fields
/// (or items) are left out. A definition with no schema inside it (DynamoDB's
/// `IndexName`, a string with a pattern) has nothing to leave out, and is given whole.
fn summary(name: &str, target: &Value) -> Value {
    let Some(map) = target.as_object() else {
        return target.clone();
    };
    let inside = SCHEMA_KEYWORDS
        .iter()
        .chain(SCHEMA_LIST_KEYWORDS)
        .chain(SCHEMA_MAP_KEYWORDS)
        .chain(&["$ref"])
        .any(|key| map.contains_key(*key));
    if !inside {
        return target.clone();
    }
    let left_out = if map.contains_key("items") || map.contains_key("prefixItems") {
        NOT_EXPANDED_ITEMS
    } else {
        NOT_EXPANDED
    };
    let article = match name.chars().next() {
        Some(first) if "aeiouAEIOU".contains(first) => "An",
        _ => "A",
    };
    let mut out = Map::new();
    if let Some(kind) = target.get("type") {
        out.insert("type".to_owned(), kind.clone());
    }
    let own = target
        .get("description")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|text| !text.is_empty());
    let text = match own {
        Some(own) => format!("{own} ({} {name}; {left_out})", article.to_lowercase()),
        None => format!("{article} {name}; {left_out}."),
    };
    out.insert("description".to_owned(), Value::String(text));
    Value::Object(out)
}

/// `{"anyOf": [S, {"type": "null"}]}` — how a reference is made nullable — written as `S`
/// with `"null"` among its types once `S` is inlined, as the schema would read had it been
/// written in place. Only where that means the same: `S` has a `type` and nothing that would
/// also apply to `null` (`const`, combinators, a reference), and beside `anyOf` there are
/// only annotations.
fn nullable_type(mut out: Map<String, Value>) -> Value {
    const ANNOTATIONS: &[&str] = &["description", "title", "default", "examples", "deprecated"];
    const APPLY_TO_NULL: &[&str] = &["const", "allOf", "anyOf", "oneOf", "not", "if", "$ref"];
    let mergeable = match out.get("anyOf") {
        Some(Value::Array(members)) if members.len() == 2 => {
            members[1] == json!({"type": "null"})
                && members[0].as_object().is_some_and(|inner| {
                    inner.contains_key("type")
                        && !APPLY_TO_NULL.iter().any(|key| inner.contains_key(*key))
                })
        }
        _ => false,
    };
    if !mergeable
        || out
            .keys()
            .any(|key| key != "anyOf" && !ANNOTATIONS.contains(&key.as_str()))
    {
        return Value::Object(out);
    }
    let Some(Value::Array(mut members)) = out.shift_remove("anyOf") else {
        return Value::Object(out);
    };
    let Some(Value::Object(mut inner)) = members.drain(..1).next() else {
        return Value::Object(out);
    };
    let null = Value::String("null".into());
    match inner.get_mut("type") {
        Some(Value::String(single)) if single != "null" => {
            let single = std::mem::take(single);
            inner.insert("type".into(), json!([single, "null"]));
        }
        Some(Value::Array(list)) if !list.contains(&null) => list.push(null),
        _ => {}
    }
    if let Some(Value::Array(values)) = inner.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
    for (key, value) in out {
        inner.insert(key, value);
    }
    Value::Object(inner)
}

/// The keywords written beside a `$ref` (a description, a default) put over what the
/// reference became: the use site says more about this use than the definition does.
fn overlay(target: Value, reference: &Map<String, Value>) -> Value {
    if reference.len() == 1 {
        return target;
    }
    let siblings = reference.iter().filter(|(key, _)| key.as_str() != "$ref");
    match target {
        Value::Object(mut map) => {
            for (key, value) in siblings {
                map.insert(key.clone(), value.clone());
            }
            Value::Object(map)
        }
        Value::Bool(true) => Value::Object(
            siblings
                .map(|(key, value)| (key.clone(), value.clone()))
                .collect(),
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared(value: Value) -> Definitions {
        Definitions::new(value.as_object().cloned().unwrap())
    }

    #[test]
    fn references_are_inlined_with_what_the_use_site_adds() {
        let defs = shared(json!({"Id": {"type": "string", "description": "An id."}}));
        let schema = json!({"type": "object", "properties": {
            "a": {"$ref": "#/$defs/Id", "description": "The owner."},
            "b": {"$ref": "#/$defs/Id"},
        }});
        assert_eq!(
            self_contained(&schema, &defs),
            json!({"type": "object", "properties": {
                "a": {"type": "string", "description": "The owner."},
                "b": {"type": "string", "description": "An id."},
            }})
        );
    }

    #[test]
    fn recursion_keeps_a_reference_and_carries_the_definition() {
        let defs = shared(json!({"Node": {"type": "object", "properties": {
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
        }}}));
        let schema = json!({"$ref": "#/$defs/Node"});
        assert_eq!(
            self_contained(&schema, &defs),
            json!({"$ref": "#/$defs/Node", "$defs": {"Node": {"type": "object", "properties": {
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            }}}})
        );
    }

    #[test]
    fn a_loop_describing_nothing_is_dropped() {
        let defs = shared(json!({"A": {"allOf": [{"$ref": "#/$defs/A"}, {"type": "string"}]}}));
        assert_eq!(
            self_contained(&json!({"$ref": "#/$defs/A"}), &defs),
            json!({"allOf": [{}, {"type": "string"}]})
        );
    }

    #[test]
    fn heavy_reuse_moves_to_defs_instead_of_growing() {
        // Each level uses the one below twice: inlined whole it would be 2^20 copies.
        let mut map = Map::new();
        map.insert("L0".into(), json!({"type": "string"}));
        for n in 1..=20 {
            let below = format!("#/$defs/L{}", n - 1);
            map.insert(
                format!("L{n}"),
                json!({"type": "object", "properties": {"x": {"$ref": below}, "y": {"$ref": below}}}),
            );
        }
        let defs = Definitions::new(map);
        let schema = self_contained(&json!({"$ref": "#/$defs/L20"}), &defs);
        let text = schema.to_string();
        assert!(text.len() < 2_000_000, "{} bytes", text.len());
        assert!(schema["$defs"].as_object().is_some_and(|d| !d.is_empty()));
    }

    #[test]
    fn a_nullable_reference_reads_as_a_nullable_type_once_inlined() {
        let defs = shared(json!({"Size": {"type": "string", "enum": ["s", "m"]}}));
        let schema =
            json!({"anyOf": [{"$ref": "#/$defs/Size"}, {"type": "null"}], "description": "Size."});
        assert_eq!(
            self_contained(&schema, &defs),
            json!({"type": ["string", "null"], "enum": ["s", "m", null], "description": "Size."})
        );
        // A recursive one stays a reference, so the `anyOf` stays too.
        let defs = shared(
            json!({"N": {"type": "object", "properties": {"next": {"anyOf": [{"$ref": "#/$defs/N"}, {"type": "null"}]}}}}),
        );
        let schema = self_contained(&json!({"$ref": "#/$defs/N"}), &defs);
        assert_eq!(
            schema["$defs"]["N"]["properties"]["next"]["anyOf"][1],
            json!({"type": "null"})
        );
    }

    #[test]
    fn a_model_reads_the_top_of_a_large_schema_and_names_what_is_below() {
        // A tree of 400 entities, 20 described properties each: thousands of nodes whole.
        let mut map = Map::new();
        for n in 0..400 {
            let mut properties = Map::new();
            for p in 0..20 {
                properties.insert(
                    format!("p{p}"),
                    json!({"type": "string", "description": format!("Property {p} of entity {n}.")}),
                );
            }
            for child in [2 * n + 1, 2 * n + 2].into_iter().filter(|c| *c < 400) {
                properties.insert(
                    format!("e{child}"),
                    json!({"$ref": format!("#/$defs/E{child}")}),
                );
            }
            map.insert(
                format!("E{n}"),
                json!({"type": "object", "description": format!("Entity {n}."), "properties": properties}),
            );
        }
        let defs = Definitions::new(map);
        let schema = json!({"$ref": "#/$defs/E0"});
        let whole = self_contained(&schema, &defs);
        assert!(whole.to_string().len() > 100_000);
        let shown = for_model(&schema, &defs, MODEL_BUDGET);
        let text = shown.to_string();
        assert!(
            text.len() <= MODEL_BUDGET + MODEL_BUDGET / 4,
            "{} chars",
            text.len()
        );
        // The top is described, and nothing is cut mid-way: deep entities are named.
        assert_eq!(
            shown["properties"]["p0"]["description"],
            "Property 0 of entity 0."
        );
        assert!(!text.contains(CUT_LARGE), "{text}");
        assert!(text.contains(NOT_EXPANDED));
        // A small schema is shown whole.
        let small = json!({"$ref": "#/$defs/E399"});
        assert_eq!(
            for_model(&small, &defs, MODEL_BUDGET),
            self_contained(&small, &defs)
        );
    }

    #[test]
    fn a_summary_says_what_is_left_out_and_a_plain_value_is_given_whole() {
        let name = json!({"type": "string", "minLength": 3, "description": "An index name."});
        assert_eq!(summary("IndexName", &name), name);
        let list = json!({"type": "array", "items": {"$ref": "#/$defs/X"}});
        let text = summary("Indexes", &list)["description"].clone();
        assert_eq!(text, format!("An Indexes; {NOT_EXPANDED_ITEMS}."));
        let object = json!({"type": "object", "properties": {"a": {}}, "description": "A."});
        assert_eq!(
            summary("Thing", &object),
            json!({"type": "object", "description": format!("A. (a Thing; {NOT_EXPANDED})")})
        );
    }

    #[test]
    fn own_definitions_are_left_to_the_schema() {
        let defs = shared(json!({"A": {"type": "integer"}}));
        let schema = json!({"$ref": "#/$defs/A", "$defs": {"A": {"type": "string"}}});
        assert_eq!(self_contained(&schema, &defs), schema);
    }

    #[test]
    fn names_with_slashes_round_trip_through_pointers() {
        let defs = shared(json!({"a/b": {"type": "string"}}));
        assert_eq!(
            self_contained(&json!({"$ref": "#/$defs/a~1b"}), &defs),
            json!({"type": "string"})
        );
    }
}
