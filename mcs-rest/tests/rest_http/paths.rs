//! Methods and paths: every method arrives as itself; a path value is one encoded segment
//! whatever it contains; dot segments are refused; label and matrix styles.

use super::*;

#[tokio::test]
async fn every_method_arrives_with_its_path() {
    let server = ok_server().await;
    let operations = Method::ALL
        .iter()
        .map(|&method| {
            Op::new(method.key(), method, "/things/{id}")
                .param(path_param("id"))
                .schema(json!({"id": {"type": "string"}}), &["id"])
                .build()
        })
        .collect();
    let driver = driver(operations, &server);
    for method in Method::ALL {
        let result = call(&driver, method.key(), json!({"id": method.key()})).await;
        let expected = if method == Method::Head {
            // A HEAD answer has no body.
            Value::Null
        } else {
            json!({"ok": true})
        };
        let result = result.unwrap_or_else(|e| panic!("{method}: {e}"));
        assert_eq!(result, expected, "{method}");
    }
    let seen: Vec<(String, String)> = received(&server)
        .await
        .iter()
        .map(|r| (r.method.to_string(), target(r)))
        .collect();
    let expected: Vec<(String, String)> = Method::ALL
        .iter()
        .map(|m| (m.as_str().to_owned(), format!("/things/{}", m.key())))
        .collect();
    assert_eq!(seen, expected);
}

#[tokio::test]
async fn a_path_value_is_one_encoded_segment() {
    let cases = [
        ("a/b?c", "/files/a%2Fb%3Fc"),
        ("x#y", "/files/x%23y"),
        ("%2F", "/files/%252F"),
        ("100%", "/files/100%25"),
        ("a b", "/files/a%20b"),
        ("é☃", "/files/%C3%A9%E2%98%83"),
        ("a;b=c,d", "/files/a%3Bb%3Dc%2Cd"),
        ("../etc", "/files/..%2Fetc"),
        ("...", "/files/..."),
        ("{id}", "/files/%7Bid%7D"),
    ];
    for (value, path) in cases {
        let server = ok_server().await;
        let op = Op::get("read", "/files/{name}")
            .param(path_param("name"))
            .schema(json!({"name": {"type": "string"}}), &["name"]);
        let driver = driver(vec![op.build()], &server);
        let result = call(&driver, "read", json!({"name": value})).await;
        assert_eq!(result.expect(value), json!({"ok": true}));
        assert_eq!(
            target(&only_request(&server).await),
            path,
            "value {value:?}"
        );
    }
}

#[tokio::test]
async fn numbers_and_booleans_in_the_path_are_written_as_json() {
    let server = ok_server().await;
    let op = Op::get("item", "/items/{id}/{flag}")
        .param(path_param("id"))
        .param(path_param("flag"))
        .schema(
            json!({"id": {"type": "integer"}, "flag": {"type": "boolean"}}),
            &["id", "flag"],
        );
    let driver = driver(vec![op.build()], &server);
    call(&driver, "item", json!({"id": 42, "flag": false}))
        .await
        .expect("sent");
    assert_eq!(target(&only_request(&server).await), "/items/42/false");
}

#[tokio::test]
async fn dot_segments_are_refused_and_nothing_is_sent() {
    for value in [
        "..",
        ".",
        "%2e%2e",
        "%2E%2E",
        ".%2e",
        "%2e",
        "%252e%252e",
        "",
    ] {
        let server = ok_server().await;
        let op = Op::get("read", "/files/{name}/meta")
            .param(path_param("name"))
            .schema(json!({"name": {"type": "string"}}), &["name"]);
        let driver = driver(vec![op.build()], &server);
        let result = call(&driver, "read", json!({"name": value})).await;
        let (argument, kind) = single_problem(result);
        assert_eq!(argument, "name", "value {value:?}");
        assert!(
            matches!(kind, ArgumentErrorKind::Invalid { .. }),
            "value {value:?}: {kind:?}"
        );
        assert!(
            received(&server).await.is_empty(),
            "value {value:?} was sent"
        );
    }
}

#[tokio::test]
async fn a_missing_path_argument_is_refused_by_validation() {
    let server = ok_server().await;
    let op = Op::get("read", "/files/{name}")
        .param(path_param("name"))
        .schema(json!({"name": {"type": "string"}}), &["name"]);
    let driver = driver(vec![op.build()], &server);
    let (argument, kind) = single_problem(call(&driver, "read", json!({})).await);
    assert_eq!(argument, "name");
    assert!(
        matches!(kind, ArgumentErrorKind::Missing { .. }),
        "{kind:?}"
    );
    assert!(received(&server).await.is_empty());
}

/// A path parameter the schema does not require must still not leave `{name}` in the URL.
#[tokio::test]
async fn a_path_value_the_schema_forgot_to_require_is_still_required() {
    let server = ok_server().await;
    let op = Op::get("read", "/files/{name}")
        .param(path_param("name"))
        .schema(json!({"name": {"type": "string"}}), &[]);
    let driver = driver(vec![op.build()], &server);
    let (argument, kind) = single_problem(call(&driver, "read", json!({"name": null})).await);
    assert_eq!(argument, "name");
    assert!(
        matches!(kind, ArgumentErrorKind::Missing { .. }),
        "{kind:?}"
    );
    assert!(received(&server).await.is_empty());
}

/// Label (`.a.b`) and matrix (`;id=1;id=2`) styles, arrays and objects, exploded and not.
#[tokio::test]
async fn label_and_matrix_styles() {
    let array = json!(["a b", "c"]);
    let object = json!({"x": "1", "y": "2/3"});
    let cases = [
        (Style::Label, false, json!("v"), "/p/.v"),
        (Style::Label, false, array.clone(), "/p/.a%20b,c"),
        (Style::Label, true, array.clone(), "/p/.a%20b.c"),
        (Style::Label, false, object.clone(), "/p/.x,1,y,2%2F3"),
        (Style::Label, true, object.clone(), "/p/.x=1.y=2%2F3"),
        (Style::Matrix, false, json!("v"), "/p/;id=v"),
        (Style::Matrix, false, array.clone(), "/p/;id=a%20b,c"),
        (Style::Matrix, true, array.clone(), "/p/;id=a%20b;id=c"),
        (Style::Matrix, false, object.clone(), "/p/;id=x,1,y,2%2F3"),
        (Style::Matrix, true, object.clone(), "/p/;x=1;y=2%2F3"),
        (Style::Simple, false, array.clone(), "/p/a%20b,c"),
        (Style::Simple, true, array.clone(), "/p/a%20b,c"),
        (Style::Simple, false, object.clone(), "/p/x,1,y,2%2F3"),
        (Style::Simple, true, object.clone(), "/p/x=1,y=2%2F3"),
        // Swagger 2.0's `collectionFormat` in a path: `ssv`, `pipes`, `tsv`.
        (Style::SpaceDelimited, false, array.clone(), "/p/a%20b%20c"),
        (Style::PipeDelimited, false, array.clone(), "/p/a%20b%7Cc"),
        (Style::TabDelimited, false, array.clone(), "/p/a%20b%09c"),
    ];
    for (style, explode, value, path) in cases {
        let server = ok_server().await;
        let op = Op::get("styled", "/p/{id}")
            .param(param("id", Location::Path, style, explode))
            .schema(json!({"id": {}}), &["id"]);
        let driver = driver(vec![op.build()], &server);
        call(&driver, "styled", json!({"id": value}))
            .await
            .unwrap_or_else(|e| panic!("{style:?} {explode} {value}: {e}"));
        assert_eq!(
            target(&only_request(&server).await),
            path,
            "{style:?} explode={explode} {value}"
        );
    }
}

/// Two values that are harmless alone can make a dot segment together.
#[tokio::test]
async fn values_sharing_a_segment_cannot_make_a_dot_segment_together() {
    let server = ok_server().await;
    let op = Op::get("read", "/files/{a}{b}/meta")
        .param(path_param("a"))
        .param(path_param("b"))
        .schema(
            json!({"a": {"type": "string"}, "b": {"type": "string"}}),
            &["a", "b"],
        );
    let driver = driver(vec![op.build()], &server);
    let problems = problems(call(&driver, "read", json!({"a": ".", "b": "."})).await);
    assert!(!problems.is_empty());
    assert!(received(&server).await.is_empty());
    call(&driver, "read", json!({"a": "x", "b": "y."}))
        .await
        .expect("`xy.` is a name");
    assert_eq!(target(&only_request(&server).await), "/files/xy./meta");
}

#[tokio::test]
async fn whole_numbers_with_a_fraction_are_written_as_integers() {
    let server = ok_server().await;
    let op = Op::get("item", "/items/{id}")
        .param(path_param("id"))
        .param(query_param("page"))
        .param(query_param("ratio"))
        .schema(
            json!({"id": {"type": "integer"}, "page": {"type": "integer"}, "ratio": {"type": "number"}}),
            &["id"],
        );
    let driver = driver(vec![op.build()], &server);
    call(
        &driver,
        "item",
        json!({"id": 200.0, "page": 5.0, "ratio": 2.5}),
    )
    .await
    .expect("sent");
    assert_eq!(
        target(&only_request(&server).await),
        "/items/200?page=5&ratio=2.5"
    );
}

#[tokio::test]
async fn a_fragment_in_the_path_is_not_sent_and_a_query_in_it_comes_first() {
    // Box tells operations on one path apart with a fragment; S3 writes subresources as a
    // query in the path.
    let server = ok_server().await;
    let shared = Op::new("share", Method::Put, "/files/{id}#add_shared_link")
        .param(path_param("id"))
        .param(query_param("fields"))
        .schema(
            json!({"id": {"type": "string"}, "fields": {"type": "string"}}),
            &["id", "fields"],
        );
    let tagging = Op::get("tagging", "/{bucket}?tagging")
        .param(path_param("bucket"))
        .param(query_param("versionId"))
        .schema(
            json!({"bucket": {"type": "string"}, "versionId": {"type": "string"}}),
            &["bucket"],
        );
    let driver = driver(vec![shared.build(), tagging.build()], &server);
    call(
        &driver,
        "share",
        json!({"id": "123", "fields": "shared_link"}),
    )
    .await
    .expect("sent");
    call(
        &driver,
        "tagging",
        json!({"bucket": "b", "versionId": "v1"}),
    )
    .await
    .expect("sent");
    let targets: Vec<String> = received(&server).await.iter().map(target).collect();
    assert_eq!(
        targets,
        ["/files/123?fields=shared_link", "/b?tagging&versionId=v1"]
    );
}

#[tokio::test]
async fn a_query_in_the_base_url_stays_a_query() {
    let server = ok_server().await;
    let op = Op::get("ping", "/ping")
        .param(query_param("q"))
        .schema(json!({"q": {"type": "string"}}), &[]);
    let driver = RestDriver::from_api(api(vec![op.build()]))
        .with_base_url(format!("{}/v1?tenant=acme", server.uri()));
    call(&driver, "ping", json!({"q": "x"}))
        .await
        .expect("sent");
    assert_eq!(
        target(&only_request(&server).await),
        "/v1/ping?tenant=acme&q=x"
    );
}
