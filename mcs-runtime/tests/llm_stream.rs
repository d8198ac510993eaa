//! Streamed model turns: the scripted client's pieces.

use std::future::poll_fn;
use std::time::Duration;

use mcs_runtime::llm::{LlmClient, LlmError, ModelTurn, ScriptedClient, TurnDelta, TurnStream};
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
