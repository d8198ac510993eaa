//! System prompts: a default that teaches the call format, variants per model family chosen
//! by a glob on the model name, overrides from a TOML file, and a compact listing for
//! drivers with many tools.
//!
//! A prompt is a template with three placeholders: `{driver}` (the driver's name), `{tools}`
//! (the tool listing) and `{call_format}` (the one-line shape of a call). A TOML prompt file
//! overrides only what it names:
//!
//! ```toml
//! # Replaces the default prompt.
//! system = "You operate {driver}. Tools:\n{tools}\nCall one with {call_format}."
//! # Switch to the compact listing above this many tools (default 24).
//! compact_threshold = 10
//!
//! # Checked before the built-in variants, in file order; the first match wins.
//! [[variant]]
//! models = ["my-finetune*"]
//! system = "Tools:\n{tools}\nReply with {call_format} only."
//! ```
//!
//! The file's schema and parser are in the small `mcs-options` crate, which
//! `#[mcs::hybrid(prompt_file = "...")]` uses to check the file when the driver compiles.

use std::fmt::Write as _;

use mcs_options::PromptFile;
use serde_json::{Value, json};

use mcs_core::Tool;

/// The call shape every prompt teaches.
pub const CALL_FORMAT: &str = r#"{"tool": "<name>", "arguments": {...}}"#;

/// The name of the meta-tool that gives one tool's full description in compact mode.
pub const DESCRIBE_TOOL: &str = "describe_tool";

const DEFAULT_SYSTEM: &str = "You can use the tools of {driver}.

To use a tool, answer with a single JSON object and nothing else:
{call_format}
Give every required argument, with the type the tool's schema asks for. To use several tools at once, write one such object per line. You will then receive each result; use it to continue.
When no tool is needed, or once you have what you need, answer the user in plain words, without JSON.

Available tools:
{tools}";

const CLAUDE_SYSTEM: &str = "You have access to the tools of {driver}, described below as JSON.

<tools>
{tools}
</tools>

When a tool would help, reply with only a JSON object of the form {call_format} — no prose around it and no XML tags. You may put several such objects on separate lines. Each result comes back to you in the next message. If no tool is needed, answer normally.";

const GPT_SYSTEM: &str = "Tools of {driver}:
{tools}

To call a tool, reply with exactly one JSON object per call, {call_format}, and nothing else. Otherwise reply normally.";

const QWEN_SYSTEM: &str = "# Tools

You may call the tools of {driver} to help with the user's request. Their signatures are:
{tools}

For each call, return a JSON object {call_format}. You may wrap each call in <tool_call></tool_call> tags. Do not call a tool that is not listed. When you are done, answer the user directly.";

const LLAMA_SYSTEM: &str = "You are an assistant with access to the tools of {driver}:
{tools}

If you choose to call a tool, respond with ONLY the JSON {call_format}: no code fences, no <|python_tag|>, no explanation. Use the exact tool names above. If no tool fits, answer the question yourself.";

/// Prompts chosen by model name.
#[derive(Clone, Debug, PartialEq)]
pub struct Prompts {
    default: String,
    variants: Vec<Variant>,
    compact_threshold: usize,
}

#[derive(Clone, Debug, PartialEq)]
struct Variant {
    models: Vec<String>,
    system: String,
}

/// A prompt file could not be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PromptError {
    /// The file could not be read.
    #[error("prompt file {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not valid TOML of the expected shape.
    #[error("prompt file {path}: {message}")]
    Invalid {
        /// The file (or `<inline>`).
        path: String,
        /// What is wrong, and where.
        message: String,
    },
}

impl Default for Prompts {
    fn default() -> Self {
        let variant = |models: &[&str], system: &str| Variant {
            models: models.iter().map(|m| (*m).to_owned()).collect(),
            system: system.to_owned(),
        };
        Prompts {
            default: DEFAULT_SYSTEM.to_owned(),
            variants: vec![
                variant(&["claude*", "anthropic/*"], CLAUDE_SYSTEM),
                variant(&["gpt-*", "o1*", "o3*", "o4*", "openai/*"], GPT_SYSTEM),
                variant(
                    &["qwen*", "qwq*", "*/qwen*", "hermes*", "*hermes*"],
                    QWEN_SYSTEM,
                ),
                variant(
                    &["llama*", "meta-llama/*", "*llama-3*", "*llama3*"],
                    LLAMA_SYSTEM,
                ),
            ],
            compact_threshold: 24,
        }
    }
}

impl Prompts {
    /// The built-in prompts with `system` as the default prompt.
    pub fn with_default(system: impl Into<String>) -> Self {
        Prompts {
            default: system.into(),
            ..Prompts::default()
        }
    }

    /// The built-in prompts overridden by the TOML file at `path`.
    pub fn from_file(path: impl AsRef<std::path::Path>) -> Result<Self, PromptError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| PromptError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Prompts::default().overridden_by(&text, &path.display().to_string())
    }

    /// These prompts overridden by the TOML text `toml` (named `origin` in errors).
    pub fn overridden_by(mut self, toml_text: &str, origin: &str) -> Result<Self, PromptError> {
        let file = PromptFile::parse(toml_text, origin).map_err(|error| PromptError::Invalid {
            path: error.origin,
            message: error.message,
        })?;
        if let Some(system) = file.system {
            self.default = system;
        }
        if let Some(threshold) = file.compact_threshold {
            self.compact_threshold = threshold;
        }
        let mut variants: Vec<Variant> = file
            .variants
            .into_iter()
            .map(|v| Variant {
                models: v.models,
                system: v.system,
            })
            .collect();
        variants.append(&mut self.variants);
        self.variants = variants;
        Ok(self)
    }

    /// The number of tools above which the listing is compact.
    pub fn compact_threshold(&self) -> usize {
        self.compact_threshold
    }

    /// Sets the number of tools above which the listing is compact.
    #[must_use]
    pub fn with_compact_threshold(mut self, threshold: usize) -> Self {
        self.compact_threshold = threshold;
        self
    }

    /// The template for `model`: the first variant whose glob matches, else the default.
    pub fn template_for(&self, model: Option<&str>) -> &str {
        model
            .and_then(|model| {
                self.variants
                    .iter()
                    .find(|v| v.models.iter().any(|glob| glob_matches(glob, model)))
            })
            .map_or(&self.default, |v| &v.system)
    }

    /// Whether `tools` is long enough for the compact listing.
    pub fn is_compact(&self, tools: &[Tool]) -> bool {
        tools.len() > self.compact_threshold
    }

    /// The system prompt for `model`: its template filled with the driver's name, the
    /// listing (full, or compact for many tools), and the call format.
    pub fn system_message(&self, driver: &str, tools: &[Tool], model: Option<&str>) -> String {
        let compact = self.is_compact(tools);
        let listing = if compact {
            compact_listing(tools)
        } else {
            function_description(tools)
        };
        let message = fill(self.template_for(model), driver, &listing);
        tracing::debug!(
            target: mcs_core::telemetry::TARGET,
            driver,
            model,
            tools = tools.len(),
            compact,
            chars = message.len(),
            "system prompt rendered"
        );
        message
    }
}

fn fill(template: &str, driver: &str, tools: &str) -> String {
    // One pass, so a placeholder inside a tool's description is not expanded again.
    let mut out = String::with_capacity(template.len() + tools.len());
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let tail = &rest[start..];
        let (replacement, used) = if tail.starts_with("{tools}") {
            (tools, "{tools}".len())
        } else if tail.starts_with("{driver}") {
            (driver, "{driver}".len())
        } else if tail.starts_with("{call_format}") {
            (CALL_FORMAT, "{call_format}".len())
        } else {
            ("{", 1)
        };
        out.push_str(replacement);
        rest = &tail[used..];
    }
    out.push_str(rest);
    out
}

/// The reference SDK's listing, `{"tools":[{name, description, parameters}]}`, as JSON text
/// (see [`export::mcs_listing`](mcs_core::export::mcs_listing)).
pub fn function_description(tools: &[Tool]) -> String {
    serde_json::to_string_pretty(&mcs_core::export::mcs_listing(tools)).unwrap_or_default()
}

/// One line per tool (`name: title`), and how to ask for a tool's full description.
pub(crate) fn compact_listing(tools: &[Tool]) -> String {
    let mut out = String::new();
    for tool in tools {
        let _ = writeln!(out, "- {}: {}", tool.name(), tool.label());
    }
    let _ = write!(
        out,
        "\nOnly names and titles are listed. Before calling a tool whose arguments you do not know, \
         call {} to get its full description: {}",
        DESCRIBE_TOOL,
        json!({"tool": DESCRIBE_TOOL, "arguments": {"name": "<tool name>"}})
    );
    out
}

/// How long the answer to a [`DESCRIBE_TOOL`] call may be, in characters of JSON (about
/// 5,000 tokens; never 8,000).
pub const DESCRIBE_BUDGET: usize = 20_000;

/// The full description of one tool, as the answer to a [`DESCRIBE_TOOL`] call: its name,
/// description and arguments' schema. A description longer than [`DESCRIBE_BUDGET`] is
/// shortened step by step until it fits (long lists of values and examples first, nested
/// fields' descriptions next, arguments named rather than described last), and says so in
/// a `note`; the tool still checks every argument when it is called.
pub fn describe_tool(tool: &Tool) -> Value {
    mcs_core::export::mcs_tool_within(tool, DESCRIBE_BUDGET)
}

/// Case-insensitive glob: `*` matches any run of characters, `?` one character.
pub(crate) fn glob_matches(glob: &str, text: &str) -> bool {
    let glob: Vec<char> = glob.to_lowercase().chars().collect();
    let text: Vec<char> = text.to_lowercase().chars().collect();
    // Iterative matching with backtracking to the last `*`: linear in practice, no recursion.
    let (mut g, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match glob.get(g) {
            Some('*') => {
                star = Some((g, t));
                g += 1;
            }
            Some(&c) if c == '?' || c == text[t] => {
                g += 1;
                t += 1;
            }
            _ => match star {
                Some((star_g, star_t)) => {
                    g = star_g + 1;
                    t = star_t + 1;
                    star = Some((star_g, star_t + 1));
                }
                None => return false,
            },
        }
    }
    glob[g..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_matches("claude*", "Claude-3.5-Sonnet"));
        assert!(glob_matches("gpt-*", "gpt-4o-mini"));
        assert!(!glob_matches("gpt-*", "chatgpt"));
        assert!(glob_matches("*/qwen*", "Qwen/Qwen2.5-7B-Instruct"));
        assert!(glob_matches("llama?3*", "llama-3.1-8b"));
        assert!(glob_matches("*", ""));
        assert!(!glob_matches("a", ""));
        assert!(glob_matches("*a*b*c*", "xxaxxbxxcxx"));
        assert!(!glob_matches("*a*b*c*", "xxaxxcxxbxx"));
    }

    #[test]
    fn placeholders_fill_once() {
        let filled = fill("{driver}: {tools} {call_format} {other} {", "d", "{driver}");
        assert_eq!(filled, format!("d: {{driver}} {CALL_FORMAT} {{other}} {{"));
    }
}
