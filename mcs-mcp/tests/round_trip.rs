//! An mcs driver served over MCP and consumed again by `McpToolDriver` lists the same tools
//! and answers the same calls with the same results and errors: in process, through a child
//! process, and over streamable HTTP. List changes reach the consumer.

use std::sync::Arc;
use std::time::Duration;

use mcs::orchestrator::{ConflictPolicy, Orchestrator, Registration};
use mcs::{Driver, ToolDriver, ToolError};
use mcs_mcp::rmcp;
use mcs_mcp::{ConnectOptions, McpServer, McpToolDriver};
use serde_json::{Value, json};

mod common;

#[path = "../../examples/common/todo.rs"]
mod todo;

/// The calls both sides answer, wrong ones included.
fn calls() -> Vec<(&'static str, Value)> {
    vec![
        (
            "add_task",
            json!({"title": "Water the plants", "priority": "high"}),
        ),
        ("add_task", json!({"title": "Read a book"})),
        ("complete_task", json!({"id": 2})),
        ("list_tasks", json!({"include_done": true})),
        ("list_tasks", Value::Null),
        // Wrong: a priority that does not exist and an argument the tool does not have.
        (
            "add_task",
            json!({"title": "Call mum", "priority": "urgent", "due": "friday"}),
        ),
        ("add_task", json!({})),
        ("complete_task", json!({"id": "two"})),
        // Fails while executing.
        ("complete_task", json!({"id": 99})),
        // Not a tool.
        ("delete_task", json!({"id": 1})),
        ("add_task", json!(["not", "an", "object"])),
    ]
}

fn same_outcome(name: &str, direct: &Result<Value, ToolError>, remote: &Result<Value, ToolError>) {
    match (direct, remote) {
        (Ok(direct), Ok(remote)) => assert_eq!(direct, remote, "result of {name}"),
        (Err(direct), Err(remote)) => {
            assert_eq!(direct.to_string(), remote.to_string(), "error of {name}");
            assert_eq!(
                std::mem::discriminant(direct),
                std::mem::discriminant(remote),
                "kind of error of {name}: {direct:?} / {remote:?}"
            );
        }
        _ => panic!("{name}: directly {direct:?}, through MCP {remote:?}"),
    }
}

/// The listing as MCP and models see it: names, titles, descriptions, argument schemas.
fn listing(driver: &dyn ToolDriver) -> Vec<Value> {
    driver
        .list_tools()
        .iter()
        .map(|tool| {
            json!({
                "name": tool.name(),
                "title": tool.title(),
                "description": tool.description(),
                "schema": tool.input_schema(),
            })
        })
        .collect()
}

async fn same_as_direct(remote: &McpToolDriver) {
    let direct = todo::Todo::default();
    assert_eq!(listing(remote), listing(&direct));
    for (name, arguments) in calls() {
        let expected = direct.execute_tool(name, arguments.clone()).await;
        let got = remote.execute_tool(name, arguments).await;
        same_outcome(name, &expected, &got);
    }
}

/// The server's side of a connection: the session runs while this is held.
type Serving<D> = rmcp::service::RunningService<rmcp::RoleServer, McpServer<D>>;

async fn in_process<D: ToolDriver + 'static>(server: McpServer<D>) -> (McpToolDriver, Serving<D>) {
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    let serving = tokio::spawn(server.serve(server_end));
    let remote = McpToolDriver::connect("in-process", client_end, ConnectOptions::default())
        .await
        .expect("the consumer connects");
    let running = serving.await.unwrap().expect("the server starts");
    (remote, running)
}

#[tokio::test]
async fn in_process_round_trip_gives_the_same_listing_and_results() {
    let (remote, _serving) = in_process(McpServer::new(todo::Todo::default())).await;
    assert_eq!(remote.meta().name, "todo");
    assert_eq!(remote.meta().id, "mcp:todo");
    assert!(remote.skipped_tools().is_empty());
    same_as_direct(&remote).await;
}

/// A server's settings apply to the value they are made on, whatever was cloned or served
/// before: there is no order to get wrong.
#[tokio::test]
async fn settings_made_after_a_clone_reach_the_clients() {
    use rmcp::ServiceExt;

    let server = McpServer::new(todo::Todo::default());
    let earlier = server.clone();
    let server = server
        .with_instructions("Keep the list short.")
        .with_implementation("lists", "2.0.0");
    let (remote, _serving) = in_process(server.clone()).await;
    assert_eq!(remote.meta().name, "lists");
    assert_eq!(remote.meta().version, "2.0.0");

    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    let _serving = tokio::spawn(server.serve(server_end));
    let client = ().serve(client_end).await.expect("a plain rmcp client connects");
    let info = client.peer_info().expect("the server introduced itself");
    assert_eq!(info.instructions.as_deref(), Some("Keep the list short."));
    assert_eq!(
        info.server_info.as_ref().map(|i| i.name.as_str()),
        Some("lists")
    );

    // The clone taken before the settings keeps the driver's own.
    let (remote, _serving) = in_process(earlier).await;
    assert_eq!(remote.meta().name, "todo");
}

#[tokio::test]
async fn child_process_round_trip_gives_the_same_listing_and_results() {
    let binary = common::example_server();
    let remote = McpToolDriver::spawn(tokio::process::Command::new(&binary))
        .await
        .expect("the example server starts");
    assert_eq!(remote.meta().name, "mcs-examples");
    // The example serves the to-do list and a unit converter; the to-do tools come first.
    let direct = todo::Todo::default();
    let expected = listing(&direct);
    assert_eq!(listing(&remote)[..expected.len()], expected[..]);
    assert_eq!(
        remote
            .execute_tool("celsius_to_fahrenheit", json!({"celsius": 100}))
            .await
            .unwrap(),
        json!(212.0)
    );
    for (name, arguments) in calls() {
        let expected = direct.execute_tool(name, arguments.clone()).await;
        let got = remote.execute_tool(name, arguments).await;
        if name == "delete_task" {
            // The server has more tools than the to-do list, so the suggestion may differ.
            assert!(matches!(got, Err(ToolError::UnknownTool { .. })), "{got:?}");
            continue;
        }
        same_outcome(name, &expected, &got);
    }
    remote.close().await;
    let after = remote
        .execute_tool("list_tasks", json!({}))
        .await
        .unwrap_err();
    assert!(after.to_string().contains("mcp_server"), "{after}");
}

#[tokio::test]
async fn streamable_http_round_trip_gives_the_same_listing_and_results() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(McpServer::new(todo::Todo::default()).http().serve(
        listener,
        async move {
            let _ = stopped.await;
        },
    ));
    let url = format!("http://{address}{}", mcs_mcp::MCP_PATH);
    let remote = McpToolDriver::connect_url(&url)
        .await
        .expect("connects over HTTP");
    assert_eq!(remote.meta().bindings[0].adapter, "streamable-http");
    same_as_direct(&remote).await;
    remote.close().await;
    stop.send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(10), serving)
        .await
        .expect("the server stops when told")
        .unwrap()
        .unwrap();
}

/// Converts lengths.
struct Lengths;

#[mcs::tool_driver(name = "lengths")]
impl Lengths {
    /// Kilometres in miles.
    #[tool]
    fn km_to_miles(&self, km: f64) -> f64 {
        km / 1.609_344
    }
}

#[tokio::test]
async fn an_orchestrators_new_tools_reach_the_consumer_through_list_changed() {
    let orchestrator = Arc::new(Orchestrator::new("tools", ConflictPolicy::Reject));
    orchestrator
        .register("todo", Arc::new(todo::Todo::default()), Registration::new())
        .unwrap();
    // Every change of the orchestrator's tools is announced, with nothing to wire: the
    // server watches the driver it serves.
    let server = McpServer::new(Arc::clone(&orchestrator));
    let (remote, _serving) = in_process(server).await;
    assert_eq!(remote.list_tools().len(), 3);
    let heard = changes_of(&remote);

    orchestrator
        .register("lengths", Arc::new(Lengths), Registration::new())
        .unwrap();
    hears_of_and_calls(heard, &remote, "km_to_miles").await;
}

/// A receiver that moves each time `driver` reports a change of its tools
/// ([`ToolDriver::watch_tools`], the one way every driver announces changes).
fn changes_of(driver: &dyn ToolDriver) -> tokio::sync::watch::Receiver<u64> {
    let (changed, heard) = tokio::sync::watch::channel(0);
    assert!(driver.watch_tools(Arc::new(move || {
        changed.send_modify(|generation| *generation += 1);
    })));
    heard
}

/// Waits until `heard` moves, then finds `name` in `driver`'s listing and converts a mile.
async fn hears_of_and_calls(
    mut heard: tokio::sync::watch::Receiver<u64>,
    driver: &dyn ToolDriver,
    name: &str,
) {
    tokio::time::timeout(Duration::from_secs(10), heard.changed())
        .await
        .expect("the consumer hears of the change")
        .unwrap();
    let names: Vec<String> = driver
        .list_tools()
        .iter()
        .map(|t| t.name().to_owned())
        .collect();
    assert!(names.iter().any(|n| n == name), "{name} not in {names:?}");
    let miles = driver
        .execute_tool(name, json!({"km": 1.609344}))
        .await
        .unwrap();
    assert_eq!(miles, json!(1.0));
}

#[tokio::test]
async fn a_change_deep_on_the_server_reaches_an_orchestrator_on_the_client() {
    // Server: a domain orchestrator over a capability orchestrator; the change comes in the
    // inner one. Client: the MCP driver registered in an orchestrator of its own.
    let capability = Arc::new(Orchestrator::new("tools", ConflictPolicy::Reject));
    capability
        .register("todo", Arc::new(todo::Todo::default()), Registration::new())
        .unwrap();
    let domain = Arc::new(Orchestrator::new("domain", ConflictPolicy::Reject));
    domain
        .register("tools", Arc::clone(&capability) as _, Registration::new())
        .unwrap();
    let (remote, _serving) = in_process(McpServer::new(Arc::clone(&domain))).await;
    let heard = changes_of(&remote);
    let client = Orchestrator::new("client", ConflictPolicy::Namespace);
    client
        .register("remote", Arc::new(remote), Registration::new())
        .unwrap();
    assert_eq!(client.list_tools().len(), 3);

    capability
        .register("lengths", Arc::new(Lengths), Registration::new())
        .unwrap();
    hears_of_and_calls(heard, &client, "remote__km_to_miles").await;
}

/// A driver of your own whose tools change announces it the way orchestrators and MCP
/// clients do: it keeps a `ToolsWatchers` and notifies it; the server sends list_changed.
#[tokio::test]
async fn a_driver_of_your_own_announces_its_changes_through_watch_tools() {
    use mcs::{DriverMeta, Tool, ToolFuture, ToolsListener, ToolsWatchers};
    use std::sync::Mutex;

    struct Plugins {
        meta: DriverMeta,
        tools: Mutex<Arc<[Tool]>>,
        watchers: ToolsWatchers,
    }
    impl Plugins {
        fn install(&self, tool: Tool) {
            let mut tools = self.tools.lock().unwrap();
            *tools = tools.iter().cloned().chain([tool]).collect();
            drop(tools);
            self.watchers.notify();
        }
    }
    impl ToolDriver for Plugins {
        fn meta(&self) -> &DriverMeta {
            &self.meta
        }
        fn list_tools(&self) -> Arc<[Tool]> {
            Arc::clone(&self.tools.lock().unwrap())
        }
        fn execute_tool<'a>(&'a self, _name: &'a str, arguments: Value) -> ToolFuture<'a> {
            let km = arguments["km"].as_f64().unwrap_or_default();
            ToolFuture::ready(Ok(json!(km / 1.609344)))
        }
        fn watch_tools(&self, listener: ToolsListener) -> bool {
            self.watchers.add(listener);
            true
        }
    }

    let plugins = Arc::new(Plugins {
        meta: DriverMeta::new("plugins", "plugins", "1"),
        tools: Mutex::new(Arc::new([])),
        watchers: ToolsWatchers::default(),
    });
    let (remote, _serving) = in_process(McpServer::new(Arc::clone(&plugins))).await;
    assert!(remote.list_tools().is_empty());
    let heard = changes_of(&remote);
    plugins.install(
        Tool::new("km_to_miles", "Kilometres to miles.").with_parameter(
            mcs::ToolParameter::new("km", "Kilometres.").with_schema(json!({"type": "number"})),
        ),
    );
    hears_of_and_calls(heard, &remote, "km_to_miles").await;
}

#[tokio::test]
async fn wrapped_in_hybrid_the_consumer_serves_a_model() {
    let (remote, _serving) = in_process(McpServer::new(todo::Todo::default())).await;
    let driver = mcs::hybrid::Hybrid::new(remote);
    let prompt = driver.get_driver_system_message(None);
    assert!(prompt.contains("add_task"), "{prompt}");

    let answer = driver
        .process_llm_response(
            "<tool_call>\n{\"name\": \"add_task\", \"arguments\": {\"title\": \"Walk\"}}\n</tool_call>"
                .into(),
        )
        .await;
    assert!(answer.call_executed, "{answer:?}");
    assert_eq!(answer.tool_call_result.unwrap()["title"], "Walk");

    // A wrong call is caught before it leaves: the schema came over MCP.
    let wrong = driver
        .process_llm_response(
            "{\"tool\": \"add_task\", \"arguments\": {\"title\": \"Run\", \"priority\": \"asap\"}}"
                .into(),
        )
        .await;
    assert!(wrong.call_failed, "{wrong:?}");
    let retry = wrong.retry_prompt.unwrap();
    assert!(
        retry.contains("`priority`") && retry.contains("\"low\""),
        "{retry}"
    );

    // A call for a tool the server does not have passes through.
    let foreign = driver
        .process_llm_response("{\"tool\": \"get_weather\", \"arguments\": {}}".into())
        .await;
    assert!(foreign.is_empty());
}

/// Through `Hybrid`, an MCP server's tools serve a streamed answer: each call goes over MCP
/// as soon as it is complete, and the answer is what the whole output gives.
#[tokio::test]
async fn wrapped_in_hybrid_the_consumer_serves_a_streamed_answer() {
    use mcs::stream::{Execution, StreamEvent, StreamOptions};
    let (remote, _serving) = in_process(McpServer::new(todo::Todo::default())).await;
    let driver = mcs::hybrid::Hybrid::new(remote);
    let output = "Adding it.\n<tool_call>\n{\"name\": \"add_task\", \"arguments\": {\"title\": \"Walk\"}}\n</tool_call>\nDone.";
    let options = StreamOptions::default()
        .reasoning(mcs::extract::ReasoningStart::Outside)
        .execution(Execution::AsCompleted);
    let mut stream = driver.process_llm_stream(options);
    let mut results = 0;
    for piece in output.as_bytes().chunks(6) {
        let events = stream.feed(mcs::stream::Delta::Bytes(piece)).await;
        results += events
            .iter()
            .filter(|event| matches!(event, StreamEvent::CallResult { .. }))
            .count();
    }
    // The call ran over MCP before the model finished writing.
    assert_eq!(results, 1);
    let end = stream.finish().await;
    assert!(end.response.call_executed, "{:?}", end.response);
    assert_eq!(end.response.tool_call_result.unwrap()["title"], "Walk");
}

/// A server-side driver whose argument keys Anthropic would refuse: it echoes what it got.
struct OData {
    meta: mcs::DriverMeta,
    tools: Arc<[mcs::Tool]>,
}

impl OData {
    fn new() -> Self {
        let tool = mcs::Tool::new("list_files", "Lists files.")
            .with_parameter(
                mcs::ToolParameter::new("$top", "How many.")
                    .with_schema(json!({"type": "integer"})),
            )
            .with_parameter(
                mcs::ToolParameter::new("filter[name]", "A name.")
                    .required(false)
                    .with_schema(json!({"type": "string"})),
            );
        OData {
            meta: mcs::DriverMeta::new("odata", "odata", "1"),
            tools: Arc::from(vec![tool]),
        }
    }
}

impl ToolDriver for OData {
    fn meta(&self) -> &mcs::DriverMeta {
        &self.meta
    }

    fn list_tools(&self) -> Arc<[mcs::Tool]> {
        Arc::clone(&self.tools)
    }

    fn execute_tool<'a>(&'a self, _name: &'a str, arguments: Value) -> mcs::ToolFuture<'a> {
        mcs::ToolFuture::ready(Ok(json!({ "got": arguments })))
    }
}

#[tokio::test]
async fn argument_keys_a_provider_refuses_are_renamed_and_sent_back_as_the_server_named_them() {
    let (remote, _serving) = in_process(McpServer::new(OData::new())).await;
    let tools = remote.list_tools();
    let keys: Vec<&str> = tools[0]
        .parameters()
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(keys, ["top", "filter_name"]);
    // What a model sends natively to Anthropic, built from the consumed tools, is accepted:
    // every property key fits the Messages API's pattern.
    let exported = mcs::export::anthropic_tools(&tools);
    let properties = exported[0]["input_schema"]["properties"]
        .as_object()
        .unwrap();
    assert!(properties.keys().all(|k| mcs::export::is_argument_key(k)));

    let got = remote
        .execute_tool("list_files", json!({"top": 5, "filter_name": "a.txt"}))
        .await
        .unwrap();
    assert_eq!(got, json!({"got": {"$top": 5, "filter[name]": "a.txt"}}));
    // Through a model's call in text, validated against the renamed schema first.
    let driver = mcs::hybrid::Hybrid::new(remote);
    let reply = driver
        .process_llm_response(mcs::LlmResponse::Text(
            r#"{"tool": "list_files", "arguments": {"top": "2"}}"#,
        ))
        .await;
    assert!(reply.call_executed && !reply.call_failed, "{reply:?}");
    assert_eq!(
        reply.executed_calls[0].result,
        Some(json!({"got": {"$top": 2}}))
    );
}

/// A server-side driver whose tool names OpenAI and Anthropic would refuse (MCP allows
/// them): it answers with the name it was called by.
struct Dotted {
    meta: mcs::DriverMeta,
    tools: Arc<[mcs::Tool]>,
}

impl Dotted {
    fn new() -> Self {
        let tools = ["math.add", "filter[name]", "math_add"]
            .map(|name| mcs::Tool::new(name, "Answers with its name."));
        Dotted {
            meta: mcs::DriverMeta::new("dotted", "dotted", "1"),
            tools: Arc::from(tools.to_vec()),
        }
    }
}

impl ToolDriver for Dotted {
    fn meta(&self) -> &mcs::DriverMeta {
        &self.meta
    }

    fn list_tools(&self) -> Arc<[mcs::Tool]> {
        Arc::clone(&self.tools)
    }

    fn execute_tool<'a>(&'a self, name: &'a str, _arguments: Value) -> mcs::ToolFuture<'a> {
        if name == "filter[name]" {
            return mcs::ToolFuture::ready(Err(ToolError::execution(name, "no filter today")));
        }
        mcs::ToolFuture::ready(Ok(json!({ "called": name })))
    }
}

#[tokio::test]
async fn tool_names_a_provider_refuses_are_listed_portable_and_called_as_the_server_names_them() {
    let (remote, _serving) = in_process(McpServer::new(Dotted::new())).await;
    let tools = remote.list_tools();
    let names: Vec<&str> = tools.iter().map(|t| t.name()).collect();
    // `math_add` is the server's own name for its third tool: the first gets `_2`.
    assert_eq!(names, ["math_add_2", "filter_name", "math_add"]);
    assert!(names.iter().all(|n| mcs::export::is_tool_name(n)));
    assert!(
        tools[0]
            .description()
            .ends_with("The MCP server calls this tool `math.add`."),
        "{}",
        tools[0].description()
    );
    for (listed, server) in [("math_add_2", "math.add"), ("math_add", "math_add")] {
        let answer = remote.execute_tool(listed, json!({})).await.unwrap();
        assert_eq!(answer, json!({ "called": server }));
    }
    // An error names the tool the model called.
    let error = remote
        .execute_tool("filter_name", json!({}))
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "tool `filter_name` failed: no filter today"
    );
    // The server's own name is not a listed one.
    let unknown = remote
        .execute_tool("math.add", json!({}))
        .await
        .unwrap_err();
    assert!(
        matches!(unknown, ToolError::UnknownTool { .. }),
        "{unknown}"
    );
}

/// A driver whose tools say what they do to the world.
struct Annotated {
    meta: mcs::DriverMeta,
    tools: Arc<[mcs::Tool]>,
}

impl ToolDriver for Annotated {
    fn meta(&self) -> &mcs::DriverMeta {
        &self.meta
    }

    fn list_tools(&self) -> Arc<[mcs::Tool]> {
        Arc::clone(&self.tools)
    }

    fn execute_tool<'a>(&'a self, name: &'a str, _arguments: Value) -> mcs::ToolFuture<'a> {
        mcs::ToolFuture::ready(Ok(json!({ "ran": name })))
    }
}

/// Tool annotations cross MCP both ways under their MCP names: served from an mcs tool's
/// `ToolAnnotations`, read back into the consumed tool's; a tool that says nothing says
/// nothing on the other side.
#[tokio::test]
async fn tool_annotations_cross_both_ways() {
    use mcs::ToolAnnotations;
    let hints = ToolAnnotations::default()
        .read_only(false)
        .destructive(true)
        .idempotent(true)
        .open_world(false);
    let driver = Annotated {
        meta: mcs::DriverMeta::new("annotated", "annotated", "0.0.0"),
        tools: vec![
            mcs::Tool::new("wipe", "Wipes the disk.").with_annotations(hints),
            mcs::Tool::new("look", "Looks around.")
                .with_annotations(ToolAnnotations::default().read_only(true)),
            mcs::Tool::new("plain", "Says nothing of itself."),
        ]
        .into(),
    };
    let listed = mcs::export::mcp_tool(&driver.tools[0]);
    assert_eq!(
        listed["annotations"],
        json!({"readOnlyHint": false, "destructiveHint": true, "idempotentHint": true,
               "openWorldHint": false})
    );
    let (remote, _serving) = in_process(McpServer::new(driver)).await;
    let tools = remote.list_tools();
    let find = |name: &str| {
        tools
            .iter()
            .find(|tool| tool.name() == name)
            .unwrap()
            .clone()
    };
    assert_eq!(*find("wipe").annotations(), hints);
    assert_eq!(find("look").annotations().read_only, Some(true));
    assert_eq!(find("look").annotations().destructive, None);
    assert!(find("plain").annotations().is_empty());
}
