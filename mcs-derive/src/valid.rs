//! Checks across the whole impl block: names every provider accepts, no duplicates, every
//! tool described, parameter types the driver can describe once for all instantiations.

use std::collections::HashMap;

use proc_macro2::Span;
use syn::visit::Visit;
use syn::{Generics, ItemImpl, Type};

use crate::ast::ToolMethod;
use crate::errors::Errors;

/// Providers' common ground for tool names (OpenAI, Anthropic, Gemini all accept it).
fn is_portable_tool_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Anthropic's rule for property names, the strictest of the providers'.
fn is_portable_argument_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.')
}

pub fn check(item: &ItemImpl, tools: &[ToolMethod], errors: &mut Errors) {
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

    let mut seen: HashMap<&str, Span> = HashMap::new();
    for tool in tools {
        if !is_portable_tool_name(&tool.name) {
            errors.push(syn::Error::new(
                tool.name_span,
                format!(
                    "tool name `{}` is not accepted by every provider: use 1 to 64 ASCII \
                     letters, digits, `_` or `-`",
                    tool.name
                ),
            ));
        }
        if let Some(first) = seen.insert(&tool.name, tool.name_span) {
            let mut error = syn::Error::new(
                tool.name_span,
                format!(
                    "a tool named `{}` is already defined in this driver",
                    tool.name
                ),
            );
            error.combine(syn::Error::new(first, "first defined here"));
            errors.push(error);
        }
        if tool.title.is_none() && tool.description.is_none() {
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
    }
}

fn check_params(item: &ItemImpl, tool: &ToolMethod, errors: &mut Errors) {
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for param in &tool.params {
        if !is_portable_argument_name(&param.name) {
            errors.push(syn::Error::new(
                param.name_span,
                format!(
                    "argument name `{}` is not accepted by every provider: use 1 to 64 ASCII \
                     letters, digits, `_`, `-` or `.`",
                    param.name
                ),
            ));
        }
        if let Some(first) = seen.insert(&param.name, param.name_span) {
            let mut error = syn::Error::new(
                param.name_span,
                format!(
                    "tool `{}` already has an argument named `{}`",
                    tool.name, param.name
                ),
            );
            error.combine(syn::Error::new(first, "first defined here"));
            errors.push(error);
        }
        if let Some(generic) = uses_generic(&param.ty, &item.generics) {
            errors.push_spanned(
                &param.ty,
                format!(
                    "a tool parameter's type cannot depend on the impl's generic parameter \
                     `{generic}`: the tool list is built once for every instantiation"
                ),
            );
        }
    }
    for (name, _) in &tool.documented_arguments {
        let known = tool
            .params
            .iter()
            .any(|p| p.name == *name || crate::ast::unraw(&p.ident) == *name);
        if !known {
            errors.push(syn::Error::new(
                tool.doc_span,
                format!(
                    "the `# Arguments` section documents `{name}`, which is not a parameter of \
                     tool `{}`",
                    tool.name
                ),
            ));
        }
    }
    for param in &tool.params {
        let listed = tool
            .documented_arguments
            .iter()
            .any(|(n, _)| *n == param.name);
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
            if let Some(first) = path.segments.first() {
                if path.leading_colon.is_none() && self.names.contains(&&first.ident) {
                    self.found.get_or_insert_with(|| first.ident.to_string());
                }
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
