//! Media types sorted into the families a body is read and sent by: one reading for request
//! bodies (which is sent, and how) and for answers (which is JSON).

/// A media type's family, from its essence (the type and subtype, parameters aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    /// JSON; `0` for `application/json` itself, `1` for `+json` types, `2` for
    /// `application/json-patch+json` (RFC 6902: an array of operations, whatever the
    /// document's schema says).
    Json(u8),
    /// `*/*`: any type, read as JSON unless its schema is binary (a file).
    Any,
    Form,
    Multipart,
    /// `application/xml`, `text/xml` and `+xml` types.
    Xml,
    /// `application/yaml`, `application/x-yaml`, `text/yaml`, `text/x-yaml` and `+yaml`
    /// types: a structured body is sent as JSON text, which is YAML (1.2) as it stands.
    Yaml,
    /// Other `text/*` types.
    Text,
    /// Images, audio, video, fonts, archives, `application/octet-stream`, ...
    Binary,
    /// A well-formed media type of none of these families: sendable when its schema is a
    /// string or binary.
    Other,
    /// Not `type/subtype` at all (`""`, `json`).
    Invalid,
}

pub(crate) fn family(media: &str) -> Family {
    let essence = media
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let Some((kind, subtype)) = essence.split_once('/') else {
        return Family::Invalid;
    };
    if kind.is_empty() || subtype.is_empty() {
        Family::Invalid
    } else if essence == "application/json" {
        Family::Json(0)
    } else if essence == "*/*" {
        Family::Any
    } else if essence == "application/json-patch+json" {
        Family::Json(2)
    } else if subtype.contains("json") && matches!(kind, "application" | "text" | "*") {
        Family::Json(1)
    } else if subtype == "x-www-form-urlencoded" {
        // Under any type: `multipart/x-www-form-urlencoded` is written for the form.
        Family::Form
    } else if subtype == "form-data" {
        // Under any type: Mastodon's description writes `application/form-data`.
        Family::Multipart
    } else if subtype == "xml" || subtype.ends_with("+xml") {
        Family::Xml
    } else if matches!(subtype, "yaml" | "x-yaml") || subtype.ends_with("+yaml") {
        Family::Yaml
    } else if kind == "text" {
        Family::Text
    } else if is_binary(kind, subtype) {
        Family::Binary
    } else {
        Family::Other
    }
}

fn is_binary(kind: &str, subtype: &str) -> bool {
    match kind {
        "image" | "audio" | "video" | "font" => true,
        "application" => {
            matches!(
                subtype,
                "octet-stream"
                    | "*"
                    | "pdf"
                    | "zip"
                    | "gzip"
                    | "x-gzip"
                    | "x-tar"
                    | "x-zip-compressed"
                    | "x-7z-compressed"
                    | "x-binary"
                    | "x-bzip2"
                    | "wasm"
            ) || subtype.starts_with("vnd.")
        }
        _ => false,
    }
}

/// Whether a media type is JSON (`application/json`, a `json` or `+json` subtype, `*/*`).
pub(crate) fn is_json(media: &str) -> bool {
    matches!(family(media), Family::Json(_) | Family::Any)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_types_fall_into_families() {
        assert_eq!(family("application/json; charset=utf-8"), Family::Json(0));
        assert_eq!(family("application/vnd.api+json"), Family::Json(1));
        assert_eq!(family("application/json-patch+json"), Family::Json(2));
        assert_eq!(family("*/*"), Family::Any);
        assert!(is_json("*/*"));
        assert_eq!(family("application/x-www-form-urlencoded"), Family::Form);
        assert_eq!(family("Multipart/Form-Data"), Family::Multipart);
        // Misspelled forms are still forms.
        assert_eq!(family("application/form-data"), Family::Multipart);
        assert_eq!(family("multipart/x-www-form-urlencoded"), Family::Form);
        assert_eq!(family("application/xml; charset=utf-8"), Family::Xml);
        assert_eq!(family("text/xml"), Family::Xml);
        assert_eq!(family("application/atom+xml"), Family::Xml);
        assert_eq!(family("application/vnd.foo+xml"), Family::Xml);
        assert_eq!(family("text/csv"), Family::Text);
        assert_eq!(family("image/png"), Family::Binary);
        assert_eq!(family("application/vnd.ms-excel"), Family::Binary);
        assert_eq!(family("application/jwt"), Family::Other);
        assert_eq!(family("application/x-yaml"), Family::Yaml);
        assert_eq!(family("text/yaml; charset=utf-8"), Family::Yaml);
        assert_eq!(family("application/openapi+yaml"), Family::Yaml);
        assert_eq!(family(""), Family::Invalid);
        assert_eq!(family("json"), Family::Invalid);
        assert_eq!(family("application/"), Family::Invalid);
    }
}
