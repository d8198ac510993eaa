//! Procedural macros of [mcs](https://docs.rs/mcs). Use them through the `mcs` crate:
//! `#[mcs::tool_driver]`, `#[mcs::hybrid]`.
//!
//! Each macro reads its attribute (`attr`) and the impl block (`ast`), checks every rule
//! (`valid`, collecting all errors) and generates code (`expand`) that calls into the
//! runtime through `::mcs::__private`; `tool_driver` and `hybrid` run those steps.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod ast;
mod attr;
mod docs;
mod errors;
mod expand;
mod hybrid;
mod tool_driver;
mod valid;

use proc_macro::TokenStream;

/// Turns an inherent `impl` block into an MCS `ToolDriver`: each method marked `#[tool]`
/// becomes a tool. See the `mcs` crate's documentation for the full description.
#[proc_macro_attribute]
pub fn tool_driver(args: TokenStream, input: TokenStream) -> TokenStream {
    tool_driver::expand(args.into(), input.into()).into()
}

/// Adds the `Driver` side (prompts, `process_llm_response`) to a `#[mcs::tool_driver]`
/// type. Goes on the same impl block. See the `mcs` crate's documentation.
#[proc_macro_attribute]
pub fn hybrid(args: TokenStream, input: TokenStream) -> TokenStream {
    hybrid::expand(args.into(), input.into()).into()
}

/// Marks a method of a `#[mcs::tool_driver]` impl block as a tool. On its own, outside such
/// a block, it is an error.
#[proc_macro_attribute]
pub fn tool(_args: TokenStream, input: TokenStream) -> TokenStream {
    valid::tool_outside_driver(input.into()).into()
}
