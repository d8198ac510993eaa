//! The typed snapshots (`typed_requests` and `typed_responses`), compiled under
//! `#![deny(warnings)]` and called against an in-process server: typed arguments go out as
//! the document says (an open enum's unlisted value too), answers come back decoded by
//! status, failing statuses decoded as the document describes them, and an answer that is
//! not what the document says is an error naming where.
#![deny(warnings)]

include!("snapshots/petstore_typed.rs");
include!("snapshots/library_typed.rs");
// Compiled, not called: names that clash with what generated code writes.
include!("snapshots/hostile_typed.rs");

use mcs::ToolDriver;
use mcs::rest::ApiError;
use serde_json::json;
use wiremock::matchers::{body_json, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

async fn shop(server: &MockServer) -> TypedPetstore {
    TypedPetstore::new()
        .with_base_url(format!("{}/v1", server.uri()))
        .with_api_key("k")
}

#[tokio::test]
async fn typed_arguments_go_out_and_the_answer_comes_back_typed() {
    use typed_petstore::{AddPetArguments, NewPetStatus};
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/pets"))
        .and(body_json(json!({"name": "Rex", "status": "pending"})))
        .respond_with(
            ResponseTemplate::new(201)
                .insert_header("x-request-id", "r-1")
                .set_body_json(json!({"id": 7, "name": "Rex", "status": "pending"})),
        )
        .mount(&server)
        .await;
    let shop = shop(&server).await;
    let added = shop
        .add_pet(&AddPetArguments {
            name: "Rex".into(),
            tag: None,
            status: Some(NewPetStatus::Pending),
        })
        .await
        .expect("added");
    assert_eq!(added.status, 201);
    assert_eq!(added.header("X-Request-Id"), Some("r-1"));
    // `id` is read-only: the API fills it in, so an answer-only type requires it.
    assert_eq!(added.body.id, 7);
    assert_eq!(added.body.status, Some(NewPetStatus::Pending));
}

#[tokio::test]
async fn open_enums_send_and_read_values_the_document_does_not_list() {
    use typed_petstore::{AddPetArguments, NewPetStatus};
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/pets"))
        .and(body_json(json!({"name": "Tom", "status": "adopted"})))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"id": 8, "name": "Tom", "status": "adopted"})),
        )
        .mount(&server)
        .await;
    let shop = shop(&server).await;
    let added = shop
        .add_pet(&AddPetArguments {
            name: "Tom".into(),
            tag: None,
            status: Some(NewPetStatus::Other("adopted".into())),
        })
        .await
        .expect("an unlisted value goes out, and comes back");
    assert_eq!(
        added.body.status,
        Some(NewPetStatus::Other("adopted".into()))
    );
    assert_eq!(
        added.body.status.as_ref().map(NewPetStatus::as_str),
        Some("adopted")
    );
    // A model's call is still held to the document: the tool refuses the same value.
    let refused = shop
        .execute_tool("addPet", json!({"name": "Tom", "status": "adopted"}))
        .await;
    assert!(refused.is_err(), "{refused:?}");
}

#[tokio::test]
async fn a_failing_status_is_decoded_as_the_document_describes_it() {
    use typed_library::{GetBookArguments, GetBookFailureByStatus, ProblemCode};
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/books/0-00"))
        .respond_with(ResponseTemplate::new(404).set_body_raw(
            r#"{"code": "not_found", "message": "no such isbn"}"#,
            "application/problem+json",
        ))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/books/9-99"))
        .respond_with(
            ResponseTemplate::new(410).set_body_json(json!({"withdrawn_on": "2026-01-02"})),
        )
        .mount(&server)
        .await;
    let library = TypedLibrary::new()
        .with_base_url(server.uri())
        .with_bearer_token("t");
    let missing = library
        .get_book(&GetBookArguments {
            isbn: "0-00".into(),
        })
        .await
        .expect_err("404");
    let ApiError::Status(answer) = missing else {
        panic!("not a documented failure: {missing:?}");
    };
    assert_eq!(answer.status, 404);
    let GetBookFailureByStatus::Status404(problem) = answer.body else {
        panic!("decoded as another status: {:?}", answer.body);
    };
    assert_eq!(problem.code, ProblemCode::NotFound);
    assert_eq!(problem.message.as_deref(), Some("no such isbn"));

    let withdrawn = library
        .get_book(&GetBookArguments {
            isbn: "9-99".into(),
        })
        .await
        .expect_err("410");
    assert!(
        matches!(&withdrawn, ApiError::Status(answer)
            if matches!(&answer.body, GetBookFailureByStatus::Status410(gone)
                if Some(gone.withdrawn_on) == mcs::chrono::NaiveDate::from_ymd_opt(2026, 1, 2))),
        "{withdrawn:?}"
    );
}

#[tokio::test]
async fn successes_of_different_shapes_are_told_apart_by_status() {
    use typed_library::{LendBookArguments, LendBookNote, LendBookResponseByStatus};
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/loans"))
        .and(body_json(
            json!({"isbn": "1-11", "member": 3, "note": "gift-wrapped"}),
        ))
        .respond_with(ResponseTemplate::new(202).set_body_json(json!({"position": 4})))
        .mount(&server)
        .await;
    let library = TypedLibrary::new()
        .with_base_url(server.uri())
        .with_bearer_token("t");
    let queued = library
        .lend_book(&LendBookArguments {
            isbn: "1-11".into(),
            member: 3,
            due: None,
            note: Some(LendBookNote::GiftWrapped),
        })
        .await
        .expect("queued");
    assert_eq!(
        queued.body,
        LendBookResponseByStatus::Status202(typed_library::LendBookResponse202 { position: 4 })
    );
}

/// `ShelfLoan` and `EbookLoan` read the same JSON (serde skips fields a struct lacks), so
/// only the document's `discriminator` tells them apart: by `kind`'s value, mapped by a
/// reference (`shelf`) or by a bare schema name (`ebook`); without `kind`, the first shape
/// that reads it; with a `kind` the document maps, that shape or an error.
#[tokio::test]
async fn variants_only_a_discriminator_tells_apart_are_read_by_it() {
    use typed_library::{
        EbookLoan, EbookLoanFormat, ListLoansArguments, ListLoansResponseItem, ShelfLoan,
    };
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/loans"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([
            {"kind": "ebook", "isbn": "1", "format": "epub"},
            {"kind": "shelf", "isbn": "2", "format": "epub",
             "since": "2026-11-02T09:30:00+01:00", "id": "67e55044-10b1-426f-9247-bb680e5fe0c8"},
            {"isbn": "3"}
        ])))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    let library = TypedLibrary::new()
        .with_base_url(server.uri())
        .with_bearer_token("t");
    let loans = library
        .list_loans(&ListLoansArguments {})
        .await
        .expect("loans");
    assert_eq!(
        loans.body,
        vec![
            ListLoansResponseItem::EbookLoan(EbookLoan {
                kind: Some("ebook".into()),
                isbn: "1".into(),
                due: None,
                format: Some(EbookLoanFormat::Epub),
            }),
            ListLoansResponseItem::ShelfLoan(ShelfLoan {
                kind: Some("shelf".into()),
                isbn: "2".into(),
                due: None,
                // `format: date-time` and `uuid` (`format_types`): read, offset and all.
                since: "2026-11-02T08:30:00Z".parse().ok(),
                id: "67e55044-10b1-426f-9247-bb680e5fe0c8".parse().ok(),
            }),
            ListLoansResponseItem::ShelfLoan(ShelfLoan {
                kind: None,
                isbn: "3".into(),
                due: None,
                since: None,
                id: None,
            }),
        ]
    );

    // The variant `kind` names must read the answer: no other shape is tried.
    Mock::given(method("GET"))
        .and(path("/loans"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!([{"kind": "ebook", "isbn": 4}])),
        )
        .mount(&server)
        .await;
    let error = library
        .list_loans(&ListLoansArguments {})
        .await
        .expect_err("isbn is a number");
    assert!(matches!(error, ApiError::Unexpected { .. }), "{error:?}");
}

#[tokio::test]
async fn an_answer_that_is_not_what_the_document_says_names_where() {
    use typed_petstore::ListPetsArguments;
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/pets"))
        .and(query_param("limit", "2"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([
            {"id": 1, "name": "Rex"},
            {"id": 2, "name": 5}
        ])))
        .mount(&server)
        .await;
    let shop = shop(&server).await;
    let error = shop
        .list_pets(&ListPetsArguments {
            tags: None,
            limit: Some(2),
        })
        .await
        .expect_err("the second pet's name is a number");
    let ApiError::Unexpected { status, reason, .. } = &error else {
        panic!("{error:?}");
    };
    assert_eq!(*status, 200);
    assert!(reason.starts_with("at `[1].name`"), "{reason}");
    assert!(
        error.to_string().contains("not as its document says"),
        "{error}"
    );
}

#[tokio::test]
async fn a_typed_call_that_gets_no_answer_says_why() {
    use typed_petstore::GetPetArguments;
    // Nothing listens on port 9.
    let shop = TypedPetstore::new()
        .with_base_url("http://127.0.0.1:9")
        .with_api_key("k");
    let error = shop
        .get_pet(&GetPetArguments { pet_id: 1 })
        .await
        .expect_err("no server");
    assert!(matches!(error, ApiError::Call(_)), "{error:?}");
    assert_eq!(error.status(), None);
}
