//! What the file driver costs over `std::fs`.
//!
//! Two jobs a model asks for most, each done three ways on the same temporary directory:
//! - `list`: one directory of 100 files, names, kinds and sizes, sorted — with `std::fs`
//!   (`read_dir` plus each entry's file type and size), through `LocalFs::list_dir`, and
//!   through the driver (`execute_tool("list", ...)`: arguments decoded, path checked,
//!   entries sorted and serialised to the JSON the model receives);
//! - `read`: one 4 KiB text file — `std::fs::read_to_string`, `LocalFs::read`, and the
//!   driver's `read_file` (open through the root's handle, checks on the handle, UTF-8
//!   check, line count, JSON result).
//!
//! The memory adapter through the driver is measured too, as the floor of the driver's own
//! work. Sync tools finish without a runtime (`ToolFuture::into_ready`).
//!
//! Lines are measured alone and then interleaved (the ratios to `std_fs` printed after each
//! group come from the interleaved rounds). Run with `cargo bench -p mcs-fs --bench fs`;
//! the figures are in BENCHMARKS.md.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};

// The workspace's benchmark helper: each line measured alone, then all interleaved so that
// load hits them alike, with ratios to the first line (`std_fs`) from the same rounds.
#[path = "../../benches/common/interleave.rs"]
#[allow(dead_code)]
mod interleave;

use interleave::{line, measure};
use mcs::ToolDriver;
use mcs_fs::{Adapter, Files, FsPath, LocalFs, MemoryFs, WriteMode};
use serde_json::{Value, json};

const FILES: usize = 100;

fn populate(root: &Path, memory: &MemoryFs) {
    let line = "The quick brown fox jumps over the lazy dog, again and again.\n";
    let text = line.repeat(4096 / line.len());
    for i in 0..FILES {
        let name = format!("file-{i:03}.txt");
        std::fs::write(root.join(&name), &text).unwrap();
        memory
            .write(
                &FsPath::parse(&name).unwrap(),
                text.as_bytes(),
                WriteMode::Create,
            )
            .unwrap();
    }
}

fn call<A: Adapter>(files: &Files<A>, tool: &str, arguments: Value) -> Value {
    files
        .execute_tool(tool, arguments)
        .into_ready()
        .expect("a sync tool")
        .expect("the call succeeds")
}

fn std_list(root: &Path) -> Vec<(String, bool, u64)> {
    let mut entries: Vec<(String, bool, u64)> = std::fs::read_dir(root)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let file_type = entry.file_type().unwrap();
            let size = if file_type.is_file() {
                entry.metadata().unwrap().len()
            } else {
                0
            };
            (
                entry.file_name().into_string().unwrap(),
                file_type.is_dir(),
                size,
            )
        })
        .collect();
    entries.sort();
    entries
}

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let memory_fs = MemoryFs::new();
    populate(dir.path(), &memory_fs);
    let local = Files::new(LocalFs::open(dir.path()).unwrap());
    let memory = Files::new(memory_fs);
    let root = dir.path();
    let file = root.join("file-042.txt");
    let file_path = FsPath::parse("file-042.txt").unwrap();

    let mut group = c.benchmark_group("list");
    measure(
        &mut group,
        20,
        2,
        &mut [
            line("std_fs", || std_list(black_box(root))),
            line("adapter_local", || {
                local.adapter().list_dir(&FsPath::root()).unwrap()
            }),
            line("driver_local", || {
                call(&local, "list", json!({"limit": 1000}))
            }),
            line("driver_memory", || {
                call(&memory, "list", json!({"limit": 1000}))
            }),
        ],
    );
    group.finish();

    let mut group = c.benchmark_group("read");
    measure(
        &mut group,
        200,
        2,
        &mut [
            line("std_fs", || {
                std::fs::read_to_string(black_box(&file)).unwrap()
            }),
            line("adapter_local", || {
                local.adapter().read(&file_path, 1 << 20).unwrap()
            }),
            line("driver_local", || {
                call(&local, "read_file", json!({"path": "file-042.txt"}))
            }),
            line("driver_memory", || {
                call(&memory, "read_file", json!({"path": "file-042.txt"}))
            }),
        ],
    );
    group.finish();
}

criterion_group!(fs, benches);
criterion_main!(fs);
