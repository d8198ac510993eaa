//! The span of each call and the events of the policy's decisions, named after the
//! OpenTelemetry semantic conventions for generative AI (`execute_tool` spans).
//!
//! Everything recorded is redacted first; with no subscriber interested the span is
//! disabled and nothing is formatted.

use serde_json::Value;
use tracing::{Level, Span};

use mcs_core::ToolError;

use crate::redact::Redaction;
use crate::refusal::Refusal;

/// The target of the policy's spans and events.
const TARGET: &str = "mcs_policy";

/// The `execute_tool` span of a call to `tool` on the driver `driver`: the one the model
/// side opened for this call when there is one (a guarded driver's own `Driver` side, or an
/// orchestrator's around a guarded member), so that a call is one span whoever runs it.
pub(crate) fn call_span(driver: &str, tool: &str) -> Span {
    mcs_core::telemetry::execute_tool_span(driver, tool, None)
}

/// Records the call's arguments, when content is traced.
pub(crate) fn arguments(span: &Span, redaction: &Redaction, arguments: &Value) {
    span.record(
        "gen_ai.tool.call.arguments",
        redaction.value(arguments).to_string(),
    );
}

/// An approver's or a limit's decision.
pub(crate) fn decision(span: &Span, decision: &'static str) {
    tracing::event!(target: TARGET, parent: span, Level::INFO, decision, "policy decision");
}

/// The end of a call: its outcome, and the error's kind and (redacted) text.
pub(crate) fn outcome(
    span: &Span,
    redaction: &Redaction,
    content: bool,
    result: &Result<Value, ToolError>,
) {
    if span.is_disabled() {
        return;
    }
    match result {
        Ok(value) => {
            if content {
                span.record(
                    "gen_ai.tool.call.result",
                    redaction.value(value).to_string(),
                );
            }
            tracing::event!(target: TARGET, parent: span, Level::INFO, outcome = "ok", "tool call finished");
        }
        Err(error) => {
            // mcs-core's rule, which asks `refusal_kind` once a policy exists.
            let kind = mcs_core::telemetry::error_type(error);
            mcs_core::telemetry::record_failure(span, kind);
            let text = error.to_string();
            tracing::event!(
                target: TARGET,
                parent: span,
                Level::WARN,
                outcome = "error",
                "error.type" = kind,
                error = %redaction.text(&text),
                "tool call failed"
            );
        }
    }
}

/// The kind of a policy's refusal, for whoever records a call's outcome.
pub(crate) fn refusal_kind(error: &(dyn std::error::Error + 'static)) -> Option<&'static str> {
    error.downcast_ref::<Refusal>().map(Refusal::kind)
}

/// An approver's refusal, with its (redacted) reason.
pub(crate) fn declined(span: &Span, redaction: &Redaction, reason: &str) {
    tracing::event!(
        target: TARGET,
        parent: span,
        Level::INFO,
        decision = "declined",
        reason = %redaction.text(reason),
        "policy decision"
    );
}
