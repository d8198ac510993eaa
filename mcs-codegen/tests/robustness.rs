//! Whatever a document names its operations, parameters and properties, and whatever its
//! descriptions say, the generator returns (never panics) and what it returns is Rust that
//! parses: names become identifiers, texts become doc comments and literals.

use mcs_codegen::{Error, render};
use mcs_openapi::{ReadOptions, read_str};
use proptest::prelude::*;
use serde_json::{Value, json};

fn document(names: &[String], texts: &[String]) -> Value {
    let name = |i: usize| names[i % names.len()].clone();
    let text = |i: usize| texts[i % texts.len()].clone();
    json!({
        "openapi": "3.0.3",
        "info": {"title": text(0), "version": text(1)},
        "servers": [{"url": text(2)}],
        "paths": {
            format!("/a/{{{}}}", name(0)): {
                "parameters": [{"name": name(0), "in": "path", "required": true, "description": text(3), "schema": {"type": "string"}}],
                "get": {
                    "operationId": name(1),
                    "summary": text(4),
                    "description": text(5),
                    "tags": [text(6)],
                    "parameters": [
                        {"name": name(2), "in": "query", "schema": {"type": "array", "items": {"type": "integer"}}},
                        {"name": name(3), "in": "header", "schema": {"type": "boolean"}},
                        {"name": name(0), "in": "cookie", "schema": {"type": "number"}}
                    ]
                },
                "post": {
                    "operationId": name(1),
                    "deprecated": true,
                    "requestBody": {"required": true, "content": {"application/json": {"schema": {
                        "type": "object",
                        "required": [name(4)],
                        "properties": {
                            name(4): {"type": "string", "description": text(7), "enum": [text(8)]},
                            name(5): {"type": ["string", "null"]},
                            name(6): {"type": "object", "properties": {name(7): {"type": "string"}}}
                        }
                    }}}}
                }
            },
            "/b": {"delete": {"operationId": name(5), "description": text(9)}}
        }
    })
}

fn outcome(document: &Value) -> Result<(), String> {
    let text = document.to_string();
    let Ok(read) = read_str(
        &text,
        "prop.json",
        None,
        &ReadOptions::default().lenient(true),
    ) else {
        return Ok(());
    };
    match render(&read.api, "prop.json") {
        // The table is written as text: the whole output must parse.
        Ok(source) => syn::parse_file(&source)
            .map(drop)
            .map_err(|e| format!("{e}: {source}")),
        Err(Error::Syntax(message)) => Err(message),
        Err(other) => Err(other.to_string()),
    }
}

/// Names and texts that break naive generators: keywords, digits first, empty, symbols only,
/// non-ASCII, quotes, comment and doc-test openers, line breaks, very long.
fn hostile() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("type".to_owned()),
        Just("self".to_owned()),
        Just("Self".to_owned()),
        Just("_".to_owned()),
        Just("new".to_owned()),
        Just("with_base_url".to_owned()),
        Just("B".to_owned()),
        Just("API".to_owned()),
        Just("123".to_owned()),
        Just("*/ /* \"#".to_owned()),
        Just("```\nfn main() { panic!() }\n```".to_owned()),
        Just("    indented code\n".to_owned()),
        Just("<script>[link](x) https://x.y/z>".to_owned()),
        Just("r#\"raw\"#".to_owned()),
        Just("é日本\u{0}\u{202e}".to_owned()),
        "[a-zA-Z0-9_ .$-]{0,12}",
        ".{0,40}",
        "[a-z]{70,90}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_names_and_texts_give_rust_that_parses(
        names in proptest::collection::vec(hostile(), 8),
        texts in proptest::collection::vec(hostile(), 10),
    ) {
        let result = outcome(&document(&names, &texts));
        prop_assert!(result.is_ok(), "{:?}", result);
    }
}

#[test]
fn names_that_collide_after_sanitising_stay_distinct() {
    let names: Vec<String> = [
        "get pet", "get-pet", "getPet", "get_pet", "GET PET", "x", "x", "x",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    let texts = vec!["t".to_owned()];
    assert_eq!(outcome(&document(&names, &texts)), Ok(()));
}

#[test]
fn every_shared_document_renders() {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/specs");
    let Ok(entries) = std::fs::read_dir(folder) else {
        eprintln!("skipped: no {folder}");
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let result = mcs_codegen::Generator::new(&path).generate();
        let generated = result.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Err(error) = syn::parse_file(&generated.source) {
            panic!("{}: the output does not parse: {error}", path.display());
        }
    }
}
