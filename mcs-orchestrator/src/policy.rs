//! What an orchestrator is told when it is built, and why it refuses a change.

/// The name of the tool that switches the active target, when the policy offers it.
pub const SWITCH_TOOL: &str = "switch_target";

/// How an orchestrator resolves tools of the same name in different drivers.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConflictPolicy {
    /// Every tool is listed as `label__tool` (at most 64 characters; a long name is cut and
    /// given a short hash), its description starting with `[label]`. Names are mapped back
    /// before dispatch. Deterministic, and the listing grows with every driver.
    Namespace,
    /// Tools keep their names; a name several drivers have is listed once (from the driver
    /// with the highest priority) and a call goes to the drivers that have it in priority
    /// order, moving on when one answers [`ToolError::UnknownTool`](mcs_core::ToolError::UnknownTool) or
    /// [`ToolError::Rejected`](mcs_core::ToolError::Rejected). Equal priorities keep registration order.
    Priority,
    /// Tools keep their names, and registering a driver that has a name another driver
    /// already has fails with [`OrchestratorError::Conflict`], naming both.
    Reject,
    /// One label is active: only its tools are listed and callable. Switch with
    /// [`Orchestrator::set_active`](super::Orchestrator::set_active); with `switch_tool`, the model can switch too, by calling
    /// [`SWITCH_TOOL`] with one of the labels.
    ActiveTarget {
        /// Offer the model the [`SWITCH_TOOL`] tool.
        switch_tool: bool,
    },
}

/// Why a registration or a switch was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OrchestratorError {
    /// A driver is already registered under this label.
    #[error("a driver is already registered as `{0}`")]
    DuplicateLabel(String),
    /// The label cannot prefix tool names (namespacing needs `^[A-Za-z0-9-]{{1,24}}$`).
    #[error("`{0}` cannot be a label: use 1 to 24 ASCII letters, digits or `-`")]
    InvalidLabel(String),
    /// Two drivers have a tool of the same name (under [`ConflictPolicy::Reject`]).
    #[error("tool `{tool}` of `{second}` clashes with the tool of the same name of `{first}`")]
    Conflict {
        /// The clashing name.
        tool: String,
        /// The driver registered first.
        first: String,
        /// The driver being registered.
        second: String,
    },
    /// No driver is registered under this label.
    #[error("no driver is registered as `{0}`")]
    UnknownLabel(String),
    /// In discovery mode, a driver has a tool named like one of the orchestrator's discovery
    /// tools.
    #[error(
        "tool `{tool}` of `{label}` has the name of a discovery tool; rename it, or register \
         it under ConflictPolicy::Namespace"
    )]
    Reserved {
        /// The tool's name.
        tool: String,
        /// The driver that has it.
        label: String,
    },
    /// Only [`ConflictPolicy::ActiveTarget`] has an active target.
    #[error("this orchestrator has no active target (its policy is not ActiveTarget)")]
    NoActiveTarget,
}
