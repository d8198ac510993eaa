//! Python-call formats: `[f(a=1), g(b="x")]` (Llama 3.2 / 4, ToolACE), Llama 4's
//! `<|python_start|>`, LFM2's `<|tool_call_start|>`, Gemma's ```` ```tool_code ````,
//! Llama 3's built-in `brave_search.call(query="…")`, and calls to known tools written
//! on a line of their own.

use serde_json::{Map, Value};

use super::call_body::json_body;
use super::horizon;
use super::json::{UNREADABLE_STRING, describe_at, parse_python_value};
use super::record::{Broken, Cx, Finding, Outcome, RawCall};
use super::scan::{
    byte_at, clean_name, element_end, ends_by, find_in, floor_boundary, past_close, plausible_name,
    rest_of_line_is_blank, skip_ws, starts_at, to_end,
};
use mcs_core::call::CallFormat;

/// A call as written: the dotted name and the arguments, keyword or positional.
#[derive(Debug)]
struct PyCall {
    name: String,
    args: Vec<(Option<String>, Value)>,
    end: usize,
}

/// A reading error: where, and what.
type PyError = (usize, String);

fn ident_end(text: &str, pos: usize) -> usize {
    if !byte_at(text, pos).is_some_and(|b| b.is_ascii_alphabetic() || b == b'_') {
        return pos;
    }
    let mut end = pos;
    while byte_at(text, end)
        .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
    {
        end += 1;
    }
    end
}

/// Whether a call starts at `pos`: a name then `(`.
pub(crate) fn is_call_start(text: &str, pos: usize) -> bool {
    let end = ident_end(text, pos);
    end > pos && byte_at(text, skip_spaces(text, end)) == Some(b'(')
}

fn skip_spaces(text: &str, pos: usize) -> usize {
    let mut pos = pos;
    while byte_at(text, pos).is_some_and(|b| b == b' ' || b == b'\t') {
        pos += 1;
    }
    pos
}

/// The end of the call that starts at `pos` (its name, then `(`), after its matching `)`:
/// brackets counted outside strings. `None` when the call does not close in `text` (a
/// string or bracket left open), so that where it ends cannot be told.
fn call_end(text: &str, pos: usize) -> Option<usize> {
    let open = skip_spaces(text, ident_end(text, pos));
    if byte_at(text, open) != Some(b'(') {
        return None;
    }
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    let mut i = open;
    while let Some(&b) = bytes.get(i) {
        match quote {
            Some(q) => {
                if b == b'\\' {
                    i += 1;
                } else if b == q {
                    quote = None;
                } else if b == b'\n' {
                    return None;
                }
            }
            None => match b {
                b'\'' | b'"' => quote = Some(b),
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return (b == b')').then_some(i + 1);
                    }
                }
                _ => {}
            },
        }
        i += 1;
    }
    horizon::reached(text, text.len());
    None
}

/// A call of a delimited list or run that cannot be read, as reported: its name when it
/// has one, and what is wrong where.
fn unreadable_call(cx: &Cx<'_>, text: &str, pos: usize, at: usize, message: &str) -> Broken {
    let name = clean_name(&text[pos..ident_end(text, pos)]);
    let detail = format!("invalid call at {}: {message}", cx.at(at));
    Broken::new(plausible_name(&name).then_some(name), detail)
}

/// Whether a list of calls starts at `pos` (at `[`).
pub(crate) fn is_list_start(text: &str, pos: usize) -> bool {
    byte_at(text, pos) == Some(b'[') && is_call_start(text, skip_ws(text, pos + 1))
}

/// Reads `name(kw=value, …)` at `pos`.
fn parse_call(text: &str, pos: usize) -> Result<PyCall, PyError> {
    let end = ident_end(text, pos);
    if end == pos {
        return Err((
            pos,
            format!("expected a function name, found {}", describe_at(text, pos)),
        ));
    }
    let name = text[pos..end].to_owned();
    let mut p = skip_spaces(text, end);
    if byte_at(text, p) != Some(b'(') {
        return Err((
            p,
            format!(
                "expected `(` after `{name}`, found {}",
                describe_at(text, p)
            ),
        ));
    }
    p += 1;
    let mut args = Vec::new();
    loop {
        p = skip_ws(text, p);
        if byte_at(text, p) == Some(b')') {
            return Ok(PyCall {
                name,
                args,
                end: p + 1,
            });
        }
        let key_end = ident_end(text, p);
        let after_key = skip_ws(text, key_end);
        let keyword = key_end > p
            && byte_at(text, after_key) == Some(b'=')
            && byte_at(text, after_key + 1) != Some(b'=');
        let key = keyword.then(|| text[p..key_end].to_owned());
        if keyword {
            p = after_key + 1;
        }
        let parsed = parse_python_value(text, p).map_err(|e| (e.pos, e.message.to_string()))?;
        args.push((key, parsed.value));
        p = skip_ws(text, parsed.end);
        match byte_at(text, p) {
            Some(b',') => p += 1,
            Some(b')') => {}
            _ => {
                return Err((
                    p,
                    format!(
                        "expected `,` or `)` in the call to `{name}`, found {}",
                        describe_at(text, p)
                    ),
                ));
            }
        }
    }
}

/// Reads `[call, call, …]` at `pos` (at `[`).
fn parse_list(text: &str, pos: usize) -> Result<(Vec<PyCall>, usize), PyError> {
    let mut calls = Vec::new();
    let end = list_items(text, pos, |p| {
        let call = parse_call(text, p)?;
        let end = call.end;
        calls.push(call);
        Ok(end)
    })?;
    Ok((calls, end))
}

/// Walks the list at `pos` (at `[`): `item` reads the element that starts at each position
/// and says where it ends. Returns the end of the list.
fn list_items(
    text: &str,
    pos: usize,
    mut item: impl FnMut(usize) -> Result<usize, PyError>,
) -> Result<usize, PyError> {
    let mut p = pos + 1;
    let mut first = true;
    loop {
        p = skip_ws(text, p);
        if byte_at(text, p) == Some(b']') {
            return Ok(p + 1);
        }
        if !first {
            if byte_at(text, p) != Some(b',') {
                let found = describe_at(text, p);
                return Err((
                    p,
                    format!("expected `,` or `]` in the list of calls, found {found}"),
                ));
            }
            p = skip_ws(text, p + 1);
            if byte_at(text, p) == Some(b']') {
                return Ok(p + 1);
            }
        }
        first = false;
        p = item(p)?;
    }
}

/// The call with its name cleaned and positional arguments given their parameter names
/// (possible only for known tools).
fn to_raw(call: PyCall, cx: &Cx<'_>) -> Outcome {
    let mut name = clean_name(&call.name);
    if let Some(builtin) = name.strip_suffix(".call") {
        // Llama 3 built-in tools: `brave_search.call(query=…)`.
        name = builtin.to_owned();
    }
    if !plausible_name(&name) {
        return Err(Broken::new(
            None,
            format!("`{}` is not a tool name", call.name),
        ));
    }
    let tool = cx.tool(&name);
    // One object given alone, `add({"x": 5, "y": 3})`: the arguments as one object (as a
    // JavaScript call writes them), unless the tool's first parameter takes that object.
    if let [(None, Value::Object(object))] = call.args.as_slice() {
        let parameters = tool.map(|tool| tool.parameters()).unwrap_or_default();
        let names_them = object
            .keys()
            .all(|key| parameters.iter().any(|param| param.name == *key));
        if parameters.is_empty() || names_them {
            return Ok(RawCall {
                name,
                arguments: Value::Object(object.clone()),
                id: None,
                repaired: false,
            });
        }
    }
    let mut arguments = Map::new();
    for (index, (key, value)) in call.args.into_iter().enumerate() {
        let key = match key {
            Some(key) => key,
            None => match tool.and_then(|tool| tool.parameters().get(index)) {
                Some(param) => param.name.clone(),
                None => {
                    let detail = format!(
                        "positional argument {} of `{name}` cannot be matched to a parameter; pass keyword arguments",
                        index + 1
                    );
                    return Err(Broken::new(Some(name), detail));
                }
            },
        };
        arguments.insert(key, value);
    }
    Ok(RawCall {
        name,
        arguments: Value::Object(arguments),
        id: None,
        repaired: false,
    })
}

/// A delimited list of calls at `pos`: any name is a call. Returns the end.
pub(crate) fn strong_list(cx: &mut Cx<'_>, pos: usize, format: CallFormat) -> usize {
    let touches = horizon::touches();
    match parse_list(cx.text, pos) {
        Ok((calls, end)) => {
            for call in calls {
                let outcome = to_raw(call, cx);
                cx.outcome(pos, format, outcome);
            }
            end
        }
        Err((at, message)) => {
            // Whether reading the list itself ran into the end of the output (salvaging
            // it may look further, past a quote left open).
            let cut = horizon::touches() != touches;
            if !cut && let Some(end) = salvage_list(cx, pos, format) {
                return end;
            }
            if cut && let Some(items) = cut_items(cx, cx.text, pos, at, &message) {
                for (place, outcome) in items {
                    cx.outcome(place, format, outcome);
                }
                return to_end(cx.text);
            }
            let detail = format!("invalid call list at {}: {message}", cx.at(at));
            let broken = if horizon::touches() != touches {
                Broken::cut(None, detail)
            } else {
                Broken::new(None, detail)
            };
            cx.malformed(pos, format, broken);
            to_end(cx.text)
        }
    }
}

/// A whole delimited list at `pos` that holds a call that cannot be read
/// (`[get_weather(city='LA'), bad(x=b'z')]`, a number JSON cannot hold): the other calls
/// are read, and that one is reported, as vLLM keeps the good siblings. `None` (nothing
/// recorded) when the list does not close, or where one call ends cannot be told: then
/// the list is broken as a whole.
fn salvage_list(cx: &mut Cx<'_>, pos: usize, format: CallFormat) -> Option<usize> {
    let (items, end) = salvage_items(cx, cx.text, pos)?;
    for (at, outcome) in items {
        cx.outcome(at, format, outcome);
    }
    Some(end)
}

/// The calls of the list at `pos` of `text`, one by one, as [`salvage_list`] reads them:
/// each with where it is recorded (the list's start for a call, its own for one that
/// cannot be read), and the list's end. `None` when the list does not close, where a call
/// ends cannot be told, or no call could be read.
fn salvage_items(cx: &Cx<'_>, text: &str, pos: usize) -> Option<(Vec<(usize, Outcome)>, usize)> {
    let mut items: Vec<(usize, Outcome)> = Vec::new();
    let end = list_items(text, pos, |p| {
        if !is_call_start(text, p) {
            return Err((p, String::new()));
        }
        Ok(match parse_call(text, p) {
            Ok(call) => {
                let next = call.end;
                items.push((pos, to_raw(call, cx)));
                next
            }
            Err((at, message)) => {
                let next = call_end(text, p).ok_or((p, String::new()))?;
                items.push((p, Err(unreadable_call(cx, text, p, at, &message))));
                next
            }
        })
    })
    .ok()?;
    items
        .iter()
        .any(|(_, outcome)| outcome.is_ok())
        .then_some((items, end))
}

/// The calls of the list at `pos` of `text` that the output ended inside of (reading
/// failed at `failed_at`, saying `message`): the calls written whole before the one it
/// ended in run, as the elements of a JSON list before a cut one do, and that one is
/// reported cut off (`[search(query="a)]"), get_weather(city="Zür`). `None` when no call
/// before it is whole, or when something else than a cut call stands where reading
/// stopped.
fn cut_items(
    cx: &Cx<'_>,
    text: &str,
    pos: usize,
    failed_at: usize,
    message: &str,
) -> Option<Vec<(usize, Outcome)>> {
    let mut items: Vec<(usize, Outcome)> = Vec::new();
    let mut p = pos + 1;
    loop {
        p = skip_ws(text, p);
        if !is_call_start(text, p) {
            return None;
        }
        let Ok(call) = parse_call(text, p) else {
            break;
        };
        let next = skip_ws(text, call.end);
        if byte_at(text, next) != Some(b',') || next >= failed_at {
            return None;
        }
        items.push((pos, to_raw(call, cx)));
        p = next + 1;
    }
    if items.is_empty() || failed_at < p {
        return None;
    }
    let name = clean_name(&text[p..ident_end(text, p)]);
    let detail = format!(
        "the call is cut off at {}: {message}; the calls before it in the list ran",
        cx.at(failed_at)
    );
    items.push((
        p,
        Err(Broken::cut(plausible_name(&name).then_some(name), detail)),
    ));
    Some(items)
}

/// Delimited calls one after another (`print(…)` unwrapped, `;` or newlines between) from
/// `pos` to `limit`. Returns where reading stopped.
pub(crate) fn strong_lines(cx: &mut Cx<'_>, pos: usize, limit: usize, format: CallFormat) -> usize {
    let text = &cx.text[..limit];
    let mut pos = pos;
    let mut found_any = false;
    loop {
        let p = skip_ws(text, pos);
        if p >= limit {
            break;
        }
        let printed = starts_at(text, p, "print(");
        let call_at = if printed {
            skip_ws(text, p + "print(".len())
        } else {
            p
        };
        if !is_call_start(text, call_at) {
            if !found_any {
                let detail = format!("expected a function call, found {}", describe_at(text, p));
                cx.malformed(p, format, Broken::new(None, detail));
                return to_end(text);
            }
            return p;
        }
        let touches = horizon::touches();
        let mut end = match parse_call(text, call_at) {
            Ok(call) => {
                let end = call.end;
                let outcome = to_raw(call, cx);
                cx.outcome(p, format, outcome);
                end
            }
            Err((at, message)) => {
                // A call that cannot be read but whose end is plain: reported, and the
                // calls after it are read.
                if horizon::touches() == touches
                    && let Some(end) = call_end(text, call_at)
                {
                    cx.malformed(p, format, unreadable_call(cx, text, call_at, at, &message));
                    found_any = true;
                    pos = end;
                    continue;
                }
                // Its name, when it was written whole, says which tool it was meant for.
                let name_end = ident_end(text, call_at);
                let name = clean_name(&text[call_at..name_end]);
                let name = (plausible_name(&name) && name_end < text.len()).then_some(name);
                let detail = format!("invalid call at {}: {message}", cx.at(at));
                let broken = if horizon::touches() != touches {
                    Broken::cut(name, detail)
                } else {
                    Broken::new(name, detail)
                };
                cx.malformed(p, format, broken);
                return to_end(text);
            }
        };
        found_any = true;
        if printed {
            let q = skip_ws(text, end);
            if byte_at(text, q) == Some(b')') {
                end = q + 1;
            }
        }
        pos = end;
        if byte_at(text, skip_spaces(text, pos)) == Some(b';') {
            pos = skip_spaces(text, pos) + 1;
        }
    }
    pos.max(skip_ws(text, pos).min(limit))
}

/// Llama 4 `<|python_start|>[…]<|python_end|>`.
pub(crate) fn python_start(cx: &mut Cx<'_>, _start: usize, after: usize) -> Option<usize> {
    let delimiters = ("<|python_start|>", "<|python_end|>");
    Some(delimited_list(cx, after, delimiters, CallFormat::Pythonic))
}

/// LFM2 `<|tool_call_start|>[…]<|tool_call_end|>` (a JSON list is accepted too).
pub(crate) fn lfm2(cx: &mut Cx<'_>, _start: usize, after: usize) -> Option<usize> {
    let delimiters = ("<|tool_call_start|>", "<|tool_call_end|>");
    Some(delimited_list(cx, after, delimiters, CallFormat::Lfm2))
}

fn delimited_list(
    cx: &mut Cx<'_>,
    after: usize,
    (open, close): (&str, &str),
    format: CallFormat,
) -> usize {
    let text = cx.text;
    let p = skip_ws(text, after);
    let end = if is_list_start(text, p) {
        strong_list(cx, p, format)
    } else if matches!(byte_at(text, p), Some(b'[' | b'{')) {
        json_body(cx, p, Some(close), format, open)
    } else {
        let (_, limit) = element_end(text, p, text.len(), close, open);
        strong_lines(cx, p, limit, format)
    };
    past_close(text, end, close)
}

/// Gemma ```` ```tool_code ```` blocks: one call per line, maybe inside `print(…)`.
pub(crate) fn tool_code(cx: &mut Cx<'_>, _start: usize, after: usize) -> Option<usize> {
    let text = cx.text;
    // The fence that closes the block starts its line; one inside a line is text (a string
    // that holds ```` ``` ````), unless no other closes the block.
    let mut close = None;
    let mut from = after;
    while let Some(at) = find_in(text, from, text.len(), "```") {
        close = close.or(Some(at));
        let bytes = text.as_bytes();
        let mut line_start = at;
        while line_start > after && matches!(bytes[line_start - 1], b' ' | b'\t') {
            line_start -= 1;
        }
        if line_start > after && bytes[line_start - 1] == b'\n' {
            close = Some(at);
            break;
        }
        from = at + 3;
    }
    let limit = close.unwrap_or(text.len());
    strong_lines(cx, after, limit, CallFormat::GemmaToolCode);
    Some(close.map_or(limit, |c| c + 3))
}

/// Where the search for pythonic calls in a gap stands.
#[derive(Clone, Debug)]
pub(crate) struct GapState {
    start: usize,
    /// `[` before this are read.
    list_pos: usize,
    /// The start of the line to look at next, and how far its newline was searched for.
    line_start: usize,
    line_searched: usize,
    /// Bytes examined by reads that failed, for lists and for lines. Failed reads may cover
    /// the same bytes again (an unterminated string holding many `[f(`); a read at offset
    /// `p` may start only while this is below `4 (p - start) + 64 KiB`, to stay linear.
    list_spent: usize,
    line_spent: usize,
}

impl GapState {
    pub(crate) fn new(start: usize) -> Self {
        GapState {
            start,
            list_pos: start,
            line_start: start,
            line_searched: start,
            list_spent: 0,
            line_spent: 0,
        }
    }

    fn allows(&self, spent: usize, at: usize) -> bool {
        spent < 4 * (at - self.start) + 65_536
    }
}

/// Pythonic calls in ordinary text, from where `state` stands up to `end`: a `[f(…), …]`
/// list or a line that is just `f(…)`. A weak format, so only when the names are known
/// tools (for a list, at least one of them); a list that breaks off is a malformed call
/// when it is recognisably one (see [`broken_list`]). With `open`, the gap may go on after
/// `end`; the offset returned (else `end`) is where the text stops being decided, and what
/// ran into `end` is read again next time.
pub(crate) fn calls_in_gap(
    cx: &Cx<'_>,
    state: &mut GapState,
    end: usize,
    open: bool,
) -> (Vec<Finding>, usize) {
    let (mut findings, list_hold) = lists_in_gap(cx, state, end, open);
    let (lines, line_hold) = lines_in_gap(cx, state, end, open);
    findings.extend(lines);
    (findings, list_hold.min(line_hold))
}

/// `[f(…), …]` lists, from where `state` stands up to `end`.
fn lists_in_gap(
    cx: &Cx<'_>,
    state: &mut GapState,
    end: usize,
    open: bool,
) -> (Vec<Finding>, usize) {
    let text = &cx.text[..end];
    let mut findings = Vec::new();
    while let Some(offset) = memchr::memchr(b'[', &text.as_bytes()[state.list_pos..]) {
        let at = state.list_pos + offset;
        if !state.allows(state.list_spent, at) {
            break;
        }
        let touches = horizon::touches();
        let list = is_list_start(text, at).then(|| parse_list(text, at));
        let cut_off = horizon::touches() != touches;
        if open && cut_off {
            return (findings, at);
        }
        let Some(list) = list else {
            state.list_pos = at + 1;
            continue;
        };
        let (calls, list_end) = match list {
            Ok(list) => list,
            Err((failed_at, message)) => {
                // A whole list with a call that cannot be read: the others, when one of
                // them is a known tool's, run, and that one is reported.
                if !cut_off {
                    let salvaged = salvage_items(cx, text, at);
                    if open && horizon::touches() != touches {
                        return (findings, at);
                    }
                    if let Some((items, list_end)) =
                        salvaged.filter(|(items, _)| calls_a_known_tool(cx, items))
                    {
                        state.list_pos = list_end;
                        findings.push(Finding {
                            start: at,
                            end: list_end,
                            items: items
                                .into_iter()
                                .map(|(place, outcome)| (place, CallFormat::Pythonic, outcome))
                                .collect(),
                        });
                        continue;
                    }
                }
                if cut_off
                    && let Some(items) = cut_items(cx, text, at, failed_at, &message)
                        .filter(|items| calls_a_known_tool(cx, items))
                {
                    findings.push(Finding {
                        start: at,
                        end,
                        items: items
                            .into_iter()
                            .map(|(place, outcome)| (place, CallFormat::Pythonic, outcome))
                            .collect(),
                    });
                    state.list_pos = end;
                    continue;
                }
                let broken = broken_list(cx, text, at, failed_at, &message, cut_off);
                // Whether it is a broken call can depend on what follows (`[f(x=1), c⏎`).
                if open && horizon::touches() != touches {
                    return (findings, at);
                }
                state.list_pos = at + 1;
                if let Some(broken) = broken {
                    // What follows a list the output ended inside of is that list's text.
                    let resume = if cut_off {
                        end
                    } else {
                        floor_boundary(text, failed_at.max(at + 1))
                    };
                    findings.push(Finding {
                        start: at,
                        end: resume,
                        items: vec![(at, CallFormat::Pythonic, Err(broken))],
                    });
                    state.list_pos = resume;
                }
                state.list_spent += failed_at.saturating_sub(at);
                continue;
            }
        };
        state.list_pos = list_end;
        // A list in a sentence that names an example or a quotation (`the document ends
        // with the instruction [send_email(…)]`) shows it.
        if !calls
            .iter()
            .any(|call| cx.is_known(&clean_name(&call.name)))
            || super::markdown::names_example(cx.text, at)
        {
            continue;
        }
        let items = calls
            .into_iter()
            .map(|call| (at, CallFormat::Pythonic, to_raw(call, cx)))
            .collect();
        findings.push(Finding {
            start: at,
            end: list_end,
            items,
        });
    }
    state.list_pos = end;
    (findings, end)
}

/// Whether one of `items` (read from a list in prose) is a call to a known tool: only then
/// is the list taken for calls rather than code or prose.
fn calls_a_known_tool(cx: &Cx<'_>, items: &[(usize, Outcome)]) -> bool {
    items
        .iter()
        .any(|(_, outcome)| outcome.as_ref().is_ok_and(|call| cx.is_known(&call.name)))
}

/// A list at `at` of `text` that could not be read (`message`, at `failed_at`), as a
/// malformed call when it is recognisably a call that broke off: its first call names a
/// known tool or passes a keyword argument (`[f(x=`), and reading stopped at the end of
/// the text (`cut_off`), in an unterminated string or bracket, or at a closing bracket
/// where another was due (`[f(x="a"]`). Anything else is code or prose that happens to
/// hold brackets: `[f(x) for x in xs]`, `[get_weather(city) for city in cities]`.
fn broken_list(
    cx: &Cx<'_>,
    text: &str,
    at: usize,
    failed_at: usize,
    message: &str,
    cut_off: bool,
) -> Option<Broken> {
    let call_at = skip_ws(text, at + 1);
    let name_stop = ident_end(text, call_at);
    let name = clean_name(&text[call_at..name_stop]);
    let first_argument = skip_ws(text, skip_spaces(text, name_stop) + 1);
    let key_end = ident_end(text, first_argument);
    let after_key = skip_ws(text, key_end);
    let keyword = key_end > first_argument
        && byte_at(text, after_key) == Some(b'=')
        && byte_at(text, after_key + 1) != Some(b'=');
    if !keyword && !cx.is_known(&name) {
        return None;
    }
    let stop = skip_ws(text, failed_at);
    let how = if cut_off || ends_by(text, stop) || message.starts_with("unterminated") {
        "is cut off"
    } else if matches!(byte_at(text, stop), Some(b']' | b')' | b'}')) {
        "is unbalanced"
    } else if message.starts_with(UNREADABLE_STRING) {
        // A string no reading can settle (`"C:\Users\bob\new"`), in a call that is
        // otherwise whole.
        "holds a value that cannot be read"
    } else {
        return None;
    };
    let detail = format!(
        "the call list {how} at {}: {message}; close every call with `)` and the list with `]`",
        cx.at(failed_at)
    );
    let name = plausible_name(&name).then_some(name);
    Some(if cut_off {
        Broken::cut(name, detail)
    } else {
        Broken::new(name, detail)
    })
}

/// Lines that are a call to a known tool and nothing else, from where `state` stands up
/// to `end`.
fn lines_in_gap(
    cx: &Cx<'_>,
    state: &mut GapState,
    end: usize,
    open: bool,
) -> (Vec<Finding>, usize) {
    let text = &cx.text[..end];
    let mut findings = Vec::new();
    while state.line_start < end {
        let line_start = state.line_start;
        let search_from = state.line_searched.max(line_start);
        let newline = memchr::memchr(b'\n', &text.as_bytes()[search_from..end]);
        if newline.is_none() && open {
            // The last line is not whole yet: held back only when it may become a call.
            state.line_searched = end;
            let touches = horizon::touches();
            let p = skip_spaces(text, line_start);
            let call_at = if starts_at(text, p, "print(") {
                p + "print(".len()
            } else {
                p
            };
            let name_end = ident_end(text, call_at);
            let candidate = name_end > call_at
                && is_call_start(text, call_at)
                && cx.is_known(&clean_name(&text[call_at..name_end]));
            let hold = if candidate || horizon::touches() != touches {
                p
            } else {
                end
            };
            return (findings, hold);
        }
        let line_end = newline.map_or(end, |i| search_from + i);
        let p = skip_spaces(text, line_start);
        let printed = starts_at(text, p, "print(");
        let call_at = if printed { p + "print(".len() } else { p };
        let name_end = ident_end(text, call_at);
        // The cheap test first: most lines of prose do not start with `name(`.
        if name_end > call_at
            && is_call_start(text, call_at)
            && cx.is_known(&clean_name(&text[call_at..name_end]))
            && state.allows(state.line_spent, call_at)
        {
            let touches = horizon::touches();
            let call = parse_call(text, call_at);
            let call_end = call.as_ref().map(|call| call.end).unwrap_or_default();
            let printed_close = printed && byte_at(text, call_end) == Some(b')');
            let call_end = call_end + usize::from(printed_close);
            let alone = call.is_ok() && rest_of_line_is_blank(text, call_end);
            // A call that runs past its line into text still to come.
            if open && horizon::touches() != touches {
                return (findings, p);
            }
            match call {
                Err((failed_at, _)) => {
                    state.line_spent += failed_at.saturating_sub(call_at);
                }
                Ok(call) if alone => {
                    findings.push(Finding {
                        start: p,
                        end: call_end,
                        items: vec![(p, CallFormat::Pythonic, to_raw(call, cx))],
                    });
                }
                Ok(_) => {}
            }
        }
        state.line_start = line_end + 1;
        state.line_searched = state.line_start;
    }
    (findings, end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_keyword_calls_with_python_literals() {
        let text = r#"[get_weather(city="Paris", days=3), set(on=True, tags=['a', "b"], meta={"k": None})]"#;
        let (calls, end) = parse_list(text, 0).unwrap();
        assert_eq!(end, text.len());
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[0].name, "get_weather");
        assert_eq!(
            calls[1].args[2],
            (Some("meta".to_owned()), json!({"k": null}))
        );
    }

    #[test]
    fn lists_that_break_off_are_malformed_calls_with_a_hint() {
        let tools = [mcs_core::Tool::new("get_weather", "Weather")];
        let details = |text: &str| -> Vec<String> {
            let cx = Cx::new(text, &tools);
            calls_in_gap(&cx, &mut GapState::new(0), text.len(), false)
                .0
                .into_iter()
                .flat_map(|finding| finding.items)
                .filter_map(|(_, _, outcome)| outcome.err().map(|broken| broken.detail))
                .collect()
        };
        let cut = details("Checking.\n[get_weather(city=\"Paris\"");
        assert!(
            cut[0].contains("cut off") && cut[0].contains("line 2"),
            "{cut:?}"
        );
        let unbalanced = details("[f(x=\"a\"]");
        assert!(unbalanced[0].contains("unbalanced"), "{unbalanced:?}");
        for prose in [
            "[f(x) for x in xs]",
            "[get_weather(city) for city in cities]",
            "[note(1)] and [link](http://x)",
            "[f(a=1) etc]",
        ] {
            assert!(details(prose).is_empty(), "{prose}");
        }
    }

    #[test]
    fn rejects_what_is_not_a_call() {
        assert!(parse_call("f(x + 1)", 0).is_err());
        assert!(parse_call("f(a=1", 0).is_err());
        assert!(parse_list("[f(a=1) g()]", 0).is_err());
        assert!(!is_list_start("[1, 2]", 0));
        assert!(!is_list_start("[link](http://x)", 0));
    }
}
