//! The spans and events of a scripted conversation, printed by `tracing-subscriber`: the
//! system prompt rendered, each model output's calls extracted (format, count, time), an
//! invalid call's argument paths, and one `execute_tool` span per call with the
//! OpenTelemetry GenAI attributes (`gen_ai.tool.name`, `gen_ai.tool.call.id`, …).
//!
//! ```text
//! cargo run --example tracing
//! ```
//!
//! To send the same spans to an OpenTelemetry collector, install a
//! `tracing-opentelemetry` layer instead of (or beside) the `fmt` layer below; mcs's span
//! names and fields follow the conventions that layer maps (`otel.name`, `otel.kind`,
//! `otel.status_code`, `gen_ai.*`, `http.*`, `error.type`). See README, "Tracing".

use mcs::Driver;
use mcs::llm::{Conversation, StopReason};
use tracing_subscriber::fmt::format::FmtSpan;

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
    // mcs's spans and events (target `mcs`) at debug level, each span printed when it
    // closes with its fields and time; to stdout, without colours.
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::DEBUG)
        .with_span_events(FmtSpan::CLOSE)
        .with_ansi(false)
        .with_writer(std::io::stdout)
        .init();

    let todo = Todo::default();
    let client = converse::model(scripted_model())?;
    let conversation = Conversation::new(&todo as &dyn Driver)
        .max_rounds(8)
        .max_retries(2);
    let opening = conversation.opening(client.model(), REQUEST);
    let transcript = conversation.run(client.as_ref(), opening).await?;
    if transcript.stop != StopReason::Answered {
        return Err("the model did not reach an answer".into());
    }
    Ok(())
}
