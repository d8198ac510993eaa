//! What the integration tests share: the example server binary, built fresh, and what any
//! MCP client must see of it.

use std::path::PathBuf;
use std::sync::OnceLock;

use serde_json::{Value, json};

/// The `mcp_server` example, built by cargo if it is missing or stale: `cargo test` builds
/// examples, but `cargo test --test round_trip` does not, and a binary left from an older
/// tree would test old code. Built with the workspace's features, as `cargo test --workspace`
/// (CI) builds it, so that in CI this finds it fresh and compiles nothing.
pub(crate) fn example_server() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let output = std::process::Command::new(env!("CARGO"))
                .args([
                    "build",
                    "--quiet",
                    "-p",
                    "mcs-mcp",
                    "--example",
                    "mcp_server",
                ])
                .output()
                .expect("cargo runs");
            assert!(
                output.status.success(),
                "building the mcp_server example failed:\n{}",
                String::from_utf8_lossy(&output.stderr)
            );
            let mut path = std::env::current_exe().expect("the test knows where it is");
            path.pop();
            if path.ends_with("deps") {
                path.pop();
            }
            let path = path
                .join("examples")
                .join(format!("mcp_server{}", std::env::consts::EXE_SUFFIX));
            assert!(path.exists(), "{} was not built", path.display());
            path
        })
        .clone()
}

/// What an MCP client must see listed by the `mcp_server` example (`tools` as the wire has
/// them): its five tools in order, `complete_task` with its title and required argument.
#[allow(dead_code)]
pub(crate) fn check_example_tools(tools: &Value) {
    let names: Vec<&str> = tools
        .as_array()
        .expect("a list of tools")
        .iter()
        .map(|tool| tool["name"].as_str().expect("a name"))
        .collect();
    assert_eq!(
        names,
        [
            "add_task",
            "list_tasks",
            "complete_task",
            "celsius_to_fahrenheit",
            "km_to_miles"
        ]
    );
    let complete = &tools[2];
    assert_eq!(complete["title"], "Complete a task");
    assert_eq!(complete["inputSchema"]["required"], json!(["id"]));
}

/// The first `add_task` with `title: Buy milk, priority: high`, as the wire has its result:
/// the task, structured.
#[allow(dead_code)]
pub(crate) fn check_task_added(result: &Value) {
    assert_eq!(result["isError"], false, "{result}");
    assert_eq!(
        result["structuredContent"],
        json!({"id": 1, "title": "Buy milk", "priority": "high", "done": false})
    );
}

/// `add_task` with `priority: urgent`: a tool error that names the values allowed and asks
/// for corrected arguments, which a model can act on.
#[allow(dead_code)]
pub(crate) fn check_wrong_priority(result: &Value) {
    assert_eq!(result["isError"], true, "{result}");
    let text = result["content"][0]["text"].as_str().expect("a text");
    assert!(
        text.contains("argument `priority`: expected one of \"low\", \"normal\", \"high\""),
        "{text}"
    );
    assert!(text.contains("Correct the arguments"), "{text}");
}
