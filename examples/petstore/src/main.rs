//! A driver generated at build time from `petstore.yaml` (see `build.rs`), talking to a pet
//! shop served in-process, first called from Rust with typed arguments, then by a model.
//!
//! ```text
//! cargo run -p petstore-example
//! ```
//!
//! A scripted model plays the part unless `MCS_LLM_BASE_URL` names an OpenAI-compatible
//! server (`MCS_LLM_MODEL`, `MCS_LLM_API_KEY` as in the conversation example).

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use mcs::llm::{Conversation, LlmClient, OpenAiClient, ScriptedClient, StopReason};
use mcs::{Driver, ToolDriver};
use serde_json::{Value, json};

mcs::include_driver!("petstore.rs");

use petstore::{GetPetArguments, ListPetsArguments};

const API_KEY: &str = "demo-key";

const REQUEST: &str = "We just got a dog called Rex. Put him in the shop as available, show me \
                       all our dogs, and reserve Rex for ana@example.com, pickup on 1 December 2026.";

fn scripted_model() -> ScriptedClient {
    ScriptedClient::from_texts([
        // A status the API does not have: the retry prompt lists the allowed ones.
        "<tool_call>\n{\"name\": \"addPet\", \"arguments\": {\"name\": \"Rex\", \"tag\": \"dog\", \"status\": \"for sale\"}}\n</tool_call>",
        "<tool_call>\n{\"name\": \"addPet\", \"arguments\": {\"name\": \"Rex\", \"tag\": \"dog\", \"status\": \"available\"}}\n</tool_call>",
        "{\"tool\": \"listPets\", \"arguments\": {\"tags\": [\"dog\"]}}",
        "{\"tool\": \"placeOrder\", \"arguments\": {\"petId\": 3, \"email\": \"ana@example.com\", \"pickup\": \"2026-12-01\"}}",
        "Rex (id 3) is in the shop and reserved for ana@example.com, pickup on 1 December \
         2026. Your dogs: Fido and Rex.",
    ])
    .with_model("qwen2.5-7b-instruct")
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let address = serve_pet_shop().await?;
    let shop = petstore::Petstore::new()
        .with_base_url(format!("http://{address}/v1"))
        .with_api_key(API_KEY);

    println!("{} tools from petstore.yaml:", shop.list_tools().len());
    for tool in shop.list_tools().iter() {
        println!("  {:<13} {}", tool.name(), tool.label());
    }

    // From Rust: typed arguments, the same validation and HTTP path a model's call takes.
    let first = shop.get_pet(&GetPetArguments { pet_id: 1 }).await?;
    let dogs = shop
        .list_pets(&ListPetsArguments {
            tags: Some(vec!["dog".to_owned()]),
            limit: Some(10),
        })
        .await?;
    println!("\nget_pet(1) = {first}\nlist_pets(tags: [dog]) = {dogs}\n");

    let client: Box<dyn LlmClient> = match OpenAiClient::from_env()? {
        Some(client) => Box::new(client),
        None => {
            println!("(scripted model; set MCS_LLM_BASE_URL to use a real one)\n");
            Box::new(scripted_model())
        }
    };
    let conversation = Conversation::new(&shop as &dyn Driver)
        .max_rounds(8)
        .max_retries(2);
    let opening = conversation.opening(client.model(), REQUEST);
    let transcript = conversation.run(client.as_ref(), opening).await?;
    for message in transcript.messages.iter().skip(1) {
        let role = message.get("role").and_then(Value::as_str).unwrap_or("?");
        let content = match message.get("content") {
            Some(Value::String(text)) => text.clone(),
            _ => message.to_string(),
        };
        println!("[{role}]\n{content}\n");
    }
    println!("---\n{}", transcript.summary());
    if transcript.stop != StopReason::Answered {
        return Err("the model did not reach an answer".into());
    }
    Ok(())
}

// ---- the pet shop -----------------------------------------------------------------------

#[derive(Default)]
struct Shop {
    pets: Vec<Value>,
    orders: Vec<Value>,
}

type Shared = Arc<Mutex<Shop>>;

async fn serve_pet_shop() -> std::io::Result<SocketAddr> {
    let shop = Shop {
        pets: vec![
            json!({ "id": 1, "name": "Fido", "tag": "dog", "status": "available" }),
            json!({ "id": 2, "name": "Tom", "tag": "cat", "status": "sold" }),
        ],
        orders: Vec::new(),
    };
    let app = Router::new()
        .route("/v1/pets", get(list_pets).post(add_pet))
        .route("/v1/pets/{id}", get(get_pet).delete(delete_pet))
        .route("/v1/store/orders", post(place_order))
        .with_state(Arc::new(Mutex::new(shop)));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let address = listener.local_addr()?;
    tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(address)
}

fn authorised(headers: &HeaderMap) -> bool {
    headers.get("x-api-key").is_some_and(|key| key == API_KEY)
}

fn denied() -> Response {
    (StatusCode::UNAUTHORIZED, "missing or wrong X-Api-Key").into_response()
}

async fn list_pets(
    State(shop): State<Shared>,
    headers: HeaderMap,
    Query(query): Query<Vec<(String, String)>>,
) -> Response {
    if !authorised(&headers) {
        return denied();
    }
    let tags: Vec<&str> = query
        .iter()
        .filter(|(k, _)| k == "tags")
        .map(|(_, v)| v.as_str())
        .collect();
    let limit = query
        .iter()
        .find(|(k, _)| k == "limit")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(20);
    let shop = shop.lock().unwrap_or_else(|e| e.into_inner());
    let pets: Vec<&Value> = shop
        .pets
        .iter()
        .filter(|p| tags.is_empty() || tags.iter().any(|t| p["tag"] == *t))
        .take(limit)
        .collect();
    Json(json!(pets)).into_response()
}

async fn add_pet(
    State(shop): State<Shared>,
    headers: HeaderMap,
    Json(pet): Json<Value>,
) -> Response {
    if !authorised(&headers) {
        return denied();
    }
    let mut shop = shop.lock().unwrap_or_else(|e| e.into_inner());
    let mut pet = pet;
    pet["id"] = json!(shop.pets.len() + 1);
    shop.pets.push(pet.clone());
    (StatusCode::CREATED, Json(pet)).into_response()
}

async fn get_pet(State(shop): State<Shared>, headers: HeaderMap, Path(id): Path<u64>) -> Response {
    if !authorised(&headers) {
        return denied();
    }
    let shop = shop.lock().unwrap_or_else(|e| e.into_inner());
    match shop.pets.iter().find(|p| p["id"] == id) {
        Some(pet) => Json(pet.clone()).into_response(),
        None => (
            StatusCode::NOT_FOUND,
            Json(json!({ "message": format!("no pet {id}") })),
        )
            .into_response(),
    }
}

async fn delete_pet(
    State(shop): State<Shared>,
    headers: HeaderMap,
    Path(id): Path<u64>,
) -> Response {
    if !authorised(&headers) {
        return denied();
    }
    let mut shop = shop.lock().unwrap_or_else(|e| e.into_inner());
    shop.pets.retain(|p| p["id"] != id);
    StatusCode::NO_CONTENT.into_response()
}

async fn place_order(
    State(shop): State<Shared>,
    headers: HeaderMap,
    Form(order): Form<Vec<(String, String)>>,
) -> Response {
    if !authorised(&headers) {
        return denied();
    }
    let mut shop = shop.lock().unwrap_or_else(|e| e.into_inner());
    let mut record: serde_json::Map<String, Value> = order
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    record.insert("order".to_owned(), json!(shop.orders.len() + 1));
    record.insert("status".to_owned(), json!("reserved"));
    let record = Value::Object(record);
    shop.orders.push(record.clone());
    Json(record).into_response()
}
