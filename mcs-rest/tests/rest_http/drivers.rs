//! Validation before anything is sent, and the driver as a `dyn ToolDriver` and as a
//! `Driver` answering a model's text.

use std::sync::Arc;

use mcs_core::{Driver, LlmResponse};

use super::*;

fn pets_op() -> Operation {
    Op::get("list_pets", "/pets")
        .param(query_param("limit"))
        .param(query_param("species"))
        .schema(
            json!({
                "limit": {"type": "integer", "minimum": 1},
                "species": {"type": "string", "enum": ["cat", "dog"]},
            }),
            &["species"],
        )
        .build()
}

#[tokio::test]
async fn invalid_calls_are_refused_by_name_and_nothing_is_sent() {
    let server = ok_server().await;
    let driver = driver(vec![pets_op()], &server);

    let (argument, kind) = single_problem(
        call(
            &driver,
            "list_pets",
            json!({"species": "cat", "limit": "ten"}),
        )
        .await,
    );
    assert_eq!(argument, "limit");
    assert!(
        matches!(kind, ArgumentErrorKind::Invalid { .. }),
        "{kind:?}"
    );

    let (argument, kind) = single_problem(call(&driver, "list_pets", json!({"limit": 3})).await);
    assert_eq!(argument, "species");
    assert!(
        matches!(kind, ArgumentErrorKind::Missing { .. }),
        "{kind:?}"
    );

    let (argument, kind) =
        single_problem(call(&driver, "list_pets", json!({"species": "cow"})).await);
    assert_eq!(argument, "species");
    assert!(
        matches!(kind, ArgumentErrorKind::Invalid { .. }),
        "{kind:?}"
    );

    let result = call(&driver, "list_pets", json!({"species": "cat", "limt": 3})).await;
    let (argument, kind) = single_problem(result);
    assert_eq!(argument, "limt");
    match kind {
        ArgumentErrorKind::Unknown { suggestion, .. } => {
            assert_eq!(suggestion.as_deref(), Some("limit"));
        }
        other => panic!("expected an unknown argument, got {other:?}"),
    }

    // Every problem at once.
    let result = call(&driver, "list_pets", json!({"limit": 0, "colour": "red"})).await;
    let mut names: Vec<String> = problems(result).into_iter().map(|p| p.argument).collect();
    names.sort();
    assert_eq!(names, ["colour", "limit", "species"]);

    let (argument, _) = single_problem(call(&driver, "list_pets", json!(["cat"])).await);
    assert_eq!(argument, "");

    let error = call(&driver, "list_cats", json!({}))
        .await
        .expect_err("unknown");
    assert!(matches!(error, ToolError::UnknownTool { .. }), "{error:?}");

    assert!(received(&server).await.is_empty());
    call(&driver, "list_pets", json!({"species": "dog", "limit": 2}))
        .await
        .expect("a valid call is sent");
    assert_eq!(
        target(&only_request(&server).await),
        "/pets?limit=2&species=dog"
    );
}

#[tokio::test]
async fn a_shared_dyn_tool_driver_lists_and_executes() {
    let server = ok_server().await;
    let shared: Arc<dyn ToolDriver> = Arc::new(driver(vec![pets_op()], &server));
    let names: Vec<String> = shared
        .list_tools()
        .iter()
        .map(|t| t.name().to_owned())
        .collect();
    assert_eq!(names, ["list_pets"]);
    let handles: Vec<_> = ["cat", "dog"]
        .into_iter()
        .map(|species| {
            let shared = Arc::clone(&shared);
            tokio::spawn(async move {
                shared
                    .execute_tool("list_pets", json!({"species": species}))
                    .await
            })
        })
        .collect();
    for handle in handles {
        assert_eq!(
            handle.await.expect("joined").expect("ok"),
            json!({"ok": true})
        );
    }
    let mut targets: Vec<String> = received(&server).await.iter().map(target).collect();
    targets.sort();
    assert_eq!(targets, ["/pets?species=cat", "/pets?species=dog"]);
}

#[tokio::test]
async fn a_text_tool_call_is_executed_through_the_driver() {
    let server = server_answering(
        ResponseTemplate::new(200).set_body_json(json!([{"name": "Tom", "species": "cat"}])),
    )
    .await;
    let driver = driver(vec![pets_op()], &server);
    let output = r#"{"tool": "list_pets", "arguments": {"species": "cat", "limit": 1}}"#;
    let response = driver.process_llm_response(LlmResponse::Text(output)).await;
    assert!(response.call_executed, "{response:?}");
    assert!(!response.call_failed, "{response:?}");
    assert_eq!(
        response.tool_call_result,
        Some(json!([{"name": "Tom", "species": "cat"}]))
    );
    assert!(response.messages.is_some_and(|m| m.len() == 2));
    assert_eq!(
        target(&only_request(&server).await),
        "/pets?limit=1&species=cat"
    );
}

#[tokio::test]
async fn a_bad_text_tool_call_asks_the_model_to_retry_and_sends_nothing() {
    let server = ok_server().await;
    let driver = driver(vec![pets_op()], &server);
    let output = r#"{"tool": "list_pets", "arguments": {"species": "cow"}}"#;
    let response = driver.process_llm_response(LlmResponse::Text(output)).await;
    assert!(response.call_failed, "{response:?}");
    assert!(!response.call_executed, "{response:?}");
    let retry = response.retry_prompt.expect("a retry prompt");
    assert!(retry.contains("species"), "{retry}");
    assert!(retry.contains("cow"), "{retry}");
    assert!(retry.contains("Correct the call and try again"), "{retry}");
    assert!(received(&server).await.is_empty());
}

#[tokio::test]
async fn an_error_status_reaches_the_model_as_a_retry_prompt() {
    let server = server_answering(
        ResponseTemplate::new(422).set_body_json(json!({"detail": "limit too high"})),
    )
    .await;
    let driver = driver(vec![pets_op()], &server);
    let output = r#"{"tool": "list_pets", "arguments": {"species": "dog", "limit": 500}}"#;
    let response = driver.process_llm_response(LlmResponse::Text(output)).await;
    assert!(response.call_failed, "{response:?}");
    let retry = response.retry_prompt.expect("a retry prompt");
    assert!(retry.contains("422"), "{retry}");
    assert!(retry.contains("limit too high"), "{retry}");
    assert_eq!(received(&server).await.len(), 1);
}

#[tokio::test]
async fn a_call_for_another_driver_passes_through() {
    let server = ok_server().await;
    let driver = driver(vec![pets_op()], &server);
    let output = r#"{"tool": "get_weather", "arguments": {"city": "Oslo"}}"#;
    let response = driver.process_llm_response(LlmResponse::Text(output)).await;
    assert!(response.is_empty(), "{response:?}");
    assert!(received(&server).await.is_empty());
}
