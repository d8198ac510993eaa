//! Formats built from special tokens around a name and a JSON arguments object: Mistral,
//! Llama 3, gpt-oss Harmony, Kimi K2, DeepSeek, Functionary v3.2 and Gemma 4.

use serde_json::{Map, Value};

use super::call_body::{after_close, arguments_until, invalid_json, json_body};
use super::call_shape::strong_calls;
use super::horizon;
use super::json::describe_at;
use super::json::{MAX_DEPTH, parse_value};
use super::pythonic;
use super::record::Outcome;
use super::record::{Broken, Cx, RawCall};
use super::scan::{
    byte_at, clean_name, element_end, ends_by, find_cached, find_in, first_of, floor_boundary,
    name_end, past_close, plausible_name, skip_ws, starts_at, to_end,
};
use super::xml;
use mcs_core::call::CallFormat;

/// Mistral `[TOOL_CALLS]`: a JSON list (before v11), or `NAME{json}`, `NAME[ARGS]{json}`,
/// `NAME[CALL_ID]id[ARGS]{json}` (v11 and later), possibly several in a row.
pub(crate) fn mistral(cx: &mut Cx<'_>, start: usize, after: usize) -> Option<usize> {
    let text = cx.text;
    let format = CallFormat::Mistral;
    let p = skip_ws(text, after);
    if matches!(byte_at(text, p), Some(b'[' | b'{' | b'`')) {
        return Some(json_body(cx, p, None, format, "[TOOL_CALLS]"));
    }
    let mut pos = p;
    let mut found_any = false;
    loop {
        let name_start = skip_ws(text, pos);
        let end = name_end(text, name_start);
        let next = skip_ws(text, end);
        let continues = starts_at(text, next, "{")
            || starts_at(text, next, "[ARGS]")
            || starts_at(text, next, "[CALL_ID]");
        if end == name_start || !continues {
            if !found_any {
                let detail = format!(
                    "`[TOOL_CALLS]` is followed by {} instead of a call",
                    describe_at(text, name_start)
                );
                let broken = Broken::at(text, next, None, detail);
                cx.malformed(start, format, broken);
                return Some(to_end(text));
            }
            return Some(pos);
        }
        let name = clean_name(&text[name_start..end]);
        let mut q = next;
        let mut id = None;
        if starts_at(text, q, "[CALL_ID]") {
            let id_start = q + "[CALL_ID]".len();
            let Some(args) = find_in(text, id_start, text.len(), "[ARGS]") else {
                let detail = format!("the call to `{name}` has `[CALL_ID]` but no `[ARGS]`");
                cx.malformed(name_start, format, Broken::cut(Some(name), detail));
                return Some(to_end(text));
            };
            id = Some(text[id_start..args].trim().to_owned());
            q = args;
        }
        if starts_at(text, q, "[ARGS]") {
            q += "[ARGS]".len();
        }
        let (outcome, end) = arguments_until(cx, q, &name, id, |text, pos| {
            first_of(text, pos, &["[TOOL_CALLS]"])
        });
        cx.outcome(name_start, format, outcome);
        found_any = true;
        pos = skip_ws(text, end);
        if starts_at(text, pos, "[TOOL_CALLS]") {
            pos += "[TOOL_CALLS]".len();
        } else if starts_at(text, pos, ",") {
            pos += 1;
        }
    }
}

/// Llama 3.x `<|python_tag|>`: JSON calls separated by `;`, a pythonic list, or a built-in
/// tool call `brave_search.call(query="…")`.
pub(crate) fn llama3(cx: &mut Cx<'_>, _start: usize, after: usize) -> Option<usize> {
    let text = cx.text;
    let format = CallFormat::Llama3;
    let p = skip_ws(text, after);
    match byte_at(text, p) {
        Some(b'[') if pythonic::is_list_start(text, p) => {
            Some(pythonic::strong_list(cx, p, format))
        }
        Some(b'{' | b'[' | b'`') | None => Some(json_body(cx, p, None, format, "<|python_tag|>")),
        _ => Some(pythonic::strong_lines(cx, p, text.len(), format)),
    }
}

/// gpt-oss Harmony: `to=functions.NAME … <|message|>{json}<|call|>`.
pub(crate) fn harmony(cx: &mut Cx<'_>, start: usize, after: usize) -> Option<usize> {
    let text = cx.text;
    let format = CallFormat::Harmony;
    let end = name_end(text, after);
    let name = clean_name(&text[after..end]);
    // The header runs to `<|message|>`; it may hold a channel and `<|constrain|>json`.
    let header_limit = floor_boundary(text, (end + 256).min(text.len()));
    let message = find_in(text, end, header_limit, "<|message|>");
    // The server stripped the special tokens: `to=functions.NAME json{…}` (`<|constrain|>`
    // and `<|message|>` gone, `json` left), the arguments right after the header.
    if message.is_none() && plausible_name(&name) {
        // `to=functions.NAME<|channel|>commentary` stripped glues the channel to the name.
        let name = ["commentary", "analysis", "final"]
            .iter()
            .filter_map(|channel| name.strip_suffix(channel))
            .find(|stem| !cx.is_known(&name) && cx.is_known(stem))
            .map_or(name.clone(), str::to_owned);
        let mut p = skip_ws(text, end);
        if starts_at(text, p, "json") {
            p = skip_ws(text, p + "json".len());
        }
        if byte_at(text, p) == Some(b'{') {
            let (outcome, end) = arguments_until(cx, p, &name, None, |_, _| None);
            cx.outcome(start, format, outcome);
            return Some(end);
        }
    }
    let Some(message) = message else {
        if ends_by(text, header_limit) {
            let detail = format!("the output ends in the header addressed to `{name}`");
            cx.malformed(start, format, Broken::cut(Some(name), detail));
            return Some(to_end(text));
        }
        let detail = format!("the header addressed to `{name}` is not followed by `<|message|>`");
        cx.malformed(start, format, Broken::new(Some(name), detail));
        return Some(end);
    };
    if !plausible_name(&name) {
        cx.malformed(
            start,
            format,
            Broken::new(None, "the recipient has no tool name".to_owned()),
        );
        return Some(message);
    }
    let body = message + "<|message|>".len();
    let q = skip_ws(text, body);
    // An empty message ended by its own token: a call without arguments.
    let (outcome, end) = match ["<|call|>", "<|end|>"]
        .into_iter()
        .find(|token| starts_at(text, q, token))
    {
        Some(_) => {
            let call = RawCall {
                name,
                arguments: Value::Object(Map::new()),
                id: None,
                repaired: false,
            };
            (Ok(call), q)
        }
        None => arguments_until(cx, body, &name, None, |text, pos| {
            first_of(text, pos, &["<|call|>", "<|end|>", "<|start|>"])
        }),
    };
    cx.outcome(start, format, outcome);
    let p = skip_ws(text, end);
    Some(if starts_at(text, p, "<|call|>") {
        p + "<|call|>".len()
    } else {
        end
    })
}

/// Kimi's tokens found by their prefix `<|tool_call` (`start`): its section or its call;
/// any other token so written is not a call's start, and one still being written at the
/// end of the output is nothing yet.
pub(crate) fn kimi_tokens(cx: &mut Cx<'_>, start: usize, _after: usize) -> Option<usize> {
    const TOKENS: [&str; 2] = ["<|tool_calls_section_begin|>", "<|tool_call_begin|>"];
    let text = cx.text;
    if let Some(token) = TOKENS.iter().find(|token| starts_at(text, start, token)) {
        return kimi(cx, start, start + token.len());
    }
    let written = &text[start..];
    let growing = written.len() < TOKENS[0].len() && TOKENS.iter().any(|t| t.starts_with(written));
    (growing && ends_by(text, text.len())).then(|| to_end(text))
}

/// Inkling `<|message_model|>NAME<|content_invoke_tool_json|>{"name": NAME, "args": {…}}
/// <|end_message|>`: a message from the model addressed to a tool, whose JSON names the
/// tool again. Where the two names differ, which tool is meant cannot be told. A message of
/// text or thinking (`<|message_model|><|content_text|>`) is none of this reader's.
pub(crate) fn inkling(cx: &mut Cx<'_>, start: usize, after: usize) -> Option<usize> {
    const INVOKE: &str = "<|content_invoke_tool_json|>";
    const END: &str = "<|end_message|>";
    let format = CallFormat::Inkling;
    let text = cx.text;
    let limit = floor_boundary(text, after + 256);
    let header_end = find_in(text, after, limit, "<|");
    let Some(invoke) = header_end.filter(|&at| starts_at(text, at, INVOKE)) else {
        // The header, or its token, still being written.
        let rest = &text[header_end.unwrap_or(after)..];
        let growing = header_end.is_none() || INVOKE.starts_with(rest);
        return (growing && ends_by(text, text.len())).then(|| to_end(text));
    };
    let header = clean_name(&text[after..invoke]);
    let body = skip_ws(text, invoke + INVOKE.len());
    if ends_by(text, body) {
        let detail = format!("the output ends after `{INVOKE}`, before the call's JSON");
        let name = Some(header).filter(|name| !name.is_empty());
        cx.malformed(start, format, Broken::cut(name, detail));
        return Some(to_end(text));
    }
    let touches = horizon::touches();
    let parsed = match parse_value(text, body) {
        Ok(parsed) => parsed,
        Err(error) => {
            let broken = invalid_json(cx, body, &error, touches);
            cx.malformed(start, format, broken);
            return Some(past_close(
                text,
                find_cached(text, body, text.len(), END).unwrap_or(text.len()),
                END,
            ));
        }
    };
    let what = format!("the JSON after `{INVOKE}`");
    for outcome in strong_calls(&parsed.value, cx, parsed.repaired, &what) {
        let outcome = match outcome {
            Ok(call) if !header.is_empty() && call.name != header => {
                let detail = format!(
                    "the message is addressed to `{header}` but its JSON calls `{}`: which \
                     tool is meant cannot be told",
                    call.name
                );
                Err(Broken::new(Some(call.name), detail))
            }
            outcome => outcome,
        };
        cx.outcome(start, format, outcome);
    }
    Some(past_close(text, parsed.end, END))
}

/// Kimi K2 `<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX
/// <|tool_call_argument_begin|>{json}<|tool_call_end|>…<|tool_calls_section_end|>`.
pub(crate) fn kimi(cx: &mut Cx<'_>, start: usize, after: usize) -> Option<usize> {
    const BEGIN: &str = "<|tool_call_begin|>";
    const ARGS: &str = "<|tool_call_argument_begin|>";
    const END: &str = "<|tool_call_end|>";
    const SECTION_END: &str = "<|tool_calls_section_end|>";
    let text = cx.text;
    let format = CallFormat::KimiK2;
    // DeepSeek's call token written in ASCII (`<|tool_call_begin|>function<|tool_sep|>NAME`):
    // its separator comes where Kimi's id and argument token would.
    if starts_at(text, start, BEGIN) {
        let window = floor_boundary(text, after + 160);
        let sep = find_in(text, after, window, "<|tool_sep|>");
        if sep.is_some_and(|sep| find_in(text, after, sep, ARGS).is_none()) {
            return deepseek(cx, start, after);
        }
    }
    let mut pos = if starts_at(text, start, BEGIN) {
        start
    } else {
        after
    };
    let mut found_any = false;
    let in_section = !starts_at(text, start, BEGIN);
    loop {
        let mut p = skip_ws(text, pos);
        if starts_at(text, p, SECTION_END) {
            return Some(p + SECTION_END.len());
        }
        if !starts_at(text, p, BEGIN) && in_section {
            // Servers leave stray text between the markers of a section (K2.x): skipped,
            // as far as the next call or the section's end.
            let next = find_cached(text, p, text.len(), BEGIN);
            let end = find_cached(text, p, next.unwrap_or(text.len()), SECTION_END);
            match (next, end) {
                (_, Some(end)) => return Some(end + SECTION_END.len()),
                (Some(next), None) => p = next,
                (None, None) if found_any => return Some(to_end(text)),
                (None, None) => {}
            }
        }
        if !starts_at(text, p, BEGIN) {
            if !found_any {
                let detail = format!("expected `{BEGIN}`, found {}", describe_at(text, p));
                cx.malformed(p, format, Broken::new(None, detail));
                return Some(after_close(text, p, Some(SECTION_END), BEGIN));
            }
            return Some(p);
        }
        found_any = true;
        let id_start = p + BEGIN.len();
        // The id is short: `functions.NAME:IDX`.
        let (_, limit) = element_end(text, id_start, text.len(), END, BEGIN);
        let Some(args) = find_in(text, id_start, limit.min(id_start + 512), ARGS) else {
            let detail = format!("`{BEGIN}` is not followed by `{ARGS}`");
            if ends_by(text, limit.min(id_start + 512)) {
                cx.malformed(p, format, Broken::cut(None, detail));
                return Some(to_end(text));
            }
            cx.malformed(p, format, Broken::new(None, detail));
            return Some(after_close(text, id_start, Some(SECTION_END), BEGIN));
        };
        let id = text[id_start..args].trim();
        let named = kimi_name(cx, id);
        let (mut outcome, end) = arguments_until(
            cx,
            args + ARGS.len(),
            named.as_deref().unwrap_or(id),
            Some(id.to_owned()),
            |text, pos| first_of(text, pos, &[END, BEGIN, SECTION_END]),
        );
        if named.is_none() {
            outcome = outcome.and_then(|call| match cx.tool_taking(&call.arguments) {
                Some(name) => Ok(RawCall { name, ..call }),
                None => Err(Broken::new(
                    None,
                    format!(
                        "the call `{id}` names no tool, and its arguments are not those of \
                         exactly one tool"
                    ),
                )),
            });
        }
        cx.outcome(p, format, outcome);
        pos = past_close(text, end, END);
    }
}

/// The tool a Kimi call id names (`functions.get_weather:0` → `get_weather`), or `None`
/// when the id names none: only an index (`0`), or an id of another kind than Kimi's
/// (`call_3`, `toolu_01…`: a model that copied the ids of a client's earlier calls) that
/// is no tool's name. The tool is then the one the arguments fit. An index written after
/// a dot (`functions.get_weather.1`) is an index too, and a namespace other than
/// `functions.` (`tools.search:0`) is dropped, unless the whole dotted name is a tool's.
fn kimi_name(cx: &Cx<'_>, id: &str) -> Option<String> {
    let index = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mut rest = id;
    let mut indexed = false;
    for separator in [':', '.'] {
        if let Some((head, tail)) = rest.rsplit_once(separator)
            && index(tail)
        {
            rest = head;
            indexed = true;
            break;
        }
    }
    let kimi = indexed || id.starts_with("functions.");
    let cleaned = clean_name(rest);
    // A tool whose own name holds dots (`fs.read_file`) is that tool; else the namespace
    // is dropped.
    let name = if cx.is_known(&cleaned) {
        &cleaned
    } else {
        cleaned.rsplit('.').next().unwrap_or(&cleaned)
    };
    if name.is_empty() || index(name) || (!kimi && !cx.is_known(name)) {
        return None;
    }
    Some(name.to_owned())
}

/// The first DeepSeek token at or after `from`: where it starts, its normalized name and
/// where it ends.
fn next_deepseek_token(text: &str, from: usize) -> Option<(usize, String, usize)> {
    let mut search = from;
    while let Some(offset) = memchr::memchr(b'<', &text.as_bytes()[search..]) {
        let at = search + offset;
        if let Some((name, end)) = deepseek_token(text, at) {
            return Some((at, name, end));
        }
        search = at + 1;
    }
    None
}

/// A DeepSeek special token at `pos` (`<｜…｜>`, also with ASCII bars): its name with `▁`,
/// spaces and `-` turned into `_`, and its end.
fn deepseek_token(text: &str, pos: usize) -> Option<(String, usize)> {
    let open_len = if starts_at(text, pos, "<｜") {
        "<｜".len()
    } else if starts_at(text, pos, "<|") {
        2
    } else {
        return None;
    };
    let inner_start = pos + open_len;
    let limit = floor_boundary(text, (inner_start + 64).min(text.len()));
    let window = &text[inner_start..limit];
    let (inner_len, close_len) = match (window.find("｜>"), window.find("|>")) {
        (Some(a), Some(b)) if b < a => (b, 2),
        (Some(a), _) => (a, "｜>".len()),
        (None, Some(b)) => (b, 2),
        (None, None) => {
            horizon::reached(text, limit);
            return None;
        }
    };
    let name = window[..inner_len]
        .chars()
        .map(|c| {
            if matches!(c, '▁' | ' ' | '-') {
                '_'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect();
    Some((name, inner_start + inner_len + close_len))
}

/// DeepSeek V3 / R1 / V3.1: `<｜tool▁calls▁begin｜>` then per call
/// `<｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME⏎```json⏎{…}⏎```<｜tool▁call▁end｜>` (V3)
/// or `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>` (V3.1), then
/// `<｜tool▁calls▁end｜>`. Mangled openers (`tool_calls_begin`, `tool calls begin`,
/// `tool▁calls`) are accepted like llama.cpp does.
pub(crate) fn deepseek(cx: &mut Cx<'_>, start: usize, _after: usize) -> Option<usize> {
    let text = cx.text;
    let format = CallFormat::DeepSeek;
    let (opener, opener_end) = deepseek_token(text, start)?;
    let mut pos = match opener.as_str() {
        "tool_calls_begin" | "tool_calls" => opener_end,
        "tool_call_begin" => start,
        _ => return None,
    };
    // Nothing of a call written yet.
    if ends_by(text, skip_ws(text, opener_end)) {
        return Some(to_end(text));
    }
    let mut found_any = false;
    loop {
        let p = skip_ws(text, pos);
        let token = deepseek_token(text, p);
        match token.as_ref().map(|(name, end)| (name.as_str(), *end)) {
            Some(("tool_calls_end", end)) => return Some(end),
            Some(("tool_call_begin", begin_end)) => {
                found_any = true;
                pos = deepseek_call(cx, p, begin_end);
            }
            // Step 3 puts the separator between calls too; a section opened again
            // before the next call (its close left out) goes on.
            Some(("tool_sep" | "tool_calls_begin", token_end)) if found_any => pos = token_end,
            _ if !found_any => {
                let detail = format!(
                    "expected `<｜tool▁call▁begin｜>`, found {}",
                    describe_at(text, p)
                );
                let broken = Broken::at(text, p + 64, None, detail);
                cx.malformed(start, format, broken);
                return Some(to_end(text));
            }
            _ => return Some(p),
        }
    }
}

/// One DeepSeek call from its `tool_call_begin` token; returns where it ends.
fn deepseek_call(cx: &mut Cx<'_>, begin: usize, begin_end: usize) -> usize {
    let text = cx.text;
    let format = CallFormat::DeepSeek;
    let first = skip_ws(text, begin_end);
    if starts_at(text, first, xml::STEPTML_INVOKE) {
        return step3_call(cx, first);
    }
    // The separator token: the first special token after the call's start.
    let first_token = next_deepseek_token(text, begin_end);
    let ran_out = first_token.is_none();
    let sep = first_token
        .filter(|(_, name, _)| name == "tool_sep")
        .map(|(at, _, end)| (at, end));
    let Some((sep_start, sep_end)) = sep else {
        let detail = "`<｜tool▁call▁begin｜>` is not followed by `<｜tool▁sep｜>`".to_owned();
        let broken = if ran_out {
            horizon::reached(text, text.len());
            Broken::cut(None, detail)
        } else {
            Broken::new(None, detail)
        };
        cx.malformed(begin, format, broken);
        return to_end(text);
    };
    let before_sep = text[begin_end..sep_start].trim();
    let p = skip_ws(text, sep_end);
    let (name, args_at) = if byte_at(text, p) == Some(b'{') || before_sep != "function" {
        // V3.1: the name comes before the separator.
        (clean_name(before_sep), p)
    } else {
        // V3: `function`, separator, name, then a fenced JSON block.
        let end = name_end(text, p);
        let mut q = skip_ws(text, end);
        if starts_at(text, q, "```") {
            q = memchr::memchr(b'\n', &text.as_bytes()[q..])
                .map_or_else(|| to_end(text), |i| q + i + 1);
        }
        (clean_name(&text[p..end]), q)
    };
    // Step 3 may also write `function<｜tool_sep｜>NAME` before its invoke.
    if starts_at(text, args_at, xml::STEPTML_INVOKE) {
        return step3_call(cx, args_at);
    }
    if !plausible_name(&name) {
        let detail = format!("no tool name before {}", describe_at(text, args_at));
        cx.malformed(begin, format, Broken::new(None, detail));
        return to_end(text);
    }
    let (outcome, end) = arguments_until(cx, args_at, &name, None, |text, pos| {
        let mut from = pos;
        while let Some((at, token, end)) = next_deepseek_token(text, from) {
            if matches!(
                token.as_str(),
                "tool_call_end" | "tool_call_begin" | "tool_calls_end"
            ) {
                return Some(at);
            }
            from = end;
        }
        None
    });
    cx.outcome(begin, format, outcome);
    let mut q = skip_ws(text, end);
    if starts_at(text, q, "```") {
        q = skip_ws(text, q + 3);
    }
    match deepseek_token(text, q) {
        Some((token, token_end)) if token == "tool_call_end" => token_end,
        _ => q,
    }
}

/// StepFun Step 3's `<steptml:invoke>` blocks at `pos`, inside DeepSeek's call tokens;
/// returns where the call ends (after its `tool_call_end` token, when it has one).
fn step3_call(cx: &mut Cx<'_>, pos: usize) -> usize {
    let end = xml::steptml_invokes(cx, pos);
    let q = skip_ws(cx.text, end);
    match deepseek_token(cx.text, q) {
        Some((token, token_end)) if token == "tool_call_end" => token_end,
        _ => end,
    }
}

/// PLaMo 3's tokens, in the order a call writes them.
mod plamo_tokens {
    pub(super) const REQUESTS: &str = "<|plamo:begin_tool_requests:plamo|>";
    pub(super) const REQUESTS_END: &str = "<|plamo:end_tool_requests:plamo|>";
    pub(super) const REQUEST: &str = "<|plamo:begin_tool_request:plamo|>";
    pub(super) const NAME: &str = "<|plamo:begin_tool_name:plamo|>";
    pub(super) const NAME_END: &str = "<|plamo:end_tool_name:plamo|>";
    pub(super) const ARGUMENTS: &str = "<|plamo:begin_tool_arguments:plamo|>";
    pub(super) const CONSTRAIN: &str = "<|plamo:constrain|>";
    pub(super) const MESSAGE: &str = "<|plamo:msg|>";
    pub(super) const ARGUMENTS_END: &str = "<|plamo:end_tool_arguments:plamo|>";
    pub(super) const REQUEST_END: &str = "<|plamo:end_tool_request:plamo|>";
}

/// PLaMo 3: `<|plamo:begin_tool_requests:plamo|>` around requests, each
/// `<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>NAME<|plamo:end_tool_name:plamo|>
/// <|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{…}
/// <|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>`; a request alone is
/// read too.
pub(crate) fn plamo(cx: &mut Cx<'_>, start: usize, _after: usize) -> Option<usize> {
    use plamo_tokens::{NAME, REQUEST, REQUESTS, REQUESTS_END};
    let text = cx.text;
    let in_section = starts_at(text, start, REQUESTS);
    let mut pos = if in_section {
        start + REQUESTS.len()
    } else {
        start
    };
    let mut found = false;
    loop {
        let p = skip_ws(text, pos);
        if in_section && starts_at(text, p, REQUESTS_END) {
            return Some(p + REQUESTS_END.len());
        }
        // A request's own token may be left out in the section: its name's opens it.
        let request = starts_at(text, p, REQUEST) || (in_section && starts_at(text, p, NAME));
        if !request {
            if found {
                return Some(p);
            }
            let detail = format!(
                "`{REQUESTS}` is followed by {} instead of a request",
                describe_at(text, p)
            );
            let broken = Broken::at(text, p, None, detail);
            cx.malformed(start, CallFormat::Plamo, broken);
            return Some(
                find_cached(text, p, text.len(), REQUESTS_END)
                    .map_or_else(|| to_end(text), |at| at + REQUESTS_END.len()),
            );
        }
        found = true;
        pos = plamo_request(cx, p);
        if !in_section {
            return Some(pos);
        }
    }
}

/// One PLaMo 3 request from its token at `begin` (or, that token left out, from its name's);
/// returns where it ends.
fn plamo_request(cx: &mut Cx<'_>, begin: usize) -> usize {
    use plamo_tokens::{
        ARGUMENTS, ARGUMENTS_END, CONSTRAIN, MESSAGE, NAME, NAME_END, REQUEST, REQUEST_END,
    };
    let text = cx.text;
    let format = CallFormat::Plamo;
    let skip = |from: usize| {
        find_cached(text, from, text.len(), REQUEST_END)
            .map_or_else(|| to_end(text), |at| at + REQUEST_END.len())
    };
    let broken = |cx: &mut Cx<'_>, name: Option<&str>, at: usize, what: &str| {
        let detail = format!("expected {what}, found {}", describe_at(text, at));
        let broken = Broken::at(text, at, name.map(str::to_owned), detail);
        cx.malformed(begin, format, broken);
        if ends_by(text, at) {
            to_end(text)
        } else {
            skip(at)
        }
    };
    let whole = starts_at(text, begin, REQUEST);
    let p = if whole {
        skip_ws(text, begin + REQUEST.len())
    } else {
        begin
    };
    if !starts_at(text, p, NAME) {
        return broken(cx, None, p, &format!("`{NAME}`"));
    }
    let name_start = p + NAME.len();
    let limit = floor_boundary(text, name_start + 256);
    let Some(name_close) = find_in(text, name_start, limit, NAME_END) else {
        return broken(cx, None, limit.min(to_end(text)), &format!("`{NAME_END}`"));
    };
    let name = clean_name(&text[name_start..name_close]);
    if !plausible_name(&name) {
        let detail = "the request has no usable tool name".to_owned();
        cx.malformed(begin, format, Broken::new(None, detail));
        return skip(name_close);
    }
    let mut q = skip_ws(text, name_close + NAME_END.len());
    if !starts_at(text, q, ARGUMENTS) {
        return broken(cx, Some(&name), q, &format!("`{ARGUMENTS}`"));
    }
    q = skip_ws(text, q + ARGUMENTS.len());
    // `<|plamo:constrain|>json<|plamo:msg|>`: what the arguments are written in.
    if starts_at(text, q, CONSTRAIN) {
        q = skip_ws(text, name_end(text, skip_ws(text, q + CONSTRAIN.len())));
    }
    if starts_at(text, q, MESSAGE) {
        q += MESSAGE.len();
    }
    let (mut outcome, end) = arguments_until(cx, q, &name, None, |text, pos| {
        first_of(text, pos, &[ARGUMENTS_END, REQUEST_END])
    });
    if let Ok(call) = &mut outcome {
        call.repaired |= !whole;
    }
    cx.outcome(begin, format, outcome);
    let mut r = end;
    for token in [ARGUMENTS_END, REQUEST_END] {
        let t = skip_ws(text, r);
        if starts_at(text, t, token) {
            r = t + token.len();
        }
    }
    r
}

/// Functionary v3.2 `>>>NAME⏎{json}`; `>>>all` starts ordinary text.
pub(crate) fn functionary(cx: &mut Cx<'_>, start: usize, after: usize) -> Option<usize> {
    let text = cx.text;
    // Only at the start of a line (or of the output, after blank space): `>>>` inside a
    // line is a quote or a Python prompt.
    if start > 0 && byte_at(text, start - 1) != Some(b'\n') && !text[..start].trim().is_empty() {
        return None;
    }
    let end = name_end(text, after);
    if end == after || &text[after..end] == "all" {
        return None;
    }
    let Some(line_end) = memchr::memchr(b'\n', &text.as_bytes()[end..]).map(|i| end + i) else {
        horizon::reached(text, text.len());
        return None;
    };
    if !text[end..line_end].trim().is_empty()
        || byte_at(text, skip_ws(text, line_end)) != Some(b'{')
    {
        return None;
    }
    let name = clean_name(&text[after..end]);
    let (outcome, end) = arguments_until(cx, line_end, &name, None, |text, pos| {
        first_of(text, pos, &["\n>>>"])
    });
    cx.outcome(start, CallFormat::Functionary, outcome);
    Some(end)
}

/// Gemma 4 `<|tool_call>call:NAME{key:<|"|>text<|"|>,n:3,o:{a:[1,<|"|>t<|"|>]}}<tool_call|>`:
/// strings are delimited by `<|"|>` only, so anything may stand in them (quotes, braces,
/// the closing `<tool_call|>`); keys are bare and may hold spaces. The arguments are read
/// by their own structure, so the call ends where its braces close.
pub(crate) fn gemma4(cx: &mut Cx<'_>, start: usize, after: usize) -> Option<usize> {
    let text = cx.text;
    let mut p = skip_ws(text, after);
    // `<|tool_call>:call:NAME{…}`: a stray colon some outputs carry; `<|tool_call>:NAME{…}`
    // has lost `call` before it (read as when `call:` is left out).
    if starts_at(text, p, ":") {
        p += 1;
    }
    gemma_call_after(cx, start, p, &Gemma::GEMMA4)
}

/// FunctionGemma `<start_function_call>call:NAME{key:<escape>text<escape>}<end_function_call>`:
/// Gemma 4's syntax with its own string quote and close.
pub(crate) fn function_gemma(cx: &mut Cx<'_>, start: usize, after: usize) -> Option<usize> {
    let p = skip_ws(cx.text, after);
    gemma_call_after(cx, start, p, &Gemma::FUNCTION_GEMMA)
}

/// `call:NAME{…}` at `p`, after the opener at `start`.
fn gemma_call_after(cx: &mut Cx<'_>, start: usize, p: usize, dialect: &Gemma) -> Option<usize> {
    let text = cx.text;
    if starts_at(text, p, "call:") {
        let end = gemma4_call(cx, start, p + "call:".len(), false, dialect);
        return Some(gemma_calls_after(cx, end, dialect));
    }
    // `<|tool_call>get_weather{…}`: `call:` left out by a small model; the name and its
    // braces say the same (a repair).
    let name_end = name_end(text, p);
    if name_end > p && byte_at(text, name_end) == Some(b'{') {
        let end = gemma4_call(cx, start, p, true, dialect);
        return Some(gemma_calls_after(cx, end, dialect));
    }
    let detail = format!(
        "expected `call:NAME{{…}}` after `{}`, found {}",
        &text[start..p].trim_end(),
        describe_at(text, p)
    );
    cx.malformed(start, dialect.format, Broken::new(None, detail));
    Some(dialect.past_close(text, p))
}

/// The calls that follow one in the same block (`call:a{…}call:b{…}<tool_call|>`), the
/// first of them ending at `end`; returns where the last one's region ends.
fn gemma_calls_after(cx: &mut Cx<'_>, end: usize, dialect: &Gemma) -> usize {
    let text = cx.text;
    let mut end = end;
    loop {
        let next = skip_ws(text, end);
        if text[..end].ends_with(dialect.close) || !starts_at(text, next, "call:") {
            return end;
        }
        end = gemma4_call(cx, next, next + "call:".len(), false, dialect);
    }
}

/// What sets the Gemma call syntaxes apart: the token that quotes a string and the call's
/// close.
struct Gemma {
    quote: &'static str,
    close: &'static str,
    format: CallFormat,
}

impl Gemma {
    const GEMMA4: Gemma = Gemma {
        quote: "<|\"|>",
        close: "<tool_call|>",
        format: CallFormat::Gemma4,
    };
    const FUNCTION_GEMMA: Gemma = Gemma {
        quote: "<escape>",
        close: "<end_function_call>",
        format: CallFormat::Gemma4,
    };

    /// Where reading goes on after a broken call: past the next close, or at the end.
    fn past_close(&self, text: &str, from: usize) -> usize {
        find_cached(text, from, text.len(), self.close)
            .map_or_else(|| to_end(text), |at| at + self.close.len())
    }
}

/// A Gemma 4 call written without `<|tool_call>`: `call:NAME{…}` at the start of a line or
/// right after the thought channel's `<channel|>`, as Gemma 4 sometimes writes it and
/// vLLM reads it. Only for a known tool, or when the call's strings are Gemma's `<|"|>`:
/// `call:` is also a word of prose.
pub(crate) fn gemma4_bare(cx: &mut Cx<'_>, start: usize, after: usize) -> Option<usize> {
    let dialect = &Gemma::GEMMA4;
    let text = cx.text;
    let before = text[..start].trim_end_matches([' ', '\t']);
    let placed = before.is_empty() || before.ends_with('\n') || before.ends_with("<channel|>");
    let name_end = name_end(text, after);
    if !placed || byte_at(text, name_end) != Some(b'{') || name_end == after {
        return None;
    }
    let name = clean_name(&text[after..name_end]);
    let line_end =
        memchr::memchr(b'\n', &text.as_bytes()[name_end..]).map_or(text.len(), |i| name_end + i);
    if !cx.is_known(&name) && find_in(text, name_end, line_end, dialect.quote).is_none() {
        return None;
    }
    Some(gemma4_call(cx, start, after, false, dialect))
}

/// Reads `NAME{…}` of `call:NAME{…}`, the name starting at `name_start` and the call's
/// record placed at `start` (`repaired` when `call:` was left out); returns the end of its
/// region (after the dialect's close when it follows).
fn gemma4_call(
    cx: &mut Cx<'_>,
    start: usize,
    name_start: usize,
    repaired: bool,
    dialect: &Gemma,
) -> usize {
    let close = dialect.close;
    let text = cx.text;
    let format = dialect.format;
    let skip = |text: &str, from: usize| dialect.past_close(text, from);
    let Some(brace) = find_in(text, name_start, (name_start + 256).min(text.len()), "{") else {
        let detail = "the call has no `{` after its name".to_owned();
        let broken = Broken::at(text, name_start + 256, None, detail);
        cx.malformed(start, format, broken);
        return skip(text, name_start);
    };
    let name = clean_name(&text[name_start..brace]);
    let mut bare = false;
    let outcome = match gemma_value(text, brace, 0, dialect.quote, &mut bare) {
        _ if !plausible_name(&name) => {
            Err(Broken::new(None, "the call has no tool name".to_owned()))
        }
        Ok((arguments @ Value::Object(_), end)) => {
            let call = RawCall {
                name,
                arguments,
                id: None,
                repaired: repaired || bare,
            };
            cx.outcome(start, format, Ok(call));
            return past_close(text, end, close);
        }
        Ok(_) => unreachable_object(&name),
        Err(GemmaError::CutOff) => {
            let detail = format!(
                "the output ends at {} inside the arguments of `{name}`",
                cx.at(text.len())
            );
            cx.outcome(start, format, Err(Broken::cut(Some(name), detail)));
            return to_end(text);
        }
        Err(GemmaError::At(pos, message)) => {
            let detail = format!(
                "cannot read the arguments of `{name}` at {}: {message}",
                cx.at(pos)
            );
            Err(Broken::new(Some(name), detail))
        }
    };
    cx.outcome(start, format, outcome);
    skip(text, brace)
}

/// The outcome for arguments that are not an object (the reader only starts one at `{`).
fn unreachable_object(name: &str) -> Outcome {
    Err(Broken::new(
        Some(name.to_owned()),
        format!("the arguments of `{name}` must be an object"),
    ))
}

/// Why Gemma 4 arguments could not be read.
enum GemmaError {
    /// The output ends inside them.
    CutOff,
    /// Something else is wrong at this offset.
    At(usize, String),
}

/// The Gemma 4 value at `pos` and where it ends, its strings quoted by `quote`. A word
/// left unquoted (`label:hello`, `{language:python}`) is the string it spells, as vLLM
/// reads it; `bare` is set when one was.
fn gemma_value(
    text: &str,
    pos: usize,
    depth: usize,
    quote: &str,
    bare: &mut bool,
) -> Result<(Value, usize), GemmaError> {
    if depth > MAX_DEPTH {
        return Err(GemmaError::At(
            pos,
            format!("nested more than {MAX_DEPTH} levels deep"),
        ));
    }
    let p = skip_ws(text, pos);
    let at_end = |q: usize| ends_by(text, q);
    if starts_at(text, p, quote) {
        let from = p + quote.len();
        let close = find_in(text, from, text.len(), quote).ok_or(GemmaError::CutOff)?;
        return Ok((
            Value::String(text[from..close].to_owned()),
            close + quote.len(),
        ));
    }
    match byte_at(text, p) {
        None => Err(GemmaError::CutOff),
        Some(b'{') => {
            let mut map = Map::new();
            let mut q = skip_ws(text, p + 1);
            loop {
                if at_end(q) {
                    return Err(GemmaError::CutOff);
                }
                if byte_at(text, q) == Some(b'}') {
                    return Ok((Value::Object(map), q + 1));
                }
                let (key, after_key) = if starts_at(text, q, quote) {
                    match gemma_value(text, q, depth + 1, quote, bare)? {
                        (Value::String(key), end) => (key, end),
                        _ => return Err(GemmaError::At(q, "a key must be a string".to_owned())),
                    }
                } else {
                    // A bare key runs to its `:`.
                    let colon = text[q..]
                        .find([':', '{', '}', '[', ']', ','])
                        .map(|i| q + i)
                        .ok_or_else(|| {
                            horizon::reached(text, text.len());
                            GemmaError::CutOff
                        })?;
                    (text[q..colon].trim().to_owned(), colon)
                };
                let colon = skip_ws(text, after_key);
                match byte_at(text, colon) {
                    Some(b':') => {}
                    None => return Err(GemmaError::CutOff),
                    Some(_) => {
                        let found = describe_at(text, colon);
                        return Err(GemmaError::At(
                            colon,
                            format!("expected `:` after the key `{key}`, found {found}"),
                        ));
                    }
                }
                let (value, end) = gemma_value(text, colon + 1, depth + 1, quote, bare)?;
                map.insert(key, value);
                q = skip_ws(text, end);
                match byte_at(text, q) {
                    Some(b',') => q = skip_ws(text, q + 1),
                    Some(b'}') => {}
                    None => return Err(GemmaError::CutOff),
                    Some(_) => {
                        let found = describe_at(text, q);
                        return Err(GemmaError::At(
                            q,
                            format!("expected `,` or `}}`, found {found}"),
                        ));
                    }
                }
            }
        }
        Some(b'[') => {
            let mut items = Vec::new();
            let mut q = skip_ws(text, p + 1);
            loop {
                if at_end(q) {
                    return Err(GemmaError::CutOff);
                }
                if byte_at(text, q) == Some(b']') {
                    return Ok((Value::Array(items), q + 1));
                }
                let (value, end) = gemma_value(text, q, depth + 1, quote, bare)?;
                items.push(value);
                q = skip_ws(text, end);
                match byte_at(text, q) {
                    Some(b',') => q = skip_ws(text, q + 1),
                    Some(b']') => {}
                    None => return Err(GemmaError::CutOff),
                    Some(_) => {
                        let found = describe_at(text, q);
                        return Err(GemmaError::At(
                            q,
                            format!("expected `,` or `]`, found {found}"),
                        ));
                    }
                }
            }
        }
        Some(_) => {
            // A number, `true`, `false` or `null`, up to what ends it.
            let end = text[p..]
                .find([',', '}', ']'])
                .map(|i| p + i)
                .ok_or_else(|| {
                    horizon::reached(text, text.len());
                    GemmaError::CutOff
                })?;
            let token = text[p..end].trim();
            if let Some(value) = serde_json::from_str::<Value>(token)
                .ok()
                .filter(|value| !value.is_object() && !value.is_array())
            {
                return Ok((value, end));
            }
            // Words on one line, without what would make them markup or a broken string.
            let word = !token.is_empty()
                && !token.contains(['\n', '"', '\'', '<', '>', '{', '[', ':', '`'])
                && !token.contains(quote);
            if !word {
                return Err(GemmaError::At(p, format!("`{token}` is not a value")));
            }
            *bare = true;
            Ok((Value::String(token.to_owned()), end))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deepseek_tokens_are_normalized() {
        for (text, name) in [
            ("<｜tool▁calls▁begin｜>", "tool_calls_begin"),
            ("<｜tool calls begin｜>x", "tool_calls_begin"),
            ("<｜tool_calls_begin｜>", "tool_calls_begin"),
            ("<|tool▁sep|>", "tool_sep"),
            ("<｜end▁of▁sentence｜>", "end_of_sentence"),
        ] {
            let (got, end) = deepseek_token(text, 0).unwrap();
            assert_eq!(got, name);
            assert!(text.is_char_boundary(end) && text[..end].ends_with('>'));
        }
        assert_eq!(deepseek_token("<｜never closed", 0), None);
        assert_eq!(deepseek_token("plain", 0), None);
    }
}
