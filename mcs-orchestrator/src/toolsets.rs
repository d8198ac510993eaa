//! Toolsets: named groups of an orchestrator's tools, by tag or all in one, and split further
//! by a model when a group is too large.
//!
//! A toolset's id is `source_tag` (`shop_orders`), `source_all` for a driver grouped all in
//! one, `source_other` for a driver's untagged tools when the others are grouped by tag, and
//! `source_tag_group` for the groups a model split a large set into. Ids keep ASCII letters,
//! digits and `-`, and are unique within an orchestrator.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use serde::Serialize;
use serde_json::{Value, json};

use mcs_core::Tool;
use mcs_llm::LlmError;

/// A named group of an orchestrator's tools (see [`Orchestrator::toolsets`]).
///
/// [`Orchestrator::toolsets`]: super::Orchestrator::toolsets
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Toolset {
    id: String,
    title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    source: String,
    tools: Vec<String>,
    /// Where its subject starts in `title` (see [`Toolset::subject`]).
    #[serde(skip)]
    subject: usize,
}

impl Toolset {
    /// The toolset for one part of this one, split by its tools' names
    /// (`source_all_instance`, titled `EC2: instance`); `tagged` when this one is a tag's,
    /// whose name stays part of the subject (`me.Actions: me calendar`).
    fn part(&self, part: crate::structure::Part, tagged: bool) -> Toolset {
        let key: Vec<String> = part.path.iter().map(|word| fragment(word)).collect();
        let title = format!("{}: {}", self.title, part.path.join(" "));
        Toolset {
            id: format!("{}_{}", self.id, key.join("-")),
            subject: if tagged { 0 } else { self.title.len() + 2 },
            title,
            description: part.description,
            source: self.source.clone(),
            tools: part.tools,
        }
    }

    /// What its title says of its tools: the title, past the API's title that a set of
    /// untagged tools leads with (`Graph: other tools: acceptance` → `acceptance`,
    /// `EC2: instance` → `instance`), which every such set shares.
    pub(crate) fn subject(&self) -> &str {
        self.title.get(self.subject..).unwrap_or(&self.title)
    }

    /// The id: `source_tag`, `source_all`, `source_other` or `source_tag_group`; a set split
    /// by its tools' names adds the resource words (`source_all_instance`).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The tag, the group's name, or what the driver is called.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// What the toolset is for: the description its driver gives the tag (an OpenAPI
    /// document's `tags[].description`), or what a model said when it split the set.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The label of the driver the tools come from.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The tools, by the names the orchestrator lists them under.
    pub fn tools(&self) -> &[String] {
        &self.tools
    }
}

/// How one registered driver's tools are grouped into toolsets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Grouping {
    /// By tag when any of the driver's tools has a tag, otherwise all in one.
    #[default]
    Auto,
    /// One toolset per tag (a tool goes with its first tag); untagged tools in
    /// `source_other`.
    ByTag,
    /// One toolset, `source_all`, for all the driver's tools.
    AllInOne,
}

/// One tool as grouping sees it: the name it is listed under, its tags, and what its line
/// takes of a page of names and titles.
pub(super) struct Entry<'a> {
    pub listed: &'a str,
    pub tags: Vec<String>,
    pub page: usize,
}

/// One group of a split a model proposed and validation accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Group {
    pub name: String,
    pub description: Option<String>,
    pub tools: Vec<String>,
}

/// The accepted splits of one driver's toolsets. A split applies to the set whose tools it
/// partitions (not to an id, which may change when other drivers come and go).
pub(super) type Splits = Vec<Vec<Group>>;

/// The toolsets of the driver registered as `source` (`title` is what the driver calls
/// itself), ids not yet unique across drivers; a tag's set is described by
/// `describe(tag)`. A split replaces the set whose tools it partitions exactly; a set whose
/// tools changed since it was split stays whole.
pub(super) fn group(
    source: &str,
    title: &str,
    grouping: &Grouping,
    entries: &[Entry<'_>],
    splits: &Splits,
    describe: &dyn Fn(&str) -> Option<String>,
) -> Vec<Toolset> {
    let by_tag = match grouping {
        Grouping::ByTag => true,
        Grouping::AllInOne => false,
        Grouping::Auto => entries.iter().any(|e| !e.tags.is_empty()),
    };
    let mut sets: Vec<Toolset> = Vec::new();
    // Whether each set is a tag's (a grouping the document chose) or not.
    let mut tagged: Vec<bool> = Vec::new();
    let mut position: HashMap<String, usize> = HashMap::new();
    for entry in entries {
        let (key, set_title, tag, subject) = match (by_tag, entry.tags.first()) {
            (false, _) => ("all".to_owned(), title.to_owned(), None, 0),
            (true, Some(tag)) => (fragment(tag), tag.clone(), Some(tag), 0),
            (true, None) => (
                "other".to_owned(),
                format!("{title}: other tools"),
                None,
                title.len() + 2,
            ),
        };
        let index = *position.entry(key.clone()).or_insert_with(|| {
            sets.push(Toolset {
                id: format!("{source}_{key}"),
                subject,
                title: set_title,
                description: tag.and_then(|tag| describe(tag)),
                source: source.to_owned(),
                tools: Vec::new(),
            });
            tagged.push(tag.is_some());
            sets.len() - 1
        });
        sets[index].tools.push(entry.listed.to_owned());
    }
    let page: HashMap<&str, usize> = entries.iter().map(|e| (e.listed, e.page)).collect();
    let page_of = |listed: &str| page.get(listed).copied().unwrap_or(0);
    let mut out = Vec::with_capacity(sets.len());
    for (set, tagged) in sets.into_iter().zip(tagged) {
        match splits.iter().find(|groups| partitions(groups, &set.tools)) {
            Some(groups) => {
                out.extend(groups.iter().map(|group| Toolset {
                    id: format!("{}_{}", set.id, fragment(&group.name)),
                    subject: 0,
                    title: group.name.clone(),
                    description: group.description.clone(),
                    source: set.source.clone(),
                    tools: group.tools.clone(),
                }));
            }
            // Too large to browse, and no model split it: grouped by the tools' names.
            _ => match crate::structure::split(&set.tools, tagged, &page_of) {
                Some(parts) => out.extend(parts.into_iter().map(|part| set.part(part, tagged))),
                None => out.push(set),
            },
        }
    }
    out
}

/// Makes every id in `sets` unique, in order: a repeated id gets `_2`, `_3`, ….
pub(super) fn make_unique(sets: &mut [Toolset]) {
    let mut taken: HashSet<String> = HashSet::new();
    for set in sets {
        if !taken.insert(set.id.clone()) {
            let mut n = 2;
            while taken.contains(&format!("{}_{n}", set.id)) {
                n += 1;
            }
            set.id = format!("{}_{n}", set.id);
            taken.insert(set.id.clone());
        }
    }
}

/// A tag or group name as part of an id: ASCII letters, digits and `-`, other runs of
/// characters as one `-`; `tag` if nothing is left.
pub(super) fn fragment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let trimmed = out.trim_matches('-');
    if trimmed.is_empty() {
        "tag".to_owned()
    } else {
        trimmed.chars().take(40).collect()
    }
}

/// Whether `groups` hold each of `tools` exactly once and nothing else.
fn partitions(groups: &[Group], tools: &[String]) -> bool {
    let mut seen: HashSet<&str> = HashSet::new();
    let wanted: HashSet<&str> = tools.iter().map(String::as_str).collect();
    for tool in groups.iter().flat_map(|g| &g.tools) {
        if !wanted.contains(tool.as_str()) || !seen.insert(tool) {
            return false;
        }
    }
    seen.len() == wanted.len()
}

/// Why a model's split of a toolset was not used (the toolset stays whole).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SplitError {
    /// The model could not be asked.
    #[error("the model could not be asked: {0}")]
    Model(#[from] LlmError),
    /// The answer holds no JSON object of the shape asked for.
    #[error("the model's answer is not the JSON asked for: {0}")]
    Unreadable(String),
    /// The answer is JSON, but not a grouping of the toolset's tools.
    #[error("the model's grouping was refused: {0}")]
    Invalid(String),
}

/// What became of one oversized toolset when a model was asked to split it.
#[derive(Debug)]
pub struct SplitOutcome {
    /// The toolset that was too large.
    pub toolset: String,
    /// The ids of the toolsets it was split into, or why it stays whole.
    pub result: Result<Vec<String>, SplitError>,
}

/// The conversation that asks a model to split `set` (whose tools are `tools`) into groups
/// of at most `max` tools.
pub(super) fn split_request(set: &Toolset, tools: &[&Tool], max: usize) -> Vec<Value> {
    let mut listing = String::new();
    for tool in tools {
        let _ = writeln!(listing, "- {}: {}", tool.name(), tool.label());
    }
    let wanted = tools.len().div_ceil(max).max(2);
    vec![
        json!({
            "role": "system",
            "content": "You organise the tools of an API into coherent groups for an AI agent. \
                        Answer with one JSON object and nothing else."
        }),
        json!({
            "role": "user",
            "content": format!(
                "The toolset `{}` ({}) has {} tools, too many for one group. Split them into \
                 about {wanted} groups of related tools, each with at most {max} tools. Every \
                 tool must be in exactly one group; use the names exactly as listed.\n\n\
                 Answer as: {{\"groups\": [{{\"name\": \"ShortCamelCaseName\", \
                 \"description\": \"what the group is for\", \"tools\": [\"tool_name\", ...]}}]}}\n\n\
                 Tools:\n{listing}",
                set.id,
                set.title,
                tools.len(),
            )
        }),
    ]
}

/// The groups in a model's `answer` to [`split_request`], if they split `set` into groups of
/// at most `max` tools, each tool exactly once.
pub(super) fn read_split(
    answer: &str,
    set: &Toolset,
    max: usize,
) -> Result<Vec<Group>, SplitError> {
    let value = json_object(answer)?;
    let Some(groups) = value.get("groups").and_then(Value::as_array) else {
        return Err(SplitError::Unreadable(
            "no `groups` array in the answer".to_owned(),
        ));
    };
    if groups.len() < 2 {
        return Err(SplitError::Invalid(format!(
            "{} group(s): a split needs at least two",
            groups.len()
        )));
    }
    let wanted: HashSet<&str> = set.tools.iter().map(String::as_str).collect();
    let mut seen: HashMap<String, String> = HashMap::new();
    let mut names: HashSet<String> = HashSet::new();
    let mut out = Vec::with_capacity(groups.len());
    for (i, group) in groups.iter().enumerate() {
        let name = group
            .get("name")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .ok_or_else(|| SplitError::Invalid(format!("group {} has no name", i + 1)))?;
        if !names.insert(fragment(name)) {
            return Err(SplitError::Invalid(format!(
                "two groups are called `{name}`"
            )));
        }
        let tools = group
            .get("tools")
            .and_then(Value::as_array)
            .ok_or_else(|| SplitError::Invalid(format!("group `{name}` has no `tools` array")))?;
        if tools.is_empty() || tools.len() > max {
            return Err(SplitError::Invalid(format!(
                "group `{name}` has {} tools; a group needs 1 to {max}",
                tools.len()
            )));
        }
        let mut members = Vec::with_capacity(tools.len());
        for tool in tools {
            let tool = tool.as_str().ok_or_else(|| {
                SplitError::Invalid(format!("group `{name}` lists {tool}, which is not a name"))
            })?;
            if !wanted.contains(tool) {
                return Err(SplitError::Invalid(format!(
                    "group `{name}` lists `{tool}`, which is not in `{}`",
                    set.id
                )));
            }
            if let Some(first) = seen.insert(tool.to_owned(), name.to_owned()) {
                return Err(SplitError::Invalid(format!(
                    "`{tool}` is in both `{first}` and `{name}`"
                )));
            }
            members.push(tool.to_owned());
        }
        out.push(Group {
            name: name.to_owned(),
            description: group
                .get("description")
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|d| !d.is_empty())
                .map(str::to_owned),
            tools: members,
        });
    }
    let missing: Vec<&str> = set
        .tools
        .iter()
        .map(String::as_str)
        .filter(|t| !seen.contains_key(*t))
        .collect();
    if !missing.is_empty() {
        return Err(SplitError::Invalid(format!(
            "{} tool(s) in no group: {}",
            missing.len(),
            missing.join(", ")
        )));
    }
    Ok(out)
}

/// The JSON object in a model's answer: the whole text, or the span from its first `{` to
/// its last `}` (models wrap JSON in prose or code fences).
fn json_object(answer: &str) -> Result<Value, SplitError> {
    if let Ok(value @ Value::Object(_)) = serde_json::from_str::<Value>(answer.trim()) {
        return Ok(value);
    }
    let (Some(start), Some(end)) = (answer.find('{'), answer.rfind('}')) else {
        return Err(SplitError::Unreadable(
            "no JSON object in the answer".to_owned(),
        ));
    };
    if end < start {
        return Err(SplitError::Unreadable(
            "no JSON object in the answer".to_owned(),
        ));
    }
    serde_json::from_str::<Value>(&answer[start..=end])
        .map_err(|error| SplitError::Unreadable(error.to_string()))
        .and_then(|value| match value {
            Value::Object(_) => Ok(value),
            _ => Err(SplitError::Unreadable(
                "the JSON is not an object".to_owned(),
            )),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries<'a>(tools: &'a [(&'a str, &'a [&'a str])]) -> Vec<Entry<'a>> {
        tools
            .iter()
            .map(|(listed, tags)| Entry {
                listed,
                tags: tags.iter().map(|t| (*t).to_owned()).collect(),
                page: listed.len() + 40,
            })
            .collect()
    }

    #[test]
    fn auto_groups_by_first_tag_and_keeps_untagged_apart() {
        let tools: &[(&str, &[&str])] = &[
            ("list_pets", &["pets"]),
            ("place_order", &["store", "pets"]),
            ("ping", &[]),
            ("add_pet", &["pets"]),
        ];
        let describe = |tag: &str| (tag == "pets").then(|| "Pets for sale".to_owned());
        let sets = group(
            "shop",
            "Shop",
            &Grouping::Auto,
            &entries(tools),
            &Splits::new(),
            &describe,
        );
        let ids: Vec<(&str, &[String])> = sets.iter().map(|s| (s.id(), s.tools())).collect();
        assert_eq!(ids.len(), 3);
        assert_eq!(ids[0].0, "shop_pets");
        assert_eq!(ids[0].1, ["list_pets", "add_pet"]);
        assert_eq!(ids[1].0, "shop_store");
        assert_eq!(ids[2].0, "shop_other");
        assert_eq!(ids[2].1, ["ping"]);
        let descriptions: Vec<Option<&str>> = sets.iter().map(Toolset::description).collect();
        assert_eq!(descriptions, [Some("Pets for sale"), None, None]);
    }

    #[test]
    fn a_split_set_s_subject_drops_the_api_s_title_but_not_a_tag() {
        // 75 untagged tools (split by name, titled after the API) and 600 of one large tag
        // (split by name, titled after the tag).
        let names: Vec<(String, &[&str])> = ["instance", "volume", "snapshot"]
            .iter()
            .flat_map(|thing| (0..25).map(move |n| format!("get_{thing}_{n}")))
            .map(|name| (name, &[][..]))
            .chain(
                ["calendar", "event", "contact"]
                    .iter()
                    .flat_map(|thing| (0..200).map(move |n| format!("me_{thing}_x{n}")))
                    .map(|name| (name, &["me.Actions"][..])),
            )
            .collect();
        let tools: Vec<(&str, &[&str])> = names.iter().map(|(n, t)| (n.as_str(), *t)).collect();
        let sets = group(
            "g",
            "Graph",
            &Grouping::Auto,
            &entries(&tools),
            &Splits::new(),
            &|_| None,
        );
        let subjects: Vec<(&str, &str)> = sets.iter().map(|s| (s.title(), s.subject())).collect();
        assert!(
            subjects.contains(&("Graph: other tools: instance", "instance")),
            "{subjects:?}"
        );
        assert!(
            subjects
                .iter()
                .any(|(title, subject)| title.starts_with("me.Actions: ") && title == subject),
            "{subjects:?}"
        );
        // Unsplit: a tag's title is its subject; the untagged rest are `other tools`.
        let small: &[(&str, &[&str])] = &[("list_pets", &["pets"]), ("ping", &[])];
        let sets = group(
            "s",
            "Shop",
            &Grouping::Auto,
            &entries(small),
            &Splits::new(),
            &|_| None,
        );
        let subjects: Vec<&str> = sets.iter().map(Toolset::subject).collect();
        assert_eq!(subjects, ["pets", "other tools"]);
    }

    #[test]
    fn all_in_one_ignores_tags() {
        let tools: &[(&str, &[&str])] = &[("a", &["x"]), ("b", &["y"])];
        let sets = group(
            "s",
            "S",
            &Grouping::AllInOne,
            &entries(tools),
            &Splits::new(),
            &|_| None,
        );
        assert_eq!(sets.len(), 1);
        assert_eq!(sets[0].id(), "s_all");
        assert_eq!(sets[0].title(), "S");
    }

    #[test]
    fn fragments_keep_ids_plain() {
        assert_eq!(fragment("admin.conversations"), "admin-conversations");
        assert_eq!(fragment("  Pets & Owners "), "Pets-Owners");
        assert_eq!(fragment("日本"), "tag");
        let mut sets = [
            group(
                "a",
                "A",
                &Grouping::ByTag,
                &entries(&[("t", &["x.y"])]),
                &Splits::new(),
                &|_| None,
            ),
            group(
                "a",
                "A",
                &Grouping::ByTag,
                &entries(&[("u", &["x-y"])]),
                &Splits::new(),
                &|_| None,
            ),
        ]
        .concat();
        make_unique(&mut sets);
        assert_eq!(sets[0].id(), "a_x-y");
        assert_eq!(sets[1].id(), "a_x-y_2");
    }

    fn set(tools: &[&str]) -> Toolset {
        Toolset {
            id: "s_all".into(),
            subject: 0,
            title: "S".into(),
            description: None,
            source: "s".into(),
            tools: tools.iter().map(|t| (*t).to_owned()).collect(),
        }
    }

    #[test]
    fn a_valid_split_is_read_from_prose_and_fences() {
        let answer = "Here you go:\n```json\n{\"groups\": [\
            {\"name\": \"Reading\", \"description\": \"look\", \"tools\": [\"a\", \"b\"]},\
            {\"name\": \"Writing\", \"tools\": [\"c\"]}]}\n```";
        let groups = read_split(answer, &set(&["a", "b", "c"]), 2).unwrap();
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].description.as_deref(), Some("look"));
        assert_eq!(groups[1].tools, ["c"]);
    }

    #[test]
    fn invalid_splits_say_what_is_wrong() {
        let s = set(&["a", "b", "c"]);
        let cases = [
            ("no json at all", "no JSON object"),
            ("{\"sets\": []}", "no `groups`"),
            (
                "{\"groups\": [{\"name\": \"A\", \"tools\": [\"a\",\"b\",\"c\"]}]}",
                "at least two",
            ),
            (
                "{\"groups\": [{\"name\": \"A\", \"tools\": [\"a\"]}, {\"name\": \"B\", \"tools\": [\"b\", \"z\"]}]}",
                "`z`, which is not in `s_all`",
            ),
            (
                "{\"groups\": [{\"name\": \"A\", \"tools\": [\"a\", \"b\"]}, {\"name\": \"B\", \"tools\": [\"b\", \"c\"]}]}",
                "`b` is in both `A` and `B`",
            ),
            (
                "{\"groups\": [{\"name\": \"A\", \"tools\": [\"a\"]}, {\"name\": \"B\", \"tools\": [\"b\"]}]}",
                "1 tool(s) in no group: c",
            ),
            (
                "{\"groups\": [{\"name\": \"A\", \"tools\": [\"a\"]}, {\"tools\": [\"b\", \"c\"]}]}",
                "group 2 has no name",
            ),
            (
                "{\"groups\": [{\"name\": \"A\", \"tools\": [\"a\"]}, {\"name\": \"a\", \"tools\": [\"b\", \"c\"]}]}",
                "",
            ),
            (
                "{\"groups\": [{\"name\": \"A\", \"tools\": [\"a\", \"b\", \"c\"]}, {\"name\": \"B\", \"tools\": []}]}",
                "a group needs 1 to 2",
            ),
            (
                "{\"groups\": [{\"name\": \"A\", \"tools\": [\"a\", 7]}, {\"name\": \"B\", \"tools\": [\"b\", \"c\"]}]}",
                "lists 7, which is not a name",
            ),
        ];
        for (answer, wanted) in cases {
            match read_split(answer, &s, 2) {
                Err(error) => assert!(
                    error.to_string().contains(wanted),
                    "{answer}: {error} lacks {wanted:?}"
                ),
                // Names differing only in case are distinct groups.
                Ok(groups) => assert_eq!(wanted, "", "{answer} was accepted: {groups:?}"),
            }
        }
    }

    #[test]
    fn a_stored_split_applies_only_while_it_matches() {
        let tools: &[(&str, &[&str])] = &[("a", &[]), ("b", &[]), ("c", &[])];
        let groups = vec![
            Group {
                name: "Read stuff".into(),
                description: Some("reading".into()),
                tools: vec!["a".into(), "b".into()],
            },
            Group {
                name: "Write".into(),
                description: None,
                tools: vec!["c".into()],
            },
        ];
        let splits: Splits = vec![groups];
        let sets = group(
            "s",
            "S",
            &Grouping::AllInOne,
            &entries(tools),
            &splits,
            &|_| None,
        );
        let ids: Vec<&str> = sets.iter().map(Toolset::id).collect();
        assert_eq!(ids, ["s_all_Read-stuff", "s_all_Write"]);
        assert_eq!(sets[0].description(), Some("reading"));
        // A tool was added since: the split no longer covers the set, which stays whole.
        let more: &[(&str, &[&str])] = &[("a", &[]), ("b", &[]), ("c", &[]), ("d", &[])];
        let sets = group(
            "s",
            "S",
            &Grouping::AllInOne,
            &entries(more),
            &splits,
            &|_| None,
        );
        assert_eq!(sets.len(), 1);
        assert_eq!(sets[0].tools().len(), 4);
    }
}
