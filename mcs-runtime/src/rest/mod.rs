//! Drivers over HTTP APIs: an API described as table rows ([`Api`], [`Operation`]), the
//! requests built from a call's arguments, and the [`HttpTransport`] that sends them.
//!
//! `mcs-codegen` writes the rows of an OpenAPI document as `static` data;
//! [`crate::openapi`] reads the same rows at run time. Both are executed here, so every fix
//! lands once for generated and loaded drivers alike.

mod table;

pub use table::{
    Api, BodyArgument, BodyEncoding, List, Location, Method, Operation, Parameter, RequestBody,
    SchemeKind, SecurityRequirement, SecurityScheme, Server, ServerVariable, Style, Text,
};
