//! Streamed model turns: the scripted client's pieces, and the HTTP clients reading
//! server-sent events from an in-process server that writes them the awkward ways real
//! servers and networks do.

use std::future::poll_fn;
use std::time::Duration;

use mcs_llm::{LlmClient, LlmError, ModelTurn, ScriptedClient, TurnDelta, TurnStream};
use serde_json::json;

/// Every item of a turn's stream, in order. A stream that does not end within ten seconds
/// fails the test rather than hanging it.
async fn drain(mut stream: TurnStream<'_>) -> Vec<Result<TurnDelta, LlmError>> {
    let items = async {
        let mut items = Vec::new();
        while let Some(item) = poll_fn(|cx| stream.as_mut().poll_next(cx)).await {
            items.push(item);
        }
        items
    };
    tokio::time::timeout(Duration::from_secs(10), items)
        .await
        .expect("the stream should end")
}

/// The deltas of a stream that must not fail.
async fn deltas(stream: TurnStream<'_>) -> Vec<TurnDelta> {
    drain(stream)
        .await
        .into_iter()
        .map(|item| item.expect("no error in this stream"))
        .collect()
}

fn text(piece: &str) -> TurnDelta {
    TurnDelta::Text(piece.to_owned())
}

mod scripted {
    use super::*;

    #[tokio::test]
    async fn text_streams_in_pieces_cut_at_character_boundaries() {
        // 1-, 2-, 3- and 4-byte characters, so every cut size meets a boundary problem.
        let answer = "héllo wörld ✓ 𝄞 done";
        for size in [1, 2, 3, 4, 5, 7, 100] {
            let client = ScriptedClient::from_texts([answer]).with_chunk_size(size);
            let pieces: Vec<String> = deltas(client.stream(&[]).await.unwrap())
                .await
                .into_iter()
                .map(|delta| match delta {
                    TurnDelta::Text(piece) => piece,
                    other => panic!("not text: {other:?}"),
                })
                .collect();
            assert_eq!(pieces.concat(), answer, "size {size}");
            for piece in &pieces {
                assert!(!piece.is_empty(), "size {size}: an empty piece");
                assert!(
                    piece.len() <= size || piece.chars().count() == 1,
                    "size {size}: {piece:?} is too long"
                );
            }
            if size >= 4 {
                // Greedy: a piece is only short where the next character would not fit.
                for pair in pieces.windows(2) {
                    let next = pair[1].chars().next().unwrap().len_utf8();
                    assert!(pair[0].len() + next > size, "size {size}: {pair:?}");
                }
            }
        }
    }

    #[tokio::test]
    async fn whole_turns_stream_as_one_delta() {
        let message = json!({"role": "assistant", "content": [{"type": "text", "text": "hi"}]});
        let client = ScriptedClient::new([
            ModelTurn::Text("all at once".into()),
            ModelTurn::Native(message.clone()),
        ])
        .with_chunk_size(3);
        let history = [json!({"role": "user", "content": "hello"})];
        let first = ScriptedClient::from_texts(["all at once"]);
        assert_eq!(
            deltas(first.stream(&history).await.unwrap()).await,
            [text("all at once")]
        );
        assert_eq!(
            deltas(client.stream(&history).await.unwrap()).await.len(),
            4,
            "chunked text"
        );
        // Native turns are not cut, whatever the chunk size.
        assert_eq!(
            deltas(client.stream(&history).await.unwrap()).await,
            [TurnDelta::Message(message)]
        );
        assert_eq!(client.requests(), [history.to_vec(), history.to_vec()]);
        let error = client.stream(&history).await.err().unwrap();
        assert!(matches!(error, LlmError::ScriptExhausted(2)), "{error}");
    }

    #[tokio::test]
    async fn a_streamed_script_streams_as_written() {
        let event = json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "x"}});
        let client = ScriptedClient::streamed([
            vec![text("Hel"), text("lo")],
            vec![TurnDelta::Event(event.clone())],
            vec![text("a"), text("b")],
            vec![TurnDelta::Event(event.clone())],
        ])
        .with_chunk_size(1);
        assert_eq!(
            deltas(client.stream(&[]).await.unwrap()).await,
            [text("Hel"), text("lo")]
        );
        assert_eq!(
            deltas(client.stream(&[]).await.unwrap()).await,
            [TurnDelta::Event(event)]
        );
        // Asked for the whole turn: text deltas join; events have no whole form.
        assert_eq!(
            client.complete(&[]).await.unwrap(),
            ModelTurn::Text("ab".into())
        );
        let error = client.complete(&[]).await.unwrap_err();
        assert!(
            matches!(error, LlmError::Config(ref m) if m.contains("only streams")),
            "{error}"
        );
        assert_eq!(client.remaining(), 0);
    }
}

/// An HTTP/1.1 server on loopback that answers one request with bytes written exactly as
/// a test says: in separate writes with pauses between, so the client reads them apart.
#[cfg(any(feature = "openai", feature = "anthropic"))]
mod wire {
    use std::time::Duration;

    use mcs_llm::{LlmError, TurnDelta, TurnStream};
    use serde_json::Value;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::{TcpListener, TcpStream};
    use tokio::task::JoinHandle;

    /// How the body's end is marked.
    #[derive(Clone, Copy, Debug)]
    pub(crate) enum Framing {
        /// No length: the body ends when the server closes the connection.
        Close,
        /// `Transfer-Encoding: chunked`, one chunk per write.
        Chunked,
    }

    /// The answer to serve.
    pub(crate) struct Answer {
        pub status: &'static str,
        pub content_type: &'static str,
        pub framing: Framing,
        pub writes: Vec<Vec<u8>>,
        /// How long the connection stays open after the last write, before the body ends:
        /// a client that waits for the end instead of stopping at the closing event fails
        /// the test's time bound.
        pub linger: Duration,
    }

    impl Answer {
        /// Server-sent events, written as `writes`, ended by closing the connection.
        pub(crate) fn events(writes: Vec<Vec<u8>>) -> Self {
            Answer {
                status: "200 OK",
                content_type: "text/event-stream",
                framing: Framing::Close,
                writes,
                linger: Duration::ZERO,
            }
        }

        /// One JSON document with this status.
        pub(crate) fn json(status: &'static str, body: &Value) -> Self {
            Answer {
                status,
                content_type: "application/json",
                framing: Framing::Close,
                writes: vec![body.to_string().into_bytes()],
                linger: Duration::ZERO,
            }
        }
    }

    /// What the client sent.
    pub(crate) struct Request {
        /// Request line and headers, lowercased.
        pub head: String,
        pub body: Value,
    }

    pub(crate) struct Server {
        /// `http://127.0.0.1:PORT/v1`
        pub base_url: String,
        request: JoinHandle<Request>,
    }

    impl Server {
        /// The request the server got.
        pub(crate) async fn request(self) -> Request {
            self.request.await.expect("the server task")
        }
    }

    /// Serves `answer` to the first request on a fresh port.
    pub(crate) async fn serve(answer: Answer) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}/v1", listener.local_addr().unwrap());
        let request = tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            socket.set_nodelay(true).unwrap();
            let request = read_request(&mut socket).await;
            tokio::spawn(respond(socket, answer));
            request
        });
        Server { base_url, request }
    }

    async fn read_request(socket: &mut TcpStream) -> Request {
        let mut bytes = Vec::new();
        let mut buffer = [0u8; 4096];
        let head_end = loop {
            let read = socket.read(&mut buffer).await.unwrap();
            assert!(read > 0, "the client closed before its request ended");
            bytes.extend_from_slice(&buffer[..read]);
            if let Some(at) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
                break at + 4;
            }
        };
        let head = String::from_utf8_lossy(&bytes[..head_end]).to_lowercase();
        let length: usize = head
            .lines()
            .find_map(|line| line.strip_prefix("content-length:"))
            .map_or(0, |value| value.trim().parse().unwrap());
        while bytes.len() < head_end + length {
            let read = socket.read(&mut buffer).await.unwrap();
            assert!(read > 0, "the client closed before its body ended");
            bytes.extend_from_slice(&buffer[..read]);
        }
        let body = serde_json::from_slice(&bytes[head_end..head_end + length]).unwrap();
        Request { head, body }
    }

    async fn respond(mut socket: TcpStream, answer: Answer) {
        let framing = match answer.framing {
            Framing::Close => "Connection: close",
            Framing::Chunked => "Transfer-Encoding: chunked",
        };
        let head = format!(
            "HTTP/1.1 {}\r\nContent-Type: {}\r\n{framing}\r\n\r\n",
            answer.status, answer.content_type
        );
        // Write errors are ignored: a client may rightly hang up before the end.
        let _ = socket.write_all(head.as_bytes()).await;
        for write in &answer.writes {
            tokio::time::sleep(Duration::from_millis(25)).await;
            let bytes = match answer.framing {
                Framing::Close => write.clone(),
                Framing::Chunked => {
                    let mut chunk = format!("{:x}\r\n", write.len()).into_bytes();
                    chunk.extend_from_slice(write);
                    chunk.extend_from_slice(b"\r\n");
                    chunk
                }
            };
            let _ = socket.write_all(&bytes).await;
            let _ = socket.flush().await;
        }
        tokio::time::sleep(answer.linger).await;
        if let Framing::Chunked = answer.framing {
            let _ = socket.write_all(b"0\r\n\r\n").await;
        }
        let _ = socket.shutdown().await;
    }

    /// `text` as one write.
    pub(crate) fn whole(text: &str) -> Vec<u8> {
        text.as_bytes().to_vec()
    }

    /// `text` as two writes, cut `at` bytes after the start of `marker` (which may fall
    /// inside a character: the bytes are cut, not the text).
    pub(crate) fn cut(text: &str, marker: &str, at: usize) -> [Vec<u8>; 2] {
        let at = text.find(marker).expect("the marker is in the text") + at;
        [
            text.as_bytes()[..at].to_vec(),
            text.as_bytes()[at..].to_vec(),
        ]
    }

    /// Checks a turn the server cut off: one piece of text, then a protocol error that
    /// names `message`.
    pub(crate) fn assert_cut_off(
        items: &[Result<TurnDelta, LlmError>],
        first: &str,
        message: &str,
    ) {
        assert_eq!(items.len(), 2, "{items:?}");
        assert_eq!(items[0].as_ref().unwrap(), &TurnDelta::Text(first.into()));
        let error = items[1].as_ref().unwrap_err();
        assert!(
            matches!(error, LlmError::Protocol(m) if m.contains(message)),
            "{error}"
        );
    }

    /// Checks that asking failed with status `code` and a body that says `text`.
    pub(crate) fn assert_status(asked: Result<TurnStream<'_>, LlmError>, code: u16, text: &str) {
        let error = asked.err().expect("an error status");
        assert!(
            matches!(error, LlmError::Status { status, ref body } if status == code && body.contains(text)),
            "{error}"
        );
    }
}

#[cfg(feature = "openai")]
mod openai {
    use super::wire::{Answer, Framing, assert_cut_off, assert_status, cut, serve, whole};
    use super::*;
    use mcs_llm::{OpenAiClient, ToolMode};
    use serde_json::Value;

    fn chunk(delta: Value, finish: Option<&str>) -> Value {
        json!({
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
        })
    }

    /// The chunks of "Hello, wörld ✓!": a role chunk with empty content, four pieces,
    /// and a closing chunk with a finish reason and no content.
    fn hello_chunks() -> Vec<Value> {
        vec![
            chunk(json!({"role": "assistant", "content": ""}), None),
            chunk(json!({"content": "Hel"}), None),
            chunk(json!({"content": "lo, wö"}), None),
            chunk(json!({"content": "rld ✓"}), None),
            chunk(json!({"content": "!"}), None),
            chunk(json!({}), Some("stop")),
        ]
    }

    /// The chunks as a server might write them on a bad day.
    fn awkward_writes(chunks: &[Value]) -> Vec<Vec<u8>> {
        let event = |chunk: &Value| format!("data: {chunk}\n\n");
        let mut writes = vec![whole(": keep-alive\n\n"), whole(&event(&chunks[0]))];
        // One event over two writes, cut inside its JSON.
        writes.extend(cut(&event(&chunks[1]), "\"Hel\"", 2));
        // Cut inside the two bytes of "ö".
        writes.extend(cut(&event(&chunks[2]), "ö", 1));
        // CRLF line ends, cut between CR and LF.
        writes.extend(cut(&format!("data: {}\r\n\r\n", chunks[3]), "\r\n", 1));
        // An event without data, a comment, then an event whose blank line comes late.
        writes.push(whole("data:\n\n: ping\n\n"));
        writes.extend(cut(&event(&chunks[4]), "\n\n", 1));
        writes.push(whole(&format!("{}data: [DONE]\n\n", event(&chunks[5]))));
        // After the end: never read.
        writes.push(whole("data: {not json, and past the end}\n\n"));
        writes
    }

    fn client(base_url: &str, native: bool) -> OpenAiClient {
        let client = OpenAiClient::new(base_url, "local-model").unwrap();
        if native {
            client.with_tool_mode(ToolMode::Native(vec![
                json!({"type": "function", "function": {"name": "add"}}),
            ]))
        } else {
            client
        }
    }

    #[tokio::test]
    async fn awkwardly_split_events_stream_as_the_chunks_sent() {
        let chunks = hello_chunks();
        let history = [json!({"role": "user", "content": "greet"})];
        for framing in [Framing::Close, Framing::Chunked] {
            for native in [false, true] {
                let server = serve(Answer {
                    framing,
                    // Held open after `[DONE]`: the turn must end without waiting.
                    linger: Duration::from_secs(30),
                    ..Answer::events(awkward_writes(&chunks))
                })
                .await;
                let client = client(&server.base_url, native);
                let got = deltas(client.stream(&history).await.unwrap()).await;
                if native {
                    let events: Vec<TurnDelta> =
                        chunks.iter().cloned().map(TurnDelta::Event).collect();
                    assert_eq!(got, events, "{framing:?}");
                } else {
                    assert_eq!(
                        got,
                        [text("Hel"), text("lo, wö"), text("rld ✓"), text("!")],
                        "{framing:?}"
                    );
                }

                let request = server.request().await;
                assert!(request.head.starts_with("post /v1/chat/completions "));
                assert!(request.head.contains("accept: text/event-stream"));
                assert_eq!(request.body["stream"], json!(true));
                assert_eq!(request.body["messages"], json!(history));
                assert_eq!(request.body.get("tools").is_some(), native);
            }
        }
    }

    #[tokio::test]
    async fn a_server_that_closes_without_done_ends_the_turn() {
        let chunks = hello_chunks();
        for native in [false, true] {
            let writes = vec![
                whole(&format!("data: {}\n\n", chunks[1])),
                whole(&format!("data: {}\n\n", chunks[4])),
            ];
            let server = serve(Answer::events(writes)).await;
            let got = deltas(client(&server.base_url, native).stream(&[]).await.unwrap()).await;
            if native {
                assert_eq!(
                    got,
                    [
                        TurnDelta::Event(chunks[1].clone()),
                        TurnDelta::Event(chunks[4].clone())
                    ]
                );
            } else {
                assert_eq!(got, [text("Hel"), text("!")]);
            }
        }
    }

    #[tokio::test]
    async fn an_error_chunk_ends_the_turn_with_its_message() {
        let writes = vec![
            whole(&format!("data: {}\n\n", hello_chunks()[1])),
            whole(
                "data: {\"error\": {\"message\": \"the model crashed\", \"type\": \"server_error\"}}\n\n",
            ),
            whole(&format!("data: {}\n\n", hello_chunks()[4])),
        ];
        let server = serve(Answer::events(writes)).await;
        let items = drain(client(&server.base_url, false).stream(&[]).await.unwrap()).await;
        assert_cut_off(&items, "Hel", "the model crashed (server_error)");
    }

    #[tokio::test]
    async fn an_error_status_is_an_error_before_the_stream() {
        let body = json!({"error": {"message": "rate limited", "type": "requests"}});
        let server = serve(Answer::json("429 Too Many Requests", &body)).await;
        let client = client(&server.base_url, false);
        assert_status(client.stream(&[]).await, 429, "rate limited");
    }

    #[tokio::test]
    async fn data_that_is_not_json_is_a_protocol_error_that_shows_it() {
        let server = serve(Answer::events(vec![whole("data: <html>oops</html>\n\n")])).await;
        let items = drain(client(&server.base_url, true).stream(&[]).await.unwrap()).await;
        assert_eq!(items.len(), 1);
        let error = items[0].as_ref().unwrap_err();
        assert!(
            matches!(error, LlmError::Protocol(m) if m.contains("<html>oops</html>")),
            "{error}"
        );
    }

    #[tokio::test]
    async fn a_server_that_does_not_stream_answers_the_whole_turn() {
        let message = json!({"role": "assistant", "content": "all at once"});
        let completion =
            json!({"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]});
        for native in [false, true] {
            let server = serve(Answer::json("200 OK", &completion)).await;
            let got = deltas(client(&server.base_url, native).stream(&[]).await.unwrap()).await;
            let whole = if native {
                TurnDelta::Message(message.clone())
            } else {
                text("all at once")
            };
            assert_eq!(got, [whole]);
        }
    }
}

#[cfg(feature = "anthropic")]
mod anthropic {
    use super::wire::{Answer, Framing, assert_cut_off, assert_status, cut, serve, whole};
    use super::*;
    use mcs_llm::{AnthropicClient, ToolMode};
    use serde_json::Value;

    /// A streamed message: text, then a tool call whose input arrives in two pieces.
    fn message_events() -> Vec<Value> {
        vec![
            json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [], "model": "claude-test", "stop_reason": null, "usage": {"input_tokens": 10, "output_tokens": 1}}}),
            json!({"type": "ping"}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Let me "}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "add ✓."}}),
            json!({"type": "content_block_stop", "index": 0}),
            json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "add", "input": {}}}),
            json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"a\": 1"}}),
            json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": ", \"b\": 2}"}}),
            json!({"type": "content_block_stop", "index": 1}),
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": null}, "usage": {"output_tokens": 30}}),
            json!({"type": "message_stop"}),
        ]
    }

    fn sse(event: &Value) -> String {
        format!(
            "event: {}\ndata: {event}\n\n",
            event["type"].as_str().unwrap()
        )
    }

    fn writes(events: &[Value]) -> Vec<Vec<u8>> {
        let mut writes = Vec::new();
        for (i, event) in events.iter().enumerate() {
            match i {
                // Cut between the `event:` line and the `data:` line, and inside the data.
                3 => writes.extend(cut(&sse(event), "\ndata", 1)),
                7 => writes.extend(cut(&sse(event), "partial_json", 4)),
                _ => writes.push(whole(&sse(event))),
            }
        }
        writes
    }

    fn client(base_url: &str) -> AnthropicClient {
        AnthropicClient::new("sk-ant-test", "claude-test")
            .unwrap()
            .with_base_url(base_url)
    }

    #[tokio::test]
    async fn native_mode_streams_every_event_but_pings() {
        let events = message_events();
        let server = serve(Answer {
            framing: Framing::Chunked,
            // Held open after `message_stop`: the turn must end without waiting.
            linger: Duration::from_secs(30),
            ..Answer::events(writes(&events))
        })
        .await;
        let tools =
            vec![json!({"name": "add", "description": "Adds", "input_schema": {"type": "object"}})];
        let client = client(&server.base_url).with_tool_mode(ToolMode::Native(tools.clone()));
        let got = deltas(
            client
                .stream(&[json!({"role": "user", "content": "1+2"})])
                .await
                .unwrap(),
        )
        .await;
        let expected: Vec<TurnDelta> = events
            .into_iter()
            .filter(|event| event["type"] != "ping")
            .map(TurnDelta::Event)
            .collect();
        assert_eq!(got, expected);

        let request = server.request().await;
        assert!(request.head.starts_with("post /v1/messages "));
        assert_eq!(request.body["stream"], json!(true));
        assert_eq!(request.body["tools"], json!(tools));
    }

    #[tokio::test]
    async fn prompt_mode_streams_the_text() {
        let server = serve(Answer::events(writes(&message_events()))).await;
        let got = deltas(client(&server.base_url).stream(&[]).await.unwrap()).await;
        assert_eq!(got, [text("Let me "), text("add ✓.")]);
    }

    #[tokio::test]
    async fn an_error_event_ends_the_turn_with_its_message() {
        let events = message_events();
        let mut writes = writes(&events[..4]);
        writes.push(whole("event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}\n\n"));
        writes.push(whole(&sse(&events[4])));
        let server = serve(Answer::events(writes)).await;
        let items = drain(client(&server.base_url).stream(&[]).await.unwrap()).await;
        assert_cut_off(&items, "Let me ", "Overloaded (overloaded_error)");
    }

    #[tokio::test]
    async fn an_error_status_is_an_error_before_the_stream() {
        let body = json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}});
        let server = serve(Answer::json("529 Site Overloaded", &body)).await;
        assert_status(
            client(&server.base_url).stream(&[]).await,
            529,
            "Overloaded",
        );
    }

    /// A reply of the Messages API with two text blocks around a tool call.
    fn reply() -> Value {
        json!({
            "id": "msg_2", "type": "message", "role": "assistant", "model": "claude-test",
            "content": [
                {"type": "text", "text": "Adding "},
                {"type": "tool_use", "id": "toolu_9", "name": "add", "input": {"a": 1}},
                {"type": "text", "text": "now."}
            ],
            "stop_reason": "tool_use", "usage": {"input_tokens": 5, "output_tokens": 5}
        })
    }

    #[tokio::test]
    async fn a_whole_answer_is_the_text_or_the_message() {
        let server = serve(Answer::json("200 OK", &reply())).await;
        let turn = client(&server.base_url).complete(&[]).await.unwrap();
        assert_eq!(turn, ModelTurn::Text("Adding now.".into()));

        let server = serve(Answer::json("200 OK", &reply())).await;
        let native = client(&server.base_url).with_tool_mode(ToolMode::Native(Vec::new()));
        assert_eq!(
            native.complete(&[]).await.unwrap(),
            ModelTurn::Native(reply())
        );
        let request = server.request().await;
        assert_eq!(request.body.get("stream"), None);
        // No tools: no `tools` field, which the API would refuse empty.
        assert_eq!(request.body.get("tools"), None);

        let server = serve(Answer::json("200 OK", &json!({"type": "message"}))).await;
        let error = client(&server.base_url).complete(&[]).await.unwrap_err();
        assert!(
            matches!(error, LlmError::Protocol(ref m) if m.contains("content")),
            "{error}"
        );
    }

    #[tokio::test]
    async fn the_request_has_the_api_shape() {
        // OpenAI-shaped history with Anthropic-shaped messages appended by a driver, and an
        // Anthropic answer appended as it came (with its id and usage).
        let history = [
            json!({"role": "system", "content": "You add numbers."}),
            json!({"role": "system", "content": "Be brief."}),
            json!({"role": "user", "content": "add 1 and 2"}),
            json!({"role": "assistant", "content": "Adding.", "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "add", "arguments": "{\"a\":1,\"b\":2}"}},
                {"id": "call_2", "type": "function", "function": {"name": "add", "arguments": "not json"}}
            ]}),
            json!({"role": "tool", "tool_call_id": "call_1", "content": "3"}),
            json!({"role": "tool", "tool_call_id": "call_2", "content": "arguments are not JSON"}),
            json!({"role": "user", "content": "and 3 more?"}),
            json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
                   "content": [{"type": "tool_use", "id": "toolu_3", "name": "add", "input": {"a": 3, "b": 3}}],
                   "stop_reason": "tool_use", "usage": {"input_tokens": 1, "output_tokens": 1}}),
            json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_3", "content": "6"}]}),
            json!({"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_4", "type": "function", "function": {"name": "add", "arguments": "{\"a\":6}"}}
            ]}),
            json!({"role": "tool", "tool_call_id": "call_4", "content": "6"}),
        ];
        let server = serve(Answer::json("200 OK", &reply())).await;
        client(&server.base_url)
            .with_max_tokens(1024)
            .with_temperature(0.5)
            .complete(&history)
            .await
            .unwrap();
        let request = server.request().await;
        assert!(request.head.starts_with("post /v1/messages "));
        assert!(request.head.contains("x-api-key: sk-ant-test\r\n"));
        assert!(request.head.contains("anthropic-version: 2023-06-01\r\n"));
        assert!(request.head.contains("content-type: application/json\r\n"));
        assert_eq!(
            request.body,
            json!({
                "model": "claude-test",
                "max_tokens": 1024,
                "system": "You add numbers.\n\nBe brief.",
                "temperature": 0.5,
                "messages": [
                    {"role": "user", "content": "add 1 and 2"},
                    {"role": "assistant", "content": [
                        {"type": "text", "text": "Adding."},
                        {"type": "tool_use", "id": "call_1", "name": "add", "input": {"a": 1, "b": 2}},
                        {"type": "tool_use", "id": "call_2", "name": "add", "input": {}}
                    ]},
                    {"role": "user", "content": [
                        {"type": "tool_result", "tool_use_id": "call_1", "content": "3"},
                        {"type": "tool_result", "tool_use_id": "call_2", "content": "arguments are not JSON"},
                        {"type": "text", "text": "and 3 more?"}
                    ]},
                    {"role": "assistant", "content": [
                        {"type": "tool_use", "id": "toolu_3", "name": "add", "input": {"a": 3, "b": 3}}
                    ]},
                    {"role": "user", "content": [
                        {"type": "tool_result", "tool_use_id": "toolu_3", "content": "6"}
                    ]},
                    {"role": "assistant", "content": [
                        {"type": "tool_use", "id": "call_4", "name": "add", "input": {"a": 6}}
                    ]},
                    {"role": "user", "content": [
                        {"type": "tool_result", "tool_use_id": "call_4", "content": "6"}
                    ]}
                ]
            })
        );
    }
}
