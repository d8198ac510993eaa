//! Random sequences of operations give the same observable results on the memory adapter
//! and on the local one: the same values, or errors of the same kind about the same path.

use std::sync::Arc;

use mcs_fs::{Adapter, Files, FsError, FsPath, LocalFs, MemoryFs, WriteMode};
use proptest::prelude::*;
use serde::Serialize;
use serde_json::Value;

/// Few names, so that operations keep running into each other's results.
const PATHS: &[&str] = &[
    ".", "a", "b", "a/b", "a/c", "b/a", "a/b/c", "x.txt", "a/x.txt", "../a", "a\\b",
];
const TEXTS: &[&str] = &[
    "",
    "one\n",
    "two\nlines\n",
    "one\ntwo\none\n",
    "\u{e9}t\u{e9}",
];

#[derive(Clone, Debug)]
enum Op {
    Write(usize, usize, u8),
    Read(usize),
    ReadLines(usize, u64, u64),
    ReadBytes(usize, u64, u64),
    List(usize, bool),
    Stat(usize),
    Delete(usize, bool),
    MakeDir(usize),
    Move(usize, usize, bool),
    Copy(usize, usize, bool),
    Edit(usize, usize, usize, bool),
    Find(usize),
    Search(usize, bool),
}

fn path() -> impl Strategy<Value = usize> {
    0..PATHS.len()
}

fn text() -> impl Strategy<Value = usize> {
    0..TEXTS.len()
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (path(), text(), 0..3u8).prop_map(|(p, t, m)| Op::Write(p, t, m)),
        2 => path().prop_map(Op::Read),
        1 => (path(), 0..4u64, 0..4u64).prop_map(|(p, s, e)| Op::ReadLines(p, s, e)),
        1 => (path(), 0..8u64, 0..8u64).prop_map(|(p, o, l)| Op::ReadBytes(p, o, l)),
        2 => (path(), any::<bool>()).prop_map(|(p, r)| Op::List(p, r)),
        1 => path().prop_map(Op::Stat),
        2 => (path(), any::<bool>()).prop_map(|(p, r)| Op::Delete(p, r)),
        2 => path().prop_map(Op::MakeDir),
        2 => (path(), path(), any::<bool>()).prop_map(|(f, t, o)| Op::Move(f, t, o)),
        2 => (path(), path(), any::<bool>()).prop_map(|(f, t, o)| Op::Copy(f, t, o)),
        1 => (path(), text(), text(), any::<bool>()).prop_map(|(p, o, n, a)| Op::Edit(p, o, n, a)),
        1 => (0..4usize).prop_map(Op::Find),
        1 => (text(), any::<bool>()).prop_map(|(t, c)| Op::Search(t, c)),
    ]
}

/// An operation's value, or its error's kind and path.
type Observed = Result<Value, (String, String)>;

/// What an operation showed: its value as JSON (without modification times, which no two
/// backends share), or its error's kind and path.
fn observe<T: Serialize>(result: Result<T, FsError>) -> Observed {
    match result {
        Ok(value) => {
            let mut json = serde_json::to_value(value).unwrap();
            if let Some(object) = json.as_object_mut() {
                object.remove("modified");
            }
            Ok(json)
        }
        Err(error) => Err((format!("{:?}", error.kind()), error.path().to_owned())),
    }
}

fn run<A: Adapter>(files: &Files<A>, op: &Op) -> Observed {
    let p = |i: usize| PATHS[i].to_owned();
    let t = |i: usize| TEXTS[i].to_owned();
    match *op {
        Op::Write(path, text, mode) => {
            let mode = [WriteMode::Create, WriteMode::Overwrite, WriteMode::Append][mode as usize];
            observe(files.write_file(p(path), t(text), Some(mode)))
        }
        Op::Read(path) => observe(files.read_file(p(path), None, None, None, None)),
        Op::ReadLines(path, s, e) => {
            observe(files.read_file(p(path), Some(s), Some(e), None, None))
        }
        Op::ReadBytes(path, o, l) => {
            observe(files.read_file(p(path), None, None, Some(o), Some(l)))
        }
        Op::List(path, recursive) => observe(files.list(Some(p(path)), recursive, None)),
        Op::Stat(path) => observe(files.stat(p(path))),
        Op::Delete(path, recursive) => observe(files.delete(p(path), recursive)),
        Op::MakeDir(path) => observe(files.make_dir(p(path))),
        Op::Move(from, to, overwrite) => observe(files.move_path(p(from), p(to), overwrite)),
        Op::Copy(from, to, overwrite) => observe(files.copy(p(from), p(to), overwrite)),
        Op::Edit(path, old, new, all) => observe(files.edit_file(p(path), t(old), t(new), all)),
        Op::Find(pattern) => observe(files.find(
            ["*", "*.txt", "a/*", "**/c"][pattern].to_owned(),
            None,
            None,
        )),
        Op::Search(text, fold) => {
            let needle = TEXTS[text].trim().to_owned();
            let needle = if needle.is_empty() {
                "o".to_owned()
            } else {
                needle
            };
            observe(files.search(needle, None, false, fold, None, None))
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn memory_and_local_agree(ops in proptest::collection::vec(op(), 1..40)) {
        let dir = tempfile::tempdir().unwrap();
        let memory = Files::new(MemoryFs::new());
        let local = Files::new(LocalFs::open(dir.path()).unwrap());
        for (step, op) in ops.iter().enumerate() {
            let in_memory = run(&memory, op);
            let on_disk = run(&local, op);
            prop_assert_eq!(&in_memory, &on_disk, "step {} ({:?}) of {:?}", step, op, ops);
        }
        // And the trees are the same at the end.
        let end_memory = observe(memory.list(None, true, Some(1000)));
        let end_local = observe(local.list(None, true, Some(1000)));
        prop_assert_eq!(end_memory, end_local);
    }
}

/// Paths from an alphabet of the characters that cause trouble — separators of both kinds,
/// dots, NUL, controls, a bidi override, a zero-width space, a combining accent, a drive
/// colon — through every tool of both adapters: nothing panics, both agree, and every
/// error names the path it was given.
fn odd_path() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[ab./\\\\\\x00\\n:~ \u{e9}\u{301}\u{202e}\u{200b}C]{0,10}")
        .unwrap()
}

/// The ways `text` may be named in an error: as given, or normalised.
fn names_for(text: &str) -> Vec<String> {
    let mut names = vec![if text.is_empty() {
        ".".to_owned()
    } else {
        text.to_owned()
    }];
    if let Ok(path) = FsPath::parse(text) {
        names.push(path.to_string());
    }
    names
}

type Shared = Files<Arc<dyn Adapter>>;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn odd_paths_never_panic_and_agree(paths in proptest::collection::vec(odd_path(), 1..8)) {
        let dir = tempfile::tempdir().unwrap();
        let memory: Shared = Files::new(Arc::new(MemoryFs::new()));
        let local: Shared = Files::new(Arc::new(LocalFs::open(dir.path()).unwrap()));
        for (index, path) in paths.iter().enumerate() {
            let other = &paths[(index + 1) % paths.len()];
            let (p, o) = (|| path.clone(), || other.clone());
            let steps: [&dyn Fn(&Shared) -> Observed; 6] = [
                &|f| observe(f.write_file(p(), "x".into(), None)),
                &|f| observe(f.read_file(p(), None, None, None, None)),
                &|f| observe(f.list(Some(p()), true, None)),
                &|f| observe(f.copy(p(), o(), true)),
                &|f| observe(f.move_path(p(), o(), false)),
                &|f| observe(f.delete(p(), true)),
            ];
            for (step, run) in steps.iter().enumerate() {
                let (in_memory, on_disk) = (run(&memory), run(&local));
                if let Err((_, named)) = &in_memory {
                    let mut allowed = names_for(path);
                    allowed.extend(names_for(other));
                    prop_assert!(
                        allowed.contains(named),
                        "error names {:?}, not {:?}",
                        named,
                        allowed
                    );
                }
                prop_assert_eq!(&in_memory, &on_disk, "step {} on {:?} / {:?}", step, path, other);
            }
        }
        let end_memory = observe(memory.list(None, true, Some(1000)));
        let end_local = observe(local.list(None, true, Some(1000)));
        prop_assert_eq!(end_memory, end_local);
    }
}
