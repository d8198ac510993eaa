//! The TLS crypto provider of the HTTP clients mcs builds.
//!
//! reqwest is built with rustls and no provider of its own; mcs installs rustls's `ring`
//! provider as the process default before it builds a client, unless the program installed
//! one first (which is then used). A program that builds its own `reqwest::Client` before
//! mcs has built one, in a build where no other crate turned on reqwest's default TLS, calls
//! [`ensure_provider`] first: reqwest refuses to build a TLS client with no provider.

/// Installs the `ring` provider as rustls's process default, unless one is installed.
/// Cheap to call again.
pub fn ensure_provider() {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        // Another thread may install one between the check and here; either is fine.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
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
