//! The checked-in snapshot, compiled under `#![deny(warnings)]` and run against an
//! in-process server: what a user's crate gets is code that builds and works.
#![deny(warnings)]

include!("snapshots/petstore.rs");

use mcs::{Driver, LlmResponse, ToolDriver};
use serde_json::json;
use wiremock::matchers::{body_string, header, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

#[tokio::test]
async fn typed_methods_and_tool_calls_reach_the_server() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/pets/7"))
        .and(header("x-api-key", "k"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": 7, "name": "Rex"})))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/store/orders"))
        .and(body_string("petId=7&email=ana%40example.com"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"order": 1})))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/pets"))
        .and(query_param("limit", "2"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .mount(&server)
        .await;
    let shop = Petstore::new()
        .with_base_url(format!("{}/v1", server.uri()))
        .with_api_key("k");

    let pet = shop.get_pet(&petstore::GetPetArguments { pet_id: 7 }).await;
    assert_eq!(pet.ok(), Some(json!({"id": 7, "name": "Rex"})));

    let order = shop
        .execute_tool(
            "placeOrder",
            json!({"petId": 7, "email": "ana@example.com"}),
        )
        .await;
    assert_eq!(order.ok(), Some(json!({"order": 1})));

    let reply = shop
        .process_llm_response(LlmResponse::Text(
            r#"{"tool": "listPets", "arguments": {"limit": 2}}"#,
        ))
        .await;
    assert!(reply.call_executed, "{reply:?}");
    assert_eq!(reply.tool_call_result, Some(json!([])));
}

#[tokio::test]
async fn the_generated_driver_lists_every_operation_with_its_tags() {
    let shop = Petstore::new();
    let names: Vec<String> = shop
        .list_tools()
        .iter()
        .map(|t| t.name().to_owned())
        .collect();
    assert_eq!(
        names,
        [
            "listPets",
            "addPet",
            "getPet",
            "deletePet",
            "placeOrder",
            "getInventory"
        ]
    );
    assert_eq!(shop.tool_tags("placeOrder"), ["store"]);
    assert_eq!(
        shop.tag_description("store").as_deref(),
        Some("Orders for pets, and the stock by status.")
    );
    assert_eq!(shop.tag_description("dogs"), None);
    assert_eq!(
        shop.inner().base_url().ok().as_deref(),
        Some("https://eu.petstore.example/v1")
    );
    let drivers: Vec<std::sync::Arc<dyn ToolDriver>> = vec![std::sync::Arc::new(shop)];
    assert_eq!(drivers[0].meta().name, "Petstore");
}

#[tokio::test]
async fn wrong_arguments_never_reach_the_server() {
    let server = MockServer::start().await;
    let shop = Petstore::new()
        .with_base_url(server.uri())
        .with_api_key("k");
    let error = shop
        .execute_tool("addPet", json!({"name": "Rex", "status": "for sale"}))
        .await
        .expect_err("an unknown status is refused");
    let text = error.to_string();
    assert!(text.contains("status"), "{text}");
    assert!(text.contains("available"), "{text}");
    assert!(
        server
            .received_requests()
            .await
            .unwrap_or_default()
            .is_empty()
    );
}
