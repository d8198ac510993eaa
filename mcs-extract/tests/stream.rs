//! Streaming equals batch: every corpus output, split at every character, in small
//! pieces, at random points and around every delimiter, ends in exactly what
//! `extract` finds in the whole text; the calls reported on the way are those calls, in
//! order; and the text shown never holds any of a call's markup.

mod common;

use std::sync::OnceLock;

use common::{
    corpus_event_streams, corpus_inputs, fragments, mutated_corpus, stream_events, tools,
};
use mcs_core::{LlmResponse, Tool};
use mcs_extract::stream::{StreamEvent, StreamReader};
use mcs_extract::{Extraction, extract};
use proptest::prelude::*;
use serde_json::{Value, json};

fn shared_tools() -> &'static [Tool] {
    static TOOLS: OnceLock<Vec<Tool>> = OnceLock::new();
    TOOLS.get_or_init(tools)
}

fn event_streams() -> &'static [Vec<Value>] {
    static STREAMS: OnceLock<Vec<Vec<Value>>> = OnceLock::new();
    STREAMS.get_or_init(corpus_event_streams)
}

fn corpus() -> &'static [String] {
    static CORPUS: OnceLock<Vec<String>> = OnceLock::new();
    CORPUS.get_or_init(|| corpus_inputs().0)
}

/// What a stream gave: every event, and the final extraction.
struct Streamed {
    events: Vec<StreamEvent>,
    extraction: Extraction,
}

impl Streamed {
    /// The text shown, without what a `TextWasReasoning` took back.
    fn text(&self) -> String {
        let mut shown = String::new();
        for event in &self.events {
            match event {
                StreamEvent::Text(text) => shown.push_str(text),
                StreamEvent::TextWasReasoning => shown.clear(),
                _ => {}
            }
        }
        shown
    }
}

fn stream(pieces: &[&str]) -> Streamed {
    let mut reader = StreamReader::new(shared_tools().to_vec());
    let mut events = Vec::new();
    for piece in pieces {
        events.extend(reader.feed_text(piece));
    }
    let end = reader.finish();
    events.extend(end.events);
    Streamed {
        events,
        extraction: end.extraction,
    }
}

/// The text cut at `cuts` (sorted character boundaries).
fn split<'t>(text: &'t str, cuts: &[usize]) -> Vec<&'t str> {
    let mut pieces = Vec::new();
    let mut from = 0;
    for &cut in cuts {
        if cut > from && cut < text.len() {
            pieces.push(&text[from..cut]);
            from = cut;
        }
    }
    pieces.push(&text[from..]);
    pieces
}

/// What `text` is read as in one piece: the reference every way of streaming it must meet.
struct Whole {
    /// What the batch path finds.
    batch: Extraction,
    /// The text a stream shows when fed the whole output at once.
    shown: String,
}

impl Whole {
    fn of(text: &str) -> Self {
        Self {
            batch: extract(LlmResponse::Text(text), shared_tools()),
            shown: stream(&[text]).text(),
        }
    }
}

/// Checks one way of streaming `text`; returns what is wrong, if anything.
fn check(text: &str, pieces: &[&str], how: &str) -> Result<(), String> {
    check_against(text, &Whole::of(text), pieces, how)
}

/// [`check`] against a reference read once, for tests that stream one text many ways.
fn check_against(text: &str, whole: &Whole, pieces: &[&str], how: &str) -> Result<(), String> {
    let batch = &whole.batch;
    let got = stream(pieces);
    let fail = |what: String| Err(format!("{how}: {what}\ntext: {text:?}\npieces: {pieces:?}"));
    if got.extraction != *batch {
        return fail(format!(
            "the stream ended in\n{:#?}\nbut the batch path finds\n{batch:#?}",
            got.extraction
        ));
    }
    let calls: Vec<_> = got
        .events
        .iter()
        .filter_map(|event| match event {
            StreamEvent::Call { call, .. } => Some(call.clone()),
            _ => None,
        })
        .collect();
    if calls != batch.calls {
        return fail(format!("calls reported: {calls:#?}"));
    }
    let failed: Vec<_> = got
        .events
        .iter()
        .filter_map(|event| match event {
            StreamEvent::CallFailed { call, .. } => Some(call.clone()),
            _ => None,
        })
        .collect();
    if failed != batch.malformed {
        return fail(format!("broken calls reported: {failed:#?}"));
    }
    // The text shown is what the whole output shows.
    if pieces.len() > 1 && got.text() != whole.shown {
        return fail(format!(
            "shows {:?} but in one piece {:?}",
            got.text(),
            whole.shown
        ));
    }
    // Each call's index counts from 0 in order, and comes after its CallBegun.
    let mut next = 0;
    let mut begun = std::collections::HashSet::new();
    for event in &got.events {
        match event {
            StreamEvent::CallBegun { index, .. } => {
                begun.insert(*index);
            }
            StreamEvent::Call { index, .. } => {
                if *index != next || !begun.contains(index) {
                    return fail(format!("call {index} out of order in {:#?}", got.events));
                }
                next += 1;
            }
            StreamEvent::CallFailed { index, .. } => {
                if *index != next {
                    return fail(format!("broken call {index} out of order"));
                }
                next += 1;
            }
            _ => {}
        }
    }
    Ok(())
}

#[test]
fn every_corpus_output_in_one_piece_and_in_pieces_of_every_size() {
    let mut failures = Vec::new();
    for text in corpus() {
        let boundaries: Vec<usize> = text.char_indices().map(|(i, _)| i).skip(1).collect();
        let whole = Whole::of(text);
        let mut ways: Vec<(String, Vec<&str>)> = vec![("whole".into(), vec![text.as_str()])];
        ways.push(("each character".into(), split(text, &boundaries)));
        for size in [2, 3, 4, 7, 16] {
            let cuts: Vec<usize> = boundaries
                .iter()
                .copied()
                .filter(|at| at % size == 0)
                .collect();
            ways.push((format!("{size}-byte pieces"), split(text, &cuts)));
        }
        for (how, pieces) in &ways {
            if let Err(problem) = check_against(text, &whole, pieces, how) {
                failures.push(problem);
                break;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} outputs:\n\n{}",
        failures.len(),
        corpus().len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_corpus_output_split_once_at_every_character() {
    let mut failures = Vec::new();
    for text in corpus() {
        let whole = Whole::of(text);
        for (at, _) in text.char_indices().skip(1) {
            let pieces = [&text[..at], &text[at..]];
            if let Err(problem) = check_against(text, &whole, &pieces, &format!("split at {at}")) {
                failures.push(problem);
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// `text` cut at the characters `cuts` pick.
fn cut_at(text: &str, cuts: &[prop::sample::Index]) -> Vec<String> {
    let boundaries: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    let mut cuts: Vec<usize> = cuts.iter().map(|cut| *cut.get(&boundaries)).collect();
    cuts.sort_unstable();
    cuts.dedup();
    split(text, &cuts).into_iter().map(str::to_owned).collect()
}

/// How many cases a property tries: `default`, or `MCS_STREAM_CASES` for a longer hunt.
fn cases(default: u32) -> u32 {
    std::env::var("MCS_STREAM_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(2000)))]

    /// Delimiters, JSON and unicode of every format in any order, cut anywhere.
    #[test]
    fn fragment_soup_streams_as_it_reads(
        text in fragments(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..16),
    ) {
        let pieces = cut_at(&text, &cuts);
        let pieces: Vec<&str> = pieces.iter().map(String::as_str).collect();
        if let Err(problem) = check(&text, &pieces, "fragment soup") {
            prop_assert!(false, "{}", problem);
        }
    }

    /// Corpus outputs with two characters swapped and cut short, cut anywhere.
    #[test]
    fn mutated_outputs_stream_as_they_read(
        text in mutated_corpus(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..16),
    ) {
        let pieces = cut_at(&text, &cuts);
        let pieces: Vec<&str> = pieces.iter().map(String::as_str).collect();
        if let Err(problem) = check(&text, &pieces, "mutated output") {
            prop_assert!(false, "{}", problem);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(512)))]

    #[test]
    fn corpus_outputs_split_at_random(
        which in any::<prop::sample::Index>(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..24),
    ) {
        let text = which.get(corpus());
        let boundaries: Vec<usize> =
            text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        let mut cuts: Vec<usize> = cuts.iter().map(|cut| *cut.get(&boundaries)).collect();
        cuts.sort_unstable();
        cuts.dedup();
        let pieces = split(text, &cuts);
        if let Err(problem) = check(text, &pieces, "random cuts") {
            prop_assert!(false, "{}", problem);
        }
    }
}

/// JSON pointers to every scalar in `value`.
fn leaves(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let key = key.replace('~', "~0").replace('/', "~1");
                leaves(inner, format!("{at}/{key}"), out);
            }
        }
        Value::Array(items) => {
            for (index, inner) in items.iter().enumerate() {
                leaves(inner, format!("{at}/{index}"), out);
            }
        }
        _ => out.push(at),
    }
}

/// One change to a recorded provider stream: an event dropped, repeated, moved, or the
/// stream cut short; or one of its values cut, grown, or given another type.
fn mutate(events: &mut Vec<Value>, how: u8, a: prop::sample::Index, b: prop::sample::Index) {
    if events.is_empty() {
        return;
    }
    let (at, other) = (a.index(events.len()), b.index(events.len()));
    match how % 6 {
        0 if events.len() > 1 => {
            events.remove(at);
        }
        0 => {}
        1 => {
            let copy = events[at].clone();
            events.insert(at, copy);
        }
        2 => events.swap(at, other),
        3 => events.truncate(at + 1),
        _ => {
            let mut found = Vec::new();
            leaves(&events[at], String::new(), &mut found);
            if found.is_empty() {
                return;
            }
            let pointer = &found[b.index(found.len())];
            let Some(leaf) = events[at].pointer_mut(pointer) else {
                return;
            };
            *leaf = match (how % 6, &*leaf) {
                (4, Value::String(text)) => {
                    let ends: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
                    let end = ends
                        .get(b.index(ends.len() + 1))
                        .copied()
                        .unwrap_or(text.len());
                    json!(text[..end])
                }
                (4, Value::Number(_)) => json!(u64::MAX),
                (_, Value::String(text)) => json!(format!("{text}{text}")),
                (_, Value::Bool(flag)) => json!(!flag),
                (_, Value::Null) => json!("x"),
                _ => json!(-1),
            };
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(512)))]

    /// Recorded provider streams with events dropped, repeated, moved or cut short, and
    /// values cut or of another type: never a panic, the calls reported on the way are the
    /// calls the stream ends with, and those are what the batch path finds in the message
    /// the events made up.
    #[test]
    fn mutated_provider_streams_read_as_their_message(
        which in any::<prop::sample::Index>(),
        changes in prop::collection::vec(
            (any::<u8>(), any::<prop::sample::Index>(), any::<prop::sample::Index>()),
            1..5,
        ),
    ) {
        let mut events = which.get(event_streams()).clone();
        for (how, a, b) in changes {
            mutate(&mut events, how, a, b);
        }
        if let Err(problem) = stream_events(&events, shared_tools()) {
            prop_assert!(false, "{}\nevents: {}", problem, Value::Array(events));
        }
    }
}

/// `STREAM_TEXT=… STREAM_CUTS=3,17 cargo test --test stream replay -- --ignored`: one
/// case, streamed against batch, both printed: for reading a failure of the properties.
#[test]
#[ignore = "a tool for reading failures"]
fn replay() {
    let text = std::env::var("STREAM_TEXT").unwrap_or_default();
    let cuts: Vec<usize> = std::env::var("STREAM_CUTS")
        .unwrap_or_default()
        .split(',')
        .filter_map(|cut| cut.trim().parse().ok())
        .collect();
    let pieces = split(&text, &cuts);
    if let Err(problem) = check(&text, &pieces, "replay") {
        panic!("{problem}");
    }
}

/// Every corpus output cut at every character: each call read from what is there is a call
/// of the whole output, with the same arguments — a call cut off is never read as one with
/// what was there. Free-text inputs (ReAct, LangChain's XML agent) are the exception: their
/// end is the end of the output (servers strip the stop sequence after them), so a cut
/// one cannot be told from a whole one.
#[test]
fn nothing_cut_off_is_read_as_a_call() {
    use mcs_extract::CallFormat;
    let mut failures = Vec::new();
    for text in corpus() {
        let whole = extract(LlmResponse::Text(text), shared_tools());
        // Reasoning whose opener was in the prompt: cut before its closer, the drafts in it
        // read as calls (which is why a stream holds calls back until that is settled).
        let prompted = [
            "</think>",
            "</thinking>",
            "<|close|>think",
            "<|think:end|>",
            "<|plamo:end_think:plamo|>",
            "</think:",
        ]
        .iter()
        .any(|closer| text.contains(closer))
            && !text.contains("<think>")
            && !text.contains("<thinking>")
            && !text.contains("<|think:start|>")
            && !text.contains("<|plamo:begin_think:plamo|>")
            && !text.contains("<think:");
        if whole.calls.is_empty() || prompted || common::starts_as_transcript(text) {
            continue;
        }
        for (at, _) in text.char_indices() {
            let cut = &text[..at];
            // Cut inside reasoning opened in the output, right after a draft in it: the
            // block never closes and ends in calls, which is read as a model that went
            // from thinking to calling without the closer (see `read_calls_ending_reasoning`).
            if ends_inside_reasoning(cut) {
                continue;
            }
            let got = extract(LlmResponse::Text(cut), shared_tools());
            let mut of_whole = whole.calls.iter();
            for call in &got.calls {
                if matches!(call.format, CallFormat::React | CallFormat::LangChainXml) {
                    continue;
                }
                let same = of_whole
                    .by_ref()
                    .any(|c| c.name == call.name && c.arguments == call.arguments);
                if !same && !cut_at_markup(call, &whole.calls) {
                    failures.push(format!(
                        "cut after {at} bytes, {} {} was read, which the whole output does not call\ncut: {cut:?}",
                        call.name, call.arguments
                    ));
                    break;
                }
            }
            if failures.len() > 20 {
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Whether `call`, read from a cut output, is a call of the whole output whose value was
/// cut right before a closing tag it holds (`…new</parameter>⏎ </invoke>` of a diff in a
/// value): cut there, the value and its close read as a whole call, and no reader can tell
/// (the whole output decides it by what follows). Every other argument is the same.
fn cut_at_markup(call: &mcs_extract::FoundCall, whole: &[mcs_extract::FoundCall]) -> bool {
    use serde_json::Value;
    let (Value::Object(cut), false) = (&call.arguments, whole.is_empty()) else {
        return false;
    };
    whole.iter().any(|of_whole| {
        let Value::Object(full) = &of_whole.arguments else {
            return false;
        };
        of_whole.name == call.name
            && cut.iter().all(|(key, value)| match (value, full.get(key)) {
                (Value::String(cut), Some(Value::String(full))) => full
                    .strip_prefix(cut.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.trim_start().starts_with("</")),
                (value, full) => full == Some(value),
            })
    })
}

/// Whether `text` ends inside a reasoning block it opens (an opener after its last closer).
fn ends_inside_reasoning(text: &str) -> bool {
    [
        ("<think>", "</think>"),
        ("<thinking>", "</thinking>"),
        ("[THINK]", "[/THINK]"),
        ("<seed:think>", "</seed:think>"),
        ("<|START_THINKING|>", "<|END_THINKING|>"),
        ("<|channel>thought", "<channel|>"),
        ("<|open|>think<|sep|>", "<|close|>think<|sep|>"),
        ("◁think▷", "◁/think▷"),
        ("<|channel|>analysis<|message|>", "<|end|>"),
        ("<|think:start|>", "<|think:end|>"),
        ("<|plamo:begin_think:plamo|>", "<|plamo:end_think:plamo|>"),
        ("<|content_thinking|>", "<|end_message|>"),
        ("<think:", "</think:"),
    ]
    .iter()
    .any(|(opener, closer)| {
        text.rfind(opener)
            .is_some_and(|open| text.rfind(closer).is_none_or(|close| close < open))
    })
}

/// An output that ends right after a call's opening marker holds a call cut off there: it
/// never runs, it is reported (so that the model may write it again), and its opener is
/// not shown as text. Streamed, it is what the whole output is.
#[test]
fn an_opener_with_nothing_after_it_is_a_call_cut_off() {
    for opener in [
        "<tool_call>",
        "[TOOL_CALLS]",
        "<|python_tag|>",
        "<｜tool▁calls▁begin｜>",
        "<|tool_calls_section_begin|>",
        "<function=",
        "<minimax:tool_call>",
        "<function_calls>",
        "<｜DSML｜tool_calls>",
        "<｜DSML｜ calls>",
        "<|open|>tools<|sep|>",
        "<|tool_call>",
        "<tool_calls>",
        "<TOOLCALL>",
        "<|START_ACTION|>",
        "functools[",
        "<|tool_call_start|>",
        "```tool_code",
    ] {
        for text in [format!("Sure.\n{opener}"), format!("Sure.\n{opener}\n  ")] {
            let got = extract(LlmResponse::Text(&text), shared_tools());
            assert!(got.calls.is_empty(), "{text:?}: {got:#?}");
            assert!(
                got.malformed.len() == 1 && got.malformed[0].cut_off,
                "{text:?}: {got:#?}"
            );
            let half = (0..=text.len() / 2)
                .rev()
                .find(|at| text.is_char_boundary(*at))
                .unwrap_or(0);
            let streamed = stream(&[&text[..half], &text[half..]]);
            assert_eq!(streamed.extraction, got, "{text:?}");
            assert!(
                !streamed.text().contains(opener.trim_end()),
                "{text:?}: {}",
                streamed.text()
            );
        }
    }
}

/// Found by `MCS_STREAM_CASES=300000` (sessions 36 and 37): after a soup of openers that
/// hold no call, in an unclosed ```` ```json ```` fence or not, the stream reported broken
/// bare JSON that the batch path did not, when the output was cut inside the soup. Since
/// session 38 a sample's region is settled before the delimiters after it are read.
#[test]
fn opener_soups_stream_as_they_read() {
    // (what, output, where the second piece starts: at the last match of this)
    let soups = [
        (
            "fence soup",
            "```json\n<|tool_call><tool_call></parameter>{\"city\": \"Paris\"}<tool_call><|python_tag|>Action: <tool_call><|message|>{\"name\": \"arguments\": <|tool_call>\n",
            "ol_call><|message|>",
        ),
        (
            "opener soup",
            "><function_calls><｜DSML｜ calls>call tool=\"<seed:tool_call><tool_call><｜DSML｜tool_calls>```tool_code\n{\"name\": \"get_weather\"",
            "{\"name\"",
        ),
        (
            "fence and opener soup",
            "```json\n<function_calls><|python_tag|><tool_call><function=<function name=\"<seed:tool_call><｜DSML｜function_calls><|channel|>commentary {\"name\": \"get_weather\"</tool_calls><tool_call>",
            "n_calls><|channel|>",
        ),
        // An open fence, Claude's wrapper, Hermes openers, then bare JSON cut by the end,
        // cut inside the run of openers.
        (
            "fence, wrapper, openers",
            "```json\n<function_calls><tool_call><tool_call><tool_call><tool_call><tool_call><tool_call><tool_call><tool_call><tool_call><tool_call|>{\"name\": \"get_weather\"",
            "ol_call><tool_call|>",
        ),
        // A broken call in the gap before a region, whose snippet ran into the end of the
        // text so far: it was reported with a shorter snippet when streamed (session 39:
        // the gap and the region wait).
        (
            "broken JSON before channels",
            "{\"name\": \"get_weather\"<|open|>response<|sep|><|close|>response<|sep|><|action_end|><function_calls>",
            "<|action_end|>",
        ),
        (
            "ReAct action before openers",
            "Action: get_weather<tool_call><tool_call><|python_start|></parameter><function_calls>",
            "<|python_start|>",
        ),
    ];
    assert_eq!(soup_problems(&soups), Vec::<String>::new());
}

/// Known and not yet fixed (found by `MCS_STREAM_CASES=300000`, session 38): the stream
/// reports a broken call that the batch path does not when the output is cut inside a soup
/// of openers. It fails at 0377757 too.
#[test]
#[ignore = "a known difference between the stream and the batch path, see the comment"]
fn soups_that_stream_otherwise() {
    let soups = [
        // A DSML opener followed by `:`, then DeepSeek's tokens, cut inside the last
        // end-of-turn token: the stream reports the DSML call broken, the batch path does not.
        (
            "DSML opener before an end-of-turn token",
            "<|eot_id|><tool_call>&quot;</TOOLCALL><｜DSML｜tool_calls>:<｜tool▁calls▁begin｜><｜tool▁call▁end｜><|python_start|><｜tool▁calls▁begin｜><|eot_id|>",
            "d|>",
        ),
    ];
    let problems = soup_problems(&soups);
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// What is wrong with streaming each soup in two pieces, the second starting at the last
/// match of its marker.
fn soup_problems(soups: &[(&str, &str, &str)]) -> Vec<String> {
    soups
        .iter()
        .filter_map(|(what, text, second)| {
            let cut = text.rfind(second).unwrap_or_default();
            check(text, &[&text[..cut], &text[cut..]], what).err()
        })
        .collect()
}

/// Found by the mutated outputs run long: a Glimmer message to one tool whose first invoke
/// is broken and whose second names another tool. The broken invoke was reported while
/// streaming, then taken back when the second invoke made the message a mismatch; the
/// header is now compared with the first invoke alone.
#[test]
fn a_glimmer_message_with_a_broken_first_invoke_streams_as_it_reads() {
    let text = " to=get_weather<|message|><atem:function_calls>\n<atem:invoken ame=\"get_weather\">\n<atem:parameter name=\"city\">Reykjavík</atem:parameter>\n<atem:parameter name=\"days\">2</atem:parameter>\n</atem:invoke>\n<atem:invoke name=\"search\">\n<atem:parameter name=\"query\">northern lights forecast</atem:parameter>\n</atem:invoke>";
    let cut = text.find(" name=\"query\"").unwrap();
    check(text, &[&text[..cut], &text[cut..]], "glimmer").unwrap();
    // A message to the user that is a call until prose follows it: nothing is reported
    // before the message ends.
    let text = " to=user<|message|><atem:function_calls>\n<atem:invoke name=\"get_weather\">\n<atem:parameter name=\"city\">Oslo</atem:parameter>\n</atem:invoke>\n</atem:function_calls>\nDone.<|eot|>";
    for cut in 1..text.len() {
        if text.is_char_boundary(cut) {
            check(text, &[&text[..cut], &text[cut..]], "glimmer to the user").unwrap();
        }
    }
}

/// Found by the mutated outputs run long: a ReAct input whose last line, still being
/// written, was blank so far. It ended the input as a blank line does, and the text after
/// it was shown; a line ends an input only once it is whole.
#[test]
fn a_react_input_whose_last_line_is_blank_so_far_streams_as_it_reads() {
    let text = "Thought: I need to use a tool to email the summary.\nAction: send_email\nAction Input:\"{\n   to\": [\"ops@example.com\", \"lead@example.com\"],\n  \"subject\": \"Nightly build\",\n  \"body\": \"Build #812 passed.\\nNo";
    let cut = text.find(" \"body\"").unwrap() + 1;
    check(text, &[&text[..cut], &text[cut..]], "react").unwrap();
}

/// A transcript handed back as the output (a prompt decoded with its answer) is read at its
/// end, from the model's last turn: no call of an earlier turn is reported on the way, and
/// the text shown is the last turn's, not the prompt's.
#[test]
fn a_transcript_is_read_from_its_last_turn_at_its_end() {
    let text = "<|im_start|>system\nCall tools as <tool_call>{\"name\": <name>}</tool_call>.<|im_end|>\n\
                <|im_start|>user\nWeather in Porto?<|im_end|>\n<|im_start|>assistant\n\
                <tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Porto\"}}\n</tool_call><|im_end|>\n\
                <|im_start|>user\n<tool_response>\n{\"temp_c\": 19}\n</tool_response><|im_end|>\n\
                <|im_start|>assistant\nAnd the time:\n<tool_call>\n{\"name\": \"get_time\", \"arguments\": {}}\n</tool_call><|im_end|>";
    let pieces: Vec<&str> = split(
        text,
        &(1..text.len())
            .step_by(7)
            .filter(|&at| text.is_char_boundary(at))
            .collect::<Vec<_>>(),
    );
    let mut reader = StreamReader::new(shared_tools().to_vec());
    for piece in &pieces {
        let events: Vec<StreamEvent> = reader.feed_text(piece).collect();
        assert!(events.is_empty(), "decided before the end: {events:?}");
    }
    let end = reader.finish();
    let calls: Vec<&str> = end
        .events
        .iter()
        .filter_map(|event| match event {
            StreamEvent::Call { call, .. } => Some(call.name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(calls, ["get_time"]);
    let shown: String = end
        .events
        .iter()
        .filter_map(|event| match event {
            StreamEvent::Text(text) => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(shown.trim(), "And the time:");
    assert_eq!(
        end.output,
        mcs_extract::stream::StreamOutput::Text(text.to_owned())
    );
    check(text, &pieces, "transcript").unwrap();
    // A model's own turn that runs on into a made-up user turn is no transcript: its call
    // is reported as it completes.
    let own = "<|im_start|>assistant\n<tool_call>\n{\"name\": \"get_time\", \"arguments\": {}}\n</tool_call><|im_end|>\n<|im_start|>user\nhi";
    let mut reader = StreamReader::new(shared_tools().to_vec())
        .with_reasoning(mcs_extract::ReasoningStart::Outside);
    let cut = own.find("<|im_end|>").unwrap();
    let early: Vec<StreamEvent> = reader.feed_text(&own[..cut]).collect();
    assert!(
        early
            .iter()
            .any(|event| matches!(event, StreamEvent::Call { .. })),
        "{early:?}"
    );
}
