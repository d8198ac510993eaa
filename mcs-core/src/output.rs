//! Turning what a tool method returns into a tool result.
//!
//! A method returns `T: Serialize` or `Result<T, E>`. The error type decides how much of it
//! survives: a [`ToolError`] passes through as it is, a `std::error::Error` (or a
//! [`BoxError`]) is kept as the failure's source, anything else `Display` is kept as text.
//! A result that already is a [`Value`] is moved rather than serialized again.
//!
//! # Why probes: autoref specialization
//!
//! `#[mcs::tool_driver]` sees tokens, not types: from `Result<Report, MyError>` (or an alias
//! such as `io::Result<u32>`) it cannot tell whether `MyError` is a `ToolError` or implements
//! `std::error::Error`, and stable Rust has no specialization to pick an impl by what a type
//! implements. Method resolution does the choosing instead. The generated code calls a
//! method on a wrapper behind several references; rustc tries the receiver as written,
//! then with one reference fewer, and so on, and takes the first *depth* at which a trait
//! in scope has a matching impl. Each conversion is a probe trait implemented at its own
//! depth, the most faithful at the deepest, so the best conversion whose bounds hold wins:
//!
//! ```text
//! (&&OutputWrap(&out)).mcs_output_kind().into_output(tool, out)
//! (&&&ErrorWrap(&error)).mcs_error_kind().into_tool_error(tool, error)
//! ```
//!
//! | receiver tried          | probe trait (impl'd for)                               | conversion           | chosen when                                   |
//! |-------------------------|--------------------------------------------------------|----------------------|-----------------------------------------------|
//! | `&&OutputWrap<T>`       | [`ValueAlreadyProbe`] (`&OutputWrap<Value>`)           | [`ValueAlready`]     | `T` is [`Value`]: moved as it is              |
//! | `&OutputWrap<T>`        | [`AnySerializeProbe`] (`OutputWrap<T>`)                | [`AnySerialize`]     | any other `T`, which must be `Serialize`      |
//! | `&&&ErrorWrap<E>`       | [`ToolErrorAlreadyProbe`] (`&&ErrorWrap<ToolError>`)   | [`ToolErrorAlready`] | `E` is [`ToolError`]: passed through          |
//! | `&&&ErrorWrap<E>`       | [`BoxedErrorProbe`] (`&&ErrorWrap<BoxError>`)          | [`BoxedError`]       | `E` is [`BoxError`]: kept as the source       |
//! | `&&ErrorWrap<E>`        | [`AnyStdErrorProbe`] (`&ErrorWrap<E>`)                 | [`AnyStdError`]      | `E: std::error::Error + Send + Sync + 'static` |
//! | `&ErrorWrap<E>`         | [`AnyDisplayProbe`] (`ErrorWrap<E>`)                   | [`AnyDisplay`]       | `E: Display` only: its text is kept           |
//! | `&mut ErrorWrap<E>`     | [`NotDisplayProbe`] (`ErrorWrap<E>`, `&mut self`)      | [`NotDisplay`]       | none of the above: a compile error, on `E`    |
//!
//! (A probe trait's method takes `&self`, so an impl for `&&ErrorWrap<..>` answers the
//! receiver `&&&ErrorWrap<..>`.) `ToolError` and `BoxError` share a depth because no type is
//! both; `BoxError` needs its own probe because `Box<dyn Error>` does not implement `Error`.
//!
//! What must stay in step:
//! - the number of `&` written in `mcs-derive/src/expand.rs` (`convert`) is the depth of the
//!   first row of each table: adding a probe above it means writing one more `&` there;
//! - the generated code imports every probe trait (`use ...::ValueAlreadyProbe as _`), as
//!   method resolution only sees traits in scope; a probe left out is silently skipped;
//! - the last resort of each table has no bound, and the conversion it picks carries the
//!   bound instead ([`AnySerialize::into_output`], [`NotDisplay::into_tool_error`]), so that
//!   a type without it is reported on the tool's return type, with a message that says
//!   what is missing, rather than as a method missing on a wrapper.
//!
//! The choice happens where the types are concrete, in the generated method body; it does
//! not work through a generic parameter, which is one reason tool methods cannot be generic.

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
pub struct ValueAlready;
/// Anything else: serialized with [`to_output`].
pub struct AnySerialize;

/// Probe for [`ValueAlready`]: implemented at the written depth (`&&OutputWrap`), so
/// tried first.
pub trait ValueAlreadyProbe {
    /// The conversion to use.
    fn mcs_output_kind(&self) -> ValueAlready {
        ValueAlready
    }
}
impl ValueAlreadyProbe for &OutputWrap<'_, Value> {}

/// Probe for [`AnySerialize`]: one reference fewer (`&OutputWrap`), tried last. No bound here, so that a type without
/// `Serialize` is reported by [`AnySerialize::into_output`], on the tool's return type.
pub trait AnySerializeProbe {
    /// The conversion to use.
    fn mcs_output_kind(&self) -> AnySerialize {
        AnySerialize
    }
}
impl<T: ?Sized> AnySerializeProbe for OutputWrap<'_, T> {}

impl ValueAlready {
    /// The value itself.
    #[inline]
    pub fn into_output(self, _tool: &str, value: Value) -> Result<Value, ToolError> {
        Ok(value)
    }
}

impl AnySerialize {
    /// The value serialized into a [`Value`].
    #[inline]
    pub fn into_output<T: Serialize>(self, tool: &str, value: T) -> Result<Value, ToolError> {
        to_output(tool, &value)
    }
}

/// A reference to a tool's error, probed for the most faithful conversion.
pub struct ErrorWrap<'e, E: ?Sized>(pub &'e E);

/// The error already is a [`ToolError`].
pub struct ToolErrorAlready;
/// The error is a boxed error: it becomes the failure's source.
pub struct BoxedError;
/// The error is a `std::error::Error`: it becomes the failure's source.
pub struct AnyStdError;
/// The error only has `Display`: its text becomes the failure's message.
pub struct AnyDisplay;

/// Probe for [`ToolErrorAlready`]: implemented at the written depth (`&&&ErrorWrap`), so
/// tried first.
pub trait ToolErrorAlreadyProbe {
    /// The conversion to use.
    fn mcs_error_kind(&self) -> ToolErrorAlready {
        ToolErrorAlready
    }
}
impl ToolErrorAlreadyProbe for &&ErrorWrap<'_, ToolError> {}

/// Probe for [`BoxedError`], at the same depth as [`ToolErrorAlreadyProbe`] (no type is
/// both). Needed because a boxed error is not itself a `std::error::Error`.
pub trait BoxedErrorProbe {
    /// The conversion to use.
    fn mcs_error_kind(&self) -> BoxedError {
        BoxedError
    }
}
impl BoxedErrorProbe for &&ErrorWrap<'_, BoxError> {}

/// Probe for [`AnyStdError`]: one reference fewer (`&&ErrorWrap`), tried second.
pub trait AnyStdErrorProbe {
    /// The conversion to use.
    fn mcs_error_kind(&self) -> AnyStdError {
        AnyStdError
    }
}
impl<E: StdError + Send + Sync + 'static> AnyStdErrorProbe for &ErrorWrap<'_, E> {}

/// Probe for [`AnyDisplay`]: two references fewer (`&ErrorWrap`), tried third.
pub trait AnyDisplayProbe {
    /// The conversion to use.
    fn mcs_error_kind(&self) -> AnyDisplay {
        AnyDisplay
    }
}
impl<E: Display + ?Sized> AnyDisplayProbe for ErrorWrap<'_, E> {}

impl ToolErrorAlready {
    /// Passes the error through.
    pub fn into_tool_error(self, _tool: &str, error: ToolError) -> ToolError {
        error
    }
}

impl BoxedError {
    /// Keeps the error as the source.
    pub fn into_tool_error(self, tool: &str, error: BoxError) -> ToolError {
        ToolError::execution_source(tool, error)
    }
}

impl AnyStdError {
    /// Keeps the error as the source.
    pub fn into_tool_error<E: StdError + Send + Sync + 'static>(
        self,
        tool: &str,
        error: E,
    ) -> ToolError {
        ToolError::execution_source(tool, error)
    }
}

impl AnyDisplay {
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
pub trait NotDisplayProbe {
    /// The conversion that does not compile.
    fn mcs_error_kind(&mut self) -> NotDisplay {
        NotDisplay
    }
}
impl<E: ?Sized> NotDisplayProbe for ErrorWrap<'_, E> {}

/// The error type implements none of what a tool error needs.
pub struct NotDisplay;

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

impl NotDisplay {
    /// Never compiles for a type that reaches it: `E` lacks `Display`.
    pub fn into_tool_error<E: ToolErrorType>(self, tool: &str, error: E) -> ToolError {
        // Unreachable: a `Display` error type is taken by `AnyDisplayProbe` first.
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
        let kind: ValueAlready = (&&OutputWrap(&value)).mcs_output_kind();
        assert_eq!(kind.into_output("t", value.clone()).ok(), Some(value));

        let text = String::from("done");
        let kind: AnySerialize = (&&OutputWrap(&text)).mcs_output_kind();
        assert_eq!(kind.into_output("t", text).ok(), Some(json!("done")));
    }

    #[test]
    #[allow(clippy::needless_borrow)] // written as the generated code writes the probe
    fn each_error_type_gets_the_conversion_of_its_row() {
        #[derive(Debug)]
        struct Io;
        impl Display for Io {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("disk full")
            }
        }
        impl StdError for Io {}

        // The annotations pin the row of the table in the module docs.
        let error = ToolError::execution("t", "no");
        let _: ToolErrorAlready = (&&&ErrorWrap(&error)).mcs_error_kind();
        let boxed: BoxError = Box::new(Io);
        let _: BoxedError = (&&&ErrorWrap(&boxed)).mcs_error_kind();
        let _: AnyStdError = (&&&ErrorWrap(&Io)).mcs_error_kind();
        let text = String::from("no");
        let _: AnyDisplay = (&&&ErrorWrap(&text)).mcs_error_kind();
    }
}
