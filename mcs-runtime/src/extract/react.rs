//! ReAct agent text: `Action: NAME` then `Action Input: …` (labels may be numbered,
//! `Action 1:`), the input JSON or free text, ending at `Observation:`, `Thought:`, the
//! next `Action`, `Final Answer:` or the end. A weak format: only known tools count.

use serde_json::Value;

use super::call_shape::free_text_arguments;
use super::extraction::CallFormat;
use super::json::parse_whole;
use super::record::{Broken, Cx, Finding, Outcome, RawCall};
use super::scan::{clean_name, find_in};
use crate::types::Tool;

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

/// ReAct calls between `start` and `end`.
pub(crate) fn calls_in_gap(cx: &Cx<'_>, start: usize, end: usize) -> Vec<Finding> {
    // Every call starts on a line with `Action`: one search spares prose the line split.
    if find_in(cx.text, start, end, "Action").is_none() {
        return Vec::new();
    }
    let text = &cx.text[..end];
    // Byte ranges of the lines in the gap.
    let mut lines = Vec::new();
    let mut line_start = start;
    while line_start < end {
        let line_end =
            memchr::memchr(b'\n', &text.as_bytes()[line_start..]).map_or(end, |i| line_start + i);
        lines.push((line_start, line_end));
        line_start = line_end + 1;
    }
    let mut findings = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let (action_start, action_end) = lines[index];
        index += 1;
        let line = &text[action_start..action_end];
        if !line.contains("Action") {
            continue;
        }
        let Some(raw_name) = after_label(line, &["Action"]) else {
            continue;
        };
        let name = clean_name(
            raw_name
                .trim()
                .trim_matches(['`', '"', '\'', '*'])
                .trim_end_matches("()"),
        );
        let Some(tool) = cx.tool(&name) else { continue };
        // The input label is on the next non-blank line.
        let mut next = index;
        while next < lines.len() && text[lines[next].0..lines[next].1].trim().is_empty() {
            next += 1;
        }
        let input_first = lines.get(next).and_then(|(s, e)| {
            after_label(&text[*s..*e], &["Action", "Input"]).map(|rest| (*e - rest.len(), *e))
        });
        let Some((input_start, first_end)) = input_first else {
            let broken = Broken {
                name: Some(name.clone()),
                detail: format!("`Action: {name}` is not followed by an `Action Input:` line"),
            };
            findings.push(Finding {
                start: action_start,
                end: action_end,
                items: vec![(action_start, CallFormat::React, Err(broken))],
            });
            continue;
        };
        let mut input_end = first_end;
        index = next + 1;
        while let Some((s, e)) = lines.get(index) {
            let line = text[*s..*e].trim_start();
            if STOP_LABELS.iter().any(|label| line.starts_with(label)) {
                break;
            }
            input_end = *e;
            index += 1;
        }
        let outcome = arguments(tool, &name, &text[input_start..input_end]);
        findings.push(Finding {
            start: action_start,
            end: input_end,
            items: vec![(action_start, CallFormat::React, outcome)],
        });
    }
    findings
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
            Ok(_) => Err(Broken {
                name: Some(name.to_owned()),
                detail: "the Action Input is JSON but not an object".to_owned(),
            }),
            Err(error) => Err(Broken {
                name: Some(name.to_owned()),
                detail: format!(
                    "the Action Input of `{name}` is invalid JSON: {}",
                    error.message
                ),
            }),
        };
    }
    let text = match parse_whole(input) {
        Ok((Value::String(text), _)) => text,
        _ => input.trim_matches('"').to_owned(),
    };
    free_text_arguments(tool, &text)
        .map(|arguments| call(arguments, false))
        .map_err(|detail| Broken {
            name: Some(name.to_owned()),
            detail,
        })
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
