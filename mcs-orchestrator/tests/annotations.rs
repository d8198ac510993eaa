//! What a tool says it does to the world stays with it through an orchestrator: under its
//! own name, namespaced, and in discovery mode, whose own tools only read.

use std::sync::Arc;

use mcs_core::{DriverMeta, Tool, ToolAnnotations, ToolDriver, ToolFuture};
use mcs_orchestrator::{ConflictPolicy, Discovery, Orchestrator, Registration};
use serde_json::{Value, json};

struct Disk {
    meta: DriverMeta,
    tools: Arc<[Tool]>,
}

impl Disk {
    fn new() -> Self {
        Disk {
            meta: DriverMeta::new("disk", "disk", "0.0.0"),
            tools: vec![
                Tool::new("wipe", "Wipes the disk.")
                    .with_annotations(ToolAnnotations::new().destructive(true)),
                Tool::new("read", "Reads a block.")
                    .with_annotations(ToolAnnotations::new().read_only(true)),
            ]
            .into(),
        }
    }
}

impl ToolDriver for Disk {
    fn meta(&self) -> &DriverMeta {
        &self.meta
    }

    fn list_tools(&self) -> Arc<[Tool]> {
        Arc::clone(&self.tools)
    }

    fn execute_tool<'a>(&'a self, name: &'a str, _arguments: Value) -> ToolFuture<'a> {
        ToolFuture::ready(Ok(json!({ "ran": name })))
    }
}

fn annotations_of(orchestrator: &Orchestrator, name: &str) -> ToolAnnotations {
    *orchestrator
        .list_tools()
        .iter()
        .find(|tool| tool.name() == name)
        .unwrap_or_else(|| panic!("no tool `{name}`"))
        .annotations()
}

#[test]
fn annotations_survive_routing_namespacing_and_discovery() {
    for (policy, wipe) in [
        (ConflictPolicy::Reject, "wipe"),
        (ConflictPolicy::Namespace, "disk__wipe"),
    ] {
        let orchestrator = Orchestrator::new("all", policy).with_discovery(Discovery::Always);
        orchestrator
            .register("disk", Arc::new(Disk::new()), Registration::new())
            .unwrap();
        assert_eq!(
            annotations_of(&orchestrator, wipe),
            ToolAnnotations::new().destructive(true)
        );
        let prompt_tools = orchestrator.prompt_tools();
        for tool in prompt_tools.iter() {
            assert_eq!(tool.annotations().read_only, Some(true), "{}", tool.name());
        }
    }
}
