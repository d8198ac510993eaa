//! Reading and writing: whole files, ranges, modes, limits, binary content, edits.

use mcs_fs::{Adapter, Body, EntryKind, Files, FsErrorKind, FsPath, Limits, WriteMode};

use crate::{kind, text};

pub(crate) fn write_then_read_list_and_stat<A: Adapter>(adapter: impl Fn() -> A) {
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

pub(crate) fn write_modes<A: Adapter>(adapter: impl Fn() -> A) {
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

pub(crate) fn line_and_byte_ranges<A: Adapter>(adapter: impl Fn() -> A) {
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

pub(crate) fn limits_are_named<A: Adapter>(adapter: impl Fn() -> A) {
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

pub(crate) fn binary_files_are_summarised<A: Adapter>(adapter: impl Fn() -> A) {
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

pub(crate) fn edit_file<A: Adapter>(adapter: impl Fn() -> A) {
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

pub(crate) fn read_only_refuses_changes<A: Adapter>(adapter: impl Fn() -> A) {
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
