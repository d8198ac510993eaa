//! `mcs tools` and `mcs generate`: what mcs-codegen's own binary does, through the same
//! library functions, for files and URLs.

use std::path::PathBuf;

use clap::Args;
use mcs_codegen::Generator;

use crate::document::{DocumentArgs, Spec, report_skipped};

/// `mcs tools SPEC`.
#[derive(Args)]
pub(crate) struct ToolsArgs {
    #[command(flatten)]
    document: DocumentArgs,
}

/// `mcs generate SPEC`.
#[derive(Args)]
pub(crate) struct GenerateArgs {
    #[command(flatten)]
    document: DocumentArgs,
    /// The driver type's name (default: from the document's info.title).
    #[arg(long, value_name = "NAME")]
    driver_name: Option<String>,
    /// Write the module to FILE (only when its content changed) instead of printing it.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Type arguments all the way: structs, open enums and unions from the document's schemas.
    #[arg(long)]
    typed_requests: bool,
    /// Make each method answer the body typed, with the status and headers.
    #[arg(long)]
    typed_responses: bool,
    /// Type only operations with this tag (repeatable; default: all).
    #[arg(long = "types-for-tag", value_name = "TAG")]
    types_for_tags: Vec<String>,
    /// Add this derive to every generated type (repeatable), e.g. `Hash`.
    #[arg(long = "derive", value_name = "PATH")]
    derives: Vec<String>,
    /// Type date-time, date, uuid, ipv4 and ipv6 strings (needs mcs's `formats` feature).
    #[arg(long)]
    format_types: bool,
}

pub(crate) async fn tools(arguments: ToolsArgs) -> Result<(), String> {
    let document = arguments.document.read().await?;
    print!("{}", mcs_codegen::tool_listing(&document.api));
    Ok(())
}

pub(crate) async fn generate(arguments: GenerateArgs) -> Result<(), String> {
    let GenerateArgs {
        document,
        driver_name,
        output,
        typed_requests,
        typed_responses,
        types_for_tags,
        derives,
        format_types,
    } = arguments;
    let typed = |generator: Generator| {
        generator
            .typed_requests(typed_requests)
            .typed_responses(typed_responses)
            .types_for_tags(types_for_tags.iter().cloned())
            .derive(derives.iter().cloned())
            .format_types(format_types)
    };
    let source = match document.location() {
        // A file goes through the generator build scripts use: the same header, the same
        // skip-when-unchanged write.
        Spec::File(path) => {
            let mut generator = typed(Generator::new(path))
                .include_tags(document.tags.iter().cloned())
                .exclude_operations(document.excluded.iter().cloned())
                .lenient(document.lenient)
                .keep_examples(document.keep_examples);
            if let Some(name) = driver_name {
                generator = generator.driver_name(name);
            }
            let generated = match &output {
                Some(path) => generator.write_to(path),
                None => generator.generate(),
            }
            .map_err(|error| match error {
                mcs_codegen::Error::Document(error) => document.explain(&error),
                other => other.to_string(),
            })?;
            report_skipped(&generated.skipped);
            generated.source
        }
        // A URL is fetched and read here, and rendered by the same function.
        Spec::Url(url) => {
            let mut options = document.options().responses(typed_responses);
            if let Some(name) = driver_name {
                options = options.driver_name(name);
            }
            let read = mcs::openapi::fetch(&url, &options)
                .await
                .map_err(|error| document.explain(&error))?;
            report_skipped(&read.skipped);
            let label = url.split(['?', '#']).next().unwrap_or(&url);
            let source = typed(Generator::new(label))
                .generate_from(read)
                .map_err(|e| e.to_string())?
                .source;
            if let Some(path) = &output {
                let unchanged = std::fs::read(path).is_ok_and(|old| old == source.as_bytes());
                if !unchanged {
                    std::fs::write(path, &source)
                        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                }
            }
            source
        }
    };
    if output.is_none() {
        print!("{source}");
    }
    Ok(())
}
