//! What the integration tests share: the example server binary, built fresh.

use std::path::PathBuf;
use std::sync::OnceLock;

/// The `mcp_server` example, built by cargo if it is missing or stale: `cargo test` builds
/// examples, but `cargo test --test round_trip` does not, and a binary left from an older
/// tree would test old code. Built with the workspace's features, as `cargo test --workspace`
/// (CI) builds it, so that in CI this finds it fresh and compiles nothing.
pub(crate) fn example_server() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let output = std::process::Command::new(env!("CARGO"))
                .args([
                    "build",
                    "--quiet",
                    "-p",
                    "mcs-mcp",
                    "--example",
                    "mcp_server",
                ])
                .output()
                .expect("cargo runs");
            assert!(
                output.status.success(),
                "building the mcp_server example failed:\n{}",
                String::from_utf8_lossy(&output.stderr)
            );
            let mut path = std::env::current_exe().expect("the test knows where it is");
            path.pop();
            if path.ends_with("deps") {
                path.pop();
            }
            let path = path
                .join("examples")
                .join(format!("mcp_server{}", std::env::consts::EXE_SUFFIX));
            assert!(path.exists(), "{} was not built", path.display());
            path
        })
        .clone()
}
