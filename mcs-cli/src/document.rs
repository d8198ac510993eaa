//! The document every command starts from: a file or a URL, and what to read of it.

use std::path::PathBuf;

use clap::Args;
use mcs::openapi::{self, Document, ReadOptions};

/// The options every command takes.
#[derive(Args, Clone, Debug)]
#[command(next_help_heading = "The document")]
pub(crate) struct DocumentArgs {
    /// The OpenAPI document (3.0, 3.1 or Swagger 2.0, JSON or YAML): a file, or an
    /// http(s):// URL.
    #[arg(value_name = "SPEC")]
    pub(crate) spec: String,
    /// Keep only operations with this tag (repeatable: any of the tags).
    #[arg(long = "tag", value_name = "TAG")]
    pub(crate) tags: Vec<String>,
    /// Leave out this operation, by operationId or tool name (repeatable).
    #[arg(long = "exclude", value_name = "OPERATION")]
    pub(crate) excluded: Vec<String>,
    /// Skip operations that cannot be supported (each is reported on stderr) instead of
    /// failing.
    #[arg(long)]
    pub(crate) lenient: bool,
    /// Keep `example`/`examples` in the schemas shown to models (dropped by default: they
    /// cost context).
    #[arg(long)]
    pub(crate) keep_examples: bool,
}

/// Where a document is.
pub(crate) enum Spec {
    File(PathBuf),
    Url(String),
}

impl DocumentArgs {
    pub(crate) fn location(&self) -> Spec {
        let lower = self.spec.to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            Spec::Url(self.spec.clone())
        } else {
            Spec::File(PathBuf::from(&self.spec))
        }
    }

    pub(crate) fn options(&self) -> ReadOptions {
        ReadOptions::default()
            .include_tags(self.tags.iter().cloned())
            .exclude_operations(self.excluded.iter().cloned())
            .lenient(self.lenient)
            .keep_examples(self.keep_examples)
    }

    /// The document's rows, or an error that names the file (or URL) and the JSON pointer;
    /// skipped operations are reported on stderr.
    pub(crate) async fn read(&self) -> Result<Document, String> {
        let options = self.options();
        let document = match self.location() {
            Spec::File(path) => openapi::read_file(&path, &options),
            Spec::Url(url) => openapi::fetch(&url, &options).await,
        }
        .map_err(|error| self.explain(&error))?;
        if !document.unknown_exclusions.is_empty() {
            let names: Vec<String> = document
                .unknown_exclusions
                .iter()
                .map(|name| format!("`{name}`"))
                .collect();
            return Err(format!(
                "{}: --exclude {}: no operation has this operationId or tool name (`mcs tools \
                 {}` lists them)",
                self.spec,
                names.join(", "),
                self.spec
            ));
        }
        for tag in &document.unknown_tags {
            eprintln!("mcs: warning: --tag `{tag}`: no operation of the document has this tag");
        }
        report_skipped(&document.skipped);
        Ok(document)
    }

    /// `error`, with the way out when an operation failed a strict read.
    pub(crate) fn explain(&self, error: &openapi::OpenApiError) -> String {
        if self.lenient || !error.pointer.starts_with("/paths/") {
            error.to_string()
        } else {
            format!(
                "{error}\n(--lenient skips operations like this one, reporting each, and keeps \
                 the rest; --exclude OPERATION leaves one out)"
            )
        }
    }
}

pub(crate) fn report_skipped(skipped: &[openapi::Skipped]) {
    for skipped in skipped {
        eprintln!("mcs: skipped {skipped}");
    }
}
