//! The conversation loop and the model clients.

use std::sync::Arc;

use mcs_core::{
    BoxFuture, Driver, DriverMeta, DriverResponse, LlmResponse, Tool, ToolCallRecord, ToolDriver,
    ToolError, ToolFuture,
};
use mcs_llm::{Conversation, LlmClient, LlmError, ModelTurn, ScriptedClient, StopReason};
use serde_json::{Value, json};

/// A driver double: `add 2 3` is a call it owns, `bad` a call it cannot run, anything else
/// is not for it.
struct Adder {
    meta: DriverMeta,
    prefix: &'static str,
}

impl Adder {
    fn new(prefix: &'static str) -> Self {
        Adder {
            meta: DriverMeta::new(prefix, prefix, "0"),
            prefix,
        }
    }
}

impl ToolDriver for Adder {
    fn meta(&self) -> &DriverMeta {
        &self.meta
    }

    fn list_tools(&self) -> Arc<[Tool]> {
        Arc::new([Tool::new("add", "Adds numbers")])
    }

    fn execute_tool<'a>(&'a self, name: &'a str, _arguments: Value) -> ToolFuture<'a> {
        // The conversation only talks to the `Driver` side of this double.
        ToolFuture::ready(Err(ToolError::unknown_tool(name)))
    }
}

impl Driver for Adder {
    fn get_function_description(&self, _model: Option<&str>) -> String {
        format!("{}: adds numbers", self.prefix)
    }

    fn get_driver_system_message(&self, model: Option<&str>) -> String {
        format!("use {} (model {})", self.prefix, model.unwrap_or("any"))
    }

    fn process_llm_response<'a>(
        &'a self,
        response: LlmResponse<'a>,
    ) -> BoxFuture<'a, DriverResponse> {
        let text = match response {
            LlmResponse::Text(text) => text.to_owned(),
            LlmResponse::Message(message) => {
                message["content"].as_str().unwrap_or_default().to_owned()
            }
        };
        Box::pin(async move {
            let assistant = json!({"role": "assistant", "content": text});
            if text == format!("{} bad", self.prefix) {
                return DriverResponse {
                    call_failed: true,
                    retry_prompt: Some("write two numbers".into()),
                    messages: Some(vec![
                        assistant,
                        json!({"role": "user", "content": "write two numbers"}),
                    ]),
                    executed_calls: vec![ToolCallRecord {
                        name: "add".into(),
                        error: Some("bad".into()),
                        ..Default::default()
                    }],
                    ..Default::default()
                };
            }
            let Some(rest) = text.strip_prefix(&format!("{} add ", self.prefix)) else {
                return DriverResponse::default();
            };
            let sum: i64 = rest.split(' ').filter_map(|n| n.parse::<i64>().ok()).sum();
            DriverResponse {
                tool_call_result: Some(json!(sum)),
                call_executed: true,
                messages: Some(vec![
                    assistant,
                    json!({"role": "user", "content": format!("result: {sum}")}),
                ]),
                executed_calls: vec![ToolCallRecord {
                    name: "add".into(),
                    result: Some(json!(sum)),
                    ..Default::default()
                }],
                ..Default::default()
            }
        })
    }
}

#[tokio::test]
async fn the_loop_runs_calls_until_the_model_answers() {
    let driver = Adder::new("a");
    let client = ScriptedClient::from_texts(["a add 2 3", "a add 5 5", "The sum is 10."])
        .with_model("qwen3-8b");
    let conversation = Conversation::new(&driver);
    let opening = conversation.opening(client.model(), "add things");
    assert_eq!(
        opening[0],
        json!({"role": "system", "content": "use a (model qwen3-8b)"})
    );

    let transcript = conversation.run(&client, opening).await.unwrap();
    assert_eq!(transcript.stop, StopReason::Answered);
    assert_eq!(transcript.answer.as_deref(), Some("The sum is 10."));
    assert_eq!(transcript.rounds, 3);
    assert_eq!(transcript.tool_calls.len(), 2);
    // system, user, 2 × (assistant + result), final assistant
    assert_eq!(transcript.messages.len(), 7);
    assert_eq!(
        transcript.messages[3],
        json!({"role": "user", "content": "result: 5"})
    );
    assert_eq!(
        transcript.messages[6],
        json!({"role": "assistant", "content": "The sum is 10."})
    );

    // The model saw the growing history each time.
    let requests = client.requests();
    assert_eq!(requests.iter().map(Vec::len).collect::<Vec<_>>(), [2, 4, 6]);
}

#[tokio::test]
async fn the_round_cap_stops_a_model_that_never_answers() {
    let driver = Adder::new("a");
    let client = ScriptedClient::from_texts(vec!["a add 1"; 10]);
    let transcript = Conversation::new(&driver)
        .max_rounds(3)
        .run(&client, Vec::new())
        .await
        .unwrap();
    assert_eq!(transcript.stop, StopReason::RoundLimit);
    assert_eq!(transcript.rounds, 3);
    assert_eq!(transcript.answer, None);
    assert_eq!(client.remaining(), 7);
}

#[tokio::test]
async fn the_retry_cap_counts_failures_in_a_row() {
    let driver = Adder::new("a");
    // fail, fail, success resets the count, fail, fail, fail → stop after the third in a row.
    let client = ScriptedClient::from_texts([
        "a bad", "a bad", "a add 1", "a bad", "a bad", "a bad", "done",
    ]);
    let transcript = Conversation::new(&driver)
        .max_retries(2)
        .run(&client, Vec::new())
        .await
        .unwrap();
    assert_eq!(transcript.stop, StopReason::RetryLimit);
    assert_eq!(transcript.rounds, 6);
    assert_eq!(transcript.tool_calls.len(), 6);
}

#[tokio::test]
async fn a_scripted_client_says_when_it_runs_out() {
    let driver = Adder::new("a");
    let client = ScriptedClient::from_texts(["a add 1"]);
    let error = Conversation::new(&driver)
        .run(&client, Vec::new())
        .await
        .unwrap_err();
    assert!(matches!(error, LlmError::ScriptExhausted(1)), "{error}");
}

#[test]
fn model_turns_become_messages() {
    let native = ModelTurn::Native(
        json!({"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}),
    );
    assert_eq!(native.text(), "ab");
    assert!(matches!(native.as_response(), LlmResponse::Message(_)));
    let text = ModelTurn::Text("hi".into());
    assert_eq!(
        text.to_message(),
        json!({"role": "assistant", "content": "hi"})
    );
}

#[cfg(feature = "openai")]
mod openai {
    use mcs_llm::{LlmClient, LlmError, ModelTurn, OpenAiClient, ToolMode};
    use serde_json::json;
    use wiremock::matchers::{body_partial_json, header, method, path};
    use wiremock::{Mock, MockServer, ResponseTemplate};

    fn completion(message: serde_json::Value) -> ResponseTemplate {
        ResponseTemplate::new(200).set_body_json(json!({
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]
        }))
    }

    #[tokio::test]
    async fn prompt_mode_sends_the_history_and_returns_text() {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/v1/chat/completions"))
            .and(header("authorization", "Bearer sk-test"))
            .and(body_partial_json(
                json!({"model": "local-model", "messages": [{"role": "user", "content": "hi"}]}),
            ))
            .respond_with(completion(
                json!({"role": "assistant", "content": "{\"tool\": \"x\"}"}),
            ))
            .expect(1)
            .mount(&server)
            .await;
        let client = OpenAiClient::new(format!("{}/v1/", server.uri()), "local-model")
            .unwrap()
            .with_api_key("sk-test");
        let turn = client
            .complete(&[json!({"role": "user", "content": "hi"})])
            .await
            .unwrap();
        assert_eq!(turn, ModelTurn::Text("{\"tool\": \"x\"}".into()));
    }

    #[tokio::test]
    async fn native_mode_sends_tools_and_returns_the_message() {
        let server = MockServer::start().await;
        let tools = vec![
            json!({"type": "function", "function": {"name": "x", "parameters": {"type": "object"}}}),
        ];
        let message = json!({"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "x", "arguments": "{}"}}]});
        Mock::given(body_partial_json(json!({"tools": tools})))
            .respond_with(completion(message.clone()))
            .mount(&server)
            .await;
        let client = OpenAiClient::new(server.uri(), "m")
            .unwrap()
            .with_tool_mode(ToolMode::Native(tools));
        assert_eq!(
            client.complete(&[]).await.unwrap(),
            ModelTurn::Native(message)
        );
    }

    #[tokio::test]
    async fn server_errors_and_garbage_are_errors_not_panics() {
        let server = MockServer::start().await;
        Mock::given(path("/status/chat/completions"))
            .respond_with(ResponseTemplate::new(429).set_body_string("slow down"))
            .mount(&server)
            .await;
        Mock::given(path("/garbage/chat/completions"))
            .respond_with(ResponseTemplate::new(200).set_body_string("<html>not json"))
            .mount(&server)
            .await;
        Mock::given(path("/empty/chat/completions"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({"choices": []})))
            .mount(&server)
            .await;

        let ask = |base: &str| {
            let client = OpenAiClient::new(format!("{}{base}", server.uri()), "m").unwrap();
            async move { client.complete(&[]).await.unwrap_err() }
        };
        assert!(
            matches!(ask("/status").await, LlmError::Status { status: 429, ref body } if body == "slow down")
        );
        assert!(matches!(ask("/garbage").await, LlmError::Protocol(ref m) if m.contains("<html>")));
        assert!(
            matches!(ask("/empty").await, LlmError::Protocol(ref m) if m.contains("choices[0].message"))
        );
    }

    #[tokio::test]
    async fn an_unreachable_server_is_a_transport_error() {
        // Port 9 on loopback: nothing listens there.
        let client = OpenAiClient::new("http://127.0.0.1:9/v1", "m").unwrap();
        assert!(matches!(
            client.complete(&[]).await.unwrap_err(),
            LlmError::Transport(_)
        ));
    }
}
