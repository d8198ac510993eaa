//! Turning what a tool method returns into a tool result.
//!
//! A method returns `T: Serialize` or `Result<T, E>`. The error type decides how much of it
//! survives: a [`ToolError`] passes through as it is, a `std::error::Error` (or a
//! [`BoxError`]) is kept as the failure's source, anything else `Display` is kept as text.
//! Generated code picks the right conversion at compile time by autoref specialization:
//! `(&&&ErrorWrap(&error)).mcs_error_kind().into_tool_error(tool, error)`; and a result that
//! already is a [`Value`] is moved rather than serialized again, by the same device
//! (`OutputWrap`).

use std::error::Error as StdError;
use std::fmt::Display;

use serde::Serialize;
use serde_json::Value;

use crate::error::{BoxError, ToolError};

/// A successful return value as a tool result.
pub fn to_output<T: Serialize + ?Sized>(tool: &str, value: &T) -> Result<Value, ToolError> {
    serde_json::to_value(value).map_err(|error| {
        ToolError::execution(
            tool,
            format!("the result could not be turned into JSON: {error}"),
        )
    })
}

/// A reference to a tool's successful return value, probed for the cheapest conversion:
/// `(&&OutputWrap(&out)).mcs_output_kind().into_output(tool, out)`.
pub struct OutputWrap<'o, T: ?Sized>(pub &'o T);

/// The value already is a [`Value`]: it becomes the result as it is. Serializing it would
/// rebuild every map and string of it (for a small object, about as much work as parsing
/// it from text).
pub struct Moved;
/// Anything else: serialized with [`to_output`].
pub struct Serialized;

/// Probe for [`Moved`] (tried first).
pub trait MovedKind {
    /// The conversion to use.
    fn mcs_output_kind(&self) -> Moved {
        Moved
    }
}
impl MovedKind for &OutputWrap<'_, Value> {}

/// Probe for [`Serialized`] (tried last). No bound here, so that a type without
/// `Serialize` is reported by [`Serialized::into_output`], on the tool's return type.
pub trait SerializedKind {
    /// The conversion to use.
    fn mcs_output_kind(&self) -> Serialized {
        Serialized
    }
}
impl<T: ?Sized> SerializedKind for OutputWrap<'_, T> {}

impl Moved {
    /// The value itself.
    #[inline]
    pub fn into_output(self, _tool: &str, value: Value) -> Result<Value, ToolError> {
        Ok(value)
    }
}

impl Serialized {
    /// The value serialized into a [`Value`].
    #[inline]
    pub fn into_output<T: Serialize>(self, tool: &str, value: T) -> Result<Value, ToolError> {
        to_output(tool, &value)
    }
}

/// A reference to a tool's error, probed for the most faithful conversion.
pub struct ErrorWrap<'e, E: ?Sized>(pub &'e E);

/// The error already is a [`ToolError`].
pub struct AsIs;
/// The error is a boxed error: it becomes the failure's source.
pub struct Boxed;
/// The error is a `std::error::Error`: it becomes the failure's source.
pub struct Source;
/// The error only has `Display`: its text becomes the failure's message.
pub struct Message;

/// Probe for [`AsIs`] (tried first).
pub trait AsIsKind {
    /// The conversion to use.
    fn mcs_error_kind(&self) -> AsIs {
        AsIs
    }
}
impl AsIsKind for &&ErrorWrap<'_, ToolError> {}

/// Probe for [`Boxed`] (tried first, as boxed errors are not `std::error::Error`).
pub trait BoxedKind {
    /// The conversion to use.
    fn mcs_error_kind(&self) -> Boxed {
        Boxed
    }
}
impl BoxedKind for &&ErrorWrap<'_, BoxError> {}

/// Probe for [`Source`] (tried second).
pub trait SourceKind {
    /// The conversion to use.
    fn mcs_error_kind(&self) -> Source {
        Source
    }
}
impl<E: StdError + Send + Sync + 'static> SourceKind for &ErrorWrap<'_, E> {}

/// Probe for [`Message`] (tried last).
pub trait MessageKind {
    /// The conversion to use.
    fn mcs_error_kind(&self) -> Message {
        Message
    }
}
impl<E: Display + ?Sized> MessageKind for ErrorWrap<'_, E> {}

impl AsIs {
    /// Passes the error through.
    pub fn into_tool_error(self, _tool: &str, error: ToolError) -> ToolError {
        error
    }
}

impl Boxed {
    /// Keeps the error as the source.
    pub fn into_tool_error(self, tool: &str, error: BoxError) -> ToolError {
        ToolError::execution_source(tool, error)
    }
}

impl Source {
    /// Keeps the error as the source.
    pub fn into_tool_error<E: StdError + Send + Sync + 'static>(
        self,
        tool: &str,
        error: E,
    ) -> ToolError {
        ToolError::execution_source(tool, error)
    }
}

impl Message {
    /// Keeps the error's text (the alternate form, which error-chain types such as
    /// `anyhow::Error` use to print their causes).
    pub fn into_tool_error<E: Display>(self, tool: &str, error: E) -> ToolError {
        ToolError::execution(tool, format!("{error:#}"))
    }
}

/// The last resort of the probe, for an error type that is not even `Display`: reached by
/// `&mut` autoref after the probes above, so it is never chosen for a type they accept. It
/// exists for the diagnostic: without it the probe fails to resolve and rustc reports a
/// method `mcs_error_kind` missing on `&&&ErrorWrap<..>`; with it, the user reads that their
/// error type needs `Display`, on that type.
pub trait UnusableKind {
    /// The conversion that does not compile.
    fn mcs_error_kind(&mut self) -> Unusable {
        Unusable
    }
}
impl<E: ?Sized> UnusableKind for ErrorWrap<'_, E> {}

/// The error type implements none of what a tool error needs.
pub struct Unusable;

/// What the error type of a tool must be; only `Display` is missing when this is unmet.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the error type of a tool: it does not implement `Display`",
    label = "the error type of this tool",
    note = "a tool may fail with an `mcs::ToolError`, a `std::error::Error` or anything \
            `Display`: implement `Display` (or derive `std::error::Error`, with thiserror for \
            instance) for `{Self}`"
)]
pub trait ToolErrorType {}
impl<E: Display + ?Sized> ToolErrorType for E {}

impl Unusable {
    /// Never compiles for a type that reaches it: `E` lacks `Display`.
    pub fn into_tool_error<E: ToolErrorType>(self, tool: &str, error: E) -> ToolError {
        // Unreachable: a `Display` error type is taken by `MessageKind` first.
        let _ = error;
        ToolError::execution(tool, "the tool failed")
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    #[allow(clippy::needless_borrow)] // written as the generated code writes the probe
    fn a_value_is_moved_and_anything_else_serialized() {
        let value = json!({"city": "Paris", "temp": 21});
        // The probes resolve as generated code resolves them; the annotations pin the kind.
        let kind: Moved = (&&OutputWrap(&value)).mcs_output_kind();
        assert_eq!(kind.into_output("t", value.clone()).ok(), Some(value));

        let text = String::from("done");
        let kind: Serialized = (&&OutputWrap(&text)).mcs_output_kind();
        assert_eq!(kind.into_output("t", text).ok(), Some(json!("done")));
    }
}
