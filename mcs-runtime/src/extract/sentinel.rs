//! The delimiters of native formats, found in one pass, and the parser each one starts.
//!
//! Every delimiter is searched for at once (Aho-Corasick), leftmost first. The parser of
//! the format reads from the delimiter on, records what it finds, and says where its
//! region ends; scanning resumes there. A parser may decline a match that turns out not to
//! be its format (`>>>` of a Python prompt), and the text stays ordinary text.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, Input, MatchKind};

use super::scan::floor_boundary;
use super::{Cx, pythonic, tagged, tokens, xml};

/// A format parser: given the delimiter's start and end, records the calls and returns the
/// end of the region it read, or `None` when the match is not its format after all.
pub(crate) type Parser = fn(&mut Cx<'_>, usize, usize) -> Option<usize>;

/// Delimiter → parser. Order does not matter: the longest match at the leftmost position
/// wins (`<tool_call>` vs `<tool_calls>`, `<|tool_call>` vs `<|tool_call|>`).
const SENTINELS: &[(&str, Parser)] = &[
    ("<tool_call>", tagged::hermes),
    ("<|tool_call|>", tagged::granite),
    ("<function_call>", tagged::granite_fc),
    ("<tool_calls>", tagged::tool_calls_tag),
    ("<TOOLCALL>", tagged::nemotron),
    ("<|action_start|>", tagged::internlm),
    ("<|tools_prefix|>", tagged::apertus),
    ("<|START_ACTION|>", tagged::command_r),
    ("functools[", tagged::phi4_mini),
    ("[TOOL_CALLS]", tokens::mistral),
    ("<|python_tag|>", tokens::llama3),
    ("to=functions.", tokens::harmony),
    ("<|tool_calls_section_begin|>", tokens::kimi),
    ("<|tool_call_begin|>", tokens::kimi),
    ("<｜tool", tokens::deepseek),
    ("<|tool▁", tokens::deepseek),
    (">>>", tokens::functionary),
    ("<|tool_call>", tokens::gemma4),
    ("<function=", xml::function_tag),
    ("<function name=", xml::function_tag),
    ("<seed:tool_call>", xml::seed_oss),
    ("<minimax:tool_call>", xml::minimax_m2),
    ("<function_calls>", xml::claude_xml),
    ("<｜DSML｜function_calls>", xml::dsml),
    ("<|python_start|>", pythonic::python_start),
    ("<|tool_call_start|>", pythonic::lfm2),
    ("```tool_code", pythonic::tool_code),
];

fn automaton() -> Option<&'static AhoCorasick> {
    static AUTOMATON: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    AUTOMATON
        .get_or_init(|| {
            AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostLongest)
                .build(SENTINELS.iter().map(|(pattern, _)| pattern))
                .ok()
        })
        .as_ref()
}

/// Runs the parser of every delimiter in `cx.text`; returns the regions they read, in
/// order and without overlap.
pub(crate) fn scan(cx: &mut Cx<'_>) -> Vec<(usize, usize)> {
    let Some(automaton) = automaton() else {
        return Vec::new();
    };
    let text = cx.text;
    let mut regions = Vec::new();
    let mut pos = 0;
    while pos < text.len() {
        let Some(found) = automaton.find(Input::new(text).span(pos..text.len())) else {
            break;
        };
        let Some((_, parser)) = SENTINELS.get(found.pattern().as_usize()) else {
            break;
        };
        match parser(cx, found.start(), found.end()) {
            Some(end) => {
                let end = floor_boundary(text, end.max(found.end()));
                regions.push((found.start(), end));
                pos = end;
            }
            // Every delimiter starts with an ASCII byte, so the next byte is a boundary.
            None => pos = found.start() + 1,
        }
    }
    regions
}
