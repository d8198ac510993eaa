//! The base URL: the document's server with its variables, overridden per driver, and clear
//! errors when there is nowhere to send to.

use super::*;

fn ping() -> Operation {
    Op::get("ping", "/ping").build()
}

fn port_of(server: &MockServer) -> String {
    server.address().port().to_string()
}

#[tokio::test]
async fn server_variables_take_their_defaults() {
    let server = ok_server().await;
    let port = port_of(&server);
    let servers = vec![super::server(
        "http://{host}:{port}/{version}/",
        &[("host", "127.0.0.1"), ("port", &port), ("version", "v1")],
    )];
    let driver = RestDriver::from_api(api_with(vec![ping()], Vec::new(), servers));
    assert_eq!(
        driver.base_url().as_deref(),
        Ok(format!("http://127.0.0.1:{port}/v1").as_str())
    );
    call(&driver, "ping", json!({})).await.expect("sent");
    assert_eq!(target(&only_request(&server).await), "/v1/ping");
}

#[tokio::test]
async fn server_variables_can_be_overridden() {
    let server = ok_server().await;
    let servers = vec![super::server(
        "http://127.0.0.1:{port}/{version}",
        &[("port", "1"), ("version", "v1")],
    )];
    let driver = RestDriver::from_api(api_with(vec![ping()], Vec::new(), servers))
        .with_server_variable("port", "2")
        .with_server_variable("port", port_of(&server))
        .with_server_variable("version", "v2");
    call(&driver, "ping", json!({})).await.expect("sent");
    assert_eq!(target(&only_request(&server).await), "/v2/ping");
}

#[tokio::test]
async fn a_configured_base_url_replaces_the_servers_and_may_have_variables_too() {
    let server = ok_server().await;
    let servers = vec![super::server("https://api.invalid/v9", &[])];
    let driver = RestDriver::from_api(api_with(vec![ping()], Vec::new(), servers))
        .with_base_url("http://127.0.0.1:{port}/{version}")
        .with_server_variable("port", port_of(&server))
        .with_server_variable("version", "v3");
    call(&driver, "ping", json!({})).await.expect("sent");
    assert_eq!(target(&only_request(&server).await), "/v3/ping");
}

#[tokio::test]
async fn a_variable_left_without_a_value_is_a_clear_error() {
    let servers = vec![super::server("http://127.0.0.1:{port}/v1", &[])];
    let driver = RestDriver::from_api(api_with(vec![ping()], Vec::new(), servers));
    let message = execution_message(call(&driver, "ping", json!({})).await);
    assert!(message.contains("{port}"), "{message}");
    assert!(message.contains("with_server_variable"), "{message}");
}

#[tokio::test]
async fn no_server_or_a_relative_one_without_a_base_url_is_a_clear_error() {
    let driver = RestDriver::from_api(api(vec![ping()]));
    let message = execution_message(call(&driver, "ping", json!({})).await);
    assert!(message.contains("names no server"), "{message}");
    assert!(message.contains("base URL"), "{message}");

    let servers = vec![super::server("/api/v1", &[])];
    let driver = RestDriver::from_api(api_with(vec![ping()], Vec::new(), servers));
    let message = execution_message(call(&driver, "ping", json!({})).await);
    assert!(message.contains("`/api/v1`"), "{message}");
    assert!(message.contains("not an absolute http(s) URL"), "{message}");
}

#[tokio::test]
async fn a_base_url_with_a_trailing_slash_does_not_double_it() {
    let server = ok_server().await;
    let driver = driver(vec![ping()], &server).with_base_url(format!("{}/api/", server.uri()));
    call(&driver, "ping", json!({})).await.expect("sent");
    assert_eq!(target(&only_request(&server).await), "/api/ping");
}

#[tokio::test]
async fn an_operation_with_servers_of_its_own_goes_there() {
    // Stripe's uploads go to files.stripe.com, the rest to api.stripe.com.
    let api_server = ok_server().await;
    let files = ok_server().await;
    let mut upload = Op::post("upload", "/files").build();
    upload.servers = Cow::Owned(vec![super::server(
        "http://127.0.0.1:{port}/{version}",
        &[("port", &port_of(&files)), ("version", "v1")],
    )]);
    let mut relative = Op::get("health", "/health").build();
    relative.servers = Cow::Owned(vec![super::server("/status", &[])]);
    let servers = vec![super::server(
        &format!("http://127.0.0.1:{}/api", port_of(&api_server)),
        &[],
    )];
    let driver = RestDriver::from_api(api_with(
        vec![ping(), upload, relative],
        Vec::new(),
        servers,
    ));
    for tool in ["ping", "upload", "health"] {
        call(&driver, tool, json!({})).await.expect(tool);
    }
    let to_api: Vec<String> = received(&api_server).await.iter().map(target).collect();
    // A relative server of the operation is taken from the API server's origin.
    assert_eq!(to_api, ["/api/ping", "/status/health"]);
    assert_eq!(target(&only_request(&files).await), "/v1/files");

    // A base URL given to the driver overrides the operation's server too.
    let proxy = ok_server().await;
    let driver = driver.with_base_url(proxy.uri());
    call(&driver, "upload", json!({})).await.expect("sent");
    assert_eq!(target(&only_request(&proxy).await), "/files");
}
