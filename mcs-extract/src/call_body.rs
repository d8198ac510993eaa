//! What a delimiter opens, when it is JSON: a run of calls ([`json_body`], shared by the
//! tagged formats, Mistral's list, Llama 3, LFM2), or one call's arguments object
//! ([`arguments_at`], shared by the token formats and the XML ones that allow JSON), and
//! what is left of either when it is broken: where the broken region ends and which tool
//! it named.

use serde_json::{Map, Value};

use super::call_shape::{strong_calls, strong_element};
use super::horizon;
use super::json::{JsonError, describe_at, parse_value};
use super::record::{Broken, Cx, Outcome, RawCall};
use super::scan::{
    byte_at, clean_name, element_end, ends_by, find_in, floor_boundary, name_end, plausible_name,
    skip_ws, starts_at, to_end,
};
use super::visible;
use mcs_core::call::CallFormat;
use mcs_core::schema::kind_of;

/// Reads JSON calls from `pos` on: objects or lists of calls, separated by whitespace,
/// `,` or `;`, optionally fenced, up to `close` (consumed) or to the first text that is
/// not JSON. Returns the end of what it read. `opener` names the delimiter in messages.
pub(crate) fn json_body(
    cx: &mut Cx<'_>,
    pos: usize,
    close: Option<&str>,
    format: CallFormat,
    opener: &str,
) -> usize {
    let text = cx.text;
    let mut pos = pos;
    let mut found_any = false;
    loop {
        let p = skip_ws(text, pos);
        if let Some(close) = close.filter(|close| starts_at(text, p, close)) {
            if !found_any {
                cx.malformed(
                    p,
                    format,
                    Broken::new(None, format!("`{opener}` holds no call")),
                );
            }
            return p + close.len();
        }
        // The opener again (`[TOOL_CALLS] […][TOOL_CALLS] […]`): what follows is read
        // from it, as calls of their own.
        if close.is_none() && starts_at(text, p, opener) {
            return p;
        }
        // A full-width brace, as CJK input methods write it, opens an object too.
        let object = byte_at(text, p) == Some(b'{') || starts_at(text, p, "\u{FF5B}");
        match byte_at(text, p) {
            Some(b',' | b';') => {
                pos = p + 1;
                continue;
            }
            // A fence around the call: skip its marker line (```json) or closing marker.
            Some(b'`') if starts_at(text, p, "```") => {
                pos = after_fence_marker(text, p);
                continue;
            }
            Some(b'[') => match json_list(cx, p, close, format, opener) {
                Ok(end) => {
                    found_any = true;
                    pos = end;
                }
                // Cut off: the output ended inside the list, so all that follows is in it
                // (a closing tag written inside one of its strings closes nothing).
                Err(true) => return to_end(text),
                Err(false) => return after_close(text, p, close, opener),
            },
            _ if object => {
                let touches = horizon::touches();
                match parse_value(text, p) {
                    Ok(parsed) => {
                        let what = format!("the JSON after `{opener}`");
                        for outcome in strong_calls(&parsed.value, cx, parsed.repaired, &what) {
                            cx.outcome(p, format, outcome);
                        }
                        found_any = true;
                        pos = parsed.end;
                    }
                    Err(error) => {
                        let broken = invalid_json(cx, p, &error, touches);
                        let cut_off = broken.cut_off;
                        cx.malformed(p, format, broken);
                        return if cut_off {
                            to_end(text)
                        } else {
                            after_close(text, p, close, opener)
                        };
                    }
                }
            }
            // `<tool_call>assistant to=functions.get_weather json⏎{…}`: a Harmony header
            // inside another format's tags (SGLang's gpt-oss dialect), its recipient the tool.
            _ if !found_any && let Some((name, at)) = recipient_header(text, p) => {
                let (outcome, end) = arguments_at(cx, at, &name, None);
                cx.outcome(p, format, outcome);
                found_any = true;
                pos = end;
            }
            _ => {
                if !found_any {
                    let detail = no_call_after(text, p, opener);
                    cx.malformed(p, format, Broken::new(None, detail));
                    return after_close(text, p, close, opener);
                }
                return p;
            }
        }
    }
}

/// A JSON list of calls at `pos` (at `[`), read one element at a time, so the calls
/// before a broken or cut-off element still count — and a stream reports each as soon as
/// it is whole. Returns the end of the list, or, when it broke off (recorded), whether the
/// output ended inside it.
fn json_list(
    cx: &mut Cx<'_>,
    pos: usize,
    close: Option<&str>,
    format: CallFormat,
    opener: &str,
) -> Result<usize, bool> {
    let text = cx.text;
    let mut index = 0;
    let mut q = pos + 1;
    loop {
        q = skip_ws(text, q);
        match byte_at(text, q) {
            Some(b']') if index == 0 => {
                let detail = format!("the JSON after `{opener}` is an empty list of calls");
                cx.malformed(pos, format, Broken::new(None, detail));
                return Ok(q + 1);
            }
            Some(b']') => return Ok(q + 1),
            // A separator; a trailing one before `]` is a slip, not an error.
            Some(b',') if index > 0 => {
                q += 1;
                continue;
            }
            _ => {}
        }
        let touches = horizon::touches();
        match parse_value(text, q) {
            Ok(parsed) => {
                for outcome in strong_element(&parsed.value, cx, parsed.repaired, index) {
                    cx.outcome(pos, format, outcome);
                }
                index += 1;
                q = skip_ws(text, parsed.end);
                match byte_at(text, q) {
                    Some(b',' | b']') => {}
                    // `]` left out where the region ends: the list can end nowhere else.
                    _ if region_ends(text, q, close) => return Ok(q),
                    _ => {
                        let detail = format!(
                            "invalid JSON at {}: expected `,` or `]` after element {} of the list, found {}",
                            cx.at(q),
                            index - 1,
                            describe_at(text, q)
                        );
                        let cut_off = ends_by(text, q);
                        let broken = if cut_off {
                            Broken::cut(None, detail)
                        } else {
                            Broken::new(None, detail)
                        };
                        cx.malformed(pos, format, broken);
                        return Err(cut_off);
                    }
                }
            }
            Err(error) => {
                let broken = invalid_json(cx, q, &error, touches);
                let cut_off = broken.cut_off;
                cx.malformed(pos, format, broken);
                return Err(cut_off);
            }
        }
    }
}

/// Whether the call region ends at `pos`: its closing delimiter stands there, or only
/// special tokens (`<|im_end|>`, `</s>`: the model's end of sequence) are left before the end
/// of the output (the output ended).
fn region_ends(text: &str, pos: usize, close: Option<&str>) -> bool {
    if close.is_some_and(|close| starts_at(text, pos, close)) {
        return true;
    }
    // Without such a token, an output that ends after an element may have been cut off
    // before the next one.
    let mut pos = pos;
    let mut ended = false;
    loop {
        match visible::special_token(&text[pos..]) {
            Ok(Some(len)) => pos = skip_ws(text, pos + len),
            Ok(None) => break,
            // A token still being written: what it becomes decides.
            Err(()) => {
                horizon::reached(text, text.len());
                return false;
            }
        }
        ended = true;
    }
    ended && ends_by(text, pos)
}

/// A JSON value at `start` that could not be read, as a broken call: cut off when reading
/// it ran into the end of the output (`touches` is [`horizon::touches`] from before).
pub(crate) fn invalid_json(cx: &Cx<'_>, start: usize, error: &JsonError, touches: u64) -> Broken {
    if cx.discarded() {
        return Broken::new(None, String::new());
    }
    let name = guess_name(cx.text, start, error.pos);
    if horizon::touches() != touches {
        let detail = format!(
            "the output ends inside the call, at {}: {}",
            cx.at(cx.text.len()),
            error.message
        );
        return Broken::cut(name, detail);
    }
    let detail = format!("invalid JSON at {}: {}", cx.at(error.pos), error.message);
    Broken::new(name, detail)
}

/// The end of a fence marker at `pos` and its language tag (```` ```json ````), not of
/// what follows them.
fn after_fence_marker(text: &str, pos: usize) -> usize {
    let mut end = pos + 3;
    while byte_at(text, end).is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
    {
        end += 1;
    }
    end
}

/// A Harmony message header at `pos` naming a tool as its recipient (`assistant
/// to=functions.NAME json`, `to=functions.NAME`, with `<|constrain|>json` or a `json` content
/// type): the tool's name and where its arguments start. `None` for anything else.
fn recipient_header(text: &str, pos: usize) -> Option<(String, usize)> {
    let mut p = pos;
    if starts_at(text, p, "assistant") {
        p = skip_ws(text, p + "assistant".len());
    }
    if !starts_at(text, p, "to=functions.") {
        return None;
    }
    p += "to=functions.".len();
    let start = p;
    p = name_end(text, p);
    let name = clean_name(&text[start..p]);
    if !plausible_name(&name) {
        return None;
    }
    p = skip_ws(text, p);
    if starts_at(text, p, "<|constrain|>") {
        p += "<|constrain|>".len();
    }
    if starts_at(text, p, "json") {
        p += "json".len();
    }
    let at = skip_ws(text, p);
    (byte_at(text, at) == Some(b'{')).then_some((name, at))
}

/// What is wrong when `opener` is followed, at `pos`, by no call at all.
fn no_call_after(text: &str, pos: usize, opener: &str) -> String {
    if pos >= to_end(text) {
        format!("`{opener}` is not followed by a call (the output ends there)")
    } else {
        format!(
            "`{opener}` is followed by {} instead of a JSON call",
            describe_at(text, pos)
        )
    }
}

/// Where a broken region ends: after its closing tag if it has one before the next
/// `open`, else where the next `open` starts, else at the end.
pub(crate) fn after_close(text: &str, pos: usize, close: Option<&str>, open: &str) -> usize {
    match close {
        Some(close) => {
            let (close_at, body_end) = element_end(text, pos, text.len(), close, open);
            close_at.map_or(body_end, |c| c + close.len())
        }
        None => find_in(text, pos, text.len(), open).unwrap_or_else(|| to_end(text)),
    }
}

/// The tool name in broken JSON between `start` and `end`, if a name key can be seen.
pub(crate) fn guess_name(text: &str, start: usize, end: usize) -> Option<String> {
    const KEYS: &[&str] = &[
        "\"name\"",
        "\"tool\"",
        "\"tool_name\"",
        "\"toolName\"",
        "\"function_name\"",
        "\"function\"",
        "'name'",
        "'tool'",
    ];
    name_under(text, start, end, KEYS)
}

/// The tool a LangChain JSON blob the output ends inside of names
/// (`{"action": "search", "action_input": …`), as [`guess_name`] finds a call's.
pub(crate) fn guess_action(text: &str, start: usize, end: usize) -> Option<String> {
    name_under(text, start, end, &["\"action\"", "'action'"])
}

/// The first plausible tool name quoted after one of `keys` (quoted keys, in order of
/// preference) between `start` and `end`, within 2,000 bytes.
fn name_under(text: &str, start: usize, end: usize, keys: &[&str]) -> Option<String> {
    let end = floor_boundary(text, end.min(start.saturating_add(2000)));
    if end == text.len() {
        horizon::reached(text, end);
    }
    let window = text.get(start..end)?;
    // Every key below is quoted: without a quote (braces in prose and code) there is none.
    memchr::memchr2(b'"', b'\'', window.as_bytes())?;
    for key in keys {
        let Some(at) = window.find(key) else { continue };
        let rest = window[at + key.len()..].trim_start();
        let Some(rest) = rest.strip_prefix(':') else {
            continue;
        };
        let rest = rest.trim_start();
        let Some(quote) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            continue;
        };
        let rest = &rest[1..];
        if let Some(close) = rest.find(quote) {
            let name = clean_name(&rest[..close]);
            if plausible_name(&name) {
                return Some(name);
            }
        }
    }
    None
}

/// Reads an arguments object at `pos` (after whitespace). Returns the outcome and where
/// reading stopped: arguments that are not JSON run to the end of the output (see
/// [`arguments_until`] for formats whose calls end with a token).
pub(crate) fn arguments_at(
    cx: &Cx<'_>,
    pos: usize,
    name: &str,
    id: Option<String>,
) -> (Outcome, usize) {
    let (outcome, end) = read_arguments(cx, pos, name, id);
    (outcome, end.unwrap_or_else(|| to_end(cx.text)))
}

/// [`arguments_at`] for a format whose calls are followed by a token that ends them (their
/// close, or the next call's opener): arguments that are not JSON end where `stop` finds
/// the first such token after them, and the reader goes on there as after any arguments,
/// so that the calls after a broken one are still read. Where `stop` finds none, they run
/// to the end of the output.
pub(crate) fn arguments_until(
    cx: &Cx<'_>,
    pos: usize,
    name: &str,
    id: Option<String>,
    stop: impl FnOnce(&str, usize) -> Option<usize>,
) -> (Outcome, usize) {
    let (outcome, end) = read_arguments(cx, pos, name, id);
    let text = cx.text;
    let end = end
        .or_else(|| stop(text, pos))
        .unwrap_or_else(|| to_end(text));
    (outcome, end)
}

/// [`arguments_at`]'s reading; `None` for where it ends when the arguments are not JSON.
fn read_arguments(
    cx: &Cx<'_>,
    pos: usize,
    name: &str,
    id: Option<String>,
) -> (Outcome, Option<usize>) {
    let text = cx.text;
    let p = skip_ws(text, pos);
    let broken = |detail: String| Broken::new(Some(name.to_owned()), detail);
    if !matches!(byte_at(text, p), Some(b'{' | b'[' | b'"' | b'n')) {
        let detail = format!(
            "expected the arguments of `{name}` as a JSON object at {}, found {}",
            cx.at(p),
            describe_at(text, p)
        );
        return (Err(broken(detail)), Some(p));
    }
    let touches = horizon::touches();
    match parse_value(text, p) {
        Ok(parsed) => {
            let arguments = match parsed.value {
                Value::Object(_) => Ok(parsed.value),
                Value::Null => Ok(Value::Object(Map::new())),
                other => Err(broken(format!(
                    "the arguments of `{name}` must be a JSON object, found {} at {}",
                    kind_of(&other),
                    cx.at(p)
                ))),
            };
            let outcome = arguments.map(|arguments| RawCall {
                name: name.to_owned(),
                arguments,
                id,
                repaired: parsed.repaired,
            });
            (outcome, Some(parsed.end))
        }
        Err(error) if horizon::touches() != touches => {
            let detail = format!(
                "the output ends inside the arguments of `{name}`, at {}: {}",
                cx.at(text.len()),
                error.message
            );
            (
                Err(Broken::cut(Some(name.to_owned()), detail)),
                Some(to_end(text)),
            )
        }
        Err(error) => {
            let detail = format!(
                "invalid JSON in the arguments of `{name}` at {}: {}",
                cx.at(error.pos),
                error.message
            );
            (Err(broken(detail)), None)
        }
    }
}
