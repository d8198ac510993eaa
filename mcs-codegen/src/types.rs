//! JSON Schema → Rust types, for callers who write Rust: object schemas as structs, string
//! enums as enums that also carry values the document does not list, unions that can be
//! told apart as untagged enums, arrays, maps and nullables as `Vec`, `BTreeMap` and
//! `Option`. Anything else stays a `serde_json::Value`, so every document gives code that
//! compiles.
//!
//! Written here rather than with `typify` (what progenitor uses) for four reasons, each
//! measured or seen on real documents:
//! - each type derives only the direction it is used in (`Serialize` for what is sent,
//!   `Deserialize` for what is answered): serde's derives are most of what typed code
//!   costs to compile, and most schemas go one way;
//! - enums are open (`Other(String)`): an API that adds a value does not break every
//!   answer that carries it, and a caller can send a value the document does not list;
//! - a schema this cannot type becomes `Value`, one field at a time, instead of failing
//!   the document (typify refuses or panics on a share of real documents);
//! - it reads the shared definitions mcs-openapi already converted (one copy per schema),
//!   with the names the document gave them.

use std::collections::{BTreeMap, HashMap, HashSet};

use proc_macro2::TokenStream;
use quote::quote;
use serde_json::{Map, Value};

use crate::docs::doc_text;
use crate::emit::{doc, ident};
use crate::names::{Scope, pascal, snake};

/// The ways a type is used: what it derives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Use {
    /// Sent: derives `Serialize`.
    pub sent: bool,
    /// Answered: derives `Deserialize`.
    pub answered: bool,
}

impl Use {
    pub(crate) const SENT: Use = Use {
        sent: true,
        answered: false,
    };
    pub(crate) const ANSWERED: Use = Use {
        sent: false,
        answered: true,
    };

    fn union(self, other: Use) -> Use {
        Use {
            sent: self.sent || other.sent,
            answered: self.answered || other.answered,
        }
    }
}

/// A Rust type for a schema.
#[derive(Clone, Debug)]
pub(crate) struct Ty {
    /// The type, without the `Option` a nullable schema adds.
    pub base: TokenStream,
    /// Whether `null` is one of the schema's values.
    pub nullable: bool,
    /// The definition the type is, when it is one directly (not inside a `Vec` or a map):
    /// a field of that type inside the definition's own cycle needs a `Box`.
    pub def: Option<String>,
    /// Whether the type has a `Default` (scalars, collections, `Value`, `Option`).
    pub has_default: bool,
}

impl Ty {
    fn plain(base: TokenStream) -> Ty {
        Ty {
            base,
            nullable: false,
            def: None,
            has_default: true,
        }
    }

    fn value() -> Ty {
        Ty::plain(quote!(::mcs::serde_json::Value))
    }
}

/// Definitions reached through more references than this from one schema are not looked
/// through when deciding a schema's shape (`allOf` merging): hostile chains stay cheap.
const MAX_FOLLOW: usize = 16;

/// The types of one module: the definitions they reach, named once, and the items made.
pub(crate) struct TypeSpace<'d> {
    defs: &'d Map<String, Value>,
    names: &'d mut Scope,
    /// The Rust name of each definition given one so far.
    def_names: HashMap<String, String>,
    /// Definitions named but not emitted yet.
    queue: Vec<String>,
    /// How each definition is used, over every root.
    uses: HashMap<String, Use>,
    /// The strongly connected component of each definition that is part of a cycle.
    cycle_of: HashMap<String, usize>,
    /// Derives every item adds (`Hash`, `schemars::JsonSchema`, …), by path.
    extra_derives: Vec<String>,
    /// Whether strings are typed by their `format`.
    formats: bool,
    /// The items, in the order they were made.
    items: Vec<TokenStream>,
    /// The type of each schema typed so far that is not a reference, by its text and (when
    /// it holds a reference) its owner.
    inline: HashMap<(String, Option<String>), Ty>,
    /// How each schema written in place is used, over all its places, by its text.
    inline_uses: HashMap<String, Use>,
}

/// One field of a struct being made.
struct Field {
    name: String,
    schema: Value,
    required: bool,
    /// Filled in by the API (`readOnly`): never sent, so a type that is sent holds it as an
    /// `Option` even when answers always carry it.
    read_only: bool,
    /// Named by `required` only, with no schema in `properties`.
    undescribed: bool,
}

impl<'d> TypeSpace<'d> {
    /// A space over `defs` whose item names come from `names`; `roots` are every schema that
    /// will be typed with its use, so that each definition derives what all its uses need.
    pub(crate) fn new(
        defs: &'d Map<String, Value>,
        names: &'d mut Scope,
        roots: &[(&Value, Use)],
        extra_derives: &[String],
        formats: bool,
    ) -> Self {
        let mut uses: HashMap<String, Use> = HashMap::new();
        for (root, how) in roots {
            let mut queue = Vec::new();
            references(root, &mut queue);
            while let Some(name) = queue.pop() {
                let known = uses.entry(name.clone()).or_default();
                let merged = known.union(*how);
                if merged == *known && (known.sent || known.answered) {
                    continue;
                }
                *known = merged;
                if let Some(def) = defs.get(&name) {
                    references(def, &mut queue);
                }
            }
        }
        let cycle_of = cycles(defs, uses.keys());
        // How each schema written out in place is used, over every place it is written: a
        // request body spread into arguments repeats its schema's properties, and the copy
        // and the original are one type that derives both directions.
        let mut inline_uses: HashMap<String, Use> = HashMap::new();
        for (root, how) in roots {
            inline_use(root, *how, &mut inline_uses);
        }
        let mut used: Vec<&String> = uses.keys().collect();
        used.sort();
        for name in &used {
            if let Some(def) = defs.get(name.as_str()) {
                inline_use(def, uses[name.as_str()], &mut inline_uses);
            }
        }
        let used: Vec<String> = used.into_iter().cloned().collect();
        let extra_derives = extra_derives.to_vec();
        let mut space = TypeSpace {
            defs,
            names,
            def_names: HashMap::new(),
            queue: Vec::new(),
            uses,
            cycle_of,
            extra_derives,
            formats,
            items: Vec::new(),
            inline: HashMap::new(),
            inline_uses,
        };
        // The document's schemas are made first, so that what is written in them is named
        // after them (`PetStatus`), not after the first operation that repeats it.
        for def in used {
            space.named(&def);
            while let Some(def) = space.queue.pop() {
                space.definition(&def);
            }
        }
        space
    }

    /// A name for an item of the module, unique in it.
    pub(crate) fn claim(&mut self, name: String) -> String {
        self.names.claim(name)
    }

    /// The items made, every definition reached included.
    pub(crate) fn finish(mut self) -> Vec<TokenStream> {
        while let Some(def) = self.queue.pop() {
            self.definition(&def);
        }
        self.items
    }

    /// The type of a field in a struct of `owner` (a definition, for cycles), as written:
    /// `Option` unless required and not nullable, `Box` where a cycle needs one.
    pub(crate) fn field_type(
        &mut self,
        ty: &Ty,
        required: bool,
        owner: Option<&str>,
    ) -> TokenStream {
        let base = &ty.base;
        let in_cycle = match (&ty.def, owner) {
            (Some(def), Some(owner)) => self
                .cycle_of
                .get(def)
                .is_some_and(|cycle| self.cycle_of.get(owner) == Some(cycle)),
            _ => false,
        };
        let base = if in_cycle {
            quote!(::std::boxed::Box<#base>)
        } else {
            quote!(#base)
        };
        if required && !ty.nullable {
            base
        } else {
            quote!(::core::option::Option<#base>)
        }
    }

    /// The type of `schema`; `hint` names an item it needs (`ListPetsResponse`), `owner` is
    /// the definition it is part of.
    pub(crate) fn ty(&mut self, schema: &Value, hint: &str, how: Use, owner: Option<&str>) -> Ty {
        let Value::Object(map) = schema else {
            return Ty::value();
        };
        if let Some(def) = def_of(schema) {
            return self.named(def);
        }
        // The same schema written out in several places (an error body every operation
        // repeats) is one type, named after its first place.
        let text = schema.to_string();
        let how = self
            .inline_uses
            .get(&text)
            .map_or(how, |all| all.union(how));
        // Where it sits matters only for a `Box` in a cycle, which needs a reference.
        let owner_key = owner
            .filter(|_| text.contains("\"$ref\""))
            .map(str::to_owned);
        let key = (text, owner_key);
        if let Some(known) = self.inline.get(&key) {
            return known.clone();
        }
        let ty = self.inline_ty(map, hint, how, owner);
        self.inline.insert(key, ty.clone());
        ty
    }

    fn inline_ty(
        &mut self,
        map: &Map<String, Value>,
        hint: &str,
        how: Use,
        owner: Option<&str>,
    ) -> Ty {
        // A nullable union: `anyOf: [X, {type: null}]`, what the reader writes for a
        // nullable reference.
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(variants)) = map.get(key) {
                let (nulls, others): (Vec<&Value>, Vec<&Value>) =
                    variants.iter().partition(|v| is_null(v));
                if !nulls.is_empty() && !others.is_empty() {
                    let mut rest = map.clone();
                    if others.len() == 1 && only_key(map, key) {
                        let mut ty = self.ty(others[0], hint, how, owner);
                        ty.nullable = true;
                        ty.has_default = true;
                        return ty;
                    }
                    rest.insert(
                        key.to_owned(),
                        Value::Array(others.into_iter().cloned().collect()),
                    );
                    let mut ty = self.ty(&Value::Object(rest), hint, how, owner);
                    ty.nullable = true;
                    ty.has_default = true;
                    return ty;
                }
            }
        }
        let (types, nullable) = types_of(map);
        let mut ty = self.shape(map, &types, hint, how, owner);
        if nullable {
            ty.nullable = true;
            ty.has_default = true;
        }
        ty
    }

    /// The type of a schema that is not a reference, with its non-null `types`.
    fn shape(
        &mut self,
        map: &Map<String, Value>,
        types: &[&str],
        hint: &str,
        how: Use,
        owner: Option<&str>,
    ) -> Ty {
        if let Some(values) = string_enum(map) {
            let name = self.names.claim(pascal(hint));
            self.enumeration(&name, map, &values, how);
            return self.item(name);
        }
        if map.contains_key("enum") || map.contains_key("const") {
            // An enum of numbers or of mixed values: the scalar type, checked by the API.
            return match types {
                [single] => self.scalar(single, map, hint, how, owner),
                _ => Ty::value(),
            };
        }
        if let Some(Value::Array(parts)) = map.get("allOf") {
            return self.all_of(map, parts, hint, how, owner);
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(Value::Array(variants)) = map.get(key) {
                if types.iter().all(|t| *t == "object") && map.contains_key("properties") {
                    // Properties beside the union describe the object whatever the variant.
                    break;
                }
                let discriminator = Discriminator::of(map, variants);
                return self.union(variants, discriminator.as_ref(), hint, how, owner);
            }
        }
        match types {
            [] if map.contains_key("properties") => self.scalar("object", map, hint, how, owner),
            [] => Ty::value(),
            [single] => self.scalar(single, map, hint, how, owner),
            several => {
                let variants: Vec<Value> = several
                    .iter()
                    .map(|t| {
                        let mut variant = map.clone();
                        variant.insert("type".into(), Value::String((*t).to_owned()));
                        Value::Object(variant)
                    })
                    .collect();
                self.union(&variants, None, hint, how, owner)
            }
        }
    }

    fn scalar(
        &mut self,
        kind: &str,
        map: &Map<String, Value>,
        hint: &str,
        how: Use,
        owner: Option<&str>,
    ) -> Ty {
        match kind {
            "string" => self
                .formats
                .then(|| formatted(map))
                .flatten()
                .unwrap_or_else(|| Ty::plain(quote!(::std::string::String))),
            "integer" => Ty::plain(quote!(i64)),
            "number" => Ty::plain(quote!(f64)),
            "boolean" => Ty::plain(quote!(bool)),
            "array" => {
                let item = match map.get("items") {
                    Some(items) => self.ty(items, &format!("{hint}Item"), how, owner),
                    None => Ty::value(),
                };
                let item = if item.nullable {
                    let base = item.base;
                    quote!(::core::option::Option<#base>)
                } else {
                    item.base
                };
                Ty::plain(quote!(::std::vec::Vec<#item>))
            }
            "object" => {
                let has_properties = map
                    .get("properties")
                    .and_then(Value::as_object)
                    .is_some_and(|p| !p.is_empty());
                if has_properties {
                    let name = self.names.claim(pascal(hint));
                    let fields = fields_of(map);
                    self.structure(&name, map, fields, how, owner);
                    return self.item(name);
                }
                match map.get("additionalProperties") {
                    Some(Value::Object(values)) if !values.is_empty() => {
                        let value = self.ty(
                            &Value::Object(values.clone()),
                            &format!("{hint}Value"),
                            how,
                            owner,
                        );
                        let value = if value.nullable {
                            let base = value.base;
                            quote!(::core::option::Option<#base>)
                        } else {
                            value.base
                        };
                        Ty::plain(quote!(
                            ::std::collections::BTreeMap<::std::string::String, #value>
                        ))
                    }
                    _ => Ty::plain(quote!(
                        ::mcs::serde_json::Map<::std::string::String, ::mcs::serde_json::Value>
                    )),
                }
            }
            _ => Ty::value(),
        }
    }

    /// `allOf`: one part is that part's type; parts that are all objects merge into one
    /// struct; anything else is a `Value`.
    fn all_of(
        &mut self,
        map: &Map<String, Value>,
        parts: &[Value],
        hint: &str,
        how: Use,
        owner: Option<&str>,
    ) -> Ty {
        if parts.len() == 1 && !map.contains_key("properties") {
            return self.ty(&parts[0], hint, how, owner);
        }
        let Some((fields, description)) = self.merged_fields(map, parts) else {
            return Ty::value();
        };
        if fields.is_empty() {
            return Ty::plain(quote!(
                ::mcs::serde_json::Map<::std::string::String, ::mcs::serde_json::Value>
            ));
        }
        let mut merged = Map::new();
        if let Some(text) = description {
            merged.insert("description".into(), text);
        }
        let name = self.names.claim(pascal(hint));
        self.structure(&name, &merged, fields, how, owner);
        self.item(name)
    }

    /// The fields of `allOf` `parts` and of the schema `map` beside them, merged (a property
    /// required by any is required), with the first description found; `None` when a part
    /// is not an object.
    fn merged_fields(
        &self,
        map: &Map<String, Value>,
        parts: &[Value],
    ) -> Option<(Vec<Field>, Option<Value>)> {
        let mut fields: Vec<Field> = Vec::new();
        let mut description = map.get("description").cloned();
        let mut add = |source: &Map<String, Value>| {
            for field in fields_of(source) {
                match fields.iter_mut().find(|f| f.name == field.name) {
                    Some(known) => known.required |= field.required,
                    None => fields.push(field),
                }
            }
        };
        for part in parts {
            let object = self.object_of(part, 0)?;
            if description.is_none() {
                description = object.get("description").cloned();
            }
            add(&object);
        }
        add(map);
        Some((fields, description))
    }

    /// The object schema `schema` is, through references and nested `allOf`s: its
    /// `properties` and `required` gathered; `None` when it is not an object.
    fn object_of(&self, schema: &Value, depth: usize) -> Option<Map<String, Value>> {
        if depth > MAX_FOLLOW {
            return None;
        }
        let target = match def_of(schema) {
            Some(def) => self.defs.get(def)?,
            None => schema,
        };
        let map = target.as_object()?;
        let (types, _) = types_of(map);
        let mut out = Map::new();
        let mut properties = Map::new();
        let mut required = Vec::new();
        if let Some(Value::Array(parts)) = map.get("allOf") {
            for part in parts {
                let object = self.object_of(part, depth + 1)?;
                if let Some(Value::Object(more)) = object.get("properties") {
                    properties.extend(more.clone());
                }
                if let Some(Value::Array(names)) = object.get("required") {
                    required.extend(names.iter().cloned());
                }
            }
        } else if !(types == ["object"] || (types.is_empty() && map.contains_key("properties"))) {
            return None;
        }
        if let Some(Value::Object(more)) = map.get("properties") {
            properties.extend(more.clone());
        }
        if let Some(Value::Array(names)) = map.get("required") {
            required.extend(names.iter().cloned());
        }
        if let Some(text) = map.get("description") {
            out.insert("description".into(), text.clone());
        }
        out.insert("properties".into(), Value::Object(properties));
        out.insert("required".into(), Value::Array(required));
        Some(out)
    }

    /// `oneOf`/`anyOf`: an enum when its variants can be told apart — each of a different
    /// JSON type, objects that each have a property of a value of their own, or objects
    /// the document's `discriminator` names — else a `Value`.
    fn union(
        &mut self,
        variants: &[Value],
        discriminator: Option<&Discriminator>,
        hint: &str,
        how: Use,
        owner: Option<&str>,
    ) -> Ty {
        let kinds: Vec<Option<&'static str>> =
            variants.iter().map(|v| self.kind_of(v, 0)).collect();
        if variants.is_empty() || kinds.iter().any(Option::is_none) {
            return Ty::value();
        }
        let distinct: HashSet<&&str> = kinds.iter().flatten().collect();
        let by_kind = distinct.len() == kinds.len();
        let objects = kinds.iter().all(|k| *k == Some("object"));
        // A discriminator is read only where the content alone cannot tell the variants
        // apart: an untagged enum needs no hand-written code.
        let discriminator = discriminator.filter(|_| !by_kind && objects && !self.tagged(variants));
        let told_apart = by_kind || (objects && self.tagged(variants)) || discriminator.is_some();
        if !told_apart {
            return Ty::value();
        }
        if variants.len() == 1 {
            return self.ty(&variants[0], hint, how, owner);
        }
        let name = self.names.claim(pascal(hint));
        let mut variant_names = Scope::default();
        let mut arms = Vec::new();
        // Each variant's name and type, for a discriminator's hand-written `Deserialize`.
        let mut read_as = Vec::new();
        // Integers are tried before numbers: `1` is both.
        let mut order: Vec<usize> = (0..variants.len()).collect();
        order.sort_by_key(|i| usize::from(kinds[*i] != Some("integer")));
        for index in order {
            let variant = &variants[index];
            let label = match def_of(variant) {
                Some(def) => pascal(def),
                None => pascal(kinds[index].unwrap_or("value")),
            };
            let label = ident(&variant_names.claim(label));
            let ty = self.ty(variant, &format!("{name}{label}"), how, owner);
            let inner = self.field_type(&ty, true, owner);
            let variant_doc = variant
                .get("description")
                .and_then(Value::as_str)
                .map_or_else(
                    || match def_of(variant) {
                        Some(def) => {
                            doc(&format!("As the document's `{}`.", def.replace('`', "'")))
                        }
                        None => doc(&format!("As {}.", kinds[index].unwrap_or("value"))),
                    },
                    |text| doc(&doc_text(text)),
                );
            arms.push(quote!(#variant_doc #label(#inner),));
            read_as.push((def_of(variant).map(str::to_owned), label, inner));
        }
        let item_name = ident(&name);
        match discriminator {
            None => {
                let doc = doc(&format!(
                    "One of {} shapes, told apart by their content.",
                    arms.len()
                ));
                let derives = self.derives(how, false);
                self.items.push(quote! {
                    #doc
                    #derives
                    #[serde(crate = "::mcs::serde", untagged)]
                    pub enum #item_name {
                        #(#arms)*
                    }
                });
            }
            Some(discriminator) => {
                let doc = doc(&format!(
                    "One of {} shapes, told apart by `{}`.",
                    arms.len(),
                    discriminator.property.replace('`', "'")
                ));
                let (derives, serialize, deserialize) = self.derives_by_hand(how);
                let serialize = serialize.then(|| {
                    quote!(#[derive(::mcs::serde::Serialize)] #[serde(crate = "::mcs::serde", untagged)])
                });
                let deserialize = deserialize
                    .then(|| discriminated_deserialize(&item_name, discriminator, &read_as));
                self.items.push(quote! {
                    #doc
                    #derives
                    #serialize
                    pub enum #item_name {
                        #(#arms)*
                    }
                    #deserialize
                });
            }
        }
        let mut ty = self.item(name);
        ty.has_default = false;
        ty
    }

    /// The JSON type a union's variant has, through references.
    fn kind_of(&self, schema: &Value, depth: usize) -> Option<&'static str> {
        if depth > MAX_FOLLOW {
            return None;
        }
        if let Some(def) = def_of(schema) {
            return self.kind_of(self.defs.get(def)?, depth + 1);
        }
        let map = schema.as_object()?;
        if string_enum(map).is_some() {
            return Some("string");
        }
        let (types, nullable) = types_of(map);
        if nullable {
            return None;
        }
        match types.as_slice() {
            [single] => ["string", "integer", "number", "boolean", "array", "object"]
                .into_iter()
                .find(|k| k == single),
            [] if map.contains_key("properties") || map.contains_key("allOf") => {
                self.object_of(schema, depth + 1).map(|_| "object")
            }
            _ => None,
        }
    }

    /// Whether object variants each have a property whose single allowed value no other
    /// variant shares (a discriminator written as `const` or a one-value `enum`, as
    /// OpenAPI's `discriminator` points at). The property need not be required: a closed
    /// one-value type refuses any other value, so a variant is still told by its tag when
    /// the tag is there.
    fn tagged(&self, variants: &[Value]) -> bool {
        let mut tags: Vec<BTreeMap<String, Value>> = Vec::new();
        for variant in variants {
            let Some(object) = self.object_of(variant, 0) else {
                return false;
            };
            let mut own = BTreeMap::new();
            if let Some(Value::Object(properties)) = object.get("properties") {
                for (name, property) in properties {
                    let property = match def_of(property) {
                        Some(def) => self.defs.get(def).unwrap_or(property),
                        None => property,
                    };
                    let single = property.get("const").cloned().or_else(|| {
                        match property.get("enum").and_then(Value::as_array) {
                            Some(values) if values.len() == 1 => values.first().cloned(),
                            _ => None,
                        }
                    });
                    if let Some(value) = single {
                        own.insert(name.clone(), value);
                    }
                }
            }
            tags.push(own);
        }
        let Some(first) = tags.first() else {
            return false;
        };
        first.keys().any(|key| {
            let values: Vec<Option<&Value>> = tags.iter().map(|t| t.get(key)).collect();
            values.iter().all(Option::is_some)
                && values.iter().collect::<HashSet<_>>().len() == values.len()
        })
    }

    /// The type of definition `def`, named (and queued to be made) on first use.
    fn named(&mut self, def: &str) -> Ty {
        let name = match self.def_names.get(def) {
            Some(name) => name.clone(),
            None if self.defs.contains_key(def) => {
                let name = self.names.claim(pascal(def));
                self.def_names.insert(def.to_owned(), name.clone());
                self.queue.push(def.to_owned());
                name
            }
            None => return Ty::value(),
        };
        let base = ident(&name);
        Ty {
            base: quote!(#base),
            nullable: false,
            def: Some(def.to_owned()),
            has_default: false,
        }
    }

    fn item(&self, name: String) -> Ty {
        let base = ident(&name);
        Ty {
            base: quote!(#base),
            nullable: false,
            def: None,
            has_default: false,
        }
    }

    /// Makes the item of definition `def`: a struct, an enum, or an alias of the type its
    /// schema has.
    fn definition(&mut self, def: &str) {
        let Some(schema) = self.defs.get(def) else {
            return;
        };
        let name = self.def_names[def].clone();
        let how = self.uses.get(def).copied().unwrap_or(Use::ANSWERED);
        let how = if how.sent || how.answered {
            how
        } else {
            Use::ANSWERED
        };
        let Value::Object(map) = schema else {
            self.alias(&name, def, Ty::value());
            return;
        };
        if self.makes_item(def) {
            if let Some(values) = string_enum(map) {
                self.enumeration(&name, map, &values, how);
                return;
            }
            let fields = match map.get("allOf") {
                Some(Value::Array(parts)) => self.merged_fields(map, parts).map(|(f, _)| f),
                _ => Some(fields_of(map)),
            };
            if let Some(fields) = fields {
                self.structure(&name, map, fields, how, Some(def));
                return;
            }
        }
        // Anything else is an alias of the type the schema has, made under a hint.
        let ty = self.ty(schema, &format!("{name}Value"), how, Some(def));
        self.alias(&name, def, ty);
    }

    fn alias(&mut self, name: &str, def: &str, ty: Ty) {
        // An alias cannot be recursive (`type A = Vec<A>`, or two aliases naming each
        // other): one that names a definition of its own cycle that is not a struct or an
        // enum (itself included) is a `Value`.
        let recursive = self.cycle_of.get(def).is_some_and(|cycle| {
            let text = ty.base.to_string();
            let words: HashSet<&str> = text
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .collect();
            self.def_names.iter().any(|(other, rust)| {
                self.cycle_of.get(other) == Some(cycle)
                    && words.contains(rust.as_str())
                    && (other == def || !self.makes_item(other))
            })
        });
        let ty = if recursive { Ty::value() } else { ty };
        let base = ty.base;
        let base = if ty.nullable {
            quote!(::core::option::Option<#base>)
        } else {
            base
        };
        let about = self
            .defs
            .get(def)
            .and_then(|d| d.get("description"))
            .and_then(Value::as_str)
            .map_or_else(|| format!("The document's `{def}` schema."), doc_text);
        let doc = doc(&about);
        let name = ident(name);
        self.items.push(quote! {
            #doc
            pub type #name = #base;
        });
    }

    /// Whether definition `def` is made as a struct or an enum of its own (not an alias).
    fn makes_item(&self, def: &str) -> bool {
        let Some(Value::Object(map)) = self.defs.get(def) else {
            return false;
        };
        let (types, nullable) = types_of(map);
        if nullable {
            return false;
        }
        if string_enum(map).is_some() {
            return true;
        }
        let plain_object = !map.contains_key("allOf")
            && !map.contains_key("oneOf")
            && !map.contains_key("anyOf")
            && (types == ["object"] || types.is_empty())
            && map
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| !p.is_empty());
        plain_object || self.merges(map)
    }

    /// Whether a definition's `allOf` merges into a struct of its own.
    fn merges(&self, map: &Map<String, Value>) -> bool {
        match map.get("allOf") {
            Some(Value::Array(parts)) => {
                (parts.len() != 1 || map.contains_key("properties"))
                    && parts.iter().all(|part| self.object_of(part, 0).is_some())
            }
            _ => false,
        }
    }

    /// A struct of `fields`.
    fn structure(
        &mut self,
        name: &str,
        map: &Map<String, Value>,
        fields: Vec<Field>,
        how: Use,
        owner: Option<&str>,
    ) {
        let mut field_names = Scope::default();
        let mut rendered = Vec::new();
        let mut has_default = true;
        for mut field in fields {
            let never_there = (field.read_only && how.sent) || (field.undescribed && how.answered);
            field.required &= !never_there;
            let rust = field_names.claim(snake(&field.name));
            let ty = self.ty(
                &field.schema,
                &format!("{name}{}", pascal(&field.name)),
                how,
                owner,
            );
            let optional = !field.required || ty.nullable;
            has_default &= optional || ty.has_default;
            let written = self.field_type(&ty, field.required, owner);
            let mut serde = Vec::new();
            let key = field.name.as_str();
            if rust.trim_start_matches("r#") != key {
                serde.push(quote!(rename = #key));
            }
            if optional && how.answered {
                serde.push(quote!(default));
            }
            // A required nullable field's `None` is sent, as `null`.
            if !field.required && how.sent {
                serde.push(quote!(
                    skip_serializing_if = "::core::option::Option::is_none"
                ));
            }
            let serde = (!serde.is_empty()).then(|| quote!(#[serde(#(#serde),*)]));
            let field_doc = field
                .schema
                .get("description")
                .and_then(Value::as_str)
                .map_or_else(
                    || doc(&format!("`{}`.", field.name.replace('`', "'"))),
                    |text| doc(&doc_text(text)),
                );
            let rust = ident(&rust);
            rendered.push(quote! {
                #field_doc
                #serde
                pub #rust: #written,
            });
        }
        let about = map.get("description").and_then(Value::as_str).map_or_else(
            || match owner {
                Some(def) if pascal(def) == name => format!("The document's `{def}` schema."),
                _ => format!("`{name}`, an object of the document."),
            },
            doc_text,
        );
        let doc = doc(&about);
        let derives = self.derives(how, has_default);
        let name = ident(name);
        self.items.push(quote! {
            #doc
            #derives
            #[serde(crate = "::mcs::serde")]
            pub struct #name {
                #(#rendered)*
            }
        });
    }

    /// An enum of string `values`, open: `Other` carries a value the document does not
    /// list (one with a single value stays closed: it tells union variants apart).
    /// Written by hand rather than derived: serde's derive of an enum with an untagged
    /// variant buffers every value and tries each variant in turn, which costs far more to
    /// compile (and to run) than matching a string.
    fn enumeration(&mut self, name: &str, map: &Map<String, Value>, values: &[String], how: Use) {
        let mut labels = Scope::with_reserved(&["Other"]);
        let labels: Vec<proc_macro2::Ident> = values
            .iter()
            .map(|v| ident(&labels.claim(pascal(v))))
            .collect();
        let name_ident = ident(name);
        let variants = values.iter().zip(&labels).map(|(value, label)| {
            let about = doc(&format!("`{}`", value.replace('`', "'")));
            quote!(#about #label,)
        });
        let to_text = values
            .iter()
            .zip(&labels)
            .map(|(value, label)| quote!(#name_ident::#label => #value,));
        let from_text = values
            .iter()
            .zip(&labels)
            .map(|(value, label)| quote!(#value => #name_ident::#label,));
        let open = values.len() > 1;
        let other = open.then(|| {
            quote! {
                /// A value the document does not list.
                Other(::std::string::String),
            }
        });
        let other_arm = open.then(|| quote!(#name_ident::Other(value) => value,));
        let unknown = if open {
            quote!(_ => #name_ident::Other(text),)
        } else {
            quote!(_ => return ::core::result::Result::Err(
                <D::Error as ::mcs::serde::de::Error>::unknown_variant(&text, &[#(#values),*])
            ),)
        };
        let about = map.get("description").and_then(Value::as_str).map_or_else(
            || match values {
                [one] => format!("Always `{}`.", one.replace('`', "'")),
                _ => format!("One of {} values.", values.len()),
            },
            doc_text,
        );
        let doc = doc(&about);
        let (derives, serialize, deserialize) = self.derives_by_hand(how);
        let serialize = serialize.then(|| {
            quote! {
                impl ::mcs::serde::Serialize for #name_ident {
                    fn serialize<S: ::mcs::serde::Serializer>(
                        &self,
                        serializer: S,
                    ) -> ::core::result::Result<S::Ok, S::Error> {
                        serializer.serialize_str(self.as_str())
                    }
                }
            }
        });
        let deserialize = deserialize.then(|| {
            deserialize_through(
                &name_ident,
                quote!(text),
                quote!(::std::string::String),
                quote! {
                    ::core::result::Result::Ok(match text.as_str() {
                        #(#from_text)*
                        #unknown
                    })
                },
            )
        });
        self.items.push(quote! {
            #doc
            #derives
            pub enum #name_ident {
                #(#variants)*
                #other
            }
            impl #name_ident {
                /// The value as the API writes it.
                pub fn as_str(&self) -> &str {
                    match self {
                        #(#to_text)*
                        #other_arm
                    }
                }
            }
            #serialize
            #deserialize
        });
    }

    /// The derives of a type whose serde impls are written by hand, and whether it needs a
    /// `Serialize` and a `Deserialize` (for its use, or because every type is to have one).
    fn derives_by_hand(&self, how: Use) -> (TokenStream, bool, bool) {
        let asked = |name: &str| self.extra_derives.iter().any(|d| derive_name(d) == name);
        let serialize = how.sent || asked("Serialize");
        let deserialize = how.answered || asked("Deserialize");
        let mut derives = vec![quote!(Clone), quote!(Debug), quote!(PartialEq)];
        derives.extend(extra_derives(
            &self.extra_derives,
            &["Clone", "Debug", "PartialEq", "Serialize", "Deserialize"],
        ));
        (quote!(#[derive(#(#derives),*)]), serialize, deserialize)
    }

    fn derives(&self, how: Use, default: bool) -> TokenStream {
        let mut derives = vec![quote!(Clone), quote!(Debug), quote!(PartialEq)];
        let mut known = vec!["Clone", "Debug", "PartialEq"];
        if default {
            derives.push(quote!(Default));
            known.push("Default");
        }
        if how.sent {
            derives.push(quote!(::mcs::serde::Serialize));
            known.push("Serialize");
        }
        if how.answered {
            derives.push(quote!(::mcs::serde::Deserialize));
            known.push("Deserialize");
        }
        derives.extend(extra_derives(&self.extra_derives, &known));
        quote!(#[derive(#(#derives),*)])
    }
}

/// A derive's name, the last segment of its path (`::mcs::serde::Deserialize` →
/// `Deserialize`).
fn derive_name(path: &str) -> &str {
    path.rsplit(':').next().unwrap_or_default().trim()
}

/// `derives` that are not among `known` (compared by name), as paths.
pub(crate) fn extra_derives(derives: &[String], known: &[&str]) -> Vec<TokenStream> {
    derives
        .iter()
        .filter(|path| !known.contains(&derive_name(path)))
        .filter_map(|path| path.parse().ok())
        .collect()
}

/// OpenAPI's `discriminator` of a union, as the reader keeps it for answers: the property
/// whose value names the variant, and the values that name each definition.
struct Discriminator {
    property: String,
    /// Definition name → the values that name it.
    values: BTreeMap<String, Vec<String>>,
}

impl Discriminator {
    /// The discriminator of the union `map`, when it names a property and every variant is
    /// a definition some value names.
    fn of(map: &Map<String, Value>, variants: &[Value]) -> Option<Discriminator> {
        let discriminator = map.get("discriminator")?;
        let property = discriminator.get("propertyName")?.as_str()?.to_owned();
        let mut values: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (value, target) in discriminator.get("mapping")?.as_object()? {
            if let Some(def) = target.as_str().and_then(|t| t.strip_prefix("#/$defs/")) {
                values
                    .entry(def.to_owned())
                    .or_default()
                    .push(value.clone());
            }
        }
        variants
            .iter()
            .all(|variant| def_of(variant).is_some_and(|def| values.contains_key(def)))
            .then_some(Discriminator { property, values })
    }
}

/// The `Deserialize` of a union told apart by `discriminator`: the runtime's
/// `mcs::rest::discriminated` reads it (the variant the discriminator's value names, else
/// the first that reads the answer); this only lists the variants.
fn discriminated_deserialize(
    name: &proc_macro2::Ident,
    discriminator: &Discriminator,
    variants: &[(Option<String>, proc_macro2::Ident, TokenStream)],
) -> TokenStream {
    let property = &discriminator.property;
    let arms = variants.iter().map(|(def, label, ty)| {
        let values = def
            .as_deref()
            .and_then(|def| discriminator.values.get(def))
            .map_or(&[][..], Vec::as_slice);
        quote! {
            (&[#(#values),*], |value| ::mcs::serde_json::from_value::<#ty>(value).map(#name::#label)),
        }
    });
    let union = name.to_string();
    deserialize_through(
        name,
        quote!(value),
        quote!(::mcs::serde_json::Value),
        quote! {
            ::mcs::rest::discriminated(value, #property, &[#(#arms)*], #union)
                .map_err(<D::Error as ::mcs::serde::de::Error>::custom)
        },
    )
}

/// A hand-written `Deserialize` for `name` that reads the input as `through` first, into
/// `binding`, and then runs `body` (which returns `Result<Self, D::Error>`).
fn deserialize_through(
    name: &proc_macro2::Ident,
    binding: TokenStream,
    through: TokenStream,
    body: TokenStream,
) -> TokenStream {
    quote! {
        impl<'de> ::mcs::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::mcs::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                let #binding = <#through as ::mcs::serde::Deserialize>::deserialize(deserializer)?;
                #body
            }
        }
    }
}

/// The type of a string of a `format` a Rust type stands for: `date-time`, `date`, `uuid`,
/// `ipv4`, `ipv6` (the first three through mcs's `formats` feature).
fn formatted(map: &Map<String, Value>) -> Option<Ty> {
    let ty = match map.get("format").and_then(Value::as_str)? {
        "date-time" => Ty::plain(quote!(::mcs::chrono::DateTime<::mcs::chrono::Utc>)),
        "date" => Ty::plain(quote!(::mcs::chrono::NaiveDate)),
        "uuid" => Ty::plain(quote!(::mcs::uuid::Uuid)),
        "ipv4" => Ty {
            has_default: false,
            ..Ty::plain(quote!(::std::net::Ipv4Addr))
        },
        "ipv6" => Ty {
            has_default: false,
            ..Ty::plain(quote!(::std::net::Ipv6Addr))
        },
        _ => return None,
    };
    Some(ty)
}

/// The definition a schema refers to (`{"$ref": "#/$defs/Pet"}`), if it is a reference.
fn def_of(schema: &Value) -> Option<&str> {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/$defs/"))
}

fn is_null(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("null")
}

/// Whether `key` is the only keyword of `map` that constrains it (annotations aside).
fn only_key(map: &Map<String, Value>, key: &str) -> bool {
    map.keys().all(|k| {
        k == key
            || matches!(
                k.as_str(),
                "description" | "title" | "default" | "deprecated"
            )
    })
}

/// The non-null types a schema names, and whether `null` is one of them.
fn types_of(map: &Map<String, Value>) -> (Vec<&str>, bool) {
    let names: Vec<&str> = match map.get("type") {
        Some(Value::String(name)) => vec![name.as_str()],
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let nullable = names.contains(&"null")
        || map
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|values| values.contains(&Value::Null));
    (
        names.into_iter().filter(|n| *n != "null").collect(),
        nullable,
    )
}

/// The string values of an `enum` (or a string `const`), `null` aside; `None` when it has
/// other values or none.
fn string_enum(map: &Map<String, Value>) -> Option<Vec<String>> {
    let values: Vec<&Value> = match (map.get("enum"), map.get("const")) {
        (Some(Value::Array(values)), _) => values.iter().filter(|v| !v.is_null()).collect(),
        (None, Some(value @ Value::String(_))) => vec![value],
        _ => return None,
    };
    let mut out: Vec<String> = Vec::new();
    for value in values {
        let text = value.as_str()?.to_owned();
        if !out.contains(&text) {
            out.push(text);
        }
    }
    (!out.is_empty()).then_some(out)
}

fn fields_of(map: &Map<String, Value>) -> Vec<Field> {
    let required: Vec<&str> = map
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let properties = map.get("properties").and_then(Value::as_object);
    let mut fields: Vec<Field> = properties
        .into_iter()
        .flatten()
        .map(|(name, schema)| Field {
            name: name.clone(),
            schema: schema.clone(),
            required: required.contains(&name.as_str()),
            read_only: schema.get("readOnly").and_then(Value::as_bool) == Some(true),
            undescribed: false,
        })
        .collect();
    // A name `required` lists but `properties` does not describe is a field of any value:
    // sent, since the API asks for it; optional in answers, since a document that forgot
    // to describe it may as well have misspelt it (GitHub's docker metadata requires
    // `tags` and describes `tag`).
    for name in required {
        if properties.is_none_or(|p| !p.contains_key(name))
            && !fields.iter().any(|f| f.name == name)
        {
            fields.push(Field {
                name: name.to_owned(),
                schema: Value::Object(Map::new()),
                required: true,
                read_only: false,
                undescribed: true,
            });
        }
    }
    fields
}

/// Records `how` for every schema written in place inside `schema` (and itself), stopping
/// at references: definitions have uses of their own.
fn inline_use(schema: &Value, how: Use, uses: &mut HashMap<String, Use>) {
    let Value::Object(map) = schema else {
        return;
    };
    if def_of(schema).is_some() {
        return;
    }
    let entry = uses.entry(schema.to_string()).or_default();
    *entry = entry.union(how);
    for (key, value) in map {
        match (key.as_str(), value) {
            ("properties", Value::Object(properties)) => {
                for property in properties.values() {
                    inline_use(property, how, uses);
                }
            }
            ("items" | "additionalProperties", _) => inline_use(value, how, uses),
            ("allOf" | "anyOf" | "oneOf", Value::Array(parts)) => {
                for part in parts {
                    inline_use(part, how, uses);
                }
            }
            _ => {}
        }
    }
}

/// Pushes the definitions `schema` refers to.
fn references(schema: &Value, found: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            if let Some(def) = def_of(schema) {
                found.push(def.to_owned());
            }
            for value in map.values() {
                references(value, found);
            }
        }
        Value::Array(list) => {
            for value in list {
                references(value, found);
            }
        }
        _ => {}
    }
}

/// The definitions among `reached` that are part of a reference cycle, each with the id of
/// its strongly connected component (Tarjan's algorithm, iterative: a chain of ten
/// thousand references costs no stack).
fn cycles<'a>(
    defs: &Map<String, Value>,
    reached: impl Iterator<Item = &'a String>,
) -> HashMap<String, usize> {
    let names: Vec<&String> = reached.collect();
    let index_of: HashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let edges: Vec<Vec<usize>> = names
        .iter()
        .map(|name| {
            let mut found = Vec::new();
            if let Some(def) = defs.get(name.as_str()) {
                references(def, &mut found);
            }
            let mut out: Vec<usize> = found
                .iter()
                .filter_map(|f| index_of.get(f.as_str()).copied())
                .collect();
            out.sort_unstable();
            out.dedup();
            out
        })
        .collect();
    let n = names.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut component = 0;
    let mut out = HashMap::new();
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        let mut work: Vec<(usize, usize)> = vec![(start, 0)];
        while let Some(&mut (node, ref mut edge)) = work.last_mut() {
            if *edge == 0 && index[node] == usize::MAX {
                index[node] = next;
                low[node] = next;
                next += 1;
                stack.push(node);
                on_stack[node] = true;
            }
            if let Some(&target) = edges[node].get(*edge) {
                *edge += 1;
                if index[target] == usize::MAX {
                    work.push((target, 0));
                } else if on_stack[target] {
                    low[node] = low[node].min(index[target]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == index[node] {
                let mut members = Vec::new();
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    members.push(member);
                    if member == node {
                        break;
                    }
                }
                let cyclic = members.len() > 1 || edges[node].contains(&node);
                if cyclic {
                    for member in members {
                        out.insert(names[member].clone(), component);
                    }
                    component += 1;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn render(defs: Value, root: Value, how: Use) -> String {
        render_formats(defs, root, how, false)
    }

    fn render_formats(defs: Value, root: Value, how: Use, formats: bool) -> String {
        let defs = defs.as_object().cloned().unwrap_or_default();
        let mut names = Scope::default();
        let mut space = TypeSpace::new(&defs, &mut names, &[(&root, how)], &[], formats);
        let ty = space.ty(&root, "Root", how, None);
        let field = space.field_type(&ty, true, None);
        let mut items = space.finish();
        items.push(quote!(type RootField = #field;));
        let file: syn::File = syn::parse2(quote!(#(#items)*)).expect("parses");
        prettyplease::unparse(&file)
    }

    #[test]
    fn strings_are_typed_by_their_format_when_asked() {
        let root = json!({"type": "object", "required": ["at", "on", "id", "v4", "v6", "other"], "properties": {
            "at": {"type": "string", "format": "date-time"},
            "on": {"type": "string", "format": "date"},
            "id": {"type": "string", "format": "uuid"},
            "v4": {"type": "string", "format": "ipv4"},
            "v6": {"type": "string", "format": "ipv6"},
            "other": {"type": "string", "format": "email"}
        }});
        let typed = render_formats(json!({}), root.clone(), Use::ANSWERED, true);
        for ty in [
            "pub at: ::mcs::chrono::DateTime<::mcs::chrono::Utc>",
            "pub on: ::mcs::chrono::NaiveDate",
            "pub id: ::mcs::uuid::Uuid",
            "pub v4: ::std::net::Ipv4Addr",
            "pub v6: ::std::net::Ipv6Addr",
            "pub other: ::std::string::String",
        ] {
            assert!(typed.contains(ty), "{ty} in {typed}");
        }
        // An address has no default: the struct derives none.
        assert!(!typed.contains("Default"), "{typed}");
        let plain = render(json!({}), root, Use::ANSWERED);
        assert!(
            !plain.contains("chrono") && !plain.contains("uuid"),
            "{plain}"
        );
    }

    #[test]
    fn objects_become_structs_and_optional_fields_options() {
        let out = render(
            json!({"Pet": {"type": "object", "required": ["id"], "properties": {
                "id": {"type": "integer"},
                "name": {"type": ["string", "null"]},
                "owner": {"$ref": "#/$defs/Pet"}
            }}}),
            json!({"type": "array", "items": {"$ref": "#/$defs/Pet"}}),
            Use::ANSWERED,
        );
        assert!(out.contains("pub struct Pet {"), "{out}");
        assert!(out.contains("pub id: i64,"), "{out}");
        assert!(
            out.contains("pub name: ::core::option::Option<::std::string::String>"),
            "{out}"
        );
        // A field of its own type is boxed; a response type derives Deserialize only.
        assert!(out.contains("Option<::std::boxed::Box<Pet>>"), "{out}");
        assert!(out.contains("::mcs::serde::Deserialize"), "{out}");
        assert!(!out.contains("::mcs::serde::Serialize"), "{out}");
        assert!(
            out.contains("type RootField = ::std::vec::Vec<Pet>;"),
            "{out}"
        );
    }

    #[test]
    fn a_sent_required_nullable_field_is_sent_as_null() {
        let out = render(
            json!({"Patch": {"type": "object", "required": ["owner"], "properties": {
                "owner": {"type": ["string", "null"]},
                "name": {"type": "string"}
            }}}),
            json!({"$ref": "#/$defs/Patch"}),
            Use::SENT,
        );
        let skip = "skip_serializing_if";
        let owner = out.find("pub owner:").expect("an owner field");
        let name = out.find("pub name:").expect("a name field");
        // `name` (optional) is skipped when unset; `owner` (required, nullable) is not.
        assert_eq!(out.matches(skip).count(), 1, "{out}");
        let at = out.find(skip).expect("one skip");
        assert!(owner < name && at > owner, "{out}");
    }

    #[test]
    fn string_enums_are_open_and_unions_told_apart_or_values() {
        let out = render(
            json!({}),
            json!({"type": "object", "properties": {
                "status": {"type": "string", "enum": ["available", "sold out"]},
                "id": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
                "either": {"oneOf": [
                    {"type": "object", "properties": {"a": {"type": "string"}}},
                    {"type": "object", "properties": {"b": {"type": "string"}}}
                ]}
            }}),
            Use::SENT,
        );
        assert!(out.contains("pub enum RootStatus {"), "{out}");
        assert!(out.contains("RootStatus::SoldOut => \"sold out\""), "{out}");
        // Sent only: written by hand, and only the direction it is used in.
        assert!(
            out.contains("impl ::mcs::serde::Serialize for RootStatus"),
            "{out}"
        );
        assert!(!out.contains("Deserialize<'de> for RootStatus"), "{out}");
        assert!(out.contains("Other(::std::string::String)"), "{out}");
        assert!(out.contains("pub enum RootId {"), "{out}");
        assert!(out.contains("Integer(i64)"), "{out}");
        // Two objects with nothing to tell them apart stay a Value.
        assert!(
            out.contains("pub either: ::core::option::Option<::mcs::serde_json::Value>"),
            "{out}"
        );
    }

    #[test]
    fn objects_only_a_discriminator_tells_apart_are_an_enum_read_by_it() {
        let defs = json!({
            "Dog": {"type": "object", "properties": {"kind": {"type": "string"}}},
            "Cat": {"type": "object", "properties": {"kind": {"type": "string"}}}
        });
        let union = json!({
            "oneOf": [{"$ref": "#/$defs/Dog"}, {"$ref": "#/$defs/Cat"}],
            "discriminator": {"propertyName": "kind", "mapping": {"dog": "#/$defs/Dog", "cat": "#/$defs/Cat"}}
        });
        let answered = render(defs.clone(), union.clone(), Use::ANSWERED);
        assert!(answered.contains("told apart by `kind`"), "{answered}");
        // The value `dog` names the variant `Dog` (read by `mcs::rest::discriminated`).
        assert!(answered.contains("&[\"dog\"]"), "{answered}");
        assert!(
            answered.contains("::mcs::rest::discriminated("),
            "{answered}"
        );
        assert!(!answered.contains("untagged"), "{answered}");
        // Sent: serialized as the variant is, no `Deserialize` written.
        let sent = render(defs.clone(), union.clone(), Use::SENT);
        assert!(sent.contains("untagged"), "{sent}");
        assert!(!sent.contains("Deserialize"), "{sent}");
        // A variant no value names: the content cannot tell them apart, so a `Value`.
        let mut partial = union;
        partial["discriminator"]["mapping"] = json!({"dog": "#/$defs/Dog"});
        let out = render(defs, partial, Use::ANSWERED);
        assert!(!out.contains("enum"), "{out}");
    }

    #[test]
    fn objects_told_apart_by_a_tag_they_need_not_send_are_an_enum() {
        // As Spotify writes a track or an episode: `type` a one-value enum, not required.
        let out = render(
            json!({
                "Track": {"type": "object", "properties": {
                    "type": {"type": "string", "enum": ["track"]},
                    "name": {"type": "string"}
                }},
                "Episode": {"type": "object", "properties": {
                    "type": {"type": "string", "enum": ["episode"]},
                    "name": {"type": "string"}
                }}
            }),
            json!({"oneOf": [{"$ref": "#/$defs/Track"}, {"$ref": "#/$defs/Episode"}]}),
            Use::ANSWERED,
        );
        assert!(out.contains("Track(Track)"), "{out}");
        assert!(out.contains("Episode(Episode)"), "{out}");
        // The tag stays a closed type, which is what tells the variants apart.
        assert!(!out.contains("TrackType::Other"), "{out}");
    }

    #[test]
    fn all_of_merges_objects() {
        let out = render(
            json!({
                "Base": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}},
                "Dog": {"allOf": [{"$ref": "#/$defs/Base"}, {"type": "object", "properties": {"bark": {"type": "boolean"}}}]}
            }),
            json!({"$ref": "#/$defs/Dog"}),
            Use::ANSWERED,
        );
        assert!(out.contains("pub struct Dog {"), "{out}");
        assert!(out.contains("pub id: i64,"), "{out}");
        assert!(
            out.contains("pub bark: ::core::option::Option<bool>"),
            "{out}"
        );
    }

    #[test]
    fn recursive_aliases_fall_back_to_values() {
        let out = render(
            json!({"Tree": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}}),
            json!({"$ref": "#/$defs/Tree"}),
            Use::ANSWERED,
        );
        assert!(
            out.contains("pub type Tree = ::mcs::serde_json::Value;"),
            "{out}"
        );
    }

    #[test]
    fn a_long_chain_of_references_costs_no_stack() {
        let mut defs = Map::new();
        for i in 0..20_000 {
            defs.insert(
                format!("D{i}"),
                json!({"type": "object", "properties": {"next": {"$ref": format!("#/$defs/D{}", (i + 1) % 20_000)}}}),
            );
        }
        let cycles = cycles(&defs, defs.keys());
        assert_eq!(cycles.len(), 20_000);
        assert_eq!(cycles.values().collect::<HashSet<_>>().len(), 1);
    }
}
