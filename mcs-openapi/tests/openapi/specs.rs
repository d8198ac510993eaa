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

/// Where `npm ci` (as `.ci/run` runs it) put Ajv, the JSON Schema validator the
/// meta-schema check runs; `None`, with the reason printed, when it cannot run.
fn ajv_modules() -> Option<std::path::PathBuf> {
    let node = std::process::Command::new("node")
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .status();
    if !node.is_ok_and(|status| status.success()) {
        eprintln!("skipped: `node` is not on PATH");
        return None;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let found = [
        "tests/conformance/node_modules",
        "mcs-mcp/tests/node/node_modules",
    ]
    .iter()
    .map(|dir| root.join(dir))
    .find(|dir| dir.join("ajv/dist/2020.js").exists());
    if found.is_none() {
        eprintln!("skipped: Ajv is not installed; run `npm ci --prefix tests/conformance`");
    }
    found
}

/// Every argument schema the reader gives for the published documents (the shared ones,
/// GitHub's when npm installed it, and a vendored one written to be hostile) is valid JSON
/// Schema 2020-12, checked by Ajv against the meta-schema: hosts that check the tools they
/// are given (OpenAI's API does) refuse a whole request for one invalid schema. Each
/// operation's schema is checked as stored, and the definitions they share once per
/// document, which is what a self-contained schema is made of.
///
/// `MCS_METASCHEMA_DIRECTORY=DIR` adds every `*.json` and `*.yaml` document under `DIR`
/// (APIs.guru's directory, say), read leniently; one that cannot be read is counted, not
/// checked.
#[test]
fn argument_schemas_are_valid_json_schema() {
    let Some(modules) = ajv_modules() else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("tests/fixtures/openapi/wrong-keywords.yaml")];
    let mut directories = vec![root.join("../../shared/specs")];
    let opt_in = std::env::var_os("MCS_METASCHEMA_DIRECTORY").map(std::path::PathBuf::from);
    directories.extend(opt_in.clone());
    for directory in directories {
        let mut found = Vec::new();
        documents_under(&directory, &mut found);
        found.sort();
        files.extend(found);
    }
    let github = root
        .join("../tests/conformance/node_modules/@octokit/openapi/generated/api.github.com.json");
    if github.exists() {
        files.push(github);
    }
    let lenient = ReadOptions::default().lenient(true);
    let mut schemas = Vec::new();
    let mut unread = 0;
    for file in &files {
        let is_opt_in = opt_in.as_ref().is_some_and(|dir| file.starts_with(dir));
        let options = if is_opt_in {
            &lenient
        } else {
            &ReadOptions::default()
        };
        let document = match read_file(file, options) {
            Ok(document) => document,
            Err(_) if is_opt_in => {
                unread += 1;
                continue;
            }
            Err(error) => panic!("{error}"),
        };
        let label = file.file_name().unwrap().to_string_lossy().into_owned();
        let definitions = document.api.shared_definitions();
        let shared: serde_json::Map<String, Value> = definitions
            .iter()
            .map(|(k, v)| (k.to_owned(), v.clone()))
            .collect();
        schemas.push(serde_json::json!({
            "name": format!("{label} (shared definitions)"),
            "schema": {"$defs": shared},
        }));
        for op in document.api.operations.iter() {
            let stored: Value = serde_json::from_str(&op.schema).expect("schema is JSON");
            schemas.push(serde_json::json!({
                "name": format!("{label} {}", op.name),
                "schema": stored,
            }));
        }
    }
    assert!(
        schemas.len() > 5,
        "the vendored document's operations at least"
    );
    if unread > 0 {
        eprintln!("{unread} documents could not be read");
    }
    let list = std::env::temp_dir().join(format!("mcs-metaschema-{}.json", std::process::id()));
    std::fs::write(&list, serde_json::to_vec(&schemas).unwrap()).unwrap();
    let output = std::process::Command::new("node")
        .arg("--max-old-space-size=8192")
        .arg(root.join("tests/node/metaschema.cjs"))
        .arg(&modules)
        .arg(&list)
        .output()
        .expect("node runs");
    let _ = std::fs::remove_file(&list);
    let stdout = String::from_utf8_lossy(&output.stdout);
    eprintln!("{}", stdout.lines().last().unwrap_or_default());
    assert!(
        output.status.success(),
        "invalid JSON Schema:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains(&format!("checked {}, invalid 0", schemas.len())));
}

/// The `*.json`, `*.yaml` and `*.yml` files under `directory`, at any depth.
fn documents_under(directory: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(directory) else {
        return;
    };
    for path in entries.filter_map(Result::ok).map(|entry| entry.path()) {
        if path.is_dir() {
            documents_under(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e == "json" || e == "yaml" || e == "yml")
        {
            out.push(path);
        }
    }
}
