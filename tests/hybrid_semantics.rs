//! The semantics every driver response must keep (DESIGN.md §1), pinned one by one on a
//! hybrid driver, in text mode and in each provider's native shape.

use mcs::hybrid::{Hybrid, HybridOptions, UnknownToolPolicy};
use mcs::{Driver, DriverResponse, LlmResponse, ToolError};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Units {
    Metric,
    Imperial,
}

struct Weather;

#[mcs::tool_driver(name = "weather")]
impl Weather {
    /// Current weather in a city.
    #[tool]
    fn get_weather(&self, city: String, units: Option<Units>) -> Value {
        let unit = match units {
            Some(Units::Imperial) => "F",
            _ => "C",
        };
        json!({"city": city, "temp": 21, "unit": unit})
    }

    /// Fails for an unknown city.
    #[tool]
    fn get_forecast(&self, city: String, days: u8) -> Result<Vec<u8>, ToolError> {
        if city == "Atlantis" {
            return Err(ToolError::execution(
                "get_forecast",
                "no forecast for Atlantis",
            ));
        }
        Ok(vec![20; usize::from(days)])
    }
}

fn driver() -> Hybrid<Weather> {
    Hybrid::new(Weather)
}

async fn process(text: &str) -> DriverResponse {
    driver().process_llm_response(LlmResponse::Text(text)).await
}

async fn process_native(message: Value) -> DriverResponse {
    driver()
        .process_llm_response(LlmResponse::Message(&message))
        .await
}

// 1. No tool call → empty response.
#[tokio::test]
async fn plain_answers_give_the_empty_response() {
    for text in [
        "The weather in Paris is sunny.",
        "Here is some JSON: {\"city\": \"Paris\", \"temp\": 21}",
        "You could call get_weather with a city name.",
        "",
    ] {
        let response = process(text).await;
        assert!(response.is_empty(), "{text:?} → {response:?}");
        assert_eq!(response.messages, None);
    }
}

// 2. A call for a tool this driver does not own → empty response (pass-through).
#[tokio::test]
async fn calls_for_other_tools_pass_through() {
    let response = process(r#"{"tool": "send_email", "arguments": {"to": "a@b.c"}}"#).await;
    assert!(response.is_empty(), "{response:?}");

    let strict = Hybrid::new(Weather)
        .with_options(HybridOptions::default().with_unknown_tools(UnknownToolPolicy::Reject));
    let rejected = strict
        .process_llm_response(LlmResponse::Text(
            r#"{"tool": "get_wether", "arguments": {"city": "Paris"}}"#,
        ))
        .await;
    assert!(rejected.call_failed);
    assert!(
        rejected
            .retry_prompt
            .unwrap()
            .contains("did you mean `get_weather`")
    );
}

// 3. Recognisable but unparseable, invalid, or failing → call_failed with a retry prompt.
#[tokio::test]
async fn unreadable_calls_fail_with_a_hint_that_shows_the_format() {
    let response =
        process(r#"<tool_call>{"name": "get_weather", "arguments": {"city": </tool_call>"#).await;
    assert!(
        response.call_failed && !response.call_executed,
        "{response:?}"
    );
    let retry = response.retry_prompt.clone().unwrap();
    assert!(
        retry.contains(r#"{"tool": "<name>", "arguments": {...}}"#),
        "{retry}"
    );
    let messages = response.messages.unwrap();
    assert_eq!(messages[0]["role"], "assistant");
    assert!(
        messages[1]["content"].as_str().unwrap().contains(&retry),
        "the messages carry the hint"
    );
}

#[tokio::test]
async fn invalid_arguments_fail_naming_the_argument_and_the_type() {
    let response =
        process(r#"{"tool": "get_forecast", "arguments": {"city": "Oslo", "days": "three"}}"#)
            .await;
    assert!(response.call_failed && !response.call_executed);
    let retry = response.retry_prompt.unwrap();
    assert!(retry.contains("argument `days`"), "{retry}");
    assert!(retry.contains("expected an integer"), "{retry}");
    assert!(retry.contains("the string \"three\""), "{retry}");
    assert_eq!(response.executed_calls.len(), 1);
    assert!(response.executed_calls[0].result.is_none());
}

#[tokio::test]
async fn enum_violations_list_the_allowed_values() {
    let response =
        process(r#"{"tool": "get_weather", "arguments": {"city": "Oslo", "units": "kelvin"}}"#)
            .await;
    assert!(
        response
            .retry_prompt
            .unwrap()
            .contains(r#"one of "metric", "imperial""#)
    );
}

#[tokio::test]
async fn execution_failures_fail_with_the_tools_words() {
    let response =
        process(r#"{"tool": "get_forecast", "arguments": {"city": "Atlantis", "days": 2}}"#).await;
    assert!(response.call_failed);
    assert!(
        response
            .retry_prompt
            .unwrap()
            .contains("no forecast for Atlantis")
    );
}

// 4. Executed → call_executed, the raw result, and messages in the provider's shape.
#[tokio::test]
async fn executed_calls_return_the_raw_result_and_text_messages() {
    let text = r#"Let me check. {"tool": "get_weather", "arguments": {"city": "Paris"}}"#;
    let response = process(text).await;
    assert!(response.call_executed && !response.call_failed);
    assert_eq!(
        response.tool_call_result,
        Some(json!({"city": "Paris", "temp": 21, "unit": "C"}))
    );
    let messages = response.messages.unwrap();
    assert_eq!(messages[0], json!({"role": "assistant", "content": text}));
    assert_eq!(messages[1]["role"], "user");
    assert!(
        messages[1]["content"]
            .as_str()
            .unwrap()
            .contains(r#""temp":21"#)
    );
}

#[tokio::test]
async fn openai_chat_calls_are_answered_with_tool_messages() {
    let message = json!({
        "role": "assistant",
        "content": null,
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}},
            {"id": "call_2", "type": "function", "function": {"name": "get_forecast", "arguments": "{\"city\":\"Paris\",\"days\":2}"}}
        ]
    });
    let response = process_native(message.clone()).await;
    assert!(response.call_executed && !response.call_failed);
    let messages = response.messages.unwrap();
    assert_eq!(messages[0], message);
    assert_eq!(messages[1]["role"], "tool");
    assert_eq!(messages[1]["tool_call_id"], "call_1");
    assert_eq!(messages[2]["tool_call_id"], "call_2");
    assert_eq!(messages[2]["content"], "[20,20]");
    let ids: Vec<_> = response
        .executed_calls
        .iter()
        .map(|c| c.tool_call_id.clone().unwrap())
        .collect();
    assert_eq!(ids, ["call_1", "call_2"]);
}

#[tokio::test]
async fn anthropic_calls_are_answered_with_tool_results_in_a_user_turn() {
    let message = json!({
        "id": "msg_1", "type": "message", "role": "assistant",
        "content": [
            {"type": "text", "text": "Checking."},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Rome"}}
        ],
        "stop_reason": "tool_use"
    });
    let response = process_native(message).await;
    assert!(response.call_executed);
    let messages = response.messages.unwrap();
    assert_eq!(messages[0]["role"], "assistant");
    assert_eq!(messages[0]["content"][1]["id"], "toolu_1");
    assert_eq!(messages[1]["role"], "user");
    assert_eq!(messages[1]["content"][0]["type"], "tool_result");
    assert_eq!(messages[1]["content"][0]["tool_use_id"], "toolu_1");
}

#[tokio::test]
async fn openai_responses_and_gemini_shapes() {
    let responses = json!({"output": [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call", "id": "fc_1", "call_id": "call_9", "name": "get_weather", "arguments": "{\"city\":\"Oslo\"}"}
    ]});
    let response = process_native(responses).await;
    let messages = response.messages.unwrap();
    assert_eq!(messages.len(), 3);
    assert_eq!(messages[2]["type"], "function_call_output");
    assert_eq!(messages[2]["call_id"], "call_9");

    let gemini = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "get_weather", "args": {"city": "Lima"}}}
    ]}}]});
    let response = process_native(gemini).await;
    let messages = response.messages.unwrap();
    assert_eq!(messages[0]["role"], "model");
    assert_eq!(
        messages[1]["parts"][0]["functionResponse"]["name"],
        "get_weather"
    );
    assert_eq!(
        messages[1]["parts"][0]["functionResponse"]["response"]["result"]["city"],
        "Lima"
    );
}

#[tokio::test]
async fn bedrock_converse_calls_are_answered_with_tool_results() {
    let converse = json!({
        "output": {"message": {"role": "assistant", "content": [
            {"text": "Checking."},
            {"toolUse": {"toolUseId": "tooluse_1", "name": "get_weather", "input": {"city": "Quito"}}},
            {"toolUse": {"toolUseId": "tooluse_2", "name": "get_forecast", "input": {"city": "Atlantis", "days": 1}}}
        ]}},
        "stopReason": "tool_use"
    });
    let response = process_native(converse).await;
    assert!(
        response.call_executed && response.call_failed,
        "{response:?}"
    );
    let messages = response.messages.unwrap();
    assert_eq!(messages[0]["role"], "assistant");
    assert_eq!(
        messages[0]["content"][1]["toolUse"]["toolUseId"],
        "tooluse_1"
    );
    assert_eq!(messages[1]["role"], "user");
    let results = &messages[1]["content"];
    assert_eq!(results[0]["toolResult"]["toolUseId"], "tooluse_1");
    assert!(results[0]["toolResult"].get("status").is_none());
    assert_eq!(results[1]["toolResult"]["toolUseId"], "tooluse_2");
    assert_eq!(results[1]["toolResult"]["status"], "error");
    // A response cut by max_tokens in its last call runs none of it.
    let cut = json!({
        "output": {"message": {"role": "assistant", "content": [
            {"toolUse": {"toolUseId": "tooluse_3", "name": "get_weather", "input": {}}}
        ]}},
        "stopReason": "max_tokens"
    });
    let response = process_native(cut).await;
    assert!(
        !response.call_executed && response.call_failed,
        "{response:?}"
    );
}

#[tokio::test]
async fn native_messages_without_calls_do_not_execute_json_in_their_text() {
    let message = json!({"role": "assistant", "content": "{\"tool\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}", "tool_calls": []});
    assert!(process_native(message).await.is_empty());
}

// 5. Several calls: all found, each owned one executed, partial failure sets both flags.
#[tokio::test]
async fn several_calls_with_partial_failure() {
    let text = r#"{"tool": "get_weather", "arguments": {"city": "Paris"}}
{"tool": "get_forecast", "arguments": {"city": "Atlantis", "days": 1}}
{"tool": "send_email", "arguments": {"to": "x"}}"#;
    let response = process(text).await;
    assert!(
        response.call_executed && response.call_failed,
        "{response:?}"
    );
    let names: Vec<&str> = response
        .executed_calls
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(names, ["get_weather", "get_forecast"]);
    assert!(
        response
            .call_detail
            .unwrap()
            .contains("left for other drivers: `send_email`")
    );
}

#[tokio::test]
async fn reasoning_is_never_executed() {
    let text = r#"<think>Maybe {"tool": "get_weather", "arguments": {"city": "Paris"}}?</think>It is sunny."#;
    assert!(process(text).await.is_empty());
}

#[test]
fn prompts_come_from_the_options() {
    let d = driver();
    let prompt = d.get_driver_system_message(Some("claude-3-5-sonnet"));
    assert!(prompt.contains("<tools>") && prompt.contains("get_forecast"));
    let listing: Value = serde_json::from_str(&d.get_function_description(None)).unwrap();
    assert_eq!(listing["tools"][0]["name"], "get_weather");
    assert_eq!(listing["tools"][0]["parameters"]["type"], "object");
}
