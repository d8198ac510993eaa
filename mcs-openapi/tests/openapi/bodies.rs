//! Request bodies: media type choice, spreading into arguments, files.

use mcs_openapi::ReadOptions;
use mcs_rest::{BodyArgument, BodyEncoding};
use serde_json::json;

use super::{doc, op, read, read_with, schema};

fn file_schema(description: Option<&str>) -> serde_json::Value {
    let base = "A file: {\"base64\": ..., \"filename\": ...} or {\"path\": ...}";
    let description = match description {
        Some(own) => format!("{own}\n{base}"),
        None => base.to_owned(),
    };
    json!({
        "type": "object",
        "description": description,
        "properties": {
            "base64": {"type": "string", "contentEncoding": "base64"},
            "filename": {"type": "string"},
            "content_type": {"type": "string"},
            "path": {"type": "string"}
        },
        "anyOf": [{"required": ["base64"]}, {"required": ["path"]}]
    })
}

fn body_doc(content: &str) -> String {
    doc(
        &format!(
            r#"
  /things/{{id}}:
    post:
      operationId: post
      parameters:
        - {{name: id, in: path, schema: {{type: string}}}}
      requestBody:
        required: true
        description: The thing.
        content:
{content}
"#
        ),
        r#"
components:
  schemas:
    Base:
      type: object
      required: [name]
      properties:
        name: {type: string}
        id: {type: string, readOnly: true}
    Thing:
      allOf:
        - $ref: '#/components/schemas/Base'
        - type: object
          properties:
            size: {type: integer}
"#,
    )
}

#[test]
fn json_object_body_is_spread_into_arguments() {
    let document = read(&body_doc(
        "          application/xml: {schema: {type: object}}\n          application/json; charset=utf-8:\n            schema: {$ref: '#/components/schemas/Thing'}",
    ));
    let post = op(&document, "post");
    let body = post.body.as_ref().unwrap();
    assert_eq!(body.media_type, "application/json; charset=utf-8");
    assert_eq!(body.encoding, BodyEncoding::Json);
    assert_eq!(
        body.argument,
        BodyArgument::Properties(vec!["name".into(), "size".into()].into())
    );
    assert!(body.required);
    assert!(body.files.is_empty());
    assert_eq!(
        schema(post),
        json!({
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "name": {"type": "string"},
                "size": {"type": "integer"}
            },
            "required": ["id", "name"]
        })
    );
}

#[test]
fn a_clashing_property_keeps_the_body_whole() {
    let document = read(&body_doc(
        "          application/json:\n            schema: {type: object, properties: {id: {type: integer}, x: {type: string}}}",
    ));
    let post = op(&document, "post");
    let body = post.body.as_ref().unwrap();
    assert_eq!(body.argument, BodyArgument::Whole("body".into()));
    assert_eq!(
        schema(post)["properties"]["body"],
        json!({
            "type": "object",
            "description": "The thing.",
            "properties": {"id": {"type": "integer"}, "x": {"type": "string"}}
        })
    );
    // Every property is optional: the required body may be left out, and is sent as `{}`
    // (DynamoDB's `ListTables`).
    assert_eq!(schema(post)["required"], json!(["id"]));
    assert!(body.required);
    // One the object requires makes the body required.
    let document = read(&body_doc(
        "          application/json:\n            schema: {type: object, required: [x], properties: {id: {type: integer}, x: {type: string}}}",
    ));
    assert_eq!(
        schema(op(&document, "post"))["required"],
        json!(["id", "body"])
    );
}

#[test]
fn non_object_bodies_are_one_argument_renamed_when_body_is_taken() {
    let document = read(&doc(
        r#"
  /a:
    put:
      operationId: put
      parameters:
        - {name: body, in: query, schema: {type: string}}
      requestBody:
        content:
          application/json:
            schema: {type: array, items: {type: string}}
    post:
      operationId: free_map
      requestBody:
        content:
          application/json:
            schema: {type: object, additionalProperties: {type: string}}
"#,
        "",
    ));
    let put = op(&document, "put");
    assert_eq!(
        put.body.as_ref().unwrap().argument,
        BodyArgument::Whole("body_".into())
    );
    assert!(!put.body.as_ref().unwrap().required);
    assert_eq!(
        schema(put)["properties"]["body_"],
        json!({"type": "array", "items": {"type": "string"}})
    );
    assert_eq!(
        op(&document, "free_map").body.as_ref().unwrap().argument,
        BodyArgument::Whole("body".into())
    );
}

#[test]
fn media_types_choose_the_encoding() {
    let cases = [
        ("*/*", "application/json", BodyEncoding::Json),
        (
            "application/vnd.api+json",
            "application/vnd.api+json",
            BodyEncoding::Json,
        ),
        (
            "application/x-www-form-urlencoded",
            "application/x-www-form-urlencoded",
            BodyEncoding::Form,
        ),
        ("text/plain", "text/plain", BodyEncoding::Text),
        ("image/png", "image/png", BodyEncoding::Binary),
        (
            "application/octet-stream",
            "application/octet-stream",
            BodyEncoding::Binary,
        ),
    ];
    for (media, sent, encoding) in cases {
        let document = read(&body_doc(&format!(
            "          application/x-unknown: {{schema: {{type: object}}}}\n          '{media}':\n            schema: {{type: string}}"
        )));
        let body = op(&document, "post").body.clone().unwrap();
        assert_eq!(
            (body.media_type.as_ref(), body.encoding),
            (sent, encoding),
            "{media}"
        );
    }
}

#[test]
fn form_over_multipart_and_multipart_files() {
    let document = read(&body_doc(
        r#"          multipart/form-data:
            schema:
              type: object
              required: [upload]
              properties:
                upload: {type: string, format: binary, description: The file.}
                photos: {type: array, items: {type: string, contentMediaType: image/png}}
                note: {type: string}"#,
    ));
    let post = op(&document, "post");
    let body = post.body.as_ref().unwrap();
    assert_eq!(body.encoding, BodyEncoding::Multipart);
    assert_eq!(body.media_type, "multipart/form-data");
    assert_eq!(body.files.as_ref(), ["upload", "photos"]);
    let properties = &schema(post)["properties"];
    assert_eq!(properties["upload"], file_schema(Some("The file.")));
    assert_eq!(
        properties["photos"],
        json!({"type": "array", "items": file_schema(None)})
    );
    assert_eq!(properties["note"], json!({"type": "string"}));

    let form = read(&body_doc(
        "          multipart/form-data: {schema: {type: object, properties: {a: {type: string}}}}\n          application/x-www-form-urlencoded: {schema: {type: object, properties: {a: {type: string}}}}",
    ));
    assert_eq!(
        op(&form, "post").body.as_ref().unwrap().encoding,
        BodyEncoding::Form
    );
}

#[test]
fn text_and_binary_bodies() {
    let text = read(&body_doc("          text/csv: {schema: {type: string}}"));
    let post = op(&text, "post");
    assert_eq!(
        post.body.as_ref().unwrap().argument,
        BodyArgument::Whole("body".into())
    );
    assert_eq!(
        schema(post)["properties"]["body"],
        json!({"type": "string", "description": "The thing."})
    );

    let binary = read(&body_doc(
        "          image/*: {schema: {type: string, format: binary}}",
    ));
    let post = op(&binary, "post");
    let body = post.body.as_ref().unwrap();
    assert_eq!(
        (body.encoding, body.media_type.as_ref()),
        (BodyEncoding::Binary, "application/octet-stream")
    );
    assert_eq!(
        schema(post)["properties"]["body"],
        file_schema(Some("The thing."))
    );
}

/// A binary media type whose schema is base64 text (Spotify's playlist cover: `image/jpeg`,
/// `format: byte`) sends that text as it is, under the document's media type; Prism's
/// validation found mcs decoding it as a file instead.
#[test]
fn base64_text_under_a_binary_media_type_is_sent_as_text() {
    for schema_text in [
        "{type: string, format: byte}",
        "{type: string, contentEncoding: base64}",
    ] {
        let doc = read(&body_doc(&format!(
            "          image/jpeg: {{schema: {schema_text}}}"
        )));
        let post = op(&doc, "post");
        let body = post.body.as_ref().unwrap();
        assert_eq!(
            (body.encoding, body.media_type.as_ref()),
            (BodyEncoding::Text, "image/jpeg"),
            "{schema_text}"
        );
        assert_eq!(schema(post)["properties"]["body"]["type"], "string");
    }
}

#[test]
fn unsupported_media_type_fails_or_is_skipped() {
    let yaml = body_doc("          application/x-thing: {schema: {type: object}}");
    let message = "request body media type \"application/x-thing\" (schema: object) is not \
                   supported: JSON, XML, form, multipart, text/* and binary media types can be \
                   sent, and any other media type whose schema is a string or binary";
    let error = read_with(&yaml, &ReadOptions::default()).unwrap_err();
    assert_eq!(error.message, message);
    assert_eq!(
        error.pointer,
        "/paths/~1things~1{id}/post/requestBody/content/application~1x-thing"
    );
    assert_eq!(error.file, "test.yaml");

    let document = read_with(&yaml, &ReadOptions::default().lenient(true)).unwrap();
    assert!(document.api.operations.is_empty());
    assert_eq!(document.skipped.len(), 1);
    let skipped = &document.skipped[0];
    assert_eq!(skipped.operation, "POST /things/{id}");
    assert_eq!(skipped.reason, message);
    assert_eq!(
        skipped.pointer,
        "/paths/~1things~1{id}/post/requestBody/content/application~1x-thing"
    );
}

#[test]
fn body_without_content_or_schema() {
    let document = read(&doc(
        r#"
  /a:
    post:
      operationId: none
      requestBody: {description: nothing}
    put:
      operationId: any
      requestBody:
        content:
          application/json: {}
"#,
        "",
    ));
    assert!(op(&document, "none").body.is_none());
    let any = op(&document, "any");
    assert_eq!(
        any.body.as_ref().unwrap().argument,
        BodyArgument::Whole("body".into())
    );
    assert_eq!(schema(any)["properties"]["body"], json!({}));
}

#[test]
fn a_form_body_names_the_properties_its_encoding_sends_as_deep_objects() {
    let form = read(&body_doc(
        "          application/x-www-form-urlencoded:\n            schema: {type: object, properties: {email: {type: string}, address: {type: object}, items: {type: array, items: {type: object}}, metadata: {type: object}}}\n            encoding:\n              address: {style: deepObject, explode: true}\n              items: {style: deepObject, explode: true}\n              metadata: {contentType: application/json}",
    ));
    let body = op(&form, "post").body.clone().unwrap();
    assert_eq!(body.encoding, BodyEncoding::Form);
    let deep: Vec<&str> = body.deep_objects.iter().map(AsRef::as_ref).collect();
    assert_eq!(deep, ["address", "items"]);
    // Not for other media types.
    let json_body = read(&body_doc(
        "          application/json:\n            schema: {type: object, properties: {address: {type: object}}}\n            encoding:\n              address: {style: deepObject}",
    ));
    assert!(
        op(&json_body, "post")
            .body
            .as_ref()
            .unwrap()
            .deep_objects
            .is_empty()
    );
}
