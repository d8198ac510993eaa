//! The conversation every example holds: with the model at `MCS_LLM_BASE_URL` (any
//! OpenAI-compatible server; `MCS_LLM_MODEL`, `MCS_LLM_API_KEY`) when it is set, else with the
//! example's scripted model; the transcript printed. Shared by the examples of every crate in
//! the workspace through `#[path]`.

use mcs::Driver;
use mcs::llm::{Conversation, LlmClient, OpenAiClient, ScriptedClient, StopReason, Transcript};

/// The model named by `MCS_LLM_BASE_URL`, else `scripted`; says which on standard output.
pub(crate) fn model(scripted: ScriptedClient) -> Result<Box<dyn LlmClient>, mcs::llm::LlmError> {
    Ok(match OpenAiClient::from_env()? {
        Some(client) => {
            let name = client.model().unwrap_or("?");
            println!("(talking to {name} at $MCS_LLM_BASE_URL)\n");
            Box::new(client)
        }
        None => {
            println!("(scripted model; set MCS_LLM_BASE_URL to use a real one)\n");
            Box::new(scripted)
        }
    })
}

/// Runs `request` through `driver` with [`model`]`(scripted)` and prints the transcript; an
/// error when the model did not reach an answer.
pub(crate) async fn converse(
    driver: &dyn Driver,
    scripted: ScriptedClient,
    request: &str,
) -> Result<Transcript, Box<dyn std::error::Error>> {
    let client = model(scripted)?;
    let conversation = Conversation::new(driver).max_rounds(12).max_retries(3);
    let opening = conversation.opening(client.model(), request);
    let transcript = conversation.run(client.as_ref(), opening).await?;
    println!("{transcript}");
    if transcript.stop != StopReason::Answered {
        return Err("the model did not reach an answer".into());
    }
    Ok(transcript)
}
