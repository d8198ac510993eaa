//! The conversation both binaries hold: a real model when `MCS_LLM_BASE_URL` is set, else
//! the scripted one; the transcript printed, then a summary.

use mcs::Driver;
use mcs::llm::{Conversation, LlmClient, OpenAiClient, ScriptedClient, StopReason, Transcript};

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
    println!("{transcript}");
    if transcript.stop != StopReason::Answered {
        return Err("the model did not reach an answer".into());
    }
    Ok(transcript)
}
