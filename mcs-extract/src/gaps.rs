//! The text between native delimiters, searched for what is not delimited: JSON calls
//! in prose or fences, pythonic calls, ReAct blocks, LangChain XML and DSPy's fields.
//!
//! A gap is read by five recognisers side by side. Each keeps where it stands, so a gap
//! that grows (a stream) is read piece by piece, every byte about once; what each finds is
//! final, and what it cannot decide yet (a JSON value still open, a last line that may
//! become a call) it reads again next time. Findings are recorded in the order of the
//! text once no recogniser can still find one that starts earlier.

use std::ops::Range;

use super::markdown::Context;
use super::record::{Cx, Finding};
use super::scan::floor_boundary;
use super::{bare_json, pythonic, react};

/// The reading of one gap.
#[derive(Clone, Debug)]
pub(crate) struct GapScan {
    json: bare_json::GapState,
    pythonic: pythonic::GapState,
    react: react::GapState,
    langchain: react::MarkedState,
    dspy: react::MarkedState,
    qwen_agent: react::MarkedState,
    /// Findings not recorded yet: one that starts earlier may still be found.
    pending: Vec<Finding>,
    /// The end of the last finding recorded: findings that start before it are covered.
    covered: usize,
}

impl GapScan {
    /// The reading of a gap that starts at `start`.
    pub(crate) fn new(start: usize) -> Self {
        GapScan {
            json: bare_json::GapState::new(start),
            pythonic: pythonic::GapState::new(start),
            react: react::GapState::new(start),
            langchain: react::MarkedState::new(start),
            dspy: react::MarkedState::new(start),
            qwen_agent: react::MarkedState::new(start),
            pending: Vec::new(),
            covered: start,
        }
    }

    /// Reads the gap on up to `end` and records what is final in `cx`. With `open`, the
    /// gap may go on after `end` (the text still grows, or a call may start there); else
    /// it ends there. Returns the spans of the findings recorded, and the offset from
    /// which the text of the gap is not decided yet (`end` when all of it is). A gap that
    /// ends still waits when recording a finding read past the end of a text that grows
    /// (the snippet of a broken call, when the text after it is short so far).
    pub(crate) fn advance(
        &mut self,
        cx: &mut Cx<'_>,
        end: usize,
        open: bool,
    ) -> (Vec<Range<usize>>, usize) {
        let end = floor_boundary(cx.text, end);
        let (json, json_hold) = bare_json::calls_in_gap(cx, &mut self.json, end, open);
        let (pythonic, pythonic_hold) = pythonic::calls_in_gap(cx, &mut self.pythonic, end, open);
        let (react, react_hold) = react::calls_in_gap(cx, &mut self.react, end, open);
        let (langchain, langchain_hold) =
            react::marked_in_gap(cx, &react::LANGCHAIN, &mut self.langchain, end, open);
        let (dspy, dspy_hold) = react::marked_in_gap(cx, &react::DSPY, &mut self.dspy, end, open);
        let (qwen_agent, qwen_agent_hold) =
            react::marked_in_gap(cx, &react::QWEN_AGENT, &mut self.qwen_agent, end, open);
        self.pending.extend(json);
        self.pending.extend(pythonic);
        self.pending.extend(react);
        self.pending.extend(langchain);
        self.pending.extend(dspy);
        self.pending.extend(qwen_agent);
        let hold = json_hold
            .min(pythonic_hold)
            .min(react_hold)
            .min(langchain_hold)
            .min(dspy_hold)
            .min(qwen_agent_hold);
        // Where findings overlap (a ReAct block whose input is JSON), the one that starts
        // first, then the longer one, wins. A finding is placed once no recogniser can
        // still find one that starts at or before it.
        self.pending
            .sort_by_key(|finding| (finding.start, std::cmp::Reverse(finding.end)));
        let ready = self
            .pending
            .iter()
            .take_while(|finding| !open || finding.start < hold)
            .count();
        let mut spans = Vec::new();
        // What the recognisers read to find these did not run into the end of the text
        // (those they read again next time); what recording them reads (a snippet of the
        // text after a broken call) may still, and then they wait too.
        let mut hold = hold;
        let mut waits = false;
        let mut placed = 0;
        for finding in &self.pending[..ready] {
            if finding.start < self.covered {
                placed += 1;
                continue;
            }
            // In inline code, a blockquote, a table, a program or a fenced block introduced
            // as an example, or a call of placeholders: a sample or a quotation, which stays
            // text.
            let placeholders = !finding.items.is_empty()
                && finding.items.iter().all(|(_, _, outcome)| {
                    outcome
                        .as_ref()
                        .is_ok_and(|call| cx.is_sample_call(&call.name, &call.arguments))
                });
            let quoted =
                cx.in_sample(finding.start) || cx.context(finding.start) == Context::Quoted;
            if placeholders || quoted {
                placed += 1;
                self.covered = finding.end.max(finding.start + 1);
                continue;
            }
            let mark = cx.mark();
            cx.new_run();
            for (at, format, outcome) in finding.items.iter().cloned() {
                cx.outcome(at, format, outcome);
            }
            if (open || cx.is_growing())
                && cx
                    .recorded_since(mark)
                    .iter()
                    .any(|recorded| !recorded.settled)
            {
                cx.take_since(mark);
                hold = hold.min(finding.start);
                waits = true;
                break;
            }
            placed += 1;
            self.covered = finding.end.max(finding.start + 1);
            spans.push(finding.start..self.covered);
        }
        self.pending.drain(..placed);
        let hold = self
            .pending
            .first()
            .map_or(hold, |finding| finding.start.min(hold));
        (
            spans,
            if open {
                hold.max(self.covered.min(end))
            } else if waits {
                hold
            } else {
                end
            },
        )
    }
}
