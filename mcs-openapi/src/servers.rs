//! The servers a document names: OpenAPI 3's `servers` (at the root, on a path item or on
//! an operation), and the one of Swagger 2.0's `host` and `basePath`.

use serde_json::{Map, Value};

use mcs_rest::{Server, ServerVariable};

/// The servers `map` lists under `servers`: an OpenAPI 3 document's root, a path item or
/// an operation.
pub(crate) fn servers(map: &Map<String, Value>) -> Vec<Server> {
    let Some(Value::Array(list)) = map.get("servers") else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|server| {
            let url = server.get("url")?.as_str()?;
            let variables = match server.get("variables") {
                Some(Value::Object(variables)) => variables
                    .iter()
                    .map(|(name, variable)| {
                        let allowed: Vec<String> = match variable.get("enum") {
                            Some(Value::Array(values)) => values.iter().map(scalar_text).collect(),
                            _ => Vec::new(),
                        };
                        let default = match variable.get("default") {
                            Some(value) => scalar_text(value),
                            None => allowed.first().cloned().unwrap_or_default(),
                        };
                        ServerVariable {
                            name: name.clone().into(),
                            default: default.into(),
                            allowed: allowed
                                .into_iter()
                                .map(Into::into)
                                .collect::<Vec<_>>()
                                .into(),
                        }
                    })
                    .collect(),
                _ => Vec::new(),
            };
            Some(Server {
                url: url.to_owned().into(),
                variables: variables.into(),
            })
        })
        .collect()
}

/// The one server of a Swagger 2.0 document: `{scheme}://{host}{basePath}`, the first
/// scheme listed (https when none is).
pub(crate) fn swagger_servers(root: &Map<String, Value>) -> Vec<Server> {
    let host = root
        .get("host")
        .and_then(Value::as_str)
        .filter(|h| !h.is_empty());
    let base_path = root.get("basePath").and_then(Value::as_str).unwrap_or("");
    let url = match host {
        Some(host) => {
            let scheme = root
                .get("schemes")
                .and_then(Value::as_array)
                .and_then(|s| s.iter().find_map(Value::as_str))
                .unwrap_or("https");
            format!("{scheme}://{host}{base_path}")
        }
        None if !base_path.is_empty() => base_path.to_owned(),
        None => return Vec::new(),
    };
    vec![Server {
        url: url.into(),
        variables: Vec::new().into(),
    }]
}

/// A scalar's text: a string as it is, a number or a boolean as JSON; anything else empty.
pub(crate) fn scalar_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Number(_) | Value::Bool(_) => value.to_string(),
        _ => String::new(),
    }
}
