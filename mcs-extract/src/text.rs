//! Reading text: the native delimiters and the gaps between them, in the order of the
//! text, whole (the batch path) or as it grows (streaming).
//!
//! [`TextScan::read`] goes from where the last read stopped as far as the text decides:
//! a region whose reading ran into the end of the text (a call still being written), or a
//! delimiter that is only partly there, stops it, and everything after stays unread
//! until the next read. What it recorded before is final, and recorded in the same order
//! whether the text came whole or in pieces: for each region, the gap before it, then the
//! region. That is what makes a stream end in exactly what the batch path finds.

use std::ops::Range;

use super::delimiters::{Delimiter, next_delimiter, opens_call, partial_delimiter};
use super::gaps::GapScan;
use super::horizon::{self, Waits};
use super::markdown::Context;
use super::record::{Broken, Cx, Found, Item, Recorded, ToolIndex};
use super::scan::{ends_by, find_in, floor_boundary, forget_searches, skip_ws};
use super::visible;
use mcs_core::Tool;
use mcs_core::call::CallFormat;

/// Where the reading of one text stands.
#[derive(Clone, Debug)]
pub(crate) struct TextScan {
    found: Found,
    /// The end of the last region read: the current gap starts here.
    cursor: usize,
    /// Delimiters before this offset are decided.
    pos: usize,
    gap: GapScan,
}

/// What one [`TextScan::read`] decided.
#[derive(Debug, Default)]
pub(crate) struct Step {
    /// The text before this offset is read for good.
    pub decided: usize,
    /// The spans of call markup decided in this read — regions, and calls found in gaps —
    /// in order: the text there is no visible text.
    pub markup: Vec<Range<usize>>,
    /// A region that starts at `decided` and could not be read to its end yet: its start,
    /// and the items its reading recorded before it ran into the end of the text (final,
    /// but recorded for good only with the rest of the region).
    pub pending: Option<Pending>,
    /// What reading the undecided text waits for: when it comes, reading again may decide
    /// more.
    pub waits: Option<Waits>,
}

/// A region still being written.
#[derive(Debug)]
pub(crate) struct Pending {
    pub start: usize,
    pub settled: Vec<Recorded>,
}

impl TextScan {
    pub(crate) fn new() -> Self {
        TextScan {
            found: Found::default(),
            cursor: 0,
            pos: 0,
            gap: GapScan::new(0),
        }
    }

    /// What was recorded for good.
    pub(crate) fn found(&self) -> &Found {
        &self.found
    }

    /// What was recorded, taken out.
    pub(crate) fn into_found(self) -> Found {
        self.found
    }

    /// Reads `visible` again from `to`, where it differs from the text read before (blank
    /// there), keeping what was recorded before `to`. The text before `to` was read
    /// whole, and it ends in blank space, so no reading spans `to`.
    fn rewind(&mut self, to: usize) {
        self.cursor = to;
        self.pos = to;
        self.gap = GapScan::new(to);
        self.found.text_changed(to);
    }

    /// Reads `text` from where the last read stopped. With `whole`, the text ends there
    /// and everything is decided; else it may grow, and the read stops where the text
    /// does not decide yet. The caller keeps a horizon open at the end of `text` (see
    /// `horizon`): also for a whole text, where running into it means a call was cut off.
    pub(crate) fn read(
        &mut self,
        text: &str,
        tools: &[Tool],
        index: Option<ToolIndex<'_>>,
        whole: bool,
    ) -> Step {
        forget_searches();
        let mut cx = Cx::resume(text, tools, std::mem::take(&mut self.found))
            .indexed(index)
            .growing(!whole);
        let step = self.read_with(&mut cx, whole);
        self.found = cx.into_found();
        step
    }

    fn read_with(&mut self, cx: &mut Cx<'_>, whole: bool) -> Step {
        let text = cx.text;
        let mut step = Step::default();
        loop {
            // A delimiter cut in half by the end of the text is left for the next read.
            let search_end = if whole {
                text.len()
            } else {
                partial_delimiter(text, self.pos)
            };
            // A whole delimiter before that is read, even when its last bytes could also
            // start another one (`<|python_tag|>` ends with the `>` of `>>>`).
            let found = next_delimiter(text, self.pos, text.len())
                .filter(|delimiter| delimiter.start < search_end);
            let Some(delimiter) = found else {
                // No delimiter starts before `search_end`: the next read searches from there.
                self.pos = search_end;
                let open = !whole;
                // The gap runs on into the text to come, even past a partial delimiter.
                let horizon = open.then(|| horizon::open(&text[..search_end]));
                let (spans, hold) = self.gap.advance(cx, search_end, open);
                step.waits = horizon.and_then(|horizon| horizon.waits());
                step.markup.extend(spans);
                step.decided = if open {
                    hold.min(search_end)
                } else {
                    text.len()
                };
                return step;
            };
            let (start, after) = (delimiter.start, delimiter.end);
            // The region is read first, with what it records set aside: it is recorded
            // after the gap before it, which it may end.
            let mark = cx.mark();
            cx.new_run();
            let region = horizon::open(text);
            let read = read_region(cx, delimiter);
            let shown = cx.take_shown();
            let waits = region.waits();
            drop(region);
            let recorded = cx.take_since(mark);
            let exists =
                whole || waits.is_none() || recorded.first().is_some_and(|first| first.settled);
            if !exists {
                // Not known yet whether a call starts here: the gap may run on past it.
                return self.hold(cx, start, waits, step);
            }
            // A call in inline code, a blockquote, a table, a program or a fenced block
            // introduced as an example is a sample or a quotation, and so is one whose
            // arguments are placeholders (`"<city>"`). In any fenced block, what does not
            // read as a call to one of the tools is a sample of the format (`{"name":
            // <function-name>, …}`), not an attempt worth a retry. A delimiter inside a sample
            // (DeepSeek's `<｜tool▁call▁begin｜>` in its `<｜tool▁calls▁begin｜>`) is the
            // sample's. Told from the text up to the region's end alone, so that a stream
            // tells it alike.
            let placeholders = recorded.iter().all(|r| {
                matches!(&r.item, Item::Call(call) if cx.is_sample_call(&call.name, &call.arguments))
            });
            let sample = read.is_some()
                && !recorded.is_empty()
                && (placeholders
                    || cx.in_sample(start)
                    || match cx.context(start) {
                        Context::Quoted => true,
                        Context::Fence => recorded.iter().all(|r| match &r.item {
                            Item::Malformed(broken) => {
                                broken.name.as_deref().is_none_or(|name| !cx.is_known(name))
                            }
                            Item::Call(_) => false,
                        }),
                        Context::Prose => false,
                    });
            let Some(end) = read.filter(|_| !sample) else {
                // A mention, a sample, or not the parser's format. Every delimiter starts
                // with an ASCII byte, so the next byte is a boundary. What a sample holds is
                // the sample's, not a call in the text around it.
                if let Some(end) = read.filter(|_| sample) {
                    // Where a sample ends decides the delimiters after it: not yet known.
                    if !whole && waits.is_some() {
                        return self.hold(cx, start, waits, step);
                    }
                    cx.sample(start..end);
                }
                self.pos = start + 1;
                continue;
            };
            let (spans, decided) = self.gap.advance(cx, start, false);
            step.markup.extend(spans);
            if decided < start {
                // Recording the gap before the region read past the end of the text so
                // far: both wait.
                return self.hold(cx, start, waits, step);
            }
            match waits {
                Some(waits) if !whole => {
                    // A call whose start is read for good but whose end is still coming.
                    self.gap = GapScan::new(start);
                    self.cursor = start;
                    self.pos = start;
                    let settled = recorded.into_iter().take_while(|r| r.settled).collect();
                    step.decided = start;
                    step.pending = Some(Pending { start, settled });
                    step.waits = Some(waits);
                    return step;
                }
                _ => {
                    cx.put_back(recorded);
                    let end = floor_boundary(text, end.max(after));
                    // The region is markup, but for the text of a prose channel in it;
                    // the markdown of the markup is the calls'.
                    let mut from = start;
                    for span in shown {
                        step.markup.push(from..span.start);
                        cx.claim(from..span.start);
                        from = span.end;
                    }
                    step.markup.push(from..end);
                    cx.claim(from..end);
                    self.cursor = end;
                    self.pos = end;
                    self.gap = GapScan::new(end);
                }
            }
        }
    }

    /// Ends a read of a growing text before the delimiter at `start`, whose region the text
    /// to come decides: the gap before it is read, and the rest waits.
    fn hold(
        &mut self,
        cx: &mut Cx<'_>,
        start: usize,
        waits: Option<Waits>,
        mut step: Step,
    ) -> Step {
        let gap = horizon::open(&cx.text[..start]);
        let (spans, hold) = self.gap.advance(cx, start, true);
        drop(gap);
        step.markup.extend(spans);
        step.decided = hold.min(start);
        step.pending = Some(Pending {
            start,
            settled: Vec::new(),
        });
        step.waits = waits;
        step
    }
}

/// Reads the region of the delimiter at `start..after`: its parser's reading if the
/// delimiter opens a call rather than being mentioned. An output that ends right after an
/// opener (but blank space) is a call cut off there: it never runs, and it is reported,
/// so that the model may write it again.
fn read_region(cx: &mut Cx<'_>, delimiter: Delimiter) -> Option<usize> {
    let Delimiter {
        start,
        end: after,
        parser,
        format,
        prose,
    } = delimiter;
    if prose {
        return parser(cx, start, after);
    }
    if !opens_call(cx, start, after) {
        return None;
    }
    let text = cx.text;
    // DeepSeek's delimiters are the start of a special token whose middle models mangle
    // (`<｜tool▁calls▁begin｜>`, `<｜DSML｜tool_calls>`), and Kimi's the prefix its two tokens
    // share (`<|tool_call`): the opener is the whole token. Only the tokens that open calls
    // count (`<｜DSML｜ parameter` opens none).
    let opener_end = match format {
        Some(CallFormat::DeepSeek | CallFormat::DeepSeekDsml | CallFormat::KimiK2) => {
            find_in(text, after, floor_boundary(text, after + 64), ">")
                .map(|gt| gt + 1)
                .filter(|&end| {
                    let token = &text[after..end];
                    token.contains("begin") || token.ends_with("calls>")
                })
        }
        _ => Some(after),
    };
    if let Some(format) = format
        && let Some(opener_end) = opener_end
        && ends_by(text, skip_ws(text, opener_end))
    {
        let opener = &text[start..opener_end];
        let detail = format!(
            "the output ends right after `{}`, before the call",
            opener.trim()
        );
        cx.malformed(start, format, Broken::cut(None, detail));
        return Some(text.len());
    }
    parser(cx, start, after)
}

/// Calls that end reasoning never closed: when the output ends inside a reasoning block
/// (`<think>` without `</think>`), and the block ends with tool calls after the last of
/// its prose, the model went from thinking to calling without writing the closer (Qwen3,
/// GLM and Kimi do; SGLang's reasoning parsers end reasoning at a tool opener for this).
/// Those calls are read, after everything `scan` read in `visible` (the text with the block
/// blank); a call drafted in the block and followed by more reasoning stays reasoning.
///
/// `raw` is the output, `content` where the block's text starts. Returns the step of that
/// reading, or `None` when the block does not end in calls. Decided on the whole output
/// alone, so a stream and the batch path read alike.
pub(crate) fn read_calls_ending_reasoning(
    scan: &mut TextScan,
    raw: &str,
    visible: &str,
    content: usize,
    tools: &[Tool],
    index: Option<ToolIndex<'_>>,
) -> Option<Step> {
    let cut = calls_start(raw, content, tools, index)?;
    // A call begun before the block that ran on to the end of the output took it in.
    if scan.cursor > cut {
        return None;
    }
    let mut shown = String::with_capacity(raw.len());
    shown.push_str(&visible[..cut]);
    shown.push_str(&raw[cut..]);
    let _end = horizon::open(&shown);
    scan.rewind(cut);
    Some(scan.read(&shown, tools, index, true))
}

/// Where the calls that end `raw[content..]` start: the first call markup, opened by a
/// format's delimiter, after which the text holds nothing but calls and blank space.
fn calls_start(
    raw: &str,
    content: usize,
    tools: &[Tool],
    index: Option<ToolIndex<'_>>,
) -> Option<usize> {
    let block = raw.get(content..)?;
    next_delimiter(block, 0, block.len())?;
    let markup = {
        let _end = horizon::open(block);
        TextScan::new().read(block, tools, index, true).markup
    };
    let blank = |text: &str| visible::clean(text, false).0.trim().is_empty();
    let mut first = None;
    let mut covered = 0;
    for span in &markup {
        if span.start < covered {
            covered = covered.max(span.end);
            continue;
        }
        if !blank(&block[covered..span.start]) || first.is_none() {
            first = Some(span.start);
        }
        covered = span.end;
    }
    let first = first.filter(|_| blank(&block[covered.min(block.len())..]))?;
    // Opened by a delimiter, not a call-shaped value in prose.
    next_delimiter(block, first, block.len())
        .filter(|delimiter| delimiter.start == first)
        .map(|_| content + first)
}
