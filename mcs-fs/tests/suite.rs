//! The adapter consistency rule as a test: one suite, run against every adapter.
//!
//! Each test is a generic function over the adapter; `suite!` instantiates all of them for
//! the memory adapter and for the local one (in a fresh temporary directory). A backend of
//! your own joins by adding a module to the macro.

use mcs::{Driver, LlmResponse, ToolDriver};
use mcs_fs::{
    Adapter, Body, EntryKind, Files, FsErrorKind, FsPath, Limits, LocalFs, MemoryFs, ReadOnlyFiles,
    WriteMode,
};
use serde_json::json;

macro_rules! suite {
    ($($test:ident),* $(,)?) => {
        mod memory {
            $(
                #[test]
                fn $test() {
                    // One tree, shared by every adapter value the test asks for, as the
                    // local tests share their directory.
                    let fs = std::sync::Arc::new(mcs_fs::MemoryFs::new());
                    super::$test(|| std::sync::Arc::clone(&fs));
                }
            )*
        }
        mod local {
            $(
                #[test]
                fn $test() {
                    let dir = tempfile::tempdir().unwrap();
                    super::$test(|| mcs_fs::LocalFs::open(dir.path()).unwrap());
                }
            )*
        }
    };
}

suite!(
    write_then_read_list_and_stat,
    write_modes,
    line_and_byte_ranges,
    limits_are_named,
    binary_files_are_summarised,
    error_kinds,
    move_and_copy,
    make_dir,
    edit_file,
    find_by_glob,
    search_content,
    read_only_refuses_changes,
    paths_are_checked_the_same_way,
    unicode_names,
    through_the_driver,
    read_only_driver_hides_write_tools,
);

fn kind<T: std::fmt::Debug>(result: Result<T, mcs_fs::FsError>) -> FsErrorKind {
    result.expect_err("expected an error").kind()
}

fn text(content: &mcs_fs::FileContent) -> &str {
    match &content.body {
        Body::Text { content, .. } => content,
        Body::Binary { .. } => panic!("expected text, got {content:?}"),
    }
}

fn write_then_read_list_and_stat<A: Adapter>(adapter: impl Fn() -> A) {
    let files = Files::new(adapter());
    let written = files
        .write_file("notes/todo.md".into(), "- tea\n- milk\n".into(), None)
        .unwrap();
    assert_eq!((written.bytes_written, written.size), (13, 13));
    let read = files
        .read_file("notes/todo.md".into(), None, None, None, None)
        .unwrap();
    assert_eq!(text(&read), "- tea\n- milk\n");
    assert_eq!(read.size, 13);
    let stat = files.stat("notes/todo.md".into()).unwrap();
    assert_eq!((stat.stat.kind, stat.stat.size), (EntryKind::File, 13));
    assert_eq!(
        files.stat("notes".into()).unwrap().stat.kind,
        EntryKind::Dir
    );
    assert_eq!(files.stat(".".into()).unwrap().stat.kind, EntryKind::Dir);

    files.write_file("b.txt".into(), "b".into(), None).unwrap();
    let top = files.list(None, false, None).unwrap();
    let paths: Vec<&str> = top.entries.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(paths, ["b.txt", "notes"]);
    assert_eq!(top.entries[0].size, Some(1));
    assert_eq!(top.entries[1].kind, EntryKind::Dir);
    let all = files.list(Some(".".into()), true, None).unwrap();
    let paths: Vec<&str> = all.entries.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(paths, ["b.txt", "notes", "notes/todo.md"]);
    assert!(!all.truncated);
    let cut = files.list(None, true, Some(2)).unwrap();
    assert_eq!(cut.entries.len(), 2);
    assert!(cut.truncated);
    let sub = files.list(Some("notes".into()), false, None).unwrap();
    assert_eq!(sub.entries[0].path, "notes/todo.md");
}

fn write_modes<A: Adapter>(adapter: impl Fn() -> A) {
    let files = Files::new(adapter());
    let create = Some(WriteMode::Create);
    files
        .write_file("a.txt".into(), "one".into(), create)
        .unwrap();
    let again = files.write_file("a.txt".into(), "two".into(), create);
    assert_eq!(kind(again), FsErrorKind::AlreadyExists);
    let appended = files
        .write_file("a.txt".into(), "+".into(), Some(WriteMode::Append))
        .unwrap();
    assert_eq!(appended.size, 4);
    files
        .write_file("new.txt".into(), "x".into(), Some(WriteMode::Append))
        .unwrap();
    files
        .write_file("a.txt".into(), "three".into(), None)
        .unwrap();
    let read = files
        .read_file("a.txt".into(), None, None, None, None)
        .unwrap();
    assert_eq!(text(&read), "three");
    files
        .write_file("empty".into(), String::new(), None)
        .unwrap();
    let empty = files
        .read_file("empty".into(), None, None, None, None)
        .unwrap();
    assert_eq!(text(&empty), "");
}

fn line_and_byte_ranges<A: Adapter>(adapter: impl Fn() -> A) {
    let files = Files::new(adapter());
    files
        .write_file("l.txt".into(), "one\ntwo\nthree\nfour".into(), None)
        .unwrap();
    let middle = files
        .read_file("l.txt".into(), Some(2), Some(3), None, None)
        .unwrap();
    assert_eq!(text(&middle), "two\nthree\n");
    let Body::Text {
        first_line,
        last_line,
        total_lines,
        ..
    } = middle.body
    else {
        unreachable!()
    };
    assert_eq!(
        (first_line, last_line, total_lines),
        (Some(2), Some(3), Some(4))
    );
    let tail = files
        .read_file("l.txt".into(), Some(4), Some(99), None, None)
        .unwrap();
    assert_eq!(text(&tail), "four");
    let bytes = files
        .read_file("l.txt".into(), None, None, Some(4), Some(3))
        .unwrap();
    assert_eq!(text(&bytes), "two");
    let past_end = files
        .read_file("l.txt".into(), None, None, Some(100), Some(3))
        .unwrap();
    assert_eq!((text(&past_end), past_end.size), ("", 18));
    for (start, end) in [(Some(0), None), (Some(5), None), (Some(3), Some(2))] {
        let error = files
            .read_file("l.txt".into(), start, end, None, None)
            .unwrap_err();
        assert_eq!(
            error.kind(),
            FsErrorKind::InvalidArgument,
            "{start:?}..{end:?}"
        );
        assert!(error.to_string().contains("l.txt"), "{error}");
    }
    let both = files.read_file("l.txt".into(), Some(1), None, Some(0), None);
    assert_eq!(kind(both), FsErrorKind::InvalidArgument);
}

fn limits_are_named<A: Adapter>(adapter: impl Fn() -> A) {
    let limits = Limits {
        max_read_bytes: 10,
        max_file_bytes: 100,
        max_write_bytes: 50,
        ..Limits::default()
    };
    let files = Files::new(adapter()).with_limits(limits);
    let error = files
        .write_file("big".into(), "x".repeat(51), None)
        .unwrap_err();
    assert_eq!(error.kind(), FsErrorKind::TooLarge);
    assert!(error.to_string().contains("at most 50 bytes"), "{error}");
    assert!(files.stat("big".into()).is_err(), "nothing written");

    files
        .write_file("lines".into(), "12345\n".repeat(5), None)
        .unwrap();
    let whole = files
        .read_file("lines".into(), None, None, None, None)
        .unwrap_err();
    assert_eq!(whole.kind(), FsErrorKind::TooLarge);
    assert!(whole.to_string().contains("at most 10 bytes"), "{whole}");
    assert!(whole.to_string().contains("5 lines"), "{whole}");
    // In parts it reads.
    let part = files
        .read_file("lines".into(), Some(2), Some(2), None, None)
        .unwrap();
    assert_eq!(text(&part), "12345\n");
    let range = files.read_file("lines".into(), None, None, Some(0), Some(11));
    assert_eq!(kind(range), FsErrorKind::TooLarge);

    files
        .adapter()
        .write(
            &FsPath::parse("huge").unwrap(),
            &[b'a'; 101],
            WriteMode::Create,
        )
        .unwrap();
    let huge = files
        .read_file("huge".into(), Some(1), Some(1), None, None)
        .unwrap_err();
    assert_eq!(huge.kind(), FsErrorKind::TooLarge);
    assert!(
        huge.to_string().contains("limit here is 100 bytes"),
        "{huge}"
    );
    assert!(huge.to_string().contains("byte range"), "{huge}");
    let bytes = files
        .read_file("huge".into(), None, None, Some(95), None)
        .unwrap();
    assert_eq!(text(&bytes), "aaaaaa");
    let copy = files.copy("huge".into(), "huge2".into(), false);
    assert_eq!(kind(copy), FsErrorKind::TooLarge);
    let searched = files
        .search("a".into(), None, false, false, None, None)
        .unwrap();
    assert_eq!(searched.skipped_large, 1);
    // A budget for the whole search: three 30-byte files fit in 100 bytes, a fourth not.
    let budget = Files::new(adapter()).with_limits(Limits {
        max_search_bytes: 100,
        ..Limits::default()
    });
    for name in ["s/1", "s/2", "s/3", "s/4"] {
        budget
            .write_file(name.into(), "needle\n".repeat(4) + "xx", None)
            .unwrap();
    }
    let searched = budget.search("needle".into(), Some("s".into()), false, false, None, None);
    let searched = searched.unwrap();
    assert_eq!((searched.files_searched, searched.matches.len()), (3, 12));
    assert!(searched.truncated);
}

fn binary_files_are_summarised<A: Adapter>(adapter: impl Fn() -> A) {
    let files = Files::new(adapter());
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.extend(std::iter::repeat_n(0u8, 5000));
    files
        .adapter()
        .write(
            &FsPath::parse("img/logo.png").unwrap(),
            &png,
            WriteMode::Create,
        )
        .unwrap();
    let read = files
        .read_file("img/logo.png".into(), None, None, None, None)
        .unwrap();
    let Body::Binary {
        binary, summary, ..
    } = &read.body
    else {
        panic!("{read:?}")
    };
    assert!(binary);
    assert_eq!(summary.kind, "PNG image");
    assert_eq!(summary.size, png.len() as u64);
    assert!(summary.head_hex.starts_with("89 50 4e 47 0d 0a 1a 0a"));
    let json = serde_json::to_value(&read).unwrap();
    assert!(json.get("content").is_none());
    assert!(json.to_string().len() < 400, "{json}");
    let edit = files.edit_file("img/logo.png".into(), "PNG".into(), "JPG".into(), false);
    assert_eq!(kind(edit), FsErrorKind::InvalidArgument);
    let searched = files
        .search("PNG".into(), None, false, false, None, None)
        .unwrap();
    assert_eq!((searched.matches.len(), searched.skipped_binary), (0, 1));
    let latin1 = files.adapter().write(
        &FsPath::parse("latin1.txt").unwrap(),
        b"caf\xe9",
        WriteMode::Create,
    );
    latin1.unwrap();
    let read = files
        .read_file("latin1.txt".into(), None, None, None, None)
        .unwrap();
    assert!(matches!(read.body, Body::Binary { .. }));
}

fn error_kinds<A: Adapter>(adapter: impl Fn() -> A) {
    let files = Files::new(adapter());
    files
        .write_file("d/f.txt".into(), "x".into(), None)
        .unwrap();
    let missing = files
        .read_file("d/nope.txt".into(), None, None, None, None)
        .unwrap_err();
    assert_eq!(missing.kind(), FsErrorKind::NotFound);
    assert_eq!(
        missing.to_string(),
        "not found: `d/nope.txt`: no such file or directory"
    );
    assert_eq!(
        kind(files.read_file("d".into(), None, None, None, None)),
        FsErrorKind::NotAFile
    );
    assert_eq!(
        kind(files.read_file(".".into(), None, None, None, None)),
        FsErrorKind::NotAFile
    );
    assert_eq!(
        kind(files.list(Some("d/f.txt".into()), false, None)),
        FsErrorKind::NotADirectory
    );
    assert_eq!(
        kind(files.list(Some("nope".into()), true, None)),
        FsErrorKind::NotFound
    );
    assert_eq!(
        kind(files.stat("d/f.txt/x".into())),
        FsErrorKind::NotADirectory
    );
    assert_eq!(
        kind(files.write_file("d/f.txt/x".into(), "y".into(), None)),
        FsErrorKind::NotADirectory
    );
    assert_eq!(
        kind(files.write_file("d".into(), "y".into(), None)),
        FsErrorKind::NotAFile
    );
    assert_eq!(
        kind(files.write_file(".".into(), "y".into(), None)),
        FsErrorKind::NotAFile
    );
    assert_eq!(
        kind(files.delete("d".into(), false)),
        FsErrorKind::DirectoryNotEmpty
    );
    assert_eq!(
        kind(files.delete(".".into(), true)),
        FsErrorKind::InvalidArgument
    );
    assert_eq!(
        kind(files.delete("nope".into(), true)),
        FsErrorKind::NotFound
    );
    files.delete("d".into(), true).unwrap();
    assert_eq!(kind(files.stat("d".into())), FsErrorKind::NotFound);
    files.make_dir("e".into()).unwrap();
    files.delete("e".into(), false).unwrap();
}

fn move_and_copy<A: Adapter>(adapter: impl Fn() -> A) {
    let files = Files::new(adapter());
    files.write_file("a.txt".into(), "A".into(), None).unwrap();
    files.write_file("b.txt".into(), "B".into(), None).unwrap();
    assert_eq!(
        kind(files.move_path("a.txt".into(), "b.txt".into(), false)),
        FsErrorKind::AlreadyExists
    );
    files
        .move_path("a.txt".into(), "deep/er/a.txt".into(), false)
        .unwrap();
    assert_eq!(kind(files.stat("a.txt".into())), FsErrorKind::NotFound);
    files
        .move_path("deep/er/a.txt".into(), "b.txt".into(), true)
        .unwrap();
    let b = files
        .read_file("b.txt".into(), None, None, None, None)
        .unwrap();
    assert_eq!(text(&b), "A");
    assert_eq!(
        kind(files.move_path("deep".into(), "deep/er/x".into(), false)),
        FsErrorKind::InvalidArgument
    );
    assert_eq!(
        kind(files.move_path("b.txt".into(), "deep".into(), true)),
        FsErrorKind::AlreadyExists
    );
    assert_eq!(
        kind(files.move_path("nope".into(), "x".into(), false)),
        FsErrorKind::NotFound
    );
    assert_eq!(
        kind(files.move_path(".".into(), "x".into(), false)),
        FsErrorKind::InvalidArgument
    );
    files
        .move_path("deep".into(), "shallow".into(), false)
        .unwrap();
    assert_eq!(
        files.stat("shallow/er".into()).unwrap().stat.kind,
        EntryKind::Dir
    );

    let copied = files.copy("b.txt".into(), "c/b.txt".into(), false).unwrap();
    assert_eq!(copied.bytes_written, 1);
    assert_eq!(
        kind(files.copy("b.txt".into(), "c/b.txt".into(), false)),
        FsErrorKind::AlreadyExists
    );
    files.write_file("b.txt".into(), "BB".into(), None).unwrap();
    files.copy("b.txt".into(), "c/b.txt".into(), true).unwrap();
    let c = files
        .read_file("c/b.txt".into(), None, None, None, None)
        .unwrap();
    assert_eq!(text(&c), "BB");
    assert_eq!(
        kind(files.copy("c".into(), "d".into(), false)),
        FsErrorKind::NotAFile
    );
    assert_eq!(
        kind(files.copy("b.txt".into(), "c".into(), true)),
        FsErrorKind::NotAFile
    );
    assert_eq!(
        kind(files.copy("b.txt".into(), "b.txt".into(), true)),
        FsErrorKind::InvalidArgument
    );
}

fn make_dir<A: Adapter>(adapter: impl Fn() -> A) {
    let files = Files::new(adapter());
    assert!(files.make_dir("x/y/z".into()).unwrap().changed);
    assert!(!files.make_dir("x/y".into()).unwrap().changed);
    assert!(!files.make_dir(".".into()).unwrap().changed);
    files.write_file("x/f".into(), "".into(), None).unwrap();
    assert_eq!(
        kind(files.make_dir("x/f".into())),
        FsErrorKind::AlreadyExists
    );
    assert_eq!(
        kind(files.make_dir("x/f/g".into())),
        FsErrorKind::NotADirectory
    );
}

fn edit_file<A: Adapter>(adapter: impl Fn() -> A) {
    let files = Files::new(adapter());
    files
        .write_file(
            "cfg.toml".into(),
            "debug = false\nlevel = 1\nlevel = 1\n".into(),
            None,
        )
        .unwrap();
    let edited = files
        .edit_file(
            "cfg.toml".into(),
            "debug = false".into(),
            "debug = true".into(),
            false,
        )
        .unwrap();
    assert_eq!(edited.replacements, Some(1));
    let twice = files.edit_file(
        "cfg.toml".into(),
        "level = 1".into(),
        "level = 2".into(),
        false,
    );
    let error = twice.unwrap_err();
    assert_eq!(error.kind(), FsErrorKind::InvalidArgument);
    assert!(error.to_string().contains("occurs 2 times"), "{error}");
    files
        .edit_file(
            "cfg.toml".into(),
            "level = 1".into(),
            "level = 2".into(),
            true,
        )
        .unwrap();
    let absent = files.edit_file("cfg.toml".into(), "nothing".into(), "x".into(), false);
    assert_eq!(kind(absent), FsErrorKind::InvalidArgument);
    let read = files
        .read_file("cfg.toml".into(), None, None, None, None)
        .unwrap();
    assert_eq!(text(&read), "debug = true\nlevel = 2\nlevel = 2\n");
    assert_eq!(
        kind(files.edit_file("nope".into(), "a".into(), "b".into(), false)),
        FsErrorKind::NotFound
    );
}

fn find_by_glob<A: Adapter>(adapter: impl Fn() -> A) {
    let files = Files::new(adapter());
    for path in [
        "README.md",
        "docs/guide.md",
        "docs/api/ref.md",
        "src/main.rs",
        "src/lib.rs",
    ] {
        files.write_file(path.into(), "x".into(), None).unwrap();
    }
    let names = |found: mcs_fs::Found| -> Vec<String> {
        found.matches.into_iter().map(|e| e.path).collect()
    };
    assert_eq!(
        names(files.find("*.md".into(), None, None).unwrap()),
        ["README.md", "docs/api/ref.md", "docs/guide.md"]
    );
    assert_eq!(
        names(files.find("docs/*.md".into(), None, None).unwrap()),
        ["docs/guide.md"]
    );
    assert_eq!(
        names(
            files
                .find("**/*.md".into(), Some("docs".into()), None)
                .unwrap()
        ),
        ["api/ref.md", "guide.md"].map(|p| format!("docs/{p}"))
    );
    assert_eq!(
        names(
            files
                .find("{main,lib}.rs".into(), Some("src".into()), None)
                .unwrap()
        )
        .len(),
        2
    );
    let cut = files.find("*".into(), None, Some(2)).unwrap();
    assert!(cut.truncated);
    assert_eq!(cut.matches.len(), 2);
    assert_eq!(
        kind(files.find("[".into(), None, None)),
        FsErrorKind::InvalidArgument
    );
    assert_eq!(
        kind(files.find("*".into(), Some("nope".into()), None)),
        FsErrorKind::NotFound
    );
}

fn search_content<A: Adapter>(adapter: impl Fn() -> A) {
    let files = Files::new(adapter());
    files
        .write_file("a.rs".into(), "fn main() {\n    todo!()\n}\n".into(), None)
        .unwrap();
    files
        .write_file("b/c.md".into(), "TODO: write docs\nnothing\n".into(), None)
        .unwrap();
    let plain = files
        .search("todo".into(), None, false, false, None, None)
        .unwrap();
    assert_eq!(plain.matches.len(), 1);
    assert_eq!(
        (plain.matches[0].path.as_str(), plain.matches[0].line),
        ("a.rs", 2)
    );
    assert_eq!(plain.files_searched, 2);
    let folded = files
        .search("todo".into(), None, false, true, None, None)
        .unwrap();
    assert_eq!(folded.matches.len(), 2);
    let regex = files
        .search(r"^\s+\w+!".into(), None, true, false, None, None)
        .unwrap();
    assert_eq!(regex.matches[0].text, "    todo!()");
    let only_md = files
        .search("o".into(), None, false, true, Some("*.md".into()), None)
        .unwrap();
    assert!(only_md.matches.iter().all(|m| m.path == "b/c.md"));
    let one_file = files
        .search("n".into(), Some("b/c.md".into()), false, false, None, None)
        .unwrap();
    assert_eq!(one_file.matches.len(), 1);
    let limited = files
        .search("o".into(), None, false, true, None, Some(1))
        .unwrap();
    assert!(limited.truncated);
    assert_eq!(limited.matches.len(), 1);
    let bad = files
        .search("(".into(), None, true, false, None, None)
        .unwrap_err();
    assert_eq!(bad.kind(), FsErrorKind::InvalidArgument);
    assert!(bad.to_string().contains("regular expression"), "{bad}");
    assert_eq!(
        kind(files.search("".into(), None, false, false, None, None)),
        FsErrorKind::InvalidArgument
    );
    let long = format!("needle{}", "x".repeat(1000));
    files.write_file("long.txt".into(), long, None).unwrap();
    let cut = files
        .search("needle".into(), None, false, false, None, None)
        .unwrap();
    assert_eq!(
        cut.matches[0].text.chars().count(),
        mcs_fs::MAX_LINE_CHARS + 1
    );
}

fn read_only_refuses_changes<A: Adapter>(adapter: impl Fn() -> A) {
    let writable = Files::new(adapter());
    writable
        .write_file("keep.txt".into(), "kept".into(), None)
        .unwrap();
    let files = Files::new(adapter()).read_only();
    assert!(files.is_read_only());
    let refusals = [
        kind(files.write_file("keep.txt".into(), "gone".into(), None)),
        kind(files.write_file("new.txt".into(), "new".into(), None)),
        kind(files.edit_file("keep.txt".into(), "kept".into(), "x".into(), false)),
        kind(files.delete("keep.txt".into(), false)),
        kind(files.make_dir("d".into())),
        kind(files.move_path("keep.txt".into(), "moved.txt".into(), false)),
        kind(files.copy("keep.txt".into(), "copy.txt".into(), false)),
    ];
    assert!(
        refusals.iter().all(|k| *k == FsErrorKind::ReadOnly),
        "{refusals:?}"
    );
    let error = files.delete("keep.txt".into(), false).unwrap_err();
    assert!(error.to_string().contains("read-only"), "{error}");
    // Reads still work, and nothing changed.
    let read = files
        .read_file("keep.txt".into(), None, None, None, None)
        .unwrap();
    assert_eq!(text(&read), "kept");
    let entries = files.list(None, true, None).unwrap().entries;
    assert_eq!(entries.len(), 1);
}

fn paths_are_checked_the_same_way<A: Adapter>(adapter: impl Fn() -> A) {
    let files = Files::new(adapter());
    for (path, expected) in [
        ("../x", FsErrorKind::OutsideRoot),
        ("a/../../x", FsErrorKind::OutsideRoot),
        ("/etc/passwd", FsErrorKind::OutsideRoot),
        ("C:/Windows/win.ini", FsErrorKind::OutsideRoot),
        ("..\\x", FsErrorKind::InvalidPath),
        ("a\0b", FsErrorKind::InvalidPath),
        ("a\nb", FsErrorKind::InvalidPath),
        ("gpj.\u{202E}exe", FsErrorKind::InvalidPath),
    ] {
        let error = files.write_file(path.into(), "x".into(), None).unwrap_err();
        assert_eq!(error.kind(), expected, "{path:?}");
        assert!(error.to_string().contains(&format!("`{path}`")), "{error}");
        assert_eq!(
            kind(files.read_file(path.into(), None, None, None, None)),
            expected
        );
    }
    assert!(files.list(None, true, None).unwrap().entries.is_empty());
    // `.` and empty components are normalised away; `~` is an ordinary name.
    files
        .write_file("./a//b.txt".into(), "x".into(), None)
        .unwrap();
    files.write_file("~/x".into(), "x".into(), None).unwrap();
    let entries: Vec<String> = files
        .list(None, true, None)
        .unwrap()
        .entries
        .into_iter()
        .map(|e| e.path)
        .collect();
    assert_eq!(entries, ["a", "a/b.txt", "~", "~/x"]);
}

fn unicode_names<A: Adapter>(adapter: impl Fn() -> A) {
    let files = Files::new(adapter());
    for path in [
        "café/naïve.txt",
        "日本語.md",
        "with space.txt",
        "emoji-📁/x",
    ] {
        files.write_file(path.into(), path.into(), None).unwrap();
        let read = files
            .read_file(path.into(), None, None, None, None)
            .unwrap();
        assert_eq!(text(&read), path);
    }
    let found = files.find("*.md".into(), None, None).unwrap();
    assert_eq!(found.matches[0].path, "日本語.md");
}

fn through_the_driver<A: Adapter>(adapter: impl Fn() -> A) {
    let files = Files::new(adapter());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime.block_on(async {
        let written = files
            .execute_tool(
                "write_file",
                json!({"path": "n.txt", "content": "hi", "mode": "create"}),
            )
            .await
            .unwrap();
        assert_eq!(written["size"], 2);
        let error = files
            .execute_tool(
                "write_file",
                json!({"path": "n.txt", "content": "hi", "mode": "create"}),
            )
            .await
            .unwrap_err();
        assert!(
            error.to_string().contains("already exists: `n.txt`"),
            "{error}"
        );
        let bad_mode = files
            .execute_tool(
                "write_file",
                json!({"path": "n.txt", "content": "x", "mode": "truncate"}),
            )
            .await
            .unwrap_err();
        assert!(bad_mode.to_string().contains("mode"), "{bad_mode}");

        let output =
            r#"<tool_call>{"name": "read_file", "arguments": {"path": "n.txt"}}</tool_call>"#;
        let response = files.process_llm_response(LlmResponse::Text(output)).await;
        assert!(response.call_executed && !response.call_failed);
        assert_eq!(response.tool_call_result.unwrap()["content"], "hi");

        let output = r#"{"tool": "read_file", "arguments": {"path": "../../etc/passwd"}}"#;
        let response = files.process_llm_response(LlmResponse::Text(output)).await;
        assert!(response.call_failed);
        let retry = response.retry_prompt.unwrap();
        assert!(
            retry.contains("outside the root: `../../etc/passwd`"),
            "{retry}"
        );
    });
    let tools = files.list_tools();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name()).collect();
    assert_eq!(
        names,
        [
            "list",
            "read_file",
            "write_file",
            "edit_file",
            "stat",
            "delete",
            "make_dir",
            "move",
            "copy",
            "find",
            "search"
        ]
    );
    assert_eq!(files.tool_tags("read_file"), ["read"]);
    assert_eq!(files.tool_tags("move"), ["write"]);
    let system = files.get_driver_system_message(None);
    assert!(system.contains("edit_file"));
}

fn read_only_driver_hides_write_tools<A: Adapter>(adapter: impl Fn() -> A) {
    Files::new(adapter())
        .write_file("a.txt".into(), "a".into(), None)
        .unwrap();
    let files = ReadOnlyFiles::new(adapter());
    let tools = files.list_tools();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name()).collect();
    assert_eq!(names, ["list", "read_file", "stat", "find", "search"]);
    let system = files.get_driver_system_message(None);
    assert!(!system.contains("write_file"));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime.block_on(async {
        let read = files
            .execute_tool("read_file", json!({"path": "a.txt"}))
            .await
            .unwrap();
        assert_eq!(read["content"], "a");
        let write = files
            .execute_tool("write_file", json!({"path": "a.txt", "content": "b"}))
            .await
            .unwrap_err();
        assert!(
            matches!(write, mcs::ToolError::UnknownTool { .. }),
            "{write}"
        );
        // A model's call for a hidden tool passes through, as for any tool a driver lacks.
        let output = r#"{"tool": "delete", "arguments": {"path": "a.txt"}}"#;
        let response = files.process_llm_response(LlmResponse::Text(output)).await;
        assert!(!response.call_executed);
    });
    let read = files
        .inner()
        .read_file("a.txt".into(), None, None, None, None)
        .unwrap();
    assert_eq!(text(&read), "a");
}

#[test]
fn both_adapters_are_usable_as_trait_objects() {
    let dir = tempfile::tempdir().unwrap();
    let adapters: Vec<std::sync::Arc<dyn Adapter>> = vec![
        std::sync::Arc::new(MemoryFs::new()),
        std::sync::Arc::new(LocalFs::open(dir.path()).unwrap()),
    ];
    for adapter in adapters {
        let name = adapter.name().to_owned();
        let files = Files::new(adapter);
        files.write_file("x".into(), "1".into(), None).unwrap();
        assert_eq!(files.stat("x".into()).unwrap().stat.size, 1, "{name}");
    }
}
