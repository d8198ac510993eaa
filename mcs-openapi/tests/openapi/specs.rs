//! The reader on real published documents (`/work/shared/specs`).

use std::path::Path;

use mcs_openapi::{ReadOptions, read_file};
use serde_json::Value;

fn check_schema(name: &str, schema: &Value, defs: Option<&serde_json::Map<String, Value>>) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref") {
                let target = reference
                    .strip_prefix("#/$defs/")
                    .unwrap_or_else(|| panic!("{name}: foreign $ref {reference}"));
                assert!(
                    defs.is_some_and(|d| d.contains_key(target)),
                    "{name}: dangling {reference}"
                );
            }
            for value in map.values() {
                check_schema(name, value, defs);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| check_schema(name, v, defs)),
        _ => {}
    }
}

#[test]
fn real_documents_read_strictly() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/specs"));
    if !dir.is_dir() {
        eprintln!("skipped: {} is absent", dir.display());
        return;
    }
    let expected = [
        ("xkcd.com.json", 2),
        ("openai.com.json", 28),
        ("spotify.com.json", 88),
        ("slack.com.json", 174),
        ("gitlab.com.json", 358),
        ("vercel.com.json", 113),
    ];
    for (file, count) in expected {
        let document =
            read_file(dir.join(file), &ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let api = &document.api;
        assert_eq!(api.operations.len(), count, "{file}");
        assert!(document.skipped.is_empty());
        let definitions = api.shared_definitions();
        let shared: serde_json::Map<String, Value> = definitions
            .iter()
            .map(|(k, v)| (k.to_owned(), v.clone()))
            .collect();
        let mut names = std::collections::HashSet::new();
        for op in api.operations.iter() {
            assert!(
                names.insert(op.name.to_string()),
                "{file}: duplicate {}",
                op.name
            );
            assert!(
                !op.name.is_empty()
                    && op.name.len() <= 64
                    && op
                        .name
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'),
                "{file}: bad name {}",
                op.name
            );
            assert!(op.title.is_some() || op.description.is_some());
            let stored: Value = serde_json::from_str(&op.schema).expect("schema is JSON");
            check_schema(
                &format!("{file} {} (stored)", op.name),
                &stored,
                Some(&shared),
            );
            let schema = definitions.self_contained(&stored);
            assert_eq!(schema["type"], "object", "{file} {}", op.name);
            let defs = schema.get("$defs").and_then(Value::as_object);
            check_schema(&format!("{file} {}", op.name), &schema, defs);
            let properties = schema["properties"].as_object().expect("properties");
            // Every argument is a key Anthropic takes (`^[a-zA-Z0-9_.-]{1,64}$`): one that is
            // not makes the Messages API refuse the whole request.
            for key in properties.keys() {
                assert!(
                    (1..=64).contains(&key.len())
                        && key
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b)),
                    "{file} {}: argument key {key:?}",
                    op.name
                );
            }
            for parameter in op.parameters.iter() {
                assert!(
                    properties.contains_key(parameter.argument.as_ref()),
                    "{file} {}",
                    op.name
                );
            }
        }
    }
}
