//! Side by side with other parsers, on their own ground: model outputs taken from another
//! project's tests (vLLM's tool parsers, say), each with what that project expects, read by
//! [`extract`] and compared.
//!
//! Opt in with `MCS_PEER_CASES` set to one or more JSON files (separated as `PATH` is), each
//! an array of cases:
//!
//! ```json
//! [{"source": "tests/tool_parsers/test_x.py::test_y", "parser": "hermes",
//!   "output": "<tool_call>…", "tools": [{"name": "…", "parameters": {…}}] or null,
//!   "expected_calls": [{"name": "…", "arguments": {…}}], "note": "…"}]
//! ```
//!
//! Other keys are ignored. A case without `tools` is read with one tool per name it
//! expects, without parameters (the weak formats need the name to be a tool's). The cases
//! are not in this repository: they are the other project's, transcribed for a
//! measurement (BENCHMARKS.md says which commit and what came of it).
//!
//! `MCS_PEER_CASES=vllm_a.json:vllm_b.json cargo test -p mcs-extract --test peers -- --nocapture`
//! prints, per parser, how many outputs give the calls the peer expects, and each one that
//! does not, with what was read instead. The test fails only on a panic: a disagreement
//! is a finding, judged case by case.

use std::collections::BTreeMap;

use mcs_core::{LlmResponse, Tool, ToolParameter};
use mcs_extract::extract;
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
struct Case {
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    parser: Option<String>,
    output: String,
    #[serde(default)]
    tools: Option<Vec<PeerTool>>,
    /// `null` when the peer's test checks no calls: the case is counted apart.
    #[serde(default)]
    expected_calls: Option<Vec<PeerCall>>,
    #[serde(default)]
    note: Option<String>,
}

#[derive(Deserialize)]
struct PeerTool {
    name: String,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    parameters: Value,
}

/// A call the peer expects; a `null` name or arguments is one its test does not check.
#[derive(Deserialize)]
struct PeerCall {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Value,
}

/// A peer's tool as ours: one parameter per property of its JSON Schema.
fn tool(peer: &PeerTool) -> Tool {
    let required: Vec<&str> = peer
        .parameters
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let parameters = peer
        .parameters
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(name, schema)| {
            ToolParameter::new(name, "")
                .with_schema(schema.clone())
                .required(required.contains(&name.as_str()))
        })
        .collect();
    Tool::new(&peer.name, peer.description.as_deref().unwrap_or_default())
        .with_parameters(parameters)
}

/// Two argument objects alike, where a peer's `null` for the whole arguments is not
/// checked, and numbers are alike when their values are (`5` and `5.0`: JSON does not tell
/// them apart). With `partial` (the peer's test checks only some members, and says so in
/// the case's note), the members of ours that the peer does not give are not compared.
fn same_arguments(ours: &Value, theirs: &Value, partial: bool) -> bool {
    match (ours, theirs) {
        (_, Value::Null) => true,
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_arguments(a, b, partial))
        }
        (Value::Object(a), Value::Object(b)) => {
            (a.len() == b.len() || partial && a.len() > b.len())
                && b.iter().all(|(key, value)| {
                    a.get(key)
                        .is_some_and(|other| same_arguments(other, value, partial))
                })
        }
        _ => ours == theirs,
    }
}

#[test]
fn peer_cases_read_as_the_peer_expects() {
    let Some(paths) = std::env::var_os("MCS_PEER_CASES") else {
        println!("skipped: set MCS_PEER_CASES to the case files to read");
        return;
    };
    // parser → (cases, agreeing)
    let mut table: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut differ = Vec::new();
    let mut unchecked = 0;
    for path in std::env::split_paths(&paths) {
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        let cases: Vec<Case> = serde_json::from_str(&text)
            .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        for case in cases {
            let Some(expected) = &case.expected_calls else {
                unchecked += 1;
                continue;
            };
            let tools: Vec<Tool> = match &case.tools {
                Some(tools) if !tools.is_empty() => tools.iter().map(tool).collect(),
                _ => {
                    let mut names: Vec<&str> = expected
                        .iter()
                        .filter_map(|call| call.name.as_deref())
                        .collect();
                    names.sort_unstable();
                    names.dedup();
                    names.into_iter().map(|name| Tool::new(name, "")).collect()
                }
            };
            let got = extract(LlmResponse::Text(&case.output), &tools);
            let partial = case
                .note
                .as_deref()
                .is_some_and(|note| note.contains("partial arguments"));
            let same = |ours: &mcs_extract::FoundCall, theirs: &PeerCall| {
                theirs.name.as_ref().is_none_or(|name| *name == ours.name)
                    && same_arguments(&ours.arguments, &theirs.arguments, partial)
            };
            // A test that checks only some of the calls (and says so in the note): each it
            // checks is among ours, in order.
            let some_calls = case
                .note
                .as_deref()
                .is_some_and(|note| note.contains("partial calls"));
            let agrees = if some_calls {
                let mut ours = got.calls.iter();
                expected
                    .iter()
                    .all(|theirs| ours.any(|call| same(call, theirs)))
            } else {
                got.calls.len() == expected.len()
                    && got
                        .calls
                        .iter()
                        .zip(expected)
                        .all(|(ours, theirs)| same(ours, theirs))
            };
            let entry = table
                .entry(case.parser.clone().unwrap_or_default())
                .or_default();
            entry.0 += 1;
            if agrees {
                entry.1 += 1;
            } else {
                let ours: Vec<String> = got
                    .calls
                    .iter()
                    .map(|call| format!("{}({})", call.name, call.arguments))
                    .collect();
                let theirs: Vec<String> = expected
                    .iter()
                    .map(|call| {
                        let name = call.name.as_deref().unwrap_or("?");
                        format!("{name}({})", call.arguments)
                    })
                    .collect();
                let malformed: Vec<String> = got
                    .malformed
                    .iter()
                    .map(|m| format!("{} [cut off: {}]", m.detail, m.cut_off))
                    .collect();
                differ.push(format!(
                    "- {} ({})\n  output: {:?}\n  theirs: [{}]\n  ours:   [{}]\n  malformed: {:?}\n  note: {}",
                    case.source.as_deref().unwrap_or_default(),
                    case.parser.as_deref().unwrap_or_default(),
                    case.output,
                    theirs.join(", "),
                    ours.join(", "),
                    malformed,
                    case.note.as_deref().unwrap_or_default()
                ));
            }
        }
    }
    println!("| parser | cases | read as the peer expects |\n|---|---:|---:|");
    let (mut cases, mut agreeing) = (0, 0);
    for (parser, (n, ok)) in &table {
        println!("| {parser} | {n} | {ok} |");
        cases += n;
        agreeing += ok;
    }
    println!("| all | {cases} | {agreeing} |");
    if unchecked > 0 {
        println!("({unchecked} cases whose tests check no calls were left out)");
    }
    if !differ.is_empty() {
        println!("\nread otherwise:\n{}", differ.join("\n"));
    }
}
