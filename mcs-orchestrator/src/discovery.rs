//! Discovery mode: the first prompt lists toolsets, not tools; the model searches the tools
//! by words, loads a toolset or describes one tool, and calls what it found like any listed
//! tool.
//!
//! Nothing here is remembered between calls: what the model has found is in its own earlier
//! calls and their results, in the conversation. Every tool stays callable at any time (the
//! orchestrator's `list_tools` still holds them all, so every call format finds them);
//! discovery only decides what the prompt spends tokens on.

use std::fmt::Write as _;
use std::sync::OnceLock;

use serde_json::{Value, json};

use mcs_core::{ArgumentError, ToolError};
use mcs_core::{Tool, ToolAnnotations, ToolParameter};
use mcs_hybrid::prompt::DESCRIBE_TOOL;

use super::categories::{self, Category};
use super::pages::{PAGE_BUDGET, clip, line_cost, page_line};
use super::search::Index;
use super::toolsets::Toolset;

/// The discovery tool that searches the tools by words.
pub const SEARCH_TOOLS: &str = "search_tools";
/// The discovery tool that gives the descriptions of one toolset's tools.
pub const LOAD_TOOLSET: &str = "load_toolset";
/// The discovery tools' names (the third, [`DESCRIBE_TOOL`], is the compact listing's too).
pub const DISCOVERY_TOOLS: [&str; 3] = [SEARCH_TOOLS, LOAD_TOOLSET, DESCRIBE_TOOL];

/// When an orchestrator's prompt lists toolsets instead of tools.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Discovery {
    /// Every tool is listed (compact above the prompt options' threshold).
    #[default]
    Off,
    /// Toolsets and the discovery tools are listed, whatever the number of tools.
    Always,
    /// Discovery once there are more than this many tools.
    Above(usize),
}

impl Discovery {
    /// Whether discovery is on for `tools` tools.
    pub fn is_on(self, tools: usize) -> bool {
        match self {
            Discovery::Off => false,
            Discovery::Always => true,
            Discovery::Above(limit) => tools > limit,
        }
    }
}

/// The discovery tools read the orchestrator's own catalog and change nothing.
const LOOKS_ONLY: ToolAnnotations = ToolAnnotations::new()
    .read_only(true)
    .idempotent(true)
    .open_world(false);

/// Search results per call, unless the model asks for fewer or more (up to [`MAX_RESULTS`]).
const DEFAULT_RESULTS: usize = 10;
const MAX_RESULTS: usize = 50;
/// A toolset whose full descriptions are longer than this (in characters, about 5,000
/// tokens) is answered with names and titles instead.
const LOAD_BUDGET: usize = 20_000;
/// The overview of toolsets in the prompt stays under this many characters (about 2,000
/// tokens): example titles go first, then toolsets beyond it are counted, not named.
const OVERVIEW_BUDGET: usize = 8_000;
/// What one category's line in the overview is allowed, in characters.
const CATEGORY_LINE: usize = 130;

/// What discovery needs of an orchestrator's table: its tools, their toolsets, and a search
/// index built on the first search.
pub(super) struct Catalog {
    pub toolsets: Vec<Toolset>,
    /// For each tool (by position in the table's listing), its toolset's position.
    pub set_of: Vec<Option<usize>>,
    /// For each toolset, the positions of its tools in the listing.
    members: Vec<Vec<usize>>,
    /// A level above the toolsets when there are more than the overview can name; empty
    /// otherwise.
    categories: Vec<Category>,
    /// Optional arguments nearly every tool takes (EC2's seven `X-Amz-*` headers): named
    /// once in a search answer rather than in each result.
    common: Vec<String>,
    index: OnceLock<Index>,
}

/// An optional argument held by at least this share of the tools, when there are at least
/// [`COMMON_MIN_TOOLS`], is named once in a search answer, not in each result.
const COMMON_SHARE: f64 = 0.9;

/// The fewest tools for which optional arguments are counted as common.
const COMMON_MIN_TOOLS: usize = 20;

/// The optional arguments at least [`COMMON_SHARE`] of `tools` take, in the order first met.
fn common_optional(tools: &[Tool]) -> Vec<String> {
    if tools.len() < COMMON_MIN_TOOLS {
        return Vec::new();
    }
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for tool in tools {
        for parameter in tool.parameters().iter().filter(|p| !p.required) {
            match counts.iter().position(|(name, _)| *name == parameter.name) {
                Some(at) => counts[at].1 += 1,
                None if counts.len() < 256 => counts.push((&parameter.name, 1)),
                None => {}
            }
        }
    }
    counts
        .into_iter()
        .filter(|&(_, count)| count as f64 >= COMMON_SHARE * tools.len() as f64)
        .map(|(name, _)| name.to_owned())
        .collect()
}

impl Catalog {
    /// The catalog of `tools` grouped into `toolsets` (whose ids are unique).
    pub(crate) fn new(tools: &[Tool], toolsets: Vec<Toolset>) -> Catalog {
        let position: std::collections::HashMap<&str, usize> = tools
            .iter()
            .enumerate()
            .map(|(i, tool)| (tool.name(), i))
            .collect();
        let mut set_of = vec![None; tools.len()];
        let mut members = Vec::with_capacity(toolsets.len());
        for (s, set) in toolsets.iter().enumerate() {
            let mut positions = Vec::with_capacity(set.tools().len());
            for name in set.tools() {
                if let Some(&i) = position.get(name.as_str()) {
                    set_of[i] = Some(s);
                    positions.push(i);
                }
            }
            members.push(positions);
        }
        let categories = if overview_length(&toolsets) > OVERVIEW_BUDGET {
            let titles: Vec<&str> = toolsets.iter().map(Toolset::subject).collect();
            categories::categorize(&titles, OVERVIEW_BUDGET / CATEGORY_LINE)
        } else {
            Vec::new()
        };
        Catalog {
            toolsets,
            set_of,
            members,
            categories,
            common: common_optional(tools),
            index: OnceLock::new(),
        }
    }

    fn toolset_of(&self, tool: usize) -> Option<&Toolset> {
        self.set_of
            .get(tool)
            .copied()
            .flatten()
            .and_then(|s| self.toolsets.get(s))
    }

    fn find_set(&self, id: &str) -> Option<(usize, &Toolset)> {
        self.toolsets
            .iter()
            .enumerate()
            .find(|(_, set)| set.id() == id)
    }

    /// The three discovery tools, `load_toolset`'s description holding the overview of
    /// toolsets; `tools` is the count of tools they reach.
    pub(crate) fn discovery_tools(&self, tools: usize) -> Vec<Tool> {
        vec![
            Tool::new(
                SEARCH_TOOLS,
                format!(
                    "Search the {tools} tools of this system by words (their names, titles, \
                     descriptions and arguments); best matches first. A tool you found is \
                     called like the tools listed here; call {DESCRIBE_TOOL} first when you do \
                     not know its arguments."
                ),
            )
            .with_title("Search the tools")
            .with_annotations(LOOKS_ONLY)
            .with_parameter(
                ToolParameter::new(
                    "query",
                    "Words for what you want to do, e.g. `list open issues`.",
                )
                .with_schema(json!({"type": "string", "minLength": 1})),
            )
            .with_parameter(
                ToolParameter::new("limit", "How many tools to return (default 10).")
                    .required(false)
                    .with_schema(json!({"type": "integer", "minimum": 1, "maximum": MAX_RESULTS})),
            )
            .with_parameter(
                ToolParameter::new("toolset", "Search only this toolset or category (its id).")
                    .required(false)
                    .with_schema(json!({"type": "string"})),
            ),
            Tool::new(
                LOAD_TOOLSET,
                if self.categories.is_empty() {
                    format!(
                        "Load a toolset: the descriptions of its tools, which you can then call \
                         like the tools listed here. Toolsets:\n{}",
                        self.overview()
                    )
                } else {
                    format!(
                        "Load a toolset: the descriptions of its tools, which you can then call \
                         like the tools listed here. There are {} toolsets, in the categories \
                         below: load a category (its id) to see its toolsets and their ids, then \
                         load a toolset. Categories:\n{}",
                        self.toolsets.len(),
                        self.overview()
                    )
                },
            )
            .with_title("Load a toolset")
            .with_annotations(LOOKS_ONLY)
            .with_parameter(
                ToolParameter::new("id", "The toolset's (or category's) id, as listed.")
                    .with_schema(json!({"type": "string", "minLength": 1})),
            )
            .with_parameter(
                ToolParameter::new(
                    "offset",
                    "For a large toolset answered a page at a time: where the next page starts.",
                )
                .required(false)
                .with_schema(json!({"type": "integer", "minimum": 0})),
            ),
            Tool::new(
                DESCRIBE_TOOL,
                "The full description of one tool: what it does and its arguments with their \
                 schemas.",
            )
            .with_title("Describe a tool")
            .with_annotations(LOOKS_ONLY)
            .with_parameter(
                ToolParameter::new("name", "The tool's name.")
                    .with_schema(json!({"type": "string", "minLength": 1})),
            ),
        ]
    }

    /// One line per toolset — id, size, and what it holds — within [`OVERVIEW_BUDGET`]; one
    /// per category when there are categories.
    fn overview(&self) -> String {
        if !self.categories.is_empty() {
            return self.category_overview();
        }
        // Richest first: descriptions and example tools, descriptions only, plain lines
        // (which always fit: there are categories otherwise).
        let lines = |described: bool, examples: bool| -> Vec<String> {
            self.toolsets
                .iter()
                .map(|set| {
                    let mut line = plain_line(set);
                    if let Some(description) = set.description().filter(|_| described) {
                        let _ = write!(line, " — {}", clip(description, 120));
                    } else if examples {
                        let titles: Vec<String> = set
                            .tools()
                            .iter()
                            .take(3)
                            .map(|name| clip(name, 40))
                            .collect();
                        let more = if set.tools().len() > 3 { ", …" } else { "" };
                        let _ = write!(line, " — {}{more}", titles.join(", "));
                    }
                    line
                })
                .collect()
        };
        let total = |lines: &[String]| lines.iter().map(|l| l.len() + 1).sum::<usize>();
        let mut chosen = lines(true, true);
        if total(&chosen) > OVERVIEW_BUDGET {
            chosen = lines(true, false);
        }
        if total(&chosen) > OVERVIEW_BUDGET {
            chosen = lines(false, false);
        }
        let mut out = String::new();
        for (shown, line) in chosen.iter().enumerate() {
            if out.len() + line.len() + 1 > OVERVIEW_BUDGET {
                let _ = write!(
                    out,
                    "- … and {} more toolsets: {SEARCH_TOOLS} searches them all.",
                    chosen.len() - shown
                );
                return out;
            }
            out.push_str(line);
            out.push('\n');
        }
        out.truncate(out.trim_end().len());
        out
    }

    /// Answers a call of one of [`DISCOVERY_TOOLS`]; `tools` is the listing the catalog was
    /// built for.
    pub(crate) fn answer(
        &self,
        tools: &[Tool],
        name: &str,
        arguments: &Value,
    ) -> Result<Value, ToolError> {
        match name {
            SEARCH_TOOLS => self.search(tools, arguments),
            LOAD_TOOLSET => self.load(tools, arguments),
            _ => describe(tools, arguments),
        }
    }

    /// The positions of the tools a discovery call showed the model: a loaded toolset's
    /// tools, a described tool, the results of a search (searched again: the index is
    /// deterministic). Nothing for a call that failed or is not a discovery call.
    pub(crate) fn revealed(&self, tools: &[Tool], name: &str, arguments: &Value) -> Vec<usize> {
        let text = |key: &str| arguments.get(key).and_then(Value::as_str);
        match name {
            LOAD_TOOLSET => text("id")
                .and_then(|id| self.find_set(id))
                .map(|(s, _)| self.members[s].clone())
                .unwrap_or_default(),
            SEARCH_TOOLS => match self.search(tools, arguments) {
                Ok(found) => found["results"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|r| r["name"].as_str())
                    .filter_map(|n| tools.iter().position(|t| t.name() == n))
                    .collect(),
                Err(_) => Vec::new(),
            },
            _ if name == DESCRIBE_TOOL => text("name")
                .and_then(|n| tools.iter().position(|t| t.name() == n))
                .into_iter()
                .collect(),
            _ => Vec::new(),
        }
    }

    fn search(&self, tools: &[Tool], arguments: &Value) -> Result<Value, ToolError> {
        let query = arguments
            .get("query")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let limit = arguments
            .get("limit")
            .and_then(Value::as_u64)
            .map_or(DEFAULT_RESULTS, |l| {
                usize::try_from(l).unwrap_or(MAX_RESULTS)
            })
            .clamp(1, MAX_RESULTS);
        // A toolset, or a category: the toolsets it holds (the overview names both alike).
        let within: Option<Vec<usize>> = match arguments.get("toolset").and_then(Value::as_str) {
            Some(id) => Some(match self.categories.iter().find(|c| c.id == id) {
                Some(category) => category.sets.clone(),
                None => vec![
                    self.find_set(id)
                        .ok_or_else(|| unknown_set(self, SEARCH_TOOLS, "toolset", id))?
                        .0,
                ],
            }),
            None => None,
        };
        let index = self
            .index
            .get_or_init(|| Index::new(tools, |i| self.toolset_of(i).map(Toolset::title)));
        // Filtering by toolset after ranking: ask for every match, then keep the set's.
        let wanted = if within.is_some() { usize::MAX } else { limit };
        let results: Vec<Value> = index
            .search(query, wanted)
            .into_iter()
            .filter(|(i, _)| {
                within.as_ref().is_none_or(|sets| {
                    self.set_of
                        .get(*i)
                        .copied()
                        .flatten()
                        .is_some_and(|set| sets.contains(&set))
                })
            })
            .take(limit)
            .filter_map(|(i, _)| tools.get(i).map(|tool| self.short(i, tool)))
            .collect();
        let note = if results.is_empty() {
            format!(
                "No tool matches `{query}`: try other words, or {LOAD_TOOLSET} to browse a toolset."
            )
        } else {
            format!(
                "Call a tool by its name; call {DESCRIBE_TOOL} first for arguments you do not know."
            )
        };
        let mut answer = json!({ "query": query, "results": results, "note": note });
        if !self.common.is_empty() && !answer["results"].as_array().is_none_or(Vec::is_empty) {
            answer["most_tools_also_take"] = json!(self.common);
        }
        Ok(answer)
    }

    /// One line per category: id, size, title, and the first toolsets it holds — three of
    /// them, or one, or none, whichever lets every category be named within the budget
    /// (a category the overview does not name cannot be browsed to).
    fn category_overview(&self) -> String {
        let line = |category: &Category, examples: usize| {
            let tools: usize = category.sets.iter().map(|&s| self.members[s].len()).sum();
            let head = format!(
                "- `{}` ({} toolsets, {tools} tools): {}",
                category.id,
                category.sets.len(),
                clip(&category.title, 40),
            );
            if examples == 0 {
                return head;
            }
            let shown: Vec<String> = category
                .sets
                .iter()
                .take(examples)
                .map(|&s| clip(self.toolsets[s].subject(), 24))
                .collect();
            let more = if category.sets.len() > examples {
                ", …"
            } else {
                ""
            };
            format!("{head} — {}{more}", shown.join(", "))
        };
        let mut lines: Vec<String> = Vec::new();
        for examples in [3, 1, 0] {
            lines = self.categories.iter().map(|c| line(c, examples)).collect();
            if lines.iter().map(|l| l.len() + 1).sum::<usize>() <= OVERVIEW_BUDGET {
                return lines.join("\n");
            }
        }
        // More categories than even bare lines fit (`categorize` aims at what fits with
        // examples, but cannot merge neighbours past MAX_SETS toolsets; no document
        // measured comes near): the rest are counted.
        let mut out = String::new();
        for (shown, line) in lines.iter().enumerate() {
            if out.len() + line.len() + 1 > OVERVIEW_BUDGET {
                let _ = write!(
                    out,
                    "- … and {} more categories: {SEARCH_TOOLS} searches them all.",
                    self.categories.len() - shown
                );
                return out;
            }
            out.push_str(line);
            out.push('\n');
        }
        out.truncate(out.trim_end().len());
        out
    }

    /// `load_toolset` of a category: its toolsets, each with its id, size and what it holds.
    fn load_category(&self, tools: &[Tool], category: &Category) -> Value {
        // Each toolset's tools as `name: title` lines, when all of the category's fit in a
        // page: a tool is then described straight from here, in as many turns as a
        // document without categories takes.
        let lines: Vec<Vec<String>> = category
            .sets
            .iter()
            .map(|&s| {
                self.members[s]
                    .iter()
                    .filter_map(|&i| tools.get(i))
                    .map(page_line)
                    .collect()
            })
            .collect();
        let cost: usize = lines.iter().flatten().map(|line| line_cost(line)).sum();
        let listed = cost <= PAGE_BUDGET;
        let sets: Vec<Value> = category
            .sets
            .iter()
            .zip(lines)
            .map(|(&s, lines)| {
                let set = &self.toolsets[s];
                let mut entry = json!({
                    "id": set.id(),
                    "title": clip(set.title(), 80),
                    "count": self.members[s].len(),
                });
                if let Some(description) = set.description() {
                    entry["description"] = json!(clip(description, 120));
                }
                if listed {
                    entry["tools"] = json!(lines);
                }
                entry
            })
            .collect();
        let note = if listed {
            format!(
                "Call {DESCRIBE_TOOL} for a tool's arguments, or load one of these toolsets \
                 with {LOAD_TOOLSET} and its id for its tools' descriptions."
            )
        } else {
            format!("Load one of these toolsets with {LOAD_TOOLSET} and its id.")
        };
        json!({
            "category": category.id,
            "title": category.title,
            "toolsets": sets,
            "note": note,
        })
    }

    fn load(&self, tools: &[Tool], arguments: &Value) -> Result<Value, ToolError> {
        let id = arguments
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if let Some(category) = self.categories.iter().find(|c| c.id == id) {
            return Ok(self.load_category(tools, category));
        }
        let (s, set) = self
            .find_set(id)
            .ok_or_else(|| unknown_set(self, LOAD_TOOLSET, "id", id))?;
        let offset = arguments
            .get("offset")
            .and_then(Value::as_u64)
            .map_or(0, |o| usize::try_from(o).unwrap_or(usize::MAX));
        let members: Vec<(usize, &Tool)> = self.members[s]
            .iter()
            .filter_map(|&i| Some((i, tools.get(i)?)))
            .collect();
        let mut answer =
            json!({ "toolset": set.id(), "title": set.title(), "count": members.len() });
        if let Some(description) = set.description() {
            answer["description"] = json!(description);
        }
        if offset == 0
            && let Some(full) = full_descriptions(&members)
        {
            answer["tools"] = Value::Array(full);
            answer["note"] =
                json!("These tools can now be called like the tools listed in the prompt.");
            return Ok(answer);
        }
        // Too large for full descriptions: `name: title` lines, as many as the page holds.
        let mut used = 0;
        let page: Vec<Value> = members
            .iter()
            .skip(offset)
            .map(|(_, tool)| page_line(tool))
            .take_while(|line| {
                used += line_cost(line);
                used <= PAGE_BUDGET || used == line_cost(line)
            })
            .map(Value::String)
            .collect();
        let end = offset.saturating_add(page.len());
        answer["tools"] = Value::Array(page);
        answer["offset"] = json!(offset);
        // Whether it is the number of tools or the size of their schemas that keeps the
        // full descriptions out (three Jellyfin tools whose arguments are long, say): past 20
        // tools, 1,000 characters each fill the budget.
        let why = if members.len() > 20 {
            "This toolset is large"
        } else {
            "These tools' arguments are long"
        };
        let mut note = format!(
            "{why}: names and titles only. Call {DESCRIBE_TOOL} for a tool's arguments, or \
             call it."
        );
        if end < members.len() {
            answer["next_offset"] = json!(end);
            let _ = write!(
                note,
                " Tools {}–{end} of {} are shown; load again with offset {end} for more.",
                offset + 1,
                members.len()
            );
        }
        answer["note"] = json!(note);
        Ok(answer)
    }

    /// A tool in one line's worth of JSON: name, title, toolset, argument names.
    fn short(&self, position: usize, tool: &Tool) -> Value {
        let names = |required: bool| -> Vec<&str> {
            tool.parameters()
                .iter()
                .filter(|p| p.required == required)
                .map(|p| p.name.as_str())
                .collect()
        };
        let mut entry = json!({ "name": tool.name(), "title": clip(tool.label(), 120) });
        if let Some(set) = self.toolset_of(position) {
            entry["toolset"] = json!(set.id());
        }
        entry["required"] = json!(names(true));
        let mut optional = names(false);
        optional.retain(|name| !self.common.iter().any(|common| common == name));
        if !optional.is_empty() {
            entry["optional"] = json!(optional);
        }
        entry
    }
}

/// A toolset's line in the overview at its plainest: id, size and title.
fn plain_line(set: &Toolset) -> String {
    let size = set.tools().len();
    let noun = if size == 1 { "tool" } else { "tools" };
    format!(
        "- `{}` ({size} {noun}): {}",
        set.id(),
        clip(set.title(), 80)
    )
}

/// How long the overview of `toolsets` is with plain lines.
fn overview_length(toolsets: &[Toolset]) -> usize {
    toolsets.iter().map(|set| plain_line(set).len() + 1).sum()
}

/// The full descriptions of `members`, unless together they exceed [`LOAD_BUDGET`].
fn full_descriptions(members: &[(usize, &Tool)]) -> Option<Vec<Value>> {
    let mut size = 0;
    let mut full = Vec::with_capacity(members.len());
    for (_, tool) in members {
        let description = mcs_hybrid::prompt::describe_tool(tool);
        size += description.to_string().len();
        if size > LOAD_BUDGET {
            return None;
        }
        full.push(description);
    }
    Some(full)
}

/// `describe_tool`: one tool's full description.
fn describe(tools: &[Tool], arguments: &Value) -> Result<Value, ToolError> {
    let wanted = arguments
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    // A name it does not know is a mistake in its argument, which the model reads and
    // corrects: an unknown *tool* would be `describe_tool` itself, and over MCP a protocol
    // error that the model may never see.
    match tools.iter().find(|tool| tool.name() == wanted) {
        Some(tool) => Ok(mcs_hybrid::prompt::describe_tool(tool)),
        None => {
            let expected = match mcs_core::closest(wanted, tools.iter().map(Tool::name)) {
                Some(close) => format!("the name of a tool, such as `{close}`"),
                None => format!("the name of a tool, as {SEARCH_TOOLS} or {LOAD_TOOLSET} gives it"),
            };
            Err(ToolError::invalid_argument(
                DESCRIBE_TOOL,
                ArgumentError::invalid("name", expected, format!("`{wanted}`")),
            ))
        }
    }
}

fn unknown_set(catalog: &Catalog, tool: &str, argument: &str, id: &str) -> ToolError {
    let ids: Vec<&str> = catalog
        .categories
        .iter()
        .map(|category| category.id.as_str())
        .chain(catalog.toolsets.iter().map(Toolset::id))
        .collect();
    let what = if catalog.categories.is_empty() {
        "toolset id"
    } else {
        "toolset or category id"
    };
    let expected = match mcs_core::closest(id, ids.iter().copied()) {
        Some(close) => format!("a {what} such as `{close}`"),
        None => format!("one of the {what}s: {}", ids.join(", ")),
    };
    ToolError::invalid_argument(
        tool,
        ArgumentError::invalid(argument, expected, format!("`{id}`")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcs_core::ToolParameter;

    fn tool(name: &str, optional: &[&str]) -> Tool {
        optional.iter().fold(
            Tool::new(name, "Does a thing.").with_parameter(ToolParameter::new("id", "The id.")),
            |tool, parameter| {
                tool.with_parameter(ToolParameter::new(*parameter, "").required(false))
            },
        )
    }

    /// EC2's seven `X-Amz-*` headers on every operation were 40 % of a search answer: named
    /// once, the results keep what tells tools apart.
    #[test]
    fn optional_arguments_nearly_every_tool_takes_are_named_once() {
        let mut tools: Vec<Tool> = (0..30)
            .map(|i| {
                tool(
                    &format!("op{i}"),
                    &["X-Amz-Date", "X-Amz-Signature", "Filter"],
                )
            })
            .collect();
        tools.push(tool("odd", &["X-Amz-Date", "X-Amz-Signature"]));
        tools.push(tool("odder", &["X-Amz-Date", "X-Amz-Signature", "DryRun"]));
        assert_eq!(
            common_optional(&tools),
            ["X-Amz-Date", "X-Amz-Signature", "Filter"]
        );
        // Not for a few tools: there, every line says it.
        assert!(common_optional(&tools[..10]).is_empty());
        let catalog = Catalog::new(&tools, Vec::new());
        let answer = catalog.search(&tools, &json!({"query": "odder"})).unwrap();
        assert_eq!(answer["results"][0]["name"], "odder", "{answer}");
        assert_eq!(
            answer["results"][0]["optional"],
            json!(["DryRun"]),
            "{answer}"
        );
        assert_eq!(
            answer["most_tools_also_take"],
            json!(["X-Amz-Date", "X-Amz-Signature", "Filter"])
        );
    }
}
