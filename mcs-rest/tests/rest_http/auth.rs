//! Credentials: where each kind goes, which security alternative is used, what happens when
//! none can be satisfied, and that secrets show up nowhere but on the wire.

use std::sync::{Arc, Mutex};

use mcs_core::BoxFuture;
use mcs_rest::{Credential, HttpRequest, HttpResponse, HttpTransport, Secret, TransportError};

use super::*;

const TOKEN: &str = "tok-SECRET-1";
const PASSWORD: &str = "pw-SECRET-2";
const API_KEY: &str = "key&SECRET=3";

fn schemes() -> Vec<SecurityScheme> {
    vec![
        scheme("bearerAuth", SchemeKind::Bearer),
        scheme("basicAuth", SchemeKind::Basic),
        scheme(
            "headerKey",
            SchemeKind::ApiKey {
                location: Location::Header,
                name: owned("X-API-Key"),
            },
        ),
        scheme(
            "queryKey",
            SchemeKind::ApiKey {
                location: Location::Query,
                name: owned("api_key"),
            },
        ),
        scheme(
            "cookieKey",
            SchemeKind::ApiKey {
                location: Location::Cookie,
                name: owned("session"),
            },
        ),
        scheme("oauth", SchemeKind::OAuth2),
    ]
}

/// A driver whose one operation `op` (GET /me) needs `security`.
fn secured(server: &MockServer, security: &[&[&str]]) -> RestDriver {
    let op = Op::get("op", "/me").security(security).build();
    RestDriver::from_api(api_with(vec![op], schemes(), Vec::new())).with_base_url(server.uri())
}

fn has_header(request: &Request, name: &str) -> bool {
    request.headers.get(name).is_some()
}

#[tokio::test]
async fn bearer_and_oauth_tokens_go_in_the_authorization_header() {
    for scheme in ["bearerAuth", "oauth"] {
        let server = ok_server().await;
        let driver = secured(&server, &[&[scheme]]).with_bearer_token(TOKEN);
        call(&driver, "op", json!({})).await.expect("sent");
        let request = only_request(&server).await;
        assert_eq!(header(&request, "authorization"), format!("Bearer {TOKEN}"));
    }
}

#[tokio::test]
async fn basic_credentials_are_base64_of_user_colon_password() {
    let server = ok_server().await;
    let driver = secured(&server, &[&["basicAuth"]]).with_basic_auth("aladdin", "opensesame");
    call(&driver, "op", json!({})).await.expect("sent");
    assert_eq!(
        header(&only_request(&server).await, "authorization"),
        "Basic YWxhZGRpbjpvcGVuc2VzYW1l"
    );
}

#[tokio::test]
async fn api_keys_in_a_header_the_query_and_a_cookie() {
    let server = ok_server().await;
    let driver = secured(&server, &[&["headerKey"]]).with_api_key(API_KEY);
    call(&driver, "op", json!({})).await.expect("sent");
    let request = only_request(&server).await;
    assert_eq!(header(&request, "x-api-key"), API_KEY);
    assert_eq!(target(&request), "/me");

    let server = ok_server().await;
    let driver = secured(&server, &[&["queryKey"]]).with_api_key(API_KEY);
    call(&driver, "op", json!({})).await.expect("sent");
    let request = only_request(&server).await;
    assert_eq!(target(&request), "/me?api_key=key%26SECRET%3D3");
    assert!(!has_header(&request, "x-api-key"));

    // The key's cookie joins the call's own cookies in one header.
    let server = ok_server().await;
    let op = Op::get("op", "/me")
        .param(param("theme", Location::Cookie, Style::Form, true))
        .schema(json!({"theme": {"type": "string"}}), &[])
        .security(&[&["cookieKey"]])
        .build();
    let driver = RestDriver::from_api(api_with(vec![op], schemes(), Vec::new()))
        .with_base_url(server.uri())
        .with_api_key(API_KEY);
    call(&driver, "op", json!({"theme": "dark"}))
        .await
        .expect("sent");
    let request = only_request(&server).await;
    assert_eq!(
        header(&request, "cookie"),
        "theme=dark; session=key&SECRET=3"
    );
}

#[tokio::test]
async fn the_first_satisfiable_alternative_is_used_and_only_it() {
    let server = ok_server().await;
    let alternatives: &[&[&str]] = &[&["headerKey", "basicAuth"], &["bearerAuth"], &["queryKey"]];
    // headerKey+basicAuth lacks basic: the bearer alternative is next, the query key unused.
    let driver = secured(&server, alternatives)
        .with_api_key(API_KEY)
        .with_bearer_token(TOKEN);
    call(&driver, "op", json!({})).await.expect("sent");
    // With basic too, the first alternative is complete and wins.
    let driver = secured(&server, alternatives)
        .with_api_key(API_KEY)
        .with_bearer_token(TOKEN)
        .with_basic_auth("u", "p");
    call(&driver, "op", json!({})).await.expect("sent");
    let requests = received(&server).await;
    assert_eq!(requests.len(), 2);
    assert_eq!(
        header(&requests[0], "authorization"),
        format!("Bearer {TOKEN}")
    );
    assert!(!has_header(&requests[0], "x-api-key"));
    assert_eq!(target(&requests[0]), "/me");
    assert_eq!(header(&requests[1], "authorization"), "Basic dTpw");
    assert_eq!(header(&requests[1], "x-api-key"), API_KEY);
    assert_eq!(target(&requests[1]), "/me");
}

#[tokio::test]
async fn a_credential_for_a_named_scheme_beats_the_default_for_its_kind() {
    let server = ok_server().await;
    let driver = secured(&server, &[&["bearerAuth"]])
        .with_bearer_token("default-token")
        .with_credential("bearerAuth", Credential::Bearer(Secret::new(TOKEN)));
    call(&driver, "op", json!({})).await.expect("sent");
    assert_eq!(
        header(&only_request(&server).await, "authorization"),
        format!("Bearer {TOKEN}")
    );
}

#[tokio::test]
async fn an_empty_alternative_makes_credentials_optional() {
    let server = ok_server().await;
    let driver = secured(&server, &[&["bearerAuth"], &[]]);
    call(&driver, "op", json!({}))
        .await
        .expect("sent anonymously");
    let driver = secured(&server, &[&["bearerAuth"], &[]]).with_bearer_token(TOKEN);
    call(&driver, "op", json!({})).await.expect("sent");
    let requests = received(&server).await;
    assert_eq!(requests.len(), 2);
    assert!(!has_header(&requests[0], "authorization"));
    assert_eq!(
        header(&requests[1], "authorization"),
        format!("Bearer {TOKEN}")
    );
}

#[tokio::test]
async fn a_required_scheme_without_credentials_fails_before_sending() {
    let server = ok_server().await;
    let driver =
        secured(&server, &[&["bearerAuth"], &["headerKey"]]).with_basic_auth("u", PASSWORD);
    let message = execution_message(call(&driver, "op", json!({})).await);
    assert!(
        message.contains("the security schemes `bearerAuth` or `headerKey`,"),
        "{message}"
    );
    assert!(!message.contains(PASSWORD), "{message}");
    // Schemes required together are named together; one of them given, the other alone.
    let driver = secured(&server, &[&["headerKey", "queryKey"], &["bearerAuth"]]);
    let message = execution_message(call(&driver, "op", json!({})).await);
    assert!(
        message.contains("the security schemes `headerKey` and `queryKey` or `bearerAuth`,"),
        "{message}"
    );
    let driver = secured(&server, &[&["headerKey", "basicAuth"]]).with_basic_auth("u", PASSWORD);
    let message = execution_message(call(&driver, "op", json!({})).await);
    assert!(
        message
            .contains("the security scheme `headerKey`, and the driver has none configured for it"),
        "{message}"
    );
    assert!(received(&server).await.is_empty());
}

/// A transport double that keeps the `Debug` text of every request and answers 200.
#[derive(Debug, Default)]
struct Recorder {
    seen: Mutex<Vec<String>>,
}

impl HttpTransport for Recorder {
    fn send(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, TransportError>> {
        self.seen
            .lock()
            .expect("not poisoned")
            .push(format!("{request:?} {request:#?}"));
        Box::pin(async {
            Ok(HttpResponse {
                status: 200,
                headers: vec![("content-type".to_owned(), "application/json".to_owned())],
                body: b"{}".to_vec(),
            })
        })
    }
}

fn assert_no_secret(text: &str) {
    for secret in [TOKEN, PASSWORD, API_KEY, "key%26SECRET", "SECRET"] {
        assert!(!text.contains(secret), "{secret} leaked into: {text}");
    }
}

#[tokio::test]
async fn secrets_appear_in_no_debug_output_and_no_error() {
    let every: &[&[&str]] = &[&[
        "bearerAuth",
        "basicAuth",
        "headerKey",
        "queryKey",
        "cookieKey",
    ]];
    let recorder = Arc::new(Recorder::default());
    let op = Op::get("op", "/me").security(every).build();
    let configured = |driver: RestDriver| {
        driver
            .with_bearer_token(TOKEN)
            .with_basic_auth("user", PASSWORD)
            .with_api_key(API_KEY)
            .with_credential("oauth", Credential::Bearer(Secret::new(TOKEN)))
            .with_header("X-Custom-Auth", TOKEN)
    };
    let driver = configured(
        RestDriver::from_api(api_with(vec![op.clone()], schemes(), Vec::new()))
            .with_base_url("http://127.0.0.1:9/v1")
            .with_transport(recorder.clone()),
    );
    assert_no_secret(&format!("{driver:?} {driver:#?}"));
    call(&driver, "op", json!({})).await.expect("recorded");
    let seen = recorder.seen.lock().expect("not poisoned").clone();
    assert_eq!(seen.len(), 1);
    assert!(seen[0].contains("/v1/me"), "{}", seen[0]);
    assert_no_secret(&seen[0]);

    // Errors on the way: a refused connection, a timeout, an error status, a bad call.
    let port = closed_port();
    let driver = configured(
        RestDriver::from_api(api_with(vec![op.clone()], schemes(), Vec::new()))
            .with_base_url(format!("http://127.0.0.1:{port}")),
    );
    let error = call(&driver, "op", json!({})).await.expect_err("refused");
    assert_no_secret(&format!("{error} {error:?}"));
    let error = call(&driver, "op", json!({"extra": 1}))
        .await
        .expect_err("invalid");
    assert_no_secret(&format!("{error} {error:?}"));

    let server = server_answering(ResponseTemplate::new(401).set_body_string("who are you?")).await;
    let driver = configured(
        RestDriver::from_api(api_with(vec![op], schemes(), Vec::new())).with_base_url(server.uri()),
    );
    let error = call(&driver, "op", json!({})).await.expect_err("401");
    let text = format!("{error} {error:?}");
    assert!(text.contains("401"), "{text}");
    assert_no_secret(&text);
    // ...while all of them did reach the server.
    let request = only_request(&server).await;
    assert_eq!(target(&request), "/me?api_key=key%26SECRET%3D3");
    assert_eq!(header(&request, "x-api-key"), API_KEY);
    assert_eq!(header(&request, "x-custom-auth"), TOKEN);
}
