//! The OpenAPI reader (`mcs_openapi`): rules pinned on small documents, real
//! documents, and robustness on mutated ones.

mod bodies;
mod errors;
mod operations;
mod robustness;
mod schemas;
mod security;
mod specs;
mod swagger;

use mcs_openapi::{Document, OpenApiError, ReadOptions, read_str};
use mcs_rest::Operation;
use serde_json::Value;

/// Reads a YAML document strictly.
pub fn read(yaml: &str) -> Document {
    read_with(yaml, &ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// Reads a YAML document with `options`.
pub fn read_with(yaml: &str, options: &ReadOptions) -> Result<Document, OpenApiError> {
    read_str(yaml, "test.yaml", None, options)
}

/// A document with the given `paths` (indented YAML under `paths:`), and `extra` top-level
/// YAML after it.
pub fn doc(paths: &str, extra: &str) -> String {
    format!("openapi: 3.0.3\ninfo:\n  title: Test API\n  version: '1'\npaths:\n{paths}\n{extra}")
}

/// The operation named `name`.
pub fn op<'d>(document: &'d Document, name: &str) -> &'d Operation {
    document
        .api
        .operations
        .iter()
        .find(|o| o.name == name)
        .unwrap_or_else(|| panic!("no operation {name}"))
}

/// The parsed arguments schema of `operation`.
pub fn schema(operation: &Operation) -> Value {
    serde_json::from_str(&operation.schema).expect("schema is JSON")
}
