//! From the user's `impl` block to the model the expansion works on. Our attributes are
//! taken off the tokens here, so the impl block is emitted again as the user wrote it.
//! Nothing is checked here but what the model cannot be built without (a parameter needs a
//! name); every other rule is in `valid`.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{
    Attribute, FnArg, GenericArgument, Ident, ImplItem, ImplItemFn, ItemImpl, Pat, PathArguments,
    ReturnType, Signature, Type,
};

use crate::attr::{self, ArgAttrs, Ours, ToolAttrs};
use crate::docs;
use crate::errors::Errors;

/// The impl block as the macro sees it: the tool methods, and our attributes found where
/// they mean nothing (reported by `valid`).
pub(crate) struct ImplBlock {
    pub tools: Vec<ToolMethod>,
    pub stray: Vec<StrayAttr>,
}

/// `#[tool]` or `#[arg]` where it has no meaning, taken off the tokens.
pub(crate) struct StrayAttr {
    pub attr: Attribute,
    pub place: StrayPlace,
}

pub(crate) enum StrayPlace {
    /// A second `#[tool]` on the same method.
    SecondTool,
    /// `#[tool]` on an item that is not a method: "an associated const", ...
    NotAMethod(&'static str),
    /// `#[arg]` on a parameter of a method without `#[tool]`.
    ArgOfPlainMethod,
}

/// One `#[tool]` method.
pub(crate) struct ToolMethod {
    /// The method's identifier, as called.
    pub ident: Ident,
    /// The signature as written (our attributes taken off), for `valid`.
    pub sig: Signature,
    /// The tool's name and the token it came from (the method name or `name = "..."`).
    pub name: String,
    pub name_span: Span,
    pub title: Option<String>,
    pub description: Option<String>,
    /// `#[tool(tags = [...])]`: the groups the tool belongs to (orchestrator toolsets).
    pub tags: Vec<String>,
    /// `#[tool(read_only, destructive, idempotent, open_world)]`, in that order: each hint
    /// said, or `None`.
    pub hints: [Option<bool>; 4],
    /// A doc attribute could not be read (and was reported): the tool may well be described.
    pub doc_unreadable: bool,
    /// `# Arguments` entries: name, text, and the line to blame if it names no parameter.
    pub documented_arguments: Vec<DocumentedArgument>,
    pub is_async: bool,
    pub params: Vec<Param>,
    pub output: Output,
}

/// One entry of a tool's `# Arguments` section.
pub(crate) struct DocumentedArgument {
    pub name: String,
    pub text: String,
    /// The doc comment line of the entry.
    pub span: Span,
}

/// One parameter of a tool method.
pub(crate) struct Param {
    /// The binding in the method's signature.
    pub ident: Ident,
    /// The argument's key, and where it came from.
    pub name: String,
    pub name_span: Span,
    /// The type that is decoded: `T` for a parameter of type `Option<T>`.
    pub ty: Type,
    pub kind: ParamKind,
    /// The `#[arg(...)]` keys, for `valid` to check how they combine.
    pub attrs: ArgAttrs,
    /// Whether the type is written `Option<T>`.
    pub written_option: bool,
    pub description: Option<String>,
    /// Whether the description came from a doc comment on the parameter itself.
    pub documented_inline: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParamKind {
    Required,
    Optional,
    /// Absent means `Default::default()`.
    Default,
    Flatten,
}

/// What a tool method returns, with the spans to blame for missing trait impls.
pub(crate) enum Output {
    /// `T: Serialize`, including `()`.
    Value(Span),
    /// `Result<T, E>` (by the last path segment, so aliases such as `io::Result<T>` count):
    /// the spans of `T` and `E`, or of the whole type where they are not written out.
    Result { ok: Span, err: Span },
}

/// Reads the tool methods out of `item`, taking `#[tool]`, `#[arg]` and parameter doc
/// comments off the tokens. Methods without `#[tool]` are left untouched.
pub(crate) fn parse(item: &mut ItemImpl, ours: &Ours, errors: &mut Errors) -> ImplBlock {
    let mut block = ImplBlock {
        tools: Vec::new(),
        stray: Vec::new(),
    };
    for impl_item in &mut item.items {
        let (attrs, what) = match impl_item {
            ImplItem::Fn(method) => {
                parse_fn(method, ours, &mut block, errors);
                continue;
            }
            ImplItem::Const(item) => (&mut item.attrs, "an associated const"),
            ImplItem::Type(item) => (&mut item.attrs, "an associated type"),
            ImplItem::Macro(item) => (&mut item.attrs, "a macro invocation"),
            _ => continue,
        };
        for attr in take(attrs, |a| ours.is_tool(a)) {
            block.stray.push(StrayAttr {
                attr,
                place: StrayPlace::NotAMethod(what),
            });
        }
    }
    block
}

/// A method: a tool if it has `#[tool]`, else left as it is (but for a stray `#[arg]`).
fn parse_fn(method: &mut ImplItemFn, ours: &Ours, block: &mut ImplBlock, errors: &mut Errors) {
    let mut tool_attrs = take(&mut method.attrs, |a| ours.is_tool(a)).into_iter();
    let Some(first) = tool_attrs.next() else {
        for input in &mut method.sig.inputs {
            if let FnArg::Typed(typed) = input {
                for attr in take(&mut typed.attrs, |a| ours.is_arg(a)) {
                    block.stray.push(StrayAttr {
                        attr,
                        place: StrayPlace::ArgOfPlainMethod,
                    });
                }
            }
        }
        return;
    };
    let mut attrs = ToolAttrs::default();
    attr::parse_tool(&first, &mut attrs, errors);
    for extra in tool_attrs {
        attr::parse_tool(&extra, &mut attrs, errors);
        block.stray.push(StrayAttr {
            attr: extra,
            place: StrayPlace::SecondTool,
        });
    }
    block.tools.push(parse_method(method, &attrs, ours, errors));
    // The macro makes tools take `&self` and owned parameters, so these pedantic lints
    // would ask for changes that the macro then rejects.
    method.attrs.push(syn::parse_quote! {
        #[allow(clippy::unused_self, clippy::needless_pass_by_value)]
    });
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
    let ident = method.sig.ident.clone();
    let (name, name_span) = match &attrs.name {
        Some(lit) => (lit.value(), lit.span()),
        None => (unraw(&ident), ident.span()),
    };
    let doc = MethodDoc::read(&method.attrs, attrs, &ident, errors);
    let params = parse_params(&mut method.sig, &doc.arguments, ours, errors);
    ToolMethod {
        sig: method.sig.clone(),
        name,
        name_span,
        title: doc.title,
        description: doc.description,
        tags: attrs
            .tags
            .iter()
            .flatten()
            .map(syn::LitStr::value)
            .collect(),
        hints: attrs
            .hints
            .each_ref()
            .map(|hint| hint.as_ref().map(syn::LitBool::value)),
        doc_unreadable: doc.unreadable,
        documented_arguments: doc.arguments,
        is_async: method.sig.asyncness.is_some(),
        params,
        output: output(&method.sig),
        ident,
    }
}

/// What a tool method's doc comment (and `#[tool(title = "...")]`) says about it.
struct MethodDoc {
    title: Option<String>,
    description: Option<String>,
    arguments: Vec<DocumentedArgument>,
    unreadable: bool,
}

impl MethodDoc {
    fn read(attrs: &[Attribute], tool: &ToolAttrs, ident: &Ident, errors: &mut Errors) -> Self {
        let doc = docs::collect(attrs, errors);
        let split = doc.text.as_deref().map(docs::split_arguments);
        let description = split
            .as_ref()
            .map(|s| s.description.clone())
            .filter(|d| !d.is_empty());
        let title = match &tool.title {
            Some(title) => Some(title.value()),
            None => description
                .as_deref()
                .and_then(|d| d.lines().map(str::trim).find(|l| !l.is_empty()))
                .map(str::to_owned),
        };
        let arguments = split
            .map(|s| s.arguments)
            .unwrap_or_default()
            .into_iter()
            .map(|(name, text)| DocumentedArgument {
                span: docs::entry_span(attrs, &name).unwrap_or(ident.span()),
                name,
                text,
            })
            .collect();
        MethodDoc {
            title,
            description,
            arguments,
            unreadable: !doc.complete,
        }
    }
}

/// The parameters after the receiver, taking `#[arg]` and their doc comments off the tokens.
/// A parameter without a plain name is reported and left out: it has no argument key.
fn parse_params(
    sig: &mut Signature,
    documented: &[DocumentedArgument],
    ours: &Ours,
    errors: &mut Errors,
) -> Vec<Param> {
    let mut params = Vec::new();
    for input in &mut sig.inputs {
        let FnArg::Typed(typed) = input else { continue };
        let mut arg_attrs = ArgAttrs::default();
        for arg_attr in &take(&mut typed.attrs, |a| ours.is_arg(a)) {
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
            binding, &typed.ty, arg_attrs, inline_doc, documented,
        ));
    }
    params
}

fn make_param(
    ident: Ident,
    ty: &Type,
    attrs: ArgAttrs,
    inline_doc: Option<String>,
    documented: &[DocumentedArgument],
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
    // `flatten` wins over `default`, and both over `Option`; `valid` reports the mixes.
    let kind = if attrs.flatten.is_some() {
        ParamKind::Flatten
    } else if attrs.default.is_some() {
        ParamKind::Default
    } else if option_inner.is_some() {
        ParamKind::Optional
    } else {
        ParamKind::Required
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
        attrs,
        written_option: option_inner.is_some(),
        description,
        documented_inline,
    }
}

/// What the method returns, with the spans to blame.
fn output(sig: &Signature) -> Output {
    match &sig.output {
        ReturnType::Default => Output::Value(sig.ident.span()),
        ReturnType::Type(_, ty) => match result_args(ty) {
            Some((ok, err)) => Output::Result {
                ok: ok.map_or_else(|| ty.span(), Spanned::span),
                err: err.map_or_else(|| ty.span(), Spanned::span),
            },
            None => Output::Value(ty.span()),
        },
    }
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

/// An identifier's name without the `r#` of a raw identifier.
pub(crate) fn unraw(ident: &Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#")
        .map_or_else(|| name.clone(), str::to_owned)
}
