//! Texts a generated module would otherwise repeat, written once as a `macro_rules!` that
//! expands to the text, and named where they are used.
//!
//! An API repeats itself: kubernetes describes `dryRun` and `fieldManager` in the same
//! paragraph on every operation that takes them, GitHub `per_page` and `page` on hundreds.
//! Written out, those repeats were two fifths of kubernetes' module (BENCHMARKS.md,
//! issue 20). A literal cannot name a `const` in a `#[doc]` attribute or in `concat!`, but
//! both expand a macro in place: `#[doc = doc_dry_run!()]`, and
//! `concat!(r#"{"type":"object","properties":{"#, arg_dry_run!(), …)`. What rustc builds is
//! the same text as before, byte for byte: only the source is shorter.
//!
//! Two kinds are shared:
//! - [`FieldDocs`]: the doc comments of argument fields, as `doc_*` macros at the top of the
//!   module;
//! - [`SchemaPieces`]: the arguments schemas' properties, as `arg_*` macros at the top of
//!   the table.
//!
//! A text is shared only when it is used twice or more and is long enough that naming it
//! costs less than writing it again; every macro written is used, so no `unused_macros`
//! lint reaches the user's crate.

use std::collections::HashMap;

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use serde_json::Value;

use crate::names::{Scope, snake};

/// Texts shorter than this are written where they are used: a macro and its uses would
/// cost about as much as the repeats.
const SHARED_FROM: usize = 80;

/// The placeholder item where the doc macros are written, at the top of the module.
pub(crate) const DOCS_PLACEHOLDER: &str = "__mcs_field_docs!();";

/// The marker attribute a field's doc is given while the module is built.
const MARKER: &str = "#[doc = __mcs_field_doc!(";

/// The doc comments of argument fields. While the module is built each field gets a
/// marker ([`FieldDocs::marker`]); once every operation is in, [`FieldDocs::resolve`]
/// turns a text used twice or more into a macro the fields name and writes the others in
/// place, as `///` lines.
#[derive(Default)]
pub(crate) struct FieldDocs {
    index: HashMap<String, usize>,
    texts: Vec<FieldDoc>,
}

struct FieldDoc {
    /// The doc, as `#[doc]` lines joined by line breaks, each line but empty ones starting
    /// with a space (how `///` lines read).
    text: String,
    uses: usize,
    /// The field that first used it, which names its macro.
    field: String,
}

impl FieldDocs {
    /// The marker of the doc `text` of field `field`, counted as one more use.
    pub(crate) fn marker(&mut self, field: &str, text: &str) -> TokenStream {
        let text = doc_lines(text).join("\n");
        let next = self.texts.len();
        let index = *self.index.entry(text.clone()).or_insert(next);
        if index == next {
            self.texts.push(FieldDoc {
                text,
                uses: 0,
                field: field.trim_start_matches("r#").to_owned(),
            });
        }
        self.texts[index].uses += 1;
        let index = Literal::usize_unsuffixed(index);
        quote!(#[doc = __mcs_field_doc!(#index)])
    }

    /// `formatted` (the module printed) with every marker replaced and the shared docs'
    /// macros written where [`DOCS_PLACEHOLDER`] was printed.
    pub(crate) fn resolve(&self, formatted: &str) -> String {
        let mut names = Scope::default();
        let macros: Vec<Option<String>> = self
            .texts
            .iter()
            .map(|doc| {
                (doc.uses > 1 && doc.text.len() >= SHARED_FROM)
                    .then(|| names.claim(format!("doc_{}", doc.field)))
            })
            .collect();
        let mut out = String::with_capacity(formatted.len());
        for line in formatted.split_inclusive('\n') {
            let trimmed = line.trim_start();
            let indent = &line[..line.len() - trimmed.len()];
            if trimmed.trim_end() == DOCS_PLACEHOLDER {
                for (doc, name) in self.texts.iter().zip(&macros) {
                    if let Some(name) = name {
                        out.push_str(&format!(
                            "{indent}macro_rules! {name} {{ () => {{ {:?} }}; }}\n",
                            doc.text
                        ));
                    }
                }
                continue;
            }
            let index = trimmed
                .strip_prefix(MARKER)
                .and_then(|rest| rest.trim_end().strip_suffix(")]"))
                .and_then(|index| index.parse::<usize>().ok());
            match index.and_then(|index| Some((self.texts.get(index)?, &macros[index]))) {
                Some((_, Some(name))) => out.push_str(&format!("{indent}#[doc = {name}!()]\n")),
                Some((doc, None)) => {
                    for doc_line in doc.text.split('\n') {
                        out.push_str(&format!("{indent}///{doc_line}\n"));
                    }
                }
                None => out.push_str(line),
            }
        }
        out
    }
}

/// The `#[doc]` lines of `text`, each starting with a space unless empty, rendered as
/// `/// line`. A lone carriage return ends a line too: rustc refuses a bare CR in a `///`
/// comment.
pub(crate) fn doc_lines(text: &str) -> Vec<String> {
    text.lines()
        .flat_map(|line| line.split('\r'))
        .map(|line| {
            if line.is_empty() {
                String::new()
            } else {
                format!(" {line}")
            }
        })
        .collect()
}

/// The properties of the operations' arguments schemas that several operations share
/// (`"dryRun":{"type":"string","description":"When present, …"}`), each a macro.
pub(crate) struct SchemaPieces {
    /// The macro naming each shared piece.
    names: HashMap<String, String>,
    /// The shared pieces, in the order they were first met, with their macro's name.
    pieces: Vec<(String, String)>,
}

impl SchemaPieces {
    /// The pieces worth sharing among `schemas` (arguments schemas as JSON text).
    pub(crate) fn new<'a>(schemas: impl IntoIterator<Item = &'a str>) -> Self {
        let mut uses: HashMap<String, usize> = HashMap::new();
        let mut order: Vec<(String, String)> = Vec::new();
        for schema in schemas {
            for (key, piece) in properties(schema) {
                let count = uses.entry(piece.clone()).or_insert(0);
                *count += 1;
                if *count == 2 && piece.len() >= SHARED_FROM {
                    order.push((piece, key));
                }
            }
        }
        let mut scope = Scope::default();
        let pieces: Vec<(String, String)> = order
            .into_iter()
            .map(|(piece, key)| {
                let name = scope.claim(format!("arg_{}", snake(&key).trim_start_matches("r#")));
                (piece, name)
            })
            .collect();
        let names = pieces.iter().cloned().collect();
        SchemaPieces { names, pieces }
    }

    /// The `macro_rules!` of each shared piece, one per line.
    pub(crate) fn definitions(&self) -> impl Iterator<Item = String> + '_ {
        self.pieces.iter().map(|(piece, name)| {
            format!(
                "macro_rules! {name} {{ () => {{ {} }}; }}",
                raw_literal(piece)
            )
        })
    }

    /// The parts `schema` is written as: literals, and the names of shared pieces' macros
    /// (`arg_page!()`), which `concat!` joins into `schema` again. One part, the whole
    /// literal, when it holds no shared piece.
    pub(crate) fn parts(&self, schema: &str) -> Vec<String> {
        let mut parts = Vec::new();
        let mut from = 0;
        for (_, piece) in properties(schema) {
            let Some(name) = self.names.get(&piece) else {
                continue;
            };
            // The piece was printed from this text's own value, so it is in it; found from
            // where the last one ended, the parts joined are the text whatever they cut.
            let Some(at) = schema[from..].find(&piece).map(|at| at + from) else {
                continue;
            };
            if at > from {
                parts.push(raw_literal(&schema[from..at]));
            }
            parts.push(format!("{name}!()"));
            from = at + piece.len();
        }
        if from < schema.len() || parts.is_empty() {
            parts.push(raw_literal(&schema[from..]));
        }
        parts
    }
}

/// The top-level properties of the arguments schema `schema`, each with its key and as it
/// is printed in the text (`"key":{…}`). Nothing for text that is not such a schema.
fn properties(schema: &str) -> Vec<(String, String)> {
    let Ok(Value::Object(root)) = serde_json::from_str::<Value>(schema) else {
        return Vec::new();
    };
    let Some(Value::Object(properties)) = root.get("properties") else {
        return Vec::new();
    };
    properties
        .iter()
        .filter_map(|(key, value)| {
            let key_text = serde_json::to_string(key).ok()?;
            let value_text = serde_json::to_string(value).ok()?;
            Some((key.clone(), format!("{key_text}:{value_text}")))
        })
        .collect()
}

/// `value` as a raw string literal (`r#"…"#`), which keeps JSON readable; a plain one when
/// it needs no escape (`","`) or holds a carriage return, which a raw string cannot.
pub(crate) fn raw_literal(value: &str) -> String {
    let plain = !value.contains(['"', '\\']) && !value.contains(char::is_control);
    if plain || value.contains('\r') {
        return format!("{value:?}");
    }
    let mut hashes = String::from("#");
    while value.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    format!("r{hashes}\"{value}\"{hashes}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_parts_join_into_the_schema_they_were_cut_from() {
        let long = "a description long enough to be worth sharing between the operations";
        let first = format!(
            r#"{{"type":"object","properties":{{"id":{{"type":"string"}},"dryRun":{{"type":"string","description":"{long}"}}}},"required":["id"]}}"#
        );
        let second = format!(
            r#"{{"type":"object","properties":{{"dryRun":{{"type":"string","description":"{long}"}},"x":{{"type":"integer"}}}}}}"#
        );
        let third = r#"{"type":"object","properties":{"other":{"type":"boolean"}}}"#;
        let pieces = SchemaPieces::new([first.as_str(), second.as_str(), third]);
        let definitions: Vec<String> = pieces.definitions().collect();
        assert_eq!(definitions.len(), 1, "{definitions:?}");
        assert!(definitions[0].starts_with("macro_rules! arg_dry_run {"));
        let parts = pieces.parts(&first);
        assert_eq!(parts.len(), 3, "{parts:?}");
        assert_eq!(parts[1], "arg_dry_run!()");
        let parts = pieces.parts(&second);
        assert_eq!(parts[1], "arg_dry_run!()");
        assert_eq!(pieces.parts(third), vec![raw_literal(third)]);
        // Not a schema at all: written whole.
        assert_eq!(pieces.parts("{"), vec![raw_literal("{")]);
    }

    #[test]
    fn field_docs_used_twice_become_one_macro_and_the_rest_stay_in_place() {
        let mut docs = FieldDocs::default();
        let long = "The number of results per page (max 100). For more information, see the pagination docs.";
        let a = docs.marker("per_page", long).to_string();
        let b = docs.marker("r#type", "Short.\n\nSecond line.").to_string();
        let c = docs.marker("size", long).to_string();
        assert_eq!(a, c);
        let tidy = |marker: &str| marker.replace(' ', "").replace("#[doc=", "#[doc = ");
        let formatted = format!(
            "mod m {{\n    {DOCS_PLACEHOLDER}\n    struct S {{\n        {}\n        a: u8,\n        {}\n        b: u8,\n        {}\n        c: u8,\n    }}\n}}\n",
            tidy(&a),
            tidy(&b),
            tidy(&c)
        );
        let resolved = docs.resolve(&formatted);
        assert_eq!(
            resolved,
            format!(
                "mod m {{\n    macro_rules! doc_per_page {{ () => {{ \" {long}\" }}; }}\n    struct S {{\n        #[doc = doc_per_page!()]\n        a: u8,\n        /// Short.\n        ///\n        /// Second line.\n        b: u8,\n        #[doc = doc_per_page!()]\n        c: u8,\n    }}\n}}\n"
            )
        );
    }
}
