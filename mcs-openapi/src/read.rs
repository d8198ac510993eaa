//! The two ways in: a file (with the files its references name) or a text.

use std::path::Path;

use super::document;
use super::error::OpenApiError;
use super::options::{Document, ReadOptions};
use super::source;

/// Reads the document at `path`; JSON or YAML by its extension, else by its first
/// character. References to other files are resolved from the directory of the file
/// that makes them.
pub fn read_file(path: impl AsRef<Path>, options: &ReadOptions) -> Result<Document, OpenApiError> {
    let path = path.as_ref();
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|error| OpenApiError::new(&name, "", format!("cannot read: {error}")))?;
    let dir = path.parent().map(|dir| {
        if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        }
    });
    let sources = source::Sources::load(&text, &name, Some(path), dir)?;
    document::read(&sources, options)
}

/// Reads a document from `text`. `source` names it in messages (and, by its extension,
/// says whether it is JSON or YAML); `base_dir` is where references to other files are
/// resolved from (`None`: such references are errors).
pub fn read_str(
    text: &str,
    source: &str,
    base_dir: Option<&Path>,
    options: &ReadOptions,
) -> Result<Document, OpenApiError> {
    let sources = source::Sources::load(text, source, None, base_dir)?;
    document::read(&sources, options)
}
