//! Prompts and resources served by `McpServer` and consumed again by `McpToolDriver`, in
//! process: what the program adds is what the client lists, gets and reads; a server with
//! none announces neither capability.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcs::hybrid::Hybrid;
use mcs::{Driver, ToolDriver, ToolError};
use mcs_mcp::rmcp::model::{
    GetPromptRequestParams, Prompt, PromptArgument, PromptMessage, ReadResourceRequestParams,
    Resource, ResourceContents, Role,
};
use mcs_mcp::rmcp::{self, ServiceExt};
use mcs_mcp::{ConnectOptions, McpError, McpServer, McpToolDriver};
use serde_json::json;

/// A driver with a tool of the name a consumer would give its resource listing.
struct Library;

#[mcs::tool_driver]
impl Library {
    /// Lists the books on the shelf.
    #[tool]
    fn list_resources(&self) -> Vec<String> {
        vec!["Middlemarch".to_owned()]
    }
}

type Serving<D> = rmcp::service::RunningService<rmcp::RoleServer, McpServer<D>>;

async fn in_process<D: ToolDriver + 'static>(server: McpServer<D>) -> (McpToolDriver, Serving<D>) {
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    let serving = tokio::spawn(server.serve(server_end));
    let remote = McpToolDriver::connect("in-process", client_end, ConnectOptions::default())
        .await
        .expect("the consumer connects");
    (remote, serving.await.unwrap().expect("the server starts"))
}

/// A client of rmcp alone, to see what goes over the wire.
async fn raw_client<D: ToolDriver + 'static>(
    server: McpServer<D>,
) -> (
    rmcp::service::RunningService<rmcp::RoleClient, ()>,
    Serving<D>,
) {
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    let serving = tokio::spawn(server.serve(server_end));
    let client = ().serve(client_end).await.expect("the client connects");
    (client, serving.await.unwrap().expect("the server starts"))
}

fn greeting() -> Prompt {
    Prompt::new(
        "greeting",
        Some("Greets someone."),
        Some(vec![
            PromptArgument::new("name")
                .with_description("Whom to greet.")
                .with_required(true),
            PromptArgument::new("tone").with_description("How: warm or curt."),
        ]),
    )
    .with_title("Greeting")
}

fn render_greeting(arguments: &HashMap<String, String>) -> Result<Vec<PromptMessage>, String> {
    let name = &arguments["name"];
    let reply = match arguments.get("tone").map(String::as_str) {
        None | Some("warm") => format!("Hello, dear {name}!"),
        Some("curt") => format!("{name}."),
        Some(other) => return Err(format!("tone `{other}` is neither warm nor curt")),
    };
    Ok(vec![
        PromptMessage::new_text(Role::User, format!("Greet {name}.")),
        PromptMessage::new_text(Role::Assistant, reply),
    ])
}

fn served() -> (McpServer<Hybrid<Library>>, Arc<AtomicUsize>) {
    let reads = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&reads);
    let server = McpServer::new(Hybrid::new(Library))
        .with_driver_prompt()
        .with_prompt(greeting(), render_greeting)
        .with_resource(
            Resource::new("library://catalogue", "catalogue")
                .with_description("Every book, one a line.")
                .with_mime_type("text/plain"),
            "Middlemarch\nNostromo",
        )
        .with_dynamic_resource(Resource::new("library://visits", "visits"), move || {
            Ok(format!(
                "visit {}",
                counted.fetch_add(1, Ordering::SeqCst) + 1
            ))
        })
        .with_dynamic_resource(Resource::new("library://closed", "closed"), || {
            Err("the archive is closed today".to_owned())
        });
    (server, reads)
}

#[tokio::test]
async fn served_prompts_are_listed_and_got_again() {
    let (server, _) = served();
    let (remote, _serving) = in_process(server).await;

    let prompts = remote.prompts().await.unwrap();
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["system_prompt", "greeting"]);
    let model = &prompts[0].arguments.as_deref().unwrap()[0];
    assert_eq!(
        (model.name.as_str(), model.required),
        ("model", Some(false))
    );
    assert_eq!(prompts[1], greeting());

    // The driver's own system prompt, as the driver makes it, for a model and without.
    let direct = Hybrid::new(Library);
    for (arguments, model) in [(vec![("model", "gpt-4o")], Some("gpt-4o")), (vec![], None)] {
        let messages = remote.get_prompt("system_prompt", arguments).await.unwrap();
        assert_eq!(
            messages,
            [json!({"role": "user", "content": direct.get_driver_system_message(model)})]
        );
    }
    assert!(
        remote
            .get_prompt("system_prompt", [] as [(&str, &str); 0])
            .await
            .unwrap()[0]["content"]
            .as_str()
            .unwrap()
            .contains("list_resources")
    );

    let messages = remote
        .get_prompt("greeting", [("name", "Ada"), ("tone", "curt")])
        .await
        .unwrap();
    assert_eq!(
        messages,
        [
            json!({"role": "user", "content": "Greet Ada."}),
            json!({"role": "assistant", "content": "Ada."}),
        ]
    );
    // The render's refusal reaches the client in its words.
    let refused = remote
        .get_prompt("greeting", [("name", "Ada"), ("tone", "sly")])
        .await
        .unwrap_err();
    assert!(
        refused
            .to_string()
            .ends_with("error -32602: prompt `greeting`: tone `sly` is neither warm nor curt"),
        "{refused}"
    );
    let missing = remote
        .get_prompt("greeting", [("tone", "warm")])
        .await
        .unwrap_err();
    assert!(
        matches!(missing, McpError::PromptArguments { .. }),
        "{missing:?}"
    );
}

/// The server checks what a client sends, whatever client it is.
#[tokio::test]
async fn a_served_prompt_refuses_arguments_that_do_not_fit_it() {
    let (server, _) = served();
    let (client, _serving) = raw_client(server).await;
    let get = |name: &str, arguments: serde_json::Value| {
        let mut request = GetPromptRequestParams::new(name);
        if let serde_json::Value::Object(arguments) = arguments {
            request = request.with_arguments(arguments);
        }
        client.get_prompt(request)
    };
    let error = |result: Result<_, rmcp::service::ServiceError>| match result {
        Err(rmcp::service::ServiceError::McpError(error)) => {
            format!("{}: {}", error.code.0, error.message)
        }
        other => panic!("not a protocol error: {other:?}"),
    };
    assert_eq!(
        error(get("farewell", json!({})).await),
        "-32602: unknown prompt `farewell`; this server offers: `system_prompt`, `greeting`"
    );
    assert_eq!(
        error(get("greeting", json!({"tone": 3, "mood": "glad"})).await),
        "-32602: prompt `greeting`: argument `tone` must be a string, got 3; \
         unknown argument `mood`; missing required argument `name`"
    );
    let fine = client
        .get_prompt(
            GetPromptRequestParams::new("greeting")
                .with_arguments(json!({"name": "Bo"}).as_object().unwrap().clone()),
        )
        .await
        .unwrap();
    assert_eq!(fine.description.as_deref(), Some("Greets someone."));
    assert_eq!(fine.messages.len(), 2);
}

#[tokio::test]
async fn served_resources_are_listed_and_read_again() {
    let (server, reads) = served();
    let (remote, _serving) = in_process(server).await;

    let resources = remote.resources().await.unwrap();
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(
        uris,
        [
            "library://catalogue",
            "library://visits",
            "library://closed"
        ]
    );
    assert_eq!(resources[0].mime_type.as_deref(), Some("text/plain"));
    assert!(remote.resource_templates().await.unwrap().is_empty());
    assert_eq!(
        remote.read_resource("library://catalogue").await.unwrap(),
        [ResourceContents::text(
            "Middlemarch\nNostromo",
            "library://catalogue"
        )]
    );

    // The server's own `list_resources` keeps its name; the model's listing of resources
    // takes the next free one.
    let names: Vec<String> = remote
        .list_tools()
        .iter()
        .map(|t| t.name().to_owned())
        .collect();
    assert_eq!(
        names,
        ["list_resources", "list_resources_2", "read_resource"]
    );
    assert_eq!(
        remote
            .execute_tool("list_resources", json!({}))
            .await
            .unwrap(),
        json!(["Middlemarch"])
    );
    let listed = remote
        .execute_tool("list_resources_2", json!({}))
        .await
        .unwrap();
    assert_eq!(
        listed["resources"][0],
        json!({
            "uri": "library://catalogue",
            "name": "catalogue",
            "description": "Every book, one a line.",
            "mimeType": "text/plain",
        })
    );
    assert_eq!(listed["resourceTemplates"], json!([]));

    // A dynamic resource is read each time it is asked for.
    for visit in 1..=2 {
        let text = remote
            .execute_tool("read_resource", json!({"uri": "library://visits"}))
            .await
            .unwrap();
        assert_eq!(text, json!(format!("visit {visit}")));
    }
    assert_eq!(reads.load(Ordering::SeqCst), 2);

    let unknown = remote
        .execute_tool("read_resource", json!({"uri": "library://loans"}))
        .await
        .unwrap_err();
    assert!(
        matches!(unknown, ToolError::InvalidArguments { .. }),
        "{unknown:?}"
    );
    assert!(
        unknown.to_string().contains(
            "error -32002 for `library://loans`: no resource `library://loans`; this server \
             offers: `library://catalogue`, `library://visits`, `library://closed`"
        ),
        "{unknown}"
    );
    let closed = remote
        .execute_tool("read_resource", json!({"uri": "library://closed"}))
        .await
        .unwrap_err();
    assert!(matches!(closed, ToolError::Execution { .. }), "{closed:?}");
    assert!(
        closed.to_string().contains(
            "error -32603: resource `library://closed` could not be read: the archive is \
             closed today"
        ),
        "{closed}"
    );
}

#[tokio::test]
async fn a_server_without_prompts_or_resources_announces_neither() {
    let (client, _serving) = raw_client(McpServer::new(Hybrid::new(Library))).await;
    let capabilities = &client.peer_info().unwrap().capabilities;
    assert!(capabilities.tools.is_some());
    assert!(capabilities.prompts.is_none(), "{capabilities:?}");
    assert!(capabilities.resources.is_none(), "{capabilities:?}");
    // Asked all the same, it says it has none.
    let error = client
        .read_resource(ReadResourceRequestParams::new("library://catalogue"))
        .await
        .unwrap_err();
    assert!(error.to_string().contains("offers no resources"), "{error}");
    let error = client
        .get_prompt(GetPromptRequestParams::new("greet"))
        .await
        .unwrap_err();
    assert!(error.to_string().contains("offers no prompts"), "{error}");
    assert!(error.to_string().contains("-32601"), "{error}");

    // With only a prompt, only prompts.
    let (client, _serving) =
        raw_client(McpServer::new(Hybrid::new(Library)).with_driver_prompt()).await;
    let capabilities = &client.peer_info().unwrap().capabilities;
    assert!(capabilities.prompts.is_some() && capabilities.resources.is_none());

    // A consumer of the bare server sees no resource tools, no prompts, no resources.
    let (remote, _serving) = in_process(McpServer::new(Library)).await;
    assert_eq!(remote.list_tools().len(), 1);
    assert!(remote.prompts().await.unwrap().is_empty());
    assert!(remote.resources().await.unwrap().is_empty());
}
