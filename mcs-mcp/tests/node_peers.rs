//! Against MCP peers no one here wrote, from npm: `@modelcontextprotocol/server-everything`
//! consumed through `McpToolDriver`, and the mcs server checked by
//! `@modelcontextprotocol/inspector-cli`.
//!
//! `.ci/run` installs both into `tests/node/` (`npm ci`, versions pinned by the committed
//! lock file). Without Node, or before that install, each test prints why and returns.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use mcs::{ToolDriver, ToolError};
use mcs_mcp::rmcp::{ServiceExt, transport::TokioChildProcess};
use mcs_mcp::{ConnectOptions, McpServer, McpToolDriver};
use serde_json::{Value, json};
use tokio::process::Command;

mod common;

#[path = "../../examples/common/todo.rs"]
mod todo;

fn node_modules() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/node/node_modules/@modelcontextprotocol")
}

/// The entry point of an installed package, or why the test cannot run.
fn package(relative: &str) -> Option<PathBuf> {
    let node = std::process::Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .status();
    if !node.is_ok_and(|status| status.success()) {
        eprintln!("skipped: `node` is not on PATH; these tests need Node.js");
        return None;
    }
    let path = node_modules().join(relative);
    if !path.exists() {
        eprintln!(
            "skipped: {} is missing; run `npm ci --prefix mcs-mcp/tests/node` (as .ci/run does)",
            path.display()
        );
        return None;
    }
    Some(path)
}

fn everything_command(entry: &Path) -> Command {
    let mut command = Command::new("node");
    command.arg(entry).arg("stdio");
    command
}

fn options() -> ConnectOptions {
    ConnectOptions::default()
        .connect_timeout(Duration::from_secs(60))
        .call_timeout(Duration::from_secs(30))
}

#[tokio::test]
async fn server_everything_is_consumed_whole() {
    let Some(entry) = package("server-everything/dist/index.js") else {
        return;
    };
    let remote = McpToolDriver::spawn_with(everything_command(&entry), options())
        .await
        .expect("server-everything starts");
    assert_eq!(remote.meta().bindings[0].adapter, "stdio");

    // What the server lists, read with rmcp alone, is what the driver offers.
    let raw = ().serve(TokioChildProcess::new(everything_command(&entry)).unwrap()).await.unwrap();
    let listed = raw.list_all_tools().await.unwrap();
    raw.cancel().await.unwrap();
    let mut listed: Vec<String> = listed.iter().map(|t| t.name.to_string()).collect();
    // The server has resources: a model reaches them through two tools of the driver's.
    listed.extend(["list_resources".to_owned(), "read_resource".to_owned()]);
    let ours: Vec<String> = remote
        .list_tools()
        .iter()
        .map(|t| t.name().to_owned())
        .collect();
    assert!(
        remote.skipped_tools().is_empty(),
        "{:?}",
        remote.skipped_tools()
    );
    assert_eq!(ours, listed);
    assert!(ours.len() >= 10, "{ours:?}");
    for tool in remote.list_tools().iter() {
        assert!(tool.title().is_some(), "{} has its title", tool.name());
        assert_eq!(tool.input_schema()["type"], "object");
    }

    let echo = remote
        .execute_tool("echo", json!({"message": "hello from mcs"}))
        .await
        .unwrap();
    assert_eq!(echo, json!("Echo: hello from mcs"));

    let sum = remote
        .execute_tool("get-sum", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert!(sum.as_str().unwrap().contains('5'), "{sum}");

    let image = remote
        .execute_tool("get-tiny-image", json!({}))
        .await
        .unwrap();
    assert!(
        image.as_str().unwrap().contains("[image: image/png, "),
        "{image}"
    );

    let weather = remote
        .execute_tool("get-structured-content", json!({"location": "Chicago"}))
        .await
        .unwrap();
    assert!(
        weather.is_object(),
        "structured content is the result: {weather}"
    );

    let links = remote
        .execute_tool("get-resource-links", json!({"count": 2}))
        .await
        .unwrap();
    assert!(
        links.as_str().unwrap().contains("[resource link "),
        "{links}"
    );

    let reference = remote
        .execute_tool(
            "get-resource-reference",
            json!({"resourceType": "Text", "resourceId": 1}),
        )
        .await
        .unwrap();
    assert!(
        reference.as_str().unwrap().contains("[resource "),
        "{reference}"
    );

    // Wrong arguments are caught against the listed schema, in mcs's words, before they
    // are sent; an enum's values are listed.
    let wrong = remote
        .execute_tool("get-sum", json!({"a": "two", "b": 3}))
        .await
        .unwrap_err();
    assert!(
        matches!(wrong, ToolError::InvalidArguments { .. }),
        "{wrong:?}"
    );
    assert_eq!(
        wrong.to_string(),
        "invalid arguments for tool `get-sum`: argument `a`: expected a number, got the string \"two\""
    );
    let wrong = remote
        .execute_tool(
            "get-annotated-message",
            json!({"messageType": "warning", "colour": 1}),
        )
        .await
        .unwrap_err();
    assert_eq!(
        wrong.to_string(),
        "invalid arguments for tool `get-annotated-message`: argument `messageType`: expected \
         one of \"error\", \"success\", \"debug\", got the string \"warning\"; unknown \
         argument `colour` (this tool takes: messageType, includeImage)"
    );
}

/// Runs the inspector's CLI against `target` (a command line or a URL) and reads its JSON.
async fn inspect(cli: &Path, target: &[&str], method: &[&str]) -> Value {
    // The CLI finds its own package.json relative to the working directory.
    let directory = cli.parent().expect("the CLI is in its build directory");
    let output = Command::new("node")
        .arg(cli)
        .args(target)
        .args(method)
        .current_dir(directory)
        .kill_on_drop(true)
        .output();
    let output = tokio::time::timeout(Duration::from_secs(60), output)
        .await
        .expect("the inspector finishes")
        .expect("the inspector runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "inspector {method:?} failed: {stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|error| panic!("{error}: {stdout}"))
}

/// `tools/call` of `tool` with `arguments` (`name=value` each) through the inspector's CLI.
async fn inspect_call(cli: &Path, target: &[&str], tool: &str, arguments: &[&str]) -> Value {
    let mut method = vec!["--method", "tools/call", "--tool-name", tool, "--tool-arg"];
    method.extend_from_slice(arguments);
    inspect(cli, target, &method).await
}

#[tokio::test]
async fn the_inspector_lists_and_calls_the_mcs_server_over_stdio() {
    let Some(cli) = package("inspector-cli/build/index.js") else {
        return;
    };
    let server = common::example_server();
    let server = server.to_str().unwrap();
    let listed = inspect(&cli, &[server], &["--method", "tools/list"]).await;
    common::check_example_tools(&listed["tools"]);

    let added = inspect_call(
        &cli,
        &[server],
        "add_task",
        &["title=Buy milk", "priority=high"],
    )
    .await;
    common::check_task_added(&added);

    let wrong = inspect_call(
        &cli,
        &[server],
        "add_task",
        &["title=Buy milk", "priority=urgent"],
    )
    .await;
    common::check_wrong_priority(&wrong);
}

#[tokio::test]
async fn the_inspector_lists_and_calls_the_mcs_server_over_http() {
    let Some(cli) = package("inspector-cli/build/index.js") else {
        return;
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(McpServer::new(todo::Todo::default()).http().serve(
        listener,
        async move {
            let _ = stopped.await;
        },
    ));
    let listed = inspect(&cli, &[&url], &["--method", "tools/list"]).await;
    assert_eq!(listed["tools"].as_array().unwrap().len(), 3);
    let done = inspect_call(&cli, &[&url], "complete_task", &["id=7"]).await;
    assert_eq!(done["isError"], true);
    assert!(
        done["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("there is no task with id 7"),
        "{done}"
    );
    stop.send(()).unwrap();
    serving.await.unwrap().unwrap();
}

#[tokio::test]
async fn server_everything_resources_reach_a_model_as_two_tools() {
    let Some(entry) = package("server-everything/dist/index.js") else {
        return;
    };
    let remote = McpToolDriver::spawn_with(everything_command(&entry), options())
        .await
        .expect("server-everything starts");
    let tools = remote.list_tools();
    let names: Vec<&str> = tools.iter().map(|t| t.name()).collect();
    assert_eq!(
        names[names.len() - 2..],
        ["list_resources", "read_resource"]
    );
    let read = tools.iter().find(|t| t.name() == "read_resource").unwrap();
    assert_eq!(read.input_schema()["required"], json!(["uri"]));

    let listed = remote
        .execute_tool("list_resources", json!({}))
        .await
        .unwrap();
    let uris: Vec<&str> = listed["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    let architecture = "demo://resource/static/document/architecture.md";
    assert!(uris.contains(&architecture), "{listed}");
    let entry_of = listed["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["uri"] == architecture)
        .unwrap();
    assert_eq!(entry_of["name"], "architecture.md");
    assert_eq!(entry_of["mimeType"], "text/markdown");
    assert!(entry_of.get("icons").is_none() && entry_of.get("_meta").is_none());
    let templates: Vec<&str> = listed["resourceTemplates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["uriTemplate"].as_str().unwrap())
        .collect();
    assert!(
        templates.contains(&"demo://resource/dynamic/text/{resourceId}"),
        "{listed}"
    );
    // The Rust API lists the same.
    let resources = remote.resources().await.unwrap();
    assert_eq!(resources.len(), uris.len());
    assert_eq!(
        remote.resource_templates().await.unwrap().len(),
        templates.len()
    );

    // A static text resource is its text, the file the server reads it from.
    let on_disk = std::fs::read_to_string(entry.parent().unwrap().join("docs/architecture.md"))
        .expect("server-everything ships its docs");
    let text = remote
        .execute_tool("read_resource", json!({"uri": architecture}))
        .await
        .unwrap();
    assert_eq!(text, json!(on_disk));
    // One made from a template.
    let text = remote
        .execute_tool(
            "read_resource",
            json!({"uri": "demo://resource/dynamic/text/3"}),
        )
        .await
        .unwrap();
    assert!(
        text.as_str()
            .unwrap()
            .starts_with("Resource 3: This is a plaintext resource created at"),
        "{text}"
    );
    // A blob is described, not dumped.
    let blob = remote
        .execute_tool(
            "read_resource",
            json!({"uri": "demo://resource/dynamic/blob/2"}),
        )
        .await
        .unwrap();
    let blob = blob.as_str().unwrap();
    assert!(
        blob.starts_with("[resource demo://resource/dynamic/blob/2 (text/plain), ")
            && blob.ends_with(" bytes]"),
        "{blob}"
    );
    let contents = remote
        .read_resource("demo://resource/dynamic/blob/2")
        .await
        .unwrap();
    assert!(
        matches!(
            &contents[..],
            [mcs_mcp::rmcp::model::ResourceContents::BlobResourceContents { uri, .. }]
                if uri == "demo://resource/dynamic/blob/2"
        ),
        "{contents:?}"
    );

    // A URI the server does not know is the model's mistake, with the server's words.
    let unknown = remote
        .execute_tool("read_resource", json!({"uri": "demo://nothing/here"}))
        .await
        .unwrap_err();
    assert!(
        matches!(unknown, ToolError::InvalidArguments { .. }),
        "{unknown:?}"
    );
    let words = unknown.to_string();
    assert!(
        words.contains("argument `uri`") && words.contains("demo://nothing/here"),
        "{words}"
    );
    let missing = remote
        .execute_tool("read_resource", json!({}))
        .await
        .unwrap_err();
    assert_eq!(
        missing.to_string(),
        "invalid arguments for tool `read_resource`: missing required argument `uri` (expected a string)"
    );
    let error = remote
        .read_resource("demo://nothing/here")
        .await
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("failed `resources/read`: error -32"),
        "{error}"
    );

    // Switched off, the model does not see them; the program still does.
    let quiet =
        McpToolDriver::spawn_with(everything_command(&entry), options().resource_tools(false))
            .await
            .unwrap();
    assert_eq!(quiet.list_tools().len(), tools.len() - 2);
    assert!(!quiet.resources().await.unwrap().is_empty());
}

#[tokio::test]
async fn server_everything_prompts_are_made_into_conversation_messages() {
    let Some(entry) = package("server-everything/dist/index.js") else {
        return;
    };
    let remote = McpToolDriver::spawn_with(everything_command(&entry), options())
        .await
        .expect("server-everything starts");
    let prompts = remote.prompts().await.unwrap();
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "simple-prompt",
            "args-prompt",
            "completable-prompt",
            "resource-prompt"
        ]
    );
    let arguments = prompts[1].arguments.as_deref().unwrap();
    let declared: Vec<(&str, Option<bool>)> = arguments
        .iter()
        .map(|a| (a.name.as_str(), a.required))
        .collect();
    assert_eq!(declared, [("city", Some(true)), ("state", Some(false))]);
    assert_eq!(prompts[1].title.as_deref(), Some("Arguments Prompt"));

    let simple = remote
        .get_prompt("simple-prompt", [] as [(&str, &str); 0])
        .await
        .unwrap();
    assert_eq!(
        simple,
        [json!({"role": "user", "content": "This is a simple prompt without arguments."})]
    );
    let weather = remote
        .get_prompt("args-prompt", [("city", "Paris"), ("state", "Texas")])
        .await
        .unwrap();
    assert_eq!(
        weather,
        [json!({"role": "user", "content": "What's weather in Paris, Texas?"})]
    );
    // An embedded resource is summarised with its text.
    let with_resource = remote
        .get_prompt(
            "resource-prompt",
            [("resourceType", "Text"), ("resourceId", "4")],
        )
        .await
        .unwrap();
    assert_eq!(with_resource.len(), 2);
    let embedded = with_resource[1]["content"].as_str().unwrap();
    assert!(
        embedded.starts_with(
            "[resource demo://resource/dynamic/text/4 (text/plain)]\nResource 4: This is a plaintext"
        ),
        "{embedded}"
    );

    let unknown = remote
        .get_prompt("weather", [("city", "Paris")])
        .await
        .unwrap_err();
    assert!(
        matches!(unknown, mcs_mcp::McpError::UnknownPrompt { .. }),
        "{unknown:?}"
    );
    assert!(
        unknown.to_string().ends_with(
            "has no prompt `weather`; it offers: `simple-prompt`, `args-prompt`, \
             `completable-prompt`, `resource-prompt`"
        ),
        "{unknown}"
    );
    let missing = remote
        .get_prompt("args-prompt", [("state", "Texas"), ("country", "US")])
        .await
        .unwrap_err();
    assert!(
        matches!(missing, mcs_mcp::McpError::PromptArguments { .. }),
        "{missing:?}"
    );
    assert!(
        missing.to_string().ends_with(
            "' stdio`: missing required argument `city`; unknown argument `country` \
             (it takes: city (required), state)"
        ),
        "{missing}"
    );
    // The server's own refusal is reported in its words.
    let refused = remote
        .get_prompt(
            "resource-prompt",
            [("resourceType", "Video"), ("resourceId", "1")],
        )
        .await
        .unwrap_err();
    assert!(
        refused.to_string().contains("Invalid resourceType: Video"),
        "{refused}"
    );
}
