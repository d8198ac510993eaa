//! What became of each call a driver took: read by the response builder and the messages.

use serde_json::Value;

use mcs_core::ToolCallRecord;
use mcs_core::ToolError;

/// What became of one call this driver took.
#[derive(Debug)]
pub(super) struct Outcome {
    pub name: String,
    pub arguments: Value,
    pub id: Option<String>,
    pub result: Result<Value, Failure>,
}

impl Outcome {
    /// The record of it, as `executed_calls` lists it.
    pub(super) fn to_record(&self) -> ToolCallRecord {
        let (result, error) = match &self.result {
            Ok(value) => (Some(value.clone()), None),
            Err(failure) => (None, Some(failure.text())),
        };
        ToolCallRecord {
            name: self.name.clone(),
            arguments: self.arguments.clone(),
            result,
            error,
            tool_call_id: self.id.clone(),
        }
    }
}

/// Why a call this driver took produced no result.
#[derive(Debug)]
pub(super) enum Failure {
    /// Recognisably a call, but unreadable.
    Unreadable(String),
    /// The tool does not exist here (only under [`UnknownToolPolicy::Reject`]).
    Unknown(ToolError),
    /// The arguments do not fit the tool's schema.
    Invalid(ToolError),
    /// The tool ran and failed.
    Failed(ToolError),
}

impl Failure {
    pub(super) fn text(&self) -> String {
        match self {
            Failure::Unreadable(detail) => detail.clone(),
            Failure::Unknown(error) | Failure::Invalid(error) | Failure::Failed(error) => {
                error.to_string()
            }
        }
    }
}
