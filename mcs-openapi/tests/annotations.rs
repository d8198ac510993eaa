//! A generated tool says what its HTTP method says it does: `GET` only reads, `PUT` and
//! `DELETE` are idempotent, `DELETE` destroys, and every operation reaches a service
//! beyond the program.

use mcs_core::{ToolAnnotations, ToolDriver};
use mcs_openapi::{ReadOptions, read_str};

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
    let driver = read_str(DOCUMENT, "pets.json", None, &ReadOptions::default())
        .unwrap()
        .into_driver();
    let tools = driver.list_tools();
    let of = |name: &str| {
        *tools
            .iter()
            .find(|t| t.name() == name)
            .unwrap()
            .annotations()
    };
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
