//! Every rule the macros enforce, on the model `ast` and `attr` read: our attributes where
//! they belong, signatures a model can call, names every provider accepts, no duplicates,
//! every tool described, parameter types the driver can describe once for all
//! instantiations; for `#[mcs::hybrid]`, a prompt file that the runtime will accept.
//!
//! Errors are collected, not returned at the first: one run of the compiler reports every
//! mistake, each on the user's token, in source order within each check.

use std::collections::HashMap;

use syn::visit::Visit;
use syn::{FnArg, Generics, ItemImpl, LitStr, ReturnType, Signature, Type};

use crate::ast::{ImplBlock, Param, StrayAttr, StrayPlace, ToolMethod};
use crate::attr::{DriverAttrs, HybridAttrs};
use crate::errors::Errors;

use mcs_options::names::{
    MAX_NAME, NameProblem, argument_key_problem as argument_name_problem, tool_name_problem,
};

/// The error text for a name with a problem: what is wrong, then how to fix it. `set_with`
/// is the attribute that sets the name, when the name came from an identifier.
fn name_error(
    what: &str,
    name: &str,
    problem: &NameProblem,
    allowed: &str,
    set_with: Option<&str>,
) -> String {
    match (problem, set_with) {
        // An identifier is never empty, and an empty `name = ""` is refused where the
        // attribute is read; the rule still names the case.
        (NameProblem::Empty, _) => format!("{what} is empty: give it a name"),
        (NameProblem::TooLong(length), Some(attribute)) => format!(
            "{what} `{name}` is {length} characters long, but providers accept at most \
             {MAX_NAME}: give a shorter name with {attribute}"
        ),
        (NameProblem::TooLong(length), None) => format!(
            "{what} `{name}` is {length} characters long, but providers accept at most \
             {MAX_NAME}: shorten it"
        ),
        (NameProblem::Characters(characters), set_with) => {
            let quoted: Vec<String> = characters.iter().map(|c| format!("{c:?}")).collect();
            let listed = match quoted.split_last() {
                Some((last, [])) => last.clone(),
                Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
                None => String::new(),
            };
            let how = set_with.map_or_else(String::new, |a| format!(" (set the name with {a})"));
            format!(
                "{what} `{name}` contains {listed}, which not every provider accepts: use only \
                 ASCII letters, digits, {allowed}{how}"
            )
        }
    }
}

/// The error for `#[mcs::tool_driver]` on an item that is not an impl block, on the item's
/// keyword and name.
pub(crate) fn misplaced(item: &syn::Item) -> syn::Error {
    use quote::ToTokens;
    let keyword_and_name = |keyword: &dyn ToTokens, ident: &syn::Ident| {
        let mut tokens = keyword.to_token_stream();
        ident.to_tokens(&mut tokens);
        tokens
    };
    let (what, tokens, name) = match item {
        syn::Item::Struct(s) => (
            "a struct",
            keyword_and_name(&s.struct_token, &s.ident),
            Some(&s.ident),
        ),
        syn::Item::Enum(e) => (
            "an enum",
            keyword_and_name(&e.enum_token, &e.ident),
            Some(&e.ident),
        ),
        syn::Item::Union(u) => (
            "a union",
            keyword_and_name(&u.union_token, &u.ident),
            Some(&u.ident),
        ),
        syn::Item::Trait(t) => ("a trait", keyword_and_name(&t.trait_token, &t.ident), None),
        syn::Item::Fn(f) => (
            "a function",
            keyword_and_name(&f.sig.fn_token, &f.sig.ident),
            None,
        ),
        other => ("this item", other.to_token_stream(), None),
    };
    let example = name.map_or_else(|| "MyDriver".to_owned(), ToString::to_string);
    syn::Error::new_spanned(
        tokens,
        format!(
            "#[mcs::tool_driver] goes on the impl block that holds the tool methods \
             (`impl {example} {{ ... }}`), not on {what}"
        ),
    )
}

/// `#[tool]` reached on its own: no `#[mcs::tool_driver]` took it off the method.
pub(crate) fn tool_outside_driver(input: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    let mut out = syn::Error::new(
        proc_macro2::Span::call_site(),
        "#[tool] only works on methods inside an impl block marked #[mcs::tool_driver]; \
         add #[mcs::tool_driver] to the impl block",
    )
    .into_compile_error();
    out.extend(input);
    out
}

/// Every rule of `#[mcs::tool_driver]`.
pub(crate) fn check(item: &ItemImpl, block: &ImplBlock, errors: &mut Errors) {
    for stray in &block.stray {
        check_stray(stray, errors);
    }
    let tools = &block.tools;
    if let Some((trait_path, _)) = &item.trait_ {
        errors.push_spanned(
            trait_path,
            "#[mcs::tool_driver] goes on an inherent impl block (`impl MyDriver { ... }`), not \
             on a trait impl",
        );
    }
    if tools.is_empty() && item.trait_.is_none() {
        errors.push_spanned(
            &item.self_ty,
            "this impl block has no #[tool] methods; mark the methods a model may call with \
             #[tool]",
        );
    }

    // One error per clash, on the later name: a second error on the first name would
    // count one mistake twice (proc macros cannot attach a note on stable Rust).
    let mut seen: HashMap<&str, &ToolMethod> = HashMap::new();
    for tool in tools {
        check_signature(&tool.sig, errors);
        for param in &tool.params {
            check_arg_attrs(param, errors);
        }
        if let Some(problem) = tool_name_problem(&tool.name) {
            let from_ident = tool.name == crate::ast::unraw(&tool.ident);
            errors.push(syn::Error::new(
                tool.name_span,
                name_error(
                    "tool name",
                    &tool.name,
                    &problem,
                    "`_` or `-`",
                    from_ident.then_some("#[tool(name = \"...\")]"),
                ),
            ));
        }
        if let Some(first) = seen.insert(&tool.name, tool) {
            errors.push(syn::Error::new(
                tool.name_span,
                format!(
                    "a tool named `{}` is already defined in this driver (method `{}`); tool \
                     names must be unique: give one of them another name with \
                     #[tool(name = \"...\")]",
                    tool.name, first.ident
                ),
            ));
        }
        if tool.title.is_none() && tool.description.is_none() && !tool.doc_unreadable {
            errors.push(syn::Error::new(
                tool.ident.span(),
                format!(
                    "tool `{}` needs a description for the model: add a doc comment (`/// ...`) \
                     or #[tool(title = \"...\")]",
                    tool.name
                ),
            ));
        }
        check_params(item, tool, errors);
        check_documented_arguments(tool, errors);
    }
}

fn check_stray(stray: &StrayAttr, errors: &mut Errors) {
    let message = match stray.place {
        StrayPlace::SecondTool => {
            "#[tool] is given twice on this method; merge them into one #[tool(...)]".to_owned()
        }
        StrayPlace::NotAMethod(what) => format!("#[tool] goes on a method (`fn`), not on {what}"),
        StrayPlace::ArgOfPlainMethod => "#[arg] only applies to parameters of #[tool] methods; \
                                         mark the method #[tool], or remove #[arg]"
            .to_owned(),
    };
    errors.push_spanned(&stray.attr, message);
}

/// Signature rules of one tool method: a shared receiver, nothing a model cannot call
/// (unsafe, extern, variadic, generic), and parameter types that own their data.
fn check_signature(sig: &Signature, errors: &mut Errors) {
    check_receiver(sig, errors);
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

fn check_receiver(sig: &Signature, errors: &mut Errors) {
    let Some(FnArg::Receiver(receiver)) = sig.inputs.first() else {
        errors.push(syn::Error::new(
            sig.ident.span(),
            "a tool method needs `&self` as its first parameter: tools are called on the \
             driver; add `&self`, or drop #[tool] to keep an associated function",
        ));
        return;
    };
    match &receiver.kind {
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

/// `self: &Self` or `self: &'a Self`, which is `&self` spelled out.
fn is_shared_self(ty: &Type) -> bool {
    match ty {
        Type::Reference(reference) if reference.mutability.is_none() => {
            matches!(&*reference.elem, Type::Path(path) if path.qself.is_none() && path.path.is_ident("Self"))
        }
        _ => false,
    }
}

/// How `#[arg(...)]` keys combine with each other and with an `Option` type.
fn check_arg_attrs(param: &Param, errors: &mut Errors) {
    let attrs = &param.attrs;
    match (&attrs.flatten, &attrs.default) {
        (Some(_), Some(default)) => errors.push_spanned(
            default,
            "`default` and `flatten` cannot be combined: the fields of a flattened struct \
             are the arguments; give the fields that may be absent `#[serde(default)]`",
        ),
        (Some(flatten), None) => {
            if param.written_option {
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
        }
        (None, Some(default)) if param.written_option => errors.push_spanned(
            default,
            "an `Option` parameter is already optional; remove `default`",
        ),
        _ => {}
    }
}

/// Argument names every provider accepts, unique in the tool, and types that do not depend
/// on the impl's generics.
fn check_params(item: &ItemImpl, tool: &ToolMethod, errors: &mut Errors) {
    let mut seen: HashMap<&str, &Param> = HashMap::new();
    for param in &tool.params {
        if let Some(problem) = argument_name_problem(&param.name) {
            let from_ident = param.name == crate::ast::unraw(&param.ident);
            errors.push(syn::Error::new(
                param.name_span,
                name_error(
                    "argument name",
                    &param.name,
                    &problem,
                    "`_`, `-` or `.`",
                    from_ident.then_some("#[arg(name = \"...\")]"),
                ),
            ));
        }
        if let Some(first) = seen.insert(&param.name, param) {
            errors.push(syn::Error::new(
                param.name_span,
                format!(
                    "tool `{}` already has an argument named `{}` (parameter `{}`); give one \
                     of them another name with #[arg(name = \"...\")]",
                    tool.name,
                    param.name,
                    crate::ast::unraw(&first.ident),
                ),
            ));
        }
        if let Some(generic) = uses_generic(&param.ty, &item.generics) {
            errors.push_spanned(
                &param.ty,
                format!(
                    "a tool parameter's type cannot depend on the impl's generic parameter \
                     `{generic}`: the tool list is built once, for every `{generic}`; use a \
                     concrete type"
                ),
            );
        }
    }
}

/// The `# Arguments` section against the parameters: every entry names one, and none is
/// documented both there and on the parameter.
fn check_documented_arguments(tool: &ToolMethod, errors: &mut Errors) {
    for documented in &tool.documented_arguments {
        let name = &documented.name;
        let known = tool
            .params
            .iter()
            .any(|p| p.name == *name || crate::ast::unraw(&p.ident) == *name);
        if !known {
            let params: Vec<String> = tool
                .params
                .iter()
                .map(|p| format!("`{}`", p.name))
                .collect();
            let have = if params.is_empty() {
                "it has no parameters".to_owned()
            } else {
                format!("its parameters are {}", params.join(", "))
            };
            errors.push(syn::Error::new(
                documented.span,
                format!(
                    "the `# Arguments` section documents `{name}`, which is not a parameter of \
                     tool `{}` ({have}); fix the name or remove the entry",
                    tool.name
                ),
            ));
        }
    }
    for param in &tool.params {
        let listed = tool
            .documented_arguments
            .iter()
            .any(|d| d.name == param.name || d.name == crate::ast::unraw(&param.ident));
        if param.documented_inline && listed {
            errors.push(syn::Error::new(
                param.name_span,
                format!(
                    "argument `{}` is documented twice, on the parameter and in `# Arguments`; \
                     keep one",
                    param.name
                ),
            ));
        }
    }
}

/// The first of the impl's type or const parameters that `ty` mentions.
fn uses_generic(ty: &Type, generics: &Generics) -> Option<String> {
    struct Finder<'g> {
        names: Vec<&'g syn::Ident>,
        found: Option<String>,
    }
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_path(&mut self, path: &'ast syn::Path) {
            if let Some(first) = path.segments.first()
                && path.leading_colon.is_none()
                && self.names.contains(&&first.ident)
            {
                self.found.get_or_insert_with(|| first.ident.to_string());
            }
            syn::visit::visit_path(self, path);
        }
    }
    let names = generics
        .params
        .iter()
        .filter_map(|p| match p {
            syn::GenericParam::Type(t) => Some(&t.ident),
            syn::GenericParam::Const(c) => Some(&c.ident),
            syn::GenericParam::Lifetime(_) => None,
        })
        .collect();
    let mut finder = Finder { names, found: None };
    finder.visit_type(ty);
    finder.found
}

/// Every rule of `#[mcs::hybrid]` that reading the attribute did not already apply.
/// `meta = "method"` gives the whole metadata: the keys that set parts of the default
/// metadata would be ignored, so each is an error on its value.
pub(crate) fn check_driver_attrs(attrs: &DriverAttrs, tools: &[ToolMethod], errors: &mut Errors) {
    check_tag_descriptions(attrs, tools, errors);
    let Some(method) = &attrs.meta else {
        return;
    };
    let parts = [
        ("name", &attrs.name),
        ("id", &attrs.id),
        ("version", &attrs.version),
        ("capability", &attrs.capability),
        ("adapter", &attrs.adapter),
        ("spec_format", &attrs.spec_format),
    ];
    for (key, value) in parts {
        if let Some(lit) = value {
            errors.push(syn::Error::new(
                lit.span(),
                format!(
                    "`{key}` has no effect with `meta = \"{method}\"`: the metadata comes \
                     whole from `self.{method}()`; set the {key} there"
                ),
            ));
        }
    }
}

/// Each `tag("...", "...")` describes a tag some tool has: a description of a tag nobody
/// uses is a typo or a leftover, reported on the tag with the tags that exist.
fn check_tag_descriptions(attrs: &DriverAttrs, tools: &[ToolMethod], errors: &mut Errors) {
    let mut known: Vec<&str> = tools
        .iter()
        .flat_map(|tool| tool.tags.iter().map(String::as_str))
        .collect();
    known.sort_unstable();
    known.dedup();
    for (tag, _) in &attrs.tag_descriptions {
        let text = tag.value();
        if known.contains(&text.as_str()) {
            continue;
        }
        let hint = if known.is_empty() {
            "no tool has tags yet; give them with `#[tool(tags = [...])]`".to_owned()
        } else {
            let quoted: Vec<String> = known.iter().map(|t| format!("`{t}`")).collect();
            format!("the tools' tags are {}", quoted.join(", "))
        };
        errors.push(syn::Error::new(
            tag.span(),
            format!("no tool has the tag `{text}`: {hint}"),
        ));
    }
}

pub(crate) fn check_hybrid(attrs: &HybridAttrs, errors: &mut Errors) {
    if let (Some(system), Some(file)) = (&attrs.system, &attrs.prompt_file) {
        let mut error = syn::Error::new(
            file.span(),
            "give either `system` or `prompt_file`: a prompt file sets the default prompt \
             with its own `system` key",
        );
        error.combine(syn::Error::new(system.span(), "`system` is given here"));
        errors.push(error);
        return;
    }
    if let Some(file) = &attrs.prompt_file
        && let Err(error) = prompt_file_text(file)
    {
        errors.push(error);
    }
}

/// The prompt file's text, once read and accepted by the parser the runtime uses.
fn prompt_file_text(file: &LitStr) -> syn::Result<String> {
    let Ok(dir) = std::env::var("CARGO_MANIFEST_DIR") else {
        return Err(syn::Error::new(
            file.span(),
            "CARGO_MANIFEST_DIR is not set: build with cargo",
        ));
    };
    let path = std::path::Path::new(&dir).join(file.value());
    let text = std::fs::read_to_string(&path).map_err(|error| {
        syn::Error::new(
            file.span(),
            format!(
                "cannot read the prompt file `{}` (paths are relative to the crate's \
                 Cargo.toml): {error}",
                file.value()
            ),
        )
    })?;
    mcs_options::PromptFile::parse(&text, &file.value())
        .map_err(|error| syn::Error::new(file.span(), error))?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hybrid(args: &str) -> (HybridAttrs, Option<syn::Error>) {
        let mut errors = Errors::new();
        let attrs = HybridAttrs::parse(args.parse().expect("tokens"), &mut errors);
        assert!(errors.into_result().is_none(), "the arguments parse");
        let mut errors = Errors::new();
        check_hybrid(&attrs, &mut errors);
        (attrs, errors.into_result())
    }

    #[test]
    fn a_broken_prompt_file_is_a_compile_error_that_names_the_problem() {
        let (_, error) = hybrid(r#"prompt_file = "tests/fixtures/broken_prompts.toml""#);
        let message = error.expect("the file is rejected").to_string();
        assert!(
            message.starts_with("prompt file tests/fixtures/broken_prompts.toml:"),
            "{message}"
        );
        assert!(message.contains("sytem"), "{message}");
    }

    #[test]
    fn a_good_prompt_file_is_read() {
        let (attrs, error) = hybrid(r#"prompt_file = "../tests/prompts/todo.toml""#);
        assert!(error.is_none(), "{error:?}");
        let file = attrs.prompt_file.as_ref().expect("a prompt file");
        assert!(
            prompt_file_text(file)
                .ok()
                .is_some_and(|text| text.contains("[[variant]]"))
        );
    }
}
