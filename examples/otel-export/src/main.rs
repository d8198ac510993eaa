//! mcs's spans exported to an OpenTelemetry collector over OTLP/HTTP: a model's output with
//! two tool calls goes through `process_llm_response`, and the collector receives an
//! `execute_tool {tool}` span per call with the GenAI attributes (`gen_ai.tool.name`,
//! `gen_ai.tool.call.id`, `error.type`, …).
//!
//! ```text
//! cd examples/otel-export
//! OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 cargo run
//! ```
//!
//! A collector to try it with: `docker run -p 4318:4318 -p 16686:16686
//! jaegertracing/all-in-one`, then open http://localhost:16686. Without
//! `OTEL_EXPORTER_OTLP_ENDPOINT` the spans are only printed. This crate is not a member of
//! the mcs workspace, so the OpenTelemetry crates stay out of mcs's build.

use mcs::{Driver, LlmResponse};
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{SpanExporter, WithExportConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// Notes kept in memory.
#[derive(Default)]
struct Notes {
    notes: std::sync::Mutex<Vec<String>>,
}

#[mcs::tool_driver]
#[mcs::hybrid]
impl Notes {
    /// Adds a note.
    #[tool(idempotent = false)]
    fn add_note(&self, text: String) -> usize {
        let mut notes = self.notes.lock().unwrap();
        notes.push(text);
        notes.len()
    }

    /// How many notes there are.
    #[tool(read_only)]
    fn count_notes(&self) -> usize {
        self.notes.lock().unwrap().len()
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let endpoint = std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT").ok();
    let provider = match &endpoint {
        Some(endpoint) => {
            let exporter = SpanExporter::builder()
                .with_http()
                .with_endpoint(format!("{}/v1/traces", endpoint.trim_end_matches('/')))
                .build()?;
            Some(
                SdkTracerProvider::builder()
                    .with_batch_exporter(exporter)
                    .with_resource(Resource::builder().with_service_name("mcs-notes").build())
                    .build(),
            )
        }
        None => {
            eprintln!("OTEL_EXPORTER_OTLP_ENDPOINT is not set: the spans are only printed");
            None
        }
    };
    let otel = provider
        .as_ref()
        .map(|provider| tracing_opentelemetry::layer().with_tracer(provider.tracer("mcs")));
    // mcs's spans only: the exporter's own HTTP client traces too, and exporting those
    // would feed the exporter with its own work.
    tracing_subscriber::registry()
        .with(Targets::new().with_target("mcs", tracing::Level::DEBUG))
        .with(
            tracing_subscriber::fmt::layer()
                .with_ansi(false)
                .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE),
        )
        .with(otel)
        .init();

    let notes = Notes::default();
    let output = r#"<tool_call>{"name": "add_note", "arguments": {"text": "buy milk"}}</tool_call>
<tool_call>{"name": "count_notes", "arguments": {}}</tool_call>"#;
    let response = notes.process_llm_response(LlmResponse::Text(output)).await;
    println!("{} calls ran", response.executed_calls.len());

    if let Some(provider) = provider {
        // Sends what is still batched before the program ends.
        provider.shutdown()?;
        println!("spans sent to {}", endpoint.unwrap_or_default());
    }
    Ok(())
}
