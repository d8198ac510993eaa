//! Step 2 of the guide, a second backend: a filesystem held in memory, for tests and for
//! sandboxes that must leave no trace.

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::adapter::Adapter;
use crate::error::FsError;
use crate::path::FsPath;
use crate::types::{DirEntry, EntryKind, Stat, WriteMode};

enum Node {
    File { data: Vec<u8>, modified: u64 },
    Dir(BTreeMap<String, Node>),
}

/// Dropping a directory takes its children out first, so that a tree of any depth is freed
/// with a loop and a heap-allocated stack, never a call per level: a model can build a tree
/// far deeper than a thread's stack could recurse through (moving deep trees under deep
/// paths), and deleting or dropping it must not abort the process.
impl Drop for Node {
    fn drop(&mut self) {
        let Node::Dir(children) = self else {
            return;
        };
        if children
            .values()
            .all(|child| matches!(child, Node::File { .. }))
        {
            return;
        }
        let mut stack = vec![std::mem::take(children)];
        while let Some(dir) = stack.pop() {
            for (_, mut child) in dir {
                if let Node::Dir(grandchildren) = &mut child {
                    stack.push(std::mem::take(grandchildren));
                }
                // `child` drops here with no children left.
            }
        }
    }
}

impl Node {
    fn kind(&self) -> EntryKind {
        match self {
            Node::File { .. } => EntryKind::File,
            Node::Dir(_) => EntryKind::Dir,
        }
    }
}

/// A directory tree in memory. It has files and directories, no symlinks, no hard links
/// and no special files, so the errors that only those cause never come from it.
///
/// ```
/// use mcs_fs::{Adapter, FsPath, MemoryFs, WriteMode};
///
/// let fs = MemoryFs::new();
/// let path = FsPath::parse("notes/todo.md").unwrap();
/// fs.write(&path, b"- water the plants\n", WriteMode::Create).unwrap();
/// assert_eq!(fs.read(&path, 1024).unwrap(), b"- water the plants\n");
/// ```
pub struct MemoryFs {
    root: Mutex<BTreeMap<String, Node>>,
    read_only: bool,
}

impl Default for MemoryFs {
    fn default() -> Self {
        MemoryFs::new()
    }
}

impl std::fmt::Debug for MemoryFs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryFs")
            .field("read_only", &self.read_only)
            .finish_non_exhaustive()
    }
}

impl MemoryFs {
    /// An empty filesystem.
    pub fn new() -> Self {
        MemoryFs {
            root: Mutex::new(BTreeMap::new()),
            read_only: false,
        }
    }

    /// The same tree, from now on refusing every change with
    /// [`FsErrorKind::ReadOnly`](crate::FsErrorKind::ReadOnly).
    #[must_use]
    pub fn read_only(mut self) -> Self {
        self.read_only = true;
        self
    }

    fn lock(&self) -> MutexGuard<'_, BTreeMap<String, Node>> {
        // Every change below is made in one step on the tree, so a panic elsewhere while
        // the lock was held cannot have left it half-changed.
        self.root
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn check_writable(&self, path: &FsPath) -> Result<(), FsError> {
        if self.read_only {
            Err(FsError::read_only(path))
        } else {
            Ok(())
        }
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs())
}

/// The directory holding `path`'s last name, with the errors the local adapter gives.
fn parent_dir<'a>(
    root: &'a BTreeMap<String, Node>,
    path: &FsPath,
) -> Result<&'a BTreeMap<String, Node>, FsError> {
    let mut dir = root;
    let names: Vec<&str> = path.components().collect();
    for name in &names[..names.len().saturating_sub(1)] {
        dir = match dir.get(*name) {
            Some(Node::Dir(children)) => children,
            Some(Node::File { .. }) => return Err(FsError::parent_not_dir(path)),
            None => return Err(FsError::not_found(path)),
        };
    }
    Ok(dir)
}

fn lookup<'a>(root: &'a BTreeMap<String, Node>, path: &FsPath) -> Result<Lookup<'a>, FsError> {
    let Some(name) = path.file_name() else {
        return Ok(Lookup::Root(root));
    };
    parent_dir(root, path)?
        .get(name)
        .map(Lookup::Node)
        .ok_or_else(|| FsError::not_found(path))
}

enum Lookup<'a> {
    Root(&'a BTreeMap<String, Node>),
    Node(&'a Node),
}

/// The directory that will hold `path`, creating missing parents; a file on the way is
/// refused.
fn make_parents<'a>(
    root: &'a mut BTreeMap<String, Node>,
    path: &FsPath,
) -> Result<&'a mut BTreeMap<String, Node>, FsError> {
    let names: Vec<&str> = path.components().collect();
    // Refuse before creating anything, as the local adapter does.
    let mut probe: &BTreeMap<String, Node> = root;
    for name in &names[..names.len().saturating_sub(1)] {
        match probe.get(*name) {
            Some(Node::Dir(children)) => probe = children,
            Some(Node::File { .. }) => return Err(FsError::parent_not_dir(path)),
            None => break,
        }
    }
    let mut dir = root;
    for name in &names[..names.len().saturating_sub(1)] {
        let node = dir
            .entry((*name).to_owned())
            .or_insert_with(|| Node::Dir(BTreeMap::new()));
        dir = match node {
            Node::Dir(children) => children,
            Node::File { .. } => return Err(FsError::parent_not_dir(path)),
        };
    }
    Ok(dir)
}

fn file_bytes<'a>(root: &'a BTreeMap<String, Node>, path: &FsPath) -> Result<&'a [u8], FsError> {
    match lookup(root, path)? {
        Lookup::Node(Node::File { data, .. }) => Ok(data),
        _ => Err(FsError::is_dir(path)),
    }
}

impl Adapter for MemoryFs {
    fn name(&self) -> &str {
        "memory"
    }

    fn is_read_only(&self) -> bool {
        self.read_only
    }

    fn read(&self, path: &FsPath, max_bytes: u64) -> Result<Vec<u8>, FsError> {
        let root = self.lock();
        let data = file_bytes(&root, path)?;
        if data.len() as u64 > max_bytes {
            return Err(FsError::too_large(path, data.len() as u64, max_bytes));
        }
        Ok(data.to_vec())
    }

    fn read_range(&self, path: &FsPath, offset: u64, len: u64) -> Result<(Vec<u8>, u64), FsError> {
        let root = self.lock();
        let data = file_bytes(&root, path)?;
        let size = data.len() as u64;
        let start = offset.min(size);
        let end = offset.saturating_add(len).min(size);
        // Both bounds are at most `size`, which came from a `usize`.
        Ok((data[start as usize..end as usize].to_vec(), size))
    }

    fn write(&self, path: &FsPath, data: &[u8], mode: WriteMode) -> Result<u64, FsError> {
        self.check_writable(path)?;
        let Some(name) = path.file_name() else {
            return Err(FsError::is_dir(path));
        };
        let mut root = self.lock();
        let dir = make_parents(&mut root, path)?;
        let modified = now();
        match (dir.get_mut(name), mode) {
            (Some(Node::Dir(_)), _) => Err(FsError::is_dir(path)),
            (Some(Node::File { .. }), WriteMode::Create) => Err(FsError::exists(path)),
            (
                Some(Node::File {
                    data: old,
                    modified: at,
                }),
                WriteMode::Append,
            ) => {
                old.extend_from_slice(data);
                *at = modified;
                Ok(old.len() as u64)
            }
            _ => {
                dir.insert(
                    name.to_owned(),
                    Node::File {
                        data: data.to_vec(),
                        modified,
                    },
                );
                Ok(data.len() as u64)
            }
        }
    }

    fn list_dir(&self, path: &FsPath) -> Result<Vec<DirEntry>, FsError> {
        let root = self.lock();
        let children = match lookup(&root, path)? {
            Lookup::Root(children) | Lookup::Node(Node::Dir(children)) => children,
            Lookup::Node(Node::File { .. }) => return Err(FsError::not_dir(path)),
        };
        Ok(children
            .iter()
            .map(|(name, node)| DirEntry {
                name: name.clone(),
                kind: node.kind(),
                size: match node {
                    Node::File { data, .. } => Some(data.len() as u64),
                    Node::Dir(_) => None,
                },
            })
            .collect())
    }

    fn stat(&self, path: &FsPath) -> Result<Stat, FsError> {
        let root = self.lock();
        Ok(match lookup(&root, path)? {
            Lookup::Root(_) | Lookup::Node(Node::Dir(_)) => Stat {
                kind: EntryKind::Dir,
                size: 0,
                modified: None,
            },
            Lookup::Node(Node::File { data, modified }) => Stat {
                kind: EntryKind::File,
                size: data.len() as u64,
                modified: Some(*modified),
            },
        })
    }

    fn remove(&self, path: &FsPath, recursive: bool) -> Result<(), FsError> {
        self.check_writable(path)?;
        let Some(name) = path.file_name() else {
            return Err(FsError::root(path, "deleted"));
        };
        let mut root = self.lock();
        if let Lookup::Node(Node::Dir(children)) = lookup(&root, path)?
            && !children.is_empty()
            && !recursive
        {
            return Err(FsError::dir_not_empty(path));
        }
        let dir = make_parents(&mut root, path)?;
        dir.remove(name);
        Ok(())
    }

    fn create_dir(&self, path: &FsPath) -> Result<bool, FsError> {
        self.check_writable(path)?;
        let Some(name) = path.file_name() else {
            return Ok(false);
        };
        let mut root = self.lock();
        let dir = make_parents(&mut root, path)?;
        match dir.get(name) {
            Some(Node::Dir(_)) => Ok(false),
            Some(Node::File { .. }) => Err(FsError::exists(path)),
            None => {
                dir.insert(name.to_owned(), Node::Dir(BTreeMap::new()));
                Ok(true)
            }
        }
    }

    fn rename(&self, from: &FsPath, to: &FsPath, overwrite: bool) -> Result<(), FsError> {
        self.check_writable(from)?;
        let (Some(from_name), Some(to_name)) = (from.file_name(), to.file_name()) else {
            let root_one = if from.is_root() { from } else { to };
            return Err(FsError::root(root_one, "moved or replaced"));
        };
        let mut root = self.lock();
        let Lookup::Node(source) = lookup(&root, from)? else {
            return Err(FsError::root(from, "moved or replaced"));
        };
        let source_is_dir = matches!(source, Node::Dir(_));
        if from == to {
            return Ok(());
        }
        if to.starts_with(from) {
            return Err(FsError::into_itself(to));
        }
        let target_dir = make_parents(&mut root, to)?;
        match target_dir.get(to_name) {
            Some(_) if !overwrite => return Err(FsError::exists(to)),
            Some(Node::Dir(_)) => return Err(FsError::kind_clash(to)),
            Some(Node::File { .. }) if source_is_dir => return Err(FsError::kind_clash(to)),
            _ => {}
        }
        let source_dir = make_parents(&mut root, from)?;
        let node = source_dir
            .remove(from_name)
            .ok_or_else(|| FsError::not_found(from))?;
        make_parents(&mut root, to)?.insert(to_name.to_owned(), node);
        Ok(())
    }

    fn copy(
        &self,
        from: &FsPath,
        to: &FsPath,
        overwrite: bool,
        max_bytes: u64,
    ) -> Result<u64, FsError> {
        self.check_writable(to)?;
        let mut root = self.lock();
        let data = file_bytes(&root, from)?.to_vec();
        if data.len() as u64 > max_bytes {
            return Err(FsError::too_large(from, data.len() as u64, max_bytes));
        }
        let Some(to_name) = to.file_name() else {
            return Err(FsError::is_dir(to));
        };
        if from == to {
            return Err(FsError::same_file(to));
        }
        let dir = make_parents(&mut root, to)?;
        match dir.get(to_name) {
            Some(Node::Dir(_)) => return Err(FsError::is_dir(to)),
            Some(Node::File { .. }) if !overwrite => return Err(FsError::exists(to)),
            _ => {}
        }
        let size = data.len() as u64;
        dir.insert(
            to_name.to_owned(),
            Node::File {
                data,
                modified: now(),
            },
        );
        Ok(size)
    }
}
