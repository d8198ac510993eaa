//! A document the generator cannot use fails with the file, the JSON pointer and the
//! reason, in the form a build script prints; lenient mode skips the operation instead.

use mcs_codegen::Generator;

fn write(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mcs-codegen-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("document written");
    path
}

/// A body only as a media type no reader sends, with an object schema.
const UNSENDABLE: &str = r#"{"openapi": "3.0.0", "info": {"title": "T", "version": "1"},
  "paths": {"/a": {"post": {"operationId": "send",
    "requestBody": {"content": {"application/x-thing": {"schema": {"type": "object"}}}}}},
  "/b": {"get": {"operationId": "fine"}}}}"#;

#[test]
fn a_failing_build_names_the_file_the_pointer_and_the_reason() {
    let path = write("unsendable.json", UNSENDABLE);
    let error = Generator::new(&path)
        .generate()
        .expect_err("the body cannot be sent");
    let printed = format!("{error:?}");
    assert_eq!(printed, error.to_string());
    assert!(printed.contains("unsendable.json"), "{printed}");
    assert!(printed.contains("/paths/~1a/post/requestBody"), "{printed}");
    assert!(
        printed.contains("\"application/x-thing\" (schema: object)"),
        "{printed}"
    );
}

#[test]
fn lenient_generation_skips_the_operation_and_keeps_the_rest() {
    let path = write("unsendable-lenient.json", UNSENDABLE);
    let generated = Generator::new(&path)
        .lenient(true)
        .generate()
        .expect("lenient");
    let names: Vec<&str> = generated
        .api
        .operations
        .iter()
        .map(|o| o.name.as_ref())
        .collect();
    assert_eq!(names, ["fine"]);
    assert_eq!(generated.skipped.len(), 1);
    assert!(
        generated.skipped[0]
            .to_string()
            .contains("application/x-thing")
    );
}

#[test]
fn a_missing_or_broken_file_is_an_error_not_a_panic() {
    let missing = Generator::new("no/such/file.yaml")
        .generate()
        .expect_err("missing");
    assert!(
        missing.to_string().contains("no/such/file.yaml"),
        "{missing}"
    );
    let path = write("broken.yaml", "openapi: 3.0.0\ninfo: [unclosed\n");
    let broken = Generator::new(&path).generate().expect_err("broken YAML");
    assert!(broken.to_string().contains("broken.yaml"), "{broken}");
}
