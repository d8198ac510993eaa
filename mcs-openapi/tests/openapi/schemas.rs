//! Argument schemas: references, recursion, normalisation between versions.

use std::path::Path;
use std::time::Instant;

use mcs_openapi::{ReadOptions, read_file, read_str};
use mcs_rest::BodyArgument;
use serde_json::{Value, json};

use super::{doc, op, read, read_with, schema};

/// A document whose `q` query parameter has `param_schema` and whose components hold
/// `components` (YAML under `schemas:`).
fn param_doc(version: &str, param_schema: &str, components: &str) -> String {
    format!(
        "openapi: {version}\ninfo: {{title: T, version: '1'}}\npaths:\n  /a:\n    get:\n      operationId: get\n      parameters:\n        - name: q\n          in: query\n          schema: {param_schema}\ncomponents:\n  schemas:\n{components}\n"
    )
}

fn q_schema(yaml: &str) -> Value {
    let document = read(yaml);
    schema(op(&document, "get"))["properties"]["q"].clone()
}

#[test]
fn openapi_30_nullable_and_boolean_exclusive_bounds_become_2020_12() {
    let q = q_schema(&param_doc(
        "3.0.3",
        "{type: object, properties: {a: {type: string, nullable: true, enum: [x, y]}, n: {type: integer, minimum: 1, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false}, r: {$ref: '#/components/schemas/R', nullable: true}}}",
        "    R: {type: object, properties: {b: {type: string}}}",
    ));
    assert_eq!(
        q,
        json!({
            "type": "object",
            "properties": {
                "a": {"type": ["string", "null"], "enum": ["x", "y", null]},
                "n": {"type": "integer", "exclusiveMinimum": 1, "maximum": 9},
                "r": {"type": ["object", "null"], "properties": {"b": {"type": "string"}}}
            }
        })
    );
}

#[test]
fn openapi_31_keywords_are_kept() {
    let q = q_schema(&param_doc(
        "3.1.0",
        "{type: [string, 'null'], const: x, exclusiveMinimum: 3, examples: [x]}",
        "    {}",
    ));
    assert_eq!(
        q,
        json!({"type": ["string", "null"], "const": "x", "exclusiveMinimum": 3})
    );
    let tuple = q_schema(&param_doc(
        "3.1.0",
        "{type: array, prefixItems: [{type: string}, {$ref: '#/components/schemas/N'}], items: false}",
        "    N: {type: number, $comment: gone, $id: gone}",
    ));
    assert_eq!(
        tuple,
        json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}], "items": false})
    );
}

#[test]
fn openapi_only_keywords_are_dropped_and_title_kept_only_without_description() {
    let q = q_schema(&param_doc(
        "3.0.3",
        r#"{type: object, title: Query, discriminator: {propertyName: kind}, xml: {name: q}, externalDocs: {url: x}, example: {kind: a}, x-extra: 1, deprecated: true, properties: {kind: {type: string, title: Kind, description: The kind.}, t: {title: Only title, type: string}, any: {}, no: false}}"#,
        "    {}",
    ));
    assert_eq!(
        q,
        json!({
            "type": "object",
            "title": "Query",
            "properties": {
                "kind": {"type": "string", "description": "The kind."},
                "t": {"title": "Only title", "type": "string"},
                "any": {},
                "no": false
            }
        })
    );
    let kept = read_with(
        &param_doc("3.0.3", "{type: string, example: abc}", "    {}"),
        &ReadOptions::default().keep_examples(true),
    )
    .unwrap();
    assert_eq!(
        schema(op(&kept, "get"))["properties"]["q"],
        json!({"type": "string", "examples": ["abc"]})
    );
}

#[test]
fn keywords_of_the_wrong_shape_and_unknown_type_words_are_left_out() {
    // Each of these makes a schema invalid JSON Schema, which hosts that check the tools
    // they are given refuse for the whole list.
    let q = q_schema(&param_doc(
        "3.0.3",
        r#"{type: object, required: [a, a, 3, b], properties: {a: {type: Integer, maxLength: "10", minLength: 2.0, pattern: 0, format: 7}, b: {type: [date, "null", string], multipleOf: 0, maximum: "9", uniqueItems: "yes"}, c: {type: any, minItems: -1, maxItems: 1.5}}}"#,
        "    {}",
    ));
    assert_eq!(
        q,
        json!({
            "type": "object",
            "required": ["a", "b"],
            "properties": {
                "a": {"type": "integer", "minLength": 2},
                "b": {"type": ["string", "null"]},
                "c": {}
            }
        })
    );
}

#[test]
fn read_only_properties_leave_request_schemas() {
    let q = q_schema(&param_doc(
        "3.0.3",
        "{$ref: '#/components/schemas/Pet'}",
        "    Id: {type: integer, readOnly: true}\n    Pet: {type: object, required: [id, name], properties: {id: {$ref: '#/components/schemas/Id'}, name: {type: string}, secret: {type: string, writeOnly: true}}}",
    ));
    assert_eq!(
        q,
        json!({
            "type": "object",
            "required": ["name"],
            "properties": {"name": {"type": "string"}, "secret": {"type": "string"}}
        })
    );
}

#[test]
fn recursive_schemas_go_to_defs_and_the_rest_is_inlined() {
    let document = read(&param_doc(
        "3.0.3",
        "{$ref: '#/components/schemas/Tree'}",
        r#"    Name: {type: string, description: A name.}
    Tree:
      type: object
      properties:
        name: {$ref: '#/components/schemas/Name'}
        children: {type: array, items: {$ref: '#/components/schemas/Tree'}}
    Loop:
      allOf: [{$ref: '#/components/schemas/Loop'}, {type: string}]"#,
    ));
    let schema = schema(op(&document, "get"));
    assert_eq!(schema["properties"]["q"], json!({"$ref": "#/$defs/Tree"}));
    assert_eq!(
        schema["$defs"],
        json!({
            "Tree": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "A name."},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}
                }
            }
        })
    );
    // A schema that contains itself without describing any part of the value adds nothing.
    let looped = q_schema(&param_doc(
        "3.0.3",
        "{$ref: '#/components/schemas/Loop'}",
        "    Loop:\n      allOf: [{$ref: '#/components/schemas/Loop'}, {type: string}]",
    ));
    assert_eq!(looped, json!({"allOf": [{}, {"type": "string"}]}));
}

#[test]
fn references_into_parameters_request_bodies_and_path_items() {
    let document = read(&doc(
        r#"
  /pets/{petId}:
    $ref: '#/components/pathItems/Pet'
"#,
        r#"
components:
  parameters:
    PetId: {name: petId, in: path, required: true, schema: {type: integer}}
    Alias: {$ref: '#/components/parameters/PetId'}
  requestBodies:
    Pet:
      content:
        application/json:
          schema: {type: object, properties: {name: {type: string}}}
  pathItems:
    Pet:
      parameters: [{$ref: '#/components/parameters/Alias'}]
      put:
        operationId: put
        requestBody: {$ref: '#/components/requestBodies/Pet'}
"#,
    ));
    let put = op(&document, "put");
    assert_eq!(put.path, "/pets/{petId}");
    assert_eq!(put.parameters[0].name, "petId");
    assert_eq!(
        put.body.as_ref().unwrap().argument,
        BodyArgument::Properties(vec!["name".into()].into())
    );
    assert_eq!(
        schema(put)["properties"],
        json!({"petId": {"type": "integer"}, "name": {"type": "string"}})
    );
}

#[test]
fn a_long_chain_of_references_is_no_cycle() {
    // 100 schemas, each only a reference to the next, then a string: too long to follow,
    // and said so, not called a cycle; and a cycle entered after two steps names only the
    // cycle.
    let chain: String = (0..100)
        .map(|i| format!("    S{i}: {{$ref: '#/components/schemas/S{}'}}\n", i + 1))
        .collect();
    let body = "      requestBody:\n        content:\n          application/json:\n            schema: {$ref: '#/components/schemas/S0'}\n";
    let error = read_with(
        &doc(
            &format!("  /a:\n    post:\n{body}"),
            &format!("components:\n  schemas:\n{chain}    S100: {{type: string}}\n"),
        ),
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert!(
        error.message.starts_with("more than 64 references in a row, given up: /components/schemas/S0 → /components/schemas/S1 → … →"),
        "{error}"
    );
    assert!(error.message.len() < 300, "{error}");
    let error = read_with(
        &doc(
            &format!("  /a:\n    post:\n{body}"),
            "components:\n  schemas:\n    S0: {$ref: '#/components/schemas/S1'}\n    S1: {$ref: '#/components/schemas/S2'}\n    S2: {$ref: '#/components/schemas/S1'}\n",
        ),
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert!(
        error.message.starts_with("reference cycle: /components/schemas/S1 → /components/schemas/S2 → /components/schemas/S1"),
        "{error}"
    );
}

#[test]
fn reference_cycles_through_parameters_and_path_items_are_errors() {
    let parameters = read_with(
        &doc(
            "  /a:\n    get:\n      parameters: [{$ref: '#/components/parameters/A'}]\n",
            "components:\n  parameters:\n    A: {$ref: '#/components/parameters/B'}\n    B: {$ref: '#/components/parameters/A'}\n",
        ),
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert!(
        parameters.message.starts_with("reference cycle"),
        "{parameters}"
    );
    let items = read_with(
        &doc(
            "  /a: {$ref: '#/paths/~1b'}\n  /b: {$ref: '#/paths/~1a'}\n",
            "",
        ),
        &ReadOptions::default().lenient(true),
    )
    .unwrap();
    assert_eq!(items.skipped.len(), 2);
    assert!(items.skipped[0].reason.starts_with("reference cycle"));
    assert_eq!(items.skipped[0].operation, "/a");
}

#[test]
fn dangling_reference_names_its_place() {
    let error = read_with(
        &param_doc("3.0.3", "{$ref: '#/components/schemas/Missing'}", "    {}"),
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(error.pointer, "/paths/~1a/get/parameters/0/schema/$ref");
    assert_eq!(
        error.message,
        "`#/components/schemas/Missing` points at nothing"
    );
}

#[test]
fn diamond_reuse_is_bounded() {
    // L0 uses L1 twice, L1 uses L2 twice, ...: inlining everything would be 2^40 nodes.
    let mut components = String::new();
    for level in 0..40 {
        components.push_str(&format!(
            "    L{level}: {{type: object, properties: {{a: {{$ref: '#/components/schemas/L{next}'}}, b: {{$ref: '#/components/schemas/L{next}'}}}}}}\n",
            next = level + 1
        ));
    }
    components.push_str("    L40: {type: string}\n");
    let started = Instant::now();
    let document = read(&param_doc(
        "3.0.3",
        "{$ref: '#/components/schemas/L0'}",
        &components,
    ));
    assert!(started.elapsed().as_secs() < 10);
    // Each schema is held once, and the operation refers to them.
    let stored = &op(&document, "get").schema;
    assert!(stored.len() < 1_000, "{} bytes", stored.len());
    assert!(document.api.definitions.len() < 20_000);
    // Assembled for a model, reuse past the budget goes to `$defs` instead of doubling.
    let started = Instant::now();
    let text = schema(op(&document, "get")).to_string();
    assert!(started.elapsed().as_secs() < 10);
    assert!(text.len() < 400_000, "{} bytes", text.len());
    let assembled: Value = serde_json::from_str(&text).unwrap();
    assert!(
        assembled["$defs"]
            .as_object()
            .is_some_and(|d| !d.is_empty())
    );
}

#[test]
fn long_schema_descriptions_are_capped() {
    let long = "x".repeat(3000);
    let q = q_schema(&param_doc(
        "3.0.3",
        &format!("{{type: string, description: {long}}}"),
        "    {}",
    ));
    let description = q["description"].as_str().unwrap();
    assert_eq!(description.chars().count(), 1000);
    assert!(description.ends_with('…'));
}

#[test]
fn relative_file_references_are_loaded_and_listed() {
    let dir = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/openapi/split"
    ));
    let document = read_file(dir.join("openapi.yaml"), &ReadOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let get = op(&document, "getPet");
    assert_eq!(
        schema(get)["properties"]["petId"],
        json!({"type": "integer", "format": "int64", "description": "The pet."})
    );
    let add = op(&document, "addPet");
    assert_eq!(
        add.body.as_ref().unwrap().argument,
        BodyArgument::Properties(vec!["name".into(), "tag".into(), "owner".into()].into())
    );
    let add_schema = schema(add);
    assert_eq!(add_schema["properties"]["tag"], json!({"type": "string"}));
    // owner → pets → pet → owner: the recursive schema stays a reference, carried along.
    assert_eq!(
        add_schema["properties"]["owner"],
        json!({"$ref": "#/$defs/owner"})
    );
    let pet = &add_schema["$defs"]["owner"]["properties"]["pets"]["items"];
    assert_eq!(pet["required"], json!(["name"]));
    assert_eq!(pet["properties"]["owner"], json!({"$ref": "#/$defs/owner"}));
    assert_eq!(add_schema["required"], json!(["name"]));
    let mut files: Vec<String> = document
        .files
        .iter()
        .map(|f| f.strip_prefix(dir).unwrap().display().to_string())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "common.yaml",
            "openapi.yaml",
            "paths/pet.yaml",
            "schemas/owner.yaml",
            "schemas/pet.json"
        ]
    );
    // Without a base directory, a file reference is an error naming it.
    let text = std::fs::read_to_string(dir.join("openapi.yaml")).unwrap();
    let error = read_str(&text, "openapi.yaml", None, &ReadOptions::default()).unwrap_err();
    assert!(error.message.contains("paths/pet.yaml"), "{error}");
    let based = read_str(&text, "openapi.yaml", Some(dir), &ReadOptions::default()).unwrap();
    assert_eq!(based.api.operations.len(), 2);
}

#[test]
fn deep_reference_chains_are_cut_not_overflowed() {
    let mut components = String::new();
    for level in 0..300 {
        components.push_str(&format!(
            "    D{level}: {{type: object, properties: {{next: {{$ref: '#/components/schemas/D{}'}}}}}}\n",
            level + 1
        ));
    }
    components.push_str("    D300: {type: string}\n");
    let q = q_schema(&param_doc(
        "3.0.3",
        "{$ref: '#/components/schemas/D0'}",
        &components,
    ));
    let mut depth = 0;
    let mut node = &q;
    while let Some(next) = node.get("properties").and_then(|p| p.get("next")) {
        node = next;
        depth += 1;
    }
    assert!((20..300).contains(&depth), "{depth}");
    assert_eq!(
        node,
        &json!({"description": "(not described: nested too deeply)"})
    );
}

#[test]
fn nullable_without_a_type_becomes_any_of_null() {
    let q = q_schema(&param_doc(
        "3.0.3",
        "{nullable: true, allOf: [{$ref: '#/components/schemas/S'}]}",
        "    S: {type: string}",
    ));
    assert_eq!(
        q,
        json!({"anyOf": [{"allOf": [{"type": "string"}]}, {"type": "null"}]})
    );
}

/// A union's `discriminator` is kept for the types of answers, its mapping pointing into the
/// definitions: by reference, by a bare schema name, and implicitly (a variant the mapping
/// leaves out, by its schema's name). Argument schemas leave it out: it means nothing to a
/// model or a validator.
#[test]
fn discriminators_are_kept_for_answers_and_left_out_of_arguments() {
    let yaml = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /pets:\n    post:\n      operationId: add\n      requestBody:\n        content:\n          application/json:\n            schema: {$ref: '#/components/schemas/Pet'}\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/Pet'}\ncomponents:\n  schemas:\n    Pet:\n      oneOf: [{$ref: '#/components/schemas/Dog'}, {$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Bird'}]\n      discriminator:\n        propertyName: petType\n        mapping: {dog: '#/components/schemas/Dog', kitty: Cat, ghost: '#/components/schemas/Nowhere'}\n    Dog: {type: object, properties: {petType: {type: string}, bark: {type: boolean}}}\n    Cat: {type: object, properties: {petType: {type: string}}}\n    Bird: {type: object, properties: {petType: {type: string}}}\n";
    let options = ReadOptions::default().responses(true);
    let document = read_with(yaml, &options).expect("reads");
    let responses = document.responses.expect("answers read");
    assert_eq!(
        responses.definitions["Pet"]["discriminator"],
        json!({
            "propertyName": "petType",
            "mapping": {"dog": "#/$defs/Dog", "kitty": "#/$defs/Cat", "Bird": "#/$defs/Bird"}
        })
    );
    let arguments: Value = serde_json::from_str(&document.api.definitions).expect("json");
    assert!(
        arguments["Pet"].get("discriminator").is_none(),
        "{arguments}"
    );
    assert!(arguments["Pet"].get("oneOf").is_some(), "{arguments}");
}
