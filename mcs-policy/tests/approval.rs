//! Approval: granted, declined and timed out, through native calls, text calls, provider
//! calls and an orchestrator; nothing runs before the approver has said yes.

mod common;

use std::error::Error as _;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcs::orchestrator::{ConflictPolicy, Orchestrator, Registration};
use mcs::{ToolDriver, ToolError};
use mcs_policy::{ApprovalRequest, Decision, Policy, Refusal};
use serde_json::json;

use common::{Log, openai_call, process_message, process_text, repos, text_call};

/// An approver that answers `decision` and keeps what it was asked.
fn approver(
    decision: Decision,
) -> (
    impl Fn(ApprovalRequest) -> std::future::Ready<Decision> + Send + Sync,
    Arc<Mutex<Vec<ApprovalRequest>>>,
) {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&asked);
    let approve = move |request: ApprovalRequest| {
        kept.lock().unwrap().push(request);
        std::future::ready(decision.clone())
    };
    (approve, asked)
}

fn refusal(error: &ToolError) -> &Refusal {
    error
        .source()
        .and_then(|source| source.downcast_ref::<Refusal>())
        .unwrap_or_else(|| panic!("not a refusal: {error}"))
}

#[tokio::test]
async fn approved_native_call_runs_after_the_approver_said_yes() {
    let (driver, log) = repos();
    // The approver looks at the log while it decides: the tool must not have run yet.
    let seen = log.clone();
    let policy = Policy::new()
        .approve_destructive()
        .approver(move |request: ApprovalRequest| {
            let ran_before = !seen.is_empty();
            async move {
                assert!(!ran_before, "`{}` ran before approval", request.tool.name());
                Decision::Approve
            }
        });
    let guarded = policy.wrap(driver);
    let result = guarded
        .execute_tool("delete_repo", json!({"name": "mcs"}))
        .await
        .unwrap();
    assert_eq!(result, "deleted mcs");
    assert_eq!(log.entries(), ["delete_repo mcs"]);
}

#[tokio::test]
async fn a_destructive_call_never_runs_while_approval_is_pending() {
    let (driver, log) = repos();
    let (tx, rx) = tokio::sync::oneshot::channel::<Decision>();
    let rx = Arc::new(Mutex::new(Some(rx)));
    let policy = Policy::new()
        .approve_destructive()
        .approver(move |_request: ApprovalRequest| {
            let rx = rx.lock().unwrap().take().expect("asked once");
            async move { rx.await.unwrap_or(Decision::decline("gone")) }
        });
    let guarded = policy.wrap(driver);
    let call = guarded.execute_tool("delete_repo", json!({"name": "mcs"}));
    // Building the call, and polling it while the approver has not answered, runs nothing:
    // the synchronous tool would have run inside `execute_tool` had it been called.
    let mut call = Box::pin(call);
    assert!(futures_poll_once(call.as_mut()).await.is_none());
    assert!(log.is_empty(), "ran before approval: {:?}", log.entries());
    tx.send(Decision::Approve).unwrap();
    assert_eq!(call.await.unwrap(), "deleted mcs");
    assert_eq!(log.entries(), ["delete_repo mcs"]);
}

/// Polls `future` once; its output if it was ready.
async fn futures_poll_once<F: std::future::Future + Unpin>(mut future: F) -> Option<F::Output> {
    std::future::poll_fn(|cx| {
        std::task::Poll::Ready(match std::pin::Pin::new(&mut future).poll(cx) {
            std::task::Poll::Ready(output) => Some(output),
            std::task::Poll::Pending => None,
        })
    })
    .await
}

#[tokio::test]
async fn declined_native_call_does_not_run_and_says_why() {
    let (driver, log) = repos();
    let (approve, asked) = approver(Decision::decline("that repository is in use"));
    let guarded = Policy::new()
        .approve_destructive()
        .approver(approve)
        .wrap(driver);
    let error = guarded
        .execute_tool("delete_repo", json!({"name": "mcs"}))
        .await
        .unwrap_err();
    assert!(log.is_empty(), "{:?}", log.entries());
    assert!(matches!(error, ToolError::Execution { .. }), "{error:?}");
    assert_eq!(
        refusal(&error),
        &Refusal::Declined {
            reason: "that repository is in use".to_owned()
        }
    );
    let text = error.to_string();
    assert!(
        text.contains("the user declined this call: that repository is in use"),
        "{text}"
    );
    assert!(
        text.contains("Do not retry it unless the user asks"),
        "{text}"
    );
    let asked = asked.lock().unwrap();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].tool.name(), "delete_repo");
    assert_eq!(asked[0].arguments, json!({"name": "mcs"}));
    assert_eq!(asked[0].driver, guarded.meta().id);
}

#[tokio::test(start_paused = true)]
async fn an_approver_that_does_not_answer_in_time_declines() {
    let (driver, log) = repos();
    let guarded = Policy::new()
        .approve_destructive()
        .approver(|_request: ApprovalRequest| std::future::pending::<Decision>())
        .approval_timeout(Duration::from_secs(90))
        .wrap(driver);
    let error = guarded
        .execute_tool("delete_repo", json!({"name": "mcs"}))
        .await
        .unwrap_err();
    assert!(log.is_empty());
    assert_eq!(
        refusal(&error),
        &Refusal::ApprovalTimedOut {
            after: Duration::from_secs(90)
        }
    );
    assert!(
        error.to_string().contains("none came within 90 s"),
        "{error}"
    );
}

#[tokio::test]
async fn without_an_approver_the_policy_fails_closed() {
    let (driver, log) = repos();
    let guarded = Policy::new().approve_destructive().wrap(driver);
    let error = guarded
        .execute_tool("delete_repo", json!({"name": "mcs"}))
        .await
        .unwrap_err();
    assert!(log.is_empty());
    assert_eq!(refusal(&error), &Refusal::NoApprover);
}

#[tokio::test]
async fn which_tools_need_approval() {
    let (driver, log) = repos();
    let (approve, asked) = approver(Decision::Approve);
    let guarded = Policy::new()
        .approve_destructive()
        .approve_tools(["list_*"])
        .approver(approve)
        .wrap(driver);
    for (tool, arguments) in [
        ("delete_repo", json!({"name": "a"})),
        // Says nothing: MCP reads it as destructive.
        ("rename_repo", json!({"name": "a", "new_name": "b"})),
        // Says it destroys nothing.
        ("comment", json!({"text": "hi"})),
        // Read-only, but named by a pattern.
        ("list_repos", json!({})),
    ] {
        guarded.execute_tool(tool, arguments).await.unwrap();
    }
    let asked: Vec<String> = asked
        .lock()
        .unwrap()
        .iter()
        .map(|r| r.tool.name().to_owned())
        .collect();
    assert_eq!(asked, ["delete_repo", "rename_repo", "list_repos"]);
    assert_eq!(log.entries().len(), 4);

    // The lenient reading asks about declared destruction only.
    let (driver, _log) = repos();
    let (approve, asked) = approver(Decision::Approve);
    let guarded = Policy::new()
        .approve_declared_destructive()
        .approver(approve)
        .wrap(driver);
    for (tool, arguments) in [
        ("delete_repo", json!({"name": "a"})),
        ("rename_repo", json!({"name": "a", "new_name": "b"})),
    ] {
        guarded.execute_tool(tool, arguments).await.unwrap();
    }
    assert_eq!(asked.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn approval_through_text_calls() {
    for (decision, runs) in [
        (Decision::Approve, true),
        (Decision::decline("not today"), false),
    ] {
        let (driver, log) = repos();
        let (approve, _) = approver(decision);
        let guarded = Policy::new()
            .approve_destructive()
            .approver(approve)
            .wrap(driver);
        let response = process_text(
            &guarded,
            &format!(
                "Deleting it now.\n{}",
                text_call("delete_repo", json!({"name": "mcs"}))
            ),
        )
        .await;
        if runs {
            assert!(
                response.call_executed && !response.call_failed,
                "{response:?}"
            );
            assert_eq!(response.tool_call_result, Some(json!("deleted mcs")));
            assert_eq!(log.entries(), ["delete_repo mcs"]);
        } else {
            assert!(
                response.call_failed && !response.call_executed,
                "{response:?}"
            );
            assert!(log.is_empty());
            let retry = response.retry_prompt.unwrap();
            assert!(
                retry.contains("the user declined this call: not today"),
                "{retry}"
            );
            // Nothing in the prompt around the refusal tells the model to try again.
            assert!(!retry.contains("try again"), "{retry}");
            assert!(
                retry.contains("only where its message says that can help"),
                "{retry}"
            );
            // The messages carry it to the model.
            let messages = serde_json::to_string(&response.messages).unwrap();
            assert!(
                messages.contains("the user declined this call"),
                "{messages}"
            );
        }
    }
}

#[tokio::test(start_paused = true)]
async fn approval_through_provider_native_calls() {
    for case in ["approve", "decline", "time out"] {
        let (driver, log) = repos();
        let policy = Policy::new()
            .approve_destructive()
            .approval_timeout(Duration::from_secs(5));
        let policy = match case {
            "approve" => policy.approver(|_: ApprovalRequest| async { Decision::Approve }),
            "decline" => policy.approver(|_: ApprovalRequest| async { Decision::decline("no") }),
            _ => policy.approver(|_: ApprovalRequest| std::future::pending()),
        };
        let guarded = policy.wrap(driver);
        let message = openai_call("delete_repo", json!({"name": "mcs"}));
        let response = process_message(&guarded, &message).await;
        let record = &response.executed_calls[0];
        assert_eq!(record.tool_call_id.as_deref(), Some("call_1"));
        // The reply is in OpenAI's shape: a `tool` message answering `call_1`.
        let messages = response.messages.clone().unwrap();
        let reply = messages
            .iter()
            .find(|m| m["role"] == "tool")
            .unwrap_or_else(|| panic!("no tool message: {messages:?}"));
        assert_eq!(reply["tool_call_id"], "call_1");
        match case {
            "approve" => {
                assert!(response.call_executed);
                assert_eq!(log.entries(), ["delete_repo mcs"]);
            }
            "decline" => {
                assert!(response.call_failed);
                assert!(record.error.as_deref().unwrap().contains("declined"));
                assert!(log.is_empty());
            }
            _ => {
                assert!(response.call_failed);
                assert!(record.error.as_deref().unwrap().contains("within 5 s"));
                assert!(log.is_empty());
            }
        }
    }
}

/// An orchestrator of two drivers, one of them guarded before registration.
fn office(guarded_member: bool, decision: Decision) -> (Orchestrator, Log, Log) {
    let (repos, repos_log) = repos();
    let (other, other_log) = common::repos();
    let (approve, _) = approver(decision);
    let policy = Policy::new().approve_destructive().approver(approve);
    let orchestrator = Orchestrator::new("office", ConflictPolicy::Namespace);
    if guarded_member {
        orchestrator
            .register("github", Arc::new(policy.wrap(repos)), Registration::new())
            .unwrap();
    } else {
        orchestrator
            .register("github", Arc::new(repos), Registration::new())
            .unwrap();
    }
    orchestrator
        .register("gitlab", Arc::new(other), Registration::new())
        .unwrap();
    (orchestrator, repos_log, other_log)
}

#[tokio::test]
async fn a_driver_guarded_before_registration_is_guarded_in_the_orchestrator() {
    for (decision, runs) in [(Decision::Approve, true), (Decision::decline("no"), false)] {
        let (orchestrator, github, gitlab) = office(true, decision);
        let text = text_call("github__delete_repo", json!({"name": "mcs"}));
        let response = process_text(&orchestrator, &text).await;
        assert_eq!(response.call_executed, runs, "{response:?}");
        assert_eq!(github.entries().len(), usize::from(runs));
        if !runs {
            assert!(
                response.retry_prompt.unwrap().contains("declined"),
                "the namespaced name's error says why"
            );
        }
        // The other driver is not guarded.
        let text = text_call("gitlab__delete_repo", json!({"name": "mcs"}));
        assert!(process_text(&orchestrator, &text).await.call_executed);
        assert_eq!(gitlab.entries(), ["delete_repo mcs"]);
    }
}

#[tokio::test(start_paused = true)]
async fn a_guarded_orchestrator_guards_every_driver() {
    for case in ["approve", "decline", "time out"] {
        let (orchestrator, github, gitlab) = office(false, Decision::Approve);
        let policy = Policy::new()
            .approve_destructive()
            .approval_timeout(Duration::from_millis(500));
        let policy = match case {
            "approve" => policy.approver(|_: ApprovalRequest| async { Decision::Approve }),
            "decline" => policy.approver(|_: ApprovalRequest| async { Decision::decline("no") }),
            _ => policy.approver(|_: ApprovalRequest| std::future::pending()),
        };
        let guarded = policy.wrap(orchestrator);
        let output = format!(
            "{}\n{}",
            text_call("github__delete_repo", json!({"name": "a"})),
            text_call("gitlab__delete_repo", json!({"name": "b"})),
        );
        let response = process_text(&guarded, &output).await;
        let runs = case == "approve";
        assert_eq!(response.executed_calls.len(), 2);
        assert_eq!(response.call_executed, runs, "{case}: {response:?}");
        assert_eq!(response.call_failed, !runs, "{case}: {response:?}");
        assert_eq!(github.entries().len(), usize::from(runs));
        assert_eq!(gitlab.entries().len(), usize::from(runs));
        // Natively too.
        let native = guarded
            .execute_tool("gitlab__delete_repo", json!({"name": "c"}))
            .await;
        assert_eq!(native.is_ok(), runs, "{case}: {native:?}");
    }
}
