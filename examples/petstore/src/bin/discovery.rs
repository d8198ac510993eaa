//! Discovery mode: the model starts from toolsets, not tools. One orchestrator holds the
//! Petstore driver generated from `petstore.yaml` (toolsets from its OpenAPI tags) and a
//! notebook written with `#[mcs::tool_driver]` (toolsets from `#[tool(tags = [...])]`); its
//! prompt lists `search_tools`, `load_toolset` (with the toolsets) and `describe_tool`. The
//! model searches, loads, and calls what it found, against a pet shop served in-process.
//!
//! ```text
//! cargo run -p petstore-example --bin discovery
//! ```
//!
//! A scripted model plays the part unless `MCS_LLM_BASE_URL` names an OpenAI-compatible
//! server (as in the other examples).

use mcs::Driver;
use mcs::llm::ScriptedClient;
use mcs::orchestrator::{ConflictPolicy, Discovery, Orchestrator};

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
        // Nothing but toolsets in the prompt: search first.
        "{\"tool\": \"search_tools\", \"arguments\": {\"query\": \"list pets by tag\"}}",
        // The search showed `shop__listPets` and its arguments: call it.
        "{\"tool\": \"shop__listPets\", \"arguments\": {\"tags\": [\"dog\"]}}",
        // Load the notebook's toolset to see how notes are written.
        "<tool_call>\n{\"name\": \"load_toolset\", \"arguments\": {\"id\": \"staff_notes\"}}\n</tool_call>",
        "<tool_call>\n{\"name\": \"staff__add_note\", \"arguments\": {\"text\": \"Brush Fido today.\"}}\n</tool_call>",
        "We have one dog, Fido. I left the staff a note to brush him today.",
    ])
    .with_model("qwen2.5-7b-instruct")
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let office =
        Orchestrator::new("office", ConflictPolicy::Namespace).with_discovery(Discovery::Always);
    let notebook = office::open(&office, "staff").await?;
    println!("toolsets:");
    for toolset in office.toolsets() {
        let about = toolset.description().unwrap_or_default();
        println!("  {:<14} {about}", toolset.id());
        println!("  {:<14} {}", "", toolset.tools().join(", "));
    }
    let prompt = office.get_driver_system_message(None);
    println!(
        "the first prompt lists {} tools in {} characters\n",
        office.prompt_tools().len(),
        prompt.len()
    );

    let transcript = converse::converse(&office, scripted_model(), REQUEST).await?;
    let found: Vec<String> = office
        .discovered_tools(&transcript.messages)
        .iter()
        .map(|tool| tool.name().to_owned())
        .collect();
    println!("tools the conversation discovered: {}", found.join(", "));
    println!("notes kept: {:?}", notebook.list_notes());
    Ok(())
}
