//! Formats that put JSON calls between tags: Hermes `<tool_call>` (and what else that tag
//! holds), Granite, MiniMax-M1 / Jamba `<tool_calls>`, Nemotron, InternLM, Apertus,
//! Command-R and Phi-4-mini.

use serde_json::{Map, Value};

use super::call_body::{after_close, json_body};
use super::call_shape::free_text_arguments;
use super::horizon;
use super::json::{describe_at, parse_value};
use super::pythonic;
use super::record::{Broken, Cx, RawCall};
use super::scan::{
    byte_at, clean_name, element_end, ends_by, find_cached, floor_boundary, name_end, past_close,
    plausible_name, skip_ws, starts_at, to_end,
};
use super::xml;
use mcs_core::call::CallFormat;
use mcs_core::schema::kind_of;

/// `<tool_call>`: Hermes JSON, a Granite list, Qwen3-Coder `<function=…>`, or GLM
/// `NAME<arg_key>…`, told apart by what comes first.
pub(crate) fn hermes(cx: &mut Cx<'_>, start: usize, after: usize) -> Option<usize> {
    const CLOSE: &str = "</tool_call>";
    let text = cx.text;
    let p = skip_ws(text, after);
    // The opener written twice (`<tool_call>⏎<tool_call>⏎{…}`): a stutter, one call, read
    // from the second.
    if starts_at(text, p, "<tool_call>") {
        return Some(p);
    }
    if xml::function_open(text, p).is_some() {
        let end = xml::function_blocks(cx, p, CallFormat::Qwen3Coder, &[CLOSE]);
        return Some(past_close(text, end, CLOSE));
    }
    // A pythonic call in the tag (`<tool_call>f(a=1)</tool_call>`): one reading.
    if pythonic::is_call_start(text, p) {
        let (_, limit) = element_end(text, p, text.len(), CLOSE, "<tool_call>");
        let end = pythonic::strong_lines(cx, p, limit, CallFormat::Pythonic);
        return Some(past_close(text, end, CLOSE));
    }
    let format = match byte_at(text, p) {
        Some(b'[') => CallFormat::Granite,
        Some(b) if (b.is_ascii_alphabetic() || b == b'_' || !b.is_ascii()) && is_glm(text, p) => {
            return Some(xml::glm(cx, start, p));
        }
        _ => CallFormat::Hermes,
    };
    Some(json_body(cx, p, Some(CLOSE), format, "<tool_call>"))
}

/// Whether GLM's `NAME` then `<arg_key>`, `{` or the end of the call (or Hunyuan's `NAME`
/// then `<tool_sep>`) starts at `pos`.
fn is_glm(text: &str, pos: usize) -> bool {
    let after_name = skip_ws(text, name_end(text, pos));
    ends_by(text, after_name)
        || starts_at(text, after_name, "<arg_key>")
        || starts_at(text, after_name, "<tool_sep>")
        || starts_at(text, after_name, "{")
        || starts_at(text, after_name, "</tool_call>")
}

/// Granite 3.0 `<|tool_call|>[…]`.
pub(crate) fn granite(cx: &mut Cx<'_>, _start: usize, after: usize) -> Option<usize> {
    Some(json_body(
        cx,
        after,
        None,
        CallFormat::Granite,
        "<|tool_call|>",
    ))
}

/// granite-20b-functioncalling `<function_call> {…}`, repeated; also the llama.cpp wrapper
/// `<function_call>{…}</function_call>`.
pub(crate) fn granite_fc(cx: &mut Cx<'_>, _start: usize, after: usize) -> Option<usize> {
    Some(json_body(
        cx,
        after,
        Some("</function_call>"),
        CallFormat::Granite,
        "<function_call>",
    ))
}

/// `<tool_calls>`: a JSON list (Jamba, Apriel), one JSON call per line (MiniMax-M1),
/// `<invoke name=…>` blocks (the MiniMax-M2 markup without its namespace), or `<tool_call>`
/// blocks (Hunyuan).
pub(crate) fn tool_calls_tag(cx: &mut Cx<'_>, start: usize, after: usize) -> Option<usize> {
    if starts_at(cx.text, skip_ws(cx.text, after), "<tool_call>") {
        return Some(pairs_blocks(cx, start, &xml::Pairs::hunyuan("")));
    }
    if starts_at(cx.text, skip_ws(cx.text, after), "<invoke") {
        return Some(super::xml::plain_invokes(
            cx,
            after,
            "</tool_calls>",
            CallFormat::MiniMaxM2,
        ));
    }
    let format = if byte_at(cx.text, skip_ws(cx.text, after)) == Some(b'[') {
        CallFormat::Jamba
    } else {
        CallFormat::MiniMaxM1
    };
    Some(json_body(
        cx,
        after,
        Some("</tool_calls>"),
        format,
        "<tool_calls>",
    ))
}

/// MBZUAI K2 (K2-V3, K2 Horizon): `<ifm|tool_calls>` around `<ifm|tool_call>` blocks, or a
/// block alone; each holds a name and `<ifm|arg_key>`/`<ifm|arg_value>` pairs (with an
/// optional `<ifm|arg_type>`), or JSON (one call or a list).
pub(crate) fn k2(cx: &mut Cx<'_>, start: usize, _after: usize) -> Option<usize> {
    Some(pairs_blocks(cx, start, &xml::Pairs::K2))
}

/// Solar Open 2 `<|tool_call:start|>NAME<|tool_arg:start|>K<|tool_arg:value|>V<|tool_arg:end|>
/// <|tool_call:end|>`, one block per call.
pub(crate) fn solar_open(cx: &mut Cx<'_>, start: usize, _after: usize) -> Option<usize> {
    Some(pairs_blocks(cx, start, &xml::Pairs::SOLAR_OPEN))
}

/// Tencent Hunyuan with its tags suffixed by the checkpoint (HY 4: `<tool_calls:opensource>`,
/// `<tool_call:6124c78e>`): the suffix is read from the tag found, and every other tag must
/// carry the same one. A tag whose suffix holds a blank or runs past 64 bytes is not one.
pub(crate) fn hunyuan(cx: &mut Cx<'_>, start: usize, after: usize) -> Option<usize> {
    let text = cx.text;
    // Found as `<tool_call`: the suffix's colon follows, after an `s` for the section.
    let after = match &text.as_bytes()[after..] {
        [b':', ..] => after + 1,
        [b's', b':', ..] => after + 2,
        // `<tool_call` or `<tool_calls` at the end: what comes decides.
        [] | [b's'] => return ends_by(text, text.len()).then(|| to_end(text)),
        _ => return None,
    };
    let limit = floor_boundary(text, after + 64);
    let Some(gt) = memchr::memchr(b'>', &text.as_bytes()[after..limit]).map(|i| after + i) else {
        // The tag is still being written.
        return ends_by(text, limit).then(|| to_end(text));
    };
    let suffix = &text[after - 1..gt];
    if suffix.len() < 2 || suffix.contains(|c: char| c.is_whitespace() || c == '<') {
        return None;
    }
    Some(pairs_blocks(cx, start, &xml::Pairs::hunyuan(suffix)))
}

/// The calls of a key/value `markup` (see [`xml::Pairs`]) from its section or block opener
/// at `start`: every block up to the section's close, or the one block when there is no
/// section. A block holds a name then key/value pairs, or JSON (one call or a list).
fn pairs_blocks(cx: &mut Cx<'_>, start: usize, markup: &xml::Pairs) -> usize {
    let text = cx.text;
    let format = markup.format;
    let open = &*markup.open;
    let section = markup
        .section
        .as_ref()
        .filter(|(section, _)| starts_at(text, start, section));
    let mut pos = match section {
        Some((section, _)) => start + section.len(),
        None => start,
    };
    let mut found = false;
    loop {
        let p = skip_ws(text, pos);
        if let Some((_, section_close)) = section
            && starts_at(text, p, section_close)
        {
            return p + section_close.len();
        }
        if !starts_at(text, p, open) {
            if found {
                return p;
            }
            let opener = section.map_or(open, |(section, _)| section);
            let detail = format!(
                "`{opener}` is followed by {} instead of a call",
                describe_at(text, p)
            );
            if ends_by(text, p) {
                cx.malformed(start, format, Broken::cut(None, detail));
                return to_end(text);
            }
            cx.malformed(start, format, Broken::new(None, detail));
            let close = section.map_or(&*markup.close, |(_, close)| close);
            return find_cached(text, p, text.len(), close)
                .map_or_else(|| to_end(text), |at| at + close.len());
        }
        found = true;
        let body = skip_ws(text, p + open.len());
        pos = if matches!(byte_at(text, body), Some(b'{' | b'[')) {
            json_body(cx, body, Some(&markup.close), format, open)
        } else {
            xml::pairs_call(cx, p, body, markup)
        };
        if section.is_none() {
            return pos;
        }
    }
}

/// A wrapper named after the model (`<dots_function_call>`, `<iquestcoder_tool_call>`,
/// found by [`delimiters`](super::delimiters)) around a markup read elsewhere: `<invoke
/// name=…>` blocks, `<function=…>` blocks, JSON (one call or a list), or a name then GLM's
/// `<arg_key>`/`<arg_value>` pairs. Its close is the same tag with a slash.
pub(crate) fn named_wrapper(cx: &mut Cx<'_>, start: usize, after: usize) -> Option<usize> {
    let text = cx.text;
    let open = &text[start..after];
    let close = format!("</{}", &open[1..]);
    let p = skip_ws(text, after);
    if starts_at(text, p, "<invoke") {
        return Some(xml::plain_invokes(cx, after, &close, CallFormat::MiniMaxM2));
    }
    if xml::function_open(text, p).is_some() {
        let end = xml::function_blocks(cx, p, CallFormat::Qwen3Coder, &[&close]);
        return Some(past_close(text, end, &close));
    }
    if ends_by(text, p) || matches!(byte_at(text, p), Some(b'{' | b'[')) {
        return Some(json_body(cx, p, Some(&close), CallFormat::Hermes, open));
    }
    let name_stop = name_end(text, p);
    let after_name = skip_ws(text, name_stop);
    // GLM's pairs, their tags plain or named after the model as the wrapper is
    // (`<longcat_arg_key>` in `<longcat_tool_call>`).
    let model = open[1..]
        .trim_end_matches('>')
        .trim_end_matches("tool_call")
        .trim_end_matches("function_call");
    let named = format!("<{model}arg_key>");
    if name_stop > p
        && (ends_by(text, after_name)
            || starts_at(text, after_name, "<arg_key>")
            || starts_at(text, after_name, &named)
            || starts_at(text, after_name, &close))
    {
        let prefix = if starts_at(text, after_name, &named) {
            model
        } else {
            ""
        };
        let markup = xml::Pairs::glm_in(open, &close, prefix);
        return Some(xml::pairs_call(cx, start, p, &markup));
    }
    let detail = format!(
        "`{open}` is followed by {} instead of a call",
        describe_at(text, p)
    );
    cx.malformed(start, CallFormat::Hermes, Broken::new(None, detail));
    Some(
        find_cached(text, p, text.len(), &close)
            .map_or_else(|| to_end(text), |at| at + close.len()),
    )
}

/// Meta's Code World Model (vLLM's `cwm`, "Cursor-style" tags): `<tool: LABEL>` then the
/// tool's name and its input up to `</tool>` (`terminal ls -la`). The input is the
/// arguments when it is JSON; else it is free text, given to a known tool with parameters
/// as its one input (see [`free_text_arguments`]), and to any other as `{"command": …}`, as
/// the format has it.
pub(crate) fn cwm(cx: &mut Cx<'_>, start: usize, after: usize) -> Option<usize> {
    const CLOSE: &str = "</tool>";
    let text = cx.text;
    let format = CallFormat::Cwm;
    let label = skip_ws(text, after);
    let label_end = name_end(text, label);
    let gt = skip_ws(text, label_end);
    if label_end == label || byte_at(text, gt) != Some(b'>') {
        return ends_by(text, gt).then(|| to_end(text));
    }
    let body = skip_ws(text, gt + 1);
    let Some(close) = find_cached(text, body, text.len(), CLOSE) else {
        let detail = format!("the output ends before `{CLOSE}`");
        let name = Some(text[body..name_end(text, body)].to_owned()).filter(|n| !n.is_empty());
        cx.malformed(start, format, Broken::cut(name, detail));
        horizon::reached(text, text.len());
        return Some(to_end(text));
    };
    let name_stop = body
        + text[body..close]
            .find(char::is_whitespace)
            .unwrap_or(close - body);
    let name = clean_name(&text[body..name_stop]);
    let input = text[name_stop..close].trim();
    let outcome = if !plausible_name(&name) {
        Err(Broken::new(None, "`<tool:` holds no tool name".to_owned()))
    } else if input.starts_with(['{', '[']) && serde_json::from_str::<Value>(input).is_ok() {
        let (outcome, _) =
            super::call_body::arguments_at(cx, skip_ws(text, name_stop), &name, None);
        outcome
    } else {
        let arguments = match cx.tool(&name) {
            Some(tool) if !tool.parameters().is_empty() => free_text_arguments(tool, input)
                .map_err(|detail| Broken::new(Some(name.clone()), detail)),
            _ if input.is_empty() => Ok(Value::Object(Map::new())),
            _ => Ok(Value::Object(Map::from_iter([(
                "command".to_owned(),
                Value::String(input.to_owned()),
            )]))),
        };
        arguments.map(|arguments| RawCall {
            name,
            arguments,
            id: None,
            repaired: false,
        })
    };
    cx.outcome(start, format, outcome);
    Some(close + CLOSE.len())
}

/// Nemotron Nano v2 `<TOOLCALL>[…]</TOOLCALL>`.
pub(crate) fn nemotron(cx: &mut Cx<'_>, _start: usize, after: usize) -> Option<usize> {
    Some(json_body(
        cx,
        after,
        Some("</TOOLCALL>"),
        CallFormat::Nemotron,
        "<TOOLCALL>",
    ))
}

/// InternLM `<|action_start|><|plugin|>{…}<|action_end|>`; the `<|interpreter|>` action is
/// code, not a tool call.
pub(crate) fn internlm(cx: &mut Cx<'_>, _start: usize, after: usize) -> Option<usize> {
    let p = skip_ws(cx.text, after);
    if !starts_at(cx.text, p, "<|plugin|>") {
        return None;
    }
    let opener = "<|action_start|><|plugin|>";
    Some(json_body(
        cx,
        p + "<|plugin|>".len(),
        Some("<|action_end|>"),
        CallFormat::InternLm,
        opener,
    ))
}

/// Command R7B / Command A `<|START_ACTION|>[{tool_call_id, tool_name, parameters}]`.
pub(crate) fn command_r(cx: &mut Cx<'_>, _start: usize, after: usize) -> Option<usize> {
    Some(json_body(
        cx,
        after,
        Some("<|END_ACTION|>"),
        CallFormat::CommandR,
        "<|START_ACTION|>",
    ))
}

/// Phi-4-mini / FireFunction `functools[…]`.
pub(crate) fn phi4_mini(cx: &mut Cx<'_>, _start: usize, after: usize) -> Option<usize> {
    // The delimiter ends with the list's own `[`.
    Some(json_body(
        cx,
        after - 1,
        None,
        CallFormat::Phi4Mini,
        "functools",
    ))
}

/// Apertus `<|tools_prefix|>[{"NAME": {…}}, …]<|tools_suffix|>`: one single-key object per
/// call.
pub(crate) fn apertus(cx: &mut Cx<'_>, _start: usize, after: usize) -> Option<usize> {
    const CLOSE: &str = "<|tools_suffix|>";
    let text = cx.text;
    let format = CallFormat::Apertus;
    let p = skip_ws(text, after);
    let parsed = match parse_value(text, p) {
        Ok(parsed) => parsed,
        Err(error) => {
            let detail = format!("invalid JSON at {}: {}", cx.at(error.pos), error.message);
            cx.malformed(p, format, Broken::new(None, detail));
            return Some(after_close(text, p, Some(CLOSE), "<|tools_prefix|>"));
        }
    };
    let items = match parsed.value {
        Value::Array(items) => items,
        object @ Value::Object(_) => vec![object],
        other => {
            let detail = format!(
                "expected a list of calls after `<|tools_prefix|>`, found {}",
                kind_of(&other)
            );
            cx.malformed(p, format, Broken::new(None, detail));
            return Some(after_close(text, p, Some(CLOSE), "<|tools_prefix|>"));
        }
    };
    for (index, item) in items.into_iter().enumerate() {
        let outcome = match item {
            Value::Object(map) if map.len() == 1 => {
                let Some((name, arguments)) = map.into_iter().next() else {
                    continue;
                };
                let name = clean_name(&name);
                match arguments {
                    Value::Object(_) => Ok(RawCall {
                        name,
                        arguments,
                        id: None,
                        repaired: parsed.repaired,
                    }),
                    Value::Null => Ok(RawCall {
                        name,
                        arguments: Value::Object(Map::new()),
                        id: None,
                        repaired: parsed.repaired,
                    }),
                    other => Err({
                        let detail = format!(
                            "the arguments of `{name}` must be an object, found {}",
                            kind_of(&other)
                        );
                        Broken::new(Some(name), detail)
                    }),
                }
            }
            _ => Err(Broken::new(
                None,
                format!("element {index} is not a single-key `{{\"NAME\": {{arguments}}}}` object"),
            )),
        };
        cx.outcome(p, format, outcome);
    }
    let end = skip_ws(text, parsed.end);
    Some(if starts_at(text, end, CLOSE) {
        end + CLOSE.len()
    } else {
        parsed.end
    })
}
