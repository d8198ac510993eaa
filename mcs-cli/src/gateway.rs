//! The driver `mcs serve` hands to the MCP server: the document's REST driver, listed whole
//! or, for a large document, through discovery, with calls that lack a credential answered
//! in words that say which variable to set.
//!
//! # Discovery over MCP
//!
//! An orchestrator in discovery mode still lists every tool from `list_tools` (its prompt
//! is what shrinks), and an MCP host sends the model whatever `tools/list` answers. So in
//! discovery mode the gateway lists the orchestrator's
//! [`prompt_tools`](Orchestrator::prompt_tools) — `search_tools`, `load_toolset`,
//! `describe_tool` — and one more, [`CALL_TOOL`], through which the model calls a tool it
//! found: a host only lets a model call tools it listed (and the MCP server refuses a name
//! it did not list). Nothing is remembered between calls; a tool found in one turn is
//! called by name in any later one.

use std::collections::HashMap;
use std::sync::Arc;

use mcs::orchestrator::{LOAD_TOOLSET, Orchestrator, SEARCH_TOOLS};
use mcs::rest::RestDriver;
use mcs::serde_json::{Value, json};
use mcs::{ArgumentError, DriverMeta, Tool, ToolAnnotations, ToolDriver, ToolError, ToolFuture};
use mcs::{ToolParameter, ToolsListener};

/// The tool that calls a tool found through discovery.
pub(crate) const CALL_TOOL: &str = "call_tool";

/// What the MCP server serves.
pub(crate) struct Gateway {
    listing: Listing,
    /// Tools whose operation needs a credential that was not given, and what to set.
    missing: HashMap<String, String>,
}

/// Both drivers are large values held for the server's life: boxed, so the enum is small.
enum Listing {
    /// Every operation is listed.
    All(Box<RestDriver>),
    /// The discovery tools and [`CALL_TOOL`] are listed; `tools` is that listing.
    Discovery {
        orchestrator: Box<Orchestrator>,
        tools: Arc<[Tool]>,
    },
}

impl Gateway {
    /// Every tool of `driver`, listed.
    pub(crate) fn all(driver: RestDriver, missing: HashMap<String, String>) -> Self {
        Gateway {
            listing: Listing::All(Box::new(driver)),
            missing,
        }
    }

    /// The `reached` tools of `orchestrator` (in discovery mode), found through discovery.
    pub(crate) fn discovery(
        orchestrator: Orchestrator,
        reached: usize,
        missing: HashMap<String, String>,
    ) -> Self {
        // The orchestrator's texts say a found tool is called "like the tools listed here",
        // true in its own prompt; here the way is call_tool, which they are told after it.
        let mut tools: Vec<Tool> = orchestrator
            .prompt_tools()
            .iter()
            .map(|tool| match tool.name() {
                SEARCH_TOOLS | LOAD_TOOLSET => {
                    let description = format!("{} {}", tool.description(), through_call_tool());
                    tool.clone().with_description(description)
                }
                _ => tool.clone(),
            })
            .collect();
        tools.push(call_tool(reached));
        Gateway {
            listing: Listing::Discovery {
                orchestrator: Box::new(orchestrator),
                tools: tools.into(),
            },
            missing,
        }
    }

    /// Instructions for the host's model, when the listing needs explaining.
    pub(crate) fn instructions(&self) -> Option<String> {
        match &self.listing {
            Listing::All(_) => None,
            Listing::Discovery { .. } => Some(format!(
                "This server reaches the many tools of one API, listed only on demand: find \
                 them with {SEARCH_TOOLS} or {LOAD_TOOLSET}, read a tool's arguments with \
                 describe_tool, and call it through {CALL_TOOL} with its name and arguments."
            )),
        }
    }

    async fn execute(&self, name: &str, arguments: Value) -> Result<Value, ToolError> {
        let (target, result) = match &self.listing {
            Listing::All(driver) => (name, driver.execute_tool(name, arguments).await),
            Listing::Discovery { orchestrator, .. } if name == CALL_TOOL => {
                let (target, arguments) = unwrap_call(&arguments)?;
                let result = orchestrator.execute_tool(target, arguments).await;
                (target, result.map_err(unknown_as_argument))
            }
            Listing::Discovery { orchestrator, .. } => {
                let result = orchestrator.execute_tool(name, arguments).await;
                let result = if name == SEARCH_TOOLS || name == LOAD_TOOLSET {
                    result.map(point_to_call_tool)
                } else {
                    result
                };
                (name, result)
            }
        };
        result.map_err(|error| self.explain(target, error))
    }

    /// A failed call of a tool that lacks a credential says which, and what to set.
    fn explain(&self, tool: &str, error: ToolError) -> ToolError {
        match (error, self.missing.get(tool)) {
            (ToolError::Execution { tool, message, .. }, Some(how)) => ToolError::execution(
                tool,
                format!(
                    "{message}. {how}. A person configures that where the MCP server is \
                     started; the model cannot supply it"
                ),
            ),
            (error, _) => error,
        }
    }

    fn driver(&self) -> &dyn ToolDriver {
        match &self.listing {
            Listing::All(driver) => &**driver,
            Listing::Discovery { orchestrator, .. } => &**orchestrator,
        }
    }
}

impl ToolDriver for Gateway {
    fn meta(&self) -> &DriverMeta {
        self.driver().meta()
    }

    fn list_tools(&self) -> Arc<[Tool]> {
        match &self.listing {
            Listing::All(driver) => driver.list_tools(),
            Listing::Discovery { tools, .. } => Arc::clone(tools),
        }
    }

    fn execute_tool<'a>(&'a self, name: &'a str, arguments: Value) -> ToolFuture<'a> {
        ToolFuture::new(self.execute(name, arguments))
    }

    fn tool_position(&self, name: &str) -> Option<usize> {
        match &self.listing {
            Listing::All(driver) => driver.tool_position(name),
            Listing::Discovery { tools, .. } => tools.iter().position(|t| t.name() == name),
        }
    }

    fn watch_tools(&self, _listener: ToolsListener) -> bool {
        // The document is read once: the listing never changes.
        false
    }
}

/// What the discovery tools' descriptions and answers add here.
fn through_call_tool() -> String {
    format!(
        "Here, call a tool you found through {CALL_TOOL}: {{\"name\": \"<tool>\", \
         \"arguments\": {{…}}}}."
    )
}

/// The tool that calls what discovery found; `tools` is how many it reaches.
fn call_tool(tools: usize) -> Tool {
    Tool::new(
        CALL_TOOL,
        format!(
            "Call one of the {tools} tools of this API that {SEARCH_TOOLS}, {LOAD_TOOLSET} or \
             describe_tool showed you (they are not listed here): its name, and its arguments \
             as describe_tool gives them."
        ),
    )
    .with_title("Call a tool found by search")
    // What it calls may read, write or delete: no hint beyond reaching outside.
    .with_annotations(ToolAnnotations::new().open_world(true))
    .with_parameter(
        ToolParameter::new(
            "name",
            "The tool's name, as search or describe_tool gave it.",
        )
        .with_schema(json!({"type": "string", "minLength": 1})),
    )
    .with_parameter(
        ToolParameter::new("arguments", "The tool's arguments, by name.")
            .required(false)
            .with_schema(json!({"type": "object"})),
    )
}

/// The tool name and arguments of a [`CALL_TOOL`] call (already checked against its schema
/// by the MCP server, checked again here for any other caller).
fn unwrap_call(arguments: &Value) -> Result<(&str, Value), ToolError> {
    let Some(target) = arguments.get("name").and_then(Value::as_str) else {
        return Err(ToolError::invalid_argument(
            CALL_TOOL,
            ArgumentError::missing("name", "the name of the tool to call"),
        ));
    };
    if target == CALL_TOOL {
        return Err(ToolError::invalid_argument(
            CALL_TOOL,
            ArgumentError::invalid(
                "name",
                "the name of a tool of this API",
                format!("`{CALL_TOOL}` itself"),
            ),
        ));
    }
    let inner = arguments.get("arguments").cloned().unwrap_or(Value::Null);
    Ok((target, inner))
}

/// A name `call_tool` does not know is a mistake in its `name` argument, which the model
/// reads and corrects, not an unknown tool: over MCP that is a protocol error the host shows
/// to the user, if anyone.
fn unknown_as_argument(error: ToolError) -> ToolError {
    match error {
        ToolError::UnknownTool { name, suggestion } => {
            let expected = match suggestion {
                Some(close) => format!("the name of a tool of this API, such as `{close}`"),
                None => format!(
                    "the name of a tool of this API, as {SEARCH_TOOLS} or {LOAD_TOOLSET} \
                     gives it"
                ),
            };
            ToolError::invalid_argument(
                CALL_TOOL,
                ArgumentError::invalid("name", expected, format!("`{name}`")),
            )
        }
        other => other,
    }
}

/// A search or toolset answer, its note saying how a found tool is called here.
fn point_to_call_tool(mut answer: Value) -> Value {
    let how = through_call_tool();
    match answer.get_mut("note") {
        Some(Value::String(note)) => {
            note.push(' ');
            note.push_str(&how);
        }
        _ => {
            if let Some(object) = answer.as_object_mut() {
                object.insert("note".to_owned(), Value::String(how));
            }
        }
    }
    answer
}
