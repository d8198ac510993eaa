//! Checks across the whole impl block: names every provider accepts, no duplicates, every
//! tool described, parameter types the driver can describe once for all instantiations.

use std::collections::HashMap;

use syn::visit::Visit;
use syn::{Generics, ItemImpl, Type};

use crate::ast::{Param, ToolMethod};
use crate::errors::Errors;

/// Providers' common ground for names: at most 64 characters.
const MAX_NAME_LEN: usize = 64;

/// What is wrong with a tool name, if anything. The rule, `^[A-Za-z0-9_-]{1,64}$`, is the
/// providers' common ground (OpenAI, Anthropic, Gemini all accept it).
fn tool_name_problem(name: &str) -> Option<NameProblem> {
    name_problem(name, |c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// What is wrong with an argument name, if anything: Anthropic's rule for property names,
/// the strictest of the providers'.
fn argument_name_problem(name: &str) -> Option<NameProblem> {
    name_problem(name, |c| {
        c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.'
    })
}

enum NameProblem {
    TooLong(usize),
    /// The characters not allowed, each once, quoted.
    Characters(String),
}

fn name_problem(name: &str, allowed: fn(char) -> bool) -> Option<NameProblem> {
    let length = name.chars().count();
    if length > MAX_NAME_LEN {
        return Some(NameProblem::TooLong(length));
    }
    let mut bad: Vec<String> = Vec::new();
    for c in name.chars().filter(|c| !allowed(*c)) {
        let quoted = format!("{c:?}");
        if !bad.contains(&quoted) {
            bad.push(quoted);
        }
    }
    let listed = match bad.split_last() {
        None => return None,
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    };
    Some(NameProblem::Characters(listed))
}

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
        (NameProblem::TooLong(length), Some(attribute)) => format!(
            "{what} `{name}` is {length} characters long, but providers accept at most \
             {MAX_NAME_LEN}: give a shorter name with {attribute}"
        ),
        (NameProblem::TooLong(length), None) => format!(
            "{what} `{name}` is {length} characters long, but providers accept at most \
             {MAX_NAME_LEN}: shorten it"
        ),
        (NameProblem::Characters(listed), set_with) => {
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
pub fn misplaced(item: &syn::Item) -> syn::Error {
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

    // One error per clash, on the later name: a second error on the first name would
    // count one mistake twice (proc macros cannot attach a note on stable Rust).
    let mut seen: HashMap<&str, &ToolMethod> = HashMap::new();
    for tool in tools {
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
    }
}

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
