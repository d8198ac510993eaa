//! How a hybrid driver talks to models: its prompts and its unknown-tool policy.

use crate::prompt::Prompts;

/// What a driver does with a call for a tool it does not have; `"pass_through"` (the
/// default) or `"reject"` as text. Defined with its parser in `mcs-options`, which
/// `#[mcs::hybrid(unknown_tools = "...")]` checks the attribute with.
pub use mcs_options::{ParsePolicyError, UnknownToolPolicy};

/// How a hybrid driver talks to models.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HybridOptions {
    /// The system prompts (default, per-model variants, compact threshold).
    pub prompts: Prompts,
    /// Calls for tools the driver does not have.
    pub unknown_tools: UnknownToolPolicy,
}

impl HybridOptions {
    /// Options with these prompts.
    #[must_use]
    pub fn with_prompts(mut self, prompts: Prompts) -> Self {
        self.prompts = prompts;
        self
    }

    /// Options with this unknown-tool policy.
    #[must_use]
    pub fn with_unknown_tools(mut self, policy: UnknownToolPolicy) -> Self {
        self.unknown_tools = policy;
        self
    }
}
