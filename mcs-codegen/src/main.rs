//! `mcs-codegen`: see what a build will get from an OpenAPI document.
//!
//! ```text
//! mcs-codegen tools SPEC [OPTIONS]      the tools the document yields, and where each argument goes
//! mcs-codegen generate SPEC [OPTIONS]   the generated module, as build.rs would write it
//!
//! OPTIONS: --driver-name NAME  --tag TAG (repeatable)  --exclude OPERATION (repeatable)
//!          --lenient  --keep-examples  --output FILE (generate only)
//!          --typed-requests  --typed-responses  --types-for-tag TAG (repeatable)
//!          --derive PATH (repeatable)  --format-types
//! ```

use std::process::ExitCode;

use mcs_codegen::Generator;

const USAGE: &str = "usage: mcs-codegen (tools | generate) SPEC [--driver-name NAME] [--tag TAG]... \
                     [--exclude OPERATION]... [--lenient] [--keep-examples] [--output FILE] \
                     [--typed-requests] [--typed-responses] [--types-for-tag TAG]... \
                     [--derive PATH]... [--format-types]";

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
    let mut typed_tags = Vec::new();
    let mut derives = Vec::new();
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
            "--typed-requests" => generator = generator.typed_requests(true),
            "--typed-responses" => generator = generator.typed_responses(true),
            "--types-for-tag" => typed_tags.push(value()?),
            "--derive" => derives.push(value()?),
            "--format-types" => generator = generator.format_types(true),
            other => return Err(format!("unknown option `{other}`\n{USAGE}")),
        }
    }
    let generator = generator
        .include_tags(tags)
        .exclude_operations(excluded)
        .types_for_tags(typed_tags)
        .derive(derives);
    match command {
        "tools" => {
            let document = generator.read().map_err(|e| e.to_string())?;
            print!("{}", mcs_codegen::tool_listing(&document.api));
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
