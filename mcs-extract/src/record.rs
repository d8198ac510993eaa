//! Recording what the format readers find: every call attempt, from text or from a provider
//! message, goes through [`Cx`], so each gets the same checks — a name that cannot be a
//! tool name is a malformed call, malformed calls are capped at [`MAX_MALFORMED`], and each
//! malformed call says where it is and shows a snippet.

use std::cell::RefCell;

use serde_json::Value;

use super::{horizon, scan};
use mcs_core::Tool;
use mcs_core::call::{CallFormat, CallSource, Extraction, FoundCall, MAX_MALFORMED, MalformedCall};

/// Where a tool is in the caller's list, by name: a driver's own index
/// ([`ToolDriver::tool_position`](mcs_core::ToolDriver::tool_position)).
pub type ToolIndex<'a> = &'a (dyn Fn(&str) -> Option<usize> + Sync);

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
    /// The output ended inside the call: it was cut off, not written wrong.
    pub cut_off: bool,
}

impl Broken {
    /// A call written wrong.
    pub(crate) fn new(name: Option<String>, detail: String) -> Self {
        Broken {
            name,
            detail,
            cut_off: false,
        }
    }

    /// A call the output ended inside of.
    pub(crate) fn cut(name: Option<String>, detail: String) -> Self {
        Broken {
            name,
            detail,
            cut_off: true,
        }
    }

    /// A call that reading found wrong at `pos` of `text`: cut off when the output ends
    /// there (see [`scan::ends_by`]), else written wrong.
    pub(crate) fn at(text: &str, pos: usize, name: Option<String>, detail: String) -> Self {
        if scan::ends_by(text, pos) {
            Broken::cut(name, detail)
        } else {
            Broken::new(name, detail)
        }
    }
}

/// What one attempt to read a call gave.
pub(crate) type Outcome = Result<RawCall, Broken>;

/// What one recogniser of ordinary text found in a span of it, recorded only if no
/// earlier, longer finding covers it (see `gaps`).
#[derive(Clone, Debug)]
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

/// A call or malformed call, as recorded.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Item {
    Call(FoundCall),
    Malformed(MalformedCall),
}

/// One recorded item: where it starts (for a message: the order it was found in), what
/// it is, and whether it is final: nothing read before it in its run looked past the
/// horizon (see `horizon`), so any continuation of the text records it the same.
#[derive(Clone, Debug)]
pub(crate) struct Recorded {
    pub at: usize,
    pub item: Item,
    pub settled: bool,
}

/// What the readers recorded, kept from one run over a growing text to the next.
#[derive(Clone, Debug, Default)]
pub(crate) struct Found {
    pub items: Vec<Recorded>,
    malformed: usize,
    locator: scan::Locator,
    /// The fenced blocks of the text, as far as they were looked for.
    fences: super::markdown::Fences,
    /// Regions read as samples of a format, in order.
    samples: Vec<std::ops::Range<usize>>,
}

/// Where [`Found`] stood, to go back to when a run's results are not final.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    items: usize,
    malformed: usize,
}

impl Found {
    /// The text was changed after `to` (not only grown) since it was last read.
    pub(crate) fn text_changed(&mut self, to: usize) {
        self.fences = self.fences.rewound(to);
    }

    /// Where it stands now.
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            items: self.items.len(),
            malformed: self.malformed,
        }
    }
}

/// What the format readers share: the text (empty for a provider message), the known
/// tools, and what was found so far.
pub(crate) struct Cx<'t> {
    pub text: &'t str,
    pub tools: &'t [Tool],
    found: Found,
    locator: RefCell<scan::Locator>,
    /// Spans of regions whose text is shown: prose channels (see `channels`).
    shown: Vec<std::ops::Range<usize>>,
    /// The caller's name index, if it has one (see [`super::extract_indexed`]).
    index: Option<ToolIndex<'t>>,
    /// [`horizon::touches`] when the current run started.
    run_start: u64,
    /// The text may still grow.
    open: bool,
    /// The fenced blocks of the text, found when first asked for (and, as the text grows,
    /// past where they were last looked for).
    fences: RefCell<super::markdown::Fences>,
}

impl<'t> Cx<'t> {
    pub(crate) fn new(text: &'t str, tools: &'t [Tool]) -> Self {
        Self::resume(text, tools, Found::default())
    }

    /// Goes on recording into `found`, over `text` (which holds the text `found` was
    /// recorded from, and maybe more).
    pub(crate) fn resume(text: &'t str, tools: &'t [Tool], mut found: Found) -> Self {
        let locator = RefCell::new(std::mem::take(&mut found.locator));
        let fences = RefCell::new(std::mem::take(&mut found.fences));
        Cx {
            text,
            tools,
            found,
            locator,
            shown: Vec::new(),
            index: None,
            run_start: horizon::touches(),
            open: false,
            fences,
        }
    }

    /// What was recorded, to [`resume`](Self::resume) from later.
    pub(crate) fn into_found(self) -> Found {
        let mut found = self.found;
        found.locator = self.locator.into_inner();
        found.fences = self.fences.into_inner();
        found
    }

    /// Where recording stands, to [`rewind`](Self::rewind) to.
    pub(crate) fn mark(&self) -> Mark {
        self.found.mark()
    }

    /// Notes that the region at `span` is a sample of its format: what it holds is shown,
    /// not called.
    pub(crate) fn sample(&mut self, span: std::ops::Range<usize>) {
        if self
            .found
            .samples
            .last()
            .is_none_or(|last| last.end <= span.start)
        {
            self.found.samples.push(span);
        }
    }

    /// Whether a call to `name` with `arguments` is a sample of its format (placeholders
    /// where values or an unknown tool's name go; see [`markdown::is_sample_call`]).
    ///
    /// [`markdown::is_sample_call`]: super::markdown::is_sample_call
    pub(crate) fn is_sample_call(&self, name: &str, arguments: &serde_json::Value) -> bool {
        super::markdown::is_sample_call(name, arguments, |name| self.is_known(name))
    }

    /// Notes that the region at `span` was read as calls: its markdown is theirs, not the
    /// answer's (see [`Fences::claim`](super::markdown::Fences::claim)).
    pub(crate) fn claim(&mut self, span: std::ops::Range<usize>) {
        self.fences.borrow_mut().claim(self.text, span);
    }

    /// Whether `pos` is inside a region read as a sample.
    pub(crate) fn in_sample(&self, pos: usize) -> bool {
        let samples = &self.found.samples;
        let after = samples.partition_point(|span| span.start <= pos);
        after > 0 && pos < samples[after - 1].end
    }

    /// What surrounds `pos` in the text's markdown: plain text, a fenced block, or a
    /// quotation (see [`markdown`](super::markdown)).
    pub(crate) fn context(&self, pos: usize) -> super::markdown::Context {
        let mut fences = self.fences.borrow_mut();
        fences.extend(self.text);
        fences.context(self.text, pos)
    }

    /// Starts a new run without forgetting anything.
    pub(crate) fn new_run(&mut self) {
        self.run_start = horizon::touches();
    }

    /// What was recorded after `mark`.
    pub(crate) fn recorded_since(&self, mark: Mark) -> &[Recorded] {
        self.found.items.get(mark.items..).unwrap_or_default()
    }

    /// Takes out what was recorded after `mark`, to [`put_back`](Self::put_back) after
    /// something recorded later that comes first in the text.
    pub(crate) fn take_since(&mut self, mark: Mark) -> Vec<Recorded> {
        let taken = self
            .found
            .items
            .split_off(mark.items.min(self.found.items.len()));
        self.found.malformed = mark.malformed;
        taken
    }

    /// Records `items` taken out by [`take_since`](Self::take_since) again, after what was
    /// recorded meanwhile; malformed calls over [`MAX_MALFORMED`] are dropped, as they
    /// would have been had they been recorded in this order.
    pub(crate) fn put_back(&mut self, items: Vec<Recorded>) {
        for recorded in items {
            if matches!(recorded.item, Item::Malformed(_)) {
                if self.found.malformed >= MAX_MALFORMED {
                    continue;
                }
                self.found.malformed += 1;
            }
            self.found.items.push(recorded);
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

    /// The tool a name none of the tools has can only mean, written another way: with a
    /// namespace (`tools.search`: what follows the last dot), or in other case or with other
    /// separators (`Get_Weather`, `getWeather`, `get-weather`, when one tool matches so: a
    /// repair). With whether reading it so was
    /// a repair. `None` when the name is a tool's or means none.
    pub(crate) fn meant(&self, name: &str) -> Option<(String, bool)> {
        fn folded(name: &str) -> impl Iterator<Item = char> + '_ {
            name.chars()
                .filter(|c| !matches!(c, '_' | '-' | ' ' | '.'))
                .map(|c| c.to_ascii_lowercase())
        }
        if self.tools.is_empty() || self.is_known(name) {
            return None;
        }
        let bare = name.rsplit_once('.').map_or(name, |(_, last)| last);
        if !bare.is_empty() && self.is_known(bare) {
            return Some((bare.to_owned(), false));
        }
        // A tool named with the namespace readers take off (`functions.exec`, declared so).
        if let Some(tool) = ["functions.", "default_api."]
            .into_iter()
            .find_map(|space| {
                self.tools
                    .iter()
                    .find(|tool| tool.name().strip_prefix(space) == Some(name))
            })
        {
            return Some((tool.name().to_owned(), false));
        }
        // The same name in another case or with other separators (`Get_Weather`,
        // `getWeather`, `get-weather`, `get weather`), when it is one tool's: a different
        // word (`get_weathers`, `weather`) is another tool, never guessed at.
        // A name of separators only means nothing.
        folded(bare).next()?;
        let mut same = self
            .tools
            .iter()
            .filter(|tool| folded(tool.name()).eq(folded(bare)));
        match (same.next(), same.next()) {
            (Some(tool), None) => Some((tool.name().to_owned(), true)),
            _ => None,
        }
    }

    /// The one tool a call that names none can be (a Kimi call whose id is only an
    /// index): the only tool there is, or else the only one whose parameters hold every
    /// argument and whose required parameters are all given. `None` when none or several
    /// fit.
    pub(crate) fn tool_taking(&self, arguments: &Value) -> Option<String> {
        if let [only] = self.tools {
            return Some(only.name().to_owned());
        }
        let keys = arguments.as_object()?;
        let mut fitting = self.tools.iter().filter(|tool| {
            keys.keys().all(|key| tool.parameter(key).is_some())
                && tool
                    .parameters()
                    .iter()
                    .all(|p| !p.required || keys.contains_key(&p.name))
        });
        match (fitting.next(), fitting.next()) {
            (Some(tool), None) => Some(tool.name().to_owned()),
            _ => None,
        }
    }

    /// The arguments of `call` when a model wrapped them once more under a key the tool
    /// does not have (`{"arguments": {"city": …}}`, `{"input": "{\"city\": …}"}`, as
    /// DeepSeek V3.2 does with a parameter named so; the schema's word, as MiniCPM 5
    /// writes `<param name="properties">{'city': …}</param>`): what the wrapper holds,
    /// when every key of it is a parameter of the tool. `None` otherwise.
    fn unwrapped(&self, call: &RawCall) -> Option<Value> {
        const WRAPPERS: &[&str] = &["arguments", "parameters", "args", "input", "properties"];
        let tool = self.tool(&call.name)?;
        let object = call.arguments.as_object()?;
        let (key, inner) = object.iter().next().filter(|_| object.len() == 1)?;
        if !WRAPPERS.contains(&key.as_str()) || tool.parameter(key).is_some() {
            return None;
        }
        let inner = match inner {
            Value::String(text) => super::json::parse_whole(text).ok()?.0,
            other => other.clone(),
        };
        let fits = inner
            .as_object()?
            .keys()
            .all(|key| tool.parameter(key).is_some());
        fits.then_some(inner)
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
        let order = self.found.items.len();
        let place = Place::Message { path, raw };
        match outcome {
            Ok(call) => self.record_call(order, place, format, call),
            Err(broken) => self.record_malformed(order, place, format, broken),
        }
    }

    fn record_call(&mut self, order: usize, place: Place<'_>, format: CallFormat, call: RawCall) {
        let mut call = call;
        if let Some((name, repaired)) = self.meant(&call.name) {
            call.name = name;
            call.repaired |= repaired;
        }
        if let Some(arguments) = self.unwrapped(&call) {
            call.arguments = arguments;
            call.repaired = true;
        }
        // What a driver reads before it validates, read here too, so a call is found with
        // the values its tool will get (`"days": "5"` is 5, an optional `None` is absent).
        if let Some(tool) = self.tool(&call.name) {
            mcs_core::validate::coerce_arguments(tool, &mut call.arguments);
        }
        // Every format cleans names; one that was only a namespace (`default_api.`) is
        // empty now, and a call without a name is no call.
        if !scan::plausible_name(&call.name) {
            let detail = format!("`{}` is not a tool name", call.name);
            return self.record_malformed(order, place, format, Broken::new(None, detail));
        }
        // The same call under the same id once more is the record written twice, not a
        // second call: a result goes back by its id, and one id can take one result.
        if call.id.is_some() && self.repeats(&call) {
            return;
        }
        let found = FoundCall {
            name: call.name,
            arguments: call.arguments,
            id: call.id,
            format,
            repaired: call.repaired,
        };
        self.push(order, Item::Call(found));
    }

    /// Whether one of the last calls recorded is `call`, id and all (duplicates stand side by
    /// side; looking further back would make many calls cost their square).
    fn repeats(&self, call: &RawCall) -> bool {
        self.found.items.iter().rev().take(16).any(|recorded| {
            matches!(&recorded.item, Item::Call(found) if found.id == call.id
                && found.name == call.name
                && found.arguments == call.arguments)
        })
    }

    fn record_malformed(
        &mut self,
        order: usize,
        place: Place<'_>,
        format: CallFormat,
        broken: Broken,
    ) {
        if self.found.malformed >= MAX_MALFORMED {
            return;
        }
        self.found.malformed += 1;
        if self.discarded() {
            // Its words are never read: the item is dropped with the rest of this read.
            let malformed = MalformedCall {
                format,
                name: broken.name,
                detail: String::new(),
                snippet: String::new(),
                cut_off: broken.cut_off,
            };
            return self.push(order, Item::Malformed(malformed));
        }
        let (location, snippet) = match place {
            Place::Text(at) => (self.at(at), scan::snippet(self.text, at)),
            Place::Message { path, raw } => (path.to_owned(), scan::snippet(&raw.to_string(), 0)),
        };
        let malformed = MalformedCall {
            format,
            name: broken.name,
            detail: format!("{} call at {location}: {}", format.as_str(), broken.detail),
            snippet,
            cut_off: broken.cut_off,
        };
        self.push(order, Item::Malformed(malformed));
    }

    /// Whether what is recorded now will be thrown away: a read over a text that may still
    /// grow looked past its end, so it is read again later. Readers skip the words of what
    /// they report then (they cost more than the reading).
    pub(crate) fn discarded(&self) -> bool {
        self.open && horizon::touches() != self.run_start
    }

    /// Whether the text may still grow.
    pub(crate) fn is_growing(&self) -> bool {
        self.open
    }

    /// Reads the text as one that may still grow (see [`discarded`](Self::discarded)).
    pub(crate) fn growing(mut self, open: bool) -> Self {
        self.open = open;
        self
    }

    fn push(&mut self, at: usize, item: Item) {
        let settled = horizon::touches() == self.run_start;
        self.found.items.push(Recorded { at, item, settled });
    }

    /// Notes that `span`, inside the region being read, is text to show: the answer in a
    /// prose channel.
    pub(crate) fn show(&mut self, span: std::ops::Range<usize>) {
        self.shown.push(span);
    }

    /// The spans [`show`](Self::show) noted since the last call.
    pub(crate) fn take_shown(&mut self) -> Vec<std::ops::Range<usize>> {
        std::mem::take(&mut self.shown)
    }

    /// `pos` as "line L, column C", for details that point inside a call.
    pub(crate) fn at(&self, pos: usize) -> String {
        let (line, column) = self.locator.borrow_mut().locate(self.text, pos);
        format!("line {line}, column {column}")
    }

    /// What was recorded, in the order of the output.
    pub(crate) fn finish(self, source: CallSource) -> Extraction {
        self.into_found().finish(source)
    }
}

impl Found {
    /// What was recorded, in the order of the output.
    pub(crate) fn finish(mut self, source: CallSource) -> Extraction {
        // Stable: items at the same offset keep the order they were found in.
        self.items.sort_by_key(|recorded| recorded.at);
        let mut extraction = Extraction {
            source,
            ..Extraction::default()
        };
        for recorded in self.items {
            match recorded.item {
                Item::Call(call) => extraction.calls.push(call),
                Item::Malformed(malformed) => extraction.malformed.push(malformed),
            }
        }
        extraction
    }
}
