//! Timeouts (the tool is cancelled and the model told so), concurrent calls (wait or
//! refuse) and calls per conversation.

mod common;

use std::error::Error as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcs::{DriverMeta, Tool, ToolAnnotations, ToolDriver, ToolError, ToolFuture};
use mcs_policy::{Policy, Refusal, WhenBusy};
use serde_json::{Value, json};

use common::{process_text, repos, text_call};

fn refusal(error: &ToolError) -> Option<&Refusal> {
    error.source().and_then(|s| s.downcast_ref::<Refusal>())
}

#[tokio::test(start_paused = true)]
async fn a_tool_past_its_time_is_cancelled_and_the_model_told() {
    let (driver, log) = repos();
    let guarded = Policy::new()
        .timeout(Duration::from_secs(10))
        .tool_timeout("bui*", Duration::from_secs(2))
        .wrap(driver);
    let error = guarded
        .execute_tool("build", json!({"millis": 5_000}))
        .await
        .unwrap_err();
    assert_eq!(
        refusal(&error),
        Some(&Refusal::TimedOut {
            after: Duration::from_secs(2)
        })
    );
    assert!(
        error
            .to_string()
            .contains("did not finish within 2 s and was cancelled"),
        "{error}"
    );
    // The tool's future was dropped mid-way: it never finished.
    assert_eq!(log.entries(), ["build started 5000", "build cancelled"]);

    // Within its time it finishes.
    let (driver, log) = repos();
    let guarded = Policy::new().timeout(Duration::from_secs(10)).wrap(driver);
    let result = guarded
        .execute_tool("build", json!({"millis": 5_000}))
        .await;
    assert_eq!(result.unwrap(), "built");
    assert_eq!(log.entries(), ["build started 5000", "build finished"]);
}

#[tokio::test(start_paused = true)]
async fn a_timeout_reaches_the_model_through_text_calls() {
    let (driver, _log) = repos();
    let guarded = Policy::new().timeout(Duration::from_secs(1)).wrap(driver);
    let response = process_text(&guarded, &text_call("build", json!({"millis": 3_000}))).await;
    assert!(response.call_failed, "{response:?}");
    let retry = response.retry_prompt.unwrap();
    assert!(retry.contains("did not finish within 1 s"), "{retry}");
}

/// A driver whose one tool waits until released, counting how many run at once.
struct Gate {
    meta: DriverMeta,
    tools: Arc<[Tool]>,
    running: AtomicUsize,
    most: AtomicUsize,
}

impl Gate {
    fn new() -> Self {
        Gate {
            meta: DriverMeta::new("gate", "gate", "0"),
            tools: vec![
                Tool::new("wait", "Waits a while.")
                    .with_annotations(ToolAnnotations::new().read_only(true)),
            ]
            .into(),
            running: AtomicUsize::new(0),
            most: AtomicUsize::new(0),
        }
    }
}

impl ToolDriver for Gate {
    fn meta(&self) -> &DriverMeta {
        &self.meta
    }

    fn list_tools(&self) -> Arc<[Tool]> {
        Arc::clone(&self.tools)
    }

    fn execute_tool<'a>(&'a self, _name: &'a str, _arguments: Value) -> ToolFuture<'a> {
        let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(now, Ordering::SeqCst);
        ToolFuture::new(async move {
            tokio::time::sleep(Duration::from_millis(100)).await;
            self.running.fetch_sub(1, Ordering::SeqCst);
            Ok(json!("done"))
        })
    }
}

#[tokio::test(start_paused = true)]
async fn concurrent_calls_wait_for_a_place() {
    let guarded = Policy::new()
        .max_concurrent_calls(2, WhenBusy::Wait)
        .wrap(Gate::new());
    let calls = (0..5).map(|_| guarded.execute_tool("wait", json!({})));
    let results = futures_join_all(calls).await;
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    assert_eq!(guarded.inner().most.load(Ordering::SeqCst), 2);
}

#[tokio::test(start_paused = true)]
async fn concurrent_calls_beyond_the_limit_can_be_refused() {
    let guarded = Policy::new()
        .max_concurrent_calls(2, WhenBusy::Refuse)
        .wrap(Gate::new());
    let calls = (0..3).map(|_| guarded.execute_tool("wait", json!({})));
    let results = futures_join_all(calls).await;
    let refused: Vec<&ToolError> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    assert_eq!(refused.len(), 1, "{results:?}");
    assert_eq!(refusal(refused[0]), Some(&Refusal::Busy { limit: 2 }));
    assert!(
        refused[0]
            .to_string()
            .contains("Try it again after they finish")
    );
    assert_eq!(guarded.inner().most.load(Ordering::SeqCst), 2);
    // The places are free again.
    assert!(guarded.execute_tool("wait", json!({})).await.is_ok());
}

/// Runs the futures together on this task (no `futures` crate needed).
async fn futures_join_all<F: std::future::Future>(
    futures: impl Iterator<Item = F>,
) -> Vec<F::Output> {
    let mut pending: Vec<Option<std::pin::Pin<Box<F>>>> =
        futures.map(|f| Some(Box::pin(f))).collect();
    let mut outputs: Vec<Option<F::Output>> = pending.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut done = true;
        for (slot, output) in pending.iter_mut().zip(outputs.iter_mut()) {
            if let Some(future) = slot {
                match future.as_mut().poll(cx) {
                    std::task::Poll::Ready(value) => {
                        *output = Some(value);
                        *slot = None;
                    }
                    std::task::Poll::Pending => done = false,
                }
            }
        }
        if done {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await;
    outputs.into_iter().map(Option::unwrap).collect()
}

#[tokio::test]
async fn calls_per_conversation_are_limited_and_a_new_conversation_starts_over() {
    let (driver, log) = repos();
    let guarded = Policy::new().max_calls_per_conversation(2).wrap(driver);
    assert!(guarded.execute_tool("list_repos", json!({})).await.is_ok());
    assert!(guarded.execute_tool("list_repos", json!({})).await.is_ok());
    let error = guarded
        .execute_tool("list_repos", json!({}))
        .await
        .unwrap_err();
    assert_eq!(
        refusal(&error),
        Some(&Refusal::ConversationLimit { limit: 2 })
    );
    assert!(
        error.to_string().contains("Answer with what you have"),
        "{error}"
    );
    assert_eq!(log.entries().len(), 2);
    assert_eq!(guarded.calls_in_conversation(), 2);

    // Through the model's side too.
    let response = process_text(&guarded, &text_call("list_repos", json!({}))).await;
    assert!(response.call_failed);
    assert!(
        response
            .retry_prompt
            .unwrap()
            .contains("limit of 2 tool calls")
    );

    // Another conversation on the same driver has its own count…
    let other = guarded.conversation();
    assert!(other.execute_tool("list_repos", json!({})).await.is_ok());
    assert_eq!(other.calls_in_conversation(), 1);
    assert_eq!(guarded.calls_in_conversation(), 2);
    // …and this one can start over.
    guarded.reset_conversation();
    assert!(guarded.execute_tool("list_repos", json!({})).await.is_ok());
    assert_eq!(log.entries().len(), 4);
}

#[tokio::test]
async fn declined_calls_do_not_use_up_the_conversation() {
    let (driver, log) = repos();
    let guarded = Policy::new()
        .max_calls_per_conversation(1)
        .approve_tools(["delete_repo"])
        .approver(|_: mcs_policy::ApprovalRequest| async { mcs_policy::Decision::decline("no") })
        .wrap(driver);
    assert!(
        guarded
            .execute_tool("delete_repo", json!({"name": "a"}))
            .await
            .is_err()
    );
    assert_eq!(guarded.calls_in_conversation(), 0);
    assert!(guarded.execute_tool("list_repos", json!({})).await.is_ok());
    assert_eq!(log.entries(), ["list_repos"]);
}

#[tokio::test]
async fn a_policy_without_rules_changes_nothing() {
    let (driver, log) = repos();
    let guarded = Policy::new().wrap(driver);
    assert_eq!(guarded.list_tools().len(), 7);
    assert_eq!(
        guarded.tool_position("build"),
        guarded.inner().tool_position("build")
    );
    assert_eq!(
        guarded
            .execute_tool("delete_repo", json!({"name": "a"}))
            .await
            .unwrap(),
        "deleted a"
    );
    let error = guarded.execute_tool("nope", json!({})).await.unwrap_err();
    assert!(matches!(error, ToolError::UnknownTool { .. }), "{error:?}");
    assert_eq!(log.entries(), ["delete_repo a"]);
}
