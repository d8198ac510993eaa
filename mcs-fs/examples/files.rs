//! A model works on files in a directory it was granted: it lists, searches, reads and
//! edits, and cannot step outside.
//!
//! ```text
//! cargo run -p mcs-fs --example files
//! ```
//!
//! A scripted model plays the part (including an absolute path it then corrects). Point it
//! at any OpenAI-compatible server to let a real model do the work instead:
//!
//! ```text
//! MCS_LLM_BASE_URL=http://localhost:11434/v1 MCS_LLM_MODEL=qwen2.5:7b \
//!     cargo run -p mcs-fs --example files
//! ```

use std::fs;
use std::path::Path;

use mcs::llm::{OpenAiClient, ScriptedClient};
use mcs_fs::{Files, LocalFs};

#[path = "../../examples/common/converse.rs"]
mod converse;

const REQUEST: &str = "In this project, find where the greeting printed by the program is \
                       defined and change it to say \"Hello, MCS!\". Tell me which file you \
                       changed.";

/// What a model does with that request, written the ways open models write their calls.
fn scripted_model() -> ScriptedClient {
    ScriptedClient::from_texts([
        // The format the system prompt teaches.
        r#"{"tool": "list", "arguments": {"recursive": true}}"#,
        // Hermes/Qwen tags.
        "Let me look for the greeting.\n<tool_call>\n{\"name\": \"search\", \"arguments\": \
         {\"pattern\": \"hello\", \"case_insensitive\": true, \"glob\": \"*.rs\"}}\n</tool_call>",
        // An absolute path: refused, with a message that says how to write it.
        r#"{"tool": "read_file", "arguments": {"path": "/src/main.rs", "start_line": 1, "end_line": 8}}"#,
        r#"{"tool": "read_file", "arguments": {"path": "src/main.rs", "start_line": 1, "end_line": 8}}"#,
        r#"{"tool": "edit_file", "arguments": {"path": "src/main.rs", "old_text": "const GREETING: &str = \"Hello, world!\";", "new_text": "const GREETING: &str = \"Hello, MCS!\";"}}"#,
        "I changed the greeting in `src/main.rs`: `GREETING` is now \"Hello, MCS!\".",
    ])
    .with_model("qwen2.5-7b-instruct")
}

/// A small project for the model to work on.
fn populate(root: &Path) -> std::io::Result<()> {
    fs::create_dir_all(root.join("src"))?;
    fs::create_dir_all(root.join("assets"))?;
    fs::write(
        root.join("README.md"),
        "# greeter\n\nPrints a greeting. Run it with `cargo run`.\n",
    )?;
    fs::write(
        root.join("src/main.rs"),
        "//! The greeter.\n\nconst GREETING: &str = \"Hello, world!\";\n\nfn main() {\n    \
         println!(\"{GREETING}\");\n}\n",
    )?;
    fs::write(
        root.join("assets/logo.png"),
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0",
    )?;
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    populate(dir.path())?;
    // The one grant: this directory, and nothing outside it.
    let files = Files::new(LocalFs::open(dir.path())?);

    let scripted = OpenAiClient::from_env()?.is_none();
    converse::converse(&files, scripted_model(), REQUEST).await?;

    let main_rs = fs::read_to_string(dir.path().join("src/main.rs"))?;
    println!("\nsrc/main.rs on disk now:\n{main_rs}");
    if scripted && !main_rs.contains("Hello, MCS!") {
        return Err("the scripted edit did not reach the file".into());
    }
    Ok(())
}
