//! JSON Schema post-processing: what generators emit, turned into what models and
//! providers accept.
//!
//! Schemas handed out by mcs are object-rooted and self-contained: references are inlined
//! (only recursive types keep `$ref`, with their definitions carried along), generator
//! noise such as `$schema` and `title` is dropped, and enums list their values.
//!
//! The layer has four parts, each usable alone: [`normalize`] makes schemas
//! self-contained, [`schema_at`] and its kin find their way inside one, [`describe`] and
//! its kin put schemas and values in words for error messages, and [`coerce`] reads a text
//! as the value a schema expects.
//!
//! The layer builds on the data model and the data model does not call into it: how a
//! [`ToolParameter`]'s schema reads to a model (its description merged in, the object
//! schema of a tool's parameters) is defined with the parameter.
//!
//! [`ToolParameter`]: crate::ToolParameter

mod coerce;
mod describe;
mod navigate;
mod normalize;

pub(crate) use crate::types::merge_description;
pub use coerce::{CoercionPolicy, TextReading, coerce, coerce_value};
pub use describe::describe;
pub(crate) use describe::describe_in;
// How values are named in error messages; the sibling crates word their errors alike.
#[doc(hidden)]
pub use describe::{describe_received, json_type, kind_of, render_value};
pub use navigate::{PathSegment, schema_at};
pub use normalize::normalize;

#[doc(hidden)]
pub use coerce::coerce_repairing;
pub(crate) use navigate::{definition, definition_name, join_path, only_value, referenced};
