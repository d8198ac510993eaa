//! What a hybrid driver does with a call for a tool it does not have.

use std::fmt;
use std::str::FromStr;

/// What a driver does with a call for a tool it does not have.
///
/// Written as text (`#[mcs::hybrid(unknown_tools = "reject")]`, a configuration file) it is
/// one of [`UnknownToolPolicy::NAMES`]; [`FromStr`] reads that and [`Display`](fmt::Display)
/// writes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum UnknownToolPolicy {
    /// Answer with the empty response, so the next driver in a chain can take the call
    /// (what the standard requires, and the default).
    #[default]
    PassThrough,
    /// Treat the call as failed and tell the model which tools exist. For a driver that is
    /// known to be the only one.
    Reject,
}

impl UnknownToolPolicy {
    /// Every policy, the default first.
    pub const ALL: [UnknownToolPolicy; 2] =
        [UnknownToolPolicy::PassThrough, UnknownToolPolicy::Reject];

    /// The accepted names, in the order of [`UnknownToolPolicy::ALL`].
    pub const NAMES: [&'static str; 2] = ["pass_through", "reject"];

    /// The policy's name, as [`FromStr`] accepts it.
    pub const fn name(self) -> &'static str {
        match self {
            UnknownToolPolicy::PassThrough => Self::NAMES[0],
            UnknownToolPolicy::Reject => Self::NAMES[1],
        }
    }
}

impl fmt::Display for UnknownToolPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for UnknownToolPolicy {
    type Err = ParsePolicyError;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|policy| policy.name() == name)
            .ok_or(ParsePolicyError { _private: () })
    }
}

/// A name that is none of [`UnknownToolPolicy::NAMES`]. Its message lists the accepted
/// names; `#[mcs::hybrid]` shows it on the user's string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePolicyError {
    _private: (),
}

impl fmt::Display for ParsePolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [default, other] = UnknownToolPolicy::NAMES;
        write!(
            f,
            "`unknown_tools` is \"{default}\" (the default, as the standard requires) or \
             \"{other}\""
        )
    }
}

impl std::error::Error for ParsePolicyError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for policy in UnknownToolPolicy::ALL {
            assert_eq!(policy.to_string().parse(), Ok(policy));
        }
        assert_eq!(UnknownToolPolicy::default(), UnknownToolPolicy::ALL[0]);
    }

    #[test]
    fn a_wrong_name_lists_the_accepted_ones() {
        let error = "ignore".parse::<UnknownToolPolicy>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "`unknown_tools` is \"pass_through\" (the default, as the standard requires) or \
             \"reject\""
        );
    }
}
