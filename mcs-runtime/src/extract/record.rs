//! Recording what the format readers find: every call attempt, from text or from a provider
//! message, goes through [`Cx`], so each gets the same checks — a name that cannot be a
//! tool name is a malformed call, malformed calls are capped at [`MAX_MALFORMED`], and each
//! malformed call says where it is and shows a snippet.

use std::cell::Cell;

use serde_json::Value;

use super::extraction::{
    CallFormat, CallSource, Extraction, FoundCall, MAX_MALFORMED, MalformedCall,
};
use super::scan;
use crate::types::Tool;

/// Where a tool is in the caller's list, by name: a driver's own index
/// ([`ToolDriver::tool_position`](crate::ToolDriver::tool_position)).
pub type ToolIndex<'a> = &'a (dyn Fn(&str) -> Option<usize> + Sync);

/// How many positions one text has located (line and column) before details fall back to
/// byte offsets, which cost nothing.
const MAX_LOCATED: usize = 256;

/// A call as a format reader reads it, before it is placed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RawCall {
    pub name: String,
    pub arguments: Value,
    pub id: Option<String>,
    pub repaired: bool,
}

/// A call that could not be read, as a format reader reports it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Broken {
    pub name: Option<String>,
    pub detail: String,
}

/// What one attempt to read a call gave.
pub(crate) type Outcome = Result<RawCall, Broken>;

/// What one recogniser of ordinary text found in a span of it, recorded only if no
/// earlier, longer finding covers it (see `gaps`).
pub(crate) struct Finding {
    pub start: usize,
    pub end: usize,
    pub items: Vec<(usize, CallFormat, Outcome)>,
}

/// Where a call attempt sits, for its detail and snippet.
#[derive(Clone, Copy)]
enum Place<'p> {
    /// A byte offset in the text.
    Text(usize),
    /// A place in a provider message: its path (`choices[0].message.tool_calls[1]`) and
    /// the JSON there.
    Message { path: &'p str, raw: &'p Value },
}

enum Item {
    Call(FoundCall),
    Malformed(MalformedCall),
}

/// What the format readers share: the text (empty for a provider message), the known
/// tools, and what was found so far.
pub(crate) struct Cx<'t> {
    pub text: &'t str,
    pub tools: &'t [Tool],
    /// What was found, each with the offset it starts at (for a message: the order it
    /// was found in).
    items: Vec<(usize, Item)>,
    malformed: usize,
    located: Cell<usize>,
    /// The caller's name index, if it has one (see [`super::extract_indexed`]).
    index: Option<ToolIndex<'t>>,
}

impl<'t> Cx<'t> {
    pub(crate) fn new(text: &'t str, tools: &'t [Tool]) -> Self {
        Cx {
            text,
            tools,
            items: Vec::new(),
            malformed: 0,
            located: Cell::new(0),
            index: None,
        }
    }

    /// Looks tools up through `index` (when given) instead of scanning.
    pub(crate) fn indexed(mut self, index: Option<ToolIndex<'t>>) -> Self {
        self.index = index;
        self
    }

    /// The tool called `name`, if the caller knows it.
    pub(crate) fn tool(&self, name: &str) -> Option<&'t Tool> {
        let Some(index) = self.index else {
            return self.tools.iter().find(|tool| tool.name() == name);
        };
        match self.tools.get(index(name)?) {
            Some(tool) if tool.name() == name => Some(tool),
            _ => self.tools.iter().find(|tool| tool.name() == name),
        }
    }

    pub(crate) fn is_known(&self, name: &str) -> bool {
        self.tool(name).is_some()
    }

    /// Records a call that starts at byte `at`.
    pub(crate) fn call(&mut self, at: usize, format: CallFormat, call: RawCall) {
        self.record_call(at, Place::Text(at), format, call);
    }

    /// Records a malformed call that starts at byte `at`; `broken.detail` says what is
    /// wrong and this adds where.
    pub(crate) fn malformed(&mut self, at: usize, format: CallFormat, broken: Broken) {
        self.record_malformed(at, Place::Text(at), format, broken);
    }

    /// Records the outcome of one call attempt that starts at byte `at`.
    pub(crate) fn outcome(&mut self, at: usize, format: CallFormat, outcome: Outcome) {
        match outcome {
            Ok(call) => self.call(at, format, call),
            Err(broken) => self.malformed(at, format, broken),
        }
    }

    /// Records the outcome of one call attempt in a provider message, at `path`; `raw` is
    /// the JSON there, shown as the snippet of a malformed call. Calls keep the order they
    /// are recorded in.
    pub(crate) fn message_outcome(
        &mut self,
        format: CallFormat,
        outcome: Outcome,
        path: &str,
        raw: &Value,
    ) {
        let order = self.items.len();
        let place = Place::Message { path, raw };
        match outcome {
            Ok(call) => self.record_call(order, place, format, call),
            Err(broken) => self.record_malformed(order, place, format, broken),
        }
    }

    fn record_call(&mut self, order: usize, place: Place<'_>, format: CallFormat, call: RawCall) {
        // Every format cleans names; one that was only a namespace (`default_api.`) is
        // empty now, and a call without a name is no call.
        if !scan::plausible_name(&call.name) {
            let detail = format!("`{}` is not a tool name", call.name);
            return self.record_malformed(order, place, format, Broken { name: None, detail });
        }
        let found = FoundCall {
            name: call.name,
            arguments: call.arguments,
            id: call.id,
            format,
            repaired: call.repaired,
        };
        self.items.push((order, Item::Call(found)));
    }

    fn record_malformed(
        &mut self,
        order: usize,
        place: Place<'_>,
        format: CallFormat,
        broken: Broken,
    ) {
        if self.malformed >= MAX_MALFORMED {
            return;
        }
        self.malformed += 1;
        let (location, snippet) = match place {
            Place::Text(at) => (self.at(at), scan::snippet(self.text, at)),
            Place::Message { path, raw } => (path.to_owned(), scan::snippet(&raw.to_string(), 0)),
        };
        let malformed = MalformedCall {
            format,
            name: broken.name,
            detail: format!("{} call at {location}: {}", format.as_str(), broken.detail),
            snippet,
        };
        self.items.push((order, Item::Malformed(malformed)));
    }

    /// `pos` as "line L, column C", for details that point inside a call.
    pub(crate) fn at(&self, pos: usize) -> String {
        let located = self.located.get();
        if located >= MAX_LOCATED {
            return format!("byte {pos}");
        }
        self.located.set(located + 1);
        let (line, column) = scan::line_column(self.text, pos);
        format!("line {line}, column {column}")
    }

    /// What was recorded, in the order of the output.
    pub(crate) fn finish(mut self, source: CallSource) -> Extraction {
        // Stable: items at the same offset keep the order they were found in.
        self.items.sort_by_key(|(at, _)| *at);
        let mut extraction = Extraction {
            source,
            ..Extraction::default()
        };
        for (_, item) in self.items {
            match item {
                Item::Call(call) => extraction.calls.push(call),
                Item::Malformed(malformed) => extraction.malformed.push(malformed),
            }
        }
        extraction
    }
}
