//! `mcs_rest` against a real HTTP server on loopback: every rule of the module docs
//! (paths, query, headers, cookies, bodies, credentials, servers, responses, validation)
//! proven by what the server actually received.
//!
//! Each test builds its table rows by hand, starts its own [`MockServer`] on 127.0.0.1 and
//! asserts the exact path, query, headers and body that arrived — or that nothing arrived
//! when the call had to be refused.

#![cfg(feature = "http")]

#[path = "rest_http/auth.rs"]
mod auth;
#[path = "rest_http/bodies.rs"]
mod bodies;
#[path = "rest_http/charsets.rs"]
mod charsets;
#[path = "rest_http/drivers.rs"]
mod drivers;
#[path = "rest_http/headers.rs"]
mod headers;
#[path = "rest_http/paths.rs"]
mod paths;
#[path = "rest_http/query.rs"]
mod query;
#[path = "rest_http/responses.rs"]
mod responses;
#[path = "rest_http/servers.rs"]
mod servers;
#[path = "rest_http/xml.rs"]
mod xml;

use std::borrow::Cow;

use mcs_core::{ArgumentError, ArgumentErrorKind, ToolDriver, ToolError};
use mcs_rest::{
    Api, BodyArgument, BodyEncoding, Location, Method, Operation, Parameter, RequestBody,
    RestDriver, SchemeKind, SecurityRequirement, SecurityScheme, Server, ServerVariable, Style,
};
use serde_json::{Value, json};
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

/// One operation row, built step by step so each test states only what it is about.
pub(crate) struct Op(Operation);

impl Op {
    pub(crate) fn new(name: &str, method: Method, path: &str) -> Self {
        Op(Operation {
            name: Cow::Owned(name.to_owned()),
            title: None,
            description: Some(Cow::Owned(format!("{method} {path}"))),
            method,
            path: Cow::Owned(path.to_owned()),
            servers: Cow::Borrowed(&[]),
            parameters: Cow::Owned(Vec::new()),
            body: None,
            security: Cow::Owned(Vec::new()),
            tags: Cow::Borrowed(&[]),
            deprecated: false,
            schema: Cow::Borrowed(r#"{"type":"object","properties":{}}"#),
            annotations: method.annotations(),
        })
    }

    pub(crate) fn get(name: &str, path: &str) -> Self {
        Op::new(name, Method::Get, path)
    }

    pub(crate) fn post(name: &str, path: &str) -> Self {
        Op::new(name, Method::Post, path)
    }

    /// The arguments schema: `properties` as given, `required` listing these names.
    pub(crate) fn schema(mut self, properties: Value, required: &[&str]) -> Self {
        let schema = json!({"type": "object", "properties": properties, "required": required});
        self.0.schema = Cow::Owned(schema.to_string());
        self
    }

    pub(crate) fn param(mut self, parameter: Parameter) -> Self {
        self.0.parameters.to_mut().push(parameter);
        self
    }

    pub(crate) fn body(mut self, body: RequestBody) -> Self {
        self.0.body = Some(body);
        self
    }

    /// The security alternatives, each a list of scheme names required together.
    pub(crate) fn security(mut self, alternatives: &[&[&str]]) -> Self {
        self.0.security = Cow::Owned(
            alternatives
                .iter()
                .map(|schemes| SecurityRequirement {
                    schemes: Cow::Owned(schemes.iter().map(|s| owned(s)).collect()),
                })
                .collect(),
        );
        self
    }

    pub(crate) fn build(self) -> Operation {
        self.0
    }
}

pub(crate) fn owned(text: &str) -> Cow<'static, str> {
    Cow::Owned(text.to_owned())
}

/// A parameter whose argument and wire name are both `name`.
pub(crate) fn param(name: &str, location: Location, style: Style, explode: bool) -> Parameter {
    Parameter {
        argument: owned(name),
        name: owned(name),
        location,
        style,
        explode,
        allow_reserved: false,
        required: location == Location::Path,
    }
}

pub(crate) fn path_param(name: &str) -> Parameter {
    param(name, Location::Path, Style::Simple, false)
}

pub(crate) fn query_param(name: &str) -> Parameter {
    param(name, Location::Query, Style::Form, true)
}

pub(crate) fn body(
    media_type: &str,
    encoding: BodyEncoding,
    argument: BodyArgument,
) -> RequestBody {
    RequestBody {
        media_type: owned(media_type),
        encoding,
        argument,
        files: Cow::Owned(Vec::new()),
        required: true,
        xml: None,
        deep_objects: Cow::Borrowed(&[]),
    }
}

pub(crate) fn whole(name: &str) -> BodyArgument {
    BodyArgument::Whole(owned(name))
}

pub(crate) fn scheme(name: &str, kind: SchemeKind) -> SecurityScheme {
    SecurityScheme {
        name: owned(name),
        kind,
    }
}

pub(crate) fn server(url: &str, variables: &[(&str, &str)]) -> Server {
    Server {
        url: owned(url),
        variables: Cow::Owned(
            variables
                .iter()
                .map(|(name, default)| ServerVariable {
                    name: owned(name),
                    default: owned(default),
                    allowed: Cow::Owned(Vec::new()),
                })
                .collect(),
        ),
    }
}

pub(crate) fn api(operations: Vec<Operation>) -> Api {
    api_with(operations, Vec::new(), Vec::new())
}

pub(crate) fn api_with(
    operations: Vec<Operation>,
    schemes: Vec<SecurityScheme>,
    servers: Vec<Server>,
) -> Api {
    Api {
        name: owned("Test"),
        title: owned("Test API"),
        version: owned("1.0.0"),
        servers: Cow::Owned(servers),
        security_schemes: Cow::Owned(schemes),
        operations: Cow::Owned(operations),
        tags: Cow::Borrowed(&[]),
        definitions: Cow::Borrowed(""),
    }
}

/// A server on 127.0.0.1 answering every request with `{"ok": true}`.
pub(crate) async fn ok_server() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"ok": true})))
        .mount(&server)
        .await;
    server
}

/// A server answering every request with `template`.
pub(crate) async fn server_answering(template: ResponseTemplate) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(template)
        .mount(&server)
        .await;
    server
}

/// A driver over these operations, sending to `server`.
pub(crate) fn driver(operations: Vec<Operation>, server: &MockServer) -> RestDriver {
    RestDriver::from_api(api(operations)).with_base_url(server.uri())
}

pub(crate) async fn call(
    driver: &RestDriver,
    tool: &str,
    arguments: Value,
) -> Result<Value, ToolError> {
    ToolDriver::execute_tool(driver, tool, arguments).await
}

/// Every request the server received.
pub(crate) async fn received(server: &MockServer) -> Vec<Request> {
    server
        .received_requests()
        .await
        .expect("request recording is on")
}

/// The only request the server received.
pub(crate) async fn only_request(server: &MockServer) -> Request {
    let mut requests = received(server).await;
    assert_eq!(requests.len(), 1, "expected exactly one request");
    requests.remove(0)
}

/// The path and query exactly as they went on the wire (still percent-encoded).
pub(crate) fn target(request: &Request) -> String {
    match request.url.query() {
        Some(query) => format!("{}?{query}", request.url.path()),
        None => request.url.path().to_owned(),
    }
}

/// The value of header `name` in `request`, which must be present once.
pub(crate) fn header(request: &Request, name: &str) -> String {
    let values: Vec<_> = request.headers.get_all(name).iter().collect();
    assert_eq!(values.len(), 1, "header {name}: {values:?}");
    values[0]
        .to_str()
        .expect("a visible-ASCII header")
        .to_owned()
}

/// The problems of an `InvalidArguments` error; panics (failing the test) on anything else.
pub(crate) fn problems(result: Result<Value, ToolError>) -> Vec<ArgumentError> {
    match result {
        Err(ToolError::InvalidArguments { problems, .. }) => problems,
        other => panic!("expected InvalidArguments, got {other:?}"),
    }
}

/// The single problem's argument name and kind.
pub(crate) fn single_problem(result: Result<Value, ToolError>) -> (String, ArgumentErrorKind) {
    let mut problems = problems(result);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let problem = problems.remove(0);
    (problem.argument, problem.kind)
}

/// The message of an `Execution` error; panics (failing the test) on anything else.
pub(crate) fn execution_message(result: Result<Value, ToolError>) -> String {
    match result {
        Err(ToolError::Execution { message, .. }) => message,
        other => panic!("expected an execution error, got {other:?}"),
    }
}

/// A port nothing listens on: bound, then released.
pub(crate) fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind on loopback");
    let port = listener.local_addr().expect("bound address").port();
    drop(listener);
    port
}
