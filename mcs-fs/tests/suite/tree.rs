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

/// A model can build a tree far deeper than a thread's stack or the open-file limit allows
/// recursing through, with paths that each stay under the limit: make a deep directory, then
/// move a deep tree under another deep path, again and again. Listing, finding and searching
/// it pass by what cannot be addressed (and say so); deleting it works whole, on a thread
/// with a small stack and under a low open-file limit; dropping it does not recurse.
pub(crate) fn deep_trees<A: Adapter>(adapter: impl Fn() -> A) {
    const LEVELS: usize = 2000; // "d/" × 2,000: 3,999 bytes, under MAX_PATH_BYTES
    const ROUNDS: usize = 4; // about 8,000 levels in all
    let _limit = crate::FdLimit::lower_to(256);
    let files = Files::new(adapter());
    let deep = vec!["d"; LEVELS].join("/");
    files.make_dir(format!("t0/{deep}")).unwrap();
    for round in 1..ROUNDS {
        files.make_dir(format!("t{round}/{deep}")).unwrap();
        files
            .move_path(
                format!("t{}", round - 1),
                format!("t{round}/{deep}/m"),
                false,
            )
            .unwrap();
    }
    files
        .write_file("t3/note.txt".into(), "needle\n".into(), None)
        .unwrap();
    // Whole-root walks do not fail on what they cannot address: they report it.
    let found = files.find("*.txt".into(), None, None).unwrap();
    assert_eq!(found.matches.len(), 1, "{found:?}");
    assert!(found.skipped.count > 0, "{:?}", found.skipped);
    assert!(
        found.skipped.first[0].reason.contains("4095"),
        "{:?}",
        found.skipped.first[0]
    );
    let searched = files
        .search("needle".into(), None, false, false, None, None)
        .unwrap();
    assert_eq!(searched.matches.len(), 1);
    assert!(searched.skipped.count > 0);
    // Deleting runs on a thread whose stack a recursion per level would overflow.
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn_scoped(scope, || files.delete(format!("t{}", ROUNDS - 1), true))
            .unwrap()
            .join()
            .expect("the delete thread did not overflow its stack")
            .unwrap();
    });
    let listing = files.list(None, false, None).unwrap();
    assert_eq!(listing.entries, []);
    // A deep tree left in place is dropped with the driver without recursing per level.
    files.make_dir(format!("u0/{deep}")).unwrap();
    files.make_dir(format!("u1/{deep}")).unwrap();
    files
        .move_path("u0".into(), format!("u1/{deep}/m"), false)
        .unwrap();
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn_scoped(scope, move || drop(files))
            .unwrap()
            .join()
            .expect("dropping the driver did not overflow its stack");
    });
}

/// One path limit, checked before either adapter acts: 4,095 bytes (Linux's `PATH_MAX`
/// counts the terminating NUL) works in both, 4,096 is refused by both in the same words.
pub(crate) fn path_length_limit<A: Adapter>(adapter: impl Fn() -> A) {
    let files = Files::new(adapter());
    let longest = |len: usize| {
        // Names of 200 bytes, the last one cut to make `len` bytes in all.
        let mut path = String::new();
        while path.len() < len {
            if !path.is_empty() {
                path.push('/');
            }
            let name_len = (len - path.len()).min(200);
            path.push_str(&"n".repeat(name_len));
        }
        assert_eq!(path.len(), len);
        path
    };
    let at_limit = longest(mcs_fs::MAX_PATH_BYTES);
    files
        .write_file(at_limit.clone(), "x".into(), None)
        .unwrap();
    let read = files
        .read_file(at_limit.clone(), None, None, None, None)
        .unwrap();
    assert_eq!(text(&read), "x");
    let over = longest(mcs_fs::MAX_PATH_BYTES + 1);
    let error = files.write_file(over, "x".into(), None).unwrap_err();
    assert_eq!(error.kind(), FsErrorKind::InvalidPath);
    assert!(
        error
            .message()
            .contains("4096 bytes long; the limit is 4095"),
        "{error}"
    );
    let found = files.find("*".into(), None, Some(1000)).unwrap();
    assert!(found.skipped.is_empty(), "{:?}", found.skipped);
}
