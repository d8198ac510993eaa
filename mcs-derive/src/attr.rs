//! The macro's own attributes: `#[mcs::tool_driver(...)]`, `#[tool(...)]` and `#[arg(...)]`.

use syn::meta::ParseNestedMeta;
use syn::{Attribute, LitStr, Path};

use crate::errors::Errors;

/// `#[mcs::tool_driver(name = "...", id = "...", ...)]`.
#[derive(Default)]
pub struct DriverAttrs {
    pub name: Option<LitStr>,
    pub id: Option<LitStr>,
    pub version: Option<LitStr>,
    pub capability: Option<LitStr>,
    pub adapter: Option<LitStr>,
    pub spec_format: Option<LitStr>,
    /// Where the `mcs` crate is, for users who renamed it.
    pub krate: Option<Path>,
}

impl DriverAttrs {
    pub fn parse_meta(&mut self, meta: &ParseNestedMeta) -> syn::Result<()> {
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
            let path: LitStr = meta.value()?.parse()?;
            if self.krate.is_some() {
                return Err(meta.error("`crate` is given twice"));
            }
            self.krate = Some(path.parse()?);
            return Ok(());
        } else {
            return Err(meta.error(
                "unknown key; #[mcs::tool_driver] takes name, id, version, capability, adapter, \
                 spec_format and crate",
            ));
        };
        set_once(slot, non_empty(meta)?, meta)
    }
}

/// `#[tool]` or `#[tool(name = "...", title = "...")]` on a method.
#[derive(Default)]
pub struct ToolAttrs {
    pub name: Option<LitStr>,
    pub title: Option<LitStr>,
}

/// `#[arg(name = "...")]`, `#[arg(flatten)]`, `#[arg(default)]` on a parameter.
#[derive(Default)]
pub struct ArgAttrs {
    pub name: Option<LitStr>,
    pub flatten: Option<Path>,
    pub default: Option<Path>,
}

/// Whether `attr` is `#[tool]` or `#[mcs::tool]`.
pub fn is_tool(attr: &Attribute) -> bool {
    is_ours(attr, "tool")
}

/// Whether `attr` is `#[arg]` or `#[mcs::arg]`.
pub fn is_arg(attr: &Attribute) -> bool {
    is_ours(attr, "arg")
}

fn is_ours(attr: &Attribute, name: &str) -> bool {
    let path = attr.path();
    path.is_ident(name)
        || (path.segments.len() == 2
            && path.segments[0].ident == "mcs"
            && path.segments[1].ident == name)
}

pub fn parse_tool(attr: &Attribute, into: &mut ToolAttrs, errors: &mut Errors) {
    if matches!(attr.meta, syn::Meta::Path(_)) {
        return;
    }
    let result = attr.parse_nested_meta(|meta| {
        let slot = if meta.path.is_ident("name") {
            &mut into.name
        } else if meta.path.is_ident("title") {
            &mut into.title
        } else {
            return Err(meta.error("unknown key; #[tool] takes `name` and `title`"));
        };
        set_once(slot, non_empty(&meta)?, &meta)
    });
    if let Err(error) = result {
        errors.push(error);
    }
}

pub fn parse_arg(attr: &Attribute, into: &mut ArgAttrs, errors: &mut Errors) {
    let result = attr.parse_nested_meta(|meta| {
        if meta.path.is_ident("name") {
            let value = non_empty(&meta)?;
            set_once(&mut into.name, value, &meta)
        } else if meta.path.is_ident("flatten") {
            set_once(&mut into.flatten, meta.path.clone(), &meta)
        } else if meta.path.is_ident("default") {
            set_once(&mut into.default, meta.path.clone(), &meta)
        } else {
            Err(meta.error("unknown key; #[arg] takes `name`, `flatten` and `default`"))
        }
    });
    if let Err(error) = result {
        errors.push(error);
    }
}

fn non_empty(meta: &ParseNestedMeta) -> syn::Result<LitStr> {
    let value: LitStr = meta.value()?.parse()?;
    if value.value().trim().is_empty() {
        return Err(syn::Error::new(
            value.span(),
            "this value must not be empty",
        ));
    }
    Ok(value)
}

fn set_once<T>(slot: &mut Option<T>, value: T, meta: &ParseNestedMeta) -> syn::Result<()> {
    if slot.is_some() {
        let key = meta
            .path
            .get_ident()
            .map_or_else(|| "this key".to_owned(), |i| format!("`{i}`"));
        return Err(meta.error(format!("{key} is given twice")));
    }
    *slot = Some(value);
    Ok(())
}
