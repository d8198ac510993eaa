//! Through the MCS interfaces: `ToolDriver`, `Driver`, and the read-only driver.

use mcs::{Driver, LlmResponse, ToolDriver};
use mcs_fs::{Adapter, Files, LocalFs, MemoryFs, ReadOnlyFiles};
use serde_json::json;

use crate::text;

pub(crate) fn through_the_driver<A: Adapter>(adapter: impl Fn() -> A) {
    let files = Files::new(adapter());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime.block_on(async {
        let written = files
            .execute_tool(
                "write_file",
                json!({"path": "n.txt", "content": "hi", "mode": "create"}),
            )
            .await
            .unwrap();
        assert_eq!(written["size"], 2);
        let error = files
            .execute_tool(
                "write_file",
                json!({"path": "n.txt", "content": "hi", "mode": "create"}),
            )
            .await
            .unwrap_err();
        assert!(
            error.to_string().contains("already exists: `n.txt`"),
            "{error}"
        );
        let bad_mode = files
            .execute_tool(
                "write_file",
                json!({"path": "n.txt", "content": "x", "mode": "truncate"}),
            )
            .await
            .unwrap_err();
        assert!(bad_mode.to_string().contains("mode"), "{bad_mode}");

        let output =
            r#"<tool_call>{"name": "read_file", "arguments": {"path": "n.txt"}}</tool_call>"#;
        let response = files.process_llm_response(LlmResponse::Text(output)).await;
        assert!(response.call_executed && !response.call_failed);
        assert_eq!(response.tool_call_result.unwrap()["content"], "hi");

        // Streamed: a write cut off mid-content never reaches the file.
        let cut = r#"<tool_call>{"name": "write_file", "arguments": {"path": "n.txt", "content": "rm -rf /"#;
        let mut stream = files.process_llm_stream(
            mcs::stream::StreamOptions::default()
                .execution(mcs::stream::Execution::AsCompleted)
                .reasoning(mcs::extract::ReasoningStart::Outside),
        );
        for piece in cut.as_bytes().chunks(5) {
            stream.feed(mcs::stream::Delta::Bytes(piece)).await;
        }
        let end = stream.finish().await;
        assert!(end.response.call_failed && !end.response.call_executed);
        let read = files
            .execute_tool("read_file", json!({"path": "n.txt"}))
            .await
            .unwrap();
        assert_eq!(read["content"], "hi");

        let output = r#"{"tool": "read_file", "arguments": {"path": "../../etc/passwd"}}"#;
        let response = files.process_llm_response(LlmResponse::Text(output)).await;
        assert!(response.call_failed);
        let retry = response.retry_prompt.unwrap();
        assert!(
            retry.contains("outside the root: `../../etc/passwd`"),
            "{retry}"
        );
    });
    let tools = files.list_tools();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name()).collect();
    assert_eq!(
        names,
        [
            "list",
            "read_file",
            "write_file",
            "edit_file",
            "stat",
            "delete",
            "make_dir",
            "move",
            "copy",
            "find",
            "search"
        ]
    );
    assert_eq!(files.tool_tags("read_file"), ["read"]);
    assert_eq!(files.tool_tags("move"), ["write"]);
    let system = files.get_driver_system_message(None);
    assert!(system.contains("edit_file"));
}

pub(crate) fn read_only_driver_hides_write_tools<A: Adapter>(adapter: impl Fn() -> A) {
    Files::new(adapter())
        .write_file("a.txt".into(), "a".into(), None)
        .unwrap();
    let files = ReadOnlyFiles::new(adapter());
    let tools = files.list_tools();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name()).collect();
    assert_eq!(names, ["list", "read_file", "stat", "find", "search"]);
    let system = files.get_driver_system_message(None);
    assert!(!system.contains("write_file"));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime.block_on(async {
        let read = files
            .execute_tool("read_file", json!({"path": "a.txt"}))
            .await
            .unwrap();
        assert_eq!(read["content"], "a");
        let write = files
            .execute_tool("write_file", json!({"path": "a.txt", "content": "b"}))
            .await
            .unwrap_err();
        assert!(
            matches!(write, mcs::ToolError::UnknownTool { .. }),
            "{write}"
        );
        // A model's call for a hidden tool passes through, as for any tool a driver lacks.
        let output = r#"{"tool": "delete", "arguments": {"path": "a.txt"}}"#;
        let response = files.process_llm_response(LlmResponse::Text(output)).await;
        assert!(!response.call_executed);
        // Streamed too.
        let mut stream = files.process_llm_stream(mcs::stream::StreamOptions::default());
        stream.feed_text(&output[..20]).await;
        stream.feed_text(&output[20..]).await;
        assert!(stream.finish().await.response.is_empty());
    });
    let read = files
        .inner()
        .read_file("a.txt".into(), None, None, None, None)
        .unwrap();
    assert_eq!(text(&read), "a");
}

#[test]
fn both_adapters_are_usable_as_trait_objects() {
    let dir = tempfile::tempdir().unwrap();
    let adapters: Vec<std::sync::Arc<dyn Adapter>> = vec![
        std::sync::Arc::new(MemoryFs::new()),
        std::sync::Arc::new(LocalFs::open(dir.path()).unwrap()),
    ];
    for adapter in adapters {
        let name = adapter.name().to_owned();
        let files = Files::new(adapter);
        // The metadata is per instance (`#[mcs::tool_driver(meta = "...")]`): the binding
        // names the adapter this driver holds.
        let binding = &ToolDriver::meta(&files).bindings[0];
        assert_eq!(
            (binding.capability.as_str(), binding.adapter.as_str()),
            ("filesystem", name.as_str())
        );
        files.write_file("x".into(), "1".into(), None).unwrap();
        assert_eq!(files.stat("x".into()).unwrap().stat.size, 1, "{name}");
    }
}

/// What the model reads: a title that is a whole sentence, and no rustdoc syntax anywhere
/// in descriptions or schemas.
#[test]
fn tool_texts_are_written_for_models() {
    let files = Files::new(MemoryFs::new());
    for tool in files.list_tools().iter() {
        let title = tool.title().unwrap_or_default();
        assert!(
            title.ends_with('.') && !title.contains('\n'),
            "{}: title {title:?}",
            tool.name()
        );
        let text = format!("{} {}", tool.description(), tool.input_schema());
        assert!(!text.contains("](crate::"), "{}: {text}", tool.name());
        assert!(!text.contains("[`"), "{}: {text}", tool.name());
    }
}

/// A write over the size limit that a model sends is refused without the content being
/// copied into the answer: the call's record notes the content's length, the error names
/// the limit, and the only copy in the response is the model's own message, which the
/// conversation needs.
pub(crate) fn a_refused_large_write_is_not_copied<A: Adapter>(adapter: impl Fn() -> A) {
    let files = Files::new(adapter());
    let limit = files.limits().max_write_bytes as usize;
    let content = "x".repeat(limit * 2);
    let output = format!(
        "<tool_call>{{\"name\": \"write_file\", \"arguments\": {{\"path\": \"big.txt\", \
         \"content\": \"{content}\"}}}}</tool_call>"
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let response = runtime.block_on(files.process_llm_response(LlmResponse::Text(&output)));
    assert!(response.call_failed && !response.call_executed);
    let record = &response.executed_calls[0];
    assert_eq!(
        record.arguments,
        json!({"path": "big.txt", "content": format!("<omitted: {} bytes>", content.len())})
    );
    let error = record.error.as_deref().unwrap();
    assert!(error.contains(&format!("at most {limit} bytes")), "{error}");
    assert!(response.retry_prompt.as_deref().unwrap().len() < 4096);
    assert!(response.call_detail.as_deref().unwrap().len() < 4096);
    let copies = response
        .messages
        .iter()
        .flatten()
        .filter(|message| message.to_string().contains(&content))
        .count();
    assert_eq!(copies, 1, "only the model's own message holds the content");
    assert_eq!(
        files.stat("big.txt".into()).unwrap_err().kind(),
        mcs_fs::FsErrorKind::NotFound
    );
}
