//! Ranked search over tools by words: BM25F over a tool's fields, with a task's words
//! bridged to an API's.
//!
//! A model searches with the user's task ("close issue 17", "who am I logged in as"); an API
//! names the same thing in its own words (`issues/update` with `state: closed`,
//! `users/get-authenticated`). Four things close that gap:
//!
//! - **Words.** Text and identifiers split alike (`listRepoIssues`, `get_HTTPServer`), lower
//!   case, and stemmed with the Snowball English stemmer: `closing`, `closed` and `close` are
//!   one word, as are `repositories` and `repository`.
//! - **Fields** (BM25F): a word in a tool's name counts most, then its title, the first
//!   sentence of its description, the rest of the description, its parameter names and its
//!   toolset's title; each field is length-normalised on its own, and the rest of a long
//!   description weakly, so a tool that says much is not buried by one that says little.
//! - **Stop words** are dropped from queries: `my`, `me`, `I`, `the`… match incidental text
//!   in unrelated tools.
//! - **A vocabulary bridge** ([`PHRASES`], [`ACTS`], [`THINGS`]): a small table from the words of
//!   tasks to the words of APIs (`remove` → `delete`, `close` → `update` and `state`, `who am
//!   I` → `authenticated user`, `requests left` → `rate limit`), weighed below the task's own
//!   words so that an exact match still wins.

use std::collections::HashMap;

use rust_stemmers::{Algorithm, Stemmer};

use mcs_core::Tool;

/// Splits text and identifiers into lower-case words: on anything that is not a letter or a
/// digit, and inside `camelCase` and `HTTPServer`.
pub(super) fn words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut previous: Option<char> = None;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
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
        if boundary && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        word.extend(c.to_lowercase());
        previous = Some(c);
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Words a task uses that say nothing about which tool it needs.
const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "all",
    "also",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "been",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "every",
    "for",
    "from",
    "have",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "just",
    "let",
    "lets",
    "many",
    "me",
    "mine",
    "much",
    "my",
    "myself",
    "need",
    "of",
    "on",
    "onto",
    "or",
    "our",
    "please",
    "should",
    "so",
    "some",
    "someone",
    "something",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "this",
    "those",
    "to",
    "us",
    "use",
    "used",
    "uses",
    "using",
    "via",
    "want",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "who",
    "whom",
    "whose",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
];

/// Phrases of tasks and the API words they stand for (matched on the task's words, before
/// stop words are dropped).
pub(crate) const PHRASES: &[(&[&str], &[&str])] = &[
    (&["who", "am", "i"], &["authenticated", "user", "current"]),
    (&["logged", "in"], &["authenticated", "user", "current"]),
    (&["signed", "in"], &["authenticated", "user", "current"]),
    (
        &["my", "account"],
        &["authenticated", "user", "current", "profile"],
    ),
    (
        &["my", "profile"],
        &["authenticated", "user", "current", "profile"],
    ),
    (
        &["about", "me"],
        &["authenticated", "user", "current", "profile"],
    ),
    (&["requests", "left"], &["rate", "limit"]),
    (&["calls", "left"], &["rate", "limit"]),
    (&["requests", "remaining"], &["rate", "limit"]),
    (&["how", "many", "requests"], &["rate", "limit"]),
    (&["api", "quota"], &["rate", "limit"]),
    (&["pull", "request"], &["pull"]),
    (&["merge", "request"], &["merge", "request"]),
    (&["write", "access"], &["collaborator", "permission"]),
    (&["read", "access"], &["collaborator", "permission"]),
    (&["admin", "access"], &["collaborator", "permission"]),
    (&["now", "playing"], &["currently", "playing"]),
    (&["next", "song"], &["next", "skip"]),
    (&["previous", "song"], &["previous", "skip"]),
    (&["environment", "variable"], &["env", "variable"]),
    (&["thumbs", "up"], &["reaction"]),
    (&["changed", "between"], &["compare", "diff"]),
    (&["difference", "between"], &["compare", "diff"]),
    (&["env", "var"], &["env", "variable"]),
];

/// Acts a task asks for, and the verbs (and HTTP methods) APIs name them by: a task word
/// (any form of it: both sides are stemmed) brings its API words in, each at
/// [`SYNONYM_WEIGHT`] of the task's own.
pub(crate) const ACTS: &[(&str, &[&str])] = &[
    ("add", &["create", "add", "insert", "post"]),
    ("create", &["create", "add", "post"]),
    ("make", &["create", "add", "post"]),
    ("new", &["create", "add", "post"]),
    ("start", &["create", "start", "begin", "run"]),
    ("post", &["create", "post", "send"]),
    ("insert", &["create", "add"]),
    ("invite", &["invite", "add", "member"]),
    ("register", &["create", "register"]),
    ("upload", &["upload", "create", "file"]),
    ("remove", &["delete", "remove"]),
    ("delete", &["delete", "remove"]),
    ("update", &["update", "edit", "put", "patch"]),
    ("erase", &["delete", "remove"]),
    ("drop", &["delete", "remove"]),
    ("destroy", &["delete", "remove"]),
    ("clear", &["delete", "remove"]),
    ("unset", &["delete", "remove"]),
    ("kick", &["remove", "kick", "delete"]),
    ("revoke", &["revoke", "remove", "delete"]),
    ("edit", &["update", "edit", "modify", "put", "patch"]),
    ("change", &["update", "edit", "set", "put", "patch"]),
    ("modify", &["update", "edit", "put", "patch"]),
    ("rename", &["update", "rename", "name", "put", "patch"]),
    ("alter", &["update", "edit", "put", "patch"]),
    ("replace", &["update", "replace", "set", "put"]),
    ("set", &["update", "set", "put", "patch"]),
    ("close", &["update", "state", "close", "put", "patch"]),
    ("reopen", &["update", "state", "open", "put", "patch"]),
    ("get", &["get", "retrieve", "list"]),
    ("fetch", &["get", "retrieve", "list"]),
    ("show", &["get", "list", "retrieve"]),
    ("view", &["get", "list", "retrieve"]),
    ("see", &["get", "list"]),
    ("read", &["get", "retrieve", "read"]),
    ("look", &["get", "search", "find"]),
    ("retrieve", &["get", "retrieve"]),
    ("check", &["get", "check", "status"]),
    ("display", &["get", "list"]),
    ("find", &["search", "find", "list", "get"]),
    ("lookup", &["search", "find", "get"]),
    ("search", &["search", "find", "list"]),
    ("list", &["list", "get"]),
    ("enumerate", &["list"]),
    ("stop", &["cancel", "stop", "delete"]),
    ("cancel", &["cancel", "stop", "delete"]),
    ("abort", &["cancel", "stop"]),
    ("halt", &["cancel", "stop"]),
    ("kill", &["cancel", "stop", "delete"]),
    ("resume", &["resume", "start", "play"]),
    ("play", &["play", "start", "resume"]),
    ("send", &["send", "post", "create"]),
    ("write", &["create", "post", "write"]),
    ("publish", &["publish", "create", "post"]),
    ("download", &["download", "get"]),
    ("approve", &["approve", "review"]),
    ("reject", &["reject", "review", "dismiss"]),
    ("like", &["save", "star", "like"]),
    ("favorite", &["save", "star"]),
    ("favourite", &["save", "star"]),
    ("unlike", &["remove", "save", "unstar"]),
    ("assign", &["assign", "assignee"]),
    ("subscribe", &["subscribe", "subscription", "watch"]),
    ("watch", &["watch", "subscription"]),
    ("transfer", &["transfer", "move"]),
    ("move", &["move", "transfer"]),
    ("copy", &["copy", "fork", "duplicate"]),
    ("duplicate", &["copy", "duplicate", "fork"]),
    ("deploy", &["deployment", "deploy"]),
    ("redeploy", &["redeploy", "deployment"]),
    ("restart", &["restart", "redeploy", "retry"]),
    ("rerun", &["rerun", "retry"]),
    ("retry", &["retry", "rerun"]),
    ("rollback", &["rollback", "revert", "promote"]),
    ("connect", &["connect", "link", "integration"]),
    ("link", &["link", "connect"]),
    ("share", &["share", "permission", "invite"]),
    ("block", &["block", "ban"]),
    ("ban", &["ban", "block"]),
    ("count", &["count", "total", "statistic"]),
    ("react", &["reaction", "emoji"]),
    ("remind", &["reminder", "add", "create"]),
    (
        "notify",
        &["notification", "webhook", "hook", "subscription"],
    ),
    ("cost", &["price", "cost", "billing"]),
    ("price", &["price", "cost"]),
    ("buy", &["buy", "purchase", "order"]),
    ("purchase", &["purchase", "buy", "order"]),
    ("ready", &["status", "state"]),
    ("compare", &["compare", "diff"]),
    ("diff", &["diff", "compare"]),
    ("history", &["history", "list", "log"]),
];

/// Things a task names, and the nouns APIs give them; see [`ACTS`].
pub(crate) const THINGS: &[(&str, &[&str])] = &[
    ("account", &["user", "account", "profile"]),
    ("profile", &["profile", "user"]),
    ("person", &["user", "member"]),
    ("people", &["user", "member"]),
    ("member", &["member", "user"]),
    ("teammate", &["collaborator", "member"]),
    ("colleague", &["collaborator", "member"]),
    ("coworker", &["collaborator", "member"]),
    ("collaborator", &["collaborator", "member"]),
    ("access", &["permission", "access", "collaborator"]),
    ("permission", &["permission", "role"]),
    ("right", &["permission", "role"]),
    ("repo", &["repository", "repo"]),
    ("repository", &["repository", "repo"]),
    ("project", &["project", "repository"]),
    ("pr", &["pull"]),
    ("song", &["track", "song"]),
    ("tune", &["track"]),
    ("music", &["track", "player", "playback"]),
    ("album", &["album"]),
    ("artist", &["artist"]),
    ("channel", &["channel", "conversation"]),
    ("workspace", &["team", "workspace"]),
    ("conversation", &["conversation", "channel"]),
    ("chat", &["chat", "message", "conversation"]),
    ("message", &["message", "chat"]),
    ("dm", &["message", "im", "conversation"]),
    ("token", &["token", "key", "secret"]),
    ("key", &["key", "token"]),
    ("secret", &["secret", "variable", "key"]),
    ("credential", &["credential", "token", "key"]),
    ("password", &["password", "credential"]),
    ("bill", &["billing", "invoice"]),
    ("invoice", &["invoice", "billing"]),
    ("payment", &["billing", "payment", "invoice"]),
    ("quota", &["limit", "quota"]),
    ("limit", &["limit", "rate"]),
    ("comment", &["comment", "note", "reply"]),
    ("note", &["note", "comment"]),
    ("reply", &["reply", "comment"]),
    ("bug", &["issue"]),
    ("ticket", &["issue"]),
    ("tag", &["tag", "label"]),
    ("label", &["label", "tag"]),
    ("picture", &["image", "picture"]),
    ("photo", &["image", "picture"]),
    ("image", &["image"]),
    ("folder", &["directory", "folder", "tree"]),
    ("directory", &["directory", "tree", "folder"]),
    ("organization", &["org", "organization", "group"]),
    ("organisation", &["org", "organization", "group"]),
    ("org", &["org", "organization", "group"]),
    ("company", &["org", "organization", "team"]),
    ("team", &["team", "group", "member"]),
    ("group", &["group", "team"]),
    ("version", &["release", "version", "tag"]),
    ("release", &["release"]),
    ("job", &["job", "pipeline", "run"]),
    ("pipeline", &["pipeline", "job", "run"]),
    ("build", &["build", "pipeline", "job", "deployment"]),
    ("ci", &["pipeline", "workflow", "job", "check"]),
    ("workflow", &["workflow", "run", "action"]),
    ("action", &["action", "workflow"]),
    ("hook", &["hook", "webhook"]),
    ("webhook", &["webhook", "hook"]),
    ("snippet", &["snippet", "gist"]),
    ("gist", &["gist", "snippet"]),
    ("env", &["env", "environment", "variable"]),
    ("variable", &["variable", "env"]),
    ("domain", &["domain", "dns"]),
    (
        "setting",
        &["setting", "config", "configuration", "preference"],
    ),
    ("config", &["config", "configuration", "setting"]),
    ("notification", &["notification"]),
    ("alert", &["alert", "notification"]),
    ("history", &["history", "log", "event"]),
    ("log", &["log", "event"]),
    ("activity", &["activity", "event"]),
    ("status", &["status", "state"]),
    ("state", &["state", "status"]),
    ("detail", &["get", "retrieve"]),
    ("info", &["get", "retrieve"]),
    ("information", &["get", "retrieve"]),
];

/// The weight of an API word reached through [`ACTS`] and [`THINGS`], against 1 for the task's own
/// words.
const SYNONYM_WEIGHT: f32 = 0.4;

/// The weight of an API word reached through [`PHRASES`]: a phrase says exactly what it
/// means, as much as the task's own words.
const PHRASE_WEIGHT: f32 = 1.0;

/// A task in the first person (`my playlists`, `who follows me`) is about the caller, whom
/// APIs call the current or authenticated user.
const FIRST_PERSON: &[&str] = &["i", "me", "my", "mine", "myself"];
const SELF_WORDS: &[&str] = &["current", "authenticated", "auth"];

/// What a task that names no act asks for: to see something.
const READING: &[&str] = &["get", "list", "retrieve"];
const READING_WEIGHT: f32 = 0.2;

/// The weight of a number in a task (see [`Index::query_terms`]).
const NUMBER_WEIGHT: f32 = 0.1;
const SELF_WEIGHT: f32 = 0.3;

/// BM25's term-frequency saturation: high, because a tool's fields are short and a word
/// said again in the title and the description is evidence, not noise.
const K1: f32 = 2.0;

/// How much a tool gains for the share of its name the query covers: `pulls_update` for
/// "change the title of pull request 9" (all of its name) above `pulls_update-branch`.
const NAME_COVERAGE: f32 = 2.0;

/// The fields of a tool, each with its weight and its length normalisation (`b`).
#[derive(Clone, Copy)]
enum Field {
    Name,
    Title,
    Lead,
    Rest,
    Parameters,
    Toolset,
}

impl Field {
    const ALL: [Field; 6] = [
        Field::Name,
        Field::Title,
        Field::Lead,
        Field::Rest,
        Field::Parameters,
        Field::Toolset,
    ];

    fn weight(self) -> f32 {
        match self {
            Field::Name => 3.0,
            Field::Title => 2.5,
            Field::Lead => 1.5,
            Field::Rest => 0.2,
            Field::Parameters => 0.5,
            Field::Toolset => 2.0,
        }
    }

    fn b(self) -> f32 {
        match self {
            Field::Rest => 0.9,
            Field::Toolset => 0.3,
            _ => 0.5,
        }
    }
}

/// A BM25F index over a list of tools, by position in that list.
pub(super) struct Index {
    stemmer: Stemmer,
    /// [`ACTS`] and [`THINGS`], stemmed on both sides, each marked whether it is an act.
    bridge: HashMap<String, (Vec<String>, bool)>,
    /// Each tool's name as stemmed words, for how much of it a query covers.
    names: Vec<Vec<String>>,
    /// For each stemmed word, the tools that have it and its weighted, normalised frequency.
    postings: HashMap<String, Vec<(u32, f32)>>,
    tools: usize,
}

impl Index {
    /// Indexes `tools`; `toolset(i)` names the toolset of the tool at `i`, whose words count
    /// too.
    pub(crate) fn new<'a>(tools: &[Tool], toolset: impl Fn(usize) -> Option<&'a str>) -> Index {
        let stemmer = Stemmer::create(Algorithm::English);
        let stem = |text: &str| -> Vec<String> {
            words(text)
                .iter()
                .map(|word| stemmer.stem(word).into_owned())
                .collect()
        };
        // Each tool's fields as stemmed words; then each field's average length.
        let fields: Vec<[Vec<String>; 6]> = tools
            .iter()
            .enumerate()
            .map(|(i, tool)| {
                let description = tool.description();
                let (lead, rest) = split_lead(description);
                let parameters: Vec<&str> =
                    tool.parameters().iter().map(|p| p.name.as_str()).collect();
                [
                    stem(tool.name()),
                    stem(tool.title().unwrap_or_default()),
                    stem(lead),
                    stem(rest),
                    stem(&parameters.join(" ")),
                    stem(toolset(i).unwrap_or_default()),
                ]
            })
            .collect();
        let mut average = [0f32; 6];
        for tool in &fields {
            for (slot, words) in tool.iter().enumerate() {
                average[slot] += words.len() as f32;
            }
        }
        for value in &mut average {
            *value = (*value / tools.len().max(1) as f32).max(1.0);
        }
        let mut postings: HashMap<String, Vec<(u32, f32)>> = HashMap::new();
        let mut frequency: HashMap<&str, f32> = HashMap::new();
        for (i, tool) in fields.iter().enumerate() {
            frequency.clear();
            for (slot, field) in Field::ALL.into_iter().enumerate() {
                let words = &tool[slot];
                let norm = 1.0 - field.b() + field.b() * words.len() as f32 / average[slot];
                for word in words {
                    *frequency.entry(word).or_default() += field.weight() / norm;
                }
            }
            let position = u32::try_from(i).unwrap_or(u32::MAX);
            for (word, weight) in &frequency {
                postings
                    .entry((*word).to_owned())
                    .or_default()
                    .push((position, *weight));
            }
        }
        let bridge = ACTS
            .iter()
            .map(|entry| (entry, true))
            .chain(THINGS.iter().map(|entry| (entry, false)))
            .map(|((task, api), act)| {
                let api = api.iter().map(|w| stemmer.stem(w).into_owned()).collect();
                (stemmer.stem(task).into_owned(), (api, act))
            })
            .collect();
        let names = fields.iter().map(|tool| tool[0].clone()).collect();
        Index {
            stemmer,
            bridge,
            names,
            postings,
            tools: tools.len(),
        }
    }

    /// The words searched for `query`, stemmed, each with its weight: the task's own words
    /// (stop words left out) at 1, numbers and the API words of the bridge below.
    fn query_terms(&self, query: &str) -> Vec<(String, f32)> {
        let raw = words(query);
        let mut acted = false;
        let mut terms: Vec<(String, f32)> = Vec::new();
        let mut add = |term: String, weight: f32| match terms.iter_mut().find(|(t, _)| *t == term) {
            Some((_, existing)) => *existing = existing.max(weight),
            None => terms.push((term, weight)),
        };
        for (phrase, meaning) in PHRASES {
            if has_phrase(&raw, phrase) {
                for word in *meaning {
                    add(self.stemmer.stem(word).into_owned(), PHRASE_WEIGHT);
                }
            }
        }
        if raw.iter().any(|word| FIRST_PERSON.contains(&word.as_str())) {
            for word in SELF_WORDS {
                add(self.stemmer.stem(word).into_owned(), SELF_WEIGHT);
            }
        }
        for word in &raw {
            // A stop word says nothing of which tool; a number is most often a value
            // (`close issue 17`), so it only tells apart tools the rest matched alike.
            if STOP_WORDS.contains(&word.as_str()) {
                continue;
            }
            if word.chars().all(|c| c.is_ascii_digit()) {
                add(word.clone(), NUMBER_WEIGHT);
                continue;
            }
            let stem = self.stemmer.stem(word).into_owned();
            if let Some((bridged, act)) = self.bridge.get(&stem) {
                acted |= act;
                // A task word this API never uses is said only through the bridge: its API
                // words stand in for it at full weight.
                let weight = if self.postings.contains_key(&stem) {
                    SYNONYM_WEIGHT
                } else {
                    1.0
                };
                for api_word in bridged {
                    add(api_word.clone(), weight);
                }
            }
            add(stem, 1.0);
        }
        // A task that names no act asks to see something: `what playlists do I have?`.
        if !acted {
            for word in READING {
                add(self.stemmer.stem(word).into_owned(), READING_WEIGHT);
            }
        }
        terms
    }

    /// The positions of the tools that match `query`, best first (ties in listing order), at
    /// most `limit`; each with its score.
    pub(crate) fn search(&self, query: &str, limit: usize) -> Vec<(usize, f32)> {
        // Per tool: its score, and whether it matched the task itself rather than only
        // the words a task implies (`get` for a question, `current` for `my`).
        let mut scores: HashMap<u32, (f32, bool)> = HashMap::new();
        let total = self.tools as f32;
        let terms = self.query_terms(query);
        for (term, weight) in &terms {
            let Some(postings) = self.postings.get(term) else {
                continue;
            };
            let df = postings.len() as f32;
            let idf = (1.0 + (total - df + 0.5) / (df + 0.5)).ln();
            let said = *weight > SELF_WEIGHT.max(READING_WEIGHT).max(NUMBER_WEIGHT);
            for &(tool, tf) in postings {
                let entry = scores.entry(tool).or_default();
                entry.0 += weight * idf * tf * (K1 + 1.0) / (K1 + tf);
                entry.1 |= said;
            }
        }
        // Of two tools the task matches alike, the one whose name it covers more is the one
        // meant: the general operation rather than a narrower one named after it.
        let mut found: Vec<(usize, f32)> = scores
            .into_iter()
            .filter(|(_, (_, said))| *said)
            .map(|(tool, (score, _))| {
                let name = self.names.get(tool as usize).map_or(&[][..], Vec::as_slice);
                let covered = name
                    .iter()
                    .filter(|word| terms.iter().any(|(term, _)| term == *word))
                    .count();
                let cover = covered as f32 / name.len().max(1) as f32;
                (tool as usize, score * (1.0 + NAME_COVERAGE * cover))
            })
            .collect();
        found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        found.truncate(limit);
        found
    }
}

/// Whether `phrase` occurs in `words` in order, each of its words within three of the
/// previous one: "how many API requests do I have left" has `requests … left`.
fn has_phrase(words: &[String], phrase: &[&str]) -> bool {
    const GAP: usize = 3;
    (0..words.len()).any(|start| {
        let mut at = start;
        for (n, wanted) in phrase.iter().enumerate() {
            let from = if n == 0 { at } else { at + 1 };
            let to = if n == 0 {
                at + 1
            } else {
                (at + 1 + GAP).min(words.len())
            };
            match (from..to).find(|&i| words[i] == *wanted) {
                Some(i) => at = i,
                None => return false,
            }
        }
        true
    })
}

/// A description's first sentence (or first line), and the rest.
fn split_lead(description: &str) -> (&str, &str) {
    let description = description.trim_start();
    let end = description
        .char_indices()
        .find(|&(i, c)| {
            c == '\n'
                || (c == '.'
                    && description[i + 1..]
                        .chars()
                        .next()
                        .is_none_or(char::is_whitespace))
        })
        .map_or(description.len(), |(i, _)| i + 1);
    description.split_at(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_split_into_words() {
        assert_eq!(
            words("listRepoIssues get_HTTPServer-status v2Api ÉtéCafés"),
            [
                "list", "repo", "issues", "get", "http", "server", "status", "v2", "api", "été",
                "cafés"
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

    #[test]
    fn numbers_only_break_ties() {
        let tools: Vec<Tool> = (0..40)
            .map(|n| Tool::new(format!("s{n}_op7"), format!("Operation 7 of service {n}.")))
            .collect();
        let index = Index::new(&tools, |_| None);
        assert_eq!(index.search("operation 7 of service 36", 1)[0].0, 36);
        assert!(
            index.search("36", 10).is_empty(),
            "a number alone finds nothing"
        );
    }

    #[test]
    fn stop_words_and_numbers_are_not_searched() {
        let tools = vec![
            Tool::new(
                "update_issue",
                "Update an issue: its title, body or state (open, closed).",
            ),
            Tool::new(
                "list_my_things",
                "Lists things I have, for me, in my account, 17 of them.",
            ),
        ];
        let index = Index::new(&tools, |_| None);
        let found = index.search("close issue 17 for me", 10);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, 0);
    }

    #[test]
    fn task_words_reach_api_words() {
        let tools = vec![
            Tool::new("get_authenticated", "Get the authenticated user."),
            Tool::new(
                "get_rate_limit",
                "Get rate limit status for the authenticated user.",
            ),
            Tool::new("delete_repo", "Deletes a repository."),
            Tool::new(
                "list_users",
                "Lists all users, in the order they signed up.",
            ),
        ];
        let index = Index::new(&tools, |_| None);
        assert_eq!(index.search("who am I logged in as", 10)[0].0, 0);
        assert_eq!(
            index.search("how many API requests do I have left", 10)[0].0,
            1
        );
        assert_eq!(index.search("remove my repo", 10)[0].0, 2);
    }

    #[test]
    fn long_descriptions_are_not_buried() {
        let long = format!(
            "Merges a pull request into its base branch. {}",
            "The merge can fail when checks are pending or the branch is protected. ".repeat(20)
        );
        let tools = vec![
            Tool::new("pulls_merge", long).with_title("Merge a pull request"),
            Tool::new(
                "merge_upstream",
                "Sync a fork branch with the upstream repository.",
            )
            .with_title("Sync a fork branch"),
        ];
        let index = Index::new(&tools, |_| None);
        assert_eq!(index.search("merge my pull request", 10)[0].0, 0);
    }
}
