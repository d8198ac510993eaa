//! OpenAPI documents read into [`mcs_rest`] table rows.
//!
//! [`read_file`] and [`read_str`] take an OpenAPI 3.0.x or 3.1.x document, or a Swagger
//! 2.0 one, in JSON or YAML, and return the [`Api`](mcs_rest::Api) rows a REST driver
//! runs — the same rows `mcs-codegen` writes out as `static`s — and
//! [`Document::into_driver`] makes the driver that runs them; `fetch` (feature `http`)
//! reads a document from a URL. Swagger 2.0 is read
//! directly into those rows (its `in: body` and `in: formData` parameters become the body,
//! `collectionFormat` the style), not converted to OpenAPI 3 first.
//!
//! The document is walked as a `serde_json::Value` rather than deserialized into typed
//! structs: real documents break their own specification in small ways, and a walk by hand
//! can read past what does not matter and name, with a JSON pointer, what does.
//!
//! What the rows hold:
//! - one operation per path and method, in document order; path-level parameters merged
//!   with the operation's (the operation's win);
//! - tool names from `operationId` (else `{method}_{path}`), sanitised to
//!   `^[A-Za-z0-9_-]{1,64}$` and made unique over the whole document *before* any
//!   filtering or skipping, so a tool keeps its name whatever else is left out;
//! - one argument per parameter, and for an object body one per property (the body is a
//!   single `body` argument when it is not an object or a property name is taken);
//! - the arguments' JSON Schema, self-contained: references inlined, recursive ones (and
//!   ones reused so often that inlining would blow up) in `$defs`, OpenAPI 3.0 and Swagger
//!   idioms (`nullable`, boolean `exclusiveMinimum`, `type: file`) rewritten the 2020-12
//!   way, OpenAPI-only keywords and `readOnly` properties left out;
//! - the security alternatives each operation accepts, and the schemes they use.
//!
//! Rules where the specification leaves a choice:
//! - a description that only repeats the summary is dropped (the tool falls back to the
//!   title); an operation with neither is titled `GET /path`; a deprecated one's
//!   description starts with `Deprecated. `;
//! - a `{placeholder}` in the path that no parameter declares still gets a required string
//!   argument; a declared path parameter the template does not name is left out;
//! - an argument's key is one every provider takes, `^[a-zA-Z0-9_.-]{1,64}$` (Anthropic's
//!   rule for property keys; a single key outside it makes the Messages API refuse the whole
//!   request): a parameter named otherwise becomes a sanitised key (`filter[name]` →
//!   `filter_name`, `$top` → `top`) whose description says what is sent, and an object body
//!   with such a property (`$schema`, `@odata.type`) stays one `body` argument, where
//!   nested keys are free;
//! - two parameters with the same key in different locations: the first (path, query,
//!   header, cookie) keeps it, later ones become `{location}_{key}`;
//! - a body spread into arguments keeps its object's `required` properties even when the
//!   request body itself is not marked required (documents rarely mark it);
//! - a body's media type is chosen in this order, and sent so: JSON (`application/json`,
//!   then `+json` types and `*/*`); `application/x-www-form-urlencoded` (properties its
//!   `encoding` gives `style: deepObject` sent as `key[member]=…`, see
//!   [`RequestBody::deep_objects`](mcs_rest::RequestBody::deep_objects); other objects as
//!   JSON text); `multipart/form-data`; XML (`application/xml`, `text/xml`, `+xml` types), written from
//!   the JSON arguments by the schema's `xml` objects (`name`, `namespace`, `prefix`,
//!   `attribute`, `wrapped`; see [`RequestBody::xml`](mcs_rest::RequestBody::xml)); `text/*`
//!   as the string given; YAML (`application/yaml`, `application/x-yaml`, `text/yaml`,
//!   `+yaml` types) whose schema is an object or an array as JSON text, which is YAML; binary types (images, audio, video, fonts, archives,
//!   `application/octet-stream`, `vnd.` types) as a file's bytes; then any other media type
//!   by its schema: a string (`application/jwt`) as text, binary data (`format: binary`,
//!   `contentMediaType`, OpenAPI 3.1's empty schema: `application/dicom`, `application/tar`)
//!   as a file's bytes. XML or binary media types whose schema is a string are sent as that
//!   text. A media type outside these families whose schema is anything else (an object) is
//!   not sent; when no media type of a body can be, the error names each one, quoted;
//! - multipart properties that are files (binary strings, content with a media type or an
//!   encoding) are file arguments; an array of them is an array of file arguments, and is
//!   listed in [`RequestBody::files`](mcs_rest::RequestBody::files) too;
//! - `include_tags` and `exclude_operations` apply after names are settled, and an
//!   operation they leave out is never read (it cannot fail the read);
//! - OpenAPI 3.2 documents are read as 3.1; in 3.1 `paths` may be absent (no operations).
//!
//! A parameter that an API-key scheme of the operation's security fills (same place and
//! name: Trello's `key` and `token`) is left out of the tool: the credential fills it.
//! Servers given on a path item or an operation are read into
//! [`Operation::servers`](mcs_rest::Operation::servers), and requests for it go there.
//! References may point into the document or into files beside it (resolved from the
//! referring file's directory); remote (`http://`) references and `$id`-based resolution
//! are not supported.
//!
//! Nothing here panics or loops on bad input: depth, size and reference chains are bounded.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod body;
mod document;
mod driver;
mod error;
mod keywords;
mod media;
mod names;
mod operation;
mod options;
mod params;
mod read;
mod reader;
mod responses;
mod schema;
mod security;
mod servers;
mod source;
mod xml;

#[cfg(feature = "http")]
pub use driver::fetch;
pub use error::{OpenApiError, Skipped};
pub use options::{Answer, Document, ReadOptions, Responses};
pub use read::{read_file, read_str};
