//! OpenAPI documents read into [`crate::rest`] table rows.
