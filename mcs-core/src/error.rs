//! Errors a tool call can end in, worded so that a model can correct its call.

use std::error::Error as StdError;
use std::fmt;

/// A boxed error that can cross threads, the `source` of an execution failure.
pub type BoxError = Box<dyn StdError + Send + Sync + 'static>;

/// Why a tool call did not produce a result.
///
/// `Display` is written for the model: it names the tool, the argument, what was expected
/// and what came, so the text can go straight into a retry prompt.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ToolError {
    /// The driver has no tool of this name.
    #[error("unknown tool `{name}`{}", suggestion_text(.suggestion.as_deref()))]
    UnknownTool {
        /// The name that was called.
        name: String,
        /// The closest name the driver does have, if one is close.
        suggestion: Option<String>,
    },
    /// The arguments do not fit the tool's parameters.
    #[error("invalid arguments for tool `{tool}`: {}", join_problems(.problems))]
    InvalidArguments {
        /// The tool that was called.
        tool: String,
        /// Every problem found, in parameter order.
        problems: Vec<ArgumentError>,
    },
    /// The driver has the tool but declines this call (a backend that does not serve this
    /// account, a region it does not cover): an orchestrator with a priority policy offers
    /// the call to the next driver that has the tool.
    #[error("tool `{tool}` declined the call: {reason}")]
    Rejected {
        /// The tool that was called.
        tool: String,
        /// Why the driver declined.
        reason: String,
    },
    /// The tool ran and failed.
    #[error("tool `{tool}` failed: {message}")]
    Execution {
        /// The tool that was called.
        tool: String,
        /// What went wrong, as the tool reported it.
        message: String,
        /// The underlying error, when the tool returned one.
        #[source]
        source: Option<BoxError>,
    },
}

fn suggestion_text(suggestion: Option<&str>) -> String {
    suggestion.map_or_else(String::new, |s| format!("; did you mean `{s}`?"))
}

fn join_problems(problems: &[ArgumentError]) -> String {
    let texts: Vec<String> = problems.iter().map(ToString::to_string).collect();
    texts.join("; ")
}

impl ToolError {
    /// An unknown-tool error without a suggestion.
    pub fn unknown_tool(name: impl Into<String>) -> Self {
        ToolError::UnknownTool {
            name: name.into(),
            suggestion: None,
        }
    }

    /// An unknown-tool error that suggests the closest of `known` names, if any is close.
    pub fn unknown_tool_among<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Self {
        ToolError::UnknownTool {
            name: name.to_owned(),
            suggestion: closest(name, known).map(str::to_owned),
        }
    }

    /// An invalid-arguments error with a single problem.
    pub fn invalid_argument(tool: impl Into<String>, problem: ArgumentError) -> Self {
        ToolError::InvalidArguments {
            tool: tool.into(),
            problems: vec![problem],
        }
    }

    /// A declined call (see [`ToolError::Rejected`]).
    pub fn rejected(tool: impl Into<String>, reason: impl Into<String>) -> Self {
        ToolError::Rejected {
            tool: tool.into(),
            reason: reason.into(),
        }
    }

    /// An execution failure described by a message.
    pub fn execution(tool: impl Into<String>, message: impl Into<String>) -> Self {
        ToolError::Execution {
            tool: tool.into(),
            message: message.into(),
            source: None,
        }
    }

    /// An execution failure caused by `source`; its `Display` becomes the message.
    pub fn execution_source(tool: impl Into<String>, source: impl Into<BoxError>) -> Self {
        let source = source.into();
        ToolError::Execution {
            tool: tool.into(),
            message: source.to_string(),
            source: Some(source),
        }
    }

    /// The tool the error is about (the called name, for an unknown tool).
    pub fn tool(&self) -> &str {
        match self {
            ToolError::UnknownTool { name, .. } => name,
            ToolError::InvalidArguments { tool, .. }
            | ToolError::Rejected { tool, .. }
            | ToolError::Execution { tool, .. } => tool,
        }
    }

    /// The same error about the tool `name`: what a driver that lists another driver's
    /// tools under other names (an orchestrator's `crm__get_contact`) answers, so that the
    /// model reads the name it called.
    #[must_use]
    pub fn for_tool(mut self, name: impl Into<String>) -> Self {
        let name = name.into();
        match &mut self {
            ToolError::UnknownTool { name: tool, .. }
            | ToolError::InvalidArguments { tool, .. }
            | ToolError::Rejected { tool, .. }
            | ToolError::Execution { tool, .. } => *tool = name,
        }
        self
    }
}

/// One thing wrong with a call's arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgumentError {
    /// Where: the argument's name, followed by a path into it for nested values
    /// (`filter.limit`, `items[2]`). Empty for the arguments object itself.
    pub argument: String,
    /// What is wrong there.
    pub kind: ArgumentErrorKind,
}

/// What is wrong with an argument.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ArgumentErrorKind {
    /// A required value is absent.
    Missing {
        /// What the value should have been.
        expected: String,
    },
    /// The tool has no parameter of this name.
    Unknown {
        /// The parameters the tool does take.
        accepted: Vec<String>,
        /// The accepted name closest to the one given, if any is close.
        suggestion: Option<String>,
    },
    /// The value does not have the expected type or is not an allowed value.
    Invalid {
        /// What the value should have been.
        expected: String,
        /// A short rendering of the value that came.
        received: String,
    },
}

impl ArgumentError {
    /// A required argument is absent.
    pub fn missing(argument: impl Into<String>, expected: impl Into<String>) -> Self {
        ArgumentError {
            argument: argument.into(),
            kind: ArgumentErrorKind::Missing {
                expected: expected.into(),
            },
        }
    }

    /// The longest unknown argument name kept whole in an error (see
    /// [`unknown`](Self::unknown)).
    pub const LONGEST_NAME_SHOWN: usize = 256;

    /// An argument the tool does not have, or, for a path (`filter.lim`), a member the
    /// object there does not have; `accepted` lists the names allowed at that place.
    ///
    /// A name longer than [`ArgumentError::LONGEST_NAME_SHOWN`] bytes is kept as its start
    /// and its length (`aaaa… (1048576 bytes)`): the message goes back to the model, and a
    /// megabyte of name would be sent back whole, twice in an MCP answer.
    pub fn unknown(argument: impl Into<String>, accepted: Vec<String>) -> Self {
        let mut argument = argument.into();
        if argument.len() > Self::LONGEST_NAME_SHOWN {
            let mut cut = 64;
            while !argument.is_char_boundary(cut) {
                cut -= 1;
            }
            argument = format!("{}… ({} bytes)", &argument[..cut], argument.len());
        }
        // Inside a nested object, the name to correct is the last one of the path.
        let leaf = argument.rsplit('.').next().unwrap_or(&argument);
        let suggestion = closest(&argument, accepted.iter().map(String::as_str))
            .or_else(|| closest(leaf, accepted.iter().map(String::as_str)))
            .map(str::to_owned);
        ArgumentError {
            argument,
            kind: ArgumentErrorKind::Unknown {
                accepted,
                suggestion,
            },
        }
    }

    /// A value of the wrong type or out of the allowed set.
    pub fn invalid(
        argument: impl Into<String>,
        expected: impl Into<String>,
        received: impl Into<String>,
    ) -> Self {
        ArgumentError {
            argument: argument.into(),
            kind: ArgumentErrorKind::Invalid {
                expected: expected.into(),
                received: received.into(),
            },
        }
    }
}

impl fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let place = if self.argument.is_empty() {
            "the arguments".to_owned()
        } else {
            format!("argument `{}`", self.argument)
        };
        match &self.kind {
            ArgumentErrorKind::Missing { expected } => {
                write!(f, "missing required {place} (expected {expected})")
            }
            ArgumentErrorKind::Unknown {
                accepted,
                suggestion,
            } => {
                write!(f, "unknown {place}")?;
                if let Some(suggestion) = suggestion {
                    write!(f, "; did you mean `{suggestion}`?")?;
                }
                let nested = self.argument.contains(['.', '[']);
                match (accepted.is_empty(), nested) {
                    (true, false) => write!(f, " (this tool takes no arguments)"),
                    (false, false) => write!(f, " (this tool takes: {})", accepted.join(", ")),
                    (true, true) => write!(f, " (no members are allowed there)"),
                    (false, true) => write!(f, " (allowed there: {})", accepted.join(", ")),
                }
            }
            ArgumentErrorKind::Invalid { expected, received } => {
                write!(f, "{place}: expected {expected}, got {received}")
            }
        }
    }
}

/// The candidate closest to `name`, if it is close enough to be a plausible typo. The
/// threshold keeps one-letter slips (`cty` → `city`) and rejects different words that share
/// a suffix (`delete_task` is not `complete_task`). Failing that, the one candidate that is
/// `name` with a prefix of whole words (`sendMessage` → `post_sendMessage`, `pulls` →
/// `github_pulls`): a model that drops a name's prefix means that name, when only one has it.
#[doc(hidden)]
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    const THRESHOLD: f64 = 0.72;
    let lowered = name.to_lowercase();
    let length = lowered.chars().count();
    let candidates: Vec<&'a str> = candidates.into_iter().collect();
    let typo = candidates
        .iter()
        // The edit distance is at least the difference in length, so a candidate much
        // shorter or longer cannot be close; measuring it anyway would cost time and memory
        // in the product of the lengths (a model's megabyte-long name against each tool's).
        .filter(|candidate| {
            let other = candidate.chars().count();
            let (short, long) = (length.min(other), length.max(other));
            long == 0 || short as f64 / long as f64 >= THRESHOLD
        })
        .map(|candidate| {
            (
                strsim::normalized_damerau_levenshtein(&lowered, &candidate.to_lowercase()),
                *candidate,
            )
        })
        .filter(|(score, _)| *score >= THRESHOLD)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, candidate)| candidate);
    if typo.is_some() || lowered.len() < 3 {
        return typo;
    }
    let mut prefixed = candidates.iter().filter(|candidate| {
        let candidate = candidate.to_lowercase();
        candidate.len() > lowered.len()
            && candidate.ends_with(&lowered)
            && candidate[..candidate.len() - lowered.len()].ends_with(['_', '-', '.', '/'])
    });
    match (prefixed.next(), prefixed.next()) {
        (Some(only), None) => Some(*only),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{ArgumentError, closest};

    #[test]
    fn a_long_unknown_name_is_shown_by_its_start_and_length() {
        let name = "é".repeat(300_000);
        let error = ArgumentError::unknown(name, vec!["city".to_owned()]);
        assert_eq!(
            error.argument,
            format!("{}… (600000 bytes)", "é".repeat(32))
        );
        let message = error.to_string();
        assert!(message.len() < 300, "{message}");
        let short = ArgumentError::unknown("cty", vec!["city".to_owned()]);
        assert_eq!(short.argument, "cty");
    }

    #[test]
    fn closest_names_a_typo_and_nothing_else() {
        let tools = ["get_city", "complete_task", "delete_repo"];
        assert_eq!(closest("get_cty", tools), Some("get_city"));
        assert_eq!(closest("GET_CITY", tools), Some("get_city"));
        assert_eq!(closest("delete_task", tools), None);
        assert_eq!(closest("", tools), None);
        assert_eq!(closest("", [""]), Some(""));
        // A name far longer (or shorter) than every candidate is close to none of them, and
        // is not measured against them: the measure costs the product of the lengths.
        assert_eq!(closest(&"get_city".repeat(125_000), tools), None);
        assert_eq!(closest("g", ["get_city".repeat(100_000).as_str()]), None);
    }

    #[test]
    fn a_name_without_its_prefix_suggests_the_one_name_that_has_it() {
        let tools = [
            "post_sendMessage",
            "post_sendPhoto",
            "github_pulls",
            "gitlab_pulls_list",
        ];
        assert_eq!(closest("sendMessage", tools), Some("post_sendMessage"));
        assert_eq!(closest("SENDPHOTO", tools), Some("post_sendPhoto"));
        assert_eq!(closest("pulls", tools), Some("github_pulls"));
        // Two names end with it, or it is not a whole word of the name: no guess.
        assert_eq!(closest("list", ["a_list", "b_list"]), None);
        assert_eq!(closest("Message", tools), None);
        assert_eq!(closest("ls", ["a_ls"]), None);
    }
}
