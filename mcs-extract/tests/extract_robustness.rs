//! `extract` never panics, always returns well-formed results, and does work linear in the
//! size of hostile input: arbitrary text, text assembled from delimiter and JSON fragments, mutated and
//! truncated corpus outputs, and arbitrary JSON messages.

mod common;

use std::sync::OnceLock;

use common::{corpus_inputs, fragments, mutated_corpus, tools};
use mcs_core::{LlmResponse, Tool};
use mcs_extract::{Extraction, MAX_MALFORMED, extract, take_examined};
use proptest::prelude::*;
use serde_json::{Map, Value};

fn shared_tools() -> &'static [Tool] {
    static TOOLS: OnceLock<Vec<Tool>> = OnceLock::new();
    TOOLS.get_or_init(tools)
}

fn corpus() -> &'static (Vec<String>, Vec<Value>) {
    static CORPUS: OnceLock<(Vec<String>, Vec<Value>)> = OnceLock::new();
    CORPUS.get_or_init(corpus_inputs)
}

/// What every extraction must satisfy, whatever the input.
fn check(response: LlmResponse<'_>) -> Result<Extraction, TestCaseError> {
    let got = extract(response, shared_tools());
    for call in &got.calls {
        prop_assert!(
            call.arguments.is_object(),
            "arguments not an object: {call:?}"
        );
        prop_assert!(!call.name.is_empty(), "empty name: {call:?}");
    }
    prop_assert!(got.malformed.len() <= MAX_MALFORMED);
    for malformed in &got.malformed {
        prop_assert!(!malformed.detail.is_empty());
    }
    // Deterministic.
    prop_assert_eq!(&extract(response, shared_tools()), &got);
    Ok(got)
}

/// Arbitrary JSON whose keys are the ones the message readers look for.
fn json_value() -> impl Strategy<Value = Value> {
    const KEYS: &[&str] = &[
        "choices",
        "message",
        "delta",
        "tool_calls",
        "function",
        "function_call",
        "name",
        "arguments",
        "id",
        "type",
        "content",
        "role",
        "output",
        "call_id",
        "object",
        "candidates",
        "parts",
        "functionCall",
        "args",
        "input",
        "text",
        "tool",
        "parameters",
        "tool_call",
        "action",
        "action_input",
        "stop_reason",
        "description",
        "properties",
    ];
    const STRINGS: &[&str] = &[
        "function",
        "function_call",
        "tool_use",
        "message",
        "response",
        "text",
        "assistant",
        "get_weather",
        "{\"city\": \"Paris\"}",
        "{'city': 'Paris',}",
        "{\"city\": ",
        "",
        "<tool_call>{\"name\": \"get_time\", \"arguments\": {}}</tool_call>",
        "object",
        "default_api.",
        "functions.",
        "functions.x:0",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        prop::sample::select(STRINGS).prop_map(|s| Value::String(s.to_owned())),
        ".{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..6).prop_map(|entries| {
                Value::Object(
                    entries
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect::<Map<_, _>>(),
                )
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_text(text in any::<String>()) {
        check(LlmResponse::Text(&text))?;
    }

    #[test]
    fn fragment_soup(text in fragments()) {
        check(LlmResponse::Text(&text))?;
    }

    #[test]
    fn mutated_corpus_outputs(text in mutated_corpus()) {
        check(LlmResponse::Text(&text))?;
    }

    #[test]
    fn arbitrary_messages(message in json_value()) {
        check(LlmResponse::Message(&message))?;
    }

    #[test]
    fn mutated_messages(which in any::<prop::sample::Index>(), cut in any::<prop::sample::Index>()) {
        // A corpus message, serialized, cut, and handed over as text.
        let messages = &corpus().1;
        prop_assume!(!messages.is_empty());
        let text = messages[which.index(messages.len())].to_string();
        let chars: Vec<char> = text.chars().collect();
        let cut: String = chars[..cut.index(chars.len() + 1)].iter().collect();
        check(LlmResponse::Text(&cut))?;
    }
}

/// Every corpus output cut at every character boundary.
#[test]
fn every_truncation_of_the_corpus() {
    for text in &corpus().0 {
        for (boundary, _) in text.char_indices().chain([(text.len(), ' ')]) {
            let got = extract(LlmResponse::Text(&text[..boundary]), shared_tools());
            assert!(
                got.calls.iter().all(|c| c.arguments.is_object()),
                "{:?}",
                &text[..boundary]
            );
        }
    }
}

/// Deeply nested JSON handed over as a message: the readers look at fixed paths, and the
/// fallback JSON reading is depth-limited. Neither holds a call.
#[test]
fn deep_messages() {
    let mut wrapped = Value::Null;
    for _ in 0..3_000 {
        let mut map = Map::new();
        map.insert("tool_call".to_owned(), wrapped);
        wrapped = Value::Object(map);
    }
    let mut nested = Value::Null;
    for _ in 0..3_000 {
        nested = Value::Array(vec![nested]);
    }
    for value in [&wrapped, &nested] {
        let got = check(LlmResponse::Message(value)).unwrap_or_else(|e| panic!("{e}"));
        assert!(got.is_empty(), "{got:?}");
    }
    // Drop iteratively: serde_json's recursive drop could overflow the test's stack.
    let mut stack = vec![wrapped, nested];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// Hostile outputs, each built from `repeats` copies of a pattern.
fn hostile(repeats: usize) -> Vec<(&'static str, String)> {
    let n = repeats;
    vec![
        (
            "prose",
            "The weather is nice today, {really}. ".repeat(5 * n),
        ),
        ("open brackets", "[".repeat(200 * n)),
        ("open braces", "{".repeat(200 * n)),
        ("unterminated keys", "{\"a".repeat(60 * n)),
        (
            "unterminated string with braces",
            format!(
                "{{\"tool\": \"x\", \"arguments\": \"{}",
                "{\"k\": [".repeat(30 * n)
            ),
        ),
        (
            "unclosed hermes",
            "<tool_call>{\"name\": \"get_time\", \"arguments\": {}}\n".repeat(4 * n),
        ),
        ("empty hermes", "<tool_call></tool_call>".repeat(8 * n)),
        (
            "unclosed functions",
            "<function=get_time>\n<parameter=x>1\n".repeat(6 * n),
        ),
        (
            "unclosed invokes",
            format!(
                "<function_calls>{}",
                "<invoke name=\"a\"><parameter name=\"b\">c".repeat(5 * n)
            ),
        ),
        (
            "kimi without ends",
            format!(
                "<|tool_calls_section_begin|>{}",
                "<|tool_call_begin|>functions.a:0".repeat(6 * n)
            ),
        ),
        (
            "deepseek without seps",
            format!(
                "<｜tool▁calls▁begin｜>{}",
                "<｜tool▁call▁begin｜>a".repeat(6 * n)
            ),
        ),
        (
            "pythonic in a long string",
            format!("x = \"{}", "[get_weather(city=\"".repeat(10 * n)),
        ),
        ("pythonic lines", "get_weather(city=\"Paris\n".repeat(8 * n)),
        (
            "cut pythonic lists",
            "[get_weather(city=\"Paris\"]\n".repeat(8 * n),
        ),
        ("react", "Action: search\nAction Input: x\n".repeat(6 * n)),
        ("think", "<think>".repeat(30 * n)),
        ("fullwidth", "｜▁<｜tool".repeat(20 * n)),
        (
            "functionary",
            ">>>get_weather\n{\"city\": \"x\"}\n".repeat(6 * n),
        ),
        ("mistral", "[TOOL_CALLS]a{".repeat(15 * n)),
        // Results named mid-sentence on one long line: each is looked at alone.
        (
            "tool results named on one line",
            "it answers with a <tool_response> and ".repeat(6 * n),
        ),
        (
            "missing parameter closes",
            format!(
                "<function=get_weather>\n{}",
                "<parameter=city>\nx\n<parameter=city>\n".repeat(5 * n)
            ),
        ),
        (
            "missing parameter closes, one close at the end",
            format!(
                "<function=get_weather>\n{}</parameter>",
                "<parameter=city>\nx\n".repeat(8 * n)
            ),
        ),
        (
            "values opening calls of their format",
            format!(
                "<function=send_email>\n{}</parameter>",
                "<parameter=body>\n<function=f>\n<parameter=a>\n".repeat(4 * n)
            ),
        ),
        (
            "values holding whole calls of their format",
            format!(
                "<function=send_email>\n{}</function>",
                "<parameter=body>\n<function=f>\n<parameter=a>\nx\n</parameter>\n</parameter>\n"
                    .repeat(2 * n)
            ),
        ),
        (
            "k2 pairs without ends",
            format!(
                "<ifm|tool_calls>{}",
                "<ifm|tool_call>a<ifm|arg_key>k</ifm|arg_key><ifm|arg_value>v".repeat(3 * n)
            ),
        ),
        (
            "minimax m3 without ends",
            "]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=\"a\">]<]minimax[>[<k>"
                .repeat(3 * n),
        ),
        ("call lines", "call:get_weather{city:\n".repeat(8 * n)),
        (
            "pythonic lists with broken siblings",
            "[get_weather(city='a'), f(x=b'z'), ".repeat(5 * n),
        ),
        (
            "pythonic quotes of their own",
            format!("[search(query='a 'b 'c {}", "'d 'e 'f g h ".repeat(5 * n)),
        ),
        (
            "langchain",
            "<tool>search</tool><tool_input>x".repeat(8 * n),
        ),
        (
            "dspy fields",
            "[[ ## next_tool_name ## ]]\nsearch\n[[ ## next_tool_args ## ]]\n{\"query\": [\"a"
                .repeat(4 * n),
        ),
        (
            "dspy names alone",
            "[[ ## next_tool_name ## ]] search ".repeat(8 * n),
        ),
        (
            "pasted payloads",
            format!(
                "{{\"message\": {{\"role\": \"assistant\", \"content\": \"{}\"}}}}",
                "{\\\"parts\\\": [".repeat(20 * n)
            ),
        ),
    ]
}

/// The bytes extraction examines to read `text`, as counted in debug builds; `None` in
/// release builds.
fn work_for(text: &str) -> Option<u64> {
    take_examined();
    let got = extract(LlmResponse::Text(text), shared_tools());
    assert!(got.malformed.len() <= MAX_MALFORMED);
    take_examined()
}

/// Large hostile outputs cost work linear in their size: no quadratic rescans. The work
/// is what extraction counts (bytes examined by the JSON and pythonic readers, substring
/// searches and the delimiter scan), so the bounds hold on any machine: at most
/// `WORK_PER_BYTE` per byte of a 200 KB output, and twice the output costs at most about
/// twice the work (a quadratic pass would cost four times as much).
#[test]
fn hostile_inputs_stay_linear() {
    assert_linear(work_for, 500, 64, 2);
}

/// `work` on each hostile output at `repeats` and twice that: at most `per_byte` per byte
/// of the larger, and at most `growth` times the smaller's work (with slack for fixed
/// budgets). `work` gives `None` in release builds, which do not count.
fn assert_linear(work: fn(&str) -> Option<u64>, repeats: usize, per_byte: u64, growth: u64) {
    let small = hostile(repeats);
    let large = hostile(2 * repeats);
    for ((name, small), (_, large)) in small.iter().zip(&large) {
        let (Some(small_work), Some(large_work)) = (work(small), work(large)) else {
            eprintln!("release build: extraction does not count its work");
            return;
        };
        eprintln!(
            "{name}: {} bytes, {large_work} examined ({:.1} per byte), {:.2}x the work of half",
            large.len(),
            large_work as f64 / large.len() as f64,
            large_work as f64 / small_work.max(1) as f64
        );
        assert!(
            large_work <= per_byte * large.len() as u64,
            "{name}: {large_work} bytes examined for {} bytes",
            large.len()
        );
        let slack = 2 * 65_536 + large.len() as u64 / 4;
        assert!(
            large_work <= growth * small_work + slack,
            "{name}: twice the output cost {large_work} against {small_work}"
        );
    }
}

/// The bytes a stream reader examines to read `text` fed in 4-byte pieces.
fn streamed_work_for(text: &str) -> Option<u64> {
    use mcs_extract::stream::StreamReader;
    take_examined();
    let mut reader = StreamReader::new(shared_tools().to_vec());
    let bytes = text.as_bytes();
    let mut from = 0;
    while from < bytes.len() {
        let mut to = (from + 4).min(bytes.len());
        while !text.is_char_boundary(to) {
            to += 1;
        }
        reader.feed_text(&text[from..to]).for_each(drop);
        from = to;
    }
    let end = reader.finish();
    assert!(end.extraction.malformed.len() <= MAX_MALFORMED);
    take_examined()
}

/// Streamed in 4-byte pieces, hostile outputs still cost work linear in their size: reads
/// that ran into the end of the text are retried when what they wait for comes or the text
/// grew by a fraction of what is undecided, never on every piece.
#[test]
fn hostile_inputs_stay_linear_when_streamed() {
    assert_linear(streamed_work_for, 100, 256, 3);
}
