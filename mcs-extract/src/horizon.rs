//! Where a text that may still grow ends, and whether a reader looked there.
//!
//! Streaming hands the format readers a prefix of the output. A reader's result holds for
//! every continuation of that prefix exactly when the reader never looked at its end: the
//! readers only see the text through the primitives of `scan` and `json`, and each of them
//! reports here when it ran into the end of a text that ends at the horizon (a search that
//! found nothing up to it, a look-ahead that needed more bytes, a JSON value still open).
//! The streaming reader then keeps the result back and reads again once more text came;
//! one that did not look is final, and what it recorded is what the batch path records for
//! the whole output. Which needles a reader was searching for when it ran out says when a
//! retry can first give something new.
//!
//! The batch path sets no horizon: reaching the end of the text is then just the end.
//!
//! Texts are told apart by address: a slice of the output that ends where the output ends
//! (so far) ends at the horizon; one that ends earlier, or a string built from pieces of
//! it, does not.

use std::cell::{Cell, RefCell};

thread_local! {
    /// The addresses of the first byte of the open-ended text and one past its last; 0
    /// when there is none.
    static END: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
    /// How many times a primitive ran into a horizon on this thread.
    static REACHED: Cell<u64> = const { Cell::new(0) };
    /// The needles searches were looking for when they ran into the horizon.
    static NEEDLES: RefCell<Needles> = const { RefCell::new(Needles::NONE) };
    /// Whether a primitive ran into the horizon without a needle to wait for.
    static ANY: Cell<bool> = const { Cell::new(false) };
    /// The address of the first byte of the outermost JSON value that was still open at
    /// the horizon; 0 when none was.
    static JSON: Cell<usize> = const { Cell::new(0) };
}

/// A needle a search waited for, kept inline: reads are retried on every piece of a
/// stream, and keeping what they wait for must not allocate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Needle {
    len: u8,
    bytes: [u8; Needle::MAX],
}

impl Needle {
    /// Longer needles are not kept: waiting for one is waiting for anything.
    const MAX: usize = 32;

    fn new(needle: &[u8]) -> Option<Self> {
        let len = u8::try_from(needle.len())
            .ok()
            .filter(|len| usize::from(*len) <= Self::MAX)?;
        let mut bytes = [0; Self::MAX];
        bytes[..needle.len()].copy_from_slice(needle);
        Some(Needle { len, bytes })
    }

    /// The needle's bytes.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

/// The needles a read waited for, at most [`Needles::CAPACITY`] of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Needles {
    count: usize,
    items: [Needle; Needles::CAPACITY],
}

impl Needles {
    const CAPACITY: usize = 4;
    const NONE: Needles = Needles {
        count: 0,
        items: [Needle {
            len: 0,
            bytes: [0; Needle::MAX],
        }; Needles::CAPACITY],
    };

    /// Keeps `needle`; `false` when it cannot (too long, or too many).
    fn add(&mut self, needle: &[u8]) -> bool {
        if self.iter().any(|known| known.as_bytes() == needle) {
            return true;
        }
        match (Needle::new(needle), self.items.get_mut(self.count)) {
            (Some(needle), Some(slot)) => {
                *slot = needle;
                self.count += 1;
                true
            }
            _ => false,
        }
    }

    /// The needles kept.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Needle> {
        self.items[..self.count].iter()
    }
}

impl Default for Needles {
    fn default() -> Self {
        Needles::NONE
    }
}

/// What a read that ran into the horizon waits for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Waits {
    /// Any further byte may change the result (a look-ahead ran out, a value is open).
    pub any: bool,
    /// Nothing changes until one of these appears (a search for a closing tag found none).
    pub needles: Needles,
    /// Where a JSON value starts that was still open at the horizon: little can change
    /// before it closes.
    pub json: Option<usize>,
}

/// Sets the horizon at the end of `text` until the guard is dropped.
///
/// Guards nest: an inner one (a gap read as ending where a call may begin) hides what
/// the reads under the outer one waited for until it is dropped.
pub(crate) fn open(text: &str) -> Guard {
    let previous = END.with(|end| end.replace(addresses(text)));
    let any = ANY.with(|any| any.replace(false));
    let json = JSON.with(|json| json.replace(0));
    let needles = NEEDLES.with(|needles| needles.replace(Needles::NONE));
    Guard {
        previous,
        start: touches(),
        outer: (any, json, needles),
    }
}

/// Restores the horizon that was set before [`open`].
pub(crate) struct Guard {
    previous: (usize, usize),
    /// [`touches`] when the guard was opened or last reset.
    start: u64,
    /// What the reads under the outer guard waited for.
    outer: (bool, usize, Needles),
}

impl Guard {
    /// What the reads since [`open`] (or [`reset`](Self::reset)) wait for, or `None` when
    /// none ran into the horizon: their results are final.
    pub(crate) fn waits(&self) -> Option<Waits> {
        if touches() == self.start {
            return None;
        }
        let json = JSON.with(Cell::get);
        Some(Waits {
            any: ANY.with(Cell::get),
            needles: NEEDLES.with(|needles| *needles.borrow()),
            json: (json != 0).then(|| json.saturating_sub(self.text_start())),
        })
    }
}

/// How many times, on this thread, a primitive ran into a horizon: a read whose count did
/// not change in between did not look past it.
pub(crate) fn touches() -> u64 {
    REACHED.with(Cell::get)
}

fn touch() {
    REACHED.with(|reached| reached.set(reached.get() + 1));
}

impl Guard {
    /// The address of the first byte of the text this guard's horizon is the end of.
    fn text_start(&self) -> usize {
        END.with(Cell::get).0
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        END.with(|end| end.set(self.previous));
        let (any, json, needles) = self.outer;
        ANY.with(|cell| cell.set(any));
        JSON.with(|cell| cell.set(json));
        NEEDLES.with(|cell| *cell.borrow_mut() = needles);
    }
}

/// A JSON value that starts at byte `start` of `text` was read up to the horizon and is
/// still open there.
pub(crate) fn json_open(text: &str, start: usize) {
    let at = text.as_ptr() as usize + start;
    JSON.with(|json| {
        if json.get() == 0 || at < json.get() {
            json.set(at);
        }
    });
}

fn addresses(text: &str) -> (usize, usize) {
    let start = text.as_ptr() as usize;
    (start, start + text.len())
}

/// Whether `text` up to byte `limit` reaches the horizon: `text` is part of the
/// open-ended text and ends where it does.
#[inline]
fn at_horizon(text: &str, limit: usize) -> bool {
    let (start, end) = END.with(Cell::get);
    let at = text.as_ptr() as usize;
    end != 0 && at >= start && at <= end && at + limit.min(text.len()) >= end
}

/// A primitive examined `text` up to byte `limit` and would have looked further: if that is
/// the horizon, any byte after it may change what it found.
#[inline]
pub(crate) fn reached(text: &str, limit: usize) {
    if at_horizon(text, limit) {
        touch();
        ANY.with(|any| any.set(true));
    }
}

/// A search for `needle` in `text` up to byte `limit` found none: if that is the horizon,
/// its result changes only once `needle` appears.
#[inline]
pub(crate) fn searched(text: &str, limit: usize, needle: &[u8]) {
    if at_horizon(text, limit) {
        touch();
        let kept = NEEDLES.with(|needles| needles.borrow_mut().add(needle));
        if !kept {
            ANY.with(|any| any.set(true));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_slices_that_end_at_the_horizon_reach_it() {
        let text = "abc<tool";
        let guard = open(text);
        reached(&text[..3], 3);
        assert_eq!(guard.waits(), None);
        searched(text, 5, b"x");
        assert_eq!(guard.waits(), None);
        searched(text, text.len(), b"</tool_call>");
        searched(&text[2..], 6, b"</tool_call>");
        let waits = guard.waits().unwrap();
        assert!(!waits.any);
        let needles: Vec<&[u8]> = waits.needles.iter().map(Needle::as_bytes).collect();
        assert_eq!(needles, [b"</tool_call>".as_slice()]);
        assert_eq!(waits.json, None);
        drop(guard);
        let guard = open(text);
        let built = String::from(text);
        reached(&built, built.len());
        assert_eq!(guard.waits(), None);
        reached(text, 100);
        assert!(guard.waits().unwrap().any);
        drop(guard);
        reached(text, text.len());
    }
}
