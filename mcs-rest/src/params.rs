//! Writing argument values as path segments, query pairs, header and cookie values, by
//! OpenAPI's `style` and `explode` rules.
//!
//! Values are percent-encoded piece by piece and joined with the style's delimiters, so a
//! value can never add a path segment, start a query or fragment, or smuggle a header line.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_encode, utf8_percent_encode};
use serde_json::{Map, Value};

use super::table::{Parameter, Style};

/// Everything but RFC 3986's unreserved characters is encoded inside a path value: `/`,
/// `?`, `#`, `%` and `;` lose their meaning.
const PATH_VALUE: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Query values: the same, so `&`, `=`, `+` and `#` stay data.
const QUERY_VALUE: &AsciiSet = PATH_VALUE;

/// Query values of `allowReserved` parameters keep RFC 3986's reserved characters, except
/// the ones that would end the value (`&`, `#`).
const QUERY_RESERVED: &AsciiSet = &PATH_VALUE
    .remove(b':')
    .remove(b'/')
    .remove(b'?')
    .remove(b'[')
    .remove(b']')
    .remove(b'@')
    .remove(b'!')
    .remove(b'$')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b';')
    .remove(b'=');

/// Cookie values: RFC 6265 cookie-octets pass; `;`, `,`, space, quotes, backslash and
/// controls are encoded.
const COOKIE_VALUE: &AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b',')
    .add(b';')
    .add(b'\\')
    .add(b'%');

/// A scalar as text: strings as they are, everything else as JSON (`true`, `3`, `null`).
/// A whole number written with a fraction (`5.0`, which JSON Schema counts as an integer,
/// and models write) is written as one (`5`): `?page=5.0` is refused by APIs that read an
/// integer.
pub(crate) fn scalar_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Number(number) if !number.is_i64() && !number.is_u64() => number
            .as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0)
            .map_or_else(|| number.to_string(), |f| format!("{:.0}", f + 0.0)),
        other => other.to_string(),
    }
}

fn encode(text: &str, set: &'static AsciiSet) -> String {
    utf8_percent_encode(text, set).to_string()
}

/// The items of an array, or the key/value pairs of an object, as encoded text; nested
/// arrays and objects inside them are written as JSON.
enum Shape {
    Scalar(String),
    List(Vec<String>),
    Pairs(Vec<(String, String)>),
}

fn shape(value: &Value, set: &'static AsciiSet) -> Shape {
    match value {
        Value::Array(items) => Shape::List(
            items
                .iter()
                .map(|item| encode(&scalar_text(item), set))
                .collect(),
        ),
        Value::Object(map) => Shape::Pairs(
            map.iter()
                .map(|(k, v)| (encode(k, set), encode(&scalar_text(v), set)))
                .collect(),
        ),
        scalar => Shape::Scalar(encode(&scalar_text(scalar), set)),
    }
}

fn flatten_pairs(pairs: Vec<(String, String)>, inner: &str, outer: &str) -> String {
    pairs
        .into_iter()
        .map(|(k, v)| format!("{k}{inner}{v}"))
        .collect::<Vec<_>>()
        .join(outer)
}

/// The text that replaces `{name}` in the path (styles `simple`, `label`, `matrix`).
pub(crate) fn path_value(parameter: &Parameter, value: &Value) -> String {
    let name = encode(&parameter.name, PATH_VALUE);
    let explode = parameter.explode;
    match (parameter.style, shape(value, PATH_VALUE)) {
        (Style::Label, Shape::Scalar(v)) => format!(".{v}"),
        (Style::Label, Shape::List(items)) => {
            format!(".{}", items.join(if explode { "." } else { "," }))
        }
        (Style::Label, Shape::Pairs(pairs)) if explode => {
            format!(".{}", flatten_pairs(pairs, "=", "."))
        }
        (Style::Label, Shape::Pairs(pairs)) => format!(".{}", flatten_pairs(pairs, ",", ",")),
        (Style::Matrix, Shape::Scalar(v)) => format!(";{name}={v}"),
        (Style::Matrix, Shape::List(items)) if explode => {
            items.iter().map(|item| format!(";{name}={item}")).collect()
        }
        (Style::Matrix, Shape::List(items)) => format!(";{name}={}", items.join(",")),
        (Style::Matrix, Shape::Pairs(pairs)) if explode => {
            format!(";{}", flatten_pairs(pairs, "=", ";"))
        }
        (Style::Matrix, Shape::Pairs(pairs)) => {
            format!(";{name}={}", flatten_pairs(pairs, ",", ","))
        }
        (_, Shape::Scalar(v)) => v,
        (style, Shape::List(items)) => items.join(list_delimiter(style).unwrap_or(",")),
        (_, Shape::Pairs(pairs)) if explode => flatten_pairs(pairs, "=", ","),
        (_, Shape::Pairs(pairs)) => flatten_pairs(pairs, ",", ","),
    }
}

/// The encoded `key=value` pairs a query parameter adds (styles `form`, `spaceDelimited`,
/// `pipeDelimited`, `deepObject`).
pub(crate) fn query_pairs(parameter: &Parameter, value: &Value, out: &mut Vec<(String, String)>) {
    let set = if parameter.allow_reserved {
        QUERY_RESERVED
    } else {
        QUERY_VALUE
    };
    let name = encode(&parameter.name, QUERY_VALUE);
    match (parameter.style, value) {
        (Style::DeepObject, Value::Object(map)) => deep_object(&name, map, set, 0, out),
        (_, value) => match shape(value, set) {
            Shape::Scalar(v) => out.push((name, v)),
            Shape::List(items) if parameter.explode => {
                out.extend(items.into_iter().map(|item| (name.clone(), item)));
            }
            Shape::List(items) => {
                let delimiter = match parameter.style {
                    // A bare `|` is what servers expect of pipeDelimited in a query.
                    Style::PipeDelimited => "|",
                    style => list_delimiter(style).unwrap_or(","),
                };
                out.push((name, items.join(delimiter)));
            }
            Shape::Pairs(pairs) if parameter.explode => out.extend(pairs),
            Shape::Pairs(pairs) => out.push((name, flatten_pairs(pairs, ",", ","))),
        },
    }
}

/// The separator, percent-encoded, of a delimited style's list items in a path or a
/// query (`None` for the styles that use a comma).
fn list_delimiter(style: Style) -> Option<&'static str> {
    match style {
        Style::SpaceDelimited => Some("%20"),
        Style::PipeDelimited => Some("%7C"),
        Style::TabDelimited => Some("%09"),
        _ => None,
    }
}

/// `filter[color]=red&filter[size][min]=3`; nesting is bounded (deeper values go as JSON).
fn deep_object(
    prefix: &str,
    map: &Map<String, Value>,
    set: &'static AsciiSet,
    depth: usize,
    out: &mut Vec<(String, String)>,
) {
    for (key, value) in map {
        let name = format!("{prefix}%5B{}%5D", encode(key, QUERY_VALUE));
        match value {
            Value::Object(inner) if depth < 8 => deep_object(&name, inner, set, depth + 1, out),
            Value::Array(items) => out.extend(
                items
                    .iter()
                    .map(|item| (format!("{name}%5B%5D"), encode(&scalar_text(item), set))),
            ),
            other => out.push((name, encode(&scalar_text(other), set))),
        }
    }
}

/// A header value (style `simple`). Header values are not percent-encoded, so line breaks
/// and NUL are refused by the caller ([`unsafe_header_char`]).
pub(crate) fn header_value(parameter: &Parameter, value: &Value) -> String {
    match value {
        Value::Array(items) => {
            let delimiter = match parameter.style {
                Style::SpaceDelimited => " ",
                Style::PipeDelimited => "|",
                Style::TabDelimited => "\t",
                _ => ",",
            };
            items
                .iter()
                .map(scalar_text)
                .collect::<Vec<_>>()
                .join(delimiter)
        }
        Value::Object(map) => {
            let separator = if parameter.explode { "=" } else { "," };
            map.iter()
                .map(|(k, v)| format!("{k}{separator}{}", scalar_text(v)))
                .collect::<Vec<_>>()
                .join(",")
        }
        scalar => scalar_text(scalar),
    }
}

/// The first character of `text` that may not appear in a header value.
pub(crate) fn unsafe_header_char(text: &str) -> Option<char> {
    text.chars()
        .find(|c| matches!(c, '\r' | '\n' | '\0') || (c.is_control() && *c != '\t'))
}

/// A cookie's `name=value` text (style `form`): an array's items and an object's keys and
/// values, each encoded, joined by a bare `,` (`color=R,100,G,200`); exploded, each item is
/// a cookie of the parameter's name and each member a cookie of its own (`R=100; G=200`).
pub(crate) fn cookie_pair(name: &str, value: &Value, explode: bool) -> String {
    let text = match value {
        Value::Object(map) if !explode => {
            let parts: Vec<String> = map
                .iter()
                .flat_map(|(key, member)| [key.clone(), scalar_text(member)])
                .map(|part| encode(&part, COOKIE_VALUE))
                .collect();
            return format!("{name}={}", parts.join(","));
        }
        Value::Object(map) => {
            return map
                .iter()
                .map(|(key, member)| {
                    format!(
                        "{}={}",
                        encode(key, COOKIE_VALUE),
                        encode(&scalar_text(member), COOKIE_VALUE)
                    )
                })
                .collect::<Vec<_>>()
                .join("; ");
        }
        // Items are encoded one by one and joined by a bare `,`, as in the query's `id=1,2`:
        // encoding the joined text would make `["1", "2"]` and `["1,2"]` the same cookie.
        Value::Array(items) if !explode => {
            let items: Vec<String> = items
                .iter()
                .map(|item| encode(&scalar_text(item), COOKIE_VALUE))
                .collect();
            return format!("{name}={}", items.join(","));
        }
        Value::Array(items) => {
            return items
                .iter()
                .map(|item| format!("{name}={}", encode(&scalar_text(item), COOKIE_VALUE)))
                .collect::<Vec<_>>()
                .join("; ");
        }
        other => scalar_text(other),
    };
    format!("{name}={}", encode(&text, COOKIE_VALUE))
}

/// Whether a filled-in path segment would be read as `.` or `..` by URL parsers, which
/// treat `%2e` as a dot: such a segment would change the target.
///
/// The segment is already encoded, so a value `%2e%2e` arrives here as `%252e%252e`; a
/// server or proxy that decodes twice would still see `..`. The segment is decoded until
/// it stops changing (a few layers at most) and refused if any layer is a dot segment.
pub(crate) fn is_dot_segment(segment: &str) -> bool {
    let mut current = segment.to_owned();
    for _ in 0..4 {
        if current == "." || current == ".." {
            return true;
        }
        let decoded = percent_encoding::percent_decode_str(&current)
            .decode_utf8_lossy()
            .into_owned();
        if decoded == current {
            return false;
        }
        current = decoded;
    }
    current == "." || current == ".."
}

/// Encodes a single value for a form body (`application/x-www-form-urlencoded`).
pub(crate) fn form_encode(text: &str) -> String {
    encode(text, QUERY_VALUE)
}

/// [`form_encode`] for a value already in the bytes of the form's charset.
pub(crate) fn form_encode_bytes(bytes: &[u8]) -> String {
    percent_encode(bytes, QUERY_VALUE).to_string()
}
