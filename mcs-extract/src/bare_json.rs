//! JSON calls without a delimiter: a text that is one JSON value ([`whole_parsed`], the
//! answer the default system prompt asks for), and JSON values in prose or fences
//! ([`calls_in_gap`]). Only call-shaped values count (see `call_shape`, with weak trust);
//! broken JSON counts when it is recognisably a call.

use serde_json::Value;

use super::call_body::{guess_action, guess_name};
use super::call_shape::{Trust, calls_in};
use super::json::parse_value;
use super::record::{Broken, Cx, Finding};
use super::scan::{floor_boundary, skip_ws};
use super::{horizon, markdown, work};
use mcs_core::call::CallFormat;

/// Whether a `{` or `[` at `pos` could start a call, judged by the next character: keeps
/// the parser away from most braces in prose and code.
fn worth_reading(text: &str, pos: usize) -> bool {
    let next = skip_ws(text, pos + 1);
    let Some(c) = text.get(next..).and_then(|rest| rest.chars().next()) else {
        return false;
    };
    match text.as_bytes()[pos] {
        b'{' => {
            matches!(c, '"' | '\'' | '\u{201C}' | '\u{2018}' | '/')
                || c.is_ascii_alphabetic()
                || c == '_'
        }
        _ => c == '{',
    }
}

/// Where the search for JSON calls in a gap stands.
#[derive(Clone, Debug)]
pub(crate) struct GapState {
    /// The gap's start.
    start: usize,
    /// Brackets before this are read.
    pos: usize,
    /// Bytes examined by reads that failed. Failed reads may cover the same bytes again;
    /// a read at offset `p` may start only while this is below `4 (p - start) + 64 KiB`,
    /// so adversarial input (thousands of unterminated `{"`) stays linear.
    spent: usize,
}

impl GapState {
    pub(crate) fn new(start: usize) -> Self {
        GapState {
            start,
            pos: start,
            spent: 0,
        }
    }
}

/// JSON calls in the gap, from where `state` stands up to `end`. Each value is read once;
/// one that is not a call is skipped whole, so the scan stays linear and calls nested in
/// data are not found. With `open`, the gap may go on after `end`: a value whose reading
/// ran into it is read again, from there, next time, and the offset returned (else `end`)
/// is where the text stops being decided.
pub(crate) fn calls_in_gap(
    cx: &Cx<'_>,
    state: &mut GapState,
    end: usize,
    open: bool,
) -> (Vec<Finding>, usize) {
    let text = &cx.text[..end];
    let bytes = text.as_bytes();
    let mut findings = Vec::new();
    while let Some(offset) = memchr::memchr2(b'{', b'[', &bytes[state.pos..]) {
        let at = state.pos + offset;
        if state.spent >= 4 * (at - state.start) + 65_536 {
            state.pos = end;
            return (findings, end);
        }
        let touches = horizon::touches();
        if !worth_reading(text, at) {
            if open && horizon::touches() != touches {
                return (findings, undecided_from(cx, at));
            }
            state.pos = at + 1;
            continue;
        }
        let read = parse_value(text, at);
        let cut_off = horizon::touches() != touches;
        if open && cut_off {
            return (findings, undecided_from(cx, at));
        }
        match read {
            Ok(parsed) => {
                state.pos = parsed.end;
                findings.extend(
                    json_finding(cx, &parsed.value, at, parsed.end, parsed.repaired)
                        .or_else(|| glued_call(cx, &parsed.value, at, parsed.end, parsed.repaired)),
                );
            }
            Err(error) => {
                let glued = glued_name(cx, at);
                let name = looks_like_call(cx, at, error.pos).or_else(|| {
                    glued
                        .as_ref()
                        .filter(|_| cut_off)
                        .map(|(_, name, _)| name.clone())
                });
                // `"days": <number of days>` is a template of the format.
                let template = !cut_off && markdown::placeholder_at(text, error.pos);
                // Whether it looks like a call can depend on what follows.
                if open && horizon::touches() != touches {
                    return (findings, undecided_from(cx, at));
                }
                state.pos = at + 1;
                // A list of calls the output ends inside of: the whole calls before the
                // cut one count.
                if cut_off && let Some(finding) = cut_list(cx, text, at, &error.message.to_string())
                {
                    state.pos = finding.end;
                    findings.push(finding);
                    continue;
                }
                if let Some(name) = name.filter(|_| !template) {
                    let (start, format) = match glued.filter(|(_, glued, _)| *glued == name) {
                        Some((start, _, format)) => (start, format),
                        None => (at, CallFormat::Json),
                    };
                    let broken = if cut_off {
                        let detail = format!(
                            "the output ends inside the call, at {}: {}",
                            cx.at(text.len()),
                            error.message
                        );
                        Broken::cut(Some(name), detail)
                    } else {
                        let detail =
                            format!("invalid JSON at {}: {}", cx.at(error.pos), error.message);
                        Broken::new(Some(name), detail)
                    };
                    // What follows a call the output ended inside of is that call's text.
                    let resume = if cut_off {
                        end
                    } else {
                        floor_boundary(text, error.pos.max(at + 1))
                    };
                    findings.push(Finding {
                        start,
                        end: resume,
                        items: vec![(start, format, Err(broken))],
                    });
                    state.pos = resume;
                }
                state.spent += error.pos.saturating_sub(at);
            }
        }
    }
    state.pos = end;
    // A name still being written may be glued to the arguments to come.
    let hold = if open { glued_hold(text, end) } else { end };
    (findings, hold)
}

/// The calls of a list the output ends inside of, at `start`: a bare list (`[{…}, {…`) or
/// the list under a `"tool_calls"` key of the object at `start`, read one element at a time; the element the
/// output ends in is a call cut off. `None` when no whole element before it is a call.
fn cut_list(cx: &Cx<'_>, text: &str, start: usize, message: &str) -> Option<Finding> {
    let bytes = text.as_bytes();
    let list = if bytes.get(start) == Some(&b'[') {
        start
    } else {
        // The key may stand deeper, as in a whole chat completion the output ends inside of
        // (`{"choices": [{"message": {…, "tool_calls": [`), within its first 4 KiB; it
        // cannot stand in a string, where its quotes would be escaped.
        const KEY: &str = "\"tool_calls\"";
        let window = floor_boundary(text, start.saturating_add(4096));
        let key = memchr::memmem::find(&bytes[start..window], KEY.as_bytes())? + start;
        let rest = &text[key + KEY.len()..];
        let colon = skip_ws(text, text.len() - rest.len());
        (bytes.get(colon) == Some(&b':')).then_some(())?;
        let open = skip_ws(text, colon + 1);
        (bytes.get(open) == Some(&b'[')).then_some(open)?
    };
    let mut items = Vec::new();
    let mut pos = skip_ws(text, list + 1);
    while pos < text.len() {
        match parse_value(text, pos) {
            Ok(parsed) => {
                let outcomes = calls_in(&parsed.value, cx, Trust::Weak, parsed.repaired)?;
                items.extend(outcomes.into_iter().map(|o| (pos, CallFormat::Json, o)));
                pos = skip_ws(text, parsed.end);
                if bytes.get(pos) != Some(&b',') {
                    return None;
                }
                pos = skip_ws(text, pos + 1);
            }
            Err(_) => break,
        }
    }
    if items.is_empty() {
        return None;
    }
    let name = guess_name(text, pos, text.len());
    let detail = format!(
        "the output ends inside the call, at {}: {message}",
        cx.at(text.len())
    );
    if pos < text.len() {
        items.push((pos, CallFormat::Json, Err(Broken::cut(name, detail))));
    }
    Some(Finding {
        start,
        end: text.len(),
        items,
    })
}

/// The finding of a JSON value read between `start` and `end`, if it is call-shaped.
fn json_finding(
    cx: &Cx<'_>,
    value: &Value,
    start: usize,
    end: usize,
    repaired: bool,
) -> Option<Finding> {
    let mut outcomes = calls_in(value, cx, Trust::Weak, repaired)?;
    // Inside a sentence (`a refund would look like {…}`), JSON for a tool the model was not
    // given illustrates, it does not call: there only the tools it has count; and none
    // where the sentence says it shows an example (`例如：{…}`, `for example, {…}`).
    if !cx.tools.is_empty() && in_sentence(cx.text, start) {
        if super::markdown::names_example(cx.text, start) {
            return None;
        }
        outcomes.retain(|outcome| {
            let name = match outcome {
                Ok(call) => Some(call.name.as_str()),
                Err(broken) => broken.name.as_deref(),
            };
            name.is_some_and(|name| cx.is_known(name) || cx.meant(name).is_some())
        });
        if outcomes.is_empty() {
            return None;
        }
    }
    // LangChain's `{"action", "action_input"}` blob belongs to ReAct.
    let format = if value.get("action_input").is_some() {
        CallFormat::React
    } else {
        CallFormat::Json
    };
    let items = outcomes.into_iter().map(|o| (start, format, o)).collect();
    Some(Finding { start, end, items })
}

/// Where the text stops being decided when the value at `at` is: at the name glued to it,
/// if one is (see [`glued_call`]).
fn undecided_from(cx: &Cx<'_>, at: usize) -> usize {
    glued_name(cx, at).map_or(at, |(start, _, _)| start)
}

/// A call whose markers a server stripped as special tokens, leaving the tool's name glued
/// to its arguments: Mistral's `[TOOL_CALLS]get_weather[ARGS]{…}` as `get_weather{…}`,
/// Kimi's `<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{…}` as
/// `functions.get_weather:0{…}`. Only a tool of the list, glued to an object.
fn glued_call(
    cx: &Cx<'_>,
    value: &Value,
    at: usize,
    end: usize,
    repaired: bool,
) -> Option<Finding> {
    if !value.is_object() {
        return None;
    }
    let (start, name, format) = glued_name(cx, at)?;
    if markdown::names_example(cx.text, start) {
        return None;
    }
    let call = serde_json::json!({"name": name, "arguments": value});
    let outcomes = calls_in(&call, cx, Trust::Weak, repaired)?;
    let items = outcomes.into_iter().map(|o| (start, format, o)).collect();
    Some(Finding { start, end, items })
}

/// The known tool whose name stands glued to the brace at `at` (see [`glued_call`]): where
/// the name starts, the name, and the format it was stripped from.
fn glued_name(cx: &Cx<'_>, at: usize) -> Option<(usize, String, CallFormat)> {
    let run_start = name_run_start(cx.text, at);
    if run_start == at {
        return None;
    }
    let token = &cx.text[run_start..at];
    // Kimi's index after the name (`:0`).
    let token = match token.rsplit_once(':') {
        Some((head, index)) if !index.is_empty() && index.bytes().all(|b| b.is_ascii_digit()) => {
            head
        }
        _ => token,
    };
    let (name, format, start) = match token.rsplit_once('.') {
        // Kimi's call starts at `functions.`: what is glued before it is the text's
        // (`…the repository root.functions.list_directory:0{…}`).
        Some((head, name)) if head.ends_with("functions") => {
            let start = run_start + head.len() - "functions".len();
            (name, CallFormat::KimiK2, start)
        }
        // Mistral's name is where its `[TOOL_CALLS]` was, at the start of a line.
        None if line_start(cx.text, run_start) => (token, CallFormat::Mistral, run_start),
        _ => return None,
    };
    cx.is_known(name).then(|| (start, name.to_owned(), format))
}

/// Where the run of bytes a glued name is written with (`get_weather`,
/// `functions.get_weather:0`) that ends at `end` starts, looked for in the 300 bytes before
/// it (a name has at most 256).
fn name_run_start(text: &str, end: usize) -> usize {
    let name_byte = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':');
    // Most braces follow a space or a sign: nothing to look back at.
    if !end
        .checked_sub(1)
        .is_some_and(|last| name_byte(&text.as_bytes()[last]))
    {
        return end;
    }
    let from = floor_boundary(text, end.saturating_sub(300));
    let run = text.as_bytes()[from..end]
        .iter()
        .rev()
        .take_while(|b| name_byte(b))
        .count();
    end - run
}

/// Whether only blank space stands before `pos` on its line (within the KiB before it).
fn line_start(text: &str, pos: usize) -> bool {
    let from = pos.saturating_sub(1024);
    match text.as_bytes()[from..pos]
        .iter()
        .rev()
        .find(|b| !matches!(b, b' ' | b'\t'))
    {
        Some(b) => *b == b'\n',
        None => from == 0,
    }
}

/// Where the text of a growing gap that ends at `end` is decided: before a last word that
/// may become a name glued to arguments ([`glued_word`]); else at `end`.
fn glued_hold(text: &str, end: usize) -> usize {
    match glued_word(text, end) {
        Some(start) => {
            horizon::reached(text, end);
            start
        }
        None => end,
    }
}

/// Where a name glued to arguments ([`glued_call`]) may start in the last word of
/// `text[..end]`, which the text to come may make one: the word, when it starts its line;
/// Kimi's `functions.…` in it, written or begun at its end.
pub(crate) fn glued_word(text: &str, end: usize) -> Option<usize> {
    let start = name_run_start(text, end);
    let word = &text[start..end];
    if word.is_empty() {
        return None;
    }
    if line_start(text, start) {
        return Some(start);
    }
    // Kimi's call starts at `functions.`, written or begun at the word's end.
    const KIMI: &str = "functions.";
    if let Some(at) = word.rfind(KIMI) {
        return Some(start + at);
    }
    (1..KIMI.len())
        .rev()
        .find(|&len| word.ends_with(&KIMI[..len]))
        .map(|len| end - len)
}

/// Whether byte `start` stands inside a sentence: after words on its line (within the 200
/// bytes before it). A colon does not make it stand alone: "a booking would look like
/// this: {…}" introduces an illustration as readily as a call.
fn in_sentence(text: &str, start: usize) -> bool {
    let from = floor_boundary(text, start.saturating_sub(200));
    let line = memchr::memrchr(b'\n', &text.as_bytes()[from..start]).map_or(from, |i| from + i + 1);
    text[line..start].chars().any(char::is_alphabetic)
}

/// The text parsed as one JSON value (an object or a list), with where it starts and ends;
/// `None` when it is not one.
pub(crate) fn whole_json(text: &str) -> Option<(Value, usize, usize)> {
    let trimmed = text.trim_start_matches(JSON_BLANK);
    let start = text.len() - trimmed.len();
    // End-of-turn tokens a server left after it (`<|im_end|>`) are not part of it.
    let trimmed = &trimmed[..super::visible::end_of_turn_start(trimmed)];
    let trimmed = trimmed.trim_end_matches(JSON_BLANK);
    if !matches!(trimmed.as_bytes().first(), Some(b'{' | b'[')) {
        return None;
    }
    work::examined(trimmed.len());
    let value = serde_json::from_str::<Value>(trimmed).ok()?;
    Some((value, start, start + trimmed.len()))
}

/// Reads a text that is one JSON value (parsed by [`whole_json`]) and nothing else (blank space aside): the answer
/// the system prompt asks for, so the most common output of all. It is read with one
/// strict parse and none of the scans for other formats: nothing outside the value can
/// hold another call, and what its strings hold (a `<tool_call>` tag, a `</think>`, an
/// `Action:` line) is data, not a delimiter. Returns whether the text was such a value
/// and call-shaped; if not, nothing is recorded and the full scan decides.
pub(crate) fn whole_parsed(cx: &mut Cx<'_>, value: &Value, start: usize, end: usize) -> bool {
    let Some(finding) = json_finding(cx, value, start, end, false) else {
        return false;
    };
    for (at, format, outcome) in finding.items {
        cx.outcome(at, format, outcome);
    }
    true
}

/// The blank characters JSON allows between tokens.
const JSON_BLANK: &[char] = &[' ', '\t', '\n', '\r'];

/// The tool name of broken JSON that is recognisably a call: a name key with a plausible
/// name, and an argument key (or a known name).
fn looks_like_call(cx: &Cx<'_>, start: usize, error: usize) -> Option<String> {
    let Some(name) = guess_name(cx.text, start, error.saturating_add(1)) else {
        // LangChain's blob, a weak shape: only for a tool of the list, whose `action` is
        // its first key (looked for near the brace only: braces in prose are many).
        let near = error.saturating_add(1).min(start.saturating_add(128));
        return guess_action(cx.text, start, near).filter(|name| cx.is_known(name));
    };
    let end = floor_boundary(cx.text, error.min(start.saturating_add(2000)).max(start));
    let window = &cx.text[start..end];
    let has_arguments = [
        "arguments",
        "parameters",
        "args",
        "params",
        "input",
        "tool_kwargs",
    ]
    .iter()
    .any(|key| window.contains(&format!("\"{key}\"")) || window.contains(&format!("'{key}'")));
    (has_arguments || cx.is_known(&name)).then_some(name)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::extract;
    use mcs_core::LlmResponse;

    fn whole(text: &str) -> bool {
        whole_json(text).is_some_and(|(value, start, end)| {
            whole_parsed(&mut Cx::new(text, &[]), &value, start, end)
        })
    }

    #[test]
    fn a_text_that_is_one_call_is_read_whole_and_its_strings_are_data() {
        let text = "\n  {\"tool\": \"save_note\", \"arguments\": {\"title\": \"about </think>\", \
                    \"body\": \"<tool_call> and [TOOL_CALLS]\\nAction: search\"}}\r\n";
        assert!(whole(text));
        let found = extract(LlmResponse::Text(text), &[]);
        assert!(found.malformed.is_empty(), "{found:?}");
        let [call] = found.calls.as_slice() else {
            panic!("{found:?}")
        };
        assert_eq!(call.name, "save_note");
        assert_eq!(
            call.arguments,
            json!({"title": "about </think>", "body": "<tool_call> and [TOOL_CALLS]\nAction: search"})
        );
        // Several calls in one array.
        assert!(whole(
            r#"[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]"#
        ));
    }

    #[test]
    fn the_whole_calls_before_a_cut_one_count() {
        for text in [
            r#"{"tool_calls": [{"name": "f", "arguments": {"a": 1}}, {"name": "g", "arguments": {"b": "cu"#,
            r#"Calling: [{"name": "f", "arguments": {"a": 1}}, {"name": "g", "arguments": {"b": "cu"#,
        ] {
            let got = extract(LlmResponse::Text(text), &[]);
            assert_eq!(got.calls.len(), 1, "{text}: {got:#?}");
            assert_eq!(got.calls[0].name, "f");
            assert_eq!(got.malformed.len(), 1, "{text}: {got:#?}");
            assert!(got.malformed[0].cut_off);
            assert_eq!(got.malformed[0].name.as_deref(), Some("g"));
        }
        // Cut in its first element, a list holds no whole call: one call cut off.
        let got = extract(
            LlmResponse::Text(r#"{"tool_calls": [{"name": "f", "arguments": {"a": "#),
            &[],
        );
        assert!(got.calls.is_empty() && got.malformed.len() == 1, "{got:#?}");
    }

    #[test]
    fn anything_else_is_left_to_the_full_scan() {
        for text in [
            r#"{"tool": "a", "arguments": {}} and some prose"#,
            r#"Sure: {"tool": "a", "arguments": {}}"#,
            r#"{"name": "Uppsala", "id": 97510}"#,
            r#"{"tool": "a", "arguments": {},}"#,
            "[1, 2, 3]",
            "\"a string\"",
            "",
        ] {
            assert!(!whole(text), "{text}");
        }
    }
}
