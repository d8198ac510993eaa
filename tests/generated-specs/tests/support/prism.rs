//! Prism (`@stoplight/prism-cli`, installed by `.ci/run` into `tests/conformance`), an
//! OpenAPI mock server that validates every request against the document, started for one
//! document and stopped when dropped.

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The Prism command line, or why it is not there.
pub(crate) fn prism() -> Result<PathBuf, String> {
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/node_modules/.bin/prism");
    if bin.exists() {
        return Ok(bin);
    }
    match Command::new("node").arg("--version").output() {
        Ok(_) => Err(format!(
            "{} is missing: run `npm ci --prefix tests/conformance` (as .ci/run does)",
            bin.display()
        )),
        Err(_) => Err("Node.js is not installed, so Prism cannot run".to_owned()),
    }
}

/// A running `prism mock` for one document.
pub(crate) struct Mock {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
}

impl Mock {
    /// Starts Prism on a free port and waits until it listens (it reads large documents for
    /// a while first).
    pub(crate) fn start(bin: &Path, document: &Path) -> Result<Mock, String> {
        Mock::start_with(bin, document, &[])
    }

    /// Starts Prism answering with examples made from the response schemas (`--dynamic`),
    /// the same on every run (`--seed`): what a typed answer is checked against.
    pub(crate) fn start_dynamic(bin: &Path, document: &Path) -> Result<Mock, String> {
        Mock::start_with(bin, document, &["--dynamic", "--seed", "mcs"])
    }

    fn start_with(bin: &Path, document: &Path, extra: &[&str]) -> Result<Mock, String> {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let mut child = Command::new(bin)
            .args(["mock", "--host", "127.0.0.1", "--port", &port.to_string()])
            .args(extra)
            .arg(document)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start Prism: {e}"))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if line.contains("Prism is listening") {
                    let _ = sender.send(Ok(()));
                } else if line.contains("fatal") || line.contains("Error") {
                    let _ = sender.send(Err(line));
                }
            }
        });
        let mock = Mock {
            child,
            url: format!("http://127.0.0.1:{port}"),
        };
        match receiver.recv_timeout(Duration::from_secs(180)) {
            Ok(Ok(())) => Ok(mock),
            Ok(Err(line)) => Err(format!("Prism refused {}: {line}", document.display())),
            Err(_) => Err(format!("Prism did not start for {}", document.display())),
        }
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Why Prism refused a request, from its answer: the error type of its
/// `application/problem+json` body when that type says the request was wrong (no route,
/// invalid, unauthorized, unacceptable), with the detail; `None` when the request passed
/// validation (Prism may still fail to produce a response, which is not the request's fault).
pub(crate) fn refusal(status: u16, body: &str) -> Option<String> {
    const REQUEST_ERRORS: [&str; 6] = [
        "NO_PATH_MATCHED_ERROR",
        "NO_METHOD_MATCHED_ERROR",
        "UNPROCESSABLE_ENTITY",
        "UNAUTHORIZED",
        "INVALID_CONTENT_TYPE",
        "NOT_ACCEPTABLE",
    ];
    let problem: serde_json::Value = serde_json::from_str(body).ok()?;
    let kind = problem["type"].as_str()?.rsplit('#').next()?.to_owned();
    if !REQUEST_ERRORS.contains(&kind.as_str()) {
        return None;
    }
    let mut reason = format!(
        "{status} {kind}: {}",
        problem["detail"].as_str().unwrap_or("")
    );
    if let Some(errors) = problem["validation"].as_array() {
        for error in errors {
            reason.push_str(&format!(
                "; {} {}",
                error["location"],
                error["message"].as_str().unwrap_or("")
            ));
        }
    }
    Some(reason)
}
