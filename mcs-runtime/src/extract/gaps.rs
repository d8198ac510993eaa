//! The text between native delimiters, searched for what is not delimited: JSON calls
//! in prose or fences, pythonic calls, ReAct blocks and LangChain XML.

use super::record::Cx;
use super::scan::floor_boundary;
use super::{bare_json, pythonic, react, xml};

/// Finds the calls between `start` and `end` and records them in `cx`.
pub(crate) fn scan_gap(cx: &mut Cx<'_>, start: usize, end: usize) {
    let start = floor_boundary(cx.text, start);
    let end = floor_boundary(cx.text, end);
    if start >= end {
        return;
    }
    let mut findings = bare_json::calls_in_gap(cx, start, end);
    findings.extend(pythonic::calls_in_gap(cx, start, end));
    findings.extend(react::calls_in_gap(cx, start, end));
    findings.extend(xml::langchain_in_gap(cx, start, end));
    // Where findings overlap (a ReAct block whose input is JSON), the one that starts
    // first, then the longer one, wins.
    findings.sort_by_key(|finding| (finding.start, std::cmp::Reverse(finding.end)));
    let mut covered = start;
    for finding in findings {
        if finding.start < covered {
            continue;
        }
        covered = finding.end.max(finding.start + 1);
        for (at, format, outcome) in finding.items {
            cx.outcome(at, format, outcome);
        }
    }
}
