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
