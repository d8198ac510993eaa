//! The code generated for three documents is checked in (`tests/snapshots/`), so a change to
//! the generator shows up as a diff in review: the example's OpenAPI 3.0 document, an
//! OpenAPI 3.1 one (type lists with null, `const`, numeric `exclusiveMinimum`, a recursive
//! schema, `oneOf` with null, an XML body with its layout, a JWT body sent as text and an
//! e-book sent as bytes) and a Swagger 2.0 one (`in: body`, `in: formData` with a file,
//! `collectionFormat`, an API key in the query). `snapshot_compiles.rs` compiles all three
//! and runs the first against a server.
//!
//! After an intended change: `EXPECTORATE=overwrite cargo test -p mcs-codegen --test snapshot`.

use mcs_codegen::Generator;
use proc_macro2::TokenStream;

/// Each document, the driver name it is generated with, and its snapshot.
const DOCUMENTS: [(&str, &str, &str); 3] = [
    (
        "../examples/petstore/petstore.yaml",
        "Petstore",
        "petstore.rs",
    ),
    ("tests/documents/library.yaml", "Library", "library.rs"),
    (
        "tests/documents/weather.swagger.json",
        "Weather",
        "weather.rs",
    ),
];

fn generator(document: &str, driver: &str) -> Generator {
    Generator::new(format!("{}/{document}", env!("CARGO_MANIFEST_DIR"))).driver_name(driver)
}

fn generate(document: &str, driver: &str) -> String {
    match generator(document, driver).generate() {
        Ok(generated) => generated.source,
        Err(error) => panic!("{document}: {error}"),
    }
}

#[test]
fn each_generated_module_matches_its_snapshot() {
    for (document, driver, snapshot) in DOCUMENTS {
        expectorate::assert_contents(
            format!("tests/snapshots/{snapshot}"),
            &generate(document, driver),
        );
    }
}

/// The same documents typed all the way (`typed_requests`, `typed_responses`), under
/// another driver name so that a crate can include both.
const TYPED: [(&str, &str, &str); 3] = [
    (
        "../examples/petstore/petstore.yaml",
        "TypedPetstore",
        "petstore_typed.rs",
    ),
    (
        "tests/documents/library.yaml",
        "TypedLibrary",
        "library_typed.rs",
    ),
    // Names that would clash with what generated code writes (`Send`, `Option`, `Self`,
    // `type`, `Other`), statuses that are not statuses, enum values that are not words.
    (
        "tests/documents/hostile_types.yaml",
        "HostileTypes",
        "hostile_typed.rs",
    ),
];

fn generate_typed(document: &str, driver: &str) -> mcs_codegen::Generated {
    match generator(document, driver)
        .typed_requests(true)
        .typed_responses(true)
        .format_types(true)
        .generate()
    {
        Ok(generated) => generated,
        Err(error) => panic!("{document}: {error}"),
    }
}

#[test]
fn each_typed_module_matches_its_snapshot() {
    for (document, driver, snapshot) in TYPED {
        expectorate::assert_contents(
            format!("tests/snapshots/{snapshot}"),
            &generate_typed(document, driver).source,
        );
    }
}

/// Types are for Rust callers: what a model is shown and what runs (the table) is the same
/// with them as without.
#[test]
fn types_leave_the_table_as_it_is() {
    fn table(source: &str) -> &str {
        let start = source.find("static API").expect("a table");
        &source[start..]
    }
    for (document, driver, _) in DOCUMENTS.into_iter().chain([TYPED[2]]) {
        let plain = generate(document, driver);
        let typed = generate_typed(document, driver).source;
        assert_eq!(table(&plain), table(&typed), "{document}");
    }
}

#[test]
fn generation_is_deterministic() {
    for (document, driver, _) in DOCUMENTS {
        assert_eq!(
            generate(document, driver),
            generate(document, driver),
            "{document}"
        );
    }
}

/// `tokens()` is the module `generate()` writes, table included, not a part of it.
#[test]
fn tokens_are_the_whole_module() {
    for (document, driver, _) in DOCUMENTS {
        let (tokens, read) = generator(document, driver).tokens().unwrap();
        let written: TokenStream = generate(document, driver).parse().unwrap();
        assert_eq!(tokens.to_string(), written.to_string(), "{document}");
        assert!(!tokens.to_string().contains("__mcs_table"), "{document}");
        assert!(!read.api.operations.is_empty(), "{document}");
    }
}
