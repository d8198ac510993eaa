//! Typed calls for Rust callers: the arguments as a struct, the answer decoded into the type
//! the document gives its body, with the status and headers at hand, and the documented
//! error answers decoded too ([`ApiError::Status`]).
//!
//! Generated drivers use this when their generator asked for typed responses
//! (`mcs_codegen::Generator::typed_responses`); a model's calls go through
//! [`ToolDriver::execute_tool`](mcs_core::ToolDriver::execute_tool) as before.

use std::fmt;
use std::future::Future;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use mcs_core::ToolError;

use super::charset;
use super::driver::{Checks, RestDriver};
use super::transport::HttpResponse;

/// An answer of the API, its body decoded.
#[derive(Clone, Debug, PartialEq)]
pub struct Response<T> {
    /// The status code.
    pub status: u16,
    /// Header names (lower case) and values, in the order they came.
    pub headers: Vec<(String, String)>,
    /// The body, decoded.
    pub body: T,
}

impl<T> Response<T> {
    /// The value of the first header called `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body, without the status and headers.
    pub fn into_body(self) -> T {
        self.body
    }
}

/// Why a typed call did not give the answer it was made for.
#[non_exhaustive]
pub enum ApiError<E> {
    /// No answer: the request could not be built (a header value with a line break, a
    /// missing path argument, no credential where one is required …), or sending it failed
    /// (connection, timeout, a body over the size limit).
    Call(ToolError),
    /// The API answered a failing status, and its body is what the document describes for
    /// it, decoded.
    Status(Response<E>),
    /// The API answered, but not as the document says: a body that does not decode into
    /// the type of its status, or a status the document does not give.
    Unexpected {
        /// The status code.
        status: u16,
        /// The headers.
        headers: Vec<(String, String)>,
        /// The body, as it came.
        body: Vec<u8>,
        /// What did not match, and where in the body (`items[2].id: invalid type …`).
        reason: String,
    },
}

impl<E> ApiError<E> {
    /// The status the API answered, when it answered.
    pub fn status(&self) -> Option<u16> {
        match self {
            ApiError::Call(_) => None,
            ApiError::Status(response) => Some(response.status),
            ApiError::Unexpected { status, .. } => Some(*status),
        }
    }
}

impl<E: fmt::Debug> fmt::Debug for ApiError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::Call(error) => f.debug_tuple("Call").field(error).finish(),
            ApiError::Status(response) => f.debug_tuple("Status").field(response).finish(),
            ApiError::Unexpected {
                status,
                body,
                reason,
                ..
            } => f
                .debug_struct("Unexpected")
                .field("status", status)
                .field("body_bytes", &body.len())
                .field("reason", reason)
                .finish_non_exhaustive(),
        }
    }
}

impl<E> fmt::Display for ApiError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::Call(error) => write!(f, "{error}"),
            ApiError::Status(response) => {
                write!(f, "the API answered status {}", response.status)
            }
            ApiError::Unexpected { status, reason, .. } => write!(
                f,
                "the API answered status {status}, not as its document says: {reason}"
            ),
        }
    }
}

impl<E: fmt::Debug> std::error::Error for ApiError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ApiError::Call(error) => Some(error),
            _ => None,
        }
    }
}

/// What a typed call gives.
pub type Answered<T, E> = Result<Response<T>, ApiError<E>>;

/// How an answer's body becomes a value of the type of its status: an error whose text
/// says what did not match and where. Generated code passes [`json`], or a function of
/// its own that picks the type by status.
pub type Decode<T> = fn(u16, &[u8]) -> Result<T, String>;

/// The body as JSON of type `T`: an empty body reads as `null` (so `()` and `Option<T>`
/// take an answer without content), and a mismatch names its path in the body.
pub fn json<T: DeserializeOwned>(_status: u16, body: &[u8]) -> Result<T, String> {
    let body: &[u8] = if body.iter().all(u8::is_ascii_whitespace) {
        b"null"
    } else {
        body
    };
    let mut reader = serde_json::Deserializer::from_slice(body);
    serde_path_to_error::deserialize(&mut reader).map_err(|error| {
        let path = error.path().to_string();
        if path == "." {
            error.into_inner().to_string()
        } else {
            format!("at `{path}`: {}", error.into_inner())
        }
    })
}

/// One shape of a union told apart by a discriminator (OpenAPI's `discriminator`): the
/// values of the discriminating property that name it, and how a value becomes it.
pub type Variant<T> = (
    &'static [&'static str],
    fn(Value) -> Result<T, serde_json::Error>,
);

/// `value` read as a union told apart by `property`: as the variant the property's value
/// names; without that value (APIs leave out a property their document does not require),
/// or with one no variant is named by (one added since), as the first variant that reads
/// it. `union` names the type in the error when none does. What code generated by
/// mcs-codegen calls from the `Deserialize` of such a union.
pub fn discriminated<T>(
    value: Value,
    property: &str,
    variants: &[Variant<T>],
    union: &str,
) -> Result<T, String> {
    let named = value
        .get(property)
        .and_then(Value::as_str)
        .and_then(|tag| variants.iter().find(|(values, _)| values.contains(&tag)));
    if let Some((_, read)) = named {
        return read(value).map_err(|error| error.to_string());
    }
    variants
        .iter()
        .find_map(|(_, read)| read(value.clone()).ok())
        .ok_or_else(|| format!("matches none of the shapes `{union}` can be"))
}

/// Nothing: for answers the document gives no content, whatever came.
pub fn empty(_status: u16, _body: &[u8]) -> Result<(), String> {
    Ok(())
}

/// The body as it came, for answers that are not JSON.
pub fn bytes(_status: u16, body: &[u8]) -> Result<Vec<u8>, String> {
    Ok(body.to_vec())
}

impl RestDriver {
    /// Calls the operation `name` with typed `arguments` and decodes the answer: a 2xx
    /// body with `success`, any other with `failure` (an error there is
    /// [`ApiError::Unexpected`]).
    ///
    /// The arguments are sent as they serialize (an argument that is not required and
    /// serializes to `null` is left out, as in [`RestDriver::call`]), without the schema
    /// validation a model's call goes through: their types already hold what the document
    /// says, and a value the document does not list (an open enum's `Other`) reaches the
    /// API, which decides.
    pub fn call_typed<'a, A, T, E>(
        &'a self,
        name: &'a str,
        arguments: &A,
        success: Decode<T>,
        failure: Decode<E>,
    ) -> impl Future<Output = Answered<T, E>> + Send + use<'a, A, T, E>
    where
        A: Serialize + ?Sized,
        T: Send + 'a,
        E: Send + 'a,
    {
        let arguments = self.rust_arguments(name, arguments);
        async move {
            let (_, answer) = self
                .exchange(name, arguments.map_err(ApiError::Call)?, Checks::Types)
                .await
                .map_err(ApiError::Call)?;
            decode(answer, success, failure)
        }
    }
}

fn decode<T, E>(answer: HttpResponse, success: Decode<T>, failure: Decode<E>) -> Answered<T, E> {
    let content_type = answer.header("content-type").unwrap_or_default().to_owned();
    let HttpResponse {
        status,
        headers,
        body,
    } = answer;
    // Decoders read UTF-8: an answer in another charset is read into it first.
    let body = charset::to_utf8(body, &content_type);
    let decoded = if (200..300).contains(&status) {
        success(status, &body).map(Ok)
    } else {
        failure(status, &body).map(Err)
    };
    match decoded {
        Ok(Ok(body)) => Ok(Response {
            status,
            headers,
            body,
        }),
        Ok(Err(body)) => Err(ApiError::Status(Response {
            status,
            headers,
            body,
        })),
        Err(reason) => Err(ApiError::Unexpected {
            status,
            headers,
            body,
            reason,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Pet {
        id: i64,
        tags: Vec<String>,
    }

    #[test]
    fn a_discriminator_picks_the_variant_and_its_absence_tries_them_in_turn() {
        #[derive(Debug, PartialEq)]
        enum Shape {
            Dot(Pet),
            Any(serde_json::Value),
        }
        let variants: [Variant<Shape>; 2] = [
            (&["dot", "point"], |value| {
                serde_json::from_value(value).map(Shape::Dot)
            }),
            (&["any"], |value| {
                serde_json::from_value(value).map(Shape::Any)
            }),
        ];
        let read = |value: serde_json::Value| discriminated(value, "kind", &variants, "Shape");
        let pet = serde_json::json!({"kind": "point", "id": 1, "tags": []});
        assert_eq!(
            read(pet.clone()),
            Ok(Shape::Dot(Pet {
                id: 1,
                tags: vec![]
            }))
        );
        // Named but not that shape: an error, no other variant tried.
        assert!(read(serde_json::json!({"kind": "dot", "id": "x"})).is_err());
        // Named `any`, or with a value no variant is named by: as `Any`, the first that reads it.
        let any = serde_json::json!({"kind": "any", "id": 1, "tags": []});
        assert_eq!(read(any.clone()), Ok(Shape::Any(any)));
        let unknown = serde_json::json!({"kind": "new", "id": "x"});
        assert_eq!(read(unknown.clone()), Ok(Shape::Any(unknown)));
        // No kind at all: the first that reads it.
        let bare = serde_json::json!({"id": 2, "tags": ["a"]});
        assert_eq!(
            read(bare),
            Ok(Shape::Dot(Pet {
                id: 2,
                tags: vec!["a".into()]
            }))
        );
        let none: [Variant<Shape>; 1] = [(&["dot"], |value| {
            serde_json::from_value(value).map(Shape::Dot)
        })];
        assert_eq!(
            discriminated(serde_json::json!(3), "kind", &none, "Shape"),
            Err("matches none of the shapes `Shape` can be".to_owned())
        );
    }

    #[test]
    fn a_mismatch_names_its_path() {
        let error = json::<Vec<Pet>>(200, br#"[{"id": 1, "tags": []}, {"id": 2, "tags": [3]}]"#)
            .unwrap_err();
        assert!(
            error.starts_with("at `[1].tags[0]`: invalid type: integer `3`"),
            "{error}"
        );
        let error = json::<Pet>(200, br#"{"tags": []}"#).unwrap_err();
        assert!(error.contains("missing field `id`"), "{error}");
    }

    #[test]
    fn an_empty_body_is_null() {
        assert_eq!(json::<()>(204, b""), Ok(()));
        assert_eq!(json::<Option<Pet>>(204, b" \n"), Ok(None));
        assert!(json::<Pet>(200, b"").is_err());
    }

    #[test]
    fn statuses_pick_the_decoder() {
        let answer = |status: u16, body: &str| HttpResponse {
            status,
            headers: vec![("x-id".into(), "7".into())],
            body: body.as_bytes().to_vec(),
        };
        let ok =
            decode::<Pet, String>(answer(200, r#"{"id": 1, "tags": ["a"]}"#), json, json).unwrap();
        assert_eq!(ok.body.id, 1);
        assert_eq!(ok.header("X-Id"), Some("7"));
        let failed = decode::<Pet, String>(answer(404, r#""gone""#), json, json).unwrap_err();
        assert!(matches!(&failed, ApiError::Status(r) if r.body == "gone" && r.status == 404));
        let unexpected = decode::<Pet, String>(answer(500, "<html>"), json, json).unwrap_err();
        assert_eq!(unexpected.status(), Some(500));
        assert!(
            unexpected.to_string().contains("not as its document says"),
            "{unexpected}"
        );
    }
}
