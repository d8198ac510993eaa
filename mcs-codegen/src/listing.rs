//! The `tools` listing both command-line tools print (`mcs-codegen tools`, `mcs tools`).

use std::fmt::Write as _;

use mcs_rest::{Api, BodyArgument, Operation};

/// What the tools of `api` are: a header (title, version, count, first server), then one
/// block per tool: name, method and path, title, and each argument and where it goes.
pub fn tool_listing(api: &Api) -> String {
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
