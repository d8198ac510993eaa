//! Credentials for the served API: read from the environment (or, visibly, from flags),
//! handed to the REST driver, and never printed. What the document needs but was not given
//! becomes a warning at start and a clear error on each call that needs it.

use std::collections::HashMap;

use clap::Args;
use mcs::rest::{
    Api, Credential, Location, RestDriver, SchemeKind, Secret, SecurityRequirement, SecurityScheme,
};

/// Read when no `--bearer-token-env` names another variable.
pub(crate) const BEARER_ENV: &str = "MCS_BEARER_TOKEN";
/// Read when no `--api-key-env` names another variable.
pub(crate) const API_KEY_ENV: &str = "MCS_API_KEY";
/// Read when no `--basic-auth-env` names another variable; holds `user:password`.
pub(crate) const BASIC_ENV: &str = "MCS_BASIC_AUTH";

/// The credential options of `mcs serve`. No `Debug`: it would print the values given
/// directly.
#[derive(Args)]
#[command(next_help_heading = "Credentials (never printed)")]
pub(crate) struct CredentialArgs {
    /// The environment variable holding the token for the document's bearer, OAuth 2 and
    /// OpenID Connect schemes [default: MCS_BEARER_TOKEN, when set]
    #[arg(long, value_name = "VAR")]
    bearer_token_env: Option<String>,
    /// The environment variable holding the key for the document's API-key schemes (sent in
    /// a header, the query or a cookie, as the document says) [default: MCS_API_KEY, when
    /// set]
    #[arg(long, value_name = "VAR")]
    api_key_env: Option<String>,
    /// The environment variable holding `user:password` for the document's HTTP basic
    /// schemes [default: MCS_BASIC_AUTH, when set]
    #[arg(long, value_name = "VAR")]
    basic_auth_env: Option<String>,
    /// The bearer token itself. Visible to anyone who can list processes: prefer
    /// --bearer-token-env or MCS_BEARER_TOKEN
    #[arg(long, value_name = "TOKEN")]
    bearer_token: Option<String>,
    /// The API key itself. Visible to anyone who can list processes: prefer --api-key-env
    /// or MCS_API_KEY
    #[arg(long, value_name = "KEY")]
    api_key: Option<String>,
    /// The environment variable holding the credential of one security scheme of the
    /// document, `SCHEME=VAR` (repeatable), for APIs that take two keys together (a client
    /// id and a secret) or schemes that need different values: a key, a token, or
    /// `user:password`, as the scheme says. Takes precedence over the variables above
    #[arg(long = "credential-env", value_name = "SCHEME=VAR", value_parser = scheme_variable)]
    credential_envs: Vec<(String, String)>,
}

/// `SCHEME=VAR` split.
fn scheme_variable(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((scheme, variable)) if !scheme.trim().is_empty() && !variable.trim().is_empty() => {
            Ok((scheme.trim().to_owned(), variable.trim().to_owned()))
        }
        _ => Err(
            "expected SCHEME=VAR: a security scheme of the document and the environment \
                  variable holding its credential, such as `ClientSecret=PLAID_SECRET`"
                .to_owned(),
        ),
    }
}

/// The name of the scheme [`CredentialArgs::send_bearer_everywhere`] adds.
const UNDECLARED_BEARER: &str = "bearer token (the document requires no scheme)";

/// Which kinds of credential the driver was given, and which schemes a credential of
/// their own.
#[derive(Clone, Debug, Default)]
pub(crate) struct Given {
    bearer: bool,
    api_key: bool,
    basic: bool,
    schemes: Vec<String>,
}

impl CredentialArgs {
    /// `driver` with every credential found; fails when a variable named by an option is
    /// not set (a default one may be absent).
    pub(crate) fn apply(&self, mut driver: RestDriver) -> Result<(RestDriver, Given), String> {
        let mut given = Given::default();
        let bearer = direct_or_env(
            self.bearer_token.as_deref(),
            self.bearer_token_env.as_deref(),
            "--bearer-token-env",
            BEARER_ENV,
        )?;
        if let Some(token) = bearer {
            driver = driver.with_bearer_token(token);
            given.bearer = true;
        }
        let key = direct_or_env(
            self.api_key.as_deref(),
            self.api_key_env.as_deref(),
            "--api-key-env",
            API_KEY_ENV,
        )?;
        if let Some(key) = key {
            driver = driver.with_api_key(key);
            given.api_key = true;
        }
        let basic = direct_or_env(
            None,
            self.basic_auth_env.as_deref(),
            "--basic-auth-env",
            BASIC_ENV,
        )?;
        if let Some(pair) = basic {
            let variable = self.basic_auth_env.as_deref().unwrap_or(BASIC_ENV);
            let Some((user, password)) = pair.expose().split_once(':') else {
                return Err(format!(
                    "{variable} must hold `user:password` (its value is not shown)"
                ));
            };
            driver = driver.with_basic_auth(user, password);
            given.basic = true;
        }
        for (name, variable) in &self.credential_envs {
            let option = format!("--credential-env {name}={variable}");
            let Some(scheme) = driver
                .api()
                .security_schemes
                .iter()
                .find(|s| *s.name == **name)
            else {
                let known: Vec<String> = driver
                    .api()
                    .security_schemes
                    .iter()
                    .map(|s| format!("`{}`", s.name))
                    .collect();
                return Err(if known.is_empty() {
                    format!("{option}: the document declares no security scheme")
                } else {
                    format!(
                        "{option}: the document has no security scheme `{name}` (it has {})",
                        known.join(", ")
                    )
                });
            };
            let value = std::env::var(variable)
                .ok()
                .filter(|value| !value.is_empty())
                .map(Secret::new)
                .ok_or_else(|| {
                    format!("{option}: the environment variable {variable} is not set (or empty)")
                })?;
            let credential = match &scheme.kind {
                SchemeKind::Bearer | SchemeKind::OAuth2 | SchemeKind::OpenIdConnect => {
                    Credential::Bearer(value)
                }
                SchemeKind::ApiKey { .. } => Credential::ApiKey(value),
                SchemeKind::Basic => {
                    let Some((user, password)) = value.expose().split_once(':') else {
                        return Err(format!(
                            "{option}: `{name}` is HTTP basic, so {variable} must hold \
                             `user:password` (its value is not shown)"
                        ));
                    };
                    Credential::Basic {
                        user: user.to_owned(),
                        password: Secret::new(password),
                    }
                }
            };
            driver = driver.with_credential(name.clone(), credential);
            given.schemes.push(name.clone());
        }
        Ok((driver, given))
    }

    /// Whether a bearer token is given (directly, or in the variable named or the default
    /// one), without reading it.
    fn gives_bearer(&self) -> bool {
        self.bearer_token.is_some()
            || std::env::var_os(self.bearer_token_env.as_deref().unwrap_or(BEARER_ENV))
                .is_some_and(|value| !value.is_empty())
    }

    /// For a document none of whose operations requires a security scheme (GitHub's own
    /// description declares none), a bearer token the user gave goes with every request as
    /// `Authorization: Bearer`: `api` gains a scheme that every operation requires. Returns
    /// whether it did, so that it can be said.
    pub(crate) fn send_bearer_everywhere(&self, api: &mut Api) -> bool {
        if !api.security_schemes.is_empty() || !self.gives_bearer() {
            return false;
        }
        api.security_schemes.to_mut().push(SecurityScheme {
            name: UNDECLARED_BEARER.into(),
            kind: SchemeKind::Bearer,
        });
        for operation in api.operations.to_mut() {
            operation.security = vec![SecurityRequirement {
                schemes: vec![UNDECLARED_BEARER.into()].into(),
            }]
            .into();
        }
        true
    }

    /// The credentials given that no scheme of the document takes, in words, to warn of:
    /// they are not sent.
    pub(crate) fn unused(&self, api: &Api, given: &Given) -> Vec<String> {
        let takes =
            |kind: fn(&SchemeKind) -> bool| api.security_schemes.iter().any(|s| kind(&s.kind));
        let mut unused = Vec::new();
        if given.bearer
            && !takes(|k| {
                matches!(
                    k,
                    SchemeKind::Bearer | SchemeKind::OAuth2 | SchemeKind::OpenIdConnect
                )
            })
        {
            unused.push("a bearer token");
        }
        if given.api_key && !takes(|k| matches!(k, SchemeKind::ApiKey { .. })) {
            unused.push("an API key");
        }
        if given.basic && !takes(|k| matches!(k, SchemeKind::Basic)) {
            unused.push("a user and password");
        }
        unused.into_iter().map(str::to_owned).collect()
    }

    fn variable(&self, kind: &SchemeKind) -> (&str, &'static str) {
        match kind {
            SchemeKind::Bearer | SchemeKind::OAuth2 | SchemeKind::OpenIdConnect => (
                self.bearer_token_env.as_deref().unwrap_or(BEARER_ENV),
                "--bearer-token-env",
            ),
            SchemeKind::Basic => (
                self.basic_auth_env.as_deref().unwrap_or(BASIC_ENV),
                "--basic-auth-env",
            ),
            SchemeKind::ApiKey { .. } => (
                self.api_key_env.as_deref().unwrap_or(API_KEY_ENV),
                "--api-key-env",
            ),
        }
    }

    /// For each tool whose operation needs a credential it was not given, what to do about
    /// it, in words (the schemes, what each takes, and the variable to set).
    pub(crate) fn missing(&self, api: &Api, given: &Given) -> HashMap<String, String> {
        let has = |scheme: &SecurityScheme| {
            given.schemes.iter().any(|name| *name == *scheme.name)
                || match scheme.kind {
                    SchemeKind::Bearer | SchemeKind::OAuth2 | SchemeKind::OpenIdConnect => {
                        given.bearer
                    }
                    SchemeKind::Basic => given.basic,
                    SchemeKind::ApiKey { .. } => given.api_key,
                }
        };
        let scheme = |name: &str| api.security_schemes.iter().find(|s| *s.name == *name);
        let mut missing = HashMap::new();
        for operation in api.operations.iter() {
            // Anonymous calls allowed: no requirement, or an empty alternative.
            if operation.security.iter().any(|r| r.schemes.is_empty()) {
                continue;
            }
            let satisfied = operation.security.iter().any(|requirement| {
                requirement
                    .schemes
                    .iter()
                    .all(|name| scheme(name).is_some_and(has))
            });
            if satisfied {
                continue;
            }
            let mut ways: Vec<String> = Vec::new();
            for requirement in operation.security.iter() {
                let parts: Vec<String> = requirement
                    .schemes
                    .iter()
                    .filter_map(|name| scheme(name))
                    .filter(|s| !has(s))
                    .map(|s| {
                        let (variable, option) = self.variable(&s.kind);
                        format!(
                            "`{}` takes {}: set {variable} in the environment `mcs serve` \
                             runs in, name another variable with {option}, or give the \
                             scheme its own with --credential-env {}=VAR",
                            s.name,
                            describe(&s.kind),
                            s.name
                        )
                    })
                    .collect();
                if !parts.is_empty() {
                    let way = parts.join(" and ");
                    if !ways.contains(&way) {
                        ways.push(way);
                    }
                }
            }
            if !ways.is_empty() {
                missing.insert(operation.name.to_string(), ways.join("; or "));
            }
        }
        missing
    }
}

/// What a scheme takes, in words.
fn describe(kind: &SchemeKind) -> String {
    match kind {
        SchemeKind::Bearer => "a bearer token".to_owned(),
        SchemeKind::OAuth2 => "an OAuth 2 access token, sent as a bearer token".to_owned(),
        SchemeKind::OpenIdConnect => {
            "an OpenID Connect access token, sent as a bearer token".to_owned()
        }
        SchemeKind::Basic => "a user and password for HTTP basic authentication".to_owned(),
        SchemeKind::ApiKey { location, name } => {
            let place = match location {
                Location::Query => "query parameter",
                Location::Cookie => "cookie",
                Location::Header | Location::Path => "header",
            };
            format!("an API key, sent in the {place} `{name}`")
        }
    }
}

/// The value given directly, else the one in the variable an option names (which must be
/// set), else the one in the default variable if set. An empty value counts as unset: host
/// configurations often carry `"MCS_API_KEY": ""` as a placeholder.
fn direct_or_env(
    direct: Option<&str>,
    named: Option<&str>,
    option: &str,
    default: &str,
) -> Result<Option<Secret>, String> {
    if let Some(value) = direct {
        return Ok(Some(Secret::new(value)));
    }
    let read = |variable: &str| {
        std::env::var(variable)
            .ok()
            .filter(|value| !value.is_empty())
    };
    match named {
        Some(variable) => match read(variable) {
            Some(value) => Ok(Some(Secret::new(value))),
            None => Err(format!(
                "{option} {variable}: the environment variable {variable} is not set (or empty)"
            )),
        },
        None => Ok(read(default).map(Secret::new)),
    }
}
