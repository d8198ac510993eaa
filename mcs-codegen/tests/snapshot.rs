//! The code generated for the example document is checked in (`tests/snapshots/`), so a
//! change to the generator shows up as a diff in review; `snapshot_compiles.rs` compiles it
//! and runs it against a server. `MCS_BLESS=1 cargo test -p mcs-codegen --test snapshot`
//! rewrites the snapshot after an intended change.

use std::path::Path;

use mcs_codegen::Generator;

const SPEC: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../examples/petstore/petstore.yaml"
);
const SNAPSHOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots/petstore.rs");

fn generate() -> String {
    match Generator::new(SPEC).driver_name("Petstore").generate() {
        Ok(generated) => generated.source,
        Err(error) => panic!("{error}"),
    }
}

#[test]
fn the_petstore_module_matches_its_snapshot() {
    let source = generate();
    if std::env::var_os("MCS_BLESS").is_some() {
        std::fs::write(SNAPSHOT, &source).expect("snapshot written");
    }
    let expected = std::fs::read_to_string(Path::new(SNAPSHOT)).unwrap_or_default();
    assert!(
        source == expected,
        "the generated code differs from tests/snapshots/petstore.rs; review the difference and \
         rerun with MCS_BLESS=1 if it is intended"
    );
}

#[test]
fn generation_is_deterministic() {
    assert_eq!(generate(), generate());
}
