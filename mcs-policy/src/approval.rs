//! Who approves a call, and what they are shown.

use std::future::Future;

use serde_json::Value;

use mcs_core::{BoxFuture, Tool};

/// What an [`Approver`] is asked about: one call, before anything of it runs.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ApprovalRequest {
    /// The tool, as the guarded driver lists it (name, description, annotations).
    pub tool: Tool,
    /// The call's arguments with secrets replaced by `"[REDACTED]"` (see
    /// [`Policy::redact_key`](crate::Policy::redact_key)): safe to show and to log.
    pub arguments: Value,
    /// The id of the driver the call goes to ([`DriverMeta::id`](mcs_core::DriverMeta)).
    pub driver: String,
}

/// An approver's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Run the call.
    Approve,
    /// Do not run it; the reason is passed on to the model.
    Decline(String),
}

impl Decision {
    /// A refusal for `reason`.
    pub fn decline(reason: impl Into<String>) -> Self {
        Decision::Decline(reason.into())
    }
}

/// Decides whether a call that needs approval runs: a person at a prompt, a chat message
/// with buttons, a rule engine.
///
/// Any `Fn(ApprovalRequest) -> impl Future<Output = Decision>` is an approver:
///
/// ```
/// use mcs_policy::{ApprovalRequest, Decision, Policy};
///
/// let policy = Policy::new()
///     .approve_destructive()
///     .approver(|request: ApprovalRequest| async move {
///         if request.tool.name().starts_with("delete_") {
///             Decision::decline("deleting is not allowed today")
///         } else {
///             Decision::Approve
///         }
///     });
/// # let _ = policy;
/// ```
///
/// The answer may take as long as it takes, up to the policy's
/// [`approval_timeout`](crate::Policy::approval_timeout); a future that is dropped (the
/// timeout passed, the conversation was cancelled) means no call runs.
pub trait Approver: Send + Sync {
    /// Answers `request`.
    fn approve<'a>(&'a self, request: ApprovalRequest) -> BoxFuture<'a, Decision>;
}

impl<F, Fut> Approver for F
where
    F: Fn(ApprovalRequest) -> Fut + Send + Sync,
    Fut: Future<Output = Decision> + Send + 'static,
{
    fn approve<'a>(&'a self, request: ApprovalRequest) -> BoxFuture<'a, Decision> {
        Box::pin(self(request))
    }
}
