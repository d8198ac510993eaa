//! Request bodies: JSON (whole and flattened), form, multipart with files, text, bytes; the
//! `Content-Type` of each; files read only inside the granted directory.

use std::path::{Path, PathBuf};

use super::*;

/// `\x89PNG\r\n\x1a\n`, the PNG signature, and its base64.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";
const PNG_BASE64: &str = "iVBORw0KGgo=";

/// A directory of its own under the system's temp directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let path =
            std::env::temp_dir().join(format!("mcs-rest-http-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create a temp dir");
        TempDir(path)
    }

    fn path(&self) -> &Path {
        &self.0
    }

    fn write(&self, relative: &str, content: &[u8]) -> PathBuf {
        let path = self.0.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create a dir");
        }
        std::fs::write(&path, content).expect("write a file");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn body_op(name: &str, body: RequestBody, properties: Value) -> Operation {
    Op::post(name, "/upload")
        .body(body)
        .schema(properties, &[])
        .build()
}

#[tokio::test]
async fn a_whole_json_body_arrives_as_given() {
    let server = ok_server().await;
    let op = body_op(
        "create",
        body("application/json", BodyEncoding::Json, whole("body")),
        json!({"body": {"type": "object"}}),
    );
    let driver = driver(vec![op], &server);
    let pet = json!({"name": "rex", "tags": ["a", "b"], "age": 3, "owner": null});
    call(&driver, "create", json!({"body": pet}))
        .await
        .expect("sent");
    let request = only_request(&server).await;
    assert_eq!(header(&request, "content-type"), "application/json");
    assert_eq!(
        String::from_utf8_lossy(&request.body),
        r#"{"name":"rex","tags":["a","b"],"age":3,"owner":null}"#
    );
}

#[tokio::test]
async fn flattened_properties_make_the_body_and_path_arguments_stay_out() {
    let server = ok_server().await;
    let properties = BodyArgument::Properties(Cow::Owned(vec![owned("name"), owned("age")]));
    let op = Op::new("update", Method::Put, "/pets/{id}")
        .param(path_param("id"))
        .body(body(
            "application/merge-patch+json",
            BodyEncoding::Json,
            properties,
        ))
        .schema(
            json!({"id": {"type": "string"}, "name": {"type": "string"}, "age": {"type": "integer"}}),
            &["id"],
        );
    let driver = driver(vec![op.build()], &server);
    call(
        &driver,
        "update",
        json!({"age": 3, "id": "7", "name": "rex"}),
    )
    .await
    .expect("sent");
    let request = only_request(&server).await;
    assert_eq!(request.method.as_str(), "PUT");
    assert_eq!(target(&request), "/pets/7");
    assert_eq!(
        header(&request, "content-type"),
        "application/merge-patch+json"
    );
    // The body's members in the row's order, not the call's.
    assert_eq!(
        String::from_utf8_lossy(&request.body),
        r#"{"name":"rex","age":3}"#
    );
}

/// A Rust caller's unset `Option` is not sent; a required argument's `None` is sent as
/// `null`; a model's `null` for an optional body property still reaches the API.
#[tokio::test]
async fn an_unset_optional_argument_of_a_rust_call_is_not_sent() {
    #[derive(serde::Serialize)]
    struct Arguments {
        id: String,
        name: Option<String>,
        age: Option<i64>,
        owner: Option<String>,
        limit: Option<i64>,
    }
    let server = ok_server().await;
    let properties = BodyArgument::Properties(Cow::Owned(vec![
        owned("name"),
        owned("age"),
        owned("owner"),
    ]));
    let op = Op::new("update", Method::Patch, "/pets/{id}")
        .param(path_param("id"))
        .param(query_param("limit"))
        .body(body("application/json", BodyEncoding::Json, properties))
        .schema(
            json!({
                "id": {"type": "string"},
                "name": {"type": "string"},
                "age": {"type": ["integer", "null"]},
                "owner": {"type": ["string", "null"]},
                "limit": {"type": "integer"}
            }),
            &["id", "owner"],
        );
    let driver = driver(vec![op.build()], &server);
    let arguments = Arguments {
        id: "7".into(),
        name: Some("rex".into()),
        age: None,
        owner: None,
        limit: None,
    };
    driver.call("update", &arguments).await.expect("sent");
    // A model clears `age` on purpose.
    call(
        &driver,
        "update",
        json!({"id": "7", "age": null, "owner": "ann"}),
    )
    .await
    .expect("sent");
    let requests = received(&server).await;
    assert_eq!(requests.len(), 2);
    assert_eq!(target(&requests[0]), "/pets/7");
    assert_eq!(
        String::from_utf8_lossy(&requests[0].body),
        r#"{"name":"rex","owner":null}"#
    );
    assert_eq!(
        String::from_utf8_lossy(&requests[1].body),
        r#"{"age":null,"owner":"ann"}"#
    );
}

#[tokio::test]
async fn a_missing_required_body_is_an_invalid_argument_and_nothing_is_sent_unless_it_may_be_empty()
{
    let server = ok_server().await;
    // The tool's schema requires the body: leaving it out is refused before anything is
    // sent (one that does not require it is sent `{}`: see below).
    let whole_op = Op::post("create", "/upload")
        .body(body("application/json", BodyEncoding::Json, whole("body")))
        .schema(json!({"body": {"type": "object"}}), &["body"])
        .build();
    let properties = BodyArgument::Properties(Cow::Owned(vec![owned("name"), owned("age")]));
    let flat_op = body_op(
        "create_flat",
        body("application/json", BodyEncoding::Json, properties),
        json!({"name": {"type": "string"}, "age": {"type": "integer"}}),
    );
    let driver = driver(vec![whole_op, flat_op], &server);

    let (argument, kind) = single_problem(call(&driver, "create", json!({})).await);
    assert_eq!(argument, "body");
    assert!(
        matches!(kind, ArgumentErrorKind::Missing { .. }),
        "{kind:?}"
    );
    let (argument, _) = single_problem(call(&driver, "create", json!({"body": null})).await);
    assert_eq!(argument, "body");
    assert!(received(&server).await.is_empty());
    // A required body of properties none of which is required: the tool's schema lets the
    // call leave them all out, and the body is sent empty.
    call(&driver, "create_flat", json!({})).await.expect("sent");
    let request = only_request(&server).await;
    assert_eq!(request.body, b"{}");
    assert_eq!(header(&request, "content-type"), "application/json");
}

#[tokio::test]
async fn an_optional_body_left_out_sends_no_body_and_no_content_type() {
    let server = ok_server().await;
    let mut optional = body("application/json", BodyEncoding::Json, whole("body"));
    optional.required = false;
    let op = body_op("create", optional, json!({"body": {"type": "object"}}));
    let driver = driver(vec![op], &server);
    call(&driver, "create", json!({})).await.expect("sent");
    let request = only_request(&server).await;
    assert!(request.body.is_empty());
    assert!(request.headers.get("content-type").is_none());
}

#[tokio::test]
async fn a_form_body_repeats_array_keys_and_encodes_values() {
    let server = ok_server().await;
    let op = body_op(
        "login",
        body(
            "application/x-www-form-urlencoded",
            BodyEncoding::Form,
            whole("body"),
        ),
        json!({"body": {"type": "object"}}),
    );
    let driver = driver(vec![op], &server);
    let form = json!({"user": "a&b=c", "tags": ["x", "y z"], "n": 2, "skip": null});
    call(&driver, "login", json!({"body": form}))
        .await
        .expect("sent");
    let request = only_request(&server).await;
    assert_eq!(
        header(&request, "content-type"),
        "application/x-www-form-urlencoded"
    );
    assert_eq!(
        String::from_utf8_lossy(&request.body),
        "user=a%26b%3Dc&tags=x&tags=y%20z&n=2"
    );
}

/// The boundary named in a multipart `Content-Type`.
fn boundary(request: &Request) -> String {
    let content_type = header(request, "content-type");
    let boundary = content_type
        .strip_prefix("multipart/form-data; boundary=")
        .unwrap_or_else(|| panic!("not multipart: {content_type}"));
    boundary.to_owned()
}

#[tokio::test]
async fn multipart_with_text_json_and_a_base64_file() {
    let server = ok_server().await;
    let mut multipart = body(
        "multipart/form-data",
        BodyEncoding::Multipart,
        whole("body"),
    );
    multipart.files = Cow::Owned(vec![owned("file")]);
    let op = body_op("upload", multipart, json!({"body": {"type": "object"}}));
    let driver = driver(vec![op], &server);
    let form = json!({
        "note": "hello",
        "meta": {"a": 1},
        "file": {"base64": PNG_BASE64, "filename": "a \"b\".png", "content_type": "image/png"},
    });
    call(&driver, "upload", json!({"body": form}))
        .await
        .expect("sent");
    let request = only_request(&server).await;
    let b = boundary(&request);
    let mut expected = format!(
        "--{b}\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n\
         --{b}\r\nContent-Disposition: form-data; name=\"meta\"\r\n\
         Content-Type: application/json\r\n\r\n{{\"a\":1}}\r\n\
         --{b}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a %22b%22.png\"\r\n\
         Content-Type: image/png\r\n\r\n"
    )
    .into_bytes();
    expected.extend_from_slice(PNG);
    expected.extend_from_slice(format!("\r\n--{b}--\r\n").as_bytes());
    assert_eq!(request.body, expected);
}

/// A multipart driver whose `file` part may be read from `root`.
fn multipart_driver(server: &MockServer, root: Option<&Path>) -> RestDriver {
    let properties = BodyArgument::Properties(Cow::Owned(vec![owned("file")]));
    let mut multipart = body("multipart/form-data", BodyEncoding::Multipart, properties);
    multipart.files = Cow::Owned(vec![owned("file")]);
    let op = body_op("upload", multipart, json!({"file": {"type": "object"}}));
    let driver = driver(vec![op], server);
    match root {
        Some(root) => driver.with_file_root(root),
        None => driver,
    }
}

#[tokio::test]
async fn a_multipart_file_by_path_inside_the_granted_directory() {
    let root = TempDir::new("inside");
    root.write("reports/q1.txt", b"quarter one");
    let server = ok_server().await;
    let driver = multipart_driver(&server, Some(root.path()));
    let file = json!({"file": {"path": "reports/q1.txt"}});
    call(&driver, "upload", file).await.expect("sent");
    let request = only_request(&server).await;
    let b = boundary(&request);
    let expected = format!(
        "--{b}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"q1.txt\"\r\n\
         Content-Type: application/octet-stream\r\n\r\nquarter one\r\n--{b}--\r\n"
    );
    assert_eq!(String::from_utf8_lossy(&request.body), expected);
}

#[tokio::test]
async fn file_paths_outside_the_granted_directory_are_refused() {
    let outside = TempDir::new("outside");
    let secret = outside.write("secret.txt", b"top secret");
    let root = TempDir::new("root");
    root.write("ok.txt", b"fine");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&secret, root.path().join("link.txt")).expect("a symlink");
    let escape = format!(
        "../{}/secret.txt",
        outside.path().file_name().unwrap().to_string_lossy()
    );
    let mut attempts = vec![
        escape,
        secret.to_string_lossy().into_owned(),
        "missing.txt".to_owned(),
        ".".to_owned(),
    ];
    if cfg!(unix) {
        attempts.push("link.txt".to_owned());
    }
    for path in attempts {
        let server = ok_server().await;
        let driver = multipart_driver(&server, Some(root.path()));
        let result = call(&driver, "upload", json!({"file": {"path": path}})).await;
        let problems = problems(result);
        assert_eq!(problems.len(), 1, "{path}: {problems:?}");
        assert_eq!(problems[0].argument, "file", "{path}");
        assert!(
            !problems[0].to_string().contains("top secret"),
            "{path}: {}",
            problems[0]
        );
        assert!(received(&server).await.is_empty(), "{path} was sent");
    }
}

#[tokio::test]
async fn without_a_granted_directory_no_path_is_read() {
    let root = TempDir::new("ungranted");
    let file = root.write("a.txt", b"a");
    let server = ok_server().await;
    let driver = multipart_driver(&server, None);
    let arguments = json!({"file": {"path": file.to_string_lossy()}});
    let (argument, _) = single_problem(call(&driver, "upload", arguments).await);
    assert_eq!(argument, "file");
    assert!(received(&server).await.is_empty());
}

#[tokio::test]
async fn invalid_base64_is_an_invalid_argument() {
    let server = ok_server().await;
    let driver = multipart_driver(&server, None);
    let arguments = json!({"file": {"base64": "not base64!"}});
    let (argument, _) = single_problem(call(&driver, "upload", arguments).await);
    assert_eq!(argument, "file");
    assert!(received(&server).await.is_empty());
}

#[tokio::test]
async fn a_text_body_is_sent_verbatim() {
    let server = ok_server().await;
    let op = body_op(
        "note",
        body(
            "text/plain; charset=utf-8",
            BodyEncoding::Text,
            whole("text"),
        ),
        json!({"text": {"type": "string"}}),
    );
    let driver = driver(vec![op], &server);
    call(&driver, "note", json!({"text": "héllo\r\nworld {\"x\"}"}))
        .await
        .expect("sent");
    let request = only_request(&server).await;
    assert_eq!(
        header(&request, "content-type"),
        "text/plain; charset=utf-8"
    );
    assert_eq!(request.body, "héllo\r\nworld {\"x\"}".as_bytes());
}

#[tokio::test]
async fn a_binary_body_from_base64_and_from_a_path() {
    let root = TempDir::new("binary");
    root.write("logo.png", PNG);
    let server = ok_server().await;
    let op = body_op(
        "logo",
        body("image/png", BodyEncoding::Binary, whole("image")),
        json!({"image": {"type": "object"}}),
    );
    let driver = driver(vec![op], &server).with_file_root(root.path());
    call(&driver, "logo", json!({"image": {"base64": PNG_BASE64}}))
        .await
        .expect("sent");
    call(&driver, "logo", json!({"image": {"path": "logo.png"}}))
        .await
        .expect("sent");
    let requests = received(&server).await;
    assert_eq!(requests.len(), 2);
    for request in requests {
        assert_eq!(header(&request, "content-type"), "image/png");
        assert_eq!(request.body, PNG);
    }
}

#[tokio::test]
async fn form_properties_in_the_deep_object_style_are_spread_into_bracketed_keys() {
    // As Stripe reads them: `address[city]=…`, arrays indexed.
    let server = ok_server().await;
    let mut form = body(
        "application/x-www-form-urlencoded",
        BodyEncoding::Form,
        BodyArgument::Properties(Cow::Owned(vec![
            owned("email"),
            owned("address"),
            owned("items"),
            owned("metadata"),
        ])),
    );
    form.deep_objects = Cow::Owned(vec![owned("address"), owned("items")]);
    let op = body_op(
        "customers",
        form,
        json!({"email": {"type": "string"}, "address": {"type": "object"}, "items": {"type": "array"}, "metadata": {"type": "object"}}),
    );
    let driver = driver(vec![op], &server);
    let arguments = json!({
        "email": "a@b.c",
        "address": {"city": "Paris", "line1": "1 rue", "extra": null},
        "items": [{"price": "p1", "quantity": 2}, {"price": "p2"}],
        "metadata": {"k": "v"}
    });
    call(&driver, "customers", arguments).await.expect("sent");
    let request = only_request(&server).await;
    assert_eq!(
        String::from_utf8_lossy(&request.body),
        "email=a%40b.c&address%5Bcity%5D=Paris&address%5Bline1%5D=1%20rue\
         &items%5B0%5D%5Bprice%5D=p1&items%5B0%5D%5Bquantity%5D=2&items%5B1%5D%5Bprice%5D=p2\
         &metadata=%7B%22k%22%3A%22v%22%7D"
    );
}

#[tokio::test]
async fn a_post_without_a_body_says_its_length_is_zero() {
    // Google's front end answers 411 Length Required to a POST that does not say it;
    // Compute's `instances.stop` and Magento's order cancel take no body.
    let server = ok_server().await;
    for (name, method) in [
        ("stop", Method::Post),
        ("replace", Method::Put),
        ("touch", Method::Patch),
    ] {
        let op = Op::new(name, method, "/instances/stop").build();
        let driver = driver(vec![op], &server);
        call(&driver, name, json!({})).await.expect("sent");
    }
    let requests = server.received_requests().await.expect("recorded");
    assert_eq!(requests.len(), 3);
    for request in &requests {
        assert_eq!(header(request, "content-length"), "0", "{}", request.method);
        assert!(request.body.is_empty());
    }
}

#[tokio::test]
async fn a_required_json_body_left_out_is_sent_empty() {
    // DynamoDB's `ListTables`: the body is required, nothing in it is.
    let server = ok_server().await;
    let mut required = body("application/json", BodyEncoding::Json, whole("body"));
    required.required = true;
    let op = body_op("list", required, json!({"body": {"type": "object"}}));
    let driver = driver(vec![op], &server);
    call(&driver, "list", json!({})).await.expect("sent");
    let request = only_request(&server).await;
    assert_eq!(String::from_utf8_lossy(&request.body), "{}");
    assert_eq!(header(&request, "content-type"), "application/json");
}
