//! The OpenAPI reader (`mcs_openapi`): rules pinned on small documents, real
//! documents, and robustness on mutated ones.

mod bodies;
mod errors;
mod media_types;
mod operations;
mod robustness;
mod schemas;
mod security;
mod specs;
mod swagger;

use mcs_openapi::{Document, OpenApiError, ReadOptions, read_str};
use mcs_rest::{Api, Operation};
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

/// The operation named `name`, with the API it belongs to.
pub fn op<'d>(document: &'d Document, name: &str) -> Op<'d> {
    let operation = document
        .api
        .operations
        .iter()
        .find(|o| o.name == name)
        .unwrap_or_else(|| panic!("no operation {name}"));
    Op {
        api: &document.api,
        operation,
    }
}

/// An operation and its API (whose shared definitions its schema refers to).
#[derive(Clone, Copy)]
pub struct Op<'d> {
    /// The API.
    pub api: &'d Api,
    /// The operation.
    pub operation: &'d Operation,
}

impl std::ops::Deref for Op<'_> {
    type Target = Operation;

    fn deref(&self) -> &Operation {
        self.operation
    }
}

/// The arguments schema of `operation`, self-contained (as a model sees it).
pub fn schema(operation: Op<'_>) -> Value {
    operation.api.arguments_schema(operation.operation)
}
