//! A generated tool says what its HTTP method says it does: `GET` only reads, `PUT` and
//! `DELETE` are idempotent, `DELETE` destroys, and every operation reaches a service
//! beyond the program — unless the document says otherwise with `x-mcs-annotations`.

use mcs_core::{ToolAnnotations, ToolDriver};
use mcs_openapi::{ReadOptions, read_str};

/// Each tool of `document`'s driver and its annotations, by name.
fn annotations_of(document: &str, file: &str) -> impl Fn(&str) -> ToolAnnotations {
    let driver = read_str(document, file, None, &ReadOptions::default())
        .unwrap()
        .into_driver();
    let tools = driver.list_tools();
    move |name: &str| {
        *tools
            .iter()
            .find(|t| t.name() == name)
            .unwrap_or_else(|| panic!("no tool {name}"))
            .annotations()
    }
}

const DOCUMENT: &str = r#"{
  "openapi": "3.0.3",
  "info": {"title": "Pets", "version": "1"},
  "servers": [{"url": "https://pets.invalid"}],
  "paths": {
    "/pets": {
      "get": {"operationId": "listPets", "summary": "List pets", "responses": {"200": {"description": "OK"}}},
      "post": {"operationId": "addPet", "summary": "Add a pet", "responses": {"200": {"description": "OK"}}}
    },
    "/pets/{id}": {
      "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
      "put": {"operationId": "replacePet", "summary": "Replace a pet", "responses": {"200": {"description": "OK"}}},
      "patch": {"operationId": "editPet", "summary": "Edit a pet", "responses": {"200": {"description": "OK"}}},
      "delete": {"operationId": "deletePet", "summary": "Delete a pet", "responses": {"200": {"description": "OK"}}}
    }
  }
}"#;

#[test]
fn annotations_follow_the_http_method() {
    let of = annotations_of(DOCUMENT, "pets.json");
    let open = ToolAnnotations::default().open_world(true);
    assert_eq!(
        of("listPets"),
        open.read_only(true).destructive(false).idempotent(true)
    );
    assert_eq!(of("addPet"), open.read_only(false));
    assert_eq!(of("replacePet"), open.read_only(false).idempotent(true));
    assert_eq!(of("editPet"), open.read_only(false));
    assert_eq!(
        of("deletePet"),
        open.read_only(false).destructive(true).idempotent(true)
    );
}

/// A `POST` that only searches, a `GET` that counts a view: the document's word wins, under
/// MCP's names or `#[tool(...)]`'s, key by key.
#[test]
fn the_document_can_say_otherwise() {
    let document = r#"
openapi: 3.0.3
info: { title: Search, version: "1" }
paths:
  /search:
    post:
      operationId: search
      x-mcs-annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false }
      responses: { "200": { description: OK } }
  /articles/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
    get:
      operationId: readArticle
      x-mcs-annotations: { read_only: false }
      responses: { "200": { description: OK } }
    delete:
      operationId: archiveArticle
      x-mcs-annotations: { destructive: false, open_world: false }
      responses: { "200": { description: OK } }
"#;
    let of = annotations_of(document, "search.yaml");
    let open = ToolAnnotations::default().open_world(true);
    assert_eq!(
        of("search"),
        open.read_only(true).idempotent(true).destructive(false)
    );
    assert_eq!(
        of("readArticle"),
        open.read_only(false).destructive(false).idempotent(true)
    );
    assert_eq!(
        of("archiveArticle"),
        ToolAnnotations::default()
            .open_world(false)
            .read_only(false)
            .destructive(false)
            .idempotent(true)
    );
}

#[test]
fn a_wrong_annotation_says_what_and_where() {
    let document = |annotations: &str| {
        format!(
            "openapi: 3.0.3\ninfo: {{ title: T, version: '1' }}\npaths:\n  /a:\n    post:\n      \
             operationId: a\n      x-mcs-annotations: {annotations}\n      responses: {{ '200': {{ description: OK }} }}\n"
        )
    };
    let error = |annotations: &str| {
        read_str(
            &document(annotations),
            "t.yaml",
            None,
            &ReadOptions::default(),
        )
        .unwrap_err()
        .to_string()
    };
    let text = error("{ readonly: true }");
    assert!(text.contains("`readonly` is not an annotation"), "{text}");
    assert!(text.contains("readOnlyHint"), "{text}");
    assert!(
        text.contains("/paths/~1a/post/x-mcs-annotations/readonly"),
        "{text}"
    );
    let text = error("{ destructiveHint: 'yes' }");
    assert!(
        text.contains("`destructiveHint` must be true or false"),
        "{text}"
    );
    let text = error("[readOnlyHint]");
    assert!(text.contains("is not an object"), "{text}");
    // Leniently, the operation is skipped and the reason kept.
    let options = ReadOptions::default().lenient(true);
    let read = read_str(&document("{ readonly: true }"), "t.yaml", None, &options).unwrap();
    assert!(read.api.operations.is_empty());
    assert!(read.skipped[0].reason.contains("not an annotation"));
}

/// AWS's query APIs offer every action as a `GET` too (`GET /#Action=DeleteUser`): a `GET`
/// whose `operationId` leads with a verb that changes something is not claimed read-only,
/// so that a policy letting read-only tools run unasked does not run it. The document's
/// word still wins.
#[test]
fn a_get_named_for_a_change_is_not_read_only() {
    let document = r#"
openapi: 3.0.3
info: { title: IAM, version: "1" }
paths:
  /#Action=DeleteUser:
    get: { operationId: GET_DeleteUser, responses: { "200": { description: OK } } }
  /#Action=CreateRole:
    get: { operationId: GET_CreateRole, responses: { "200": { description: OK } } }
  /#Action=ListUsers:
    get: { operationId: GET_ListUsers, responses: { "200": { description: OK } } }
  /deletions:
    get: { operationId: deletionsList, responses: { "200": { description: OK } } }
  /#Action=TerminateInstances:
    get:
      operationId: GET_TerminateInstances
      x-mcs-annotations: { readOnlyHint: true }
      responses: { "200": { description: OK } }
"#;
    let of = annotations_of(document, "iam.yaml");
    let open = ToolAnnotations::default().open_world(true);
    let reads = open.read_only(true).destructive(false).idempotent(true);
    assert_eq!(
        of("GET_DeleteUser"),
        open.read_only(false).destructive(true).idempotent(false)
    );
    assert_eq!(
        of("GET_CreateRole"),
        open.read_only(false).destructive(false).idempotent(false)
    );
    assert_eq!(of("GET_ListUsers"), reads);
    assert_eq!(of("deletionsList"), reads);
    assert_eq!(of("GET_TerminateInstances").read_only, Some(true));
}
