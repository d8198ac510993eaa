//! Step 2 of the guide: the local filesystem, confined to one directory.
//!
//! Confinement does not come from checking path strings. The root is opened once as a
//! directory handle, and every operation resolves its path from that handle with
//! `openat`-style calls through [`cap_std`], one component at a time: `..`, absolute
//! symlink targets and symlinks that lead out are refused at the moment of use, so a
//! symlink created or swapped after start, or between two calls, cannot lead outside.
//! [`FsPath`] refuses odd path text before that; it is not what keeps the root closed.
//!
//! What this adapter adds on top:
//! - a FIFO, socket or device is never opened: its kind is read from its directory entry
//!   first (following symlinks inside the root), and it is refused with the same words by
//!   every tool, as a source or as a destination. Files are then opened with `O_NONBLOCK`
//!   and checked again on the handle that is read (`fstat`), so a file swapped for a FIFO
//!   between the two steps cannot hang a read either, and the checks apply to the very file
//!   read;
//! - a recursive delete holds a bounded number of descriptors however deep the tree is,
//!   and recurses on the heap, not the call stack;
//! - a file with more than one hard link is not read, appended to or copied
//!   ([`FsErrorKind::HardLinked`]): its other name may be outside the root. Overwriting
//!   replaces the name with a new file and leaves the other names' content alone; deleting
//!   removes only the name inside the root;
//! - overwrites are atomic: a temporary file beside the target, then a rename.

use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::UNIX_EPOCH;

use cap_std::ambient_authority;
use cap_std::fs::{Dir, File, Metadata, OpenOptions};

use crate::adapter::Adapter;
use crate::error::{FsError, FsErrorKind};
use crate::path::FsPath;
use crate::types::{DirEntry, EntryKind, Stat, WriteMode};

/// A directory on the local filesystem, and nothing outside it.
///
/// ```
/// use mcs_fs::{Adapter, FsErrorKind, FsPath, LocalFs, WriteMode};
///
/// let dir = tempfile::tempdir().unwrap();
/// let fs = LocalFs::open(dir.path()).unwrap();
/// fs.write(&FsPath::parse("a.txt").unwrap(), b"hello", WriteMode::Create).unwrap();
/// assert_eq!(std::fs::read(dir.path().join("a.txt")).unwrap(), b"hello");
///
/// // Paths are checked, and resolved against the root's handle, never the process's view.
/// let escape = FsPath::parse("../outside.txt").unwrap_err();
/// assert_eq!(escape.kind(), FsErrorKind::OutsideRoot);
/// ```
pub struct LocalFs {
    root: Dir,
    root_path: PathBuf,
    read_only: bool,
}

impl std::fmt::Debug for LocalFs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalFs")
            .field("root", &self.root_path)
            .field("read_only", &self.read_only)
            .finish()
    }
}

/// Names of temporary files, unique within the process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

impl LocalFs {
    /// Opens `root` (which must exist and be a directory) as the adapter's root.
    ///
    /// This is the one place where the process's own view of the filesystem is used; from
    /// here on, everything goes through the directory handle.
    pub fn open(root: impl AsRef<Path>) -> io::Result<LocalFs> {
        let root_path = root.as_ref().to_path_buf();
        let root = Dir::open_ambient_dir(&root_path, ambient_authority())?;
        Ok(LocalFs {
            root,
            root_path,
            read_only: false,
        })
    }

    /// The same directory, from now on refusing every change with
    /// [`FsErrorKind::ReadOnly`].
    #[must_use]
    pub fn read_only(mut self) -> Self {
        self.read_only = true;
        self
    }

    /// The directory this adapter was opened on, as given.
    pub fn root_path(&self) -> &Path {
        &self.root_path
    }

    fn check_writable(&self, path: &FsPath) -> Result<(), FsError> {
        if self.read_only {
            Err(FsError::read_only(path))
        } else {
            Ok(())
        }
    }

    /// Refuses, without opening anything, what is not a regular file with one name: the
    /// checks of [`check_regular`] on the directory entry (a symlink inside the root is
    /// followed).
    fn check_kind(&self, path: &FsPath) -> Result<(), FsError> {
        let metadata = self
            .root
            .metadata(path.as_std())
            .map_err(|error| io_error(path, error))?;
        check_regular(path, &metadata)
    }

    /// Opens a regular file for reading, after checking its kind without opening it, and
    /// checks the handle itself.
    fn open_file(&self, path: &FsPath) -> Result<(File, Metadata), FsError> {
        self.check_kind(path)?;
        let mut options = OpenOptions::new();
        options.read(true);
        non_blocking(&mut options);
        let file = self
            .root
            .open_with(path.as_std(), &options)
            .map_err(|error| io_error(path, error))?;
        let metadata = file.metadata().map_err(|error| io_error(path, error))?;
        check_regular(path, &metadata)?;
        Ok((file, metadata))
    }

    /// Creates the missing directories above `path`; a file on the way is refused.
    fn make_parents(&self, path: &FsPath) -> Result<(), FsError> {
        for ancestor in path.ancestors() {
            match self.root.metadata(ancestor.as_std()) {
                Ok(metadata) if metadata.is_dir() => {}
                Ok(_) => return Err(FsError::parent_not_dir(path)),
                Err(error) if error.kind() == io::ErrorKind::NotFound => {
                    match self.root.create_dir(ancestor.as_std()) {
                        Ok(()) => {}
                        // Created meanwhile by someone else: fine if it is a directory,
                        // which the next step checks.
                        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
                        Err(error) => return Err(io_error(path, error)),
                    }
                }
                Err(error) => return Err(io_error(path, error)),
            }
        }
        Ok(())
    }

    /// What is at `path` itself (a symlink is not followed), or `None`.
    fn entry_at(&self, path: &FsPath) -> Result<Option<Metadata>, FsError> {
        match self.root.symlink_metadata(path.as_std()) {
            Ok(metadata) => Ok(Some(metadata)),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(io_error(path, error)),
        }
    }

    /// The directory holding `path` (which is not the root), as a handle of its own.
    fn parent_dir(&self, path: &FsPath) -> Result<Dir, FsError> {
        let parent = path.parent().unwrap_or_default();
        self.root
            .open_dir(parent.as_std())
            .map_err(|error| io_error(path, error))
    }

    /// Deletes the directory at `path` (not the root) with everything in it.
    #[cfg(unix)]
    fn remove_tree(&self, path: &FsPath) -> io::Result<()> {
        let parent = self
            .root
            .open_dir(path.parent().unwrap_or_default().as_std())?;
        let name = path.file_name().unwrap_or_default();
        let top = open_subdir(&parent, std::ffi::OsStr::new(name))?;
        empty_tree(top)?;
        parent.remove_dir(name)
    }

    #[cfg(not(unix))]
    fn remove_tree(&self, path: &FsPath) -> io::Result<()> {
        self.root.remove_dir_all(path.as_std())
    }

    /// Replaces `path` whole and atomically: the data goes to a temporary file beside it,
    /// which is then renamed over the target.
    fn replace(&self, path: &FsPath, data: &[u8]) -> Result<(), FsError> {
        let name = path.file_name().unwrap_or_default();
        let dir = self.parent_dir(path)?;
        let temp = format!(
            ".mcs-{}-{}.tmp",
            std::process::id(),
            TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let written = (|| {
            let mut options = OpenOptions::new();
            options.write(true).create_new(true);
            let mut file = dir.open_with(&temp, &options)?;
            file.write_all(data)?;
            file.sync_data()?;
            dir.rename(&temp, &dir, name)
        })();
        written.map_err(|error| {
            let _ = dir.remove_file(&temp);
            io_error(path, error)
        })
    }
}

#[cfg(unix)]
fn non_blocking(options: &mut OpenOptions) {
    use cap_std::fs::OpenOptionsExt;
    // Opening a FIFO for reading would otherwise wait for a writer forever.
    options.custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32);
}

#[cfg(not(unix))]
fn non_blocking(_: &mut OpenOptions) {}

/// Refuses what is not a regular file with one name.
fn check_regular(path: &FsPath, metadata: &Metadata) -> Result<(), FsError> {
    if metadata.is_dir() {
        return Err(FsError::is_dir(path));
    }
    if !metadata.is_file() {
        return Err(special(path));
    }
    #[cfg(unix)]
    {
        use cap_std::fs::MetadataExt;
        if metadata.nlink() > 1 {
            return Err(FsError::new(
                FsErrorKind::HardLinked,
                path,
                format!(
                    "this file has {} hard links, and another may be outside the root, so its \
                     content is not read or changed through this name",
                    metadata.nlink()
                ),
            ));
        }
    }
    Ok(())
}

/// The one refusal of a FIFO, socket or device, wherever it is met.
fn special(path: &FsPath) -> FsError {
    FsError::new(
        FsErrorKind::NotAFile,
        path,
        "this is a FIFO, socket or device, not a regular file; it is never opened, \
         written or replaced",
    )
}

/// Whether `metadata` (not following a symlink) is a FIFO, socket or device.
fn is_special(metadata: &Metadata) -> bool {
    !metadata.is_dir() && !metadata.is_file() && !metadata.is_symlink()
}

/// The most directory handles a recursive delete keeps open, however deep the tree: far
/// below any process's open-file limit.
#[cfg(unix)]
const HELD_DIRS: usize = 128;

/// The subdirectory `name` of `parent`, opened without following a symlink (a directory
/// swapped for a link while a delete runs is not entered).
#[cfg(unix)]
fn open_subdir(parent: &Dir, name: &std::ffi::OsStr) -> io::Result<Dir> {
    use rustix::fs::{Mode, OFlags};
    let fd = rustix::fs::openat(
        parent,
        name,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    Ok(Dir::from_std_file(std::fs::File::from(fd)))
}

/// Removes everything inside `top`, depth first, with a loop and heap-allocated stacks: no
/// call per level, and at most [`HELD_DIRS`] directory handles (plus two) open at once. The
/// handles of the deepest levels are kept; going up past them opens the path again from
/// `top`, one name at a time, so a tree deeper than the open-file limit (or than `PATH_MAX`)
/// is deleted whole.
#[cfg(unix)]
fn empty_tree(top: Dir) -> io::Result<()> {
    use std::collections::VecDeque;
    use std::ffi::OsString;

    /// Removes the entries of `dir` that are not directories; returns the directories.
    fn clear(dir: &Dir) -> io::Result<Vec<OsString>> {
        let mut subdirs = Vec::new();
        for entry in dir.entries()? {
            let entry = entry?;
            let removed = if entry.file_type()?.is_dir() {
                subdirs.push(entry.file_name());
                Ok(())
            } else {
                entry.remove_file()
            };
            match removed {
                Err(error) if error.kind() != io::ErrorKind::NotFound => return Err(error),
                _ => {}
            }
        }
        Ok(subdirs)
    }

    // `names[i]` is the name of level i + 1 in level i (level 0 is `top`); `held` has the
    // handles of the deepest levels, the current one last.
    let mut names: Vec<OsString> = Vec::new();
    let mut held: VecDeque<Dir> = VecDeque::new();
    let mut pending: Vec<Vec<OsString>> = vec![clear(&top)?];
    held.push_back(top.try_clone()?);
    loop {
        let next = pending.last_mut().and_then(Vec::pop);
        let Some(name) = next else {
            // The current directory holds nothing more: go up and remove it.
            pending.pop();
            let Some(name) = names.pop() else {
                return Ok(());
            };
            held.pop_back();
            if held.is_empty() {
                // Reopen the levels above from the top, keeping the deepest of them.
                let level = names.len();
                let keep_from = (level + 1).saturating_sub(HELD_DIRS);
                let mut dir = top.try_clone()?;
                for (index, step) in names.iter().enumerate() {
                    if index >= keep_from {
                        held.push_back(dir.try_clone()?);
                    }
                    dir = open_subdir(&dir, step)?;
                }
                held.push_back(dir);
            }
            let Some(parent) = held.back() else {
                return Err(io::Error::other("lost the directory being emptied"));
            };
            match parent.remove_dir(&name) {
                Err(error) if error.kind() != io::ErrorKind::NotFound => return Err(error),
                _ => continue,
            }
        };
        let Some(parent) = held.back() else {
            return Err(io::Error::other("lost the directory being emptied"));
        };
        let child = match open_subdir(parent, &name) {
            Ok(child) => child,
            // Gone meanwhile: nothing left to delete there.
            Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
            Err(error) => return Err(error),
        };
        pending.push(clear(&child)?);
        names.push(name);
        held.push_back(child);
        if held.len() > HELD_DIRS {
            held.pop_front();
        }
    }
}

fn kind_of(file_type: cap_std::fs::FileType) -> EntryKind {
    if file_type.is_dir() {
        EntryKind::Dir
    } else if file_type.is_file() {
        EntryKind::File
    } else if file_type.is_symlink() {
        EntryKind::Symlink
    } else {
        EntryKind::Special
    }
}

/// An OS error, in the words every adapter uses.
fn io_error(path: &FsPath, error: io::Error) -> FsError {
    use io::ErrorKind as K;
    // cap-std's word for a path that resolved outside the root.
    if error.kind() == K::PermissionDenied
        && error.to_string().contains("outside of the filesystem")
    {
        return FsError::new(
            FsErrorKind::OutsideRoot,
            path,
            "this path leads outside the root directory (through `..` or a symbolic link)",
        );
    }
    // What opening a socket or a device without a driver gives: the kind check before
    // opening makes it a race only, refused in the same words.
    #[cfg(unix)]
    if error.raw_os_error() == Some(rustix::io::Errno::NXIO.raw_os_error()) {
        return special(path);
    }
    #[cfg(unix)]
    if error.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) {
        return FsError::new(
            FsErrorKind::InvalidPath,
            path,
            "too many levels of symbolic links",
        );
    }
    match error.kind() {
        K::NotFound => FsError::not_found(path),
        K::NotADirectory => FsError::parent_not_dir(path),
        K::IsADirectory => FsError::is_dir(path),
        K::AlreadyExists => FsError::exists(path),
        K::DirectoryNotEmpty => FsError::dir_not_empty(path),
        K::ReadOnlyFilesystem => FsError::new(
            FsErrorKind::ReadOnly,
            path,
            "the filesystem is mounted read-only",
        ),
        K::InvalidFilename => FsError::new(
            FsErrorKind::InvalidPath,
            path,
            format!("not a valid name here: {error}"),
        ),
        K::PermissionDenied => FsError::new(
            FsErrorKind::PermissionDenied,
            path,
            format!("the operating system refused access: {error}"),
        ),
        _ => FsError::new(FsErrorKind::Io, path, error.to_string()),
    }
}

fn modified_secs(metadata: &Metadata) -> Option<u64> {
    let modified = metadata.modified().ok()?.into_std();
    modified
        .duration_since(UNIX_EPOCH)
        .ok()
        .map(|d| d.as_secs())
}

impl Adapter for LocalFs {
    fn name(&self) -> &str {
        "local"
    }

    fn is_read_only(&self) -> bool {
        self.read_only
    }

    fn read(&self, path: &FsPath, max_bytes: u64) -> Result<Vec<u8>, FsError> {
        let (file, metadata) = self.open_file(path)?;
        if metadata.len() > max_bytes {
            return Err(FsError::too_large(path, metadata.len(), max_bytes));
        }
        let mut data = Vec::with_capacity(metadata.len() as usize);
        // The file may grow after the check: read one byte more than allowed to notice.
        file.take(max_bytes.saturating_add(1))
            .read_to_end(&mut data)
            .map_err(|error| io_error(path, error))?;
        if data.len() as u64 > max_bytes {
            return Err(FsError::too_large(path, data.len() as u64, max_bytes));
        }
        Ok(data)
    }

    fn read_range(&self, path: &FsPath, offset: u64, len: u64) -> Result<(Vec<u8>, u64), FsError> {
        let (mut file, metadata) = self.open_file(path)?;
        let size = metadata.len();
        let mut data = Vec::new();
        if offset < size {
            file.seek(SeekFrom::Start(offset))
                .map_err(|error| io_error(path, error))?;
            file.take(len.min(size - offset))
                .read_to_end(&mut data)
                .map_err(|error| io_error(path, error))?;
        }
        Ok((data, size))
    }

    fn write(&self, path: &FsPath, data: &[u8], mode: WriteMode) -> Result<u64, FsError> {
        self.check_writable(path)?;
        let Some(name) = path.file_name() else {
            return Err(FsError::is_dir(path));
        };
        self.make_parents(path)?;
        let existing = self.entry_at(path)?;
        match &existing {
            Some(metadata) if metadata.is_dir() => return Err(FsError::is_dir(path)),
            Some(metadata) if is_special(metadata) => return Err(special(path)),
            Some(_) if mode == WriteMode::Create => return Err(FsError::exists(path)),
            // Appending writes through a symlink: what it leads to must be a file.
            Some(metadata) if metadata.is_symlink() && mode == WriteMode::Append => {
                match self.check_kind(path) {
                    // A dangling link: the open below creates its target or says why not.
                    Err(error) if error.kind() == FsErrorKind::NotFound => {}
                    checked => checked?,
                }
            }
            _ => {}
        }
        match mode {
            WriteMode::Overwrite => {
                self.replace(path, data)?;
                Ok(data.len() as u64)
            }
            WriteMode::Create => {
                let dir = self.parent_dir(path)?;
                let mut options = OpenOptions::new();
                options.write(true).create_new(true);
                let mut file = dir
                    .open_with(name, &options)
                    .map_err(|error| io_error(path, error))?;
                if let Err(error) = file.write_all(data) {
                    let _ = dir.remove_file(name);
                    return Err(io_error(path, error));
                }
                Ok(data.len() as u64)
            }
            WriteMode::Append => {
                let mut options = OpenOptions::new();
                options.append(true).create(true);
                non_blocking(&mut options);
                let mut file = self
                    .root
                    .open_with(path.as_std(), &options)
                    .map_err(|error| io_error(path, error))?;
                let metadata = file.metadata().map_err(|error| io_error(path, error))?;
                check_regular(path, &metadata)?;
                file.write_all(data)
                    .map_err(|error| io_error(path, error))?;
                Ok(metadata.len() + data.len() as u64)
            }
        }
    }

    fn list_dir(&self, path: &FsPath) -> Result<Vec<DirEntry>, FsError> {
        let metadata = self
            .root
            .metadata(path.as_std())
            .map_err(|error| io_error(path, error))?;
        if !metadata.is_dir() {
            return Err(FsError::not_dir(path));
        }
        let entries = self
            .root
            .read_dir(path.as_std())
            .map_err(|error| io_error(path, error))?;
        let mut out = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|error| io_error(path, error))?;
            // A name that is not UTF-8 cannot be written by a model, so it is not shown.
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            let Ok(file_type) = entry.file_type() else {
                continue;
            };
            let kind = kind_of(file_type);
            let size = match kind {
                EntryKind::File => entry.metadata().ok().map(|m| m.len()),
                _ => None,
            };
            out.push(DirEntry { name, kind, size });
        }
        Ok(out)
    }

    fn stat(&self, path: &FsPath) -> Result<Stat, FsError> {
        let metadata = self
            .root
            .metadata(path.as_std())
            .map_err(|error| io_error(path, error))?;
        let kind = kind_of(metadata.file_type());
        Ok(Stat {
            kind,
            size: if kind == EntryKind::File {
                metadata.len()
            } else {
                0
            },
            modified: modified_secs(&metadata),
        })
    }

    fn remove(&self, path: &FsPath, recursive: bool) -> Result<(), FsError> {
        self.check_writable(path)?;
        if path.is_root() {
            return Err(FsError::root(path, "deleted"));
        }
        let Some(metadata) = self.entry_at(path)? else {
            return Err(FsError::not_found(path));
        };
        let removed = if metadata.is_dir() {
            if recursive {
                self.remove_tree(path)
            } else {
                self.root.remove_dir(path.as_std())
            }
        } else {
            // A symlink is removed itself, never what it points to.
            self.root.remove_file(path.as_std())
        };
        removed.map_err(|error| io_error(path, error))
    }

    fn create_dir(&self, path: &FsPath) -> Result<bool, FsError> {
        self.check_writable(path)?;
        if path.is_root() {
            return Ok(false);
        }
        self.make_parents(path)?;
        match self.entry_at(path)? {
            Some(metadata) if metadata.is_dir() => Ok(false),
            Some(_) => Err(FsError::exists(path)),
            None => match self.root.create_dir(path.as_std()) {
                Ok(()) => Ok(true),
                Err(error) => Err(io_error(path, error)),
            },
        }
    }

    fn rename(&self, from: &FsPath, to: &FsPath, overwrite: bool) -> Result<(), FsError> {
        self.check_writable(from)?;
        if from.is_root() || to.is_root() {
            let root_one = if from.is_root() { from } else { to };
            return Err(FsError::root(root_one, "moved or replaced"));
        }
        let Some(source) = self.entry_at(from)? else {
            return Err(FsError::not_found(from));
        };
        if from == to {
            return Ok(());
        }
        if to.starts_with(from) {
            return Err(FsError::into_itself(to));
        }
        self.make_parents(to)?;
        if let Some(target) = self.entry_at(to)? {
            if !overwrite {
                return Err(FsError::exists(to));
            }
            if is_special(&target) {
                return Err(special(to));
            }
            if target.is_dir() || source.is_dir() {
                return Err(FsError::kind_clash(to));
            }
        }
        self.root
            .rename(from.as_std(), &self.root, to.as_std())
            .map_err(|error| io_error(to, error))
    }

    fn copy(
        &self,
        from: &FsPath,
        to: &FsPath,
        overwrite: bool,
        max_bytes: u64,
    ) -> Result<u64, FsError> {
        self.check_writable(to)?;
        let (file, metadata) = self.open_file(from)?;
        if metadata.len() > max_bytes {
            return Err(FsError::too_large(from, metadata.len(), max_bytes));
        }
        if to.is_root() {
            return Err(FsError::is_dir(to));
        }
        if from == to {
            return Err(FsError::same_file(to));
        }
        self.make_parents(to)?;
        match self.entry_at(to)? {
            Some(target) if target.is_dir() => return Err(FsError::is_dir(to)),
            Some(_) if !overwrite => return Err(FsError::exists(to)),
            Some(target) if is_special(&target) => return Err(special(to)),
            _ => {}
        }
        let mut data = Vec::with_capacity(metadata.len() as usize);
        file.take(max_bytes.saturating_add(1))
            .read_to_end(&mut data)
            .map_err(|error| io_error(from, error))?;
        if data.len() as u64 > max_bytes {
            return Err(FsError::too_large(from, data.len() as u64, max_bytes));
        }
        self.replace(to, &data)?;
        Ok(data.len() as u64)
    }
}
