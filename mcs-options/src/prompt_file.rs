//! The TOML prompt file: its schema and its parser. What the fields mean, and the built-in
//! prompts they override, is the runtime's `prompt` module.

use std::fmt;

use serde::Deserialize;

/// The contents of a prompt file. Every key is optional; unknown keys are errors, so a typo
/// (`sytem`) is reported rather than ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct PromptFile {
    /// The default prompt.
    pub system: Option<String>,
    /// The number of tools above which the listing is compact.
    pub compact_threshold: Option<usize>,
    /// Prompts for model families, in file order (`[[variant]]` tables).
    #[serde(default, rename = "variant")]
    pub variants: Vec<VariantFile>,
}

/// One `[[variant]]` table: a prompt for the models whose names match one of the globs.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct VariantFile {
    /// Globs on the model name (`*` any run of characters, `?` one character).
    pub models: Vec<String>,
    /// The prompt for those models.
    pub system: String,
}

impl PromptFile {
    /// Parses `text`, naming it `origin` in the error (a path, or `<inline>`).
    pub fn parse(text: &str, origin: &str) -> Result<PromptFile, InvalidPromptFile> {
        toml::from_str(text).map_err(|error| InvalidPromptFile {
            origin: origin.to_owned(),
            message: error.to_string(),
        })
    }
}

/// A prompt file that is not valid TOML of the expected shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidPromptFile {
    /// The file (or `<inline>`).
    pub origin: String,
    /// What is wrong, and where.
    pub message: String,
}

impl fmt::Display for InvalidPromptFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "prompt file {}: {}", self.origin, self.message)
    }
}

impl std::error::Error for InvalidPromptFile {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_file_is_read() {
        let file = PromptFile::parse(
            "system = \"s\"\ncompact_threshold = 3\n[[variant]]\nmodels = [\"a*\"]\nsystem = \"v\"\n",
            "p.toml",
        )
        .unwrap();
        assert_eq!(file.system.as_deref(), Some("s"));
        assert_eq!(file.compact_threshold, Some(3));
        assert_eq!(file.variants[0].models, ["a*"]);
    }

    #[test]
    fn a_typo_is_an_error_that_names_the_file_and_the_key() {
        let error = PromptFile::parse("sytem = \"s\"", "p.toml").unwrap_err();
        let message = error.to_string();
        assert!(message.starts_with("prompt file p.toml:"), "{message}");
        assert!(message.contains("sytem"), "{message}");
    }
}
