//! Tool-name patterns: a name, or a glob with `*` (any run of characters) and `?` (one).

/// A tool name or a glob over tool names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pattern {
    text: String,
    glob: bool,
}

impl Pattern {
    pub(crate) fn new(text: impl Into<String>) -> Self {
        let text = text.into();
        let glob = text.contains(['*', '?']);
        Pattern { text, glob }
    }

    pub(crate) fn matches(&self, name: &str) -> bool {
        if self.glob {
            glob_match(self.text.as_bytes(), name.as_bytes())
        } else {
            self.text == name
        }
    }
}

/// Wildcard matching with one point of backtracking (the last `*`): linear in practice,
/// never exponential.
fn glob_match(pattern: &[u8], name: &[u8]) -> bool {
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, n));
                p += 1;
            }
            Some(&c) if c == b'?' || c == name[n] => {
                p += 1;
                n += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    p = sp + 1;
                    n = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::Pattern;

    #[test]
    fn names_and_globs() {
        let cases = [
            ("delete_repo", "delete_repo", true),
            ("delete_repo", "delete_repos", false),
            ("delete_*", "delete_repo", true),
            ("delete_*", "delete_", true),
            ("delete_*", "undelete_repo", false),
            ("*__delete_*", "github__delete_repo", true),
            ("*_file", "write_file", true),
            ("*_file", "write_files", false),
            ("send_?mail", "send_email", true),
            ("send_?mail", "send_mail", false),
            ("*", "anything", true),
            ("a*b*c", "aXXbYYbZc", true),
            ("a*b*c", "aXXbYYbZ", false),
        ];
        for (pattern, name, expected) in cases {
            assert_eq!(
                Pattern::new(pattern).matches(name),
                expected,
                "{pattern} ~ {name}"
            );
        }
    }
}
