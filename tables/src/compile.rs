//! Compiling a mode's delimiters into a dense, premultiplied DFA.
//!
//! aho-corasick has no serialization API, so the generator builds its `dfa::DFA` and
//! walks it breadth-first through the public `Automaton` trait, then re-numbers the
//! states and re-derives byte classes for a table of its own.

use std::collections::{HashMap, VecDeque};

use aho_corasick::automaton::{Automaton, StateID};
use aho_corasick::dfa::DFA;
use aho_corasick::{Anchored, MatchKind, StartKind};

use crate::knobs::Knobs;
use crate::spec::{module_name, parse, DialectSpec, ModeSpec};
use crate::TableError;

/// One dialect, compiled: a DFA per mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompiledDialect {
    /// The table file it came from (`tables/hermes.toml`).
    pub file_name: String,
    /// The dialect name (`hermes`).
    pub name: String,
    /// The Rust module it is emitted as (`-` replaced by `_`).
    pub module: String,
    /// The documented origin of the format.
    pub source: String,
    /// The dialect's own delimiters are single special tokens of the model's vocabulary.
    pub special_tokens: bool,
    /// The modes, sorted by name.
    pub modes: Vec<CompiledMode>,
    /// The dialect's `[knobs]`, as read, if the table has the section.
    pub knobs: Option<Knobs>,
}

/// One mode's dense DFA as plain data, field for field what the core's
/// (private) `automaton::Dfa` holds (`core/automaton.rs`).
///
/// State index `i` has the premultiplied id `i << stride_log2`. Index 0 is the start
/// state; match states come last, from `match_min` on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompiledMode {
    /// The mode name (`content`).
    pub name: String,
    /// Byte → byte class; class 0 holds every byte that no delimiter contains.
    pub classes: [u8; 256],
    /// How many classes there are (at most the row length).
    pub class_count: usize,
    /// log2 of the row length, the class count rounded up to a power of two.
    pub stride_log2: u8,
    /// `state_count << stride_log2` premultiplied next-state ids; the padding columns of a
    /// row (classes `class_count..`) are 0 and never read.
    pub trans: Vec<u16>,
    /// Per state index: the breadth-first distance from the start, which is the trie
    /// depth (the longest suffix of the input read that is a proper prefix of a
    /// delimiter), or for a match state the length of the delimiter it completes.
    pub depth: Vec<u8>,
    /// Premultiplied id of the first match state.
    pub match_min: u16,
    /// For the k-th match state (id `match_min + (k << stride_log2)`): the index in
    /// `delimiters` of the delimiter it completes.
    pub matched: Vec<u8>,
    /// Every byte that begins a delimiter, sorted and distinct.
    pub first_bytes: Vec<u8>,
    /// `starts[b]` is true when `b` is in `first_bytes`.
    pub starts: [bool; 256],
    /// The delimiters with their role keys, in table order (see [`crate::ROLES`]).
    pub delimiters: Vec<(Vec<u8>, &'static str)>,
}

impl CompiledMode {
    /// How many states the DFA has.
    pub fn state_count(&self) -> usize {
        self.depth.len()
    }

    /// The row length, `1 << stride_log2`.
    pub fn stride(&self) -> usize {
        1 << self.stride_log2
    }

    /// The state after premultiplied state `state` reads `byte`.
    pub fn next(&self, state: u16, byte: u8) -> u16 {
        self.trans[usize::from(state) + usize::from(self.classes[usize::from(byte)])]
    }

    /// The longest delimiter of the mode, in bytes.
    pub fn max_delimiter_len(&self) -> usize {
        self.delimiters
            .iter()
            .map(|(bytes, _)| bytes.len())
            .max()
            .unwrap_or(0)
    }
}

/// Compiles every mode of a dialect into a dense DFA.
///
/// # Errors
///
/// [`TableError::TooManyStates`] when a mode's premultiplied state ids do not fit in a
/// `u16`, and [`TableError::Automaton`] if aho-corasick refuses the delimiters. A
/// [`DialectSpec`] from [`parse`] is otherwise valid.
///
/// # Panics
///
/// When aho-corasick's DFA breaks an invariant the tables rely on (a reachable dead state,
/// a match state completing several delimiters, a match state's depth differing from its
/// delimiter's length): a bug here or there, never a property of the input.
pub fn compile(spec: &DialectSpec) -> Result<CompiledDialect, TableError> {
    let modes = spec
        .modes
        .iter()
        .map(|mode| compile_mode(&spec.name, mode))
        .collect::<Result<_, _>>()?;
    Ok(CompiledDialect {
        file_name: spec.file_name.clone(),
        name: spec.name.clone(),
        module: module_name(&spec.name),
        source: spec.source.clone(),
        special_tokens: spec.special_tokens,
        modes,
        knobs: spec.knobs.clone(),
    })
}

/// [`parse`]s and [`compile()`]s every `(file name, content)` input, in the given order, and
/// checks that no two dialects share a Rust module name.
///
/// # Errors
///
/// The first [`TableError`] of any input, or [`TableError::DuplicateModule`].
pub fn compile_all(inputs: &[(String, String)]) -> Result<Vec<CompiledDialect>, TableError> {
    let mut dialects: Vec<CompiledDialect> = Vec::with_capacity(inputs.len());
    for (file_name, text) in inputs {
        let dialect = compile(&parse(file_name, text)?)?;
        if let Some(first) = dialects.iter().find(|seen| seen.module == dialect.module) {
            return Err(TableError::DuplicateModule {
                first: first.name.clone(),
                second: dialect.name,
                module: dialect.module,
            });
        }
        dialects.push(dialect);
    }
    Ok(dialects)
}

/// The longest delimiter of all modes of all `dialects`, in bytes (0 for none).
pub fn max_delimiter_len(dialects: &[CompiledDialect]) -> usize {
    dialects
        .iter()
        .flat_map(|dialect| &dialect.modes)
        .map(CompiledMode::max_delimiter_len)
        .max()
        .unwrap_or(0)
}

/// Compiles one mode: aho-corasick's DFA, explored, re-numbered, byte-classed and
/// premultiplied into the core's table layout. The steps are separate functions so that
/// each invariant the core relies on is checked next to the step that establishes it.
fn compile_mode(dialect: &str, mode: &ModeSpec) -> Result<CompiledMode, TableError> {
    let (dfa, start) = build_dfa(dialect, mode)?;
    let explored = explore(&dfa, start);
    let numbering = Numbering::new(&dfa, &explored, mode.delimiters.len());
    let rows = numbering.rows(&dfa, &explored);
    let states = numbering.order.len();
    let first_match = numbering.first_match;

    let classing = ByteClasses::new(mode, &rows);
    let class_count = classing.representative.len();
    let stride = class_count.next_power_of_two();
    let stride_log2 = stride.trailing_zeros() as u8;
    if (states - 1) << stride_log2 > usize::from(u16::MAX) {
        return Err(TableError::TooManyStates {
            dialect: dialect.to_owned(),
            mode: mode.name.clone(),
            states,
            stride,
        });
    }
    let trans = premultiplied_table(&rows, &classing.representative, stride_log2);

    let depth: Vec<u8> = numbering
        .order
        .iter()
        .map(|&old| u8::try_from(explored.distance[old]).expect("depth <= MAX_DELIMITER_CAP"))
        .collect();
    let matched = matched_delimiters(&dfa, &explored, &numbering, &depth, mode);
    let (starts, first_bytes) = delimiter_starts(mode);

    Ok(CompiledMode {
        name: mode.name.clone(),
        classes: classing.classes,
        class_count,
        stride_log2,
        trans,
        depth,
        match_min: premultiply(first_match, stride_log2),
        matched,
        first_bytes,
        starts,
        delimiters: mode.delimiters.clone(),
    })
}

/// aho-corasick's unanchored standard DFA over the mode's delimiters and its start state;
/// its refusals become [`TableError::Automaton`] naming the dialect and mode.
fn build_dfa(dialect: &str, mode: &ModeSpec) -> Result<(DFA, StateID), TableError> {
    let err_automaton = |message: String| TableError::Automaton {
        dialect: dialect.to_owned(),
        mode: mode.name.clone(),
        message,
    };
    let dfa = DFA::builder()
        .match_kind(MatchKind::Standard)
        .start_kind(StartKind::Unanchored)
        .byte_classes(true)
        .build(mode.delimiters.iter().map(|(bytes, _)| bytes))
        .map_err(|err| err_automaton(err.to_string()))?;
    let start = dfa
        .start_state(Anchored::No)
        .map_err(|err| err_automaton(err.to_string()))?;
    Ok((dfa, start))
}

/// The states of aho-corasick's DFA in breadth-first order from the start, which is the
/// only order its public `Automaton` trait lets the generator walk them in.
struct Explored {
    /// `found[i]` is the i-th state reached.
    found: Vec<StateID>,
    /// `distance[i]` is the distance of `found[i]` from the start.
    distance: Vec<usize>,
    /// The index in `found` of each state.
    seen: HashMap<StateID, usize>,
}

/// Breadth-first exploration from `start`. In an Aho–Corasick DFA every state is a trie
/// node, reached first by its own string, so the distance found is the trie depth, which
/// the core reads as the number of bytes a state holds back.
fn explore(dfa: &DFA, start: StateID) -> Explored {
    let mut found: Vec<StateID> = vec![start];
    let mut distance: Vec<usize> = vec![0];
    let mut seen: HashMap<StateID, usize> = HashMap::from([(start, 0)]);
    let mut queue = VecDeque::from([0usize]);
    while let Some(i) = queue.pop_front() {
        for byte in 0..=255u8 {
            let next = dfa.next_state(Anchored::No, found[i], byte);
            assert!(
                !dfa.is_dead(next),
                "an unanchored standard DFA has no reachable dead state"
            );
            if let std::collections::hash_map::Entry::Vacant(slot) = seen.entry(next) {
                slot.insert(found.len());
                found.push(next);
                distance.push(distance[i] + 1);
                queue.push_back(found.len() - 1);
            }
        }
    }
    Explored {
        found,
        distance,
        seen,
    }
}

/// The core's state numbering: the start first, then the other non-match states, then the
/// match states, each group in breadth-first order, so that "is a match" is one comparison
/// against `match_min`.
struct Numbering {
    /// `order[new] = old`: the exploration index of each new state index.
    order: Vec<usize>,
    /// `index[old] = new`.
    index: Vec<usize>,
    /// The new index of the first match state.
    first_match: usize,
}

impl Numbering {
    /// Re-numbers `explored`, checking that the match states are exactly one per delimiter,
    /// which `matched` (one delimiter index per match state) needs.
    fn new(dfa: &DFA, explored: &Explored, delimiters: usize) -> Self {
        let found = &explored.found;
        assert!(
            !dfa.is_match(found[0]),
            "the start state cannot match: no delimiter is empty"
        );
        let (matching, plain): (Vec<usize>, Vec<usize>) =
            (1..found.len()).partition(|&old| dfa.is_match(found[old]));
        let order: Vec<usize> = [0].into_iter().chain(plain).chain(matching).collect();
        let mut index = vec![0usize; found.len()];
        for (new, &old) in order.iter().enumerate() {
            index[old] = new;
        }
        let first_match = order.len() - delimiters;
        assert!(
            order[first_match..]
                .iter()
                .all(|&old| dfa.is_match(found[old]))
                && order[..first_match]
                    .iter()
                    .all(|&old| !dfa.is_match(found[old])),
            "each delimiter of a substring-free set has exactly one match state"
        );
        Numbering {
            order,
            index,
            first_match,
        }
    }

    /// The unclassed table, `rows[new][byte]` = new index of the next state: the full
    /// 256-column form that byte classes are then derived from.
    fn rows(&self, dfa: &DFA, explored: &Explored) -> Vec<Vec<usize>> {
        self.order
            .iter()
            .map(|&old| {
                (0..=255u8)
                    .map(|byte| {
                        let next = dfa.next_state(Anchored::No, explored.found[old], byte);
                        self.index[explored.seen[&next]]
                    })
                    .collect()
            })
            .collect()
    }
}

/// The table's own byte classes, derived from the transitions rather than taken from
/// aho-corasick, so that class 0 is the class of every byte no delimiter contains, as the
/// core's `Dfa::classes` documents.
struct ByteClasses {
    /// Byte → class.
    classes: [u8; 256],
    /// A byte of each class, by class: the column of `rows` a class's transitions copy.
    representative: Vec<usize>,
}

impl ByteClasses {
    /// Bytes whose transition column is identical across all states share a class. Class 0
    /// is the class of the bytes no delimiter contains (they all lead back to the start from
    /// everywhere); the other classes are numbered by their smallest byte.
    fn new(mode: &ModeSpec, rows: &[Vec<usize>]) -> Self {
        let mut used = [false; 256];
        for (bytes, _) in &mode.delimiters {
            for &byte in bytes {
                used[usize::from(byte)] = true;
            }
        }
        let column = |byte: usize| -> Vec<usize> { rows.iter().map(|row| row[byte]).collect() };
        let mut class_columns: Vec<Vec<usize>> = Vec::new();
        let mut representative: Vec<usize> = Vec::new();
        if let Some(unused) = (0..256).find(|&byte| !used[byte]) {
            class_columns.push(column(unused));
            representative.push(unused);
        }
        let mut classes = [0u8; 256];
        for byte in 0..256 {
            let col = column(byte);
            let class = match class_columns.iter().position(|seen| *seen == col) {
                Some(class) => class,
                None => {
                    class_columns.push(col);
                    representative.push(byte);
                    class_columns.len() - 1
                }
            };
            classes[byte] = u8::try_from(class).expect("at most 256 classes");
            debug_assert!(
                used[byte] || class == 0,
                "an unused byte is always in class 0"
            );
        }
        ByteClasses {
            classes,
            representative,
        }
    }
}

/// The premultiplied id of new state index `new`: the core indexes `trans` with it
/// directly, without a multiplication per byte.
fn premultiply(new: usize, stride_log2: u8) -> u16 {
    (new << stride_log2) as u16
}

/// `rows` with one column per class and each row padded to the stride, holding
/// premultiplied ids; the padding columns stay 0 and are never read.
fn premultiplied_table(rows: &[Vec<usize>], representative: &[usize], stride_log2: u8) -> Vec<u16> {
    let mut trans = vec![0u16; rows.len() << stride_log2];
    for (new, row) in rows.iter().enumerate() {
        for (class, &byte) in representative.iter().enumerate() {
            trans[(new << stride_log2) + class] = premultiply(row[byte], stride_log2);
        }
    }
    trans
}

/// For each match state, the index of the delimiter it completes, checking the invariants
/// the core's match handling assumes: one delimiter per match state, whose length is the
/// state's depth.
fn matched_delimiters(
    dfa: &DFA,
    explored: &Explored,
    numbering: &Numbering,
    depth: &[u8],
    mode: &ModeSpec,
) -> Vec<u8> {
    let first_match = numbering.first_match;
    numbering.order[first_match..]
        .iter()
        .zip(first_match..)
        .map(|(&old, new)| {
            let sid = explored.found[old];
            assert_eq!(dfa.match_len(sid), 1, "no delimiter is a suffix of another");
            let pattern = dfa.match_pattern(sid, 0).as_usize();
            assert_eq!(
                usize::from(depth[new]),
                mode.delimiters[pattern].0.len(),
                "a match state's depth is the length of the delimiter it completes"
            );
            u8::try_from(pattern).expect("at most 256 delimiters")
        })
        .collect()
}

/// The bytes that begin a delimiter, as a lookup table and as a sorted list: the core's
/// skip-ahead hands up to three of them to `memchr` and looks bytes up in the table
/// otherwise.
fn delimiter_starts(mode: &ModeSpec) -> ([bool; 256], Vec<u8>) {
    let mut starts = [false; 256];
    for (bytes, _) in &mode.delimiters {
        starts[usize::from(bytes[0])] = true;
    }
    let first_bytes = (0..=255u8)
        .filter(|&byte| starts[usize::from(byte)])
        .collect();
    (starts, first_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compile_text(modes: &str) -> CompiledDialect {
        let text = format!("dialect = \"demo\"\nsource = \"test\"\n{modes}");
        compile(&parse("tables/demo.toml", &text).unwrap()).unwrap()
    }

    /// `ab` and `ba`, worked by hand.
    ///
    /// Trie: root ─a→ A ─b→ AB(match `ab`), root ─b→ B ─a→ BA(match `ba`).
    /// Failure links: A→root, B→root, AB→B (suffix `b`), BA→A (suffix `a`).
    /// Breadth-first from the root over bytes 0..=255: A (on `a`), B (on `b`), then from A:
    /// A again (`a`), AB (`b`); from B: BA (`a`), B again (`b`).
    /// Numbering: root 0, A 1, B 2 (non-match), AB 3, BA 4 (match).
    /// Classes: 0 = every other byte, 1 = `a`, 2 = `b`; stride 4 (log2 2).
    #[test]
    fn hand_checked_two_delimiters() {
        let dialect = compile_text("[modes.m]\nstop = [\"ab\", \"ba\"]\n");
        assert_eq!(dialect.name, "demo");
        assert_eq!(dialect.module, "demo");
        let m = &dialect.modes[0];
        assert_eq!(m.name, "m");
        let mut classes = [0u8; 256];
        classes[usize::from(b'a')] = 1;
        classes[usize::from(b'b')] = 2;
        assert_eq!(m.classes, classes);
        assert_eq!(m.class_count, 3);
        assert_eq!(m.stride_log2, 2);
        #[rustfmt::skip]
        let trans: [u16; 20] = [
            // other  a      b      (pad)
            0,        4,     8,     0, // 0: root
            0,        4,     12,    0, // 4: A
            0,        16,    8,     0, // 8: B
            0,        16,    8,     0, // 12: AB (failure: B)
            0,        4,     12,    0, // 16: BA (failure: A)
        ];
        assert_eq!(m.trans, trans);
        assert_eq!(m.depth, [0, 1, 1, 2, 2]);
        assert_eq!(m.match_min, 12);
        assert_eq!(m.matched, [0, 1]);
        assert_eq!(m.first_bytes, b"ab");
        let mut starts = [false; 256];
        starts[usize::from(b'a')] = true;
        starts[usize::from(b'b')] = true;
        assert_eq!(m.starts, starts);
        assert_eq!(
            m.delimiters,
            [(b"ab".to_vec(), "stop"), (b"ba".to_vec(), "stop")]
        );
        assert_eq!(m.state_count(), 5);
        assert_eq!(m.stride(), 4);
        assert_eq!(m.next(0, b'a'), 4);
        assert_eq!(m.next(4, b'z'), 0);
    }

    /// `<t>` under two roles, matched-index order following [`crate::ROLES`].
    #[test]
    fn hand_checked_overlapping_prefixes() {
        // `</t>` (reasoning_close, index 1) and `<t>` (call_open, index 0) share `<`.
        let m = &compile_text("[modes.m]\nreasoning_close = [\"</t>\"]\ncall_open = [\"<t>\"]\n")
            .modes[0];
        assert_eq!(
            m.delimiters,
            [
                (b"<t>".to_vec(), "call_open"),
                (b"</t>".to_vec(), "reasoning_close")
            ]
        );
        // Classes are numbered by byte value: `/` 0x2f, `<` 0x3c, `>` 0x3e, `t` 0x74.
        assert_eq!(m.classes[usize::from(b'/')], 1);
        assert_eq!(m.classes[usize::from(b'<')], 2);
        assert_eq!(m.classes[usize::from(b'>')], 3);
        assert_eq!(m.classes[usize::from(b't')], 4);
        assert_eq!(m.class_count, 5);
        assert_eq!(m.stride_log2, 3);
        // Breadth-first over bytes in order: root, `<`, `</` (`/` < `t`), `<t`, `</t`, then
        // the match states `<t>`, `</t>`.
        assert_eq!(m.depth, [0, 1, 2, 2, 3, 3, 4]);
        assert_eq!(m.match_min, 5 << 3);
        assert_eq!(m.matched, [0, 1]);
        assert_eq!(m.first_bytes, b"<");
        // `<<` stays at `<`; `<t<` goes back to `<`; `</t>` ends in the second match state.
        let run = |input: &[u8]| input.iter().fold(0u16, |state, &byte| m.next(state, byte));
        assert_eq!(run(b"<<"), 1 << 3);
        assert_eq!(run(b"<t<"), 1 << 3);
        assert_eq!(run(b"x</t>"), 6 << 3);
        assert_eq!(run(b"<t>"), 5 << 3);
        assert_eq!(run(b"</x"), 0);
    }

    #[test]
    fn one_byte_delimiters() {
        // 128 one-byte delimiters: every ASCII byte is its own class, the rest class 0.
        let all: Vec<String> = (0..128u8).map(|b| format!("\"\\u{b:04x}\"")).collect();
        let m = &compile_text(&format!("[modes.m]\nstop = [{}]\n", all.join(", "))).modes[0];
        assert_eq!(m.class_count, 129);
        assert_eq!(m.stride_log2, 8);
        assert_eq!(m.depth.len(), 129);
        assert_eq!(m.match_min, 1 << 8);
        assert_eq!(m.classes[0x80], 0);
        assert_eq!(m.classes[0], 1);
    }

    #[test]
    fn rejects_too_many_states() {
        // 200 distinct 63-byte delimiters over 10 digits: about 12 000 states of stride 16
        // do not fit a u16 id.
        let delimiters: Vec<String> = (0..200u32)
            .map(|i| format!("\"{}\"", format!("{i:03}").repeat(21)))
            .collect();
        let text = format!(
            "dialect = \"demo\"\nsource = \"t\"\n[modes.big]\nstop = [{}]\n",
            delimiters.join(", ")
        );
        let err = compile(&parse("tables/demo.toml", &text).unwrap()).unwrap_err();
        let TableError::TooManyStates { states, stride, .. } = &err else {
            panic!("{err}")
        };
        assert_eq!(
            err.to_string(),
            format!(
                "dialect `demo`, mode `big`: {states} states of stride {stride} do not fit \
                 premultiplied `u16` state ids"
            )
        );
    }

    #[test]
    fn compile_all_rejects_module_collisions() {
        let input = |name: &str| {
            (
                format!("tables/{name}.toml"),
                format!("dialect = \"{name}\"\nsource = \"s\"\n[modes.m]\nstop = [\"<s>\"]\n"),
            )
        };
        let err = compile_all(&[input("a-b"), input("a_b")]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "dialects `a-b` and `a_b` both become the Rust module `a_b`"
        );
        let ok = compile_all(&[input("a-b"), input("c")]).unwrap();
        assert_eq!(ok[0].module, "a_b");
        assert_eq!(max_delimiter_len(&ok), 3);
    }
}
