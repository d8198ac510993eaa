//! Mutated documents: the reader returns, never panics or hangs.

use mcs_openapi::{ReadOptions, read_str};
use proptest::prelude::*;
use serde_json::{Value, json};

fn base() -> Value {
    json!({
        "openapi": "3.0.3",
        "info": {"title": "Pets", "version": "1"},
        "servers": [{"url": "https://{h}/v1", "variables": {"h": {"default": "x", "enum": ["x"]}}}],
        "security": [{"key": []}],
        "paths": {
            "/pets/{petId}": {
                "parameters": [{"$ref": "#/components/parameters/PetId"}],
                "get": {
                    "operationId": "getPet",
                    "summary": "Get",
                    "parameters": [{"name": "q", "in": "query", "schema": {"$ref": "#/components/schemas/Pet"}}],
                    "responses": {"200": {"$ref": "#/components/responses/Ok"}}
                },
                "post": {
                    "operationId": "addPet",
                    "requestBody": {"$ref": "#/components/requestBodies/Pet"},
                    "security": [{"bearer": []}, {}]
                }
            },
            "/files": {
                "put": {
                    "requestBody": {"content": {
                        "multipart/form-data": {"schema": {"type": "object", "properties": {
                            "f": {"type": "string", "format": "binary"}}}}
                    }}
                }
            }
        },
        "components": {
            "parameters": {"PetId": {"name": "petId", "in": "path", "required": true, "schema": {"type": "integer"}}},
            "requestBodies": {"Pet": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}},
            "responses": {"Ok": {"description": "ok"}},
            "securitySchemes": {
                "key": {"type": "apiKey", "in": "header", "name": "X-Key"},
                "bearer": {"type": "http", "scheme": "bearer"}
            },
            "schemas": {
                "Pet": {"type": "object", "required": ["name"], "properties": {
                    "name": {"type": "string", "nullable": true},
                    "tags": {"type": "array", "items": {"$ref": "#/components/schemas/Tag"}},
                    "parent": {"$ref": "#/components/schemas/Pet"}
                }},
                "Tag": {"allOf": [{"$ref": "#/components/schemas/Named"}, {"type": "object"}]},
                "Named": {"type": "object", "properties": {"name": {"type": "string", "readOnly": true}}}
            }
        }
    })
}

/// Every pointer to a node in `value`.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                pointers(
                    child,
                    format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                pointers(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

fn garbage() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        Just(json!(true)),
        Just(json!(-1)),
        Just(json!("")),
        Just(json!([])),
        Just(json!({})),
        Just(json!({"$ref": "#"})),
        Just(json!({"$ref": ""})),
        Just(json!({"$ref": "#/nowhere"})),
        Just(json!({"$ref": "missing.yaml#/x"})),
        Just(json!({"$ref": "http://example.com/x"})),
        Just(json!({"$ref": "#/paths"})),
        Just(json!({"$ref": "#/components/schemas/Pet"})),
        Just(json!({"$ref": "#/components/parameters/PetId"})),
        Just(json!({"$ref": "#/components/requestBodies/Pet"})),
        Just(json!({"$ref": "#/paths/~1pets~1{petId}"})),
        Just(json!({"type": ["string", 3, null]})),
        Just(json!({"type": "file"})),
        Just(json!({"allOf": [{"$ref": "#/components/schemas/Tag"}]})),
        Just(json!("x".repeat(5000))),
        Just(json!("é".repeat(100))),
        "[a-z{}/~.é ]{0,12}".prop_map(Value::String),
    ]
}

#[derive(Debug, Clone)]
enum Mutation {
    /// Replace the node at the chosen pointer with garbage.
    Replace(usize, Value),
    /// Remove the node (an object member or array item).
    Remove(usize),
    /// Make the node a reference to another node.
    Retarget(usize, usize),
    /// Rename an object key to something odd.
    Rename(usize, String),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), garbage()).prop_map(|(at, g)| Mutation::Replace(at, g)),
        any::<usize>().prop_map(Mutation::Remove),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::Retarget(a, b)),
        (
            any::<usize>(),
            prop_oneof![Just(String::new()), Just("a".repeat(300)), "[ -~]{0,10}"]
        )
            .prop_map(|(at, name)| Mutation::Rename(at, name)),
    ]
}

fn parent_and_key(pointer: &str) -> Option<(String, String)> {
    let (parent, key) = pointer.rsplit_once('/')?;
    Some((parent.to_owned(), key.replace("~1", "/").replace("~0", "~")))
}

fn apply(document: &mut Value, mutation: &Mutation) {
    let mut all = Vec::new();
    pointers(document, String::new(), &mut all);
    let pick = |i: usize| all[i % all.len()].clone();
    match mutation {
        Mutation::Replace(at, garbage) => {
            if let Some(node) = document.pointer_mut(&pick(*at)) {
                *node = garbage.clone();
            }
        }
        Mutation::Remove(at) => {
            let Some((parent, key)) = parent_and_key(&pick(*at)) else {
                return;
            };
            match document.pointer_mut(&parent) {
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
        Mutation::Retarget(at, target) => {
            let target = pick(*target);
            if let Some(node) = document.pointer_mut(&pick(*at)) {
                *node = json!({"$ref": format!("#{target}")});
            }
        }
        Mutation::Rename(at, name) => {
            let Some((parent, key)) = parent_and_key(&pick(*at)) else {
                return;
            };
            if let Some(Value::Object(map)) = document.pointer_mut(&parent)
                && let Some(value) = map.shift_remove(&key)
            {
                map.insert(name.clone(), value);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn mutated_documents_never_panic(mutations in proptest::collection::vec(mutation(), 1..6), lenient: bool, yaml: bool) {
        let mut document = base();
        for mutation in &mutations {
            apply(&mut document, mutation);
        }
        let options = ReadOptions::default().lenient(lenient);
        let (text, source) = if yaml {
            (serde_yaml_ng::to_string(&document).unwrap_or_default(), "mutated.yaml")
        } else {
            (document.to_string(), "mutated.json")
        };
        if let Ok(read) = read_str(&text, source, None, &options) {
            for operation in read.api.operations.iter() {
                let schema: Value = serde_json::from_str(&operation.schema).expect("schema is JSON");
                prop_assert_eq!(&schema["type"], "object");
            }
        }
    }
}

#[test]
fn the_unmutated_document_reads() {
    let document = read_str(
        &base().to_string(),
        "base.json",
        None,
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(document.api.operations.len(), 3);
    let schema: Value = serde_json::from_str(&document.api.operations[0].schema).unwrap();
    assert_eq!(schema["properties"]["q"], json!({"$ref": "#/$defs/Pet"}));
}
