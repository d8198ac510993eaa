//! Swagger 2.0 documents, read directly into the same rows.

use mcs_rest::{BodyArgument, BodyEncoding, Location, SchemeKind, Style};
use serde_json::json;

use super::{op, read, schema};

const PETSTORE: &str = r#"
swagger: "2.0"
info: {title: Swagger Petstore, version: 1.0.0}
host: petstore.example.com
basePath: /v2
schemes: [http, https]
consumes: [application/json]
securityDefinitions:
  key: {type: apiKey, in: header, name: api_key}
  login: {type: basic}
  auth: {type: oauth2, flow: implicit, authorizationUrl: x, scopes: {}}
security: [{key: []}]
parameters:
  Limit: {name: limit, in: query, type: integer, minimum: 1, exclusiveMinimum: true}
paths:
  /pets:
    get:
      operationId: list
      parameters:
        - $ref: '#/parameters/Limit'
        - {name: tags, in: query, type: array, items: {type: string}, collectionFormat: multi}
        - {name: csv, in: query, type: array, items: {type: string}}
        - {name: ssv, in: query, type: array, items: {type: string}, collectionFormat: ssv}
        - {name: pipes, in: query, type: array, items: {type: string}, collectionFormat: pipes}
        - {name: tsv, in: query, type: array, items: {type: string}, collectionFormat: tsv}
        - {name: X-Ids, in: header, type: array, items: {type: integer}}
        - {name: maybe, in: query, type: string, x-nullable: true}
    post:
      operationId: add
      security: [{login: []}, {auth: []}]
      parameters:
        - {name: pet, in: body, required: true, schema: {$ref: '#/definitions/Pet'}}
  /pets/{id}/photo:
    post:
      operationId: upload
      consumes: [multipart/form-data]
      parameters:
        - {name: id, in: path, type: integer}
        - {name: file, in: formData, type: file, required: true, description: The photo.}
        - {name: caption, in: formData, type: string}
  /pets/{id}:
    patch:
      operationId: rename
      consumes: [application/x-www-form-urlencoded]
      parameters:
        - {name: id, in: path, type: integer}
        - {name: id, in: formData, type: string}
    put:
      operationId: raw
      consumes: [application/xml, application/octet-stream]
      parameters:
        - {name: id, in: path, type: integer}
        - {name: data, in: body, schema: {type: string, format: binary}}
definitions:
  Pet:
    type: object
    required: [name]
    properties:
      name: {type: string}
      id: {type: integer, readOnly: true}
"#;

#[test]
fn swagger_servers_security_and_parameters() {
    let document = read(PETSTORE);
    let api = &document.api;
    assert_eq!(api.name, "SwaggerPetstore");
    assert_eq!(api.servers[0].url, "http://petstore.example.com/v2");
    let list = op(&document, "list");
    let styles: Vec<(&str, Location, Style, bool)> = list
        .parameters
        .iter()
        .map(|p| (p.argument.as_ref(), p.location, p.style, p.explode))
        .collect();
    assert_eq!(
        styles,
        [
            ("limit", Location::Query, Style::Form, true),
            ("tags", Location::Query, Style::Form, true),
            ("csv", Location::Query, Style::Form, false),
            ("ssv", Location::Query, Style::SpaceDelimited, false),
            ("pipes", Location::Query, Style::PipeDelimited, false),
            ("tsv", Location::Query, Style::TabDelimited, false),
            ("maybe", Location::Query, Style::Form, true),
            ("X-Ids", Location::Header, Style::Simple, false),
        ]
    );
    let properties = &schema(list)["properties"];
    assert_eq!(
        properties["limit"],
        json!({"type": "integer", "exclusiveMinimum": 1})
    );
    assert_eq!(
        properties["tags"],
        json!({"type": "array", "items": {"type": "string"}})
    );
    assert_eq!(properties["maybe"], json!({"type": ["string", "null"]}));
    assert_eq!(list.security[0].schemes.as_ref(), ["key"]);
    let kinds: Vec<(&str, &SchemeKind)> = api
        .security_schemes
        .iter()
        .map(|s| (s.name.as_ref(), &s.kind))
        .collect();
    assert_eq!(
        kinds,
        [
            (
                "key",
                &SchemeKind::ApiKey {
                    location: Location::Header,
                    name: "api_key".into()
                }
            ),
            ("login", &SchemeKind::Basic),
            ("auth", &SchemeKind::OAuth2),
        ]
    );
}

#[test]
fn swagger_bodies() {
    let document = read(PETSTORE);
    let add = op(&document, "add");
    let body = add.body.as_ref().unwrap();
    assert_eq!(
        (body.media_type.as_ref(), body.encoding, body.required),
        ("application/json", BodyEncoding::Json, true)
    );
    assert_eq!(
        body.argument,
        BodyArgument::Properties(vec!["name".into()].into())
    );
    assert_eq!(
        schema(add),
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]})
    );

    let upload = op(&document, "upload");
    let body = upload.body.as_ref().unwrap();
    assert_eq!(
        (body.media_type.as_ref(), body.encoding),
        ("multipart/form-data", BodyEncoding::Multipart)
    );
    assert_eq!(body.files.as_ref(), ["file"]);
    assert_eq!(
        body.argument,
        BodyArgument::Properties(vec!["file".into(), "caption".into()].into())
    );
    let upload_schema = schema(upload);
    assert_eq!(upload_schema["required"], json!(["id", "file"]));
    assert_eq!(
        upload_schema["properties"]["file"]["properties"]["base64"],
        json!({"type": "string", "contentEncoding": "base64"})
    );
    assert!(
        upload_schema["properties"]["file"]["description"]
            .as_str()
            .unwrap()
            .starts_with("The photo.\nA file:")
    );

    let rename = op(&document, "rename");
    let body = rename.body.as_ref().unwrap();
    assert_eq!(
        (body.media_type.as_ref(), body.encoding),
        ("application/x-www-form-urlencoded", BodyEncoding::Form)
    );
    assert_eq!(body.argument, BodyArgument::Whole("body".into()));
    assert_eq!(
        schema(rename)["properties"]["body"],
        json!({"type": "object", "properties": {"id": {"type": "string"}}})
    );

    let raw = op(&document, "raw");
    let body = raw.body.as_ref().unwrap();
    assert_eq!(
        (body.media_type.as_ref(), body.encoding),
        ("application/octet-stream", BodyEncoding::Binary)
    );
    assert_eq!(body.argument, BodyArgument::Whole("body".into()));
}

#[test]
fn swagger_without_host_uses_the_base_path() {
    let document =
        read("swagger: '2.0'\ninfo: {title: t, version: v}\nbasePath: /api\npaths: {}\n");
    assert_eq!(document.api.servers[0].url, "/api");
    let none = read("swagger: '2.0'\ninfo: {title: t, version: v}\npaths: {}\n");
    assert!(none.api.servers.is_empty());
}
