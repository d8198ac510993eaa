//! Procedural macros of [mcs](https://docs.rs/mcs). Use them through the `mcs` crate:
//! `#[mcs::tool_driver]`.

mod ast;
mod attr;
mod docs;
mod errors;
mod expand;
mod hybrid;
mod valid;

use proc_macro::TokenStream;
use syn::ItemImpl;

use crate::errors::Errors;

/// Turns an inherent `impl` block into an MCS `ToolDriver`: each method marked `#[tool]`
/// becomes a tool. See the `mcs` crate's documentation for the full description.
#[proc_macro_attribute]
pub fn tool_driver(args: TokenStream, input: TokenStream) -> TokenStream {
    let mut attrs = attr::DriverAttrs::default();
    let mut errors = Errors::new();
    let parser = syn::meta::parser(|meta| attrs.parse_meta(&meta));
    if let Err(error) = syn::parse::Parser::parse(parser, args) {
        errors.push(error);
    }
    let mut item: ItemImpl = match syn::parse(input) {
        Ok(syn::Item::Impl(item)) => item,
        other => {
            let (mut error, item) = match other {
                // The item is kept, so that its uses do not add errors of their own.
                Ok(item) => (valid::misplaced(&item), Some(item)),
                Err(error) => (
                    syn::Error::new(
                        error.span(),
                        "#[mcs::tool_driver] goes on an impl block: `impl MyDriver { ... }`",
                    ),
                    None,
                ),
            };
            if let Some(attr_errors) = errors.into_result() {
                error.combine(attr_errors);
            }
            let mut out = error.into_compile_error();
            out.extend(item.map(quote::ToTokens::into_token_stream));
            return out.into();
        }
    };
    let ours = attr::Ours {
        krate: attrs.krate.as_ref(),
    };
    let tools = ast::parse(&mut item, &ours, &mut errors);
    valid::check(&item, &tools, &mut errors);
    let krate = expand::crate_path(&attrs);
    match errors.into_result() {
        Some(error) => {
            let mut out = error.into_compile_error();
            out.extend(expand::stub(&item, &krate));
            out.into()
        }
        None => expand::Expansion {
            item: &item,
            attrs: &attrs,
            tools: &tools,
        }
        .expand()
        .into(),
    }
}

/// Adds the `Driver` side (prompts, `process_llm_response`) to a `#[mcs::tool_driver]`
/// type. Goes on the same impl block. See the `mcs` crate's documentation.
#[proc_macro_attribute]
pub fn hybrid(args: TokenStream, input: TokenStream) -> TokenStream {
    let mut attrs = hybrid::HybridAttrs::default();
    let mut errors = Errors::new();
    let parser = syn::meta::parser(|meta| attrs.parse_meta(&meta));
    if let Err(error) = syn::parse::Parser::parse(parser, args) {
        errors.push(error);
    }
    let item: ItemImpl = match syn::parse(input.clone()) {
        Ok(item) => item,
        Err(_) => {
            let mut out = syn::Error::new(
                proc_macro2::Span::call_site(),
                "#[mcs::hybrid] goes on the impl block that has #[mcs::tool_driver]",
            )
            .into_compile_error();
            out.extend(proc_macro2::TokenStream::from(input));
            return out.into();
        }
    };
    attrs.check(&mut errors);
    match errors.into_result() {
        Some(error) => {
            let mut out = error.into_compile_error();
            out.extend(quote::ToTokens::into_token_stream(item));
            out.into()
        }
        None => hybrid::expand(&item, &attrs).into(),
    }
}

/// Marks a method of a `#[mcs::tool_driver]` impl block as a tool. On its own, outside such
/// a block, it is an error.
#[proc_macro_attribute]
pub fn tool(_args: TokenStream, input: TokenStream) -> TokenStream {
    let mut out: proc_macro2::TokenStream = syn::Error::new(
        proc_macro2::Span::call_site(),
        "#[tool] only works on methods inside an impl block marked #[mcs::tool_driver]; \
         add #[mcs::tool_driver] to the impl block",
    )
    .into_compile_error();
    out.extend(proc_macro2::TokenStream::from(input));
    out.into()
}
