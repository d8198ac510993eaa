//! One orchestrator over two kinds of driver: the Petstore driver generated at build time
//! from `petstore.yaml`, and a notebook written with `#[mcs::tool_driver]`. The model sees
//! one driver with namespaced tools (`shop__listPets`, `notes__add_note`); one answer with
//! calls for both is dispatched to each owner.
//!
//! ```text
//! cargo run -p petstore-example --bin office
//! ```
//!
//! A scripted model plays the part unless `MCS_LLM_BASE_URL` names an OpenAI-compatible
//! server (as in the other examples).

use mcs::ToolDriver;
use mcs::llm::ScriptedClient;
use mcs::orchestrator::{ConflictPolicy, Orchestrator};

#[path = "../../../common/converse.rs"]
mod converse;
#[path = "../notebook.rs"]
mod notebook;
#[path = "../office.rs"]
mod office;
#[path = "../shop.rs"]
mod shop;

mcs::include_driver!("petstore.rs");

const REQUEST: &str = "Which dogs do we have? Leave the staff a note to brush each of them today.";

fn scripted_model() -> ScriptedClient {
    ScriptedClient::from_texts([
        "{\"tool\": \"shop__listPets\", \"arguments\": {\"tags\": [\"dog\"]}}",
        // Two calls for two different drivers in one answer.
        "<tool_call>\n{\"name\": \"notes__add_note\", \"arguments\": {\"text\": \"Brush Fido today.\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"shop__getPet\", \"arguments\": {\"petId\": 1}}\n</tool_call>",
        "We have one dog, Fido (available). I left the staff a note to brush him today.",
    ])
    .with_model("qwen2.5-7b-instruct")
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let office = Orchestrator::new("office", ConflictPolicy::Namespace);
    let notebook = office::open(&office, "notes").await?;
    println!("{} tools behind one driver:", office.list_tools().len());
    for tool in office.list_tools().iter() {
        println!("  {:<22} {}", tool.name(), tool.label());
    }
    println!();

    converse::converse(&office, scripted_model(), REQUEST).await?;
    println!("notes kept: {:?}", notebook.list_notes());
    Ok(())
}
