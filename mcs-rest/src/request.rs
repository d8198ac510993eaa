//! From a call's checked arguments to an [`HttpRequest`]: base URL, path, query, headers,
//! cookies, credentials and body.

use serde_json::{Map, Value};

use mcs_core::schema::describe_received;
use mcs_core::{ArgumentError, ToolError};

use super::auth::{Placement, placements};
use super::body::{encode, take_body};
use super::params::{
    cookie_pair, form_encode, header_value, is_dot_segment, path_value, query_pairs,
    unsafe_header_char,
};
use super::settings::Settings;
use super::table::{Api, Location, Operation};
use super::transport::HttpRequest;

/// Builds the request for `operation` from `arguments`, which validation has already
/// checked against the operation's schema.
pub(crate) fn build(
    api: &Api,
    operation: &Operation,
    mut arguments: Map<String, Value>,
    settings: &Settings,
) -> Result<HttpRequest, ToolError> {
    let tool = operation.name.as_ref();
    let invalid = |argument: &str, expected: &str, value: &Value| {
        ToolError::invalid_argument(
            tool,
            ArgumentError::invalid(argument, expected, describe_received(value)),
        )
    };

    let mut path = operation.path.to_string();
    let mut query = Vec::new();
    let mut headers: Vec<(String, String)> = Vec::new();
    let mut cookies = Vec::new();
    for parameter in operation.parameters.iter() {
        let value = match arguments.remove(parameter.argument.as_ref()) {
            Some(Value::Null) | None if parameter.location == Location::Path => {
                return Err(ToolError::invalid_argument(
                    tool,
                    ArgumentError::missing(parameter.argument.as_ref(), "a value for the path"),
                ));
            }
            Some(Value::Null) | None => continue,
            Some(value) => value,
        };
        match parameter.location {
            Location::Path => {
                let text = path_value(parameter, &value);
                if text.is_empty() || is_dot_segment(&text) {
                    return Err(invalid(
                        &parameter.argument,
                        "a non-empty value other than `.` or `..`",
                        &value,
                    ));
                }
                path = path.replace(&format!("{{{}}}", parameter.name), &text);
            }
            Location::Query => query_pairs(parameter, &value, &mut query),
            Location::Header => {
                let text = header_value(parameter, &value);
                if let Some(c) = unsafe_header_char(&text) {
                    return Err(invalid(
                        &parameter.argument,
                        &format!("a header value without control characters (found {c:?})"),
                        &value,
                    ));
                }
                headers.push((parameter.name.to_string(), text));
            }
            Location::Cookie => {
                cookies.push(cookie_pair(&parameter.name, &value, parameter.explode))
            }
        }
    }

    let body = match &operation.body {
        Some(body) => match take_body(body, &mut arguments) {
            Some(value) => Some(encode(body, &value, settings.file_root.as_deref()).map_err(
                |e| {
                    let received = e.received.unwrap_or_else(|| describe_received(&value));
                    ToolError::invalid_argument(
                        tool,
                        ArgumentError::invalid(e.argument, e.message, received),
                    )
                },
            )?),
            None if body.required => {
                return Err(ToolError::invalid_argument(
                    tool,
                    ArgumentError::missing(body_name(body), "the request body"),
                ));
            }
            None => None,
        },
        None => None,
    };

    for placement in placements(operation, &api.security_schemes, &settings.credentials)
        .map_err(|message| ToolError::execution(tool, message))?
    {
        match placement {
            Placement::Header(name, value) => headers.push((name, value)),
            Placement::Query(name, value) => query.push((form_encode(&name), form_encode(&value))),
            Placement::Cookie(name, value) => {
                cookies.push(cookie_pair(&name, &Value::String(value), false));
            }
        }
    }
    if !cookies.is_empty() {
        headers.push(("Cookie".to_owned(), cookies.join("; ")));
    }
    for (name, value) in &settings.headers {
        if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
            headers.push((name.clone(), value.clone()));
        }
    }

    let base = operation_base_url(api, operation, settings)
        .map_err(|message| ToolError::execution(tool, message))?;
    let url = join_url(&base, &path, query);
    let body = body.map(|encoded| {
        headers.push(("Content-Type".to_owned(), encoded.content_type));
        encoded.bytes
    });
    if !headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("accept"))
    {
        headers.push((
            "Accept".to_owned(),
            "application/json, */*;q=0.5".to_owned(),
        ));
    }
    Ok(HttpRequest {
        method: operation.method,
        url,
        headers,
        body,
        timeout: settings.timeout,
        max_response_bytes: settings.max_response_bytes,
    })
}

/// The request's URL: `base`, then `path`, then the query. A fragment the document wrote
/// into a path (Box's `/files/{file_id}#add_shared_link`, which tells two operations on one
/// path apart) is not sent; a query written into the base URL (`…/v1?tenant=acme`) or the
/// path (S3's `/{Bucket}?tagging`) comes before the parameters' pairs.
fn join_url(base: &str, path: &str, pairs: Vec<(String, String)>) -> String {
    let split = |url: &str| -> (String, Option<String>) {
        let url = url.split('#').next().unwrap_or_default();
        match url.split_once('?') {
            Some((before, query)) => (
                before.to_owned(),
                Some(query.to_owned()).filter(|q| !q.is_empty()),
            ),
            None => (url.to_owned(), None),
        }
    };
    let (mut url, base_query) = split(base);
    let (path, path_query) = split(path);
    url.push_str(&path);
    let query: Vec<String> = base_query
        .into_iter()
        .chain(path_query)
        .chain(pairs.into_iter().map(|(k, v)| format!("{k}={v}")))
        .collect();
    if !query.is_empty() {
        url.push('?');
        url.push_str(&query.join("&"));
    }
    url
}

fn body_name(body: &super::table::RequestBody) -> String {
    match &body.argument {
        super::table::BodyArgument::Whole(name) => name.to_string(),
        super::table::BodyArgument::Properties(names) => names.join(", "),
    }
}

/// The base URL without a trailing slash: the configured one, or the document's first
/// server with its variables filled in.
pub(crate) fn base_url(api: &Api, settings: &Settings) -> Result<String, String> {
    let url = match &settings.base_url {
        Some(url) => url.clone(),
        None => {
            let Some(server) = api.servers.first() else {
                return Err(
                    "the API description names no server; give the driver a base URL".to_owned(),
                );
            };
            filled(server, settings)
        }
    };
    checked(url, settings)
}

/// The base URL of `operation`: its own server when the document gives it one and the
/// driver was given no base URL (a relative one is taken from the API's server's origin),
/// else [`base_url`].
fn operation_base_url(
    api: &Api,
    operation: &Operation,
    settings: &Settings,
) -> Result<String, String> {
    let Some(server) = operation
        .servers
        .first()
        .filter(|_| settings.base_url.is_none())
    else {
        return base_url(api, settings);
    };
    let mut url = filled(server, settings);
    if !url.contains("://") {
        let api_url = base_url(api, settings)?;
        let origin_end = api_url
            .find("://")
            .and_then(|scheme| api_url[scheme + 3..].find('/').map(|at| scheme + 3 + at))
            .unwrap_or(api_url.len());
        let separator = if url.starts_with('/') { "" } else { "/" };
        url = format!("{}{separator}{url}", &api_url[..origin_end]);
    }
    checked(url, settings)
}

/// `server`'s URL with its variables: the values set on the driver, else the defaults.
fn filled(server: &super::table::Server, settings: &Settings) -> String {
    let mut url = server.url.to_string();
    for variable in server.variables.iter() {
        let value = settings
            .server_variables
            .iter()
            .find(|(name, _)| *name == variable.name)
            .map_or(variable.default.as_ref(), |(_, value)| value.as_str());
        url = url.replace(&format!("{{{}}}", variable.name), value);
    }
    url
}

/// `url` with the driver's variables filled in, checked absolute, without a trailing slash.
fn checked(mut url: String, settings: &Settings) -> Result<String, String> {
    // A configured base URL may be a template too (`http://127.0.0.1:{port}/v1`): the
    // variables set on the driver fill it as they fill the document's server.
    for (name, value) in &settings.server_variables {
        url = url.replace(&format!("{{{name}}}"), value);
    }
    // Left in, `{port}` reaches the HTTP client as "invalid port number", which names
    // neither the variable nor the way to set it.
    if let Some(variable) = unfilled_variable(&url) {
        return Err(format!(
            "the server URL `{url}` has the variable `{{{variable}}}` with no value (set it \
             with `with_server_variable`, or `mcs serve --server-var {variable}=VALUE`)"
        ));
    }
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(format!(
            "the base URL `{url}` is not an absolute http(s) URL; give the driver one"
        ));
    }
    Ok(url.trim_end_matches('/').to_owned())
}

/// The name of the first `{variable}` still in `url`.
fn unfilled_variable(url: &str) -> Option<&str> {
    let start = url.find('{')? + 1;
    let length = url.get(start..)?.find('}')?;
    url.get(start..start + length)
}
