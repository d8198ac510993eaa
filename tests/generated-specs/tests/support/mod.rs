//! What the conformance tests share: arguments built from schemas, and Prism.
#![allow(dead_code)]

pub(crate) mod arguments;
pub(crate) mod prism;
