//! Why the policy stopped a call, in words for the model.

use std::fmt;
use std::time::Duration;

/// Why the policy stopped a call. It reaches the model as the text of a
/// [`ToolError::Execution`](mcs_core::ToolError::Execution) whose `source` is this value,
/// so a program can tell a refusal from a tool's own failure:
///
/// ```
/// use std::error::Error as _;
/// use mcs_policy::Refusal;
///
/// # fn check(error: &mcs_core::ToolError) -> bool {
/// error.source().and_then(|s| s.downcast_ref::<Refusal>()).is_some()
/// # }
/// ```
///
/// Not [`ToolError::Rejected`](mcs_core::ToolError::Rejected): that one makes an
/// orchestrator with a priority policy offer the call to the next driver, and a call a
/// person declined must not run elsewhere instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// The approver said no.
    #[error(
        "the user declined this call: {reason}; it did not run. Do not retry it unless the \
         user asks for it again"
    )]
    Declined {
        /// The approver's reason.
        reason: String,
    },
    /// The approver did not answer in time.
    #[error(
        "the call needed the user's approval and none came within {}, so it did not run. \
         Do not retry it unless the user asks for it again",
        Seconds(*.after)
    )]
    ApprovalTimedOut {
        /// How long the policy waited.
        after: Duration,
    },
    /// The call needs approval and the policy has no approver.
    #[error(
        "the call needs the user's approval and there is no one to ask, so it did not run; \
         answer without this tool"
    )]
    NoApprover,
    /// The tool did not finish in time and was cancelled.
    #[error(
        "the tool did not finish within {} and was cancelled; its work may be incomplete. \
         Retry only if a partial run does no harm, or answer without it",
        Seconds(*.after)
    )]
    TimedOut {
        /// The tool's time limit.
        after: Duration,
    },
    /// The conversation has used all the calls it may make.
    #[error(
        "this conversation has reached its limit of {limit} tool calls; the call did not run. \
         Answer with what you have"
    )]
    ConversationLimit {
        /// Calls allowed per conversation.
        limit: usize,
    },
    /// As many calls as allowed are running, and the policy refuses rather than waits.
    #[error(
        "{limit} tool calls are already running, the most allowed at once; the call did not \
         run. Try it again after they finish"
    )]
    Busy {
        /// Calls allowed at once.
        limit: usize,
    },
}

impl Refusal {
    /// A short, stable name of the kind of refusal, used as the `error.type` of traces:
    /// `declined`, `approval_timeout`, `no_approver`, `timeout`, `conversation_limit`,
    /// `busy`.
    pub fn kind(&self) -> &'static str {
        match self {
            Refusal::Declined { .. } => "declined",
            Refusal::ApprovalTimedOut { .. } => "approval_timeout",
            Refusal::NoApprover => "no_approver",
            Refusal::TimedOut { .. } => "timeout",
            Refusal::ConversationLimit { .. } => "conversation_limit",
            Refusal::Busy { .. } => "busy",
        }
    }
}

/// A duration as a person writes it: `30 s`, `1.5 s`, `250 ms`.
struct Seconds(Duration);

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let millis = self.0.as_millis();
        if millis < 1000 {
            write!(f, "{millis} ms")
        } else if millis.is_multiple_of(1000) {
            write!(f, "{} s", millis / 1000)
        } else {
            write!(f, "{:.1} s", self.0.as_secs_f64())
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::Refusal;

    #[test]
    fn durations_read_naturally() {
        let text = |after| Refusal::TimedOut { after }.to_string();
        assert!(text(Duration::from_millis(250)).contains("within 250 ms"));
        assert!(text(Duration::from_secs(30)).contains("within 30 s"));
        assert!(text(Duration::from_millis(1500)).contains("within 1.5 s"));
    }
}
