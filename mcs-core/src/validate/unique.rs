//! `uniqueItems`: finding the items of an array that repeat an earlier one, by the equality
//! `enum` and `const` use too.
//!
//! Comparing every pair costs n² for an array a model may make as long as it likes; items
//! are grouped by a fingerprint first, and only items with the same fingerprint are compared.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher, RandomState};

use serde_json::Value;

/// JSON equality with numbers compared by value (`1` and `1.0` are the same number).
pub(super) fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x == y || (x.as_f64().is_some() && x.as_f64() == y.as_f64())
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_value(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, x)| y.get(key).is_some_and(|y| same_value(x, y)))
        }
        _ => a == b,
    }
}

/// How deep a fingerprint looks into nested items. Deeper parts do not change it; equal
/// items still share one, and [`same_value`] compares them in full.
const FINGERPRINT_DEPTH: usize = 16;

/// Each item equal to an earlier one, with the index of the first such item:
/// `(repeat, first)`, in the order of the repeats.
pub(super) fn repeats(items: &[Value]) -> Vec<(usize, usize)> {
    // Seeded per call, so items crafted to share a fingerprint cannot be prepared in advance.
    let seed = RandomState::new();
    let mut firsts: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut found = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let mut hasher = seed.build_hasher();
        fingerprint(item, &seed, 0, &mut hasher);
        let group = firsts.entry(hasher.finish()).or_default();
        match group.iter().find(|first| same_value(&items[**first], item)) {
            Some(first) => found.push((index, *first)),
            None => group.push(index),
        }
    }
    found
}

/// Feeds `value` to `hasher` so that values [`same_value`] calls equal hash alike: numbers by
/// their value as `f64` (`1` and `1.0`), object members in any order.
fn fingerprint(value: &Value, seed: &RandomState, depth: usize, hasher: &mut impl Hasher) {
    std::mem::discriminant(value).hash(hasher);
    if depth > FINGERPRINT_DEPTH {
        return;
    }
    match value {
        Value::Null => {}
        Value::Bool(flag) => flag.hash(hasher),
        // `0.0 + x` turns -0.0, which equals 0.0, into 0.0.
        Value::Number(number) => number.as_f64().map(|x| (0.0 + x).to_bits()).hash(hasher),
        Value::String(text) => text.hash(hasher),
        Value::Array(items) => {
            items.len().hash(hasher);
            for item in items {
                fingerprint(item, seed, depth + 1, hasher);
            }
        }
        Value::Object(members) => {
            members.len().hash(hasher);
            // A sum of the members' own fingerprints does not depend on their order.
            let sum = members.iter().fold(0u64, |sum, (name, member)| {
                let mut own = seed.build_hasher();
                name.hash(&mut own);
                fingerprint(member, seed, depth + 1, &mut own);
                sum.wrapping_add(own.finish())
            });
            sum.hash(hasher);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn equal_items_are_found_whatever_their_spelling() {
        let items = [
            json!({"a": 1, "b": [1.0, -0.0]}),
            json!(2),
            json!({"b": [1, 0], "a": 1.0}),
            json!(2.0),
            json!(2),
        ];
        assert_eq!(repeats(&items), [(2, 0), (3, 1), (4, 1)]);
    }

    #[test]
    fn distinct_items_are_not_repeats() {
        let items = [
            json!(1),
            json!("1"),
            json!([1]),
            json!({"1": 1}),
            json!(null),
            json!(false),
        ];
        assert!(repeats(&items).is_empty());
    }
}
