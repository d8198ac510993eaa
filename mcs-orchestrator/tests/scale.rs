//! What a document the size of Microsoft Graph's costs: reading it, registering it in
//! discovery mode, the resident memory at the end, and a search. Opt-in, and meant for a
//! release build:
//!
//! ```sh
//! MCS_SCALE=1 cargo test --release -p mcs-orchestrator --test scale -- --nocapture
//! MCS_SCALE=/path/to/openapi.json cargo test --release -p mcs-orchestrator --test scale -- --nocapture
//! ```
//!
//! With `MCS_SCALE=1` the document is synthetic and built here: 22,330 operations under 770
//! tags (`MCS_SCALE_TAGS=77` for a tenth of it), each taking or returning one of 400 entity
//! schemas (`MCS_SCALE_ENTITIES`) that reference each other (as Graph's `microsoft.graph.*`
//! schemas do); `MCS_SCALE_PROSE=<chars>` gives each operation a description that long, and
//! `MCS_SCALE_LINKED=1` links every entity back to the first. With a path, that document is
//! measured. The figures go to BENCHMARKS.md; nothing is asserted (this is a measurement,
//! not a check).

use std::sync::Arc;
use std::time::Instant;

use mcs_core::{Driver, ToolDriver};
use mcs_openapi::{ReadOptions, read_str};
use mcs_orchestrator::{ConflictPolicy, Discovery, Orchestrator, Registration};
use serde_json::{Map, Value, json};

/// How many entity schemas there are: 400 by default, `MCS_SCALE_ENTITIES` for more
/// (Graph's beta description has about 4,000).
fn entities() -> usize {
    env_number("MCS_SCALE_ENTITIES").unwrap_or(400)
}

/// How many characters of prose each operation's description has: none by default,
/// `MCS_SCALE_PROSE=1000` to bring the document to Graph's 47 MB.
fn prose() -> usize {
    env_number("MCS_SCALE_PROSE").unwrap_or(0)
}

fn tokens(text: &str) -> usize {
    tiktoken_rs::o200k_base()
        .expect("o200k is built into tiktoken-rs")
        .encode_ordinary(text)
        .len()
}

fn env_number(name: &str) -> Option<usize> {
    std::env::var(name).ok().and_then(|n| n.parse().ok())
}

/// How many tags (of 29 operations each) the synthetic document has: 770 by default,
/// `MCS_SCALE_TAGS` to measure how the cost grows.
fn tags() -> usize {
    env_number("MCS_SCALE_TAGS").unwrap_or(770)
}

/// Entity `n`: twenty scalar properties and references to the entities below it in a
/// binary tree (`2n + 1`, `2n + 2`), so that what an operation reaches through `$ref` ranges
/// from one entity to all of them (from the root), a few on average. `MCS_SCALE_LINKED=1`
/// adds a reference from every entity back to the root, so that every operation reaches all
/// 400 (as densely linked as Graph's navigation properties make it).
fn entity(n: usize) -> Value {
    let mut properties = Map::new();
    for p in 0..20 {
        properties.insert(
            format!("property{p}"),
            json!({"type": if p % 3 == 0 { "integer" } else { "string" },
                   "description": format!("Property {p} of entity {n}, as the service keeps it.")}),
        );
    }
    let root = if std::env::var_os("MCS_SCALE_LINKED").is_some() {
        0
    } else {
        entities()
    };
    for (k, other) in [2 * n + 1, 2 * n + 2, root].into_iter().enumerate() {
        if other < entities() && other != n {
            properties.insert(
                format!("related{k}"),
                json!({"$ref": format!("#/components/schemas/entity{other}")}),
            );
        }
    }
    json!({"type": "object", "description": format!("Entity {n}."), "properties": properties})
}

/// `chars` characters of varied prose.
fn words(chars: usize, seed: usize) -> String {
    const WORDS: &[&str] = &[
        "the",
        "service",
        "returns",
        "each",
        "item",
        "in",
        "a",
        "collection",
        "with",
        "its",
        "properties",
        "when",
        "caller",
        "has",
        "permission",
        "to",
        "read",
        "them",
        "and",
        "changes",
        "are",
        "applied",
        "after",
        "validation",
        "of",
        "request",
        "body",
    ];
    let mut text = String::with_capacity(chars + 16);
    let mut n = seed;
    while text.len() < chars {
        n = n
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        text.push_str(WORDS[(n >> 33) % WORDS.len()]);
        text.push(' ');
    }
    text.trim_end().to_owned()
}

fn synthetic() -> String {
    let verbs = [
        ("get", "list"),
        ("post", "create"),
        ("get", "get"),
        ("patch", "update"),
        ("delete", "delete"),
    ];
    let mut paths = Map::new();
    let mut operations = 0;
    let limit = tags() * 29;
    for tag in 0..tags() {
        let tag_name = format!("area{}.resource{}", tag % 35, tag / 35);
        for sub in 0..6 {
            let entity_ref = json!({"$ref": format!("#/components/schemas/entity{}", (tag * 6 + sub) % entities())});
            let collection = format!("/area{}/resource{}/sub{sub}", tag % 35, tag / 35);
            let item = format!("{collection}/{{id}}");
            for (path, (method, verb)) in [
                (&collection, verbs[0]),
                (&collection, verbs[1]),
                (&item, verbs[2]),
                (&item, verbs[3]),
                (&item, verbs[4]),
            ] {
                if operations >= limit {
                    break;
                }
                operations += 1;
                let mut operation = json!({
                    "operationId": format!("{}.sub{sub}.{verb}", tag_name),
                    "summary": format!("{verb} sub{sub} of {tag_name}"),
                    "description": words(prose(), operations),
                    "tags": [tag_name],
                    "responses": {"200": {"description": "OK",
                        "content": {"application/json": {"schema": entity_ref}}}},
                });
                if path.ends_with("{id}") {
                    operation["parameters"] = json!([{"name": "id", "in": "path",
                        "required": true, "schema": {"type": "string"}}]);
                }
                if matches!(method, "post" | "patch") {
                    operation["requestBody"] = json!({"required": true,
                        "content": {"application/json": {"schema": entity_ref}}});
                }
                paths
                    .entry(path.clone())
                    .or_insert_with(|| json!({}))
                    .as_object_mut()
                    .map(|item| item.insert(method.to_owned(), operation));
            }
        }
    }
    let schemas: Map<String, Value> = (0..entities())
        .map(|n| (format!("entity{n}"), entity(n)))
        .collect();
    json!({
        "openapi": "3.0.3",
        "info": {"title": "Synthetic Graph", "version": "1.0"},
        "servers": [{"url": "https://example.invalid"}],
        "paths": paths,
        "components": {"schemas": schemas},
    })
    .to_string()
}

/// A line of `/proc/self/status` in MB (`VmRSS`, `VmHWM`), on Linux.
fn memory(field: &str) -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with(field))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_graph_sized_document() {
    let Ok(which) = std::env::var("MCS_SCALE") else {
        println!("skipped: set MCS_SCALE=1 (synthetic) or MCS_SCALE=<path> to measure");
        return;
    };
    let (text, source) = if which == "1" {
        (synthetic(), "synthetic-graph.json".to_owned())
    } else {
        (std::fs::read_to_string(&which).unwrap(), which.clone())
    };
    let before = memory("VmRSS:").unwrap_or(0.0);
    let started = Instant::now();
    let document = read_str(&text, &source, None, &ReadOptions::default()).unwrap();
    let driver = document.into_driver();
    let read = started.elapsed();
    let tools = driver.list_tools().len();
    let started = Instant::now();
    let orchestrator =
        Orchestrator::new("api", ConflictPolicy::Reject).with_discovery(Discovery::Always);
    orchestrator
        .register("api", Arc::new(driver), Registration::new())
        .unwrap();
    let prompt = orchestrator.get_driver_system_message(None);
    let registered = started.elapsed();
    let started = Instant::now();
    let first = orchestrator
        .execute_tool("search_tools", json!({"query": "update sub3 of area7"}))
        .await
        .unwrap();
    let first_search = started.elapsed();
    let started = Instant::now();
    for query in [
        "list resources",
        "delete an item",
        "create sub1",
        "get area2 resource4",
    ] {
        orchestrator
            .execute_tool("search_tools", json!({"query": query}))
            .await
            .unwrap();
    }
    let search = started.elapsed() / 4;
    // The synthetic document's `create` tools take an entity: the schema is assembled from
    // the shared definitions; in a real document, the first tool found.
    let wanted = if which == "1" {
        "area0_resource0_sub1_create".to_owned()
    } else {
        first["results"][0]["name"].as_str().unwrap().to_owned()
    };
    let started = Instant::now();
    let described = orchestrator
        .execute_tool("describe_tool", json!({"name": wanted}))
        .await
        .unwrap();
    let describe = started.elapsed();
    println!(
        "{source}: {:.1} MB of JSON, {tools} tools; read {:.2} s, registered {:.2} s, first \
         prompt {} chars; first search (index built) {:.2} s, then {:.2} ms a search; \
         resident {:.0} MB (from {before:.0} MB, text included), peak {:.0} MB; first result \
         {}; describe_tool {:.2} ms, {} chars, {} o200k tokens; first prompt {} tokens",
        text.len() as f64 / 1e6,
        read.as_secs_f64(),
        registered.as_secs_f64(),
        prompt.len(),
        first_search.as_secs_f64(),
        search.as_secs_f64() * 1e3,
        memory("VmRSS:").unwrap_or(0.0),
        memory("VmHWM:").unwrap_or(0.0),
        first["results"][0]["name"],
        describe.as_secs_f64() * 1e3,
        described.to_string().len(),
        tokens(&described.to_string()),
        tokens(&prompt),
    );
}
