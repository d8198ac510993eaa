//! What every part of the reader shares: the loaded files, the options, the dialect.

use serde_json::Value;

use super::error::OpenApiError;
use super::options::ReadOptions;
use super::source::{Loc, Sources, ref_of};

/// The dialect of a document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Version {
    /// Swagger 2.0.
    Swagger2,
    /// OpenAPI 3.0.x.
    OpenApi30,
    /// OpenAPI 3.1.x (and 3.2.x, read the same way).
    OpenApi31,
}

/// What every part of the reader needs: the files, the options, the dialect.
pub(crate) struct Reader<'a> {
    pub sources: &'a Sources,
    pub options: &'a ReadOptions,
    pub version: Version,
}

impl<'a> Reader<'a> {
    /// Whether the document is Swagger 2.0.
    pub(crate) fn is_swagger(&self) -> bool {
        self.version == Version::Swagger2
    }

    /// Whether keywords next to a schema's `$ref` count (OpenAPI 3.1: full JSON Schema).
    pub(crate) fn ref_siblings_apply(&self) -> bool {
        self.version == Version::OpenApi31
    }

    /// `value` (found at `loc`) with its reference, if it is one, followed to the end.
    pub(crate) fn deref(
        &self,
        value: &'a Value,
        loc: &Loc,
    ) -> Result<(Loc, &'a Value), OpenApiError> {
        let Some(reference) = ref_of(value) else {
            return Ok((loc.clone(), value));
        };
        let target = self
            .sources
            .follow(&self.sources.resolve(reference, loc)?)?;
        match self.sources.get(&target) {
            Some(value) => Ok((target, value)),
            None => Err(self
                .sources
                .error(loc, format!("`{reference}` points at nothing"))),
        }
    }
}
