//! Secrets out of what approvers, logs and traces see.

use std::borrow::Cow;

use serde_json::{Map, Value};

/// What a secret is replaced with.
pub const REDACTED: &str = "[REDACTED]";

/// The key names redacted by default (compared as [`Redaction::is_secret_key`] says).
pub(crate) const DEFAULT_KEYS: &[&str] = &[
    "password",
    "passwd",
    "secret",
    "token",
    "apikey",
    "authorization",
    "cookie",
    "credentials",
    "privatekey",
];

/// Which keys and values are secret.
#[derive(Clone, Debug)]
pub(crate) struct Redaction {
    /// Normalised key names (see [`normalise`]).
    keys: Vec<String>,
    /// Literal secret values, longest first (a secret that contains another is replaced
    /// whole).
    values: Vec<String>,
}

impl Default for Redaction {
    fn default() -> Self {
        Redaction {
            keys: DEFAULT_KEYS.iter().map(|k| normalise(k)).collect(),
            values: Vec::new(),
        }
    }
}

/// A key as compared: lower case, without `_`, `-`, `.` and spaces, so that `api_key`,
/// `X-Api-Key` and `apiKey` are one name.
fn normalise(key: &str) -> String {
    key.chars()
        .filter(|c| !matches!(c, '_' | '-' | '.' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

impl Redaction {
    pub(crate) fn add_key(&mut self, key: &str) {
        let key = normalise(key);
        if !key.is_empty() && !self.keys.contains(&key) {
            self.keys.push(key);
        }
    }

    pub(crate) fn add_value(&mut self, value: &str) {
        if !value.is_empty() && !self.values.iter().any(|v| v == value) {
            self.values.push(value.to_owned());
            self.values.sort_by_key(|v| std::cmp::Reverse(v.len()));
        }
    }

    /// Whether a member called `key` holds a secret: its normalised name ends with one of
    /// the secret names (`access_token`, `X-Api-Key`, `db_password`), so that `max_tokens`
    /// and `tokenizer` are not secrets but `refresh_token` is.
    pub(crate) fn is_secret_key(&self, key: &str) -> bool {
        let key = normalise(key);
        self.keys
            .iter()
            .any(|secret| key.ends_with(secret.as_str()))
    }

    /// `value` with secret members replaced and secret literals cut out of strings.
    pub(crate) fn value(&self, value: &Value) -> Value {
        match value {
            Value::String(text) => Value::String(self.text(text).into_owned()),
            Value::Array(items) => Value::Array(items.iter().map(|v| self.value(v)).collect()),
            Value::Object(members) => {
                let mut redacted = Map::new();
                for (key, member) in members {
                    let member = if self.is_secret_key(key) && !member.is_null() {
                        Value::String(REDACTED.to_owned())
                    } else {
                        self.value(member)
                    };
                    redacted.insert(key.clone(), member);
                }
                Value::Object(redacted)
            }
            other => other.clone(),
        }
    }

    /// `text` with every configured secret literal replaced.
    pub(crate) fn text<'t>(&self, text: &'t str) -> Cow<'t, str> {
        let mut text = Cow::Borrowed(text);
        for secret in &self.values {
            if text.contains(secret.as_str()) {
                text = Cow::Owned(text.replace(secret.as_str(), REDACTED));
            }
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::Redaction;

    #[test]
    fn keys_by_name_and_values_anywhere() {
        let mut redaction = Redaction::default();
        redaction.add_value("hunter2");
        let redacted = redaction.value(&json!({
            "user": "ada",
            "Password": "pw",
            "headers": {"Authorization": "Bearer x", "X-Api-Key": "k"},
            "access_token": "t",
            "max_tokens": 100,
            "note": "the password is hunter2, really",
            "list": ["hunter2"],
            "token": null,
        }));
        assert_eq!(
            redacted,
            json!({
                "user": "ada",
                "Password": "[REDACTED]",
                "headers": {"Authorization": "[REDACTED]", "X-Api-Key": "[REDACTED]"},
                "access_token": "[REDACTED]",
                "max_tokens": 100,
                "note": "the password is [REDACTED], really",
                "list": ["[REDACTED]"],
                "token": null,
            })
        );
    }
}
