//! OpenAPI → mcs ToolDriver generator, used from `build.rs`.
//!
//! This crate is reserved for the code generator: it turns vendored OpenAPI documents into
//! typed, static `ToolDriver`s at compile time. It exposes nothing yet.
