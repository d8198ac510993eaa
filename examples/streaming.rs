//! The to-do conversation with the model's answers streamed: text is printed as it comes,
//! each call as soon as it is begun and complete, each result as soon as it ran.
//!
//! ```text
//! cargo run --example streaming
//! ```
//!
//! Without configuration the scripted model of `conversation` plays the part, streaming
//! each answer in pieces of 4 bytes, as a server streams tokens. With `MCS_LLM_BASE_URL` (any
//! OpenAI-compatible server) or `ANTHROPIC_API_KEY`, a real model streams instead.

use std::io::Write as _;

use mcs::Driver;
use mcs::extract::ReasoningStart;
use mcs::llm::{AnthropicClient, Conversation, ConversationEvent, LlmClient, StopReason};
use mcs::stream::{Execution, StreamEvent, StreamOptions};

#[path = "common/converse.rs"]
#[allow(dead_code)]
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
    let client: Box<dyn LlmClient> = match AnthropicClient::from_env()? {
        Some(claude) => {
            println!("(talking to Claude; ANTHROPIC_API_KEY is set)\n");
            Box::new(claude)
        }
        None => converse::model(scripted_model().with_chunk_size(4))?,
    };
    let conversation = Conversation::new(&todo as &dyn Driver)
        .max_rounds(8)
        .max_retries(2);
    let opening = conversation.opening(client.model(), REQUEST);
    // These models write no reasoning before their answers: calls are reported (and run)
    // the moment they are complete.
    let options = StreamOptions::default()
        .reasoning(ReasoningStart::Outside)
        .execution(Execution::AsCompleted);
    let mut on_event = |event: ConversationEvent| {
        match event {
            ConversationEvent::Round(round) => print!("\n[model, round {round}]\n"),
            ConversationEvent::Stream(StreamEvent::Text(text)) => print!("{text}"),
            ConversationEvent::Stream(StreamEvent::Reasoning(text)) => {
                print!("\x1b[2m{text}\x1b[0m")
            }
            ConversationEvent::Stream(StreamEvent::CallBegun { name, .. }) => {
                print!("\n  calling {name}…");
            }
            ConversationEvent::Stream(StreamEvent::Call { call, .. }) => {
                print!(" {}", call.arguments);
            }
            ConversationEvent::Stream(StreamEvent::CallFailed { call, .. }) => {
                print!("\n  a call could not be read: {}", call.detail);
            }
            ConversationEvent::Stream(StreamEvent::CallResult { record }) => {
                match (&record.result, &record.error) {
                    (Some(result), _) => print!("\n  → {result}"),
                    (None, Some(error)) => print!("\n  → failed: {error}"),
                    (None, None) => {}
                }
            }
            _ => {}
        }
        let _ = std::io::stdout().flush();
    };
    let transcript = conversation
        .run_streaming(client.as_ref(), opening, options, &mut on_event)
        .await?;
    println!("\n\n---\n{}", transcript.summary());
    if transcript.stop != StopReason::Answered {
        return Err("the model did not reach an answer".into());
    }
    Ok(())
}
