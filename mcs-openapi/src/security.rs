//! Security schemes and the requirements operations make of them.

use std::collections::HashSet;

use serde_json::Value;

use super::error::OpenApiError;
use super::reader::Reader;
use super::source::Loc;
use mcs_rest::{Location, SchemeKind, SecurityRequirement, SecurityScheme};

/// The document's security schemes, in document order: each one the driver can satisfy,
/// or why it cannot.
pub(crate) struct Schemes {
    list: Vec<(String, Result<SchemeKind, String>)>,
}

impl Schemes {
    /// Where the API-key scheme `name` puts its key (`query`, `key`), if it is one.
    pub(crate) fn api_key_place(&self, name: &str) -> Option<(Location, &str)> {
        self.list.iter().find_map(|(scheme, kind)| match kind {
            Ok(SchemeKind::ApiKey {
                location,
                name: key,
            }) if scheme == name => Some((*location, key.as_ref())),
            _ => None,
        })
    }

    /// The schemes of `components.securitySchemes` (OpenAPI 3) or `securityDefinitions`
    /// (Swagger 2.0).
    pub(crate) fn read(reader: &Reader<'_>) -> Schemes {
        let root = reader.sources.root();
        let (definitions, loc) = if reader.is_swagger() {
            (
                root.get("securityDefinitions"),
                Loc {
                    doc: 0,
                    pointer: "/securityDefinitions".into(),
                },
            )
        } else {
            (
                root.get("components")
                    .and_then(|c| c.get("securitySchemes")),
                Loc {
                    doc: 0,
                    pointer: "/components/securitySchemes".into(),
                },
            )
        };
        let mut list = Vec::new();
        if let Some(definitions) = definitions.and_then(Value::as_object) {
            for (name, definition) in definitions {
                let kind = match reader.deref(definition, &loc.child(name)) {
                    Ok((_, value)) => kind(value),
                    Err(error) => Err(error.message),
                };
                list.push((name.clone(), kind));
            }
        }
        Schemes { list }
    }

    /// The alternatives of `security` (the operation's, else the document's), keeping
    /// those whose every scheme is supported. An empty list needs no credentials; a list
    /// whose every alternative needs an unsupported scheme makes the operation
    /// unsupported.
    pub(crate) fn requirements(
        &self,
        reader: &Reader<'_>,
        security: Option<(&Value, Loc)>,
    ) -> Result<Vec<SecurityRequirement>, OpenApiError> {
        let Some((security, loc)) = security else {
            return Ok(Vec::new());
        };
        let Some(alternatives) = security.as_array() else {
            return Err(reader.sources.error(&loc, "`security` is not a list"));
        };
        let mut kept = Vec::new();
        let mut first_problem = None;
        for (i, alternative) in alternatives.iter().enumerate() {
            let Some(schemes) = alternative.as_object() else {
                return Err(reader
                    .sources
                    .error(&loc.index(i), "a security requirement is not an object"));
            };
            let mut names = Vec::new();
            let mut problem = None;
            for name in schemes.keys() {
                match self.list.iter().find(|(known, _)| known == name) {
                    Some((_, Ok(_))) => names.push(name.clone().into()),
                    Some((_, Err(why))) => {
                        problem = Some((loc.index(i), format!("security scheme `{name}`: {why}")))
                    }
                    None => {
                        problem = Some((
                            loc.index(i),
                            format!("security scheme `{name}` is not defined"),
                        ))
                    }
                }
            }
            match problem {
                Some(problem) => {
                    first_problem.get_or_insert(problem);
                }
                None => kept.push(SecurityRequirement {
                    schemes: names.into(),
                }),
            }
        }
        match first_problem {
            Some((at, why)) if kept.is_empty() => Err(reader.sources.error(&at, why)),
            _ => Ok(kept),
        }
    }

    /// The rows of the schemes in `used`, in document order.
    pub(crate) fn rows(&self, used: &HashSet<String>) -> Vec<SecurityScheme> {
        self.list
            .iter()
            .filter(|(name, _)| used.contains(name))
            .filter_map(|(name, kind)| {
                Some(SecurityScheme {
                    name: name.clone().into(),
                    kind: kind.as_ref().ok()?.clone(),
                })
            })
            .collect()
    }
}

/// What a scheme definition asks for, or why the driver cannot provide it.
fn kind(definition: &Value) -> Result<SchemeKind, String> {
    let kind = definition.get("type").and_then(Value::as_str).unwrap_or("");
    match kind {
        "http" => {
            let scheme = definition
                .get("scheme")
                .and_then(Value::as_str)
                .unwrap_or("");
            if scheme.eq_ignore_ascii_case("bearer") {
                Ok(SchemeKind::Bearer)
            } else if scheme.eq_ignore_ascii_case("basic") {
                Ok(SchemeKind::Basic)
            } else {
                Err(format!(
                    "HTTP authentication scheme `{scheme}` is not supported"
                ))
            }
        }
        "basic" => Ok(SchemeKind::Basic),
        "apiKey" => {
            let location = match definition.get("in").and_then(Value::as_str) {
                Some("header") => Location::Header,
                Some("query") => Location::Query,
                Some("cookie") => Location::Cookie,
                other => {
                    return Err(format!(
                        "API key location `{}` is not supported",
                        other.unwrap_or("")
                    ));
                }
            };
            match definition.get("name").and_then(Value::as_str) {
                Some(name) if !name.is_empty() => Ok(SchemeKind::ApiKey {
                    location,
                    name: name.to_owned().into(),
                }),
                _ => Err("the API key has no `name`".into()),
            }
        }
        "oauth2" => Ok(SchemeKind::OAuth2),
        "openIdConnect" => Ok(SchemeKind::OpenIdConnect),
        other => Err(format!("type `{other}` is not supported")),
    }
}
