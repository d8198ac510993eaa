//! Drivers over HTTP APIs: an API described as table rows ([`Api`], [`Operation`]), the
//! requests built from a call's arguments, and the [`HttpTransport`] that sends them.
//!
//! `mcs-codegen` writes the rows of an OpenAPI document as `static` data;
//! `mcs::openapi` (feature `openapi`) reads the same rows at run time. Both are executed by
//! [`RestDriver`], so every fix lands once for generated and loaded drivers alike.
//!
//! What a call goes through, in order:
//! 1. its arguments are validated against the operation's JSON Schema (every problem named,
//!    nothing sent on failure);
//! 2. path values are percent-encoded piece by piece (`/`, `?`, `#`, `%` and `..` cannot
//!    change the target), query values are written by `style`/`explode`, header values with
//!    a line break are refused, cookies are encoded;
//! 3. credentials for the first satisfiable security requirement are added (they never
//!    appear in schemas, prompts, results or errors);
//! 4. the body is encoded (JSON, form, multipart with files, XML, text, bytes; see
//!    [`BodyEncoding`] for which media types are sent how), text, forms and XML in the
//!    `charset` their media type declares (a character it lacks is refused in text and forms
//!    and written as a character reference in XML);
//! 5. the [`HttpTransport`] sends it, with a timeout and a cap on the response size;
//! 6. a 2xx answer becomes the result (JSON parsed, text as a string, binary summarised;
//!    text read from the charset it declares, `charset=iso-8859-1`, `Shift_JIS`, an XML
//!    declaration or a byte-order mark),
//!    anything else a [`ToolError::Execution`](mcs_core::ToolError::Execution) naming the status
//!    with a bounded excerpt of the body, so the model can correct itself.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod auth;
mod body;
mod charset;
mod driver;
mod generated;
mod params;
mod request;
mod response;
mod settings;
mod table;
mod transport;
mod typed;
mod xml;

pub use auth::{Credential, Credentials, Secret};
pub use driver::{DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT, RestDriver};
pub use table::{
    Api, BodyArgument, BodyEncoding, List, Location, Method, Operation, Parameter, RequestBody,
    SchemeKind, SecurityRequirement, SecurityScheme, Server, ServerVariable, Style, Tag, Text,
};
#[cfg(feature = "http")]
pub use transport::ReqwestTransport;
pub use transport::{HttpRequest, HttpResponse, HttpTransport, TransportError, url_to_show};
pub use typed::{Answered, ApiError, Decode, Response, Variant, bytes, discriminated, empty, json};
pub use xml::is_xml_name;

/// What the generated drivers' macro (`__rest_driver!`) refers to. Not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use mcs_core::{DriverMeta, Tool, ToolDriver, ToolFuture};
    #[cfg(feature = "hybrid")]
    pub use mcs_hybrid::{__hybrid_driver as hybrid_driver, HybridOptions};
    pub use serde_json::Value;
}
