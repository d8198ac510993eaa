//! From an [`HttpResponse`] to a tool result: JSON parsed, text returned, binary summarised,
//! and a failing status turned into an error the model can act on.

use serde_json::Value;

use mcs_core::ToolError;

use super::charset;
use super::table::Operation;
use super::transport::{HttpResponse, TransportError};

/// How much of an error body goes into the error message.
const ERROR_EXCERPT_CHARS: usize = 600;

/// The result of a response: the body as JSON, text or a summary; an error for non-2xx.
pub(crate) fn interpret(operation: &Operation, response: HttpResponse) -> Result<Value, ToolError> {
    let content_type = response
        .header("content-type")
        .unwrap_or_default()
        .to_ascii_lowercase();
    // Read in UTF-8 whatever charset the answer is in (`charset=iso-8859-1`, an XML
    // declaration, a byte-order mark).
    let response = HttpResponse {
        body: charset::to_utf8(response.body, &content_type),
        ..response
    };
    if !(200..300).contains(&response.status) {
        let excerpt = excerpt(&response.body, &content_type);
        let reason = reason(response.status);
        let mut message = format!(
            "the API answered {} {reason} to {} {}",
            response.status, operation.method, operation.path
        );
        // A redirect the transport did not follow (another origin): say where it pointed,
        // so the caller can decide whether to trust that host.
        // Its query and user information are left out: a redirect that keeps the query
        // (`http://` to `https://`) would show an API key sent in it.
        if let (300..=399, Some(location)) = (response.status, response.header("location")) {
            message.push_str(&format!(
                " (it points to `{}`, which was not followed)",
                super::transport::url_to_show(location)
            ));
        }
        if !excerpt.is_empty() {
            message.push_str(": ");
            message.push_str(&excerpt);
        }
        return Err(ToolError::execution(operation.name.as_ref(), message));
    }
    if response.body.is_empty() {
        return Ok(Value::Null);
    }
    let json_like = content_type.contains("json") || content_type.is_empty();
    if json_like && let Ok(value) = serde_json::from_slice::<Value>(&response.body) {
        return Ok(value);
    }
    if content_type.contains("json") {
        return Err(ToolError::execution(
            operation.name.as_ref(),
            format!(
                "the API answered with invalid JSON ({} bytes): {}",
                response.body.len(),
                excerpt(&response.body, "text/plain")
            ),
        ));
    }
    match std::str::from_utf8(&response.body) {
        Ok(text) if charset::is_text(&content_type) || content_type.is_empty() => {
            Ok(Value::String(text.to_owned()))
        }
        _ => Ok(Value::String(format!(
            "(binary response: {} bytes of {})",
            response.body.len(),
            if content_type.is_empty() {
                "unknown type"
            } else {
                content_type.as_str()
            }
        ))),
    }
}

/// A bounded, single-line excerpt of a body, for error messages.
fn excerpt(body: &[u8], content_type: &str) -> String {
    if body.is_empty() {
        return String::new();
    }
    let Ok(text) = std::str::from_utf8(body) else {
        return format!("({} bytes of {content_type})", body.len());
    };
    let compact: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match compact.char_indices().nth(ERROR_EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}… ({} bytes in all)", &compact[..cut], body.len()),
        None => compact,
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        413 => "Payload Too Large",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        // By class rather than by overlapping ranges, which clippy refuses.
        _ => match status / 100 {
            3 => "(redirect)",
            4 => "(client error)",
            _ => "(server error)",
        },
    }
}

/// A transport failure as a tool error.
pub(crate) fn transport_error(operation: &Operation, error: TransportError) -> ToolError {
    let name = operation.name.as_ref();
    ToolError::execution_source(name, error)
}
