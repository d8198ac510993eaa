//! The pet shop the examples talk to: `petstore.yaml` served in-process on loopback, with
//! an API key, a few pets and an order book.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use serde_json::{Value, json};

/// The key the shop expects in `X-Api-Key`.
pub(crate) const API_KEY: &str = "demo-key";

#[derive(Default)]
struct Shop {
    pets: Vec<Value>,
    orders: Vec<Value>,
}

type Shared = Arc<Mutex<Shop>>;

/// Starts the shop on a free port of 127.0.0.1 and returns its address.
pub(crate) async fn serve_pet_shop() -> std::io::Result<SocketAddr> {
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
