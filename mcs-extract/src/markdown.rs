//! Where a piece of an answer stands in its markdown: a call written in inline code, a
//! blockquote, a table or a block of program code is a sample, a quotation or part of a
//! program the user asked for — shown, never run; so is one led into as an example (`The
//! call format is:`) or in a section headed as examples (`## Usage`), or written inside an
//! HTML `<pre>` element (a page's or a snippet's preformatted text: models never wrap
//! their calls in one).
//!
//! Decided from the text before the piece alone, so that a stream decides it as the whole
//! output does; and a call whose arguments hold placeholders (`"<city>"`, `"..."`) shows
//! the format wherever it stands.

use std::ops::Range;

use super::horizon;
use super::scan::floor_boundary;

/// The languages of fenced blocks that hold a program, not a call: a call-shaped string
/// there (`call = {"name": "send_email", …}`, `search(query="x")`) belongs to the program.
/// Untagged, `json` and `xml` fences may hold calls (models fence them), and Gemma's
/// ```` ```tool_code ```` is a call's own delimiter.
const PROGRAM_LANGUAGES: &[&str] = &[
    "bash",
    "c",
    "c++",
    "console",
    "cpp",
    "cs",
    "csharp",
    "css",
    "dart",
    "diff",
    "dockerfile",
    "elixir",
    "go",
    "golang",
    "haskell",
    "html",
    "ini",
    "java",
    "javascript",
    "js",
    "jsonl",
    "jsx",
    "kotlin",
    "log",
    "lua",
    "makefile",
    "markdown",
    "md",
    "ndjson",
    "perl",
    "php",
    "plaintext",
    "powershell",
    "ps1",
    "py",
    "python",
    "python3",
    "r",
    "rb",
    "ruby",
    "rs",
    "rust",
    "scala",
    "sh",
    "shell",
    "sql",
    "swift",
    "text",
    "toml",
    "ts",
    "tsx",
    "txt",
    "typescript",
    "yaml",
    "yml",
    "zsh",
];

/// The [`PROGRAM_LANGUAGES`] whose blocks may be a lone object literal, which is data a
/// model tagged so (```` ```js ```` around `{tool: 'x', parameters: {…}}`), not a program.
/// Logs (`jsonl`, `log`) stay quotations whatever they hold.
const OBJECT_LANGUAGES: &[&str] = &[
    "javascript",
    "js",
    "jsx",
    "py",
    "python",
    "python3",
    "ts",
    "tsx",
    "typescript",
];

/// The noun for an example in more languages, which their phrase for "for example" holds
/// (Polish `na przykład`, Ukrainian `наприклад`, Hebrew `לדוגמה`): a cue in sentences
/// ([`EXAMPLE_WORDS`]) and in headings ([`HEADING_CUES`]) alike. Lower case.
const EXAMPLE_NOUNS: &[&str] = &[
    "exemplo",
    "esempio",
    "przykład",
    "приклад",
    "örnek",
    "ví dụ",
    "contoh",
    "ตัวอย่าง",
    "उदाहरण",
    "উদাহরণ",
    "דוגמ",
];

/// Words that name an example, in lower case: JSON that follows them in the same sentence
/// (`例如：{…}`, `for example, {…}`) is one, for a known tool too; also [`EXAMPLE_NOUNS`].
/// See also [`EXAMPLE_CUES`].
const EXAMPLE_WORDS: &[&str] = &[
    "example",
    "for instance",
    "e.g.",
    "sample",
    "例如",
    "比如",
    "示例",
    "例子",
    "例えば",
    "サンプル",
    "예시",
    "например",
    "пример",
    "illustrat",
    "مثال",
    "beispiel",
    "exemple",
    "ejemplo",
    "örneğin",
    "たとえば",
    "예를 들어",
    "举例",
];

/// Words that, in the paragraph that leads into a fenced block, say it shows an example
/// (besides [`EXAMPLE_WORDS`]): `The call format is:`, `For reference, the shape is:`,
/// `比如…的原始输出是：`. A model that fences a call it makes does not introduce it so.
/// Lower case; matched as written.
const EXAMPLE_CUES: &[&str] = &[
    "for reference",
    "syntax",
    "template",
    "placeholder",
    "would look",
    "would contain",
    "looks like",
    "the shape is",
    "shape:",
    "asked me to show",
    "the format is",
    "format is:",
    "例：",
    "例:",
    "would be:",
    "this renders",
    "it renders",
    "would render",
    "rendered as",
    "you can paste",
    "you can copy",
    "like the one below",
    "like the ones below",
    "the raw transcript",
    "here's the transcript",
    "here is the transcript",
    "recap of",
    "what i did",
    "as emitted",
    "once you confirm",
    "if you confirm",
    "when you confirm",
    "after you confirm",
    "once you approve",
    "if you approve",
    "call i made",
    "calls i made",
    "i just made",
    "i already made",
    "not running",
    "not calling",
    "not executing",
    "won't run",
    "won't call",
    "will not run",
    "will not call",
    "формат запроса",
    "формат вызова",
    "request format",
    "call format",
    "образец",
];

/// Words that, in the sentence that leads into a block, say it is someone else's text
/// quoted (a page, a file, an e-mail, what the user pasted), or a call offered rather than
/// made: `the page also contains this block:`, `verbatim:`, `the text you pasted ends
/// with:`, `If you want, I could call it like this:` (not `if you want` alone: `If you want
/// the forecast too, I'll add the days:` leads into a call). Markup a web page or a document
/// holds must not run because the model showed it. Lower case; matched as written.
const QUOTE_CUES: &[&str] = &[
    "contains",
    "contained",
    "includes",
    "included",
    "verbatim",
    "quoted here",
    "quoted below",
    "quoting",
    "it reads",
    "it says",
    "says to",
    "you pasted",
    "you copied",
    "you shared",
    "pasted from",
    "copied from",
    "this block",
    "this snippet",
    "this json",
    "this markup",
    "markup:",
    "ends with",
    "i could call",
    "i could run",
];

/// What a sentence says right before a call it reports as already made, in lower case:
/// `Earlier I called {…}`, `the tool was called with {…}`. Matched at the end of the text
/// before the call on its line.
const PAST_REPORTS: &[&str] = &[
    "i called",
    "i ran",
    "i invoked",
    "i executed",
    "i tried",
    "i had called",
    "i've called",
    "i have called",
    "i already called",
    "we called",
    "was called with",
    "was called as",
];

/// How far back on its line a position is looked at for inline code and quotations.
const LINE_WINDOW: usize = 1024;

/// What surrounds a position of an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Context {
    /// Plain text.
    Prose,
    /// Inside a fenced block that may hold a call: untagged, `json`, `xml`…
    Fence,
    /// Inside inline code, a blockquote, a table row, a fenced block of program code, or
    /// one its paragraph introduces as an example ([`EXAMPLE_CUES`]).
    Quoted,
}

/// The lines of a text that open or close a fenced block (three backticks or tildes,
/// after indentation at most), found once per text so that telling the [`Context`] of many
/// positions costs a search each, not a scan. A text that grows (a stream) is searched
/// again only past where the last search ended.
#[derive(Clone, Debug, Default)]
pub(crate) struct Fences {
    /// Where each fence marker starts, in order: one per line.
    markers: Vec<usize>,
    /// How much of the text was searched.
    searched: usize,
    /// Where the line of the last marker starts.
    line_of_last: Option<usize>,
    /// Where each heading line starts, and whether it heads an example ([`HEADING_CUES`]);
    /// lines inside fenced blocks are among them, and skipped when asked.
    headings: Vec<(usize, bool)>,
    /// Where the first line not yet looked at for a heading starts (it was not whole).
    lines_from: usize,
    /// Regions read as calls, in order ([`claim`](Self::claim)), and whether the fence
    /// markers in each were kept: what a call holds is the call's, not the answer's
    /// markdown.
    claimed: Vec<(Range<usize>, bool)>,
    /// How many of [`claimed`](Self::claimed) had the markers and headings found before
    /// them taken out.
    applied: usize,
    /// HTML `<pre>` tags, in order: where each starts, and whether it opens the element.
    pre: Vec<(usize, bool)>,
    /// Where the search for `<pre>` tags goes on (a tag may straddle the end of a search).
    pre_from: usize,
}

impl Fences {
    #[cfg(test)]
    pub(crate) fn new(text: &str) -> Self {
        let mut fences = Fences::default();
        fences.extend(text);
        fences
    }

    /// Finds the markers of `text` past those already found: `text` is the text searched
    /// before with more after it (else it is searched anew).
    pub(crate) fn extend(&mut self, text: &str) {
        if text.len() < self.searched {
            *self = Fences::default();
        }
        if text.len() > self.searched {
            self.search(text);
        }
        self.apply_claims();
    }

    /// Finds the markers and headings of `text` past `searched`.
    fn search(&mut self, text: &str) {
        let bytes = text.as_bytes();
        // A marker may straddle the end of the last search.
        let from = self.searched.saturating_sub(2);
        let searched = self.searched;
        let mut found: Vec<usize> = memchr::memmem::find_iter(&bytes[from..], b"```")
            .chain(memchr::memmem::find_iter(&bytes[from..], b"~~~"))
            .map(|at| from + at)
            .filter(|&at| at + 3 > searched)
            .collect();
        found.sort_unstable();
        for at in found {
            // At the start of its line, after blanks; one per line (```` ``` ``` ````).
            let mut starts = at;
            while starts > 0 && matches!(bytes[starts - 1], b' ' | b'\t') {
                starts -= 1;
            }
            if (starts > 0 && bytes[starts - 1] != b'\n') || self.line_of_last == Some(starts) {
                continue;
            }
            // In an open block, only a run of its own character at least as long as its
            // opener's closes it: a shorter one (```` ````markdown ```` around ```` ```xml
            // ````) is text of the block, as CommonMark reads it.
            let run = |at: usize| bytes[at..].iter().take_while(|&&b| b == bytes[at]).count();
            if self.markers.len() % 2 == 1 {
                let opener = self.markers[self.markers.len() - 1];
                if bytes[at] == bytes[opener]
                    && run(at) < run(opener)
                    && at + run(at) == bytes.len()
                {
                    // The run may grow: this line is looked at again with more text.
                    self.searched = at;
                    self.search_pre(text);
                    self.headings_from(text);
                    return;
                }
                if bytes[at] != bytes[opener] || run(at) < run(opener) {
                    self.line_of_last = Some(starts);
                    continue;
                }
            }
            self.line_of_last = Some(starts);
            if !self.in_claimed(at, true) {
                self.markers.push(at);
            }
        }
        self.searched = text.len();
        self.search_pre(text);
        self.headings_from(text);
    }

    /// Finds the headings of `text` from the first line not yet looked at.
    fn headings_from(&mut self, text: &str) {
        let bytes = text.as_bytes();
        // Headings: whole lines only, so a stream sees each once it is written.
        let mut at = self.lines_from;
        while let Some(newline) = memchr::memchr(b'\n', &bytes[at..]) {
            if let Some(cue) = heading(&text[at..at + newline])
                && !self.in_claimed(at, false)
            {
                self.headings.push((at, cue));
            }
            at += newline + 1;
        }
        self.lines_from = at;
    }

    /// Finds the HTML `<pre>` and `</pre>` tags of `text` past `pre_from`: a tag counts once
    /// the byte after its name is there, and is `>`, `/` or blank space (`<pre
    /// class="x">`, not `<prefix>`).
    fn search_pre(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let from = self.pre_from;
        let mut next_from = text.len().saturating_sub(5).max(from);
        for start in memchr::memchr_iter(b'<', &bytes[from..]).map(|at| from + at) {
            let rest = &bytes[start + 1..];
            let (opens, name) = match rest.strip_prefix(b"/") {
                Some(rest) => (false, rest),
                None => (true, rest),
            };
            if !b"pre".starts_with(&name[..name.len().min(3)]) {
                continue;
            }
            let Some(&after) = name.get(3) else {
                // Cut by the end of the text: searched again when it grows.
                next_from = next_from.min(start);
                break;
            };
            if matches!(after, b'>' | b'/' | b' ' | b'\t' | b'\n' | b'\r') {
                self.pre.push((start, opens));
                next_from = next_from.max(start + 1);
            }
        }
        self.pre_from = next_from;
    }

    /// Whether `pos` is inside an HTML `<pre>` element opened before it, outside the calls
    /// read before it.
    fn in_pre(&self, pos: usize) -> bool {
        let before = self.pre.partition_point(|&(at, _)| at < pos);
        self.pre[..before]
            .iter()
            .rev()
            .take(64)
            .find(|&&(at, _)| !self.in_claimed(at, false))
            .is_some_and(|&(_, opens)| opens)
    }

    /// Notes that `span` of `text` was read as a call: a fence marker or a heading in it is
    /// the call's (a file's content with a fence left open, a `## Usage` heading in a
    /// message it sends), not the answer's, and leaves what follows the call as it found
    /// it. One exception: a fence opened before the call and closed by an odd number of
    /// markers in it (a model that closed its fence before the call's end token) stays
    /// closed there. Spans come in the order of the text; one that overlaps the last is
    /// not taken.
    pub(crate) fn claim(&mut self, text: &str, span: Range<usize>) {
        if self
            .claimed
            .last()
            .is_some_and(|(last, _)| last.end > span.start)
        {
            return;
        }
        self.claimed.push((span, false));
        self.extend(text);
    }

    /// Takes the markers and headings found in claimed spans out, once their text was
    /// searched.
    fn apply_claims(&mut self) {
        while let Some((span, kept)) = self.claimed.get_mut(self.applied) {
            if span.end > self.searched {
                return;
            }
            let first = self.markers.partition_point(|&at| at < span.start);
            let last = self.markers.partition_point(|&at| at < span.end);
            *kept = first % 2 == 1 && (last - first) % 2 == 1;
            if !*kept {
                self.markers.drain(first..last);
            }
            let first = self.headings.partition_point(|&(at, _)| at < span.start);
            let last = self.headings.partition_point(|&(at, _)| at < span.end);
            self.headings.drain(first..last);
            self.applied += 1;
        }
    }

    /// Whether `at` is in a claimed span whose markers were taken out (`marker`) or any
    /// (a heading).
    fn in_claimed(&self, at: usize, marker: bool) -> bool {
        let applied = &self.claimed[..self.applied];
        let after = applied.partition_point(|(span, _)| span.start <= at);
        after > 0 && {
            let (span, kept) = &applied[after - 1];
            at < span.end && !(marker && *kept)
        }
    }

    /// These fences as they stand for a text changed after `to` (only grown before it):
    /// searched anew, with the spans claimed before `to`.
    pub(crate) fn rewound(&self, to: usize) -> Fences {
        Fences {
            claimed: self
                .claimed
                .iter()
                .filter(|(span, _)| span.end <= to)
                .map(|(span, _)| (span.clone(), false))
                .collect(),
            ..Fences::default()
        }
    }

    /// Whether the section `pos` is in is headed as an example (`## Usage`, `**Example:**`):
    /// the last heading before it, outside fenced blocks, says so.
    fn in_example_section(&self, pos: usize) -> bool {
        let before = self.headings.partition_point(|&(at, _)| at < pos);
        self.headings[..before]
            .iter()
            .rev()
            .take(MAX_HEADINGS_BACK)
            .find(|&&(at, _)| self.markers.partition_point(|&m| m + 3 <= at) % 2 == 0)
            .is_some_and(|&(_, cue)| cue)
    }

    /// The [`Context`] of `pos` in `text` (the text these fences were found in, or a text
    /// it begins): decided by the text before `pos` alone.
    pub(crate) fn context(&self, text: &str, pos: usize) -> Context {
        let before = &text[..pos];
        // Markers wholly before `pos`; an odd count leaves the last one open.
        let count = self.markers.partition_point(|&at| at + 3 <= pos);
        // The line `pos` is on, as far as `pos` (its last KiB: inline code and
        // quotations are told near their start).
        let mut window = pos.saturating_sub(LINE_WINDOW);
        while !before.is_char_boundary(window) {
            window += 1;
        }
        let line = &before[memchr::memrchr(b'\n', &before.as_bytes()[window..])
            .map_or(window, |i| window + i + 1)..];
        if count % 2 == 1 {
            let at = self.markers[count - 1];
            let marker = char::from(text.as_bytes()[at]);
            let ends = memchr::memchr(b'\n', &before.as_bytes()[at..]).map_or(pos, |i| at + i);
            let tag = before[at..ends].trim_start_matches(marker).trim();
            let language = tag
                .split(|c: char| c.is_whitespace() || c == '{' || c == ',')
                .next()
                .unwrap_or_default()
                .to_ascii_lowercase();
            // On the fence's own line is its tag, not what it fences.
            let opened_here = ends == pos;
            // A block that opens with an object holds data, not a program (a model that
            // tags its call ```` ```js ````); a program's objects stand in statements.
            let rest = text[pos..].trim_start_matches('[').trim_start();
            let data = OBJECT_LANGUAGES.contains(&language.as_str())
                && before[ends..].trim().is_empty()
                && rest.starts_with('{');
            let program = PROGRAM_LANGUAGES.contains(&language.as_str()) && !opened_here && !data;
            // An edit block (Aider's `<<<<<<< SEARCH` … `>>>>>>> REPLACE`, a merge
            // conflict): the text of a file, whatever it holds.
            let edit = !opened_here && before[ends..].trim_start().starts_with("<<<<<<< ");
            let opened = before[..at].rfind('\n').map_or(0, |i| i + 1);
            let example = introduces_example(&text[..opened]) || self.in_example_section(at);
            return if program || edit || example {
                Context::Quoted
            } else {
                Context::Fence
            };
        }
        let lead = line.trim_start();
        if lead.starts_with('>') || lead.starts_with('|') || self.in_pre(pos) {
            return Context::Quoted;
        }
        // A line of a diff's hunk, unfenced: the text of a file.
        if line.starts_with(['+', '-']) && in_hunk(&text[..pos - line.len()]) {
            return Context::Quoted;
        }
        // A call that starts its line, led into as an example or in a section headed so
        // (a fence's own marker, ```` ```tool_code ````, is such a start too).
        if lead.is_empty() {
            let line_start = pos - line.len();
            let lead_in = text[..line_start].trim_end();
            let introduced = lead_in.ends_with([':', '：']) && introduces_example(lead_in);
            if introduced || self.in_example_section(pos) {
                return Context::Quoted;
            }
        }
        // A call the sentence reports as made before (`Earlier I called {…} and it
        // returned …`): the model tells what happened, it asks for nothing now.
        let told = line.trim_end().as_bytes();
        if PAST_REPORTS.iter().any(|report| {
            let Some(from) = told.len().checked_sub(report.len()) else {
                return false;
            };
            // Whole words: `Mumbai ran` is no `I ran`.
            told[from..].eq_ignore_ascii_case(report.as_bytes())
                && (from == 0 || !told[from - 1].is_ascii_alphanumeric())
        }) {
            return Context::Quoted;
        }
        // Inside inline code: an odd number of backticks before `pos` on its line.
        if memchr::memchr_iter(b'`', line.as_bytes()).count() % 2 == 1 {
            return Context::Quoted;
        }
        Context::Prose
    }
}

/// How many lines back [`in_hunk`] looks for a hunk's header.
const MAX_HUNK_LINES: usize = 256;

/// Whether the lines that end `before` are a unified diff's hunk: a `@@ -a,b +c,d @@`
/// header, then only lines that start with a blank, `+`, `-` or `\` (or are empty), at most
/// [`MAX_HUNK_LINES`] back.
fn in_hunk(before: &str) -> bool {
    before
        .strip_suffix('\n')
        .unwrap_or(before)
        .rsplit('\n')
        .take(MAX_HUNK_LINES)
        .find(|line| !line.is_empty() && !line.starts_with([' ', '+', '-', '\\']))
        .is_some_and(|line| line.starts_with("@@ -"))
}

/// The [`Context`] of `pos` in `text`.
#[cfg(test)]
pub(crate) fn context(text: &str, pos: usize) -> Context {
    Fences::new(text).context(text, pos)
}

/// Whether `arguments` hold a placeholder where a value should be (`"..."`, `"<city>"`,
/// `"{{query}}"`, `"YOUR_API_KEY"`): a call written so shows the format, it asks for
/// nothing, wherever it stands.
fn has_placeholder(arguments: &serde_json::Value) -> bool {
    use serde_json::Value;
    match arguments {
        Value::String(text) => is_placeholder(text.trim()),
        Value::Array(items) => items.iter().any(has_placeholder),
        Value::Object(map) => map.values().any(has_placeholder),
        _ => false,
    }
}

/// Names a format's documentation writes where a tool's name goes
/// (`<function=NAME>`, `{"name": "tool_name", …}`).
const PLACEHOLDER_NAMES: &[&str] = &[
    "NAME",
    "TOOL",
    "TOOL_NAME",
    "FUNCTION",
    "FUNCTION_NAME",
    "FUNC_NAME",
    "tool_name",
    "function_name",
    "func_name",
    "your_tool",
    "your_function",
];

/// Whether a call to `name` with `arguments` is a sample of the format: placeholders where
/// values go, or where the name of a tool goes (`known` says whether a name is a tool's).
pub(crate) fn is_sample_call(
    name: &str,
    arguments: &serde_json::Value,
    known: impl FnOnce(&str) -> bool,
) -> bool {
    has_placeholder(arguments) || (PLACEHOLDER_NAMES.contains(&name) && !known(name))
}

/// Whether an unquoted placeholder (`<number of days>`) stands at `pos`, where a JSON value
/// should be: an object written so is a template of the format, not a call gone wrong.
pub(crate) fn placeholder_at(text: &str, pos: usize) -> bool {
    let Some(rest) = text.get(pos..).filter(|rest| rest.starts_with('<')) else {
        return false;
    };
    let window = &rest.as_bytes()[..rest.len().min(64)];
    match memchr::memchr(b'>', window) {
        Some(close) => is_placeholder(&rest[..=close]),
        None => {
            // The `>` may be still to come.
            if window.len() == rest.len() {
                horizon::reached(text, text.len());
            }
            false
        }
    }
}

fn is_placeholder(text: &str) -> bool {
    let enclosed = |open: &str, close: &str| {
        text.strip_prefix(open)
            .and_then(|rest| rest.strip_suffix(close))
            .is_some_and(|inner| {
                let inner = inner.trim();
                !inner.is_empty()
                    && inner.len() <= 40
                    && inner
                        .chars()
                        .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.'))
            })
    };
    matches!(text, "..." | "…" | "....")
        || enclosed("<", ">")
        || enclosed("{{", "}}")
        || (text.starts_with("YOUR_") && text.len() > 5)
}

/// Whether the paragraph that ends `before` leads into an example: its last sentence says
/// so (`The call format is:`, `For example:`). Earlier sentences may say `example` for
/// another reason (`The example city you gave, Paris, is the one I'll use.`).
fn introduces_example(before: &str) -> bool {
    let before = before.trim_end();
    // A paragraph of a few lines at most; a long one is read from its last 400 bytes.
    let mut from = before.len().saturating_sub(400);
    while !before.is_char_boundary(from) {
        from += 1;
    }
    let tail = &before[from..];
    let mut paragraph = &tail[paragraph_start(tail)..];
    // A fenced block ends a paragraph too.
    if let Some(fence) = paragraph.rfind("```").or_else(|| paragraph.rfind("~~~")) {
        paragraph = paragraph[fence..]
            .split_once('\n')
            .map_or("", |(_, after)| after);
    }
    // Addresses and domains are not words (`jo@example.de`, `example.com`).
    let sentence: String = paragraph[last_sentence(paragraph)..]
        .split_whitespace()
        .filter(|token| !token.contains('@') && !is_domain(token))
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    EXAMPLE_WORDS
        .iter()
        .chain(EXAMPLE_NOUNS)
        .chain(EXAMPLE_CUES)
        .chain(QUOTE_CUES)
        .any(|cue| sentence.contains(cue))
        || USER_STEPS.iter().any(|step| sentence.starts_with(step))
}

/// Where the last paragraph of `text` starts: after its last blank line (one of blank
/// space, `\r` of a `\r\n` line end included), else at its start.
fn paragraph_start(text: &str) -> usize {
    let mut end = text.len();
    while let Some(newline) = text[..end].rfind('\n') {
        let line_start = text[..newline].rfind('\n').map_or(0, |i| i + 1);
        if line_start > 0 && text[line_start..newline].trim().is_empty() {
            return newline + 1;
        }
        end = newline;
    }
    0
}

/// Whether the text on the line before `start` names an example ([`EXAMPLE_WORDS`]) or a
/// quotation ([`QUOTE_CUES`]): JSON there is an illustration (`你可以这样调用，例如：{…}`)
/// or someone else's text (`one cell of the sheet contains {…}`, `it says "{…}`).
pub(crate) fn names_example(text: &str, start: usize) -> bool {
    let from = floor_boundary(text, start.saturating_sub(LINE_WINDOW));
    let line = memchr::memrchr(b'\n', &text.as_bytes()[from..start]).map_or(from, |i| from + i + 1);
    let line = &text[line..start];
    // Inside a quotation opened on its line (`the footer says "<tool_call>{…}`): an odd
    // count of quotation marks before it, those JSON escapes aside.
    let marks = line
        .match_indices('"')
        .filter(|(at, _)| !line[..*at].ends_with('\\'));
    if marks.count() % 2 == 1 || line.matches('“').count() > line.matches('”').count() {
        return true;
    }
    // What a call earlier on the line holds is not the sentence's (`{…"query": "sample
    // payload"}; {…}`): the sentence starts after the last closing bracket.
    let sentence = line
        .rfind(['}', ']', '>'])
        .map_or(line, |at| &line[at + 1..]);
    let before = sentence.to_lowercase();
    // A quotation is named right before what it quotes (`one cell contains {…}`, `you
    // pasted {…}`), not anywhere on a line that goes on to a call.
    let near = floor_boundary(&before, before.len().saturating_sub(48));
    EXAMPLE_WORDS
        .iter()
        .chain(EXAMPLE_NOUNS)
        .any(|word| before.contains(word))
        || EXAMPLE_CUES
            .iter()
            .chain(QUOTE_CUES)
            .any(|cue| before[near..].contains(cue))
}

/// Sentences that tell the user what to do with what follows (`Paste it as-is:`): what
/// follows is for the user, not a call. Only at a sentence's start, where they are
/// imperatives (`I'll paste your notes into the document:` is the model's own act).
const USER_STEPS: &[&str] = &["paste ", "copy "];

/// Whether `token` is a domain or URL (`example.com`, `https://x.org/a`): a dot between
/// letters, not at its end.
fn is_domain(token: &str) -> bool {
    let token = token.trim_end_matches(|c: char| !c.is_alphanumeric());
    let letters = |part: &str| part.len() >= 2 && part.chars().all(char::is_alphanumeric);
    token.contains("://")
        || token
            .rsplit_once('.')
            .is_some_and(|(name, top)| letters(top) && name.len() >= 2 && !name.ends_with('.'))
}

/// Where the last sentence of `paragraph` starts: after the last `. `, `! `, `? ` or `。`
/// that ends one (not the `.` of `e.g.` or of a number).
fn last_sentence(paragraph: &str) -> usize {
    let bytes = paragraph.as_bytes();
    let mut start = 0;
    for (at, c) in paragraph.char_indices() {
        let ends = match c {
            '。' | '！' | '？' => true,
            '.' | '!' | '?' => {
                let next = bytes.get(at + 1).copied();
                let before = paragraph[..at].chars().next_back();
                matches!(next, Some(b' ' | b'\n'))
                    && before.is_some_and(|b| !b.is_whitespace() && !b.is_numeric())
                    && !paragraph[..at].to_lowercase().ends_with("e.g")
            }
            _ => false,
        };
        // The sentence must not be the paragraph's own last characters.
        if ends && paragraph[at + c.len_utf8()..].trim().len() > 1 {
            start = at + c.len_utf8();
        }
    }
    start
}

/// How many headings back a position looks past those inside fenced blocks.
const MAX_HEADINGS_BACK: usize = 64;

/// Words that, anywhere in a heading, say its section shows examples: `### Example`,
/// `**Sample output**`. Lower case; matched as written.
const HEADING_CUES: &[&str] = &[
    "example",
    "sample",
    "cheat sheet",
    "例",
    "пример",
    "ejemplo",
    "beispiel",
    "exemple",
];

/// Headings that say so only when they are the whole title (`## Usage`, `## Format`):
/// `## Usage this month` or `## Date format` head sections about something else.
const HEADING_TITLES: &[&str] = &[
    "usage",
    "format",
    "call format",
    "syntax",
    "template",
    "reference",
    "documentation",
];

/// Whether `line` is a heading (`## Title`, or a line of bold text alone), and if so
/// whether it heads examples.
fn heading(line: &str) -> Option<bool> {
    let line = line.trim();
    let title = if let Some(rest) = line.strip_prefix('#') {
        let rest = rest.trim_start_matches('#');
        if !rest.starts_with(' ') {
            return None;
        }
        rest
    } else if line.len() < 80
        && line.starts_with("**")
        && line.trim_end_matches(':').ends_with("**")
    {
        line
    } else {
        return None;
    };
    let title = title.to_lowercase();
    // The title itself: without emphasis, a closing colon, or a number before it.
    let bare = title
        .trim_matches(|c: char| c.is_whitespace() || matches!(c, '*' | '_' | ':' | '#'))
        .trim_start_matches(|c: char| c.is_ascii_digit() || matches!(c, '.' | ')' | ' '));
    let cued = HEADING_CUES
        .iter()
        .chain(EXAMPLE_NOUNS)
        .any(|cue| title.contains(cue));
    Some(cued || HEADING_TITLES.contains(&bare))
}

#[cfg(test)]
mod tests {
    use super::{Context, Fences, context};

    fn at(text: &str, needle: &str) -> Context {
        context(text, text.find(needle).expect("the needle"))
    }

    #[test]
    fn markdown_around_a_position_is_told() {
        let text = "Plain {\"a\"} and `inline {\"b\"}` then {\"c\"}.\n\
                    > quoted {\"d\"}\n\
                    | cell {\"e\"} |\n\
                    ```python\ncall = {\"f\"}\n```\n\
                    ```json\n{\"g\"}\n```\n\
                    ```\n{\"h\"}\n```\n\
                    ~~~ts\nlet x = {\"i\"}\n~~~\n\
                    >>>get_time\n";
        assert_eq!(at(text, "{\"a\"}"), Context::Prose);
        assert_eq!(at(text, "{\"b\"}"), Context::Quoted);
        assert_eq!(at(text, "{\"c\"}"), Context::Prose);
        assert_eq!(at(text, "{\"d\"}"), Context::Quoted);
        assert_eq!(at(text, "{\"e\"}"), Context::Quoted);
        assert_eq!(at(text, "{\"f\"}"), Context::Quoted);
        assert_eq!(at(text, "{\"g\"}"), Context::Fence);
        assert_eq!(at(text, "{\"h\"}"), Context::Fence);
        assert_eq!(at(text, "{\"i\"}"), Context::Quoted);
        // Functionary's `>>>` starts its line: the line before it is empty.
        assert_eq!(at(text, ">>>get_time"), Context::Prose);
        // A fence that is a call's delimiter is not inside itself.
        assert_eq!(context("```tool_code\nf()\n```", 0), Context::Prose);
    }

    #[test]
    fn a_call_led_into_as_an_example_or_under_an_example_heading_is_quoted() {
        let call = "<tool_call>\n{}\n</tool_call>";
        let told = |lead: &str| at(&format!("{lead}{call}"), "<tool_call>");
        assert_eq!(
            told("Формат вызова выглядит так (это пример):\n\n"),
            Context::Quoted
        );
        assert_eq!(told("The call format is:\n"), Context::Quoted);
        assert_eq!(told("### Example\n\n"), Context::Quoted);
        assert_eq!(told("**Usage:**\n"), Context::Quoted);
        assert_eq!(told("## 2. Format\n\n"), Context::Quoted);
        // A heading about something else that names a cue word.
        assert_eq!(
            told("## Usage this month\n\nFetching it:\n"),
            Context::Prose
        );
        // What the user is told to paste is theirs; what the model pastes is its act, and
        // a transcript it fetches is not one it quotes.
        assert_eq!(told("Paste it as-is:\n"), Context::Quoted);
        assert_eq!(
            told("I'll paste your notes into the doc:\n"),
            Context::Prose
        );
        assert_eq!(
            told("Fetching the transcript of the call:\n"),
            Context::Prose
        );
        assert_eq!(
            told("Here's the raw transcript, tokens visible:\n"),
            Context::Quoted
        );
        // Only the last sentence leads in; an earlier one may say `example` for another
        // reason, and addresses are not words.
        assert_eq!(
            told("The example city you gave is fine. Fetching it:\n"),
            Context::Prose
        );
        assert_eq!(told("Mailing jo@example.com now:\n"), Context::Prose);
        // A sentence that does not lead in (no colon) says nothing of what follows.
        assert_eq!(told("That was an example.\n\n"), Context::Prose);
        // A later heading ends the example's section; headings in fences are code.
        assert_eq!(
            told("## Example\n\nx\n\n## Your request\n\n"),
            Context::Prose
        );
        assert_eq!(told("## Run\n```sh\n# Example\n```\n"), Context::Prose);
    }

    #[test]
    fn an_object_alone_in_a_program_block_is_data_and_a_reported_call_is_quoted() {
        let object = "{tool: 'search', parameters: {query: 'x'}}";
        for language in ["js", "python", "ts"] {
            let text = format!("```{language}\n{object}\n```");
            assert_eq!(at(&text, "{tool"), Context::Fence, "{language}");
        }
        // In a statement, or in a log, it belongs to the program or the log.
        assert_eq!(
            at(&format!("```js\nconst call = {object};\n```"), "{tool"),
            Context::Quoted
        );
        assert_eq!(
            at(&format!("```jsonl\n{object}\n```"), "{tool"),
            Context::Quoted
        );
        // Told as made before, on its line; a call the model makes now is not.
        let call = "{\"name\": \"now\", \"arguments\": {}}";
        let told = |lead: &str| at(&format!("{lead}{call} and it said 9:41."), "{\"name\"");
        assert_eq!(told("Earlier I called "), Context::Quoted);
        assert_eq!(told("The tool was called with "), Context::Quoted);
        assert_eq!(told("Calling it again: "), Context::Prose);
        assert_eq!(told("The script Mumbai ran "), Context::Prose);
        assert_eq!(
            told("I called it and it failed, so again: "),
            Context::Prose
        );
    }

    #[test]
    fn an_unquoted_placeholder_is_told_where_a_value_should_be() {
        let text = "{\"days\": <number of days>}";
        assert!(super::placeholder_at(text, text.find('<').unwrap()));
        assert!(!super::placeholder_at("{\"days\": <3}", 9));
        assert!(!super::placeholder_at("{\"days\": 3}", 9));
    }

    #[test]
    fn fences_found_as_a_text_grows_are_those_of_the_whole() {
        let text =
            "## Usage\na\n```json\n{}\n```` \n  ~~~\n`````\n# x\n``` ```\n\t```x\n~~~~~~\n```";
        let whole = Fences::new(text);
        for step in 1..=4 {
            let mut grown = Fences::default();
            let mut end = 0;
            while end < text.len() {
                end = (end + step).min(text.len());
                grown.extend(&text[..end]);
            }
            assert_eq!(grown.markers, whole.markers, "grown {step} bytes at a time");
            assert_eq!(
                grown.headings, whole.headings,
                "grown {step} bytes at a time"
            );
        }
        // A run of another character, or a shorter one, does not close a block.
        assert_eq!(whole.markers.len(), 5);
        assert_eq!(whole.headings, [(0, true), (40, false)]);
        // A closing run cut short by the end of the text so far waits to be whole.
        let text = "````\nx\n````\n<tool_call>";
        let mut grown = Fences::default();
        for end in 1..=text.len() {
            grown.extend(&text[..end]);
        }
        assert_eq!(grown.markers, Fences::new(text).markers);
        assert_eq!(grown.markers.len(), 2);
    }

    #[test]
    fn pre_tags_found_as_a_text_grows_are_those_of_the_whole() {
        let text = "<pre>a</pre> <prefix> <pre class=\"x\">\n</pre\n>pre <pre/><pre";
        let whole = Fences::new(text);
        assert_eq!(
            whole.pre,
            [(0, true), (6, false), (22, true), (38, false), (49, true)]
        );
        for step in 1..=6 {
            let mut grown = Fences::default();
            let mut end = 0;
            while end < text.len() {
                end = (end + step).min(text.len());
                grown.extend(&text[..end]);
            }
            assert_eq!(grown.pre, whole.pre, "grown {step} bytes at a time");
        }
        let inside = "<pre>\n<tool_call>";
        assert_eq!(context(inside, inside.len() - 11), Context::Quoted);
        let after = "<pre>x</pre>\n<tool_call>";
        assert_eq!(context(after, after.len() - 11), Context::Prose);
    }

    #[test]
    fn placeholders_are_told_from_values() {
        use serde_json::json;
        for sample in [
            json!({"query": "..."}),
            json!({"city": "<city>"}),
            json!({"query": "<your query>"}),
            json!({"to": "{{recipient}}"}),
            json!({"key": "YOUR_API_KEY"}),
            json!({"attendees": ["…"]}),
        ] {
            assert!(super::has_placeholder(&sample), "{sample}");
        }
        for real in [
            json!({"query": "rust 2024 edition"}),
            json!({"body": "<b>bold</b>"}),
            json!({"body": "a < b > c"}),
            json!({"note": "to be continued..."}),
            json!({"city": "Paris", "days": 3}),
            json!({"path": "<>"}),
        ] {
            assert!(!super::has_placeholder(&real), "{real}");
        }
    }

    #[test]
    fn a_shorter_fence_inside_a_longer_one_is_its_text() {
        let nested = "Here it is:\n\n````markdown\n## Calls\n\n```xml\n<tool_call>{}</tool_call>\n```\n\n<tool_call>{}</tool_call>\n````\n<tool_call>{}</tool_call>";
        let at_nth = |n: usize| {
            let pos = nested.match_indices("<tool_call>").nth(n).unwrap().0;
            Fences::new(nested).context(nested, pos)
        };
        // In the inner block, and after it in the outer one: the outer block's text (a
        // markdown document's).
        assert_eq!(at_nth(0), Context::Quoted);
        assert_eq!(at_nth(1), Context::Quoted);
        // After the outer block closes: prose again.
        assert_eq!(at_nth(2), Context::Prose);
        // A tilde run does not close a backtick block.
        let mixed = "```\n~~~\n<tool_call>{}</tool_call>\n```\n<tool_call>";
        let last = mixed.rfind("<tool_call>").unwrap();
        assert_eq!(
            context(mixed, mixed.find("<tool_call>").unwrap()),
            Context::Fence
        );
        assert_eq!(context(mixed, last), Context::Prose);
    }

    #[test]
    fn an_edit_block_and_a_diff_hunk_are_a_files_text() {
        let aider =
            "app.py\n```\n<<<<<<< SEARCH\n=======\n<tool_call>{}</tool_call>\n>>>>>>> REPLACE\n```";
        assert_eq!(at(aider, "<tool_call>"), Context::Quoted);
        let hunk = "Here is the patch:\n\n--- a/t.py\n+++ b/t.py\n@@ -1,2 +1,3 @@\n x = 1\n+<tool_call>{}</tool_call>\n";
        assert_eq!(at(hunk, "<tool_call>"), Context::Quoted);
        // A line that starts with `+` outside a hunk is prose.
        let list = "Totals:\n+<tool_call>{}</tool_call>";
        assert_eq!(at(list, "<tool_call>"), Context::Prose);
    }

    #[test]
    fn a_fence_introduced_as_an_example_is_quoted() {
        let shown = |lead: &str| {
            let text = format!("{lead}\n```\n<tool_call>{{}}</tool_call>\n```");
            at(&text, "<tool_call>")
        };
        assert_eq!(shown("The call format is:"), Context::Quoted);
        assert_eq!(shown("For reference, the shape is:"), Context::Quoted);
        assert_eq!(
            shown("比如查询北京天气，模型的原始输出是："),
            Context::Quoted
        );
        assert_eq!(shown("Checking the weather now:"), Context::Fence);
        assert_eq!(shown("With that dict this renders:"), Context::Quoted);
        assert_eq!(
            shown("Every call is a block like the one below:"),
            Context::Quoted
        );
        // Only the paragraph that leads into the fence counts.
        assert_eq!(
            shown("An example came earlier.\n\nChecking the weather now:"),
            Context::Fence
        );
    }
}
