//! Text in the charset a message declares: answers read into UTF-8 whatever they are in,
//! and text, form and XML bodies written in the charset the document gives them.

use mcs_rest::{Decode, json as json_decoder};
use serde::Deserialize;

use super::*;

fn answering_bytes(bytes: &[u8], content_type: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_raw(bytes.to_vec(), content_type)
}

#[tokio::test]
async fn answers_in_another_charset_are_read_as_text_and_json() {
    // "Café" in ISO-8859-1: it was summarised as binary before.
    let server = server_answering(answering_bytes(
        b"Caf\xe9",
        "text/plain; charset=ISO-8859-1",
    ))
    .await;
    let menu = driver(vec![Op::get("menu", "/menu").build()], &server);
    assert_eq!(call(&menu, "menu", json!({})).await.unwrap(), json!("Café"));

    // JSON declared in Latin-1: it was invalid JSON before.
    let server = server_answering(answering_bytes(
        b"{\"name\": \"Jos\xe9\"}",
        "application/json; charset=latin1",
    ))
    .await;
    let who = driver(vec![Op::get("who", "/who").build()], &server);
    assert_eq!(
        call(&who, "who", json!({})).await.unwrap(),
        json!({"name": "José"})
    );

    // XML that names its encoding in its declaration only.
    let xml = b"<?xml version=\"1.0\" encoding=\"windows-1252\"?><price>\x80 5</price>";
    let server = server_answering(answering_bytes(xml, "application/xml")).await;
    let price = driver(vec![Op::get("price", "/price").build()], &server);
    let text = call(&price, "price", json!({})).await.unwrap();
    assert!(
        text.as_str()
            .is_some_and(|t| t.ends_with("<price>€ 5</price>")),
        "{text}"
    );

    // A JSON answer with a UTF-8 byte-order mark.
    let server = server_answering(answering_bytes(b"\xef\xbb\xbf[1]", "application/json")).await;
    let list = driver(vec![Op::get("list", "/list").build()], &server);
    assert_eq!(call(&list, "list", json!({})).await.unwrap(), json!([1]));
}

#[tokio::test]
async fn a_typed_call_reads_an_answer_in_another_charset() {
    #[derive(Debug, Deserialize, PartialEq)]
    struct Person {
        name: String,
    }
    let server = server_answering(answering_bytes(
        b"{\"name\": \"Jos\xe9\"}",
        "application/json; charset=iso-8859-1",
    ))
    .await;
    let driver = driver(vec![Op::get("who", "/who").build()], &server);
    let success: Decode<Person> = json_decoder::<Person>;
    let failure: Decode<Value> = json_decoder::<Value>;
    let answer = driver
        .call_typed("who", &json!({}), success, failure)
        .await
        .expect("decoded");
    assert_eq!(
        answer.body,
        Person {
            name: "José".into()
        }
    );
}

#[tokio::test]
async fn text_bodies_are_sent_in_the_charset_the_document_gives_them() {
    let server = ok_server().await;
    let op = Op::post("note", "/notes")
        .schema(json!({"body": {"type": "string"}}), &["body"])
        .body(body(
            "text/plain; charset=ISO-8859-1",
            BodyEncoding::Text,
            whole("body"),
        ))
        .build();
    let driver = driver(vec![op], &server);
    call(&driver, "note", json!({"body": "Café"}))
        .await
        .unwrap();
    let request = only_request(&server).await;
    assert_eq!(request.body, b"Caf\xe9");
    assert_eq!(
        header(&request, "content-type"),
        "text/plain; charset=ISO-8859-1"
    );

    // A character the charset has no byte for is refused before anything is sent.
    let (argument, kind) = single_problem(call(&driver, "note", json!({"body": "a ☃"})).await);
    assert_eq!(argument, "body");
    let ArgumentErrorKind::Invalid { expected, .. } = kind else {
        panic!("{kind:?}");
    };
    assert!(
        expected.contains("U+2603") && expected.contains("windows-1252"),
        "{expected}"
    );
    assert_eq!(
        received(&server).await.len(),
        1,
        "the refused call sent nothing"
    );
}

#[tokio::test]
async fn form_bodies_encode_the_bytes_of_their_charset() {
    let server = ok_server().await;
    let form = |media_type: &str| {
        let op = Op::post("sign", "/sign")
            .schema(json!({"body": {"type": "object"}}), &["body"])
            .body(body(media_type, BodyEncoding::Form, whole("body")))
            .build();
        driver(vec![op], &server)
    };
    let latin = form("application/x-www-form-urlencoded; charset=ISO-8859-1");
    call(
        &latin,
        "sign",
        json!({"body": {"name": "Zoë", "città": ["Pavía", "Köln"]}}),
    )
    .await
    .unwrap();
    call(
        &form("application/x-www-form-urlencoded"),
        "sign",
        json!({"body": {"name": "Zoë"}}),
    )
    .await
    .unwrap();
    let requests = received(&server).await;
    assert_eq!(
        String::from_utf8_lossy(&requests[0].body),
        "name=Zo%EB&citt%E0=Pav%EDa&citt%E0=K%F6ln"
    );
    // Without a charset, UTF-8.
    assert_eq!(String::from_utf8_lossy(&requests[1].body), "name=Zo%C3%AB");

    // A character the charset has no byte for is refused before anything is sent.
    let (argument, kind) =
        single_problem(call(&latin, "sign", json!({"body": {"name": "☃"}})).await);
    assert_eq!(argument, "body");
    let ArgumentErrorKind::Invalid { expected, .. } = kind else {
        panic!("{kind:?}");
    };
    assert!(expected.contains("U+2603"), "{expected}");
    assert_eq!(
        received(&server).await.len(),
        2,
        "the refused call sent nothing"
    );
}

#[tokio::test]
async fn xml_bodies_name_their_charset_and_refer_to_what_it_lacks() {
    let server = ok_server().await;
    let op = Op::post("order", "/orders")
        .schema(json!({"body": {"type": "object"}}), &["body"])
        .body(body(
            "application/xml; charset=latin1",
            BodyEncoding::Xml,
            whole("body"),
        ))
        .build();
    let driver = driver(vec![op], &server);
    call(&driver, "order", json!({"body": {"item": "Café ☃"}}))
        .await
        .unwrap();
    let request = only_request(&server).await;
    assert_eq!(
        request.body,
        b"<?xml version=\"1.0\" encoding=\"windows-1252\"?>\n<body><item>Caf\xe9 &#9731;</item></body>"
    );
}
