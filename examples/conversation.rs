//! A whole conversation: the model asks for tools, the driver executes them, the model
//! answers.
//!
//! ```text
//! cargo run --example conversation
//! ```
//!
//! Without configuration a scripted model plays the part, writing its calls the way real
//! open models do (Hermes `<tool_call>` tags, a wrong argument it then corrects, a bare JSON
//! call). Point it at any OpenAI-compatible server to talk to a real model instead:
//!
//! ```text
//! MCS_LLM_BASE_URL=http://localhost:8080/v1 MCS_LLM_MODEL=qwen2.5-7b-instruct \
//!     cargo run --example conversation
//! ```
//!
//! (`MCS_LLM_API_KEY` or `OPENAI_API_KEY` supplies a key when the server wants one.)

use mcs::Driver;
use mcs::llm::{Conversation, ScriptedClient, StopReason};

// Only `model` is used here: the conversation is written out below.
#[allow(dead_code)]
#[path = "common/converse.rs"]
mod converse;
#[path = "common/todo.rs"]
mod todo;

use todo::Todo;

const REQUEST: &str = "Put 'water the plants' on my list as urgent, and 'read a book' for \
                       whenever. Then tell me what is still open, most urgent first.";

/// What a Qwen-style model writes for this request, mistakes included.
fn scripted_model() -> ScriptedClient {
    ScriptedClient::from_texts([
        // Two calls in one answer, in Hermes tags; the second uses a priority that does not exist.
        "I'll add both tasks.\n<tool_call>\n{\"name\": \"add_task\", \"arguments\": {\"title\": \"Water the plants\", \"priority\": \"high\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"add_task\", \"arguments\": {\"title\": \"Read a book\", \"priority\": \"whenever\"}}\n</tool_call>",
        // Corrected after the retry prompt named the allowed values.
        "<tool_call>\n{\"name\": \"add_task\", \"arguments\": {\"title\": \"Read a book\", \"priority\": \"low\"}}\n</tool_call>",
        // A bare JSON call, in the format the system prompt teaches.
        "{\"tool\": \"list_tasks\", \"arguments\": {}}",
        "You have two open tasks:\n1. Water the plants (high)\n2. Read a book (low)",
    ])
    .with_model("qwen2.5-7b-instruct")
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let todo = Todo::default();
    // The model: a real one when MCS_LLM_BASE_URL is set, else the scripted one above.
    let client = converse::model(scripted_model())?;

    // The loop every example shares (common/converse.rs), written out here: the driver's
    // system prompt opens, each answer goes through `process_llm_response`, tool results and
    // retry prompts go back to the model, until it answers in prose.
    let conversation = Conversation::new(&todo as &dyn Driver)
        .max_rounds(8)
        .max_retries(2);
    let opening = conversation.opening(client.model(), REQUEST);
    let transcript = conversation.run(client.as_ref(), opening).await?;

    println!("{transcript}");
    if transcript.stop != StopReason::Answered {
        return Err("the model did not reach an answer".into());
    }
    Ok(())
}
