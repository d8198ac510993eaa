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
//! the table it started with.
//!
//! The only state an orchestrator adds beyond its drivers is the registration itself and,
//! under [`ConflictPolicy::ActiveTarget`], which label is active. Switching the target
//! changes what every conversation sharing the orchestrator sees; a client that needs
//! per-conversation targets holds one orchestrator per conversation, or uses namespacing.

mod naming;
mod policy;
mod routing;

use std::sync::{Arc, Mutex};

use arc_swap::ArcSwap;
use serde_json::{Value, json};

use crate::driver::{BoxFuture, Driver, LlmResponse, ToolDriver, ToolFuture};
use crate::error::ToolError;
use crate::hybrid::{self, HybridOptions};
use crate::types::{DriverMeta, DriverResponse, Tool, ToolParameter};

use routing::{Member, Table};

pub use naming::{MAX_NAME, SEPARATOR};
pub use policy::{ConflictPolicy, OrchestratorError, SWITCH_TOOL};

/// Many drivers behind one `Driver` (see the [module docs](self)).
pub struct Orchestrator {
    meta: DriverMeta,
    policy: ConflictPolicy,
    options: HybridOptions,
    table: ArcSwap<Table>,
    /// Serialises changes; calls never take it.
    changes: Mutex<()>,
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
            table: ArcSwap::from_pointee(Table::empty()),
            changes: Mutex::new(()),
        }
    }

    /// Uses these prompt options (variants per model, overrides, compact listing).
    #[must_use]
    pub fn with_options(mut self, options: HybridOptions) -> Self {
        self.options = options;
        self
    }

    /// The conflict policy.
    pub fn policy(&self) -> &ConflictPolicy {
        &self.policy
    }

    /// Registers `driver` under `label`, with priority 0.
    pub fn register(
        &self,
        label: impl Into<String>,
        driver: Arc<dyn ToolDriver>,
    ) -> Result<(), OrchestratorError> {
        self.register_with_priority(label, 0, driver)
    }

    /// Registers `driver` under `label`; under [`ConflictPolicy::Priority`] a higher
    /// `priority` is tried first.
    pub fn register_with_priority(
        &self,
        label: impl Into<String>,
        priority: i32,
        driver: Arc<dyn ToolDriver>,
    ) -> Result<(), OrchestratorError> {
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
            });
            Ok(())
        })
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
            ConflictPolicy::ActiveTarget { .. } => self.table.load().active.clone(),
            _ => None,
        }
    }

    /// The labels, in the order calls try them.
    pub fn labels(&self) -> Vec<String> {
        self.table
            .load()
            .members
            .iter()
            .map(|m| m.label.clone())
            .collect()
    }

    /// The driver registered as `label`.
    pub fn driver(&self, label: &str) -> Option<Arc<dyn ToolDriver>> {
        let table = self.table.load();
        let member = table.members.iter().find(|m| m.label == label)?;
        Some(Arc::clone(&member.driver))
    }

    /// Applies `edit` to a copy of the registration and swaps in the table built from it;
    /// nothing changes when `edit` or the build fails.
    fn change(
        &self,
        edit: impl FnOnce(&mut Vec<Member>, &mut Option<String>) -> Result<(), OrchestratorError>,
    ) -> Result<(), OrchestratorError> {
        let _serialised = self.changes.lock().unwrap_or_else(|e| e.into_inner());
        let current = self.table.load_full();
        let mut members = current.members.clone();
        let mut active = current.active.clone();
        edit(&mut members, &mut active)?;
        let mut table = Table::build(members, &self.policy, active)?;
        if let ConflictPolicy::ActiveTarget { switch_tool: true } = self.policy {
            table.tools = with_switch_tool(&table);
            table
                .positions
                .insert(SWITCH_TOOL.to_owned(), table.tools.len() - 1);
        }
        self.table.store(Arc::new(table));
        Ok(())
    }

    async fn execute(&self, name: &str, arguments: Value) -> Result<Value, ToolError> {
        let table = self.table.load_full();
        if name == SWITCH_TOOL
            && matches!(
                self.policy,
                ConflictPolicy::ActiveTarget { switch_tool: true }
            )
        {
            return self.switch(&arguments);
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
            let result = member.driver.execute_tool(original, given).await;
            match result {
                Err(ToolError::UnknownTool { .. } | ToolError::Rejected { .. }) if !last => {
                    continue;
                }
                // The model called the listed name; errors speak of that name.
                Err(error) if *original != name => return Err(rename_error(error, name)),
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
        let table = self.table.load();
        let tools: Vec<&str> = table
            .tools
            .iter()
            .map(Tool::name)
            .filter(|n| *n != SWITCH_TOOL)
            .collect();
        Ok(json!({ "active": target, "tools": tools }))
    }
}

/// The table's tools plus [`SWITCH_TOOL`], whose `target` lists the labels.
fn with_switch_tool(table: &Table) -> Arc<[Tool]> {
    let labels: Vec<&str> = table.members.iter().map(|m| m.label.as_str()).collect();
    let active = table.active.as_deref().unwrap_or("none");
    let switch = Tool::new(
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
    );
    let mut tools = table.tools.to_vec();
    tools.push(switch);
    tools.into()
}

fn rename_error(error: ToolError, listed: &str) -> ToolError {
    let listed = listed.to_owned();
    match error {
        ToolError::InvalidArguments { problems, .. } => ToolError::InvalidArguments {
            tool: listed,
            problems,
        },
        ToolError::Execution {
            message, source, ..
        } => ToolError::Execution {
            tool: listed,
            message,
            source,
        },
        ToolError::Rejected { reason, .. } => ToolError::Rejected {
            tool: listed,
            reason,
        },
        ToolError::UnknownTool { suggestion, .. } => ToolError::UnknownTool {
            name: listed,
            suggestion,
        },
    }
}

impl ToolDriver for Orchestrator {
    fn meta(&self) -> &DriverMeta {
        &self.meta
    }

    fn list_tools(&self) -> Arc<[Tool]> {
        Arc::clone(&self.table.load().tools)
    }

    fn execute_tool<'a>(&'a self, name: &'a str, arguments: Value) -> ToolFuture<'a> {
        ToolFuture::new(self.execute(name, arguments))
    }

    fn tool_position(&self, name: &str) -> Option<usize> {
        self.table.load().positions.get(name).copied()
    }
}

impl Driver for Orchestrator {
    fn meta(&self) -> &DriverMeta {
        &self.meta
    }

    fn get_function_description(&self, model: Option<&str>) -> String {
        hybrid::function_description(self, model)
    }

    /// Rendered once per model and registration change, then handed out again.
    fn get_driver_system_message(&self, model: Option<&str>) -> String {
        let table = self.table.load_full();
        let mut cache = table.prompts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, prompt)) = cache.iter().find(|(m, _)| m.as_deref() == model) {
            return prompt.clone();
        }
        let prompt = self
            .options
            .prompts
            .system_message(&self.meta.name, &table.tools, model);
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
}
