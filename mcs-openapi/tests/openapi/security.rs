//! Security requirements and schemes, and servers.

use mcs_openapi::ReadOptions;
use mcs_rest::{Location, SchemeKind, SecurityRequirement, SecurityScheme, Server, ServerVariable};

use super::{doc, op, read, read_with};

fn requirement(schemes: &[&str]) -> SecurityRequirement {
    SecurityRequirement {
        schemes: schemes
            .iter()
            .map(|s| s.to_string().into())
            .collect::<Vec<_>>()
            .into(),
    }
}

const SCHEMES: &str = r#"
security: [{bearer: []}]
components:
  securitySchemes:
    digest: {type: http, scheme: digest}
    basic: {type: http, scheme: Basic}
    key: {type: apiKey, in: cookie, name: sid}
    bearer: {type: http, scheme: bearer}
    oauth: {type: oauth2, flows: {}}
    oidc: {type: openIdConnect, openIdConnectUrl: https://x}
    mtls: {type: mutualTLS}
    unused: {type: apiKey, in: header, name: X-Unused}
"#;

#[test]
fn operation_security_overrides_the_global_one() {
    let document = read(&doc(
        r#"
  /a:
    get: {operationId: global}
    put: {operationId: none, security: []}
    post: {operationId: alternatives, security: [{digest: []}, {basic: [], key: []}, {oauth: [read]}, {}]}
    patch: {operationId: oidc, security: [{mtls: []}, {oidc: []}]}
"#,
        SCHEMES,
    ));
    assert_eq!(
        op(&document, "global").security.as_ref(),
        [requirement(&["bearer"])]
    );
    assert!(op(&document, "none").security.is_empty());
    assert_eq!(
        op(&document, "alternatives").security.as_ref(),
        [
            requirement(&["basic", "key"]),
            requirement(&["oauth"]),
            requirement(&[])
        ]
    );
    assert_eq!(
        op(&document, "oidc").security.as_ref(),
        [requirement(&["oidc"])]
    );
    let schemes: Vec<SecurityScheme> = document.api.security_schemes.to_vec();
    assert_eq!(
        schemes,
        [
            SecurityScheme {
                name: "basic".into(),
                kind: SchemeKind::Basic
            },
            SecurityScheme {
                name: "key".into(),
                kind: SchemeKind::ApiKey {
                    location: Location::Cookie,
                    name: "sid".into()
                }
            },
            SecurityScheme {
                name: "bearer".into(),
                kind: SchemeKind::Bearer
            },
            SecurityScheme {
                name: "oauth".into(),
                kind: SchemeKind::OAuth2
            },
            SecurityScheme {
                name: "oidc".into(),
                kind: SchemeKind::OpenIdConnect
            },
        ]
    );
}

#[test]
fn only_unsupported_alternatives_make_the_operation_unsupported() {
    let yaml = doc(
        r#"
  /a:
    get: {operationId: digest_only, security: [{digest: []}, {mtls: []}]}
    put: {operationId: undefined, security: [{nope: []}]}
    post: {operationId: fine}
"#,
        SCHEMES,
    );
    let error = read_with(&yaml, &ReadOptions::default()).unwrap_err();
    assert_eq!(error.pointer, "/paths/~1a/get/security/0");
    assert_eq!(
        error.message,
        "security scheme `digest`: HTTP authentication scheme `digest` is not supported"
    );
    let document = read_with(&yaml, &ReadOptions::default().lenient(true)).unwrap();
    let names: Vec<&str> = document
        .api
        .operations
        .iter()
        .map(|o| o.name.as_ref())
        .collect();
    assert_eq!(names, ["fine"]);
    let reasons: Vec<(&str, &str)> = document
        .skipped
        .iter()
        .map(|s| (s.operation.as_str(), s.reason.as_str()))
        .collect();
    assert_eq!(
        reasons,
        [
            (
                "GET /a",
                "security scheme `digest`: HTTP authentication scheme `digest` is not supported"
            ),
            ("PUT /a", "security scheme `nope` is not defined"),
        ]
    );
    assert_eq!(
        document.skipped[1].to_string(),
        "PUT /a skipped (at /paths/~1a/put/security/0): security scheme `nope` is not defined"
    );
    assert_eq!(document.api.security_schemes.len(), 1);
}

#[test]
fn servers_with_variables() {
    let document = read(&doc(
        "  {}",
        r#"
servers:
  - url: https://{region}.example.com:{port}/v1
    variables:
      region: {default: eu, enum: [eu, us]}
      port: {default: 443}
  - url: /relative
  - {description: no url}
"#,
    ));
    assert_eq!(
        document.api.servers.as_ref(),
        [
            Server {
                url: "https://{region}.example.com:{port}/v1".into(),
                variables: vec![
                    ServerVariable {
                        name: "region".into(),
                        default: "eu".into(),
                        allowed: vec!["eu".into(), "us".into()].into()
                    },
                    ServerVariable {
                        name: "port".into(),
                        default: "443".into(),
                        allowed: vec![].into()
                    },
                ]
                .into()
            },
            Server {
                url: "/relative".into(),
                variables: vec![].into()
            },
        ]
    );
    assert!(read(&doc("  {}", "")).api.servers.is_empty());
}

#[test]
fn parameters_an_api_key_scheme_fills_are_not_the_models() {
    // Trello: `key` and `token` are query parameters of every operation and its schemes.
    let document = read(&doc(
        r#"
  /cards/{id}:
    get:
      operationId: getCard
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: key, in: query, required: true, schema: {type: string}}
        - {name: token, in: query, required: true, schema: {type: string}}
        - {name: fields, in: query, schema: {type: string}}
      responses: {'200': {description: ok}}
  /public:
    get:
      operationId: getPublic
      security: []
      parameters:
        - {name: key, in: query, schema: {type: string}}
      responses: {'200': {description: ok}}
"#,
        r#"
security: [{APIKey: [], APIToken: []}]
components:
  securitySchemes:
    APIKey: {type: apiKey, in: query, name: key}
    APIToken: {type: apiKey, in: query, name: token}
"#,
    ));
    let card = op(&document, "getCard");
    let names: Vec<&str> = card.parameters.iter().map(|p| p.name.as_ref()).collect();
    assert_eq!(names, ["id", "fields"]);
    let schema: serde_json::Value = serde_json::from_str(&card.schema).unwrap();
    assert!(schema["properties"].get("key").is_none(), "{schema}");
    assert_eq!(schema["required"], serde_json::json!(["id"]));
    // An operation that needs no key keeps a parameter of that name: it is its own.
    let public = op(&document, "getPublic");
    assert_eq!(public.parameters.len(), 1);
}
