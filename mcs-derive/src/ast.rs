//! From the user's `impl` block to the model the expansion works on. Our attributes are
//! taken off the tokens here, so the impl block is emitted again as the user wrote it.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{
    Attribute, FnArg, GenericArgument, Ident, ImplItem, ImplItemFn, ItemImpl, Pat, PathArguments,
    ReturnType, Type,
};

use crate::attr::{self, ArgAttrs, Ours, ToolAttrs};
use crate::docs;
use crate::errors::Errors;

/// One `#[tool]` method.
pub struct ToolMethod {
    /// The method's identifier, as called.
    pub ident: Ident,
    /// The tool's name and the token it came from (the method name or `name = "..."`).
    pub name: String,
    pub name_span: Span,
    pub title: Option<String>,
    pub description: Option<String>,
    /// A doc attribute could not be read (and was reported): the tool may well be described.
    pub doc_unreadable: bool,
    /// `# Arguments` entries: name, text, and the line to blame if it names no parameter.
    pub documented_arguments: Vec<DocumentedArgument>,
    pub is_async: bool,
    pub params: Vec<Param>,
    pub output: Output,
}

/// One entry of a tool's `# Arguments` section.
pub struct DocumentedArgument {
    pub name: String,
    pub text: String,
    /// The doc comment line of the entry.
    pub span: Span,
}

/// One parameter of a tool method.
pub struct Param {
    /// The binding in the method's signature.
    pub ident: Ident,
    /// The argument's key, and where it came from.
    pub name: String,
    pub name_span: Span,
    /// The type that is decoded: `T` for a parameter of type `Option<T>`.
    pub ty: Type,
    pub kind: ParamKind,
    pub description: Option<String>,
    /// Whether the description came from a doc comment on the parameter itself.
    pub documented_inline: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    Required,
    Optional,
    /// Absent means `Default::default()`.
    Default,
    Flatten,
}

/// What a tool method returns, with the spans to blame for missing trait impls.
pub enum Output {
    /// `T: Serialize`, including `()`.
    Value(Span),
    /// `Result<T, E>` (by the last path segment, so aliases such as `io::Result<T>` count):
    /// the spans of `T` and `E`, or of the whole type where they are not written out.
    Result { ok: Span, err: Span },
}

/// Reads the tool methods out of `item`, taking `#[tool]`, `#[arg]` and parameter doc
/// comments off the tokens. Methods without `#[tool]` are left untouched.
pub fn parse(item: &mut ItemImpl, ours: &Ours, errors: &mut Errors) -> Vec<ToolMethod> {
    let mut tools = Vec::new();
    for impl_item in &mut item.items {
        match impl_item {
            ImplItem::Fn(method) => {
                let tool_attrs = take(&mut method.attrs, |a| ours.is_tool(a));
                if tool_attrs.is_empty() {
                    reject_arg_attrs(method, ours, errors);
                    continue;
                }
                for extra in &tool_attrs[1..] {
                    errors.push_spanned(
                        extra,
                        "#[tool] is given twice on this method; merge them into one #[tool(...)]",
                    );
                }
                let mut attrs = ToolAttrs::default();
                for tool_attr in &tool_attrs {
                    attr::parse_tool(tool_attr, &mut attrs, errors);
                }
                tools.push(parse_method(method, &attrs, ours, errors));
                // The macro makes tools take `&self` and owned parameters, so these pedantic
                // lints would ask for changes that the macro then rejects.
                method.attrs.push(syn::parse_quote! {
                    #[allow(clippy::unused_self, clippy::needless_pass_by_value)]
                });
            }
            ImplItem::Const(item) => {
                reject_tool_attrs(&mut item.attrs, "an associated const", ours, errors);
            }
            ImplItem::Type(item) => {
                reject_tool_attrs(&mut item.attrs, "an associated type", ours, errors);
            }
            ImplItem::Macro(item) => {
                reject_tool_attrs(&mut item.attrs, "a macro invocation", ours, errors);
            }
            _ => {}
        }
    }
    tools
}

fn reject_tool_attrs(attrs: &mut Vec<Attribute>, what: &str, ours: &Ours, errors: &mut Errors) {
    for tool_attr in take(attrs, |a| ours.is_tool(a)) {
        errors.push_spanned(
            tool_attr,
            format!("#[tool] goes on a method (`fn`), not on {what}"),
        );
    }
}

fn reject_arg_attrs(method: &mut ImplItemFn, ours: &Ours, errors: &mut Errors) {
    for input in &mut method.sig.inputs {
        if let FnArg::Typed(typed) = input {
            for arg_attr in take(&mut typed.attrs, |a| ours.is_arg(a)) {
                errors.push_spanned(
                    arg_attr,
                    "#[arg] only applies to parameters of #[tool] methods; mark the method \
                     #[tool], or remove #[arg]",
                );
            }
        }
    }
}

fn take(attrs: &mut Vec<Attribute>, wanted: impl Fn(&Attribute) -> bool) -> Vec<Attribute> {
    let (taken, kept) = std::mem::take(attrs).into_iter().partition(|a| wanted(a));
    *attrs = kept;
    taken
}

fn parse_method(
    method: &mut ImplItemFn,
    attrs: &ToolAttrs,
    ours: &Ours,
    errors: &mut Errors,
) -> ToolMethod {
    let sig = &mut method.sig;
    let ident = sig.ident.clone();
    let (name, name_span) = match &attrs.name {
        Some(lit) => (lit.value(), lit.span()),
        None => (unraw(&ident), ident.span()),
    };

    check_signature(sig, errors);

    let doc = docs::collect(&method.attrs, errors);
    let split = doc.text.as_deref().map(docs::split_arguments);
    let description = split
        .as_ref()
        .map(|s| s.description.clone())
        .filter(|d| !d.is_empty());
    let title = match &attrs.title {
        Some(title) => Some(title.value()),
        None => description
            .as_deref()
            .and_then(|d| d.lines().map(str::trim).find(|l| !l.is_empty()))
            .map(str::to_owned),
    };
    let documented_arguments: Vec<DocumentedArgument> = split
        .map(|s| s.arguments)
        .unwrap_or_default()
        .into_iter()
        .map(|(name, text)| DocumentedArgument {
            span: docs::entry_span(&method.attrs, &name).unwrap_or(ident.span()),
            name,
            text,
        })
        .collect();

    let mut params = Vec::new();
    for input in &mut sig.inputs {
        let FnArg::Typed(typed) = input else { continue };
        let arg_attrs_list = take(&mut typed.attrs, |a| ours.is_arg(a));
        let mut arg_attrs = ArgAttrs::default();
        for arg_attr in &arg_attrs_list {
            attr::parse_arg(arg_attr, &mut arg_attrs, errors);
        }
        let inline_doc = docs::collect(&typed.attrs, errors).text;
        typed.attrs.retain(|a| !a.path().is_ident("doc"));

        let binding = match &*typed.pat {
            Pat::Ident(pat) if pat.by_ref.is_none() && pat.subpat.is_none() => pat.ident.clone(),
            Pat::Wild(_) => {
                errors.push_spanned(
                    &typed.pat,
                    "a tool parameter needs a name, which becomes the argument's key: replace \
                     `_` with a name",
                );
                continue;
            }
            other => {
                errors.push_spanned(
                    other,
                    "a tool parameter must be a plain name (`city: String`); its name becomes \
                     the argument's key",
                );
                continue;
            }
        };
        params.push(make_param(
            binding,
            &typed.ty,
            &arg_attrs,
            inline_doc,
            &documented_arguments,
            errors,
        ));
    }

    ToolMethod {
        ident,
        name,
        name_span,
        title,
        description,
        doc_unreadable: !doc.complete,
        documented_arguments,
        is_async: sig.asyncness.is_some(),
        params,
        output: match &sig.output {
            ReturnType::Default => Output::Value(sig.ident.span()),
            ReturnType::Type(_, ty) => match result_args(ty) {
                Some((ok, err)) => Output::Result {
                    ok: ok.map_or_else(|| ty.span(), Spanned::span),
                    err: err.map_or_else(|| ty.span(), Spanned::span),
                },
                None => Output::Value(ty.span()),
            },
        },
    }
}

fn make_param(
    ident: Ident,
    ty: &Type,
    attrs: &ArgAttrs,
    inline_doc: Option<String>,
    documented: &[DocumentedArgument],
    errors: &mut Errors,
) -> Param {
    let (name, name_span) = match &attrs.name {
        Some(lit) => (lit.value(), lit.span()),
        None => (unraw(&ident), ident.span()),
    };
    let documented_inline = inline_doc.is_some();
    let description = inline_doc.or_else(|| {
        documented
            .iter()
            .find(|d| d.name == name || d.name == unraw(&ident))
            .map(|d| d.text.clone())
    });
    let option_inner = option_inner(ty);
    let kind = match (&attrs.flatten, &attrs.default) {
        (Some(_), Some(default)) => {
            errors.push_spanned(
                default,
                "`default` and `flatten` cannot be combined: the fields of a flattened struct \
                 are the arguments; give the fields that may be absent `#[serde(default)]`",
            );
            ParamKind::Flatten
        }
        (Some(flatten), None) => {
            if option_inner.is_some() {
                errors.push_spanned(
                    flatten,
                    "a flattened parameter cannot be an `Option`; make the struct's fields \
                     optional instead (`Option` fields or `#[serde(default)]`)",
                );
            }
            if let Some(lit) = &attrs.name {
                errors.push(syn::Error::new(
                    lit.span(),
                    "a flattened parameter has no name of its own: its fields are the arguments; \
                     rename them with `#[serde(rename = \"...\")]`",
                ));
            }
            ParamKind::Flatten
        }
        (None, Some(default)) => {
            if option_inner.is_some() {
                errors.push_spanned(
                    default,
                    "an `Option` parameter is already optional; remove `default`",
                );
            }
            ParamKind::Default
        }
        (None, None) if option_inner.is_some() => ParamKind::Optional,
        (None, None) => ParamKind::Required,
    };
    let decoded = match kind {
        ParamKind::Optional => option_inner.unwrap_or(ty).clone(),
        _ => ty.clone(),
    };
    Param {
        ident,
        name,
        name_span,
        ty: decoded,
        kind,
        description,
        documented_inline,
    }
}

/// Signature checks that do not depend on the other tools.
fn check_signature(sig: &syn::Signature, errors: &mut Errors) {
    match sig.inputs.first() {
        Some(FnArg::Receiver(receiver)) => match &receiver.kind {
            syn::ReceiverKind::Reference(_, _, None) => {}
            syn::ReceiverKind::Typed(_, ty) if is_shared_self(ty) => {}
            syn::ReceiverKind::Reference(_, _, Some(_)) => errors.push_spanned(
                receiver,
                "a tool method takes `&self`, not `&mut self`: drivers are shared between \
                 calls and threads; keep mutable state behind a Mutex or an atomic",
            ),
            syn::ReceiverKind::Value => errors.push_spanned(
                receiver,
                "a tool method takes `&self`, not `self`: drivers are shared, so a call \
                 cannot consume the driver",
            ),
            _ => errors.push_spanned(
                receiver,
                "a tool method takes `&self`: drivers are called through a shared reference, \
                 so a receiver such as `self: Box<Self>` cannot be used",
            ),
        },
        _ => errors.push(syn::Error::new(
            sig.ident.span(),
            "a tool method needs `&self` as its first parameter: tools are called on the \
             driver; add `&self`, or drop #[tool] to keep an associated function",
        )),
    }
    if let syn::Safety::Unsafe(unsafety) = &sig.safety {
        errors.push_spanned(
            unsafety,
            "a tool method cannot be `unsafe`: a model cannot uphold its safety contract; make \
             the method safe, with an `unsafe` block inside it if needed",
        );
    }
    if let Some(abi) = &sig.abi {
        errors.push_spanned(abi, "a tool method cannot have an `extern` ABI");
    }
    if let Some(variadic) = &sig.variadic {
        errors.push_spanned(variadic, "a tool method cannot be variadic");
    }
    for param in &sig.generics.params {
        if !matches!(param, syn::GenericParam::Lifetime(_)) {
            errors.push_spanned(
                param,
                "a tool method cannot be generic: its parameter types are described to the model \
                 once, so they must be concrete; remove this parameter and name the types",
            );
        }
    }
    if let ReturnType::Type(_, ty) = &sig.output
        && let Type::ImplTrait(_) = &**ty
        && sig.asyncness.is_none()
        && mentions_future(ty)
    {
        errors.push_spanned(
            ty,
            "write the tool as an `async fn` instead of returning `impl Future`",
        );
    }
    for input in &sig.inputs {
        if let FnArg::Typed(typed) = input {
            check_param_type(&typed.ty, errors);
        }
    }
}

fn check_param_type(ty: &Type, errors: &mut Errors) {
    match ty {
        Type::Reference(reference) => errors.push_spanned(
            reference,
            "a tool parameter is decoded from JSON and must own its data: use an owned type \
             (`String` for `&str`, `Vec<T>` for `&[T]`)",
        ),
        Type::ImplTrait(impl_trait) => errors.push_spanned(
            impl_trait,
            "a tool parameter cannot be `impl Trait`: name a concrete type, so it can be \
             described to the model and decoded",
        ),
        Type::TraitObject(object) => errors.push_spanned(
            object,
            "a tool parameter cannot be a trait object: name a concrete type",
        ),
        Type::Infer(infer) => errors.push_spanned(infer, "a tool parameter needs a concrete type"),
        Type::Paren(inner) => check_param_type(&inner.elem, errors),
        _ => {}
    }
}

fn mentions_future(ty: &Type) -> bool {
    quote::quote!(#ty).to_string().contains("Future")
}

/// `T` if `ty` is written `Option<T>` (by its last path segment).
fn option_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else { return None };
    if path.qself.is_some() {
        return None;
    }
    let last = path.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.iter().collect::<Vec<_>>().as_slice() {
        [GenericArgument::Type(inner)] => Some(inner),
        _ => None,
    }
}

/// For a `Result` (by its last path segment), its written `T` and `E`, if any.
fn result_args(ty: &Type) -> Option<(Option<&Type>, Option<&Type>)> {
    match ty {
        Type::Path(path) => {
            let last = path.path.segments.last()?;
            if last.ident != "Result" {
                return None;
            }
            let PathArguments::AngleBracketed(args) = &last.arguments else {
                return Some((None, None));
            };
            let mut types = args.args.iter().filter_map(|arg| match arg {
                GenericArgument::Type(ty) => Some(ty),
                _ => None,
            });
            Some((types.next(), types.next()))
        }
        Type::Paren(inner) => result_args(&inner.elem),
        Type::Group(inner) => result_args(&inner.elem),
        _ => None,
    }
}

/// `self: &Self` or `self: &'a Self`, which is `&self` spelled out.
fn is_shared_self(ty: &Type) -> bool {
    match ty {
        Type::Reference(reference) if reference.mutability.is_none() => {
            matches!(&*reference.elem, Type::Path(path) if path.qself.is_none() && path.path.is_ident("Self"))
        }
        _ => false,
    }
}

/// An identifier's name without the `r#` of a raw identifier.
pub fn unraw(ident: &Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#")
        .map_or_else(|| name.clone(), str::to_owned)
}
