//! Credentials for an API's security schemes, and which of them an operation gets.
//!
//! Credentials are configured on the driver, never passed by the model: they appear in no
//! tool schema, prompt, result or error, and their `Debug` output is redacted.

use std::fmt;

use base64::Engine as _;

use super::table::{Location, Operation, SchemeKind, SecurityScheme};

/// A secret value; `Debug` prints `***`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret.
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    /// The secret itself.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Secret::new(value)
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Secret(value)
    }
}

/// A credential for one security scheme.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Credential {
    /// A token sent as `Authorization: Bearer ...` (HTTP bearer, OAuth 2, OpenID Connect).
    Bearer(Secret),
    /// A user name and password sent as HTTP basic authentication.
    Basic {
        /// The user name.
        user: String,
        /// The password.
        password: Secret,
    },
    /// An API key, sent where the scheme says (header, query or cookie).
    ApiKey(Secret),
}

/// The credentials a driver holds: per scheme name, and defaults per kind of scheme.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Credentials {
    by_scheme: Vec<(String, Credential)>,
    bearer: Option<Secret>,
    basic: Option<(String, Secret)>,
    api_key: Option<Secret>,
}

impl Credentials {
    /// Sets the credential for the scheme called `scheme` in the document.
    pub fn set(&mut self, scheme: impl Into<String>, credential: Credential) {
        let scheme = scheme.into();
        self.by_scheme.retain(|(name, _)| *name != scheme);
        self.by_scheme.push((scheme, credential));
    }

    /// The token for every bearer, OAuth 2 and OpenID Connect scheme without its own.
    pub fn set_bearer(&mut self, token: Secret) {
        self.bearer = Some(token);
    }

    /// The user and password for every basic scheme without its own.
    pub fn set_basic(&mut self, user: String, password: Secret) {
        self.basic = Some((user, password));
    }

    /// The key for every API-key scheme without its own.
    pub fn set_api_key(&mut self, key: Secret) {
        self.api_key = Some(key);
    }

    /// The credential that applies to `scheme`, if any.
    fn for_scheme(&self, scheme: &SecurityScheme) -> Option<Credential> {
        if let Some((_, credential)) = self.by_scheme.iter().find(|(n, _)| *n == scheme.name) {
            return Some(credential.clone());
        }
        match &scheme.kind {
            SchemeKind::Bearer | SchemeKind::OAuth2 | SchemeKind::OpenIdConnect => {
                self.bearer.clone().map(Credential::Bearer)
            }
            SchemeKind::Basic => self
                .basic
                .clone()
                .map(|(user, password)| Credential::Basic { user, password }),
            SchemeKind::ApiKey { .. } => self.api_key.clone().map(Credential::ApiKey),
        }
    }
}

/// Where a credential goes in a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    Header(String, String),
    Query(String, String),
    Cookie(String, String),
}

/// What authenticating `operation` takes: the placements of the first security alternative
/// whose every scheme has a credential. With none satisfied, no credentials when the
/// operation allows anonymous calls (no requirement, or an empty one), else an error naming
/// the schemes that lack one.
pub(crate) fn placements(
    operation: &Operation,
    schemes: &[SecurityScheme],
    credentials: &Credentials,
) -> Result<Vec<Placement>, String> {
    // Each requirement's schemes without a credential, together (`a` and `b`); any one
    // requirement met is enough.
    let mut missing: Vec<String> = Vec::new();
    for requirement in operation.security.iter().filter(|r| !r.schemes.is_empty()) {
        let mut placed = Vec::new();
        let mut lacking = Vec::new();
        for name in requirement.schemes.iter() {
            let found = schemes
                .iter()
                .find(|s| s.name == *name)
                .and_then(|s| Some((s, credentials.for_scheme(s)?)));
            match found {
                Some((scheme, credential)) => placed.push(place(scheme, credential)),
                None => lacking.push(format!("`{name}`")),
            }
        }
        if placed.len() == requirement.schemes.len() {
            return Ok(placed);
        }
        let way = lacking.join(" and ");
        if !missing.contains(&way) {
            missing.push(way);
        }
    }
    if operation.security.iter().all(|r| !r.schemes.is_empty()) && !missing.is_empty() {
        let together = missing.iter().any(|way| way.contains(" and "));
        return Err(format!(
            "the operation needs credentials for the security scheme{} {}, and the driver has \
             none configured for {}",
            if together || missing.len() > 1 {
                "s"
            } else {
                ""
            },
            missing.join(" or "),
            if together { "them" } else { "it" }
        ));
    }
    Ok(Vec::new())
}

fn place(scheme: &SecurityScheme, credential: Credential) -> Placement {
    let authorization = |value: String| Placement::Header("Authorization".to_owned(), value);
    match (credential, &scheme.kind) {
        (Credential::ApiKey(key), SchemeKind::ApiKey { location, name }) => {
            let (name, key) = (name.to_string(), key.0);
            match location {
                Location::Query => Placement::Query(name, key),
                Location::Cookie => Placement::Cookie(name, key),
                Location::Header | Location::Path => Placement::Header(name, key),
            }
        }
        (Credential::Basic { user, password }, _) => {
            let pair = format!("{user}:{}", password.0);
            authorization(format!(
                "Basic {}",
                base64::engine::general_purpose::STANDARD.encode(pair)
            ))
        }
        (Credential::Bearer(token) | Credential::ApiKey(token), _) => {
            authorization(format!("Bearer {}", token.0))
        }
    }
}
