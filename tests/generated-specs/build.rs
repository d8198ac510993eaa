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
    }
    Ok(())
}
