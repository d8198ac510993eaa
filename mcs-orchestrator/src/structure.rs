//! Toolsets from the tools' own names, for a driver whose tools carry no tags or whose tag
//! holds too many tools to browse: EC2's ~1,200 untagged operations, a `repos` tag of 200.
//!
//! A name says what it acts on: `DescribeInstances`, `conversations_list`,
//! `getV3ProjectsIdIssues`. Leading verbs and version markers (`describe`, `get`, `v3`) and
//! identifier words (`id`) are passed over; the first word left is the resource (`instance`,
//! `conversation`, `project`), and tools are grouped by it. A group still too large is split
//! again by the next resource word (`project` → `issue`, `merge-request`…); groups too small
//! to stand alone are gathered into one; a group whose names cannot be divided further and
//! whose listing is longer than a page is cut into consecutive pieces of a page, so every
//! toolset loads in one turn. The same names always give the same groups.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::pages::PAGE_BUDGET;
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

// A tag's toolset is split by its tools' names only when its listing is longer than a
// page of names and titles ([`PAGE_BUDGET`]): the document chose the grouping, and a set
// that loads in one page keeps it (GitHub's largest tag, `repos`, 204 tools, does). A part
// of a split that its names cannot divide further is cut into consecutive pieces that
// each fit (Microsoft Graph's `identityGovernance.entitlementManagement`, 698 tools of
// 64-character names).

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

/// A tool name at least this long may have had its words cut to fit the 64-byte limit of
/// names (`mcs_options::names::shorten`).
const LONG_NAME: usize = 48;

/// Names cut to the 64-byte limit end their long words early, each as far as it had to
/// (Microsoft Graph's `me_calen_…`, `me_calend_…`, `me_calenda_…`), and would give a group
/// for each cut. A word of four letters or more that only long names hold, and that begins
/// a longer word of the same tools, stands for the one of those the tools say most often
/// (`calendar`).
fn whole_words(named: &mut [(String, Vec<String>)]) {
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    let mut in_short: HashSet<&str> = HashSet::new();
    for (listed, words) in named.iter() {
        let name = listed
            .split_once("__")
            .map_or(listed.as_str(), |(_, tool)| tool);
        for word in words {
            *count.entry(word).or_default() += 1;
            if name.len() < LONG_NAME {
                in_short.insert(word);
            }
        }
    }
    let mut whole: HashMap<String, String> = HashMap::new();
    for &word in count.keys() {
        if word.len() < 4 || in_short.contains(word) {
            continue;
        }
        let longer = count
            .range(word..)
            .take_while(|(other, _)| other.starts_with(word))
            .filter(|(other, _)| other.len() > word.len())
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.len().cmp(&a.0.len())));
        if let Some((&full, _)) = longer {
            whole.insert(word.to_owned(), full.to_owned());
        }
    }
    if whole.is_empty() {
        return;
    }
    // A cut word may stand for another cut one (`calen` for `calend`, said more often):
    // followed to the word that stands for itself.
    let mut resolved: HashMap<&str, &str> = HashMap::new();
    for word in whole.keys() {
        let mut full = word.as_str();
        for _ in 0..whole.len() {
            match whole.get(full) {
                Some(next) => full = next,
                None => break,
            }
        }
        resolved.insert(word, full);
    }
    for (_, words) in named.iter_mut() {
        for word in words.iter_mut() {
            if let Some(full) = resolved.get(word.as_str()) {
                *word = (*full).to_owned();
            }
        }
    }
}

/// A toolset's `tools` (listed names), split by their names into groups of at most
/// [`STRUCTURE_MAX`] where the names allow, when there are more than [`STRUCTURE_MAX`] (for
/// a `tagged` set: when its listing is over a page, each tool's line taking `page(name)`
/// characters); a group the names cannot divide further is cut into pieces of a page.
/// `None` when the set is small enough or its names do not tell its tools apart.
pub(crate) fn split(
    tools: &[String],
    tagged: bool,
    page: &dyn Fn(&str) -> usize,
) -> Option<Vec<Part>> {
    let small = if tagged {
        tools.iter().map(|t| page(t)).sum::<usize>() <= PAGE_BUDGET
    } else {
        tools.len() <= STRUCTURE_MAX
    };
    if small {
        return None;
    }
    let mut named: Vec<(String, Vec<String>)> = tools
        .iter()
        .map(|listed| (listed.clone(), resources(listed)))
        .collect();
    whole_words(&mut named);
    let mut out = Vec::new();
    divide(&named, 0, &[], &mut out);
    if out.len() < 2 {
        // Names that say nothing (`op_1` … `op_2500`): pieces of a page, in order, so that
        // every tool is still one load away.
        let pieces = by_page(
            Part {
                path: Vec::new(),
                tools: tools.to_vec(),
                description: None,
            },
            page,
        );
        return (pieces.len() >= 2).then_some(pieces);
    }
    Some(
        out.into_iter()
            .flat_map(|part| by_page(part, page))
            .collect(),
    )
}

/// `part` as it is when its listing fits a page; else cut into consecutive pieces that each
/// fit, the second and later titled `…-2`, `…-3`.
fn by_page(part: Part, page: &dyn Fn(&str) -> usize) -> Vec<Part> {
    let mut pieces: Vec<Vec<String>> = vec![Vec::new()];
    let mut used = 0;
    for tool in part.tools {
        let cost = page(&tool);
        if used + cost > PAGE_BUDGET && pieces.last().is_some_and(|p| !p.is_empty()) {
            pieces.push(Vec::new());
            used = 0;
        }
        used += cost;
        if let Some(piece) = pieces.last_mut() {
            piece.push(tool);
        }
    }
    if pieces.len() == 1 {
        return vec![Part {
            tools: pieces.remove(0),
            ..part
        }];
    }
    pieces
        .into_iter()
        .enumerate()
        .map(|(index, tools)| {
            let mut path = part.path.clone();
            match path.last_mut() {
                Some(last) if index > 0 => *last = format!("{last}-{}", index + 1),
                Some(_) => {}
                None => path.push(format!("part-{}", index + 1)),
            }
            Part {
                path,
                tools,
                description: part.description.clone(),
            }
        })
        .collect()
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
    // stay together here (a set of `op_1` … `op_2500`), and `split` cuts what is over a
    // page into consecutive pieces.
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
    fn words_cut_to_fit_a_name_join_the_word_they_begin() {
        // Graph's names, cut to 64 bytes as far as each had to.
        let mut named: Vec<(String, Vec<String>)> = [
            "me_calen_events_attachments_CreateUploadSession_abcdefghijklmno",
            "me_calend_events_instances_attachments_CreateUploadSession-12ab",
            "me_calendar_ListEvents",
            "me_calendar_GetCalendar",
            "me_contacts_ListContacts",
            "me_contactFolders_childFolders_contacts_extensions_GetExtension1",
            "me_cont_extensions_extension_properties_values_GetValuesOfOneMore",
        ]
        .iter()
        .map(|name| ((*name).to_owned(), resources(name)))
        .collect();
        whole_words(&mut named);
        let second: Vec<&str> = named.iter().map(|(_, w)| w[1].as_str()).collect();
        // `cont` begins `contact` and `content`-like words alike: the most said wins.
        assert_eq!(
            second,
            [
                "calendar", "calendar", "calendar", "calendar", "contact", "contact", "contact"
            ]
        );
        // A cut word said more often than the whole one leads on to it.
        let mut chained: Vec<(String, Vec<String>)> = [
            "me_calen_events_attachments_CreateUploadSession_abcdefghijklmnop",
            "me_calend_events_instances_attachments_CreateUploadSession-12ab",
            "me_calend_events_instances_attachments_CreateUploadSession-34cd",
            "me_calend_events_instances_attachments_CreateUploadSession-56ef",
            "me_calendar_ListEvents",
        ]
        .iter()
        .map(|name| ((*name).to_owned(), resources(name)))
        .collect();
        whole_words(&mut chained);
        assert!(
            chained.iter().all(|(_, w)| w[1] == "calendar"),
            "{chained:?}"
        );
        // A word a short name says is a word of its own.
        let mut kept: Vec<(String, Vec<String>)> = [
            "get_user",
            "get_username_history_abcdefghijklmnopqrstuvwxyz0123456789",
        ]
        .iter()
        .map(|name| ((*name).to_owned(), resources(name)))
        .collect();
        whole_words(&mut kept);
        assert_eq!(kept[0].1, ["user"]);
        assert_eq!(kept[1].1[0], "username");
    }

    /// A line of a page for a name: as long as a title of 40 characters makes it.
    fn line(name: &str) -> usize {
        name.len() + 46
    }

    #[test]
    fn small_sets_stay_whole() {
        let tools: Vec<String> = (0..STRUCTURE_MAX).map(|n| format!("GetThing{n}")).collect();
        assert_eq!(split(&tools, false, &line), None);
        let many: Vec<String> = (0..300).map(|n| format!("Get{n}Thing{}", n % 7)).collect();
        assert!(many.iter().map(|t| line(t)).sum::<usize>() <= PAGE_BUDGET);
        assert_eq!(
            split(&many, true, &line),
            None,
            "a tag's set that loads in one page stays whole"
        );
    }

    #[test]
    fn a_group_its_names_cannot_divide_is_cut_to_pages() {
        // One resource, 700 tools of long names: too much for a page, nothing to tell apart.
        let tools: Vec<String> = (0..700)
            .map(|n| format!("get_identityGovernance_entitlementManagement_assignment{n:03}"))
            .chain((0..10).map(|n| format!("get_other{n}")))
            .collect();
        let parts = split(&tools, true, &line).expect("split");
        assert!(parts.len() >= 4, "{}", parts.len());
        for part in &parts {
            let used: usize = part.tools.iter().map(|t| line(t)).sum();
            assert!(used <= PAGE_BUDGET, "{:?}: {used}", part.path);
        }
        let mut all: Vec<&String> = parts.iter().flat_map(|p| &p.tools).collect();
        all.sort();
        let mut expected: Vec<&String> = tools.iter().collect();
        expected.sort();
        assert_eq!(all, expected, "every tool once");
        let paths: std::collections::HashSet<Vec<String>> =
            parts.iter().map(|p| p.path.clone()).collect();
        assert_eq!(paths.len(), parts.len(), "each piece named apart");
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
        let sets = split(&tools, false, &line).unwrap();
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
        assert_eq!(split(&tools, false, &line).unwrap(), sets);
    }

    #[test]
    fn names_that_say_nothing_are_cut_to_pages_in_order() {
        let tools: Vec<String> = (0..2500).map(|n| format!("op_{n}")).collect();
        let parts = split(&tools, false, &line).expect("pages");
        let names: Vec<String> = parts.iter().map(|p| p.path.join(" ")).collect();
        assert_eq!(names[..2], ["part-1", "part-2"]);
        let again: Vec<&String> = parts.iter().flat_map(|p| &p.tools).collect();
        assert_eq!(
            again,
            tools.iter().collect::<Vec<_>>(),
            "in order, each once"
        );
        assert!(
            parts
                .iter()
                .all(|p| p.tools.iter().map(|t| line(t)).sum::<usize>() <= PAGE_BUDGET)
        );
        // Fewer than a page stays whole.
        assert_eq!(split(&tools[..200], true, &line), None);
    }
}
