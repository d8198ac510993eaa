//! What an operation answers: the statuses its `responses` document and the JSON schema of
//! each, read only when asked ([`ReadOptions::responses`]) — a model never sees them, but a
//! generator of typed Rust clients needs them.
//!
//! [`ReadOptions::responses`]: super::ReadOptions::responses

use serde_json::Value;

use super::media::is_json;
use super::operation::Candidate;
use super::options::Answer;
use super::reader::Reader;
use super::schema::SchemaBuilder;
use super::source::Loc;

/// The answers of one operation. A response that cannot be read (a broken reference, a
/// schema the reader refuses) is kept with no schema: a typed client falls back to an
/// untyped value for it rather than losing the operation. One whose status is not a status
/// (neither a code from 100 to 599, a class such as `4XX`, nor `default`: `2-00`, `OK`) is
/// left out: no answer can come with it.
pub(crate) fn read(
    reader: &Reader<'_>,
    builder: &mut SchemaBuilder<'_>,
    candidate: &Candidate<'_>,
) -> Vec<Answer> {
    let Some(Value::Object(responses)) = candidate.op.get("responses") else {
        return Vec::new();
    };
    let responses_loc = candidate.op_loc.child("responses");
    let mut answers = Vec::new();
    for (status, response) in responses {
        // The answer with no body known yet.
        let answer = Answer {
            status: status.clone(),
            media_type: None,
            schema: None,
        };
        if answer.class().is_none() && status != "default" {
            continue;
        }
        let loc = responses_loc.child(status);
        let Ok((loc, response)) = reader.deref(response, &loc) else {
            answers.push(answer);
            continue;
        };
        let (media_type, schema) = if reader.is_swagger() {
            swagger_body(reader, candidate, response, &loc)
        } else {
            body(response, &loc)
        };
        let schema = schema.and_then(|(schema, loc)| {
            let converted = builder
                .convert(schema, &loc)
                .and_then(|converted| builder.complete().map(|()| converted));
            if converted.is_err() {
                builder.abandon();
            }
            converted.ok()
        });
        answers.push(Answer {
            media_type,
            schema,
            ..answer
        });
    }
    answers
}

/// An OpenAPI 3 response's body: its JSON media type and schema if it has one, else its
/// first media type.
fn body<'a>(response: &'a Value, loc: &Loc) -> (Option<String>, Option<(&'a Value, Loc)>) {
    let Some(Value::Object(content)) = response.get("content") else {
        return (None, None);
    };
    let content_loc = loc.child("content");
    let json = content.iter().find(|(media, _)| is_json(media));
    match json.or_else(|| content.iter().next()) {
        Some((media, entry)) => {
            let schema = is_json(media)
                .then(|| entry.get("schema"))
                .flatten()
                .map(|schema| (schema, content_loc.child(media).child("schema")));
            (Some(media.clone()), schema)
        }
        None => (None, None),
    }
}

/// A Swagger 2 response's body: its `schema`, sent as the operation's (or the document's)
/// first JSON `produces` type, or JSON when it lists none.
fn swagger_body<'a>(
    reader: &Reader<'a>,
    candidate: &Candidate<'a>,
    response: &'a Value,
    loc: &Loc,
) -> (Option<String>, Option<(&'a Value, Loc)>) {
    let Some(schema) = response.get("schema") else {
        return (None, None);
    };
    let produces = candidate
        .op
        .get("produces")
        .or_else(|| reader.sources.root().get("produces"))
        .and_then(Value::as_array);
    let media: Vec<&str> = produces
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    match media.iter().find(|media| is_json(media)) {
        Some(json) => (
            Some((*json).to_owned()),
            Some((schema, loc.child("schema"))),
        ),
        None if media.is_empty() => (
            Some("application/json".to_owned()),
            Some((schema, loc.child("schema"))),
        ),
        None => (media.first().map(|m| (*m).to_owned()), None),
    }
}

#[cfg(test)]
mod tests {
    use super::{Answer, is_json};

    #[test]
    fn statuses_are_codes_classes_or_default_and_nothing_else() {
        let answer = |status: &str| Answer {
            status: status.to_owned(),
            media_type: None,
            schema: None,
        };
        for (status, code, class, success) in [
            ("200", Some(200), Some(2), true),
            ("204", Some(204), Some(2), true),
            ("404", Some(404), Some(4), false),
            ("2XX", None, Some(2), true),
            ("5xx", None, Some(5), false),
            ("default", None, None, false),
            ("2-00", None, None, false),
            ("20", None, None, false),
            ("2000", None, None, false),
            ("600", None, None, false),
            ("6XX", None, None, false),
            ("OK", None, None, false),
            ("+200", None, None, false),
            ("", None, None, false),
        ] {
            let answer = answer(status);
            assert_eq!(answer.code(), code, "{status}");
            assert_eq!(answer.class(), class, "{status}");
            assert_eq!(answer.is_success(), success, "{status}");
        }
    }

    #[test]
    fn json_media_types_are_recognised() {
        assert!(is_json("application/json"));
        assert!(is_json("application/json; charset=utf-8"));
        assert!(is_json("application/vnd.github.v3+json"));
        assert!(is_json("*/*"));
        assert!(!is_json("text/plain"));
        assert!(!is_json("application/xml"));
        assert!(!is_json(""));
    }
}
