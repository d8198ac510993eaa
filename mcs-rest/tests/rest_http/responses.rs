//! Answers: JSON, text, binary, empty; error statuses with a bounded excerpt; invalid JSON;
//! size limits with and without `Content-Length`; timeouts, refused connections, redirects.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::*;

fn pet_op(method: Method) -> Operation {
    Op::new("pet", method, "/pets/{petId}")
        .param(path_param("petId"))
        .schema(json!({"petId": {"type": "string"}}), &["petId"])
        .build()
}

/// The result of calling `pet` (GET /pets/{petId}) against a server answering `template`.
async fn answer(template: ResponseTemplate) -> Result<Value, ToolError> {
    let server = server_answering(template).await;
    let driver = driver(vec![pet_op(Method::Get)], &server);
    let result = call(&driver, "pet", json!({"petId": "7"})).await;
    assert_eq!(target(&only_request(&server).await), "/pets/7");
    result
}

#[tokio::test]
async fn json_answers_are_parsed() {
    let body = json!({"id": 7, "tags": ["a", null], "nested": {"x": 1.5}});
    let result = answer(ResponseTemplate::new(200).set_body_json(&body)).await;
    assert_eq!(result.expect("ok"), body);
    let result =
        answer(ResponseTemplate::new(201).set_body_raw(r#"{"a": 1}"#, "application/vnd.api+json"))
            .await;
    assert_eq!(result.expect("ok"), json!({"a": 1}));
    // No content type at all: JSON if it parses.
    let result = answer(ResponseTemplate::new(200).set_body_bytes(b"[1, 2]".to_vec())).await;
    assert_eq!(result.expect("ok"), json!([1, 2]));
}

#[tokio::test]
async fn text_answers_are_strings() {
    let result = answer(
        ResponseTemplate::new(200).set_body_raw("hello\n{not json", "text/plain; charset=utf-8"),
    )
    .await;
    assert_eq!(result.expect("ok"), json!("hello\n{not json"));
    let result =
        answer(ResponseTemplate::new(200).set_body_raw("<a>1</a>", "application/xml")).await;
    assert_eq!(result.expect("ok"), json!("<a>1</a>"));
}

#[tokio::test]
async fn binary_answers_are_summarised_not_dumped() {
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    let result = answer(ResponseTemplate::new(200).set_body_raw(png, "image/png")).await;
    assert_eq!(
        result.expect("ok"),
        json!("(binary response: 16 bytes of image/png)")
    );
    // Valid UTF-8 is still not shown when the type says it is not text.
    let result =
        answer(ResponseTemplate::new(200).set_body_raw("PK plain bytes", "application/zip")).await;
    assert_eq!(
        result.expect("ok"),
        json!("(binary response: 14 bytes of application/zip)")
    );
}

#[tokio::test]
async fn an_empty_answer_is_null() {
    let result = answer(ResponseTemplate::new(204)).await;
    assert_eq!(result.expect("ok"), Value::Null);
    let result = answer(ResponseTemplate::new(200)).await;
    assert_eq!(result.expect("ok"), Value::Null);
}

#[tokio::test]
async fn error_statuses_name_status_method_template_and_body() {
    let result =
        answer(ResponseTemplate::new(404).set_body_json(json!({"error": "no such pet"}))).await;
    assert_eq!(
        execution_message(result),
        r#"the API answered 404 Not Found to GET /pets/{petId}: {"error":"no such pet"}"#
    );

    let server = server_answering(
        ResponseTemplate::new(500).set_body_raw("boom\n   at line 3\n", "text/plain"),
    )
    .await;
    let driver = driver(vec![pet_op(Method::Delete)], &server);
    let error = call(&driver, "pet", json!({"petId": "7"}))
        .await
        .expect_err("500");
    assert_eq!(error.tool(), "pet");
    assert_eq!(
        execution_message(Err(error)),
        "the API answered 500 Internal Server Error to DELETE /pets/{petId}: boom at line 3"
    );

    let result = answer(ResponseTemplate::new(418)).await;
    assert_eq!(
        execution_message(result),
        "the API answered 418 (client error) to GET /pets/{petId}"
    );
}

#[tokio::test]
async fn a_huge_error_body_is_cut_to_a_short_excerpt() {
    let body = "detail ".repeat(100 * 1024 / 7 + 1);
    let length = body.len();
    let result = answer(ResponseTemplate::new(400).set_body_raw(body, "text/plain")).await;
    let message = execution_message(result);
    assert!(message.len() < 1_000, "{} bytes", message.len());
    assert!(
        message.starts_with("the API answered 400 Bad Request to GET /pets/{petId}: detail detail"),
        "{message}"
    );
    assert!(
        message.ends_with(&format!("… ({length} bytes in all)")),
        "{message}"
    );
}

#[tokio::test]
async fn invalid_json_under_a_json_type_is_a_clear_error() {
    let result =
        answer(ResponseTemplate::new(200).set_body_raw(r#"{"a": "#, "application/json")).await;
    let message = execution_message(result);
    assert_eq!(
        message,
        r#"the API answered with invalid JSON (6 bytes): {"a":"#
    );
}

#[tokio::test]
async fn an_answer_over_the_default_limit_is_refused() {
    let big = vec![b'x'; 50 * 1024 * 1024];
    let result = answer(ResponseTemplate::new(200).set_body_raw(big, "text/plain")).await;
    assert_eq!(
        execution_message(result),
        "the response was larger than the limit of 10485760 bytes"
    );
}

#[tokio::test]
async fn a_small_limit_with_content_length() {
    let server =
        server_answering(ResponseTemplate::new(200).set_body_raw(vec![b'y'; 1001], "text/plain"))
            .await;
    let driver = driver(vec![pet_op(Method::Get)], &server).with_max_response_bytes(1000);
    let message = execution_message(call(&driver, "pet", json!({"petId": "1"})).await);
    assert_eq!(
        message,
        "the response was larger than the limit of 1000 bytes"
    );
    let driver = driver.with_max_response_bytes(1001);
    let result = call(&driver, "pet", json!({"petId": "1"})).await;
    assert_eq!(result.expect("at the limit"), json!("y".repeat(1001)));
}

/// A one-shot server on 127.0.0.1 that answers with a chunked body (no `Content-Length`) of
/// `total` bytes in 16 KiB chunks; the thread returns how many body bytes it managed to write.
fn chunked_server(total: usize) -> (String, JoinHandle<usize>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind on loopback");
    let url = format!("http://{}", listener.local_addr().expect("address"));
    let handle = std::thread::spawn(move || {
        let Ok((mut stream, _)) = listener.accept() else {
            return 0;
        };
        // Nothing here may block forever: a stuck client must not hang the test.
        let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
        let _ = stream.set_write_timeout(Some(Duration::from_secs(10)));
        let mut request = Vec::new();
        let mut buffer = [0u8; 1024];
        while !request.windows(4).any(|w| w == b"\r\n\r\n") {
            match stream.read(&mut buffer) {
                Ok(0) | Err(_) => return 0,
                Ok(n) => request.extend_from_slice(&buffer[..n]),
            }
        }
        let head = "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\
                    transfer-encoding: chunked\r\nconnection: close\r\n\r\n";
        if stream.write_all(head.as_bytes()).is_err() {
            return 0;
        }
        let chunk = vec![b'z'; 16 * 1024];
        let mut written = 0;
        while written < total {
            let size = chunk.len().min(total - written);
            let mut frame = format!("{size:x}\r\n").into_bytes();
            frame.extend_from_slice(&chunk[..size]);
            frame.extend_from_slice(b"\r\n");
            if stream.write_all(&frame).is_err() {
                return written;
            }
            written += size;
        }
        let _ = stream.write_all(b"0\r\n\r\n");
        written
    });
    (url, handle)
}

#[tokio::test]
async fn a_small_limit_without_content_length() {
    let (url, server) = chunked_server(40 * 1024);
    let driver = RestDriver::from_api(api(vec![pet_op(Method::Get)]))
        .with_base_url(url)
        .with_max_response_bytes(20 * 1024);
    let message = execution_message(call(&driver, "pet", json!({"petId": "1"})).await);
    assert_eq!(
        message,
        "the response was larger than the limit of 20480 bytes"
    );
    drop(driver);
    server.join().expect("the server thread ended");

    let (url, server) = chunked_server(20 * 1024);
    let driver = RestDriver::from_api(api(vec![pet_op(Method::Get)]))
        .with_base_url(url)
        .with_max_response_bytes(20 * 1024);
    let result = call(&driver, "pet", json!({"petId": "1"})).await;
    assert_eq!(result.expect("at the limit"), json!("z".repeat(20 * 1024)));
    assert_eq!(server.join().expect("the server thread ended"), 20 * 1024);
}

#[tokio::test]
async fn fifty_megabytes_without_content_length_are_not_read_to_the_end() {
    let total = 50 * 1024 * 1024;
    let (url, server) = chunked_server(total);
    let driver = RestDriver::from_api(api(vec![pet_op(Method::Get)])).with_base_url(url);
    let message = execution_message(call(&driver, "pet", json!({"petId": "1"})).await);
    assert_eq!(
        message,
        "the response was larger than the limit of 10485760 bytes"
    );
    drop(driver);
    let written = server.join().expect("the server thread ended");
    // The client hung up a little past the limit (socket buffers hold a few MB more).
    assert!(written < total, "the server wrote all {written} bytes");
}

#[tokio::test]
async fn a_slow_answer_times_out() {
    let server = server_answering(
        ResponseTemplate::new(200)
            .set_body_json(json!({"late": true}))
            .set_delay(Duration::from_secs(5)),
    )
    .await;
    let driver =
        driver(vec![pet_op(Method::Get)], &server).with_timeout(Duration::from_millis(200));
    let started = Instant::now();
    let message = execution_message(call(&driver, "pet", json!({"petId": "1"})).await);
    assert_eq!(message, "the request timed out after 200ms");
    // A guard against hanging, not a measurement.
    assert!(started.elapsed() < Duration::from_secs(4));
}

#[tokio::test]
async fn a_refused_connection_is_a_connect_error() {
    let port = closed_port();
    let driver = RestDriver::from_api(api(vec![pet_op(Method::Get)]))
        .with_base_url(format!("http://127.0.0.1:{port}/api"));
    let message = execution_message(call(&driver, "pet", json!({"petId": "1"})).await);
    assert!(
        message.starts_with(&format!(
            "could not connect: http://127.0.0.1:{port}/api/pets/1 ("
        )),
        "{message}"
    );
}

#[tokio::test]
async fn same_origin_redirects_are_followed() {
    let server = MockServer::start().await;
    Mock::given(wiremock::matchers::path("/old"))
        .respond_with(ResponseTemplate::new(302).insert_header("location", "/new"))
        .mount(&server)
        .await;
    Mock::given(wiremock::matchers::path("/new"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"moved": true})))
        .mount(&server)
        .await;
    let driver = driver(vec![Op::get("old", "/old").build()], &server);
    let result = call(&driver, "old", json!({})).await;
    assert_eq!(result.expect("followed"), json!({"moved": true}));
    let paths: Vec<String> = received(&server).await.iter().map(target).collect();
    assert_eq!(paths, ["/old", "/new"]);
}

/// An API key in a custom header would follow a redirect to any host: reqwest strips only
/// `Authorization` and `Cookie`. Another origin must not receive the request at all.
#[tokio::test]
async fn a_redirect_to_another_origin_is_not_followed_with_credentials() {
    let elsewhere = ok_server().await;
    let server = server_answering(
        ResponseTemplate::new(307).insert_header("location", format!("{}/stolen", elsewhere.uri())),
    )
    .await;
    let key = scheme(
        "key",
        SchemeKind::ApiKey {
            location: Location::Header,
            name: owned("X-API-Key"),
        },
    );
    let op = Op::get("me", "/me").security(&[&["key"]]).build();
    let driver = RestDriver::from_api(api_with(vec![op], vec![key], Vec::new()))
        .with_base_url(server.uri())
        .with_api_key("redirect-secret");
    let result = call(&driver, "me", json!({})).await;
    assert!(
        received(&elsewhere).await.is_empty(),
        "the key went to another origin"
    );
    let message = execution_message(result);
    assert_eq!(
        message,
        format!(
            "the API answered 307 (redirect) to GET /me (it points to `{}/stolen`, which was \
             not followed)",
            elsewhere.uri()
        )
    );
    assert!(!message.contains("redirect-secret"), "{message}");
}

/// A HEAD answer announces the length of the body a GET would get; it carries none, so the
/// limit must not refuse it.
#[tokio::test]
async fn a_head_answer_is_not_held_to_the_announced_length() {
    let server =
        server_answering(ResponseTemplate::new(200).set_body_raw(vec![b'h'; 5000], "text/plain"))
            .await;
    let driver = driver(vec![pet_op(Method::Head)], &server).with_max_response_bytes(1000);
    let result = call(&driver, "pet", json!({"petId": "1"})).await;
    assert_eq!(result.expect("no body to refuse"), Value::Null);
    assert_eq!(only_request(&server).await.method.as_str(), "HEAD");
}

/// An error page larger than the limit must still report the status: it is what the model
/// needs to correct its call.
#[tokio::test]
async fn an_error_answer_over_the_limit_still_names_its_status() {
    let body = format!(
        "{{\"error\": \"bad petId\", \"trace\": \"{}\"}}",
        "t".repeat(5000)
    );
    let result = {
        let server =
            server_answering(ResponseTemplate::new(400).set_body_raw(body, "application/json"))
                .await;
        let driver = driver(vec![pet_op(Method::Get)], &server).with_max_response_bytes(1000);
        call(&driver, "pet", json!({"petId": "1"})).await
    };
    let message = execution_message(result);
    assert!(
        message.starts_with(
            "the API answered 400 Bad Request to GET /pets/{petId}: {\"error\": \"bad petId\""
        ),
        "{message}"
    );
    assert!(message.len() < 1_000, "{message}");
}

/// A server that sends its headers and one chunk, then stalls: the timeout covers the body.
#[tokio::test]
async fn a_body_that_stalls_times_out() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind on loopback");
    let url = format!("http://{}", listener.local_addr().expect("address"));
    let server = std::thread::spawn(move || {
        let Ok((mut stream, _)) = listener.accept() else {
            return;
        };
        let mut buffer = [0u8; 4096];
        let _ = stream.read(&mut buffer);
        let head = "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\
                    transfer-encoding: chunked\r\n\r\n5\r\nhello\r\n";
        let _ = stream.write_all(head.as_bytes());
        // Long enough to outlast the client's timeout, short enough to end the test.
        std::thread::sleep(Duration::from_secs(2));
    });
    let driver = RestDriver::from_api(api(vec![pet_op(Method::Get)]))
        .with_base_url(url)
        .with_timeout(Duration::from_millis(300));
    let message = execution_message(call(&driver, "pet", json!({"petId": "1"})).await);
    assert_eq!(message, "the request timed out after 300ms");
    server.join().expect("the server thread ended");
}
