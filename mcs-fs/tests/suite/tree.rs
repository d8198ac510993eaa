//! The tree: errors by kind, moving, copying, directories, finding, searching, paths.

use mcs_fs::{Adapter, EntryKind, Files, FsErrorKind};

use crate::{kind, text};

pub(crate) fn error_kinds<A: Adapter>(adapter: impl Fn() -> A) {
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

pub(crate) fn move_and_copy<A: Adapter>(adapter: impl Fn() -> A) {
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

pub(crate) fn make_dir<A: Adapter>(adapter: impl Fn() -> A) {
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

pub(crate) fn find_by_glob<A: Adapter>(adapter: impl Fn() -> A) {
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

pub(crate) fn search_content<A: Adapter>(adapter: impl Fn() -> A) {
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

pub(crate) fn paths_are_checked_the_same_way<A: Adapter>(adapter: impl Fn() -> A) {
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

pub(crate) fn unicode_names<A: Adapter>(adapter: impl Fn() -> A) {
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
