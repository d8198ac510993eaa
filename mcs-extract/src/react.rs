//! LangChain's agent conventions. ReAct text: `Action: NAME` then `Action Input: …`
//! (labels may be numbered, `Action 1:`), the input JSON or free text, ending at
//! `Observation:`, `Thought:`, the next `Action`, `Final Answer:` or the end. The XML
//! agent: `<tool>NAME</tool><tool_input>…</tool_input>`. DSPy ReAct's chat adapter:
//! `[[ ## next_tool_name ## ]]` and `[[ ## next_tool_args ## ]]` fields. Weak formats:
//! only known tools count. Qwen-Agent's function-call prompt, `✿FUNCTION✿: NAME⏎✿ARGS✿:
//! {…}`, is found the same way, by its markers, and any tool name counts there.

use std::sync::{LazyLock, OnceLock};

use memchr::memmem::Finder;
use serde_json::Value;

use super::call_shape::free_text_arguments;
use super::horizon;
use super::json::{Parsed, parse_value, parse_whole};
use super::reasoning::{Prefixes, partial_start};
use super::record::{Broken, Cx, Finding, Outcome, RawCall};
use super::scan::{byte_at, clean_name, find_in, find_with, first_of, skip_ws, starts_at};
use mcs_core::Tool;
use mcs_core::call::CallFormat;

/// The text after a label such as `Action 2:` or `Action Input:` at the start of `line`
/// (after markdown emphasis), or `None` when the line does not start with it.
fn after_label<'l>(line: &'l str, words: &[&str]) -> Option<&'l str> {
    let mut rest = line.trim_start().trim_start_matches(['*', '#', '-', ' ']);
    for (index, word) in words.iter().enumerate() {
        if index > 0 {
            rest = rest.trim_start_matches([' ', '\t']);
            let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            rest = &rest[digits..];
            rest = rest.trim_start_matches([' ', '\t']);
        }
        rest = rest.strip_prefix(word)?;
    }
    rest = rest.trim_start_matches([' ', '\t']);
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    rest = rest[digits..].trim_start_matches([' ', '\t']);
    let rest = rest.strip_prefix(':')?;
    Some(rest.trim_start_matches('*'))
}

const STOP_LABELS: &[&str] = &["Observation", "Thought", "Action", "Final Answer"];

/// Where the search for ReAct calls in a gap stands.
#[derive(Clone, Debug)]
pub(crate) struct GapState {
    /// The start of the line to look at next.
    line_start: usize,
    /// `Action` was searched for up to here, and not found after `line_start`.
    searched: usize,
}

impl GapState {
    pub(crate) fn new(start: usize) -> Self {
        GapState {
            line_start: start,
            searched: start,
        }
    }
}

/// The lines of `text` from `start` on, as byte ranges without their newline, each with
/// whether it is whole (a newline ends it, or the gap is closed).
fn lines_from(
    text: &str,
    start: usize,
    open: bool,
) -> impl Iterator<Item = (usize, usize, bool)> + '_ {
    let end = text.len();
    let mut line_start = start;
    std::iter::from_fn(move || {
        if line_start >= end {
            return None;
        }
        let line = match memchr::memchr(b'\n', &text.as_bytes()[line_start..]) {
            Some(i) => (line_start, line_start + i, true),
            None => (line_start, end, !open),
        };
        line_start = line.1 + 1;
        Some(line)
    })
}

/// ReAct calls, from where `state` stands up to `end`. With `open`, the gap may go on
/// after `end`; the offset returned (else `end`) is where the text stops being decided.
pub(crate) fn calls_in_gap(
    cx: &Cx<'_>,
    state: &mut GapState,
    end: usize,
    open: bool,
) -> (Vec<Finding>, usize) {
    let text = &cx.text[..end];
    let mut findings = Vec::new();
    loop {
        if state.line_start >= end {
            return (findings, end);
        }
        // Every call starts on a line with `Action`: one search spares prose the line split.
        let from = state.searched.max(state.line_start);
        static ACTION: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("Action"));
        let Some(action) = find_with(text, from, end, &ACTION) else {
            state.searched = end.saturating_sub("Action".len() - 1).max(from);
            // The last line may still become an `Action` line.
            let last = memchr::memrchr(b'\n', &text.as_bytes()[state.line_start..end])
                .map_or(state.line_start, |i| state.line_start + i + 1);
            state.line_start = last;
            let hold = if open && may_become_action(&text[last..]) {
                last
            } else {
                end
            };
            return (findings, hold);
        };
        state.searched = action;
        state.line_start = memchr::memrchr(b'\n', &text.as_bytes()[state.line_start..action])
            .map_or(state.line_start, |i| state.line_start + i + 1);
        match read_call(cx, text, state.line_start, open) {
            Read::Undecided => return (findings, state.line_start),
            Read::NotACall(next) => state.line_start = next,
            Read::Call(finding, next) => {
                findings.push(finding);
                state.line_start = next;
            }
        }
        state.searched = state.line_start;
    }
}

/// What the line at a position holds.
enum Read {
    /// Not yet known: the text to come decides.
    Undecided,
    /// No call starts there; look again from this line.
    NotACall(usize),
    /// A call, and the line to look at after it.
    Call(Finding, usize),
}

/// Whether an unfinished last line could still become an `Action` line.
fn may_become_action(line: &str) -> bool {
    let rest = line.trim_start().trim_start_matches(['*', '#', '-', ' ']);
    "Action".starts_with(rest) || rest.starts_with("Action")
}

/// The call whose `Action` line starts at `line_start`, if it is one.
fn read_call(cx: &Cx<'_>, text: &str, line_start: usize, open: bool) -> Read {
    let mut lines = lines_from(text, line_start, open);
    let Some((action_start, action_end, whole)) = lines.next() else {
        return Read::Undecided;
    };
    let next_line = action_end + 1;
    if !whole {
        return Read::Undecided;
    }
    let line = without_end_of_turn(&text[action_start..action_end]);
    let Some(raw_name) = after_label(line, &["Action"]) else {
        return Read::NotACall(next_line);
    };
    // The ReAct paper's form, the input in brackets after the name: `search[Eiffel Tower]`.
    if let Some((head, rest)) = raw_name.trim().split_once('[')
        && let Some(input) = rest.strip_suffix(']')
        && let Some(tool) = cx.tool(&clean_name(head))
    {
        let name = tool.name().to_owned();
        let outcome = free_text_arguments(tool, input)
            .map(|arguments| RawCall {
                name: name.clone(),
                arguments,
                id: None,
                repaired: false,
            })
            .map_err(|detail| Broken::new(Some(name), detail));
        let finding = Finding {
            start: action_start,
            end: action_end,
            items: vec![(action_start, CallFormat::React, outcome)],
        };
        return Read::Call(finding, next_line);
    }
    let name = clean_name(
        raw_name
            .trim()
            .trim_matches(['`', '"', '\'', '*'])
            .trim_end_matches("()"),
    );
    let Some(tool) = cx.tool(&name) else {
        return Read::NotACall(next_line);
    };
    // The input label is on the next non-blank line.
    let mut input_line = None;
    for (start, end, whole) in lines.by_ref() {
        if !whole {
            return Read::Undecided;
        }
        if !text[start..end].trim().is_empty() {
            input_line = Some((start, end));
            break;
        }
    }
    let input_first = input_line.and_then(|(s, e)| {
        after_label(&text[s..e], &["Action", "Input"]).map(|rest| (e - rest.len(), e))
    });
    let Some((input_start, first_end)) = input_first else {
        if input_line.is_none() && open {
            return Read::Undecided;
        }
        let broken = Broken::new(
            Some(name.clone()),
            format!("`Action: {name}` is not followed by an `Action Input:` line"),
        );
        let finding = Finding {
            start: action_start,
            end: action_end,
            items: vec![(action_start, CallFormat::React, Err(broken))],
        };
        return Read::Call(finding, next_line);
    };
    // The input runs to the next labelled line, or to the end of the gap; a blank line
    // after a whole input ends it too (prose the model went on with: `Let me know…`).
    let whole_from = input_whole_from(text, input_start);
    let mut input_end = first_end;
    let mut next = text.len() + 1;
    let mut ended = !open;
    for (start, end, whole) in lines {
        let line = text[start..end].trim_start();
        // A blank line still being written may become text.
        let blank = whole && line.trim().is_empty();
        if STOP_LABELS.iter().any(|label| line.starts_with(label))
            || (blank && whole_from.is_some_and(|from| start >= from))
        {
            next = start;
            ended = true;
            break;
        }
        input_end = end;
    }
    if !ended {
        return Read::Undecided;
    }
    // JSON the output ends inside of (`{"city": "Par`) was cut off.
    let outcome = if input_end == cx.text.len() && json_cut_off(text, input_start) {
        Err(Broken::cut(
            Some(name.clone()),
            format!("the output ends inside the Action Input of `{name}`"),
        ))
    } else {
        arguments(
            tool,
            &name,
            without_end_of_turn(&text[input_start..input_end]),
        )
    };
    let finding = Finding {
        start: action_start,
        end: input_end,
        items: vec![(action_start, CallFormat::React, outcome)],
    };
    Read::Call(finding, next)
}

/// An input without the end-of-turn tokens a server left after it (`<|im_end|>`): the
/// model ended its turn there.
fn without_end_of_turn(input: &str) -> &str {
    &input[..super::visible::end_of_turn_start(input)]
}

/// Where an `Action Input` that starts at `start` is whole, so that a blank line after
/// that point ends it: after its JSON value or its fenced block, once they close; after its
/// first text, when it is free text. `None` while neither has closed.
fn input_whole_from(text: &str, start: usize) -> Option<usize> {
    let first = skip_ws(text, start);
    let rest = text.get(first..).filter(|rest| !rest.is_empty())?;
    if rest.starts_with("```") {
        return find_in(text, first + 3, text.len(), "\n```").map(|at| at + 4);
    }
    if rest.starts_with(['{', '[']) {
        return parse_value(text, first).ok().map(|parsed| parsed.end);
    }
    Some(first)
}

/// Whether the input at `start` is a JSON object the output ends inside of (or the end of
/// the model's turn does: `{"city": "Paris"<|im_end|>`).
fn json_cut_off(text: &str, start: usize) -> bool {
    let at = skip_ws(text, start);
    byte_at(text, at) == Some(b'{') && {
        let touches = horizon::touches();
        parse_value(text, at).is_err() && horizon::touches() != touches
    }
}

/// The arguments of an `Action Input`: a JSON object, or free text for a single-input
/// tool.
fn arguments(tool: &Tool, name: &str, input: &str) -> Outcome {
    let mut input = input.trim();
    if let Some(fenced) = input.strip_prefix("```") {
        // Drop the fence line (```json) and the closing fence.
        input = fenced.split_once('\n').map_or("", |(_, body)| body).trim();
        input = input.strip_suffix("```").unwrap_or(input).trim();
    }
    let call = |arguments: Value, repaired: bool| RawCall {
        name: name.to_owned(),
        arguments,
        id: None,
        repaired,
    };
    if input.starts_with('{') {
        return match parse_whole(input) {
            Ok((arguments @ Value::Object(_), repaired)) => Ok(call(arguments, repaired)),
            Ok(_) => Err(Broken::new(
                Some(name.to_owned()),
                "the Action Input is JSON but not an object".to_owned(),
            )),
            Err(error) => Err(Broken::new(
                Some(name.to_owned()),
                format!(
                    "the Action Input of `{name}` is invalid JSON: {}",
                    error.message
                ),
            )),
        };
    }
    let text = match parse_whole(input) {
        Ok((Value::String(text), _)) => text,
        _ => input.trim_matches('"').to_owned(),
    };
    free_text_arguments(tool, &text)
        .map(|arguments| call(arguments, false))
        .map_err(|detail| Broken::new(Some(name.to_owned()), detail))
}

/// LangChain XML agent `<tool>NAME</tool><tool_input>…</tool_input>` at `pos`: a weak
/// format, so only for known tools. Returns the outcome and the end, or `None` when this
/// is not such a call.
fn langchain(cx: &Cx<'_>, pos: usize, limit: usize) -> Option<(Outcome, usize)> {
    let text = &cx.text[..limit];
    let name_start = pos + "<tool>".len();
    let name_end = find_in(text, name_start, limit.min(name_start + 300), "</tool>")?;
    let name = clean_name(&text[name_start..name_end]);
    let tool = cx.tool(&name)?;
    let p = skip_ws(text, name_end + "</tool>".len());
    if !starts_at(text, p, "<tool_input>") {
        return None;
    }
    let input_start = p + "<tool_input>".len();
    let close = find_in(text, input_start, limit, "</tool_input>");
    // Without its close, the input ends at the first blank line after it is whole (prose
    // the model went on with), else at the end of the gap.
    let unclosed_end = || {
        let whole_from = input_whole_from(text, input_start)?;
        let blank = find_in(text, whole_from, limit, "\n\n")
            .into_iter()
            .chain(find_in(text, whole_from, limit, "\n\r\n"))
            .min()?;
        Some(blank)
    };
    let input_end = close.or_else(unclosed_end).unwrap_or(limit);
    let end = close.map_or(input_end, |c| c + "</tool_input>".len());
    let input = without_end_of_turn(&text[input_start..input_end]).trim();
    // A JSON object is the arguments; anything else (or JSON that is not an object) is the
    // tool's free-text input.
    let parsed = input.starts_with('{').then(|| parse_whole(input));
    let outcome = match parsed {
        Some(Ok((arguments @ Value::Object(_), repaired))) => Ok(RawCall {
            name,
            arguments,
            id: None,
            repaired,
        }),
        // The output ended in an object that does not close: the input is cut off, not
        // free text.
        Some(Err(_)) if close.is_none() && limit == cx.text.len() => Err(Broken::cut(
            Some(name.clone()),
            format!("the output ends inside the JSON input of `{name}`"),
        )),
        _ => free_text_arguments(tool, input)
            .map(|arguments| RawCall {
                name: name.clone(),
                arguments,
                id: None,
                repaired: false,
            })
            .map_err(|detail| Broken::new(Some(name), detail)),
    };
    Some((outcome, end))
}

/// DSPy's chat adapter, as its ReAct module asks for the next step: the tool's name in
/// the `[[ ## next_tool_name ## ]]` field, its arguments as a JSON object in the
/// `[[ ## next_tool_args ## ]]` field (a `[[ ## completed ## ]]` trailer may follow).
/// A weak format: only known tools count (DSPy's own `finish` is none). Returns the
/// outcome and the end of the arguments, or `None` when this is not such a call.
fn dspy(cx: &Cx<'_>, pos: usize, limit: usize) -> Option<(Outcome, usize)> {
    const ARGS: &str = "[[ ## next_tool_args ## ]]";
    let text = &cx.text[..limit];
    let name_start = pos + DSPY.open.len();
    let args = find_in(text, name_start, limit.min(name_start + 300), ARGS)?;
    let name = clean_name(text[name_start..args].trim());
    cx.tool(&name)?;
    let start = skip_ws(text, args + ARGS.len());
    let outcome = match parse_value(text, start) {
        Ok(Parsed {
            value: arguments @ Value::Object(_),
            end,
            repaired,
        }) => {
            let call = RawCall {
                name,
                arguments,
                id: None,
                repaired,
            };
            return Some((Ok(call), end));
        }
        Ok(parsed) => {
            let detail = format!("the next_tool_args of `{name}` are not a JSON object");
            return Some((Err(Broken::new(Some(name), detail)), parsed.end));
        }
        Err(error) if error.pos >= text.len() && limit == cx.text.len() => Broken::cut(
            Some(name.clone()),
            format!("the output ends inside the next_tool_args of `{name}`"),
        ),
        Err(error) => Broken::new(
            Some(name.clone()),
            format!(
                "the next_tool_args of `{name}` are not JSON: {}",
                error.message
            ),
        ),
    };
    // The broken arguments run to the end of their line, which a stream may not have yet.
    let end = find_in(text, start, text.len(), "\n").unwrap_or(limit);
    Some((Err(outcome), end))
}

/// Qwen-Agent's markers (its function-call prompt for Qwen 2 and 2.5).
mod qwen_agent_markers {
    pub(super) const FUNCTION: &str = "✿FUNCTION✿";
    pub(super) const ARGS: &str = "✿ARGS✿";
    pub(super) const RESULT: &str = "✿RESULT✿";
    pub(super) const RETURN: &str = "✿RETURN✿";
}

/// How far before a `✿FUNCTION✿` a made-up `✿RESULT✿` is looked for.
const QWEN_AGENT_BACK: usize = 64 * 1024;

/// Qwen-Agent's function-call prompt: `✿FUNCTION✿: NAME⏎✿ARGS✿: {…}`, the model stopping
/// where `✿RESULT✿` would follow; several `✿ARGS✿` after one name are as many calls to
/// it, and the input of a tool that takes one (a code block for `code_interpreter`) may be
/// free text. The markers are the format's own, so any tool name counts. After a
/// `✿RESULT✿` the model wrote itself, what follows continues a conversation it made up:
/// no call. Returns the calls and where the markup ends.
fn qwen_agent(cx: &Cx<'_>, pos: usize, limit: usize) -> Option<MarkedCalls> {
    use qwen_agent_markers::{ARGS, FUNCTION, RESULT, RETURN};
    let text = &cx.text[..limit];
    let back = super::scan::floor_boundary(text, pos.saturating_sub(QWEN_AGENT_BACK));
    if find_in(text, back, pos, RESULT).is_some() {
        return None;
    }
    // Where the next marker after `from` starts; the end of the text when there is none
    // (which a stream may not have yet).
    let next_marker = |from: usize| {
        first_of(text, from, &[FUNCTION, ARGS, RESULT, RETURN]).unwrap_or_else(|| {
            horizon::reached(cx.text, limit);
            limit
        })
    };
    let label_end = |at: usize, marker: &str| {
        let p = at + marker.len();
        let q = skip_ws(text, p);
        if starts_at(text, q, ":") { q + 1 } else { p }
    };
    let name_start = label_end(pos, FUNCTION);
    let line_end = find_in(text, name_start, limit, "\n").unwrap_or(limit);
    let name_end = line_end.min(next_marker(name_start));
    let name = clean_name(without_end_of_turn(&text[name_start..name_end]).trim());
    if !super::scan::plausible_name(&name) {
        return None;
    }
    let mut calls = Vec::new();
    let mut at = skip_ws(text, name_end);
    loop {
        if !starts_at(text, at, ARGS) {
            if calls.is_empty() {
                let outcome = if at >= text.len() {
                    Err(Broken::cut(
                        Some(name.clone()),
                        format!("the output ends after `{FUNCTION}: {name}`, before `{ARGS}`"),
                    ))
                } else {
                    // No input: a call without arguments (`✿RESULT✿` follows).
                    Ok(RawCall {
                        name: name.clone(),
                        arguments: Value::Object(serde_json::Map::new()),
                        id: None,
                        repaired: false,
                    })
                };
                calls.push((pos, outcome));
            }
            return Some((calls, at.min(limit)));
        }
        let input_start = label_end(at, ARGS);
        let input_end = next_marker(input_start);
        let input = without_end_of_turn(&text[input_start..input_end]).trim();
        // Input that runs to the end of the output, there still empty or inside its JSON,
        // was cut off.
        let runs_out = input_end == cx.text.len();
        let cut = runs_out && (input.is_empty() || json_cut_off(text, input_start));
        let outcome = match cx.tool(&name) {
            _ if cut => Err(Broken::cut(
                Some(name.clone()),
                format!("the output ends in the `{ARGS}` of `{name}`"),
            )),
            Some(tool) => arguments(tool, &name, input),
            None => match parse_whole(input) {
                Ok((arguments @ Value::Object(_), repaired)) => Ok(RawCall {
                    name: name.clone(),
                    arguments,
                    id: None,
                    repaired,
                }),
                _ => Err(Broken::new(
                    Some(name.clone()),
                    format!("the `{ARGS}` of `{name}` are not a JSON object"),
                )),
            },
        };
        calls.push((if calls.is_empty() { pos } else { at }, outcome));
        at = input_end;
    }
}

/// Qwen-Agent's function-call prompt (Qwen 2, 2.5): `✿FUNCTION✿: NAME⏎✿ARGS✿: {…}`.
pub(crate) static QWEN_AGENT: Marked = Marked {
    open: qwen_agent_markers::FUNCTION,
    format: CallFormat::QwenAgent,
    read: qwen_agent,
    finder: LazyLock::new(|| Finder::new(qwen_agent_markers::FUNCTION)),
    prefixes: OnceLock::new(),
};

/// The calls a [`Marked`] reader found, each with where it starts, and where the markup
/// ends.
type MarkedCalls = (Vec<(usize, Outcome)>, usize);

/// Call markup that starts with a fixed marker, read by its own reader.
pub(crate) struct Marked {
    open: &'static str,
    format: CallFormat,
    /// The calls of the markup at a marker (each where it starts) and where it ends, or
    /// `None` when it is not such markup.
    read: fn(&Cx<'_>, usize, usize) -> Option<MarkedCalls>,
    /// The searcher for `open`.
    finder: LazyLock<Finder<'static>>,
    prefixes: OnceLock<Prefixes>,
}

/// LangChain's XML agent: `<tool>NAME</tool><tool_input>…</tool_input>`.
pub(crate) static LANGCHAIN: Marked = Marked {
    open: "<tool>",
    format: CallFormat::LangChainXml,
    read: |cx, pos, limit| langchain(cx, pos, limit).map(|(call, end)| (vec![(pos, call)], end)),
    finder: LazyLock::new(|| Finder::new("<tool>")),
    prefixes: OnceLock::new(),
};

/// DSPy's chat adapter: `[[ ## next_tool_name ## ]]` … `[[ ## next_tool_args ## ]]` {…}.
pub(crate) static DSPY: Marked = Marked {
    open: "[[ ## next_tool_name ## ]]",
    format: CallFormat::React,
    read: |cx, pos, limit| dspy(cx, pos, limit).map(|(call, end)| (vec![(pos, call)], end)),
    finder: LazyLock::new(|| Finder::new("[[ ## next_tool_name ## ]]")),
    prefixes: OnceLock::new(),
};

/// Where the search for one [`Marked`] kind of call in a gap stands: markers before `pos`
/// are read.
#[derive(Clone, Debug)]
pub(crate) struct MarkedState {
    pos: usize,
}

impl MarkedState {
    pub(crate) fn new(start: usize) -> Self {
        MarkedState { pos: start }
    }
}

/// The calls of one [`Marked`] kind, from where `state` stands up to `end`. With `open`,
/// the gap may go on after `end`; the offset returned (else `end`) is where the text stops
/// being decided.
pub(crate) fn marked_in_gap(
    cx: &Cx<'_>,
    marked: &Marked,
    state: &mut MarkedState,
    end: usize,
    open: bool,
) -> (Vec<Finding>, usize) {
    let mut findings = Vec::new();
    while let Some(at) = find_with(&cx.text[..end], state.pos, end, &marked.finder) {
        let touches = horizon::touches();
        let call = (marked.read)(cx, at, end);
        if open && horizon::touches() != touches {
            state.pos = at;
            return (findings, at);
        }
        state.pos = at + marked.open.len();
        if let Some((calls, call_end)) = call {
            findings.push(Finding {
                start: at,
                end: call_end,
                items: calls
                    .into_iter()
                    .map(|(place, outcome)| (place, marked.format, outcome))
                    .collect(),
            });
            state.pos = call_end.max(state.pos);
        }
    }
    if !open {
        state.pos = end;
        return (findings, end);
    }
    // A marker cut in half by the end of the text is held back.
    let prefixes = marked
        .prefixes
        .get_or_init(|| Prefixes::new([marked.open].into_iter()));
    let hold = partial_start(&cx.text[..end], state.pos, prefixes);
    state.pos = hold;
    (findings, hold)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        assert_eq!(after_label("Action: search", &["Action"]), Some(" search"));
        assert_eq!(
            after_label("**Action 2:** search", &["Action"]),
            Some(" search")
        );
        assert_eq!(after_label("Action Input: x", &["Action"]), None);
        assert_eq!(
            after_label("Action 1 Input 1: x", &["Action", "Input"]),
            Some(" x")
        );
        assert_eq!(after_label("Actions: x", &["Action"]), None);
    }
}
