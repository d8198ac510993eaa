//! The rows that describe a REST API: what `mcs-codegen` writes as `static` data and what
//! [`mcs_openapi`] builds at run time. Both end up in the same [`RestDriver`], so a
//! generated driver and one loaded from a document behave alike.
//!
//! Every string and list is a [`Cow`]: generated code borrows `'static` literals (the rows
//! cost nothing to build), a document read at run time owns its data.
//!
//! [`RestDriver`]: super::RestDriver

use std::borrow::Cow;

use mcs_core::{Definitions, ToolAnnotations};
use serde_json::Value;

/// Text in a table row: a `'static` literal in generated code, owned when read at run time.
pub type Text = Cow<'static, str>;

/// A list in a table row.
pub type List<T> = Cow<'static, [T]>;

/// A whole API: its operations, where it lives, and how it is authenticated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Api {
    /// The driver's name (`Petstore`), also the stem of its id.
    pub name: Text,
    /// The document's `info.title`.
    pub title: Text,
    /// The document's `info.version`.
    pub version: Text,
    /// The servers the document names, in order; the first is the default base URL.
    pub servers: List<Server>,
    /// The security schemes operations refer to.
    pub security_schemes: List<SecurityScheme>,
    /// One row per operation, in document order; each becomes a tool.
    pub operations: List<Operation>,
    /// What the operations' tags stand for: the document's top-level `tags` that have a
    /// description and that an operation here uses, in document order.
    pub tags: List<Tag>,
    /// The schemas operations' arguments refer to as `{"$ref": "#/$defs/NAME"}`, each held
    /// once for the whole API: one JSON object of names to schemas, or empty when no
    /// operation refers to any. A driver shares them between its tools
    /// ([`mcs_core::Definitions`]); [`Api::arguments_schema`] gives an operation's schema
    /// self-contained.
    pub definitions: Text,
}

impl Api {
    /// The shared schemas of [`definitions`](Self::definitions), read (empty when there are
    /// none). Parses the text: a driver does it once and keeps the result.
    pub fn shared_definitions(&self) -> Definitions {
        if self.definitions.is_empty() {
            return Definitions::default();
        }
        match serde_json::from_str(&self.definitions) {
            Ok(Value::Object(map)) => Definitions::new(map),
            _ => Definitions::default(),
        }
    }

    /// The arguments schema of `operation` (one of this API's), self-contained: what a
    /// model is shown and calls are validated against.
    pub fn arguments_schema(&self, operation: &Operation) -> Value {
        let schema: Value = serde_json::from_str(&operation.schema).unwrap_or(Value::Null);
        self.shared_definitions().self_contained(&schema)
    }
}

/// A tag the document describes (its top-level `tags`): an orchestrator shows the
/// description beside the toolset it makes from the tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    /// The tag, as operations name it.
    pub name: Text,
    /// What the operations under it are about, e.g. "Endpoints to manage GitHub Actions".
    pub description: Text,
}

/// A base URL, possibly with `{variables}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Server {
    /// The URL template, e.g. `https://{region}.example.com/v1`.
    pub url: Text,
    /// The variables in the template, with their defaults.
    pub variables: List<ServerVariable>,
}

/// A variable of a [`Server`] URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerVariable {
    /// The name written between braces.
    pub name: Text,
    /// The value used unless the driver is told otherwise.
    pub default: Text,
    /// The values the document allows (empty: any).
    pub allowed: List<Text>,
}

/// One HTTP operation, offered as one tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    /// The tool's name: `^[A-Za-z0-9_-]{1,64}$`, unique in the API.
    pub name: Text,
    /// The short title (the operation's summary).
    pub title: Option<Text>,
    /// The description; a tool needs a title or a description.
    pub description: Option<Text>,
    /// The HTTP method.
    pub method: Method,
    /// The path template, e.g. `/pets/{petId}`, appended to the base URL.
    pub path: Text,
    /// The servers the document gives this operation or its path (OpenAPI 3's `servers`
    /// there: Stripe's uploads go to `files.stripe.com`), in place of [`Api::servers`];
    /// empty for most operations. A base URL set on the driver overrides both.
    pub servers: List<Server>,
    /// Where each non-body argument goes.
    pub parameters: List<Parameter>,
    /// The request body, if the operation takes one.
    pub body: Option<RequestBody>,
    /// Alternatives of security requirements: any one satisfied is enough; an empty
    /// requirement means no credentials are needed; an empty list means the same.
    pub security: List<SecurityRequirement>,
    /// The operation's tags, for grouping tools into toolsets.
    pub tags: List<Text>,
    /// The document marks the operation as deprecated.
    pub deprecated: bool,
    /// The JSON Schema of the whole arguments object, as JSON text: an object whose
    /// properties are the arguments. Schemas the API shares are references
    /// (`{"$ref": "#/$defs/Pet"}`) into [`Api::definitions`]; [`Api::arguments_schema`]
    /// gives it self-contained.
    pub schema: Text,
    /// What the tool does to the world: from the method ([`Method::annotations`]), with
    /// what the document's `x-mcs-annotations` says instead.
    pub annotations: ToolAnnotations,
}

/// An HTTP method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// `GET`
    Get,
    /// `PUT`
    Put,
    /// `POST`
    Post,
    /// `DELETE`
    Delete,
    /// `PATCH`
    Patch,
    /// `HEAD`
    Head,
    /// `OPTIONS`
    Options,
    /// `TRACE`
    Trace,
}

impl Method {
    /// What an operation's HTTP method says it does (RFC 9110's safe and idempotent
    /// methods): `GET` and `HEAD` only read, `PUT` and `DELETE` are idempotent, `DELETE`
    /// destroys; every operation reaches a service beyond the program (open world). A
    /// document may say otherwise ([`Operation::annotations`]).
    pub const fn annotations(self) -> ToolAnnotations {
        let open = ToolAnnotations::new().open_world(true);
        match self {
            Method::Get | Method::Head | Method::Options | Method::Trace => {
                open.read_only(true).destructive(false).idempotent(true)
            }
            Method::Put => open.read_only(false).idempotent(true),
            Method::Delete => open.read_only(false).destructive(true).idempotent(true),
            Method::Post | Method::Patch => open.read_only(false),
        }
    }

    /// Every method, in the order OpenAPI lists them in a path item.
    pub const ALL: [Method; 8] = [
        Method::Get,
        Method::Put,
        Method::Post,
        Method::Delete,
        Method::Options,
        Method::Head,
        Method::Patch,
        Method::Trace,
    ];

    /// The method as it goes on the wire (`GET`).
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Put => "PUT",
            Method::Post => "POST",
            Method::Delete => "DELETE",
            Method::Patch => "PATCH",
            Method::Head => "HEAD",
            Method::Options => "OPTIONS",
            Method::Trace => "TRACE",
        }
    }

    /// The lower-case key OpenAPI uses in a path item (`get`).
    pub fn key(self) -> &'static str {
        match self {
            Method::Get => "get",
            Method::Put => "put",
            Method::Post => "post",
            Method::Delete => "delete",
            Method::Patch => "patch",
            Method::Head => "head",
            Method::Options => "options",
            Method::Trace => "trace",
        }
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A parameter that travels outside the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parameter {
    /// The argument's key in a call (usually `name`; different when two locations use the
    /// same name).
    pub argument: Text,
    /// The name on the wire: the path placeholder, query key, header or cookie name.
    pub name: Text,
    /// Where it goes.
    pub location: Location,
    /// How a value is written (OpenAPI `style`).
    pub style: Style,
    /// Whether arrays and objects are spread into several pairs (OpenAPI `explode`).
    pub explode: bool,
    /// Query only: reserved characters (`:/?#[]@!$&'()*+,;=`) are sent as they are.
    pub allow_reserved: bool,
    /// Whether a call must supply it.
    pub required: bool,
}

impl Parameter {
    /// The parameter `name` at `location`, its argument named `argument`, written as OpenAPI
    /// writes a parameter when the document says nothing more: the location's
    /// [default style](Location::default_style), exploded when that style is `form`,
    /// reserved characters encoded, and required in the path only. The other `const`
    /// builders change one of those.
    ///
    /// ```
    /// use mcs_rest::{Location, Parameter, Style};
    ///
    /// const PAGE: Parameter = Parameter::query("page");
    /// assert_eq!((PAGE.style, PAGE.explode, PAGE.required), (Style::Form, true, false));
    /// const ID: Parameter = Parameter::new(Location::Path, "id", "user_id");
    /// assert_eq!((ID.name.as_ref(), ID.argument.as_ref(), ID.required), ("id", "user_id", true));
    /// const TAGS: Parameter = Parameter::query("tags").required(true).style(Style::PipeDelimited, false);
    /// assert!(TAGS.required && !TAGS.explode);
    /// ```
    pub const fn new(location: Location, name: &'static str, argument: &'static str) -> Self {
        let style = location.default_style();
        Parameter {
            argument: Cow::Borrowed(argument),
            name: Cow::Borrowed(name),
            location,
            style,
            explode: matches!(style, Style::Form),
            allow_reserved: false,
            required: matches!(location, Location::Path),
        }
    }

    /// [`Parameter::new`] for a `{name}` of the path, whose argument is `name`.
    pub const fn path(name: &'static str) -> Self {
        Parameter::new(Location::Path, name, name)
    }

    /// [`Parameter::new`] for a query parameter whose argument is `name`.
    pub const fn query(name: &'static str) -> Self {
        Parameter::new(Location::Query, name, name)
    }

    /// [`Parameter::new`] for a request header whose argument is `name`.
    pub const fn header(name: &'static str) -> Self {
        Parameter::new(Location::Header, name, name)
    }

    /// [`Parameter::new`] for a cookie whose argument is `name`.
    pub const fn cookie(name: &'static str) -> Self {
        Parameter::new(Location::Cookie, name, name)
    }

    /// The parameter, required or not.
    pub const fn required(mut self, required: bool) -> Self {
        self.required = required;
        self
    }

    /// The parameter written in `style`, arrays and objects spread or not.
    pub const fn style(mut self, style: Style, explode: bool) -> Self {
        self.style = style;
        self.explode = explode;
        self
    }

    /// The parameter with reserved characters sent as they are (query only).
    pub const fn allow_reserved(mut self, allow_reserved: bool) -> Self {
        self.allow_reserved = allow_reserved;
        self
    }
}

/// Where a [`Parameter`] goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Location {
    /// A `{placeholder}` in the path.
    Path,
    /// The query string.
    Query,
    /// A request header.
    Header,
    /// A cookie.
    Cookie,
}

impl Location {
    /// The style OpenAPI gives a parameter here when the document names none: `simple` in
    /// the path and headers, `form` in the query and cookies.
    pub const fn default_style(self) -> Style {
        match self {
            Location::Path | Location::Header => Style::Simple,
            Location::Query | Location::Cookie => Style::Form,
        }
    }

    /// The name OpenAPI uses (`path`, `query`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Location::Path => "path",
            Location::Query => "query",
            Location::Header => "header",
            Location::Cookie => "cookie",
        }
    }
}

/// How a parameter value is serialized (OpenAPI 3 `style`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    /// `1,2,3` (path and header default).
    Simple,
    /// `.1.2.3` (path).
    Label,
    /// `;id=1,2,3` (path).
    Matrix,
    /// `id=1&id=2` or `id=1,2` (query and cookie default).
    Form,
    /// `id=1%202` (query arrays; Swagger 2.0's `ssv` in any location).
    SpaceDelimited,
    /// `id=1|2` (query arrays; Swagger 2.0's `pipes` in any location).
    PipeDelimited,
    /// `id=1%092`: items separated by a tab. Not an OpenAPI 3 style: Swagger 2.0's
    /// `collectionFormat: tsv`, in any location.
    TabDelimited,
    /// `filter[a]=1&filter[b]=2` (query objects).
    DeepObject,
}

/// The request body of an operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestBody {
    /// The media type sent as `Content-Type`, e.g. `application/json`.
    pub media_type: Text,
    /// How the body is encoded.
    pub encoding: BodyEncoding,
    /// Which arguments make up the body.
    pub argument: BodyArgument,
    /// Multipart only: the body properties that are files. A file argument is
    /// `{"base64": "...", "filename": "..."}` or `{"path": "..."}` inside a directory the
    /// driver was granted.
    pub files: List<Text>,
    /// Whether the request must carry a body. A JSON or form body the call leaves out is
    /// then sent as `{}` (the tool's schema decides whether the call may leave it out: a
    /// reader requires it unless an empty object fits); another one is refused as missing.
    pub required: bool,
    /// XML bodies only: where each part of the body's JSON goes in the XML, as JSON text —
    /// the body's OpenAPI schema cut down to what places it (`xml` objects with `name`,
    /// `namespace`, `prefix`, `attribute`, `wrapped`; `properties`; `items`;
    /// `allOf`/`anyOf`/`oneOf`; `$ref`s into the layout's own `$defs`), the root's
    /// `xml.name` always given. `None`, or text that is not such JSON, lays the body out by
    /// default: the root element `body`, every value an element named after its key.
    pub xml: Option<Text>,
    /// Form bodies only: the properties sent in the `deepObject` style the document's
    /// `encoding` names (`address[city]=Paris`, arrays indexed: `items[0][price]=p1`, as
    /// Stripe reads them) instead of as JSON text.
    pub deep_objects: List<Text>,
}

/// How a [`RequestBody`] is encoded on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BodyEncoding {
    /// JSON (`application/json` and `+json` types).
    Json,
    /// `application/x-www-form-urlencoded`.
    Form,
    /// `multipart/form-data`.
    Multipart,
    /// Plain text (`text/*`, and any media type whose schema is a string, such as
    /// `application/jwt`): the argument is a string sent as it is, in the `charset` the
    /// media type declares (UTF-8 when none; a character that charset lacks is refused).
    Text,
    /// Raw bytes (`application/octet-stream`, images, and any media type whose schema is
    /// binary, such as `application/x-yaml` with `format: binary`): the argument is a file.
    Binary,
    /// XML (`application/xml`, `text/xml`, `+xml` types): the arguments, as JSON, written as
    /// an XML document laid out by [`RequestBody::xml`] — properties as child elements or
    /// attributes, arrays as repeated elements (wrapped or not), scalars as text — in the
    /// `charset` the media type declares, which its declaration names too (a character that
    /// charset lacks is written as a character reference).
    Xml,
}

/// Which arguments of a call make up the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BodyArgument {
    /// One argument holds the whole body (`body`, unless renamed).
    Whole(Text),
    /// The body is an object whose properties are top-level arguments of these names.
    Properties(List<Text>),
}

/// A way of authenticating that operations can require.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecurityScheme {
    /// The scheme's key in the document's `securitySchemes`.
    pub name: Text,
    /// What credential it takes and where it goes.
    pub kind: SchemeKind,
}

/// The kind of a [`SecurityScheme`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchemeKind {
    /// `Authorization: Bearer <token>` (HTTP bearer).
    Bearer,
    /// `Authorization: Basic <base64(user:password)>` (HTTP basic).
    Basic,
    /// An API key in a header, the query or a cookie.
    ApiKey {
        /// Where the key goes (never `Path`).
        location: Location,
        /// The header, query or cookie name.
        name: Text,
    },
    /// OAuth 2: an access token the caller obtained, sent as a bearer token.
    OAuth2,
    /// OpenID Connect: an access token the caller obtained, sent as a bearer token.
    OpenIdConnect,
}

/// One alternative of an operation's security: every scheme named must be satisfied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecurityRequirement {
    /// The [`SecurityScheme::name`]s required together.
    pub schemes: List<Text>,
}
