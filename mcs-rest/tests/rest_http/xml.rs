//! XML bodies: the exact bytes and `Content-Type` that arrive for attributes, wrapped and
//! repeated arrays, namespaces and escaping; bad input refused, naming the argument, with
//! nothing sent.

use super::*;

const DECLARATION: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

/// An operation `send` whose XML body, laid out by `layout`, is spread into `arguments`.
fn xml_op(media_type: &str, layout: Value, arguments: &[&str]) -> Operation {
    let mut row = body(
        media_type,
        BodyEncoding::Xml,
        BodyArgument::Properties(Cow::Owned(arguments.iter().map(|a| owned(a)).collect())),
    );
    row.required = false;
    row.xml = Some(owned(&layout.to_string()));
    let properties: serde_json::Map<String, Value> = arguments
        .iter()
        .map(|name| ((*name).to_owned(), json!({})))
        .collect();
    Op::post("send", "/pets")
        .body(row)
        .schema(Value::Object(properties), &[])
        .build()
}

/// The body that arrived for one call of `send` with `arguments`, and its `Content-Type`.
async fn sent(operation: Operation, arguments: Value) -> (String, String) {
    let server = ok_server().await;
    let driver = driver(vec![operation], &server);
    call(&driver, "send", arguments).await.expect("sent");
    let request = only_request(&server).await;
    let body = String::from_utf8(request.body.clone()).expect("UTF-8");
    (header(&request, "content-type"), body)
}

/// The petstore's `Pet` as OpenAPI's `xml` objects lay it out.
fn pet_layout() -> Value {
    json!({
        "$ref": "#/$defs/Pet",
        "xml": {"name": "pet"},
        "$defs": {
            "Pet": {
                "properties": {
                    "id": {"xml": {"attribute": true}},
                    "name": {},
                    "photoUrls": {"xml": {"wrapped": true, "name": "photos"}, "items": {"xml": {"name": "url"}}},
                    "tags": {"xml": {"wrapped": true}, "items": {"$ref": "#/$defs/Tag"}},
                    "aliases": {"items": {}},
                    "nicknames": {"items": {"xml": {"name": "nick"}}},
                    "owner": {"$ref": "#/$defs/Owner"}
                }
            },
            "Tag": {"xml": {"name": "tag"}, "properties": {"id": {"xml": {"attribute": true}}, "name": {}}},
            "Owner": {"properties": {"name": {}, "pets": {"items": {"$ref": "#/$defs/Pet"}}}}
        }
    })
}

const PET_ARGUMENTS: &[&str] = &[
    "id",
    "name",
    "photoUrls",
    "tags",
    "aliases",
    "nicknames",
    "owner",
];

#[tokio::test]
async fn attributes_wrapped_and_repeated_arrays_in_schema_order() {
    let operation = xml_op(
        "application/xml; charset=utf-8",
        pet_layout(),
        PET_ARGUMENTS,
    );
    // Given in another order than the schema's: the schema's order is kept.
    let arguments = json!({
        "owner": {"name": "Ann", "pets": [{"name": "Tom", "id": 2}]},
        "tags": [{"id": 1, "name": "cute"}, {"name": "old"}],
        "nicknames": ["Rexy", "R"],
        "aliases": ["Rex2"],
        "photoUrls": ["http://a/1.png"],
        "name": "Rex",
        "id": 7
    });
    let (content_type, body) = sent(operation, arguments).await;
    assert_eq!(content_type, "application/xml; charset=utf-8");
    assert_eq!(
        body,
        format!(
            "{DECLARATION}<pet id=\"7\"><name>Rex</name>\
             <photos><url>http://a/1.png</url></photos>\
             <tags><tag id=\"1\"><name>cute</name></tag><tag><name>old</name></tag></tags>\
             <aliases>Rex2</aliases>\
             <nick>Rexy</nick><nick>R</nick>\
             <owner><name>Ann</name><pets id=\"2\"><name>Tom</name></pets></owner></pet>"
        )
    );
}

#[tokio::test]
async fn null_is_left_out_and_keys_the_schema_does_not_list_follow_its_own() {
    let operation = xml_op("application/xml", pet_layout(), PET_ARGUMENTS);
    let arguments = json!({"name": "Rex", "id": null, "tags": [], "photoUrls": null, "owner": {"extra": true, "name": "Ann"}});
    let (_, body) = sent(operation, arguments).await;
    assert_eq!(
        body,
        format!(
            "{DECLARATION}<pet><name>Rex</name><tags/>\
             <owner><name>Ann</name><extra>true</extra></owner></pet>"
        )
    );
}

#[tokio::test]
async fn namespaces_and_prefixes_are_declared_where_they_are_used() {
    let layout = json!({
        "xml": {"name": "Person", "namespace": "http://example.com/schema", "prefix": "smp"},
        "properties": {
            "id": {"xml": {"attribute": true, "prefix": "smp"}},
            "lang": {"xml": {"attribute": true, "prefix": "xml"}},
            "name": {"xml": {"prefix": "smp"}},
            "note": {"xml": {"namespace": "http://example.com/notes"}},
            "stray": {"xml": {"prefix": "unbound"}},
            "meta": {"xml": {"attribute": true, "prefix": "m", "namespace": "http://example.com/meta"}}
        }
    });
    let operation = xml_op(
        "application/vnd.people+xml",
        layout,
        &["id", "lang", "name", "note", "stray", "meta"],
    );
    let arguments =
        json!({"id": 1, "lang": "en", "name": "Ann", "note": "hi", "stray": "x", "meta": "m1"});
    let (content_type, body) = sent(operation, arguments).await;
    assert_eq!(content_type, "application/vnd.people+xml");
    assert_eq!(
        body,
        format!(
            "{DECLARATION}<smp:Person xmlns:smp=\"http://example.com/schema\" \
             xmlns:m=\"http://example.com/meta\" smp:id=\"1\" xml:lang=\"en\" m:meta=\"m1\">\
             <smp:name>Ann</smp:name>\
             <note xmlns=\"http://example.com/notes\">hi</note>\
             <stray>x</stray></smp:Person>"
        )
    );
}

#[tokio::test]
async fn text_and_attributes_are_escaped() {
    let layout =
        json!({"xml": {"name": "note"}, "properties": {"title": {"xml": {"attribute": true}}}});
    let operation = xml_op("text/xml", layout, &["title", "text"]);
    let arguments = json!({
        "title": "a \"quoted\" <b> & 'c'\tx\ny",
        "text": "1 < 2 && 3 > 2 ]]> \"ok\"\r\n"
    });
    let (content_type, body) = sent(operation, arguments).await;
    assert_eq!(content_type, "text/xml");
    assert_eq!(
        body,
        format!(
            "{DECLARATION}<note title=\"a &quot;quoted&quot; &lt;b&gt; &amp; 'c'&#9;x&#10;y\">\
             <text>1 &lt; 2 &amp;&amp; 3 &gt; 2 ]]&gt; \"ok\"&#13;\n</text></note>"
        )
    );
}

#[tokio::test]
async fn a_whole_body_without_a_layout_is_named_body_and_its_array_wrapped() {
    let mut row = body("application/xml", BodyEncoding::Xml, whole("items"));
    row.xml = None;
    let operation = Op::post("send", "/pets")
        .body(row)
        .schema(json!({"items": {"type": "array"}}), &["items"])
        .build();
    let (_, body) = sent(operation, json!({"items": [1, "two", {"three": 3.5}]})).await;
    assert_eq!(
        body,
        format!(
            "{DECLARATION}<body><body>1</body><body>two</body><body><three>3.5</three></body></body>"
        )
    );
}

/// One call of `send` that must be refused: the problem's argument and its message, after
/// checking nothing was sent.
async fn refused(operation: Operation, arguments: Value) -> (String, String) {
    let server = ok_server().await;
    let driver = driver(vec![operation], &server);
    let mut problems = problems(call(&driver, "send", arguments).await);
    assert!(received(&server).await.is_empty(), "a request was sent");
    assert_eq!(problems.len(), 1, "{problems:?}");
    let problem = problems.remove(0);
    (problem.argument.clone(), problem.to_string())
}

#[tokio::test]
async fn bad_xml_input_is_refused_naming_the_argument_and_nothing_is_sent() {
    let (argument, message) = refused(
        xml_op("application/xml", pet_layout(), PET_ARGUMENTS),
        json!({"id": {"nested": 1}}),
    )
    .await;
    assert_eq!(argument, "id");
    assert_eq!(
        message,
        "argument `id`: expected a string, number or boolean (it is sent as an XML \
         attribute), got an object: {\"nested\":1}"
    );

    let (argument, message) = refused(
        xml_op("application/xml", pet_layout(), PET_ARGUMENTS),
        json!({"owner": {"my name": "x"}}),
    )
    .await;
    assert_eq!(argument, "owner.my name");
    assert!(
        message.contains("a name an XML element can have") && message.contains("`my name`"),
        "{message}"
    );

    let (argument, message) = refused(
        xml_op("application/xml", pet_layout(), PET_ARGUMENTS),
        json!({"tags": [{"name": "ok"}, {"name": "bell\u{7}"}]}),
    )
    .await;
    assert_eq!(argument, "tags[1].name");
    assert!(message.contains("U+0007"), "{message}");

    let bad_root = json!({"xml": {"name": "1st"}});
    let (argument, message) =
        refused(xml_op("application/xml", bad_root, &["a"]), json!({"a": 1})).await;
    assert_eq!(argument, "");
    assert!(message.contains("`1st`"), "{message}");
}

#[tokio::test]
async fn a_whole_xml_body_given_a_scalar_is_its_root_text() {
    let mut row = body("application/xml", BodyEncoding::Xml, whole("body"));
    row.xml = Some(owned(r#"{"xml": {"name": "count"}}"#));
    let operation = Op::post("send", "/pets")
        .body(row)
        .schema(json!({"body": {}}), &["body"])
        .build();
    let (_, body) = sent(operation, json!({"body": 3})).await;
    assert_eq!(body, format!("{DECLARATION}<count>3</count>"));
}

#[tokio::test]
async fn deeply_nested_input_is_refused_not_a_stack_overflow() {
    let mut value = json!("leaf");
    for _ in 0..200 {
        value = json!({"a": value});
    }
    let mut row = body("application/xml", BodyEncoding::Xml, whole("body"));
    row.xml = None;
    let operation = Op::post("send", "/pets")
        .body(row)
        .schema(json!({"body": {}}), &["body"])
        .build();
    let server = ok_server().await;
    let driver = driver(vec![operation], &server);
    let result = call(&driver, "send", json!({"body": value})).await;
    assert!(received(&server).await.is_empty());
    let problems = problems(result);
    assert!(
        problems[0]
            .to_string()
            .contains("nested at most 128 levels"),
        "{}",
        problems[0]
    );
}
