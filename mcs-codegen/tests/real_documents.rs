//! The real documents of `../shared/specs`, mutated the ways real documents go wrong: a
//! `$ref` whose target is gone, one copied elsewhere, one pointed at another node (itself,
//! an ancestor, a path item: cycles), a `type` swapped for another or for nonsense, names
//! made empty, huge or hostile, and cycles through a parameter and a body. The reader and
//! the generator return — a document, a list of skipped operations, or an error naming the
//! place — and never panic or hang; what the generator writes always parses.
//!
//! Cases per document: `MCS_MUTATION_CASES` (default 12; the six documents then take a few
//! seconds in a debug build). Each case runs under a deadline so that a hang fails the test
//! instead of stalling it.

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use mcs_codegen::{Error, render};
use mcs_openapi::{ReadOptions, read_str};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Value, json};

/// The longest a mutated document may take to read and generate before it counts as a hang
/// (an unmutated gitlab.com.json takes well under a second in a debug build).
const DEADLINE: Duration = Duration::from_secs(60);

#[derive(Clone, Debug)]
enum Mutation {
    /// Delete the node a `$ref` points to.
    DropTarget(usize),
    /// Put a copy of one `$ref` in place of another node.
    CopyRef(usize, usize),
    /// Point a `$ref` at any node of the document.
    Retarget(usize, usize),
    /// Replace a `type` with another type or with nonsense.
    SwapType(usize, Value),
    /// Rename an operation, parameter or property.
    Rename(usize, String),
    /// A parameter's schema refers to a body's schema and that body's schema to the
    /// parameter's.
    ParamBodyCycle(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let any = any::<usize>;
    prop_oneof![
        any().prop_map(Mutation::DropTarget),
        (any(), any()).prop_map(|(a, b)| Mutation::CopyRef(a, b)),
        (any(), any()).prop_map(|(a, b)| Mutation::Retarget(a, b)),
        (
            any(),
            prop_oneof![
                Just(json!("object")),
                Just(json!("array")),
                Just(json!("string")),
                Just(json!("integer")),
                Just(json!("file")),
                Just(json!(["null"])),
                Just(json!(["string", "object", 7])),
                Just(json!("nonsense")),
                Just(json!(null)),
                Just(json!({})),
            ]
        )
            .prop_map(|(at, t)| Mutation::SwapType(at, t)),
        (
            any(),
            prop_oneof![
                Just(String::new()),
                Just("x".repeat(100_000)),
                Just("é日本\u{0}\u{202e}\n\"'`".to_owned()),
                Just("{id}".to_owned()),
                Just("../../etc".to_owned()),
                Just("self".to_owned()),
                "[ -~]{0,12}",
            ]
        )
            .prop_map(|(at, name)| Mutation::Rename(at, name)),
        (any(), any()).prop_map(|(a, b)| Mutation::ParamBodyCycle(a, b)),
    ]
}

/// The places mutations pick from, found once per document.
struct Places {
    all: Vec<String>,
    refs: Vec<String>,
    types: Vec<String>,
    names: Vec<String>,
    parameter_schemas: Vec<String>,
    body_schemas: Vec<String>,
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn survey(value: &Value, at: &str, places: &mut Places) {
    places.all.push(at.to_owned());
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let here = format!("{at}/{}", escape(key));
                match key.as_str() {
                    "$ref" if child.is_string() => places.refs.push(at.to_owned()),
                    "type" => places.types.push(here.clone()),
                    "operationId" | "name" => places.names.push(here.clone()),
                    "schema" if at.contains("/parameters/") => {
                        places.parameter_schemas.push(here.clone());
                    }
                    "schema" if at.contains("/requestBody/") => {
                        places.body_schemas.push(here.clone());
                    }
                    _ => {}
                }
                survey(child, &here, places);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                survey(child, &format!("{at}/{i}"), places);
            }
        }
        _ => {}
    }
}

fn pick(list: &[String], i: usize) -> Option<&str> {
    (!list.is_empty()).then(|| list[i % list.len()].as_str())
}

fn remove(document: &mut Value, pointer: &str) {
    let Some((parent, key)) = pointer.rsplit_once('/') else {
        return;
    };
    let key = key.replace("~1", "/").replace("~0", "~");
    match document.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.shift_remove(&key);
        }
        Some(Value::Array(items)) => {
            if let Ok(i) = key.parse::<usize>()
                && i < items.len()
            {
                items.remove(i);
            }
        }
        _ => {}
    }
}

fn apply(document: &mut Value, places: &Places, mutation: &Mutation) {
    let set = |document: &mut Value, at: &str, value: Value| {
        if let Some(node) = document.pointer_mut(at) {
            *node = value;
        }
    };
    match mutation {
        Mutation::DropTarget(r) => {
            let Some(at) = pick(&places.refs, *r) else {
                return;
            };
            let target = document
                .pointer(at)
                .and_then(|node| node["$ref"].as_str())
                .and_then(|t| t.strip_prefix('#'))
                .map(str::to_owned);
            if let Some(target) = target {
                remove(document, &target);
            }
        }
        Mutation::CopyRef(r, to) => {
            let (Some(from), Some(to)) = (pick(&places.refs, *r), pick(&places.all, *to)) else {
                return;
            };
            if let Some(copy) = document.pointer(from).cloned() {
                set(document, to, copy);
            }
        }
        Mutation::Retarget(r, to) => {
            let (Some(at), Some(to)) = (pick(&places.refs, *r), pick(&places.all, *to)) else {
                return;
            };
            let to = to.to_owned();
            set(document, at, json!({ "$ref": format!("#{to}") }));
        }
        Mutation::SwapType(t, value) => {
            if let Some(at) = pick(&places.types, *t) {
                set(document, at, value.clone());
            }
        }
        Mutation::Rename(n, name) => {
            if let Some(at) = pick(&places.names, *n) {
                set(document, at, json!(name));
            }
        }
        Mutation::ParamBodyCycle(p, b) => {
            let (Some(param), Some(body)) = (
                pick(&places.parameter_schemas, *p),
                pick(&places.body_schemas, *b),
            ) else {
                return;
            };
            let (param, body) = (param.to_owned(), body.to_owned());
            set(document, &param, json!({ "$ref": format!("#{body}") }));
            set(document, &body, json!({ "$ref": format!("#{param}") }));
        }
    }
}

/// Reads (strict and lenient) and generates `document`: `Err` only for a panic, a hang or
/// generated code that does not parse.
fn outcome(document: Value) -> Result<(), String> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let text = document.to_string();
        let result = std::panic::catch_unwind(|| {
            for lenient in [false, true] {
                let options = ReadOptions::default().lenient(lenient);
                let Ok(read) = read_str(&text, "mutated.json", None, &options) else {
                    continue;
                };
                match render(&read.api, "mutated.json") {
                    Err(Error::Syntax(message)) => return Err(message),
                    Ok(source) => {
                        if let Err(error) = syn::parse_file(&source) {
                            return Err(format!("the output does not parse: {error}"));
                        }
                    }
                    Err(_) => {}
                }
            }
            Ok(())
        });
        let _ = sender.send(result.unwrap_or_else(|panic| {
            Err(format!(
                "panicked: {}",
                panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                    .unwrap_or_default()
            ))
        }));
    });
    receiver
        .recv_timeout(DEADLINE)
        .unwrap_or_else(|_| Err(format!("no answer within {DEADLINE:?}")))
}

#[test]
fn mutated_real_documents_never_panic_or_hang() {
    let folder = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/specs"));
    let Ok(entries) = std::fs::read_dir(&folder) else {
        println!("skipped: no {} beside the repository", folder.display());
        return;
    };
    let cases = std::env::var("MCS_MUTATION_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(12);
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let original: Value = serde_json::from_str(&text).unwrap();
        let mut places = Places {
            all: Vec::new(),
            refs: Vec::new(),
            types: Vec::new(),
            names: Vec::new(),
            parameter_schemas: Vec::new(),
            body_schemas: Vec::new(),
        };
        survey(&original, "", &mut places);
        let mut runner = TestRunner::new(Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        });
        let strategy = proptest::collection::vec(mutation(), 1..5);
        let result = runner.run(&strategy, |mutations| {
            let mut document = original.clone();
            for m in &mutations {
                apply(&mut document, &places, m);
            }
            let result = outcome(document);
            prop_assert!(
                result.is_ok(),
                "{}: {mutations:?}: {result:?}",
                path.display()
            );
            Ok(())
        });
        if let Err(failure) = result {
            panic!("{failure}");
        }
    }
}
