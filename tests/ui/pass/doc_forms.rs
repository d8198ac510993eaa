// The forms a tool's description comes in: `///` lines, a starred `/** */` block (stars
// removed as rustdoc does), a literal `#[doc = "..."]`; `#[doc(alias)]` and `#[doc(hidden)]`
// carry no text and are left alone; an explicit title; `# Arguments` with `-` bullets.
use mcs::ToolDriver;

struct Docs;

#[mcs::tool_driver]
impl Docs {
    /**
     * Reads a file.
     *
     * Returns its text.
     */
    #[tool]
    #[doc(alias = "cat")]
    fn read(&self, path: String) -> String {
        path
    }

    #[doc = "Writes a file."]
    ///
    /// # Arguments
    ///
    /// - path: Where to write.
    /// - text: What to write,
    ///   over several lines.
    #[tool(title = "Write")]
    #[doc(hidden)]
    fn write(&self, path: String, text: String) -> usize {
        path.len() + text.len()
    }

    /// Only a title, from the doc's first line.
    #[tool]
    fn stat(&self) -> u32 {
        0
    }
}

fn main() {
    let tools = Docs.list_tools();
    assert_eq!(tools[0].description(), "Reads a file.\n\nReturns its text.");
    assert_eq!(tools[0].title(), Some("Reads a file."));
    assert_eq!(tools[1].title(), Some("Write"));
    assert_eq!(tools[1].description(), "Writes a file.");
    let write = &tools[1];
    assert_eq!(
        write.parameter("path").unwrap().description,
        "Where to write."
    );
    assert_eq!(
        write.parameter("text").unwrap().description,
        "What to write,\nover several lines."
    );
    assert_eq!(
        tools[2].title(),
        Some("Only a title, from the doc's first line.")
    );
}
