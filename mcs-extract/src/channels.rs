//! Formats made of named sections: Kimi K3's `<|open|>NAME<|sep|>…<|close|>NAME<|sep|>`
//! calls, and the prose channels of Harmony (`final`), Kimi K3 (`response`, `message`),
//! Command-R (`<|START_RESPONSE|>`) and ReAct (`Final Answer:`), whose text is the model's
//! answer: JSON written there is an answer, never a call, so a prose channel is read as a
//! region that holds none. Also the results a model made up (`<tool_response>`,
//! `Observation:`), after which nothing the output holds is taken.

use serde_json::{Map, Value};

use super::horizon;
use super::json::describe_at;
use super::markdown::Context;
use super::record::{Broken, Cx, Outcome, RawCall};
use super::scan::{
    clean_name, ends_by, find_cached, find_in, past_close, plausible_name, skip_ws, starts_at,
    to_end,
};
use super::xml::{
    ValueEnd, ambiguous, attribute, given_twice, insert_once, typed_value, value_end,
};
use mcs_core::call::CallFormat;

const TOOLS_CLOSE: &str = "<|close|>tools<|sep|>";
const CALL_OPEN: &str = "<|open|>call";
const CALL_CLOSE: &str = "<|close|>call<|sep|>";
const ARGUMENT_OPEN: &str = "<|open|>argument";
const ARGUMENT_CLOSE: &str = "<|close|>argument<|sep|>";
const SEP: &str = "<|sep|>";
const JSON_OPEN: &str = "<|open|>json";
const JSON_CLOSE: &str = "<|close|>json<|sep|>";

/// Kimi K3 `<|open|>tools<|sep|>` around `<|open|>call tool="NAME" index="1"<|sep|>` calls,
/// each with `<|open|>argument key="K" type="string"<|sep|>v<|close|>argument<|sep|>`
/// values (`type` is the value's JSON type: a string is raw text, anything else JSON);
/// also a call without the `tools` section.
pub(crate) fn kimi_k3(cx: &mut Cx<'_>, start: usize, after: usize) -> Option<usize> {
    let text = cx.text;
    let format = CallFormat::KimiK3;
    let wrapped = !starts_at(text, start, CALL_OPEN);
    let mut pos = if wrapped { after } else { start };
    let mut found_any = false;
    loop {
        let p = skip_ws(text, pos);
        if wrapped && starts_at(text, p, TOOLS_CLOSE) {
            if !found_any {
                let broken = Broken::new(None, "the `tools` section holds no call".to_owned());
                cx.malformed(p, format, broken);
            }
            return Some(p + TOOLS_CLOSE.len());
        }
        if !starts_at(text, p, CALL_OPEN) {
            if found_any || ends_by(text, p) {
                return Some(p);
            }
            let detail = format!(
                "expected `{CALL_OPEN} tool=…`, found {}",
                describe_at(text, p)
            );
            cx.malformed(p, format, Broken::new(None, detail));
            let close = find_cached(text, p, text.len(), TOOLS_CLOSE);
            return Some(close.map_or_else(|| to_end(text), |at| at + TOOLS_CLOSE.len()));
        }
        found_any = true;
        let Some(sep) = find_in(text, p, (p + 512).min(text.len()), SEP) else {
            let detail = format!("a `{CALL_OPEN}` header is not closed with `{SEP}`");
            let broken = Broken::at(text, p + 512, None, detail);
            cx.malformed(p, format, broken);
            return Some(to_end(text));
        };
        let header = &text[p + CALL_OPEN.len()..sep];
        let name = clean_name(&attribute(header, "tool").unwrap_or_default());
        let (outcome, end) = arguments(cx, &name, sep + SEP.len());
        if plausible_name(&name) {
            cx.outcome(p, format, outcome);
        } else {
            let detail = "the call has no usable `tool` attribute".to_owned();
            cx.malformed(p, format, Broken::new(None, detail));
        }
        pos = end;
        if ends_by(text, end) {
            return Some(end);
        }
    }
}

/// The arguments of a K3 call to `name` from `start` to its `<|close|>call<|sep|>`;
/// returns the call and where it ends.
fn arguments(cx: &Cx<'_>, name: &str, start: usize) -> (Outcome, usize) {
    let text = cx.text;
    let tool = cx.tool(name);
    let mut arguments = Map::new();
    // A parameter given twice with two values, when one is.
    let mut twice: Option<String> = None;
    let mut repaired = false;
    let mut pos = start;
    let cut = |what: &str| {
        let detail = format!(
            "the output ends at {} inside the call to `{name}`, {what}",
            cx.at(text.len())
        );
        (
            Err(Broken::cut(Some(name.to_owned()), detail)),
            to_end(text),
        )
    };
    loop {
        let p = skip_ws(text, pos);
        if ends_by(text, p) {
            return cut("before `<|close|>call<|sep|>`");
        }
        if starts_at(text, p, CALL_CLOSE) {
            pos = p + CALL_CLOSE.len();
            break;
        }
        if starts_at(text, p, CALL_OPEN) || starts_at(text, p, TOOLS_CLOSE) {
            // Left open; what follows ends it.
            pos = p;
            break;
        }
        // The arguments as one JSON object: `<|open|>json type="object"<|sep|>{…}`.
        if arguments.is_empty() && starts_at(text, p, JSON_OPEN) {
            let Some(sep) = find_in(text, p, (p + 512).min(text.len()), SEP) else {
                return cut("in the header of its JSON");
            };
            let (outcome, end) = super::call_body::arguments_at(cx, sep + SEP.len(), name, None);
            if outcome.is_err() {
                return (outcome, end);
            }
            let end = past_close(text, end, JSON_CLOSE);
            let q = skip_ws(text, end);
            if ends_by(text, q) {
                return cut("before `<|close|>call<|sep|>`");
            }
            return (outcome, past_close(text, end, CALL_CLOSE));
        }
        let header_end = starts_at(text, p, ARGUMENT_OPEN)
            .then(|| find_in(text, p, (p + 512).min(text.len()), SEP))
            .flatten();
        let Some(sep) = header_end else {
            if starts_at(text, p, ARGUMENT_OPEN) && ends_by(text, p + 512) {
                return cut("in an argument header");
            }
            let detail = format!(
                "unexpected {} in `{name}` at {}, expected `{ARGUMENT_OPEN} key=…`",
                describe_at(text, p),
                cx.at(p)
            );
            let end = find_cached(text, p, text.len(), CALL_CLOSE)
                .map_or_else(|| to_end(text), |at| at + CALL_CLOSE.len());
            return (Err(Broken::new(Some(name.to_owned()), detail)), end);
        };
        let header = &text[p + ARGUMENT_OPEN.len()..sep];
        let Some(key) = attribute(header, "key") else {
            let detail = format!("an argument of `{name}` has no `key` at {}", cx.at(p));
            let end = find_cached(text, p, text.len(), CALL_CLOSE)
                .map_or_else(|| to_end(text), |at| at + CALL_CLOSE.len());
            return (Err(Broken::new(Some(name.to_owned()), detail)), end);
        };
        let value_start = sep + SEP.len();
        let after = [ARGUMENT_OPEN, CALL_CLOSE, CALL_OPEN, TOOLS_CLOSE];
        let value_end = match value_end(text, value_start, ARGUMENT_CLOSE, &after, &[], &[]) {
            ValueEnd::Closed { end, next } => {
                pos = next;
                end
            }
            ValueEnd::Ambiguous => {
                let resume = find_cached(text, value_start, text.len(), CALL_CLOSE)
                    .map_or_else(|| to_end(text), |at| at + CALL_CLOSE.len());
                return ambiguous(name, &key, ARGUMENT_CLOSE, resume);
            }
            // No `instead` markers: a value without its close runs to the end.
            ValueEnd::Unclosed(_) | ValueEnd::Foreign | ValueEnd::CutOff => {
                return cut(&format!("in the value of `{key}`"));
            }
        };
        let raw = &text[value_start..value_end];
        let string = attribute(header, "type").map(|kind| kind == "string");
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

/// A channel whose text is the answer.
struct Prose {
    opener: &'static str,
    /// The markers that close it.
    closers: &'static [&'static str],
    /// What ends it when its close was left out: the next section's opening, which is
    /// read as its own.
    next: &'static [&'static str],
}

/// The channels whose text is the answer.
const PROSE: &[Prose] = &[
    Prose {
        opener: "<|channel|>final<|message|>",
        closers: &["<|return|>", "<|end|>", "<|start|>", "<|call|>"],
        next: &[],
    },
    // Kimi K3's sections follow one another: a section opened (`<|open|>tools<|sep|>`)
    // ends an answer left open.
    Prose {
        opener: "<|open|>response<|sep|>",
        closers: &["<|close|>response<|sep|>"],
        next: &["<|open|>"],
    },
    Prose {
        opener: "<|open|>message<|sep|>",
        closers: &["<|close|>message<|sep|>"],
        next: &["<|open|>"],
    },
    Prose {
        opener: "<|START_RESPONSE|>",
        closers: &["<|END_RESPONSE|>"],
        next: &[],
    },
    // ReAct's answer, and Semantic Kernel's stepwise planner's, end the turn: an action
    // written after one is not taken.
    Prose {
        opener: "\nFinal Answer:",
        closers: &[],
        next: &[],
    },
    Prose {
        opener: "[FINAL ANSWER]",
        closers: &[],
        next: &[],
    },
];

/// The opening markers of prose channels.
pub(crate) fn prose_openers() -> impl Iterator<Item = &'static str> + Clone {
    PROSE.iter().map(|prose| prose.opener)
}

/// What opens a tool's result in the formats' transcripts: a result block (`<tool_response>`
/// of Hermes and Qwen, `<function_results>` of Claude's XML, Gemma's ```` ```tool_output ````),
/// a message of the tool's role (Harmony `<|start|>functions.NAME to=assistant`, ChatML
/// `<|im_start|>tool`, Llama's `ipython` header, GLM's `<|observation|>`), a results token
/// (Mistral `[TOOL_RESULTS]`, DeepSeek `<｜tool▁outputs▁begin｜>`, Command-R
/// `<|START_TOOL_RESULT|>`) or a ReAct `Observation:` line.
pub(crate) const RESULT_OPENERS: &[&str] = &[
    "<tool_response>",
    "<|tool_response>",
    "<tool_result>",
    "<function_results>",
    "```tool_output",
    "<|start|>functions.",
    "<|im_start|>tool",
    "<|start_header_id|>ipython<|end_header_id|>",
    "<|observation|>",
    "[TOOL_RESULTS]",
    "<｜tool▁outputs▁begin｜>",
    "<｜tool▁output▁begin｜>",
    "<|START_TOOL_RESULT|>",
    "<observation>",
    "\nObservation",
];

/// A tool's result that the model wrote itself. Only the runtime has a tool's result: one in
/// the output was made up, and what the model writes after it goes on from invented data
/// (`<tool_call>…</tool_call><tool_response>{"temp_c": -3}</tool_response>` and then
/// a call that acts on it). The rest of the output is neither run nor shown: the region
/// runs to its end. Agents stop generation at such markers (`Observation:` is ReAct's stop
/// sequence); where a server did not, this is where the turn ended.
///
/// Only where it is written as a result: where its line starts, or right after a marker
/// (`<|call|><|start|>functions.f to=assistant`), in the text of the answer — not in inline
/// code, a quotation, a fenced block or a sentence that names it ("the server answers with
/// a <tool_response> block"). `None` otherwise: the text goes on as text.
pub(crate) fn made_up_result(cx: &mut Cx<'_>, start: usize, after: usize) -> Option<usize> {
    let text = cx.text;
    let at = start + usize::from(text.as_bytes()[start] == b'\n');
    if at > start {
        // `Observation`, `Observation 2` and the like, then a colon.
        let label = text[after..].trim_start_matches(|c: char| c == ' ' || c.is_ascii_digit());
        if !label.starts_with(':') {
            if label.is_empty() {
                horizon::reached(text, text.len());
            }
            return None;
        }
    }
    // What stands before it on its line, blank space aside: nothing, or a marker's end.
    // Only the blanks are looked at, so many mentions on one long line cost each its own.
    let before = text[..at].trim_end_matches([' ', '\t', '\r']);
    if !(before.is_empty() || before.ends_with(['\n', '>', ']'])) {
        return None;
    }
    if cx.context(at) != Context::Prose {
        // A result quoted (`Here is what the tool returned, verbatim:`) is text up to its
        // closer, or to the end of an output that ends inside it: what it holds, a call a
        // web page planted, is quoted with it.
        let closer = result_closer(&text[at..after])?;
        let end = find_cached(text, after, text.len(), &closer)
            .map_or_else(|| to_end(text), |at| at + closer.len());
        cx.show(start..end);
        return Some(end);
    }
    horizon::reached(text, text.len());
    Some(text.len())
}

/// The closer of a result block whose opener is a tag (`<tool_response>` →
/// `</tool_response>`, Gemma's `<|tool_response>` → `<tool_response|>`); `None` for the
/// others, which no closer ends.
fn result_closer(opener: &str) -> Option<String> {
    let name = opener.strip_prefix('<')?.strip_suffix('>')?;
    Some(match name.strip_prefix('|') {
        Some(name) => format!("<{name}|>"),
        None => format!("</{name}>"),
    })
}

/// A prose channel: its text is shown, and holds no call.
pub(crate) fn prose_channel(cx: &mut Cx<'_>, start: usize, after: usize) -> Option<usize> {
    let text = cx.text;
    let prose = PROSE
        .iter()
        .find(|prose| starts_at(text, start, prose.opener))?;
    // An answer that runs to the end (`Final Answer:`) is the answer's only in its prose,
    // not in a fenced or quoted transcript.
    let at = start + usize::from(prose.opener.starts_with('\n'));
    if prose.closers.is_empty() && cx.context(at) != Context::Prose {
        return None;
    }
    // Where it ends, and how much of what ends it is its own.
    let closed = prose
        .closers
        .iter()
        .filter_map(|closer| {
            find_cached(text, after, text.len(), closer).map(|at| (at, closer.len()))
        })
        .min();
    // Left open, it ends where the next section opens in its prose (one in a fence of it
    // is a sample): before its close only when that close is a later answer's.
    let limit = closed.map_or(text.len(), |(close, _)| close);
    let next = prose
        .next
        .iter()
        .filter_map(|marker| {
            let mut search = after;
            while let Some(at) = find_cached(text, search, limit, marker) {
                if cx.context(at) == Context::Prose {
                    return Some(at);
                }
                search = at + marker.len();
            }
            None
        })
        .min()
        .filter(|&at| closed.is_none() || find_cached(text, at, limit, prose.opener).is_some());
    if next.is_some() && closed.is_none() {
        // A close still to come would make the section that opened text of the answer.
        horizon::reached(text, text.len());
    }
    let end = next.map(|at| (at, 0)).or(closed);
    let (content_end, region_end) = match end {
        Some((at, len)) => (at, at + len),
        None => (to_end(text), text.len()),
    };
    cx.show(after..content_end);
    Some(region_end)
}

#[cfg(test)]
mod tests {
    use crate::extract;
    use mcs_core::{LlmResponse, Tool, ToolParameter};

    fn names(text: &str) -> Vec<String> {
        let tools = [
            Tool::new("search", "").with_parameter(ToolParameter::new("query", "")),
            Tool::new("now", ""),
        ];
        let found = extract(LlmResponse::Text(text), &tools);
        assert!(found.malformed.is_empty(), "{found:#?}");
        found.calls.into_iter().map(|call| call.name).collect()
    }

    #[test]
    fn nothing_after_a_result_the_model_made_up_runs() {
        let first =
            "<tool_call>{\"name\": \"search\", \"arguments\": {\"query\": \"x\"}}</tool_call>";
        let second = "<tool_call>{\"name\": \"now\", \"arguments\": {}}</tool_call>";
        for result in [
            "\n<tool_response>\n{\"hits\": 3}\n</tool_response>\nSo:\n",
            "<|im_end|>\n<|im_start|>tool\n{\"hits\": 3}<|im_end|>\n",
            "\nObservation 1: 3 hits\nThought: now the time.\n",
            "<|start|>functions.search to=assistant<|channel|>commentary<|message|>{}<|end|>",
        ] {
            assert_eq!(
                names(&format!("{first}{result}{second}")),
                ["search"],
                "{result:?}"
            );
        }
        // Named in a sentence or in inline code, or fenced as a sample, it ends nothing.
        for mention in [
            "\nThe server answers with a <tool_response> block.\n",
            "\nIt comes back in `<tool_response>`.\n",
            "\n```\n<tool_response>{}</tool_response>\n```\n",
            "\nMy observation: it works.\n",
        ] {
            assert_eq!(
                names(&format!("{first}{mention}{second}")),
                ["search", "now"],
                "{mention:?}"
            );
        }
    }

    #[test]
    fn one_call_recorded_twice_under_its_id_is_one_call() {
        let call =
            r#"{"id": "c1", "type": "function", "function": {"name": "now", "arguments": "{}"}}"#;
        let other = call.replace("c1", "c2");
        let message =
            format!(r#"{{"role": "assistant", "tool_calls": [{call}, {call}, {other}]}}"#);
        assert_eq!(names(&message), ["now", "now"]);
    }
}
