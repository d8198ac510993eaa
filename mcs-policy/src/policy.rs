//! The rules: what needs approval, how long and how often tools run, what is secret.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use mcs_core::ToolAnnotations;

use crate::approval::Approver;
use crate::pattern::Pattern;
use crate::redact::Redaction;

/// What happens to a call when [`Policy::max_concurrent_calls`] are already running.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WhenBusy {
    /// Wait for one of them to finish (the default). The wait does not count against the
    /// call's timeout, which starts when the tool does.
    #[default]
    Wait,
    /// Refuse the call at once ([`Refusal::Busy`](crate::Refusal::Busy)); the model may
    /// try again.
    Refuse,
}

/// Which annotated tools need approval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ByAnnotation {
    /// MCP's reading: a tool may destroy unless it says it is read-only or not
    /// destructive. Unannotated tools need approval.
    Destructive,
    /// Only tools that say `destructive` and do not say `read_only`.
    DeclaredDestructive,
}

/// The rules a [`Guarded`](crate::Guarded) driver enforces: built once, then
/// [`wrap`](Self::wrap)ped around any number of drivers.
///
/// A policy with no rules changes nothing and costs next to nothing (see the crate
/// documentation). Each rule is one builder call:
///
/// ```
/// use std::time::Duration;
/// use mcs_policy::{Decision, Policy, WhenBusy};
///
/// let policy = Policy::new()
///     // approval: destructive tools and anything that sends mail
///     .approve_destructive()
///     .approve_tools(["send_*"])
///     .approver(|_request| async { Decision::decline("not now") })
///     .approval_timeout(Duration::from_secs(120))
///     // time: 30 s for any tool, 5 min for the slow one
///     .timeout(Duration::from_secs(30))
///     .tool_timeout("build_report", Duration::from_secs(300))
///     // limits
///     .max_concurrent_calls(4, WhenBusy::Wait)
///     .max_calls_per_conversation(50)
///     // secrets, beyond the default key names
///     .redact_value("sk-live-1234")
///     .redact_key("pin");
/// # let _ = policy;
/// ```
#[derive(Clone, Default)]
pub struct Policy {
    by_annotation: Option<ByAnnotation>,
    by_name: Vec<Pattern>,
    approver: Option<Arc<dyn Approver>>,
    approval_timeout: Option<Duration>,
    timeout: Option<Duration>,
    tool_timeouts: Vec<(Pattern, Duration)>,
    pub(crate) max_concurrent: Option<(usize, WhenBusy)>,
    max_calls: Option<usize>,
    read_only: bool,
    redaction: Redaction,
    trace_content: bool,
}

impl fmt::Debug for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Policy")
            .field("by_annotation", &self.by_annotation)
            .field("by_name", &self.by_name)
            .field("approver", &self.approver.as_ref().map(|_| "…"))
            .field("approval_timeout", &self.approval_timeout)
            .field("timeout", &self.timeout)
            .field("tool_timeouts", &self.tool_timeouts)
            .field("max_concurrent", &self.max_concurrent)
            .field("max_calls", &self.max_calls)
            .field("read_only", &self.read_only)
            .field("trace_content", &self.trace_content)
            .finish_non_exhaustive()
    }
}

impl Policy {
    /// A policy with no rules: every call runs as it would without it.
    pub fn new() -> Self {
        Policy::default()
    }

    /// Calls to tools that may destroy something need approval, read the way MCP reads
    /// its hints: a tool needs approval unless it says it is read-only
    /// (`#[tool(read_only)]`) or not destructive (`destructive = false`). A tool that says
    /// nothing needs approval, so an unannotated driver is safe by default. See
    /// [`approve_declared_destructive`](Self::approve_declared_destructive) for the
    /// lenient reading.
    #[must_use]
    pub fn approve_destructive(mut self) -> Self {
        self.by_annotation = Some(ByAnnotation::Destructive);
        self
    }

    /// Calls to tools that say they are destructive (`#[tool(destructive)]`) and do not
    /// say they are read-only need approval; tools that say nothing run freely. Replaces
    /// [`approve_destructive`](Self::approve_destructive).
    #[must_use]
    pub fn approve_declared_destructive(mut self) -> Self {
        self.by_annotation = Some(ByAnnotation::DeclaredDestructive);
        self
    }

    /// Calls to these tools need approval, whatever their annotations: exact names, or
    /// patterns in which `*` stands for any run of characters and `?` for one
    /// (`"delete_*"`, `"github__*"`). Adds to earlier calls.
    #[must_use]
    pub fn approve_tools<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.by_name.extend(names.into_iter().map(Pattern::new));
        self
    }

    /// Who decides on calls that need approval. Without one such calls are declined
    /// ([`Refusal::NoApprover`](crate::Refusal::NoApprover)): the policy fails closed.
    #[must_use]
    pub fn approver(mut self, approver: impl Approver + 'static) -> Self {
        self.approver = Some(Arc::new(approver));
        self
    }

    /// How long an approver may take; a call not approved by then is declined
    /// ([`Refusal::ApprovalTimedOut`](crate::Refusal::ApprovalTimedOut)). Without it the
    /// policy waits as long as the approver does. Needs a Tokio runtime with its time
    /// driver (`#[tokio::main]` has one).
    #[must_use]
    pub fn approval_timeout(mut self, timeout: Duration) -> Self {
        self.approval_timeout = Some(timeout);
        self
    }

    /// How long any tool may run. A tool still running then is cancelled — its future is
    /// dropped — and the model told so ([`Refusal::TimedOut`](crate::Refusal::TimedOut)).
    /// A tool that finishes synchronously (a plain `fn` tool) has already finished when
    /// the clock would start and cannot be cut short. Needs a Tokio runtime with its time
    /// driver.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// How long the tools matching `name` (a name or a pattern, as in
    /// [`approve_tools`](Self::approve_tools)) may run, instead of the default
    /// [`timeout`](Self::timeout). The first matching rule applies.
    #[must_use]
    pub fn tool_timeout(mut self, name: impl Into<String>, timeout: Duration) -> Self {
        self.tool_timeouts.push((Pattern::new(name), timeout));
        self
    }

    /// At most `limit` calls run at once through one guarded driver (all its
    /// conversations together); `when_busy` says whether a call beyond them waits or is
    /// refused. Approval is asked before a place is taken, so a call waiting for a person
    /// holds none.
    #[must_use]
    pub fn max_concurrent_calls(mut self, limit: usize, when_busy: WhenBusy) -> Self {
        self.max_concurrent = Some((limit, when_busy));
        self
    }

    /// At most `limit` calls per conversation; later ones are refused
    /// ([`Refusal::ConversationLimit`](crate::Refusal::ConversationLimit)). A call counts
    /// when it reaches the driver; a declined call or one refused as busy does not. A
    /// conversation is one [`Guarded`](crate::Guarded) handle: start another with
    /// [`Guarded::conversation`](crate::Guarded::conversation) or
    /// [`Guarded::reset_conversation`](crate::Guarded::reset_conversation).
    #[must_use]
    pub fn max_calls_per_conversation(mut self, limit: usize) -> Self {
        self.max_calls = Some(limit);
        self
    }

    /// Read-only mode: the driver lists only the tools that say they are read-only
    /// (`read_only == Some(true)`), and a call to any other is answered as a call to a
    /// tool it does not have ([`ToolError::UnknownTool`](mcs_core::ToolError)) without
    /// running. Through `process_llm_response` such a call is not this driver's, so it is
    /// passed through, as the standard says of unknown tools.
    #[must_use]
    pub fn read_only(mut self) -> Self {
        self.read_only = true;
        self
    }

    /// Argument and result members whose key ends with `key` are secret (compared in
    /// lower case without `_`, `-`, `.`: `api_key` covers `X-Api-Key` and `apiKey`).
    /// Already secret: `password`, `passwd`, `secret`, `token`, `api_key`,
    /// `authorization`, `cookie`, `credentials`, `private_key`.
    #[must_use]
    pub fn redact_key(mut self, key: &str) -> Self {
        self.redaction.add_key(key);
        self
    }

    /// `value` is secret wherever it appears in a string: an API key the tools are
    /// configured with, a password read from the environment.
    #[must_use]
    pub fn redact_value(mut self, value: &str) -> Self {
        self.redaction.add_value(value);
        self
    }

    /// Records each call's arguments and result (redacted) on its span, as
    /// `gen_ai.tool.call.arguments` and `gen_ai.tool.call.result`. Off by default: the
    /// OpenTelemetry conventions make content opt-in, as it may be large or personal.
    #[must_use]
    pub fn trace_content(mut self, on: bool) -> Self {
        self.trace_content = on;
        self
    }

    /// `value` as approvers and traces see it: members with secret keys and configured
    /// secret values replaced by `"[REDACTED]"`. For logs of your own.
    pub fn redact(&self, value: &Value) -> Value {
        self.redaction.value(value)
    }

    /// `text` with the configured secret values replaced by `"[REDACTED]"`.
    pub fn redact_text(&self, text: &str) -> String {
        self.redaction.text(text).into_owned()
    }

    // What the guard asks of the rules.

    pub(crate) fn is_read_only(&self) -> bool {
        self.read_only
    }

    pub(crate) fn traces_content(&self) -> bool {
        self.trace_content
    }

    pub(crate) fn max_calls(&self) -> Option<usize> {
        self.max_calls
    }

    pub(crate) fn approver_ref(&self) -> Option<&dyn Approver> {
        self.approver.as_deref()
    }

    pub(crate) fn approval_deadline(&self) -> Option<Duration> {
        self.approval_timeout
    }

    pub(crate) fn redaction(&self) -> &Redaction {
        &self.redaction
    }

    /// Whether deciding on a call needs the tool's annotations.
    pub(crate) fn needs_annotations(&self) -> bool {
        self.read_only || self.by_annotation.is_some()
    }

    /// Whether a call to `name`, annotated so, needs approval. `annotations` is `None`
    /// when the driver does not list the tool: annotation rules do not apply to it (the
    /// driver will answer that it has no such tool).
    pub(crate) fn needs_approval(&self, name: &str, annotations: Option<&ToolAnnotations>) -> bool {
        if self.by_name.iter().any(|pattern| pattern.matches(name)) {
            return true;
        }
        let Some(hints) = annotations else {
            return false;
        };
        if hints.read_only == Some(true) {
            return false;
        }
        match self.by_annotation {
            None => false,
            Some(ByAnnotation::Destructive) => hints.destructive != Some(false),
            Some(ByAnnotation::DeclaredDestructive) => hints.destructive == Some(true),
        }
    }

    /// The time limit of `name`, if any.
    pub(crate) fn timeout_for(&self, name: &str) -> Option<Duration> {
        self.tool_timeouts
            .iter()
            .find(|(pattern, _)| pattern.matches(name))
            .map(|(_, timeout)| *timeout)
            .or(self.timeout)
    }
}

#[cfg(test)]
mod tests {
    use mcs_core::ToolAnnotations;

    use super::Policy;

    #[test]
    fn destructive_reads_hints_as_mcp_does() {
        let mcp = Policy::new().approve_destructive();
        let declared = Policy::new().approve_declared_destructive();
        let said = ToolAnnotations::new;
        let cases = [
            (said(), true, false),
            (said().destructive(true), true, true),
            (said().destructive(false), false, false),
            (said().read_only(true), false, false),
            (said().read_only(true).destructive(true), false, false),
            (said().read_only(false), true, false),
            (said().idempotent(true), true, false),
        ];
        for (hints, by_mcp, by_declaration) in cases {
            assert_eq!(mcp.needs_approval("t", Some(&hints)), by_mcp, "{hints:?}");
            assert_eq!(
                declared.needs_approval("t", Some(&hints)),
                by_declaration,
                "{hints:?}"
            );
        }
        // A tool the driver does not list: no annotation rule applies.
        assert!(!mcp.needs_approval("t", None));
        // Names apply whatever the hints say.
        let named = Policy::new().approve_tools(["t"]);
        assert!(named.needs_approval("t", Some(&said().read_only(true))));
        assert!(named.needs_approval("t", None));
    }
}
