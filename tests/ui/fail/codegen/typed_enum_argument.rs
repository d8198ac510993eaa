// A generated driver with typed requests: an enum argument takes the enum, not a string, and
// the error points at the string the caller wrote.
include!("../../../../mcs-codegen/tests/snapshots/petstore_typed.rs");

fn main() {
    let _arguments = typed_petstore::AddPetArguments {
        name: "Rex".into(),
        tag: None,
        status: Some("pending"),
    };
}
