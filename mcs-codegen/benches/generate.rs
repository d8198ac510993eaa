//! Generation time per document: read + emit + format, what a build script pays.
//!
//! `cargo bench -p mcs-codegen --bench generate` over every document in `../shared/specs`,
//! GitHub's description (npm `@octokit/openapi`, installed by `npm ci --prefix
//! tests/conformance`; `scripts/compare-progenitor.sh` does it) and `MCS_BENCH_SPECS=dir` for
//! more. Figures in BENCHMARKS.md.

use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use mcs_codegen::Generator;

/// GitHub's REST description, where npm installed it.
fn github() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/conformance/node_modules/@octokit/openapi/generated/api.github.com.json")
}

fn documents() -> Vec<PathBuf> {
    let mut folders = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/specs")];
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
    if github().is_file() {
        documents.push(github());
    } else {
        println!(
            "GitHub's description is not installed: `npm ci --prefix tests/conformance` adds it"
        );
    }
    documents
}

fn generate(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate");
    group.sample_size(10);
    for document in documents() {
        let name = document
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let generator = Generator::new(&document).lenient(true);
        match generator.generate() {
            Ok(generated) => println!(
                "{name}: {} operations, {} bytes of Rust, {} skipped",
                generated.api.operations.len(),
                generated.source.len(),
                generated.skipped.len()
            ),
            Err(error) => {
                println!("{name}: not generated: {error}");
                continue;
            }
        }
        group.bench_function(name, |b| b.iter(|| generator.generate()));
    }
    group.finish();
}

criterion_group!(benches, generate);
criterion_main!(benches);
