//! Python-call formats: `[f(a=1), g(b="x")]` (Llama 3.2 / 4, ToolACE), Llama 4's
//! `<|python_start|>`, LFM2's `<|tool_call_start|>`, Gemma's ```` ```tool_code ````,
//! Llama 3's built-in `brave_search.call(query="…")`, and calls to known tools written
//! on a line of their own.

use serde_json::{Map, Value};

use super::call_body::json_body;
use super::extraction::CallFormat;
use super::json::{describe_at, parse_value};
use super::record::{Broken, Cx, Finding, Outcome, RawCall};
use super::scan::{
    clean_name, element_end, find_in, floor_boundary, plausible_name, rest_of_line_is_blank,
    skip_ws, starts_at,
};

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
    let bytes = text.as_bytes();
    if !bytes
        .get(pos)
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
    {
        return pos;
    }
    let mut end = pos;
    while bytes
        .get(end)
        .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
    {
        end += 1;
    }
    end
}

/// Whether a call starts at `pos`: a name then `(`.
fn is_call_start(text: &str, pos: usize) -> bool {
    let end = ident_end(text, pos);
    end > pos && text.as_bytes().get(skip_spaces(text, end)) == Some(&b'(')
}

fn skip_spaces(text: &str, pos: usize) -> usize {
    let bytes = text.as_bytes();
    let mut pos = pos;
    while bytes.get(pos).is_some_and(|b| *b == b' ' || *b == b'\t') {
        pos += 1;
    }
    pos
}

/// Whether a list of calls starts at `pos` (at `[`).
pub(crate) fn is_list_start(text: &str, pos: usize) -> bool {
    text.as_bytes().get(pos) == Some(&b'[') && is_call_start(text, skip_ws(text, pos + 1))
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
    if text.as_bytes().get(p) != Some(&b'(') {
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
        if text.as_bytes().get(p) == Some(&b')') {
            return Ok(PyCall {
                name,
                args,
                end: p + 1,
            });
        }
        let key_end = ident_end(text, p);
        let after_key = skip_ws(text, key_end);
        let keyword = key_end > p
            && text.as_bytes().get(after_key) == Some(&b'=')
            && text.as_bytes().get(after_key + 1) != Some(&b'=');
        let key = keyword.then(|| text[p..key_end].to_owned());
        if keyword {
            p = after_key + 1;
        }
        let parsed = parse_value(text, p).map_err(|e| (e.pos, e.message.to_string()))?;
        args.push((key, parsed.value));
        p = skip_ws(text, parsed.end);
        match text.as_bytes().get(p) {
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
    let mut p = pos + 1;
    loop {
        p = skip_ws(text, p);
        if text.as_bytes().get(p) == Some(&b']') {
            return Ok((calls, p + 1));
        }
        if !calls.is_empty() {
            if text.as_bytes().get(p) != Some(&b',') {
                let found = describe_at(text, p);
                return Err((
                    p,
                    format!("expected `,` or `]` in the list of calls, found {found}"),
                ));
            }
            p = skip_ws(text, p + 1);
            if text.as_bytes().get(p) == Some(&b']') {
                return Ok((calls, p + 1));
            }
        }
        let call = parse_call(text, p)?;
        p = call.end;
        calls.push(call);
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
        return Err(Broken {
            name: None,
            detail: format!("`{}` is not a tool name", call.name),
        });
    }
    let tool = cx.tool(&name);
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
                    return Err(Broken {
                        name: Some(name),
                        detail,
                    });
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
    match parse_list(cx.text, pos) {
        Ok((calls, end)) => {
            for call in calls {
                let outcome = to_raw(call, cx);
                cx.outcome(pos, format, outcome);
            }
            end
        }
        Err((at, message)) => {
            let detail = format!("invalid call list at {}: {message}", cx.at(at));
            cx.malformed(pos, format, Broken { name: None, detail });
            cx.text.len()
        }
    }
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
                cx.malformed(p, format, Broken { name: None, detail });
                return limit;
            }
            return p;
        }
        let mut end = match parse_call(text, call_at) {
            Ok(call) => {
                let end = call.end;
                let outcome = to_raw(call, cx);
                cx.outcome(p, format, outcome);
                end
            }
            Err((at, message)) => {
                let detail = format!("invalid call at {}: {message}", cx.at(at));
                cx.malformed(p, format, Broken { name: None, detail });
                return limit;
            }
        };
        found_any = true;
        if printed {
            let q = skip_ws(text, end);
            if text.as_bytes().get(q) == Some(&b')') {
                end = q + 1;
            }
        }
        pos = end;
        if text.as_bytes().get(skip_spaces(text, pos)) == Some(&b';') {
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
    } else if matches!(text.as_bytes().get(p), Some(b'[' | b'{')) {
        json_body(cx, p, Some(close), format, open)
    } else {
        let (_, limit) = element_end(text, p, text.len(), close, open);
        strong_lines(cx, p, limit, format)
    };
    let q = skip_ws(text, end);
    if starts_at(text, q, close) {
        q + close.len()
    } else {
        end
    }
}

/// Gemma ```` ```tool_code ```` blocks: one call per line, maybe inside `print(…)`.
pub(crate) fn tool_code(cx: &mut Cx<'_>, _start: usize, after: usize) -> Option<usize> {
    let text = cx.text;
    let close = find_in(text, after, text.len(), "```");
    let limit = close.unwrap_or(text.len());
    strong_lines(cx, after, limit, CallFormat::GemmaToolCode);
    Some(close.map_or(limit, |c| c + 3))
}

/// Pythonic calls in ordinary text, between `start` and `end`: a `[f(…), …]` list or a
/// line that is just `f(…)`. A weak format, so only when the names are known tools (for a
/// list, at least one of them); a list that breaks off is a malformed call when it is
/// recognisably one (see [`broken_list`]).
pub(crate) fn calls_in_gap(cx: &Cx<'_>, start: usize, end: usize) -> Vec<Finding> {
    // Failed reads may cover the same bytes again (an unterminated string holding many
    // `[f(`); cap their total to stay linear.
    let mut budget = 4 * (end - start) + 65_536;
    let mut findings = lists_in_gap(cx, start, end, &mut budget);
    if budget > 0 {
        findings.extend(lines_in_gap(cx, start, end, &mut budget));
    }
    findings
}

/// Spends what a failed read at `at` examined up to `failed_at`; whether budget is left.
fn spend(budget: &mut usize, at: usize, failed_at: usize) -> bool {
    *budget = budget.saturating_sub(failed_at.saturating_sub(at));
    *budget > 0
}

/// `[f(…), …]` lists between `start` and `end`.
fn lists_in_gap(cx: &Cx<'_>, start: usize, end: usize, budget: &mut usize) -> Vec<Finding> {
    let text = &cx.text[..end];
    let mut findings = Vec::new();
    let mut pos = start;
    while let Some(offset) = memchr::memchr(b'[', &text.as_bytes()[pos..]) {
        let at = pos + offset;
        pos = at + 1;
        if !is_list_start(text, at) {
            continue;
        }
        let (calls, list_end) = match parse_list(text, at) {
            Ok(list) => list,
            Err((failed_at, message)) => {
                if let Some(broken) = broken_list(cx, text, at, failed_at, &message) {
                    let resume = floor_boundary(text, failed_at.max(at + 1));
                    findings.push(Finding {
                        start: at,
                        end: resume,
                        items: vec![(at, CallFormat::Pythonic, Err(broken))],
                    });
                    pos = resume;
                }
                if !spend(budget, at, failed_at) {
                    return findings;
                }
                continue;
            }
        };
        pos = list_end;
        if !calls
            .iter()
            .any(|call| cx.is_known(&clean_name(&call.name)))
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
    findings
}

/// A list at `at` of `text` that could not be read (`message`, at `failed_at`), as a
/// malformed call when it is recognisably a call that broke off: its first call names a
/// known tool or passes a keyword argument (`[f(x=`), and reading stopped at the end of
/// the text, in an unterminated string or bracket, or at a closing bracket where another
/// was due (`[f(x="a"]`). Anything else is code or prose that happens to hold brackets:
/// `[f(x) for x in xs]`, `[get_weather(city) for city in cities]`.
fn broken_list(
    cx: &Cx<'_>,
    text: &str,
    at: usize,
    failed_at: usize,
    message: &str,
) -> Option<Broken> {
    let bytes = text.as_bytes();
    let call_at = skip_ws(text, at + 1);
    let name_stop = ident_end(text, call_at);
    let name = clean_name(&text[call_at..name_stop]);
    let first_argument = skip_ws(text, skip_spaces(text, name_stop) + 1);
    let key_end = ident_end(text, first_argument);
    let after_key = skip_ws(text, key_end);
    let keyword = key_end > first_argument
        && bytes.get(after_key) == Some(&b'=')
        && bytes.get(after_key + 1) != Some(&b'=');
    if !keyword && !cx.is_known(&name) {
        return None;
    }
    let stop = skip_ws(text, failed_at);
    let how = if stop >= text.len() || message.starts_with("unterminated") {
        "is cut off"
    } else if matches!(bytes.get(stop), Some(b']' | b')' | b'}')) {
        "is unbalanced"
    } else {
        return None;
    };
    let detail = format!(
        "the call list {how} at {}: {message}; close every call with `)` and the list with `]`",
        cx.at(failed_at)
    );
    Some(Broken {
        name: plausible_name(&name).then_some(name),
        detail,
    })
}

/// Lines between `start` and `end` that are a call to a known tool and nothing else.
fn lines_in_gap(cx: &Cx<'_>, start: usize, end: usize, budget: &mut usize) -> Vec<Finding> {
    let text = &cx.text[..end];
    let mut findings = Vec::new();
    let mut line_start = start;
    while line_start < end {
        let line_end =
            memchr::memchr(b'\n', &text.as_bytes()[line_start..]).map_or(end, |i| line_start + i);
        let p = skip_spaces(text, line_start);
        let printed = starts_at(text, p, "print(");
        let call_at = if printed { p + "print(".len() } else { p };
        let name_end = ident_end(text, call_at);
        // The cheap test first: most lines of prose do not start with `name(`.
        if name_end > call_at
            && is_call_start(text, call_at)
            && cx.is_known(&clean_name(&text[call_at..name_end]))
        {
            match parse_call(text, call_at) {
                Err((failed_at, _)) => {
                    if !spend(budget, call_at, failed_at) {
                        return findings;
                    }
                }
                Ok(call) => {
                    let mut call_end = call.end;
                    if printed && text.as_bytes().get(call_end) == Some(&b')') {
                        call_end += 1;
                    }
                    if rest_of_line_is_blank(text, call_end) {
                        findings.push(Finding {
                            start: p,
                            end: call_end,
                            items: vec![(p, CallFormat::Pythonic, to_raw(call, cx))],
                        });
                    }
                }
            }
        }
        line_start = line_end + 1;
    }
    findings
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
        let tools = [crate::types::Tool::new("get_weather", "Weather")];
        let details = |text: &str| -> Vec<String> {
            let cx = Cx::new(text, &tools);
            calls_in_gap(&cx, 0, text.len())
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
