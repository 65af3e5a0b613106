//! The table compiler (`inband-tables`) against a naive prefix-overlap oracle and against
//! `aho_corasick::AhoCorasick`, and the generated file against what the compiler emits now.
//! (That the core's statics equal the compiled automata, and that its `memchr` skip agrees
//! with a byte loop, is checked inside the core: `core/tables.rs`.)
//!
//! Every `tables/dialects/*.toml` file is compiled again at test time, so a new dialect is
//! covered as soon as its file exists. The number of random haystacks per mode is
//! `INBAND_TABLES_CASES` (default 2000).

use std::collections::VecDeque;
use std::path::Path;

use aho_corasick::{AhoCorasick, MatchKind};
use inband::event::Role;
use inband::{Dialect, MAX_HOLD};
use inband_tables::{CompiledDialect, CompiledMode};

/// Premultiplied id of the start state of every compiled mode.
const START: u16 = 0;

/// Every table file, sorted, as build.rs reads them: `("tables/dialects/NAME.toml", content)`.
fn table_inputs() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tables/dialects");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".toml"))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no tables in {}", dir.display());
    names
        .into_iter()
        .map(|name| {
            let text = std::fs::read_to_string(dir.join(&name)).unwrap();
            (format!("tables/dialects/{name}"), text)
        })
        .collect()
}

fn compiled() -> Vec<CompiledDialect> {
    inband_tables::compile_all(&table_inputs()).unwrap_or_else(|err| panic!("{err}"))
}

/// The core `Role` of a table role key.
fn role(key: &str) -> Role {
    match key {
        "call_open" => Role::CallOpen,
        "call_close" => Role::CallClose,
        "reasoning_open" => Role::ReasoningOpen,
        "reasoning_close" => Role::ReasoningClose,
        "result_open" => Role::ResultOpen,
        "stop" => Role::Stop,
        "section_open" => Role::SectionOpen,
        "section_close" => Role::SectionClose,
        "args_open" => Role::ArgsOpen,
        "stray" => Role::Stray,
        "message_start" => Role::MessageStart,
        "channel" => Role::Channel,
        "constrain" => Role::Constrain,
        "message_body" => Role::MessageBody,
        "message_end" => Role::MessageEnd,
        "markup_open" => Role::MarkupOpen,
        "param_open" => Role::ParamOpen,
        "param_close" => Role::ParamClose,
        "quote" => Role::Quote,
        "fence" => Role::Fence,
        "id_open" => Role::IdOpen,
        "answer" => Role::Answer,
        "name_open" => Role::NameOpen,
        "name_close" => Role::NameClose,
        "args_close" => Role::ArgsClose,
        _ => panic!("role `{key}` has no entry in tests/tables.rs `role`"),
    }
}

/// Every mode of every table: (`dialect/mode`, compiled).
fn modes() -> Vec<(String, CompiledMode)> {
    compiled()
        .into_iter()
        .flat_map(|dialect| {
            let name = dialect.name.clone();
            dialect
                .modes
                .into_iter()
                .map(move |mode| (format!("{name}/{}", mode.name), mode))
        })
        .collect()
}

/// Trailing bytes that may still begin a delimiter in `state`.
fn depth(mode: &CompiledMode, state: u16) -> usize {
    usize::from(mode.depth[usize::from(state >> mode.stride_log2)])
}

/// The index of the delimiter `state` completes, if it is a match state.
fn matched(mode: &CompiledMode, state: u16) -> Option<usize> {
    (state >= mode.match_min).then(|| {
        usize::from(mode.matched[usize::from((state - mode.match_min) >> mode.stride_log2)])
    })
}

#[test]
fn every_role_maps_to_a_core_role() {
    for known in inband_tables::ROLES {
        assert_eq!(format!("{:?}", role(known.key)), known.variant);
    }
}

#[test]
fn generated_file_is_what_the_compiler_emits_now() {
    let inputs = table_inputs();
    let dialects = compiled();
    let emitted = inband_tables::emit_rust(&dialects, &inputs);
    let generated = include_str!(concat!(env!("OUT_DIR"), "/dialects.rs"));
    assert!(
        emitted == generated,
        "$OUT_DIR/dialects.rs is stale or differs from emit_rust"
    );
}

/// The public view of the tables (`Dialect::delimiters`) lists exactly the compiled
/// delimiters, mode by mode.
#[test]
fn every_dialects_delimiters_are_its_compiled_ones() {
    let compiled = compiled();
    assert_eq!(compiled.len(), Dialect::ALL.len());
    for dialect in compiled {
        let ours = Dialect::from_name(&dialect.name).unwrap();
        assert_eq!(ours.source(), dialect.source, "{}", dialect.name);
        let expected: Vec<(String, Vec<u8>, Role)> = dialect
            .modes
            .iter()
            .flat_map(|mode| {
                mode.delimiters
                    .iter()
                    .map(|(bytes, key)| (mode.name.clone(), bytes.clone(), role(key)))
            })
            .collect();
        let listed: Vec<(String, Vec<u8>, Role)> = ours
            .delimiters()
            .map(|d| (d.mode.to_owned(), d.bytes.to_vec(), d.role))
            .collect();
        assert_eq!(listed, expected, "{}", dialect.name);
    }
}

#[test]
fn hold_back_constants_follow_the_longest_delimiter() {
    let longest = table_inputs()
        .iter()
        .map(|(file, text)| inband_tables::parse(file, text).unwrap())
        .flat_map(|spec| spec.modes)
        .flat_map(|mode| mode.delimiters)
        .map(|(bytes, _)| bytes.len())
        .max()
        .unwrap();
    assert_eq!(inband_tables::max_delimiter_len(&compiled()), longest);
    assert_eq!(MAX_HOLD, longest - 1);
    // `<tool_response>` today; update when a longer delimiter is added.
    assert!(longest >= "<tool_response>".len());
}

/// Longest suffix of `text` that is a proper prefix of some delimiter.
fn naive_depth(text: &[u8], delimiters: &[&[u8]]) -> usize {
    (1..=text.len())
        .rev()
        .find(|&k| {
            let suffix = &text[text.len() - k..];
            delimiters
                .iter()
                .any(|d| d.len() > k && d.starts_with(suffix))
        })
        .unwrap_or(0)
}

fn delimiter_bytes(mode: &CompiledMode) -> Vec<&[u8]> {
    mode.delimiters
        .iter()
        .map(|(bytes, _)| bytes.as_slice())
        .collect()
}

#[test]
fn every_state_depth_matches_the_naive_oracle() {
    for (at, dfa) in modes() {
        let dfa = &dfa;
        let delimiters = delimiter_bytes(dfa);
        let states = dfa.depth.len();
        // Breadth-first over every byte from the start: each state's shortest string.
        let mut string: Vec<Option<Vec<u8>>> = vec![None; states];
        string[0] = Some(Vec::new());
        let mut queue = VecDeque::from([START]);
        while let Some(id) = queue.pop_front() {
            let here = string[usize::from(id >> dfa.stride_log2)].clone().unwrap();
            assert_eq!(
                id & ((1 << dfa.stride_log2) - 1),
                0,
                "{at}: id {id} not premultiplied"
            );
            for byte in 0..=255u8 {
                let next = dfa.next(id, byte);
                let slot = &mut string[usize::from(next >> dfa.stride_log2)];
                if slot.is_none() {
                    let mut s = here.clone();
                    s.push(byte);
                    *slot = Some(s);
                    queue.push_back(next);
                }
            }
        }
        for (index, s) in string.iter().enumerate() {
            let s = s
                .as_ref()
                .unwrap_or_else(|| panic!("{at}: state {index} is unreachable"));
            let id = u16::try_from(index << dfa.stride_log2).unwrap();
            // A state's shortest string is its trie string: as long as its depth.
            assert_eq!(s.len(), depth(dfa, id), "{at}: state {index} ({s:?})");
            let ends_with = delimiters.iter().position(|d| s.ends_with(d));
            match matched(dfa, id) {
                Some(k) => {
                    assert_eq!(
                        ends_with.map(|k| delimiters[k]),
                        Some(delimiters[k]),
                        "{at}: {s:?}"
                    );
                    assert_eq!(depth(dfa, id), delimiters[k].len(), "{at}: {s:?}");
                }
                None => {
                    assert_eq!(ends_with, None, "{at}: {s:?} completes a delimiter");
                    assert_eq!(depth(dfa, id), naive_depth(s, &delimiters), "{at}: {s:?}");
                }
            }
            assert_eq!(
                depth(dfa, id) == 0,
                index == 0,
                "{at}: only the start has depth 0"
            );
        }
    }
}

/// What walking a DFA over a haystack gives: the first match as (start, end, delimiter).
fn walk(
    at: &str,
    dfa: &CompiledMode,
    haystack: &[u8],
    delimiters: &[&[u8]],
) -> Option<(usize, usize, usize)> {
    let mut state = START;
    for (i, &byte) in haystack.iter().enumerate() {
        state = dfa.next(state, byte);
        if let Some(k) = matched(dfa, state) {
            let len = delimiters[k].len();
            assert_eq!(depth(dfa, state), len, "{at}: {haystack:?} at {i}");
            return Some((i + 1 - len, i + 1, k));
        }
        let naive = naive_depth(&haystack[..=i], delimiters);
        assert_eq!(
            depth(dfa, state),
            naive,
            "{at}: depth in {haystack:?} at {i}"
        );
        assert_eq!(state == START, naive == 0, "{at}: {haystack:?} at {i}");
    }
    None
}

/// Checks one haystack against aho-corasick, and the skip set against the delimiters.
fn check(
    at: &str,
    dfa: &CompiledMode,
    oracle: &AhoCorasick,
    haystack: &[u8],
    delimiters: &[&[u8]],
) {
    let expected = oracle
        .find(haystack)
        .map(|m| (m.start(), m.end(), m.pattern().as_usize()));
    assert_eq!(
        walk(at, dfa, haystack, delimiters),
        expected,
        "{at}: first match in {haystack:?}"
    );
    let mut firsts: Vec<u8> = delimiters.iter().map(|d| d[0]).collect();
    firsts.sort_unstable();
    firsts.dedup();
    assert_eq!(dfa.first_bytes, firsts, "{at}: first_bytes");
    for byte in 0..=255u8 {
        assert_eq!(
            dfa.starts[usize::from(byte)],
            firsts.contains(&byte),
            "{at}: starts[{byte}]"
        );
    }
}

/// A seeded ChaCha8 generator, so failures reproduce.
struct Rng(rand_chacha::ChaCha8Rng);

impl Rng {
    fn seeded(seed: u64) -> Self {
        use rand_chacha::rand_core::SeedableRng;
        Rng(rand_chacha::ChaCha8Rng::seed_from_u64(seed))
    }

    fn next(&mut self) -> u64 {
        use rand_chacha::rand_core::RngCore;
        self.0.next_u64()
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn cases() -> usize {
    let default = if cfg!(miri) { 20 } else { 2000 };
    std::env::var("INBAND_TABLES_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

#[test]
fn first_match_and_depth_agree_with_aho_corasick_on_random_haystacks() {
    // Every delimiter of every dialect and mode, so modes also see each other's delimiters.
    let modes = modes();
    let everything: Vec<&[u8]> = modes
        .iter()
        .flat_map(|(_, dfa)| delimiter_bytes(dfa))
        .collect();
    let non_ascii: &[&[u8]] = &[
        "é".as_bytes(),
        "｜".as_bytes(),
        "▁".as_bytes(),
        "😀".as_bytes(),
        b"\xff",
        b"\x00",
    ];
    for (at, dfa) in &modes {
        let delimiters = delimiter_bytes(dfa);
        let oracle = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostFirst)
            .build(&delimiters)
            .unwrap();
        let alphabet: Vec<u8> = {
            let mut bytes: Vec<u8> = delimiters.iter().flat_map(|d| d.iter().copied()).collect();
            bytes.sort_unstable();
            bytes.dedup();
            bytes
        };
        let mut rng = Rng::seeded(0x1b_a4d5 ^ at.len() as u64);
        for _ in 0..cases() {
            let mut haystack = Vec::new();
            for _ in 0..rng.below(12) {
                let d = *rng.pick(&everything);
                match rng.below(8) {
                    0 => haystack.extend_from_slice(d),
                    1 => haystack.extend_from_slice(&d[..rng.below(d.len())]),
                    2 => haystack.extend_from_slice(&d[rng.below(d.len())..]),
                    3 => {
                        let start = rng.below(d.len());
                        let end = start + rng.below(d.len() - start) + 1;
                        haystack.extend_from_slice(&d[start..end]);
                    }
                    4 => haystack.push(*rng.pick(&alphabet)),
                    5 => haystack.push(rng.next() as u8),
                    6 => haystack.extend_from_slice(rng.pick::<&[u8]>(non_ascii)),
                    _ => haystack.extend_from_slice(b"text {\"x\": 1} "),
                }
            }
            check(at, dfa, &oracle, &haystack, &delimiters);
        }
    }
}

#[test]
fn first_match_and_depth_agree_with_aho_corasick_on_all_short_haystacks() {
    // Every string of up to three bytes over the mode's delimiter bytes plus one other byte.
    for (at, dfa) in modes() {
        let dfa = &dfa;
        let delimiters = delimiter_bytes(dfa);
        let oracle = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostFirst)
            .build(&delimiters)
            .unwrap();
        let mut alphabet: Vec<u8> = delimiters.iter().flat_map(|d| d.iter().copied()).collect();
        alphabet.push(b'x');
        alphabet.sort_unstable();
        alphabet.dedup();
        let mut haystacks: Vec<Vec<u8>> = vec![Vec::new()];
        for len in 1..=3 {
            let shorter: Vec<Vec<u8>> = haystacks
                .iter()
                .filter(|h| h.len() == len - 1)
                .cloned()
                .collect();
            for h in shorter {
                for &byte in &alphabet {
                    let mut longer = h.clone();
                    longer.push(byte);
                    haystacks.push(longer);
                }
            }
        }
        for haystack in &haystacks {
            check(&at, dfa, &oracle, haystack, &delimiters);
        }
        // And every delimiter preceded by every proper prefix of every delimiter.
        for prefix_of in &delimiters {
            for cut in 0..prefix_of.len() {
                for d in &delimiters {
                    let haystack = [&prefix_of[..cut], d].concat();
                    check(&at, dfa, &oracle, &haystack, &delimiters);
                }
            }
        }
    }
}

/// The entries of a libFuzzer dictionary: one `"…"` string per line (`name="…"` also
/// allowed), with `\\`, `\"` and `\xNN` escapes; `#` lines are comments.
fn dictionary_entries(text: &str) -> Vec<Vec<u8>> {
    let mut entries = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let quoted = &line[line.find('"').expect("a quoted entry") + 1..];
        let body = quoted
            .strip_suffix('"')
            .expect("an entry ends with a quote");
        let mut bytes = Vec::new();
        let mut rest = body.as_bytes();
        while let Some((&b, tail)) = rest.split_first() {
            if b != b'\\' {
                bytes.push(b);
                rest = tail;
                continue;
            }
            match tail {
                [b'x', hi, lo, tail @ ..] => {
                    let hex = std::str::from_utf8(&[*hi, *lo]).unwrap().to_owned();
                    bytes.push(u8::from_str_radix(&hex, 16).expect("two hex digits"));
                    rest = tail;
                }
                [escaped, tail @ ..] => {
                    bytes.push(*escaped);
                    rest = tail;
                }
                [] => panic!("a dictionary entry ends in a backslash: {line}"),
            }
        }
        entries.push(bytes);
    }
    entries
}

/// The fuzzer reaches every dialect's structure quickly only if its dictionary holds every
/// delimiter of every table (fuzz/README.md).
#[test]
fn fuzz_dictionary_holds_every_delimiter() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/chunking.dict");
    let text = std::fs::read_to_string(path).unwrap();
    // libFuzzer rejects the whole file at a raw non-ASCII byte in an entry (CI's fuzz smoke
    // found step3's `<｜tool_calls_begin｜>`): such bytes are written `\xNN`.
    let raw: Vec<&str> = text
        .lines()
        .filter(|line| line.starts_with('"') && !line.is_ascii())
        .collect();
    assert!(raw.is_empty(), "entries with raw non-ASCII bytes: {raw:?}");
    let entries = dictionary_entries(&text);
    let mut missing = Vec::new();
    for dialect in compiled() {
        for mode in &dialect.modes {
            for (bytes, _) in &mode.delimiters {
                if !entries.contains(bytes) && !missing.contains(bytes) {
                    missing.push(bytes.clone());
                }
            }
        }
    }
    let missing: Vec<String> = missing
        .iter()
        .map(|m| String::from_utf8_lossy(m).into_owned())
        .collect();
    assert!(missing.is_empty(), "not in fuzz/chunking.dict: {missing:?}");
}

/// `Dialect::from_name` reads every dialect's name in any ASCII case, with `_` for `-` and
/// surrounding blanks, and nothing that is not exactly a name.
#[test]
fn dialect_names_fold_case_and_underscores() {
    for &dialect in Dialect::ALL {
        let name = dialect.name();
        let loud = name.to_ascii_uppercase();
        let snake = name.replace('-', "_");
        for spelling in [name.to_string(), loud, snake, format!(" {name}\n")] {
            assert_eq!(Dialect::from_name(&spelling), Some(dialect), "{spelling:?}");
        }
        assert_eq!(Dialect::from_name(&format!("{name}x")), None);
        // A name one byte short is nothing, unless it is another dialect's (gigachat3).
        let short = &name[..name.len() - 1];
        let other = Dialect::ALL.iter().copied().find(|d| d.name() == short);
        assert_eq!(Dialect::from_name(short), other);
    }
    assert_eq!(Dialect::from_name("SEED-OSS"), Some(Dialect::SeedOss));
    assert_eq!(Dialect::from_name("qwen3_coder"), Some(Dialect::Qwen3Coder));
    assert_eq!(Dialect::from_name("seed oss"), None);
    assert_eq!(Dialect::from_name(""), None);
    assert_eq!(Dialect::from_name("h\u{e9}rmes"), None);
}

/// The quote role's two uses: a string quote token of a literal dialect holds exactly one
/// `<` (the assembler writes one `"` per `<` of a run of literal quote tokens,
/// alloc-ext/src/literal.rs), and a `quote` in a parameters dialect's `value` mode opens a
/// verbatim section, which needs the `cdata_close` knob to close it.
#[test]
fn quote_tokens_fit_their_readers() {
    for dialect in compiled() {
        for mode in &dialect.modes {
            for (bytes, key) in &mode.delimiters {
                if *key != "quote" {
                    continue;
                }
                if mode.name == "value" {
                    let close = dialect.knobs.as_ref().and_then(|k| k.cdata_close.as_ref());
                    assert!(
                        close.is_some(),
                        "{}: a value quote needs cdata_close",
                        dialect.name
                    );
                } else {
                    let angles = bytes.iter().filter(|&&b| b == b'<').count();
                    assert_eq!(
                        angles,
                        1,
                        "{}: {:?}",
                        dialect.name,
                        String::from_utf8_lossy(bytes)
                    );
                }
            }
        }
    }
}
