//! What a REST driver is configured with beyond its table: shared by the driver that
//! holds it and the request builder that reads it.

use std::path::PathBuf;
use std::time::Duration;

use super::auth::Credentials;

/// What a driver is configured with, beyond its table.
#[derive(Clone)]
pub(crate) struct Settings {
    pub base_url: Option<String>,
    pub server_variables: Vec<(String, String)>,
    pub credentials: Credentials,
    pub headers: Vec<(String, String)>,
    pub timeout: Duration,
    pub max_response_bytes: usize,
    pub file_root: Option<PathBuf>,
}

/// Headers given with `with_header` often carry credentials of their own (`X-Api-Key`,
/// a pre-built `Authorization`), so only their names are shown, as in `HttpRequest`.
impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let headers: Vec<&str> = self.headers.iter().map(|(name, _)| name.as_str()).collect();
        f.debug_struct("Settings")
            .field("base_url", &self.base_url)
            .field("server_variables", &self.server_variables)
            .field("credentials", &self.credentials)
            .field("headers", &headers)
            .field("timeout", &self.timeout)
            .field("max_response_bytes", &self.max_response_bytes)
            .field("file_root", &self.file_root)
            .finish()
    }
}
