//! Conformance corpus for `mcs_extract`: model outputs in every format we know,
//! with what must be found in each. The cases live in `tests/corpus/*.toml`:
//!
//! ```toml
//! [[case]]
//! name = "hermes_basic"            # unique
//! input = '''<tool_call>…'''       # model text, or:
//! message = '''{"choices": …}'''   # a provider message as JSON (LlmResponse::Message)
//! events = '''[{…}, {…}]'''         # a provider's stream events, read by a StreamReader
//! tools = '''[{"name": …, "parameters": {…}}]'''  # the case's own tools, declared as model
//!                                  # APIs take them (else the shared set, `common::tools`)
//! calls = [{ name = "get_weather", args = '{"city": "Paris"}', id = "call_1" }]
//! malformed = 1                    # how many malformed calls (default 0)
//! malformed_name = "get_weather"   # the name read from the first malformed call
//! format = "hermes"                # the format of every call and malformed call
//! repaired = true                  # the `repaired` flag of every call
//! source = "openai_chat"           # the Extraction's source (default "text" for an input;
//!                                  # for a message or events, unchecked unless given)
//! cut_off = true                   # every malformed call was cut off by the output's end
//! ```
//!
//! No `calls` and no `malformed` means the output holds no call. Every mismatch is
//! reported with its case name before the test fails.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

mod common;

use common::tools;
use mcs_core::LlmResponse;
use mcs_extract::{CallSource, Extraction, extract};
use serde::Deserialize;
use serde_json::Value;

/// The smallest corpus this test accepts, so cases cannot disappear unnoticed.
const MIN_CASES: usize = 3157;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CorpusFile {
    case: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    input: Option<String>,
    message: Option<String>,
    /// A provider's stream: a JSON array of its events, in order.
    events: Option<String>,
    /// The tools the model was given, as a JSON array of declarations, when not the
    /// shared set.
    tools: Option<String>,
    #[serde(default)]
    calls: Vec<ExpectedCall>,
    #[serde(default)]
    malformed: usize,
    malformed_name: Option<String>,
    format: Option<String>,
    repaired: Option<bool>,
    source: Option<String>,
    /// Whether every malformed call was cut off by the end of the output.
    cut_off: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectedCall {
    name: String,
    #[serde(default = "empty_args")]
    args: String,
    id: Option<String>,
}

fn empty_args() -> String {
    "{}".to_owned()
}

fn source_name(source: CallSource) -> &'static str {
    match source {
        CallSource::Text => "text",
        CallSource::OpenAiChat => "openai_chat",
        CallSource::OpenAiResponses => "openai_responses",
        CallSource::Anthropic => "anthropic",
        CallSource::Gemini => "gemini",
        CallSource::Bedrock => "bedrock",
        _ => "other",
    }
}

fn check(case: &Case, got: &Extraction) -> Vec<String> {
    let mut problems = Vec::new();
    // A text's source is text; a message's or stream's is checked where the case says it.
    let expected_source = case
        .source
        .as_deref()
        .or_else(|| case.input.is_some().then_some("text"));
    if let Some(expected_source) = expected_source
        && source_name(got.source) != expected_source
    {
        problems.push(format!(
            "source: expected {expected_source}, got {}",
            source_name(got.source)
        ));
    }
    if got.calls.len() != case.calls.len() {
        problems.push(format!(
            "expected {} calls, got {}",
            case.calls.len(),
            got.calls.len()
        ));
    }
    for (index, (want, call)) in case.calls.iter().zip(&got.calls).enumerate() {
        let args: Value = match serde_json::from_str(&want.args) {
            Ok(args) => args,
            Err(e) => {
                problems.push(format!("call {index}: the expected args are not JSON: {e}"));
                continue;
            }
        };
        if call.name != want.name {
            problems.push(format!(
                "call {index}: name: expected {}, got {}",
                want.name, call.name
            ));
        }
        if call.arguments != args {
            problems.push(format!(
                "call {index}: arguments: expected {args}, got {}",
                call.arguments
            ));
        }
        if want.id.is_some() && call.id != want.id {
            problems.push(format!(
                "call {index}: id: expected {:?}, got {:?}",
                want.id, call.id
            ));
        }
    }
    for call in &got.calls {
        if !call.arguments.is_object() {
            problems.push(format!("arguments of {} are not an object", call.name));
        }
        if let Some(format) = &case.format
            && call.format.as_str() != format
        {
            problems.push(format!(
                "call {}: format: expected {format}, got {}",
                call.name, call.format
            ));
        }
        if let Some(repaired) = case.repaired
            && call.repaired != repaired
        {
            problems.push(format!(
                "call {}: repaired: expected {repaired}, got {}",
                call.name, call.repaired
            ));
        }
    }
    if got.malformed.len() != case.malformed {
        problems.push(format!(
            "expected {} malformed, got {}",
            case.malformed,
            got.malformed.len()
        ));
    }
    if let (Some(name), Some(first)) = (&case.malformed_name, got.malformed.first())
        && first.name.as_deref() != Some(name)
    {
        problems.push(format!(
            "malformed name: expected {name}, got {:?}",
            first.name
        ));
    }
    for malformed in &got.malformed {
        if let Some(format) = &case.format
            && malformed.format.as_str() != format
        {
            problems.push(format!(
                "malformed format: expected {format}, got {}",
                malformed.format
            ));
        }
        if let Some(cut_off) = case.cut_off
            && malformed.cut_off != cut_off
        {
            problems.push(format!(
                "malformed cut_off: expected {cut_off}, got {}",
                malformed.cut_off
            ));
        }
        if malformed.detail.trim().is_empty() || malformed.snippet.is_empty() {
            problems.push(format!(
                "malformed without detail or snippet: {malformed:?}"
            ));
        }
    }
    if !problems.is_empty() {
        problems.push(format!("got {got:#?}"));
    }
    problems
}

/// Every case of the corpus, with the file it came from.
fn load() -> Vec<(String, Case)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let file: CorpusFile =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        cases.extend(file.case.into_iter().map(|case| (stem.clone(), case)));
    }
    cases
}

#[test]
fn corpus() {
    let tools = tools();
    let cases = load();
    let mut failures = Vec::new();
    let mut names = HashSet::new();
    let mut outcomes: BTreeMap<&str, usize> = BTreeMap::new();
    for (file, case) in &cases {
        let id = format!("{file}/{}", case.name);
        if !names.insert(case.name.clone()) {
            failures.push(format!("{id}: duplicate case name"));
        }
        let kind = match (case.calls.is_empty(), case.malformed) {
            (true, 0) => "none",
            (false, 0) => "calls",
            (true, _) => "malformed",
            (false, _) => "calls+malformed",
        };
        *outcomes.entry(kind).or_default() += 1;
        let own = match case
            .tools
            .as_deref()
            .map(common::declared_tools)
            .transpose()
        {
            Ok(own) => own,
            Err(problem) => {
                failures.push(format!("{id}: {problem}"));
                continue;
            }
        };
        let tools = own.as_deref().unwrap_or(&tools);
        let message: Value;
        let got = match (&case.input, &case.message, &case.events) {
            (Some(text), None, None) => extract(LlmResponse::Text(text), tools),
            (None, Some(json), None) => match serde_json::from_str(json) {
                Ok(value) => {
                    message = value;
                    extract(LlmResponse::Message(&message), tools)
                }
                Err(e) => {
                    failures.push(format!("{id}: message is not JSON: {e}"));
                    continue;
                }
            },
            (None, None, Some(json)) => match serde_json::from_str::<Vec<Value>>(json)
                .map_err(|e| format!("events are not a JSON array: {e}"))
                .and_then(|events| common::stream_events(&events, tools))
            {
                Ok(got) => got,
                Err(problem) => {
                    failures.push(format!("{id}: {problem}"));
                    continue;
                }
            },
            _ => {
                failures.push(format!(
                    "{id}: give exactly one of `input`, `message` and `events`"
                ));
                continue;
            }
        };
        let problems = check(case, &got);
        if !problems.is_empty() {
            failures.push(format!("{id}:\n  {}", problems.join("\n  ")));
        }
    }
    eprintln!(
        "corpus: {} cases, expected outcomes {outcomes:?}",
        cases.len()
    );
    assert!(
        cases.len() >= MIN_CASES,
        "the corpus has {} cases, fewer than {MIN_CASES}",
        cases.len()
    );
    if !failures.is_empty() {
        panic!(
            "{} of {} corpus cases failed:\n\n{}",
            failures.len(),
            cases.len(),
            failures.join("\n\n")
        );
    }
}

/// A hybrid driver over an [`Echo`] of `tools`.
fn echo(tools: Vec<mcs_core::Tool>) -> mcs_hybrid::Hybrid<Echo> {
    mcs_hybrid::Hybrid::new(Echo {
        meta: mcs_core::DriverMeta::new("echo", "echo", "0"),
        tools: tools.into(),
    })
}

/// An [`echo`] of the case's own tools, when it declares some.
fn own_driver(case: &Case) -> Option<mcs_hybrid::Hybrid<Echo>> {
    let tools = common::declared_tools(case.tools.as_deref()?).ok()?;
    Some(echo(tools))
}

/// A driver with the corpus's tools that answers every call with what it was given.
struct Echo {
    meta: mcs_core::DriverMeta,
    tools: std::sync::Arc<[mcs_core::Tool]>,
}

impl mcs_core::ToolDriver for Echo {
    fn meta(&self) -> &mcs_core::DriverMeta {
        &self.meta
    }

    fn list_tools(&self) -> std::sync::Arc<[mcs_core::Tool]> {
        std::sync::Arc::clone(&self.tools)
    }

    fn execute_tool<'a>(&'a self, name: &'a str, arguments: Value) -> mcs_core::ToolFuture<'a> {
        mcs_core::ToolFuture::ready(Ok(
            serde_json::json!({"tool": name, "arguments": arguments}),
        ))
    }
}

/// The same corpus through a whole hybrid driver: what extraction finds is what the
/// response reports, and the standard's semantics hold for every case.
#[tokio::test]
async fn corpus_through_process_llm_response() {
    let shared = echo(tools());
    let mut failures = Vec::new();
    let (mut handled, mut passed_through) = (0, 0);
    for (file, case) in load() {
        let id = format!("{file}/{}", case.name);
        if case.events.is_some() {
            continue;
        }
        let own = own_driver(&case);
        let driver = own.as_ref().unwrap_or(&shared);
        let known: HashSet<String> = driver
            .inner()
            .tools
            .iter()
            .map(|t| t.name().to_owned())
            .collect();
        let message: Value;
        let response = match (&case.input, &case.message) {
            (Some(text), None) => LlmResponse::Text(text),
            (None, Some(json)) => match serde_json::from_str(json) {
                Ok(value) => {
                    message = value;
                    LlmResponse::Message(&message)
                }
                Err(_) => continue,
            },
            _ => continue,
        };
        let got = mcs_core::Driver::process_llm_response(driver, response).await;
        let owned: Vec<&ExpectedCall> = case
            .calls
            .iter()
            .filter(|c| known.contains(&c.name))
            .collect();
        let owned_malformed = case.malformed > 0
            && case
                .malformed_name
                .as_ref()
                .is_none_or(|name| known.contains(name));
        let mut problems = Vec::new();
        if owned.is_empty() && !owned_malformed {
            passed_through += 1;
            if !got.is_empty() {
                problems.push("expected the empty response (no call for this driver)".to_owned());
            }
        } else {
            handled += 1;
            if got.messages.is_none() {
                problems.push("a handled call must come with messages".to_owned());
            }
            if owned_malformed && !got.call_failed {
                problems.push("a malformed call must set call_failed".to_owned());
            }
            for expected in &owned {
                let arguments: Value = serde_json::from_str(&expected.args).unwrap_or(Value::Null);
                let Some(record) = got
                    .executed_calls
                    .iter()
                    .find(|r| r.name == expected.name && r.arguments == arguments)
                else {
                    problems.push(format!("no record of {} {}", expected.name, expected.args));
                    continue;
                };
                match (&record.result, &record.error) {
                    (Some(result), None) => {
                        if result["arguments"] != arguments || !got.call_executed {
                            problems.push(format!(
                                "{} ran with other arguments: {result}",
                                expected.name
                            ));
                        }
                    }
                    (None, Some(error)) => {
                        if error.is_empty() || !got.call_failed || got.retry_prompt.is_none() {
                            problems
                                .push(format!("{} failed without a usable hint", expected.name));
                        }
                    }
                    _ => problems.push(format!(
                        "{}: a record has a result or an error",
                        expected.name
                    )),
                }
            }
        }
        if !problems.is_empty() {
            failures.push(format!("{id}: {}\n  got {got:?}", problems.join("; ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        handled >= 150 && passed_through >= 50,
        "handled {handled}, passed through {passed_through}"
    );
}

/// Extraction through a caller's name index gives what the scan gives, also when the index
/// is wrong (it answers for a list that has changed since).
#[test]
fn an_index_finds_what_the_scan_finds() {
    use mcs_extract::{extract, extract_indexed};
    let tools: Vec<mcs_core::Tool> = ["get_weather", "search", "lookup"]
        .iter()
        .map(|name| {
            mcs_core::Tool::new(*name, "A tool.").with_parameter(
                mcs_core::ToolParameter::new("city", "")
                    .with_schema(serde_json::json!({"type": "integer"})),
            )
        })
        .collect();
    let right = |name: &str| tools.iter().position(|t| t.name() == name);
    let wrong = |_: &str| Some(0);
    for text in [
        r#"{"name": "search", "arguments": {"city": "12"}}"#,
        "<function=lookup><parameter=city>7</parameter></function>",
        "[get_weather(city=3)]",
        "Action: search\nAction Input: {\"city\": 4}",
    ] {
        let scanned = extract(text.into(), &tools);
        assert_eq!(
            extract_indexed(text.into(), &tools, &right),
            scanned,
            "{text}"
        );
        assert_eq!(
            extract_indexed(text.into(), &tools, &wrong),
            scanned,
            "{text}"
        );
    }
}

/// The corpus streamed through a whole hybrid driver, in 3-byte pieces: each answer is the
/// one `process_llm_response` gives for the whole output, whether calls run after the
/// stream or as they complete.
#[tokio::test]
async fn corpus_streamed_through_a_driver() {
    use mcs_core::Driver;
    use mcs_extract::stream::{Execution, StreamOptions};
    let shared = echo(tools());
    let mut failures = Vec::new();
    for (file, case) in load() {
        let Some(text) = &case.input else { continue };
        let own = own_driver(&case);
        let driver = own.as_ref().unwrap_or(&shared);
        let whole = driver.process_llm_response(LlmResponse::Text(text)).await;
        for execution in [Execution::AfterStream, Execution::AsCompleted] {
            let mut stream =
                driver.process_llm_stream(StreamOptions::default().execution(execution));
            let mut from = 0;
            while from < text.len() {
                let mut to = (from + 3).min(text.len());
                while !text.is_char_boundary(to) {
                    to += 1;
                }
                stream.feed_text(&text[from..to]).await;
                from = to;
            }
            let end = stream.finish().await;
            if end.response != whole {
                failures.push(format!(
                    "{file}/{} ({execution:?}): streamed {:#?}\nwhole {whole:#?}",
                    case.name, end.response
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A string value with its `\r\n` line ends read as `\n`.
fn lf_strings(value: &Value) -> Value {
    match value {
        Value::String(text) => Value::String(text.replace("\r\n", "\n")),
        Value::Array(items) => Value::Array(items.iter().map(lf_strings).collect()),
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|(key, value)| (key.clone(), lf_strings(value)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Reads every corpus output as it is and as `transform` makes it (skipped where it gives
/// `None`), and lists those whose calls (names, and arguments as `arguments` sees them) or
/// number of broken calls differ.
fn read_otherwise(
    transform: impl Fn(&str) -> Option<String>,
    arguments: impl Fn(&Value) -> Value,
) -> Vec<String> {
    let tools = tools();
    let (texts, _) = common::corpus_inputs();
    let read = |text: &str| {
        let got = extract(LlmResponse::Text(text), &tools);
        let calls: Vec<(String, Value)> = got
            .calls
            .iter()
            .map(|call| (call.name.clone(), arguments(&call.arguments)))
            .collect();
        (calls, got.malformed.len())
    };
    let mut differ = Vec::new();
    for text in &texts {
        let Some(other) = transform(text) else {
            continue;
        };
        let (before, after) = (read(text), read(&other));
        if before != after {
            differ.push(format!(
                "{other:?}\n  as it is: {before:?}\n  so:        {after:?}"
            ));
        }
    }
    differ
}

/// Every corpus output with `\r\n` line ends (a Windows client, a proxy that rewrote them)
/// reads as with `\n`: the same calls, their text values the same but for their own line
/// ends, and as many broken calls.
#[test]
fn every_output_with_crlf_line_ends_reads_as_with_lf() {
    let differ = read_otherwise(
        |text| (text.contains('\n') && !text.contains('\r')).then(|| text.replace('\n', "\r\n")),
        lf_strings,
    );
    assert!(
        differ.is_empty(),
        "{} outputs read otherwise with CRLF:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

/// Every corpus output reads the same after a byte-order mark (a file's, a Windows tool's):
/// a pasted provider message, a blockquote, Functionary's `>>>` at the start.
#[test]
fn every_output_reads_the_same_after_a_byte_order_mark() {
    let differ = read_otherwise(
        |text| (!text.starts_with('\u{feff}')).then(|| format!("\u{feff}{text}")),
        Value::clone,
    );
    assert!(
        differ.is_empty(),
        "{} outputs read otherwise after a byte-order mark:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

/// Every corpus output without reasoning of its own reads the same after a reasoning
/// block: reasoning is not the answer, whatever the answer is (a pasted provider message,
/// bare JSON, markup).
#[test]
fn every_output_reads_the_same_after_reasoning() {
    let differ = read_otherwise(
        |text| {
            let own = ["think", "<|channel|>", "to=", "<|start|>", "◁"];
            // A transcript (a prompt handed back with its answer) starts with the prompt;
            // after reasoning, it is a model writing one.
            let starts_transcript = common::starts_as_transcript(text);
            (!own.iter().any(|marker| text.contains(marker)) && !starts_transcript).then(|| {
                format!("<think>\nThe user wants this; I will answer.\n</think>\n\n{text}")
            })
        },
        Value::clone,
    );
    assert!(
        differ.is_empty(),
        "{} outputs read otherwise after reasoning:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

/// Every corpus output followed by an end-of-turn token a server left in (`<|im_end|>`,
/// `<|eot_id|>`, `</s>`, Gemma's `<end_of_turn>`, DeepSeek's `<｜end▁of▁sentence｜>`,
/// Phi's `<|end|>`) reads the same: the token ends the turn, it is not part of the last
/// call or input. Outputs cut off in a call are left out: a token after them says the model
/// stopped there, which is not the same as being cut off.
#[test]
fn every_output_reads_the_same_before_an_end_of_turn_token() {
    let tools = tools();
    let cut = |text: &str| {
        extract(LlmResponse::Text(text), &tools)
            .malformed
            .iter()
            .any(|broken| broken.cut_off)
    };
    for token in [
        "<|im_end|>",
        "<|eot_id|>",
        "</s>",
        "<end_of_turn>",
        "<｜end▁of▁sentence｜>",
        "<|end|>",
    ] {
        let differ = read_otherwise(
            |text| (!cut(text)).then(|| format!("{text}{token}")),
            Value::clone,
        );
        assert!(
            differ.is_empty(),
            "{} outputs read otherwise before {token}:\n{}",
            differ.len(),
            differ.join("\n")
        );
    }
}
