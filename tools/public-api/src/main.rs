//! The public API of every publishable library of the workspace, checked against its listing
//! in `public-api/<package>.txt`, so that a change to it shows in review.
//!
//! ```text
//! cargo run -p mcs-public-api             # check: exits 1 and prints the difference
//! cargo run -p mcs-public-api -- --bless  # rewrite the listings
//! ```
//!
//! Rustdoc writes JSON only when unstable options are allowed; on a stable toolchain they are
//! allowed with `RUSTC_BOOTSTRAP=1`, set here for the rustdoc runs alone. The JSON format
//! changes between Rust releases; the `public-api` version this tool pins reads the format of
//! the toolchain the workspace is built with (see `Cargo.toml`), and a mismatch is reported
//! as such, not as a change of the API.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use serde_json::Value;

fn main() -> ExitCode {
    let bless = std::env::args().any(|arg| arg == "--bless");
    match run(bless) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("mcs-public-api: {error}");
            ExitCode::FAILURE
        }
    }
}

/// A publishable library of the workspace.
struct Library {
    package: String,
    /// The library's crate name (`mcs` for the facade).
    name: String,
}

fn run(bless: bool) -> Result<bool, String> {
    let metadata = cargo_metadata()?;
    let root = PathBuf::from(
        metadata["workspace_root"]
            .as_str()
            .ok_or("cargo metadata names no workspace root")?,
    );
    let target = PathBuf::from(
        metadata["target_directory"]
            .as_str()
            .ok_or("cargo metadata names no target directory")?,
    );
    let listings = root.join("public-api");
    std::fs::create_dir_all(&listings)
        .map_err(|e| format!("cannot create {}: {e}", listings.display()))?;
    let mut all_equal = true;
    for library in libraries(&metadata) {
        let json = rustdoc_json(&library, &target)?;
        let api = public_api::Builder::from_rustdoc_json(&json)
            .omit_blanket_impls(true)
            .omit_auto_trait_impls(true)
            .build()
            .map_err(|e| format!("{}: cannot read {}: {e}", library.package, json.display()))?;
        let listing = api.to_string();
        let path = listings.join(format!("{}.txt", library.package));
        let count = api.items().count();
        if bless {
            std::fs::write(&path, &listing)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            println!("{:<24} {count:>5} items  written", library.package);
            continue;
        }
        let recorded = std::fs::read_to_string(&path).unwrap_or_default();
        if recorded == listing {
            println!("{:<24} {count:>5} items  unchanged", library.package);
        } else {
            all_equal = false;
            println!("{:<24} {count:>5} items  CHANGED", library.package);
            print_difference(&recorded, &listing);
        }
    }
    if !all_equal {
        println!(
            "\nThe public API differs from public-api/*.txt. If the change is meant, record it \
             with `cargo run -p mcs-public-api -- --bless` and commit the listings."
        );
    }
    Ok(all_equal)
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

fn cargo_metadata() -> Result<Value, String> {
    let output = cargo()
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    serde_json::from_slice(&output.stdout).map_err(|e| format!("cargo metadata: {e}"))
}

/// The workspace's packages that may be published and have a library, by package name.
fn libraries(metadata: &Value) -> Vec<Library> {
    let mut libraries: Vec<Library> = metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        // `publish = false` is written by cargo metadata as an empty list of registries.
        .filter(|package| package["publish"].as_array().is_none_or(|r| !r.is_empty()))
        .filter_map(|package| {
            let lib = package["targets"].as_array()?.iter().find(|target| {
                target["kind"]
                    .as_array()
                    .is_some_and(|kinds| kinds.iter().any(|k| k == "lib" || k == "proc-macro"))
            })?;
            Some(Library {
                package: package["name"].as_str()?.to_owned(),
                name: lib["name"].as_str()?.replace('-', "_"),
            })
        })
        .collect();
    libraries.sort_by(|a, b| a.package.cmp(&b.package));
    libraries
}

/// Runs rustdoc with JSON output on `library`, every feature on (feature-gated items are part
/// of the API), and answers the path of the JSON it wrote.
fn rustdoc_json(library: &Library, target: &Path) -> Result<PathBuf, String> {
    let status = cargo()
        .args([
            "rustdoc",
            "-q",
            "--lib",
            "--all-features",
            "-p",
            &library.package,
        ])
        .args(["--", "-Z", "unstable-options", "--output-format", "json"])
        .env("RUSTC_BOOTSTRAP", "1")
        .status()
        .map_err(|e| format!("cannot run cargo rustdoc: {e}"))?;
    if !status.success() {
        return Err(format!("rustdoc failed on {}", library.package));
    }
    let json = target.join("doc").join(format!("{}.json", library.name));
    let text = std::fs::read_to_string(&json)
        .map_err(|e| format!("cannot read {}: {e}", json.display()))?;
    // Only the format version, before the whole document is read: a toolchain whose rustdoc
    // writes another format is told apart from a changed API.
    let version = text
        .find("\"format_version\":")
        .and_then(|at| {
            let digits: String = text[at + 17..]
                .chars()
                .skip_while(|c| c.is_whitespace())
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse::<u32>().ok()
        })
        .ok_or_else(|| format!("{} holds no format_version", json.display()))?;
    if version != SUPPORTED_FORMAT {
        return Err(format!(
            "rustdoc wrote JSON format {version}; this tool reads format {SUPPORTED_FORMAT} \
             (the toolchain the workspace pins). Build with that toolchain, or move the \
             `public-api` pin in tools/public-api/Cargo.toml to the version that reads {version}."
        ));
    }
    Ok(json)
}

/// The rustdoc JSON format that the pinned `public-api` reads.
const SUPPORTED_FORMAT: u32 = 57;

fn print_difference(recorded: &str, current: &str) {
    let recorded: BTreeSet<&str> = recorded.lines().collect();
    let current: BTreeSet<&str> = current.lines().collect();
    for line in recorded.difference(&current) {
        println!("  - {line}");
    }
    for line in current.difference(&recorded) {
        println!("  + {line}");
    }
}
