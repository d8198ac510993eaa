//! The seam between building a request and sending it: [`HttpTransport`]. Tests and users
//! swap it (a mock, a client with their own middleware); [`ReqwestTransport`] is the default.

use std::fmt;
use std::time::Duration;

use mcs_core::BoxFuture;

use super::table::Method;

/// A request ready to send. Credentials may be in its headers and URL, so its `Debug` shows
/// neither header values nor the query string.
#[derive(Clone, PartialEq, Eq)]
pub struct HttpRequest {
    /// The method.
    pub method: Method,
    /// The whole URL, query string included.
    pub url: String,
    /// Header names and values, in the order they are sent.
    pub headers: Vec<(String, String)>,
    /// The body, if any.
    pub body: Option<Vec<u8>>,
    /// How long the whole exchange may take.
    pub timeout: Duration,
    /// The largest response body accepted; a transport stops reading past it.
    pub max_response_bytes: usize,
}

/// `url` as it may be shown in a message or a log: without what may carry a credential,
/// its query (`?…` stands for it), fragment and user information.
///
/// ```
/// assert_eq!(
///     mcs_rest::url_to_show("https://user:pw@api.example.com/v1/items?api_key=s3cret"),
///     "https://api.example.com/v1/items?…"
/// );
/// ```
pub fn url_to_show(url: &str) -> String {
    let (url, had_query) = match url.find(['?', '#']) {
        Some(at) => (&url[..at], url[at..].starts_with('?')),
        None => (url, false),
    };
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let host_end = rest.find('/').unwrap_or(rest.len());
    let rest = match rest[..host_end].rfind('@') {
        Some(at) => &rest[at + 1..],
        None => rest,
    };
    let mut shown = if scheme.is_empty() {
        rest.to_owned()
    } else {
        format!("{scheme}://{rest}")
    };
    if had_query {
        shown.push_str("?…");
    }
    shown
}

impl HttpRequest {
    /// The URL without its query string, safe to show (API keys may travel in the query).
    pub fn url_without_query(&self) -> &str {
        self.url.split(['?', '#']).next().unwrap_or_default()
    }

    /// The value of the first header called `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

impl fmt::Debug for HttpRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.headers.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("HttpRequest")
            .field("method", &self.method)
            .field("url", &url_to_show(&self.url))
            .field("headers", &names)
            .field("body_bytes", &self.body.as_ref().map(Vec::len))
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

/// What came back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// Header names (lower case) and values.
    pub headers: Vec<(String, String)>,
    /// The body, at most the request's `max_response_bytes`: a larger successful answer
    /// is a [`TransportError::TooLarge`], a larger error answer is cut at the limit.
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// The value of the first header called `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Why a request got no response.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TransportError {
    /// The exchange took longer than the request's timeout.
    #[error("the request timed out after {0:?}")]
    Timeout(Duration),
    /// No connection could be made.
    #[error("could not connect: {0}")]
    Connect(String),
    /// The response body was larger than allowed.
    #[error("the response was larger than the limit of {limit} bytes")]
    TooLarge {
        /// The limit that was exceeded.
        limit: usize,
    },
    /// Anything else, described.
    #[error("{0}")]
    Other(String),
}

/// Sends requests. Implement it to route a REST driver's calls through your own client, a
/// proxy or a test double.
pub trait HttpTransport: Send + Sync + fmt::Debug {
    /// Sends `request` and reads the whole response (up to its size limit).
    fn send(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, TransportError>>;
}

#[cfg(feature = "http")]
pub use reqwest_transport::ReqwestTransport;

#[cfg(feature = "http")]
mod reqwest_transport {
    use super::{
        BoxFuture, HttpRequest, HttpResponse, HttpTransport, Method, TransportError, url_to_show,
    };

    /// The default transport: a [`reqwest::Client`] (connection pooling, TLS through rustls)
    /// that follows redirects only within the origin of the request.
    #[derive(Clone, Debug)]
    pub struct ReqwestTransport {
        client: reqwest::Client,
    }

    /// The most redirects followed for one request, as reqwest's own default.
    const MAX_REDIRECTS: usize = 10;

    impl Default for ReqwestTransport {
        /// reqwest's default policy follows a redirect to any host and strips only
        /// `Authorization` and `Cookie` on the way: an API key in a header of its own
        /// (`X-API-Key`) would go to whatever host the `Location` names. Redirects within
        /// the request's origin are followed; any other comes back as the 3xx answer.
        fn default() -> Self {
            let policy = reqwest::redirect::Policy::custom(|attempt| {
                let same_origin = attempt
                    .previous()
                    .first()
                    .is_some_and(|first| first.origin() == attempt.url().origin());
                if attempt.previous().len() > MAX_REDIRECTS {
                    attempt.error("too many redirects")
                } else if same_origin {
                    attempt.follow()
                } else {
                    attempt.stop()
                }
            });
            mcs_http::ensure_provider();
            let client = reqwest::Client::builder()
                .redirect(policy)
                .build()
                .unwrap_or_default();
            ReqwestTransport { client }
        }
    }

    impl ReqwestTransport {
        /// A transport over a client of your own (proxies, root certificates, middleware);
        /// its redirect policy is used as it is.
        pub fn new(client: reqwest::Client) -> Self {
            ReqwestTransport { client }
        }
    }

    fn method(method: Method) -> reqwest::Method {
        match method {
            Method::Get => reqwest::Method::GET,
            Method::Put => reqwest::Method::PUT,
            Method::Post => reqwest::Method::POST,
            Method::Delete => reqwest::Method::DELETE,
            Method::Patch => reqwest::Method::PATCH,
            Method::Head => reqwest::Method::HEAD,
            Method::Options => reqwest::Method::OPTIONS,
            Method::Trace => reqwest::Method::TRACE,
        }
    }

    /// The text names the causes and not the URL (see `reqwest_error::describe`).
    fn classify(error: reqwest::Error, request: &HttpRequest) -> TransportError {
        if error.is_timeout() {
            return TransportError::Timeout(request.timeout);
        }
        let connect = error.is_connect();
        let text = mcs_http::describe_error(error);
        if connect {
            TransportError::Connect(format!("{} ({text})", url_to_show(&request.url)))
        } else {
            TransportError::Other(text)
        }
    }

    impl HttpTransport for ReqwestTransport {
        fn send(
            &self,
            request: HttpRequest,
        ) -> BoxFuture<'_, Result<HttpResponse, TransportError>> {
            Box::pin(async move {
                let mut builder = self
                    .client
                    .request(method(request.method), request.url.as_str())
                    .timeout(request.timeout);
                for (name, value) in &request.headers {
                    builder = builder.header(name.as_str(), value.as_str());
                }
                match &request.body {
                    Some(body) => builder = builder.body(body.clone()),
                    // A POST, PUT or PATCH says its length even when it sends nothing:
                    // Google's front end answers 411 Length Required otherwise.
                    None if matches!(
                        request.method,
                        Method::Post | Method::Put | Method::Patch
                    ) =>
                    {
                        builder = builder.header(reqwest::header::CONTENT_LENGTH, "0");
                    }
                    None => {}
                }
                let mut response = builder.send().await.map_err(|e| classify(e, &request))?;
                let status = response.status().as_u16();
                let headers = response
                    .headers()
                    .iter()
                    .map(|(n, v)| {
                        (
                            n.as_str().to_owned(),
                            String::from_utf8_lossy(v.as_bytes()).into_owned(),
                        )
                    })
                    .collect();
                let limit = request.max_response_bytes;
                // An error answer is cut at the limit rather than refused: its status and
                // the start of its body are what the caller needs, not the whole page.
                let success = response.status().is_success();
                if success
                    && response
                        .content_length()
                        .is_some_and(|length| length > limit as u64)
                {
                    return Err(TransportError::TooLarge { limit });
                }
                let mut body = Vec::new();
                // Read chunk by chunk so that a huge answer is refused at the limit instead of
                // being buffered whole.
                while let Some(chunk) = response.chunk().await.map_err(|e| classify(e, &request))? {
                    if body.len() + chunk.len() > limit {
                        if success {
                            return Err(TransportError::TooLarge { limit });
                        }
                        let room = limit - body.len();
                        body.extend_from_slice(&chunk[..room]);
                        break;
                    }
                    body.extend_from_slice(&chunk);
                }
                Ok(HttpResponse {
                    status,
                    headers,
                    body,
                })
            })
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_redirect_is_shown_without_its_query_or_user() {
        assert_eq!(
            super::url_to_show("http://localhost:9010/stolen?q=cats&api_key=SECRET"),
            "http://localhost:9010/stolen?…"
        );
        assert_eq!(
            super::url_to_show("https://user:pw@example.com/a#frag"),
            "https://example.com/a"
        );
        assert_eq!(super::url_to_show("/relative/path?x=1"), "/relative/path?…");
        assert_eq!(
            super::url_to_show("https://a@b.example/x@y"),
            "https://b.example/x@y"
        );
    }
}
