//! XML-like formats, whose argument values are raw text typed with the tool's schema:
//! Qwen3-Coder / Seed-OSS `<function=NAME><parameter=K>`, Functionary's
//! `<function=NAME>{json}</function>`, `<invoke name=…><parameter name=…>` (MiniMax-M2,
//! Claude XML, DeepSeek DSML), GLM `<arg_key>`/`<arg_value>`, and LangChain's `<tool>`.

use std::ops::Range;

use serde_json::{Map, Value};

use super::call_body::arguments_at;
use super::call_shape::free_text_arguments;
use super::coerce::{Untyped, convert};
use super::extraction::CallFormat;
use super::json::{describe_at, parse_whole};
use super::reasoning::partial_start;
use super::record::{Broken, Cx, Finding, Outcome, RawCall};
use super::horizon;
use super::scan::{byte_at, to_end, clean_name, element_end, find_in, plausible_name, skip_ws, starts_at};

/// A raw parameter value without the one newline models put after the opening tag and
/// before the closing one (as vLLM does).
fn raw_value(value: &str) -> &str {
    let value = value
        .strip_prefix("\r\n")
        .or_else(|| value.strip_prefix('\n'))
        .unwrap_or(value);
    value
        .strip_suffix("\r\n")
        .or_else(|| value.strip_suffix('\n'))
        .unwrap_or(value)
}

/// The value of attribute `name` in a tag's text (`name="x"` or `name='x'`).
fn attribute(tag: &str, name: &str) -> Option<String> {
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
            return body.find(quote).map(|end| body[..end].to_owned());
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '>')
            .unwrap_or(rest.len());
        return Some(rest[..end].to_owned());
    }
    None
}

/// `<function=…>` outside `<tool_call>` (Qwen3-Coder, Nemotron 3, Functionary v3.1).
pub(crate) fn function_tag(cx: &mut Cx<'_>, start: usize, _after: usize) -> Option<usize> {
    let end = function_blocks(cx, start, cx.text.len(), CallFormat::Qwen3Coder);
    let p = skip_ws(cx.text, end);
    Some(if starts_at(cx.text, p, "</tool_call>") {
        p + "</tool_call>".len()
    } else {
        end
    })
}

/// Seed-OSS `<seed:tool_call><function=…>…</seed:tool_call>`.
pub(crate) fn seed_oss(cx: &mut Cx<'_>, _start: usize, after: usize) -> Option<usize> {
    Some(wrapped(
        cx,
        after,
        "</seed:tool_call>",
        CallFormat::SeedOss,
        function_blocks,
    ))
}

/// MiniMax-M2 `<minimax:tool_call><invoke name=…>…</minimax:tool_call>`.
pub(crate) fn minimax_m2(cx: &mut Cx<'_>, _start: usize, after: usize) -> Option<usize> {
    Some(wrapped(
        cx,
        after,
        "</minimax:tool_call>",
        CallFormat::MiniMaxM2,
        |cx, p, limit, format| invoke_blocks(cx, p, limit, "", format),
    ))
}

/// Claude text tool use `<function_calls><invoke name=…>…</function_calls>`.
pub(crate) fn claude_xml(cx: &mut Cx<'_>, _start: usize, after: usize) -> Option<usize> {
    Some(wrapped(
        cx,
        after,
        "</function_calls>",
        CallFormat::ClaudeXml,
        |cx, p, limit, format| invoke_blocks(cx, p, limit, "", format),
    ))
}

/// DeepSeek V3.2 `<｜DSML｜function_calls><｜DSML｜invoke name=…>…`.
pub(crate) fn dsml(cx: &mut Cx<'_>, _start: usize, after: usize) -> Option<usize> {
    Some(wrapped(
        cx,
        after,
        "</｜DSML｜function_calls>",
        CallFormat::DeepSeekDsml,
        |cx, p, limit, format| invoke_blocks(cx, p, limit, "｜DSML｜", format),
    ))
}

type Blocks = fn(&mut Cx<'_>, usize, usize, CallFormat) -> usize;

/// Runs `blocks` over the inside of a wrapper that ends with `close` (or at the end).
fn wrapped(
    cx: &mut Cx<'_>,
    after: usize,
    close: &str,
    format: CallFormat,
    blocks: Blocks,
) -> usize {
    let text = cx.text;
    let close_at = find_in(text, after, text.len(), close);
    let limit = close_at.unwrap_or(text.len());
    let end = blocks(cx, after, limit, format);
    if end == after {
        let p = skip_ws(text, after);
        let detail = format!("expected a function block, found {}", describe_at(text, p));
        cx.malformed(p, format, Broken::new(None, detail));
    }
    close_at.map_or(end, |c| c + close.len())
}

/// Reads `<function=NAME>…</function>` blocks from `pos` up to `limit`; returns where the
/// last one ends (`pos` when there is none).
pub(crate) fn function_blocks(
    cx: &mut Cx<'_>,
    pos: usize,
    limit: usize,
    format: CallFormat,
) -> usize {
    let text = cx.text;
    let mut pos = pos;
    loop {
        let p = skip_ws(text, pos);
        let header_len = if starts_at(text, p, "<function=") {
            "<function=".len()
        } else if starts_at(text, p, "<function ") {
            "<function".len()
        } else {
            return pos;
        };
        let Some(gt) = find_in(text, p, limit.min(p + 512), ">") else {
            let detail = "the `<function=` tag is not closed with `>`".to_owned();
            cx.malformed(p, format, Broken::new(None, detail));
            return limit;
        };
        let header = &text[p + header_len..gt];
        let raw_name = if header_len == "<function".len() {
            attribute(header, "name").unwrap_or_default()
        } else {
            header
                .trim()
                .trim_matches(|c| c == '"' || c == '\'')
                .to_owned()
        };
        let name = clean_name(&raw_name);
        let body_start = gt + 1;
        let (close, body_end) = element_end(text, body_start, limit, "</function>", "<function");
        pos = close.map_or(body_end, |c| c + "</function>".len());
        if !plausible_name(&name) {
            let detail = format!("`{}` is not a tool name", header.trim());
            cx.malformed(p, format, Broken::new(None, detail));
            continue;
        }
        let first = skip_ws(text, body_start);
        if first < body_end && byte_at(text, first) == Some(b'{') {
            // Functionary v3.1 / Llama 3.1 custom tools: a JSON object in the body.
            let (outcome, _) = arguments_at(cx, first, &name, None);
            cx.outcome(p, CallFormat::Functionary, outcome);
            continue;
        }
        let outcome = parameters(cx, &name, body_start, body_end);
        cx.outcome(p, format, outcome);
    }
}

/// The `<parameter=K>v</parameter>` list of a Qwen3-Coder function body. `</parameter>` may
/// be missing: the value then runs to the next parameter or the body's end.
fn parameters(cx: &Cx<'_>, name: &str, start: usize, end: usize) -> Outcome {
    let text = cx.text;
    let tool = cx.tool(name);
    let mut arguments = Map::new();
    let mut repaired = false;
    let mut pos = start;
    loop {
        let p = skip_ws(text, pos);
        if p >= end {
            break;
        }
        if !starts_at(text, p, "<parameter=") {
            let detail = format!(
                "unexpected {} in the body of `{name}` at {}, expected `<parameter=NAME>`",
                describe_at(text, p),
                cx.at(p)
            );
            return Err(Broken::new(Some(name.to_owned()), detail));
        }
        let key_start = p + "<parameter=".len();
        let Some(gt) = find_in(text, key_start, end.min(key_start + 256), ">") else {
            let detail = format!(
                "a `<parameter=` tag of `{name}` is not closed with `>` at {}",
                cx.at(p)
            );
            return Err(Broken::new(Some(name.to_owned()), detail));
        };
        let key = text[key_start..gt]
            .trim()
            .trim_matches(|c| c == '"' || c == '\'')
            .to_owned();
        let value_start = gt + 1;
        let (close, value_end) = element_end(text, value_start, end, "</parameter>", "<parameter=");
        pos = close.map_or(value_end, |c| c + "</parameter>".len());
        let (value, fixed) = convert(
            raw_value(&text[value_start..value_end]),
            tool,
            &key,
            Untyped::Text,
        );
        repaired |= fixed;
        arguments.insert(key, value);
    }
    Ok(RawCall {
        name: name.to_owned(),
        arguments: Value::Object(arguments),
        id: None,
        repaired,
    })
}

/// Reads `<{prefix}invoke name="N">` blocks with `<{prefix}parameter name="K">v</…>` values
/// from `pos` up to `limit`; returns where the last one ends.
fn invoke_blocks(
    cx: &mut Cx<'_>,
    pos: usize,
    limit: usize,
    prefix: &str,
    format: CallFormat,
) -> usize {
    let text = cx.text;
    let open_invoke = format!("<{prefix}invoke");
    let close_invoke = format!("</{prefix}invoke>");
    let mut pos = pos;
    loop {
        let p = skip_ws(text, pos);
        if !starts_at(text, p, &open_invoke) {
            return pos;
        }
        let Some(gt) = find_in(text, p, limit.min(p + 512), ">") else {
            let detail = "an `<invoke` tag is not closed with `>`".to_owned();
            cx.malformed(p, format, Broken::new(None, detail));
            return limit;
        };
        let name =
            clean_name(&attribute(&text[p + open_invoke.len()..gt], "name").unwrap_or_default());
        let (close, body_end) = element_end(text, gt, limit, &close_invoke, &open_invoke);
        pos = close.map_or(body_end, |c| c + close_invoke.len());
        if !plausible_name(&name) {
            let detail = "the `<invoke>` tag has no usable `name` attribute".to_owned();
            cx.malformed(p, format, Broken::new(None, detail));
            continue;
        }
        let outcome = invoke_parameters(cx, &name, gt + 1, body_end, prefix);
        cx.outcome(p, format, outcome);
    }
}

fn invoke_parameters(cx: &Cx<'_>, name: &str, start: usize, end: usize, prefix: &str) -> Outcome {
    let text = cx.text;
    let tool = cx.tool(name);
    let open = format!("<{prefix}parameter");
    let close_tag = format!("</{prefix}parameter>");
    let mut arguments = Map::new();
    let mut repaired = false;
    let mut pos = start;
    loop {
        let p = skip_ws(text, pos);
        if p >= end {
            break;
        }
        let broken = |detail: String| Broken::new(Some(name.to_owned()), detail);
        if !starts_at(text, p, &open) {
            let detail = format!(
                "unexpected {} in `{name}` at {}, expected `{open}`",
                describe_at(text, p),
                cx.at(p)
            );
            return Err(broken(detail));
        }
        let Some(gt) = find_in(text, p, end.min(p + 512), ">") else {
            return Err(broken(format!(
                "a parameter tag of `{name}` is not closed at {}",
                cx.at(p)
            )));
        };
        let tag = &text[p + open.len()..gt];
        let Some(key) = attribute(tag, "name") else {
            return Err(broken(format!(
                "a parameter of `{name}` has no `name` attribute at {}",
                cx.at(p)
            )));
        };
        let (close, value_end) = element_end(text, gt, end, &close_tag, &open);
        pos = close.map_or(value_end, |c| c + close_tag.len());
        let raw = raw_value(&text[gt + 1..value_end]);
        // DSML says per value whether it is a string or JSON.
        let (value, fixed) = match attribute(tag, "string").as_deref() {
            Some("true") => (Value::String(raw.to_owned()), false),
            Some("false") => match serde_json::from_str::<Value>(raw) {
                Ok(value) => (value, false),
                Err(_) => convert(raw, tool, &key, Untyped::Json),
            },
            _ => convert(raw, tool, &key, Untyped::Text),
        };
        repaired |= fixed;
        arguments.insert(key, value);
    }
    Ok(RawCall {
        name: name.to_owned(),
        arguments: Value::Object(arguments),
        id: None,
        repaired,
    })
}

/// GLM-4.5 inside `<tool_call>`: `NAME⏎<arg_key>K</arg_key>⏎<arg_value>V</arg_value>…`
/// (or GLM-4's `NAME⏎{json}`), up to `limit`.
pub(crate) fn glm(cx: &mut Cx<'_>, start: usize, pos: usize, limit: usize) -> usize {
    let text = cx.text;
    let format = CallFormat::Glm4;
    let name_stop = text[pos..limit]
        .find(['\n', '<', '{'])
        .map_or(limit, |i| pos + i);
    let name = clean_name(&text[pos..name_stop]);
    if !plausible_name(&name) {
        let detail = format!(
            "`<tool_call>` is followed by {} instead of a call",
            describe_at(text, pos)
        );
        cx.malformed(start, format, Broken::new(None, detail));
        return limit;
    }
    let p = skip_ws(text, name_stop);
    if byte_at(text, p) == Some(b'{') {
        let (outcome, end) = arguments_at(cx, p, &name, None);
        cx.outcome(start, format, outcome);
        return end.min(limit);
    }
    let outcome = glm_pairs(cx, name, p, limit);
    cx.outcome(start, format, outcome);
    limit
}

/// The `<arg_key>K</arg_key><arg_value>V</arg_value>` pairs of a GLM call to `name`, from
/// `pos` to `limit`; values are typed with the tool's schema, or read as JSON when it is.
fn glm_pairs(cx: &Cx<'_>, name: String, pos: usize, limit: usize) -> Outcome {
    let text = cx.text;
    let tool = cx.tool(&name);
    let mut arguments = Map::new();
    let mut repaired = false;
    let mut pos = pos;
    loop {
        let p = skip_ws(text, pos);
        if p >= limit {
            break;
        }
        let Some((key, value)) = glm_pair(text, p, limit) else {
            let detail = format!(
                "expected `<arg_key>K</arg_key><arg_value>V</arg_value>` at {}, found {}",
                cx.at(p),
                describe_at(text, p)
            );
            return Err(Broken::new(Some(name), detail));
        };
        pos = value.end + "</arg_value>".len();
        let key = text[key].trim().to_owned();
        let (value, fixed) = convert(raw_value(&text[value]), tool, &key, Untyped::Json);
        repaired |= fixed;
        arguments.insert(key, value);
    }
    Ok(RawCall {
        name,
        arguments: Value::Object(arguments),
        id: None,
        repaired,
    })
}

/// The byte ranges of the key and the value of the GLM pair at `pos`, if one is there.
fn glm_pair(text: &str, pos: usize, limit: usize) -> Option<(Range<usize>, Range<usize>)> {
    let key_start = pos
        .checked_add("<arg_key>".len())
        .filter(|_| starts_at(text, pos, "<arg_key>"))?;
    let key_end = find_in(text, key_start, limit, "</arg_key>")?;
    let value_open = skip_ws(text, key_end + "</arg_key>".len());
    let value_start = value_open
        .checked_add("<arg_value>".len())
        .filter(|_| starts_at(text, value_open, "<arg_value>"))?;
    let value_end = find_in(text, value_start, limit, "</arg_value>")?;
    Some((key_start..key_end, value_start..value_end))
}

/// LangChain XML agent `<tool>NAME</tool><tool_input>…</tool_input>` at `pos`: a weak
/// format, so only for known tools. Returns the outcome and the end, or `None` when this
/// is not such a call.
fn langchain(cx: &Cx<'_>, pos: usize, limit: usize) -> Option<(Outcome, usize)> {
    let text = cx.text;
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
    let input_end = close.unwrap_or(limit);
    let end = close.map_or(limit, |c| c + "</tool_input>".len());
    let input = text[input_start..input_end].trim();
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

/// Where the search for LangChain XML calls in a gap stands: tags before `pos` are read.
#[derive(Clone, Debug)]
pub(crate) struct LangChainState {
    pos: usize,
}

impl LangChainState {
    pub(crate) fn new(start: usize) -> Self {
        LangChainState { pos: start }
    }
}

/// LangChain XML agent calls, from where `state` stands up to `end`. With `open`, the gap
/// may go on after `end`; the offset returned (else `end`) is where the text stops being
/// decided.
pub(crate) fn langchain_in_gap(
    cx: &Cx<'_>,
    state: &mut LangChainState,
    end: usize,
    open: bool,
) -> (Vec<Finding>, usize) {
    const OPEN: &str = "<tool>";
    let mut findings = Vec::new();
    while let Some(at) = find_in(cx.text, state.pos, end, OPEN) {
        let touches = horizon::touches();
        let call = langchain(cx, at, end);
        if open && horizon::touches() != touches {
            state.pos = at;
            return (findings, at);
        }
        state.pos = at + OPEN.len();
        if let Some((outcome, call_end)) = call {
            findings.push(Finding {
                start: at,
                end: call_end,
                items: vec![(at, CallFormat::LangChainXml, outcome)],
            });
            state.pos = call_end.max(state.pos);
        }
    }
    if !open {
        state.pos = end;
        return (findings, end);
    }
    // A tag cut in half by the end of the text is held back.
    let hold = partial_start(&cx.text[..end], state.pos, OPEN.len(), [OPEN].into_iter());
    state.pos = hold;
    (findings, hold)
}
