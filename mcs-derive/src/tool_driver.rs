//! `#[mcs::tool_driver]`: read (`attr`, `ast`), check (`valid`), then generate (`expand`),
//! or, on any error, report them all with a stub impl so that the uses of the driver add
//! no errors of their own.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::ItemImpl;

use crate::attr::{DriverAttrs, Ours};
use crate::errors::Errors;
use crate::{ast, expand, valid};

pub(crate) fn expand(args: TokenStream, input: TokenStream) -> TokenStream {
    let mut errors = Errors::new();
    let attrs = DriverAttrs::parse(args, &mut errors);
    let mut item = match impl_block(input) {
        Ok(item) => item,
        Err((mut error, item)) => {
            if let Some(attr_errors) = errors.into_result() {
                error.combine(attr_errors);
            }
            let mut out = error.into_compile_error();
            out.extend(item);
            return out;
        }
    };
    let ours = Ours {
        krate: attrs.krate.as_ref(),
    };
    let block = ast::parse(&mut item, &ours, &mut errors);
    valid::check(&item, &block, &mut errors);
    valid::check_driver_attrs(&attrs, &block.tools, &mut errors);
    let krate = expand::crate_path(attrs.krate.as_ref());
    match errors.into_result() {
        Some(error) => {
            let mut out = error.into_compile_error();
            out.extend(expand::stub(&item, &krate));
            out
        }
        None => expand::Expansion {
            item: &item,
            attrs: &attrs,
            tools: &block.tools,
            krate: &krate,
        }
        .expand(),
    }
}

/// The impl block the attribute is on; else the error, and the item to emit again so that
/// its uses do not add errors of their own.
fn impl_block(input: TokenStream) -> Result<ItemImpl, (syn::Error, Option<TokenStream>)> {
    match syn::parse2(input) {
        Ok(syn::Item::Impl(item)) => Ok(item),
        Ok(item) => Err((valid::misplaced(&item), Some(item.into_token_stream()))),
        Err(error) => Err((
            syn::Error::new(
                error.span(),
                "#[mcs::tool_driver] goes on an impl block: `impl MyDriver { ... }`",
            ),
            None,
        )),
    }
}
