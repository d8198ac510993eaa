//! Ranked search over tools by words: BM25F over a tool's fields, with a task's words
//! bridged to an API's.
//!
//! A model searches with the user's task ("close issue 17", "who am I logged in as"); an API
//! names the same thing in its own words (`issues/update` with `state: closed`,
//! `users/get-authenticated`). Four things close that gap, and the shape of the task then
//! weighs what they find:
//!
//! - **Words.** Text and identifiers split alike (`listRepoIssues`, `get_HTTPServer`), lower
//!   case, and stemmed with the Snowball English stemmer: `closing`, `closed` and `close` are
//!   one word, as are `repositories` and `repository`; British spellings are read as
//!   American ones (`favourites`, `organise`, `cancelled`), and an acronym's plural is one
//!   word (`IPs`, `listVMs`). Words stemming joins by chance stay apart (`customers` and a
//!   `custom` template, `experiment` and `experience`). Words stemming leaves apart
//!   (`contributed` and `contributors`, `assign` and `assignees`) are kin: an API word that
//!   is a task word with another short ending stands in for it, weakly where the API also
//!   says the task's word.
//! - **Fields** (BM25F): a word in a tool's name counts most, then its title, the first
//!   sentence of its description, the rest of the description, its parameter names and its
//!   toolset's title, and weakly what its parameters say and the values they may take
//!   (`state`: `open`, `closed`); each field is length-normalised on its own, and the rest
//!   of a long description weakly, so a tool that says much is not buried by one that says
//!   little. A verb that only asks to see (`list`, `find`, `show`) weighs as if one tool in
//!   five had it, however seldom the API writes it: which operations read is the task's
//!   shape's to say (below), and EC2's few `List`s are nouns (`PrefixList`) where it
//!   `Describe`s. Of two tools matched alike, the one whose name the task covers more wins,
//!   and a word the task only implies (through the bridge) covers less than its own.
//! - **Stop words** are dropped from queries: `my`, `me`, `I`, `the`… match incidental text
//!   in unrelated tools; so are phrases that say when (`right now`, `at the moment`), and
//!   what the task is for (`so I can find it quickly`) counts half, its verbs no act.
//! - **What a task says besides its words.** Values are not searched (`cus_88Zt`,
//!   `report.pdf`, a URL), but what they are is, weakly: a URL asks for an operation that
//!   takes one, an e-mail address one that takes an `email`, a file name one about files.
//!   A path (`PATCH /V1.0/ActionTypes`) is words. Quoted text only breaks ties between
//!   tools the rest matched alike (`Search API for 'DICOM File' entry type`).
//!   The words of a name (`the finance-share bucket`) count half. What the task rules out
//!   is not searched (`disable it, don't delete it`), within its clause; a verb the task
//!   puts in its `-ed` or `-ing` form (`who's invited`) describes, it does not ask; `undo`
//!   after a done act (`I blocked them by accident, undo that`) is the API's undoing
//!   (`unblock`); and two words the API writes as one (`time zone`, `set up`) are that
//!   word.
//! - **A vocabulary bridge** ([`PHRASES`], [`ACTS`], [`THINGS`]): a small table from the words of
//!   tasks to the words of APIs (`remove` → `delete`, `close` → `update` and `state`, `who am
//!   I` → `authenticated user`, `requests left` → `rate limit`), weighed below the task's own
//!   words so that an exact match still wins; a verb with `un` that the API does not name
//!   (`unassign`) is its stem's removal, `stop following` is `unfollow` when the API
//!   says so, and a particle makes a verb another act (`kick off` a run, `kick` someone
//!   `off` a board).
//! - **The task's shape against the operation's** ([`Index::fit`]), as multipliers on the
//!   score rather than more words, since they hold for any API: what the task asks to do
//!   ([`VERBS`]: read, make or change, remove; a question reads) against what the operation
//!   does (its annotations: for HTTP, its method; for a `POST` or an unannotated tool, the
//!   verb its name leads or ends with, since RPC-style APIs post every call:
//!   `POST_DeleteAccessKey`, `accountsGet`; a method in capitals is the document's prefix,
//!   not a verb: `GET_CancelImportTask` cancels); whether a task that leads with a verb making
//!   something anew (`add`, `create`) or changing it (`edit`, `rename`) meets an operation
//!   that does that ([`Making`]: `addComment` against `updateComment`, from the name's
//!   first verb or a `PUT`'s annotations); whether each word the task shares with
//!   the operation's title is one or many in both (`pull request 9` is `Get a pull request`,
//!   `my albums` is `Get User's Saved Albums`); and whether an operation that takes no item
//!   is asked about one by its id (`xkcd 927`; a date, a time or a sum names no item, and
//!   a list that filters by what the task calls the item takes it: `patient 7310` and a
//!   `patient` parameter).
//! - **One place per operation**: an operation a document offers under two methods with the
//!   same words (AWS's `GET_AddPermission` and `POST_AddPermission`) is listed once, so
//!   that ten results are ten operations.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use rust_stemmers::Algorithm;

use mcs_core::{Tool, ToolAnnotations};

use crate::spelling::american;

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
            // fooBar, v2Api; HTTPServer splits before the `S` of `Server`, but `IPs`,
            // `URLs` and `listVMs` keep an acronym's plural `s` with it.
            Some(p) if c.is_uppercase() => {
                let plural = next == Some('s')
                    && !chars
                        .get(i + 2)
                        .is_some_and(|after| after.is_alphanumeric());
                p.is_lowercase()
                    || p.is_numeric()
                    || (p.is_uppercase() && next.is_some_and(char::is_lowercase) && !plural)
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

/// [`words`] as search reads them: British spellings as American ones ([`american`]), on
/// both sides of a search.
fn search_words(text: &str) -> Vec<String> {
    let mut words = words(text);
    for word in &mut words {
        if let Some(american) = american(word) {
            *word = american;
        }
    }
    words
}

/// Snowball's English stemmer, but for the words it joins with others they have nothing
/// to do with: `customers` with `custom` (a custom verification template), `experiment`
/// with `experience`, `business` with `busy`.
struct Stemmer(rust_stemmers::Stemmer);

/// Beginnings of words that keep their own stem (see [`Stemmer`]).
const OWN_STEMS: &[&str] = &["customer", "experiment", "business"];

impl Stemmer {
    fn english() -> Self {
        Stemmer(rust_stemmers::Stemmer::create(Algorithm::English))
    }

    fn stem<'a>(&self, word: &'a str) -> Cow<'a, str> {
        match OWN_STEMS.iter().find(|own| word.starts_with(*own)) {
            Some(own) => Cow::Borrowed(&word[..own.len()]),
            None => self.0.stem(word),
        }
    }
}

/// Words a task uses that say nothing about which tool it needs.
const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "actually",
    "again",
    "all",
    "already",
    "also",
    "am",
    "an",
    "and",
    "any",
    "anymore",
    "anything",
    "are",
    "aren",
    "as",
    "asap",
    "at",
    "be",
    "been",
    "but",
    "by",
    "can",
    "completely",
    "could",
    "couldn",
    "currently",
    "d",
    "did",
    "didn",
    "do",
    "does",
    "doesn",
    "don",
    "every",
    "for",
    "from",
    "hadn",
    "hasn",
    "have",
    "haven",
    "he",
    "her",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "isn",
    "it",
    "its",
    "itself",
    "just",
    "let",
    "lets",
    "ll",
    "m",
    "many",
    "me",
    "mine",
    "much",
    "my",
    "myself",
    "need",
    "now",
    "of",
    "on",
    "onto",
    "or",
    "our",
    "ours",
    "ourselves",
    "please",
    "quickly",
    "re",
    "really",
    "s",
    "she",
    "should",
    "shouldn",
    "so",
    "some",
    "someone",
    "something",
    "still",
    "t",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "to",
    "us",
    "use",
    "used",
    "uses",
    "using",
    "ve",
    "via",
    "want",
    "was",
    "wasn",
    "we",
    "were",
    "weren",
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
    "wouldn",
    "you",
    "your",
    "yours",
    "yourself",
];

/// Phrases that say when, not what (`right now`, `at the moment`): their words are not
/// searched (`right` alone may be a permission).
const FILLERS: &[&[&str]] = &[
    &["right", "now"],
    &["right", "away"],
    &["at", "the", "moment"],
    &["in", "a", "moment"],
];

/// Which of `words` belong to a [`FILLERS`] phrase.
fn fillers(words: &[String]) -> Vec<bool> {
    let mut filler = vec![false; words.len()];
    for phrase in FILLERS {
        for (start, window) in words.windows(phrase.len()).enumerate() {
            if window.iter().zip(phrase.iter()).all(|(a, b)| a == b) {
                filler[start..start + phrase.len()].fill(true);
            }
        }
    }
    filler
}

/// Phrases of tasks and the API words they stand for (matched on the task's words, before
/// stop words are dropped).
pub(crate) const PHRASES: &[(&[&str], &[&str])] = &[
    (
        &["who", "am", "i"],
        &["authenticated", "user", "current", "me"],
    ),
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
    (&["get", "rid", "of"], &["delete", "remove"]),
    (&["turn", "off"], &["disable", "off"]),
    (&["switch", "off"], &["disable", "off"]),
    (&["turn", "on"], &["enable", "on"]),
    (&["switch", "on"], &["enable", "on"]),
    (&["do", "not", "disturb"], &["dnd", "snooze"]),
    (
        &["direct", "message"],
        &["im", "dm", "conversation", "open"],
    ),
    (&["who", "is", "in"], &["member"]),
    (&["who", "is", "on"], &["member", "user"]),
    (&["how", "many"], &["count", "total"]),
    (&["members", "of"], &["member"]),
    (&["hand", "over"], &["transfer", "assign"]),
    (&["file", "bug"], &["create", "issue"]),
    (&["file", "issue"], &["create", "issue"]),
    (&["file", "ticket"], &["create", "issue"]),
    (&["kick", "out"], &["remove", "member"]),
    (&["to", "do"], &["todo", "task"]),
    (&["ask", "review"], &["request", "reviewer"]),
    (&["look", "up"], &["get", "info", "retrieve"]),
    (&["tick", "off"], &["complete", "check", "state"]),
    (&["goes", "down"], &["uptime", "check", "alert"]),
    (&["is", "down"], &["uptime", "check", "alert"]),
    (&["time", "spent"], &["worklog", "time", "spent"]),
    (&["hours", "spent"], &["worklog", "time", "spent"]),
    (&["spent", "hours"], &["worklog", "time", "spent"]),
    (&["give", "back"], &["refund", "return"]),
    (&["pay", "back"], &["refund", "return"]),
    (&["pull", "back"], &["reverse", "reversal", "refund"]),
    (&["done", "by"], &["due", "deadline"]),
    (&["who", "changed"], &["audit", "log", "history"]),
    (&["one", "request"], &["batch", "bulk", "multiple"]),
    (&["all", "at", "once"], &["batch", "bulk", "multiple"]),
    (&["static", "site"], &["website", "hosting"]),
    (&["more", "like"], &["similar", "related", "recommendation"]),
    (
        &["same", "time"],
        &["concurrent", "concurrency", "parallel"],
    ),
    (
        &["without", "actually"],
        &["simulate", "dry", "preview", "test"],
    ),
    (&["dry", "run"], &["dry", "simulate", "preview"]),
    (&["test", "environment"], &["sandbox", "test"]),
    (
        &["pop", "up"],
        &["message", "notification", "display", "alert"],
    ),
    (&["box", "set"], &["collection", "boxset"]),
    (&["security", "code"], &["cvc", "cvv", "code"]),
    (
        &["standing", "order"],
        &["schedule", "recurring", "payment"],
    ),
    (&["send", "back"], &["refund", "return"]),
    (&["money", "back"], &["refund", "return"]),
    (&["bring", "back"], &["restore", "recover", "undelete"]),
    (
        &["who", "has", "access"],
        &["permission", "acl", "collaborator", "share"],
    ),
    (&["how", "much"], &["usage", "total", "quota"]),
    (&["pull", "up"], &["get", "retrieve", "show"]),
    (&["set", "up"], &["create", "setup"]),
    (&["spin", "up"], &["create", "launch", "run"]),
    (&["kick", "off"], &["start", "run", "trigger", "generate"]),
    (&["hook", "up"], &["connect", "attach", "link"]),
    (&["throw", "away"], &["delete", "remove", "prune"]),
    (&["clean", "up"], &["delete", "prune", "clean", "purge"]),
    (
        &["every", "time"],
        &["webhook", "hook", "notification", "subscription", "event"],
    ),
    (
        &["each", "time"],
        &["webhook", "hook", "notification", "subscription", "event"],
    ),
    (
        &["as", "soon", "as"],
        &["webhook", "hook", "notification", "subscription", "event"],
    ),
    (
        &["every", "day"],
        &["schedule", "recurring", "daily", "cron"],
    ),
    (
        &["every", "week"],
        &["schedule", "recurring", "weekly", "cron"],
    ),
    (
        &["every", "hour"],
        &["schedule", "recurring", "hourly", "cron"],
    ),
    (
        &["every", "month"],
        &["schedule", "recurring", "monthly", "cron"],
    ),
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
    (
        "upload",
        &["upload", "create", "file", "attachment", "put", "post"],
    ),
    ("remove", &["delete", "remove"]),
    ("delete", &["delete", "remove"]),
    ("update", &["update", "edit", "put", "patch"]),
    ("erase", &["delete", "remove", "wipe"]),
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
    ("move", &["move", "transfer", "transition"]),
    ("copy", &["copy", "fork", "duplicate"]),
    ("duplicate", &["copy", "duplicate", "fork"]),
    ("deploy", &["deployment", "deploy"]),
    ("redeploy", &["redeploy", "deployment"]),
    ("restart", &["restart", "redeploy", "retry", "reboot"]),
    ("reboot", &["reboot", "restart", "power", "action"]),
    ("shift", &["move", "transfer"]),
    ("renew", &["renewal", "upcoming", "subscription"]),
    ("email", &["send", "email", "mail", "message", "notify"]),
    ("collect", &["capture", "charge", "collect"]),
    ("dismiss", &["close", "dismiss", "reject"]),
    ("bump", &["update", "edit", "raise"]),
    ("reword", &["update", "edit", "rename"]),
    ("follow", &["follow", "watch", "subscribe"]),
    ("rerun", &["rerun", "retry"]),
    ("retry", &["retry", "rerun"]),
    ("rollback", &["rollback", "revert", "promote"]),
    ("connect", &["connect", "link", "integration"]),
    ("link", &["link", "connect"]),
    ("share", &["share", "permission", "invite"]),
    ("block", &["block", "ban"]),
    ("ban", &["ban", "block", "suspend", "kick"]),
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
    ("attach", &["add", "create", "upload", "link"]),
    ("detach", &["remove", "delete", "unlink"]),
    ("fix", &["update", "edit", "correct"]),
    ("correct", &["update", "edit", "correct"]),
    ("mark", &["update", "set", "mark", "complete"]),
    ("finish", &["complete", "finish", "done"]),
    ("complete", &["complete", "finish", "done"]),
    ("pause", &["pause", "snooze", "suspend", "stop"]),
    ("mute", &["mute", "snooze", "disable"]),
    ("silence", &["mute", "snooze", "silence"]),
    ("grow", &["resize", "increase", "expand"]),
    ("shrink", &["resize", "decrease"]),
    ("plug", &["attach", "assign"]),
    ("scrub", &["anonymize", "redact", "delete"]),
    ("snooze", &["snooze", "mute"]),
    ("suspend", &["suspend", "disable", "pause"]),
    ("schedule", &["schedule", "scheduled"]),
    ("jump", &["seek", "skip", "position"]),
    ("seek", &["seek", "position"]),
    ("skip", &["skip", "next"]),
    ("forward", &["forward", "drain", "export", "redirect"]),
    ("embed", &["embedding", "vector"]),
    ("moderate", &["moderation", "flag"]),
    ("translate", &["translation", "translate"]),
    ("transcribe", &["transcription", "transcribe", "audio"]),
    ("ask", &["question", "answer", "chat", "completion"]),
    ("visit", &["view", "traffic", "visitor"]),
    // Clipped words (`meds`, `docs`, `stats`, `Dr.`) and their full forms.
    ("doc", &["document", "documentation"]),
    ("stat", &["statistic", "stats", "metric"]),
    ("app", &["application", "app"]),
    ("admin", &["administrator", "admin"]),
    ("msg", &["message"]),
    ("pic", &["picture", "photo", "image"]),
    ("vid", &["video"]),
    ("med", &["medication", "medicine"]),
    ("dept", &["department"]),
    ("appt", &["appointment"]),
    ("pref", &["preference"]),
    ("prod", &["production"]),
    ("db", &["database"]),
    ("dob", &["birth", "birthday", "birthdate"]),
    ("born", &["birth", "birthday", "birthdate"]),
    ("dr", &["doctor", "physician"]),
    ("physician", &["doctor", "provider", "practitioner"]),
    ("doctor", &["physician", "provider", "practitioner"]),
    // Lists of who may or may not: the old words and the new.
    (
        "blocklist",
        &["blacklist", "blocklist", "denylist", "block"],
    ),
    (
        "blacklist",
        &["blocklist", "blacklist", "denylist", "block"],
    ),
    ("denylist", &["blocklist", "blacklist", "denylist", "block"]),
    ("allowlist", &["whitelist", "allowlist"]),
    ("whitelist", &["allowlist", "whitelist"]),
    ("wipe", &["wipe", "erase", "delete"]),
    (
        "deactivate",
        &["disable", "deactivate", "suspend", "update"],
    ),
    ("activate", &["enable", "activate"]),
    ("bounce", &["restart", "reboot"]),
    ("grant", &["grant", "permission", "add", "attach", "share"]),
    ("allow", &["permission", "grant", "allow", "policy"]),
    ("simulate", &["simulate", "test", "dry"]),
    ("test", &["test", "simulate", "check", "validate"]),
    ("validate", &["validate", "check", "lint", "test"]),
    ("import", &["import", "upload", "create"]),
    ("export", &["export", "download"]),
    ("backup", &["backup", "snapshot", "export"]),
    ("restore", &["restore", "recover", "undelete"]),
    ("ping", &["ping", "heartbeat", "health"]),
    ("rescan", &["refresh", "scan", "rescan", "sync"]),
    ("refresh", &["refresh", "reload", "sync", "scan"]),
    ("recover", &["restore", "recover", "undelete"]),
    ("combine", &["compose", "merge", "combine", "concatenate"]),
    ("stitch", &["compose", "merge", "combine", "concatenate"]),
    ("rotate", &["rotate", "regenerate", "reset"]),
    ("reset", &["reset", "regenerate"]),
    ("scale", &["scale", "replica", "resize", "update"]),
    ("cap", &["limit", "max", "quota"]),
    ("hide", &["hide", "hidden", "mute", "visibility"]),
    ("hidden", &["hidden", "hide", "visibility", "private"]),
    ("empty", &["purge", "clear", "empty", "delete"]),
    ("withdraw", &["cancel", "revoke", "withdraw", "delete"]),
    ("reorder", &["move", "order", "position", "reorder"]),
    ("retire", &["delete", "archive", "deprecate"]),
    ("terminate", &["terminate", "delete", "stop"]),
    ("launch", &["launch", "create", "run", "start"]),
    ("provision", &["provision", "create"]),
    ("decommission", &["delete", "remove", "decommission"]),
    ("estimate", &["estimate", "guess", "preview"]),
    ("store", &["create", "update", "put", "set", "save", "post"]),
    ("save", &["create", "update", "put", "save"]),
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
    ("mail", &["mail", "email", "message"]),
    ("mailbox", &["mail", "mailbox", "inbox"]),
    ("dm", &["message", "im", "conversation"]),
    ("token", &["token", "key", "secret"]),
    ("key", &["key", "token"]),
    ("secret", &["secret", "variable", "key"]),
    ("credential", &["credential", "token", "key"]),
    ("password", &["password", "credential", "secret"]),
    ("bill", &["billing", "invoice"]),
    ("invoice", &["invoice", "billing"]),
    ("payment", &["billing", "payment", "invoice"]),
    ("quota", &["limit", "quota", "usage"]),
    ("limit", &["limit", "rate"]),
    ("comment", &["comment", "note", "reply"]),
    ("note", &["note", "comment"]),
    ("belong", &["member", "membership"]),
    ("owe", &["balance", "invoice", "billing"]),
    ("proof", &["evidence"]),
    ("chargeback", &["dispute"]),
    ("processor", &["cpu"]),
    ("ram", &["memory", "size"]),
    ("column", &["section", "list", "column"]),
    ("port", &["rule", "firewall", "port"]),
    ("kubectl", &["kubeconfig", "kubernetes", "credential"]),
    (
        "server",
        &["server", "instance", "machine", "vm", "droplet"],
    ),
    ("billing", &["billing", "subscription", "invoice"]),
    ("card", &["card", "payment", "method", "source"]),
    ("deadline", &["due", "deadline"]),
    ("screenshot", &["attachment", "image", "file"]),
    ("subtask", &["subtask", "parent", "child"]),
    ("reply", &["reply", "comment"]),
    ("bug", &["issue"]),
    ("ticket", &["issue"]),
    ("tag", &["tag", "label"]),
    ("label", &["label", "tag"]),
    ("picture", &["image", "picture", "photo", "avatar"]),
    ("photo", &["image", "picture", "photo", "avatar"]),
    ("avatar", &["avatar", "image", "photo", "picture"]),
    ("image", &["image"]),
    ("folder", &["directory", "folder", "tree"]),
    ("directory", &["directory", "tree", "folder"]),
    ("organization", &["org", "organization", "group"]),
    ("organisation", &["org", "organization", "group"]),
    ("org", &["org", "organization", "group"]),
    ("company", &["org", "organization", "team"]),
    ("team", &["team", "group", "member"]),
    ("group", &["group", "team"]),
    ("version", &["release", "version", "revision", "tag"]),
    ("release", &["release"]),
    ("job", &["job", "pipeline", "run", "task"]),
    ("task", &["task", "job"]),
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
    ("online", &["presence", "status", "active"]),
    ("offline", &["presence", "status", "away"]),
    ("away", &["presence", "status", "away"]),
    ("busy", &["presence", "status", "dnd"]),
    ("green", &["status", "check", "success"]),
    ("passing", &["status", "check", "success"]),
    ("failing", &["status", "check", "failure"]),
    ("broken", &["status", "check", "failure"]),
    ("tarball", &["archive", "tarball", "download"]),
    ("zip", &["archive", "zipball", "download"]),
    ("console", &["log", "trace", "output"]),
    ("output", &["log", "trace", "output", "result"]),
    ("popular", &["top", "popular"]),
    ("similar", &["recommendation", "related", "similar"]),
    ("thread", &["reply", "thread", "topic"]),
    ("file", &["file", "object", "document", "attachment"]),
    ("disk", &["volume", "disk", "storage"]),
    ("recent", &["recent", "latest", "history", "list"]),
    ("latest", &["latest", "recent"]),
    ("tomorrow", &["schedule", "scheduled"]),
    ("later", &["schedule", "scheduled"]),
    ("owner", &["owner", "ownership", "transfer"]),
    ("ownership", &["owner", "transfer"]),
    ("visitor", &["view", "traffic"]),
    ("traffic", &["traffic", "view", "clone"]),
    ("vector", &["embedding", "vector"]),
    ("hateful", &["moderation", "flag"]),
    ("offensive", &["moderation", "flag"]),
    ("abusive", &["moderation", "flag"]),
    ("toxic", &["moderation", "flag"]),
    ("violent", &["moderation", "flag"]),
    ("harmful", &["moderation", "flag"]),
    ("grammar", &["edit", "correct"]),
    ("typo", &["edit", "update", "correct"]),
    ("branch", &["branch", "ref", "reference"]),
    ("most", &["top"]),
    ("progress", &["status", "event", "progress"]),
    ("newest", &["latest", "recent"]),
    ("last", &["latest", "recent", "history"]),
    ("discussion", &["comment", "discussion", "thread"]),
    ("detail", &["get", "retrieve"]),
    ("info", &["get", "retrieve"]),
    ("information", &["get", "retrieve"]),
    ("appointment", &["event", "meeting", "booking"]),
    ("meeting", &["meeting", "event"]),
    ("occurrence", &["instance", "recurrence"]),
    ("recurring", &["recurrence", "instance"]),
    ("revision", &["revision", "version", "history"]),
    ("overview", &["summary", "overview"]),
    ("handle", &["username", "user", "handle"]),
    ("spreadsheet", &["file", "sheet", "spreadsheet"]),
    ("document", &["document", "file"]),
    ("pdf", &["document", "file", "pdf"]),
    ("mix", &["playlist", "mix"]),
    ("spot", &["position", "index", "order"]),
    ("incoming", &["inbound", "incoming", "received"]),
    ("outgoing", &["outbound", "outgoing", "sent"]),
    ("junk", &["spam", "junk"]),
    ("spam", &["spam", "junk", "complaint"]),
    ("sandbox", &["sandbox", "test"]),
    ("instead", &["substitute", "alternative", "replacement"]),
    ("substitute", &["substitute", "alternative", "replacement"]),
    ("roughly", &["estimate", "guess"]),
    ("approximately", &["estimate", "guess"]),
    ("space", &["storage", "disk", "usage", "quota"]),
    ("storage", &["storage", "usage", "quota"]),
    (
        "whenever",
        &["webhook", "hook", "notification", "subscription", "event"],
    ),
    (
        "automatically",
        &[
            "rule",
            "policy",
            "lifecycle",
            "schedule",
            "automation",
            "auto",
        ],
    ),
    (
        "regularly",
        &["schedule", "recurring", "periodic", "cron", "monitor"],
    ),
    (
        "periodically",
        &["schedule", "recurring", "periodic", "cron", "monitor"],
    ),
];

/// The weight of an API word reached through [`ACTS`] and [`THINGS`], against 1 for the task's own
/// words.
const SYNONYM_WEIGHT: f32 = 0.4;

/// The weight of an API word reached through [`PHRASES`]: a phrase says exactly what it
/// means, more than any one of the task's own words.
const PHRASE_WEIGHT: f32 = 1.3;

/// A task in the first person (`my playlists`, `who follows me`) is about the caller, whom
/// APIs call the current or authenticated user.
const FIRST_PERSON: &[&str] = &["i", "me", "my", "mine", "myself"];
const SELF_WORDS: &[&str] = &["current", "authenticated", "auth"];

/// What a task that names no act asks for: to see something.
const READING: &[&str] = &["get", "list", "retrieve"];
const READING_WEIGHT: f32 = 0.1;
/// Verbs that ask only to see something (`list`, `show`, `find`): which of an API's
/// operations read is the fit's to say (see [`Index::fit`]), so such a verb weighs no more
/// where the API seldom writes it than a word one tool in [`GENERIC_SHARE`] has. EC2
/// `Describe`s its instances, and its few `List`s are nouns (`PrefixList`).
const GENERIC_VERBS: &[&str] = &[
    "get", "list", "show", "find", "fetch", "retrieve", "view", "see", "display", "look", "lookup",
    "read", "describe",
];
const GENERIC_SHARE: f32 = 5.0;

/// The weight of a number in a task (see [`Index::query_terms`]).
const NUMBER_WEIGHT: f32 = 0.1;
const SELF_WEIGHT: f32 = 0.3;

/// What a task asks to do to the world, by its verb: see [`VERBS`] and [`Index::act`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Act {
    /// To see something: `show`, `list`, `what…?`.
    Read,
    /// To make or change something: `add`, `rename`, `close`, `star`.
    Make,
    /// To remove something: `delete`, `kick`, `get rid of`, `unfollow`.
    Remove,
}

/// Of the acts that make or change: whether a thing is made anew (`add`, `create`, `post`)
/// or one there is changed (`update`, `rename`, `set`). An API names both sides
/// (`addWorklog`, `updateWorklog`); a task says which it means by its verb.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Making {
    New,
    Change,
}

/// Verbs (of tasks and of operations' names) that make a thing anew. (`make` and `mark` say
/// neither: `make my repository private`, `mark the commit as passing`.)
const NEW_VERBS: &[&str] = &[
    "add",
    "comment",
    "create",
    "file",
    "fork",
    "generate",
    "import",
    "insert",
    "invite",
    "launch",
    "new",
    "open",
    "post",
    "provision",
    "publish",
    "record",
    "register",
    "remind",
    "reply",
    "schedule",
    "spin",
    "start",
    "submit",
    "upload",
    "write",
];

/// Verbs (of tasks and of operations' names) that change a thing there is.
const CHANGE_VERBS: &[&str] = &[
    "activate",
    "alter",
    "bump",
    "change",
    "close",
    "deactivate",
    "disable",
    "edit",
    "enable",
    "modify",
    "move",
    "rename",
    "reopen",
    "replace",
    "reset",
    "reword",
    "set",
    "shift",
    "turn",
    "update",
];

/// The verbs of operations' names that make anew or change, for [`name_making`]: fewer
/// than a task's, since a name's other words are nouns (`file_update`, `comment_create`).
const NEW_NAMES: &[&str] = &[
    "add", "create", "generate", "import", "insert", "new", "post", "publish", "register",
    "submit", "upload",
];
const CHANGE_NAMES: &[&str] = &[
    "change", "disable", "edit", "enable", "mark", "modify", "move", "patch", "put", "rename",
    "replace", "set", "update",
];

/// Whether an operation makes anew or changes, from the first verb of its name
/// (`addWorklog`, `repos_update-commit-comment`, `POST_UpdateAlias`, `postV3Projects`), or,
/// when its name has none, from its annotations: an idempotent write that destroys nothing
/// (an HTTP `PUT`) changes.
fn name_making(name: &str, annotations: &ToolAnnotations) -> Option<Making> {
    for word in search_words(name) {
        let word = word.as_str();
        if NEW_NAMES.contains(&word) {
            return Some(Making::New);
        }
        if CHANGE_NAMES.contains(&word) {
            return Some(Making::Change);
        }
        if NAME_VERBS.iter().any(|(verb, _)| *verb == word) {
            return None;
        }
    }
    (annotations.read_only == Some(false)
        && annotations.idempotent == Some(true)
        && annotations.destructive != Some(true))
    .then_some(Making::Change)
}

/// Which making `word` (a verb of a task, lower case) says, if either.
fn making(word: &str) -> Option<Making> {
    if NEW_VERBS.contains(&word) {
        Some(Making::New)
    } else if CHANGE_VERBS.contains(&word) {
        Some(Making::Change)
    } else {
        None
    }
}

/// What an operation does to the world, from its annotations (for an HTTP operation, what
/// its method says: `GET` reads, `DELETE` destroys, the others write).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Effect {
    Reads,
    Writes,
    Destroys,
}

impl Effect {
    fn of(annotations: &ToolAnnotations) -> Option<Effect> {
        match (annotations.read_only, annotations.destructive) {
            (Some(true), _) => Some(Effect::Reads),
            (_, Some(true)) => Some(Effect::Destroys),
            (Some(false), _) => Some(Effect::Writes),
            _ => None,
        }
    }

    /// What an operation does, from its annotations and the verb its name leads with.
    /// Annotations that only say "writes" are what an HTTP `POST` says, and APIs in the RPC
    /// style send every call so (`POST /accounts/get`, AWS's `DeleteAccessKey`, Telegram's
    /// `sendMessage`): there, and where no annotations are given, the name's verb
    /// (see [`NAME_VERBS`]) says whether the operation reads or removes.
    fn of_tool(annotations: &ToolAnnotations, name: &str) -> Option<Effect> {
        let said = Effect::of(annotations);
        if matches!(said, Some(Effect::Reads | Effect::Destroys)) {
            return said;
        }
        match name_verb(name) {
            Some(Effect::Writes) | None => said,
            verb => verb,
        }
    }
}

/// Verbs an operation's name may lead with that say what it does whatever its HTTP method.
const NAME_VERBS: &[(&str, Effect)] = &[
    ("get", Effect::Reads),
    ("list", Effect::Reads),
    ("describe", Effect::Reads),
    ("fetch", Effect::Reads),
    ("retrieve", Effect::Reads),
    ("search", Effect::Reads),
    ("find", Effect::Reads),
    ("query", Effect::Reads),
    ("read", Effect::Reads),
    ("lookup", Effect::Reads),
    ("download", Effect::Reads),
    ("delete", Effect::Destroys),
    ("remove", Effect::Destroys),
    ("destroy", Effect::Destroys),
    ("purge", Effect::Destroys),
    ("create", Effect::Writes),
    ("add", Effect::Writes),
    ("insert", Effect::Writes),
    ("update", Effect::Writes),
    ("put", Effect::Writes),
    ("post", Effect::Writes),
    ("patch", Effect::Writes),
    ("set", Effect::Writes),
    ("send", Effect::Writes),
];

/// HTTP methods, which an operation's name may lead with before its verb (`GET_DeleteUser`,
/// `post_create_role`).
const METHOD_WORDS: &[&str] = &["get", "post", "put", "patch", "delete", "head", "options"];

/// The effect of the verb a name leads with (`DeleteAccessKey`, `GET_DeleteAccessKey`) or,
/// when it leads with none, ends with (`accountsGet`, `calendar_events_insert`; not one of
/// [`TRAILING_NOUNS`]). `list`
/// is also a noun (`listAddMember`, `listIdCreate`): a verb later in the name says more.
fn name_verb(name: &str) -> Option<Effect> {
    let verb = |word: &str| {
        NAME_VERBS
            .iter()
            .find(|(verb, _)| *verb == word)
            .map(|(_, effect)| *effect)
    };
    let mut words = search_words(name);
    // A method in capitals (`GET_CancelImport`) is the document's prefix, not a verb: AWS
    // offers every action under `GET` and `POST` alike.
    let prefixed = name
        .split_once('_')
        .is_some_and(|(lead, _)| !lead.is_empty() && lead.bytes().all(|b| b.is_ascii_uppercase()));
    if words.len() > 1
        && METHOD_WORDS.contains(&words[0].as_str())
        && (prefixed || verb(&words[1]).is_some())
    {
        words.remove(0);
    }
    let first = words.first()?;
    if first == "list"
        && let Some(later) = words[1..]
            .iter()
            .filter_map(|word| verb(word))
            .find(|effect| *effect != Effect::Reads)
    {
        return Some(later);
    }
    verb(first).or_else(|| {
        words
            .last()
            .filter(|word| !TRAILING_NOUNS.contains(&word.as_str()))
            .and_then(|word| verb(word))
    })
}

/// Words of [`NAME_VERBS`] that end a name more often as a noun or a state than as its verb
/// (`contactList`, `dataSet`, `markAsRead`, `BulkSendList`).
const TRAILING_NOUNS: &[&str] = &["list", "set", "read", "post", "put", "add", "send"];

/// The verbs of tasks and the act each asks for, on any API: the general vocabulary of
/// REST (reading, making and changing, removing), not the words of one API. The first of
/// them in a task says what it asks for; a task that starts as a question (`what…`, `is…`)
/// asks to read. A verb made with `un` (`unassign`, `unpin`) removes what its stem makes.
const VERBS: &[(&str, Act)] = &[
    ("browse", Act::Read),
    ("count", Act::Read),
    ("display", Act::Read),
    ("download", Act::Read),
    ("export", Act::Read),
    ("fetch", Act::Read),
    ("find", Act::Read),
    ("get", Act::Read),
    ("list", Act::Read),
    ("look", Act::Read),
    ("lookup", Act::Read),
    ("read", Act::Read),
    ("retrieve", Act::Read),
    ("search", Act::Read),
    ("see", Act::Read),
    ("show", Act::Read),
    ("view", Act::Read),
    ("accept", Act::Make),
    ("activate", Act::Make),
    ("add", Act::Make),
    ("allow", Act::Make),
    ("approve", Act::Make),
    ("archive", Act::Make),
    ("assign", Act::Make),
    ("attach", Act::Make),
    ("block", Act::Make),
    ("bounce", Act::Make),
    ("bump", Act::Make),
    ("buy", Act::Make),
    ("cancel", Act::Make),
    ("change", Act::Make),
    ("close", Act::Make),
    ("collect", Act::Make),
    ("combine", Act::Make),
    ("comment", Act::Make),
    ("concede", Act::Make),
    ("create", Act::Make),
    ("deactivate", Act::Make),
    ("deploy", Act::Make),
    ("disable", Act::Make),
    ("edit", Act::Make),
    ("email", Act::Make),
    ("enable", Act::Make),
    ("file", Act::Make),
    ("follow", Act::Make),
    ("fork", Act::Make),
    ("generate", Act::Make),
    ("give", Act::Make),
    ("grant", Act::Make),
    ("grow", Act::Make),
    ("hand", Act::Make),
    ("hide", Act::Make),
    ("import", Act::Make),
    ("insert", Act::Make),
    ("invite", Act::Make),
    ("launch", Act::Make),
    ("leave", Act::Make),
    ("like", Act::Make),
    ("lock", Act::Make),
    ("make", Act::Make),
    ("mark", Act::Make),
    ("merge", Act::Make),
    ("modify", Act::Make),
    ("move", Act::Make),
    ("new", Act::Make),
    ("notify", Act::Make),
    ("open", Act::Make),
    ("pause", Act::Make),
    ("pin", Act::Make),
    ("play", Act::Make),
    ("plug", Act::Make),
    ("post", Act::Make),
    ("protect", Act::Make),
    ("provision", Act::Make),
    ("publish", Act::Make),
    ("purchase", Act::Make),
    ("put", Act::Make),
    ("react", Act::Make),
    ("reboot", Act::Make),
    ("record", Act::Make),
    ("register", Act::Make),
    ("remind", Act::Make),
    ("rename", Act::Make),
    ("reopen", Act::Make),
    ("replace", Act::Make),
    ("reply", Act::Make),
    ("rerun", Act::Make),
    ("reset", Act::Make),
    ("restart", Act::Make),
    ("restore", Act::Make),
    ("resume", Act::Make),
    ("retry", Act::Make),
    ("reword", Act::Make),
    ("rotate", Act::Make),
    ("run", Act::Make),
    ("save", Act::Make),
    ("scale", Act::Make),
    ("schedule", Act::Make),
    ("scrub", Act::Make),
    ("send", Act::Make),
    ("set", Act::Make),
    ("share", Act::Make),
    ("shift", Act::Make),
    ("shrink", Act::Make),
    ("spin", Act::Make),
    ("star", Act::Make),
    ("start", Act::Make),
    ("stop", Act::Make),
    ("submit", Act::Make),
    ("subscribe", Act::Make),
    ("tick", Act::Make),
    ("transfer", Act::Make),
    ("trigger", Act::Make),
    ("turn", Act::Make),
    ("update", Act::Make),
    ("upload", Act::Make),
    ("vote", Act::Make),
    ("watch", Act::Make),
    ("write", Act::Make),
    ("clear", Act::Remove),
    ("delete", Act::Remove),
    ("destroy", Act::Remove),
    ("detach", Act::Remove),
    ("drop", Act::Remove),
    ("erase", Act::Remove),
    ("kick", Act::Remove),
    ("prune", Act::Remove),
    ("purge", Act::Remove),
    ("remove", Act::Remove),
    ("revoke", Act::Remove),
    ("terminate", Act::Remove),
    ("unset", Act::Remove),
    ("wipe", Act::Remove),
];

/// Verbs whose particle makes them another act (`kick off` a run, not `kick` a member):
/// the act of a task that says one, and whether the words must be adjacent (`kick member
/// m5 off the board` is a removal). The verb's own bridge is left out there; what the
/// phrase means is in [`PHRASES`].
const PHRASAL_ACTS: &[(&[&str], Act, bool)] = &[
    (&["get", "rid", "of"], Act::Remove, false),
    (&["take", "off"], Act::Remove, false),
    (&["throw", "away"], Act::Remove, false),
    (&["clean", "up"], Act::Remove, false),
    (&["kick", "off"], Act::Make, true),
    (&["pull", "up"], Act::Read, false),
];

/// The phrasal acts `words` says.
fn phrasal_acts(words: &[String]) -> impl Iterator<Item = (&'static [&'static str], Act)> {
    PHRASAL_ACTS
        .iter()
        .filter(move |(phrase, _, adjacent)| {
            if *adjacent {
                words
                    .windows(phrase.len())
                    .any(|window| window.iter().zip(phrase.iter()).all(|(a, b)| a == b))
            } else {
                has_phrase(words, phrase)
            }
        })
        .map(|(phrase, act, _)| (*phrase, *act))
}

/// Words that start a question: a task put as a question asks to read (`what playlists do
/// I have?`, `is deployment dpl_1 ready?`).
const QUESTIONS: &[&str] = &[
    "what", "which", "who", "whom", "whose", "how", "is", "are", "was", "were", "does", "do",
    "did", "has", "have", "when", "where", "why",
];

/// How much an operation's score keeps when its effect is not what the task's act asks
/// for: a reading operation for `add a label`, a writing one for `which labels…`.
const EFFECT_MISMATCH: f32 = 0.5;
/// How much an operation's score keeps when the task makes anew and it changes, or the
/// other way round (`add a comment` and `updateComment`; see [`Making`]).
const MAKING_MISMATCH: f32 = 0.85;
/// … and when the two are near: a destroying operation for a task that changes, a writing
/// one for a task that removes (APIs remove with `POST`, and change with `DELETE`:
/// `DELETE /todos` marks to-dos done).
const EFFECT_NEAR: f32 = 0.8;

/// How much an operation's score keeps for each word of the task whose number (one or
/// many) its title says otherwise: `show pull request 9` is `Get a pull request`, not
/// `List pull requests`; `list my albums` the other way round.
const NUMBER_MISMATCH: f32 = 0.75;

/// The last words of parameters that name one item: `issue_number`, `playlist_id`,
/// `commit_sha`, `team_slug`, `secret_name`, `comicId`.
const ITEM_WORDS: &[&str] = &[
    "id", "number", "sha", "slug", "key", "ref", "uuid", "hash", "name",
];

/// How much an operation's score keeps when the task names one item by its id or number
/// (`issue 17`, `dpl_123`, `xkcd 927`) and the operation takes no parameter that names one.
const ITEM_MISSING: f32 = 0.8;

/// BM25's term-frequency saturation: a word a tool says in its name, its title and its
/// description is more evidence than one said once, but soon no more (set by a sweep of
/// the weights over the tuned query sets; see BENCHMARKS.md).
const K1: f32 = 1.0;

/// How much a tool gains for the share of its name the query covers: `pulls_update` for
/// "change the title of pull request 9" (all of its name) above `pulls_update-branch`.
const NAME_COVERAGE: f32 = 2.0;

/// Words that differ by an ending of at most this many letters, both at least
/// [`KIN_LENGTH`] long, are kin (see [`Index::kin`]): searched at [`KIN_WEIGHT`] for a task
/// word the API does not use, and at [`KIN_KNOWN_WEIGHT`] beside one it does.
const KIN_ENDING: usize = 3;
const KIN_LENGTH: usize = 5;
const KIN_WEIGHT: f32 = 0.7;
const KIN_KNOWN_WEIGHT: f32 = 0.3;

/// The fields of a tool, each with its weight and its length normalisation (`b`).
#[derive(Clone, Copy)]
enum Field {
    Name,
    Title,
    Lead,
    Rest,
    Parameters,
    Toolset,
    /// What the arguments are, in the document's words.
    ParameterText,
    /// The values the arguments may take, where their schemas list them (`state`:
    /// `open`, `closed`).
    Values,
}

impl Field {
    const ALL: [Field; 8] = [
        Field::Name,
        Field::Title,
        Field::Lead,
        Field::Rest,
        Field::Parameters,
        Field::Toolset,
        Field::ParameterText,
        Field::Values,
    ];

    fn weight(self) -> f32 {
        match self {
            Field::Name => 3.0,
            Field::Title => 2.5,
            Field::Lead => 1.5,
            Field::Rest => 0.35,
            Field::Parameters => 0.5,
            Field::Toolset => 2.0,
            Field::ParameterText => 0.1,
            Field::Values => 0.3,
        }
    }

    fn b(self) -> f32 {
        match self {
            Field::Rest | Field::ParameterText | Field::Values => 0.9,
            Field::Toolset => 0.3,
            _ => 0.5,
        }
    }
}

/// An entry of [`ACTS`] or [`THINGS`]: its task word, its API words stemmed, and whether it
/// is an act.
type Bridged = (&'static str, Vec<String>, bool);

/// A BM25F index over a list of tools, by position in that list.
pub(super) struct Index {
    stemmer: Stemmer,
    /// [`ACTS`] and [`THINGS`] by the stem of their task word: each entry's task word, its
    /// API words stemmed, and whether it is an act. Words stemming joins (`set` and
    /// `setting`, `activate` and `activity`) keep their own entries; see [`Index::bridged`].
    bridge: HashMap<String, Vec<Bridged>>,
    /// For each tool, the first tool that is the same operation under another method
    /// (see [`twin_key`]), or itself.
    twins: Vec<u32>,
    /// Each tool's name as stemmed words, for how much of it a query covers.
    names: Vec<Vec<String>>,
    /// [`VERBS`], stemmed.
    verbs: HashMap<String, Act>,
    /// [`GENERIC_VERBS`], stemmed.
    generic: HashSet<String>,
    /// Each tool's effect (when its annotations say), the number of each word of its title,
    /// and whether it takes an item.
    shapes: Vec<Shape>,
    /// For each stemmed word, the tools that have it and its weighted, normalised frequency.
    postings: HashMap<String, Vec<(u32, f32)>>,
    /// The keys of `postings`, sorted: for words that differ only in their ending.
    vocabulary: Vec<String>,
    tools: usize,
}

impl Index {
    /// Indexes `tools`; `toolset(i)` names the toolset of the tool at `i`, whose words count
    /// too.
    pub(crate) fn new<'a>(tools: &[Tool], toolset: impl Fn(usize) -> Option<&'a str>) -> Index {
        let stemmer = Stemmer::english();
        let stem = |text: &str| -> Vec<String> {
            search_words(text)
                .iter()
                .map(|word| stemmer.stem(word).into_owned())
                .collect()
        };
        // Each tool's fields as stemmed words; then each field's average length.
        let fields: Vec<[Vec<String>; 8]> = tools
            .iter()
            .enumerate()
            .map(|(i, tool)| {
                let description = prose(tool.description());
                let (lead, rest) = split_lead(&description);
                let parameters: Vec<&str> =
                    tool.parameters().iter().map(|p| p.name.as_str()).collect();
                [
                    stem(tool.name()),
                    stem(tool.title().unwrap_or_default()),
                    stem(lead),
                    stem(rest),
                    stem(&parameters.join(" ")),
                    stem(toolset(i).unwrap_or_default()),
                    stem(&prose(&parameter_text(tool))),
                    stem(&parameter_values(tool)),
                ]
            })
            .collect();
        let mut average = [0f32; 8];
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
        let mut bridge: HashMap<String, Vec<_>> = HashMap::new();
        for ((task, api), act) in ACTS
            .iter()
            .map(|entry| (entry, true))
            .chain(THINGS.iter().map(|entry| (entry, false)))
        {
            let api = api.iter().map(|w| stemmer.stem(w).into_owned()).collect();
            bridge
                .entry(stemmer.stem(task).into_owned())
                .or_default()
                .push((*task, api, act));
        }
        let names = fields.iter().map(|tool| tool[0].clone()).collect();
        let mut first_of: HashMap<String, u32> = HashMap::new();
        let twins = tools
            .iter()
            .enumerate()
            .map(|(i, tool)| {
                let i = u32::try_from(i).unwrap_or(u32::MAX);
                *first_of.entry(twin_key(tool)).or_insert(i)
            })
            .collect();
        let verbs = VERBS
            .iter()
            .map(|(verb, act)| (stemmer.stem(verb).into_owned(), *act))
            .collect();
        let shapes = tools
            .iter()
            .map(|tool| {
                let description = prose(tool.description());
                let (lead, _) = split_lead(&description);
                let title = tool.title().unwrap_or(lead);
                Shape {
                    effect: Effect::of_tool(tool.annotations(), tool.name()),
                    making: name_making(tool.name(), tool.annotations()),
                    numbers: numbers(&stemmer, title),
                    takes_item: tool
                        .parameters()
                        .iter()
                        .any(|p| p.required && names_item(&p.name)),
                    kinds: item_kinds(&stemmer, tool),
                }
            })
            .collect();
        let mut vocabulary: Vec<String> = postings.keys().cloned().collect();
        vocabulary.sort_unstable();
        let generic = GENERIC_VERBS
            .iter()
            .map(|verb| stemmer.stem(verb).into_owned())
            .collect();
        Index {
            generic,
            vocabulary,
            stemmer,
            bridge,
            names,
            twins,
            verbs,
            shapes,
            postings,
            tools: tools.len(),
        }
    }

    /// How rare `term` is among the tools, `df` of which have it (BM25's inverse document
    /// frequency); a verb of [`GENERIC_VERBS`] is taken to be in one tool of
    /// [`GENERIC_SHARE`] at least.
    fn idf(&self, term: &str, df: usize) -> f32 {
        let total = self.tools as f32;
        let mut df = df as f32;
        if self.generic.contains(term) {
            df = df.max(total / GENERIC_SHARE);
        }
        (1.0 + (total - df + 0.5) / (df + 0.5)).ln()
    }

    /// The act `query` (a task) asks for (see [`Index::asked`]).
    #[cfg(test)]
    fn act(&self, query: &str) -> Option<Act> {
        self.asked(query).0
    }

    /// The act `query` (a task) asks for: the first of [`VERBS`] in it (`un` before one
    /// makes it a removal), `get rid of` and `stop …ing` a removal, and a question a
    /// reading; none when it says no act. A verb the task negates (`don't delete it`), one
    /// in its `-ed` or `-ing` form (`who's invited`) and a word of a name
    /// (`finance-share`) say no act.
    /// And, for an act that makes, whether it makes anew or changes ([`Making`]).
    fn asked(&self, query: &str) -> (Option<Act>, Option<Making>) {
        let raw = &search_words(query);
        // A phrasal verb that makes (`kick off` a run) makes anew.
        if let Some((_, act)) = phrasal_acts(raw).next() {
            return (Some(act), (act == Act::Make).then_some(Making::New));
        }
        if has_phrase(raw, &["set", "up"]) {
            return (Some(Act::Make), Some(Making::New));
        }
        let first = raw.first().map(String::as_str);
        let asks_how = first == Some("how")
            && raw
                .get(1)
                .is_some_and(|w| ["do", "to", "can", "should"].contains(&w.as_str()));
        if first.is_some_and(|w| QUESTIONS.contains(&w)) && !asks_how {
            return (Some(Act::Read), None);
        }
        // `I blocked them by accident, undo that`: the undoing of a done act.
        if raw.iter().any(|word| UNDOING.contains(&word.as_str()))
            && raw.iter().any(|word| {
                is_inflected(&self.stemmer, word)
                    && self.verbs.get(self.stemmer.stem(word).as_ref()) == Some(&Act::Make)
            })
        {
            return (Some(Act::Remove), None);
        }
        let negated = negated(query);
        let named = named(query);
        let purposed = purposed(query);
        let found = raw.iter().enumerate().find_map(|(i, word)| {
            // `disable it, don't delete it`: what a task says not to do is not its act;
            // nor is a word of a name (`the finance-share bucket`), nor what the task is
            // for (`so I can find it`).
            if negated.get(i).copied().unwrap_or(false)
                || named.get(i).copied().unwrap_or(false)
                || purposed.get(i).copied().unwrap_or(false)
            {
                return None;
            }
            // `stop following`, `stop watching`: an undoing.
            if word == "stop" && raw.get(i + 1).is_some_and(|next| next.ends_with("ing")) {
                return Some((Act::Remove, None));
            }
            // `who's invited`, `the file I deleted`, `who's following`: a verb that is
            // done or going on describes a thing; the task's own act is a plain verb.
            if is_inflected(&self.stemmer, word) {
                return None;
            }
            if let Some(act) = self.verbs.get(self.stemmer.stem(word).as_ref()) {
                // Only a verb that leads the task says which making it asks for: later,
                // `post` and `comment` are as often things (`fix the typo in post 12`).
                let leads = raw[..i]
                    .iter()
                    .all(|before| STOP_WORDS.contains(&before.as_str()));
                let made = (*act == Act::Make && leads).then(|| making(word)).flatten();
                return Some((*act, made));
            }
            let undone = word.strip_prefix("un").filter(|rest| rest.len() > 2)?;
            let act = self.verbs.get(self.stemmer.stem(undone).as_ref())?;
            (*act == Act::Make).then_some((Act::Remove, None))
        });
        match found {
            Some((act, made)) => (Some(act), made),
            None => (None, None),
        }
    }

    /// How much of its score a tool keeps for the shape of the task: its effect against the
    /// task's act ([`EFFECT_MISMATCH`], [`EFFECT_NEAR`]), the number of the words it shares
    /// with the task ([`NUMBER_MISMATCH`]), and whether it takes an item the task names by
    /// id ([`ITEM_MISSING`]).
    fn fit(
        &self,
        tool: usize,
        (act, made): (Option<Act>, Option<Making>),
        said: &[(String, bool)],
        one: Option<&[String]>,
    ) -> f32 {
        let Some(shape) = self.shapes.get(tool) else {
            return 1.0;
        };
        let mut fit = match (act, shape.effect) {
            (Some(Act::Read), Some(Effect::Reads))
            | (Some(Act::Make), Some(Effect::Writes))
            | (Some(Act::Remove), Some(Effect::Destroys))
            | (None, _)
            | (_, None) => 1.0,
            (Some(Act::Make), Some(Effect::Destroys))
            | (Some(Act::Remove), Some(Effect::Writes)) => EFFECT_NEAR,
            _ => EFFECT_MISMATCH,
        };
        for (word, many) in said {
            if let Some((_, theirs)) = shape.numbers.iter().find(|(w, _)| w == word)
                && theirs.is_some_and(|theirs| theirs != *many)
            {
                fit *= NUMBER_MISMATCH;
            }
        }
        // `what meds is patient 7310 on`: a tool takes the item if it takes an id, or a
        // parameter named after what the task calls the item (`patient`).
        if let Some(kinds) = one
            && !shape.takes_item
            && !kinds.iter().any(|kind| shape.kinds.contains(kind))
        {
            fit *= ITEM_MISSING;
        }
        if let (Some(wanted), Some(does)) = (made, shape.making)
            && wanted != does
        {
            fit *= MAKING_MISMATCH;
        }
        fit
    }

    /// The API's words that are `stem` with another ending of at most [`KIN_ENDING`]
    /// letters, or `stem` less that many (`contribut` and `contributor`): derived words
    /// that stemming leaves apart. Both must be [`KIN_LENGTH`] letters or more.
    fn kin(&self, stem: &str) -> Vec<String> {
        let mut kin = Vec::new();
        if stem.len() < KIN_LENGTH || !stem.is_ascii() {
            return kin;
        }
        // Longer: the words of the vocabulary that start with `stem`.
        let from = self.vocabulary.partition_point(|word| word.as_str() < stem);
        for word in &self.vocabulary[from..] {
            if !word.starts_with(stem) {
                break;
            }
            if word.len() > stem.len() && word.len() <= stem.len() + KIN_ENDING {
                kin.push(word.clone());
            }
        }
        // Shorter: `stem` less up to KIN_ENDING letters.
        for cut in 1..=KIN_ENDING {
            let shorter = &stem[..stem.len() - cut];
            if shorter.len() >= KIN_LENGTH && self.postings.contains_key(shorter) {
                kin.push(shorter.to_owned());
            }
        }
        kin
    }

    /// What the bridge says of a task word (its stem given): the API words of the entries
    /// for that stem, and whether any of them is an act. Where stemming joins words the
    /// tables tell apart (`settings` and `sets` are both `set`), the entries whose task
    /// word shares the longest beginning with the task's word speak for it.
    fn bridged(&self, word: &str, stem: &str) -> Option<(Vec<String>, bool)> {
        let entries = self.bridge.get(stem)?;
        let shared = |listed: &str| {
            listed
                .chars()
                .zip(word.chars())
                .take_while(|(a, b)| a == b)
                .count()
        };
        let longest = entries.iter().map(|(listed, ..)| shared(listed)).max()?;
        let mut api = Vec::new();
        let mut act = false;
        for (_, words, is_act) in entries
            .iter()
            .filter(|(listed, ..)| shared(listed) == longest)
        {
            act |= *is_act;
            for api_word in words {
                if !api.contains(api_word) {
                    api.push(api_word.clone());
                }
            }
        }
        Some((api, act))
    }

    /// The words searched for `query`, stemmed, each with its weight: the task's own words
    /// (stop words left out) at 1, numbers and the API words of the bridge below.
    fn query_terms(&self, query: &str) -> Vec<(String, f32)> {
        let raw = search_words(query);
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
        // `stop following`: the API's undoing of the act (`unfollow`), when it has one.
        for pair in raw.windows(2) {
            if pair[0] == "stop"
                && let Some(doing) = pair[1].strip_suffix("ing")
            {
                let undo = format!("un{}", self.stemmer.stem(doing));
                if self.postings.contains_key(&undo) {
                    add(undo, 1.0);
                }
            }
        }
        if raw.iter().any(|word| FIRST_PERSON.contains(&word.as_str())) {
            for word in SELF_WORDS {
                add(self.stemmer.stem(word).into_owned(), SELF_WEIGHT);
            }
        }
        // `I blocked them by accident, undo that`: the API's undoing (`unblock`) of what
        // the task says was done.
        if raw.iter().any(|word| UNDOING.contains(&word.as_str())) {
            for word in raw.iter().filter(|word| is_inflected(&self.stemmer, word)) {
                let undo = format!("un{}", self.stemmer.stem(word));
                if self.postings.contains_key(&undo) {
                    add(undo, 1.0);
                }
            }
        }
        // `time zone`, `web hook`, `sign in`: two words of the task that the API writes
        // as one.
        let tokens: Vec<String> = query
            .split(|c: char| !c.is_alphanumeric())
            .filter(|token| !token.is_empty())
            .map(str::to_lowercase)
            .collect();
        for pair in tokens.windows(2) {
            if pair
                .iter()
                .any(|word| word.len() < 2 || word.chars().any(|c| c.is_ascii_digit()))
            {
                continue;
            }
            let joined = self.stemmer.stem(&pair.concat()).into_owned();
            if self.postings.contains_key(&joined) {
                add(joined, 1.0);
            }
        }
        let negated = negated(query);
        let named = named(query);
        let purposed = purposed(query);
        // `kick off`: the verb of a phrase with its own act is not bridged alone.
        let phrasal: Vec<&str> = phrasal_acts(&raw).map(|(phrase, _)| phrase[0]).collect();
        let filler = fillers(&raw);
        for (i, word) in raw.iter().enumerate() {
            // A stop word says nothing of which tool; a number is most often a value
            // (`close issue 17`), so it only tells apart tools the rest matched alike.
            if STOP_WORDS.contains(&word.as_str()) || filler[i] {
                continue;
            }
            if word.chars().all(|c| c.is_ascii_digit()) {
                add(word.clone(), NUMBER_WEIGHT);
                continue;
            }
            let mut stem = self.stemmer.stem(word).into_owned();
            // `the finance-share bucket`: the words of a name say little of the tool.
            if named.get(i).copied().unwrap_or(false) {
                add(stem, NAME_WEIGHT);
                continue;
            }
            // `so I can find it quickly`: what the task is for counts less than what it
            // asks, and is not bridged.
            if purposed.get(i).copied().unwrap_or(false) {
                add(stem, PURPOSE_WEIGHT);
                continue;
            }
            // `disable it, don't delete it`: an act the task rules out is not searched.
            if negated.get(i).copied().unwrap_or(false)
                && (self.verbs.contains_key(&stem)
                    || self.bridged(word, &stem).is_some_and(|(_, act)| act))
            {
                continue;
            }
            // `unassign`, `unpin`: an undoing the API does not name is its act undone.
            if !self.postings.contains_key(&stem)
                && let Some(undone) = word.strip_prefix("un").filter(|rest| rest.len() > 2)
            {
                let undone = self.stemmer.stem(undone).into_owned();
                if self.postings.contains_key(&undone) || self.bridge.contains_key(&undone) {
                    for api_word in ["delete", "remove"] {
                        add(self.stemmer.stem(api_word).into_owned(), SYNONYM_WEIGHT);
                    }
                    stem = undone;
                }
            }
            if let Some((bridged, act)) = self
                .bridged(word, &stem)
                .filter(|_| !phrasal.contains(&word.as_str()))
            {
                acted |= act;
                // A task word this API never uses is said only through the bridge: its API
                // words stand in for it at full weight.
                let weight = if self.postings.contains_key(&stem) {
                    SYNONYM_WEIGHT
                } else {
                    1.0
                };
                for api_word in bridged {
                    add(api_word, weight);
                }
            }
            // `assign` and `assignees`, `contributed` and `contributors`: words of the API's
            // that are the task's word with another ending, which stemming keeps apart.
            let known = self.postings.contains_key(&stem);
            for kin in self.kin(&stem) {
                add(kin, if known { KIN_KNOWN_WEIGHT } else { KIN_WEIGHT });
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
        // A task is a sentence or two; past that, a model pasted something else, whose
        // words would only cost time (the terms are gathered in quadratic time).
        let query = match query.char_indices().nth(MAX_QUERY_CHARS) {
            Some((end, _)) => &query[..end],
            None => query,
        };
        // A task that is nothing but values (`CORE-200`) is searched as it is.
        let original = query;
        let task = intent(query);
        let query = if task.is_empty() { query } else { &task };
        // Per tool: its score, and whether it matched the task itself rather than only
        // the words a task implies (`get` for a question, `current` for `my`).
        let mut scores: HashMap<u32, (f32, bool)> = HashMap::new();
        let mut terms = self.query_terms(query);
        // What the task's values are (a URL, an e-mail address, a file) says what the
        // operation takes, and what it quotes may name it (`the 'Bibliographic Entry' entry
        // type`): both weakly, to tell apart what the rest matched alike.
        let hints = value_hints(original)
            .into_iter()
            .map(|hint| (hint.to_owned(), HINT_WEIGHT));
        let quoted = search_words(&unquote(original).1)
            .into_iter()
            .filter(|word| !STOP_WORDS.contains(&word.as_str()))
            .map(|word| (word, QUOTED_WEIGHT));
        for (word, weight) in hints.chain(quoted) {
            let word = self.stemmer.stem(&word).into_owned();
            if !terms.iter().any(|(term, _)| *term == word) {
                terms.push((word, weight));
            }
        }
        let raw = search_words(query);
        let act = self.asked(query);
        let one = named_items(&self.stemmer, query);
        // The number (many or one) of each of the task's own words that is not a verb.
        let said: Vec<(String, bool)> = raw
            .iter()
            .filter(|word| {
                !STOP_WORDS.contains(&word.as_str()) && !word.chars().any(|c| c.is_ascii_digit())
            })
            .map(|word| {
                (
                    self.stemmer.stem(word).into_owned(),
                    is_plural(&self.stemmer, word),
                )
            })
            .filter(|(stem, _)| !self.verbs.contains_key(stem))
            .collect();
        for (term, weight) in &terms {
            let Some(postings) = self.postings.get(term) else {
                continue;
            };
            let idf = self.idf(term, postings.len());
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
                let cover = cover(name, &terms);
                let fit = self.fit(tool as usize, act, &said, one.as_deref());
                (tool as usize, score * (1.0 + NAME_COVERAGE * cover) * fit)
            })
            .collect();
        if limit == 0 {
            return Vec::new();
        }
        let order = |a: &(usize, f32), b: &(usize, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        // Only the best few need an order: twice the limit, and more only when twins
        // (below) leave too few.
        let mut wanted = limit.saturating_mul(2).max(limit.saturating_add(8));
        loop {
            if wanted < found.len() {
                found.select_nth_unstable_by(wanted, order);
                found[..wanted].sort_by(order);
            } else {
                found.sort_by(order);
            }
            // One operation offered under two methods (AWS's `GET_AddPermission` and
            // `POST_AddPermission`) takes one place: the rest of the list says more.
            // `limit` may be "all" (`usize::MAX`).
            let room = limit.min(found.len());
            let mut shown = Vec::with_capacity(room);
            let mut kept = Vec::with_capacity(room);
            for &(tool, score) in &found[..wanted.min(found.len())] {
                let twin = self.twins.get(tool).copied();
                if !shown.contains(&twin) {
                    shown.push(twin);
                    kept.push((tool, score));
                    if kept.len() == limit {
                        break;
                    }
                }
            }
            if kept.len() == limit || wanted >= found.len() {
                return kept;
            }
            wanted = wanted.saturating_mul(4);
        }
    }
}

/// How much of a tool's `name` (its words, stemmed) the searched `terms` cover, from 0 to
/// 1: a word the task says covers its word of the name; one the task only implies (a word
/// of the bridge, `team` for `group`; `current` for `my`) covers it by half and a little
/// more as its weight is higher.
fn cover(name: &[String], terms: &[(String, f32)]) -> f32 {
    let covered: f32 = name
        .iter()
        .map(|word| {
            terms
                .iter()
                .filter(|(term, _)| term == word)
                .map(|(_, weight)| (0.5 + 0.5 * weight).min(1.0))
                .fold(0.0, f32::max)
        })
        .sum();
    covered / name.len().max(1) as f32
}

/// What makes two tools the same operation under two methods: their names but for a
/// method word that leads them (`GET_AddPermission`, `POST_AddPermission`), their titles
/// and their descriptions.
fn twin_key(tool: &Tool) -> String {
    let mut name = search_words(tool.name());
    if name.len() > 1 && METHOD_WORDS.contains(&name[0].as_str()) {
        name.remove(0);
    }
    format!(
        "{}\u{0}{}\u{0}{}",
        name.join(" "),
        tool.title().unwrap_or_default(),
        tool.description()
    )
}

/// What the ranking knows of a tool besides its words.
struct Shape {
    effect: Option<Effect>,
    /// Whether it makes anew or changes, when its name or annotations say.
    making: Option<Making>,
    /// The stemmed words of its title (or first sentence), but the first (the verb), each
    /// with whether it is plural; `None` when the title has it both ways.
    numbers: Vec<(String, Option<bool>)>,
    /// Whether one of its required parameters names an item (see [`ITEM_WORDS`]).
    takes_item: bool,
    /// What its parameters name items of ([`item_kinds`]).
    kinds: Vec<String>,
}

/// Whether a parameter names one item: `id`, or a name of two words or more that ends in
/// one of [`ITEM_WORDS`] (`issue_number`; `name` alone is more often a new thing's name).
fn names_item(parameter: &str) -> bool {
    let words = search_words(parameter);
    match words.as_slice() {
        [only] => only == "id",
        [.., last] => ITEM_WORDS.contains(&last.as_str()),
        [] => false,
    }
}

/// The items a task names by an id or a number: a word with a digit in it (`17`,
/// `dpl_123`, `6dcb09b`) that is not a count (`20 messages`, `2 hours`), a date or a sum
/// ([`is_when_or_amount`]). For each, the stem of the word before it when that says what
/// the item is (`patient 7310`: `patient`); `None` if the task names no item.
fn named_items(stemmer: &Stemmer, query: &str) -> Option<Vec<String>> {
    let tokens: Vec<&str> = query.split_whitespace().collect();
    let mut kinds = Vec::new();
    let mut any = false;
    for (i, token) in tokens.iter().enumerate() {
        let before = i.checked_sub(1).and_then(|before| tokens.get(before));
        let item = token.chars().any(|c| c.is_ascii_digit())
            && !is_when_or_amount(token, before)
            && !tokens.get(i + 1).is_some_and(|next| {
                let next: String = next.chars().filter(|c| c.is_alphanumeric()).collect();
                is_plural(stemmer, &next.to_lowercase())
            });
        if !item {
            continue;
        }
        any = true;
        if let Some(word) = before
            .map(|word| {
                word.trim_matches(|c: char| !c.is_alphanumeric())
                    .to_lowercase()
            })
            .filter(|word| {
                !word.is_empty()
                    && word.chars().all(char::is_alphabetic)
                    && !STOP_WORDS.contains(&word.as_str())
            })
        {
            kinds.push(stemmer.stem(&word).into_owned());
        }
    }
    any.then_some(kinds)
}

/// What each parameter of a tool names an item of: the stem of the last word of its name
/// that is not one of [`ITEM_WORDS`] (`patient`, `patient_id`: `patient`; `recipeId`:
/// `recip`), for tasks that name an item by what it is ([`named_items`]).
fn item_kinds(stemmer: &Stemmer, tool: &Tool) -> Vec<String> {
    let mut kinds = Vec::new();
    for parameter in tool.parameters() {
        let words = search_words(&parameter.name);
        if let Some(last) = words
            .iter()
            .rev()
            .find(|word| !ITEM_WORDS.contains(&word.as_str()))
        {
            let stem = stemmer.stem(last).into_owned();
            if !kinds.contains(&stem) {
                kinds.push(stem);
            }
        }
    }
    kinds
}

/// Whether a token with a digit says when or how much rather than which item: a date
/// (`2024-09-15`, `04/12/1985`, `June 7`, `1st`), a time (`10:30`, `3pm`), a sum of money
/// (`$40`) or a share (`10%`).
fn is_when_or_amount(token: &str, before: Option<&&str>) -> bool {
    let token = token.trim_matches(|c: char| !c.is_alphanumeric() && !"$€£%".contains(c));
    let lower = token.to_ascii_lowercase();
    let digits = lower.trim_end_matches(['%']);
    let separators = digits
        .chars()
        .filter(|c| matches!(c, '-' | '/' | '.' | ':'))
        .count();
    let dated = separators >= 1
        && digits
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '-' | '/' | '.' | ':' | 't' | 'z'))
        && (separators >= 2 || digits.contains(':'));
    // `3pm`, `10:30am`, `1st`, `7th`: digits (and a clock's colon) before a suffix.
    let numbered = |ends: &[&str], also: &[char]| {
        ends.iter().any(|end| {
            lower.strip_suffix(end).is_some_and(|rest| {
                !rest.is_empty()
                    && rest
                        .chars()
                        .all(|c| c.is_ascii_digit() || also.contains(&c))
            })
        })
    };
    let clock = numbered(&["am", "pm"], &[':']);
    let ordinal = numbered(&["st", "nd", "rd", "th"], &[]);
    let month = before.is_some_and(|word| {
        let word = word
            .trim_matches(|c: char| !c.is_alphabetic())
            .to_ascii_lowercase();
        MONTHS
            .iter()
            .any(|month| word == *month || (word.len() >= 3 && month.starts_with(&word)))
    });
    dated || clock || ordinal || month || token.starts_with(['$', '€', '£']) || token.ends_with('%')
}

/// The months, for dates such as `June 7` ([`is_when_or_amount`]).
const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// The words of a title but its first (`Lists`, `Get`: the verb), stemmed, each with its
/// number: `Get a pull request` has `request` one, `List pull requests` many.
fn numbers(stemmer: &Stemmer, title: &str) -> Vec<(String, Option<bool>)> {
    let mut out: Vec<(String, Option<bool>)> = Vec::new();
    for word in search_words(title).iter().skip(1) {
        if STOP_WORDS.contains(&word.as_str()) {
            continue;
        }
        let stem = stemmer.stem(word).into_owned();
        let many = is_plural(stemmer, word);
        match out.iter_mut().find(|(w, _)| *w == stem) {
            Some((_, number)) if *number != Some(many) => *number = None,
            Some(_) => {}
            None => out.push((stem, Some(many))),
        }
    }
    out
}

/// Whether an English word is a plural: it ends in `s` (`issues`, `repositories`) and its
/// singular stems alike; `status`, `address` and `analysis` are not.
fn is_plural(stemmer: &Stemmer, word: &str) -> bool {
    if word.len() < 4
        || !word.ends_with('s')
        || ["ss", "us", "is"].iter().any(|end| word.ends_with(end))
    {
        return false;
    }
    let singular = match word.strip_suffix("ies") {
        Some(stem) => format!("{stem}y"),
        None => word[..word.len() - 1].to_owned(),
    };
    stemmer.stem(word) == stemmer.stem(&singular)
}

/// Words that undo what a task says was done (`I blocked them by accident, undo that`).
const UNDOING: &[&str] = &["undo", "revert", "reverse"];

/// Words after which a task says what not to do (`disable it, don't delete it`), and how
/// many words on that holds.
const NEGATIONS: &[&str] = &["not", "never", "without", "dont", "nor"];
const NEGATION_REACH: usize = 3;

/// Which of the words of `query` (as [`words`] splits it) are negated: the
/// [`NEGATION_REACH`] words after one of [`NEGATIONS`] or after `n't` (`don't`, which
/// [`words`] splits into `don` and `t`), within the same clause (`I don't use it anymore;
/// remove it` removes).
fn negated(query: &str) -> Vec<bool> {
    let mut out = Vec::new();
    for clause in query.split([',', ';', '.', ':', '!', '?', '—', '(', ')']) {
        let raw = search_words(clause);
        let start = out.len();
        out.resize(start + raw.len(), false);
        for (i, word) in raw.iter().enumerate() {
            let negation = NEGATIONS.contains(&word.as_str())
                || (word == "t" && i > 0 && raw[i - 1].ends_with('n'));
            if negation {
                for slot in out.iter_mut().skip(start + i + 1).take(NEGATION_REACH) {
                    *slot = true;
                }
            }
        }
    }
    out
}

/// The weight of a word of a task's purpose (see [`purposed`]).
const PURPOSE_WEIGHT: f32 = 0.5;

/// Words after which a clause says what the task is for, not what to do (`so I can find
/// it`, `so that the pipeline can use them`, `in order to`).
const PURPOSES: &[&[&str]] = &[&["so", "that"], &["in", "order", "to"], &["so", "as", "to"]];
/// Who `so` is followed by when it starts a purpose (`so I can`, `so it can be processed`).
const PURPOSE_SUBJECTS: &[&str] = &[
    "i", "we", "it", "they", "he", "she", "you", "the", "my", "our", "their", "people", "everyone",
    "nobody",
];

/// Which of the words of `query` (as [`words`] splits it) say what the task is for: from
/// one of [`PURPOSES`], or `so` before one of [`PURPOSE_SUBJECTS`], to the end of the
/// clause (`add the album to my favourites so I can find it quickly`).
fn purposed(query: &str) -> Vec<bool> {
    let mut out = Vec::new();
    for clause in query.split([',', ';', '.', ':', '!', '?', '—', '(', ')']) {
        let raw = search_words(clause);
        let from = (0..raw.len()).find(|&i| {
            PURPOSES.iter().any(|phrase| {
                raw[i..].len() >= phrase.len()
                    && raw[i..].iter().zip(phrase.iter()).all(|(a, b)| a == b)
            }) || (raw[i] == "so"
                && i > 0
                && raw
                    .get(i + 1)
                    .is_some_and(|next| PURPOSE_SUBJECTS.contains(&next.as_str())))
        });
        out.extend((0..raw.len()).map(|i| from.is_some_and(|from| i >= from)));
    }
    out
}

/// The weight of a word of a name in a task (see [`named`]).
const NAME_WEIGHT: f32 = 0.5;

/// Which of the words of `query` (as [`words`] splits it) are the words of a name: of a
/// piece written in lower-case words joined by `-` or `_` (`finance-share`,
/// `legacy-cron-cleanup`, `db_pass`), as people name buckets, functions and services.
fn named(query: &str) -> Vec<bool> {
    let mut out = Vec::new();
    for token in query.split_whitespace() {
        let count = search_words(token).len();
        let piece = token.trim_matches(|c: char| !c.is_alphanumeric());
        let parts: Vec<&str> = piece.split(['-', '_']).collect();
        let name = parts.len() > 1
            && parts
                .iter()
                .all(|part| part.len() >= 2 && part.chars().all(|c| c.is_ascii_lowercase()));
        out.extend(std::iter::repeat_n(name, count));
    }
    out
}

/// How much of a query is searched, in characters (see [`Index::search`]).
const MAX_QUERY_CHARS: usize = 2_000;

/// The weight of a word a task's values imply (see [`value_hints`]).
const HINT_WEIGHT: f32 = 0.6;
/// The weight of a word the task quotes: below what counts as said (see [`Index::search`]).
const QUOTED_WEIGHT: f32 = 0.2;

/// What the values of a task imply about the operation that takes them: a URL a `url`, an
/// e-mail address an `email`, a file name (`report.pdf`) a file.
fn value_hints(query: &str) -> Vec<&'static str> {
    let mut hints = Vec::new();
    for token in query.split_whitespace() {
        let token = token.trim_matches(|c: char| !c.is_alphanumeric() && c != '/' && c != '@');
        let found: &[&'static str] = if token.contains("://") {
            &["url", "link"]
        } else if token.contains('@') && token.contains('.') {
            &["email"]
        } else if is_file_name(token) {
            &["file", "object"]
        } else if is_owner_and_name(token) {
            &["repository", "repo"]
        } else {
            &[]
        };
        for hint in found {
            if !hints.contains(hint) {
                hints.push(*hint);
            }
        }
    }
    hints
}

/// File extensions a task's file names end in.
const EXTENSIONS: &[&str] = &[
    "pdf", "csv", "txt", "json", "xml", "yaml", "yml", "md", "html", "log", "png", "jpg", "jpeg",
    "gif", "svg", "webp", "mp4", "mov", "mp3", "wav", "zip", "gz", "tgz", "tar", "sql", "doc",
    "docx", "xls", "xlsx", "ppt", "pptx", "bin", "iso",
];

/// Whether `token` is a file name or path: `report.pdf`, `backups/db.sql.gz`.
/// `octo/app`, `library/nginx`: an owner and a name, as code hosts and registries name a
/// repository (not a path, a date or a fraction: both halves hold a letter).
fn is_owner_and_name(token: &str) -> bool {
    let Some((owner, name)) = token.split_once('/') else {
        return false;
    };
    let part = |part: &str| {
        !part.is_empty()
            && part.chars().any(|c| c.is_ascii_alphabetic())
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    part(owner) && part(name)
}

fn is_file_name(token: &str) -> bool {
    token.rsplit_once('.').is_some_and(|(name, extension)| {
        !name.is_empty() && EXTENSIONS.contains(&extension.to_ascii_lowercase().as_str())
    })
}

/// Whether `word` is a verb's `-ed` or `-ing` form (`invited`, `following`), not the verb
/// itself (`need`, `bring`, and `embed`, which the stemmer would cut but [`ACTS`] names).
fn is_inflected(stemmer: &Stemmer, word: &str) -> bool {
    let verb = |listed: &str| listed == word;
    (word.ends_with("ed") || word.ends_with("ing"))
        && stemmer.stem(word) != word
        && !VERBS.iter().any(|(listed, _)| verb(listed))
        && !ACTS.iter().any(|(listed, _)| verb(listed))
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
/// The descriptions of a tool's arguments, one after another.
fn parameter_text(tool: &Tool) -> String {
    let parameters = tool.parameters();
    let mut text = String::new();
    for parameter in parameters.iter() {
        text.push_str(&parameter.description);
        text.push(' ');
    }
    text
}

/// How many values of one parameter's schemas are indexed, and how deep into its schema
/// they are looked for: a long list (country codes) says little of the tool.
const MAX_VALUES: usize = 64;
const VALUES_DEPTH: usize = 4;

/// The values a tool's arguments may take, where their schemas list them (`enum`, `const`),
/// in the argument and its items and properties: `issues/update`'s `state` is `open` or
/// `closed`, which is what `close issue 17` asks of it.
fn parameter_values(tool: &Tool) -> String {
    fn walk(schema: &serde_json::Value, depth: usize, out: &mut Vec<String>) {
        let Some(object) = schema.as_object() else {
            return;
        };
        if out.len() >= MAX_VALUES {
            return;
        }
        let listed = object
            .get("enum")
            .and_then(serde_json::Value::as_array)
            .into_iter()
            .flatten()
            .chain(object.get("const"));
        for value in listed {
            if let Some(text) = value.as_str()
                && out.len() < MAX_VALUES
            {
                out.push(text.to_owned());
            }
        }
        if depth == 0 {
            return;
        }
        let nested = ["items", "additionalProperties"]
            .iter()
            .filter_map(|key| object.get(*key))
            .chain(
                ["properties"]
                    .iter()
                    .filter_map(|key| object.get(*key))
                    .filter_map(serde_json::Value::as_object)
                    .flat_map(|properties| properties.values()),
            )
            .chain(
                ["anyOf", "oneOf", "allOf"]
                    .iter()
                    .filter_map(|key| object.get(*key))
                    .filter_map(serde_json::Value::as_array)
                    .flatten(),
            );
        for schema in nested {
            walk(schema, depth - 1, out);
        }
    }
    let mut text = String::new();
    for parameter in tool.parameters() {
        let mut values = Vec::new();
        if let Some(schema) = &parameter.schema {
            walk(schema, VALUES_DEPTH, &mut values);
        }
        for value in values {
            text.push_str(&value);
            text.push(' ');
        }
    }
    text
}

/// What of a task says what to do, without the values it is done with: quoted text
/// (`comment "shipped in v2.3" on card 9`, the words of the comment), URLs and e-mail
/// addresses (`notify https://hooks.example.com`), and identifiers that mix letters, digits
/// and `_`, `-` or `.` (`cus_88Zt`, `CORE-200`, `v2.3`). Their pieces (`cus`, `zt`,
/// `hooks`, `example`) would match tools at random.
fn intent(query: &str) -> String {
    unquote(query)
        .0
        .split_whitespace()
        .filter(|token| !is_value(token))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `query` without the text it quotes, and that text (each quote's, one after another). An
/// apostrophe inside a word (`PROJ-7's`, `don't`) opens no quote, and an unclosed quote was
/// not one: then the task is kept whole, and nothing is quoted.
fn unquote(query: &str) -> (String, String) {
    let mut out = String::with_capacity(query.len());
    let mut inside = String::new();
    let mut quote: Option<char> = None;
    for c in query.chars() {
        match quote {
            Some(open) => {
                let closes = match open {
                    '“' => c == '”',
                    '‘' => c == '’',
                    _ => c == open,
                };
                if closes {
                    quote = None;
                    out.push(' ');
                    inside.push(' ');
                } else {
                    inside.push(c);
                }
            }
            None if c == '"'
                || c == '“'
                || c == '‘'
                || (c == '\'' && !out.ends_with(char::is_alphanumeric)) =>
            {
                quote = Some(c);
            }
            None => out.push(c),
        }
    }
    if quote.is_some() {
        return (query.to_owned(), String::new());
    }
    (out, inside)
}

/// Whether a whitespace-separated piece of a task is a value rather than a word: a URL, an
/// e-mail address, a file name, or an identifier mixing letters, digits and `_`, `-` or
/// `.`. A path (`/V1.0/ActionTypes`, `/repos/{owner}/{repo}`) is words: it names the
/// operation.
fn is_value(token: &str) -> bool {
    let token = token.trim_matches(|c: char| !c.is_alphanumeric() && c != '/');
    if token.contains("://") || (token.contains('@') && token.contains('.')) {
        return true;
    }
    if token.starts_with('/') && !is_file_name(token) {
        return false;
    }
    let letters = token.chars().any(char::is_alphabetic);
    let digits = token.chars().any(|c| c.is_ascii_digit());
    let joined = token.contains(['_', '-', '.']);
    (letters && digits && joined) || is_file_name(token)
}

/// `description` as words a person reads: HTML tags (`<p>`, `<code>`), the targets of
/// Markdown links and bare URLs left out. Their words (`p`, `href`, `https`, a docs site's
/// domain and path) are on every tool of a document that writes them, and stand for nothing
/// the tool does.
pub(crate) fn prose(description: &str) -> String {
    let mut out = String::with_capacity(description.len());
    let mut rest = description;
    while let Some(c) = rest.chars().next() {
        let skipped =
            if c == '<' && rest[1..].starts_with(|n: char| n.is_ascii_alphabetic() || n == '/') {
                rest.find('>').map(|end| end + 1)
            } else if let Some(target) = rest.strip_prefix("](") {
                // The link's text stays; its target goes.
                target.find(')').map(|end| {
                    out.push(']');
                    end + 3
                })
            } else if rest.starts_with("http://") || rest.starts_with("https://") {
                Some(rest.find(char::is_whitespace).unwrap_or(rest.len()))
            } else {
                None
            };
        match skipped {
            Some(length) => {
                out.push(' ');
                rest = &rest[length..];
            }
            None => {
                out.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    out
}

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
    use mcs_core::ToolParameter;

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
    fn what_the_arguments_say_is_found_below_what_the_tool_says() {
        let tools = vec![
            Tool::new("create_collaboration", "Creates a collaboration.").with_parameters(vec![
                ToolParameter::new("role", "The access level: editor or viewer."),
            ]),
            Tool::new("list_editors", "Lists the editors of a document."),
            Tool::new("delete_item", "Deletes an item."),
        ];
        let index = Index::new(&tools, |_| None);
        let found = |query: &str| -> Vec<usize> {
            index
                .search(query, 10)
                .into_iter()
                .map(|(i, _)| i)
                .collect()
        };
        // Named for the word, the tool ranks first; the one whose argument says it is found.
        assert_eq!(found("editors"), [1, 0]);
        // And an act that only the second does puts it first.
        assert_eq!(found("make ana an editor"), [0, 1]);
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
    fn a_task_is_searched_without_the_values_it_carries() {
        assert_eq!(
            intent(r#"comment "shipped in v2.3" on card 9xK2"#),
            "comment on card 9xK2"
        );
        assert_eq!(intent("reply “on my way” to Ana"), "reply to Ana");
        assert_eq!(
            intent("notify https://hooks.example.com/x when jo@example.com pays"),
            "notify when pays"
        );
        assert_eq!(
            intent("refund ch_3Kx9LmB2 and close CORE-200 in v1.4.0"),
            "refund and close in"
        );
        // An apostrophe in a word opens no quote; an unclosed quote is not one.
        assert_eq!(intent("bump PROJ-7's priority"), "bump priority");
        assert_eq!(intent("don't ping me"), "don't ping me");
        assert_eq!(intent(r#"say "hi"#), r#"say "hi"#);
        // Words with digits and no separator stay: they may be names (`s3`, `ec2`).
        assert_eq!(intent("list s3 buckets on ec2"), "list s3 buckets on ec2");
    }

    /// A model writes the query and a document the descriptions: neither may make the
    /// search panic, whatever they hold.
    #[test]
    fn hostile_queries_and_descriptions_never_panic() {
        let pieces = [
            "<",
            ">",
            "<p",
            "</",
            "](",
            ")",
            "[",
            "http://",
            "https://x",
            "\"",
            "“",
            "”",
            "‘",
            "'",
            "é",
            "日本",
            "🦀",
            "\u{0}",
            "a_1",
            "-",
            ".",
            " ",
            "\n",
            "un",
            "stop ",
            "ing",
            "n't ",
            "t",
            "not ",
            "undo ",
            "ed",
            ".pdf",
            "—",
            "@",
            "_",
            "-a-",
            "ſ",
            "İ",
        ];
        let mut texts = vec![String::new()];
        for a in pieces {
            for b in pieces {
                texts.push(format!("{a}{b}"));
                texts.push(format!("{a}x{b}y{a}"));
            }
        }
        let tools: Vec<Tool> = texts
            .iter()
            .take(200)
            .enumerate()
            .map(|(i, text)| Tool::new(format!("tool_{i}"), format!("Does {text} things.")))
            .collect();
        let index = Index::new(&tools, |_| None);
        for text in &texts {
            let _ = intent(text);
            let _ = prose(text);
            let _ = value_hints(text);
            let _ = index.search(text, 10);
            // What is said of each word lines up with the words.
            assert_eq!(negated(text).len(), search_words(text).len(), "{text:?}");
            assert_eq!(named(text).len(), search_words(text).len(), "{text:?}");
        }
    }

    #[test]
    fn a_task_of_values_only_is_searched_as_it_is() {
        let tools = vec![Tool::new("get_core_issue", "Gets a core issue.")];
        let index = Index::new(&tools, |_| None);
        assert_eq!(intent("CORE-200"), "");
        assert_eq!(index.search("CORE-200", 10).len(), 1);
    }

    #[test]
    fn descriptions_are_indexed_without_markup_or_links() {
        assert_eq!(
            prose(r#"<p>Send an <a href="https://x.io/a">invoice</a> now.</p>"#)
                .split_whitespace()
                .collect::<Vec<_>>(),
            ["Send", "an", "invoice", "now."]
        );
        assert_eq!(
            prose("See [the guide](https://docs.github.com/x) or https://a.io/b.")
                .split_whitespace()
                .collect::<Vec<_>>(),
            ["See", "[the", "guide]", "or"]
        );
        // A comparison is not a tag.
        assert_eq!(prose("a < b and c <= d"), "a < b and c <= d");
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
    fn words_stemming_keeps_apart_still_meet() {
        let unsaid = Index::new(
            &[
                Tool::new("list_events", "Lists a project's events."),
                Tool::new(
                    "list_contributors",
                    "Lists the contributors to a project, the most commits first.",
                ),
            ],
            |_| None,
        );
        // `contributed` is `contribut`, `contributors` `contributor`: the API never says
        // the task's word, so its kin stands in for it.
        let found = unsaid.search("who has contributed?", 10);
        assert_eq!(found.first().map(|f| f.0), Some(1), "{found:?}");
        let said = Index::new(
            &[
                Tool::new(
                    "list_events",
                    "Lists a project's events. Each push to the project contributes one.",
                ),
                Tool::new(
                    "list_contributors",
                    "Lists the contributors to a project, the most commits first.",
                ),
            ],
            |_| None,
        );
        // The API says `contribute` in passing; the tool its kin names is still found.
        assert_eq!(said.search("who contributed to project 7", 10)[0].0, 1);
    }

    #[test]
    fn an_rpc_name_says_what_a_post_does() {
        for (name, effect) in [
            ("POST_DeleteAccessKey", Some(Effect::Destroys)),
            ("GET_DeleteAccessKey", Some(Effect::Destroys)),
            ("ListEntitiesForPolicy", Some(Effect::Reads)),
            ("accountsGet", Some(Effect::Reads)),
            ("calendar_events_insert", Some(Effect::Writes)),
            ("listIdCreate", Some(Effect::Writes)),
            ("listAddMember", Some(Effect::Writes)),
            ("markNotificationsAsRead", None),
            ("BulkSendV2CRUD_PostBulkSendList", None),
            ("sendMessage", Some(Effect::Writes)),
            ("silenceUser", None),
        ] {
            assert_eq!(name_verb(name), effect, "{name}");
        }
        // A POST that only says it writes is what its name says; a GET or a DELETE is what
        // its method says; without annotations, the name speaks.
        let post = writes();
        assert_eq!(
            Effect::of_tool(&post, "POST_DeleteAccessKey"),
            Some(Effect::Destroys)
        );
        assert_eq!(Effect::of_tool(&post, "accountsGet"), Some(Effect::Reads));
        assert_eq!(Effect::of_tool(&post, "silenceUser"), Some(Effect::Writes));
        assert_eq!(
            Effect::of_tool(&reads(), "GET_DeleteAccessKey"),
            Some(Effect::Reads)
        );
        assert_eq!(
            Effect::of_tool(&destroys(), "getRidOfIt"),
            Some(Effect::Destroys)
        );
        assert_eq!(
            Effect::of_tool(&ToolAnnotations::new(), "deleteUser"),
            Some(Effect::Destroys)
        );
        // So a question about an RPC API's thing finds the operation that reads it, not the
        // one that purges it, though both are POSTs about the same words.
        let tools = vec![
            annotated("POST_PurgeAccessKey", "Access key", writes()),
            annotated("POST_DescribeAccessKey", "Access key", writes()),
        ];
        let index = Index::new(&tools, |_| None);
        assert_eq!(index.search("what is access key AK1?", 10)[0].0, 1);
    }

    #[test]
    fn a_method_in_capitals_is_no_verb() {
        // AWS offers `CancelImport` as a `GET` too: it cancels, it does not read.
        assert_eq!(name_verb("GET_CancelImportTask"), None);
        assert_eq!(name_verb("GET_DescribeInstances"), Some(Effect::Reads));
        assert_eq!(name_verb("GET_DeleteVolume"), Some(Effect::Destroys));
        // A lower-case method is the fallback name's, and reads.
        assert_eq!(name_verb("get_spaces"), Some(Effect::Reads));
        let tools = vec![
            annotated(
                "GET_CancelReservedInstancesListing",
                "Cancel listing",
                writes(),
            ),
            annotated("GET_DescribeReservedInstancesListings", "Listings", reads()),
        ];
        let index = Index::new(&tools, |_| None);
        assert_eq!(index.search("show reserved instances listings", 10)[0].0, 1);
    }

    #[test]
    fn a_verb_that_only_reads_weighs_no_more_where_the_api_seldom_says_it() {
        // EC2 describes; its few `List`s are nouns (`PrefixList`). Which operations read is
        // the fit's to say: `list` weighs as a word of one tool in five, `prefix` as rare.
        let mut tools = vec![annotated("DescribePrefixLists", "Prefix lists", reads())];
        for thing in [
            "instances",
            "volumes",
            "snapshots",
            "images",
            "addresses",
            "regions",
        ] {
            tools.push(annotated(&format!("Describe_{thing}"), thing, reads()));
        }
        let index = Index::new(&tools, |_| None);
        let df = |term: &str| index.postings.get(term).map_or(0, Vec::len);
        assert_eq!((df("list"), df("prefix")), (1, 1));
        assert!(index.idf("list", 1) < index.idf("prefix", 1));
        let (total, share) = (tools.len() as f32, tools.len() as f32 / GENERIC_SHARE);
        let as_if_one_in_five = (1.0 + (total - share + 0.5) / (share + 0.5)).ln();
        assert!((index.idf("list", 1) - as_if_one_in_five).abs() < 1e-6);
        // Where many tools say it, it weighs as it is.
        assert_eq!(index.idf("list", 3), index.idf("prefix", 3));
    }

    #[test]
    fn a_bridged_word_covers_less_of_a_name_than_the_task_s_own() {
        // `group` reaches `team` through the bridge: `groups_ListMembers` is the one the
        // task names, though both names are all matched.
        let tools = vec![
            annotated("groups_team_ListMembers", "List members of team", reads()),
            annotated("groups_ListMembers", "Get members from groups", reads()),
        ];
        let index = Index::new(&tools, |_| None);
        let terms = index.query_terms("list the members of the group");
        assert!(
            terms
                .iter()
                .any(|(term, weight)| term == "team" && *weight < 1.0)
        );
        let name = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        let exact = cover(&name(&["group", "list", "member"]), &terms);
        let bridged = cover(&name(&["group", "team", "list", "member"]), &terms);
        assert_eq!(exact, 1.0);
        assert!(bridged < exact && bridged > 0.5, "{bridged}");
    }

    #[test]
    fn who_am_i_is_me_and_an_email_is_mail() {
        let index = Index::new(&[], |_| None);
        let searched = |query: &str, word: &str| {
            index
                .query_terms(query)
                .iter()
                .any(|(term, _)| term == word)
        };
        // Telegram's `getMe`, Graph's and Spotify's `/me`.
        assert!(searched("who am I logged in as", "me"));
        // Graph's `sendMail`.
        assert!(searched("email the report to alice", "mail"));
        assert!(searched("send an email to alice", "mail"));
        // His, her, their: no word of the tool.
        assert!(!searched("show his profile", "his"));
        assert!(!searched("show her profile", "her"));
    }

    #[test]
    fn one_operation_under_two_methods_takes_one_place() {
        let twin = |name: &str, annotations| {
            Tool::new(name, "Adds a permission to a queue.")
                .with_title("Add permission")
                .with_annotations(annotations)
        };
        let tools = vec![
            twin("GET_AddPermission", reads()),
            twin("POST_AddPermission", writes()),
            Tool::new("POST_RemovePermission", "Revokes a permission on a queue.")
                .with_title("Remove permission"),
            // Same title and description, but another operation: kept.
            Tool::new("POST_AddQueuePermission", "Adds a permission to a queue.")
                .with_title("Add permission"),
        ];
        let index = Index::new(&tools, |_| None);
        let found: Vec<usize> = index
            .search("add a permission to queue q1", 3)
            .into_iter()
            .map(|(tool, _)| tool)
            .collect();
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found.contains(&2) && found.contains(&3), "{found:?}");
        assert_eq!(
            found.iter().filter(|tool| **tool < 2).count(),
            1,
            "{found:?}"
        );
    }

    #[test]
    fn words_stemming_joins_keep_their_own_bridge() {
        // `set` (an act) and `setting` (a thing) stem alike; each says its own API words.
        let index = Index::new(&[], |_| None);
        let said = |word: &str| {
            let stem = index.stemmer.stem(word).into_owned();
            index.bridged(word, &stem).expect(word)
        };
        let (api, act) = said("settings");
        assert!(!act && api.contains(&"config".to_owned()), "{api:?}");
        assert!(!api.contains(&"patch".to_owned()), "{api:?}");
        let (api, act) = said("set");
        assert!(act && api.contains(&"patch".to_owned()), "{api:?}");
        assert!(said("activate").0.contains(&"enabl".to_owned()));
        assert!(!said("activity").1);
        // One word listed twice would be a table's mistake: the tables list each once.
        let listed: Vec<&str> = ACTS.iter().chain(THINGS).map(|(word, _)| *word).collect();
        for (i, word) in listed.iter().enumerate() {
            assert!(!listed[..i].contains(word), "`{word}` is listed twice");
        }
    }

    #[test]
    fn a_task_that_waits_for_something_asks_for_a_hook() {
        // Like most APIs, this one names its boards far more often than its hooks.
        let tools = vec![
            Tool::new("get_board", "Get a board.").with_title("Get a board"),
            Tool::new("update_board", "Update a board's name or description.")
                .with_title("Update a board"),
            Tool::new("delete_board", "Delete a board.").with_title("Delete a board"),
            Tool::new("list_board_cards", "List the cards on a board.")
                .with_title("List a board's cards"),
            Tool::new(
                "create_webhook",
                "Create a webhook: a URL called on each event.",
            )
            .with_title("Create a webhook"),
        ];
        let index = Index::new(&tools, |_| None);
        let task = "call https://hooks.example.com whenever anything changes on board B3";
        assert_eq!(index.search(task, 10)[0].0, 4);
    }

    fn annotated(name: &str, title: &str, annotations: ToolAnnotations) -> Tool {
        Tool::new(name, format!("{title}."))
            .with_title(title)
            .with_annotations(annotations)
    }

    fn reads() -> ToolAnnotations {
        ToolAnnotations::new().read_only(true).destructive(false)
    }

    fn writes() -> ToolAnnotations {
        ToolAnnotations::new().read_only(false)
    }

    fn destroys() -> ToolAnnotations {
        ToolAnnotations::new().read_only(false).destructive(true)
    }

    #[test]
    fn the_act_asked_for_meets_the_operation_that_does_it() {
        // The same words in each; only what each does tells them apart.
        let tools = vec![
            annotated("label_labels", "Label labels", reads()),
            annotated("label_label", "Label labels", writes()),
            annotated("labels_label", "Label labels", destroys()),
        ];
        let index = Index::new(&tools, |_| None);
        assert_eq!(index.search("add labels", 10)[0].0, 1);
        assert_eq!(index.search("which labels are there?", 10)[0].0, 0);
        assert_eq!(index.search("show labels", 10)[0].0, 0);
        assert_eq!(index.search("get rid of labels", 10)[0].0, 2);
        assert_eq!(index.search("kick labels", 10)[0].0, 2);
        // Unannotated tools are left as they were: listing order.
        let plain: Vec<Tool> = ["label_a", "label_b"]
            .iter()
            .map(|name| Tool::new(*name, "Label labels."))
            .collect();
        let index = Index::new(&plain, |_| None);
        assert_eq!(index.search("add labels", 10)[0].0, 0);
    }

    #[test]
    fn acts_are_read_from_verbs_questions_and_un() {
        let index = Index::new(&[], |_| None);
        let act = |query: &str| index.act(query);
        assert_eq!(act("what playlists do I have?"), Some(Act::Read));
        assert_eq!(act("is deployment dpl_1 ready"), Some(Act::Read));
        assert_eq!(act("how do I create a repository"), Some(Act::Make));
        assert_eq!(act("rename the channel"), Some(Act::Make));
        assert_eq!(act("unpin the message"), Some(Act::Remove));
        assert_eq!(act("get rid of the label"), Some(Act::Remove));
        assert_eq!(act("stop following bob"), Some(Act::Remove));
        assert_eq!(act("stop the run"), Some(Act::Make));
        assert_eq!(act("list the open pull requests"), Some(Act::Read));
        assert_eq!(act("open a pull request"), Some(Act::Make));
        assert_eq!(act("comic 927"), None);
        // A particle makes a verb another act, adjacent where the verb alone is one too.
        assert_eq!(act("kick off a training run"), Some(Act::Make));
        assert_eq!(act("kick member m5 off board B7"), Some(Act::Remove));
        assert_eq!(act("take song 442583 off my playlist"), Some(Act::Remove));
        assert_eq!(act("pull up the invoice"), Some(Act::Read));
    }

    #[test]
    fn a_task_that_makes_anew_meets_the_operation_that_does() {
        let tools = vec![
            annotated("updateComment", "Update a comment", writes()),
            annotated("addComment", "Add a comment", writes()),
            annotated(
                "replaceTopics",
                "Replace the topics",
                writes().idempotent(true),
            ),
            annotated("createTopic", "Create a topic", writes()),
        ];
        let index = Index::new(&tools, |_| None);
        assert_eq!(index.search("add a comment to ticket 4", 10)[0].0, 1);
        assert_eq!(index.search("edit my comment on ticket 4", 10)[0].0, 0);
        // A name's first verb says which making it does, or else a `PUT`'s annotations.
        let made: Vec<_> = index.shapes.iter().map(|shape| shape.making).collect();
        assert_eq!(
            made,
            [
                Some(Making::Change),
                Some(Making::New),
                Some(Making::Change),
                Some(Making::New)
            ]
        );
        let put = Index::new(
            &[annotated(
                "repo_topics",
                "Topics",
                writes().idempotent(true),
            )],
            |_| None,
        );
        assert_eq!(put.shapes[0].making, Some(Making::Change));
        // Only a verb that leads the task says which making it asks for.
        assert_eq!(index.asked("fix the typo in post 12").1, None);
        assert_eq!(index.asked("please create a topic").1, Some(Making::New));
    }

    #[test]
    fn what_a_task_is_for_and_when_count_less_than_what_it_asks() {
        let with = |query: &str| -> Vec<String> {
            let words = search_words(query);
            purposed(query)
                .iter()
                .zip(&words)
                .filter(|(purpose, _)| **purpose)
                .map(|(_, word)| word.clone())
                .collect()
        };
        assert_eq!(
            with("add the album to my favourites so I can find it quickly"),
            ["so", "i", "can", "find", "it", "quickly"]
        );
        assert_eq!(
            with("share it so that Bob can edit, then notify him"),
            ["so", "that", "bob", "can", "edit"]
        );
        assert!(with("so, what changed?").is_empty());
        assert!(with("is it so?").is_empty());
        let words = search_words("how many messages are queued right now");
        assert_eq!(
            fillers(&words),
            [false, false, false, false, false, true, true]
        );
        let tools = vec![
            Tool::new("MarkFavoriteItem", "Marks an item as a favorite."),
            Tool::new("SearchItems", "Find items quickly by name."),
        ];
        let index = Index::new(&tools, |_| None);
        assert_eq!(
            index.search("add the album to my favorites so I can find it quickly", 10)[0].0,
            0
        );
        assert_eq!(index.act("add it so I can find it"), Some(Act::Make));
    }

    #[test]
    fn a_search_without_a_limit_lists_every_match_once() {
        let tools: Vec<Tool> = (0..40)
            .map(|i| Tool::new(format!("get_item_{i}"), "Get an item"))
            .chain([
                annotated("GET_AddThing", "Add a thing", reads()),
                annotated("POST_AddThing", "Add a thing", reads()),
            ])
            .collect();
        let index = Index::new(&tools, |_| None);
        // The forty items and, for its `GET`, the thing: twins take one place however far
        // the list goes.
        assert_eq!(index.search("get item", usize::MAX).len(), 41);
        assert_eq!(index.search("add thing", usize::MAX).len(), 1);
        assert!(index.search("item", 0).is_empty());
    }

    #[test]
    fn british_and_american_spellings_meet() {
        let tools = vec![
            Tool::new("MarkFavoriteItem", "Marks an item as a favorite."),
            Tool::new("CancelOrder", "Cancels an order."),
            Tool::new(
                "ListOrganizations",
                "Lists the organizations you belong to.",
            ),
            Tool::new("GetColourScheme", "The colour scheme of the site."),
        ];
        let index = Index::new(&tools, |_| None);
        assert_eq!(index.search("add the album to my favourites", 10)[0].0, 0);
        assert_eq!(index.search("which orders were cancelled", 10)[0].0, 1);
        assert_eq!(index.search("what organisations am I in", 10)[0].0, 2);
        assert_eq!(index.search("what color is the site", 10)[0].0, 3);
    }

    #[test]
    fn one_or_many_is_matched_in_the_title() {
        let tools = vec![
            annotated("pulls_list", "List pull requests", reads()),
            annotated("pulls_get", "Get a pull request", reads()),
        ];
        let index = Index::new(&tools, |_| None);
        assert_eq!(index.search("show pull request 9", 10)[0].0, 1);
        assert_eq!(index.search("show the pull requests", 10)[0].0, 0);
        let stemmer = Stemmer::english();
        for (word, plural) in [
            ("issues", true),
            ("repositories", true),
            ("branches", true),
            ("status", false),
            ("address", false),
            ("analysis", false),
            ("issue", false),
        ] {
            assert_eq!(is_plural(&stemmer, word), plural, "{word}");
        }
    }

    #[test]
    fn an_item_named_by_id_wants_an_operation_that_takes_one() {
        let id = |name: &str| ToolParameter::new(name, "").required(true);
        let tools = vec![
            Tool::new("comic_latest", "Fetch the comic."),
            Tool::new("comic_by_id", "Fetch the comic.").with_parameter(id("comicId")),
        ];
        let index = Index::new(&tools, |_| None);
        assert_eq!(index.search("fetch comic 927", 10)[0].0, 1);
        assert_eq!(index.search("fetch the comic", 10)[0].0, 0);
        // A count is not an id.
        let stemmer = Stemmer::english();
        assert!(named_items(&stemmer, "show the last 20 messages").is_none());
        assert_eq!(
            named_items(&stemmer, "show message 20"),
            Some(vec!["messag".to_owned()])
        );
        assert!(names_item("issue_number") && names_item("id") && names_item("comicId"));
        assert!(!names_item("name") && !names_item("owner"));
        // Nor is a date, a time, a sum or a share.
        for when in [
            "born 1985-04-12",
            "on 04/12/1985",
            "between June 1 and June 7",
            "at 10:30",
            "at 3pm",
            "paid $40",
            "send 10% of traffic",
            "on the 1st",
        ] {
            assert!(named_items(&stemmer, when).is_none(), "{when}");
        }
    }

    #[test]
    fn a_list_that_filters_by_the_named_item_takes_it() {
        let tools = vec![
            Tool::new("users_read", "Retrieve a user")
                .with_parameter(ToolParameter::new("id", "").required(true)),
            Tool::new("medications_list", "Retrieve or search patient medications")
                .with_parameter(ToolParameter::new("patient", "")),
        ];
        let index = Index::new(&tools, |_| None);
        let stemmer = Stemmer::english();
        assert_eq!(index.shapes[1].kinds, ["patient"]);
        assert_eq!(
            named_items(&stemmer, "what meds is patient 7310 on?"),
            Some(vec!["patient".to_owned()])
        );
        // `meds` is a clipping of `medications`; the list takes the patient it names.
        assert_eq!(index.search("what meds is patient 7310 on?", 10)[0].0, 1);
    }

    #[test]
    fn words_stemming_joins_by_chance_stay_apart() {
        let stemmer = Stemmer::english();
        assert_eq!(stemmer.stem("customers"), "customer");
        assert_eq!(stemmer.stem("custom"), "custom");
        assert_ne!(stemmer.stem("experiment"), stemmer.stem("experience"));
        assert_eq!(stemmer.stem("repositories"), "repositori");
        // An acronym's plural is one word.
        assert_eq!(
            words("dedicated IPs, listVMs and URLs"),
            ["dedicated", "ips", "list", "vms", "and", "urls"]
        );
        assert_eq!(words("HTTPServer"), ["http", "server"]);
    }

    #[test]
    fn undoing_verbs_reach_the_apis_undoing() {
        let tools = vec![
            annotated("follow_user", "Follow a user", writes()),
            annotated("unfollow_user", "Unfollow a user", destroys()),
            annotated("add_assignees", "Add assignees to an issue", writes()),
            annotated(
                "remove_assignees",
                "Remove assignees from an issue",
                destroys(),
            ),
        ];
        let index = Index::new(&tools, |_| None);
        assert_eq!(index.search("stop following octocat", 10)[0].0, 1);
        assert_eq!(index.search("unassign bob from issue 5", 10)[0].0, 3);
    }

    #[test]
    fn only_the_start_of_a_long_query_is_searched() {
        let tools = vec![
            Tool::new("close_issue", "Close an issue"),
            Tool::new("delete_repo", "Delete a repository"),
        ];
        let index = Index::new(&tools, |_| None);
        let task = "close issue 17 ";
        let long = format!("{task}{}", "x".repeat(MAX_QUERY_CHARS));
        let pasted = format!("{long} delete a repository {}", "word ".repeat(200_000));
        assert_eq!(index.search(&pasted, 10), index.search(&long, 10));
        assert_eq!(index.search(&pasted, 10)[0].0, 0);
        // Cut between characters, never inside one.
        let _ = index.search(&"é".repeat(3 * MAX_QUERY_CHARS), 10);
    }

    #[test]
    fn paths_are_words_and_quotes_break_ties() {
        assert_eq!(
            intent("GET /repos/{owner}/{repo}/issues"),
            "GET /repos/{owner}/{repo}/issues"
        );
        assert!(!is_value("/V1.0/ActionTypes") && is_value("/reports/q3.pdf"));
        let tools = vec![
            Tool::new("contacts_patch", "PATCH /V1.0/Contacts"),
            Tool::new("action_types_get", "GET /V1.0/ActionTypes"),
            Tool::new("action_types_patch", "PATCH /V1.0/ActionTypes"),
        ];
        let index = Index::new(&tools, |_| None);
        assert_eq!(index.search("PATCH /V1.0/ActionTypes", 10)[0].0, 2);
        // What a task quotes is not its act nor its topic, but it tells apart tools the
        // rest of the task matches alike.
        let tools = vec![
            Tool::new(
                "search_biblio",
                "Search API for 'Bibliographic Entry' entry type",
            ),
            Tool::new("search_any", "Search API for 'Any file type' entry type"),
            Tool::new("search_dicom", "Search API for 'DICOM File' entry type"),
        ];
        let index = Index::new(&tools, |_| None);
        for (i, tool) in tools.iter().enumerate() {
            assert_eq!(index.search(tool.label(), 10)[0].0, i, "{}", tool.label());
        }
        assert_eq!(unquote("find 'DICOM File' entries").1.trim(), "DICOM File");
        // A quoted word alone does not make a tool a result.
        assert!(
            index
                .search("comment \"biblio dicom\" on card 9", 10)
                .is_empty()
        );
    }

    #[test]
    fn what_a_task_rules_out_is_not_searched() {
        let tools = vec![
            annotated(
                "delete_mapping",
                "Delete an event source mapping",
                destroys(),
            ),
            annotated(
                "update_mapping",
                "Update an event source mapping: enable or disable it",
                writes(),
            ),
        ];
        let index = Index::new(&tools, |_| None);
        assert_eq!(
            index.search("disable the queue mapping, don't delete it", 10)[0].0,
            1
        );
        assert_eq!(
            index.act("disable the mapping, don't delete it"),
            Some(Act::Make)
        );
        // A negation holds within its clause only.
        assert_eq!(
            index.search("I don't need the queue mapping anymore; delete it", 10)[0].0,
            0
        );
        assert_eq!(
            negated("don't delete it; remove it"),
            [false, false, true, true, false, false]
        );
    }

    #[test]
    fn a_done_verb_describes_and_undo_undoes_it() {
        let stemmer = Stemmer::english();
        assert!(is_inflected(&stemmer, "invited") && is_inflected(&stemmer, "following"));
        for word in ["need", "embed", "bring", "string", "red", "seed"] {
            assert!(!is_inflected(&stemmer, word), "{word}");
        }
        let tools = vec![
            annotated("get_event", "Get an event, with its attendees", reads()),
            annotated(
                "invite_attendee",
                "Invite an attendee to an event",
                writes(),
            ),
            annotated("block_user", "Block a user", writes()),
            annotated("unblock_user", "Unblock a user", destroys()),
        ];
        let index = Index::new(&tools, |_| None);
        // `invited` describes; `pull up` is the act.
        assert_eq!(
            index.act("pull up event 5, who got invited"),
            Some(Act::Read)
        );
        assert_eq!(index.act("event 5, who got invited"), None);
        assert_eq!(index.act("invite Sam to event 5"), Some(Act::Make));
        assert_eq!(
            index.search("I blocked my cousin by accident, undo that", 10)[0].0,
            3
        );
    }

    #[test]
    fn the_values_and_names_of_a_task_say_what_they_are() {
        assert_eq!(
            value_hints("upload report.pdf for bob@x.io to <https://x.io/a>"),
            ["file", "object", "email", "url", "link"]
        );
        assert!(is_value("backups/db.sql.gz") && !is_value("node.js"));
        // An owner and a name is a repository; a path, a date or a fraction is not.
        assert_eq!(
            value_hints("list runs for octo/app"),
            ["repository", "repo"]
        );
        for other in ["due 10/12", "GET /v1/users", "see a/b/c", "1/2 of it"] {
            assert!(value_hints(other).is_empty(), "{other}");
        }
        assert_eq!(
            named("the finance-share bucket, db_pass"),
            [false, true, true, false, true, true]
        );
        let tools = vec![annotated("share_bucket", "Share a bucket", writes())];
        let index = Index::new(&tools, |_| None);
        // A name's words say no act, and count less than the task's own.
        assert_eq!(index.act("the finance-share bucket"), None);
        assert_eq!(index.act("the finance share bucket"), Some(Act::Make));
        let score = |query: &str| index.search(query, 1)[0].1;
        assert!(score("the finance-share bucket") < score("the finance share bucket"));
    }

    #[test]
    fn two_task_words_the_api_joins_are_its_word() {
        let tools = vec![
            Tool::new("get_timezone", "Gets the calendar's timezone."),
            Tool::new("get_zone", "Gets a DNS zone."),
        ];
        let index = Index::new(&tools, |_| None);
        assert_eq!(index.search("what time zone is my calendar in", 10)[0].0, 0);
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

    #[test]
    fn the_values_an_argument_takes_are_found() {
        let visibility = ToolParameter::new("visibility", "Who can see it.").with_schema(
            serde_json::json!({"type": "string", "enum": ["public", "private", "internal"]}),
        );
        let topics = ToolParameter::new("names", "The topics.")
            .with_schema(serde_json::json!({"type": "array", "items": {"type": "string"}}));
        let tools = vec![
            Tool::new("repos_transfer", "Transfers a repository.")
                .with_title("Transfer a repository")
                .with_parameters(vec![topics]),
            Tool::new("repos_update", "Updates a repository.")
                .with_title("Update a repository")
                .with_parameters(vec![visibility]),
        ];
        let index = Index::new(&tools, |_| None);
        // Alike but for the value (ties go to the first): the value decides.
        assert_eq!(index.search("repository 12, private", 10)[0].0, 1);
        // Values in items, properties and alternatives count too, and a long list no
        // further than its first values.
        let nested = ToolParameter::new("filter", "").with_schema(serde_json::json!({
            "type": "object",
            "properties": {"state": {"anyOf": [{"const": "archived"}, {"enum": ["active"]}]}}
        }));
        let tool = Tool::new("search", "").with_parameters(vec![nested]);
        assert_eq!(parameter_values(&tool), "archived active ");
        let many: Vec<String> = (0..200).map(|i| format!("v{i}")).collect();
        let long = ToolParameter::new("code", "")
            .with_schema(serde_json::json!({"type": "string", "enum": many}));
        let tool = Tool::new("lookup", "").with_parameters(vec![long]);
        assert_eq!(
            parameter_values(&tool).split_whitespace().count(),
            MAX_VALUES
        );
    }
}
