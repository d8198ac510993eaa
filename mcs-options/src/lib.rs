//! The option formats of [mcs](https://docs.rs/mcs) that are read in two places: by the
//! runtime when a program runs, and by `#[mcs::hybrid]` when the user's crate compiles.
//!
//! Keeping them here, rather than in `mcs-hybrid`, lets the macro check a prompt file or an
//! `unknown_tools = "..."` value with exactly the code the runtime uses, without compiling
//! the whole runtime (schemars, serde_json, aho-corasick, ...) for the host.
//!
//! Users reach these types through `mcs` (`mcs::prompt`, `mcs::hybrid::UnknownToolPolicy`);
//! depending on this crate directly is not needed.

mod policy;
mod prompt_file;

pub use policy::{ParsePolicyError, UnknownToolPolicy};
pub use prompt_file::{InvalidPromptFile, PromptFile, VariantFile};
