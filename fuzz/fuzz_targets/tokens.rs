//! Token mode's grouping invariance, for every dialect: the stream is cut into tokens (each
//! occurrence of a delimiter, taken leftmost-longest, is one token, an added token when the
//! fuzzer's flag for it is set; other bytes are ordinary tokens of the fuzzer's lengths),
//! then scanned one token per feed and again in the fuzzer's groups of tokens. The two logs
//! must be equal and their payload spans must tile the input. See `fuzz/README.md`.

#![no_main]

use std::ops::Range;

use arbitrary::Arbitrary;
use inband::{Dialect, Options, Scanner, TokenGate};
use inband_alloc::events::EventLog;
use libfuzzer_sys::{fuzz_target, Corpus};

const MAX_INPUT: usize = 4096;

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    /// Picks the dialect, `% Dialect::ALL.len()`.
    dialect: u8,
    /// Bit `k % 64`: delimiter occurrence `k` arrives as its added token.
    added: u64,
    /// Lengths of the ordinary tokens, in a cycle (0 means 1; empty: 1 byte each).
    ordinary: Vec<u8>,
    /// Tokens per feed of the grouped run, in a cycle (0 means 1; empty: all in one).
    groups: Vec<u8>,
    /// The stream, byte for byte.
    bytes: &'a [u8],
}

/// The tokens of `bytes`: ranges, and whether each is an added token.
fn cut(input: &Input<'_>, texts: &[&[u8]]) -> Vec<(Range<usize>, bool)> {
    let bytes = input.bytes;
    let mut tokens = Vec::new();
    let (mut i, mut k, mut o) = (0, 0u32, 0);
    while i < bytes.len() {
        let delimiter = texts
            .iter()
            .filter(|t| bytes[i..].starts_with(t))
            .map(|t| t.len())
            .max();
        if let Some(len) = delimiter {
            tokens.push((i..i + len, input.added >> (k % 64) & 1 == 1));
            k += 1;
            i += len;
            continue;
        }
        let want = input
            .ordinary
            .get(o % input.ordinary.len().max(1))
            .map_or(1, |&n| usize::from(n).max(1));
        o += 1;
        let mut end = (i + want).min(bytes.len());
        if let Some(j) = (i + 1..end).find(|&j| texts.iter().any(|t| bytes[j..].starts_with(t))) {
            end = j;
        }
        tokens.push((i..end, false));
        i = end;
    }
    tokens
}

fn scan(
    gate: TokenGate,
    bytes: &[u8],
    tokens: &[(Range<usize>, bool)],
    groups: &[usize],
) -> EventLog {
    let mut scanner = Scanner::with_tokens(gate, Options::default());
    let mut log = EventLog::new();
    let mut from = 0;
    let mut g = 0;
    while from < tokens.len() {
        let n = groups
            .get(g % groups.len().max(1))
            .copied()
            .unwrap_or(tokens.len())
            .max(1);
        g += 1;
        let to = (from + n).min(tokens.len());
        let start = tokens[from].0.start;
        let end = tokens[to - 1].0.end;
        let spans: Vec<Range<usize>> = tokens[from..to]
            .iter()
            .filter(|(_, added)| *added)
            .map(|(r, _)| r.start - start..r.end - start)
            .collect();
        scanner
            .feed_tokens(&bytes[start..end], &spans, &mut log)
            .expect("valid spans");
        from = to;
    }
    scanner.finish(&mut log).expect("not finished");
    log
}

fn check_tiling(log: &EventLog, input: &[u8]) {
    let mut at = 0u64;
    for event in &log.events {
        let Some(payload) = event.payload() else {
            continue;
        };
        let span = event.span();
        assert_eq!(span.start, at, "payload spans tile the input");
        assert_eq!(
            &input[span.start as usize..span.end as usize],
            payload,
            "payload is the input"
        );
        at = span.end;
    }
    assert_eq!(at, input.len() as u64, "payload spans cover the input");
}

fuzz_target!(|input: Input<'_>| -> Corpus {
    if input.bytes.len() > MAX_INPUT {
        return Corpus::Reject;
    }
    let dialect = Dialect::ALL[usize::from(input.dialect) % Dialect::ALL.len()];
    let mut gate = TokenGate::new(dialect);
    for d in dialect.delimiters() {
        gate.add_token(d.bytes);
    }
    let texts: Vec<&[u8]> = gate.gated().collect();
    let tokens = cut(&input, &texts);
    let ones = vec![1];
    let groups: Vec<usize> = input.groups.iter().map(|&n| usize::from(n)).collect();
    let one_per_feed = scan(gate, input.bytes, &tokens, &ones);
    check_tiling(&one_per_feed, input.bytes);
    assert_eq!(
        scan(gate, input.bytes, &tokens, &groups),
        one_per_feed,
        "grouping changed the log"
    );
    Corpus::Keep
});
