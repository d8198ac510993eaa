//! The delimiters of native formats, found in one pass, and the parser each one starts.
//!
//! Every delimiter is searched for at once (Aho-Corasick), leftmost first. The parser of
//! the format reads from the delimiter on, records what it finds, and says where its
//! region ends; scanning resumes there. A parser may decline a match that turns out not to
//! be its format (`>>>` of a Python prompt), and the text stays ordinary text.
//!
//! A delimiter can also be merely mentioned: "Qwen writes `<tool_call>` followed by JSON".
//! Reporting that as a malformed call would make the driver ask the model to retry an
//! answer that was fine, so [`opens_call`] tells mentions from calls, once for every
//! format, before any parser runs.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, Input, MatchKind};

use super::reasoning::{Prefixes, partial_start};
use super::record::Cx;
use super::scan::{byte_at, floor_boundary, name_end, skip_ws, starts_at};
use super::{channels, elements, horizon, pythonic, tagged, tokens, work, xml};
use mcs_core::call::CallFormat;

/// A format reader: given the delimiter's start and end, records the calls and returns the
/// end of the region it read, or `None` when the match is not its format after all.
pub(crate) type Parser = fn(&mut Cx<'_>, usize, usize) -> Option<usize>;

/// Delimiter → parser, and the format a call cut off right after it is reported in (none
/// for `>>>`, which also ends Python prompts). Order does not matter: the longest match at
/// the leftmost position wins (`<tool_call>` vs `<tool_calls>`, `<|tool_call>` vs
/// `<|tool_call|>`).
pub(crate) const DELIMITERS: &[(&str, Parser, Option<CallFormat>)] = &[
    ("<tool_call>", tagged::hermes, Some(CallFormat::Hermes)),
    ("<|tool_call|>", tagged::granite, Some(CallFormat::Granite)),
    (
        "<function_call>",
        tagged::granite_fc,
        Some(CallFormat::Granite),
    ),
    (
        "<tool_calls>",
        tagged::tool_calls_tag,
        Some(CallFormat::MiniMaxM1),
    ),
    ("<TOOLCALL>", tagged::nemotron, Some(CallFormat::Nemotron)),
    ("<tool:", tagged::cwm, Some(CallFormat::Cwm)),
    ("<ifm|tool_calls>", tagged::k2, Some(CallFormat::K2)),
    // Hunyuan's tags with the checkpoint's suffix (`<tool_calls:opensource>`,
    // `<tool_call:6124c78e>`); `<tool_call>` and `<tool_calls>` are longer, and win.
    ("<tool_call", tagged::hunyuan, Some(CallFormat::Hunyuan)),
    (
        "<|tool_call:start|>",
        tagged::solar_open,
        Some(CallFormat::SolarOpen),
    ),
    // A wrapper named after the model (`<dots_function_call>`, `<iquestcoder_tool_call>`):
    // found by its end, the tag's start looked for before it (see `NAMED`).
    ("_call>", tagged::named_wrapper, Some(CallFormat::Hermes)),
    // Claude's markup in a namespace of its own (`<atem:function_calls>`), found the same way.
    (
        ":function_calls>",
        xml::namespaced_invokes,
        Some(CallFormat::ClaudeXml),
    ),
    (
        "]<]minimax[>[<tool_call>",
        elements::minimax_m3,
        Some(CallFormat::MiniMaxM3),
    ),
    ("<ifm|tool_call>", tagged::k2, Some(CallFormat::K2)),
    (
        "<|action_start|>",
        tagged::internlm,
        Some(CallFormat::InternLm),
    ),
    (
        "<|tools_prefix|>",
        tagged::apertus,
        Some(CallFormat::Apertus),
    ),
    (
        "<|START_ACTION|>",
        tagged::command_r,
        Some(CallFormat::CommandR),
    ),
    ("functools[", tagged::phi4_mini, Some(CallFormat::Phi4Mini)),
    ("[TOOL_CALLS]", tokens::mistral, Some(CallFormat::Mistral)),
    ("<|python_tag|>", tokens::llama3, Some(CallFormat::Llama3)),
    (
        "<|plamo:begin_tool_request",
        tokens::plamo,
        Some(CallFormat::Plamo),
    ),
    ("to=functions.", tokens::harmony, Some(CallFormat::Harmony)),
    // Kimi's `<|tool_calls_section_begin|>` and `<|tool_call_begin|>`, by their shared
    // prefix; the longer tokens that start so (`<|tool_call|>`, `<|tool_call>`, …) win.
    ("<|tool_call", tokens::kimi_tokens, Some(CallFormat::KimiK2)),
    (
        "<|message_model|>",
        tokens::inkling,
        Some(CallFormat::Inkling),
    ),
    ("<｜tool", tokens::deepseek, Some(CallFormat::DeepSeek)),
    ("<|tool▁", tokens::deepseek, Some(CallFormat::DeepSeek)),
    // DeepSeek's tokens written as ASCII text by a model run without them (`|` for `｜`,
    // `_` for `▁`); Kimi's section token is `<|tool_calls_section_begin|>`.
    (
        "<|tool_calls_begin|>",
        tokens::deepseek,
        Some(CallFormat::DeepSeek),
    ),
    (">>>", tokens::functionary, None),
    ("<|tool_call>", tokens::gemma4, Some(CallFormat::Gemma4)),
    ("call:", tokens::gemma4_bare, None),
    (
        "<start_function_call>",
        tokens::function_gemma,
        Some(CallFormat::Gemma4),
    ),
    // `<function=NAME>`, `<function name="NAME">` (also MiniCPM 5's with a byte-level
    // tokenizer's `Ġ` for the blank, or none): `xml::function_open` tells.
    ("<function", xml::function_tag, Some(CallFormat::Qwen3Coder)),
    ("<seed:tool_call>", xml::seed_oss, Some(CallFormat::SeedOss)),
    (
        "<minimax:tool_call>",
        xml::minimax_m2,
        Some(CallFormat::MiniMaxM2),
    ),
    (
        "<function_calls>",
        xml::claude_xml,
        Some(CallFormat::ClaudeXml),
    ),
    ("<｜DSML｜", xml::dsml, Some(CallFormat::DeepSeekDsml)),
    ("<|DSML|", xml::dsml, Some(CallFormat::DeepSeekDsml)),
    ("<｜GCML｜", xml::dsml, Some(CallFormat::GigaChat)),
    (
        "<|open|>tools<|sep|>",
        channels::kimi_k3,
        Some(CallFormat::KimiK3),
    ),
    ("<|open|>call", channels::kimi_k3, Some(CallFormat::KimiK3)),
    (
        "<|python_start|>",
        pythonic::python_start,
        Some(CallFormat::Pythonic),
    ),
    (
        "<|tool_call_start|>",
        pythonic::lfm2,
        Some(CallFormat::Lfm2),
    ),
    (
        "```tool_code",
        pythonic::tool_code,
        Some(CallFormat::GemmaToolCode),
    ),
];

/// Every pattern the automaton finds: the call delimiters, then the openers of prose
/// channels and of results the model made up (see `channels`).
///
/// At most 64 of them: past that, the automaton cannot use its SIMD prefilter (Teddy), and
/// prose is searched at half the speed.
fn patterns() -> impl Iterator<Item = &'static str> + Clone {
    DELIMITERS
        .iter()
        .map(|(pattern, ..)| *pattern)
        .chain(channels::prose_openers())
        .chain(channels::RESULT_OPENERS.iter().copied())
}

fn automaton() -> Option<&'static AhoCorasick> {
    static AUTOMATON: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    AUTOMATON
        .get_or_init(|| {
            AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostLongest)
                .build(patterns())
                .ok()
        })
        .as_ref()
}

/// A delimiter found in the text.
#[derive(Clone, Copy)]
pub(crate) struct Delimiter {
    pub start: usize,
    pub end: usize,
    pub parser: Parser,
    /// The format of a call cut off right after the delimiter.
    pub format: Option<CallFormat>,
    /// A prose channel or a made-up result: it opens wherever it stands (its parser tells),
    /// and holds no call.
    pub prose: bool,
}

/// The delimiters that end a tag named after a model (`_call>` of `<dots_tool_call>`) or
/// in a namespace (`:function_calls>` of `<atem:function_calls>`): the delimiter starts at
/// the tag's `<`, and the tag ends in one of [`NAMED_ENDS`].
const NAMED: &[&str] = &["_call>", ":function_calls>"];

/// How the tags that [`NAMED`] finds end: one name shares the automaton's pattern.
const NAMED_ENDS: &[&str] = &["_tool_call>", "_function_call>", ":function_calls>"];

/// The longest model name a [`NAMED`] tag may start with, in bytes.
const LONGEST_MODEL_NAME: usize = 32;

/// Whether `byte` may stand in the name of a tag named after a model.
fn tag_name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'-' | b'.' | b':')
}

/// Where the tag that the [`NAMED`] pattern at `pattern_start..end` ends starts (`<dots`
/// of `<dots_tool_call>`): a `<`, then letters, digits, `_`, `-`, `.` or `:`, the tag
/// ending in one of [`NAMED_ENDS`]. `None` for a closing tag, one named as the end of a
/// call (FunctionGemma's `<end_function_call>`), another tag, or text.
fn named_tag_start(text: &str, pattern_start: usize, end: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let name_start = (pattern_start.saturating_sub(LONGEST_MODEL_NAME)..pattern_start)
        .rev()
        .take_while(|&at| tag_name_byte(bytes[at]))
        .last()
        .unwrap_or(pattern_start);
    if name_start == 0 || bytes[name_start - 1] != b'<' {
        return None;
    }
    let tag = &text[name_start..end];
    let model = NAMED_ENDS
        .iter()
        .find_map(|named| tag.strip_suffix(&named[1..])?.strip_suffix(&named[..1]))?;
    (!model.is_empty() && !model.eq_ignore_ascii_case("end")).then(|| name_start - 1)
}

/// The delimiter that starts first in `text[from..to]` (the longest, of those starting
/// there).
pub(crate) fn next_delimiter(text: &str, from: usize, to: usize) -> Option<Delimiter> {
    let mut search = from;
    let found = loop {
        let found = automaton()?.find(Input::new(text).span(search..to));
        work::examined(found.as_ref().map_or(to, |found| found.end()) - search);
        let found = found?;
        let pattern = DELIMITERS.get(found.pattern().as_usize());
        if !pattern.is_some_and(|(pattern, ..)| NAMED.contains(pattern)) {
            break found;
        }
        match named_tag_start(text, found.start(), found.end()) {
            Some(start) if start >= from => {
                break aho_corasick::Match::new(found.pattern(), start..found.end());
            }
            _ => search = found.start() + 1,
        }
    };
    let index = found.pattern().as_usize();
    let prose_channels = DELIMITERS.len() + channels::prose_openers().count();
    let (parser, format, prose) = match DELIMITERS.get(index) {
        Some((_, parser, format)) => (*parser, *format, false),
        None if index < prose_channels => (channels::prose_channel as Parser, None, true),
        None => (channels::made_up_result as Parser, None, true),
    };
    Some(Delimiter {
        start: found.start(),
        end: found.end(),
        parser,
        format,
        prose,
    })
}

/// The offset from which the end of `text` could be the start of a delimiter
/// (`text.len()` when it cannot), searching no earlier than `from`.
pub(crate) fn partial_delimiter(text: &str, from: usize) -> usize {
    static PREFIXES: OnceLock<Prefixes> = OnceLock::new();
    let partial = partial_start(
        text,
        from,
        PREFIXES.get_or_init(|| Prefixes::new(patterns())),
    );
    // A tag whose name is still being written may become one named after a model.
    let bytes = text.as_bytes();
    let window = bytes
        .len()
        .saturating_sub(LONGEST_MODEL_NAME + 16)
        .max(from);
    let tag = memchr::memrchr(b'<', &bytes[window..])
        .map(|i| window + i)
        .filter(|&at| bytes[at + 1..].iter().all(|&b| tag_name_byte(b)));
    tag.map_or(partial, |at| at.min(partial))
}

/// Whether the delimiter at `start..end` opens a call, rather than being mentioned in prose.
///
/// A delimiter that starts its line (after blanks, or after reasoning, which is blanked)
/// always opens a call: models put them there, and junk after one is a broken call worth a
/// retry. One that sits mid-sentence opens a call only when what follows it begins like
/// one (see [`begins_like_call`]); otherwise it is a mention ("the tag `<tool_call>` opens
/// a call") and stays ordinary text. Real calls mid-line (text, then `<tool_call>{…}`;
/// Harmony's `<|channel|>commentary to=functions.…`) all begin like calls. One right after
/// a quotation mark is quoted.
///
/// Two kinds of delimiter are judged differently: those that end inside the call itself
/// (`to=functions.`, `<function=`, `functools[`) have committed to one already, and those
/// that are only the start of a special token (DeepSeek's `<｜tool`, whose middle models
/// mangle) are judged by what follows the whole token.
pub(crate) fn opens_call(cx: &Cx<'_>, start: usize, end: usize) -> bool {
    let text = cx.text;
    let bytes = text.as_bytes();
    let line_start = bytes[..start]
        .iter()
        .rev()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\r'))
        .is_none_or(|b| *b == b'\n');
    if line_start {
        return true;
    }
    // Right after a quotation mark it is quoted (`the footer says "<tool_call>{…}"`, a
    // program's `'<tool_call>\n{…}'`).
    if text[..start]
        .chars()
        .next_back()
        .is_some_and(|c| matches!(c, '"' | '\'' | '“' | '‘' | '„' | '«' | '「' | '『'))
    {
        return false;
    }
    let content = match bytes[start..end] {
        [.., b'.' | b'=' | b'['] => return true,
        [b'<', .., last] if last != b'>' => {
            // The rest of the token is short: `▁calls▁begin｜>`.
            let window_end = floor_boundary(text, end + 64);
            match memchr::memchr(b'>', &bytes[end..window_end]) {
                Some(i) => end + i + 1,
                None => {
                    horizon::reached(text, window_end);
                    return true; // no token: the parser declines it
                }
            }
        }
        _ => end,
    };
    begins_like_call(cx, content)
}

/// Whether the text at `pos` (after blanks) begins like the content of a call: JSON (`{`,
/// `[`, a fence), a nested tag or token (`<function=`, `<|plugin|>`; not a closing tag, as
/// in "wrap it in `<tool_call></tool_call>`"), a known tool's name, or a name written the
/// way formats write one: directly followed by `{`, `(`, `[` or a tag (`get_weather{`,
/// `brave_search.call(`, `get_weather[ARGS]`, `functions.f:0<|tool_call_argument_begin|>`),
/// followed by `{` after a space, or ending its line with a tag on the next (GLM's
/// `NAME⏎<arg_key>`). The end of the output also counts: a call cut off right after its
/// delimiter is a broken call.
///
/// Prose fails this: "`<tool_call>` followed by JSON", "the `[TOOL_CALLS]` token before",
/// "`<|python_tag|>` for code", "`<tool_call>`, `<function_call>`", "`<tool_call>`." A
/// mention followed by JSON or a tool's name still counts, which is the price of not
/// missing broken calls.
fn begins_like_call(cx: &Cx<'_>, pos: usize) -> bool {
    let text = cx.text;
    let bytes = text.as_bytes();
    let p = skip_ws(text, pos);
    // MiniMax-M3's special token before its next tag.
    if starts_at(text, p, "]<]minimax[>[<") {
        return !starts_at(text, p, "]<]minimax[>[</");
    }
    match byte_at(text, p) {
        None | Some(b'{' | b'[') => return true,
        Some(b'<') => return byte_at(text, p + 1) != Some(b'/'),
        Some(b'`') => return starts_at(text, p, "```"),
        _ => {}
    }
    // A name, possibly quoted, of at most 256 bytes (see `plausible_name`).
    let quoted = bytes[p] == b'"';
    let name_start = p + usize::from(quoted);
    let name_stop = name_end(&text[..floor_boundary(text, name_start + 257)], name_start);
    if name_stop == name_start || name_stop - name_start > 256 {
        return false;
    }
    if cx.is_known(&text[name_start..name_stop]) {
        return true;
    }
    let mut after = name_stop;
    if quoted {
        if byte_at(text, after) != Some(b'"') {
            return false;
        }
        after += 1;
    }
    // The end of the turn (`tokens.<|im_end|>`) is no tag of a call; text may still come
    // after it.
    if after < text.len() && super::scan::is_end_tokens(&text[after..]) {
        horizon::reached(text, text.len());
        return false;
    }
    match byte_at(text, after) {
        Some(b'{' | b'(' | b'[') => return true,
        Some(b'<') => return byte_at(text, after + 1) != Some(b'/'),
        _ => {}
    }
    let next = skip_ws(text, after);
    match byte_at(text, next) {
        Some(b'{') => true,
        // A special token after a space (Kimi's `functions.f:0 <|tool_call_argument_begin|>`),
        // or a tag on the next line (GLM's `NAME⏎<arg_key>`).
        Some(b'<') => {
            starts_at(text, next, "<|")
                || (byte_at(text, next + 1) != Some(b'/')
                    && memchr::memchr(b'\n', &bytes[after..next]).is_some())
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcs_core::Tool;

    /// Whether the first delimiter in `text` opens a call.
    fn opens(text: &str) -> bool {
        let tools = [Tool::new("get_weather", "Weather")];
        let cx = Cx::new(text, &tools);
        let found = automaton().unwrap().find(text).unwrap();
        opens_call(&cx, found.start(), found.end())
    }

    #[test]
    fn the_automaton_keeps_its_fast_prefilter() {
        // The most patterns aho-corasick's Teddy prefilter takes. One more made prose search
        // take twice as long: merge patterns (a shared prefix, read by one parser) before
        // adding one.
        const FAST_PATTERNS: usize = 64;
        assert!(
            patterns().count() <= FAST_PATTERNS,
            "{} patterns",
            patterns().count()
        );
    }

    #[test]
    fn tags_named_after_a_model_start_at_their_bracket() {
        let start = |text: &str| {
            let at = text.find("_call>").unwrap();
            named_tag_start(text, at, at + "_call>".len())
        };
        assert_eq!(start("x <dots_tool_call>"), Some(2));
        assert_eq!(start("<iquest-coder.v2:x_tool_call>"), Some(0));
        assert_eq!(start("</dots_tool_call>"), None);
        assert_eq!(start("<end_tool_call>"), None);
        assert_eq!(start("a_tool_call>"), None);
        assert_eq!(start("< x_tool_call>"), None);
        assert_eq!(start("<my_call>"), None);
        assert_eq!(start("<_tool_call>"), None);
        // The delimiter found starts at the bracket; a closing tag is skipped over.
        let text = "</a_tool_call> then <b_tool_call>{}";
        let found = next_delimiter(text, 0, text.len()).unwrap();
        assert_eq!(&text[found.start..found.end], "<b_tool_call>");
        // Not before where the search starts.
        assert!(next_delimiter(text, 21, text.len()).is_none());
        // Only the names the wrappers have: `<my_call>` is no call's wrapper.
        let text = "<my_call> then <dots_function_call>{}";
        let found = next_delimiter(text, 0, text.len()).unwrap();
        assert_eq!(&text[found.start..found.end], "<dots_function_call>");
        // Claude's markup in a namespace.
        let text = "ok <atem:function_calls>";
        let found = next_delimiter(text, 0, text.len()).unwrap();
        assert_eq!(&text[found.start..found.end], "<atem:function_calls>");
        // A name still being written is held back in a stream.
        assert_eq!(partial_delimiter("calls: <dots_func", 0), 7);
        assert_eq!(partial_delimiter("a < b", 0), 5);
    }

    #[test]
    fn delimiters_mentioned_mid_sentence_are_prose() {
        for text in [
            "A model like Qwen writes <tool_call> followed by JSON and </tool_call>.",
            "Mistral models emit the [TOOL_CALLS] token before their calls.",
            "Llama uses <|python_tag|> for code.",
            "The tag <tool_call> opens a call.",
            "Hermes uses <tool_call>, Granite <function_call>.",
            "Wrap it in `<tool_call>` tags.",
            "Write \"[TOOL_CALLS]\" first.",
            "Qwen writes <tool_call>JSON</tool_call>.",
            "An empty <tool_call></tool_call> pair.",
            "DeepSeek opens with <｜tool▁calls▁begin｜> and closes with another token.",
            "Use ```tool_code blocks for Gemma.",
        ] {
            assert!(!opens(text), "{text}");
        }
    }

    #[test]
    fn delimiters_that_start_a_line_or_a_call_open_one() {
        for text in [
            // At the start of a line, whatever follows.
            "<tool_call> sure, here it is",
            "Text.\n  [TOOL_CALLS] I think",
            // Mid-line, followed by what begins a call.
            "Checking. <tool_call>\n{\"name\": \"x\"}",
            "Checking. <tool_call>[{\"name\": \"x\"}]",
            "Checking. <tool_call><function=f>",
            "Checking. <tool_call>get_weather Paris",
            "Checking. <tool_call>lookup\n<arg_key>id</arg_key>",
            "Checking. <tool_call>lookup<arg_key>id</arg_key>",
            "Sure.[TOOL_CALLS]lookup{\"id\": 1}",
            "Sure.[TOOL_CALLS]lookup[ARGS]{}",
            "Sure.[TOOL_CALLS]lookup {\"id\": 1}",
            "Go: <|python_tag|>brave_search.call(query=\"x\")",
            "Go: <|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}",
            "Go: <|tool_call>call:f{a:1}<tool_call|>",
            "Go: ```tool_code\nf(a=1)\n```",
            "Go: <tool_call>\"lookup\"{}",
            // The delimiter ends inside the call.
            "<|channel|>commentary to=functions.lookup json<|message|>{}",
            "Go: <function=lookup>{}</function>",
            "Go: functools[{\"name\": \"f\"}]",
            // DeepSeek: judged after the whole token.
            "Ok.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{}",
            // Cut off right after the delimiter.
            "Calling now <tool_call>",
        ] {
            assert!(opens(text), "{text}");
        }
    }
}
