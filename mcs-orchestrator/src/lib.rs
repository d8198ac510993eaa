//! [`Orchestrator`]: many drivers behind one `Driver`, with an explicit conflict policy.
//!
//! An orchestrator registers any [`ToolDriver`] — annotated, generated, hand-written,
//! another orchestrator — under a label, and is itself a `ToolDriver` and a [`Driver`]: a
//! client sees one driver, and orchestrators nest. It owns the unified prompt (one listing,
//! one call format, the per-model variants and overrides of [`HybridOptions`]) and reads a
//! model's output once: every call is dispatched by a name lookup straight to the driver
//! that owns it, calls for several drivers in one output each go to their owner, and a
//! call no registered driver owns gives the empty response (pass-through), as for any
//! driver.
//!
//! How clashing tool names are resolved is chosen when it is built ([`ConflictPolicy`]):
//! namespacing (`crm__list_contacts`), priority (the first driver that has the tool takes
//! the call; an unknown tool or a declared [`ToolError::Rejected`] passes it to the next),
//! rejection at registration, or one active target at a time.
//!
//! Drivers are added and removed while it serves, through `&self`. Each change builds a new
//! routing table (the listing, the name index and the rendered prompts) and swaps it in
//! whole; calls read the current table without taking a lock, and a call in flight keeps
//! the table it started with. A registered driver whose own tools change — an orchestrator
//! nested in this one, an MCP client following its server — says so through
//! [`ToolDriver::watch_tools`]: the table is built again before it is next read, and the
//! change is passed on to the orchestrator's own listeners (its
//! [`watch_tools`](ToolDriver::watch_tools)) and so to whatever nests this orchestrator: a
//! change three levels down reaches the top (and an MCP server's clients).
//!
//! The only state an orchestrator adds beyond its drivers is the registration itself (with
//! any toolset splits a model proposed) and, under [`ConflictPolicy::ActiveTarget`], which
//! label is active. Switching the target changes what every conversation sharing the
//! orchestrator sees; a client that needs per-conversation targets holds one orchestrator
//! per conversation, or uses namespacing.
//!
//! # Toolsets and discovery
//!
//! Each driver's tools are grouped into [`Toolset`]s ([`Grouping`]: by tag — generated
//! drivers tag tools with their operations' OpenAPI tags, annotated tools take
//! `#[tool(tags = [...])]` — or all in one), with ids like `shop_orders`.
//! [`Orchestrator::split_toolsets`] asks a model to split toolsets larger than
//! [`Orchestrator::with_max_toolset_size`] into coherent groups (`shop_orders_Refunds`); an
//! answer that does not place every tool exactly once is refused and the set stays whole.
//!
//! Hundreds of tools do not fit a prompt. In [`Discovery`] mode the prompt lists three
//! discovery tools instead — [`SEARCH_TOOLS`] (BM25F over names, titles, descriptions,
//! argument names and toolsets, with stemming, stop words and a small table that bridges a
//! task's words to an API's: `remove` finds `delete`, `who am I` the authenticated user),
//! [`LOAD_TOOLSET`] (whose description lists the toolsets, or categories of them when
//! there are more than it can name) and
//! `describe_tool` — and the model calls what it found like any listed tool: every tool
//! stays in [`list_tools`](ToolDriver::list_tools), so every call format finds it. What
//! the model has loaded lives in the conversation, in its own earlier calls; the
//! orchestrator keeps no per-conversation state. A client that sends tools natively sends
//! [`Orchestrator::discovered_tools`] of the history with each request.
//!
//! ```
//! use std::sync::Arc;
//! use mcs_orchestrator::{ConflictPolicy, Discovery, Orchestrator, Registration};
//! # use mcs_core::{DriverMeta, Tool, ToolDriver, ToolFuture};
//! # struct Shop(DriverMeta);
//! # impl ToolDriver for Shop {
//! #     fn meta(&self) -> &DriverMeta { &self.0 }
//! #     fn list_tools(&self) -> Arc<[Tool]> { vec![Tool::new("list_pets", "Lists pets.")].into() }
//! #     fn execute_tool<'a>(&'a self, _: &'a str, _: serde_json::Value) -> ToolFuture<'a> {
//! #         ToolFuture::ready(Ok(serde_json::json!([])))
//! #     }
//! # }
//! let shop = Arc::new(Shop(DriverMeta::new("shop", "Shop", "1")));
//! let orchestrator = Orchestrator::new("office", ConflictPolicy::Namespace)
//!     .with_discovery(Discovery::Above(40));
//! orchestrator.register("shop", shop, Registration::new())?;
//! assert_eq!(orchestrator.toolsets()[0].id(), "shop_all");
//! # Ok::<(), mcs_orchestrator::OrchestratorError>(())
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]

mod categories;
mod discovery;
mod naming;
mod pages;
mod policy;
mod routing;
mod search;
mod spelling;
mod structure;
mod toolsets;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};

use arc_swap::ArcSwap;
use serde_json::{Value, json};

use mcs_core::ToolError;
use mcs_core::{
    BoxFuture, Driver, LlmResponse, ToolDriver, ToolFuture, ToolsListener, ToolsWatchers,
};
use mcs_core::{DriverMeta, DriverResponse, Tool, ToolParameter};
use mcs_hybrid::{self as hybrid, HybridOptions};
use mcs_llm::LlmClient;

use routing::{Member, Table};
use toolsets::Splits;

pub use discovery::{DISCOVERY_TOOLS, Discovery, LOAD_TOOLSET, SEARCH_TOOLS};
pub use naming::SEPARATOR;
pub use policy::{ConflictPolicy, OrchestratorError, SWITCH_TOOL};
pub use toolsets::{Grouping, SplitError, SplitOutcome, Toolset};

/// The largest toolset [`Orchestrator::split_toolsets`] leaves whole, unless set with
/// [`Orchestrator::with_max_toolset_size`].
pub const DEFAULT_MAX_TOOLSET: usize = 20;

/// How a driver is registered (see [`Orchestrator::register`]): its priority and how its
/// tools are grouped into toolsets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Registration {
    priority: i32,
    grouping: Grouping,
}

impl Registration {
    /// Priority 0, toolsets by tag where the driver has tags.
    pub fn new() -> Self {
        Registration::default()
    }

    /// Under [`ConflictPolicy::Priority`], a higher priority is tried first.
    #[must_use]
    pub fn priority(mut self, priority: i32) -> Self {
        self.priority = priority;
        self
    }

    /// How the driver's tools are grouped into toolsets.
    #[must_use]
    pub fn grouping(mut self, grouping: Grouping) -> Self {
        self.grouping = grouping;
        self
    }
}

/// Many drivers behind one `Driver` (see the [module docs](self)).
pub struct Orchestrator {
    meta: DriverMeta,
    policy: ConflictPolicy,
    options: HybridOptions,
    discovery: Discovery,
    max_toolset: usize,
    table: ArcSwap<Table>,
    /// Serialises changes; calls never take it.
    changes: Mutex<()>,
    /// Who is told of changes, and whether a registered driver's tools changed since the
    /// table was built; shared with the listeners it gives those drivers.
    watch: Arc<Watch>,
}

/// The orchestrator's side of change notification.
struct Watch {
    /// Set by a registered driver's listener: the table lists what the drivers listed
    /// before, and is built again before it is next read.
    stale: AtomicBool,
    /// Told after every change of the tools (the orchestrator's `watch_tools`).
    listeners: ToolsWatchers,
}

impl Watch {
    /// What a registered driver is given to call when its tools change: marks the table
    /// stale and passes the news on (the table is rebuilt when next read). Only the first
    /// change after a build is passed on — whoever hears it reads the table, which then holds
    /// every change since — so orchestrators nested in a cycle do not call each other
    /// forever. Holds the orchestrator weakly: a driver that outlives it calls nothing.
    fn listener_for_driver(self: &Arc<Self>) -> ToolsListener {
        let watch: Weak<Watch> = Arc::downgrade(self);
        Arc::new(move || {
            if let Some(watch) = watch.upgrade()
                && !watch.stale.swap(true, Ordering::AcqRel)
            {
                watch.listeners.notify();
            }
        })
    }
}

impl std::fmt::Debug for Orchestrator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Orchestrator")
            .field("name", &self.meta.name)
            .field("policy", &self.policy)
            .field("labels", &self.labels())
            .finish_non_exhaustive()
    }
}

impl Orchestrator {
    /// An orchestrator called `name` with no drivers yet.
    pub fn new(name: impl Into<String>, policy: ConflictPolicy) -> Self {
        let name = name.into();
        let meta = DriverMeta {
            capabilities: vec!["orchestrator".to_owned()],
            ..DriverMeta::new(
                format!("orchestrator.{name}"),
                name,
                env!("CARGO_PKG_VERSION"),
            )
        };
        Orchestrator {
            meta,
            policy,
            options: HybridOptions::default(),
            discovery: Discovery::Off,
            max_toolset: DEFAULT_MAX_TOOLSET,
            table: ArcSwap::from_pointee(Table::empty()),
            changes: Mutex::new(()),
            watch: Arc::new(Watch {
                stale: AtomicBool::new(false),
                listeners: ToolsWatchers::default(),
            }),
        }
    }

    /// Uses these prompt options (variants per model, overrides, compact listing). Takes
    /// effect at once, before or after drivers are registered.
    #[must_use]
    pub fn with_options(mut self, options: HybridOptions) -> Self {
        self.options = options;
        self.rebuilt()
    }

    /// Lists toolsets and discovery tools instead of every tool (see the
    /// [module docs](self#toolsets-and-discovery)). Takes effect at once, before or after
    /// drivers are registered; if a registered driver's tools cannot be listed this way (a
    /// tool named like a discovery tool), the listing stays as it was and
    /// [`refresh`](Self::refresh) says why.
    #[must_use]
    pub fn with_discovery(mut self, discovery: Discovery) -> Self {
        self.discovery = discovery;
        self.rebuilt()
    }

    /// The table built again after a setting that changes what is listed or how it is
    /// prompted; a failure leaves the old one, marked stale, for `refresh` to report.
    fn rebuilt(self) -> Self {
        self.watch.stale.store(true, Ordering::Release);
        let _ = self.apply(|_, _| Ok(()), true);
        self
    }

    /// The largest toolset [`split_toolsets`](Self::split_toolsets) leaves whole (default
    /// [`DEFAULT_MAX_TOOLSET`]); also the most tools a group it proposes may hold.
    #[must_use]
    pub fn with_max_toolset_size(mut self, max: usize) -> Self {
        self.max_toolset = max.max(1);
        self
    }

    /// Builds the listing again from what the registered drivers list now. Done by itself
    /// before the next read after a driver reported a change (see
    /// [`ToolDriver::watch_tools`]), so there is rarely a reason to call it; it is how to
    /// learn why such a change was not taken up: if the drivers' new tools break the policy
    /// (a clash under [`ConflictPolicy::Reject`], a reserved name in discovery mode), the
    /// listing stays as it was and this returns the error.
    pub fn refresh(&self) -> Result<(), OrchestratorError> {
        self.apply(|_, _| Ok(()), false)
    }

    /// The current table, built again first if a registered driver's tools changed.
    fn table(&self) -> arc_swap::Guard<Arc<Table>> {
        if self.watch.stale.load(Ordering::Acquire) {
            // A failure keeps the old table; `refresh` reports it.
            let _ = self.refresh();
        }
        self.table.load()
    }

    /// [`table`](Self::table), as an `Arc` to hold across an `.await`.
    fn table_full(&self) -> Arc<Table> {
        arc_swap::Guard::into_inner(self.table())
    }

    /// The conflict policy.
    pub fn policy(&self) -> &ConflictPolicy {
        &self.policy
    }

    /// Registers `driver` under `label`, with the priority and grouping of `registration`
    /// (`Registration::default()`: priority 0, toolsets by tag).
    ///
    /// Fails, changing nothing, on a label already taken, a label the policy cannot use
    /// (under [`ConflictPolicy::Namespace`] it prefixes names, so it follows their rule), or
    /// tools the policy refuses (a clash under [`ConflictPolicy::Reject`]).
    pub fn register(
        &self,
        label: impl Into<String>,
        driver: Arc<dyn ToolDriver>,
        registration: Registration,
    ) -> Result<(), OrchestratorError> {
        let Registration { priority, grouping } = registration;
        let label = label.into();
        let valid = match self.policy {
            ConflictPolicy::Namespace => naming::valid_label(&label),
            _ => !label.is_empty(),
        };
        if !valid {
            return Err(OrchestratorError::InvalidLabel(label));
        }
        self.change(|members, active| {
            if members.iter().any(|m| m.label == label) {
                return Err(OrchestratorError::DuplicateLabel(label.clone()));
            }
            if active.is_none() {
                *active = Some(label.clone());
            }
            members.push(Member {
                label: label.clone(),
                priority,
                driver: Arc::clone(&driver),
                grouping: grouping.clone(),
                splits: Arc::new(Splits::new()),
            });
            Ok(())
        })?;
        // Told when the driver's own tools change (a nested orchestrator, an MCP client).
        // A removed driver may still call it; that costs one needless rebuild.
        driver.watch_tools(self.watch.listener_for_driver());
        Ok(())
    }

    /// Removes the driver registered as `label`; `false` if there was none. Calls already
    /// under way finish with the driver they started with.
    pub fn remove(&self, label: &str) -> bool {
        let removed = self.change(|members, active| {
            let before = members.len();
            members.retain(|m| m.label != label);
            if active.as_deref() == Some(label) {
                *active = members.first().map(|m| m.label.clone());
            }
            if members.len() == before {
                Err(OrchestratorError::UnknownLabel(label.to_owned()))
            } else {
                Ok(())
            }
        });
        removed.is_ok()
    }

    /// Makes `label` the active target (under [`ConflictPolicy::ActiveTarget`]).
    pub fn set_active(&self, label: &str) -> Result<(), OrchestratorError> {
        if !matches!(self.policy, ConflictPolicy::ActiveTarget { .. }) {
            return Err(OrchestratorError::NoActiveTarget);
        }
        self.change(|members, active| {
            if !members.iter().any(|m| m.label == label) {
                return Err(OrchestratorError::UnknownLabel(label.to_owned()));
            }
            *active = Some(label.to_owned());
            Ok(())
        })
    }

    /// The active target (under [`ConflictPolicy::ActiveTarget`]).
    pub fn active(&self) -> Option<String> {
        match self.policy {
            ConflictPolicy::ActiveTarget { .. } => self.table().active.clone(),
            _ => None,
        }
    }

    /// The labels, in the order calls try them.
    pub fn labels(&self) -> Vec<String> {
        self.table()
            .members
            .iter()
            .map(|m| m.label.clone())
            .collect()
    }

    /// The driver registered as `label`.
    pub fn driver(&self, label: &str) -> Option<Arc<dyn ToolDriver>> {
        let table = self.table();
        let member = table.members.iter().find(|m| m.label == label)?;
        Some(Arc::clone(&member.driver))
    }

    /// The toolsets, driver by driver in the order calls try them.
    pub fn toolsets(&self) -> Vec<Toolset> {
        self.table().catalog.toolsets.clone()
    }

    /// The toolset with this id.
    pub fn toolset(&self, id: &str) -> Option<Toolset> {
        let table = self.table();
        table
            .catalog
            .toolsets
            .iter()
            .find(|set| set.id() == id)
            .cloned()
    }

    /// The tools the prompt lists: every tool, or in discovery mode the discovery tools.
    /// Clients that send tools natively (OpenAI `tools`, Anthropic `tools`) send these.
    pub fn prompt_tools(&self) -> Arc<[Tool]> {
        let table = self.table();
        Arc::clone(table.prompt_tools.as_ref().unwrap_or(&table.tools))
    }

    /// The tools a conversation has discovered: the [`prompt_tools`](Self::prompt_tools),
    /// then each tool the model's own discovery calls in `history` showed it (a loaded
    /// toolset's tools, a described tool, search results), in the order found.
    ///
    /// Derived again from the calls each time — the toolsets and the search are
    /// deterministic — so the orchestrator stores nothing per conversation. A client that
    /// sends tools natively (OpenAI or Anthropic `tools`) sends these with each request, so
    /// the model can call what it found. Outside discovery mode, every tool.
    pub fn discovered_tools(&self, history: &[Value]) -> Vec<Tool> {
        let table = self.table_full();
        let Some(prompt) = &table.prompt_tools else {
            return table.tools.to_vec();
        };
        let tools = &table.tools[..table.own_from];
        let mut shown = vec![false; tools.len()];
        let mut found = prompt.to_vec();
        for message in history {
            if message.get("role").and_then(Value::as_str) != Some("assistant") {
                continue;
            }
            let response = match message.get("content") {
                Some(Value::String(text)) if message.get("tool_calls").is_none() => {
                    LlmResponse::Text(text)
                }
                _ => LlmResponse::Message(message),
            };
            for call in mcs_extract::extract(response, prompt).calls {
                for position in table.catalog.revealed(tools, &call.name, &call.arguments) {
                    if !std::mem::replace(&mut shown[position], true) {
                        found.push(tools[position].clone());
                    }
                }
            }
        }
        found
    }

    /// Asks `model` to split every toolset larger than the maximum size
    /// ([`with_max_toolset_size`](Self::with_max_toolset_size)) into coherent groups, one
    /// request per toolset. An answer is used only if it places every tool of the set
    /// exactly once, in groups within the maximum size, under names that exist; otherwise
    /// (or when the model cannot be asked) the set stays whole. Says what became of each.
    ///
    /// Splits are kept with the driver's registration and used while they still partition
    /// a toolset of the driver; a set whose tools changed is whole again, and can be split
    /// again.
    pub async fn split_toolsets(&self, model: &dyn LlmClient) -> Vec<SplitOutcome> {
        let table = self.table_full();
        let mut outcomes = Vec::new();
        let mut accepted: Vec<(String, Vec<toolsets::Group>)> = Vec::new();
        for set in table.catalog.toolsets.iter() {
            if set.tools().len() <= self.max_toolset {
                continue;
            }
            let members: Vec<&Tool> = set
                .tools()
                .iter()
                .filter_map(|name| table.tools.get(*table.positions.get(name)?))
                .collect();
            let request = toolsets::split_request(set, &members, self.max_toolset);
            let result = match model.complete(&request).await {
                Ok(turn) => toolsets::read_split(&turn.text(), set, self.max_toolset),
                Err(error) => Err(SplitError::Model(error)),
            };
            if let Ok(groups) = &result {
                accepted.push((set.source().to_owned(), groups.clone()));
            }
            outcomes.push((set.id().to_owned(), result));
        }
        let stored = if accepted.is_empty() {
            Ok(())
        } else {
            self.change(|members, _| {
                for member in members.iter_mut() {
                    let mut splits = (*member.splits).clone();
                    for (source, groups) in &accepted {
                        if *source == member.label {
                            // A new split of the same set replaces the old one.
                            splits.retain(|old| !same_tools(old, groups));
                            splits.push(groups.clone());
                        }
                    }
                    member.splits = Arc::new(splits);
                }
                Ok(())
            })
        };
        // The ids the groups got (made unique among all toolsets).
        let now = self.table();
        outcomes
            .into_iter()
            .map(|(toolset, result)| {
                let result = match (result, &stored) {
                    (Ok(groups), Ok(())) => Ok(groups
                        .iter()
                        .filter_map(|group| {
                            now.catalog
                                .toolsets
                                .iter()
                                .find(|set| set.tools() == group.tools.as_slice())
                                .map(|set| set.id().to_owned())
                        })
                        .collect()),
                    (Ok(_), Err(error)) => Err(SplitError::Invalid(error.to_string())),
                    (Err(error), _) => Err(error),
                };
                SplitOutcome { toolset, result }
            })
            .collect()
    }

    /// Applies `edit` to a copy of the registration and swaps in the table built from it;
    /// nothing changes when `edit` or the build fails.
    fn change(
        &self,
        edit: impl FnOnce(&mut Vec<Member>, &mut Option<String>) -> Result<(), OrchestratorError>,
    ) -> Result<(), OrchestratorError> {
        self.apply(edit, true)
    }

    /// [`change`](Self::change), telling the listeners only when `notify` (a change of the
    /// registration; `refresh` rebuilds for a change already announced).
    fn apply(
        &self,
        edit: impl FnOnce(&mut Vec<Member>, &mut Option<String>) -> Result<(), OrchestratorError>,
        notify: bool,
    ) -> Result<(), OrchestratorError> {
        let _serialised = self.changes.lock().unwrap_or_else(|e| e.into_inner());
        // What the drivers list is read again below: a change reported from here on is
        // either in this build or marks the table stale again.
        let was_stale = self.watch.stale.swap(false, Ordering::AcqRel);
        let current = self.table.load_full();
        let mut members = current.members.clone();
        let mut active = current.active.clone();
        let built = edit(&mut members, &mut active)
            .and_then(|()| Table::build(members, &self.policy, active, self.discovery));
        let mut table = match built {
            Ok(table) => table,
            Err(error) => {
                // A refused change of the registration leaves a driver's pending change
                // pending. A refresh that fails (the drivers' tools now break the policy)
                // does not retry on every read: the next change or `refresh` does.
                if was_stale && notify {
                    self.watch.stale.store(true, Ordering::Release);
                }
                return Err(error);
            }
        };
        if let ConflictPolicy::ActiveTarget { switch_tool: true } = self.policy {
            let switch = switch_tool(&table);
            table.tools = with(&table.tools, switch.clone());
            table.prompt_tools = table.prompt_tools.as_ref().map(|p| with(p, switch));
            table
                .positions
                .insert(SWITCH_TOOL.to_owned(), table.tools.len() - 1);
        }
        self.table.store(Arc::new(table));
        drop(_serialised);
        if notify {
            self.watch.listeners.notify();
        }
        Ok(())
    }

    async fn execute(&self, name: &str, arguments: Value) -> Result<Value, ToolError> {
        let table = self.table_full();
        if name == SWITCH_TOOL
            && matches!(
                self.policy,
                ConflictPolicy::ActiveTarget { switch_tool: true }
            )
        {
            return self.switch(&arguments);
        }
        if table.discovering() && DISCOVERY_TOOLS.contains(&name) {
            return table
                .catalog
                .answer(&table.tools[..table.own_from], name, &arguments);
        }
        let Some(route) = table.routes.get(name) else {
            return Err(ToolError::unknown_tool_among(
                name,
                table.tools.iter().map(Tool::name),
            ));
        };
        let mut arguments = Some(arguments);
        let mut candidates = route.iter().peekable();
        while let Some((index, original)) = candidates.next() {
            let Some(member) = table.members.get(*index) else {
                continue;
            };
            let last = candidates.peek().is_none();
            // Only a call that may move on to another driver needs its own copy.
            let given = if last {
                arguments.take()
            } else {
                arguments.clone()
            }
            .unwrap_or_default();
            tracing::debug!(
                target: mcs_core::telemetry::TARGET,
                tool = name,
                driver = %member.driver.meta().id,
                original = original.as_str(),
                "call routed"
            );
            let result = member.driver.execute_tool(original, given).await;
            match result {
                Err(ToolError::UnknownTool { .. } | ToolError::Rejected { .. }) if !last => {
                    tracing::debug!(
                        target: mcs_core::telemetry::TARGET,
                        tool = name,
                        driver = %member.driver.meta().id,
                        "declined; offered to the next driver"
                    );
                    continue;
                }
                // The model called the listed name; errors speak of that name.
                Err(error) if *original != name => return Err(error.for_tool(name)),
                other => return other,
            }
        }
        Err(ToolError::unknown_tool(name))
    }

    fn switch(&self, arguments: &Value) -> Result<Value, ToolError> {
        let target = arguments
            .get("target")
            .and_then(Value::as_str)
            .unwrap_or_default();
        self.set_active(target)
            .map_err(|error| ToolError::execution(SWITCH_TOOL, error.to_string()))?;
        let table = self.table();
        let tools: Vec<&str> = table
            .tools
            .iter()
            .map(Tool::name)
            .filter(|n| *n != SWITCH_TOOL)
            .collect();
        Ok(json!({ "active": target, "tools": tools }))
    }
}

/// [`SWITCH_TOOL`], whose `target` lists the labels.
fn switch_tool(table: &Table) -> Tool {
    let labels: Vec<&str> = table.members.iter().map(|m| m.label.as_str()).collect();
    let active = table.active.as_deref().unwrap_or("none");
    Tool::new(
        SWITCH_TOOL,
        format!(
            "Switch to another system; only the active system's tools can be called. Active \
             now: `{active}`. Systems: {}.",
            labels.join(", ")
        ),
    )
    .with_title("Switch the active system")
    .with_parameter(
        ToolParameter::new("target", "The system to switch to.")
            .with_schema(json!({ "type": "string", "enum": labels })),
    )
}

/// Whether two splits group the same tools.
fn same_tools(a: &[toolsets::Group], b: &[toolsets::Group]) -> bool {
    fn tools(groups: &[toolsets::Group]) -> Vec<&String> {
        let mut all: Vec<&String> = groups.iter().flat_map(|g| &g.tools).collect();
        all.sort();
        all
    }
    tools(a) == tools(b)
}

/// `tools` and then `tool`.
fn with(tools: &[Tool], tool: Tool) -> Arc<[Tool]> {
    let mut all = tools.to_vec();
    all.push(tool);
    all.into()
}

impl ToolDriver for Orchestrator {
    fn meta(&self) -> &DriverMeta {
        &self.meta
    }

    fn list_tools(&self) -> Arc<[Tool]> {
        Arc::clone(&self.table().tools)
    }

    fn execute_tool<'a>(&'a self, name: &'a str, arguments: Value) -> ToolFuture<'a> {
        ToolFuture::new(self.execute(name, arguments))
    }

    fn tool_position(&self, name: &str) -> Option<usize> {
        self.table().positions.get(name).copied()
    }

    /// The tags the owning driver gives the tool.
    fn tool_tags(&self, name: &str) -> Vec<String> {
        let table = self.table();
        let Some((index, original)) = table.routes.get(name).and_then(|route| route.first()) else {
            return Vec::new();
        };
        table
            .members
            .get(*index)
            .map(|member| member.driver.tool_tags(original))
            .unwrap_or_default()
    }

    /// Calls `listener` after every change of what the orchestrator lists: a driver
    /// registered or removed, the active target switched, toolsets split, a setting
    /// changed, or the tools of a registered driver changed (a nested orchestrator's
    /// registration, an MCP server's list-changed). A client re-sends its tools from here;
    /// an MCP server (`mcs_mcp::McpServer`) serving the orchestrator does so by itself.
    /// Listeners run on the thread that made the change and should return quickly; for a
    /// change of its own the new table is in place, for a driver's it is rebuilt when next
    /// read.
    fn watch_tools(&self, listener: ToolsListener) -> bool {
        self.watch.listeners.add(listener);
        true
    }

    /// The description the first registered driver that knows the tag gives it.
    fn tag_description(&self, tag: &str) -> Option<String> {
        let table = self.table();
        table
            .members
            .iter()
            .find_map(|member| member.driver.tag_description(tag))
    }
}

impl Driver for Orchestrator {
    fn get_function_description(&self, _model: Option<&str>) -> String {
        mcs_hybrid::prompt::function_description(&self.prompt_tools())
    }

    /// Rendered once per model and registration change, then handed out again.
    fn get_driver_system_message(&self, model: Option<&str>) -> String {
        let table = self.table_full();
        let mut cache = table.prompts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, prompt)) = cache.iter().find(|(m, _)| m.as_deref() == model) {
            return prompt.clone();
        }
        let listed = table.prompt_tools.as_ref().unwrap_or(&table.tools);
        let prompt = self
            .options
            .prompts
            .system_message(&self.meta.name, listed, model);
        // Bounded: a client cycling through model names cannot grow it without limit.
        if cache.len() < 32 {
            cache.push((model.map(str::to_owned), prompt.clone()));
        }
        prompt
    }

    fn process_llm_response<'a>(
        &'a self,
        response: LlmResponse<'a>,
    ) -> BoxFuture<'a, DriverResponse> {
        Box::pin(hybrid::process_llm_response(self, &self.options, response))
    }

    fn process_llm_stream<'a>(
        &'a self,
        options: mcs_core::stream::StreamOptions,
    ) -> mcs_core::DriverStream<'a> {
        hybrid::process_llm_stream(self, &self.options, options)
    }
}
