//! The text of a reqwest error, for the errors of the HTTP clients mcs builds.

/// What went wrong, without the URL: reqwest's own text is generic ("error sending
/// request", "error decoding response body"), so the causes (connection refused, reset,
/// timed out) are appended; the URL is dropped because its query may carry an API key.
pub(crate) fn describe(error: reqwest::Error) -> String {
    let error = error.without_url();
    let mut text = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
