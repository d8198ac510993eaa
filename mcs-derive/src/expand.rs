//! The generated code. For `#[mcs::tool_driver]`: a `ToolDriver` impl whose `execute_tool`
//! is one `match` on the tool name, and the tool table it reads, built once; for
//! `#[mcs::hybrid]`: a `Driver` impl over it. All logic and every default lives in the
//! runtime; what is emitted here only names types and calls into `::mcs::__private`.

use mcs_options::UnknownToolPolicy;
use proc_macro2::Ident;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{ItemImpl, Path};

use crate::ast::{Output, ParamKind, ToolMethod};
use crate::attr::{DriverAttrs, HybridAttrs};

/// The `mcs` crate's path in generated code: `::mcs`, or what `crate = "..."` gave.
pub(crate) fn crate_path(krate: Option<&Path>) -> TokenStream {
    match krate {
        Some(path) => quote!(#path),
        None => quote!(::mcs),
    }
}

/// The `ToolDriver` impl of a checked impl block.
pub(crate) struct Expansion<'a> {
    pub item: &'a ItemImpl,
    pub attrs: &'a DriverAttrs,
    pub tools: &'a [ToolMethod],
    pub krate: &'a TokenStream,
}

impl Expansion<'_> {
    pub(crate) fn expand(&self) -> TokenStream {
        let krate = self.krate;
        let item = self.item;
        let self_ty = &item.self_ty;
        let (impl_generics, _, where_clause) = item.generics.split_for_impl();
        let meta = match &self.attrs.meta {
            Some(method) => quote! {
                fn meta(&self) -> &#krate::__private::DriverMeta {
                    self.#method()
                }
            },
            None => {
                let meta = self.meta();
                quote! {
                    fn meta(&self) -> &#krate::__private::DriverMeta {
                        static __MCS_META: #krate::__private::OnceLock<
                            #krate::__private::DriverMeta,
                        > = #krate::__private::OnceLock::new();
                        __MCS_META.get_or_init(|| #meta)
                    }
                }
            }
        };
        let table = self.table();
        let tags = self.tags();
        let tag_descriptions = self.tag_descriptions();
        let arms = self
            .tools
            .iter()
            .enumerate()
            .map(|(index, tool)| arm(krate, index, tool));
        quote! {
            #item

            #[automatically_derived]
            impl #impl_generics #krate::__private::ToolDriver for #self_ty #where_clause {
                #meta

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

                #tags
                #tag_descriptions
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

    /// `tool_tags`, when some tool has `#[tool(tags = [...])]` (the trait's default says
    /// "no tags" otherwise).
    fn tags(&self) -> TokenStream {
        if self.tools.iter().all(|tool| tool.tags.is_empty()) {
            return TokenStream::new();
        }
        let krate = self.krate;
        let arms = self
            .tools
            .iter()
            .filter(|tool| !tool.tags.is_empty())
            .map(|tool| {
                let name = &tool.name;
                let tags = &tool.tags;
                quote!(#name => &[#(#tags),*],)
            });
        quote! {
            fn tool_tags(
                &self,
                __mcs_name: &::core::primitive::str,
            ) -> ::std::vec::Vec<#krate::__private::String> {
                let __mcs_tags: &[&::core::primitive::str] = match __mcs_name {
                    #(#arms)*
                    _ => &[],
                };
                __mcs_tags.iter().map(|tag| #krate::__private::String::from(*tag)).collect()
            }
        }
    }

    /// `tag_description`, when `tag("...", "...")` describes some tag.
    fn tag_descriptions(&self) -> TokenStream {
        if self.attrs.tag_descriptions.is_empty() {
            return TokenStream::new();
        }
        let krate = self.krate;
        let arms = self
            .attrs
            .tag_descriptions
            .iter()
            .map(|(tag, description)| quote!(#tag => #description,));
        quote! {
            fn tag_description(
                &self,
                __mcs_tag: &::core::primitive::str,
            ) -> ::core::option::Option<#krate::__private::String> {
                let __mcs_description: &::core::primitive::str = match __mcs_tag {
                    #(#arms)*
                    _ => return ::core::option::Option::None,
                };
                ::core::option::Option::Some(#krate::__private::String::from(__mcs_description))
            }
        }
    }

    fn meta(&self) -> TokenStream {
        let krate = self.krate;
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
        let capability = string(
            &self.attrs.capability,
            quote!(#krate::__private::Binding::ANNOTATED_CAPABILITY),
        );
        let adapter = string(
            &self.attrs.adapter,
            quote!(#krate::__private::Binding::ANNOTATED_ADAPTER),
        );
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

    fn table(&self) -> TokenStream {
        let krate = self.krate;
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
            let hints = crate::attr::HINT_KEYS
                .iter()
                .zip(tool.hints)
                .filter_map(|(key, hint)| {
                    let setter = format_ident!("{}", key);
                    hint.map(|value| quote!(.#setter(#value)))
                });
            quote! {
                #krate::__private::ToolDef {
                    name: #name,
                    title: #title,
                    description: #description,
                    params: const { &[#(#params),*] },
                    annotations: #krate::__private::ToolAnnotations::new() #(#hints)*,
                }
            }
        });
        quote!(#krate::__private::ToolSet::build(&[#(#defs),*]))
    }
}

/// The `match` arm of one tool: decode the arguments, call the method, convert its output.
fn arm(krate: &TokenStream, index: usize, tool: &ToolMethod) -> TokenStream {
    let name = &tool.name;
    let slots: Vec<_> = (0..tool.params.len())
        .map(|i| format_ident!("__mcs_p{}", i))
        .collect();
    let decode = decode(krate, tool, &slots);
    let call = call(krate, tool, &slots);
    quote! {
        #name => {
            let mut __mcs_args = match __mcs_set.arguments(#index, __mcs_arguments) {
                ::core::result::Result::Ok(__mcs_args) => __mcs_args,
                ::core::result::Result::Err(__mcs_error) => {
                    return #krate::__private::ToolFuture::ready(::core::result::Result::Err(__mcs_error));
                }
            };
            #decode
            #call
        }
    }
}

/// Decodes every argument into its slot, reporting all the wrong ones at once.
fn decode(krate: &TokenStream, tool: &ToolMethod, slots: &[Ident]) -> TokenStream {
    let name = &tool.name;
    let decodes = tool
        .params
        .iter()
        .zip(slots)
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
    quote! {
        #(#decodes)*
        if let ::core::result::Result::Err(__mcs_error) = __mcs_args.finish() {
            return #krate::__private::ToolFuture::ready(::core::result::Result::Err(__mcs_error));
        }
        #unwrap
    }
}

/// Calls the method with the decoded slots, as a ready or a boxed future.
fn call(krate: &TokenStream, tool: &ToolMethod, slots: &[Ident]) -> TokenStream {
    let method = &tool.ident;
    let call_args = tool
        .params
        .iter()
        .zip(slots)
        .map(|(param, slot)| match param.kind {
            ParamKind::Default => {
                quote_spanned!(param.ty.span()=> ::core::option::Option::unwrap_or_default(#slot))
            }
            _ => quote!(#slot),
        });
    let call = quote!(Self::#method(self, #(#call_args),*));
    let convert = convert(krate, &tool.name, &tool.output);
    if tool.is_async {
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
    }
}

/// Turns `__mcs_out` into `Result<Value, ToolError>`, blaming the return type for missing
/// `Serialize` or `Display` impls.
///
/// The conversion is chosen by autoref specialization on the runtime's probe traits: the
/// number of `&` written before `OutputWrap` (two) and `ErrorWrap` (three) is the depth of
/// the most specific probe, and every probe trait must be imported here. The table of
/// probes, and why, is in the module docs of `mcs-core/src/output.rs`; change both
/// together.
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
            use #krate::__private::{AnySerializeProbe as _, ValueAlreadyProbe as _};
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
                        use #krate::__private::{
                            AnyDisplayProbe as _, AnyStdErrorProbe as _, BoxedErrorProbe as _,
                            NotDisplayProbe as _, ToolErrorAlreadyProbe as _,
                        };
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
pub(crate) fn stub(item: &ItemImpl, krate: &TokenStream) -> TokenStream {
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

/// The `Driver` impl of `#[mcs::hybrid]`, over the type's `ToolDriver` impl.
pub(crate) fn hybrid(item: &ItemImpl, attrs: &HybridAttrs, krate: &TokenStream) -> TokenStream {
    let self_ty = &item.self_ty;
    // Requiring `Self: ToolDriver` on the impls turns a missing #[mcs::tool_driver] into one
    // error on the attribute instead of one per use inside them.
    let mut generics = item.generics.clone();
    generics
        .make_where_clause()
        .predicates
        .push(syn::parse_quote_spanned!(proc_macro2::Span::call_site()=> #self_ty: #krate::__private::ToolDriver));
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let where_predicates = where_clause.map(|clause| &clause.predicates);
    let prompts = prompts(attrs, krate);
    let policy = match attrs.unknown_tools {
        None => {
            quote!(<#krate::__private::UnknownToolPolicy as ::core::default::Default>::default())
        }
        Some(UnknownToolPolicy::PassThrough) => {
            quote!(#krate::__private::UnknownToolPolicy::PassThrough)
        }
        Some(UnknownToolPolicy::Reject) => quote!(#krate::__private::UnknownToolPolicy::Reject),
    };
    quote! {
        #item

        #krate::__private::hybrid_driver!(
            [#impl_generics] #self_ty,
            [#where_predicates],
            |this| Self::__mcs_hybrid_options()
        );

        #[automatically_derived]
        impl #impl_generics #self_ty #where_clause {
            /// How this driver talks to models, set up on first use.
            #[doc(hidden)]
            fn __mcs_hybrid_options() -> &'static #krate::__private::HybridOptions {
                static __MCS_HYBRID: #krate::__private::OnceLock<#krate::__private::HybridOptions> =
                    #krate::__private::OnceLock::new();
                __MCS_HYBRID.get_or_init(|| #krate::__private::HybridOptions {
                    prompts: #prompts,
                    unknown_tools: #policy,
                })
            }
        }
    }
}

/// The driver's `Prompts`: the built-in ones, or `system`, overridden by the prompt file.
fn prompts(attrs: &HybridAttrs, krate: &TokenStream) -> TokenStream {
    let mut prompts = match &attrs.system {
        Some(system) => quote!(#krate::__private::Prompts::with_default(#system)),
        None => quote!(<#krate::__private::Prompts as ::core::default::Default>::default()),
    };
    if let Some(file) = &attrs.prompt_file {
        // include_str! makes cargo rebuild when the file changes, and `valid` parsed the file
        // with the same parser, so parsing it again cannot fail; the defaults stand in if it
        // ever did.
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
    prompts
}
