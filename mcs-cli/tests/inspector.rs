//! `mcs serve` checked by an MCP client no one here wrote: the official
//! `@modelcontextprotocol/inspector-cli` from npm, which mcs-mcp's tests install
//! (`npm ci --prefix mcs-mcp/tests/node`, as `.ci/run` does). Without Node, or before that
//! install, each test prints why and returns.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::process::Command;
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

mod support;

use support::{mcs, petstore};

/// The inspector's CLI, or why the test cannot run.
fn inspector() -> Option<PathBuf> {
    let node = std::process::Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .status();
    if !node.is_ok_and(|status| status.success()) {
        eprintln!("skipped: `node` is not on PATH; this test needs Node.js");
        return None;
    }
    let cli = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../mcs-mcp/tests/node/node_modules/@modelcontextprotocol/inspector-cli/build/index.js",
    );
    if !cli.exists() {
        eprintln!(
            "skipped: {} is missing; run `npm ci --prefix mcs-mcp/tests/node` (as .ci/run does)",
            cli.display()
        );
        return None;
    }
    Some(cli)
}

/// The inspector's answer to `method` of `mcs serve SERVE…`, started with `env`.
async fn inspect(cli: &Path, method: &[&str], serve: &[&str], env: &[(&str, &str)]) -> Value {
    let mut command = Command::new("node");
    // The CLI finds its own package.json relative to the working directory.
    command
        .arg(cli)
        // The target's first word before `--` (the inspector requires one), the rest after
        // it, where the inspector takes nothing for its own options (`--transport`).
        .arg(mcs())
        .args(method)
        .arg("--")
        .arg("serve")
        .args(serve)
        .current_dir(cli.parent().unwrap())
        .kill_on_drop(true);
    for variable in ["MCS_API_KEY", "MCS_BEARER_TOKEN", "MCS_BASIC_AUTH"] {
        command.env_remove(variable);
    }
    command.envs(env.iter().copied());
    let output = tokio::time::timeout(Duration::from_secs(60), command.output())
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

#[tokio::test]
async fn the_inspector_lists_and_calls_a_served_document() {
    let Some(cli) = inspector() else {
        return;
    };
    let api = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/pets/5"))
        .and(header("X-Api-Key", "inspected"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": 5, "name": "Tom"})))
        .expect(1)
        .mount(&api)
        .await;
    let spec = petstore();
    let uri = api.uri();
    let serve = [spec.to_str().unwrap(), "--base-url", uri.as_str()];

    let listed = inspect(&cli, &["--method", "tools/list"], &serve, &[]).await;
    let tools = listed["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 6, "{listed}");
    assert_eq!(tools[2]["name"], "getPet");
    assert_eq!(tools[2]["inputSchema"]["required"], json!(["petId"]));
    assert_eq!(tools[2]["annotations"]["readOnlyHint"], true);

    let call = [
        "--method",
        "tools/call",
        "--tool-name",
        "getPet",
        "--tool-arg",
        "petId=5",
    ];
    let pet = inspect(&cli, &call, &serve, &[("MCS_API_KEY", "inspected")]).await;
    assert_ne!(pet["isError"], true, "{pet}");
    assert_eq!(pet["structuredContent"]["name"], "Tom", "{pet}");

    // A wrong argument and a missing key: tool errors, in words.
    let wrong = [
        "--method",
        "tools/call",
        "--tool-name",
        "getPet",
        "--tool-arg",
        "petId=abc",
    ];
    let refused = inspect(&cli, &wrong, &serve, &[("MCS_API_KEY", "inspected")]).await;
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(
        refused["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("petId"),
        "{refused}"
    );
    let keyless = inspect(&cli, &call, &serve, &[]).await;
    assert_eq!(keyless["isError"], true, "{keyless}");
    assert!(
        keyless["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("MCS_API_KEY"),
        "{keyless}"
    );
}

/// A document with a property whose schema is `false` (Vercel's `updateRecord` writes
/// `properties: {additionalProperties: false}`): the TypeScript SDK, under the inspector,
/// refused the whole listing when it reached one, so no tool could be listed.
#[tokio::test]
async fn the_inspector_lists_a_document_with_a_false_property_schema() {
    let Some(cli) = inspector() else {
        return;
    };
    let spec = std::env::temp_dir().join(format!("mcs-records-{}.yaml", std::process::id()));
    std::fs::write(
        &spec,
        "openapi: 3.0.3\ninfo: {title: Records, version: '1'}\npaths:\n  /records/{id}:\n    patch:\n      operationId: updateRecord\n      parameters: [{name: id, in: path, required: true, schema: {type: string}}]\n      requestBody:\n        content:\n          application/json:\n            schema: {type: object, properties: {name: {type: string}, additionalProperties: false}}\n      responses: {'204': {description: done}}\n",
    )
    .unwrap();
    let serve = [spec.to_str().unwrap(), "--base-url", "http://127.0.0.1:9"];
    let listed = inspect(&cli, &["--method", "tools/list"], &serve, &[]).await;
    let _ = std::fs::remove_file(&spec);
    let schema = &listed["tools"][0]["inputSchema"];
    assert_eq!(
        schema["properties"]["additionalProperties"],
        json!({"not": {}}),
        "{listed}"
    );
}

/// In discovery mode only the discovery tools are listed; a host whose model calls a tool
/// it found by its name (the discovery tools' texts say it may) is served all the same.
#[tokio::test]
async fn the_inspector_calls_a_tool_found_through_discovery_by_its_name() {
    let Some(cli) = inspector() else {
        return;
    };
    let api = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/pets/5"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": 5, "name": "Tom"})))
        .expect(1)
        .mount(&api)
        .await;
    let spec = petstore();
    let uri = api.uri();
    let serve = [
        spec.to_str().unwrap(),
        "--base-url",
        uri.as_str(),
        "--discovery",
        "on",
    ];
    let listed = inspect(&cli, &["--method", "tools/list"], &serve, &[]).await;
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    assert!(!names.contains(&"getPet"), "{names:?}");
    let call = [
        "--method",
        "tools/call",
        "--tool-name",
        "getPet",
        "--tool-arg",
        "petId=5",
    ];
    let pet = inspect(&cli, &call, &serve, &[("MCS_API_KEY", "k")]).await;
    assert_ne!(pet["isError"], true, "{pet}");
    assert_eq!(pet["structuredContent"]["name"], "Tom", "{pet}");
}
