//! Property tests: inputs assembled from the pieces real outputs are made of (delimiters,
//! JSON envelope fragments, escapes, prose, non-ASCII, stop tokens), scanned in random
//! chunkings, give the same joined events as the whole feed and account for every byte.
//! `PROPTEST_CASES` sets the number of cases.

use inband::{Dialect, Options};
use inband_alloc::events::EventLog;
use proptest::prelude::*;

use crate::harness;

const PIECES: &[&str] = &[
    "<tool_call>",
    "</tool_call>",
    "<think>",
    "</think>",
    "<tool_response>",
    "<|im_end|>",
    "<tool_ca",
    "</thi",
    "<",
    "{\"name\": \"read\", \"arguments\": ",
    "{\"arguments\": ",
    ", \"name\": \"f\"",
    "{\"path\": \"a\\\"b\"}",
    "{\"a\": [1, {\"b\": \"}\"}]}",
    "\"{\\\"x\\\": 1}\"",
    "}",
    "{",
    "\"",
    "\\",
    "'",
    "```json\n",
    "```",
    "\n",
    "  ",
    "prose ",
    "é",
    "城堡",
    "🦀",
    "True",
    ",",
    "42",
];

fn input() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(PIECES), 0..24)
        .prop_map(|pieces| pieces.concat().into_bytes())
}

proptest! {
    #[test]
    fn random_chunkings_give_the_same_events(
        input in input(),
        sizes in prop::collection::vec(1usize..9, 1..8),
        dialect in prop::sample::select(Dialect::ALL),
        starts_in_reasoning in any::<bool>(),
    ) {
        let mut options = Options::default();
        options.starts_in_reasoning = starts_in_reasoning;
        let whole = EventLog::scan(dialect, options, [&input[..]]);
        harness::check_log(&whole, &input);
        let mut chunks = Vec::new();
        let mut at = 0;
        for size in sizes.iter().cycle() {
            if at >= input.len() {
                break;
            }
            let end = (at + size).min(input.len());
            chunks.push(&input[at..end]);
            at = end;
        }
        let chunked = EventLog::scan(dialect, options, chunks);
        prop_assert_eq!(chunked, whole);
    }

    #[test]
    fn arbitrary_bytes_never_break_the_invariants(
        input in prop::collection::vec(any::<u8>(), 0..256),
        size in 1usize..7,
    ) {
        let whole = EventLog::scan(Dialect::Hermes, Options::default(), [&input[..]]);
        harness::check_log(&whole, &input);
        prop_assert_eq!(EventLog::scan(Dialect::Hermes, Options::default(), input.chunks(size)), whole);
    }
}
