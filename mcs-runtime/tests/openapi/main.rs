//! The OpenAPI reader (`mcs_runtime::openapi`): rules pinned on small documents, real
//! documents, and robustness on mutated ones.
#![cfg(feature = "openapi")]

mod specs;
