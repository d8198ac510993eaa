//! Ways out of the local adapter's root, each tried: every one is refused with a clear
//! error, and nothing outside the root is read, written, listed or deleted.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use mcs_fs::{Body, EntryKind, Files, FsErrorKind, LocalFs, WriteMode};

/// A temporary directory holding `root/` (granted) and `outside/secret.txt` (not).
struct Sandbox {
    _dir: tempfile::TempDir,
    root: PathBuf,
    outside: PathBuf,
    files: Files<LocalFs>,
}

const SECRET: &str = "the secret outside";

impl Sandbox {
    fn new() -> Sandbox {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        let outside = dir.path().join("outside");
        fs::create_dir(&root).unwrap();
        fs::create_dir(&outside).unwrap();
        fs::write(outside.join("secret.txt"), SECRET).unwrap();
        let files = Files::new(LocalFs::open(&root).unwrap());
        Sandbox {
            _dir: dir,
            root,
            outside,
            files,
        }
    }

    /// Outside is exactly as it was: one file, unchanged.
    fn assert_outside_untouched(&self) {
        let names: Vec<_> = fs::read_dir(&self.outside)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["secret.txt"], "something was created outside");
        assert_eq!(
            fs::read_to_string(self.outside.join("secret.txt")).unwrap(),
            SECRET
        );
    }

    /// Every tool on `path`: none may succeed in touching what is outside.
    fn assert_every_tool_refused(&self, path: &str, expected: FsErrorKind) {
        // A link's own name is inside the root: moving it moves the link, which is allowed.
        let names_a_link = fs::symlink_metadata(self.root.join(path)).is_ok_and(|m| m.is_symlink());
        let f = &self.files;
        let p = || path.to_owned();
        let results = [
            ("read", f.read_file(p(), None, None, None, None).map(drop)),
            (
                "read lines",
                f.read_file(p(), Some(1), Some(1), None, None).map(drop),
            ),
            (
                "read bytes",
                f.read_file(p(), None, None, Some(0), Some(4)).map(drop),
            ),
            (
                "append",
                f.write_file(p(), "x".into(), Some(WriteMode::Append))
                    .map(drop),
            ),
            (
                "create",
                f.write_file(p(), "x".into(), Some(WriteMode::Create))
                    .map(drop),
            ),
            (
                "edit",
                f.edit_file(p(), "secret".into(), "x".into(), false)
                    .map(drop),
            ),
            ("stat", f.stat(p()).map(drop)),
            (
                "copy from",
                f.copy(p(), "stolen.txt".into(), true).map(drop),
            ),
            ("copy to", f.copy("inside.txt".into(), p(), false).map(drop)),
            (
                "move from",
                if names_a_link {
                    Err(mcs_fs::FsError::new(
                        expected,
                        path,
                        "(a link's own name may move)",
                    ))
                } else {
                    f.move_path(p(), "stolen.txt".into(), true).map(drop)
                },
            ),
            (
                "search",
                f.search("secret".into(), Some(p()), false, false, None, None)
                    .map(drop),
            ),
        ];
        for (what, result) in results {
            let error = result.expect_err(&format!("{what} of {path:?} succeeded"));
            // Creating where a link to outside stands is refused for the name's sake.
            let creates = matches!(what, "create" | "copy to");
            let also = if creates {
                FsErrorKind::AlreadyExists
            } else {
                expected
            };
            assert!(
                error.kind() == expected || error.kind() == also,
                "{what} of {path:?}: {error}"
            );
            assert!(error.to_string().contains('`'), "{what}: {error}");
        }
        assert!(!self.root.join("stolen.txt").exists());
        self.assert_outside_untouched();
    }
}

#[test]
fn traversal_is_refused() {
    let sandbox = Sandbox::new();
    fs::write(sandbox.root.join("inside.txt"), "inside").unwrap();
    for path in [
        "../outside/secret.txt",
        "inside.txt/../../outside/secret.txt",
        "./../outside/secret.txt",
        "a/b/../../../outside/secret.txt",
    ] {
        sandbox.assert_every_tool_refused(path, FsErrorKind::OutsideRoot);
        let error = sandbox
            .files
            .list(Some(path.into()), true, None)
            .unwrap_err();
        assert_eq!(error.kind(), FsErrorKind::OutsideRoot);
        assert!(error.message().contains("`..`"), "{error}");
    }
    for dir in ["..", "../outside", "../.."] {
        assert_eq!(
            sandbox
                .files
                .list(Some(dir.into()), false, None)
                .unwrap_err()
                .kind(),
            FsErrorKind::OutsideRoot
        );
        assert_eq!(
            sandbox.files.delete(dir.into(), true).unwrap_err().kind(),
            FsErrorKind::OutsideRoot
        );
    }
    sandbox.assert_outside_untouched();
}

#[test]
fn absolute_paths_are_refused() {
    let sandbox = Sandbox::new();
    let absolute = sandbox.outside.join("secret.txt");
    let absolute = absolute.to_str().unwrap();
    sandbox.assert_every_tool_refused(absolute, FsErrorKind::OutsideRoot);
    let error = sandbox.files.delete(absolute.into(), false).unwrap_err();
    assert!(
        error.message().contains("absolute paths are not allowed"),
        "{error}"
    );
    let root_itself = sandbox.root.to_str().unwrap();
    assert_eq!(
        sandbox
            .files
            .list(Some(root_itself.into()), false, None)
            .unwrap_err()
            .kind(),
        FsErrorKind::OutsideRoot
    );
    sandbox.assert_outside_untouched();
}

#[test]
fn symlinks_out_of_the_root_are_refused() {
    let sandbox = Sandbox::new();
    fs::write(sandbox.root.join("inside.txt"), "inside").unwrap();
    symlink(&sandbox.outside, sandbox.root.join("abs_dir")).unwrap();
    symlink("../outside", sandbox.root.join("rel_dir")).unwrap();
    symlink(
        sandbox.outside.join("secret.txt"),
        sandbox.root.join("abs_file"),
    )
    .unwrap();
    symlink("../outside/secret.txt", sandbox.root.join("rel_file")).unwrap();
    for path in [
        "abs_dir/secret.txt",
        "rel_dir/secret.txt",
        "abs_file",
        "rel_file",
    ] {
        sandbox.assert_every_tool_refused(path, FsErrorKind::OutsideRoot);
    }
    for dir in ["abs_dir", "rel_dir"] {
        let listing = sandbox
            .files
            .list(Some(dir.into()), false, None)
            .unwrap_err();
        assert_eq!(listing.kind(), FsErrorKind::OutsideRoot, "{listing}");
        let write = sandbox
            .files
            .write_file(format!("{dir}/new.txt"), "x".into(), None)
            .unwrap_err();
        assert_eq!(write.kind(), FsErrorKind::OutsideRoot, "{write}");
        let delete = sandbox.files.delete(format!("{dir}/secret.txt"), false);
        assert_eq!(delete.unwrap_err().kind(), FsErrorKind::OutsideRoot);
        let mkdir = sandbox.files.make_dir(format!("{dir}/sub"));
        assert_eq!(mkdir.unwrap_err().kind(), FsErrorKind::OutsideRoot);
        let moved_in =
            sandbox
                .files
                .move_path("inside.txt".into(), format!("{dir}/inside.txt"), false);
        assert_eq!(moved_in.unwrap_err().kind(), FsErrorKind::OutsideRoot);
    }
    sandbox.assert_outside_untouched();

    // Listings and searches show the links and do not follow them.
    let listing = sandbox.files.list(None, true, None).unwrap();
    let links = listing
        .entries
        .iter()
        .filter(|e| e.kind == EntryKind::Symlink)
        .count();
    assert_eq!(links, 4);
    assert!(listing.entries.iter().all(|e| !e.path.contains("secret")));
    let searched = sandbox
        .files
        .search("secret".into(), None, false, false, None, None)
        .unwrap();
    assert!(searched.matches.is_empty(), "{searched:?}");
    let found = sandbox.files.find("secret*".into(), None, None).unwrap();
    assert!(found.matches.is_empty());

    // Overwriting a link replaces the link itself; deleting one removes only the link.
    sandbox
        .files
        .write_file("abs_file".into(), "mine".into(), None)
        .unwrap();
    assert_eq!(
        fs::read_to_string(sandbox.root.join("abs_file")).unwrap(),
        "mine"
    );
    assert!(
        !fs::symlink_metadata(sandbox.root.join("abs_file"))
            .unwrap()
            .is_symlink()
    );
    sandbox.files.delete("rel_dir".into(), true).unwrap();
    sandbox.files.delete("abs_dir".into(), false).unwrap();
    assert!(!sandbox.root.join("abs_dir").exists());
    sandbox.assert_outside_untouched();
}

#[test]
fn symlinks_inside_the_root_work() {
    let sandbox = Sandbox::new();
    fs::create_dir(sandbox.root.join("real")).unwrap();
    fs::write(sandbox.root.join("real/a.txt"), "a").unwrap();
    symlink("real", sandbox.root.join("alias")).unwrap();
    let read = sandbox
        .files
        .read_file("alias/a.txt".into(), None, None, None, None)
        .unwrap();
    assert!(matches!(read.body, Body::Text { ref content, .. } if content == "a"));
    assert_eq!(
        sandbox.files.stat("alias".into()).unwrap().stat.kind,
        EntryKind::Dir
    );
}

#[test]
fn a_symlink_swapped_between_calls_is_refused() {
    let sandbox = Sandbox::new();
    fs::write(sandbox.root.join("inside.txt"), "inside").unwrap();
    fs::create_dir(sandbox.root.join("inside")).unwrap();
    fs::write(sandbox.root.join("inside/secret.txt"), "inside").unwrap();
    let link = sandbox.root.join("link");
    symlink("inside", &link).unwrap();
    let read =
        |files: &Files<LocalFs>| files.read_file("link/secret.txt".into(), None, None, None, None);
    assert!(read(&sandbox.files).is_ok());
    // Swapped after the adapter was opened and after a first, allowed, use.
    fs::remove_file(&link).unwrap();
    symlink(&sandbox.outside, &link).unwrap();
    assert_eq!(
        read(&sandbox.files).unwrap_err().kind(),
        FsErrorKind::OutsideRoot
    );
    sandbox.assert_every_tool_refused("link/secret.txt", FsErrorKind::OutsideRoot);
}

/// A symlink swapped back and forth while the adapter reads through it: a check-then-use
/// implementation would sometimes read the secret; resolution from the root's handle
/// never does.
#[test]
fn a_symlink_swapped_during_reads_never_leaks() {
    let sandbox = Sandbox::new();
    fs::create_dir(sandbox.root.join("inside")).unwrap();
    fs::write(sandbox.root.join("inside/secret.txt"), "inside").unwrap();
    let link = sandbox.root.join("link");
    symlink("inside", &link).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (stop, link, outside) = (Arc::clone(&stop), link.clone(), sandbox.outside.clone());
        std::thread::spawn(move || {
            let temp = link.with_extension("tmp");
            let mut out = false;
            while !stop.load(Ordering::Relaxed) {
                let _ = fs::remove_file(&temp);
                let target: &Path = if out { &outside } else { Path::new("inside") };
                symlink(target, &temp).unwrap();
                fs::rename(&temp, &link).unwrap();
                out = !out;
            }
        })
    };
    // Read until the swaps have been seen from both sides (or for at most ten seconds, on
    // a machine too busy to run the swapper): every read is checked either way.
    let (mut inside, mut refused) = (0u32, 0u32);
    let started = std::time::Instant::now();
    while (inside < 100 || refused < 100) && started.elapsed().as_secs() < 10 {
        match sandbox
            .files
            .read_file("link/secret.txt".into(), None, None, None, None)
        {
            Ok(read) => {
                let Body::Text { content, .. } = read.body else {
                    panic!("{read:?}")
                };
                assert_eq!(content, "inside", "read through a link to outside");
                inside += 1;
            }
            Err(error) => {
                assert!(
                    matches!(
                        error.kind(),
                        FsErrorKind::OutsideRoot | FsErrorKind::NotFound
                    ),
                    "{error}"
                );
                refused += 1;
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    swapper.join().unwrap();
    assert!(
        refused > 0,
        "the link never pointed outside: {inside} reads, none refused"
    );
    sandbox.assert_outside_untouched();
}

#[test]
fn hard_links_to_outside_files_are_not_opened() {
    let sandbox = Sandbox::new();
    fs::write(sandbox.root.join("inside.txt"), "inside").unwrap();
    fs::hard_link(
        sandbox.outside.join("secret.txt"),
        sandbox.root.join("hl.txt"),
    )
    .unwrap();
    let f = &sandbox.files;
    for error in [
        f.read_file("hl.txt".into(), None, None, None, None)
            .unwrap_err(),
        f.read_file("hl.txt".into(), None, None, Some(0), Some(3))
            .unwrap_err(),
        f.write_file("hl.txt".into(), "x".into(), Some(WriteMode::Append))
            .unwrap_err(),
        f.edit_file("hl.txt".into(), "secret".into(), "x".into(), false)
            .unwrap_err(),
        f.copy("hl.txt".into(), "copy.txt".into(), false)
            .unwrap_err(),
    ] {
        assert_eq!(error.kind(), FsErrorKind::HardLinked, "{error}");
        assert!(error.message().contains("2 hard links"), "{error}");
    }
    let searched = f
        .search("secret".into(), None, false, false, None, None)
        .unwrap();
    assert!(searched.matches.is_empty());
    assert_eq!(searched.skipped_unreadable, 1);
    sandbox.assert_outside_untouched();
    // Overwriting replaces the name inside; deleting removes it. The outside file stays.
    f.write_file("hl.txt".into(), "mine".into(), None).unwrap();
    assert_eq!(
        fs::read_to_string(sandbox.root.join("hl.txt")).unwrap(),
        "mine"
    );
    sandbox.assert_outside_untouched();
    fs::remove_file(sandbox.root.join("hl.txt")).unwrap();
    fs::hard_link(
        sandbox.outside.join("secret.txt"),
        sandbox.root.join("hl.txt"),
    )
    .unwrap();
    f.delete("hl.txt".into(), false).unwrap();
    sandbox.assert_outside_untouched();
}

#[test]
fn special_names_and_characters() {
    let sandbox = Sandbox::new();
    let f = &sandbox.files;
    for (path, expected) in [
        ("..\\outside\\secret.txt", FsErrorKind::InvalidPath),
        ("a\\b", FsErrorKind::InvalidPath),
        ("secret\0.txt", FsErrorKind::InvalidPath),
        ("line\nbreak", FsErrorKind::InvalidPath),
        ("\u{1b}[31mred", FsErrorKind::InvalidPath),
        ("txt.\u{202E}exe", FsErrorKind::InvalidPath),
        ("zero\u{200B}width", FsErrorKind::InvalidPath),
        ("bom\u{FEFF}", FsErrorKind::InvalidPath),
        ("C:\\Windows", FsErrorKind::InvalidPath),
        ("C:/Windows", FsErrorKind::OutsideRoot),
        ("//server/share", FsErrorKind::OutsideRoot),
    ] {
        let error = f.write_file(path.into(), "x".into(), None).unwrap_err();
        assert_eq!(error.kind(), expected, "{path:?}: {error}");
    }
    let long = "n".repeat(256);
    let error = f.write_file(long, "x".into(), None).unwrap_err();
    assert_eq!(error.kind(), FsErrorKind::InvalidPath);
    assert!(error.message().contains("255"), "{error}");
    assert!(
        fs::read_dir(&sandbox.root).unwrap().next().is_none(),
        "nothing created"
    );
    // Ordinary names that look special stay inside.
    for path in [
        "~", "...", ".hidden", "-rf", "CON", "NUL.txt", " space", "*",
    ] {
        f.write_file(path.into(), "x".into(), None).unwrap();
        assert!(sandbox.root.join(path).is_file(), "{path}");
    }
    sandbox.assert_outside_untouched();
}

/// The one refusal every tool gives for a FIFO, socket or device.
const SPECIAL: &str = "this is a FIFO, socket or device, not a regular file; it is never \
                       opened, written or replaced";

/// A FIFO with a writer waiting on it: the writer's `open` returns as soon as anything opens
/// the FIFO for reading, even for an instant, which is how a test sees an open.
struct WatchedFifo {
    opened: std::sync::mpsc::Receiver<()>,
    path: PathBuf,
}

impl WatchedFifo {
    fn new(path: PathBuf) -> WatchedFifo {
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &path,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
            0,
        )
        .unwrap();
        let (sender, opened) = std::sync::mpsc::channel();
        let (tid_sender, tid) = std::sync::mpsc::channel();
        let writer_path = path.clone();
        std::thread::spawn(move || {
            let _ = tid_sender.send(rustix::thread::gettid().as_raw_nonzero().get());
            // Blocks until a reader opens the FIFO.
            if fs::OpenOptions::new()
                .write(true)
                .open(&writer_path)
                .is_ok()
            {
                let _ = sender.send(());
            }
        });
        // Wait until the writer sleeps in its `open`: a reader that came and went before
        // would not wake it.
        let tid = tid.recv().unwrap();
        let stat = format!("/proc/self/task/{tid}/stat");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while std::time::Instant::now() < deadline {
            let state = fs::read_to_string(&stat).unwrap_or_default();
            // The state follows the command name in parentheses.
            if state
                .rsplit(") ")
                .next()
                .is_some_and(|rest| rest.starts_with('S'))
            {
                break;
            }
            std::thread::yield_now();
        }
        WatchedFifo { opened, path }
    }

    fn was_opened(&self) -> bool {
        self.opened
            .recv_timeout(std::time::Duration::from_millis(200))
            .is_ok()
    }
}

impl Drop for WatchedFifo {
    fn drop(&mut self) {
        // Release the waiting writer, if nothing did.
        let _ = fs::OpenOptions::new()
            .read(true)
            .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
            .open(&self.path);
    }
}

use std::os::unix::fs::OpenOptionsExt;

#[test]
fn special_files_are_listed_never_opened() {
    let sandbox = Sandbox::new();
    let fifo = WatchedFifo::new(sandbox.root.join("pipe"));
    let _socket = std::os::unix::net::UnixListener::bind(sandbox.root.join("socket")).unwrap();
    symlink("pipe", sandbox.root.join("link-to-pipe")).unwrap();
    fs::write(sandbox.root.join("file.txt"), "text").unwrap();
    let f = &sandbox.files;
    type Call<'a> = Box<dyn Fn(String) -> Result<(), mcs_fs::FsError> + 'a>;
    let calls: Vec<(&str, Call)> = vec![
        (
            "read_file",
            Box::new(|p| f.read_file(p, None, None, None, None).map(drop)),
        ),
        (
            "read_file (bytes)",
            Box::new(|p| f.read_file(p, None, None, Some(0), Some(4)).map(drop)),
        ),
        (
            "read_file (lines)",
            Box::new(|p| f.read_file(p, Some(1), Some(2), None, None).map(drop)),
        ),
        (
            "edit_file",
            Box::new(|p| f.edit_file(p, "a".into(), "b".into(), false).map(drop)),
        ),
        (
            "copy from",
            Box::new(|p| f.copy(p, "copy.txt".into(), false).map(drop)),
        ),
        (
            "append",
            Box::new(|p| {
                f.write_file(p, "x".into(), Some(WriteMode::Append))
                    .map(drop)
            }),
        ),
        (
            "overwrite",
            Box::new(|p| f.write_file(p, "x".into(), None).map(drop)),
        ),
        (
            "copy onto",
            Box::new(|p| f.copy("file.txt".into(), p, true).map(drop)),
        ),
        (
            "move onto",
            Box::new(|p| f.move_path("file.txt".into(), p, true).map(drop)),
        ),
    ];
    for special in ["pipe", "socket", "link-to-pipe"] {
        for (tool, call) in &calls {
            // Replacing a symlink replaces the link itself, as anywhere else.
            if special == "link-to-pipe" && matches!(*tool, "overwrite" | "copy onto" | "move onto")
            {
                continue;
            }
            let error = call(special.to_owned()).expect_err(tool);
            assert_eq!(
                error.kind(),
                FsErrorKind::NotAFile,
                "{tool} {special}: {error}"
            );
            assert_eq!(error.message(), SPECIAL, "{tool} {special}");
        }
    }
    assert!(!fifo.was_opened(), "a tool opened the FIFO");
    assert!(sandbox.root.join("socket").exists() && sandbox.root.join("pipe").exists());
    let listing = f.list(None, false, None).unwrap();
    let kinds: Vec<(&str, EntryKind)> = listing
        .entries
        .iter()
        .map(|e| (e.path.as_str(), e.kind))
        .collect();
    assert!(kinds.contains(&("pipe", EntryKind::Special)), "{kinds:?}");
    assert!(kinds.contains(&("socket", EntryKind::Special)), "{kinds:?}");
    let searched = f
        .search("x".into(), None, false, false, None, None)
        .unwrap();
    assert_eq!(searched.files_searched, 1);
    assert!(!fifo.was_opened(), "search opened the FIFO");
}

#[test]
fn names_that_are_not_utf8_are_not_listed() {
    use std::os::unix::ffi::OsStrExt;
    let sandbox = Sandbox::new();
    let name = std::ffi::OsStr::from_bytes(b"bad-\xff-name");
    fs::write(sandbox.root.join(name), "x").unwrap();
    fs::write(sandbox.root.join("good"), "x").unwrap();
    let listing = sandbox.files.list(None, true, None).unwrap();
    let paths: Vec<&str> = listing.entries.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(paths, ["good"]);
}

#[test]
fn read_only_local_adapter_changes_nothing() {
    let sandbox = Sandbox::new();
    fs::write(sandbox.root.join("a.txt"), "a").unwrap();
    let files = Files::new(LocalFs::open(&sandbox.root).unwrap().read_only());
    assert!(files.is_read_only());
    let error = files
        .write_file("a.txt".into(), "b".into(), None)
        .unwrap_err();
    assert_eq!(error.kind(), FsErrorKind::ReadOnly);
    assert_eq!(error.path(), "a.txt");
    assert_eq!(
        files.delete("a.txt".into(), false).unwrap_err().kind(),
        FsErrorKind::ReadOnly
    );
    assert_eq!(fs::read_to_string(sandbox.root.join("a.txt")).unwrap(), "a");
}
