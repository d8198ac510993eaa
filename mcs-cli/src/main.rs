//! `mcs`: any OpenAPI document as tools, from the command line.
//!
//! ```text
//! mcs serve SPEC [OPTIONS]      serve the document's operations as an MCP server (stdio or HTTP)
//! mcs tools SPEC [OPTIONS]      the tools the document yields, and where each argument goes
//! mcs generate SPEC [OPTIONS]   the Rust driver module mcs-codegen writes for it
//! ```
//!
//! SPEC is a file (JSON or YAML; OpenAPI 3.0, 3.1 or Swagger 2.0) or an `http(s)://` URL.
//! `mcs help serve` (or `mcs serve --help`) lists every option. Installed with
//! `cargo install --path mcs-cli`.
//!
//! Over stdio, standard output carries MCP messages and nothing else; everything meant for a
//! person (warnings, skipped operations, errors) goes to standard error.

mod codegen;
mod credentials;
mod document;
mod gateway;
mod serve;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Any OpenAPI document as tools for models: served over MCP, listed, or generated as Rust.
#[derive(Parser)]
#[command(name = "mcs", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve a document's operations as an MCP server, over stdio (what MCP hosts start) or
    /// streamable HTTP.
    ///
    /// Each operation is a tool; a call is checked against the operation's schema, sent to
    /// the API with the configured credentials, and its answer returned. Credentials come
    /// from environment variables (MCS_BEARER_TOKEN, MCS_API_KEY, MCS_BASIC_AUTH, or the
    /// variables named by the --*-env options) and are never printed. Without a credential
    /// an operation needs, the tools are still listed and a call answers with an error that
    /// says which variable to set.
    Serve(Box<serve::ServeArgs>),
    /// List the tools a document yields: name, method and path, title, and where each
    /// argument goes.
    Tools(codegen::ToolsArgs),
    /// Print (or write) the Rust driver module mcs-codegen generates for a document, as a
    /// build script would write it.
    Generate(codegen::GenerateArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // One thread: the work is waiting on the API and the client; a listing or a search of
    // a large document is short. The HTTP transport serves its sessions on it too.
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => return fail(&format!("cannot start the async runtime: {error}")),
    };
    let result = runtime.block_on(async {
        match cli.command {
            Command::Serve(arguments) => serve::run(*arguments).await,
            Command::Tools(arguments) => codegen::tools(arguments).await,
            Command::Generate(arguments) => codegen::generate(arguments).await,
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => fail(&message),
    }
}

fn fail(message: &str) -> ExitCode {
    eprintln!("mcs: {message}");
    ExitCode::FAILURE
}
