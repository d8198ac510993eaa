//! What the conformance tests share: arguments built from schemas, and Prism.
#![allow(dead_code)]

pub mod arguments;
pub mod prism;
