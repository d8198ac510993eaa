//! The reader of a text stream: the batch readers of `extract`, run as far as the text so
//! far decides (see `horizon`), and the events that come of it.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::Arc;

use crate::call_body::guess_name;
use crate::horizon::{self, Waits};
use crate::reasoning::{Progress, Reasoning, blank};
use crate::record::Item;
use crate::scan::{clean_name, plausible_name};
use crate::text::{Step, TextScan, read_calls_ending_reasoning};
use crate::transcript::{self, Opening};
use crate::visible;
use crate::{CallSource, Extraction, ReasoningStart, whole_value};
use mcs_core::Tool;
use mcs_core::stream::{StreamEvent, ToolLookup, push_text};

/// A span of the text that is not shown as text: call markup, or reasoning.
#[derive(Clone, Debug)]
struct Hidden {
    span: Range<usize>,
    /// For reasoning: the text of it, without its markers.
    reasoning: Option<Range<usize>>,
}

/// Whether the output is one JSON value — the answer the default prompt asks for — read
/// whole at the end like the batch path does, so nothing of it is decided before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Whole {
    /// Only blank space so far.
    Unknown,
    /// A value is open: how deep, whether in a string and after a backslash, where it
    /// started and how far it was looked at.
    Open {
        start: usize,
        depth: usize,
        in_string: bool,
        escaped: bool,
        pos: usize,
    },
    /// A value closed at `end`, and only blank space followed so far.
    Closed { start: usize, end: usize },
    /// The output is something else.
    No,
}

/// Reads a text stream; see [`StreamReader`](super::StreamReader).
pub(crate) struct TextStream {
    tools: Arc<[Tool]>,
    lookup: Option<ToolLookup>,
    raw: String,
    /// `raw` with reasoning blanked, as the readers see it.
    visible: String,
    reasoning: Reasoning,
    scan: TextScan,
    whole: Whole,
    /// Events were made for the text before this offset.
    shown: usize,
    /// Whether some text was shown.
    shown_any: bool,
    hidden: VecDeque<Hidden>,
    /// The scan's reading is final before this offset.
    decided: usize,
    /// The length read at the last scan, and what reading the undecided text waits for.
    read_at: usize,
    waits: Option<Waits>,
    /// Where the region still being written starts.
    region: Option<usize>,
    /// Follows the JSON value the pending region waits for, to read again once it closes.
    closing: Option<Closing>,
    /// Items of the scan's findings made into events, and items of the pending region.
    emitted: usize,
    pending_emitted: usize,
    /// A `CallBegun` was sent for the call that starts here.
    begun_at: Option<usize>,
    /// Calls counted so far (the `index` of events).
    calls: usize,
    /// Call events kept back while reasoning may still turn out to have come first.
    held: Vec<StreamEvent>,
    /// UTF-8 bytes of a character cut in half by a byte delta.
    partial: Vec<u8>,
    /// The last read decided all of the text: a piece that cannot start, continue or end
    /// anything the readers look for is shown without reading (see [`quiet`]).
    settled_text: bool,
    /// Whether the text after the last read is reasoning (shown as such when quiet).
    in_reasoning: bool,
    /// Whether the output starts as a transcript (a prompt handed back with its answer),
    /// which is read at the end, from the model's last turn (see `transcript`).
    opening: Opening,
    /// The output as it came, when the prompt's turns of a transcript were blanked in `raw`.
    original: Option<String>,
}

/// Bytes that may start what the readers look for, in a line whose first word is decided
/// and with nothing left open: markers, tokens and tags (`<`; `[` also opens pythonic
/// lists and `[TOOL_CALLS]`; `>` starts `>>>`; `]` starts MiniMax-M3's `]<]minimax[>[`),
/// JSON (`{`), fences (`` ` ``), the `=` of `to=functions.`, and new lines (where
/// line-based formats start). A piece without any of them, after a
/// read that decided everything, is text as it stands — unless it ends with what could
/// start a marker spelled in letters (`functools[`, `to=functions.`), which [`quiet`]
/// checks. Everything else (`}`, `)`, `(`, `|`) can only continue or end
/// what an earlier loud byte opened, and nothing is open.
const LOUD: [bool; 256] = {
    let mut loud = [false; 256];
    let bytes = b"<>[]{`=\n\r";
    let mut i = 0;
    while i < bytes.len() {
        loud[bytes[i] as usize] = true;
        i += 1;
    }
    loud
};

/// The markers that start with a letter or a character no byte of which is loud (the
/// others start with a loud byte): Qwen-Agent's `✿FUNCTION✿` starts with a byte that
/// starts dashes and quotes too.
const SPELLED: [&[u8]; 4] = [
    b"functools[",
    b"to=functions.",
    b"call:",
    "\u{273f}FUNCTION\u{273f}".as_bytes(),
];

/// The longest of [`SPELLED`], in bytes.
const LONGEST_SPELLED: usize = {
    let mut longest = 0;
    let mut i = 0;
    while i < SPELLED.len() {
        if SPELLED[i].len() > longest {
            longest = SPELLED[i].len();
        }
        i += 1;
    }
    longest
};

/// Whether `delta` can be shown without reading: it has no loud byte, and no `✿` (which
/// starts Qwen-Agent's markers).
fn quiet(delta: &str) -> bool {
    !delta.bytes().any(|b| LOUD[usize::from(b)]) && !delta.contains('\u{273f}')
}

/// Where, in `text` after `from`, a marker spelled in letters could start that goes on
/// after the end of `text`: what of quiet text is held back (`text.len()` when nothing).
fn spelled_start(text: &str, from: usize) -> usize {
    let bytes = text.as_bytes();
    let first = bytes.len().saturating_sub(LONGEST_SPELLED).max(from);
    (first..bytes.len())
        .find(|&at| {
            let rest = &bytes[at..];
            SPELLED.iter().any(|marker| marker.starts_with(rest))
        })
        .unwrap_or(bytes.len())
}

impl TextStream {
    pub(crate) fn new(
        tools: Arc<[Tool]>,
        lookup: Option<ToolLookup>,
        start: ReasoningStart,
    ) -> Self {
        TextStream {
            tools,
            lookup,
            raw: String::new(),
            visible: String::new(),
            reasoning: Reasoning::new(start),
            scan: TextScan::new(),
            whole: Whole::Unknown,
            shown: 0,
            shown_any: false,
            hidden: VecDeque::new(),
            decided: 0,
            read_at: 0,
            waits: None,
            region: None,
            closing: None,
            emitted: 0,
            pending_emitted: 0,
            begun_at: None,
            calls: 0,
            held: Vec::new(),
            partial: Vec::new(),
            settled_text: false,
            in_reasoning: false,
            opening: Opening::Undecided,
            original: None,
        }
    }

    /// The text so far.
    pub(crate) fn text(&self) -> &str {
        self.original.as_deref().unwrap_or(&self.raw)
    }

    /// Takes in a piece of text.
    pub(crate) fn feed(&mut self, delta: &str, events: &mut Vec<StreamEvent>) {
        if !self.partial.is_empty() {
            // A byte delta left half a character: what follows cannot be read before it.
            let mut bytes = std::mem::take(&mut self.partial);
            bytes.extend_from_slice(delta.as_bytes());
            return self.feed_bytes(&bytes, events);
        }
        self.raw.push_str(delta);
        // A byte-order mark first is no part of the answer: read as blank space, as
        // `extract` reads it.
        match delta.strip_prefix('\u{feff}') {
            Some(rest) if self.visible.is_empty() => {
                self.visible.push_str("   ");
                self.visible.push_str(rest);
            }
            _ => self.visible.push_str(delta),
        }
        if self.settled_text && quiet(delta) {
            // Plain text after plain text: shown as it comes (but for letters that may
            // begin `functools[` or `to=functions.`); the readers read it with the next
            // piece that may matter.
            let make = if self.in_reasoning {
                StreamEvent::Reasoning
            } else {
                self.shown_any = true;
                StreamEvent::Text
            };
            // And for a word that may become Kimi's `functions.NAME:0` glued to its
            // arguments, its markers stripped.
            let glued = crate::bare_json::glued_word(&self.raw, self.raw.len());
            let upto = spelled_start(&self.raw, self.shown)
                .min(glued.unwrap_or(usize::MAX))
                .max(self.shown);
            push_text(events, make, &self.raw[self.shown..upto]);
            self.shown = upto;
            return;
        }
        self.advance(false, events);
    }

    /// Takes in raw bytes of UTF-8 text: a character may be cut between two deltas. Bytes
    /// that are not UTF-8 are read as U+FFFD.
    pub(crate) fn feed_bytes(&mut self, delta: &[u8], events: &mut Vec<StreamEvent>) {
        let mut bytes = std::mem::take(&mut self.partial);
        bytes.extend_from_slice(delta);
        let mut text = String::new();
        let mut rest = &bytes[..];
        loop {
            match std::str::from_utf8(rest) {
                Ok(valid) => {
                    text.push_str(valid);
                    break;
                }
                Err(error) => {
                    let (valid, after) = rest.split_at(error.valid_up_to());
                    text.push_str(std::str::from_utf8(valid).unwrap_or_default());
                    match error.error_len() {
                        Some(bad) => {
                            text.push(char::REPLACEMENT_CHARACTER);
                            rest = &after[bad..];
                        }
                        None => {
                            self.partial = after.to_vec();
                            break;
                        }
                    }
                }
            }
        }
        self.raw.push_str(&text);
        self.visible.push_str(&text);
        self.advance(false, events);
    }

    /// Ends the stream: the rest of the events, and what the batch path finds in the text.
    pub(crate) fn finish(&mut self, events: &mut Vec<StreamEvent>) -> Extraction {
        if !self.partial.is_empty() {
            let bytes = std::mem::take(&mut self.partial);
            let text = String::from_utf8_lossy(&bytes).into_owned();
            self.raw.push_str(&text);
            self.visible.push_str(&text);
        }
        if self.opening != Opening::No {
            self.read_as_transcript();
        }
        if self.whole != Whole::No
            && let Some(extraction) = whole_value(&self.visible, &self.tools, self.index())
        {
            self.calls_of(&extraction, events);
            return extraction;
        }
        self.advance(true, events);
        if let Some(content) = self.reasoning.unclosed() {
            let index = self.lookup.as_deref().map(|l| l as crate::ToolIndex<'_>);
            let step = read_calls_ending_reasoning(
                &mut self.scan,
                &self.raw,
                &self.visible,
                content,
                &self.tools,
                index,
            );
            if let Some(step) = step {
                self.take_step(step, events);
                events.append(&mut self.held);
            }
        }
        std::mem::replace(&mut self.scan, TextScan::new())
            .into_found()
            .finish(CallSource::Text)
    }

    fn index(&self) -> Option<crate::ToolIndex<'_>> {
        self.lookup
            .as_deref()
            .map(|lookup| lookup as crate::ToolIndex<'_>)
    }

    /// The end of a stream that may be a transcript: only its last turn of the model's is
    /// read, as `extract` reads it; the turns before are blank, and not shown.
    fn read_as_transcript(&mut self) {
        self.opening = Opening::No;
        if let Some(start) = transcript::model_turn(&self.visible) {
            let raw = transcript::blank_before(&self.raw, start);
            self.original = Some(std::mem::replace(&mut self.raw, raw));
            self.visible = transcript::blank_before(&self.visible, start);
            self.shown = start;
            self.decided = start;
        }
    }

    /// Reads as far as the text decides, and makes the events of what was decided.
    fn advance(&mut self, end: bool, events: &mut Vec<StreamEvent>) {
        if self.opening != Opening::No && !end {
            // A transcript is read whole at the end: nothing is decided before.
            if self.opening == Opening::Undecided {
                self.opening = transcript::stream_opening(&self.visible);
            }
            if self.opening != Opening::No {
                self.settled_text = false;
                return;
            }
        }
        let progress = {
            let _horizon = horizon::open(&self.raw);
            self.reasoning.advance(&self.raw, self.raw.len(), end)
        };
        self.take_reasoning(progress, events);
        self.track_whole();
        if !end && self.whole != Whole::No {
            // The output may be one JSON value, read whole at the end: nothing is decided.
            self.settled_text = false;
            if let Whole::Open { start, .. } | Whole::Closed { start, .. } = self.whole
                && self.begun_at.is_none()
                && let Some(name) = guess_name(&self.raw, start, self.raw.len())
            {
                self.begun_at = Some(start);
                events.push(StreamEvent::CallBegun {
                    index: self.calls,
                    name,
                });
            }
            return;
        }
        let limit = if end {
            self.visible.len()
        } else {
            self.reasoning.decided()
        };
        if end || self.due(limit) {
            let step = {
                let text = &self.visible[..limit];
                let _horizon = horizon::open(text);
                let index = self.lookup.as_deref().map(|l| l as crate::ToolIndex<'_>);
                self.scan.read(text, &self.tools, index, end)
            };
            self.read_at = limit;
            self.take_step(step, events);
        }
        if end || self.reasoning.settled() {
            events.append(&mut self.held);
        }
        let upto = if end {
            self.raw.len()
        } else {
            self.decided.min(limit)
        };
        self.show(upto, !end, events);
        // A line with nothing on it yet (as the readers see it: reasoning is blank) is never
        // settled: what starts it may start a call (`search(`, `Action:`).
        let line_started = self
            .visible
            .bytes()
            .rev()
            .take(4096)
            .take_while(|b| *b != b'\n')
            .any(|b| !b.is_ascii_whitespace());
        self.settled_text = !end
            && self.whole == Whole::No
            && self.shown == self.raw.len()
            && self.region.is_none()
            && self.held.is_empty()
            && line_started;
        self.in_reasoning = self.reasoning.is_open();
    }

    /// Whether reading again can decide more than the last read: what the last read waited
    /// for has come, or the text grew by a good part of what is undecided — so that reading
    /// again and again costs time linear in the text, whatever it holds.
    fn due(&mut self, limit: usize) -> bool {
        let grew = limit.saturating_sub(self.read_at);
        if grew == 0 {
            return false;
        }
        let backlog = limit - self.decided.min(limit);
        // Reading again costs about the undecided text: it is read when what a read waits
        // for came and the text grew by a 64th of that, or after an eighth in any case.
        let soon = grew * 64 >= backlog;
        let backed_off = grew * 8 >= backlog;
        let Some(waits) = &self.waits else {
            return backed_off;
        };
        let arrived = waits.needles.iter().any(|needle| {
            let needle = needle.as_bytes();
            let from = self.read_at.saturating_sub(needle.len());
            memchr::memmem::find(&self.visible.as_bytes()[from..limit], needle).is_some()
        });
        let closed = self
            .closing
            .as_mut()
            .is_some_and(|closing| closing.closes(&self.visible.as_bytes()[..limit]));
        // A region being written changes only with what it waits for; text in a gap is
        // also shown as it comes.
        let region = self.region.is_some();
        ((arrived || closed) && soon) || ((waits.any || !region) && backed_off)
    }

    fn take_reasoning(&mut self, progress: Progress, events: &mut Vec<StreamEvent>) {
        let mut content = progress.content.into_iter();
        if let Some(end) = progress.opened_in_prompt {
            // Everything up to the first closer was reasoning whose opener was in the prompt:
            // what was read of it as the answer is read again without it.
            if self.shown_any {
                events.push(StreamEvent::TextWasReasoning);
            }
            if let Some(text) = content.next() {
                push_text(events, StreamEvent::Reasoning, &self.raw[text]);
            }
            self.visible
                .replace_range(..end, &blanked(&self.raw[..end]));
            self.scan = TextScan::new();
            self.hidden.clear();
            self.held.clear();
            self.waits = None;
            self.closing = None;
            self.emitted = 0;
            self.pending_emitted = 0;
            self.begun_at = None;
            self.calls = 0;
            self.read_at = 0;
            // The answer starts after the reasoning: it may be one JSON value after all.
            self.whole = Whole::Unknown;
            self.decided = end;
            self.shown = end;
            self.shown_any = false;
        }
        let spans = if progress.opened_in_prompt.is_some() {
            &progress.spans[1..]
        } else {
            &progress.spans[..]
        };
        for span in spans {
            let text = blanked(&self.raw[span.clone()]);
            self.visible.replace_range(span.clone(), &text);
            self.hide(Hidden {
                span: span.clone(),
                reasoning: content.next(),
            });
        }
    }

    /// Keeps `hidden` for [`show`](Self::show), in the order of the text: reasoning and
    /// markup are decided by different readers, each in order.
    fn hide(&mut self, hidden: Hidden) {
        let at = self
            .hidden
            .partition_point(|other| other.span.start <= hidden.span.start);
        self.hidden.insert(at, hidden);
    }

    /// Follows whether the output is one JSON value.
    fn track_whole(&mut self) {
        // The answer after its reasoning, as far as the reasoning is decided.
        let decided = self.reasoning.decided().min(self.visible.len());
        let bytes = &self.visible.as_bytes()[..decided];
        loop {
            self.whole = match self.whole {
                Whole::No => return,
                Whole::Unknown => {
                    let Some(start) = bytes.iter().position(|b| !b" \t\n\r".contains(b)) else {
                        return;
                    };
                    if matches!(bytes[start], b'{' | b'[') {
                        Whole::Open {
                            start,
                            depth: 0,
                            in_string: false,
                            escaped: false,
                            pos: start,
                        }
                    } else {
                        Whole::No
                    }
                }
                Whole::Open {
                    start,
                    mut depth,
                    mut in_string,
                    mut escaped,
                    pos,
                } => {
                    let mut closed = None;
                    let mut at = pos;
                    while let Some(&byte) = bytes.get(at) {
                        at += 1;
                        if in_string {
                            match byte {
                                _ if escaped => escaped = false,
                                b'\\' => escaped = true,
                                b'"' => in_string = false,
                                // Strict JSON has no raw control characters in strings.
                                0..0x20 => {
                                    self.whole = Whole::No;
                                    return;
                                }
                                _ => {}
                            }
                            continue;
                        }
                        match byte {
                            b'"' => in_string = true,
                            b'{' | b'[' => depth += 1,
                            b'}' | b']' => {
                                depth = depth.saturating_sub(1);
                                if depth == 0 {
                                    closed = Some(at);
                                    break;
                                }
                            }
                            b' ' | b'\t' | b'\n' | b'\r' | b',' | b':' | b'-' | b'+' | b'.' => {}
                            b'0'..=b'9' | b'a' | b'e' | b'f' | b'l' | b'n' | b'r' | b's' | b't' => {
                            }
                            b'u' | b'E' => {}
                            // Prose, not JSON: shown as it comes.
                            _ => {
                                self.whole = Whole::No;
                                return;
                            }
                        }
                    }
                    match closed {
                        Some(end) => {
                            let strict = serde_json::from_str::<serde::de::IgnoredAny>(
                                &self.raw[start..end],
                            );
                            if strict.is_ok() {
                                Whole::Closed { start, end }
                            } else {
                                Whole::No
                            }
                        }
                        None => {
                            self.whole = Whole::Open {
                                start,
                                depth,
                                in_string,
                                escaped,
                                pos: at,
                            };
                            return;
                        }
                    }
                }
                Whole::Closed { start, end } => {
                    // Blank space, and the end-of-turn tokens a server may leave.
                    let rest = std::str::from_utf8(&bytes[end..]).unwrap_or("x");
                    if crate::visible::only_end_of_turn(rest) {
                        self.whole = Whole::Closed { start, end };
                        return;
                    }
                    Whole::No
                }
            };
        }
    }

    /// Makes the events of what a scan step decided.
    fn take_step(&mut self, step: Step, events: &mut Vec<StreamEvent>) {
        self.decided = step.decided;
        for span in step.markup {
            self.hide(Hidden {
                span,
                reasoning: None,
            });
        }
        // Calls recorded for good.
        let found = self.scan.found();
        let new: Vec<(usize, Item)> = found
            .items
            .iter()
            .skip(self.emitted)
            .map(|recorded| (recorded.at, recorded.item.clone()))
            .collect();
        self.emitted += new.len();
        let committed = !new.is_empty();
        let mut new = new.into_iter();
        // The first of them may be the pending region's, some of whose calls went out.
        if self.pending_emitted > 0 && committed {
            for _ in 0..self.pending_emitted {
                new.next();
            }
            self.pending_emitted = 0;
            self.begun_at = None;
        }
        for (at, item) in new {
            self.call_event(at, item);
        }
        self.region = step.pending.as_ref().map(|pending| pending.start);
        if let Some(pending) = step.pending {
            for recorded in pending.settled.into_iter().skip(self.pending_emitted) {
                self.pending_emitted += 1;
                self.call_event(recorded.at, recorded.item);
            }
            // Peeked only once all that comes before it is decided, so its index holds.
            if self.begun_at != Some(pending.start)
                && self.pending_emitted == 0
                && self.decided >= pending.start
                && let Some(name) = peek_name(&self.visible, pending.start)
            {
                self.begun_at = Some(pending.start);
                events.push(StreamEvent::CallBegun {
                    index: self.calls,
                    name,
                });
            }
        }
        self.closing = step
            .waits
            .as_ref()
            .and_then(|waits| waits.json)
            .map(Closing::new);
        self.waits = step.waits;
        if self.reasoning.settled() {
            events.append(&mut self.held);
        }
    }

    /// Queues the events of one recorded call that starts at `at`.
    fn call_event(&mut self, at: usize, item: Item) {
        let index = self.calls;
        self.calls += 1;
        // Its `CallBegun` went out already when it is the call the pending region began.
        let begun = self.begun_at.is_some_and(|start| at >= start);
        if begun {
            self.begun_at = None;
        }
        match item {
            Item::Call(call) => {
                if !begun {
                    self.held.push(StreamEvent::CallBegun {
                        index,
                        name: call.name.clone(),
                    });
                }
                self.held.push(StreamEvent::Call { index, call });
            }
            Item::Malformed(call) => self.held.push(StreamEvent::CallFailed { index, call }),
        }
    }

    /// The events of a whole-value extraction.
    fn calls_of(&mut self, extraction: &Extraction, events: &mut Vec<StreamEvent>) {
        let start = self.begun_at.unwrap_or_default();
        for call in &extraction.calls {
            self.call_event(start, Item::Call(call.clone()));
        }
        for call in &extraction.malformed {
            self.call_event(start, Item::Malformed(call.clone()));
        }
        events.append(&mut self.held);
        self.shown = self.raw.len();
    }

    /// Makes text and reasoning events for the text up to `upto`; with `more`, the text
    /// goes on, so a special token cut in half at the end waits.
    fn show(&mut self, upto: usize, more: bool, events: &mut Vec<StreamEvent>) {
        while self.shown < upto {
            let next = self.hidden.front().cloned();
            match next {
                Some(hidden) if hidden.span.start <= self.shown => {
                    self.hidden.pop_front();
                    if hidden.span.end <= self.shown {
                        continue;
                    }
                    // Reasoning shown while quiet is not shown again.
                    if let Some(text) = hidden.reasoning {
                        let from = text.start.max(self.shown);
                        if from < text.end {
                            push_text(events, StreamEvent::Reasoning, &self.raw[from..text.end]);
                        }
                    }
                    self.shown = hidden.span.end;
                }
                next => {
                    let stop = next.map_or(upto, |hidden| hidden.span.start.min(upto));
                    let at_hidden = stop < upto;
                    let (text, used) =
                        visible::clean(&self.raw[self.shown..stop], more && !at_hidden);
                    if !text.is_empty() {
                        self.shown_any = true;
                        push_text(events, StreamEvent::Text, &text);
                    }
                    self.shown += used;
                    if !at_hidden {
                        break;
                    }
                }
            }
        }
    }
}

/// Follows a JSON value that was still open when last read: it says when the value closes,
/// which is when reading it again gives something new. Strings in double, single and
/// typographic quotes are skipped as the lenient reader reads them; a mistake here only
/// makes the next read come sooner or later, never changes what it finds.
#[derive(Clone, Debug)]
struct Closing {
    pos: usize,
    depth: usize,
    /// The quote that ends the string the value is in, if any.
    quote: Option<char>,
    escaped: bool,
}

impl Closing {
    fn new(start: usize) -> Self {
        Closing {
            pos: start,
            depth: 0,
            quote: None,
            escaped: false,
        }
    }

    /// Reads `text` on from where it stopped; whether the value closed.
    fn closes(&mut self, text: &[u8]) -> bool {
        let Some(rest) = text.get(self.pos..) else {
            return false;
        };
        let Ok(rest) = std::str::from_utf8(rest) else {
            // Stopped inside a character: go back to its start next time.
            return false;
        };
        for (offset, c) in rest.char_indices() {
            if let Some(quote) = self.quote {
                match c {
                    _ if self.escaped => self.escaped = false,
                    '\\' => self.escaped = true,
                    c if c == quote || (quote == '\u{201D}' && c == '\u{201C}') => {
                        self.quote = None
                    }
                    _ => {}
                }
                continue;
            }
            match c {
                '"' | '\'' => self.quote = Some(c),
                '\u{201C}' => self.quote = Some('\u{201D}'),
                '{' | '[' => self.depth += 1,
                '}' | ']' => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        self.pos += offset + 1;
                        return true;
                    }
                }
                _ => {}
            }
        }
        self.pos = text.len();
        false
    }
}

/// `text` with every character but newlines replaced by as many spaces as it has bytes.
fn blanked(text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let len = bytes.len();
    blank(&mut bytes, 0..len);
    String::from_utf8(bytes).unwrap_or_default()
}

/// The name of the call that starts at `start`, as soon as the text shows it: the name
/// key of a JSON call, a `name=`/`tool=` attribute, `<function=NAME>`,
/// `functions.NAME`, `call:NAME{`, or a name right after the delimiter followed by what
/// formats put after one.
fn peek_name(text: &str, start: usize) -> Option<String> {
    let end = crate::scan::floor_boundary(text, start.saturating_add(1024));
    let window = &text[start..end];
    let found = |raw: &str| {
        let name = clean_name(raw);
        plausible_name(&name).then_some(name)
    };
    if let Some(name) = guess_name(text, start, end) {
        return Some(name);
    }
    for attribute in ["name=\"", "tool=\"", "<function="] {
        if let Some(at) = window.find(attribute) {
            let rest = &window[at + attribute.len()..];
            if let Some(close) = rest.find(['"', '>']) {
                return found(rest[..close].trim_matches('"'));
            }
        }
    }
    for prefix in ["functions.", "call:"] {
        if let Some(at) = window.find(prefix) {
            let rest = &window[at + prefix.len()..];
            if let Some(stop) = rest.find([':', '{', ' ', '<', '\n']) {
                return found(&rest[..stop]);
            }
        }
    }
    // `[TOOL_CALLS]NAME{`, `<tool_call>NAME<arg_key>`, `[NAME(`, `NAME<｜tool▁sep｜>`.
    let after = window.find(['>', ']']).map_or(0, |i| i + 1);
    let rest = window[after..].trim_start().trim_start_matches('[');
    let stop = rest.find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.')))?;
    let next = rest[stop..].chars().next()?;
    matches!(next, '{' | '[' | '(' | '<' | '\n').then(|| found(&rest[..stop]))?
}
