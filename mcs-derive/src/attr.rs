//! The macros' own attributes: `#[mcs::tool_driver(...)]`, `#[mcs::hybrid(...)]`,
//! `#[tool(...)]` and `#[arg(...)]`. Each value is read into its type here, with the error on
//! the user's token when it cannot be; checks that relate values to each other or to the
//! impl block are in `valid`.

use mcs_options::UnknownToolPolicy;
use proc_macro2::TokenStream;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, LitBool, LitInt, LitStr, Path};

use crate::errors::Errors;

/// `#[mcs::tool_driver(name = "...", id = "...", ...)]`.
#[derive(Default)]
pub(crate) struct DriverAttrs {
    pub name: Option<LitStr>,
    pub id: Option<LitStr>,
    pub version: Option<LitStr>,
    pub capability: Option<LitStr>,
    pub adapter: Option<LitStr>,
    pub spec_format: Option<LitStr>,
    /// `meta = "method"`: the metadata comes from `self.method()`, per instance (a driver
    /// generic over its backend names the backend it holds).
    pub meta: Option<syn::Ident>,
    /// Where the `mcs` crate is, for users who renamed it.
    pub krate: Option<Path>,
    /// `tag("orders", "Orders placed by customers")`, once per tag: what a tag given with
    /// `#[tool(tags = [...])]` stands for (shown beside the orchestrator toolset made from it).
    pub tag_descriptions: Vec<(LitStr, LitStr)>,
}

/// `#[mcs::hybrid(system = "...", prompt_file = "...", unknown_tools = "...", ...)]`.
#[derive(Default)]
pub(crate) struct HybridAttrs {
    pub system: Option<LitStr>,
    pub prompt_file: Option<LitStr>,
    /// Read with the runtime's own parser (`mcs-options`), so the two agree on the names.
    pub unknown_tools: Option<UnknownToolPolicy>,
    pub compact_threshold: Option<LitInt>,
    pub krate: Option<Path>,
}

const DRIVER_KEYS: &[&str] = &[
    "name",
    "id",
    "version",
    "capability",
    "adapter",
    "spec_format",
    "meta",
    "crate",
    "tag",
];
const HYBRID_KEYS: &[&str] = &[
    "system",
    "prompt_file",
    "unknown_tools",
    "compact_threshold",
    "crate",
];
const TOOL_KEYS: &[&str] = &[
    "name",
    "title",
    "tags",
    "read_only",
    "destructive",
    "idempotent",
    "open_world",
];

/// The keys of `#[tool]` that are hints of what the tool does (MCP's tool annotations).
pub(crate) const HINT_KEYS: [&str; 4] = ["read_only", "destructive", "idempotent", "open_world"];
const ARG_KEYS: &[&str] = &["name", "flatten", "default"];

/// Reads the arguments of an attribute macro with `parse_meta`, one key at a time; a key
/// that fails is reported and the others are still read.
fn parse_args(
    args: TokenStream,
    errors: &mut Errors,
    mut parse_meta: impl FnMut(&ParseNestedMeta) -> syn::Result<()>,
) {
    let parser = syn::meta::parser(|meta| parse_meta(&meta));
    if let Err(error) = syn::parse::Parser::parse2(parser, args) {
        errors.push(error);
    }
}

impl DriverAttrs {
    /// The arguments of `#[mcs::tool_driver(...)]`.
    pub(crate) fn parse(args: TokenStream, errors: &mut Errors) -> Self {
        let mut attrs = DriverAttrs::default();
        parse_args(args, errors, |meta| attrs.parse_meta(meta));
        attrs
    }

    fn parse_meta(&mut self, meta: &ParseNestedMeta) -> syn::Result<()> {
        let slot = if meta.path.is_ident("name") {
            &mut self.name
        } else if meta.path.is_ident("id") {
            &mut self.id
        } else if meta.path.is_ident("version") {
            &mut self.version
        } else if meta.path.is_ident("capability") {
            &mut self.capability
        } else if meta.path.is_ident("adapter") {
            &mut self.adapter
        } else if meta.path.is_ident("spec_format") {
            &mut self.spec_format
        } else if meta.path.is_ident("crate") {
            return set_once(&mut self.krate, crate_value(meta)?, meta);
        } else if meta.path.is_ident("meta") {
            let value: LitStr = meta.value()?.parse()?;
            let method = value.parse::<syn::Ident>().map_err(|_| {
                syn::Error::new(
                    value.span(),
                    "`meta` takes the name of a method `fn(&self) -> &DriverMeta`, such as \
                     `meta = \"driver_meta\"`",
                )
            })?;
            return set_once(&mut self.meta, method, meta);
        } else if meta.path.is_ident("tag") {
            let described = parse_tag_description(meta)?;
            if let Some((earlier, _)) = self
                .tag_descriptions
                .iter()
                .find(|(tag, _)| tag.value() == described.0.value())
            {
                return Err(syn::Error::new(
                    described.0.span(),
                    format!("the tag `{}` is described twice; keep one", earlier.value()),
                ));
            }
            self.tag_descriptions.push(described);
            return Ok(());
        } else {
            return Err(unknown_key(meta, "#[mcs::tool_driver]", DRIVER_KEYS, ""));
        };
        let empty = "this value must not be empty; remove the key to use the default";
        set_once(slot, non_empty(meta, empty)?, meta)
    }
}

impl HybridAttrs {
    /// The arguments of `#[mcs::hybrid(...)]`.
    pub(crate) fn parse(args: TokenStream, errors: &mut Errors) -> Self {
        let mut attrs = HybridAttrs::default();
        parse_args(args, errors, |meta| attrs.parse_meta(meta));
        attrs
    }

    fn parse_meta(&mut self, meta: &ParseNestedMeta) -> syn::Result<()> {
        if meta.path.is_ident("system") {
            let value = non_empty(meta, "the system prompt must not be empty")?;
            set_once(&mut self.system, value, meta)
        } else if meta.path.is_ident("prompt_file") {
            let value = non_empty(meta, "`prompt_file` needs a path, relative to Cargo.toml")?;
            set_once(&mut self.prompt_file, value, meta)
        } else if meta.path.is_ident("unknown_tools") {
            let value: LitStr = meta.value()?.parse()?;
            let policy = value
                .value()
                .parse::<UnknownToolPolicy>()
                .map_err(|error| syn::Error::new(value.span(), error))?;
            set_once(&mut self.unknown_tools, policy, meta)
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
            set_once(&mut self.krate, crate_value(meta)?, meta)
        } else {
            Err(unknown_key(meta, "#[mcs::hybrid]", HYBRID_KEYS, ""))
        }
    }
}

/// The value of `crate = "..."`, in either macro: the path generated code uses for `mcs`.
fn crate_value(meta: &ParseNestedMeta) -> syn::Result<Path> {
    let value = non_empty(
        meta,
        "`crate` needs the path of the mcs crate, e.g. `crate = \"my_mcs\"`",
    )?;
    value.parse().map_err(|_| {
        let text = value.value();
        // A package renamed in Cargo.toml with a dash is reached with an underscore.
        let hint = if text.contains('-') {
            format!(
                " (in code, a crate named `{text}` in Cargo.toml is `{}`)",
                text.replace('-', "_")
            )
        } else {
            String::new()
        };
        syn::Error::new(
            value.span(),
            format!("`crate` takes a path, such as \"my_mcs\" or \"::my_mcs\"{hint}"),
        )
    })
}

/// `#[tool]` or `#[tool(name = "...", title = "...", tags = ["...", ...])]` on a method.
#[derive(Default)]
pub(crate) struct ToolAttrs {
    pub name: Option<LitStr>,
    pub title: Option<LitStr>,
    /// The tags, each checked (non-empty, not repeated); `None` when `tags` is not given.
    pub tags: Option<Vec<LitStr>>,
    /// The hints given, in [`HINT_KEYS`] order: `read_only` alone is `true`,
    /// `read_only = false` says so.
    pub hints: [Option<LitBool>; 4],
}

/// `#[arg(name = "...")]`, `#[arg(flatten)]`, `#[arg(default)]` on a parameter.
#[derive(Default)]
pub(crate) struct ArgAttrs {
    pub name: Option<LitStr>,
    pub flatten: Option<Path>,
    pub default: Option<Path>,
}

/// Recognizes our attributes on the items of the impl block: `#[tool]`, `#[mcs::tool]`,
/// `#[::mcs::tool]`, and the same under the path given by `crate = "..."`.
pub(crate) struct Ours<'a> {
    pub krate: Option<&'a Path>,
}

impl Ours<'_> {
    /// Whether `attr` is `#[tool]`, `#[mcs::tool]` or `#[<crate>::tool]`.
    pub(crate) fn is_tool(&self, attr: &Attribute) -> bool {
        self.is(attr, "tool")
    }

    /// Whether `attr` is `#[arg]`, `#[mcs::arg]` or `#[<crate>::arg]`.
    pub(crate) fn is_arg(&self, attr: &Attribute) -> bool {
        self.is(attr, "arg")
    }

    fn is(&self, attr: &Attribute, name: &str) -> bool {
        let path = attr.path();
        if path.is_ident(name) {
            return true;
        }
        let segments: Vec<&syn::PathSegment> = path.segments.iter().collect();
        let Some((last, prefix)) = segments.split_last() else {
            return false;
        };
        if last.ident != name || !last.arguments.is_none() {
            return false;
        }
        let is_mcs = prefix.len() == 1 && prefix[0].ident == "mcs";
        let is_krate = self.krate.is_some_and(|krate| {
            krate.segments.len() == prefix.len()
                && krate
                    .segments
                    .iter()
                    .zip(prefix)
                    .all(|(a, b)| a.ident == b.ident)
        });
        is_mcs || is_krate
    }
}

pub(crate) fn parse_tool(attr: &Attribute, into: &mut ToolAttrs, errors: &mut Errors) {
    if matches!(attr.meta, syn::Meta::Path(_)) {
        return;
    }
    let result = attr.parse_nested_meta(|meta| {
        if meta.path.is_ident("tags") {
            let tags = parse_tags(&meta)?;
            return set_once(&mut into.tags, tags, &meta);
        }
        if let Some(slot) = HINT_KEYS.iter().position(|key| meta.path.is_ident(key)) {
            let value = if meta.input.peek(syn::Token![=]) {
                meta.value()?.parse::<LitBool>().map_err(|error| {
                    syn::Error::new(
                        error.span(),
                        format!(
                            "`{}` is a flag or takes `true` or `false`, such as `{0}` or \
                             `{0} = false`",
                            HINT_KEYS[slot]
                        ),
                    )
                })?
            } else {
                LitBool::new(true, meta.path.span())
            };
            return set_once(&mut into.hints[slot], value, &meta);
        }
        let (slot, empty) = if meta.path.is_ident("name") {
            (
                &mut into.name,
                "the tool's name must not be empty; remove `name` to use the method's name",
            )
        } else if meta.path.is_ident("title") {
            (
                &mut into.title,
                "the title must not be empty; remove `title` to use the doc comment's first line",
            )
        } else {
            let hint = if is_description_key(&meta.path) {
                ": the description is the method's doc comment (`/// ...`)"
            } else {
                ""
            };
            return Err(unknown_key(&meta, "#[tool]", TOOL_KEYS, hint));
        };
        set_once(slot, non_empty(&meta, empty)?, &meta)
    });
    if let Err(error) = result {
        errors.push(error);
    }
}

pub(crate) fn parse_arg(attr: &Attribute, into: &mut ArgAttrs, errors: &mut Errors) {
    if matches!(attr.meta, syn::Meta::Path(_)) {
        errors.push_spanned(
            attr,
            "#[arg] needs a key: #[arg(name = \"...\")], #[arg(flatten)] or #[arg(default)]",
        );
        return;
    }
    let result = attr.parse_nested_meta(|meta| {
        if meta.path.is_ident("name") {
            let value = non_empty(
                &meta,
                "the argument's name must not be empty; remove `name` to use the parameter's name",
            )?;
            set_once(&mut into.name, value, &meta)
        } else if meta.path.is_ident("flatten") {
            set_once(&mut into.flatten, meta.path.clone(), &meta)
        } else if meta.path.is_ident("default") {
            if meta.input.peek(syn::Token![=]) {
                return Err(meta.error(
                    "`default` takes no value: an absent argument is `Default::default()`; \
                     for another default, make the parameter an `Option` and use `unwrap_or`",
                ));
            }
            set_once(&mut into.default, meta.path.clone(), &meta)
        } else {
            let hint = if meta.path.is_ident("rename") {
                ": to change the argument's key, use `name = \"...\"`"
            } else if is_description_key(&meta.path) {
                ": describe a parameter with a doc comment on it (`/// ...`) or in the \
                 method's `# Arguments` section"
            } else {
                ""
            };
            Err(unknown_key(&meta, "#[arg]", ARG_KEYS, hint))
        }
    });
    if let Err(error) = result {
        errors.push(error);
    }
}

/// `description`, `doc` or a typo of them: text that belongs in a doc comment.
fn is_description_key(path: &Path) -> bool {
    let given = path_text(path);
    ["description", "desc", "doc"]
        .iter()
        .any(|key| given == *key || is_typo_of(&given, key))
}

/// "unknown key `x` in #[tool] (did you mean `y`?); #[tool] takes `a` and `b`", on the key.
pub(crate) fn unknown_key(
    meta: &ParseNestedMeta,
    attribute: &str,
    keys: &[&str],
    hint: &str,
) -> syn::Error {
    let given = path_text(&meta.path);
    let known = match keys.split_last() {
        Some((last, [])) => format!("`{last}`"),
        Some((last, rest)) => {
            let rest: Vec<String> = rest.iter().map(|k| format!("`{k}`")).collect();
            format!("{} and `{last}`", rest.join(", "))
        }
        None => String::new(),
    };
    let suggestion = keys
        .iter()
        .filter(|key| hint.is_empty() && is_typo_of(&given, key))
        .map(|key| format!(" (did you mean `{key}`?)"))
        .next()
        .unwrap_or_default();
    syn::Error::new_spanned(
        &meta.path,
        format!(
            "unknown key `{given}` in {attribute}{suggestion}{hint}; {attribute} takes {known}"
        ),
    )
}

fn path_text(path: &Path) -> String {
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    segments.join("::")
}

/// Whether `given` is one edit (insertion, deletion, substitution or swap of neighbours)
/// away from `key`, a likely typo.
fn is_typo_of(given: &str, key: &str) -> bool {
    let a: Vec<char> = given.chars().collect();
    let b: Vec<char> = key.chars().collect();
    if a == b || a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[prefix..], &b[prefix..]);
    match (a.len(), b.len()) {
        (n, m) if n == m => {
            a[1..] == b[1..] || (n >= 2 && a[0] == b[1] && a[1] == b[0] && a[2..] == b[2..])
        }
        (n, m) if n > m => a[1..] == *b,
        _ => *a == b[1..],
    }
}

/// `tags = ["a", "b"]`: string literals, none empty, none twice.
fn parse_tags(meta: &ParseNestedMeta) -> syn::Result<Vec<LitStr>> {
    let value = meta.value()?;
    let expected = "`tags` takes a list of strings, such as `tags = [\"orders\", \"billing\"]`";
    let content;
    if !value.peek(syn::token::Bracket) {
        let found: proc_macro2::TokenTree = value.parse()?;
        return Err(syn::Error::new(found.span(), expected));
    }
    syn::bracketed!(content in value);
    let items =
        content.parse_terminated(<syn::Expr as syn::parse::Parse>::parse, syn::Token![,])?;
    let mut tags: Vec<LitStr> = Vec::new();
    for item in items {
        let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(tag),
            ..
        }) = item
        else {
            return Err(syn::Error::new_spanned(item, expected));
        };
        let text = tag.value();
        if text.trim().is_empty() {
            return Err(syn::Error::new(tag.span(), "a tag must not be empty"));
        }
        if tags.iter().any(|t| t.value() == text) {
            return Err(syn::Error::new(
                tag.span(),
                format!("the tag `{text}` is given twice; keep one"),
            ));
        }
        tags.push(tag);
    }
    Ok(tags)
}

/// `tag("orders", "Orders placed by customers")`: two string literals, neither empty.
fn parse_tag_description(meta: &ParseNestedMeta) -> syn::Result<(LitStr, LitStr)> {
    let expected = "`tag` takes a tag and what it stands for, such as \
                    `tag(\"orders\", \"Orders placed by customers\")`";
    if !meta.input.peek(syn::token::Paren) {
        return Err(meta.error(expected));
    }
    let content;
    syn::parenthesized!(content in meta.input);
    let strings =
        content.parse_terminated(<syn::Expr as syn::parse::Parse>::parse, syn::Token![,])?;
    let mut literals = Vec::new();
    for item in &strings {
        match item {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) => literals.push(text.clone()),
            other => return Err(syn::Error::new_spanned(other, expected)),
        }
    }
    let [tag, description] = <[LitStr; 2]>::try_from(literals)
        .map_err(|_| syn::Error::new_spanned(&strings, expected))?;
    if tag.value().trim().is_empty() {
        return Err(syn::Error::new(tag.span(), "a tag must not be empty"));
    }
    if description.value().trim().is_empty() {
        return Err(syn::Error::new(
            description.span(),
            "the description must not be empty; say what the tools with this tag are for",
        ));
    }
    Ok((tag, description))
}

pub(crate) fn non_empty(meta: &ParseNestedMeta, empty: &str) -> syn::Result<LitStr> {
    let value: LitStr = meta.value()?.parse()?;
    if value.value().trim().is_empty() {
        return Err(syn::Error::new(value.span(), empty));
    }
    Ok(value)
}

pub(crate) fn set_once<T>(
    slot: &mut Option<T>,
    value: T,
    meta: &ParseNestedMeta,
) -> syn::Result<()> {
    if slot.is_some() {
        let key = path_text(&meta.path);
        return Err(meta.error(format!("`{key}` is given twice; keep one")));
    }
    *slot = Some(value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::is_typo_of;

    #[test]
    fn typos_are_one_edit_away() {
        assert!(is_typo_of("nmae", "name"));
        assert!(is_typo_of("nam", "name"));
        assert!(is_typo_of("names", "name"));
        assert!(is_typo_of("titel", "title"));
        assert!(is_typo_of("defualt", "default"));
        assert!(!is_typo_of("rename", "name"));
        assert!(!is_typo_of("name", "name"));
        assert!(!is_typo_of("id", "name"));
    }
}
