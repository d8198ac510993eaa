//! Names, texts, parameters and arguments.

use mcs_openapi::ReadOptions;
use mcs_rest::{Location, Method, Style};
use serde_json::json;

use super::{doc, op, read, read_with, schema};

#[test]
fn names_come_from_operation_ids_sanitised_or_from_method_and_path() {
    let long = "x".repeat(80);
    let document = read(&doc(
        &format!(
            r#"
  /pets/{{petId}}:
    get:
      responses: {{}}
    put:
      operationId: "pets.update pet!!"
    delete:
      operationId: "???"
  /a:
    get:
      operationId: {long}
"#
        ),
        "",
    ));
    let names: Vec<&str> = document
        .api
        .operations
        .iter()
        .map(|o| o.name.as_ref())
        .collect();
    assert_eq!(
        names[..3],
        ["get_pets_petId", "pets_update_pet", "delete_pets_petId"]
    );
    assert_eq!(names[3].len(), 64);
    assert!(names[3].starts_with(&"x".repeat(55)));
    // Same input, same names.
    let again = read(&doc(
        &format!("  /a:\n    get:\n      operationId: {long}\n"),
        "",
    ));
    assert_eq!(again.api.operations[0].name, names[3]);
}

#[test]
fn duplicate_names_get_numbered_suffixes_in_document_order() {
    let document = read(&doc(
        r#"
  /a:
    get: {operationId: list}
    post: {operationId: list}
  /b:
    get: {operationId: list_2}
    post: {operationId: "list?"}
"#,
        "",
    ));
    let names: Vec<&str> = document
        .api
        .operations
        .iter()
        .map(|o| o.name.as_ref())
        .collect();
    assert_eq!(names, ["list", "list_3", "list_2", "list_4"]);
}

/// Jellyfin's generator writes `Get` or `Post` as the operationId of many operations: a
/// placeholder shared by several, so their method and path name them. One such id alone
/// is still its operation's name.
#[test]
fn a_bare_method_several_operations_share_as_operation_id_is_no_name() {
    let document = read(&doc(
        r#"
  /Search/Hints:
    get: {operationId: Get}
  /Items/{itemId}/Refresh:
    post: {operationId: Post, parameters: [{name: itemId, in: path, required: true, schema: {type: string}}]}
  /System/Info:
    get: {operationId: get}
  /Notes:
    delete: {operationId: Delete}
"#,
        "",
    ));
    let names: Vec<&str> = document
        .api
        .operations
        .iter()
        .map(|o| o.name.as_ref())
        .collect();
    assert_eq!(
        names,
        ["get_Search_Hints", "Post", "get_System_Info", "Delete"]
    );
}

#[test]
fn title_description_and_deprecation() {
    let long = "word ".repeat(400);
    let document = read_with(
        &doc(
            &format!(
                r#"
  /a:
    get: {{operationId: both, summary: "  Short  ", description: "Long text."}}
    put: {{operationId: summary_only, summary: Short}}
    post: {{operationId: neither}}
    patch: {{operationId: old, summary: Old, deprecated: true}}
    delete: {{operationId: same, summary: Same, description: Same}}
    head: {{operationId: long, description: "{long}"}}
  /b:
    get: {{operationId: dot, summary: ".", description: "Returns an artist."}}
    put: {{operationId: dashes, summary: " - ", description: "—"}}
"#
            ),
            "",
        ),
        &ReadOptions::default().max_description_chars(50),
    )
    .unwrap();
    let both = op(&document, "both");
    assert_eq!(both.title.as_deref(), Some("Short"));
    assert_eq!(both.description.as_deref(), Some("Long text."));
    let summary_only = op(&document, "summary_only");
    assert_eq!(summary_only.title.as_deref(), Some("Short"));
    assert_eq!(summary_only.description, None);
    assert_eq!(op(&document, "neither").title.as_deref(), Some("POST /a"));
    let old = op(&document, "old");
    assert!(old.deprecated);
    assert_eq!(old.description.as_deref(), Some("Deprecated. Old"));
    assert_eq!(op(&document, "same").description, None);
    let long = op(&document, "long").description.clone().unwrap();
    assert_eq!(long.chars().count(), 50);
    assert!(long.ends_with('…'));
    // A summary without a word says nothing: the description speaks, or the method and path.
    let dot = op(&document, "dot");
    assert_eq!(dot.title, None);
    assert_eq!(dot.description.as_deref(), Some("Returns an artist."));
    assert_eq!(op(&document, "dashes").title.as_deref(), Some("PUT /b"));
}

#[test]
fn path_level_parameters_merge_with_the_operation_winning() {
    let document = read(&doc(
        r#"
  /items/{id}:
    parameters:
      - {name: id, in: path, schema: {type: string}, description: path level}
      - {name: limit, in: query, schema: {type: integer}}
      - {name: Accept, in: header, schema: {type: string}}
    get:
      operationId: get
      parameters:
        - {name: id, in: path, required: false, schema: {type: integer}, description: op level}
        - {name: Authorization, in: header, schema: {type: string}}
        - {name: Content-Type, in: header, schema: {type: string}}
        - {name: X-Trace, in: header, required: true, schema: {type: string}}
        - {name: session, in: cookie, schema: {type: string}}
"#,
        "",
    ));
    let get = op(&document, "get");
    let names: Vec<(&str, Location)> = get
        .parameters
        .iter()
        .map(|p| (p.name.as_ref(), p.location))
        .collect();
    assert_eq!(
        names,
        [
            ("id", Location::Path),
            ("limit", Location::Query),
            ("X-Trace", Location::Header),
            ("session", Location::Cookie)
        ]
    );
    let id = &get.parameters[0];
    assert!(id.required, "path parameters are always required");
    assert_eq!((id.style, id.explode), (Style::Simple, false));
    let limit = &get.parameters[1];
    assert_eq!(
        (limit.style, limit.explode, limit.required),
        (Style::Form, true, false)
    );
    assert_eq!(
        (get.parameters[3].style, get.parameters[3].explode),
        (Style::Form, true)
    );
    assert_eq!(
        schema(get),
        json!({
            "type": "object",
            "properties": {
                "id": {"type": "integer", "description": "op level"},
                "limit": {"type": "integer"},
                "X-Trace": {"type": "string"},
                "session": {"type": "string"}
            },
            "required": ["id", "X-Trace"]
        })
    );
}

#[test]
fn styles_content_parameters_and_undeclared_placeholders() {
    let document = read(&doc(
        r#"
  /files/{dir}/{name}:
    get:
      operationId: get
      parameters:
        - {name: dir, in: path, style: label, explode: true, schema: {type: string}}
        - {name: ghost, in: path, schema: {type: string}}
        - {name: ids, in: query, style: pipeDelimited, schema: {type: array, items: {type: integer}}}
        - {name: q, in: query, allowReserved: true, explode: false, schema: {type: string}}
        - {name: h, in: header, allowReserved: true, schema: {type: string}}
        - name: filter
          in: query
          style: deepObject
          content:
            application/json:
              schema: {type: object, properties: {a: {type: string}}}
        - {name: plain, in: query}
"#,
        "",
    ));
    let get = op(&document, "get");
    let rows: Vec<(&str, Style, bool, bool)> = get
        .parameters
        .iter()
        .map(|p| (p.argument.as_ref(), p.style, p.explode, p.allow_reserved))
        .collect();
    assert_eq!(
        rows,
        [
            ("dir", Style::Label, true, false),
            ("name", Style::Simple, false, false),
            ("ids", Style::PipeDelimited, false, false),
            ("q", Style::Form, false, true),
            ("filter", Style::DeepObject, false, false),
            ("plain", Style::Form, true, false),
            ("h", Style::Simple, false, false),
        ]
    );
    let schema = schema(get);
    assert_eq!(schema["properties"]["name"], json!({"type": "string"}));
    assert_eq!(
        schema["properties"]["filter"]["properties"]["a"],
        json!({"type": "string"})
    );
    assert_eq!(schema["properties"]["plain"], json!({"type": "string"}));
    assert_eq!(schema["required"], json!(["dir", "name"]));
    assert!(schema["properties"].get("ghost").is_none());
}

#[test]
fn same_name_in_two_locations_renames_the_later_argument() {
    let document = read(&doc(
        r#"
  /things/{id}:
    post:
      operationId: post
      parameters:
        - {name: id, in: header, schema: {type: string}}
        - {name: id, in: query, schema: {type: string}}
        - {name: id, in: path, schema: {type: string}}
        - {name: query_id, in: cookie, schema: {type: string}}
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {name: {type: string}}}
"#,
        "",
    ));
    let post = op(&document, "post");
    let rows: Vec<(&str, &str, Location)> = post
        .parameters
        .iter()
        .map(|p| (p.argument.as_ref(), p.name.as_ref(), p.location))
        .collect();
    assert_eq!(
        rows,
        [
            ("id", "id", Location::Path),
            ("query_id_2", "id", Location::Query),
            ("header_id", "id", Location::Header),
            ("query_id", "query_id", Location::Cookie),
        ]
    );
    let keys: Vec<String> = schema(post)["properties"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys, ["id", "query_id_2", "header_id", "query_id", "name"]);
}

#[test]
fn operations_keep_document_order_tags_and_methods() {
    let document = read(&doc(
        r#"
  /b:
    post: {operationId: b_post, tags: [write, pets]}
    get: {operationId: b_get, tags: [read]}
  /a:
    trace: {operationId: a_trace}
  x-ignored: {}
"#,
        "",
    ));
    let rows: Vec<(&str, Method, &str)> = document
        .api
        .operations
        .iter()
        .map(|o| (o.name.as_ref(), o.method, o.path.as_ref()))
        .collect();
    assert_eq!(
        rows,
        [
            ("b_post", Method::Post, "/b"),
            ("b_get", Method::Get, "/b"),
            ("a_trace", Method::Trace, "/a")
        ]
    );
    assert_eq!(document.api.operations[0].tags.as_ref(), ["write", "pets"]);
}

#[test]
fn described_tags_that_operations_use_are_kept_in_document_order() {
    let long = "word ".repeat(1000);
    let document = read(&doc(
        r#"
  /b:
    post: {operationId: b_post, tags: [write, pets]}
    get: {operationId: b_get, tags: [read, long]}
"#,
        &format!(
            r#"tags:
  - {{name: pets, description: "  Animals for sale.  "}}
  - {{name: unused, description: No operation has this tag.}}
  - {{name: read}}
  - {{name: write, description: ""}}
  - {{name: pets, description: A second entry for the same tag.}}
  - {{description: no name}}
  - 42
  - {{name: long, description: "{long}"}}
"#
        ),
    ));
    let tags: Vec<(&str, &str)> = document
        .api
        .tags
        .iter()
        .map(|t| (t.name.as_ref(), t.description.as_ref()))
        .collect();
    assert_eq!(tags.len(), 2, "{tags:?}");
    assert_eq!(tags[0], ("pets", "Animals for sale."));
    assert_eq!(tags[1].0, "long");
    // Capped like an operation's description.
    let cap = ReadOptions::DEFAULT_MAX_DESCRIPTION_CHARS;
    assert!(tags[1].1.chars().count() <= cap && tags[1].1.ends_with('…'));

    let without = read(&doc("  /a:\n    get: {operationId: a, tags: [x]}\n", ""));
    assert!(without.api.tags.is_empty());
}

#[test]
fn argument_keys_are_ones_every_provider_takes_and_say_what_is_sent() {
    let long = "n".repeat(70);
    let document = read(&doc(
        &format!(
            r#"
  /things:
    post:
      operationId: things
      parameters:
        - {{name: "filter[name]", in: query, schema: {{type: string}}}}
        - {{name: top, in: query, schema: {{type: integer}}}}
        - {{name: "$top", in: query, schema: {{type: integer}}}}
        - {{name: X-Request.ID, in: header, schema: {{type: string}}}}
        - {{name: "{long}", in: query, schema: {{type: string}}}}
        - {{name: "{long}", in: header, schema: {{type: string}}}}
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                $schema: {{type: string}}
                name: {{type: string}}
  /plain:
    post:
      operationId: plain
      requestBody:
        content:
          application/json:
            schema: {{type: object, properties: {{name: {{type: string}}}}}}
"#
        ),
        "",
    ));
    let things = op(&document, "things");
    let keys: Vec<(&str, &str)> = things
        .parameters
        .iter()
        .map(|p| (p.argument.as_ref(), p.name.as_ref()))
        .collect();
    assert_eq!(keys[0], ("filter_name", "filter[name]"));
    assert_eq!(keys[1], ("top", "top"));
    // `$top` would be `top`, which the first `top` holds.
    assert_eq!(keys[2], ("query_top", "$top"));
    // Query parameters come before headers.
    assert_eq!(keys[3].0.len(), 64);
    assert_eq!(keys[4], ("X-Request.ID", "X-Request.ID"));
    assert!(
        keys[5].0.starts_with("header_") && keys[5].0.len() == 64,
        "{keys:?}"
    );
    assert_ne!(keys[3].0, keys[5].0);
    let things = schema(things);
    let description = things["properties"]["filter_name"]["description"].as_str();
    assert_eq!(
        description,
        Some("Sent as the query parameter `filter[name]`.")
    );
    assert!(things["properties"]["top"].get("description").is_none());
    // A body with a key no provider takes stays whole: `$schema` is nested in `body`.
    assert!(things["properties"]["body"]["properties"]["$schema"].is_object());
    assert!(things["properties"].get("name").is_none());
    // Otherwise its properties are arguments.
    assert!(schema(op(&document, "plain"))["properties"]["name"].is_object());
}

#[test]
fn filters_keep_names_stable() {
    let yaml = doc(
        r#"
  /a:
    get: {operationId: same, tags: [read]}
    post: {operationId: same, tags: [write]}
    put: {operationId: other, tags: [write]}
    delete: {operationId: gone, tags: [write]}
"#,
        "",
    );
    let options = ReadOptions::default()
        .include_tags(["write"])
        .exclude_operations(["gone", "other"]);
    let document = read_with(&yaml, &options).unwrap();
    let names: Vec<&str> = document
        .api
        .operations
        .iter()
        .map(|o| o.name.as_ref())
        .collect();
    assert_eq!(names, ["same_2"]);
    let by_name = read_with(
        &yaml,
        &ReadOptions::default().exclude_operations(["same_2"]),
    )
    .unwrap();
    let names: Vec<&str> = by_name
        .api
        .operations
        .iter()
        .map(|o| o.name.as_ref())
        .collect();
    assert_eq!(names, ["same", "other", "gone"]);
}

#[test]
fn api_name_title_and_version() {
    let document = read(&doc("  {}", ""));
    assert_eq!(document.api.name, "TestAPI");
    assert_eq!(document.api.title, "Test API");
    assert_eq!(document.api.version, "1");
    assert!(document.api.operations.is_empty());
    let named = read_with(
        &doc("  {}", ""),
        &ReadOptions::default().driver_name("Pets"),
    )
    .unwrap();
    assert_eq!(named.api.name, "Pets");
    let numeric = read("openapi: 3.1.0\ninfo: {title: 42 things, version: 2.5}\n");
    assert_eq!(numeric.api.name, "Api42Things");
    assert_eq!(numeric.api.version, "2.5");
}

#[test]
fn servers_of_an_operation_or_its_path_are_read() {
    let document = read(&doc(
        r#"
  /files:
    servers: [{url: 'https://files.example.com/v1'}]
    post:
      operationId: upload
      responses: {'200': {description: ok}}
    get:
      operationId: listFiles
      servers: [{url: 'https://{region}.files.example.com', variables: {region: {default: eu, enum: [eu, us]}}}]
      responses: {'200': {description: ok}}
  /pets:
    get:
      operationId: listPets
      responses: {'200': {description: ok}}
"#,
        "servers: [{url: 'https://api.example.com'}]",
    ));
    let upload = op(&document, "upload");
    assert_eq!(upload.servers.len(), 1);
    assert_eq!(upload.servers[0].url, "https://files.example.com/v1");
    // The operation's own servers come before its path's.
    let list = op(&document, "listFiles");
    assert_eq!(list.servers[0].url, "https://{region}.files.example.com");
    assert_eq!(list.servers[0].variables[0].default, "eu");
    assert!(op(&document, "listPets").servers.is_empty());
    assert_eq!(document.api.servers[0].url, "https://api.example.com");
}

#[test]
fn a_description_beside_a_parameter_reference_counts_in_3_1() {
    let paths = r#"
  /items:
    get:
      operationId: list
      parameters:
        - {$ref: '#/components/parameters/Limit', description: 'How many items, here.'}
      responses: {'200': {description: ok}}
"#;
    let components = "components:\n  parameters:\n    Limit: {name: limit, in: query, description: How many., schema: {type: integer}}\n";
    let v31 = read(&doc(paths, components).replace("openapi: 3.0.3", "openapi: 3.1.0"));
    assert_eq!(
        schema(op(&v31, "list"))["properties"]["limit"]["description"],
        "How many items, here."
    );
    // OpenAPI 3.0 ignores what stands beside a reference.
    let v30 = read(&doc(paths, components));
    assert_eq!(
        schema(op(&v30, "list"))["properties"]["limit"]["description"],
        "How many."
    );
}
