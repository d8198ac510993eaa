//! Read-only mode: only tools that say they are read-only are listed, and no other runs.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcs::orchestrator::{ConflictPolicy, Orchestrator, Registration};
use mcs::{Driver, Tool, ToolDriver, ToolError};
use mcs_policy::Policy;
use serde_json::json;

use common::{openai_call, process_message, process_text, repos, text_call};

fn names(tools: &[Tool]) -> Vec<&str> {
    tools.iter().map(Tool::name).collect()
}

#[tokio::test]
async fn read_only_mode_lists_read_only_tools_only() {
    let (driver, _log) = repos();
    let guarded = Policy::new().read_only().wrap(driver);
    let tools = guarded.list_tools();
    assert_eq!(names(&tools), ["list_repos", "build"]);
    // The filtered list is made once per inner listing.
    assert!(Arc::ptr_eq(&tools, &guarded.list_tools()));
    assert_eq!(guarded.tool_position("build"), Some(1));
    assert_eq!(guarded.tool_position("delete_repo"), None);
    // The prompt names only those.
    let prompt = guarded.get_driver_system_message(None);
    assert!(prompt.contains("list_repos"), "{prompt}");
    assert!(!prompt.contains("delete_repo"), "{prompt}");
    assert!(!prompt.contains("rename_repo"), "{prompt}");
}

#[tokio::test]
async fn read_only_mode_refuses_the_rest_without_running_them() {
    let (driver, log) = repos();
    let guarded = Policy::new().read_only().wrap(driver);
    for (tool, arguments) in [
        ("delete_repo", json!({"name": "mcs"})),
        ("rename_repo", json!({"name": "a", "new_name": "b"})),
        // Says it destroys nothing, but not that it only reads.
        ("comment", json!({"text": "hi"})),
    ] {
        let error = guarded
            .execute_tool(tool, arguments.clone())
            .await
            .unwrap_err();
        assert!(
            matches!(&error, ToolError::UnknownTool { name, .. } if name == tool),
            "{error:?}"
        );
        // Through the model's side the call is not this driver's: passed through.
        let response = process_text(&guarded, &text_call(tool, arguments.clone())).await;
        assert!(
            !response.call_executed && !response.call_failed,
            "{response:?}"
        );
        assert!(response.messages.is_none());
        let message = openai_call(tool, arguments);
        let response = process_message(&guarded, &message).await;
        assert!(
            !response.call_executed && !response.call_failed,
            "{response:?}"
        );
    }
    assert!(log.is_empty(), "{:?}", log.entries());
    // Read-only tools run.
    assert_eq!(
        guarded.execute_tool("list_repos", json!({})).await.unwrap(),
        json!(["mcs", "website"])
    );
    let response = process_text(&guarded, &text_call("list_repos", json!({}))).await;
    assert!(response.call_executed);
    assert_eq!(log.entries(), ["list_repos", "list_repos"]);
}

#[tokio::test]
async fn a_read_only_orchestrator_follows_registrations() {
    let orchestrator = Arc::new(Orchestrator::new("office", ConflictPolicy::Namespace));
    let (first, first_log) = repos();
    orchestrator
        .register("github", Arc::new(first), Registration::new())
        .unwrap();
    let guarded = Policy::new().read_only().wrap(Arc::clone(&orchestrator));
    let before = guarded.list_tools();
    assert!(
        names(&before)
            .iter()
            .all(|n| n.ends_with("list_repos") || n.ends_with("build"))
    );

    // A listener on the guarded driver hears of the change, and the list it reads then is
    // the new one, filtered.
    let heard = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&heard);
    assert!(guarded.watch_tools(Arc::new(move || {
        counter.fetch_add(1, Ordering::SeqCst);
    })));
    let (second, second_log) = repos();
    orchestrator
        .register("gitlab", Arc::new(second), Registration::new())
        .unwrap();
    assert!(heard.load(Ordering::SeqCst) >= 1);
    let after = guarded.list_tools();
    assert!(after.len() > before.len(), "{:?}", names(&after));
    assert!(
        names(&after).contains(&"gitlab__list_repos"),
        "{:?}",
        names(&after)
    );
    assert!(!names(&after).iter().any(|n| n.contains("delete")));

    let error = guarded
        .execute_tool("gitlab__delete_repo", json!({"name": "x"}))
        .await
        .unwrap_err();
    assert!(matches!(error, ToolError::UnknownTool { .. }), "{error:?}");
    assert!(
        guarded
            .execute_tool("gitlab__list_repos", json!({}))
            .await
            .is_ok()
    );
    assert!(first_log.is_empty());
    assert_eq!(second_log.entries(), ["list_repos"]);
}
