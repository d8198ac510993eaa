//! `mcs serve` end to end: the built binary started as an MCP host starts it, driven by an
//! MCP client (mcs-mcp's, over rmcp's child-process and streamable-HTTP transports), in
//! front of an API served in the test process.

use mcs::{ToolDriver, ToolError};
use mcs_mcp::McpToolDriver;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};
use wiremock::matchers::{header, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

mod support;

use support::{command, large_document, options, petstore, serve, write_document};

fn names(driver: &McpToolDriver) -> Vec<String> {
    driver
        .list_tools()
        .iter()
        .map(|tool| tool.name().to_owned())
        .collect()
}

#[tokio::test]
async fn lists_the_documents_operations_as_tools() {
    let spec = petstore();
    let server = serve(&[spec.to_str().unwrap()], &[]).await;
    assert_eq!(
        names(&server),
        [
            "listPets",
            "addPet",
            "getPet",
            "deletePet",
            "placeOrder",
            "getInventory"
        ]
    );
    let tools = server.list_tools();
    let get_pet = &tools[2];
    assert_eq!(get_pet.title(), Some("One pet by its id"));
    assert_eq!(get_pet.input_schema()["required"], json!(["petId"]));
    assert_eq!(server.meta().name, "Petstore");
}

#[tokio::test]
async fn a_call_reaches_the_api_with_the_key_from_the_environment() {
    let api = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/pets"))
        .and(query_param("limit", "2"))
        .and(header("X-Api-Key", "key-from-env"))
        .and(header("X-Tenant", "acme"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([{"id": 1, "name": "Fido"}])))
        .expect(1)
        .mount(&api)
        .await;
    let spec = petstore();
    let server = serve(
        &[
            spec.to_str().unwrap(),
            "--base-url",
            &api.uri(),
            "--header",
            "X-Tenant: acme",
        ],
        &[("MCS_API_KEY", "key-from-env")],
    )
    .await;
    // A string for an integer is read as the integer, as for any mcs driver.
    let pets = server
        .execute_tool("listPets", json!({"limit": "2"}))
        .await
        .unwrap();
    assert_eq!(pets, json!([{"id": 1, "name": "Fido"}]));
}

#[tokio::test]
async fn a_key_in_a_named_variable_and_a_server_variable() {
    let api = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/pets/7"))
        .and(header("X-Api-Key", "named"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": 7, "name": "Rex"})))
        .expect(1)
        .mount(&api)
        .await;
    let spec = petstore();
    let base = format!("{}/{{version}}", api.uri());
    let server = serve(
        &[
            spec.to_str().unwrap(),
            "--base-url",
            &base,
            "--server-var",
            "version=v1",
            "--api-key-env",
            "PETSTORE_KEY",
        ],
        &[("PETSTORE_KEY", "named"), ("MCS_API_KEY", "not this one")],
    )
    .await;
    let pet = server
        .execute_tool("getPet", json!({"petId": 7}))
        .await
        .unwrap();
    assert_eq!(pet["name"], "Rex");
}

#[tokio::test]
async fn a_wrong_argument_is_a_tool_error_that_names_it() {
    let api = MockServer::start().await;
    Mock::given(wiremock::matchers::any())
        .respond_with(ResponseTemplate::new(500))
        .expect(0)
        .mount(&api)
        .await;
    let spec = petstore();
    let server = serve(
        &[spec.to_str().unwrap(), "--base-url", &api.uri()],
        &[("MCS_API_KEY", "k")],
    )
    .await;
    let error = server
        .execute_tool("getPet", json!({"petId": "the brown one"}))
        .await
        .unwrap_err();
    assert!(
        matches!(error, ToolError::InvalidArguments { .. }),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(
        message.contains("petId") && message.contains("integer"),
        "{message}"
    );
    let error = server
        .execute_tool("addPet", json!({"tag": "dog"}))
        .await
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("missing required argument `name`"),
        "{error}"
    );
}

#[tokio::test]
async fn without_credentials_the_tools_list_and_a_call_says_what_to_set() {
    let api = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/store/inventory"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"available": 3})))
        .expect(1)
        .mount(&api)
        .await;
    let spec = petstore();
    let server = serve(&[spec.to_str().unwrap(), "--base-url", &api.uri()], &[]).await;
    assert_eq!(server.list_tools().len(), 6);

    let error = server
        .execute_tool("listPets", json!({}))
        .await
        .unwrap_err();
    let message = error.to_string();
    assert!(matches!(error, ToolError::Execution { .. }), "{error:?}");
    for needed in [
        "`apiKey` takes an API key, sent in the header `X-Api-Key`",
        "MCS_API_KEY",
        "--api-key-env",
    ] {
        assert!(message.contains(needed), "{needed} in: {message}");
    }
    // An operation that takes anonymous calls still works.
    let inventory = server
        .execute_tool("getInventory", json!({}))
        .await
        .unwrap();
    assert_eq!(inventory, json!({"available": 3}));
}

#[tokio::test]
async fn a_large_document_is_served_through_discovery() {
    let api = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/invoices/7/archive"))
        .and(header("Authorization", "Bearer tok"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"archived": 7})))
        .expect(1)
        .mount(&api)
        .await;
    let document = write_document("back-office.json", &large_document().to_string());
    let spec = document.to_str().unwrap();
    let server = serve(
        &[spec, "--base-url", &api.uri()],
        &[("MCS_BEARER_TOKEN", "tok")],
    )
    .await;
    assert_eq!(
        names(&server),
        ["search_tools", "load_toolset", "describe_tool", "call_tool"]
    );
    let load = &server.list_tools()[1];
    assert!(
        load.description().contains("backoffice_invoices"),
        "{}",
        load.description()
    );

    let found = server
        .execute_tool("search_tools", json!({"query": "archive an invoice"}))
        .await
        .unwrap();
    assert_eq!(found["results"][0]["name"], "archive_invoices", "{found}");
    assert!(
        found["note"].as_str().unwrap().contains("call_tool"),
        "{found}"
    );
    let described = server
        .execute_tool("describe_tool", json!({"name": "archive_invoices"}))
        .await
        .unwrap();
    assert!(described.to_string().contains("\"id\""), "{described}");

    let archived = server
        .execute_tool(
            "call_tool",
            json!({"name": "archive_invoices", "arguments": {"id": 7}}),
        )
        .await
        .unwrap();
    assert_eq!(archived, json!({"archived": 7}));

    // Through call_tool, the found tool's own checks and errors.
    let error = server
        .execute_tool(
            "call_tool",
            json!({"name": "archive_invoices", "arguments": {"id": "seven"}}),
        )
        .await
        .unwrap_err();
    let message = error.to_string();
    assert!(
        message.contains("argument `id`: expected an integer"),
        "{message}"
    );
    let error = server
        .execute_tool(
            "call_tool",
            json!({"name": "archive_invoice", "arguments": {"id": 7}}),
        )
        .await
        .unwrap_err();
    // A tool error the model reads (not a protocol error), with the closest name.
    assert!(
        matches!(error, ToolError::InvalidArguments { .. }),
        "{error:?}"
    );
    assert!(
        error.to_string().contains("such as `archive_invoices`"),
        "{error}"
    );

    // Switched off, every tool is listed.
    let whole = serve(&[spec, "--discovery", "off"], &[]).await;
    assert_eq!(whole.list_tools().len(), 48);
    // Switched on, even a small document is reached through discovery.
    let small = serve(&[petstore().to_str().unwrap(), "--discovery", "on"], &[]).await;
    assert_eq!(small.list_tools().len(), 4);
}

#[tokio::test]
async fn discovery_calls_that_lack_a_credential_say_what_to_set() {
    let document = write_document("back-office-anonymous.json", &large_document().to_string());
    let server = serve(&[document.to_str().unwrap()], &[]).await;
    let error = server
        .execute_tool(
            "call_tool",
            json!({"name": "list_invoices", "arguments": {}}),
        )
        .await
        .unwrap_err();
    let message = error.to_string();
    assert!(
        message.contains("`token` takes a bearer token") && message.contains("MCS_BEARER_TOKEN"),
        "{message}"
    );
}

#[tokio::test]
async fn serves_over_streamable_http() {
    let api = MockServer::start().await;
    Mock::given(method("DELETE"))
        .and(path("/pets/3"))
        .and(header("X-Api-Key", "k"))
        .and(header("X-Reason", "adopted"))
        .respond_with(ResponseTemplate::new(204))
        .expect(1)
        .mount(&api)
        .await;
    let spec = petstore();
    let mut child = command(&[
        "serve",
        spec.to_str().unwrap(),
        "--transport",
        "http",
        "--listen",
        "127.0.0.1:0",
        "--base-url",
        &api.uri(),
    ]);
    child.env("MCS_API_KEY", "k");
    child.stderr(std::process::Stdio::piped());
    child.stdout(std::process::Stdio::piped());
    let mut child = child.spawn().expect("mcs starts");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let url = tokio::time::timeout(std::time::Duration::from_secs(60), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if let Some(url) = line.strip_prefix("mcs: serving MCP at ") {
                return url.to_owned();
            }
        }
        panic!("mcs exited without serving");
    })
    .await
    .expect("the server announces its address");
    let client = McpToolDriver::connect_url_with(&url, options())
        .await
        .expect("connects over HTTP");
    assert_eq!(client.list_tools().len(), 6);
    let deleted = client
        .execute_tool("deletePet", json!({"petId": 3, "X-Reason": "adopted"}))
        .await
        .unwrap();
    assert_eq!(deleted, json!(null), "204 is no content");
    client.close().await;
    child.kill().await.unwrap();
}

#[tokio::test]
async fn two_keys_required_together_each_come_from_their_own_variable() {
    let api = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/items"))
        .and(header("X-Client-Id", "the-client"))
        .and(header("X-Secret", "the-secret"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"ok": true})))
        .expect(1)
        .mount(&api)
        .await;
    let document = write_document(
        "two-keys.yaml",
        "openapi: 3.0.3\ninfo: {title: Two keys, version: '1'}\n\
         security: [{ClientId: [], Secret: []}]\n\
         paths:\n  /items:\n    get:\n      operationId: listItems\n      responses: {'200': {description: ok}}\n\
         components:\n  securitySchemes:\n\
         \x20   ClientId: {type: apiKey, in: header, name: X-Client-Id}\n\
         \x20   Secret: {type: apiKey, in: header, name: X-Secret}\n",
    );
    let server = serve(
        &[
            document.to_str().unwrap(),
            "--base-url",
            &api.uri(),
            "--credential-env",
            "Secret=MCS_TEST_SECRET",
        ],
        &[
            ("MCS_API_KEY", "the-client"),
            ("MCS_TEST_SECRET", "the-secret"),
        ],
    )
    .await;
    let answer = server.execute_tool("listItems", json!({})).await.unwrap();
    assert_eq!(answer, json!({"ok": true}));
}

#[tokio::test]
async fn a_bearer_token_goes_with_every_request_when_the_document_declares_no_scheme() {
    // GitHub's own description declares no security scheme.
    let api = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/user"))
        .and(header("Authorization", "Bearer ghp_token"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"login": "me"})))
        .expect(1)
        .mount(&api)
        .await;
    let document = write_document(
        "no-scheme.yaml",
        "openapi: 3.0.3\ninfo: {title: No scheme, version: '1'}\n\
         paths:\n  /user:\n    get:\n      operationId: getUser\n      responses: {'200': {description: ok}}\n",
    );
    let server = serve(
        &[document.to_str().unwrap(), "--base-url", &api.uri()],
        &[("MCS_BEARER_TOKEN", "ghp_token")],
    )
    .await;
    let answer = server.execute_tool("getUser", json!({})).await.unwrap();
    assert_eq!(answer, json!({"login": "me"}));
}

#[tokio::test]
async fn a_file_by_path_is_read_only_inside_the_file_root() {
    let api = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/photos"))
        .and(wiremock::matchers::body_string_contains("the-photo-bytes"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"stored": true})))
        .expect(1)
        .mount(&api)
        .await;
    let document = write_document(
        "uploads.yaml",
        "openapi: 3.0.3\ninfo: {title: Uploads, version: '1'}\n\
         paths:\n  /photos:\n    post:\n      operationId: upload\n      requestBody:\n\
         \x20       required: true\n        content:\n          multipart/form-data:\n\
         \x20           schema: {type: object, properties: {file: {type: string, format: binary}}, required: [file]}\n\
         \x20     responses: {'200': {description: ok}}\n",
    );
    let root = std::env::temp_dir().join(format!("mcs-file-root-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("photo.jpg"), "the-photo-bytes").unwrap();
    let spec = document.to_str().unwrap();

    // Without --file-root: refused, saying how to send it.
    let server = serve(&[spec, "--base-url", &api.uri()], &[]).await;
    let error = server
        .execute_tool("upload", json!({"file": {"path": "photo.jpg"}}))
        .await
        .unwrap_err()
        .to_string();
    assert!(error.contains("the file's content as `base64`"), "{error}");
    assert!(error.contains("the `path` \"photo.jpg\""), "{error}");

    let server = serve(
        &[
            spec,
            "--base-url",
            &api.uri(),
            "--file-root",
            root.to_str().unwrap(),
        ],
        &[],
    )
    .await;
    let stored = server
        .execute_tool("upload", json!({"file": {"path": "photo.jpg"}}))
        .await
        .unwrap();
    assert_eq!(stored, json!({"stored": true}));
    let outside = server
        .execute_tool("upload", json!({"file": {"path": "../etc/passwd"}}))
        .await
        .unwrap_err()
        .to_string();
    assert!(
        outside.contains("is not a file inside the directory"),
        "{outside}"
    );
    std::fs::remove_dir_all(&root).ok();
}
