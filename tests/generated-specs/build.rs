//! Generates a driver for every document in `../shared/specs` (the real-world samples beside
//! the repository), so that `cargo build`, `cargo clippy` and `cargo test` check the code
//! the generator writes for them. Without the folder, nothing is generated.
//!
//! With `MCS_GITHUB=1`, GitHub's whole REST description too (npm `@octokit/openapi`, which
//! `npm ci --prefix tests/conformance` installs): about 1,200 operations, so opt-in.

use std::path::Path;

/// The documents, and the driver name each gets.
const DOCUMENTS: [(&str, &str); 6] = [
    ("xkcd.com.json", "Xkcd"),
    ("openai.com.json", "OpenAi"),
    ("spotify.com.json", "Spotify"),
    ("slack.com.json", "Slack"),
    ("gitlab.com.json", "Gitlab"),
    ("vercel.com.json", "Vercel"),
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let specs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/specs");
    println!("cargo:rerun-if-changed={}", specs.display());
    println!("cargo::rustc-check-cfg=cfg(shared_specs)");
    println!("cargo::rustc-check-cfg=cfg(github_spec)");
    println!("cargo:rerun-if-env-changed=MCS_GITHUB");
    if std::env::var_os("MCS_GITHUB").is_some_and(|v| v == "1") {
        let github = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../conformance/node_modules/@octokit/openapi/generated/api.github.com.json");
        if !github.is_file() {
            return Err(format!(
                "MCS_GITHUB=1, but {} is missing: run `npm ci --prefix tests/conformance`",
                github.display()
            )
            .into());
        }
        mcs_codegen::Generator::new(&github)
            .driver_name("GitHub")
            .write_to_out_dir("github.rs")?;
        let typed = mcs_codegen::Generator::new(&github)
            .driver_name("GitHub")
            .typed_requests(true)
            .typed_responses(true)
            .format_types(true)
            .derive(["::mcs::serde::Deserialize"])
            .write_to_out_dir("github_typed.rs")?;
        write_typed_calls("GitHub", &typed)?;
        println!("cargo:rustc-cfg=github_spec");
    }
    if !specs.is_dir() {
        println!(
            "cargo:warning=no {} beside the repository: the shared documents are not generated",
            specs.display()
        );
        return Ok(());
    }
    println!("cargo:rustc-cfg=shared_specs");
    for (file, name) in DOCUMENTS {
        mcs_codegen::Generator::new(specs.join(file))
            .driver_name(name)
            .write_to_out_dir(&format!("{}.rs", name.to_lowercase()))?;
        // The same document typed all the way, for the typed calls through Prism. Argument
        // structs and types also derive `Deserialize`, so the test can build typed
        // arguments from the JSON it makes from each tool's schema.
        let typed = mcs_codegen::Generator::new(specs.join(file))
            .driver_name(name)
            .typed_requests(true)
            .typed_responses(true)
            .format_types(true)
            .derive(["::mcs::serde::Deserialize"])
            .write_to_out_dir(&format!("{}_typed.rs", name.to_lowercase()))?;
        write_typed_calls(name, &typed)?;
    }
    Ok(())
}

/// Writes `{name}_typed_calls.rs`: one function that calls any tool of the typed driver
/// through its typed method, its arguments read from JSON into the argument struct, for
/// the typed conformance test (`tests/prism.rs`).
fn write_typed_calls(
    name: &str,
    typed: &mcs_codegen::Generated,
) -> Result<(), Box<dyn std::error::Error>> {
    use std::fmt::Write as _;
    let file = name.to_lowercase();
    // The driver's module: its name in snake case (`OpenAi` → `open_ai`).
    let mut module = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            module.push('_');
        }
        module.push(c.to_ascii_lowercase());
    }
    let mut out = String::new();
    writeln!(
        out,
        "/// Calls `tool` of a typed `{name}` through its typed method; `None` for a tool it \
         does not have. Each call is its own boxed future: one state machine over a thousand \
         operations would not fit a test thread's stack.\n\
         pub fn {file}<'a>(driver: &'a super::typed::{name}, tool: &str, arguments: \
         ::mcs::serde_json::Value) -> Option<::mcs::BoxFuture<'a, super::TypedOutcome>> {{\n    \
         match tool {{"
    )?;
    for method in typed.methods.iter().filter(|m| m.typed_answers) {
        writeln!(
            out,
            "        {tool:?} => Some(Box::pin(super::typed_outcome(arguments, |arguments: \
             &super::typed::{module}::{args}| driver.{call}(arguments)))),",
            tool = method.tool,
            args = method.arguments,
            call = method.method,
        )?;
    }
    writeln!(out, "        _ => None,\n    }}\n}}")?;
    let path =
        std::path::Path::new(&std::env::var("OUT_DIR")?).join(format!("{file}_typed_calls.rs"));
    std::fs::write(path, out)?;
    Ok(())
}
