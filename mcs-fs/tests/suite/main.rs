//! The adapter consistency rule as a test: one suite, run against every adapter.
//!
//! Each test is a generic function over the adapter (in `content.rs`, `tree.rs` and
//! `driver.rs`); `suite!` instantiates all of them for the memory adapter and for the local
//! one (in a fresh temporary directory). A backend of your own joins by adding a module to
//! the macro.

mod content;
mod driver;
mod tree;

use mcs_fs::{Body, FsErrorKind};

macro_rules! suite {
    ($($group:ident :: $test:ident),* $(,)?) => {
        mod memory {
            $(
                #[test]
                fn $test() {
                    // One tree, shared by every adapter value the test asks for, as the
                    // local tests share their directory.
                    let fs = std::sync::Arc::new(mcs_fs::MemoryFs::new());
                    super::$group::$test(|| std::sync::Arc::clone(&fs));
                }
            )*
        }
        mod local {
            $(
                #[test]
                fn $test() {
                    let dir = tempfile::tempdir().unwrap();
                    super::$group::$test(|| mcs_fs::LocalFs::open(dir.path()).unwrap());
                }
            )*
        }
    };
}

suite!(
    content::write_then_read_list_and_stat,
    content::write_modes,
    content::line_and_byte_ranges,
    content::limits_are_named,
    content::binary_files_are_summarised,
    content::edit_file,
    content::read_only_refuses_changes,
    tree::error_kinds,
    tree::move_and_copy,
    tree::make_dir,
    tree::find_by_glob,
    tree::search_content,
    tree::paths_are_checked_the_same_way,
    tree::unicode_names,
    tree::deep_trees,
    tree::path_length_limit,
    driver::through_the_driver,
    driver::a_refused_large_write_is_not_copied,
    driver::read_only_driver_hides_write_tools,
);

pub(crate) fn kind<T: std::fmt::Debug>(result: Result<T, mcs_fs::FsError>) -> FsErrorKind {
    result.expect_err("expected an error").kind()
}

pub(crate) fn text(content: &mcs_fs::FileContent) -> &str {
    match &content.body {
        Body::Text { content, .. } => content,
        Body::Binary { .. } => panic!("expected text, got {content:?}"),
    }
}

/// Lowers this process's soft open-file limit while it lives (restored on drop), so that a
/// test can show an operation holds a bounded number of descriptors. Other tests of this
/// binary use a handful each, far below the lowered limit.
pub(crate) struct FdLimit {
    before: rustix::process::Rlimit,
}

impl FdLimit {
    pub(crate) fn lower_to(limit: u64) -> FdLimit {
        use rustix::process::{Resource, getrlimit, setrlimit};
        let before = getrlimit(Resource::Nofile);
        let mut lowered = before;
        lowered.current = Some(before.current.map_or(limit, |current| current.min(limit)));
        setrlimit(Resource::Nofile, lowered).expect("lowering the soft open-file limit");
        FdLimit { before }
    }
}

impl Drop for FdLimit {
    fn drop(&mut self) {
        let _ = rustix::process::setrlimit(rustix::process::Resource::Nofile, self.before);
    }
}
