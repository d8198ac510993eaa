//! What a large API's listing and prompts cost: `list_tools` and the system prompts of a
//! driver read at run time, per document, from the smallest to GitHub's 1,223 operations.
//! The time per operation stays flat as documents grow (no quadratic step), and the sizes
//! printed are those recorded in BENCHMARKS.md.
//!
//! `cargo bench -p mcs-codegen --bench listing` (GitHub's description comes from
//! `npm ci --prefix tests/conformance`).

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use mcs::hybrid::Hybrid;
use mcs::openapi::{Document, ReadOptions, read_str};
use mcs::orchestrator::{ConflictPolicy, Discovery, Orchestrator, Registration};
use mcs::{Driver, ToolDriver};

#[path = "common/documents.rs"]
mod documents;

fn listing(c: &mut Criterion) {
    let mut group = c.benchmark_group("listing");
    group.sample_size(10);
    for document in documents::documents() {
        let name = documents::name(&document);
        let text = std::fs::read_to_string(&document).expect("readable");
        let options = ReadOptions::default().lenient(true);
        let driver = Arc::new(
            read_str(&text, &name, None, &options)
                .map(Document::into_driver)
                .expect("reads"),
        );
        let operations = driver.list_tools().len();
        let hybrid = Hybrid::new(Arc::clone(&driver));
        let discovering =
            Orchestrator::new("api", ConflictPolicy::Reject).with_discovery(Discovery::Always);
        discovering
            .register(
                "api",
                Arc::clone(&driver) as Arc<dyn ToolDriver>,
                Registration::new(),
            )
            .expect("registers");
        let listing = serde_json::to_string(&*driver.list_tools()).unwrap_or_default();
        println!(
            "{name}: {operations} tools; list_tools as JSON {} bytes; compact prompt {} chars; \
             discovery prompt {} chars",
            listing.len(),
            hybrid.get_driver_system_message(None).len(),
            discovering.get_driver_system_message(None).len(),
        );
        group.bench_function(format!("{name}/read + list_tools"), |b| {
            b.iter(|| {
                let driver = read_str(&text, &name, None, &options)
                    .map(Document::into_driver)
                    .expect("reads");
                driver.list_tools().len()
            })
        });
        group.bench_function(format!("{name}/compact system prompt"), |b| {
            b.iter(|| hybrid.get_driver_system_message(None).len())
        });
        group.bench_function(format!("{name}/discovery: register + prompt"), |b| {
            b.iter(|| {
                let orchestrator = Orchestrator::new("api", ConflictPolicy::Reject)
                    .with_discovery(Discovery::Always);
                orchestrator
                    .register(
                        "api",
                        Arc::clone(&driver) as Arc<dyn ToolDriver>,
                        Registration::new(),
                    )
                    .expect("registers");
                orchestrator.get_driver_system_message(None).len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, listing);
criterion_main!(benches);
