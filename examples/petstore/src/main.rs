//! A driver generated at build time from `petstore.yaml` (see `build.rs`), talking to a pet
//! shop served in-process, first called from Rust with typed arguments, then by a model.
//!
//! ```text
//! cargo run -p petstore-example
//! ```
//!
//! A scripted model plays the part unless `MCS_LLM_BASE_URL` names an OpenAI-compatible
//! server (`MCS_LLM_MODEL`, `MCS_LLM_API_KEY` as in the conversation example).

use mcs::ToolDriver;
use mcs::llm::ScriptedClient;

#[path = "../../common/converse.rs"]
mod converse;
mod shop;

mcs::include_driver!("petstore.rs");

use petstore::{GetPetArguments, ListPetsArguments};

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
    let address = shop::serve_pet_shop().await?;
    let shop = petstore::Petstore::new()
        .with_base_url(format!("http://{address}/v1"))
        .with_api_key(shop::API_KEY);

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

    converse::converse(&shop, scripted_model(), REQUEST).await?;
    Ok(())
}
