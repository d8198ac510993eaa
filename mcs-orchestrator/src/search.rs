//! Ranked search over tools by words: BM25 (the `bm25` crate) over each tool's name, title,
//! description, parameter names and toolset, with a tokenizer made for identifiers.

use bm25::{Embedder, EmbedderBuilder, Scorer, Tokenizer};

use mcs_core::Tool;

/// Splits text and identifiers into lower-case words: on anything that is not a letter or a
/// digit, and inside `camelCase` and `HTTPServer`; a plural `s` or `ies` taken off, so that
/// `pets` finds `pet` (but `status` stays whole).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Words;

impl Tokenizer for Words {
    fn tokenize(&self, text: &str) -> Vec<String> {
        let mut words = Vec::new();
        let mut word = String::new();
        let mut previous: Option<char> = None;
        let chars: Vec<char> = text.chars().collect();
        for (i, &c) in chars.iter().enumerate() {
            if !c.is_alphanumeric() {
                push_word(&mut words, &mut word);
                previous = None;
                continue;
            }
            let next = chars.get(i + 1).copied();
            let boundary = match previous {
                // fooBar, v2Api; HTTPServer splits before the `S` of `Server`.
                Some(p) if c.is_uppercase() => {
                    p.is_lowercase()
                        || p.is_numeric()
                        || (p.is_uppercase() && next.is_some_and(char::is_lowercase))
                }
                _ => false,
            };
            if boundary {
                push_word(&mut words, &mut word);
            }
            word.extend(c.to_lowercase());
            previous = Some(c);
        }
        push_word(&mut words, &mut word);
        words
    }
}

fn push_word(words: &mut Vec<String>, word: &mut String) {
    if word.is_empty() {
        return;
    }
    let mut taken = std::mem::take(word);
    if taken.len() > 3 && taken.ends_with("ies") {
        taken.truncate(taken.len() - 3);
        taken.push('y');
    } else if taken.len() > 3
        && taken.ends_with('s')
        && !(taken.ends_with("ss") || taken.ends_with("us") || taken.ends_with("is"))
    {
        taken.pop();
    }
    words.push(taken);
}

/// A BM25 index over a list of tools, by position in that list.
pub(super) struct Index {
    embedder: Embedder<u32, Words>,
    scorer: Scorer<usize, u32>,
}

impl Index {
    /// Indexes `tools`; `toolset(i)` names the toolset of the tool at `i`, whose words count
    /// too. Names weigh three times and titles twice: they say most in fewest words.
    pub(crate) fn new<'a>(tools: &[Tool], toolset: impl Fn(usize) -> Option<&'a str>) -> Index {
        let documents: Vec<String> = tools
            .iter()
            .enumerate()
            .map(|(i, tool)| document(tool, toolset(i)))
            .collect();
        let corpus: Vec<&str> = documents.iter().map(String::as_str).collect();
        let embedder: Embedder<u32, Words> =
            EmbedderBuilder::with_tokenizer_and_fit_to_corpus(Words, &corpus).build();
        let mut scorer = Scorer::new();
        for (i, text) in corpus.iter().enumerate() {
            scorer.upsert(&i, embedder.embed(text));
        }
        Index { embedder, scorer }
    }

    /// The positions of the tools that match `query`, best first (ties in listing order), at
    /// most `limit`; each with its score.
    pub(crate) fn search(&self, query: &str, limit: usize) -> Vec<(usize, f32)> {
        let query = self.embedder.embed(query);
        let mut found: Vec<(usize, f32)> = self
            .scorer
            .matches(&query)
            .into_iter()
            .map(|scored| (scored.id, scored.score))
            .collect();
        found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        found.truncate(limit);
        found
    }
}

fn document(tool: &Tool, toolset: Option<&str>) -> String {
    let name = tool.name();
    let title = tool.title().unwrap_or_default();
    let mut text = format!(
        "{name} {name} {name} {title} {title} {}",
        tool.description()
    );
    for parameter in tool.parameters() {
        text.push(' ');
        text.push_str(&parameter.name);
    }
    if let Some(toolset) = toolset {
        text.push(' ');
        text.push_str(toolset);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_split_into_words() {
        let words = Words.tokenize("listRepoIssues get_HTTPServer-status v2Api ÉtéCafés");
        assert_eq!(
            words,
            [
                "list", "repo", "issue", "get", "http", "server", "status", "v2", "api", "été",
                "café"
            ]
        );
    }

    #[test]
    fn names_and_titles_rank_above_passing_mentions() {
        let tools = vec![
            Tool::new("delete_pet", "Removes a pet from the store."),
            Tool::new("list_orders", "Lists orders; an order may hold a pet."),
            Tool::new("find_pets", "Finds pets by status.").with_title("Find pets"),
        ];
        let index = Index::new(&tools, |_| None);
        let found = index.search("find a pet", 10);
        assert_eq!(found[0].0, 2, "{found:?}");
        assert_eq!(found.len(), 3);
        assert!(index.search("weather", 10).is_empty());
        assert_eq!(index.search("pet", 1).len(), 1);
    }
}
