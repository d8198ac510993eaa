//! What `process_llm_response` costs next to parsing the same output as JSON.
//!
//! A hybrid driver (`Hybrid` around a `#[mcs::tool_driver]` with four trivial tools) reads
//! model outputs end to end: find the call (`mcs::extract::extract`), validate its arguments
//! against the tool's schema, execute it, and build the `DriverResponse` with its messages.
//! Each payload is measured against `serde_json::from_str::<Value>` on the same JSON text,
//! and the work is split into its parts (extract alone, validate alone, execute alone).
//!
//! Payloads: a bare ~80-byte JSON call; a call with ~2 KB of text in its arguments; a
//! Hermes `<tool_call>` between two paragraphs of prose (the baseline parses the JSON
//! between the tags); a native OpenAI chat message (`LlmResponse::Message`, against parsing
//! its JSON text); 100 KB of prose with no call, measured against plain scans of the
//! text since there is no JSON to parse; and one output of 2,000 Hermes calls, against
//! parsing each call's JSON.
//!
//! `process_llm_response` is called through the `Driver` trait, as a client calls it (a
//! boxed future), and the future is polled once with `Waker::noop()`: the tools are sync, so
//! it is ready on the first poll and no runtime is involved. Every result is dropped inside
//! the timing, on every side: freeing what a call built is part of its cost.
//!
//! Every group ends with an `interleaved` line: the same calls taking turns, a chunk at a
//! time in a rotating order, so that a change of load hits them all alike; the ratios
//! printed after each group come from it and are the ones to trust on a busy machine.
//!
//! The last groups read the same outputs as they stream, in 4-byte pieces, against the
//! batch path: every model output of the extraction corpus, and the 100 KiB of prose.
//!
//! Run with `cargo bench --bench llm_response`; the figures are in BENCHMARKS.md.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mcs::extract::{Extraction, extract};
use mcs::hybrid::Hybrid;
use mcs::stream::{StreamEnd, StreamOptions, StreamReader};
use mcs::validate::validate_arguments;
use mcs::{Driver, DriverResponse, LlmResponse, Tool, ToolDriver};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

#[path = "common/interleave.rs"]
mod interleave;

use interleave::{complete, line, measure};

/// Units of measurement.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Units {
    /// Celsius, km/h.
    Metric,
    /// Fahrenheit, mph.
    Imperial,
}

/// A driver with four tools whose bodies do next to nothing, so that what is measured is
/// the machinery around them.
struct Assistant;

#[mcs::tool_driver(name = "assistant")]
impl Assistant {
    /// Current weather in a city.
    #[tool]
    fn get_weather(
        &self,
        /// The city's name.
        city: String,
        /// The units of the figures; metric if absent.
        units: Option<Units>,
    ) -> Value {
        let unit = match units {
            Some(Units::Imperial) => "F",
            _ => "C",
        };
        json!({ "city": city, "temp": 21, "unit": unit })
    }

    /// Searches the web.
    #[tool]
    fn search(
        &self,
        /// What to look for.
        query: String,
        /// At most this many results.
        limit: u32,
    ) -> Value {
        json!({ "query": query, "hits": limit.min(3) })
    }

    /// Saves a note.
    #[tool]
    fn save_note(
        &self,
        /// The note's title.
        title: String,
        /// The note's text.
        body: String,
    ) -> Value {
        json!({ "saved": title, "chars": body.len() })
    }

    /// The current time in a time zone.
    #[tool]
    fn get_time(
        &self,
        /// An IANA time zone; UTC if absent.
        timezone: Option<String>,
    ) -> Value {
        json!({ "time": "12:00", "timezone": timezone.unwrap_or_else(|| "UTC".to_owned()) })
    }
}

/// The bare call: 74 bytes.
const SMALL_CALL: &str =
    r#"{"tool": "get_weather", "arguments": {"city": "Paris", "units": "metric"}}"#;

/// A paragraph of the notes and of the prose below.
const PARAGRAPH: &str = "The committee met on Tuesday to review the draft (version 3.2, dated \
    the 14th) and agreed, after some debate, that the section on \"regional variation\" needs \
    more data: at least two more seasons of measurements, preferably from the northern \
    stations. Ms. Okafor noted that the budget {travel, equipment, salaries} was already \
    stretched; Mr. Lindqvist replied that the equipment line could absorb it. Nobody \
    objected, though the chair asked for a written estimate by Friday.";

/// `save_note` with a ~2 KB body: escaped quotes, newlines, a tab.
fn large_call() -> String {
    let mut body = String::new();
    while body.len() < 2000 {
        body.push_str(PARAGRAPH);
        body.push_str("\n\n\t");
    }
    let call =
        json!({ "tool": "save_note", "arguments": { "title": "Minutes, March", "body": body } });
    call.to_string()
}

/// The JSON inside the Hermes payload.
const HERMES_JSON: &str = r#"{"name": "search", "arguments": {"query": "rainfall records northern Europe 2023", "limit": 5}}"#;

/// A Hermes / Qwen call between two paragraphs of prose.
fn hermes_payload() -> String {
    format!(
        "I can look that up. The records you mention are kept by several national services, \
         and the most complete summary is usually the annual report, so I will search for \
         that first.\n\n<tool_call>\n{HERMES_JSON}\n</tool_call>\n\nOnce the results are in, \
         I will compare the figures for each country and point out where the methods differ."
    )
}

/// An OpenAI chat completion message with one call, as its JSON text.
const OPENAI_MESSAGE: &str = r#"{"role": "assistant", "content": null, "tool_calls": [{"id": "call_8d3kq2", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\", \"units\": \"metric\"}"}}], "refusal": null}"#;

/// 100 KiB of prose with no call: paragraphs, lists, braces in sentences, markdown links,
/// a Rust code block, a JSON code block that is data (a `name` but no arguments), inline
/// code with brackets.
fn prose_100k() -> String {
    const SECTION: &str = r#"## Section {n}: what the measurements say

Over the last decade the network grew from forty stations to more than two hundred, and the
way the data is collected changed with it. Early readings were taken by hand, twice a day; the
newer stations report every ten minutes. That matters when you compare averages: a mean of two
readings is not the same as a mean of 144, especially in spring, when the temperature swings
widely between morning and afternoon. See [the methods note](https://example.org/methods) and
[appendix B](https://example.org/appendix-b) for the details.

Three things stand out:

1. Winters are getting shorter, by roughly four days per decade (the uncertainty is large).
2. Heavy rain is more frequent: the count of days above 30 mm rose in every region but one.
3. The sets {north, coast} and {south, inland} behave differently; we treat them separately.

The processing script is short. It reads each file, drops the rows flagged as faulty, and
averages by month:

```rust
fn monthly_mean(rows: &[Row]) -> Vec<f64> {
    let mut sums = [0.0; 12];
    let mut counts = [0usize; 12];
    for row in rows.iter().filter(|r| !r.faulty) {
        sums[row.month] += row.value;
        counts[row.month] += 1;
    }
    (0..12).map(|m| sums[m] / counts[m].max(1) as f64).collect()
}
```

A station's record looks like this:

```json
{"name": "Uppsala", "id": 97510, "elevation": 41, "active": true, "sensors": ["temp", "rain"]}
```

Indexing is zero-based, so `sums[0]` is January and `counts[11]` December. Note that a month
with no valid rows gives zero, not NaN: we divide by `max(1)`. Whether that is right depends
on what you do next; for plotting it is harmless, for trends it is not, and the analysis in
section {n} excludes such months explicitly. Questions? Ask the data team; they meet weekly.

"#;
    let mut text = String::with_capacity(102_400 + SECTION.len());
    let mut n = 1;
    while text.len() < 102_400 {
        text.push_str(&SECTION.replace("{n}", &n.to_string()));
        n += 1;
    }
    text.truncate(102_400);
    // End on a whole sentence.
    let end = text.rfind(". ").map_or(text.len(), |i| i + 1);
    text.truncate(end);
    text
}

fn process(driver: &Hybrid<Assistant>, response: LlmResponse<'_>) -> DriverResponse {
    complete(driver.process_llm_response(response))
}

fn parse(text: &str) -> Value {
    serde_json::from_str::<Value>(text).expect("the baseline's text is JSON")
}

/// The one call `text` holds, checked, so that every line measures a successful call.
fn check_call(
    driver: &Hybrid<Assistant>,
    tools: &[Tool],
    response: LlmResponse<'_>,
    name: &str,
) -> Extraction {
    let extraction = extract(response, tools);
    assert_eq!(extraction.calls.len(), 1, "{extraction:?}");
    assert!(extraction.malformed.is_empty(), "{extraction:?}");
    assert_eq!(extraction.calls[0].name, name);
    let answer = process(driver, response);
    assert!(answer.call_executed && !answer.call_failed, "{answer:?}");
    assert!(answer.messages.is_some());
    extraction
}

/// A call payload: from_str (baseline), process_llm_response, extract, and the parts of the
/// work after extraction (validate, execute) on the extracted call.
fn call_group(
    c: &mut Criterion,
    name: &str,
    chunk: u64,
    json_text: &str,
    response: LlmResponse<'_>,
    tool_name: &str,
) {
    // Throughput counts the bytes of what the model produced: the text, or for a native
    // message the JSON text it was parsed from.
    let bytes = match response {
        LlmResponse::Text(text) => text.len(),
        LlmResponse::Message(_) => json_text.len(),
    };
    let driver = Hybrid::new(Assistant);
    let tools = driver.list_tools();
    let extraction = check_call(&driver, &tools, response, tool_name);
    let call = &extraction.calls[0];
    let tool = tools.iter().find(|t| t.name() == tool_name).unwrap();
    assert!(validate_arguments(tool, &call.arguments).is_ok());

    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(bytes as u64));
    let mut lines = [
        line("from_str", || parse(black_box(json_text))),
        line("process_llm_response", || {
            process(black_box(&driver), black_box(response))
        }),
        line("extract", || {
            extract(black_box(response), black_box(&tools))
        }),
        line("validate", || {
            validate_arguments(black_box(tool), black_box(&call.arguments))
        }),
        line("execute", || {
            complete(
                black_box(&driver)
                    .inner()
                    .execute_tool(black_box(tool_name), black_box(&call.arguments).clone()),
            )
        }),
    ];
    measure(&mut group, chunk, 1, &mut lines);
    group.finish();
}

fn calls(c: &mut Criterion) {
    call_group(
        c,
        "small_call",
        32,
        SMALL_CALL,
        LlmResponse::Text(SMALL_CALL),
        "get_weather",
    );

    let large = large_call();
    assert!((2000..2600).contains(&large.len()), "{}", large.len());
    call_group(
        c,
        "large_call",
        8,
        &large,
        LlmResponse::Text(&large),
        "save_note",
    );

    let hermes = hermes_payload();
    call_group(
        c,
        "hermes_in_prose",
        16,
        HERMES_JSON,
        LlmResponse::Text(&hermes),
        "search",
    );

    let message = parse(OPENAI_MESSAGE);
    call_group(
        c,
        "openai_message",
        32,
        OPENAI_MESSAGE,
        LlmResponse::Message(&message),
        "get_weather",
    );
}

/// 100 KiB of prose: no JSON to parse, so the baselines are scans of the whole text.
fn prose(c: &mut Criterion) {
    let driver = Hybrid::new(Assistant);
    let tools = driver.list_tools();
    let text = prose_100k();
    let response = LlmResponse::Text(&text);
    assert!(extract(response, &tools).is_empty());
    assert!(process(&driver, response).is_empty());

    let mut group = c.benchmark_group("prose_100k");
    group.throughput(Throughput::Bytes(text.len() as u64));
    let mut lines = [
        line("contains_tool_call_tag", || {
            black_box(&text).contains(black_box("<tool_call>"))
        }),
        line("count_braces", || {
            black_box(&text).bytes().filter(|b| *b == b'{').count()
        }),
        line("process_llm_response", || {
            process(black_box(&driver), black_box(response))
        }),
        line("extract", || {
            extract(black_box(response), black_box(&tools))
        }),
    ];
    measure(&mut group, 1, 2, &mut lines);
    group.finish();
}

/// One output holding 2,000 Hermes calls, one per line: reading them costs about what
/// parsing their JSON does, whatever their number (a rule that scanned the text from its
/// start for every call once made it quadratic), and streamed as well.
fn many_calls(c: &mut Criterion) {
    const CALLS: usize = 2_000;
    let tools = Hybrid::new(Assistant).list_tools();
    let body = r#"{"name": "get_time", "arguments": {}}"#;
    let text = format!("<tool_call>{body}</tool_call>\n").repeat(CALLS);
    let response = LlmResponse::Text(&text);
    assert_eq!(extract(response, &tools).calls.len(), CALLS);

    let mut group = c.benchmark_group("hermes_2000_calls");
    group.throughput(Throughput::Bytes(text.len() as u64));
    let mut lines = [
        line("from_str_each_call", || {
            for _ in 0..CALLS {
                black_box(parse(black_box(body)));
            }
        }),
        line("extract", || {
            extract(black_box(response), black_box(&tools))
        }),
        line("stream_reader_4_bytes", || {
            read_streamed(black_box(&tools), black_box(&text))
        }),
    ];
    measure(&mut group, 1, 1, &mut lines);
    group.finish();
}

/// Every model output of the extraction corpus (`mcs-extract/tests/corpus/*.toml`), as text.
fn corpus() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mcs-extract/tests/corpus");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("the corpus directory")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    paths.sort();
    let mut texts = Vec::new();
    for path in paths {
        let file: toml::Table = std::fs::read_to_string(&path)
            .expect("a corpus file")
            .parse()
            .expect("valid TOML");
        let cases = file.get("case").and_then(toml::Value::as_array);
        for case in cases.into_iter().flatten() {
            if let Some(input) = case.get("input").and_then(toml::Value::as_str) {
                texts.push(input.to_owned());
            }
        }
    }
    texts
}

/// Feeds `text` to `reader` in pieces of about `size` bytes (on character boundaries).
fn pieces(text: &str, size: usize) -> impl Iterator<Item = &str> {
    let mut from = 0;
    std::iter::from_fn(move || {
        if from >= text.len() {
            return None;
        }
        let mut to = (from + size).min(text.len());
        while !text.is_char_boundary(to) {
            to += 1;
        }
        let piece = &text[from..to];
        from = to;
        Some(piece)
    })
}

/// What a stream reader makes of `text` in 4-byte pieces.
fn read_streamed(tools: &Arc<[Tool]>, text: &str) -> StreamEnd {
    let mut reader = StreamReader::new(Arc::clone(tools));
    for piece in pieces(text, 4) {
        reader.feed_text(piece).for_each(drop);
    }
    reader.finish()
}

/// What a driver answers to `text` streamed to it in 4-byte pieces.
fn process_streamed(driver: &Hybrid<Assistant>, text: &str) -> DriverResponse {
    let mut stream = driver.process_llm_stream(StreamOptions::default());
    for piece in pieces(text, 4) {
        drop(complete(stream.feed_text(piece)));
    }
    complete(stream.finish()).response
}

/// Streaming against the batch path on the same outputs: the whole corpus, and 100 KiB of
/// prose, each fed in 4-byte pieces. Baseline: `process_llm_response` on the whole text.
fn streamed(c: &mut Criterion) {
    let driver = Hybrid::new(Assistant);
    let tools = driver.list_tools();
    let outputs = corpus();
    for text in &outputs {
        assert_eq!(
            process_streamed(&driver, text),
            process(&driver, text.as_str().into())
        );
        assert_eq!(
            read_streamed(&tools, text).extraction,
            extract(text.as_str().into(), &tools)
        );
    }
    let bytes: usize = outputs.iter().map(String::len).sum();
    let mut group = c.benchmark_group("corpus_streamed");
    group.throughput(Throughput::Bytes(bytes as u64));
    let mut lines = [
        line("process_llm_response", || {
            for text in black_box(&outputs) {
                black_box(process(&driver, text.as_str().into()));
            }
        }),
        line("process_llm_stream_4_bytes", || {
            for text in black_box(&outputs) {
                black_box(process_streamed(&driver, text));
            }
        }),
        line("extract", || {
            for text in black_box(&outputs) {
                black_box(extract(text.as_str().into(), &tools));
            }
        }),
        line("stream_reader_4_bytes", || {
            for text in black_box(&outputs) {
                black_box(read_streamed(&tools, text));
            }
        }),
    ];
    measure(&mut group, 1, 1, &mut lines);
    group.finish();

    let text = prose_100k();
    let mut group = c.benchmark_group("prose_100k_streamed");
    group.throughput(Throughput::Bytes(text.len() as u64));
    let mut lines = [
        line("process_llm_response", || {
            process(black_box(&driver), black_box(text.as_str()).into())
        }),
        line("process_llm_stream_4_bytes", || {
            process_streamed(black_box(&driver), black_box(&text))
        }),
        line("extract", || {
            extract(black_box(text.as_str()).into(), black_box(&tools))
        }),
        line("stream_reader_4_bytes", || {
            read_streamed(black_box(&tools), black_box(&text))
        }),
    ];
    measure(&mut group, 1, 1, &mut lines);
    group.finish();
}

criterion_group!(benches, calls, prose, many_calls, streamed);
criterion_main!(benches);
