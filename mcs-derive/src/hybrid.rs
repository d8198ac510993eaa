//! `#[mcs::hybrid]`: the `Driver` side for a `#[mcs::tool_driver]` type. Options are read
//! (`attr`) and checked (`valid`; a prompt file is parsed at compile time, so a broken one is
//! a compile error on its path); everything that runs is `mcs::hybrid` in the runtime.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::ItemImpl;

use crate::attr::HybridAttrs;
use crate::errors::Errors;
use crate::{expand, valid};

pub(crate) fn expand(args: TokenStream, input: TokenStream) -> TokenStream {
    let mut errors = Errors::new();
    let attrs = HybridAttrs::parse(args, &mut errors);
    let item: ItemImpl = match syn::parse2(input.clone()) {
        Ok(item) => item,
        Err(_) => {
            let mut out = syn::Error::new(
                proc_macro2::Span::call_site(),
                "#[mcs::hybrid] goes on the impl block that has #[mcs::tool_driver]",
            )
            .into_compile_error();
            out.extend(input);
            return out;
        }
    };
    valid::check_hybrid(&attrs, &mut errors);
    match errors.into_result() {
        Some(error) => {
            let mut out = error.into_compile_error();
            out.extend(item.into_token_stream());
            out
        }
        None => expand::hybrid(&item, &attrs, &expand::crate_path(attrs.krate.as_ref())),
    }
}
