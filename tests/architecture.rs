//! ARCHITECTURE.md draws which crate uses which; this keeps the drawing true. Every arrow
//! `crate ─► a, b` must be exactly the crate's workspace dependencies (normal and optional,
//! not dev), as `cargo metadata` reports them.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// The workspace crates each crate depends on, from `cargo metadata`.
fn dependencies() -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let packages = metadata["packages"].as_array().unwrap();
    let members: BTreeSet<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    packages
        .iter()
        .map(|package| {
            let uses = package["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["kind"].is_null())
                .filter_map(|d| d["name"].as_str())
                .filter(|name| members.contains(name))
                .map(str::to_owned)
                .collect();
            (package["name"].as_str().unwrap().to_owned(), uses)
        })
        .collect()
}

/// The arrows of the drawing: each line `a, b ─► c, d …` (continued on lines that start
/// with spaces), crate names only.
fn arrows() -> BTreeMap<String, BTreeSet<String>> {
    let text = include_str!("../ARCHITECTURE.md");
    let start = text.find("```text").expect("the drawing") + "```text".len();
    let drawing = &text[start..start + text[start..].find("```").unwrap()];
    let names = |part: &str| -> Vec<String> {
        part.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .filter(|word| word.starts_with("mcs-") || *word == "model-context-standard")
            .map(str::to_owned)
            .collect()
    };
    let mut arrows: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut from: Vec<String> = Vec::new();
    for line in drawing.lines().filter(|line| !line.trim().is_empty()) {
        let to = match line.split_once('─') {
            Some((left, right)) if !line.starts_with(' ') => {
                from = names(left);
                right
            }
            _ => line,
        };
        // Parentheses hold commentary (`(lib mcs)`, `(for the host)`), not crates.
        let mut to = to.to_owned();
        while let (Some(open), Some(close)) = (to.find('('), to.find(')')) {
            if close < open {
                break;
            }
            to.replace_range(open..=close, "");
        }
        for crate_name in &from {
            arrows
                .entry(crate_name.clone())
                .or_default()
                .extend(names(&to));
        }
    }
    arrows
}

#[test]
fn the_drawing_in_architecture_md_is_the_dependency_graph() {
    let actual = dependencies();
    let arrows = arrows();
    for (crate_name, uses) in &actual {
        let published = crate_name.starts_with("mcs-") && crate_name != "mcs-public-api"
            || crate_name == "model-context-standard";
        if published && !uses.is_empty() {
            assert!(
                arrows.contains_key(crate_name),
                "`{crate_name}` uses {uses:?}, but ARCHITECTURE.md draws no arrow from it"
            );
        }
    }
    for (crate_name, drawn) in arrows {
        let uses = actual
            .get(&crate_name)
            .unwrap_or_else(|| panic!("ARCHITECTURE.md names `{crate_name}`, not a member"));
        assert_eq!(
            &drawn, uses,
            "the arrows from `{crate_name}` in ARCHITECTURE.md"
        );
    }
}
