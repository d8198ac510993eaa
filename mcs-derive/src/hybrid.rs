//! `#[mcs::hybrid]`: the `Driver` side for a `#[mcs::tool_driver]` type. Options are read
//! and checked here (a prompt file is parsed at compile time, so a broken one is a compile
//! error on its path); everything that runs is `mcs::hybrid` in the runtime.

use proc_macro2::TokenStream;
use quote::quote;
use syn::meta::ParseNestedMeta;
use syn::{ItemImpl, LitInt, LitStr, Path};

use crate::attr::{non_empty, set_once, unknown_key};
use crate::errors::Errors;

const KEYS: &[&str] = &[
    "system",
    "prompt_file",
    "unknown_tools",
    "compact_threshold",
    "crate",
];

/// `#[mcs::hybrid(system = "...", prompt_file = "...", unknown_tools = "...", ...)]`.
#[derive(Default)]
pub struct HybridAttrs {
    system: Option<LitStr>,
    prompt_file: Option<LitStr>,
    unknown_tools: Option<LitStr>,
    compact_threshold: Option<LitInt>,
    krate: Option<Path>,
    /// The prompt file's text, once read.
    prompt_text: Option<String>,
}

impl HybridAttrs {
    pub fn parse_meta(&mut self, meta: &ParseNestedMeta) -> syn::Result<()> {
        if meta.path.is_ident("system") {
            let value = non_empty(meta, "the system prompt must not be empty")?;
            set_once(&mut self.system, value, meta)
        } else if meta.path.is_ident("prompt_file") {
            let value = non_empty(meta, "`prompt_file` needs a path, relative to Cargo.toml")?;
            set_once(&mut self.prompt_file, value, meta)
        } else if meta.path.is_ident("unknown_tools") {
            let value: LitStr = meta.value()?.parse()?;
            if !matches!(value.value().as_str(), "pass_through" | "reject") {
                return Err(syn::Error::new(
                    value.span(),
                    "`unknown_tools` is \"pass_through\" (the default, as the standard requires) \
                     or \"reject\"",
                ));
            }
            set_once(&mut self.unknown_tools, value, meta)
        } else if meta.path.is_ident("compact_threshold") {
            let wrong =
                "`compact_threshold` takes a whole number of tools, e.g. `compact_threshold = 20`";
            let value: LitInt = meta
                .value()?
                .parse()
                .map_err(|e: syn::Error| syn::Error::new(e.span(), wrong))?;
            value
                .base10_parse::<usize>()
                .map_err(|_| syn::Error::new(value.span(), wrong))?;
            set_once(&mut self.compact_threshold, value, meta)
        } else if meta.path.is_ident("crate") {
            let value = non_empty(meta, "`crate` needs the path of the mcs crate")?;
            set_once(&mut self.krate, value.parse()?, meta)
        } else {
            Err(unknown_key(meta, "#[mcs::hybrid]", KEYS, ""))
        }
    }

    /// Reads and checks the prompt file, with the runtime's own parser.
    pub fn check(&mut self, errors: &mut Errors) {
        if let (Some(system), Some(file)) = (&self.system, &self.prompt_file) {
            let mut error = syn::Error::new(
                file.span(),
                "give either `system` or `prompt_file`: a prompt file sets the default prompt \
                 with its own `system` key",
            );
            error.combine(syn::Error::new(system.span(), "`system` is given here"));
            errors.push(error);
            return;
        }
        let Some(file) = &self.prompt_file else {
            return;
        };
        let Ok(dir) = std::env::var("CARGO_MANIFEST_DIR") else {
            errors.push(syn::Error::new(
                file.span(),
                "CARGO_MANIFEST_DIR is not set: build with cargo",
            ));
            return;
        };
        let path = std::path::Path::new(&dir).join(file.value());
        match std::fs::read_to_string(&path) {
            Err(error) => errors.push(syn::Error::new(
                file.span(),
                format!(
                    "cannot read the prompt file `{}` (paths are relative to the crate's \
                     Cargo.toml): {error}",
                    file.value()
                ),
            )),
            Ok(text) => {
                match mcs_runtime::prompt::Prompts::default().overridden_by(&text, &file.value()) {
                    Err(error) => errors.push(syn::Error::new(file.span(), error.to_string())),
                    Ok(_) => self.prompt_text = Some(text),
                }
            }
        }
    }
}

pub fn expand(item: &ItemImpl, attrs: &HybridAttrs) -> TokenStream {
    let krate = match &attrs.krate {
        Some(path) => quote!(#path),
        None => quote!(::mcs),
    };
    let self_ty = &item.self_ty;
    // Requiring `Self: ToolDriver` on the impls turns a missing #[mcs::tool_driver] into one
    // error on the attribute instead of one per use inside them.
    let mut generics = item.generics.clone();
    generics
        .make_where_clause()
        .predicates
        .push(syn::parse_quote_spanned!(proc_macro2::Span::call_site()=> #self_ty: #krate::__private::ToolDriver));
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let mut prompts = match &attrs.system {
        Some(system) => quote!(#krate::__private::Prompts::with_default(#system)),
        None => quote!(<#krate::__private::Prompts as ::core::default::Default>::default()),
    };
    if let (Some(file), Some(_)) = (&attrs.prompt_file, &attrs.prompt_text) {
        // include_str! makes cargo rebuild when the file changes, and the file was parsed
        // above, so parsing it again cannot fail; the defaults stand in if it ever did.
        prompts = quote! {{
            let __mcs_default = #prompts;
            #krate::__private::Prompts::overridden_by(
                ::core::clone::Clone::clone(&__mcs_default),
                ::core::include_str!(::core::concat!(::core::env!("CARGO_MANIFEST_DIR"), "/", #file)),
                #file,
            )
            .unwrap_or(__mcs_default)
        }};
    }
    if let Some(threshold) = &attrs.compact_threshold {
        prompts = quote!(#prompts.with_compact_threshold(#threshold));
    }
    let policy = match attrs.unknown_tools.as_ref().map(LitStr::value).as_deref() {
        Some("reject") => quote!(Reject),
        _ => quote!(PassThrough),
    };
    quote! {
        #item

        #[automatically_derived]
        impl #impl_generics #krate::__private::Driver for #self_ty #where_clause {
            fn meta(&self) -> &#krate::__private::DriverMeta {
                <Self as #krate::__private::ToolDriver>::meta(self)
            }

            fn get_function_description(
                &self,
                model: ::core::option::Option<&::core::primitive::str>,
            ) -> #krate::__private::String {
                #krate::__private::hybrid::function_description(self, model)
            }

            fn get_driver_system_message(
                &self,
                model: ::core::option::Option<&::core::primitive::str>,
            ) -> #krate::__private::String {
                #krate::__private::hybrid::system_message(self, Self::__mcs_hybrid_options(), model)
            }

            fn process_llm_response<'__mcs>(
                &'__mcs self,
                response: #krate::__private::LlmResponse<'__mcs>,
            ) -> #krate::__private::BoxFuture<'__mcs, #krate::__private::DriverResponse> {
                #krate::__private::Box::pin(#krate::__private::hybrid::process_llm_response(
                    self,
                    Self::__mcs_hybrid_options(),
                    response,
                ))
            }
        }

        #[automatically_derived]
        impl #impl_generics #self_ty #where_clause {
            /// How this driver talks to models, set up on first use.
            #[doc(hidden)]
            fn __mcs_hybrid_options() -> &'static #krate::__private::HybridOptions {
                static __MCS_HYBRID: #krate::__private::OnceLock<#krate::__private::HybridOptions> =
                    #krate::__private::OnceLock::new();
                __MCS_HYBRID.get_or_init(|| #krate::__private::HybridOptions {
                    prompts: #prompts,
                    unknown_tools: #krate::__private::UnknownToolPolicy::#policy,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs(args: &str) -> (HybridAttrs, Option<syn::Error>) {
        let mut attrs = HybridAttrs::default();
        let parser = syn::meta::parser(|meta| attrs.parse_meta(&meta));
        syn::parse::Parser::parse_str(parser, args).expect("the arguments parse");
        let mut errors = Errors::new();
        attrs.check(&mut errors);
        (attrs, errors.into_result())
    }

    #[test]
    fn a_broken_prompt_file_is_a_compile_error_that_names_the_problem() {
        let (_, error) = attrs(r#"prompt_file = "tests/fixtures/broken_prompts.toml""#);
        let message = error.expect("the file is rejected").to_string();
        assert!(
            message.starts_with("prompt file tests/fixtures/broken_prompts.toml:"),
            "{message}"
        );
        assert!(message.contains("sytem"), "{message}");
    }

    #[test]
    fn a_good_prompt_file_is_read() {
        let (attrs, error) = attrs(r#"prompt_file = "../tests/prompts/todo.toml""#);
        assert!(error.is_none(), "{error:?}");
        assert!(
            attrs
                .prompt_text
                .is_some_and(|text| text.contains("[[variant]]"))
        );
    }
}
