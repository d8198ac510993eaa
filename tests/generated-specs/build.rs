//! Generates a driver for every document in `../shared/specs` (the real-world samples beside
//! the repository), so that `cargo build`, `cargo clippy` and `cargo test` check the code
//! the generator writes for them. Without the folder, nothing is generated.

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
