//! What the tests of `mcs` share: the binary, the documents, and a server started as an MCP
//! host would start it.

#![allow(dead_code)] // Each test file uses its own part.

use std::path::{Path, PathBuf};
use std::time::Duration;

use mcs_mcp::{ConnectOptions, McpToolDriver};
use serde_json::{Value, json};
use tokio::process::Command;

/// The binary under test.
pub(crate) fn mcs() -> &'static str {
    env!("CARGO_BIN_EXE_mcs")
}

/// The repository's example document: six operations, an API key in `X-Api-Key` for all
/// but `getInventory`.
pub(crate) fn petstore() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/petstore/petstore.yaml")
}

/// `mcs ARGS` with no credential variable from the test's own environment.
pub(crate) fn command(arguments: &[&str]) -> Command {
    let mut command = Command::new(mcs());
    command.args(arguments);
    for variable in ["MCS_API_KEY", "MCS_BEARER_TOKEN", "MCS_BASIC_AUTH"] {
        command.env_remove(variable);
    }
    command.kill_on_drop(true);
    command
}

/// `mcs serve ARGS` over stdio, connected as an MCP client.
pub(crate) async fn serve(arguments: &[&str], env: &[(&str, &str)]) -> McpToolDriver {
    let mut all = vec!["serve"];
    all.extend_from_slice(arguments);
    let mut command = command(&all);
    command.envs(env.iter().copied());
    McpToolDriver::spawn_with(command, options())
        .await
        .expect("mcs serve starts and lists its tools")
}

pub(crate) fn options() -> ConnectOptions {
    ConnectOptions::default()
        .connect_timeout(Duration::from_secs(60))
        .call_timeout(Duration::from_secs(30))
}

/// A document larger than `--discovery auto`'s threshold: eight operations on each of six
/// resources (48 tools), tagged by resource, behind a bearer token.
pub(crate) fn large_document() -> Value {
    let resources = [
        "invoices",
        "customers",
        "products",
        "orders",
        "refunds",
        "shipments",
    ];
    let mut paths = serde_json::Map::new();
    let id =
        json!([{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }]);
    for resource in resources {
        let tag = json!([resource]);
        let body = json!({
            "required": true,
            "content": { "application/json": { "schema": {
                "type": "object",
                "required": ["name"],
                "properties": { "name": { "type": "string" }, "note": { "type": "string" } }
            } } }
        });
        let ok = json!({ "200": { "description": "OK" } });
        let operation = |verb: &str, summary: String, body: Option<&Value>| {
            let mut operation = json!({
                "operationId": format!("{verb}_{resource}"),
                "summary": summary,
                "tags": tag,
                "responses": ok,
            });
            if let Some(body) = body {
                operation["requestBody"] = body.clone();
            }
            operation
        };
        paths.insert(
            format!("/{resource}"),
            json!({
                "get": operation("list", format!("List the {resource}"), None),
                "post": operation("create", format!("Create one of the {resource}"), Some(&body)),
            }),
        );
        paths.insert(
            format!("/{resource}/{{id}}"),
            json!({
                "parameters": id,
                "get": operation("get", format!("Get one of the {resource} by id"), None),
                "put": operation("update", format!("Update one of the {resource}"), Some(&body)),
                "delete": operation("delete", format!("Delete one of the {resource}"), None),
            }),
        );
        for (verb, summary) in [
            ("archive", "Archive one of the"),
            ("restore", "Restore an archived one of the"),
            ("export", "Export as CSV one of the"),
        ] {
            paths.insert(
                format!("/{resource}/{{id}}/{verb}"),
                json!({
                    "parameters": id,
                    "post": operation(verb, format!("{summary} {resource}"), None),
                }),
            );
        }
    }
    json!({
        "openapi": "3.1.0",
        "info": { "title": "Back Office", "version": "2.0.0" },
        "servers": [{ "url": "https://backoffice.example/api" }],
        "security": [{ "token": [] }],
        "paths": paths,
        "components": { "securitySchemes": { "token": { "type": "http", "scheme": "bearer" } } }
    })
}

/// `document` written to a fresh file of the test's own, named `name`.
pub(crate) fn write_document(name: &str, document: &str) -> PathBuf {
    let directory = std::env::temp_dir().join(format!("mcs-cli-tests-{}", std::process::id()));
    std::fs::create_dir_all(&directory).expect("a temporary directory");
    let path = directory.join(name);
    std::fs::write(&path, document).expect("the document is written");
    path
}
