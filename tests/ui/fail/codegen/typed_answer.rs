// A generated driver with typed responses: the answer's body is the document's type, so a
// field the document does not give is a compile error at the caller's use of it.
include!("../../../../mcs-codegen/tests/snapshots/petstore_typed.rs");

async fn owner(shop: &TypedPetstore) -> String {
    let pet = shop
        .get_pet(&typed_petstore::GetPetArguments { pet_id: 7 })
        .await
        .unwrap();
    pet.body.owner
}

fn main() {
    let _ = owner;
}
