//! The keys of the open objects of one call's arguments, in one table whose buffers are
//! reused from object to object and from call to call: no allocation per key or per
//! object once they have grown.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};

/// One key: its decoded bytes in [`Keys::bytes`], and the entry before it with the same
/// hash.
#[derive(Debug)]
struct Entry {
    hash: u64,
    end: usize,
    previous: Option<usize>,
}

/// The keys of the open objects, a stack: an object's keys are the entries from where it
/// opened ([`Keys::open`]) to the end, since an object nested in it closes (and its keys
/// go) before its own next key comes.
#[derive(Debug, Default)]
pub(super) struct Keys {
    bytes: Vec<u8>,
    entries: Vec<Entry>,
    /// The latest entry of each hash.
    latest: HashMap<u64, usize>,
    /// Seeded per table, so that colliding keys cannot be chosen in advance.
    state: RandomState,
}

impl Keys {
    /// An object opens: where its keys will start.
    pub(super) fn open(&self) -> usize {
        self.entries.len()
    }

    /// The object whose keys start at `from` closes: its keys go.
    pub(super) fn close(&mut self, from: usize) {
        while self.entries.len() > from {
            let Some(entry) = self.entries.pop() else {
                break;
            };
            match entry.previous {
                Some(previous) => self.latest.insert(entry.hash, previous),
                None => self.latest.remove(&entry.hash),
            };
        }
        let end = self.entries.last().map_or(0, |e| e.end);
        self.bytes.truncate(end);
    }

    /// Adds `key` to the object whose keys start at `from`; false when it has it already.
    pub(super) fn insert(&mut self, from: usize, key: &[u8]) -> bool {
        let hash = self.state.hash_one(key);
        let latest = self.latest.get(&hash).copied();
        let mut at = latest;
        while let Some(i) = at.filter(|&i| i >= from) {
            let start = i.checked_sub(1).map_or(0, |p| self.entries[p].end);
            if self.bytes[start..self.entries[i].end] == *key {
                return false;
            }
            at = self.entries[i].previous;
        }
        self.bytes.extend_from_slice(key);
        self.latest.insert(hash, self.entries.len());
        self.entries.push(Entry {
            hash,
            end: self.bytes.len(),
            previous: latest,
        });
        true
    }

    /// Forgets every key; false when the buffers are larger than `small` bytes (then not
    /// worth keeping).
    pub(super) fn clear(&mut self, small: usize) -> bool {
        self.bytes.clear();
        self.entries.clear();
        self.latest.clear();
        self.bytes.capacity() <= small && self.entries.capacity() <= small / 8
    }
}
