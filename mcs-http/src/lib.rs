//! The HTTP client set-up that mcs's REST drivers (`mcs-rest`) and LLM clients (`mcs-llm`)
//! share: the TLS crypto provider, and the text of a reqwest error.
//!
//! # TLS
//!
//! reqwest is built with rustls and no provider of its own; mcs installs rustls's `ring`
//! provider as the process default before it builds a client, unless the program installed
//! one first (which is then used). A program that builds its own `reqwest::Client` before
//! mcs has built one, in a build where no other crate turned on reqwest's default TLS, calls
//! [`ensure_provider`] first: reqwest refuses to build a TLS client with no provider.
#![cfg_attr(docsrs, feature(doc_cfg))]

/// Installs the `ring` provider as rustls's process default, unless one is installed.
/// Cheap to call again.
pub fn ensure_provider() {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        // Another thread may install one between the check and here; either is fine.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
}

/// What went wrong, without the URL: reqwest's own text is generic ("error sending
/// request", "error decoding response body"), so the causes (connection refused, reset,
/// timed out) are appended; the URL is dropped because its query may carry an API key.
pub fn describe_error(error: reqwest::Error) -> String {
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

#[cfg(test)]
mod tests {
    #[test]
    fn tls_clients_build_with_the_installed_provider() {
        super::ensure_provider();
        super::ensure_provider();
        assert!(rustls::crypto::CryptoProvider::get_default().is_some());
        let client = reqwest::Client::builder().https_only(true).build();
        assert!(client.is_ok(), "{:?}", client.err());
    }
}
