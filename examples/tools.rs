//! Plain Rust methods turned into MCS tools.
//!
//! Prints the tool list as a model would receive it, then executes a few calls, one of them
//! wrong, to show what the model is told.
//!
//! ```text
//! cargo run --example tools
//! ```

use mcs::ToolDriver;
use serde_json::{Value, json};

#[path = "common/todo.rs"]
mod todo;

use todo::Todo;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let todo = Todo::default();

    println!("== tools, as the model sees them ==");
    let listing: Vec<Value> = todo
        .list_tools()
        .iter()
        .map(|tool| json!({"name": tool.name(), "description": tool.description(), "parameters": tool.input_schema()}))
        .collect();
    println!(
        "{}",
        serde_json::to_string_pretty(&json!({ "tools": listing }))?
    );

    let calls = [
        (
            "add_task",
            json!({"title": "Water the plants", "priority": "high"}),
        ),
        ("add_task", json!({"title": "Read a book"})),
        ("complete_task", json!({"id": 2})),
        ("list_tasks", json!({"include_done": true})),
        // Wrong on purpose: a misspelt priority and an argument the tool does not have.
        (
            "add_task",
            json!({"title": "Call mum", "priority": "urgent", "due": "friday"}),
        ),
        ("complete_task", json!({"id": 99})),
        ("delete_task", json!({"id": 1})),
    ];
    for (name, arguments) in calls {
        println!("\n== {name}({arguments}) ==");
        match todo.execute_tool(name, arguments).await {
            Ok(result) => println!("{}", serde_json::to_string_pretty(&result)?),
            Err(error) => println!("error: {error}"),
        }
    }
    Ok(())
}
