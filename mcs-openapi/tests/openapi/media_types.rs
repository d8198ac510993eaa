//! Media types beyond JSON, form and multipart: XML bodies and their layout, any media type
//! whose schema is a string or binary, and the message naming every media type refused.

use mcs_openapi::ReadOptions;
use mcs_rest::{BodyArgument, BodyEncoding, RequestBody};
use serde_json::{Value, json};

use super::{doc, op, read, read_with, schema};

/// What every refusal of a body's media types ends with.
const WHAT_IS_SENT: &str = "JSON, XML, form, multipart, text/* and binary media types can be \
                            sent, and any other media type whose schema is a string or binary";

/// A document whose `POST /a` (operation `send`) has the request body `content` (YAML
/// indented under `content:`), with `components` after it.
fn with_content(content: &str, components: &str) -> String {
    doc(
        &format!(
            r#"
  /a:
    post:
      operationId: send
      requestBody:
        required: true
        content:
{content}
"#
        ),
        components,
    )
}

fn body_of(document: &mcs_openapi::Document) -> RequestBody {
    op(document, "send").body.clone().expect("a body")
}

fn layout(body: &RequestBody) -> Value {
    serde_json::from_str(body.xml.as_deref().expect("an XML layout")).expect("JSON")
}

const PET: &str = r#"
components:
  schemas:
    Pet:
      type: object
      xml: {name: pet, namespace: 'http://example.com/pets', prefix: p}
      required: [name]
      properties:
        id: {type: integer, xml: {attribute: true}}
        name: {type: string}
        tags:
          type: array
          xml: {wrapped: true}
          items: {$ref: '#/components/schemas/Tag'}
        owner: {$ref: '#/components/schemas/Owner'}
    Tag:
      type: object
      xml: {name: tag}
      properties:
        label: {type: string}
    Owner:
      type: object
      properties:
        name: {type: string}
        pets:
          type: array
          items: {$ref: '#/components/schemas/Pet'}
"#;

#[test]
fn an_xml_body_is_spread_and_keeps_its_layout() {
    let document = read(&with_content(
        "          application/xml:\n            schema: {$ref: '#/components/schemas/Pet'}",
        PET,
    ));
    let send = op(&document, "send");
    let body = body_of(&document);
    assert_eq!(
        (body.media_type.as_ref(), body.encoding),
        ("application/xml", BodyEncoding::Xml)
    );
    assert_eq!(
        body.argument,
        BodyArgument::Properties(
            vec!["id".into(), "name".into(), "tags".into(), "owner".into()].into()
        )
    );
    // The model sees the same arguments as for JSON: `xml` is no part of them.
    assert_eq!(schema(send)["required"], json!(["name"]));
    assert!(!schema(send).to_string().contains("\"xml\""));
    // Owner refers back to Pet: the layout holds each schema once.
    assert_eq!(
        layout(&body),
        json!({
            "$ref": "#/$defs/Pet",
            "xml": {"name": "pet"},
            "$defs": {
                "Pet": {
                    "xml": {"name": "pet", "namespace": "http://example.com/pets", "prefix": "p"},
                    "properties": {
                        "id": {"xml": {"attribute": true}},
                        "name": {},
                        "tags": {"xml": {"wrapped": true}, "items": {"$ref": "#/$defs/Tag"}},
                        "owner": {"$ref": "#/$defs/Owner"}
                    }
                },
                "Tag": {"xml": {"name": "tag"}, "properties": {"label": {}}},
                "Owner": {
                    "properties": {
                        "name": {},
                        "pets": {"items": {"$ref": "#/$defs/Pet"}}
                    }
                }
            }
        })
    );
}

#[test]
fn xml_media_types_with_parameters_and_suffixes() {
    for media in [
        "application/xml; charset=utf-8",
        "text/xml",
        "application/atom+xml",
        "application/vnd.foo+xml",
        "Application/XML",
    ] {
        let document = read(&with_content(
            &format!(
                "          '{media}':\n            schema: {{type: object, properties: {{a: {{type: string}}}}}}"
            ),
            "",
        ));
        let body = body_of(&document);
        assert_eq!(
            (body.media_type.as_ref(), body.encoding),
            (media, BodyEncoding::Xml),
            "{media}"
        );
        assert_eq!(layout(&body)["xml"], json!({"name": "body"}), "{media}");
    }
}

#[test]
fn json_form_and_multipart_are_preferred_to_xml_and_xml_to_text() {
    let object = "{schema: {type: object, properties: {a: {type: string}}}}";
    let cases = [
        ("application/json", BodyEncoding::Json),
        ("application/merge-patch+json", BodyEncoding::Json),
        ("application/x-www-form-urlencoded", BodyEncoding::Form),
        ("multipart/form-data", BodyEncoding::Multipart),
    ];
    for (other, encoding) in cases {
        let document = read(&with_content(
            &format!("          application/xml: {object}\n          {other}: {object}"),
            "",
        ));
        let body = body_of(&document);
        assert_eq!(
            (body.media_type.as_ref(), body.encoding),
            (other, encoding),
            "{other}"
        );
        assert!(body.xml.is_none(), "{other}");
    }
    let document = read(&with_content(
        &format!("          text/plain: {object}\n          application/xml: {object}"),
        "",
    ));
    assert_eq!(body_of(&document).encoding, BodyEncoding::Xml);
}

#[test]
fn an_object_patch_is_sent_as_a_merge_patch_not_a_json_patch() {
    // Kubernetes offers its `Patch` object under four media types, JSON Patch first.
    let object = "{schema: {type: object, properties: {spec: {type: object}}}}";
    let document = read(&with_content(
        &format!(
            "          application/json-patch+json: {object}
          application/merge-patch+json: {object}
          application/strategic-merge-patch+json: {object}
          application/apply-patch+yaml: {object}"
        ),
        "",
    ));
    let body = body_of(&document);
    assert_eq!(
        (body.media_type.as_ref(), body.encoding),
        ("application/merge-patch+json", BodyEncoding::Json)
    );
    // A JSON Patch the document describes as one (an array) is what it says.
    let array = "{schema: {type: array, items: {type: object}}}";
    let document = read(&with_content(
        &format!(
            "          application/json-patch+json: {array}
          application/merge-patch+json: {object}"
        ),
        "",
    ));
    assert_eq!(
        body_of(&document).media_type.as_ref(),
        "application/json-patch+json"
    );
    // Alone, it is still sent.
    let document = read(&with_content(
        &format!("          application/json-patch+json: {object}"),
        "",
    ));
    assert_eq!(
        body_of(&document).media_type.as_ref(),
        "application/json-patch+json"
    );
}

#[test]
fn the_root_element_is_named_by_xml_name_then_the_schema_name_then_body() {
    let components = r#"
components:
  schemas:
    Named:
      type: object
      xml: {name: thing}
      properties: {a: {type: string}}
    Unnamed:
      type: object
      properties: {a: {type: string}}
    Alias: {$ref: '#/components/schemas/Named'}
"#;
    let cases = [
        ("{$ref: '#/components/schemas/Named'}", "thing"),
        ("{$ref: '#/components/schemas/Unnamed'}", "Unnamed"),
        ("{$ref: '#/components/schemas/Alias'}", "thing"),
        (
            "{type: object, xml: {name: own}, properties: {a: {type: string}}}",
            "own",
        ),
        ("{type: object, properties: {a: {type: string}}}", "body"),
    ];
    for (schema_text, root) in cases {
        let document = read(&with_content(
            &format!("          application/xml:\n            schema: {schema_text}"),
            components,
        ));
        assert_eq!(
            layout(&body_of(&document))["xml"]["name"],
            root,
            "{schema_text}"
        );
    }
}

#[test]
fn xml_described_as_a_string_is_text_and_as_binary_a_file() {
    let text = read(&with_content(
        "          application/xml: {schema: {type: string}}",
        "",
    ));
    let body = body_of(&text);
    assert_eq!(
        (body.encoding, body.media_type.as_ref()),
        (BodyEncoding::Text, "application/xml")
    );
    assert!(body.xml.is_none());
    assert_eq!(
        schema(op(&text, "send"))["properties"]["body"],
        json!({"type": "string"})
    );

    let binary = read(&with_content(
        "          application/xml: {schema: {type: string, format: binary}}",
        "",
    ));
    assert_eq!(body_of(&binary).encoding, BodyEncoding::Binary);

    // Without a schema there is nothing to lay out: the model writes the XML.
    let unspecified = read(&with_content("          application/xml: {}", ""));
    assert_eq!(body_of(&unspecified).encoding, BodyEncoding::Text);
}

#[test]
fn an_xml_name_no_element_can_have_is_an_error_at_its_pointer() {
    let cases = [
        (
            "{type: object, xml: {name: 'my pet'}}",
            "/paths/~1a/post/requestBody/content/application~1xml/schema/xml/name",
            "`xml.name` \"my pet\" is not an XML name",
        ),
        (
            "{type: object, properties: {a: {type: string, xml: {prefix: 'a:b'}}}}",
            "/paths/~1a/post/requestBody/content/application~1xml/schema/properties/a/xml/prefix",
            "`xml.prefix` \"a:b\" is not an XML name without `:`",
        ),
        (
            "{type: object, properties: {a: {type: string, xml: {attribute: 'yes'}}}}",
            "/paths/~1a/post/requestBody/content/application~1xml/schema/properties/a/xml/attribute",
            "`xml.attribute` is not true or false",
        ),
        (
            "{$ref: '#/components/schemas/Bad'}",
            "/components/schemas/Bad/xml/name",
            "`xml.name` \"1st\" is not an XML name",
        ),
    ];
    let components = "components:\n  schemas:\n    Bad: {type: object, xml: {name: 1st}}\n";
    for (schema_text, pointer, message) in cases {
        let yaml = with_content(
            &format!("          application/xml:\n            schema: {schema_text}"),
            components,
        );
        let error = read_with(&yaml, &ReadOptions::default()).unwrap_err();
        assert_eq!(
            (error.pointer.as_str(), error.message.as_str()),
            (pointer, message),
            "{schema_text}"
        );
    }
}

/// Which encoding a lone media type with `schema_text` is read as (`None`: refused).
fn encoding_of(media: &str, schema_text: &str) -> Option<(BodyEncoding, String)> {
    let entry = if schema_text.is_empty() {
        format!("          {media}: {{}}")
    } else {
        format!("          {media}: {{schema: {schema_text}}}")
    };
    let yaml = with_content(
        &entry,
        "components:\n  schemas:\n    Token: {type: string, pattern: '^ey'}\n",
    )
    .replace("openapi: 3.0.3", "openapi: 3.1.0");
    let document = read_with(&yaml, &ReadOptions::default()).ok()?;
    let body = body_of(&document);
    Some((body.encoding, body.media_type.to_string()))
}

#[test]
fn any_media_type_whose_schema_is_a_string_is_text_and_binary_bytes() {
    let text = [
        ("application/jwt", "{type: string}"),
        ("application/jwt", "{$ref: '#/components/schemas/Token'}"),
        ("application/x-yaml", "{type: [string, 'null']}"),
        (
            "application/x-yaml",
            "{type: string, contentEncoding: base64}",
        ),
    ];
    for (media, schema_text) in text {
        assert_eq!(
            encoding_of(media, schema_text),
            Some((BodyEncoding::Text, media.to_owned())),
            "{media} {schema_text}"
        );
    }
    let bytes = [
        ("application/x-yaml", "{type: string, format: binary}"),
        (
            "application/dicom",
            "{type: string, contentMediaType: application/dicom}",
        ),
        ("application/tar", "{}"),
        ("application/x-something", "{contentEncoding: binary}"),
        ("application/x-something", ""),
    ];
    for (media, schema_text) in bytes {
        assert_eq!(
            encoding_of(media, schema_text),
            Some((BodyEncoding::Binary, media.to_owned())),
            "{media} {schema_text}"
        );
    }
    // `*/*` is JSON, unless its schema is binary: then a file, sent as octet-stream.
    assert_eq!(
        encoding_of("'*/*'", "{type: string, format: binary}"),
        Some((BodyEncoding::Binary, "application/octet-stream".to_owned()))
    );
    for schema_text in ["{type: object}", "{type: string}", ""] {
        assert_eq!(
            encoding_of("'*/*'", schema_text),
            Some((BodyEncoding::Json, "application/json".to_owned())),
            "{schema_text}"
        );
    }
    // JSON is YAML: a structured YAML body is sent as JSON text, under its media type.
    for schema_text in ["{type: object}", "{type: array, items: {type: string}}"] {
        for media in ["application/x-yaml", "application/yaml", "text/yaml"] {
            assert_eq!(
                encoding_of(media, schema_text),
                Some((BodyEncoding::Json, media.to_owned())),
                "{media} {schema_text}"
            );
        }
    }
    for schema_text in [
        "{type: object}",
        "{type: array, items: {type: string}}",
        "{type: integer}",
        "{properties: {a: {type: string}}}",
        "{oneOf: [{type: string}, {type: integer}]}",
    ] {
        assert_eq!(
            encoding_of("application/x-something", schema_text),
            None,
            "{schema_text}"
        );
    }
}

#[test]
fn a_jwt_body_is_one_string_argument_and_a_yaml_file_one_file_argument() {
    let jwt = read(&with_content(
        "          application/jwt: {schema: {type: string}}",
        "",
    ));
    let body = body_of(&jwt);
    assert_eq!(body.argument, BodyArgument::Whole("body".into()));
    assert_eq!(
        schema(op(&jwt, "send"))["properties"]["body"],
        json!({"type": "string"})
    );

    let yaml = read(&with_content(
        "          application/x-yaml: {schema: {type: string, format: binary}}",
        "",
    ));
    let arguments = schema(op(&yaml, "send"));
    assert_eq!(
        arguments["properties"]["body"]["anyOf"],
        json!([{"required": ["base64"]}, {"required": ["path"]}])
    );
    assert_eq!(arguments["required"], json!(["body"]));
}

#[test]
fn a_known_media_type_is_preferred_to_an_unknown_one_sent_the_same_way() {
    let document = read(&with_content(
        "          application/jwt: {schema: {type: string}}\n          text/plain: {schema: {type: string}}",
        "",
    ));
    assert_eq!(body_of(&document).media_type, "text/plain");
    let document = read(&with_content(
        "          application/x-yaml: {schema: {type: string, format: binary}}\n          application/octet-stream: {schema: {type: string, format: binary}}",
        "",
    ));
    assert_eq!(body_of(&document).media_type, "application/octet-stream");
}

#[test]
fn every_refused_media_type_is_named_and_an_empty_one_shows() {
    let yaml = with_content(
        "          '': {schema: {type: object}}\n          application/x-foo: {schema: {type: object}}",
        "",
    );
    let error = read_with(&yaml, &ReadOptions::default()).unwrap_err();
    assert_eq!(
        error.message,
        format!(
            "request body media types \"\" and \"application/x-foo\" (schema: object) are not \
             supported: {WHAT_IS_SENT}"
        )
    );
    assert_eq!(error.pointer, "/paths/~1a/post/requestBody/content");

    let yaml = with_content(
        "          application/x-foo: {schema: {type: array}}\n          json: {schema: {type: object}}\n          application/x-bar: {schema: {type: [integer, 'null']}}",
        "",
    );
    let error = read_with(&yaml, &ReadOptions::default()).unwrap_err();
    assert_eq!(
        error.message,
        format!(
            "request body media types \"application/x-foo\" (schema: array), \"json\" and \
             \"application/x-bar\" (schema: integer) are not supported: {WHAT_IS_SENT}"
        )
    );

    let yaml = with_content("          '': {schema: {type: object}}", "");
    let error = read_with(&yaml, &ReadOptions::default()).unwrap_err();
    assert_eq!(
        error.message,
        format!("request body media type \"\" is not supported: {WHAT_IS_SENT}")
    );
    assert_eq!(error.pointer, "/paths/~1a/post/requestBody/content/");
}

#[test]
fn a_broken_schema_of_a_media_type_not_chosen_does_not_matter() {
    let document = read(&with_content(
        "          application/x-foo: {schema: {$ref: '#/components/schemas/Missing'}}\n          application/json: {schema: {type: object}}",
        "",
    ));
    assert_eq!(body_of(&document).encoding, BodyEncoding::Json);
    let yaml = with_content(
        "          application/x-foo: {schema: {$ref: '#/components/schemas/Missing'}}",
        "",
    );
    let error = read_with(&yaml, &ReadOptions::default()).unwrap_err();
    assert!(error.message.contains("Missing"), "{}", error.message);
}

/// A Swagger 2.0 document whose `POST /a` (operation `send`) takes the body parameter
/// `pet` with `schema_text`, under `consumes` (YAML flow lists) on the operation and the
/// document.
fn swagger(op_consumes: Option<&str>, root_consumes: Option<&str>, schema_text: &str) -> String {
    let root = root_consumes.map_or(String::new(), |list| format!("consumes: {list}\n"));
    let own = op_consumes.map_or(String::new(), |list| format!("      consumes: {list}\n"));
    format!(
        r#"swagger: '2.0'
info: {{title: T, version: '1'}}
{root}paths:
  /a:
    post:
      operationId: send
{own}      parameters:
        - {{name: pet, in: body, required: true, schema: {schema_text}}}
      responses: {{'200': {{description: ok}}}}
definitions:
  Pet:
    type: object
    properties:
      id: {{type: integer, xml: {{attribute: true}}}}
      name: {{type: string}}
"#
    )
}

#[test]
fn swagger_consumes_gets_the_same_reading() {
    let document = read(&swagger(
        Some("[application/xml, text/plain]"),
        None,
        "{$ref: '#/definitions/Pet'}",
    ));
    let body = body_of(&document);
    assert_eq!(
        (body.media_type.as_ref(), body.encoding),
        ("application/xml", BodyEncoding::Xml)
    );
    assert_eq!(layout(&body)["xml"], json!({"name": "Pet"}));

    // An inline schema's root is named by the body parameter.
    let document = read(&swagger(
        None,
        Some("[application/xml]"),
        "{type: object, properties: {a: {type: string}}}",
    ));
    assert_eq!(layout(&body_of(&document))["xml"], json!({"name": "pet"}));

    // A parameter name no element can have leaves the default.
    let document = read(
        &swagger(
            None,
            Some("[application/xml]"),
            "{type: object, properties: {a: {type: string}}}",
        )
        .replace("name: pet,", "name: 'my pet',"),
    );
    assert_eq!(layout(&body_of(&document))["xml"], json!({"name": "body"}));

    let document = read(&swagger(Some("[application/jwt]"), None, "{type: string}"));
    assert_eq!(body_of(&document).encoding, BodyEncoding::Text);

    let error = read_with(
        &swagger(
            Some("['', application/x-foo]"),
            None,
            "{$ref: '#/definitions/Pet'}",
        ),
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        error.message,
        format!(
            "request body media types \"\" and \"application/x-foo\" (schema: object) are not \
             supported: {WHAT_IS_SENT}"
        )
    );
    assert_eq!(error.pointer, "/paths/~1a/post/consumes");

    let error = read_with(
        &swagger(None, Some("[application/x-foo]"), "{type: object}"),
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(error.pointer, "/consumes/0");
}
