//! The generated code: a `ToolDriver` impl whose `execute_tool` is one `match` on the tool
//! name, and the tool table it reads, built once. All logic lives in the runtime; what is
//! emitted here only names types and calls into `::mcs::__private`.

use proc_macro2::Ident;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::ItemImpl;
use syn::spanned::Spanned;

use crate::ast::{Output, ParamKind, ToolMethod};
use crate::attr::DriverAttrs;

pub struct Expansion<'a> {
    pub item: &'a ItemImpl,
    pub attrs: &'a DriverAttrs,
    pub tools: &'a [ToolMethod],
}

/// The `mcs` crate's path in generated code.
pub fn crate_path(attrs: &DriverAttrs) -> TokenStream {
    match &attrs.krate {
        Some(path) => quote!(#path),
        None => quote!(::mcs),
    }
}

impl Expansion<'_> {
    pub fn expand(&self) -> TokenStream {
        let krate = crate_path(self.attrs);
        let item = self.item;
        let self_ty = &item.self_ty;
        let (impl_generics, _, where_clause) = item.generics.split_for_impl();
        let meta = self.meta(&krate);
        let table = self.table(&krate);
        let arms = self
            .tools
            .iter()
            .enumerate()
            .map(|(index, tool)| arm(&krate, index, tool));
        quote! {
            #item

            #[automatically_derived]
            impl #impl_generics #krate::__private::ToolDriver for #self_ty #where_clause {
                fn meta(&self) -> &#krate::__private::DriverMeta {
                    static __MCS_META: #krate::__private::OnceLock<#krate::__private::DriverMeta> =
                        #krate::__private::OnceLock::new();
                    __MCS_META.get_or_init(|| #meta)
                }

                fn list_tools(&self) -> #krate::__private::Arc<[#krate::__private::Tool]> {
                    Self::__mcs_tool_set().tools()
                }

                fn execute_tool<'__mcs>(
                    &'__mcs self,
                    __mcs_name: &'__mcs ::core::primitive::str,
                    __mcs_arguments: #krate::__private::Value,
                ) -> #krate::__private::ToolFuture<'__mcs> {
                    let __mcs_set = Self::__mcs_tool_set();
                    match __mcs_name {
                        #(#arms)*
                        _ => #krate::__private::ToolFuture::ready(
                            ::core::result::Result::Err(__mcs_set.unknown_tool(__mcs_name)),
                        ),
                    }
                }
            }

            #[automatically_derived]
            impl #impl_generics #self_ty #where_clause {
                /// The tool table, built on first use.
                #[doc(hidden)]
                fn __mcs_tool_set() -> &'static #krate::__private::ToolSet {
                    static __MCS_TOOLS: #krate::__private::OnceLock<#krate::__private::ToolSet> =
                        #krate::__private::OnceLock::new();
                    __MCS_TOOLS.get_or_init(|| #table)
                }
            }
        }
    }

    fn meta(&self, krate: &TokenStream) -> TokenStream {
        let type_name = type_name(&self.item.self_ty);
        let string = |lit: &Option<syn::LitStr>, default: TokenStream| match lit {
            Some(lit) => quote!(#lit),
            None => default,
        };
        let name = string(&self.attrs.name, quote!(#type_name));
        let id = string(
            &self.attrs.id,
            quote!(::core::concat!(::core::module_path!(), "::", #type_name)),
        );
        let version = string(
            &self.attrs.version,
            quote!(::core::env!("CARGO_PKG_VERSION")),
        );
        let capability = string(&self.attrs.capability, quote!("custom"));
        let adapter = string(&self.attrs.adapter, quote!("native"));
        let spec_format = match &self.attrs.spec_format {
            Some(lit) => {
                quote!(::core::option::Option::Some(#krate::__private::String::from(#lit)))
            }
            None => quote!(::core::option::Option::None),
        };
        quote! {{
            let mut __mcs_binding = #krate::__private::Binding::new(#capability, #adapter);
            __mcs_binding.spec_format = #spec_format;
            #krate::__private::DriverMeta::new(#id, #name, #version).with_binding(__mcs_binding)
        }}
    }

    fn table(&self, krate: &TokenStream) -> TokenStream {
        let defs = self.tools.iter().map(|tool| {
            let name = &tool.name;
            let title = optional_str(tool.title.as_deref());
            let description = optional_str(tool.description.as_deref());
            let params = tool.params.iter().map(|param| {
                let name = &param.name;
                let description = optional_str(param.description.as_deref());
                let kind = match param.kind {
                    ParamKind::Required => quote!(Required),
                    ParamKind::Optional | ParamKind::Default => quote!(Optional),
                    ParamKind::Flatten => quote!(Flatten),
                };
                let ty = &param.ty;
                let schema = quote_spanned!(ty.span()=> #krate::__private::schema_for::<#ty>);
                quote! {
                    #krate::__private::ParamDef {
                        name: #name,
                        description: #description,
                        kind: #krate::__private::ParamKind::#kind,
                        schema: #schema,
                    }
                }
            });
            quote! {
                #krate::__private::ToolDef {
                    name: #name,
                    title: #title,
                    description: #description,
                    params: const { &[#(#params),*] },
                }
            }
        });
        quote!(#krate::__private::ToolSet::build(&[#(#defs),*]))
    }
}

fn arm(krate: &TokenStream, index: usize, tool: &ToolMethod) -> TokenStream {
    let name = &tool.name;
    let method = &tool.ident;
    let slots: Vec<_> = (0..tool.params.len())
        .map(|i| format_ident!("__mcs_p{}", i))
        .collect();
    let decodes = tool
        .params
        .iter()
        .zip(&slots)
        .enumerate()
        .map(|(i, (param, slot))| {
            let ty = &param.ty;
            let decoder = match param.kind {
                ParamKind::Required => "required",
                ParamKind::Optional | ParamKind::Default => "optional",
                ParamKind::Flatten => "flatten",
            };
            // Spanned on the type, so that a missing `Deserialize` impl is reported there.
            let decoder = Ident::new(decoder, ty.span());
            quote_spanned!(ty.span()=> let #slot = __mcs_args.#decoder::<#ty>(#i);)
        });
    let unwrap = if slots.is_empty() {
        quote!()
    } else {
        quote! {
            let (#(::core::option::Option::Some(#slots),)*) = (#(#slots,)*) else {
                return #krate::__private::ToolFuture::ready(::core::result::Result::Err(
                    #krate::__private::Arguments::inconsistent(#name),
                ));
            };
        }
    };
    let call_args = tool
        .params
        .iter()
        .zip(&slots)
        .map(|(param, slot)| match param.kind {
            ParamKind::Default => {
                quote_spanned!(param.ty.span()=> ::core::option::Option::unwrap_or_default(#slot))
            }
            _ => quote!(#slot),
        });
    let call = quote!(Self::#method(self, #(#call_args),*));
    let convert = convert(krate, name, &tool.output);
    let run = if tool.is_async {
        // The future is spanned on the method, so that one that is not `Send` is blamed on
        // the method rather than on the attribute.
        let span = method.span();
        let krate = respan(krate.clone(), span);
        quote_spanned! {span=>
            #krate::__private::ToolFuture::new(async move {
                let __mcs_out = #call.await;
                #convert
            })
        }
    } else {
        quote! {
            let __mcs_out = #call;
            #krate::__private::ToolFuture::ready(#convert)
        }
    };
    quote! {
        #name => {
            let mut __mcs_args = match __mcs_set.arguments(#index, __mcs_arguments) {
                ::core::result::Result::Ok(__mcs_args) => __mcs_args,
                ::core::result::Result::Err(__mcs_error) => {
                    return #krate::__private::ToolFuture::ready(::core::result::Result::Err(__mcs_error));
                }
            };
            #(#decodes)*
            if let ::core::result::Result::Err(__mcs_error) = __mcs_args.finish() {
                return #krate::__private::ToolFuture::ready(::core::result::Result::Err(__mcs_error));
            }
            #unwrap
            #run
        }
    }
}

/// Turns `__mcs_out` into `Result<Value, ToolError>`, blaming the return type for missing
/// `Serialize` or `Display` impls.
fn convert(krate: &TokenStream, name: &str, output: &Output) -> TokenStream {
    // A `Value` is moved, anything else serialized; the probe is spanned at the return
    // type, so that a type without `Serialize` is reported there.
    let probe = |span: &proc_macro2::Span, value: &str| {
        let value = proc_macro2::Ident::new(value, *span);
        let call = quote_spanned! {*span=>
            (&&#krate::__private::OutputWrap(&#value)).mcs_output_kind().into_output(#name, #value)
        };
        quote! {{
            #[allow(unused_imports)]
            use #krate::__private::{MovedKind as _, SerializedKind as _};
            #call
        }}
    };
    match output {
        Output::Value(span) => probe(span, "__mcs_out"),
        Output::Result { ok, err } => {
            let ok = probe(ok, "__mcs_value");
            let kind = quote_spanned! {*err=>
                (&&&#krate::__private::ErrorWrap(&__mcs_error)).mcs_error_kind()
            };
            let error = quote_spanned!(*err=> __mcs_error);
            quote! {
                match __mcs_out {
                    ::core::result::Result::Ok(__mcs_value) => #ok,
                    ::core::result::Result::Err(__mcs_error) => {
                        #[allow(unused_imports)]
                        use #krate::__private::{AsIsKind as _, BoxedKind as _, MessageKind as _, SourceKind as _, UnusableKind as _};
                        let __mcs_kind = #kind;
                        ::core::result::Result::Err(__mcs_kind.into_tool_error(#name, #error))
                    }
                }
            }
        }
    }
}

/// `tokens` with every token spanned at `span`.
fn respan(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            if let proc_macro2::TokenTree::Group(group) = &token {
                let mut inner =
                    proc_macro2::Group::new(group.delimiter(), respan(group.stream(), span));
                inner.set_span(span);
                token = proc_macro2::TokenTree::Group(inner);
            }
            token.set_span(span);
            token
        })
        .collect()
}

fn optional_str(text: Option<&str>) -> TokenStream {
    match text {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}

/// The type's name as written, without generic arguments, for default metadata.
fn type_name(ty: &syn::Type) -> String {
    match ty {
        syn::Type::Path(path) => path
            .path
            .segments
            .last()
            .map_or_else(|| quote!(#ty).to_string(), |s| s.ident.to_string()),
        other => quote!(#other).to_string().replace(' ', ""),
    }
}

/// A `ToolDriver` impl that compiles but is never run, emitted next to errors so that one
/// mistake gives one diagnostic instead of a cascade at every use of the driver.
pub fn stub(item: &ItemImpl, krate: &TokenStream) -> TokenStream {
    if item.trait_.is_some() {
        return quote!(#item);
    }
    let self_ty = &item.self_ty;
    let (impl_generics, _, where_clause) = item.generics.split_for_impl();
    quote! {
        #item

        #[automatically_derived]
        impl #impl_generics #krate::__private::ToolDriver for #self_ty #where_clause {
            fn meta(&self) -> &#krate::__private::DriverMeta {
                ::core::unreachable!()
            }
            fn list_tools(&self) -> #krate::__private::Arc<[#krate::__private::Tool]> {
                ::core::unreachable!()
            }
            fn execute_tool<'__mcs>(
                &'__mcs self,
                _: &'__mcs ::core::primitive::str,
                _: #krate::__private::Value,
            ) -> #krate::__private::ToolFuture<'__mcs> {
                ::core::unreachable!()
            }
        }
    }
}
