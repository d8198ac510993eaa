//! The Orchestrator: every conflict policy, nesting three levels deep, pass-through, mixed
//! calls in one output, drivers added and removed while calls run, and the same outputs
//! through a driver and through an orchestrator over it.

use std::sync::Arc;

use mcs::orchestrator::{
    ConflictPolicy, Orchestrator, OrchestratorError, Registration, SWITCH_TOOL,
};
use mcs::{
    Driver, DriverMeta, LlmResponse, Tool, ToolDriver, ToolError, ToolFuture, ToolParameter,
};
use serde_json::{Value, json};

struct Crm;

#[mcs::tool_driver(name = "crm")]
impl Crm {
    /// Lists the contacts of the CRM.
    #[tool]
    fn list_contacts(&self) -> Vec<&'static str> {
        vec!["Ada", "Grace"]
    }

    /// One contact by id.
    #[tool]
    fn get_contact(&self, id: u32) -> Result<String, String> {
        match id {
            1 => Ok("Ada".to_owned()),
            _ => Err(format!("no contact {id}")),
        }
    }
}

struct Erp;

#[mcs::tool_driver(name = "erp")]
impl Erp {
    /// Lists the contacts of the ERP (suppliers and customers).
    #[tool]
    fn list_contacts(&self) -> Vec<&'static str> {
        vec!["ACME"]
    }

    /// Creates an invoice.
    #[tool]
    fn create_invoice(&self, amount: f64) -> Value {
        json!({ "invoice": 7, "amount": amount })
    }
}

/// A driver that has `lookup` but declines (or does not know) some calls, for the
/// priority policy.
struct Lookup {
    meta: DriverMeta,
    tools: Arc<[Tool]>,
    answer: Result<&'static str, &'static str>,
}

impl Lookup {
    fn new(id: &str, answer: Result<&'static str, &'static str>) -> Self {
        let tool = Tool::new("lookup", "Looks a word up.")
            .with_parameter(ToolParameter::new("word", "The word."));
        Lookup {
            meta: DriverMeta::new(id, id, "1"),
            tools: Arc::from(vec![tool]),
            answer,
        }
    }
}

impl ToolDriver for Lookup {
    fn meta(&self) -> &DriverMeta {
        &self.meta
    }

    fn list_tools(&self) -> Arc<[Tool]> {
        Arc::clone(&self.tools)
    }

    fn execute_tool<'a>(&'a self, name: &'a str, _arguments: Value) -> ToolFuture<'a> {
        ToolFuture::ready(match self.answer {
            Ok(text) => Ok(json!(text)),
            Err("unknown") => Err(ToolError::unknown_tool(name)),
            Err(reason) => Err(ToolError::rejected(name, reason)),
        })
    }
}

fn names(driver: &dyn ToolDriver) -> Vec<String> {
    driver
        .list_tools()
        .iter()
        .map(|t| t.name().to_owned())
        .collect()
}

fn namespaced() -> Orchestrator {
    let orchestrator = Orchestrator::new("office", ConflictPolicy::Namespace);
    orchestrator
        .register("crm", Arc::new(Crm), Registration::new())
        .expect("crm");
    orchestrator
        .register("erp", Arc::new(Erp), Registration::new())
        .expect("erp");
    orchestrator
}

#[tokio::test]
async fn namespacing_lists_every_tool_under_its_label_and_maps_names_back() {
    let orchestrator = namespaced();
    assert_eq!(
        names(&orchestrator),
        [
            "crm__list_contacts",
            "crm__get_contact",
            "erp__list_contacts",
            "erp__create_invoice"
        ]
    );
    let tools = orchestrator.list_tools();
    assert!(
        tools[2]
            .description()
            .starts_with("[erp] Lists the contacts of the ERP")
    );

    let erp = orchestrator
        .execute_tool("erp__list_contacts", json!({}))
        .await;
    assert_eq!(erp.ok(), Some(json!(["ACME"])));
    let error = orchestrator
        .execute_tool("crm__get_contact", json!({ "id": 9 }))
        .await
        .expect_err("no contact 9");
    assert_eq!(error.tool(), "crm__get_contact");
    assert!(error.to_string().contains("no contact 9"), "{error}");
    let unknown = orchestrator.execute_tool("list_contacts", json!({})).await;
    assert!(matches!(unknown, Err(ToolError::UnknownTool { .. })));
}

#[tokio::test]
async fn namespaced_names_stay_within_64_characters_and_distinct() {
    struct Long;
    #[mcs::tool_driver]
    impl Long {
        /// One.
        #[tool(name = "a_very_long_tool_name_that_fills_almost_all_of_the_64_chars_1")]
        fn one(&self) -> u8 {
            1
        }
        /// Two.
        #[tool(name = "a_very_long_tool_name_that_fills_almost_all_of_the_64_chars_2")]
        fn two(&self) -> u8 {
            2
        }
    }
    let orchestrator = Orchestrator::new("o", ConflictPolicy::Namespace);
    orchestrator
        .register("long-label", Arc::new(Long), Registration::new())
        .expect("registered");
    let listed = names(&orchestrator);
    assert!(listed.iter().all(|n| n.len() <= 64), "{listed:?}");
    assert_ne!(listed[0], listed[1]);
    assert_eq!(
        orchestrator.execute_tool(&listed[1], json!({})).await.ok(),
        Some(json!(2))
    );
    assert_eq!(
        orchestrator.register("not_valid", Arc::new(Crm), Registration::new()),
        Err(OrchestratorError::InvalidLabel("not_valid".to_owned()))
    );
}

#[tokio::test]
async fn calls_for_several_drivers_in_one_output_each_go_to_their_owner() {
    let orchestrator = namespaced();
    let output = "<tool_call>{\"name\": \"crm__get_contact\", \"arguments\": {\"id\": 1}}</tool_call>\n\
                  <tool_call>{\"name\": \"erp__create_invoice\", \"arguments\": {\"amount\": 12.5}}</tool_call>";
    let reply = orchestrator
        .process_llm_response(LlmResponse::Text(output))
        .await;
    assert!(reply.call_executed && !reply.call_failed, "{reply:?}");
    let results: Vec<Option<Value>> = reply
        .executed_calls
        .iter()
        .map(|c| c.result.clone())
        .collect();
    assert_eq!(
        results,
        [
            Some(json!("Ada")),
            Some(json!({ "invoice": 7, "amount": 12.5 }))
        ]
    );
}

/// A conversation with several drivers is a conversation with an orchestrator over them: one
/// answer that calls tools of two drivers runs both, and the model sees both results.
#[tokio::test]
async fn a_conversation_over_several_drivers_runs_every_call_of_an_answer() {
    use mcs::llm::{Conversation, ScriptedClient, StopReason};

    let orchestrator = namespaced();
    let client = ScriptedClient::from_texts([
        "<tool_call>{\"name\": \"crm__get_contact\", \"arguments\": {\"id\": 1}}</tool_call>\n\
         <tool_call>{\"name\": \"erp__create_invoice\", \"arguments\": {\"amount\": 12.5}}</tool_call>",
        "Ada is invoiced.",
    ]);
    let conversation = Conversation::new(&orchestrator);
    let opening = conversation.opening(None, "Invoice Ada for 12.50");
    let transcript = conversation.run(&client, opening).await.unwrap();
    assert_eq!(transcript.stop, StopReason::Answered);
    assert_eq!(transcript.answer.as_deref(), Some("Ada is invoiced."));
    let results: Vec<Option<Value>> = transcript
        .tool_calls
        .iter()
        .map(|call| call.result.clone())
        .collect();
    assert_eq!(
        results,
        [
            Some(json!("Ada")),
            Some(json!({ "invoice": 7, "amount": 12.5 }))
        ]
    );
}

#[tokio::test]
async fn a_call_no_driver_owns_passes_through() {
    let orchestrator = namespaced();
    for output in [
        "The answer is 42.",
        r#"{"tool": "send_mail", "arguments": {"to": "ada@example.com"}}"#,
    ] {
        let reply = orchestrator
            .process_llm_response(LlmResponse::Text(output))
            .await;
        assert!(reply.is_empty(), "{output}: {reply:?}");
    }
}

#[tokio::test]
async fn priority_tries_drivers_in_order_and_moves_on_when_one_declines() {
    let orchestrator = Orchestrator::new("words", ConflictPolicy::Priority);
    orchestrator
        .register(
            "fallback",
            Arc::new(Lookup::new("fallback", Ok("from fallback"))),
            Registration::new().priority(0),
        )
        .expect("fallback");
    orchestrator
        .register(
            "premium",
            Arc::new(Lookup::new("premium", Err("quota used up"))),
            Registration::new().priority(10),
        )
        .expect("premium");
    orchestrator
        .register(
            "stale",
            Arc::new(Lookup::new("stale", Err("unknown"))),
            Registration::new().priority(5),
        )
        .expect("stale");
    assert_eq!(orchestrator.labels(), ["premium", "stale", "fallback"]);
    assert_eq!(names(&orchestrator), ["lookup"]);
    let answer = orchestrator
        .execute_tool("lookup", json!({ "word": "x" }))
        .await;
    assert_eq!(answer.ok(), Some(json!("from fallback")));

    // The first driver that answers wins; the others are not asked.
    orchestrator
        .register(
            "best",
            Arc::new(Lookup::new("best", Ok("from best"))),
            Registration::new().priority(20),
        )
        .expect("best");
    let answer = orchestrator
        .execute_tool("lookup", json!({ "word": "x" }))
        .await;
    assert_eq!(answer.ok(), Some(json!("from best")));

    // When every driver declines, the last one's answer is the error.
    let declining = Orchestrator::new("words", ConflictPolicy::Priority);
    declining
        .register(
            "a",
            Arc::new(Lookup::new("a", Err("closed"))),
            Registration::new(),
        )
        .expect("a");
    let error = declining
        .execute_tool("lookup", json!({ "word": "x" }))
        .await;
    assert!(
        matches!(error, Err(ToolError::Rejected { .. })),
        "{error:?}"
    );
}

#[tokio::test]
async fn reject_refuses_a_clashing_registration_and_names_both_drivers() {
    let orchestrator = Orchestrator::new("office", ConflictPolicy::Reject);
    orchestrator
        .register("crm", Arc::new(Crm), Registration::new())
        .expect("crm");
    let clash = orchestrator.register("erp", Arc::new(Erp), Registration::new());
    assert_eq!(
        clash,
        Err(OrchestratorError::Conflict {
            tool: "list_contacts".to_owned(),
            first: "crm".to_owned(),
            second: "erp".to_owned(),
        })
    );
    assert_eq!(orchestrator.labels(), ["crm"]);
    assert_eq!(
        orchestrator.register(
            "crm",
            Arc::new(Lookup::new("x", Ok("x"))),
            Registration::new()
        ),
        Err(OrchestratorError::DuplicateLabel("crm".to_owned()))
    );
    let message = clash.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(
        message.contains("`crm`") && message.contains("`erp`"),
        "{message}"
    );
}

#[tokio::test]
async fn active_target_shows_and_runs_only_the_active_drivers_tools() {
    let orchestrator =
        Orchestrator::new("office", ConflictPolicy::ActiveTarget { switch_tool: true });
    orchestrator
        .register("crm", Arc::new(Crm), Registration::new())
        .expect("crm");
    orchestrator
        .register("erp", Arc::new(Erp), Registration::new())
        .expect("erp");
    assert_eq!(orchestrator.active().as_deref(), Some("crm"));
    assert_eq!(
        names(&orchestrator),
        ["list_contacts", "get_contact", SWITCH_TOOL]
    );

    // An ERP tool is not this orchestrator's while the CRM is active: pass-through.
    let invoice = r#"{"tool": "create_invoice", "arguments": {"amount": 3}}"#;
    assert!(
        orchestrator
            .process_llm_response(LlmResponse::Text(invoice))
            .await
            .is_empty()
    );
    let contacts = orchestrator.execute_tool("list_contacts", json!({})).await;
    assert_eq!(contacts.ok(), Some(json!(["Ada", "Grace"])));

    // The model switches.
    let switch = r#"{"tool": "switch_target", "arguments": {"target": "erp"}}"#;
    let reply = orchestrator
        .process_llm_response(LlmResponse::Text(switch))
        .await;
    assert!(reply.call_executed, "{reply:?}");
    assert_eq!(orchestrator.active().as_deref(), Some("erp"));
    assert_eq!(
        names(&orchestrator),
        ["list_contacts", "create_invoice", SWITCH_TOOL]
    );
    let contacts = orchestrator.execute_tool("list_contacts", json!({})).await;
    assert_eq!(contacts.ok(), Some(json!(["ACME"])));
    assert!(
        orchestrator
            .process_llm_response(LlmResponse::Text(invoice))
            .await
            .call_executed
    );

    // A target that does not exist is refused before anything changes.
    let wrong = r#"{"tool": "switch_target", "arguments": {"target": "hr"}}"#;
    let reply = orchestrator
        .process_llm_response(LlmResponse::Text(wrong))
        .await;
    assert!(reply.call_failed, "{reply:?}");
    assert_eq!(orchestrator.active().as_deref(), Some("erp"));
    assert_eq!(
        Orchestrator::new("x", ConflictPolicy::Namespace).set_active("crm"),
        Err(OrchestratorError::NoActiveTarget)
    );
}

#[tokio::test]
async fn orchestrators_nest_three_levels_deep() {
    let rest = Orchestrator::new("rest", ConflictPolicy::Namespace);
    rest.register("crm", Arc::new(Crm), Registration::new())
        .expect("crm");
    rest.register("erp", Arc::new(Erp), Registration::new())
        .expect("erp");
    let words = Orchestrator::new("words", ConflictPolicy::Priority);
    words
        .register(
            "dict",
            Arc::new(Lookup::new("dict", Ok("a word"))),
            Registration::new(),
        )
        .expect("dict");
    let domain = Orchestrator::new("finance", ConflictPolicy::Namespace);
    domain
        .register("rest", Arc::new(rest), Registration::new())
        .expect("rest");
    domain
        .register("words", Arc::new(words), Registration::new())
        .expect("words");

    assert_eq!(
        names(&domain),
        [
            "rest__crm__list_contacts",
            "rest__crm__get_contact",
            "rest__erp__list_contacts",
            "rest__erp__create_invoice",
            "words__lookup",
        ]
    );
    let output = "<tool_call>{\"name\": \"rest__erp__create_invoice\", \"arguments\": {\"amount\": 1}}</tool_call>\
                  <tool_call>{\"name\": \"words__lookup\", \"arguments\": {\"word\": \"w\"}}</tool_call>";
    let reply = domain.process_llm_response(LlmResponse::Text(output)).await;
    assert!(reply.call_executed && !reply.call_failed, "{reply:?}");
    assert_eq!(reply.executed_calls.len(), 2);
    assert_eq!(reply.executed_calls[1].result, Some(json!("a word")));
    // Argument errors from the innermost driver reach the model under the outer name.
    let bad = r#"{"tool": "rest__crm__get_contact", "arguments": {"id": "one"}}"#;
    let reply = domain.process_llm_response(LlmResponse::Text(bad)).await;
    assert!(reply.call_failed);
    assert!(reply.retry_prompt.unwrap_or_default().contains("`id`"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drivers_are_added_and_removed_while_calls_run() {
    let orchestrator = Arc::new(namespaced());
    let callers: Vec<_> = (0..4)
        .map(|_| {
            let orchestrator = Arc::clone(&orchestrator);
            tokio::spawn(async move {
                for _ in 0..200 {
                    let result = orchestrator
                        .execute_tool("crm__list_contacts", json!({}))
                        .await;
                    assert_eq!(result.ok(), Some(json!(["Ada", "Grace"])));
                    tokio::task::yield_now().await;
                }
            })
        })
        .collect();
    for round in 0..50 {
        let label = format!("extra-{}", round % 3);
        let _ = orchestrator.register(
            label.clone(),
            Arc::new(Lookup::new(&label, Ok("x"))),
            Registration::new(),
        );
        assert!(names(orchestrator.as_ref()).contains(&format!("{label}__lookup")));
        assert!(orchestrator.remove(&label));
        tokio::task::yield_now().await;
    }
    for caller in callers {
        caller.await.expect("caller finished");
    }
    assert_eq!(orchestrator.labels(), ["crm", "erp"]);
    assert!(!orchestrator.remove("extra-0"));
}

#[tokio::test]
async fn the_same_outputs_give_the_same_responses_directly_and_through_an_orchestrator() {
    let direct = mcs::hybrid::Hybrid::new(Crm);
    let orchestrator = Orchestrator::new("crm", ConflictPolicy::Reject);
    orchestrator
        .register("crm", Arc::new(Crm), Registration::new())
        .expect("crm");
    for output in [
        "No tool needed.",
        r#"{"tool": "get_contact", "arguments": {"id": 1}}"#,
        r#"{"tool": "get_contact", "arguments": {"id": "x"}}"#,
        r#"{"tool": "get_contact", "arguments": {"id": 2}}"#,
        r#"<tool_call>{"name": "get_contact", "arguments": {"id": 1}</tool_call>"#,
        r#"{"tool": "unknown_tool", "arguments": {}}"#,
        "<tool_call>{\"name\": \"list_contacts\", \"arguments\": {}}</tool_call><tool_call>{\"name\": \"get_contact\", \"arguments\": {\"id\": 1}}</tool_call>",
    ] {
        let one = direct.process_llm_response(LlmResponse::Text(output)).await;
        let other = orchestrator
            .process_llm_response(LlmResponse::Text(output))
            .await;
        assert_eq!(one.call_executed, other.call_executed, "{output}");
        assert_eq!(one.call_failed, other.call_failed, "{output}");
        assert_eq!(one.tool_call_result, other.tool_call_result, "{output}");
        assert_eq!(one.executed_calls, other.executed_calls, "{output}");
        assert_eq!(one.messages, other.messages, "{output}");
    }
}

#[test]
fn the_prompt_lists_every_tool_once_and_is_rendered_once_per_change() {
    let orchestrator = namespaced();
    let prompt = orchestrator.get_driver_system_message(Some("qwen2.5-7b"));
    assert!(prompt.contains("erp__create_invoice") && prompt.contains("crm__get_contact"));
    assert_eq!(
        prompt,
        orchestrator.get_driver_system_message(Some("qwen2.5-7b"))
    );
    orchestrator
        .register(
            "words",
            Arc::new(Lookup::new("w", Ok("x"))),
            Registration::new(),
        )
        .expect("words");
    assert!(
        orchestrator
            .get_driver_system_message(Some("qwen2.5-7b"))
            .contains("words__lookup")
    );
}

#[test]
fn listeners_hear_every_change_of_the_tools_and_nothing_else() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let heard = Arc::new(AtomicUsize::new(0));
    let orchestrator = Orchestrator::new(
        "office",
        ConflictPolicy::ActiveTarget { switch_tool: false },
    );
    let counter = Arc::clone(&heard);
    orchestrator.watch_tools(Arc::new(move || {
        counter.fetch_add(1, Ordering::SeqCst);
    }));
    let count = || heard.load(Ordering::SeqCst);
    orchestrator
        .register("crm", Arc::new(Crm), Registration::new())
        .unwrap();
    assert_eq!(count(), 1);
    orchestrator
        .register("erp", Arc::new(Erp), Registration::new())
        .unwrap();
    assert_eq!(count(), 2);
    // Refused changes change nothing and are not announced.
    assert!(
        orchestrator
            .register("erp", Arc::new(Erp), Registration::new())
            .is_err()
    );
    assert!(!orchestrator.remove("nobody"));
    assert!(orchestrator.set_active("nobody").is_err());
    assert_eq!(count(), 2);
    orchestrator.set_active("erp").unwrap();
    assert_eq!(count(), 3);
    assert!(orchestrator.remove("crm"));
    assert_eq!(count(), 4);
}

#[tokio::test]
async fn a_change_inside_a_nested_orchestrator_reaches_the_top() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let inner = Arc::new(Orchestrator::new("rest", ConflictPolicy::Namespace));
    inner
        .register("crm", Arc::new(Crm), Registration::new())
        .unwrap();
    let middle = Arc::new(Orchestrator::new("office", ConflictPolicy::Namespace));
    middle
        .register("rest", Arc::clone(&inner) as _, Registration::new())
        .unwrap();
    let top = Orchestrator::new("top", ConflictPolicy::Reject);
    top.register("office", Arc::clone(&middle) as _, Registration::new())
        .unwrap();
    let heard = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&heard);
    top.watch_tools(Arc::new(move || {
        counter.fetch_add(1, Ordering::SeqCst);
    }));
    assert_eq!(names(&top).len(), 2);
    let prompt_before = top.get_driver_system_message(None);

    // Two levels down, a driver comes: the top hears of it at once and lists it.
    inner
        .register("erp", Arc::new(Erp), Registration::new())
        .unwrap();
    assert_eq!(heard.load(Ordering::SeqCst), 1);
    assert!(
        names(&top).contains(&"rest__erp__create_invoice".to_owned()),
        "{:?}",
        names(&top)
    );
    assert_ne!(top.get_driver_system_message(None), prompt_before);
    let output = r#"{"tool": "rest__erp__create_invoice", "arguments": {"amount": 3}}"#;
    let reply = top.process_llm_response(LlmResponse::Text(output)).await;
    assert!(reply.call_executed && !reply.call_failed, "{reply:?}");
    assert_eq!(
        reply.executed_calls[0].result,
        Some(json!({ "invoice": 7, "amount": 3.0 }))
    );

    // And goes: the top stops listing it, and a call for it is not the top's any more.
    assert!(inner.remove("erp"));
    assert_eq!(heard.load(Ordering::SeqCst), 2);
    assert_eq!(names(&top).len(), 2);
    let reply = top.process_llm_response(LlmResponse::Text(output)).await;
    assert!(!reply.call_executed, "{reply:?}");
}

#[test]
fn a_nested_change_that_breaks_the_policy_leaves_the_listing_and_refresh_says_why() {
    let inner = Arc::new(Orchestrator::new("inner", ConflictPolicy::Reject));
    inner
        .register("crm", Arc::new(Crm), Registration::new())
        .unwrap();
    let top = Orchestrator::new("top", ConflictPolicy::Reject);
    top.register("inner", Arc::clone(&inner) as _, Registration::new())
        .unwrap();
    top.register(
        "lookup",
        Arc::new(Lookup::new("dict", Ok("a word"))),
        Registration::new(),
    )
    .unwrap();
    let before = names(&top);

    // The inner orchestrator takes a driver whose `lookup` clashes with the top's other one.
    let words = Lookup::new("words", Ok("w"));
    inner
        .register("words", Arc::new(words), Registration::new())
        .unwrap();
    assert_eq!(names(&top), before, "the old listing stays");
    match top.refresh() {
        Err(OrchestratorError::Conflict { tool, .. }) => assert_eq!(tool, "lookup"),
        other => panic!("expected the clash, got {other:?}"),
    }
    // Once the clash is gone, the listing follows again.
    assert!(inner.remove("words"));
    assert_eq!(names(&top), before);
    assert!(top.refresh().is_ok());
}

#[test]
fn a_refused_registration_does_not_lose_a_nested_change_not_yet_read() {
    let inner = Arc::new(Orchestrator::new("inner", ConflictPolicy::Namespace));
    inner
        .register("crm", Arc::new(Crm), Registration::new())
        .unwrap();
    let top = Orchestrator::new("top", ConflictPolicy::Namespace);
    top.register("inner", Arc::clone(&inner) as _, Registration::new())
        .unwrap();
    assert_eq!(names(&top).len(), 2);
    // The inner change is announced; nobody reads the top before the refused registration.
    inner
        .register("erp", Arc::new(Erp), Registration::new())
        .unwrap();
    assert!(matches!(
        top.register("inner", Arc::new(Crm), Registration::new()),
        Err(OrchestratorError::DuplicateLabel(_))
    ));
    assert_eq!(names(&top).len(), 4, "{:?}", names(&top));
}
