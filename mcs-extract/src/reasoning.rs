//! Reasoning: the parts of an output a model thinks in, which never hold calls.
//!
//! [`Reasoning`] goes through the reasoning markers of a text in order and says which
//! spans are reasoning. It reads a whole text at once (the batch path, through
//! [`blank_reasoning`]) or a growing one, decision by decision (streaming): a marker is
//! decided once what decides it has arrived, and the spans it reports are never taken back
//! — except once, in [`ReasoningStart::Auto`], when the first marker is a closer without an
//! opener: the text before it was reasoning whose opener was in the prompt.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, MatchKind};

use super::{horizon, work};
use mcs_core::call::ReasoningStart;

/// A family of reasoning markers.
struct Family {
    opener: &'static str,
    closers: &'static [&'static str],
    /// Models of this family put the opener in the prompt, so an output may hold only the
    /// closer: the text before it was reasoning.
    prompted: bool,
    /// The markers end in a suffix of the checkpoint's vocabulary, up to a `>`
    /// (Hunyuan's `</think:e41d>`): the patterns are the markers up to their colon.
    suffixed: bool,
}

/// The reasoning markers. A marker inside a string of valid JSON is text, not a marker:
/// see [`JsonStrings`].
const FAMILIES: &[Family] = &[
    // DeepSeek-R1 and V4, QwQ, Qwen3 and later put `<think>` in the prompt.
    Family {
        opener: "<think>",
        closers: &["</think>"],
        prompted: true,
        suffixed: false,
    },
    Family {
        opener: "<thinking>",
        closers: &["</thinking>"],
        prompted: true,
        suffixed: false,
    },
    Family {
        opener: "[THINK]",
        closers: &["[/THINK]"],
        prompted: false,
        suffixed: false,
    },
    Family {
        opener: "<seed:think>",
        closers: &["</seed:think>"],
        prompted: false,
        suffixed: false,
    },
    Family {
        opener: "<|START_THINKING|>",
        closers: &["<|END_THINKING|>"],
        prompted: false,
        suffixed: false,
    },
    // Harmony's analysis channel ends with its message, or where the next message starts.
    Family {
        opener: "<|channel|>analysis<|message|>",
        closers: &["<|end|>", "<|start|>"],
        prompted: false,
        suffixed: false,
    },
    // Kimi K3 sections; the prompt usually opens `think`.
    Family {
        opener: "<|open|>think<|sep|>",
        closers: &["<|close|>think<|sep|>"],
        prompted: true,
        suffixed: false,
    },
    // Kimi-VL and Kimi k1.5 thinking models.
    Family {
        opener: "◁think▷",
        closers: &["◁/think▷"],
        prompted: false,
        suffixed: false,
    },
    // Gemma 4's thought channel.
    Family {
        opener: "<|channel>thought",
        closers: &["<channel|>"],
        prompted: false,
        suffixed: false,
    },
    // MiniMax-M3; the prompt may open it.
    Family {
        opener: "<mm:think>",
        closers: &["</mm:think>"],
        prompted: true,
        suffixed: false,
    },
    // Solar Open 2; its template opens the block in the prompt.
    Family {
        opener: "<|think:start|>",
        closers: &["<|think:end|>"],
        prompted: true,
        suffixed: false,
    },
    // PLaMo 3; the prompt may open it.
    Family {
        opener: "<|plamo:begin_think:plamo|>",
        closers: &["<|plamo:end_think:plamo|>"],
        prompted: true,
        suffixed: false,
    },
    // Hunyuan HY 4, every marker suffixed by the checkpoint; its prompt opens the block.
    Family {
        opener: "<think:",
        closers: &["</think:"],
        prompted: true,
        suffixed: true,
    },
    // Inkling's typed thinking block, which its message's end closes.
    Family {
        opener: "<|content_thinking|>",
        closers: &["<|end_message|>"],
        prompted: false,
        suffixed: false,
    },
    // MBZUAI K2 at its three reasoning efforts.
    Family {
        opener: "<ifm|think>",
        closers: &["</ifm|think>"],
        prompted: false,
        suffixed: false,
    },
    Family {
        opener: "<ifm|think_fast>",
        closers: &["</ifm|think_fast>"],
        prompted: false,
        suffixed: false,
    },
    Family {
        opener: "<ifm|think_faster>",
        closers: &["</ifm|think_faster>"],
        prompted: false,
        suffixed: false,
    },
];

/// Where a suffixed marker whose pattern ends at `after` ends.
enum Suffix {
    /// After its `>`.
    End(usize),
    /// The text ends before the suffix does.
    Pending,
    /// What follows is no suffix (a blank, a `<`, or more than 64 bytes).
    Not,
}

fn suffix_end(text: &str, after: usize) -> Suffix {
    let bytes = text.as_bytes();
    for (at, byte) in bytes.iter().enumerate().skip(after).take(64) {
        match byte {
            b'>' if at > after => return Suffix::End(at + 1),
            b'>' | b'<' => return Suffix::Not,
            b if b.is_ascii_whitespace() => return Suffix::Not,
            _ => {}
        }
    }
    if bytes.len() < after + 64 {
        horizon::reached(text, text.len());
        Suffix::Pending
    } else {
        Suffix::Not
    }
}

/// The family of a region opened in the prompt: any prompted family's closer ends it.
const PROMPT: usize = usize::MAX;

struct Matcher {
    automaton: AhoCorasick,
    /// For each pattern: its family and whether it is the opener.
    roles: Vec<(usize, bool)>,
    /// The markers, for partial matches at the end of a growing text.
    prefixes: Prefixes,
}

/// What a text must hold for a family whose markers are not ASCII (`◁think▷`) to matter.
const WIDE_MARK: &str = "◁";

/// The matchers of the reasoning markers: of the ASCII ones only, and of all. Most texts
/// hold no [`WIDE_MARK`], and a byte that is not ASCII among the markers' first bytes makes
/// the automaton's prefilter much slower on text full of `<` (twice the time on 2,000 Hermes
/// calls), so the wide matcher is used only where the text holds the mark.
fn matchers() -> Option<&'static (Matcher, Matcher)> {
    static MATCHERS: OnceLock<Option<(Matcher, Matcher)>> = OnceLock::new();
    MATCHERS
        .get_or_init(|| Some((build_matcher(true)?, build_matcher(false)?)))
        .as_ref()
}

fn build_matcher(ascii_only: bool) -> Option<Matcher> {
    let mut patterns = Vec::new();
    let mut roles = Vec::new();
    for (family, markers) in FAMILIES.iter().enumerate() {
        if ascii_only && !markers.opener.is_ascii() {
            continue;
        }
        patterns.push(markers.opener);
        roles.push((family, true));
        for closer in markers.closers {
            patterns.push(*closer);
            roles.push((family, false));
        }
    }
    let prefixes = Prefixes::new(patterns.iter().copied());
    let automaton = AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .build(&patterns)
        .ok()?;
    Some(Matcher {
        automaton,
        roles,
        prefixes,
    })
}

/// What one step of [`Reasoning::advance`] decided.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Progress {
    /// New reasoning spans, in order; the markers around them included.
    pub spans: Vec<Range<usize>>,
    /// The text of the reasoning in those spans, without the markers, in order.
    pub content: Vec<Range<usize>>,
    /// Where the reasoning ends and what follows starts to be visible, when a region closed
    /// (the end of its closer), for each region closed in this step.
    pub closed: Vec<usize>,
    /// Set when the first marker was a closer without an opener, in
    /// [`ReasoningStart::Auto`]: everything before this offset was reasoning.
    pub opened_in_prompt: Option<usize>,
}

/// The reasoning markers of one text, decided in order.
#[derive(Clone, Debug)]
pub(crate) struct Reasoning {
    start: ReasoningStart,
    /// The family of the open region, where it starts and where its text starts.
    open: Option<(usize, usize, usize)>,
    /// Whether a marker decided whether the output started inside reasoning.
    settled: bool,
    /// Markers before this offset are decided.
    pos: usize,
    /// The open region was reported up to here.
    reported: usize,
    /// The text before this offset is decided.
    decided: usize,
    strings: JsonStrings,
    /// Whether the text holds [`WIDE_MARK`], and how far it was searched for it.
    wide: bool,
    wide_searched: usize,
}

impl Reasoning {
    pub(crate) fn new(start: ReasoningStart) -> Self {
        let open = (start == ReasoningStart::Inside).then_some((PROMPT, 0, 0));
        Reasoning {
            start,
            open,
            settled: start != ReasoningStart::Auto,
            pos: 0,
            reported: 0,
            decided: 0,
            strings: JsonStrings::default(),
            wide: false,
            wide_searched: 0,
        }
    }

    /// Whether the text at the decided frontier is inside reasoning.
    pub(crate) fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// Whether the question "did the output start inside reasoning?" has its answer: not
    /// until the first marker in [`ReasoningStart::Auto`].
    pub(crate) fn settled(&self) -> bool {
        self.settled
    }

    /// Decides the markers of `text` from where the last step stopped, up to `limit` (the
    /// text is read as ending there; with `whole`, it does end there). Returns what was
    /// decided; [`decided`](Self::decided) says how far.
    pub(crate) fn advance(&mut self, text: &str, limit: usize, whole: bool) -> Progress {
        let mut progress = Progress::default();
        let Some((narrow, all)) = matchers() else {
            return progress;
        };
        let text = &text[..limit];
        if !self.wide {
            let from = self
                .wide_searched
                .saturating_sub(WIDE_MARK.len() - 1)
                .min(text.len());
            self.wide =
                memchr::memmem::find(&text.as_bytes()[from..], WIDE_MARK.as_bytes()).is_some();
            self.wide_searched = text.len();
        }
        let matcher = if self.wide { all } else { narrow };
        // A marker that could still be completed by what comes next is not decided.
        let partial = if whole {
            text.len()
        } else {
            partial_start(text, self.pos, &all.prefixes)
        };
        let input = aho_corasick::Input::new(text).span(self.pos..text.len());
        let mut stop = partial;
        for found in matcher.automaton.find_iter(input) {
            if found.start() >= partial {
                break;
            }
            let Some(&(family, is_opener)) = matcher.roles.get(found.pattern().as_usize()) else {
                continue;
            };
            // A suffixed marker ends at its `>`.
            let end = if FAMILIES[family].suffixed {
                match suffix_end(text, found.end()) {
                    Suffix::End(end) => end,
                    Suffix::Pending if !whole => {
                        stop = found.start();
                        break;
                    }
                    Suffix::Pending | Suffix::Not => {
                        self.pos = found.end();
                        continue;
                    }
                }
            } else {
                found.end()
            };
            // `{"title": "about </think>"}`: a call's argument that names a tag.
            let touches = horizon::touches();
            let saved = self.strings.clone();
            let in_string = self.strings.contains(text, found.start(), end);
            if !whole && horizon::touches() != touches {
                // Decided later, from the same state.
                self.strings = saved;
                stop = found.start();
                break;
            }
            self.pos = end;
            if in_string {
                continue;
            }
            match self.open {
                // Harmony's analysis channel of a message addressed to a recipient
                // (`to=functions.f<|channel|>analysis<|message|>{…}`) is a call, not
                // reasoning: gpt-oss sends tool calls on that channel too.
                None if is_opener && addressed(text, family, found.start()) => {}
                None if is_opener => {
                    self.open = Some((family, found.start(), end));
                    self.reported = found.start();
                    self.settled = true;
                }
                None if FAMILIES[family].prompted
                    && !self.settled
                    && self.start == ReasoningStart::Auto =>
                {
                    progress.spans.push(0..end);
                    progress.content.push(0..found.start());
                    progress.closed.push(end);
                    progress.opened_in_prompt = Some(end);
                    self.settled = true;
                }
                None => {}
                Some((open, start, content)) if !is_opener && closes(open, family) => {
                    let from = self.reported.max(start);
                    progress.spans.push(from..end);
                    progress.content.push(from.max(content)..found.start());
                    progress.closed.push(end);
                    self.open = None;
                }
                Some(_) => {}
            }
        }
        if stop == partial {
            self.pos = self.pos.max(partial);
        }
        self.decided = stop;
        if let Some((_, start, content)) = self.open {
            let from = self.reported.max(start);
            if stop > from {
                progress.spans.push(from..stop);
                // An opener cut in half is not text yet.
                let text_from = from.max(content);
                if stop > text_from {
                    progress.content.push(text_from..stop);
                }
                self.reported = stop;
            }
        }
        if whole {
            self.settled = true;
        }
        progress
    }

    /// Where the text of the reasoning block still open starts, if one is.
    pub(crate) fn unclosed(&self) -> Option<usize> {
        self.open.map(|(_, _, content)| content)
    }

    /// Markers before this offset are decided: the text before it is known to be
    /// reasoning or not (but see [`settled`](Self::settled)).
    pub(crate) fn decided(&self) -> usize {
        self.decided
    }
}

/// Whether the opener of `family` at `at` is Harmony's analysis channel in the header of a
/// message addressed to a recipient (` to=…` since the message's `<|start|>`).
fn addressed(text: &str, family: usize, at: usize) -> bool {
    const ANALYSIS: &str = "<|channel|>analysis<|message|>";
    if FAMILIES.get(family).is_none_or(|f| f.opener != ANALYSIS) {
        return false;
    }
    let mut from = at.saturating_sub(256);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    // The header starts after the last token that ends a message or a header.
    let header = [
        "<|start|>",
        "<|end|>",
        "<|call|>",
        "<|return|>",
        "<|message|>",
    ]
    .iter()
    .fold(&text[from..at], |header, token| {
        header.rsplit(token).next().unwrap_or(header)
    });
    header.starts_with("to=") || header.contains(" to=")
}

/// Whether a closer of `family` ends a region of `open`.
fn closes(open: usize, family: usize) -> bool {
    open == family || (open == PROMPT && FAMILIES[family].prompted)
}

/// Patterns indexed by their first byte, to tell quickly where the end of a text could be
/// the start of one of them (see [`partial_start`]).
pub(crate) struct Prefixes {
    by_first: Vec<Vec<&'static [u8]>>,
    longest: usize,
}

impl Prefixes {
    pub(crate) fn new(patterns: impl Iterator<Item = &'static str>) -> Self {
        let mut by_first = vec![Vec::new(); 256];
        let mut longest = 0;
        for pattern in patterns {
            let bytes = pattern.as_bytes();
            if let Some(first) = bytes.first() {
                by_first[usize::from(*first)].push(bytes);
                longest = longest.max(bytes.len());
            }
        }
        Prefixes { by_first, longest }
    }
}

/// The offset from which the end of `text` could be the start of one of `prefixes`'
/// patterns (`text.len()` when it cannot): what a stream must hold back until the next
/// bytes decide. Only the last `longest - 1` bytes, and none before `from`, are considered.
pub(crate) fn partial_start(text: &str, from: usize, prefixes: &Prefixes) -> usize {
    let bytes = text.as_bytes();
    let first = bytes
        .len()
        .saturating_sub(prefixes.longest.saturating_sub(1))
        .max(from);
    (first..bytes.len())
        .find(|&at| {
            let tail = &bytes[at..];
            prefixes.by_first[usize::from(bytes[at])]
                .iter()
                .any(|pattern| pattern.len() > tail.len() && pattern.starts_with(tail))
        })
        .unwrap_or(bytes.len())
}

/// `text` with every reasoning region replaced by spaces (newlines kept), so offsets,
/// lines and columns stay those of the original; and where the text of a block that the
/// output ends inside starts, if it does.
pub(crate) fn blank_reasoning(text: &str, start: ReasoningStart) -> (Cow<'_, str>, Option<usize>) {
    let mut reasoning = Reasoning::new(start);
    let progress = reasoning.advance(text, text.len(), true);
    let unclosed = reasoning.unclosed();
    if progress.spans.is_empty() {
        return (Cow::Borrowed(text), unclosed);
    }
    let mut bytes = text.as_bytes().to_vec();
    for span in progress.spans {
        blank(&mut bytes, span);
    }
    // Regions start and end at markers, so whole characters were replaced.
    let visible = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    (Cow::Owned(visible), unclosed)
}

/// Replaces the bytes of `span` with spaces, newlines kept.
pub(crate) fn blank(bytes: &mut [u8], span: Range<usize>) {
    if let Some(bytes) = bytes.get_mut(span) {
        for byte in bytes {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    }
}

/// Tells whether a reasoning delimiter lies inside a string literal of a JSON value, where
/// it is data: a note titled `about </think>` must not hide the call that saves it.
///
/// The rule: the delimiter is inside a JSON string when a balanced, strictly parseable JSON
/// object or array spans it. No delimiter (`<think>`, `[THINK]`, `<|end|>`, …) can stand
/// outside a string in valid JSON, so such a value can only hold it in a string. Genuine
/// reasoning delimiters stand at the start of the output or of a line, or right after
/// prose or a finished value; no valid JSON value spans them, so reasoning stays hidden.
/// A tag in broken or repaired JSON (a raw newline in the string, single quotes) still
/// counts: there the structure is a guess, and hiding too much is the safe mistake.
///
/// Checking is cheap for them: a strict JSON string has no raw newline, so a delimiter is
/// only examined further when its own line has a `"` before and after it. Then the
/// objects and arrays that start before it are tried, nearest first, until one spans it.
/// A budget of bytes examined keeps hostile input (thousands of quoted delimiters) linear:
/// a delimiter at offset `p` may use what is left of `4 p + 64 KiB`; once that is spent,
/// delimiters count as they always did. The budget depends on positions only, so a text
/// read whole and the same text streamed decide alike.
#[derive(Clone, Debug, Default)]
struct JsonStrings {
    /// The end of the last JSON value found to span a delimiter: later delimiters before it
    /// are inside it too.
    covered_until: usize,
    /// The end of a prefix of the text known to hold no `{` or `[`: searches for values
    /// stop there, so quoted tags in prose without brackets are not searched back from
    /// again and again.
    no_bracket_before: usize,
    /// Bytes examined so far.
    spent: usize,
}

impl JsonStrings {
    /// How many objects or arrays before one delimiter are tried.
    const CANDIDATES: usize = 16;

    /// Whether the delimiter at `start..end` of `text` lies in a string of a valid JSON
    /// value.
    fn contains(&mut self, text: &str, start: usize, end: usize) -> bool {
        if start < self.covered_until {
            return true;
        }
        let mut budget = Budget {
            left: (4 * start + 65_536).saturating_sub(self.spent),
            spent: &mut self.spent,
        };
        if budget.left == 0 {
            return false;
        }
        let bytes = text.as_bytes();
        // A quote before and after the delimiter on its line, or no string holds it.
        let before = memchr::memrchr2(b'"', b'\n', &bytes[..start]);
        budget.spend(start - before.unwrap_or(0));
        if before.is_none_or(|at| bytes[at] != b'"') {
            return false;
        }
        let after = memchr::memchr2(b'"', b'\n', &bytes[end..]);
        budget.spend(after.map_or(bytes.len() - end, |i| i + 1));
        if after.is_none() {
            horizon::reached(text, text.len());
        }
        if after.is_none_or(|i| bytes[end + i] != b'"') {
            return false;
        }
        let mut limit = start;
        for _ in 0..Self::CANDIDATES {
            let floor = self.no_bracket_before.min(limit);
            let Some(at) = memchr::memrchr2(b'{', b'[', &bytes[floor..limit]).map(|i| floor + i)
            else {
                budget.spend(limit - floor);
                self.no_bracket_before = self.no_bracket_before.max(limit);
                break;
            };
            budget.spend(limit - at);
            if budget.left == 0 {
                return false;
            }
            if let Some(value_end) = strict_value_end(text, at, &mut budget)
                && value_end > start
            {
                self.covered_until = value_end;
                return true;
            }
            limit = at;
        }
        false
    }
}

/// What one delimiter may still examine, and the running total.
struct Budget<'s> {
    left: usize,
    spent: &'s mut usize,
}

impl Budget<'_> {
    fn spend(&mut self, bytes: usize) {
        work::examined(bytes);
        *self.spent += bytes;
        self.left = self.left.saturating_sub(bytes);
    }
}

/// The end of the balanced, strictly parseable object or array at `start`.
fn strict_value_end(text: &str, start: usize, budget: &mut Budget<'_>) -> Option<usize> {
    let end = balanced_end(text, start);
    budget.spend(end.unwrap_or_else(|stop| stop).saturating_sub(start));
    let end = end.ok()?;
    // The scan above only matched brackets and strings; the tokens between them must be
    // JSON too. `IgnoredAny` reads without building the value.
    budget.spend(end - start);
    serde_json::from_str::<serde::de::IgnoredAny>(&text[start..end]).ok()?;
    Some(end)
}

/// Where the object or array at `start` ends, by matching brackets outside strings;
/// `Err` holds where the scan gave up. Strings may not hold raw control characters (as in
/// strict JSON), which also keeps a stray quote in prose from running past its line;
/// bytes that JSON never has outside strings (letters other than those of `true`,
/// `false`, `null` and exponents, `<`, …) end the scan at once, so a brace in prose costs
/// little. Nesting deeper than 128 levels (the bits of the stack; `serde_json` refuses
/// deeper nesting too) gives up.
fn balanced_end(text: &str, start: usize) -> Result<usize, usize> {
    let bytes = text.as_bytes();
    // One bit per open bracket: set for `{`, clear for `[`.
    let mut stack: u128 = 0;
    let mut depth = 0usize;
    let mut in_string = false;
    let mut pos = start;
    while let Some(&byte) = bytes.get(pos) {
        if in_string {
            match byte {
                b'"' => in_string = false,
                b'\\' => pos += 1,
                0..0x20 => return Err(pos),
                _ => {}
            }
        } else {
            match byte {
                b'"' => in_string = true,
                b'{' | b'[' => {
                    if depth >= 128 {
                        return Err(pos);
                    }
                    stack = (stack << 1) | u128::from(byte == b'{');
                    depth += 1;
                }
                b'}' | b']' => {
                    if depth == 0 || (stack & 1 == 1) != (byte == b'}') {
                        return Err(pos);
                    }
                    stack >>= 1;
                    depth -= 1;
                    if depth == 0 {
                        return Ok(pos + 1);
                    }
                }
                b' ' | b'\t' | b'\n' | b'\r' | b',' | b':' | b'-' | b'+' | b'.' | b'0'..=b'9' => {}
                b'a' | b'e' | b'f' | b'l' | b'n' | b'r' | b's' | b't' | b'u' | b'E' => {}
                _ => return Err(pos),
            }
        }
        pos += 1;
    }
    horizon::reached(text, bytes.len());
    Err(bytes.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blanked(text: &str) -> Cow<'_, str> {
        blank_reasoning(text, ReasoningStart::Auto).0
    }

    #[test]
    fn blanks_reasoning_but_keeps_offsets() {
        let text = "<think>call {\"tool\": \"x\"}\n</think>answer";
        let blanked = blanked(text);
        assert_eq!(blanked.len(), text.len());
        assert!(blanked.ends_with("answer"));
        assert!(!blanked.contains("tool"));
        assert_eq!(blanked.matches('\n').count(), 1);
    }

    #[test]
    fn orphan_closer_hides_what_precedes_and_open_opener_hides_the_rest() {
        assert_eq!(blanked("a ü b</think> c").trim(), "c");
        assert_eq!(blanked("c [THINK] é {…").trim(), "c");
        let harmony = "<|channel|>analysis<|message|>think {}<|end|><|start|>assistant";
        assert_eq!(blanked(harmony).trim(), "<|start|>assistant");
        let answer = "<|channel|>final<|message|>{}<|end|><|start|>x";
        assert_eq!(blanked(answer), answer);
        // Only the first marker can be a closer whose opener was in the prompt.
        assert_eq!(
            blanked("<think>a</think> b </think> c").trim(),
            "b </think> c"
        );
        assert_eq!(blanked("x </think> y </think> z").trim(), "y </think> z");
    }

    #[test]
    fn where_the_output_starts_can_be_said() {
        let text = "plan </think> answer";
        assert_eq!(blank_reasoning(text, ReasoningStart::Outside).0, text);
        assert_eq!(
            blank_reasoning(text, ReasoningStart::Inside).0.trim(),
            "answer"
        );
        // Inside with no closer: all of it is reasoning.
        assert_eq!(
            blank_reasoning("just thinking", ReasoningStart::Inside)
                .0
                .trim(),
            ""
        );
        // Kimi K3 closes its prompted `think` section.
        let k3 = "plan<|close|>think<|sep|><|open|>response<|sep|>Hi";
        assert!(blanked(k3).trim().starts_with("<|open|>response"));
    }

    #[test]
    fn reasoning_tags_in_json_strings_are_text() {
        for text in [
            r#"{"tool": "save_note", "arguments": {"title": "about </think>", "body": "x"}}"#,
            r#"{"tool": "save_note", "arguments": {"title": "about <think>", "body": "x"}}"#,
            r#"[{"name": "f", "arguments": {"a": "[THINK] <|START_THINKING|> <seed:think>"}}]"#,
            // The nearest object closes before the tag; the one around it spans it.
            "{\"a\": {\"b\": 1},\n \"c\": [\"{x\", \"</think>\"]}",
        ] {
            assert_eq!(blanked(text), text, "{text}");
        }
        // Two tags in one value: the second is known to be inside without a new search.
        let text = r#"x {"a": "<think>", "b": "</think>"} y"#;
        assert_eq!(blanked(text), text);
    }

    #[test]
    fn reasoning_tags_outside_valid_json_still_count() {
        // After a value, not inside it.
        let text = r#"<think>{"a": "b"}</think> "c""#;
        assert_eq!(blanked(text).trim(), r#""c""#);
        // Quotes around the tag, but no valid value spans it: a raw newline ends the
        // string, single quotes are not JSON, prose is not JSON.
        let text = "say {\"a\": \"b </think>\n\"c\"}";
        assert_eq!(blanked(text).trim(), "\"c\"}");
        let text = "{'a': 'b </think>'} \"after\"";
        assert_eq!(blanked(text).trim(), "'} \"after\"");
        let text = "He said {yes \"</think>\"} ok";
        assert_eq!(blanked(text).trim(), "\"} ok");
    }

    #[test]
    fn decisions_wait_for_what_decides_them() {
        // Fed in two steps, a marker cut in half is decided once its end has come.
        let text = "Answer <thi";
        let mut reasoning = Reasoning::new(ReasoningStart::Auto);
        let progress = reasoning.advance(text, text.len(), false);
        assert_eq!(progress, Progress::default());
        assert_eq!(reasoning.decided(), "Answer ".len());
        let text = "Answer <think>why";
        let progress = reasoning.advance(text, text.len(), false);
        assert_eq!(progress.spans, vec![7..text.len()]);
        // A closer on a line with quotes around it waits for the end of its line.
        let text = "Answer <think>why \"x</think>";
        let guard = horizon::open(text);
        let progress = reasoning.advance(text, text.len(), false);
        drop(guard);
        assert!(progress.closed.is_empty(), "{progress:?}");
        assert_eq!(reasoning.decided(), text.find("</think>").unwrap());
        let text = "Answer <think>why \"x</think> y\n";
        let progress = reasoning.advance(text, text.len(), false);
        assert_eq!(progress.closed, vec![text.find(" y").unwrap()]);
    }

    #[test]
    fn suffixed_markers_end_at_their_bracket() {
        // Hunyuan's closer, its opener in the prompt: what precedes it is reasoning, and
        // the suffix is part of the marker.
        assert_eq!(blanked("draft</think:e41d> answer").trim(), "answer");
        let words = |text: &str| {
            blanked(text)
                .split_whitespace()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            words("a <think:opensource>b</think:opensource> c"),
            ["a", "c"]
        );
        // Not a marker: a blank in the suffix, or no `>`.
        assert_eq!(blanked("x </think: y"), "x </think: y");
        // Fed in pieces, the marker waits for its `>`.
        let mut reasoning = Reasoning::new(ReasoningStart::Auto);
        let text = "draft</think:e4";
        let guard = horizon::open(text);
        let progress = reasoning.advance(text, text.len(), false);
        drop(guard);
        assert!(progress.closed.is_empty(), "{progress:?}");
        assert_eq!(reasoning.decided(), "draft".len());
        let text = "draft</think:e41d> answer";
        let progress = reasoning.advance(text, text.len(), false);
        assert_eq!(progress.closed, vec![text.find(" answer").unwrap()]);
    }

    #[test]
    fn balanced_end_matches_brackets_outside_strings() {
        let end = |text: &str| balanced_end(text, 0);
        let text = r#"{"a": ["}", "\"]"]} tail"#;
        assert_eq!(end(text), Ok(text.find(" tail").unwrap()));
        assert_eq!(end("[1, {\"x\": null}]"), Ok(16));
        assert_eq!(end("{\"a\": 1]"), Err(7)); // mismatched
        assert_eq!(end("{\"a\nb\": 1}"), Err(3)); // raw newline in a string
        assert_eq!(end("{ call me }"), Err(2)); // prose
        assert_eq!(end("{\"a\": 1"), Err(7)); // unclosed: the end
        let deep = "[".repeat(200);
        assert_eq!(end(&deep), Err(128));
    }

    #[test]
    fn quoted_tags_cost_a_bounded_amount() {
        // Thousands of quoted closers that no valid value spans: the budget ends the search
        // and the text is still read in time linear in its length.
        let text = r#"{"a": "</think>", "#.repeat(20_000);
        let blanked = blanked(&text);
        assert_eq!(blanked.len(), text.len());
        let mut strings = JsonStrings::default();
        for (at, _) in text.match_indices("</think>") {
            strings.contains(&text, at, at + "</think>".len());
        }
        assert!(
            strings.spent <= 4 * text.len() + 65_536,
            "{}",
            strings.spent
        );
        // Quoted tags in prose without brackets: each part of the text is searched for a
        // bracket once, so little is spent.
        let text = r#"he said "x </think> y" and "#.repeat(20_000);
        let mut strings = JsonStrings::default();
        for (at, _) in text.match_indices("</think>") {
            assert!(!strings.contains(&text, at, at + "</think>".len()));
        }
        assert!(strings.spent < 2 * text.len(), "{}", strings.spent);
    }

    #[test]
    fn partial_markers_are_held_back() {
        let prefixes = Prefixes::new(["<think>", "</think>"].into_iter());
        let at = |text: &str| partial_start(text, 0, &prefixes);
        assert_eq!(at("abc <thi"), 4);
        assert_eq!(at("abc </"), 4);
        assert_eq!(at("abc <"), 4);
        assert_eq!(at("abc <x"), 6);
        assert_eq!(at("abc"), 3);
    }
}
