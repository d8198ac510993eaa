//! The query string: every `style`/`explode`, reserved characters, data that looks like
//! syntax, absent and null values.

use super::*;

/// Sends `value` as the query parameter `name` and returns the raw query that arrived.
async fn query_of(parameter: Parameter, value: Value) -> Option<String> {
    query_request(parameter, value)
        .await
        .url
        .query()
        .map(str::to_owned)
}

/// The query pairs a server's parser sees once it decodes them.
fn decoded(request: &Request) -> Vec<(String, String)> {
    request.url.query_pairs().into_owned().collect()
}

/// Sends `value` as the query parameter `name` and returns the request that arrived.
async fn query_request(parameter: Parameter, value: Value) -> Request {
    let server = ok_server().await;
    let name = parameter.argument.to_string();
    let op = Op::get("search", "/search")
        .param(parameter)
        .schema(json!({ name.clone(): {} }), &[]);
    let driver = driver(vec![op.build()], &server);
    call(&driver, "search", json!({ name: value }))
        .await
        .expect("sent");
    let request = only_request(&server).await;
    assert_eq!(request.url.path(), "/search");
    request
}

#[tokio::test]
async fn form_style_arrays_and_objects() {
    let array = json!([1, "two words", true]);
    let object = json!({"a": 1, "b": "x y"});
    let cases = [
        (true, array.clone(), "id=1&id=two%20words&id=true"),
        (false, array, "id=1,two%20words,true"),
        (true, object.clone(), "a=1&b=x%20y"),
        (false, object, "id=a,1,b,x%20y"),
        (true, json!("plain"), "id=plain"),
        (false, json!(7.5), "id=7.5"),
    ];
    for (explode, value, expected) in cases {
        let parameter = param("id", Location::Query, Style::Form, explode);
        let query = query_of(parameter, value.clone()).await;
        assert_eq!(
            query.as_deref(),
            Some(expected),
            "explode={explode} {value}"
        );
    }
}

#[tokio::test]
async fn space_and_pipe_delimited_arrays() {
    let parameter = param("ids", Location::Query, Style::SpaceDelimited, false);
    let query = query_of(parameter, json!(["a", "b c", 3])).await;
    assert_eq!(query.as_deref(), Some("ids=a%20b%20c%203"));

    let parameter = param("ids", Location::Query, Style::PipeDelimited, false);
    let query = query_of(parameter, json!(["a", "b|c", 3])).await;
    // The pipe inside an item is encoded; only the delimiters are bare.
    assert_eq!(query.as_deref(), Some("ids=a|b%7Cc|3"));

    let parameter = param("ids", Location::Query, Style::PipeDelimited, true);
    let query = query_of(parameter, json!(["a", "b"])).await;
    assert_eq!(query.as_deref(), Some("ids=a&ids=b"));

    // Swagger 2.0's `collectionFormat: tsv`.
    let parameter = param("ids", Location::Query, Style::TabDelimited, false);
    let query = query_of(parameter, json!(["a", "b\tc"])).await;
    assert_eq!(query.as_deref(), Some("ids=a%09b%09c"));
}

#[tokio::test]
async fn deep_object_brackets_are_encoded_and_decode_to_the_keys() {
    let parameter = param("filter", Location::Query, Style::DeepObject, true);
    let value = json!({"color": "red", "size": {"min": 3}, "tags": ["a", "b"]});
    let request = query_request(parameter, value).await;
    assert_eq!(
        request.url.query(),
        Some(
            "filter%5Bcolor%5D=red&filter%5Bsize%5D%5Bmin%5D=3\
             &filter%5Btags%5D%5B%5D=a&filter%5Btags%5D%5B%5D=b"
        )
    );
    assert_eq!(
        decoded(&request),
        [
            ("filter[color]", "red"),
            ("filter[size][min]", "3"),
            ("filter[tags][]", "a"),
            ("filter[tags][]", "b"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
    );
}

#[tokio::test]
async fn syntax_characters_in_values_stay_data() {
    let value = "a&b=c+d#e?f/g%h é";
    let request = query_request(query_param("q"), json!(value)).await;
    assert_eq!(
        request.url.query(),
        Some("q=a%26b%3Dc%2Bd%23e%3Ff%2Fg%25h%20%C3%A9")
    );
    assert_eq!(decoded(&request), [("q".to_owned(), value.to_owned())]);
}

#[tokio::test]
async fn allow_reserved_keeps_reserved_characters_but_not_the_pair_breakers() {
    let mut parameter = query_param("path");
    parameter.allow_reserved = true;
    let query = query_of(parameter, json!("a/b?c:d@e,f;g=h&i#j k")).await;
    // `&` and `#` would end the value, a space is not reserved: still encoded.
    assert_eq!(query.as_deref(), Some("path=a/b?c:d@e,f;g=h%26i%23j%20k"));
}

#[tokio::test]
async fn absent_and_null_optional_parameters_are_omitted() {
    let server = ok_server().await;
    let op = Op::get("list", "/pets")
        .param(query_param("limit"))
        .param(query_param("tag"))
        .param(query_param("sort"))
        .schema(
            json!({
                "limit": {"type": "integer"},
                "tag": {"type": ["string", "null"]},
                "sort": {"type": "string"},
            }),
            &[],
        );
    let driver = driver(vec![op.build()], &server);
    call(&driver, "list", json!({})).await.expect("sent");
    call(&driver, "list", json!({"tag": null, "limit": 5}))
        .await
        .expect("sent");
    let targets: Vec<String> = received(&server).await.iter().map(target).collect();
    assert_eq!(targets, ["/pets", "/pets?limit=5"]);
}

#[tokio::test]
async fn the_argument_name_and_the_wire_name_may_differ() {
    let server = ok_server().await;
    let mut parameter = query_param("q");
    parameter.argument = owned("query_text");
    let op = Op::get("find", "/find")
        .param(parameter)
        .schema(json!({"query_text": {"type": "string"}}), &["query_text"]);
    let driver = driver(vec![op.build()], &server);
    call(&driver, "find", json!({"query_text": "cats"}))
        .await
        .expect("sent");
    assert_eq!(target(&only_request(&server).await), "/find?q=cats");
}
