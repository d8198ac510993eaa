//! `#[mcs::hybrid]` on a tool driver: options reach the generated `Driver`, and the driver
//! answers model output as the runtime machinery does.

use mcs::{Driver, LlmResponse, ToolDriver};
use serde_json::json;

struct Todo;

#[mcs::tool_driver(name = "todo")]
#[mcs::hybrid(prompt_file = "tests/prompts/todo.toml")]
impl Todo {
    /// Adds a task.
    #[tool]
    fn add(&self, title: String) -> String {
        format!("added {title}")
    }
}

struct Strict;

#[mcs::hybrid(
    system = "Only {driver}: {tools}",
    unknown_tools = "reject",
    compact_threshold = 0
)]
#[mcs::tool_driver(name = "strict")]
impl Strict {
    /// Pings.
    #[tool]
    fn ping(&self) -> &'static str {
        "pong"
    }
}

#[test]
fn the_prompt_file_overrides_only_what_it_names() {
    let tiny = Todo.get_driver_system_message(Some("tiny-llm-1b"));
    assert!(
        tiny.starts_with("You manage a to-do list (todo). Tools:"),
        "{tiny}"
    );
    assert!(tiny.contains(r#"Reply with {"tool": "<name>", "arguments": {...}} to use one."#));
    // Other models keep the built-in prompts.
    let claude = Todo.get_driver_system_message(Some("claude-3-5-haiku"));
    assert!(claude.contains("<tools>"), "{claude}");
}

#[test]
fn system_and_compact_threshold_options() {
    let prompt = Strict.get_driver_system_message(None);
    assert!(
        prompt.starts_with("Only strict: - ping: Pings."),
        "{prompt}"
    );
    assert!(prompt.contains("describe_tool"));
}

#[tokio::test]
async fn the_generated_driver_executes_owned_calls_and_passes_others_through() {
    let response = Todo
        .process_llm_response(LlmResponse::Text(
            r#"{"tool": "add", "arguments": {"title": "milk"}}"#,
        ))
        .await;
    assert!(response.call_executed);
    assert_eq!(response.tool_call_result, Some(json!("added milk")));

    let other = Todo
        .process_llm_response(LlmResponse::Text(r#"{"tool": "remove", "arguments": {}}"#))
        .await;
    assert!(other.is_empty());

    let rejected = Strict
        .process_llm_response(LlmResponse::Text(r#"{"tool": "pong", "arguments": {}}"#))
        .await;
    assert!(rejected.call_failed);
}

#[tokio::test]
async fn compact_mode_answers_describe_tool() {
    let response = Strict
        .process_llm_response(LlmResponse::Text(
            r#"{"tool": "describe_tool", "arguments": {"name": "ping"}}"#,
        ))
        .await;
    assert!(response.call_executed, "{response:?}");
    assert_eq!(response.tool_call_result.unwrap()["name"], "ping");
}

#[test]
fn meta_and_listing_are_the_tool_drivers() {
    // One `meta`, the tool driver's: a hybrid needs no disambiguation, and a `dyn Driver`
    // is a `dyn ToolDriver`.
    assert_eq!(Todo.meta(), ToolDriver::meta(&Todo));
    let driver: &dyn Driver = &Todo;
    let tools: &dyn ToolDriver = driver;
    assert_eq!(tools.meta().name, Todo.meta().name);
    let listing: serde_json::Value =
        serde_json::from_str(&Todo.get_function_description(None)).unwrap();
    assert_eq!(listing["tools"][0]["name"], "add");
}
