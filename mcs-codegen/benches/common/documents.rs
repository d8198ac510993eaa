//! The documents both generator benchmarks run over: every JSON or YAML document in
//! `../shared/specs` and in the folder `MCS_BENCH_SPECS` names, sorted, then GitHub's REST
//! description (npm `@octokit/openapi`) where `npm ci --prefix tests/conformance` installed it.

use std::path::{Path, PathBuf};

/// The documents, smallest folder order first and GitHub's last; says so when GitHub's is
/// missing.
pub(crate) fn documents() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut folders = vec![root.join("../../shared/specs")];
    if let Some(extra) = std::env::var_os("MCS_BENCH_SPECS") {
        folders.push(PathBuf::from(extra));
    }
    let mut documents: Vec<PathBuf> = folders
        .iter()
        .filter_map(|folder| std::fs::read_dir(folder).ok())
        .flatten()
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.extension()
                .is_some_and(|e| e == "json" || e == "yaml" || e == "yml")
        })
        .collect();
    documents.sort();
    let github = root
        .join("../tests/conformance/node_modules/@octokit/openapi/generated/api.github.com.json");
    if github.is_file() {
        documents.push(github);
    } else {
        println!(
            "GitHub's description is not installed: `npm ci --prefix tests/conformance` adds it"
        );
    }
    documents
}

/// The file name of `document`, for labels.
pub(crate) fn name(document: &Path) -> String {
    document
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
