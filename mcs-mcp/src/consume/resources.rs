//! A server's resources: for the program ([`McpToolDriver::resources`] and its kin), and for
//! a model, as two read-only tools.

use mcs::{ArgumentError, Tool, ToolError, ToolParameter};
use rmcp::model::{
    ErrorCode, ReadResourceRequestParams, Resource, ResourceContents, ResourceTemplate,
};
use rmcp::service::ServiceError;
use serde_json::{Map, Value, json};

use super::{McpToolDriver, has_resources};
use crate::convert;
use crate::error::McpError;

/// The names under which a model finds the server's resources: `list_resources` and
/// `read_resource`, or, when the server has tools of those names, the first free
/// `list_resources_2`, ...
pub(super) struct ResourceTools {
    list: String,
    read: String,
    /// The server, as the descriptions name it.
    server: String,
}

impl ResourceTools {
    /// The names, made unique among `tools` (the server's, as listed).
    pub(super) fn named_among(tools: &[Tool], server: &str) -> Self {
        let taken = |name: &str| tools.iter().any(|tool| tool.name() == name);
        let list = mcs_options::names::unused_argument_key("list_resources", taken);
        let read = mcs_options::names::unused_argument_key("read_resource", |name: &str| {
            taken(name) || name == list
        });
        ResourceTools {
            list,
            read,
            server: server.to_owned(),
        }
    }

    /// The two tools, as a model sees them.
    pub(super) fn tools(&self) -> [Tool; 2] {
        let list = Tool::new(
            &self.list,
            format!(
                "Lists the resources (documents, files, data) the MCP server `{}` offers to \
                 read with `{}`: `resources` gives each one's `uri`, `name` and, when known, \
                 `title`, `description`, `mimeType` and `size`; `resourceTemplates` gives \
                 patterns (`uriTemplate`) for the URIs of more: fill in the `{{placeholders}}` \
                 and read the URI.",
                self.server, self.read
            ),
        )
        .with_title("List the resources");
        let read = Tool::new(
            &self.read,
            format!(
                "Reads a resource of the MCP server `{}` by its URI: its text; binary \
                 contents are described by type and size. Find the URIs with `{}`.",
                self.server, self.list
            ),
        )
        .with_title("Read a resource")
        .with_parameter(
            ToolParameter::new(
                "uri",
                "The resource's URI, as listed or made from a listed template.",
            )
            .with_schema(json!({"type": "string"})),
        );
        [list, read]
    }

    /// The answer to a call of `name`, if it is one of these tools. The arguments have been
    /// checked against the tool's schema already.
    pub(super) async fn answer(
        &self,
        driver: &McpToolDriver,
        name: &str,
        arguments: &Value,
    ) -> Option<Result<Value, ToolError>> {
        if name == self.list {
            let listed = async {
                let resources = driver.resources().await?;
                let templates = driver.resource_templates().await?;
                Ok::<_, McpError>(listing(&resources, &templates))
            };
            return Some(
                listed
                    .await
                    .map_err(|error| ToolError::execution_source(name, error)),
            );
        }
        if name != self.read {
            return None;
        }
        let uri = arguments.get("uri").and_then(Value::as_str).unwrap_or("");
        Some(match driver.read(uri).await {
            Ok(contents) => Ok(Value::String(contents_in_words(uri, &contents))),
            Err(Refused::Uri(message)) => Err(ToolError::invalid_argument(
                name,
                ArgumentError::invalid(
                    "uri",
                    format!(
                        "the URI of a resource `{}` lists (the server answered: {message})",
                        self.list
                    ),
                    mcs::schema::describe_received(&json!(uri)),
                ),
            )),
            Err(Refused::Failed(error)) => Err(ToolError::execution_source(name, error)),
        })
    }
}

/// Why a `resources/read` gave no contents.
enum Refused {
    /// The server does not know the URI (`-32002`) or refused it (`-32602`): its words.
    Uri(String),
    /// Anything else.
    Failed(McpError),
}

/// What `list_resources` answers: the parts of each entry a model uses.
fn listing(resources: &[Resource], templates: &[ResourceTemplate]) -> Value {
    const KEPT: [&str; 7] = [
        "uri",
        "uriTemplate",
        "name",
        "title",
        "description",
        "mimeType",
        "size",
    ];
    let entry = |value: Value| -> Value {
        let Value::Object(all) = value else {
            return Value::Null;
        };
        let kept: Map<String, Value> = all
            .into_iter()
            .filter(|(key, _)| KEPT.contains(&key.as_str()))
            .collect();
        Value::Object(kept)
    };
    let entries = |values: Vec<Value>| -> Vec<Value> { values.into_iter().map(entry).collect() };
    json!({
        "resources": entries(resources.iter().filter_map(|r| serde_json::to_value(r).ok()).collect()),
        "resourceTemplates": entries(templates.iter().filter_map(|t| serde_json::to_value(t).ok()).collect()),
    })
}

/// The contents read from `uri` in words: a lone text as itself; otherwise each part named
/// by its URI and type, texts in full and binary contents by size.
pub(crate) fn contents_in_words(uri: &str, contents: &[ResourceContents]) -> String {
    if let [ResourceContents::TextResourceContents { text, .. }] = contents {
        return text.clone();
    }
    if contents.is_empty() {
        return format!("[resource {uri}: no contents]");
    }
    let blocks: Vec<String> = contents
        .iter()
        .map(|content| match serde_json::to_value(content) {
            Ok(resource) => {
                convert::describe_block(&json!({"type": "resource", "resource": resource}))
            }
            Err(error) => format!("[content that could not be read: {error}]"),
        })
        .collect();
    blocks.join("\n\n")
}

impl McpToolDriver {
    /// The server's resources, every page of `resources/list` (none, without asking, when
    /// the server did not announce the resources capability).
    ///
    /// Nothing is kept between calls, so a list is never stale.
    pub async fn resources(&self) -> Result<Vec<Resource>, McpError> {
        if !has_resources(&self.peer) {
            return Ok(Vec::new());
        }
        let state = &self.state;
        match tokio::time::timeout(state.list_timeout, self.peer.list_all_resources()).await {
            Ok(Ok(resources)) => Ok(resources),
            Ok(Err(error)) => Err(state.request_error("resources/list", error).await),
            Err(_) => Err(state.timeout("resources/list", state.list_timeout).await),
        }
    }

    /// The server's resource templates (`resources/templates/list`, every page): patterns
    /// of URIs [`read_resource`](Self::read_resource) takes. None, without asking, when the
    /// server did not announce the resources capability; none too when it has resources
    /// but does not answer this request (`-32601`).
    pub async fn resource_templates(&self) -> Result<Vec<ResourceTemplate>, McpError> {
        if !has_resources(&self.peer) {
            return Ok(Vec::new());
        }
        let state = &self.state;
        let listed = self.peer.list_all_resource_templates();
        match tokio::time::timeout(state.list_timeout, listed).await {
            Ok(Ok(templates)) => Ok(templates),
            Ok(Err(ServiceError::McpError(error))) if error.code == ErrorCode::METHOD_NOT_FOUND => {
                Ok(Vec::new())
            }
            Ok(Err(error)) => Err(state.request_error("resources/templates/list", error).await),
            Err(_) => Err(state
                .timeout("resources/templates/list", state.list_timeout)
                .await),
        }
    }

    /// The contents of the resource at `uri` (`resources/read`), as the server sent them:
    /// texts, and blobs in base64. Waits at most the call timeout
    /// ([`ConnectOptions::call_timeout`](crate::ConnectOptions::call_timeout)).
    pub async fn read_resource(&self, uri: &str) -> Result<Vec<ResourceContents>, McpError> {
        match self.read(uri).await {
            Ok(contents) => Ok(contents),
            Err(Refused::Uri(detail)) => Err(McpError::Request {
                server: self.state.server.clone(),
                request: "resources/read",
                detail,
                context: self.state.context().await,
            }),
            Err(Refused::Failed(error)) => Err(error),
        }
    }

    async fn read(&self, uri: &str) -> Result<Vec<ResourceContents>, Refused> {
        let state = &self.state;
        let request = self.peer.read_resource(ReadResourceRequestParams::new(uri));
        match tokio::time::timeout(self.call_timeout, request).await {
            Ok(Ok(result)) => Ok(result.contents),
            Ok(Err(ServiceError::McpError(error)))
                if error.code == ErrorCode::RESOURCE_NOT_FOUND
                    || error.code == ErrorCode::INVALID_PARAMS =>
            {
                Err(Refused::Uri(format!(
                    "error {} for `{uri}`: {}",
                    error.code.0, error.message
                )))
            }
            Ok(Err(error)) => Err(Refused::Failed(
                state.request_error("resources/read", error).await,
            )),
            Err(_) => Err(Refused::Failed(
                state.timeout("resources/read", self.call_timeout).await,
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn several_contents_are_joined_each_named_and_blobs_described() {
        let contents = [
            ResourceContents::text("first part", "file:///a.txt"),
            ResourceContents::blob("AAAABBBB", "file:///b.bin").with_mime_type("image/png"),
        ];
        assert_eq!(
            contents_in_words("file:///a", &contents),
            "[resource file:///a.txt (text/plain)]\nfirst part\n\n\
             [resource file:///b.bin (image/png), 6 bytes]"
        );
        assert_eq!(
            contents_in_words("file:///a.txt", &contents[..1]),
            "first part"
        );
        assert_eq!(
            contents_in_words("file:///none", &[]),
            "[resource file:///none: no contents]"
        );
    }

    #[test]
    fn the_tools_are_named_apart_from_the_servers() {
        let taken = [
            Tool::new("list_resources", "the server's own"),
            Tool::new("read_resource_2", "the server's own"),
            Tool::new("read_resource", "the server's own"),
        ];
        let named = ResourceTools::named_among(&taken, "srv");
        assert_eq!(
            (named.list.as_str(), named.read.as_str()),
            ("list_resources_2", "read_resource_3")
        );
        let [list, read] = named.tools();
        assert!(list.description().contains("read with `read_resource_3`"));
        assert!(
            read.description()
                .contains("Find the URIs with `list_resources_2`")
        );
    }
}
