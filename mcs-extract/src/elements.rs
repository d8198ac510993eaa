//! Formats whose arguments are a tree of elements: MiniMax-M3, where a special token
//! (`]<]minimax[>[`) stands before every tag, `<tool_call>` holds `<invoke name="N">`
//! blocks, and each parameter is an element named by its key:
//! `<city>Tokyo</city>`; an element's children are an object's keys
//! (`<number><real>1.5</real>…</number>`), or `<item>`s, an array's items.

use serde_json::{Map, Value};

use super::coerce::declares;
use super::record::{Broken, Cx, RawCall};
use super::scan::{ends_by, find_cached, plausible_name, to_end};
use super::xml::attribute;
use mcs_core::call::CallFormat;
use mcs_core::schema::{self, CoercionPolicy};

/// The token before every tag of MiniMax-M3's tool calls.
const TOKEN: &str = "]<]minimax[>[";

/// How deep elements may nest: deeper is not a call anyone wrote.
const MAX_DEPTH: usize = 32;

/// One tag of the region: where it starts (at its token), its name, whether it closes,
/// its attributes' text, and the text after it up to the next token.
struct Tag<'t> {
    at: usize,
    name: &'t str,
    closing: bool,
    attributes: &'t str,
    /// Where the text after the tag starts and ends.
    text: (usize, usize),
}

/// An element: its name, its attributes, its children, and the span of what it holds.
struct Element<'t> {
    name: &'t str,
    attributes: &'t str,
    children: Vec<Element<'t>>,
    /// From the end of its opening tag to the start of its closing tag's token.
    inner: (usize, usize),
}

/// MiniMax-M3 `]<]minimax[>[<tool_call>` … `]<]minimax[>[</tool_call>`.
pub(crate) fn minimax_m3(cx: &mut Cx<'_>, start: usize, after: usize) -> Option<usize> {
    let text = cx.text;
    let format = CallFormat::MiniMaxM3;
    let close = format!("{TOKEN}</tool_call>");
    let (end, region_end) = match find_cached(text, after, text.len(), &close) {
        Some(at) => (at + close.len(), at),
        None => {
            // The output ended inside the block: nothing of it runs.
            if ends_by(text, text.len()) {
                let detail = "the output ends inside the tool call block".to_owned();
                cx.malformed(start, format, Broken::cut(None, detail));
            }
            return Some(to_end(text));
        }
    };
    let tags = tags(text, after, region_end);
    let mut i = 0;
    let mut found = false;
    while i < tags.len() {
        let tag = &tags[i];
        if tag.closing || tag.name != "invoke" {
            i += 1;
            continue;
        }
        found = true;
        let Some((invoke, next)) = element(&tags, i, 0) else {
            let detail = "an `<invoke>` is not closed".to_owned();
            cx.malformed(tag.at, format, Broken::new(None, detail));
            return Some(end);
        };
        i = next;
        let name = attribute(invoke.attributes, "name").unwrap_or_default();
        if !plausible_name(&name) {
            let detail = "an `<invoke>` has no tool name".to_owned();
            cx.malformed(tag.at, format, Broken::new(None, detail));
            continue;
        }
        let tool = cx.tool(&name);
        let arguments = children_object(&invoke.children, |parameter| {
            let declared = tool.and_then(|tool| tool.parameter(parameter.element.name));
            let schema = declared.and_then(|p| p.resolved_schema());
            let item_schema = repeated_item_schema(schema.as_deref(), parameter.repeated);
            let mut value = build(text, parameter.element, item_schema);
            if let Some(schema) = item_schema {
                schema::coerce_value(&mut value, schema, &CoercionPolicy::TEXT);
            }
            value
        });
        let call = RawCall {
            name,
            arguments: Value::Object(arguments),
            id: None,
            repaired: false,
        };
        cx.call(tag.at, format, call);
    }
    if !found {
        let detail = "the tool call block holds no `<invoke>`".to_owned();
        cx.malformed(start, format, Broken::new(None, detail));
    }
    Some(end)
}

/// The tags of `text[from..to]`, each after a [`TOKEN`].
fn tags(text: &str, from: usize, to: usize) -> Vec<Tag<'_>> {
    let mut tags = Vec::new();
    // The region starts right after `<tool_call>`: its own text first, then tokens.
    let mut pos = from;
    while let Some(at) = find_cached(text, pos, to, TOKEN) {
        let open = at + TOKEN.len();
        let next = find_cached(text, open, to, TOKEN).unwrap_or(to);
        pos = next;
        let piece = &text[open..next];
        let Some(rest) = piece.strip_prefix('<') else {
            continue;
        };
        let Some(gt) = rest.find('>') else {
            continue;
        };
        let head = &rest[..gt];
        let (closing, head) = match head.strip_prefix('/') {
            Some(head) => (true, head),
            None => (false, head),
        };
        let (name, attributes) = head.split_once(' ').unwrap_or((head, ""));
        let text_start = open + 1 + gt + 1;
        tags.push(Tag {
            at,
            name: name.trim(),
            closing,
            attributes,
            text: (text_start, next),
        });
    }
    tags
}

/// The element whose opening tag is `tags[i]`, and the index after its closing tag; `None`
/// when it does not close.
fn element<'t>(tags: &[Tag<'t>], i: usize, depth: usize) -> Option<(Element<'t>, usize)> {
    let open = tags.get(i)?;
    if depth > MAX_DEPTH {
        return None;
    }
    let mut children = Vec::new();
    let mut j = i + 1;
    loop {
        let tag = tags.get(j)?;
        if tag.closing {
            if tag.name != open.name {
                return None;
            }
            let element = Element {
                name: open.name,
                attributes: open.attributes,
                children,
                inner: (open.text.0, tag.at),
            };
            return Some((element, j + 1));
        }
        let (child, next) = element(tags, j, depth + 1)?;
        children.push(child);
        j = next;
    }
}

/// The value of `element`: its text when it holds no element (typed afterwards by the
/// schema), what it holds as written when the schema takes a string, else an array of its
/// `<item>`s or an object of its children.
fn build(text: &str, element: &Element<'_>, schema: Option<&Value>) -> Value {
    let (from, to) = element.inner;
    let inner = &text[from.min(to)..to];
    let listed = element.children.iter().all(|child| child.name == "item");
    // The alternative of the schema that takes what the children make; a schema that takes
    // a string but not that keeps them as the text they are.
    let shape = if listed { "array" } else { "object" };
    let structured = schema.and_then(|schema| taking(schema, shape));
    if element.children.is_empty()
        || (structured.is_none() && schema.is_some_and(|schema| taking(schema, "string").is_some()))
    {
        return Value::String(inner.to_owned());
    }
    let schema = structured.or(schema);
    if listed {
        let items = schema.and_then(|schema| schema.get("items"));
        return Value::Array(
            element
                .children
                .iter()
                .map(|child| build(text, child, items))
                .collect(),
        );
    }
    Value::Object(children_object(&element.children, |child| {
        let property = schema
            .and_then(|schema| schema.get("properties"))
            .and_then(|properties| properties.get(child.element.name));
        build(
            text,
            child.element,
            repeated_item_schema(property, child.repeated),
        )
    }))
}

/// A child element as [`children_object`] gives it: whether its name repeats among its
/// siblings.
struct Child<'e, 't> {
    element: &'e Element<'t>,
    repeated: bool,
}

/// The object of `children`, each valued by `value`. An element name given more than once
/// is a list of their values, in order (`<tag>a</tag><tag>b</tag>` is `"tag": ["a", "b"]`),
/// as XML writes one: none is dropped.
fn children_object<'t>(
    children: &[Element<'t>],
    mut value: impl FnMut(&Child<'_, 't>) -> Value,
) -> Map<String, Value> {
    let mut counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for child in children {
        *counts.entry(child.name).or_default() += 1;
    }
    let mut object = Map::new();
    for element in children {
        let child = Child {
            element,
            repeated: counts.get(element.name).is_some_and(|&n| n > 1),
        };
        let built = value(&child);
        if child.repeated {
            if let Value::Array(items) = object
                .entry(element.name.to_owned())
                .or_insert_with(|| Value::Array(Vec::new()))
            {
                items.push(built);
            }
        } else {
            object.insert(element.name.to_owned(), built);
        }
    }
    object
}

/// The schema of one of a repeated element's values: its list's `items`, where the
/// schema declares a list.
fn repeated_item_schema(schema: Option<&Value>, repeated: bool) -> Option<&Value> {
    match schema {
        Some(schema) if repeated => schema.get("items").or(Some(schema)),
        schema => schema,
    }
}

/// The part of `schema` that takes a value of JSON type `kind`: itself, or the first of its
/// alternatives (`anyOf`, `oneOf`, at any depth) that does.
fn taking<'s>(schema: &'s Value, kind: &str) -> Option<&'s Value> {
    if declares(schema, kind) {
        return Some(schema);
    }
    ["anyOf", "oneOf"].iter().find_map(|key| {
        schema
            .get(*key)
            .and_then(Value::as_array)?
            .iter()
            .find_map(|alternative| taking(alternative, kind))
    })
}
