//! Toolsets from the tools' own names, for a driver whose tools carry no tags or whose tag
//! holds too many tools to browse: EC2's ~1,200 untagged operations, a `repos` tag of 200.
//!
//! A name says what it acts on: `DescribeInstances`, `conversations_list`,
//! `getV3ProjectsIdIssues`. Leading verbs and version markers (`describe`, `get`, `v3`) and
//! identifier words (`id`) are passed over; the first word left is the resource (`instance`,
//! `conversation`, `project`), and tools are grouped by it. A group still too large is split
//! again by the next resource word (`project` → `issue`, `merge-request`…); groups too small
//! to stand alone are gathered into one. The same names always give the same groups.

use std::collections::BTreeMap;

use crate::search::words;

/// One group a toolset is split into: the resource words its tools share (`["project",
/// "issue"]`, ending in `other` for the gathered rest), its tools, and for a gathered group
/// what it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Part {
    pub path: Vec<String>,
    pub tools: Vec<String>,
    pub description: Option<String>,
}

/// A toolset of no tag (a driver's `all` or `other` tools) above this many tools is split
/// by its tools' names (unless a model split it); so are the groups the split makes.
pub(crate) const STRUCTURE_MAX: usize = 60;

/// A tag's toolset is split by its tools' names only above this many tools: the document
/// chose the grouping, and a set this size still loads in one page of names and titles
/// (GitHub's largest tag, `repos`, has about 200).
pub(crate) const TAGGED_MAX: usize = 300;

/// Groups smaller than this are gathered into one.
const MIN_GROUP: usize = 3;

/// How deep a split goes (resource words).
const MAX_DEPTH: usize = 3;

/// Words that say what is done, not to what: passed over when looking for the resource.
const VERBS: &[&str] = &[
    "accept",
    "activate",
    "add",
    "allocate",
    "apply",
    "approve",
    "archive",
    "assign",
    "associate",
    "attach",
    "authorize",
    "batch",
    "bulk",
    "cancel",
    "check",
    "clear",
    "close",
    "complete",
    "confirm",
    "copy",
    "count",
    "create",
    "deactivate",
    "decline",
    "delete",
    "deregister",
    "describe",
    "detach",
    "disable",
    "disassociate",
    "dismiss",
    "download",
    "edit",
    "enable",
    "export",
    "fetch",
    "find",
    "get",
    "head",
    "import",
    "invite",
    "join",
    "leave",
    "list",
    "lock",
    "mark",
    "merge",
    "modify",
    "move",
    "open",
    "patch",
    "post",
    "put",
    "query",
    "read",
    "register",
    "reject",
    "release",
    "remove",
    "rename",
    "replace",
    "request",
    "reset",
    "restore",
    "retrieve",
    "revoke",
    "run",
    "search",
    "send",
    "set",
    "start",
    "stop",
    "submit",
    "sync",
    "test",
    "transfer",
    "unassign",
    "unlock",
    "update",
    "upload",
    "upsert",
    "validate",
    "verify",
    "view",
    "acknowledge",
    "block",
    "clone",
    "deny",
    "execute",
    "follow",
    "fork",
    "generate",
    "invoke",
    "mute",
    "notify",
    "pin",
    "preview",
    "promote",
    "publish",
    "reboot",
    "refresh",
    "reopen",
    "rerun",
    "resend",
    "resolve",
    "restart",
    "retry",
    "rollback",
    "schedule",
    "share",
    "star",
    "subscribe",
    "terminate",
    "trigger",
    "unblock",
    "unfollow",
    "unmute",
    "unpin",
    "unpublish",
    "unshare",
    "unstar",
    "unsubscribe",
    "unwatch",
    "watch",
];

/// Words that name an identifier or a version, not a resource.
fn is_marker(word: &str) -> bool {
    matches!(
        word,
        "id" | "ids" | "by" | "for" | "of" | "the" | "a" | "an" | "all" | "api"
    ) || (word.len() >= 2 && word.starts_with('v') && word[1..].chars().all(|c| c.is_ascii_digit()))
        || word.chars().all(|c| c.is_ascii_digit())
}

/// `word` without a plural ending, so `instances` and `instance` are one resource.
fn singular(word: &str) -> String {
    if let Some(stem) = word.strip_suffix("ies").filter(|s| s.len() >= 2) {
        format!("{stem}y")
    } else if let Some(stem) = word
        .strip_suffix('s')
        .filter(|s| s.len() >= 3 && !s.ends_with('s') && !s.ends_with('u'))
    {
        stem.to_owned()
    } else {
        word.to_owned()
    }
}

/// The resource words of a tool's listed name: its words without the orchestrator's label,
/// verbs and markers, singular.
fn resources(listed: &str) -> Vec<String> {
    let name = listed.split_once("__").map_or(listed, |(_, tool)| tool);
    words(name)
        .into_iter()
        .filter(|word| !VERBS.contains(&word.as_str()) && !is_marker(word))
        .map(|word| singular(&word))
        .collect()
}

/// A toolset's `tools` (listed names), split by their names into groups of at most
/// [`STRUCTURE_MAX`] where the names allow, when there are more than [`STRUCTURE_MAX`]
/// ([`TAGGED_MAX`] for a `tagged` set); `None` when the set is small enough or its names do
/// not tell its tools apart.
pub(crate) fn split(tools: &[String], tagged: bool) -> Option<Vec<Part>> {
    let max = if tagged { TAGGED_MAX } else { STRUCTURE_MAX };
    if tools.len() <= max {
        return None;
    }
    let named: Vec<(String, Vec<String>)> = tools
        .iter()
        .map(|listed| (listed.clone(), resources(listed)))
        .collect();
    let mut out = Vec::new();
    divide(&named, 0, &[], &mut out);
    (out.len() >= 2).then_some(out)
}

/// Groups `named` (tools with their resource words) by the word at `depth`, appending the
/// groups to `out`; `path` is the resource words shared so far.
fn divide(named: &[(String, Vec<String>)], depth: usize, path: &[String], out: &mut Vec<Part>) {
    let mut groups: BTreeMap<String, Vec<(String, Vec<String>)>> = BTreeMap::new();
    let mut general = Vec::new();
    for (listed, words) in named {
        match words.get(depth) {
            Some(word) => groups
                .entry(word.clone())
                .or_default()
                .push((listed.clone(), words.clone())),
            None => general.push(listed.clone()),
        }
    }
    // A level whose words do not tell the tools apart cannot be split this way: the tools
    // stay together (a set of `op_1` … `op_2500` is paged, not cut into arbitrary chunks).
    if groups.is_empty()
        || (groups.len() + usize::from(!general.is_empty()) < 2 && depth + 1 >= MAX_DEPTH)
    {
        out.push(part(path, named.iter().map(|(l, _)| l.clone()).collect()));
        return;
    }
    let mut gathered: Vec<String> = general;
    let mut gathered_words: Vec<String> = Vec::new();
    for (word, members) in groups {
        if members.len() < MIN_GROUP {
            gathered.extend(members.into_iter().map(|(listed, _)| listed));
            gathered_words.push(word);
            continue;
        }
        let mut deeper = path.to_vec();
        deeper.push(word);
        if members.len() > STRUCTURE_MAX && depth + 1 < MAX_DEPTH {
            divide(&members, depth + 1, &deeper, out);
        } else {
            out.push(part(&deeper, members.into_iter().map(|(l, _)| l).collect()));
        }
    }
    // What is left, in pieces of at most STRUCTURE_MAX: `other`, `other-2`, …
    let pieces = gathered.len().div_ceil(STRUCTURE_MAX);
    for (index, piece) in gathered.chunks(STRUCTURE_MAX).enumerate() {
        let mut title = path.to_vec();
        title.push(if index == 0 {
            "other".to_owned()
        } else {
            format!("other-{}", index + 1)
        });
        let mut group = part(&title, piece.to_vec());
        if !gathered_words.is_empty() && pieces == 1 {
            let shown: Vec<&str> = gathered_words.iter().take(8).map(String::as_str).collect();
            let more = if gathered_words.len() > 8 {
                ", …"
            } else {
                ""
            };
            group.description = Some(format!("Tools for {}{more}.", shown.join(", ")));
        }
        out.push(group);
    }
}

fn part(path: &[String], tools: Vec<String>) -> Part {
    Part {
        path: path.to_vec(),
        tools,
        description: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbs_and_markers_are_passed_over() {
        assert_eq!(resources("DescribeInstanceStatus"), ["instance", "status"]);
        assert_eq!(resources("getV3ProjectsIdIssues"), ["project", "issue"]);
        assert_eq!(resources("aws__conversations_list"), ["conversation"]);
        assert_eq!(resources("list-policies"), ["policy"]);
    }

    #[test]
    fn small_sets_stay_whole() {
        let tools: Vec<String> = (0..STRUCTURE_MAX).map(|n| format!("GetThing{n}")).collect();
        assert_eq!(split(&tools, false), None);
        let many: Vec<String> = (0..TAGGED_MAX)
            .map(|n| format!("Get{n}Thing{}", n % 7))
            .collect();
        assert_eq!(
            split(&many, true),
            None,
            "a tag's set up to TAGGED_MAX stays whole"
        );
    }

    #[test]
    fn large_untagged_sets_are_grouped_by_resource() {
        let resources = [
            "Instance",
            "Volume",
            "Snapshot",
            "Image",
            "SecurityGroup",
            "Subnet",
            "Vpc",
            "RouteTable",
            "NetworkInterface",
            "KeyPair",
            "Address",
            "Tag",
        ];
        let verbs = ["Describe", "Create", "Delete", "Modify", "Attach", "Detach"];
        let mut tools = Vec::new();
        for resource in resources {
            for verb in verbs {
                tools.push(format!("{verb}{resource}s"));
                tools.push(format!("{verb}{resource}Attribute"));
            }
        }
        tools.push("RunInstances".to_owned());
        tools.push("Ping".to_owned());
        let sets = split(&tools, false).unwrap();
        let mut seen: Vec<&String> = sets.iter().flat_map(|part| &part.tools).collect();
        seen.sort();
        let mut all: Vec<&String> = tools.iter().collect();
        all.sort();
        assert_eq!(seen, all, "every tool in exactly one group");
        assert!(sets.iter().all(|part| part.tools.len() <= STRUCTURE_MAX));
        let instance = sets.iter().find(|part| part.path == ["instance"]).unwrap();
        assert!(instance.tools.contains(&"RunInstances".to_owned()));
        assert!(
            instance
                .tools
                .contains(&"DescribeInstanceAttribute".to_owned())
        );
        // The same names give the same groups.
        assert_eq!(split(&tools, false).unwrap(), sets);
    }

    #[test]
    fn names_that_say_nothing_keep_the_set_whole() {
        let tools: Vec<String> = (0..2500).map(|n| format!("op_{n}")).collect();
        assert_eq!(split(&tools, false), None);
    }
}
