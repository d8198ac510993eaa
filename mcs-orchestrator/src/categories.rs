//! Categories: a level above toolsets, for when there are more toolsets than the first
//! prompt can name (Microsoft Graph's description has ~770 tags).
//!
//! Toolsets are sorted by their subject ([`Toolset::subject`]: the title, past the API's
//! title that sets of untagged tools lead with) and grouped by its first word
//! (`users.user`, `users.calendar` → `users`; `Graph: other tools: acceptance` →
//! `acceptance`), so that the API's title, which every such set shares, names no category.
//! A group with more than [`MAX_SETS`] toolsets is cut into
//! consecutive pieces, and when there are still more groups than the prompt can name,
//! neighbouring groups are merged. The same toolsets always give the same categories.
//!
//! [`Toolset::subject`]: crate::Toolset::subject

use std::collections::HashSet;

use crate::search::words;
use crate::toolsets::fragment;

/// The most toolsets one category lists (its listing stays well under 8,000 tokens).
pub(crate) const MAX_SETS: usize = 60;

/// A named group of toolsets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Category {
    /// `cat-users`, `cat-users-2`: ASCII letters, digits and `-`, never a toolset's id (those
    /// hold `_`).
    pub id: String,
    /// The first words of its toolsets' titles: `users`, or `acme, admin, …`.
    pub title: String,
    /// Its toolsets, by position in the catalog's list, in title order.
    pub sets: Vec<usize>,
}

/// The categories of toolsets whose subjects are `titles` (by position), at most
/// `max_categories` of them where [`MAX_SETS`] allows.
pub(crate) fn categorize(titles: &[&str], max_categories: usize) -> Vec<Category> {
    let mut order: Vec<usize> = (0..titles.len()).collect();
    order.sort_by_cached_key(|&set| (titles[set].to_lowercase(), set));
    // Runs of the same first word, each cut to MAX_SETS.
    let mut groups: Vec<(Vec<String>, Vec<usize>)> = Vec::new();
    for set in order {
        let key = words(titles[set])
            .into_iter()
            .next()
            .unwrap_or_else(|| "other".to_owned());
        match groups.last_mut() {
            Some((keys, sets)) if keys.last() == Some(&key) && sets.len() < MAX_SETS => {
                sets.push(set);
            }
            _ => groups.push((vec![key], vec![set])),
        }
    }
    // Too many to name: neighbours merged, smallest pair first, while the merge fits.
    while groups.len() > max_categories.max(1) {
        let best = (0..groups.len().saturating_sub(1))
            .filter(|&i| groups[i].1.len() + groups[i + 1].1.len() <= MAX_SETS)
            .min_by_key(|&i| groups[i].1.len() + groups[i + 1].1.len());
        let Some(i) = best else {
            break;
        };
        let (keys, sets) = groups.remove(i + 1);
        let merged = &mut groups[i];
        for key in keys {
            if merged.0.last() != Some(&key) {
                merged.0.push(key);
            }
        }
        merged.1.extend(sets);
    }
    let mut taken = HashSet::new();
    groups
        .into_iter()
        .map(|(keys, sets)| {
            let base = format!("cat-{}", fragment(&keys[0]));
            let mut id = base.clone();
            let mut n = 2;
            while !taken.insert(id.clone()) {
                id = format!("{base}-{n}");
                n += 1;
            }
            let shown: Vec<&str> = keys.iter().take(3).map(String::as_str).collect();
            let more = if keys.len() > 3 { ", …" } else { "" };
            Category {
                id,
                title: format!("{}{more}", shown.join(", ")),
                sets,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toolsets_are_grouped_by_the_first_word_of_their_titles() {
        let titles = [
            "users.user",
            "groups.group",
            "users.calendar",
            "me.drive",
            "groups.team",
        ];
        let categories = categorize(&titles, 10);
        let named: Vec<(&str, &str, Vec<usize>)> = categories
            .iter()
            .map(|c| (c.id.as_str(), c.title.as_str(), c.sets.clone()))
            .collect();
        assert_eq!(
            named,
            [
                ("cat-groups", "groups", vec![1, 4]),
                ("cat-me", "me", vec![3]),
                ("cat-users", "users", vec![2, 0]),
            ]
        );
    }

    #[test]
    fn large_groups_are_cut_and_many_groups_merged() {
        let titles: Vec<String> = (0..150)
            .map(|n| format!("users.thing{n:03}"))
            .chain((0..200).map(|n| format!("w{n:03}.x")))
            .collect();
        let refs: Vec<&str> = titles.iter().map(String::as_str).collect();
        let categories = categorize(&refs, 20);
        assert!(categories.len() <= 20, "{}", categories.len());
        assert!(categories.iter().all(|c| c.sets.len() <= MAX_SETS));
        let mut all: Vec<usize> = categories.iter().flat_map(|c| c.sets.clone()).collect();
        all.sort_unstable();
        assert_eq!(all, (0..350).collect::<Vec<_>>(), "every toolset once");
        let ids: HashSet<&str> = categories.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids.len(), categories.len());
        assert!(ids.contains("cat-users") && ids.contains("cat-users-2"));
    }
}
