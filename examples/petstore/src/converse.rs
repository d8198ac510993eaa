//! The conversation both binaries hold: a real model when `MCS_LLM_BASE_URL` is set, else
//! the scripted one; every message after the system prompt printed, then a summary.

use mcs::Driver;
use mcs::llm::{Conversation, LlmClient, OpenAiClient, ScriptedClient, StopReason, Transcript};
use serde_json::Value;

/// Runs `request` through `driver` and prints the transcript; an error when the model did
/// not reach an answer.
pub async fn converse(
    driver: &dyn Driver,
    scripted: ScriptedClient,
    request: &str,
) -> Result<Transcript, Box<dyn std::error::Error>> {
    let client: Box<dyn LlmClient> = match OpenAiClient::from_env()? {
        Some(client) => Box::new(client),
        None => {
            println!("(scripted model; set MCS_LLM_BASE_URL to use a real one)\n");
            Box::new(scripted)
        }
    };
    let conversation = Conversation::new(driver).max_rounds(8).max_retries(2);
    let opening = conversation.opening(client.model(), request);
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
    Ok(transcript)
}
