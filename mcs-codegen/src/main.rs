//! `mcs-codegen`: see what a build will get from an OpenAPI document.
//!
//! ```text
//! mcs-codegen tools SPEC [OPTIONS]      the tools the document yields, and where each argument goes
//! mcs-codegen generate SPEC [OPTIONS]   the generated module, as build.rs would write it
//!
//! OPTIONS: --driver-name NAME  --tag TAG (repeatable)  --exclude OPERATION (repeatable)
//!          --lenient  --keep-examples  --output FILE (generate only)
//! ```

use std::fmt::Write as _;
use std::process::ExitCode;

use mcs_codegen::Generator;
use mcs_rest::{Api, BodyArgument, Operation};

const USAGE: &str = "usage: mcs-codegen (tools | generate) SPEC [--driver-name NAME] [--tag TAG]... \
                     [--exclude OPERATION]... [--lenient] [--keep-examples] [--output FILE]";

fn main() -> ExitCode {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    match run(&arguments) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("mcs-codegen: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(arguments: &[String]) -> Result<(), String> {
    let (command, spec, rest) = match arguments {
        [command, spec, rest @ ..] if !spec.starts_with("--") => (command.as_str(), spec, rest),
        _ => return Err(USAGE.to_owned()),
    };
    let mut generator = Generator::new(spec);
    let mut output = None;
    let mut tags = Vec::new();
    let mut excluded = Vec::new();
    let mut options = rest.iter();
    while let Some(option) = options.next() {
        let mut value = || {
            options
                .next()
                .cloned()
                .ok_or_else(|| format!("{option} needs a value\n{USAGE}"))
        };
        match option.as_str() {
            "--driver-name" => generator = generator.driver_name(value()?),
            "--tag" => tags.push(value()?),
            "--exclude" => excluded.push(value()?),
            "--output" | "-o" => output = Some(value()?),
            "--lenient" => generator = generator.lenient(true),
            "--keep-examples" => generator = generator.keep_examples(true),
            other => return Err(format!("unknown option `{other}`\n{USAGE}")),
        }
    }
    let generator = generator.include_tags(tags).exclude_operations(excluded);
    match command {
        "tools" => {
            let document = generator.read().map_err(|e| e.to_string())?;
            print!("{}", listing(&document.api));
            for skipped in &document.skipped {
                eprintln!("skipped {skipped}");
            }
            Ok(())
        }
        "generate" => {
            let generated = match &output {
                Some(path) => generator.write_to(path),
                None => generator.generate(),
            }
            .map_err(|e| e.to_string())?;
            if output.is_none() {
                print!("{}", generated.source);
            }
            for skipped in &generated.skipped {
                eprintln!("skipped {skipped}");
            }
            Ok(())
        }
        other => Err(format!("unknown command `{other}`\n{USAGE}")),
    }
}

/// One block per tool: name, title, method and path, then each argument and where it goes.
fn listing(api: &Api) -> String {
    let mut out = format!(
        "{} {} — {} tools\n",
        api.title,
        api.version,
        api.operations.len()
    );
    if let Some(server) = api.servers.first() {
        let _ = writeln!(out, "server: {}", server.url);
    }
    for operation in api.operations.iter() {
        let _ = writeln!(
            out,
            "\n{}  {} {}",
            operation.name, operation.method, operation.path
        );
        if let Some(title) = &operation.title {
            let _ = writeln!(out, "  {title}");
        }
        if operation.deprecated {
            let _ = writeln!(out, "  (deprecated)");
        }
        for line in argument_lines(operation) {
            let _ = writeln!(out, "  - {line}");
        }
    }
    out
}

fn argument_lines(operation: &Operation) -> Vec<String> {
    let mut lines: Vec<String> = operation
        .parameters
        .iter()
        .map(|p| {
            let wire = if p.argument == p.name {
                String::new()
            } else {
                format!(" as `{}`", p.name)
            };
            let need = if p.required { "required" } else { "optional" };
            format!("{}: {} {}{wire}", p.argument, need, p.location.as_str())
        })
        .collect();
    if let Some(body) = &operation.body {
        let need = if body.required {
            "required"
        } else {
            "optional"
        };
        match &body.argument {
            BodyArgument::Whole(name) => {
                lines.push(format!("{name}: {need} body ({})", body.media_type));
            }
            BodyArgument::Properties(names) => {
                for name in names.iter() {
                    lines.push(format!("{name}: body property ({})", body.media_type));
                }
            }
        }
    }
    lines
}
