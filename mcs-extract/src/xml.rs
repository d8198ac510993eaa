//! XML-like formats, whose argument values are raw text typed with the tool's schema:
//! Qwen3-Coder / Seed-OSS `<function=NAME><parameter=K>`, Functionary's
//! `<function=NAME>{json}</function>`, `<invoke name=…><parameter name=…>` (MiniMax-M2,
//! Claude XML, DeepSeek DSML of V3.2, V4 and V4.1) and GLM `<arg_key>`/`<arg_value>`.
//!
//! A value is raw text, so it may hold the format's own markers: a file whose content has
//! `</parameter>` in it. A closing marker ends a value only where the structure allows
//! one: followed (after blank space) by the next parameter, the end of the call, or the
//! end of the output. When a later one could end it too, with nothing opened between
//! (the whole closing sequence written inside the value), where it ends cannot be told
//! and the call does not run. A value left without its close ends where the next element
//! opens or at a close the structure goes on after, never at one that ends the output.
//! And a call is a call only once it is closed: one the output ends
//! inside of — in a value, or before its closing tag, where more arguments could have
//! followed — is reported as cut off and never runs with what was there.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::call_body::{arguments_at, arguments_until};
use super::coerce::{Untyped, convert};
use super::json::describe_at;
use super::record::{Broken, Cx, Item, Outcome, RawCall};
use super::scan::{
    byte_at, clean_name, ends_by, find_cached, find_in, first_of, past_close, plausible_name,
    skip_ws, starts_at, to_end,
};
use mcs_core::call::CallFormat;

/// A raw parameter value without the one newline models put after the opening tag and
/// before the closing one (as vLLM does). A value that does not start on its own line
/// keeps a newline it ends with: `return 1⏎` is the text of a line, as an editing tool
/// wants it. Where the closing tag is indented (markup written indented, `⏎    </parameter>`),
/// that indentation is the markup's too, and so is the indentation of a value of one line
/// (`⏎      John Doe⏎    </parameter>`); a value whose closing tag starts its line keeps
/// its own (`⏎    return x⏎</parameter>`, a line of code to put back as it is).
pub(crate) fn raw_value(value: &str) -> &str {
    let Some(value) = value
        .strip_prefix("\r\n")
        .or_else(|| value.strip_prefix('\n'))
    else {
        return value;
    };
    let blank = |s: &str| s.bytes().all(|b| b == b' ' || b == b'\t');
    if let Some(line) = value.rfind('\n')
        && line + 1 < value.len()
        && blank(&value[line + 1..])
    {
        let value = &value[..line];
        let value = value.strip_suffix('\r').unwrap_or(value);
        return if value.contains('\n') {
            value
        } else {
            value.trim_start_matches([' ', '\t'])
        };
    }
    value
        .strip_suffix("\r\n")
        .or_else(|| value.strip_suffix('\n'))
        .unwrap_or(value)
}

/// Where a value from `from` to `to` ends without the line break (`\n` or `\r\n`) right
/// before `to`: the markup's, when the value's close was left out before what follows.
fn without_line_break(text: &str, from: usize, to: usize) -> usize {
    let value = &text[from..to];
    let value = value.strip_suffix('\n').unwrap_or(value);
    from + value.strip_suffix('\r').unwrap_or(value).len()
}

/// The value of attribute `name` in a tag's text (`name="x"` or `name='x'`), with the XML
/// entities of attribute values (`&quot;`, `&amp;`, …) decoded.
pub(crate) fn attribute(tag: &str, name: &str) -> Option<String> {
    let mut search = 0;
    while let Some(offset) = tag[search..].find(name) {
        let at = search + offset;
        search = at + name.len();
        let preceded_ok = at == 0 || tag[..at].ends_with(|c: char| c.is_whitespace() || c == '<');
        let rest = tag[search..].trim_start();
        let Some(rest) = rest.strip_prefix('=').map(str::trim_start) else {
            continue;
        };
        if !preceded_ok {
            continue;
        }
        let quote = rest.chars().next()?;
        if quote == '"' || quote == '\'' {
            let body = &rest[1..];
            return body.find(quote).map(|end| unescape(&body[..end]));
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '>')
            .unwrap_or(rest.len());
        return Some(unescape(&rest[..end]));
    }
    None
}

/// `text` with the predefined XML entities and numeric character references decoded;
/// anything else that starts with `&` stays as written.
fn unescape(text: &str) -> String {
    if !text.contains('&') {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let decoded = rest.find(';').filter(|end| *end <= 10).and_then(|end| {
            let entity = &rest[1..end];
            let c = match entity {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                _ => {
                    let code = entity.strip_prefix('#')?;
                    let code = match code.strip_prefix(['x', 'X']) {
                        Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                        None => code.parse().ok()?,
                    };
                    char::from_u32(code)
                }
            }?;
            Some((c, end + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Where a raw-text value that starts at `from` ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ValueEnd {
    /// At a closing marker that starts at `end` and is followed by `next`.
    Closed { end: usize, next: usize },
    /// Without a closing marker, where the next element starts.
    Unclosed(usize),
    /// The output ends inside it.
    CutOff,
    /// A closing marker the structure allows ends it, and so could a later one: nothing
    /// opens between them, so the text after the first may be the rest of the value
    /// (`…</parameter></function></tool_call>` written inside a value, then the real
    /// close). It cannot be told which, so the call must not run.
    Ambiguous,
    /// Its own close is missing and the value ends in another format's closing tag
    /// (`cheap flights</parameter>` in DSML): the model closed it with the wrong marker,
    /// and running the tag as text of the value would be wrong.
    Foreign,
}

/// Where the value that starts at `from` ends: at the first `close` followed (after blank
/// space) by one of `after` or by the end of the output — any other `close` is text of the
/// value; else, when models may leave the close out, at the first of `instead`; else the
/// output ended inside the value. A value that holds `close` as text never ends without
/// one: its author writes the markers as text, so one of `instead` may be text too, and
/// a value cut there must not be taken for a whole one. When a later `close` could end it
/// as well, with none of the opening markers of `after` between the two, it is
/// [`ValueEnd::Ambiguous`].
pub(crate) fn value_end(
    text: &str,
    from: usize,
    close: &str,
    after: &[&str],
    instead: &[&str],
    calls: &[&str],
) -> ValueEnd {
    let closes_at = |at: usize| {
        let q = skip_ws(text, at + close.len());
        ends_by(text, q) || after.iter().any(|marker| starts_at(text, q, marker))
    };
    // Whether a close at `at` is followed by a closing marker and right after it by `close`
    // at `other` again (`</parameter>⏎ </invoke></parameter>`): ended at `at`, that close
    // would stand after the element it belongs to was closed, so `at` is text of the value.
    let strays_to = |at: usize, other: usize| {
        let q = skip_ws(text, at + close.len());
        after
            .iter()
            .filter(|marker| marker.starts_with("</"))
            .any(|marker| starts_at(text, q, marker) && skip_ws(text, q + marker.len()) == other)
    };
    // Whether a value that `close` ends at `at` crossed into the next element: it holds a
    // closing marker of the structure, then an opening one, and nothing closes what that
    // opened (`a⏎</function>⏎<function=search>⏎<parameter=query>⏎b`). Its own close was
    // left out, and the close found is the next value's: taken as one, two calls would
    // run as one with the markup of the second in its value.
    let crosses = |at: usize| {
        let value = &text[from..at];
        let (closers, openers): (Vec<&str>, Vec<&str>) =
            after.iter().partition(|marker| marker.starts_with("</"));
        let Some(open) = openers
            .iter()
            .filter_map(|marker| value.rfind(marker))
            .max()
        else {
            return false;
        };
        closers.iter().any(|marker| value[..open].contains(marker))
            && !closers
                .iter()
                .chain([&close])
                .any(|marker| value[open..].contains(marker))
    };
    if let Some(end) = nested_end(text, from, close, (after, calls), closes_at) {
        return end;
    }
    let mut search = from;
    let mut as_text = false;
    let mut crossed = None;
    'closes: while let Some(at) = find_cached(text, search, text.len(), close) {
        let next = at + close.len();
        if closes_at(at) {
            // What follows up to the next opening marker may hold another close.
            let opens = after
                .iter()
                .filter(|marker| !marker.starts_with("</"))
                .filter_map(|marker| find_cached(text, next, text.len(), marker))
                .min()
                .unwrap_or(text.len());
            let mut later = next;
            while let Some(other) = find_cached(text, later, opens, close) {
                if closes_at(other) {
                    if strays_to(at, other) {
                        as_text = true;
                        search = other;
                        continue 'closes;
                    }
                    return ValueEnd::Ambiguous;
                }
                later = other + 1;
            }
            if as_text || !crosses(at) {
                return ValueEnd::Closed { end: at, next };
            }
            crossed = Some(at);
            break;
        }
        as_text = true;
        search = at + 1;
    }
    if as_text {
        return ValueEnd::CutOff;
    }
    // Without its close, a value ends where the next element opens, or at a closing marker
    // the structure goes on after. A closing marker followed by text is text of the value,
    // and one that ends the output may be too: the output could have been cut right after
    // it, in a value that holds it (`…ends with </｜DSML｜invoke>` of `…ends with
    // </｜DSML｜invoke> on its own line.</｜DSML｜parameter>`).
    let mut end: Option<usize> = None;
    for marker in instead {
        let mut search = from;
        while let Some(at) = find_cached(text, search, end.unwrap_or(text.len()), marker) {
            let q = skip_ws(text, at + marker.len());
            if !marker.starts_with("</")
                || (!ends_by(text, q) && after.iter().any(|next| starts_at(text, q, next)))
            {
                end = Some(at);
                break;
            }
            search = at + 1;
        }
    }
    // A value that crossed into the next element ends, at the latest, where the structure
    // closed.
    if let Some(crossed) = crossed {
        let first_closer = after
            .iter()
            .filter(|marker| marker.starts_with("</"))
            .filter_map(|marker| find_cached(text, from, crossed, marker))
            .min();
        end = end.into_iter().chain(first_closer).min();
    }
    // A value that holds the format's own opening markup (a whole call written as text)
    // did not lose its close: it is still being written, or was cut, and its close would
    // come after that markup.
    let holds_markup = |value: &str| {
        after
            .iter()
            .filter(|marker| !marker.starts_with("</"))
            .any(|marker| value.contains(marker))
    };
    match end {
        Some(end) if ends_in_a_closing_tag(&text[from..end]) => ValueEnd::Foreign,
        Some(end) if holds_markup(&text[from..end]) => ValueEnd::CutOff,
        Some(end) => ValueEnd::Unclosed(end),
        None => ValueEnd::CutOff,
    }
}

/// Where a value that holds a whole call of its own format ends (a test fixture, a file of
/// samples: `<parameter=content>⏎RAW = """<tool_call>⏎<function=f>⏎<parameter=city>⏎Paris⏎
/// </parameter>…"""⏎</parameter>`): at the first close that balances the value's openings of
/// its own tag (`<parameter` for `</parameter>`), when the structure goes on after it. `None`
/// when the value does not start such a call before its first close: one of `calls`, the
/// markers that open a call of the format (`<function`, `<invoke`, `<tool_call>`), with no
/// closing marker of `after` before it (a value that ran into the next call lost its close,
/// see [`value_end`]), then an opening of the value's own tag. A value that opens its own
/// tag without such a call (`<parameter=days>` where the close before it was left out) is
/// not nested. When no close balances, the value is still being written, or was cut.
fn nested_end(
    text: &str,
    from: usize,
    close: &str,
    (after, calls): (&[&str], &[&str]),
    closes_at: impl Fn(usize) -> bool,
) -> Option<ValueEnd> {
    let name = close.strip_prefix("</")?.strip_suffix('>')?;
    if name.is_empty() {
        return None;
    }
    let open = format!("<{name}");
    // An opening of the value's own tag at `at`: `<parameter=`, `<parameter name=`,
    // `<arg_value>`, not `<parameters>`.
    let opening = |from: usize, limit: usize| {
        let mut search = from;
        while let Some(at) = find_in(text, search, limit, &open) {
            let past = at + open.len();
            if matches!(
                byte_at(text, past),
                Some(b'=' | b'>' | b' ' | b'\t' | b'\n')
            ) {
                return Some(at);
            }
            search = past;
        }
        None
    };
    // Each search below ends where this value's first opening of its own tag is, at the
    // latest, so that a run of values read one after another is read in linear time.
    let first_close = find_cached(text, from, text.len(), close)?;
    let first_opening = opening(from, first_close)?;
    let call = calls
        .iter()
        .filter_map(|marker| find_in(text, from, first_opening, marker))
        .min()?;
    let closed_before = after
        .iter()
        .filter(|marker| marker.starts_with("</"))
        .any(|marker| find_in(text, from, call, marker).is_some());
    if closed_before {
        return None;
    }
    let mut depth = 0usize;
    let mut pos = first_opening;
    let mut next_close = Some(first_close);
    loop {
        let Some(at) = next_close else {
            return Some(ValueEnd::CutOff);
        };
        if let Some(inner) = opening(pos, at) {
            depth += 1;
            pos = inner + open.len();
            continue;
        }
        if depth > 0 {
            depth -= 1;
        } else if closes_at(at) {
            return Some(ValueEnd::Closed {
                end: at,
                next: at + close.len(),
            });
        }
        pos = at + close.len();
        next_close = find_in(text, pos, text.len(), close);
    }
}

/// Whether `value`, blank space aside, ends in a closing tag of a call format
/// (`…Rome</parameter>`, `</arg_value>`): a value of HTML or XML that ends in its own tag
/// (`</div>`) is text.
fn ends_in_a_closing_tag(value: &str) -> bool {
    let Some(inner) = value.trim_end().strip_suffix('>') else {
        return false;
    };
    inner
        .rfind("</")
        .is_some_and(|at| FORMAT_CLOSERS.contains(&&inner[at + 2..]))
}

/// The names of the closing tags call formats put after a value.
const FORMAT_CLOSERS: &[&str] = &[
    "parameter",
    "arg_value",
    "argument",
    "value",
    "invoke",
    "function",
    "tool_call",
    "args",
];

/// Sets `key` to `value` in `arguments`, noting in `twice` the first key given before with
/// another value ([`given_twice`]).
pub(crate) fn insert_once(
    arguments: &mut Map<String, Value>,
    key: String,
    value: Value,
    twice: &mut Option<String>,
) {
    if arguments.get(&key).is_some_and(|given| *given != value) {
        twice.get_or_insert_with(|| key.clone());
    }
    arguments.insert(key, value);
}

/// The call to `name` that gives `key` twice, with two values: which it means cannot be
/// told (a value holding the format's markers looks so: `Fill in: </arg_value><arg_key>
/// subject</arg_key>…`), so it is not run.
pub(crate) fn given_twice(name: &str, key: &str) -> Broken {
    let detail = format!(
        "the call to `{name}` gives `{key}` twice, with two values: which is meant cannot be \
         told (or a value holds the format's own markers), so the call is not run; give each \
         argument once"
    );
    Broken::new(Some(name.to_owned()), detail)
}

/// The call to `name` whose value of `key` lacks its `close` and ends in another format's
/// closing tag: broken, not run; reading goes on at `resume`.
pub(crate) fn closed_by_another(
    name: &str,
    key: &str,
    close: &str,
    resume: usize,
) -> (Outcome, usize) {
    let detail = format!(
        "the value of `{key}` of `{name}` is not closed by `{close}` but ends in another \
         closing tag: whether that tag is text of the value cannot be told, so the call is \
         not run; close each value with `{close}`"
    );
    (Err(Broken::new(Some(name.to_owned()), detail)), resume)
}

/// The end of the value and where reading goes on; `None` when the output ended inside it.
pub(crate) fn value_span(end: ValueEnd) -> Option<(usize, usize)> {
    match end {
        ValueEnd::Closed { end, next } => Some((end, next)),
        ValueEnd::Unclosed(end) => Some((end, end)),
        ValueEnd::CutOff | ValueEnd::Ambiguous | ValueEnd::Foreign => None,
    }
}

/// The call to `name` whose value of `key` may end at either of two `close`s: broken, not
/// run; reading goes on at `resume`.
pub(crate) fn ambiguous(name: &str, key: &str, close: &str, resume: usize) -> (Outcome, usize) {
    let detail = format!(
        "the value of `{key}` of `{name}` may end at either of two `{close}` (the text \
         between them closes the call, and nothing opens after it): it cannot be told \
         where the value ends, so the call is not run; write the value without the \
         format's own markers"
    );
    (Err(Broken::new(Some(name.to_owned()), detail)), resume)
}

/// The call to `name` cut off inside the value of `key`, and the end of the region.
pub(crate) fn cut_in_value(cx: &Cx<'_>, name: &str, key: &str) -> (Outcome, usize) {
    let what = format!("in the value of `{key}`");
    (Err(cut_off(cx, name, &what)), to_end(cx.text))
}

/// A raw value typed as its format says: JSON (`Some(false)`: DSML `string="false"`, a Kimi
/// K3 `type` other than `string`), or raw text typed by the parameter's schema — when the
/// format says the text is a string (`Some(true)`: DSML `string="true"`, K3
/// `type="string"`) as when it says nothing, since a model that marks `3` a string for an
/// `integer` parameter still means the number (vLLM converts raw text by the schema alike).
pub(crate) fn typed_value(
    raw: &str,
    string: Option<bool>,
    tool: Option<&mcs_core::Tool>,
    key: &str,
) -> (Value, bool) {
    match string {
        Some(false) => match serde_json::from_str::<Value>(raw.trim()) {
            Ok(value) => (value, false),
            Err(_) => convert(raw, tool, key, Untyped::Json),
        },
        Some(true) | None => convert(raw, tool, key, Untyped::Text),
    }
}

/// What a call to `name` the output ended inside of is.
fn cut_off(cx: &Cx<'_>, name: &str, what: &str) -> Broken {
    let detail = format!(
        "the output ends at {} inside the call to `{name}`, {what}",
        cx.at(cx.text.len())
    );
    Broken::cut(Some(name.to_owned()), detail)
}

/// `<function=…>` outside `<tool_call>` (Qwen3-Coder, Nemotron 3, Functionary v3.1).
pub(crate) fn function_tag(cx: &mut Cx<'_>, start: usize, _after: usize) -> Option<usize> {
    function_open(cx.text, start)?;
    let end = function_blocks(cx, start, CallFormat::Qwen3Coder, &["</tool_call>"]);
    Some(past_close(cx.text, end, "</tool_call>"))
}

/// Seed-OSS `<seed:tool_call><function=…>…</seed:tool_call>`.
pub(crate) fn seed_oss(cx: &mut Cx<'_>, _start: usize, after: usize) -> Option<usize> {
    const CLOSE: &str = "</seed:tool_call>";
    let format = CallFormat::SeedOss;
    let end = function_blocks(cx, after, format, &[CLOSE]);
    Some(wrapper_end(
        cx,
        after,
        end,
        CLOSE,
        format,
        "<function=NAME>",
    ))
}

/// MiniMax-M2 `<minimax:tool_call><invoke name=…>…</minimax:tool_call>`.
pub(crate) fn minimax_m2(cx: &mut Cx<'_>, _start: usize, after: usize) -> Option<usize> {
    let markup = Invoke::plain("</minimax:tool_call>");
    let end = invoke_blocks(cx, after, &markup, CallFormat::MiniMaxM2);
    Some(wrapper_end(
        cx,
        after,
        end,
        markup.wrapper_close,
        CallFormat::MiniMaxM2,
        "<invoke",
    ))
}

/// Claude text tool use `<function_calls><invoke name=…>…</function_calls>`; also OLMo 3's
/// pythonic calls, one a line, in the same tags
/// (`<function_calls>get_weather(city='Paris')</function_calls>`).
pub(crate) fn claude_xml(cx: &mut Cx<'_>, _start: usize, after: usize) -> Option<usize> {
    const CLOSE: &str = "</function_calls>";
    let text = cx.text;
    let p = skip_ws(text, after);
    if super::pythonic::is_call_start(text, p) {
        let close = find_in(text, p, text.len(), CLOSE);
        let end =
            super::pythonic::strong_lines(cx, p, close.unwrap_or(text.len()), CallFormat::Pythonic);
        return Some(match close {
            Some(close) if skip_ws(text, end) >= close => close + CLOSE.len(),
            _ => end,
        });
    }
    Some(plain_invokes(cx, after, CLOSE, CallFormat::ClaudeXml))
}

/// `<invoke name=…>` blocks with plain `<parameter name=…>` tags from `after` to the
/// wrapper's `close`: Claude's `<function_calls>`, and the same markup in `<tool_calls>`
/// (SGLang's MiniMax and DeepSeek V3.2 dialects without the DSML prefix). Returns where
/// the region ends.
pub(crate) fn plain_invokes(
    cx: &mut Cx<'_>,
    after: usize,
    close: &str,
    format: CallFormat,
) -> usize {
    let markup = Invoke::plain(close);
    let end = invoke_blocks(cx, after, &markup, format);
    wrapper_end(cx, after, end, close, format, "<invoke")
}

/// DeepSeek DSML: `<｜DSML｜function_calls>` (V3.2), `<｜DSML｜tool_calls>` (V4),
/// `<｜DSML｜ calls>` (V4.1, a space after the bar in every marker), also with ASCII bars,
/// around `<｜DSML｜invoke name=…>` blocks; an invoke without its wrapper is read too. Also
/// GigaChat 3.5's `<｜GCML｜tool_calls>`, the same markup.
pub(crate) fn dsml(cx: &mut Cx<'_>, start: usize, after: usize) -> Option<usize> {
    let text = cx.text;
    // The marker prefix as this output writes it: `｜DSML｜`, `｜DSML｜ `, `|DSML|`, ….
    let spaced = skip_ws(text, after);
    let prefix = format!("{}{}", &text[start + 1..after], &text[after..spaced]);
    // GigaChat 3.5 writes the same markup in its own namespace.
    let format = if prefix.contains("GCML") {
        CallFormat::GigaChat
    } else {
        CallFormat::DeepSeekDsml
    };
    let word_end = super::scan::name_end(text, spaced);
    let word = &text[spaced..word_end];
    let markup = Invoke {
        invoke: format!("<{prefix}invoke"),
        invoke_close: format!("</{prefix}invoke>"),
        parameter: format!("<{prefix}parameter"),
        parameter_close: format!("</{prefix}parameter>"),
        wrapper_close: "",
    };
    if word == "invoke" {
        return Some(invoke_blocks(cx, start, &markup, format));
    }
    if !matches!(word, "function_calls" | "tool_calls" | "calls") || !starts_at(text, word_end, ">")
    {
        return None;
    }
    let close = format!("</{prefix}{word}>");
    let markup = Invoke {
        wrapper_close: &close,
        ..markup
    };
    let body = word_end + 1;
    // Nothing of a call written yet.
    if ends_by(text, skip_ws(text, body)) {
        return Some(to_end(text));
    }
    let end = invoke_blocks(cx, body, &markup, format);
    Some(wrapper_end(cx, body, end, &close, format, &markup.invoke))
}

/// Claude's markup in a namespace of the model's own: `<atem:function_calls>` around
/// `<atem:invoke name=…>` blocks with `<atem:parameter name=…>` values (`start` is the
/// tag's `<`). Glimmer writes it in a message whose header names who it is for
/// (`<|start|>assistant to=get_weather<|message|>…`): a message to `self` is reasoning and
/// one to `user` the answer, where the markup is quoted unless it is the whole message and
/// calls declared tools; a message to a tool must invoke that tool first.
pub(crate) fn namespaced_invokes(cx: &mut Cx<'_>, start: usize, after: usize) -> Option<usize> {
    let text = cx.text;
    let prefix = text.get(start + 1..after - "function_calls>".len())?;
    let message = glimmer_message(text, start);
    let Some(message) = message else {
        return Some(namespaced_block(cx, prefix, after));
    };
    match message.recipient {
        "self" => None,
        "user" => {
            // Whether the message holds nothing else is known once it ends: until then,
            // nothing in it is decided.
            let message_end = |from: usize| first_of(text, from, &GLIMMER_ENDS);
            if message_end(after).is_none() {
                super::horizon::reached(text, text.len());
            }
            let mark = cx.mark();
            let end = namespaced_block(cx, prefix, after);
            let rest = &text[end..message_end(end).unwrap_or_else(|| {
                super::horizon::reached(text, text.len());
                text.len()
            })];
            let recorded = cx.recorded_since(mark);
            let whole = text[message.body..start].trim().is_empty()
                && rest.trim().is_empty()
                && !recorded.is_empty()
                && recorded.iter().all(|recorded| {
                    matches!(&recorded.item, Item::Call(call) if cx.is_known(&call.name))
                });
            if !whole {
                cx.take_since(mark);
                return None;
            }
            Some(end)
        }
        recipient => {
            let mark = cx.mark();
            let end = namespaced_block(cx, prefix, after);
            // The header names the tool of the message's first invoke (others may follow).
            let mut recorded = cx.take_since(mark);
            let other = match recorded.first() {
                Some(first) => match &first.item {
                    Item::Call(call) if !same_recipient(recipient, &call.name) => {
                        Some((first.at, call.name.clone()))
                    }
                    _ => None,
                },
                None => None,
            };
            if let Some((at, other)) = other {
                recorded.remove(0);
                let detail = format!(
                    "the message is addressed to `{recipient}` but invokes `{other}`: which \
                     tool is meant cannot be told"
                );
                cx.malformed(at, CallFormat::ClaudeXml, Broken::new(Some(other), detail));
            }
            cx.put_back(recorded);
            Some(end)
        }
    }
}

/// The `<PREFIX:function_calls>` block whose `<PREFIX:…>` markers follow `prefix`, read
/// from `after` (its opening tag's end); returns where it ends.
fn namespaced_block(cx: &mut Cx<'_>, prefix: &str, after: usize) -> usize {
    let close = format!("</{prefix}function_calls>");
    let markup = Invoke {
        invoke: format!("<{prefix}invoke"),
        invoke_close: format!("</{prefix}invoke>"),
        parameter: format!("<{prefix}parameter"),
        parameter_close: format!("</{prefix}parameter>"),
        wrapper_close: &close,
    };
    let end = invoke_blocks(cx, after, &markup, CallFormat::ClaudeXml);
    wrapper_end(
        cx,
        after,
        end,
        &close,
        CallFormat::ClaudeXml,
        &markup.invoke,
    )
}

/// A Glimmer message: who its header addresses, and where its body starts.
#[derive(Clone, Copy)]
struct GlimmerMessage<'t> {
    recipient: &'t str,
    body: usize,
}

/// The tokens that end a Glimmer message (`<|start|>` begins the next one).
const GLIMMER_ENDS: [&str; 4] = ["<|eom|>", "<|eot|>", "<|start|>", "<|end|>"];

/// How far back from a block its message's `<|message|>` is looked for.
const GLIMMER_BACK: usize = 64 * 1024;

/// The message `pos` is in, when it is one whose header names its recipient
/// (` to=NAME<|message|>` after `<|start|>assistant`, or at the output's start).
fn glimmer_message(text: &str, pos: usize) -> Option<GlimmerMessage<'_>> {
    const MESSAGE: &str = "<|message|>";
    let from = super::scan::floor_boundary(text, pos.saturating_sub(GLIMMER_BACK));
    let open = text[from..pos].rfind(MESSAGE)? + from;
    let body = open + MESSAGE.len();
    if GLIMMER_ENDS
        .iter()
        .any(|token| text[body..pos].contains(token))
    {
        return None;
    }
    let header_from = super::scan::floor_boundary(text, open.saturating_sub(256));
    let header = &text[header_from..open];
    let header = header.rfind("<|start|>").map_or(header, |at| &header[at..]);
    let to = header.rfind(" to=")? + " to=".len();
    let recipient = header[to..].split_whitespace().next()?;
    Some(GlimmerMessage { recipient, body })
}

/// Whether a header's recipient and an invoked name are the same tool: equal, or one the
/// other in a namespace (`read` and `read.read`, `muse` and `muse.bash`); a recipient that
/// is no tool's name (a fumbled header, `to=atem:function_calls`) names none to compare.
fn same_recipient(recipient: &str, name: &str) -> bool {
    !plausible_name(recipient)
        || recipient.contains(':')
        || recipient == name
        || name.ends_with(&format!(".{recipient}"))
        || name.starts_with(&format!("{recipient}."))
        || recipient.ends_with(&format!(".{name}"))
        || recipient.starts_with(&format!("{name}."))
}

/// The opening of a StepFun Step 3 invoke.
pub(crate) const STEPTML_INVOKE: &str = "<steptml:invoke";

/// StepFun Step 3's `<steptml:invoke name=…><steptml:parameter name=…>v</steptml:parameter>
/// </steptml:invoke>` blocks from `pos` (inside DeepSeek's call tokens); returns where they
/// end.
pub(crate) fn steptml_invokes(cx: &mut Cx<'_>, pos: usize) -> usize {
    let markup = Invoke {
        invoke: STEPTML_INVOKE.to_owned(),
        invoke_close: "</steptml:invoke>".to_owned(),
        parameter: "<steptml:parameter".to_owned(),
        parameter_close: "</steptml:parameter>".to_owned(),
        // The DeepSeek token that ends the call.
        wrapper_close: "<｜tool_call_end｜>",
    };
    invoke_blocks(cx, pos, &markup, CallFormat::Step3)
}

/// The end of a wrapper whose blocks were read from `body` to `end`: after its `close`,
/// or where its blocks ended. A wrapper with no block at all is a broken call.
fn wrapper_end(
    cx: &mut Cx<'_>,
    body: usize,
    end: usize,
    close: &str,
    format: CallFormat,
    expected: &str,
) -> usize {
    let text = cx.text;
    let p = skip_ws(text, end);
    if end == body {
        let detail = format!("expected `{expected}`, found {}", describe_at(text, p));
        cx.malformed(p, format, Broken::new(None, detail));
        let close_at = find_in(text, p, text.len(), close);
        return close_at.map_or_else(|| to_end(text), |at| at + close.len());
    }
    if starts_at(text, p, close) {
        p + close.len()
    } else {
        end
    }
}

/// Reads `<function=NAME>…</function>` blocks from `pos` on; returns where the last one
/// ends (`pos` when there is none). `outer` are the closing tags of what may wrap them
/// (`</tool_call>`): a function left open before one of those ended there.
pub(crate) fn function_blocks(
    cx: &mut Cx<'_>,
    pos: usize,
    format: CallFormat,
    outer: &[&str],
) -> usize {
    let text = cx.text;
    let mut pos = pos;
    loop {
        let p = skip_ws(text, pos);
        let Some(opening) = function_open(text, p) else {
            return pos;
        };
        let (header_len, named) = (opening.len, opening.named);
        let Some(gt) = find_in(text, p, (p + 512).min(text.len()), ">") else {
            let detail = "the `<function=` tag is not closed with `>`".to_owned();
            let broken = Broken::at(text, p + 512, None, detail);
            cx.malformed(p, format, broken);
            return to_end(text);
        };
        let header = &text[p + header_len..gt];
        let raw_name = if named {
            attribute(header, "name").unwrap_or_default()
        } else {
            header
                .trim()
                .trim_matches(|c| c == '"' || c == '\'')
                .to_owned()
        };
        let name = clean_name(&raw_name);
        let body = gt + 1;
        let first = skip_ws(text, body);
        if plausible_name(&name) && text.as_bytes().get(first) == Some(&b'{') {
            // Functionary v3.1 / Llama 3.1 custom tools: a JSON object in the body.
            let (outcome, end) = arguments_until(cx, first, &name, None, |text, pos| {
                first_of(text, pos, &["</function>", "<function="])
            });
            cx.outcome(p, CallFormat::Functionary, outcome);
            pos = past_close(text, end, "</function>");
            continue;
        }
        let (mut outcome, end) = parameters(cx, &name, body, outer);
        if let Ok(call) = &mut outcome {
            // An undecoded or lost blank in the tag was read past.
            call.repaired |= opening.glued;
        }
        pos = end;
        match outcome {
            _ if !plausible_name(&name) => {
                let detail = if header.contains('\n') {
                    "the `<function` tag is not closed with `>` on its line".to_owned()
                } else {
                    format!("`{}` is not a tool name", header.trim())
                };
                cx.malformed(p, format, Broken::new(None, detail));
            }
            outcome => cx.outcome(p, format, outcome),
        }
        if ends_by(text, end) {
            return end;
        }
    }
}

/// What stands for the blank between a tag's name and its `name=` attribute when a
/// byte-level tokenizer's text was not decoded (`Ġ`, MiniCPM 5 through vLLM), or where
/// the blank was lost (`<functionname="get_weather">`): both as vLLM reads them.
const NAME_ATTRIBUTE: [&str; 2] = ["\u{120}name=", "name="];

/// How a tag opens: the length of the tag up to its header, whether the header is
/// attributes, and whether a blank before them was not written as one ([`NAME_ATTRIBUTE`]).
pub(crate) struct Opening {
    pub(crate) len: usize,
    pub(crate) named: bool,
    glued: bool,
}

/// Whether a function tag opens at `pos`: `<function=NAME>`, or one with a `name`
/// attribute (`<function name="NAME">`, also as [`NAME_ATTRIBUTE`] says).
pub(crate) fn function_open(text: &str, pos: usize) -> Option<Opening> {
    const TAG: &str = "<function";
    if starts_at(text, pos, "<function=") {
        let len = TAG.len() + 1;
        return Some(Opening {
            len,
            named: false,
            glued: false,
        });
    }
    named_open(text, pos, TAG)
}

/// `tag` at `pos` when a blank follows it, or one of [`NAME_ATTRIBUTE`] does: its header
/// from there holds `name=` first.
fn named_open(text: &str, pos: usize, tag: &str) -> Option<Opening> {
    if !starts_at(text, pos, tag) {
        return None;
    }
    let after = pos + tag.len();
    let opening = |len, glued| Opening {
        len,
        named: true,
        glued,
    };
    if text[after..].starts_with([' ', '\t', '\n']) {
        return Some(opening(tag.len(), false));
    }
    NAME_ATTRIBUTE
        .iter()
        .find(|marker| starts_at(text, after, marker))
        .map(|marker| opening(tag.len() + marker.len() - "name=".len(), true))
}

/// The `<parameter=K>v</parameter>` list of a Qwen3-Coder function body from `start`, up
/// to `</function>` (or, left out, the first of `outer`); returns the call and where the
/// function ends. `</parameter>` may be missing: the value then runs to the next parameter
/// or the function's end.
fn parameters(cx: &Cx<'_>, name: &str, start: usize, outer: &[&str]) -> (Outcome, usize) {
    const CLOSE: &str = "</parameter>";
    // What a MiniCPM parameter tag starts with: `<param name=`, also as [`NAME_ATTRIBUTE`]
    // writes it. One needle for all, so that the searches for what ends a value stay few
    // enough to be remembered.
    const PARAM: &str = "<param";
    const PARAM_CLOSE: &str = "</param>";
    const FUNCTION_CLOSE: &str = "</function>";
    let text = cx.text;
    let tool = cx.tool(name);
    let mut arguments = Map::new();
    // A parameter given twice with two values, when one is.
    let mut twice: Option<String> = None;
    let mut repaired = false;
    let mut pos = start;
    let broken = |detail: String| Err(Broken::new(Some(name.to_owned()), detail));
    loop {
        let p = skip_ws(text, pos);
        if ends_by(text, p) {
            return (Err(cut_off(cx, name, "before `</function>`")), to_end(text));
        }
        if starts_at(text, p, FUNCTION_CLOSE) {
            pos = p + FUNCTION_CLOSE.len();
            break;
        }
        // MiniCPM 5 may wrap its parameters in `<arguments>`.
        if let Some(wrapper) = ["<arguments>", "</arguments>"]
            .into_iter()
            .find(|wrapper| starts_at(text, p, wrapper))
        {
            pos = p + wrapper.len();
            continue;
        }
        if outer.iter().any(|close| starts_at(text, p, close)) || starts_at(text, p, "<function") {
            pos = p;
            break;
        }
        // MiniCPM writes `<param name="K">v</param>` in `<function name="N">`.
        let param = named_open(text, p, "<param");
        let named = param.is_some();
        if !starts_at(text, p, "<parameter=") && !named {
            let detail = format!(
                "unexpected {} in the body of `{name}` at {}, expected `<parameter=NAME>`",
                describe_at(text, p),
                cx.at(p)
            );
            return (broken(detail), restart_or_skip(text, p));
        }
        let key_start = p + param.as_ref().map_or("<parameter=".len(), |open| open.len);
        repaired |= param.is_some_and(|open| open.glued);
        let limit = (key_start + 256).min(text.len());
        // `<parameter=path⏎/etc/hosts⏎</parameter>`: the tag's `>` left out, its name ends
        // with its line (a repair).
        let unclosed = (!named)
            .then(|| find_in(text, key_start, limit, "\n"))
            .flatten()
            .filter(|&line_end| {
                let key = text[key_start..line_end].trim();
                !text[key_start..line_end].contains('>')
                    && !key.is_empty()
                    && key.bytes().all(|b| !b.is_ascii_whitespace() && b != b'<')
            });
        let (key, value_start) = if let Some(line_end) = unclosed {
            repaired = true;
            // The value starts on the next line, as after a whole tag.
            (text[key_start..line_end].trim().to_owned(), line_end)
        } else {
            let Some(gt) = find_in(text, key_start, limit, ">") else {
                if ends_by(text, key_start + 256) {
                    return (
                        Err(cut_off(cx, name, "in a `<parameter=` tag")),
                        to_end(text),
                    );
                }
                let detail = format!(
                    "a `<parameter=` tag of `{name}` is not closed with `>` at {}",
                    cx.at(p)
                );
                return (broken(detail), skip_function(text, p));
            };
            let key = if named {
                attribute(&text[key_start..gt], "name").unwrap_or_default()
            } else {
                text[key_start..gt]
                    .trim()
                    .trim_matches(|c| c == '"' || c == '\'')
                    .to_owned()
            };
            (key, gt + 1)
        };
        let close = if named { PARAM_CLOSE } else { CLOSE };
        let mut after = vec![
            "<parameter=",
            PARAM,
            FUNCTION_CLOSE,
            "<function",
            "</arguments>",
        ];
        after.extend_from_slice(outer);
        let end = value_end(
            text,
            value_start,
            close,
            &after,
            &["<parameter=", PARAM, FUNCTION_CLOSE],
            &["<function", "<tool_call>"],
        );
        if end == ValueEnd::Ambiguous {
            return ambiguous(name, &key, close, skip_function(text, value_start));
        }
        if end == ValueEnd::Foreign {
            return closed_by_another(name, &key, close, skip_function(text, value_start));
        }
        let bound = match value_span(end) {
            Some((end, _)) => end,
            None => {
                find_cached(text, value_start, text.len(), FUNCTION_CLOSE).unwrap_or(text.len())
            }
        };
        let implicit = implicit_close(text, (value_start, bound), tool, &key, &arguments);
        let (value_end, next) = match (value_span(end), implicit) {
            (Some((end, _)), Some(at)) if at < end => {
                repaired = true;
                (at, at)
            }
            (Some(span), _) => span,
            (None, Some(at)) if end != ValueEnd::Ambiguous => {
                repaired = true;
                (at, at)
            }
            (None, _) => return cut_in_value(cx, name, &key),
        };
        pos = next;
        let raw = raw_value(&text[value_start..value_end]);
        // A CDATA section holds its text as written (MiniCPM).
        let raw = raw
            .trim()
            .strip_prefix("<![CDATA[")
            .and_then(|inner| inner.strip_suffix("]]>"))
            .unwrap_or(raw);
        let (value, fixed) = convert(raw, tool, &key, Untyped::Text);
        repaired |= fixed;
        insert_once(&mut arguments, key, value, &mut twice);
    }
    if let Some(key) = twice {
        return (Err(given_twice(name, &key)), pos);
    }
    let call = RawCall {
        name: name.to_owned(),
        arguments: Value::Object(arguments),
        id: None,
        repaired,
    };
    (Ok(call), pos)
}

/// Where a value of `key` left without its `</parameter>` ends (`<parameter=city>⏎Dallas⏎
/// <parameter=state>⏎TX⏎</parameter>`): at the first line before `bound` that opens a
/// parameter, when that parameter is one the tool declares and the call has not given yet,
/// as vLLM and SGLang read it. Only for a known tool: a line that opens a parameter of no
/// schema, or one given already, may be text of the value (a file that documents the
/// format). Only the first such line is looked at, so that reading stays linear.
fn implicit_close(
    text: &str,
    (from, bound): (usize, usize),
    tool: Option<&mcs_core::Tool>,
    key: &str,
    given: &Map<String, Value>,
) -> Option<usize> {
    const OPEN: &str = "<parameter=";
    let tool = tool?;
    let mut search = from;
    while let Some(at) = find_cached(text, search, bound, OPEN) {
        search = at + 1;
        let line_start = text[..at]
            .bytes()
            .rev()
            .find(|b| !matches!(b, b' ' | b'\t' | b'\r'))
            .is_none_or(|b| b == b'\n');
        if !line_start {
            continue;
        }
        let gt = find_in(text, at, (at + 256).min(text.len()), ">")?;
        let other = text[at + OPEN.len()..gt].trim();
        let opens = other != key && !given.contains_key(other) && tool.parameter(other).is_some();
        return opens.then_some(at);
    }
    None
}

/// Where a broken function body ends: after its `</function>`, or at the end.
fn skip_function(text: &str, pos: usize) -> usize {
    find_cached(text, pos, text.len(), "</function>")
        .map_or_else(|| to_end(text), |at| at + "</function>".len())
}

/// Where a function body that went wrong at `pos` (text where a parameter should be) ends:
/// at a call opened again on a line of its own before the body's `</function>`, else as
/// [`skip_function`]. The model gave the broken call up and started over (`<function=x>⏎
/// Wait, let me call the real tool:⏎<tool_call>⏎<function=get_weather>…`, vLLM issue
/// 58227): the call it started over with is read.
fn restart_or_skip(text: &str, pos: usize) -> usize {
    let skip = skip_function(text, pos);
    let mut search = pos;
    while let Some(at) = ["<tool_call>", "<function="]
        .iter()
        .filter_map(|opener| find_cached(text, search, skip, opener))
        .min()
    {
        if text[..at].trim_end_matches([' ', '\t']).ends_with('\n') {
            return at;
        }
        search = at + 1;
    }
    skip
}

/// The markers of an `<invoke>` format.
struct Invoke<'w> {
    invoke: String,
    invoke_close: String,
    parameter: String,
    parameter_close: String,
    /// The wrapper's closing tag, if it has one.
    wrapper_close: &'w str,
}

impl<'w> Invoke<'w> {
    /// `<invoke>` and `<parameter>` without a prefix, inside a wrapper that `close` ends.
    fn plain(close: &'w str) -> Self {
        Invoke {
            invoke: "<invoke".to_owned(),
            invoke_close: "</invoke>".to_owned(),
            parameter: "<parameter".to_owned(),
            parameter_close: "</parameter>".to_owned(),
            wrapper_close: close,
        }
    }
}

/// A parameter tag without a format's prefix.
const PLAIN_PARAMETER: &str = "<parameter";

/// Reads `<invoke name="N">` blocks with `<parameter name="K">v</parameter>` values from
/// `pos` on; returns where the last one ends (`pos` when there is none).
fn invoke_blocks(cx: &mut Cx<'_>, pos: usize, markup: &Invoke<'_>, format: CallFormat) -> usize {
    let text = cx.text;
    let mut pos = pos;
    loop {
        let p = skip_ws(text, pos);
        if !starts_at(text, p, &markup.invoke) {
            return pos;
        }
        let Some(gt) = find_in(text, p, (p + 512).min(text.len()), ">") else {
            let detail = "an `<invoke` tag is not closed with `>`".to_owned();
            let broken = Broken::at(text, p + 512, None, detail);
            cx.malformed(p, format, broken);
            return to_end(text);
        };
        let tag = &text[p + markup.invoke.len()..gt];
        let name = clean_name(&attribute(tag, "name").unwrap_or_default());
        // `<invoke name="N"/>`: a call without arguments.
        let self_closing = tag.trim_end().ends_with('/');
        let (outcome, end) = if self_closing {
            let call = RawCall {
                name: name.clone(),
                arguments: Value::Object(Map::new()),
                id: None,
                repaired: false,
            };
            (Ok(call), gt + 1)
        } else {
            invoke_parameters(cx, &name, gt + 1, markup)
        };
        pos = end;
        if plausible_name(&name) {
            cx.outcome(p, format, outcome);
        } else {
            let detail = "the `<invoke>` tag has no usable `name` attribute".to_owned();
            cx.malformed(p, format, Broken::new(None, detail));
        }
        if ends_by(text, end) {
            return end;
        }
    }
}

/// The parameters of an invoke of `name` from `start`, up to its closing tag; returns the
/// call and where the invoke ends.
fn invoke_parameters(
    cx: &Cx<'_>,
    name: &str,
    start: usize,
    markup: &Invoke<'_>,
) -> (Outcome, usize) {
    let text = cx.text;
    let tool = cx.tool(name);
    let mut arguments = Map::new();
    // A parameter given twice with two values, when one is.
    let mut twice: Option<String> = None;
    let mut repaired = false;
    let mut pos = start;
    let broken = |detail: String| Err(Broken::new(Some(name.to_owned()), detail));
    let skip = |from: usize| {
        find_cached(text, from, text.len(), &markup.invoke_close)
            .map_or_else(|| to_end(text), |at| at + markup.invoke_close.len())
    };
    loop {
        let p = skip_ws(text, pos);
        if ends_by(text, p) {
            let what = format!("before `{}`", markup.invoke_close);
            return (Err(cut_off(cx, name, &what)), to_end(text));
        }
        if starts_at(text, p, &markup.invoke_close) {
            pos = p + markup.invoke_close.len();
            break;
        }
        let wrapper_ends =
            !markup.wrapper_close.is_empty() && starts_at(text, p, markup.wrapper_close);
        if wrapper_ends || starts_at(text, p, &markup.invoke) {
            // The invoke was left open; the wrapper or the next invoke ends it.
            pos = p;
            break;
        }
        // The arguments as one JSON object instead of parameters (DeepSeek V3.2 sometimes
        // writes them so, and SGLang reads them): only as the whole body.
        if arguments.is_empty() && byte_at(text, p) == Some(b'{') {
            let (outcome, end) = arguments_at(cx, p, name, None);
            let q = skip_ws(text, end);
            if outcome.is_err() || starts_at(text, q, &markup.invoke_close) {
                let next = if starts_at(text, q, &markup.invoke_close) {
                    q + markup.invoke_close.len()
                } else {
                    skip(end)
                };
                return (outcome, next);
            }
        }
        // DSML's parameters are sometimes written plain (`<parameter name=…>`): one reading.
        let (parameter, parameter_close) = if starts_at(text, p, &markup.parameter) {
            (markup.parameter.as_str(), markup.parameter_close.as_str())
        } else if markup.parameter != PLAIN_PARAMETER && starts_at(text, p, PLAIN_PARAMETER) {
            (PLAIN_PARAMETER, "</parameter>")
        } else {
            let detail = format!(
                "unexpected {} in `{name}` at {}, expected `{}`",
                describe_at(text, p),
                cx.at(p),
                markup.parameter
            );
            return (broken(detail), skip(p));
        };
        let Some(gt) = find_in(text, p, (p + 512).min(text.len()), ">") else {
            if ends_by(text, p + 512) {
                return (Err(cut_off(cx, name, "in a parameter tag")), to_end(text));
            }
            let detail = format!("a parameter tag of `{name}` is not closed at {}", cx.at(p));
            return (broken(detail), skip(p));
        };
        let tag = &text[p + parameter.len()..gt];
        let Some(key) = attribute(tag, "name") else {
            let detail = format!(
                "a parameter of `{name}` has no `name` attribute at {}",
                cx.at(p)
            );
            return (broken(detail), skip(p));
        };
        // `<parameter name="K"/>` holds no value: left out, as when it is not written.
        if tag.trim_end().ends_with('/') {
            pos = gt + 1;
            continue;
        }
        let mut after = vec![
            parameter,
            markup.invoke_close.as_str(),
            markup.invoke.as_str(),
        ];
        if !markup.wrapper_close.is_empty() {
            after.push(markup.wrapper_close);
        }
        let instead = [parameter, markup.invoke_close.as_str()];
        let end = value_end(
            text,
            gt + 1,
            parameter_close,
            &after,
            &instead,
            &[markup.invoke.as_str()],
        );
        if end == ValueEnd::Ambiguous {
            return ambiguous(name, &key, parameter_close, skip(gt + 1));
        }
        if end == ValueEnd::Foreign {
            return closed_by_another(name, &key, parameter_close, skip(gt + 1));
        }
        let (value_end, next) = match value_span(end) {
            Some(span) => span,
            None => return cut_in_value(cx, name, &key),
        };
        pos = next;
        let mut value = &text[gt + 1..value_end];
        if matches!(end, ValueEnd::Unclosed(_)) {
            // Its close left out: the line break before the marker that ended it is the
            // markup's.
            repaired = true;
            value = &text[gt + 1..without_line_break(text, gt + 1, value_end)];
        }
        let raw = raw_value(value);
        // DSML says per value whether it is a string or JSON.
        let string = match attribute(tag, "string").as_deref() {
            Some("true") => Some(true),
            Some("false") => Some(false),
            _ => None,
        };
        let (value, fixed) = typed_value(raw, string, tool, &key);
        repaired |= fixed;
        insert_once(&mut arguments, key, value, &mut twice);
    }
    if let Some(key) = twice {
        return (Err(given_twice(name, &key)), pos);
    }
    let call = RawCall {
        name: name.to_owned(),
        arguments: Value::Object(arguments),
        id: None,
        repaired,
    };
    (Ok(call), pos)
}

/// GLM inside `<tool_call>`: `NAME⏎<arg_key>K</arg_key>⏎<arg_value>V</arg_value>…` (4.5,
/// 4.6; 4.7 and 5 write no newlines), or GLM-4's `NAME⏎{json}`, up to `</tool_call>`.
/// Returns where the call ends (after its `</tool_call>`, when it has one).
pub(crate) fn glm(cx: &mut Cx<'_>, start: usize, pos: usize) -> usize {
    pairs_call(cx, start, pos, &Pairs::GLM)
}

/// The markers of a format that writes a call as its name then key/value pairs: GLM's
/// `<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value></tool_call>`; K2's, the same
/// with `<ifm|…>` markers and an optional `<ifm|arg_type>T</ifm|arg_type>`; Hunyuan's, GLM's
/// inside `<tool_calls>` with a `<tool_sep>` after the name (HY 3) or every tag suffixed by
/// the checkpoint (HY 4's `<tool_call:opensource>`); Solar Open 2's special tokens.
pub(crate) struct Pairs {
    pub open: Cow<'static, str>,
    pub close: Cow<'static, str>,
    /// What stands around the calls, when the format has one (`<tool_calls>`).
    pub section: Option<(Cow<'static, str>, Cow<'static, str>)>,
    /// A separator the format may write after the name (`<tool_sep>`).
    separator: Option<Cow<'static, str>>,
    key: Cow<'static, str>,
    key_close: Cow<'static, str>,
    /// Empty where the key's close opens the value (Solar Open's `<|tool_arg:value|>`).
    value: Cow<'static, str>,
    value_close: Cow<'static, str>,
    /// A type tag between the key and the value, when the format has one.
    kind: Option<(&'static str, &'static str)>,
    /// Special tokens that end a value whose close was left out: no value holds them.
    instead: Cow<'static, [Cow<'static, str>]>,
    /// How a value of no declared parameter is read: GLM's and K2's as JSON when it is
    /// (as vLLM reads them), Hunyuan's and Solar Open's as the text written (as their
    /// parsers' tests expect).
    untyped: Untyped,
    pub format: CallFormat,
}

impl Pairs {
    pub(crate) const GLM: Pairs = Pairs {
        open: Cow::Borrowed("<tool_call>"),
        close: Cow::Borrowed("</tool_call>"),
        section: None,
        // Hunyuan's HY 3 without its `<tool_calls>`.
        separator: Some(Cow::Borrowed("<tool_sep>")),
        key: Cow::Borrowed("<arg_key>"),
        key_close: Cow::Borrowed("</arg_key>"),
        value: Cow::Borrowed("<arg_value>"),
        value_close: Cow::Borrowed("</arg_value>"),
        kind: None,
        instead: Cow::Borrowed(&[]),
        untyped: Untyped::Json,
        format: CallFormat::Glm4,
    };
    pub(crate) const K2: Pairs = Pairs {
        open: Cow::Borrowed("<ifm|tool_call>"),
        close: Cow::Borrowed("</ifm|tool_call>"),
        section: Some((
            Cow::Borrowed("<ifm|tool_calls>"),
            Cow::Borrowed("</ifm|tool_calls>"),
        )),
        separator: None,
        key: Cow::Borrowed("<ifm|arg_key>"),
        key_close: Cow::Borrowed("</ifm|arg_key>"),
        value: Cow::Borrowed("<ifm|arg_value>"),
        value_close: Cow::Borrowed("</ifm|arg_value>"),
        kind: Some(("<ifm|arg_type>", "</ifm|arg_type>")),
        instead: Cow::Borrowed(&[]),
        untyped: Untyped::Json,
        format: CallFormat::K2,
    };
    pub(crate) const SOLAR_OPEN: Pairs = Pairs {
        open: Cow::Borrowed("<|tool_call:start|>"),
        close: Cow::Borrowed("<|tool_call:end|>"),
        section: None,
        separator: None,
        key: Cow::Borrowed("<|tool_arg:start|>"),
        key_close: Cow::Borrowed("<|tool_arg:value|>"),
        value: Cow::Borrowed(""),
        value_close: Cow::Borrowed("<|tool_arg:end|>"),
        kind: None,
        instead: Cow::Borrowed(&[
            Cow::Borrowed("<|tool_arg:start|>"),
            Cow::Borrowed("<|tool_call:end|>"),
            Cow::Borrowed("<|tool_call:start|>"),
        ]),
        untyped: Untyped::Text,
        format: CallFormat::SolarOpen,
    };

    /// GLM's pairs in a block that `open` and `close` stand around (`<iquestcoder_tool_call>`),
    /// their tags named with `prefix` (`longcat_` of `<longcat_arg_key>`; empty for GLM's).
    pub(crate) fn glm_in(open: &str, close: &str, prefix: &str) -> Pairs {
        let tag = |slash: &str, name: &str| Cow::Owned(format!("<{slash}{prefix}{name}>"));
        Pairs {
            open: Cow::Owned(open.to_owned()),
            close: Cow::Owned(close.to_owned()),
            key: tag("", "arg_key"),
            key_close: tag("/", "arg_key"),
            value: tag("", "arg_value"),
            value_close: tag("/", "arg_value"),
            ..Pairs::GLM
        }
    }

    /// Hunyuan's markers, each tag ending in `suffix` (`:opensource`; empty for HY 3 and
    /// unsuffixed HY 4 checkpoints).
    pub(crate) fn hunyuan(suffix: &str) -> Pairs {
        let tag = |name: &str| Cow::Owned(format!("<{name}{suffix}>"));
        Pairs {
            open: tag("tool_call"),
            close: tag("/tool_call"),
            section: Some((tag("tool_calls"), tag("/tool_calls"))),
            separator: Some(tag("tool_sep")),
            key: tag("arg_key"),
            key_close: tag("/arg_key"),
            value: tag("arg_value"),
            value_close: tag("/arg_value"),
            kind: None,
            // Hunyuan's tags are special tokens of its vocabulary.
            instead: Cow::Owned(vec![
                tag("arg_key"),
                tag("/tool_call"),
                tag("tool_call"),
                tag("/tool_calls"),
            ]),
            untyped: Untyped::Text,
            format: CallFormat::Hunyuan,
        }
    }
}

/// A call whose name starts at `pos` (its opener at `start`), then a JSON object or
/// `markup`'s key/value pairs, to its close. Returns the end of its region.
pub(crate) fn pairs_call(cx: &mut Cx<'_>, start: usize, pos: usize, markup: &Pairs) -> usize {
    let close = &*markup.close;
    let text = cx.text;
    let format = markup.format;
    let name_stop = text[pos..]
        .find(['\n', '<', '{'])
        .map_or_else(|| to_end(text), |i| pos + i);
    let name = clean_name(&text[pos..name_stop]);
    if !plausible_name(&name) {
        let detail = format!(
            "`{}` is followed by {} instead of a call",
            markup.open,
            describe_at(text, pos)
        );
        cx.malformed(start, format, Broken::new(None, detail));
        return find_cached(text, pos, text.len(), close)
            .map_or_else(|| to_end(text), |at| at + close.len());
    }
    let mut p = skip_ws(text, name_stop);
    if let Some(separator) = &markup.separator
        && starts_at(text, p, separator)
    {
        p = skip_ws(text, p + separator.len());
    }
    if text.as_bytes().get(p) == Some(&b'{') {
        let (outcome, end) = arguments_until(cx, p, &name, None, |text, pos| {
            first_of(text, pos, &[close])
        });
        cx.outcome(start, format, outcome);
        return past_close(text, end, close);
    }
    let (outcome, end) = pairs(cx, name, p, markup);
    cx.outcome(start, format, outcome);
    end
}

/// The `<arg_key>K</arg_key><arg_value>V</arg_value>` pairs of a call to `name` (as
/// `markup` writes them), from `pos` to its close; values keep their whitespace exactly
/// (these formats write no newline of their own inside a value) and are typed with the
/// tool's schema, or read as JSON when they are (a type tag, where the format has one,
/// says which). Returns the call and its end.
fn pairs(cx: &Cx<'_>, name: String, pos: usize, markup: &Pairs) -> (Outcome, usize) {
    let close = &*markup.close;
    let instead: Vec<&str> = markup.instead.iter().map(|token| &**token).collect();
    let text = cx.text;
    let tool = cx.tool(&name);
    let mut arguments = Map::new();
    // A parameter given twice with two values, when one is.
    let mut twice: Option<String> = None;
    let mut repaired = false;
    let mut pos = pos;
    loop {
        let p = skip_ws(text, pos);
        if ends_by(text, p) {
            return (
                Err(cut_off(cx, &name, &format!("before `{close}`"))),
                to_end(text),
            );
        }
        if starts_at(text, p, close) {
            pos = p + close.len();
            break;
        }
        if starts_at(text, p, &markup.open)
            || markup
                .section
                .as_ref()
                .is_some_and(|(_, section_close)| starts_at(text, p, section_close))
        {
            // Left open; the next call, or the section's close, ends it.
            pos = p;
            break;
        }
        let key_start = p + markup.key.len();
        let key_end = starts_at(text, p, &markup.key)
            .then(|| {
                find_in(
                    text,
                    key_start,
                    (key_start + 256).min(text.len()),
                    &markup.key_close,
                )
            })
            .flatten();
        let Some(key_end) = key_end else {
            if starts_at(text, p, &markup.key) && ends_by(text, key_start + 256) {
                return (Err(cut_off(cx, &name, "in an argument name")), to_end(text));
            }
            let detail = format!(
                "expected `{}K{}{}V{}` at {}, found {}",
                markup.key,
                markup.key_close,
                markup.value,
                markup.value_close,
                cx.at(p),
                describe_at(text, p)
            );
            let end = find_cached(text, p, text.len(), close)
                .map_or_else(|| to_end(text), |at| at + close.len());
            return (Err(Broken::new(Some(name), detail)), end);
        };
        let key = text[key_start..key_end].trim().to_owned();
        let mut value_open = skip_ws(text, key_end + markup.key_close.len());
        // K2's type tag: `string` keeps the text, any other type reads it as JSON.
        let mut string = None;
        if let Some((kind, kind_close)) = markup.kind
            && starts_at(text, value_open, kind)
        {
            let kind_start = value_open + kind.len();
            let limit = (kind_start + 64).min(text.len());
            let Some(kind_end) = find_in(text, kind_start, limit, kind_close) else {
                if ends_by(text, limit) {
                    return (Err(cut_off(cx, &name, "in a type tag")), to_end(text));
                }
                let detail = format!("the type tag of `{key}` of `{name}` is not closed");
                let end = find_cached(text, p, text.len(), close)
                    .map_or_else(|| to_end(text), |at| at + close.len());
                return (Err(Broken::new(Some(name), detail)), end);
            };
            string = Some(text[kind_start..kind_end].trim() == "string");
            value_open = skip_ws(text, kind_end + kind_close.len());
        }
        if !starts_at(text, value_open, &markup.value) {
            if ends_by(text, value_open) {
                return (
                    Err(cut_off(cx, &name, "before the value of an argument")),
                    to_end(text),
                );
            }
            let detail = format!(
                "the argument `{key}` of `{name}` has no `{}` at {}",
                markup.value,
                cx.at(value_open)
            );
            let end = find_cached(text, p, text.len(), close)
                .map_or_else(|| to_end(text), |at| at + close.len());
            return (Err(Broken::new(Some(name), detail)), end);
        }
        let value_start = value_open + markup.value.len();
        // A token no value holds, before any close: the close was left out.
        let token = markup
            .instead
            .iter()
            .filter_map(|token| find_cached(text, value_start, text.len(), token))
            .min()
            .filter(|&at| find_cached(text, value_start, at, &markup.value_close).is_none());
        let value_end = match token.map_or_else(
            || {
                let mut after = vec![&*markup.key, close, &*markup.open];
                after.extend(markup.section.as_ref().map(|(_, close)| &**close));
                value_end(
                    text,
                    value_start,
                    &markup.value_close,
                    &after,
                    &instead,
                    &[&markup.open],
                )
            },
            ValueEnd::Unclosed,
        ) {
            ValueEnd::Closed { end, next } => {
                match next_pair_in(text, value_start, end, markup) {
                    // The close was left out before the next pair, and the close found is
                    // that pair's (a repair).
                    Some(key_at) => {
                        repaired = true;
                        pos = key_at;
                        // The line break before the next pair is the markup's.
                        without_line_break(text, value_start, key_at)
                    }
                    None => {
                        pos = next;
                        end
                    }
                }
            }
            ValueEnd::Ambiguous => {
                let resume = find_cached(text, value_start, text.len(), close)
                    .map_or_else(|| to_end(text), |at| at + close.len());
                return ambiguous(&name, &key, &markup.value_close, resume);
            }
            // Its close left out before a token no value holds, or where the structure
            // closed; the line break before that is the markup's.
            ValueEnd::Unclosed(end) => {
                pos = end;
                repaired = true;
                without_line_break(text, value_start, end)
            }
            ValueEnd::Foreign | ValueEnd::CutOff => {
                let what = format!("in the value of `{key}`");
                return (Err(cut_off(cx, &name, &what)), to_end(text));
            }
        };
        let raw = &text[value_start..value_end];
        let (value, fixed) = match string {
            Some(_) => typed_value(raw, string, tool, &key),
            None => convert(raw, tool, &key, markup.untyped),
        };
        repaired |= fixed;
        insert_once(&mut arguments, key, value, &mut twice);
    }
    if let Some(key) = twice {
        return (Err(given_twice(&name, &key)), pos);
    }
    let call = RawCall {
        name,
        arguments: Value::Object(arguments),
        id: None,
        repaired,
    };
    (Ok(call), pos)
}

/// Where the next pair starts in a value read from `from` to `end`, when the value holds
/// it (`Paris<arg_key>unit</arg_key><arg_value>celsius`): a key, its close and a value
/// opener that nothing in the value closes. The close that ended the value is then that
/// value's, and the first value lost its own. A value that holds whole pairs (a call
/// written as text) keeps them.
fn next_pair_in(text: &str, from: usize, end: usize, markup: &Pairs) -> Option<usize> {
    if markup.value.is_empty() {
        return None;
    }
    let value = &text[from..end];
    let opener = value.rfind(&*markup.value)?;
    if value[opener..].contains(&*markup.value_close) {
        return None;
    }
    let key = value[..opener].rfind(&*markup.key)?;
    let key_close = value[key..opener].find(&*markup.key_close)? + key;
    value[key_close + markup.key_close.len()..opener]
        .trim()
        .is_empty()
        .then_some(from + key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_that_holds_the_next_pair_lost_its_close() {
        let glm = &Pairs::GLM;
        let text = "Paris<arg_key>unit</arg_key>\n<arg_value>celsius";
        assert_eq!(next_pair_in(text, 0, text.len(), glm), Some(5));
        // A whole pair written as text is the value's.
        let text = "Format: <arg_key>K</arg_key><arg_value>V</arg_value> done";
        assert_eq!(next_pair_in(text, 0, text.len(), glm), None);
        // An opener not right after a key is text.
        let text = "a <arg_value> b";
        assert_eq!(next_pair_in(text, 0, text.len(), glm), None);
        let text = "<arg_key>k</arg_key> then <arg_value>v";
        assert_eq!(next_pair_in(text, 0, text.len(), glm), None);
    }

    #[test]
    fn attributes_are_unescaped() {
        assert_eq!(
            attribute(
                r#" name="a &amp; b &quot;c&quot; &#65;&#x42; &bogus;""#,
                "name"
            )
            .as_deref(),
            Some(r#"a & b "c" AB &bogus;"#)
        );
        assert_eq!(attribute(" tool='x'", "tool").as_deref(), Some("x"));
        assert_eq!(attribute(" names=\"x\"", "name"), None);
    }

    #[test]
    fn a_closing_marker_ends_a_value_only_where_the_structure_allows() {
        let text = "a</parameter> b</parameter>\n<parameter=x>";
        let after = ["<parameter=", "</function>"];
        assert_eq!(
            value_end(text, 0, "</parameter>", &after, &[], &[]),
            ValueEnd::Closed { end: 15, next: 27 }
        );
        assert_eq!(
            value_end("a</parameter> b", 0, "</parameter>", &after, &[], &[]),
            ValueEnd::CutOff
        );
        assert_eq!(
            value_end(
                "a\n<parameter=y>",
                0,
                "</parameter>",
                &after,
                &["<parameter="],
                &[]
            ),
            ValueEnd::Unclosed(2)
        );
        // At the end of the output, a close is a close.
        assert_eq!(
            value_end("a</parameter>\n", 0, "</parameter>", &after, &[], &[]),
            ValueEnd::Closed { end: 1, next: 13 }
        );
    }

    #[test]
    fn a_value_that_opens_a_call_of_its_format_ends_where_its_openings_balance() {
        let after = ["<parameter=", "</function>", "<function", "</tool_call>"];
        let instead = ["<parameter=", "</function>"];
        let calls = ["<function", "<tool_call>"];
        let close = "</parameter>";
        let end = |text: &str| value_end(text, 0, close, &after, &instead, &calls);
        // A fixture: a whole call, then the value's own close.
        let fixture = "RAW = \"\"\"<tool_call>\n<function=f>\n<parameter=city>\nParis\n</parameter>\n\
                       <parameter=days>\n3\n</parameter>\n</function>\n</tool_call>\"\"\"\n";
        let text = format!("{fixture}</parameter>\n</function>");
        assert_eq!(
            end(&text),
            ValueEnd::Closed {
                end: fixture.len(),
                next: fixture.len() + close.len()
            }
        );
        // Cut before its own close, the value is still being written: the fixture's last
        // close is not taken for the value's.
        let cut = &text[..text.rfind("</parameter>").unwrap()];
        assert_eq!(end(cut), ValueEnd::CutOff);
        // A value that opens the next parameter without a call before it lost its close:
        // the close found is the next one's, which the caller tells (`implicit_close`).
        assert_eq!(
            end("Paris\n<parameter=days>\n3\n</parameter>\n</function>"),
            ValueEnd::Closed { end: 25, next: 37 }
        );
        // A value that ran into the next call after closing its own is not nested.
        let text = "a\n</function>\n<function=g>\n<parameter=q>\nb\n</parameter>\n</function>";
        assert_ne!(end(text), ValueEnd::Closed { end: 47, next: 59 });
    }

    #[test]
    fn a_value_that_may_end_at_two_closes_is_ambiguous() {
        let after = ["<parameter=", "</function>", "<function", "</tool_call>"];
        let close = "</parameter>";
        // The whole closing sequence inside the value, then prose, then the real close:
        // either close ends the value as well.
        let text = "a\n</parameter>\n</function>\n</tool_call>\nthen b\n</parameter>\n</function>";
        assert_eq!(
            value_end(text, 0, close, &after, &[], &[]),
            ValueEnd::Ambiguous
        );
        // A later close after the next element opened is that element's.
        let text = "a</parameter>\n<parameter=b>c</parameter>\n</function>";
        assert_eq!(
            value_end(text, 0, close, &after, &[], &[]),
            ValueEnd::Closed { end: 1, next: 13 }
        );
        // A later close that the structure does not allow is text after the call.
        let text = "a</parameter></function> and `</parameter>` in prose";
        assert_eq!(
            value_end(text, 0, close, &after, &[], &[]),
            ValueEnd::Closed { end: 1, next: 13 }
        );
        // A close followed by the call's close and then by a close of the value again
        // (a diff of such markup): ended at the first, the second would stand stray after
        // the call, so only the last ends the value.
        let text = "-<parameter=q>old</parameter>\n </function></parameter>\n</function>";
        assert_eq!(
            value_end(text, 0, close, &after, &[], &[]),
            ValueEnd::Closed { end: 42, next: 54 }
        );
    }

    #[test]
    fn a_missing_close_is_repaired_only_where_the_structure_goes_on() {
        let after = ["<parameter=", "</function>", "</tool_call>"];
        let instead = ["<parameter=", "</function>"];
        let end = |text: &str| value_end(text, 0, "</parameter>", &after, &instead, &[]);
        assert_eq!(
            end("Paris\n</function>\n</tool_call>"),
            ValueEnd::Unclosed(6)
        );
        assert_eq!(end("Paris\n<parameter=days>"), ValueEnd::Unclosed(6));
        // Followed by text, the closing marker is the value's own text; at the very end,
        // it may be: the output may have been cut there.
        assert_eq!(
            end("ends with </function> on its own line"),
            ValueEnd::CutOff
        );
        assert_eq!(end("ends with </function>"), ValueEnd::CutOff);
        assert_eq!(
            end("ends with </function> here\n</function>\n</tool_call>"),
            ValueEnd::Unclosed(27)
        );
    }

    #[test]
    fn a_value_that_crosses_into_the_next_call_ends_where_its_call_closed() {
        let after = ["<parameter=", "</function>", "<function", "</tool_call>"];
        let close = "</parameter>";
        // Its close left out: the close found belongs to the next call's value.
        let text = "a\n</function>\n</tool_call>\n<tool_call>\n<function=f>\n<parameter=q>\nb\n</parameter>\n</function>";
        assert_eq!(
            value_end(text, 0, close, &after, &[], &[]),
            ValueEnd::Unclosed(2)
        );
        // A value that holds markup it closes again keeps it.
        let text = "a </function> then <function=g> done</function> end</parameter>\n</function>";
        assert_eq!(
            value_end(text, 0, close, &after, &[], &[]),
            ValueEnd::Closed { end: 51, next: 63 }
        );
        // A value that only mentions an opening marker keeps it.
        let text = "write <parameter=NAME> first</parameter>\n</function>";
        assert_eq!(
            value_end(text, 0, close, &after, &[], &[]),
            ValueEnd::Closed { end: 28, next: 40 }
        );
    }
}
