//! XML request bodies: a call's JSON body written as an XML document, laid out by the
//! OpenAPI `xml` hints the reader kept in [`RequestBody::xml`](super::RequestBody::xml).
//!
//! The layout: the root element is named by the layout's `xml.name` (`body` without one);
//! an object's properties become child elements in the schema's order (keys the schema does
//! not list follow, in the call's order), or attributes when their `xml.attribute` is true;
//! an array becomes repeated elements named by its items' `xml.name` (else the array's own
//! name), inside a wrapper element when `xml.wrapped` is true (an array at the root is
//! always wrapped: a document has one root); a scalar becomes escaped text; `null` leaves
//! the element out. `xml.prefix` with `xml.namespace` declares the prefix on the element
//! that uses it (`xmlns:p="..."`), `xml.namespace` alone makes it the default namespace
//! there; a prefix without a namespace is kept only where an enclosing element bound it,
//! and an attribute's namespace only with a prefix (unprefixed attributes have none).
//!
//! Written by hand rather than with an XML crate: the writing is a few tags, escaped text
//! and declarations, while what needs care — names checked against XML's `Name`
//! production, characters XML 1.0 cannot carry refused, the argument at fault named — is
//! ours either way (quick-xml's writer, for one, escapes text but checks neither).

use serde_json::{Map, Value};

use mcs_core::schema::describe_received;

use super::params::scalar_text;

/// Values nested deeper than this are refused (the writer recurses once per level).
const MAX_DEPTH: usize = 128;

/// At most this many `$ref`s are followed in a row; a longer chain counts as a cycle.
const MAX_REFS: usize = 32;

/// At most this many layout nodes are looked at to find one property or items schema, so a
/// layout of deeply combined schemas costs bounded time.
const MAX_VISITS: usize = 256;

/// The root element's name when the layout gives none.
const DEFAULT_ROOT: &str = "body";

/// Why a body could not be written as XML: the argument (a path such as `pet.tags[1]`)
/// and what it should have been, in the words of an invalid-argument error.
pub(crate) struct XmlProblem {
    pub argument: String,
    pub expected: String,
    pub received: String,
}

/// Whether `name` is an XML name (the `Name` production of XML 1.0, fifth edition): what
/// an element or attribute may be called. Letters, digits, `_`, `-`, `.`, `:` and a range
/// of non-ASCII characters; not starting with a digit, `-` or `.`; not empty. The OpenAPI
/// reader checks a document's `xml.name` with it, so both sides hold names to one rule.
#[doc(hidden)]
pub fn is_xml_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(is_name_start) && chars.all(is_name_char)
}

/// An XML name without a colon (`NCName`): what a namespace prefix may be.
fn is_prefix(name: &str) -> bool {
    !name.contains(':') && is_xml_name(name)
}

fn is_name_start(c: char) -> bool {
    matches!(c,
        ':' | 'A'..='Z' | '_' | 'a'..='z'
        | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}' | '\u{F8}'..='\u{2FF}'
        | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}' | '\u{200C}'..='\u{200D}'
        | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}' | '\u{3001}'..='\u{D7FF}'
        | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}' | '\u{10000}'..='\u{EFFFF}')
}

fn is_name_char(c: char) -> bool {
    is_name_start(c)
        || matches!(c,
            '-' | '.' | '0'..='9' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
}

/// Whether XML 1.0 can carry `c` at all (its `Char` production): no control characters
/// other than tab, line feed and carriage return, no U+FFFE or U+FFFF.
fn is_xml_char(c: char) -> bool {
    matches!(c,
        '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}'
        | '\u{10000}'..='\u{10FFFF}')
}

/// `value` as an XML document, with an XML declaration naming `encoding` (what the caller
/// encodes the text in), laid out by `layout` (the row's JSON text). `root_path` names the
/// body in errors: the whole body's argument, or empty when the body is spread into one
/// argument per property.
pub(crate) fn write(
    layout: Option<&str>,
    value: &Value,
    root_path: &str,
    encoding: &str,
) -> Result<String, XmlProblem> {
    let layout = Layout::parse(layout);
    let mut writer = Writer {
        layout: &layout,
        out: format!("<?xml version=\"1.0\" encoding=\"{encoding}\"?>\n"),
        scope: Vec::new(),
    };
    let root = &layout.root;
    let name = layout.hints(root).name.unwrap_or(DEFAULT_ROOT);
    match value {
        // An empty body is still one (empty) root element.
        Value::Null => {
            let hints = layout.hints(root);
            let open = writer.open(name, &hints, &[], root_path)?;
            writer.close(open);
        }
        _ => writer.element(name, Some(root), value, root_path, 0)?,
    }
    Ok(writer.out)
}

/// The parsed layout: the root node, which holds the `$defs` references point into.
struct Layout {
    root: Value,
}

/// What a node's `xml` object says, its references' included (the node's own hints win).
#[derive(Default)]
struct Hints<'a> {
    name: Option<&'a str>,
    namespace: Option<&'a str>,
    prefix: Option<&'a str>,
    attribute: bool,
    wrapped: bool,
}

impl Layout {
    fn parse(text: Option<&str>) -> Layout {
        let root = text
            .and_then(|text| serde_json::from_str::<Value>(text).ok())
            .filter(Value::is_object)
            .unwrap_or_else(|| Value::Object(Map::new()));
        Layout { root }
    }

    /// The node a `{"$ref": "#/$defs/NAME"}` points to, or `None` when `node` is no
    /// reference (or a dangling one).
    fn referenced<'a>(&'a self, node: &'a Value) -> Option<&'a Value> {
        let name = node.get("$ref")?.as_str()?.strip_prefix("#/$defs/")?;
        self.root.get("$defs")?.get(name)
    }

    /// `node` with its references followed to the end.
    fn target<'a>(&'a self, node: &'a Value) -> &'a Value {
        let mut current = node;
        for _ in 0..MAX_REFS {
            match self.referenced(current) {
                Some(next) => current = next,
                None => break,
            }
        }
        current
    }

    fn hints<'a>(&'a self, node: &'a Value) -> Hints<'a> {
        let mut hints = Hints::default();
        let (mut attribute, mut wrapped) = (None, None);
        let mut current = Some(node);
        for _ in 0..MAX_REFS {
            let Some(node) = current else { break };
            if let Some(xml) = node.get("xml") {
                let text = |key: &str| xml.get(key).and_then(Value::as_str);
                let flag = |key: &str| xml.get(key).and_then(Value::as_bool);
                hints.name = hints.name.or_else(|| text("name"));
                hints.namespace = hints.namespace.or_else(|| text("namespace"));
                hints.prefix = hints.prefix.or_else(|| text("prefix"));
                attribute = attribute.or_else(|| flag("attribute"));
                wrapped = wrapped.or_else(|| flag("wrapped"));
            }
            current = self.referenced(node);
        }
        hints.namespace = hints.namespace.filter(|uri| !uri.is_empty());
        hints.prefix = hints.prefix.filter(|prefix| !prefix.is_empty());
        hints.attribute = attribute == Some(true);
        hints.wrapped = wrapped == Some(true);
        hints
    }

    /// The first answer `look` gives for `node` or a schema it is combined with
    /// (`allOf`/`anyOf`/`oneOf`, references followed), breadth first.
    fn find<'a, T>(
        &'a self,
        node: &'a Value,
        mut look: impl FnMut(&'a Value) -> Option<T>,
    ) -> Option<T> {
        let mut queue = std::collections::VecDeque::from([node]);
        let mut visits = 0;
        while let Some(node) = queue.pop_front() {
            visits += 1;
            if visits > MAX_VISITS {
                break;
            }
            let node = self.target(node);
            if let Some(found) = look(node) {
                return Some(found);
            }
            for keyword in ["allOf", "anyOf", "oneOf"] {
                if let Some(Value::Array(members)) = node.get(keyword) {
                    queue.extend(members);
                }
            }
        }
        None
    }

    fn property<'a>(&'a self, node: &'a Value, key: &str) -> Option<&'a Value> {
        self.find(node, |node| node.get("properties")?.get(key))
    }

    fn items<'a>(&'a self, node: &'a Value) -> Option<&'a Value> {
        self.find(node, |node| node.get("items"))
    }

    /// The property names the schema lists, in order, combined schemas' after its own.
    fn property_names<'a>(&'a self, node: &'a Value) -> Vec<&'a str> {
        let mut names: Vec<&str> = Vec::new();
        self.find(node, |node| {
            if let Some(Value::Object(properties)) = node.get("properties") {
                for name in properties.keys() {
                    if !names.contains(&name.as_str()) {
                        names.push(name);
                    }
                }
            }
            None::<()>
        });
        names
    }
}

/// An element whose start tag is written: what closing it needs.
struct Open {
    name: String,
    /// Where the start tag's `>` is, to make it `/>` when nothing follows.
    content_start: usize,
}

/// A property to be written as an attribute of the element being opened.
struct Attribute<'a> {
    key: &'a str,
    node: Option<&'a Value>,
    value: &'a Value,
}

struct Writer<'l> {
    layout: &'l Layout,
    out: String,
    /// The namespace bindings each open element declared, innermost last: (prefix, URI),
    /// the prefix empty for the default namespace.
    scope: Vec<Vec<(String, String)>>,
}

fn child_path(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn problem(argument: &str, expected: impl Into<String>, received: String) -> XmlProblem {
    XmlProblem {
        argument: argument.to_owned(),
        expected: expected.into(),
        received,
    }
}

impl<'l> Writer<'l> {
    /// `value` as the element `name` (unless its node names it otherwise): an object's
    /// properties inside it, an array's items inside it, a scalar as its text.
    fn element(
        &mut self,
        name: &str,
        node: Option<&'l Value>,
        value: &'l Value,
        path: &str,
        depth: usize,
    ) -> Result<(), XmlProblem> {
        if depth > MAX_DEPTH {
            return Err(problem(
                path,
                format!("a value nested at most {MAX_DEPTH} levels deep"),
                "a deeper one".to_owned(),
            ));
        }
        let hints = node.map(|node| self.layout.hints(node)).unwrap_or_default();
        let name = hints.name.unwrap_or(name);
        match value {
            Value::Null => Ok(()),
            Value::Array(items) => {
                let item_node = node.and_then(|node| self.layout.items(node));
                let item_name = item_node
                    .and_then(|node| self.layout.hints(node).name)
                    .unwrap_or(name);
                let open = self.open(name, &hints, &[], path)?;
                for (index, item) in items.iter().enumerate() {
                    let item_path = format!("{path}[{index}]");
                    self.element(item_name, item_node, item, &item_path, depth + 1)?;
                }
                self.close(open);
                Ok(())
            }
            Value::Object(map) => {
                let mut keys: Vec<&str> = match node {
                    Some(node) => self.layout.property_names(node),
                    None => Vec::new(),
                };
                keys.retain(|key| map.contains_key(*key));
                for key in map.keys() {
                    if !keys.contains(&key.as_str()) {
                        keys.push(key);
                    }
                }
                let mut attributes = Vec::new();
                let mut children = Vec::new();
                for key in keys {
                    let Some(value) = map.get(key) else { continue };
                    let child = node.and_then(|node| self.layout.property(node, key));
                    let member = Attribute {
                        key,
                        node: child,
                        value,
                    };
                    if child.is_some_and(|child| self.layout.hints(child).attribute) {
                        attributes.push(member);
                    } else {
                        children.push(member);
                    }
                }
                let open = self.open(name, &hints, &attributes, path)?;
                for child in children {
                    let child_path = child_path(path, child.key);
                    self.member(child.key, child.node, child.value, &child_path, depth + 1)?;
                }
                self.close(open);
                Ok(())
            }
            scalar => {
                let open = self.open(name, &hints, &[], path)?;
                let text = scalar_text(scalar);
                escape(&text, false, &mut self.out).map_err(|c| bad_char(path, c))?;
                self.close(open);
                Ok(())
            }
        }
    }

    /// The property `key` of an object: an array repeats its items' element (inside a
    /// wrapper when `xml.wrapped`), anything else is one element.
    fn member(
        &mut self,
        key: &str,
        node: Option<&'l Value>,
        value: &'l Value,
        path: &str,
        depth: usize,
    ) -> Result<(), XmlProblem> {
        let Value::Array(items) = value else {
            return self.element(key, node, value, path, depth);
        };
        let hints = node.map(|node| self.layout.hints(node)).unwrap_or_default();
        let outer = hints.name.unwrap_or(key);
        let item_node = node.and_then(|node| self.layout.items(node));
        let item_name = item_node
            .and_then(|node| self.layout.hints(node).name)
            .unwrap_or(outer);
        let wrapper = if hints.wrapped {
            Some(self.open(outer, &hints, &[], path)?)
        } else {
            None
        };
        for (index, item) in items.iter().enumerate() {
            let item_path = format!("{path}[{index}]");
            self.element(item_name, item_node, item, &item_path, depth + 1)?;
        }
        if let Some(open) = wrapper {
            self.close(open);
        }
        Ok(())
    }

    /// Writes the start tag of `name` with its namespace declarations and `attributes`.
    fn open(
        &mut self,
        name: &str,
        hints: &Hints<'_>,
        attributes: &[Attribute<'_>],
        path: &str,
    ) -> Result<Open, XmlProblem> {
        let mut declared: Vec<(String, String)> = Vec::new();
        let element = self.qualify(name, hints, false, &mut declared, path)?;
        let mut written: Vec<(String, String)> = Vec::new();
        for attribute in attributes {
            let at = child_path(path, attribute.key);
            let text = match attribute.value {
                Value::Null => continue,
                Value::Array(_) | Value::Object(_) => {
                    return Err(problem(
                        &at,
                        "a string, number or boolean (it is sent as an XML attribute)",
                        describe_received(attribute.value),
                    ));
                }
                scalar => scalar_text(scalar),
            };
            let hints = attribute
                .node
                .map(|node| self.layout.hints(node))
                .unwrap_or_default();
            let local = hints.name.unwrap_or(attribute.key);
            let qualified = self.qualify(local, &hints, true, &mut declared, &at)?;
            if written.iter().any(|(existing, _)| *existing == qualified) {
                return Err(problem(
                    &at,
                    format!("an attribute name of its own, not `{qualified}` again"),
                    format!("a second attribute `{qualified}`"),
                ));
            }
            let mut escaped = String::new();
            escape(&text, true, &mut escaped).map_err(|c| bad_char(&at, c))?;
            written.push((qualified, escaped));
        }
        self.out.push('<');
        self.out.push_str(&element);
        for (prefix, uri) in &declared {
            let mut escaped = String::new();
            escape(uri, true, &mut escaped).map_err(|c| bad_char(path, c))?;
            if prefix.is_empty() {
                self.out.push_str(&format!(" xmlns=\"{escaped}\""));
            } else {
                self.out.push_str(&format!(" xmlns:{prefix}=\"{escaped}\""));
            }
        }
        for (name, value) in &written {
            self.out.push_str(&format!(" {name}=\"{value}\""));
        }
        self.out.push('>');
        self.scope.push(declared);
        Ok(Open {
            name: element,
            content_start: self.out.len(),
        })
    }

    fn close(&mut self, open: Open) {
        self.scope.pop();
        if self.out.len() == open.content_start {
            self.out.pop();
            self.out.push_str("/>");
        } else {
            self.out.push_str(&format!("</{}>", open.name));
        }
    }

    /// The URI `prefix` is bound to where the element being opened is (its own
    /// declarations so far included).
    fn bound<'a>(&'a self, prefix: &str, declared: &'a [(String, String)]) -> Option<&'a str> {
        declared
            .iter()
            .rev()
            .chain(self.scope.iter().rev().flat_map(|frame| frame.iter().rev()))
            .find(|(bound, _)| bound == prefix)
            .map(|(_, uri)| uri.as_str())
    }

    /// The name written for `local` with `hints`: prefixed when the prefix is or becomes
    /// bound, with the declarations that needs added to `declared`.
    fn qualify(
        &self,
        local: &str,
        hints: &Hints<'_>,
        attribute: bool,
        declared: &mut Vec<(String, String)>,
        path: &str,
    ) -> Result<String, XmlProblem> {
        let what = if attribute { "attribute" } else { "element" };
        if !is_xml_name(local) {
            return Err(problem(
                path,
                format!(
                    "a name an XML {what} can have (letters, digits, `_`, `-`, `.`; not \
                     starting with a digit, `-` or `.`)"
                ),
                format!("the name `{local}`"),
            ));
        }
        let Some(prefix) = hints.prefix else {
            if let Some(uri) = hints.namespace
                && !attribute
                && self.bound("", declared) != Some(uri)
            {
                declared.push((String::new(), uri.to_owned()));
            }
            return Ok(local.to_owned());
        };
        if !is_prefix(prefix) || prefix == "xmlns" {
            return Err(problem(
                path,
                format!("an XML {what} whose namespace prefix is a name without `:`"),
                format!("the prefix `{prefix}`"),
            ));
        }
        if prefix == "xml" {
            return Ok(format!("xml:{local}"));
        }
        match hints.namespace {
            Some(uri) => match self.bound(prefix, declared) {
                Some(bound) if bound == uri => {}
                Some(other) if declared.iter().any(|(p, _)| p == prefix) => {
                    return Err(problem(
                        path,
                        format!("one namespace for the prefix `{prefix}` on one element"),
                        format!("both `{other}` and `{uri}`"),
                    ));
                }
                _ => declared.push((prefix.to_owned(), uri.to_owned())),
            },
            None if self.bound(prefix, declared).is_none() => return Ok(local.to_owned()),
            None => {}
        }
        Ok(format!("{prefix}:{local}"))
    }
}

fn bad_char(path: &str, c: char) -> XmlProblem {
    problem(
        path,
        "text XML 1.0 can carry (no control characters but tab, line feed and carriage return)",
        format!("text holding U+{:04X}", u32::from(c)),
    )
}

/// Appends `text` escaped for XML content, or for a double-quoted attribute value (where
/// tabs and line breaks are written as references, which attribute normalisation keeps);
/// the first character XML cannot carry is the error.
fn escape(text: &str, attribute: bool, out: &mut String) -> Result<(), char> {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\r' => out.push_str("&#13;"),
            '"' if attribute => out.push_str("&quot;"),
            '\t' if attribute => out.push_str("&#9;"),
            '\n' if attribute => out.push_str("&#10;"),
            c if !is_xml_char(c) => return Err(c),
            c => out.push(c),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn written(layout: Value, value: Value) -> String {
        let layout = layout.to_string();
        match write(Some(&layout), &value, "", "UTF-8") {
            Ok(document) => document,
            Err(problem) => panic!("{}: {}", problem.argument, problem.expected),
        }
    }

    #[test]
    fn names_follow_the_xml_name_production() {
        for name in ["pet", "_a", "a-b.c", "ns:pet", "été", "a1"] {
            assert!(is_xml_name(name), "{name}");
        }
        for name in ["", "1a", "-a", ".a", "a b", "a/b", "a<b"] {
            assert!(!is_xml_name(name), "{name}");
        }
        assert!(!is_prefix("a:b"));
    }

    #[test]
    fn an_empty_object_is_a_self_closed_root() {
        assert_eq!(
            written(json!({"xml": {"name": "ping"}}), json!({})),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ping/>"
        );
    }

    #[test]
    fn a_root_array_is_wrapped_and_its_items_named() {
        let layout = json!({"xml": {"name": "pets"}, "items": {"xml": {"name": "pet"}}});
        assert_eq!(
            written(layout, json!(["a", "b"])),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<pets><pet>a</pet><pet>b</pet></pets>"
        );
    }

    #[test]
    fn a_reference_cycle_in_the_layout_ends() {
        let layout = json!({"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/A"}}});
        assert_eq!(
            written(layout, json!({"a": 1})),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<body><a>1</a></body>"
        );
    }

    #[test]
    fn a_layout_that_is_not_json_lays_out_by_default() {
        let document =
            write(Some("not json"), &json!({"a": true}), "", "UTF-8").unwrap_or_default();
        assert_eq!(
            document,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<body><a>true</a></body>"
        );
    }
}
