//! [`ReadOnlyFiles`]: the file tools that only look, for a directory the model may read but
//! not change.

use std::sync::{Arc, OnceLock};

use mcs::hybrid::HybridOptions;
use mcs::{DriverMeta, Tool, ToolDriver, ToolError, ToolFuture};
use serde_json::Value;

use crate::adapter::Adapter;
use crate::driver::{Files, Limits};

/// The tag [`Files`] puts on the tools that change nothing.
const READ_TAG: &str = "read";

/// [`Files`] with the write tools hidden: the model is offered `list`, `read_file`, `stat`,
/// `find` and `search` only, and a call for a write tool is a call for a tool this driver
/// does not have (passed through by `process_llm_response`, as the standard says, and
/// refused by `execute_tool`). The inner driver is read-only as well, so nothing can change
/// even through it.
///
/// Hand-written rather than annotated: it derives its tools from another driver's at run
/// time, which is what `ToolDriver` by hand is for; the `Driver` side is the same
/// [`mod@mcs::hybrid`] machinery the macro uses.
///
/// ```
/// use mcs::ToolDriver;
/// use mcs_fs::{MemoryFs, ReadOnlyFiles};
///
/// let files = ReadOnlyFiles::new(MemoryFs::new());
/// let tools = files.list_tools();
/// let names: Vec<&str> = tools.iter().map(|tool| tool.name()).collect();
/// assert_eq!(names, ["list", "read_file", "stat", "find", "search"]);
/// ```
pub struct ReadOnlyFiles<A> {
    inner: Files<A>,
    tools: Arc<[Tool]>,
}

impl<A: Adapter> ReadOnlyFiles<A> {
    /// The read tools over `adapter`, with the default [`Limits`].
    pub fn new(adapter: A) -> Self {
        let inner = Files::new(adapter).read_only();
        let tools = inner
            .list_tools()
            .iter()
            .filter(|tool| {
                inner
                    .tool_tags(tool.name())
                    .iter()
                    .any(|tag| tag == READ_TAG)
            })
            .cloned()
            .collect();
        ReadOnlyFiles { inner, tools }
    }

    /// Uses these limits.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.inner = self.inner.with_limits(limits);
        self
    }

    /// The read-only [`Files`] driver the tools are served from.
    pub fn inner(&self) -> &Files<A> {
        &self.inner
    }
}

fn options() -> &'static HybridOptions {
    static OPTIONS: OnceLock<HybridOptions> = OnceLock::new();
    OPTIONS.get_or_init(HybridOptions::default)
}

impl<A: Adapter> ToolDriver for ReadOnlyFiles<A> {
    fn meta(&self) -> &DriverMeta {
        ToolDriver::meta(&self.inner)
    }

    fn list_tools(&self) -> Arc<[Tool]> {
        Arc::clone(&self.tools)
    }

    fn execute_tool<'a>(&'a self, name: &'a str, arguments: Value) -> ToolFuture<'a> {
        if self.tools.iter().any(|tool| tool.name() == name) {
            self.inner.execute_tool(name, arguments)
        } else {
            ToolFuture::ready(Err(ToolError::unknown_tool_among(
                name,
                self.tools.iter().map(Tool::name),
            )))
        }
    }

    fn tool_tags(&self, name: &str) -> Vec<String> {
        self.inner.tool_tags(name)
    }

    fn tag_description(&self, tag: &str) -> Option<String> {
        self.inner.tag_description(tag)
    }
}

mcs::__private::hybrid_driver!([<A: Adapter>] ReadOnlyFiles<A>, [], |this| options());
