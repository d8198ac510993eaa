//! Documents that cannot be read: each error names the file and the place.

use mcs_openapi::{OpenApiError, ReadOptions, read_file, read_str};

use super::{op, read, schema};

fn error(text: &str, source: &str) -> OpenApiError {
    read_str(text, source, None, &ReadOptions::default()).unwrap_err()
}

#[test]
fn versions() {
    let e = error(
        "openapi: 4.0.0\ninfo: {title: t, version: v}\npaths: {}\n",
        "api.yaml",
    );
    assert_eq!(
        (e.file.as_str(), e.pointer.as_str()),
        ("api.yaml", "/openapi")
    );
    assert!(
        e.message.contains("unsupported OpenAPI version `4.0.0`"),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        format!("api.yaml: at /openapi: {}", e.message)
    );
    let e = error("info: {title: t, version: v}\npaths: {}\n", "api.yaml");
    assert_eq!(e.pointer, "/openapi");
    let e = error("swagger: '1.2'\npaths: {}\n", "api.yaml");
    assert_eq!(e.pointer, "/swagger");
    // YAML reads an unquoted 3.0 as a number; it still counts.
    assert!(
        read("openapi: 3.0\ninfo: {title: t, version: v}\npaths: {}\n")
            .api
            .operations
            .is_empty()
    );
}

#[test]
fn structure() {
    let e = error("[1, 2]", "api.json");
    assert_eq!(
        (e.pointer.as_str(), e.message.as_str()),
        ("", "the document is not an object")
    );
    let e = error("openapi: 3.0.0\ninfo: {title: t, version: v}\n", "api.yaml");
    assert_eq!(
        (e.pointer.as_str(), e.message.as_str()),
        ("/paths", "the document has no `paths`")
    );
    // 3.1 made `paths` optional.
    let ok = read_str(
        "openapi: 3.1.0\ninfo: {title: t, version: v}\n",
        "a.yaml",
        None,
        &ReadOptions::default(),
    );
    assert!(ok.unwrap().api.operations.is_empty());
    let e = error(
        "openapi: 3.0.0\npaths:\n  /a:\n    get:\n      parameters: [{in: query}]\n",
        "api.yaml",
    );
    assert_eq!(
        (e.pointer.as_str(), e.message.as_str()),
        ("/paths/~1a/get/parameters/0", "a parameter has no `name`")
    );
    let e = error(
        "openapi: 3.0.0\npaths:\n  /a:\n    get:\n      parameters: [{name: x, in: body}]\n",
        "api.yaml",
    );
    assert_eq!(e.pointer, "/paths/~1a/get/parameters/0/in");
    let e = error("openapi: 3.0.0\npaths:\n  a: {}\n", "api.yaml");
    assert_eq!(e.message, "path `a` does not start with `/`");
}

#[test]
fn parse_errors_carry_line_and_column() {
    let e = error(
        "{\n  \"openapi\": \"3.0.0\",\n  \"paths\": {,}\n}",
        "api.json",
    );
    assert_eq!((e.file.as_str(), e.pointer.as_str()), ("api.json", ""));
    assert!(e.message.starts_with("invalid JSON"), "{e}");
    assert!(e.message.contains("line 3"), "{e}");
    let e = error("openapi: 3.0.0\npaths:\n  /a: [unclosed\n", "api.yaml");
    assert!(e.message.starts_with("invalid YAML"), "{e}");
    assert!(e.message.contains("line"), "{e}");
    assert_eq!(e.to_string(), format!("api.yaml: {}", e.message));
    // Without an extension the first character decides.
    assert!(
        error("{\"openapi\": 4}", "stdin")
            .message
            .contains("unsupported")
    );
    let e = read_file(
        std::path::Path::new("/nonexistent/api.yaml"),
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert!(e.message.starts_with("cannot read"), "{e}");
}

#[test]
fn yaml_integer_keys_and_anchors() {
    let document = read(
        r#"
openapi: 3.0.0
info: {title: t, version: v}
paths:
  /a:
    get:
      operationId: get
      parameters:
        - &limit {name: limit, in: query, schema: {type: integer}}
      responses:
        200: {description: ok}
        default: {description: error}
  /b:
    get:
      operationId: get_b
      parameters: [*limit]
"#,
    );
    assert_eq!(document.api.operations.len(), 2);
    assert_eq!(document.api.operations[1].parameters[0].name, "limit");
}

#[test]
fn yaml_integers_past_64_bits_are_numbers_as_in_json() {
    // JSON documents hold such bounds as floating-point numbers; a YAML one was refused
    // whole ("JSON number out of range").
    let document = read(
        r#"
openapi: 3.0.0
info: {title: t, version: v}
paths:
  /a:
    get:
      operationId: get
      parameters:
        - {name: n, in: query, schema: {type: integer, minimum: -99999999999999999999999, maximum: 99999999999999999999999999999}}
      responses:
        200: {description: ok}
"#,
    );
    let n = &schema(op(&document, "get"))["properties"]["n"];
    assert_eq!(n["maximum"].as_f64(), Some(1e29), "{n}");
    assert_eq!(n["minimum"].as_f64(), Some(-1e23), "{n}");
}

#[test]
fn hostile_yaml_fails_fast() {
    let started = std::time::Instant::now();
    let deep = format!(
        "openapi: 3.0.0\npaths: {}{}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let e = error(&deep, "deep.yaml");
    assert!(
        e.message.contains("nested deeper than 1024 at line 2"),
        "{e}"
    );
    let mut bomb =
        String::from("openapi: 3.0.0\npaths: {}\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let p = i - 1;
        bomb.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    assert!(
        error(&bomb, "bomb.yaml")
            .message
            .starts_with("invalid YAML")
    );
    assert!(started.elapsed().as_secs() < 10);
}
