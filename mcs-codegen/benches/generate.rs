//! Generation time per document: read + emit + format, what a build script pays.
//!
//! `cargo bench -p mcs-codegen --bench generate` over every document in `../shared/specs`,
//! GitHub's description (npm `@octokit/openapi`, installed by `npm ci --prefix
//! tests/conformance`; `scripts/compare-progenitor.sh` does it) and `MCS_BENCH_SPECS=dir` for
//! more. Figures in BENCHMARKS.md.

use criterion::{Criterion, criterion_group, criterion_main};
use mcs_codegen::Generator;

#[path = "common/documents.rs"]
mod documents;

fn generate(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate");
    group.sample_size(10);
    for document in documents::documents() {
        let name = documents::name(&document);
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
