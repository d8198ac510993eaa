//! Header and cookie parameters, the driver's own headers, and the line breaks that must
//! never reach the wire.

use super::*;

fn header_param(name: &str) -> Parameter {
    param(name, Location::Header, Style::Simple, false)
}

fn cookie_param(name: &str) -> Parameter {
    param(name, Location::Cookie, Style::Form, true)
}

#[tokio::test]
async fn header_values_are_sent_as_they_are() {
    let server = ok_server().await;
    let op = Op::get("trace", "/trace")
        .param(header_param("X-Request-Id"))
        .param(header_param("X-Retries"))
        .param(header_param("X-Tags"))
        .schema(
            json!({
                "X-Request-Id": {"type": "string"},
                "X-Retries": {"type": "integer"},
                "X-Tags": {"type": "array", "items": {"type": "string"}},
            }),
            &["X-Request-Id"],
        );
    let driver = driver(vec![op.build()], &server);
    let arguments =
        json!({"X-Request-Id": "abc 123; q=\"x\"", "X-Retries": 3, "X-Tags": ["a", "b c"]});
    call(&driver, "trace", arguments).await.expect("sent");
    let request = only_request(&server).await;
    assert_eq!(header(&request, "x-request-id"), "abc 123; q=\"x\"");
    assert_eq!(header(&request, "x-retries"), "3");
    assert_eq!(header(&request, "x-tags"), "a,b c");
    assert_eq!(header(&request, "accept"), "application/json, */*;q=0.5");
}

#[tokio::test]
async fn line_breaks_and_controls_in_a_header_value_are_refused_before_sending() {
    for value in ["a\r\nX-Evil: 1", "a\nX-Evil: 1", "a\rb", "a\0b", "a\u{7f}b"] {
        let server = ok_server().await;
        let op = Op::get("trace", "/trace")
            .param(header_param("X-Request-Id"))
            .schema(json!({"X-Request-Id": {"type": "string"}}), &[]);
        let driver = driver(vec![op.build()], &server);
        let result = call(&driver, "trace", json!({"X-Request-Id": value})).await;
        let (argument, kind) = single_problem(result);
        assert_eq!(argument, "X-Request-Id", "value {value:?}");
        assert!(
            matches!(kind, ArgumentErrorKind::Invalid { .. }),
            "{value:?}: {kind:?}"
        );
        assert!(received(&server).await.is_empty(), "{value:?} was sent");
    }
}

#[tokio::test]
async fn cookies_are_joined_and_their_values_encoded() {
    let server = ok_server().await;
    let op = Op::get("prefs", "/prefs")
        .param(cookie_param("a"))
        .param(cookie_param("b"))
        .param(cookie_param("c"))
        .schema(
            json!({"a": {"type": "integer"}, "b": {"type": "string"}, "c": {"type": "string"}}),
            &[],
        );
    let driver = driver(vec![op.build()], &server);
    call(&driver, "prefs", json!({"a": 1, "b": "x;y, \"z\"\r\n"}))
        .await
        .expect("sent");
    let request = only_request(&server).await;
    assert_eq!(
        header(&request, "cookie"),
        "a=1; b=x%3By%2C%20%22z%22%0D%0A"
    );
}

#[tokio::test]
async fn cookie_arrays_exploded_and_not() {
    let server = ok_server().await;
    let op = Op::get("prefs", "/prefs")
        .param(param("ids", Location::Cookie, Style::Form, false))
        .param(param("tags", Location::Cookie, Style::Form, true))
        .schema(json!({"ids": {}, "tags": {}}), &[]);
    let driver = driver(vec![op.build()], &server);
    call(
        &driver,
        "prefs",
        json!({"ids": [1, "2,3"], "tags": ["x", "y z"]}),
    )
    .await
    .expect("sent");
    let request = only_request(&server).await;
    // Like the query's `id=1,2`: the delimiter is bare, a comma inside an item is data.
    assert_eq!(
        header(&request, "cookie"),
        "ids=1,2%2C3; tags=x; tags=y%20z"
    );
}

#[tokio::test]
async fn cookie_objects_exploded_and_not() {
    let server = ok_server().await;
    let op = Op::get("prefs", "/prefs")
        .param(param("color", Location::Cookie, Style::Form, false))
        .param(param("size", Location::Cookie, Style::Form, true))
        .schema(json!({"color": {}, "size": {}}), &[]);
    let driver = driver(vec![op.build()], &server);
    call(
        &driver,
        "prefs",
        json!({"color": {"R": 100, "G": "2,0"}, "size": {"w": 3, "h": "4 5"}}),
    )
    .await
    .expect("sent");
    let request = only_request(&server).await;
    // As OpenAPI's `form` style writes objects (`color=R,100,G,200` and `R=100&G=200`),
    // with the cookie's `; ` between pairs: never the object's JSON text.
    assert_eq!(
        header(&request, "cookie"),
        "color=R,100,G,2%2C0; w=3; h=4%205"
    );
}

#[tokio::test]
async fn swagger_delimited_arrays_in_headers() {
    let server = ok_server().await;
    let op = Op::get("trace", "/trace")
        .param(param(
            "X-Space",
            Location::Header,
            Style::SpaceDelimited,
            false,
        ))
        .param(param(
            "X-Pipe",
            Location::Header,
            Style::PipeDelimited,
            false,
        ))
        .param(param("X-Tab", Location::Header, Style::TabDelimited, false))
        .schema(json!({"X-Space": {}, "X-Pipe": {}, "X-Tab": {}}), &[]);
    let driver = driver(vec![op.build()], &server);
    let list = json!(["a", "b"]);
    call(
        &driver,
        "trace",
        json!({"X-Space": list, "X-Pipe": list, "X-Tab": list}),
    )
    .await
    .expect("sent");
    let request = only_request(&server).await;
    assert_eq!(header(&request, "x-space"), "a b");
    assert_eq!(header(&request, "x-pipe"), "a|b");
    assert_eq!(header(&request, "x-tab"), "a\tb");
}

#[tokio::test]
async fn driver_headers_are_sent_unless_the_call_sets_the_same_header() {
    let server = ok_server().await;
    let op = Op::get("trace", "/trace")
        .param(header_param("X-Tenant"))
        .schema(json!({"X-Tenant": {"type": "string"}}), &[]);
    let driver = driver(vec![op.build()], &server)
        .with_header("x-tenant", "default")
        .with_header("User-Agent", "mcs-test")
        .with_header("Accept", "application/xml");
    call(&driver, "trace", json!({})).await.expect("sent");
    call(&driver, "trace", json!({"X-Tenant": "acme"}))
        .await
        .expect("sent");
    let requests = received(&server).await;
    assert_eq!(header(&requests[0], "x-tenant"), "default");
    assert_eq!(header(&requests[1], "x-tenant"), "acme");
    for request in &requests {
        assert_eq!(header(request, "user-agent"), "mcs-test");
        assert_eq!(header(request, "accept"), "application/xml");
    }
}
