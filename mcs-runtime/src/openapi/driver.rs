//! [`OpenApiDriver`]: a document read at run time, executed by the same [`RestDriver`] a
//! generated driver wraps.

use std::path::Path;

use crate::rest::RestDriver;

use super::error::OpenApiError;
use super::options::{Document, ReadOptions};
use super::read::{read_file, read_str};

/// A REST driver for a document a program only gets while it runs (a user-supplied file or
/// URL, a plugin directory): the reference SDK's only mode.
///
/// It is a [`RestDriver`] like the one inside every generated driver — the same rows, the
/// same executor, the same builder methods — with arguments validated by the operations'
/// schemas alone, as there are no generated types.
///
/// ```no_run
/// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
/// use mcs_runtime::openapi::OpenApiDriver;
///
/// let driver = OpenApiDriver::from_file("specs/petstore.yaml")?.with_api_key("secret");
/// # Ok(()) }
/// ```
pub type OpenApiDriver = RestDriver;

impl RestDriver {
    /// A driver for the document at `path` (JSON or YAML), read strictly: an operation the
    /// reader cannot support fails the whole read with its JSON pointer.
    pub fn from_file(path: impl AsRef<Path>) -> Result<RestDriver, OpenApiError> {
        Self::from_file_with(path, &ReadOptions::default())
    }

    /// A driver for the document at `path`, read with `options` (lenient reading, tag
    /// filters, ...). To see what lenient reading skipped, call [`read_file`] and
    /// [`from_document`](Self::from_document).
    pub fn from_file_with(
        path: impl AsRef<Path>,
        options: &ReadOptions,
    ) -> Result<RestDriver, OpenApiError> {
        Ok(Self::from_document(read_file(path.as_ref(), options)?))
    }

    /// A driver for a document given as text; `source` names it in messages.
    pub fn from_document_text(
        text: &str,
        source: &str,
        options: &ReadOptions,
    ) -> Result<RestDriver, OpenApiError> {
        Ok(Self::from_document(read_str(text, source, None, options)?))
    }

    /// A driver for a document already read.
    pub fn from_document(document: Document) -> RestDriver {
        RestDriver::from_api(document.api)
    }

    /// A driver for the document at `url`, fetched with a 30-second timeout and a 64 MiB
    /// cap. A relative server URL in the document is taken relative to `url`.
    #[cfg(feature = "http")]
    pub async fn from_url(url: &str, options: &ReadOptions) -> Result<RestDriver, OpenApiError> {
        use crate::rest::{HttpRequest, HttpTransport, Method, ReqwestTransport};

        let request = HttpRequest {
            method: Method::Get,
            url: url.to_owned(),
            headers: vec![(
                "Accept".to_owned(),
                "application/json, application/yaml;q=0.9, */*;q=0.5".to_owned(),
            )],
            body: None,
            timeout: std::time::Duration::from_secs(30),
            max_response_bytes: 64 * 1024 * 1024,
        };
        let source = request.url_without_query().to_owned();
        let failed = |message: String| OpenApiError::new(&source, "", message);
        let response = ReqwestTransport::default()
            .send(request)
            .await
            .map_err(|e| failed(format!("cannot fetch the document: {e}")))?;
        if !(200..300).contains(&response.status) {
            return Err(failed(format!(
                "fetching the document answered {}",
                response.status
            )));
        }
        let text = String::from_utf8(response.body)
            .map_err(|_| failed("the document is not UTF-8 text".to_owned()))?;
        let document = read_str(&text, &source, None, options)?;
        let relative_server = document
            .api
            .servers
            .first()
            .map(|server| server.url.to_string())
            .filter(|server| !server.contains("://"));
        let driver = Self::from_document(document);
        Ok(match relative_server {
            Some(path) => driver.with_base_url(join_origin(&source, &path)),
            None => driver,
        })
    }
}

/// `path` (a relative server URL such as `/api/v1`) against the origin of `url`.
#[cfg(feature = "http")]
fn join_origin(url: &str, path: &str) -> String {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    let origin_end = url[after_scheme..]
        .find('/')
        .map_or(url.len(), |i| after_scheme + i);
    let origin = &url[..origin_end];
    if path.starts_with('/') {
        format!("{origin}{path}")
    } else {
        let directory = url
            .rfind('/')
            .filter(|&i| i >= origin_end)
            .map_or(origin, |i| &url[..i]);
        format!("{directory}/{path}")
    }
}

#[cfg(all(test, feature = "http"))]
mod tests {
    use super::join_origin;

    #[test]
    fn relative_servers_resolve_against_the_document_url() {
        let doc = "https://api.example.com/docs/openapi.json";
        assert_eq!(join_origin(doc, "/v1"), "https://api.example.com/v1");
        assert_eq!(join_origin(doc, "v2"), "https://api.example.com/docs/v2");
        assert_eq!(
            join_origin("http://127.0.0.1:9/spec", "/"),
            "http://127.0.0.1:9/"
        );
    }
}
