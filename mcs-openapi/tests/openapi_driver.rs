//! A document read at run time (`Document::into_driver`) — from a file, from text, from a URL — runs
//! through the same executor as a generated driver.
#![cfg(feature = "http")]

use mcs_core::{Driver, LlmResponse, ToolDriver, ToolError};
use mcs_openapi::{Document, ReadOptions, fetch, read_file, read_str};
use mcs_rest::RestDriver;
use serde_json::json;
use wiremock::matchers::{header, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

const NOTES: &str = r#"
openapi: 3.1.0
info: { title: Notes, version: "2" }
servers: [{ url: /api }]
components:
  securitySchemes:
    token: { type: http, scheme: bearer }
security: [{ token: [] }]
paths:
  /notes:
    get:
      operationId: searchNotes
      summary: Notes containing a word
      parameters:
        - { name: q, in: query, required: true, schema: { type: string, minLength: 2 } }
        - { name: since, in: query, schema: { type: string, format: date } }
  /notes/{id}:
    delete:
      summary: Delete a note
      parameters:
        - { name: id, in: path, required: true, schema: { type: [integer, "null"] } }
"#;

/// The driver of a document given as text (`name` says where it came from in errors).
fn driver_of(text: &str, name: &str) -> RestDriver {
    read_str(text, name, None, &ReadOptions::default())
        .map(Document::into_driver)
        .unwrap_or_else(|error| panic!("the document reads: {error}"))
}

async fn serve_notes() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/spec.yaml"))
        .respond_with(ResponseTemplate::new(200).set_body_string(NOTES))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/notes"))
        .and(query_param("q", "milk"))
        .and(header("authorization", "Bearer t0ken"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!([{"id": 1, "text": "buy milk"}])),
        )
        .mount(&server)
        .await;
    server
}

/// The notes document read from text, sending to `server` with the token it expects.
fn notes_from_text(server: &MockServer) -> RestDriver {
    match read_str(NOTES, "notes.yaml", None, &ReadOptions::default()).map(Document::into_driver) {
        Ok(driver) => driver
            .with_base_url(format!("{}/api", server.uri()))
            .with_bearer_token("t0ken"),
        Err(error) => panic!("the document reads: {error}"),
    }
}

#[tokio::test]
async fn a_document_fetched_by_url_runs_against_its_relative_server() {
    let server = serve_notes().await;
    let url = format!("{}/spec.yaml", server.uri());
    let driver = match fetch(&url, &ReadOptions::default())
        .await
        .map(Document::into_driver)
    {
        Ok(driver) => driver.with_bearer_token("t0ken"),
        Err(error) => panic!("{error}"),
    };
    assert_eq!(
        driver.base_url().ok(),
        Some(format!("{}/api", server.uri()))
    );
    let names: Vec<String> = driver
        .list_tools()
        .iter()
        .map(|t| t.name().to_owned())
        .collect();
    assert_eq!(names, ["searchNotes", "delete_notes_id"]);

    let found = driver
        .execute_tool("searchNotes", json!({"q": "milk"}))
        .await;
    assert_eq!(found.ok(), Some(json!([{"id": 1, "text": "buy milk"}])));

    // Validated by schema alone: a date that is not one never leaves the process.
    let before = server.received_requests().await.map_or(0, |r| r.len());
    let error = driver
        .execute_tool("searchNotes", json!({"q": "milk", "since": "yesterday"}))
        .await
        .expect_err("not a date");
    assert!(
        matches!(error, ToolError::InvalidArguments { .. }),
        "{error}"
    );
    assert!(error.to_string().contains("since"), "{error}");
    assert_eq!(
        server.received_requests().await.map_or(0, |r| r.len()),
        before
    );
}

#[tokio::test]
async fn a_document_read_from_text_is_a_hybrid_driver() {
    let server = serve_notes().await;
    let driver = notes_from_text(&server);
    let reply = driver
        .process_llm_response(LlmResponse::Text(
            "<tool_call>{\"name\": \"searchNotes\", \"arguments\": {\"q\": \"milk\"}}</tool_call>",
        ))
        .await;
    assert!(reply.call_executed, "{reply:?}");
    let reply = driver
        .process_llm_response(LlmResponse::Text(
            r#"{"tool": "searchNotes", "arguments": {"q": "m"}}"#,
        ))
        .await;
    assert!(reply.call_failed);
    assert!(reply.retry_prompt.unwrap_or_default().contains("`q`"));
}

#[tokio::test]
async fn unreadable_documents_and_urls_are_errors_that_say_where() {
    let error = read_file("no/such/spec.yaml", &ReadOptions::default())
        .err()
        .map(|e| e.to_string());
    assert!(error.is_some_and(|e| e.contains("no/such/spec.yaml") && e.contains("cannot read")));

    let broken = "openapi: 3.0.0\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      parameters: [{$ref: '#/components/parameters/missing'}]\n";
    let error = read_str(broken, "broken.yaml", None, &ReadOptions::default())
        .map(Document::into_driver)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        error.starts_with("broken.yaml: at /paths/~1a/get/parameters/0"),
        "{error}"
    );

    let server = MockServer::start().await;
    let missing = format!("{}/nothing.json", server.uri());
    let error = fetch(&missing, &ReadOptions::default())
        .await
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(error.contains("404"), "{error}");
}

#[tokio::test]
async fn a_number_written_as_a_string_is_read_as_the_number_before_the_request() {
    let server = MockServer::start().await;
    Mock::given(method("DELETE"))
        .and(path("/api/notes/12"))
        .respond_with(ResponseTemplate::new(204))
        .expect(1)
        .mount(&server)
        .await;
    let driver = notes_from_text(&server);
    let deleted = driver
        .execute_tool("delete_notes_id", json!({"id": "12"}))
        .await;
    assert_eq!(deleted.ok(), Some(serde_json::Value::Null));
    // Text that is not plainly a number still fails, naming the argument.
    let error = driver
        .execute_tool("delete_notes_id", json!({"id": "twelve"}))
        .await
        .expect_err("not a number");
    assert!(error.to_string().contains("`id`"), "{error}");
}

#[tokio::test]
async fn tag_descriptions_reach_the_toolsets_and_the_discovery_prompt() {
    use mcs_hybrid::Hybrid;
    use mcs_orchestrator::{ConflictPolicy, Discovery, Orchestrator, Registration};
    use std::sync::Arc;

    let text = r#"
openapi: 3.0.3
info: { title: Shop, version: "1" }
tags:
  - { name: pets, description: "Animals for sale, and their records." }
  - { name: store }
paths:
  /pets: { get: { operationId: listPets, tags: [pets], summary: List the pets } }
  /orders: { post: { operationId: placeOrder, tags: [store], summary: Order a pet } }
"#;
    let driver = driver_of(text, "shop.yaml");
    let described = Some("Animals for sale, and their records.".to_owned());
    assert_eq!(driver.tag_description("pets"), described);
    assert_eq!(driver.tag_description("store"), None, "no description");
    assert_eq!(driver.tag_description("nothing"), None);
    assert_eq!(Hybrid::new(&driver).tag_description("pets"), described);

    let inner = Orchestrator::new("inner", ConflictPolicy::Reject);
    inner
        .register("shop", Arc::new(driver), Registration::new())
        .unwrap_or_else(|error| panic!("{error}"));
    let inner = Arc::new(inner);
    assert_eq!(inner.tag_description("pets"), described);
    let sets = inner.toolsets();
    assert_eq!(sets[0].id(), "shop_pets");
    assert_eq!(sets[0].description(), described.as_deref());
    assert_eq!(sets[1].description(), None);

    // Nested, in discovery mode: the outer orchestrator asks the inner one, and the first
    // prompt says what the toolset is for.
    let outer =
        Orchestrator::new("outer", ConflictPolicy::Reject).with_discovery(Discovery::Always);
    outer
        .register("office", inner, Registration::new())
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(outer.toolsets()[0].description(), described.as_deref());
    let prompt = outer.get_driver_system_message(None);
    assert!(
        prompt.contains("`office_pets` (1 tool): pets — Animals for sale, and their records."),
        "{prompt}"
    );
    // Loading the toolset says it too.
    let loaded = outer
        .execute_tool("load_toolset", json!({"id": "office_pets"}))
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(loaded["description"], json!(described), "{loaded}");
}

#[tokio::test]
async fn a_renamed_argument_is_sent_under_its_name_in_the_document() {
    let text = r#"
openapi: 3.0.3
info: { title: Things, version: "1" }
paths:
  /things:
    get:
      operationId: listThings
      parameters:
        - { name: "filter[name]", in: query, schema: { type: string } }
        - { name: "$top", in: query, schema: { type: integer } }
"#;
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/things"))
        .and(query_param("filter[name]", "rex"))
        .and(query_param("$top", "2"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!(["rex"])))
        .mount(&server)
        .await;
    let driver = driver_of(text, "things.yaml").with_base_url(server.uri());
    let keys: Vec<String> = driver.list_tools()[0]
        .parameters()
        .iter()
        .map(|p| p.name.clone())
        .collect();
    assert_eq!(keys, ["filter_name", "top"]);
    let found = driver
        .execute_tool("listThings", json!({"filter_name": "rex", "top": 2}))
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(found, json!(["rex"]));
}

const SHARED: &str = r#"
openapi: 3.0.3
info: { title: Shop, version: "1" }
paths:
  /pets:
    post:
      operationId: addPet
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Pet' }
  /pets/{id}:
    put:
      operationId: replacePet
      parameters:
        - { name: id, in: path, required: true, schema: { type: integer } }
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                pet: { $ref: '#/components/schemas/Pet' }
                size: { $ref: '#/components/schemas/Size' }
  /owners:
    post:
      operationId: addOwner
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                pets: { type: array, items: { $ref: '#/components/schemas/Pet' } }
components:
  schemas:
    Size: { type: string, enum: [s, m, l], nullable: true }
    Pet:
      type: object
      required: [name]
      properties:
        name: { type: string, minLength: 1 }
        size: { $ref: '#/components/schemas/Size' }
        parent: { $ref: '#/components/schemas/Pet' }
"#;

/// A schema many operations use is held once: every tool's parameters share one set of
/// definitions, and what a model, a validator or a serializer sees is still self-contained.
#[tokio::test]
async fn tools_share_one_copy_of_the_schemas_they_use() {
    let driver = driver_of(SHARED, "shop.yaml");
    let tools = driver.list_tools();
    let shared: Vec<_> = tools
        .iter()
        .flat_map(|tool| tool.parameters())
        .filter_map(|parameter| parameter.definitions.as_ref())
        .collect();
    assert!(shared.len() >= 3, "{shared:?}");
    assert!(shared.iter().all(|d| d.ptr_eq(shared[0])));
    // Stored: a reference. Seen: the schema, with the recursive part carried in `$defs`.
    let replace = tools.iter().find(|t| t.name() == "replacePet").unwrap();
    let pet = replace.parameter("pet").unwrap();
    assert_eq!(pet.schema, Some(json!({"$ref": "#/$defs/Pet"})));
    let seen = replace.input_schema();
    assert_eq!(seen["properties"]["pet"], json!({"$ref": "#/$defs/Pet"}));
    assert_eq!(
        seen["$defs"]["Pet"]["properties"]["size"],
        json!({"type": ["string", "null"], "enum": ["s", "m", "l", null]})
    );
    assert_eq!(
        seen["properties"]["size"],
        json!({"type": ["string", "null"], "enum": ["s", "m", "l", null]})
    );
    // Written out and read back, a tool is the same tool.
    let text = serde_json::to_string(replace).unwrap();
    assert!(!text.contains("definitions"));
    let back: mcs_core::Tool = serde_json::from_str(&text).unwrap();
    assert_eq!(&back, replace);
    assert_eq!(back.input_schema(), seen);
    // Validation follows the shared definitions into nested parts.
    let error = driver
        .execute_tool("addOwner", json!({"pets": [{"name": "Rex", "size": "xl"}]}))
        .await
        .unwrap_err();
    let text = error.to_string();
    assert!(text.contains("pets[0].size"), "{text}");
    let error = driver
        .execute_tool("addPet", json!({"name": ""}))
        .await
        .unwrap_err();
    assert!(
        matches!(error, ToolError::InvalidArguments { .. }),
        "{error}"
    );
}

const MEDIA: &str = r#"
openapi: 3.1.0
info: { title: Media, version: "1" }
paths:
  /pets:
    post:
      operationId: addPet
      requestBody:
        required: true
        content:
          application/xml; charset=utf-8:
            schema: { $ref: '#/components/schemas/Pet' }
  /tokens:
    post:
      operationId: checkToken
      requestBody:
        required: true
        content:
          application/jwt:
            schema: { type: string }
  /configs:
    put:
      operationId: putConfig
      requestBody:
        required: true
        content:
          application/x-yaml:
            schema: { type: string, format: binary }
  /archives:
    put:
      operationId: putArchive
      requestBody:
        required: true
        content:
          application/tar: {}
components:
  schemas:
    Pet:
      type: object
      xml: { name: pet, namespace: 'http://example.com/pets', prefix: p }
      required: [name]
      properties:
        id: { type: integer, xml: { attribute: true } }
        name: { type: string }
        tags:
          type: array
          xml: { wrapped: true }
          items: { type: string, xml: { name: tag } }
"#;

/// A document's XML, JWT, YAML and tar bodies arrive as the document says: the XML written
/// by the layout of its schema's `xml` objects, the JWT as its text, the YAML file's and
/// the archive's bytes as they are, each under the document's media type.
#[tokio::test]
async fn xml_jwt_yaml_and_tar_bodies_arrive_as_the_document_says() {
    let server = MockServer::start().await;
    Mock::given(wiremock::matchers::any())
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    let driver = driver_of(MEDIA, "media.yaml").with_base_url(server.uri());
    let calls = [
        (
            "addPet",
            json!({"id": 7, "name": "Rex & Co", "tags": ["a<b", "c"]}),
        ),
        ("checkToken", json!({"body": "eyJhbGciOi.J9.sig"})),
        (
            "putConfig",
            json!({"body": {"base64": "a2V5OiB2YWx1ZQo=", "filename": "c.yaml"}}),
        ),
        ("putArchive", json!({"body": {"base64": "AAEC/w=="}})),
    ];
    for (tool, arguments) in calls {
        driver
            .execute_tool(tool, arguments)
            .await
            .unwrap_or_else(|error| panic!("{tool}: {error}"));
    }
    let requests = server.received_requests().await.unwrap_or_default();
    let sent: Vec<(String, String, Vec<u8>)> = requests
        .iter()
        .map(|request| {
            let content_type = request
                .headers
                .get("content-type")
                .and_then(|value| value.to_str().ok())
                .unwrap_or_default()
                .to_owned();
            (
                request.url.path().to_owned(),
                content_type,
                request.body.clone(),
            )
        })
        .collect();
    assert_eq!(
        sent,
        [
            (
                "/pets".to_owned(),
                "application/xml; charset=utf-8".to_owned(),
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<p:pet \
                 xmlns:p=\"http://example.com/pets\" id=\"7\"><name>Rex &amp; Co</name>\
                 <tags><tag>a&lt;b</tag><tag>c</tag></tags></p:pet>"
                    .as_bytes()
                    .to_vec()
            ),
            (
                "/tokens".to_owned(),
                "application/jwt".to_owned(),
                b"eyJhbGciOi.J9.sig".to_vec()
            ),
            (
                "/configs".to_owned(),
                "application/x-yaml".to_owned(),
                b"key: value\n".to_vec()
            ),
            (
                "/archives".to_owned(),
                "application/tar".to_owned(),
                vec![0, 1, 2, 255]
            ),
        ]
    );
}

/// Vercel's artifact upload declares `Content-Length` a required header parameter: HTTP sets
/// that header (and the message's framing) from the body, so it is no argument, and the
/// header sent is the body's real length.
const UPLOAD: &str = r#"
openapi: 3.0.3
info: { title: Artifacts, version: "8" }
paths:
  /artifacts/{hash}:
    put:
      operationId: uploadArtifact
      parameters:
        - { name: hash, in: path, required: true, schema: { type: string } }
        - { name: Content-Length, in: header, required: true, schema: { type: number } }
        - { name: Transfer-Encoding, in: header, schema: { type: string } }
        - { name: x-artifact-tag, in: header, schema: { type: string } }
      requestBody:
        content:
          application/octet-stream: { schema: {} }
      responses: { "202": { description: stored } }
"#;

#[tokio::test]
async fn headers_http_sets_itself_are_no_arguments() {
    let server = MockServer::start().await;
    Mock::given(method("PUT"))
        .and(path("/artifacts/abc"))
        .and(header("content-length", "4"))
        .and(header("x-artifact-tag", "t1"))
        .respond_with(ResponseTemplate::new(202))
        .mount(&server)
        .await;
    let driver = driver_of(UPLOAD, "upload.yaml").with_base_url(server.uri());
    let tools = driver.list_tools();
    let names: Vec<&str> = tools[0]
        .parameters()
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert!(
        !names
            .iter()
            .any(|name| name.eq_ignore_ascii_case("content-length")
                || name.eq_ignore_ascii_case("transfer-encoding")),
        "{names:?}"
    );
    driver
        .execute_tool(
            "uploadArtifact",
            json!({"hash": "abc", "x-artifact-tag": "t1", "body": {"base64": "AAEC/w=="}}),
        )
        .await
        .unwrap_or_else(|error| panic!("the upload is sent: {error}"));
}

/// A document split over files, as served from a repository: the root names its schemas
/// and parameters by relative references, one of them from a file that itself refers on.
const SPLIT_ROOT: &str = r#"
openapi: 3.0.3
info: { title: Split, version: "1" }
servers: [{ url: /v1 }]
paths:
  /notes/{id}:
    parameters:
      - $ref: 'parts/parameters.yaml#/NoteId'
    put:
      operationId: putNote
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: 'parts/note.json' }
      responses: { '204': { description: done } }
  /outside:
    get:
      operationId: readOutside
      parameters:
        - { name: q, in: query, schema: { $ref: 'file:///etc/passwd' } }
      responses: { '200': { description: ok } }
"#;

#[tokio::test]
async fn a_fetched_document_follows_its_relative_references_over_http_only() {
    let server = MockServer::start().await;
    let serve = |at: &'static str, body: &'static str| {
        Mock::given(method("GET"))
            .and(path(at))
            .respond_with(ResponseTemplate::new(200).set_body_string(body))
    };
    serve("/api/openapi.yaml", SPLIT_ROOT).mount(&server).await;
    serve(
        "/api/parts/parameters.yaml",
        "NoteId: {name: id, in: path, required: true, schema: {type: integer, minimum: 1}}\n",
    )
    .mount(&server)
    .await;
    serve(
        "/api/parts/note.json",
        r##"{"type": "object", "required": ["text"], "properties": {"text": {"type": "string"}, "tags": {"$ref": "../shared/tags.yaml#/Tags"}}}"##,
    )
    .mount(&server)
    .await;
    serve(
        "/api/shared/tags.yaml",
        "Tags: {type: array, items: {type: string}, maxItems: 3}\n",
    )
    .mount(&server)
    .await;

    let url = format!("{}/api/openapi.yaml", server.uri());
    let options = ReadOptions::default().exclude_operations(["readOutside"]);
    let document = fetch(&url, &options)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let operation = &document.api.operations[0];
    let schema: serde_json::Value = serde_json::from_str(&operation.schema).unwrap();
    assert_eq!(schema["properties"]["id"]["minimum"], 1);
    assert_eq!(schema["properties"]["text"]["type"], "string");
    let tags = &schema["properties"]["tags"];
    let tags = match tags.get("$ref").and_then(serde_json::Value::as_str) {
        Some(reference) => {
            let name = reference.trim_start_matches("#/$defs/");
            document
                .api
                .shared_definitions()
                .get(name)
                .cloned()
                .unwrap()
        }
        None => tags.clone(),
    };
    assert_eq!(tags["maxItems"], 3, "{schema}");

    // A fetched document never reads a file of this machine: `file:` is refused where the
    // reference is followed, with the place it was written.
    let error = fetch(&url, &ReadOptions::default())
        .await
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        error.contains("/paths/~1outside/get/parameters/0/schema") && error.contains("not `file:`"),
        "{error}"
    );
    let fetched: Vec<String> = server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .map(|request| request.url.path().to_owned())
        .collect();
    assert!(
        fetched.iter().all(|p| p.starts_with("/api/")),
        "{fetched:?}"
    );
}
