//! A document read at run time becomes a [`RestDriver`] — the same rows, executor and builder
//! methods a generated driver wraps — with [`Document::into_driver`]; [`fetch`] reads one from
//! a URL.

use mcs_rest::RestDriver;

#[cfg(feature = "http")]
use super::error::OpenApiError;
use super::options::Document;
#[cfg(feature = "http")]
use super::options::ReadOptions;
#[cfg(feature = "http")]
use super::source::Sources;

impl Document {
    /// A REST driver for this document's operations, validating arguments by the operations'
    /// schemas alone (there are no generated types). For a document a program only gets
    /// while it runs — a user-supplied file or URL, a plugin directory: the reference SDK's
    /// only mode.
    ///
    /// ```no_run
    /// # fn demo() -> Result<(), Box<dyn std::error::Error>> {
    /// use mcs_openapi::{ReadOptions, read_file};
    ///
    /// let driver = read_file("specs/petstore.yaml", &ReadOptions::default())?
    ///     .into_driver()
    ///     .with_api_key("secret");
    /// # Ok(()) }
    /// ```
    pub fn into_driver(self) -> RestDriver {
        RestDriver::from_api(self.api)
    }
}

/// The document at `url`, fetched with a 30-second timeout and a 64 MiB cap, and read with
/// `options`. The files its `$ref`s name (`./schemas/pet.yaml`,
/// `https://example.com/common.json#/Error`) are fetched too, resolved against the URL of the
/// file that names them, over http(s) only: a fetched document never makes this process
/// read a file of its own machine. At most 512 files, each under the same limits. A
/// relative server URL in the document is made absolute against `url`, so that the driver
/// of the document sends its requests where the document came from.
#[cfg(feature = "http")]
pub async fn fetch(url: &str, options: &ReadOptions) -> Result<Document, OpenApiError> {
    let source = mcs_rest::url_to_show(url);
    let text = fetch_text(url)
        .await
        .map_err(|why| OpenApiError::new(&source, "", why))?;
    let mut sources = Sources::load_remote(&text, &source, url)?;
    loop {
        let wanted = sources.take_wanted();
        if wanted.is_empty() {
            break;
        }
        for file in wanted {
            let text = fetch_text(&file).await;
            sources.add_fetched(&file, &mcs_rest::url_to_show(&file), text);
        }
    }
    let mut document = super::document::read(&sources, options)?;
    let servers = document.api.servers.to_mut();
    if let Some(server) = servers.first_mut()
        && !server.url.contains("://")
    {
        server.url = join_origin(&source, &server.url).into();
    }
    Ok(document)
}

/// The text at `url`, or why there is none (in the words messages use).
#[cfg(feature = "http")]
async fn fetch_text(url: &str) -> Result<String, String> {
    use mcs_rest::{HttpRequest, HttpTransport, Method, ReqwestTransport};

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
    let response = ReqwestTransport::default()
        .send(request)
        .await
        .map_err(|e| format!("cannot fetch the document: {e}"))?;
    if !(200..300).contains(&response.status) {
        return Err(format!(
            "fetching the document answered {}",
            response.status
        ));
    }
    String::from_utf8(response.body).map_err(|_| "the document is not UTF-8 text".to_owned())
}

/// `path` (a relative server URL such as `/api/v1`) resolved against `url`, the document's
/// (as its references are); `path` as it is when the two do not make an http(s) URL.
#[cfg(feature = "http")]
fn join_origin(url: &str, path: &str) -> String {
    super::source::remote_reference(url, path).unwrap_or_else(|_| path.to_owned())
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
