//! The checked-in snapshots, compiled under `#![deny(warnings)]` (all three in one crate, as a
//! user may include several drivers) and run against an in-process server: what a user's
//! crate gets is code that builds and works.
#![deny(warnings)]

include!("snapshots/petstore.rs");
include!("snapshots/library.rs");
include!("snapshots/weather.rs");

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

/// The OpenAPI 3.1 and Swagger 2.0 drivers: a bearer token in the header, an API key in the
/// query, a list written as `a,b` (`collectionFormat: csv`), a body from the arguments, an
/// XML body laid out by the document's `xml` objects, a JWT sent as its text.
#[tokio::test]
async fn the_library_and_weather_drivers_reach_the_server() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/books"))
        .and(query_param("q", "dune"))
        .and(query_param("page[size]", "5"))
        .and(header("authorization", "Bearer t"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/readings"))
        .and(query_param("sensors", "temperature,humidity"))
        .and(query_param("api_key", "k"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([{"value": 21.5}])))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/loans"))
        .and(body_string(r#"{"isbn":"9780441013593","member":7}"#))
        .respond_with(ResponseTemplate::new(201).set_body_json(json!({"due": "2026-12-16"})))
        .mount(&server)
        .await;
    // The generated row carries the record's XML layout: namespace, attributes, wrapper.
    Mock::given(method("POST"))
        .and(path("/records"))
        .and(header("content-type", "application/marcxml+xml"))
        .and(body_string(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <marc:record xmlns:marc=\"http://www.loc.gov/MARC21/slim\" type=\"Bibliographic\">\
             <leader>00000nam a2200000 a 4500</leader>\
             <fields><datafield tag=\"245\"><value>Dune &amp; more</value></datafield></fields>\
             </marc:record>",
        ))
        .respond_with(ResponseTemplate::new(201).set_body_json(json!({"imported": true})))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/members/verify"))
        .and(header("content-type", "application/jwt"))
        .and(body_string("eyJhbGciOiJIUzI1NiJ9.e30.sig"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"member": 7})))
        .mount(&server)
        .await;

    let library = Library::new()
        .with_base_url(server.uri())
        .with_bearer_token("t");
    assert_eq!(library.list_tools().len(), 9);
    let found = library
        .execute_tool("searchBooks", json!({"q": "dune", "page_size": 5}))
        .await;
    assert_eq!(found.ok(), Some(json!([])));
    let lent = library
        .execute_tool("lendBook", json!({"isbn": "9780441013593", "member": 7}))
        .await;
    assert_eq!(lent.ok(), Some(json!({"due": "2026-12-16"})));

    let record = library
        .import_record(&library::ImportRecordArguments {
            kind: Some("Bibliographic".into()),
            leader: "00000nam a2200000 a 4500".into(),
            fields: Some(vec![json!({"tag": "245", "value": "Dune & more"})]),
        })
        .await;
    assert_eq!(record.ok(), Some(json!({"imported": true})));
    let member = library
        .verify_card(&library::VerifyCardArguments {
            body: "eyJhbGciOiJIUzI1NiJ9.e30.sig".into(),
        })
        .await;
    assert_eq!(member.ok(), Some(json!({"member": 7})));

    let station = Weather::new().with_base_url(server.uri()).with_api_key("k");
    let readings = station
        .list_readings(&weather::ListReadingsArguments {
            sensors: vec!["temperature".into(), "humidity".into()],
            ..Default::default()
        })
        .await;
    assert_eq!(readings.ok(), Some(json!([{"value": 21.5}])));
    assert_eq!(station.tool_tags("listReadings"), ["readings"]);
}

/// What rustc builds from a module is the rows the reader gives at run time: one-line
/// parameters (`Parameter::query("page")`) and texts written once (`doc_*`, `arg_*` macros
/// joined by `concat!`) change how the module is written, never what it holds.
#[test]
fn the_compiled_tables_hold_what_the_reader_gives_at_run_time() {
    let options = mcs::openapi::ReadOptions::default();
    for (compiled, document) in [
        (Petstore::api(), "../examples/petstore/petstore.yaml"),
        (Library::api(), "tests/documents/library.yaml"),
        (Weather::api(), "tests/documents/weather.swagger.json"),
    ] {
        let path = format!("{}/{document}", env!("CARGO_MANIFEST_DIR"));
        let read = match mcs::openapi::read_file(&path, &options) {
            Ok(read) => read.api,
            Err(error) => panic!("{document}: {error}"),
        };
        assert_eq!(compiled.operations, read.operations, "{document}");
        assert_eq!(compiled.definitions, read.definitions, "{document}");
    }
    // The library's `isbn` is one of those shared texts, in both kinds.
    let source = include_str!("snapshots/library.rs");
    assert!(source.contains("macro_rules! doc_isbn"), "{source}");
    assert!(source.contains("arg_isbn!(),"), "{source}");
}
