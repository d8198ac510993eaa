//! The routing table of an orchestrator: built once per registration change, read by every
//! call without a lock.

use std::collections::HashMap;
use std::sync::Arc;

use mcs_core::Tool;
use mcs_core::ToolDriver;

use super::discovery::{Catalog, DISCOVERY_TOOLS, Discovery};
use super::naming::namespaced;
use super::policy::{ConflictPolicy, OrchestratorError};
use super::toolsets::{self, Entry, Grouping, Splits};

/// A registered driver.
#[derive(Clone)]
pub(super) struct Member {
    pub label: String,
    pub priority: i32,
    pub driver: Arc<dyn ToolDriver>,
    pub grouping: Grouping,
    /// The model-proposed splits of this driver's toolsets that were accepted.
    pub splits: Arc<Splits>,
}

/// Where a listed name goes: the members that have it, in the order to try them, each with
/// the name the member knows the tool by.
pub(super) type Route = Vec<(usize, String)>;

/// Everything a call needs, built whole and swapped in whole.
pub(super) struct Table {
    /// In registration order (priority order under [`ConflictPolicy::Priority`]).
    pub members: Vec<Member>,
    pub tools: Arc<[Tool]>,
    /// How many of `tools` are the drivers' (the rest are the orchestrator's own: discovery
    /// tools, the switch tool).
    pub own_from: usize,
    /// The tools the prompt lists, when not all of `tools` (discovery mode).
    pub prompt_tools: Option<Arc<[Tool]>>,
    /// Toolsets and the search index.
    pub catalog: Catalog,
    /// Where each listed name is in `tools`.
    pub positions: HashMap<String, usize>,
    pub routes: HashMap<String, Route>,
    /// The active label under [`ConflictPolicy::ActiveTarget`].
    pub active: Option<String>,
    /// System prompts already rendered for this table, by model.
    pub prompts: std::sync::Mutex<Vec<(Option<String>, String)>>,
}

impl Table {
    pub(crate) fn empty() -> Self {
        Table {
            members: Vec::new(),
            tools: Arc::from(Vec::new()),
            own_from: 0,
            prompt_tools: None,
            catalog: Catalog::new(&[], Vec::new()),
            positions: HashMap::new(),
            routes: HashMap::new(),
            active: None,
            prompts: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// The table for `members` under `policy`; `Err` when `policy` is
    /// [`ConflictPolicy::Reject`] and two members share a tool name, or when discovery is on
    /// and a member has a tool named like a discovery tool.
    pub(crate) fn build(
        mut members: Vec<Member>,
        policy: &ConflictPolicy,
        active: Option<String>,
        discovery: Discovery,
    ) -> Result<Table, OrchestratorError> {
        if matches!(policy, ConflictPolicy::Priority) {
            // Stable: equal priorities keep registration order.
            members.sort_by_key(|m| std::cmp::Reverse(m.priority));
        }
        let mut tools: Vec<Tool> = Vec::new();
        let mut routes: HashMap<String, Route> = HashMap::new();
        let mut owner: HashMap<String, usize> = HashMap::new();
        for (index, member) in members.iter().enumerate() {
            let hidden = matches!(policy, ConflictPolicy::ActiveTarget { .. })
                && active.as_deref() != Some(member.label.as_str());
            for tool in member.driver.list_tools().iter() {
                if hidden {
                    continue;
                }
                let original = tool.name().to_owned();
                match policy {
                    ConflictPolicy::Namespace => {
                        let name = namespaced(&member.label, &original, |n| routes.contains_key(n));
                        tools.push(relabel(tool, &name, &member.label));
                        routes.insert(name, vec![(index, original)]);
                    }
                    ConflictPolicy::Reject => {
                        if let Some(&first) = owner.get(&original) {
                            return Err(OrchestratorError::Conflict {
                                tool: original,
                                first: members[first].label.clone(),
                                second: member.label.clone(),
                            });
                        }
                        owner.insert(original.clone(), index);
                        tools.push(tool.clone());
                        routes.insert(original.clone(), vec![(index, original)]);
                    }
                    ConflictPolicy::Priority | ConflictPolicy::ActiveTarget { .. } => {
                        let route = routes.entry(original.clone()).or_default();
                        if route.is_empty() {
                            tools.push(tool.clone());
                        }
                        route.push((index, original));
                    }
                }
            }
        }
        // Each listed tool with its owner (the first driver its route tries), in one pass.
        let mut entries: Vec<Vec<Entry<'_>>> = members.iter().map(|_| Vec::new()).collect();
        for tool in &tools {
            if let Some((owner, original)) = routes.get(tool.name()).and_then(|r| r.first())
                && let Some(member) = members.get(*owner)
            {
                entries[*owner].push(Entry {
                    listed: tool.name(),
                    tags: member.driver.tool_tags(original),
                    page: crate::pages::line_cost(&crate::pages::page_line(tool)),
                });
            }
        }
        let mut sets = Vec::new();
        for (member, entries) in members.iter().zip(&entries) {
            sets.extend(toolsets::group(
                &member.label,
                &member.driver.meta().name,
                &member.grouping,
                entries,
                &member.splits,
                &|tag| member.driver.tag_description(tag),
            ));
        }
        toolsets::make_unique(&mut sets);
        let catalog = Catalog::new(&tools, sets);
        let own_from = tools.len();
        let mut prompt_tools = None;
        if discovery.is_on(own_from) {
            if let Some(name) = DISCOVERY_TOOLS.iter().find(|n| routes.contains_key(**n)) {
                let (owner, _) = routes[*name][0];
                return Err(OrchestratorError::Reserved {
                    tool: (*name).to_owned(),
                    label: members[owner].label.clone(),
                });
            }
            let extra = catalog.discovery_tools(own_from);
            tools.extend(extra.iter().cloned());
            prompt_tools = Some(Arc::from(extra));
        }
        let positions = tools
            .iter()
            .enumerate()
            .map(|(i, tool)| (tool.name().to_owned(), i))
            .collect();
        Ok(Table {
            members,
            positions,
            tools: tools.into(),
            own_from,
            prompt_tools,
            catalog,
            routes,
            active,
            prompts: std::sync::Mutex::new(Vec::new()),
        })
    }

    /// Whether discovery tools are listed.
    pub(crate) fn discovering(&self) -> bool {
        self.prompt_tools.is_some()
    }
}

/// `tool` under its namespaced `name`, its description saying which system it belongs to.
fn relabel(tool: &Tool, name: &str, label: &str) -> Tool {
    let description = format!("[{label}] {}", tool.description());
    let relabelled = match tool.title() {
        Some(title) => Tool::new(name, description).with_title(title),
        None => Tool::new(name, description),
    };
    relabelled
        .with_parameters(tool.parameters().to_vec())
        .with_annotations(*tool.annotations())
}
