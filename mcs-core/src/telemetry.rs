//! What the crates that run tools tell `tracing`: one `execute_tool` span per tool call,
//! named and attributed after the OpenTelemetry semantic conventions for generative AI
//! (`gen_ai.operation.name`, `gen_ai.tool.name`, `gen_ai.tool.call.id`, `error.type`), so
//! that `tracing-opentelemetry` exports them as such.
//!
//! Written once here so that the model side (`mcs-hybrid`), a policy around a driver
//! (`mcs-policy`) and whoever else runs a call record onto the same span rather than nest
//! copies of it: [`execute_tool_span`] reuses the current span when it already is the
//! call's. Nothing here records arguments, results or error texts, which may hold secrets;
//! a layer that redacts (mcs-policy's) may add them.
//!
//! With no subscriber interested, a span is disabled at its call site (one relaxed atomic
//! load) and nothing is formatted.

use std::sync::RwLock;

use serde_json::Value;
use tracing::field::Empty;
use tracing::{Level, Span};

use crate::error::ToolError;

/// The target of mcs's spans and events (filter with `RUST_LOG=mcs=debug`).
pub const TARGET: &str = "mcs";

/// The name of a tool call's span (the convention's operation name).
pub const EXECUTE_TOOL: &str = "execute_tool";

/// The span of a call to `tool` on the driver `driver` (its id), with the call's id when
/// the model gave one; or the current span, when it is already this call's (a policy's
/// layer inside a driver's own processing).
pub fn execute_tool_span(driver: &str, tool: &str, call_id: Option<&str>) -> Span {
    // No subscriber wants the span: nothing to join either, and `Span::current` (a lookup
    // of the thread's dispatcher) is not paid.
    if !tool_spans_enabled() {
        return Span::none();
    }
    let current = Span::current();
    if current
        .metadata()
        .is_some_and(|meta| meta.name() == EXECUTE_TOOL)
    {
        return current;
    }
    let span = tracing::span!(
        target: TARGET,
        Level::INFO,
        EXECUTE_TOOL,
        "otel.name" = Empty,
        "otel.kind" = "internal",
        "otel.status_code" = Empty,
        "gen_ai.operation.name" = EXECUTE_TOOL,
        "gen_ai.tool.name" = tool,
        "gen_ai.tool.type" = "function",
        "gen_ai.tool.call.id" = call_id,
        "gen_ai.tool.call.arguments" = Empty,
        "gen_ai.tool.call.result" = Empty,
        "mcs.driver.id" = driver,
        "error.type" = Empty,
    );
    record_name(&span, || format!("{EXECUTE_TOOL} {tool}"));
    span
}

/// Records on `span` its name as OpenTelemetry wants it (`execute_tool get_city`, `chat
/// gpt-4o`; tracing-opentelemetry reads `otel.name`), built only when a subscriber wants
/// the span. For every span mcs opens whose name holds what it acts on.
pub fn record_name(span: &Span, name: impl FnOnce() -> String) {
    if !span.is_disabled() {
        span.record("otel.name", name());
    }
}

/// Whether a subscriber may want `execute_tool` spans: callers that would hold a span
/// across an await can skip building one (and the state to hold it) when it is `false`.
pub fn tool_spans_enabled() -> bool {
    tracing::span_enabled!(target: TARGET, Level::INFO)
}

/// Records how the call ended: `error.type` and an error status when it failed.
pub fn record_outcome(span: &Span, result: &Result<Value, ToolError>) {
    if span.is_disabled() {
        return;
    }
    if let Err(error) = result {
        record_failure(span, error_type(error));
    }
}

/// Records on `span` that what it stands for failed, as OpenTelemetry asks: `error.type`
/// (a kind of failure, never its text) and an error status. For every span mcs opens: tool
/// calls, HTTP requests, MCP calls, requests to a model.
pub fn record_failure(span: &Span, kind: &str) {
    span.record("error.type", kind);
    span.record("otel.status_code", "ERROR");
}

/// Reads a kind of failure (`declined`, `timed_out`) from the error a tool failed with.
pub type Classifier = fn(&(dyn std::error::Error + 'static)) -> Option<&'static str>;

static CLASSIFIERS: RwLock<Vec<Classifier>> = RwLock::new(Vec::new());

/// Lets [`error_type`] name the failures a layer makes (a policy's refusals) by their own
/// kind, whoever records the outcome: the layer inside a call cannot record last, so the
/// span's owner asks the classifiers. Registering the same function twice adds it once.
pub fn classify_errors_with(classifier: Classifier) {
    let mut classifiers = CLASSIFIERS.write().unwrap_or_else(|e| e.into_inner());
    if !classifiers
        .iter()
        .any(|known| std::ptr::fn_addr_eq(*known, classifier))
    {
        classifiers.push(classifier);
    }
}

/// `error.type` of a failed call: what kind of failure, never its text.
pub fn error_type(error: &ToolError) -> &'static str {
    if let Some(source) = std::error::Error::source(error) {
        let classifiers = CLASSIFIERS.read().unwrap_or_else(|e| e.into_inner());
        if let Some(kind) = classifiers.iter().find_map(|classify| classify(source)) {
            return kind;
        }
    }
    match error {
        ToolError::UnknownTool { .. } => "unknown_tool",
        ToolError::InvalidArguments { .. } => "invalid_arguments",
        ToolError::Rejected { .. } => "rejected",
        ToolError::Execution { .. } => "execution",
    }
}
