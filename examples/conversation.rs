//! A whole conversation: the model asks for tools, the driver executes them, the model
//! answers.
//!
//! ```text
//! cargo run --example conversation
//! ```
//!
//! Without configuration a scripted model plays the part, writing its calls the way real
//! open models do (Hermes `<tool_call>` tags, a wrong argument it then corrects, a bare JSON
//! call; its script is in `common/todo_script.rs`). Point it at any OpenAI-compatible server
//! to talk to a real model instead:
//!
//! ```text
//! MCS_LLM_BASE_URL=http://localhost:8080/v1 MCS_LLM_MODEL=qwen2.5-7b-instruct \
//!     cargo run --example conversation
//! ```
//!
//! (`MCS_LLM_API_KEY` or `OPENAI_API_KEY` supplies a key when the server wants one.)

use mcs::Driver;
use mcs::llm::{Conversation, StopReason};

// Only `model` is used here: the conversation is written out below.
#[allow(dead_code)]
#[path = "common/converse.rs"]
mod converse;
#[path = "common/todo.rs"]
mod todo;
#[path = "common/todo_script.rs"]
mod todo_script;

use todo::Todo;
use todo_script::{REQUEST, scripted_model};

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
