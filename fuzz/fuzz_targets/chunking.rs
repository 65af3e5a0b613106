//! Chunk-boundary invariance, span tiling and call bracketing, for every dialect.
//!
//! One input is scanned twice: whole, and cut into the chunks the fuzzer chose. The two
//! event logs (adjacent payload fragments joined by [`EventLog`]) must be equal; the
//! payload spans of each must tile `0..len` and their bytes must be the input; every
//! call that starts must end exactly once, later, with the same number; and a finished
//! scanner must refuse more input. See `fuzz/README.md` for how to run it.

#![no_main]

use std::fmt;

use arbitrary::Arbitrary;
use inband::{Dialect, Error, Options, Piece, Scanner, ValueKind};
use inband_alloc::events::{EventLog, OwnedEvent};
use libfuzzer_sys::{fuzz_target, Corpus};

/// Inputs longer than this are rejected: chunking bugs show up on short inputs, and short
/// inputs keep the fuzzer fast.
const MAX_INPUT: usize = 4096;

/// `max_argument_bytes` choices: the default, and small limits that calls reach.
const MAX_ARGUMENT_BYTES: [u64; 5] = [64 << 20, 0, 1, 8, 64];

/// `max_calls` choices: the default, and small limits that inputs reach.
const MAX_CALLS: [u32; 4] = [1024, 0, 1, 2];

#[derive(Arbitrary)]
struct Input<'a> {
    /// Picks the dialect, `% Dialect::ALL.len()`.
    dialect: u8,
    /// `Options::starts_in_reasoning`.
    starts_in_reasoning: bool,
    /// Picks `Options::max_argument_bytes` from [`MAX_ARGUMENT_BYTES`].
    max_argument_bytes: u8,
    /// Picks `Options::max_calls` from [`MAX_CALLS`].
    max_calls: u8,
    /// Feed an empty chunk before every chunk (they must change nothing).
    empty_feeds: bool,
    /// Chunk lengths, used in a cycle; 0 means 1, an empty list means 1-byte chunks.
    chunks: Vec<u16>,
    /// The stream: the rest of the fuzzer's data, byte for byte. (A `Vec<u8>` here would
    /// read a "keep going" byte before every element since arbitrary 1.4, so dictionary
    /// tokens such as `<tool_call>` would never arrive whole.)
    bytes: &'a [u8],
}

impl Input<'_> {
    fn dialect(&self) -> Dialect {
        Dialect::ALL[usize::from(self.dialect) % Dialect::ALL.len()]
    }

    fn options(&self) -> Options {
        let mut options = Options::default();
        options.starts_in_reasoning = self.starts_in_reasoning;
        options.max_argument_bytes =
            MAX_ARGUMENT_BYTES[usize::from(self.max_argument_bytes) % MAX_ARGUMENT_BYTES.len()];
        options.max_calls = MAX_CALLS[usize::from(self.max_calls) % MAX_CALLS.len()];
        options
    }

    /// The chunk lengths actually used: never 0, never empty.
    fn chunk_lengths(&self) -> Vec<usize> {
        if self.chunks.is_empty() {
            vec![1]
        } else {
            self.chunks.iter().map(|&n| usize::from(n).max(1)).collect()
        }
    }

    /// The input cut into chunks, cycling through the chunk lengths.
    fn split(&self) -> Vec<&[u8]> {
        let mut out = Vec::new();
        let mut rest = self.bytes;
        for len in self.chunk_lengths().into_iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let (chunk, tail) = rest.split_at(len.min(rest.len()));
            out.push(chunk);
            rest = tail;
        }
        out
    }
}

/// Prints a Rust reproduction: paste it into a test.
impl fmt::Debug for Input<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let options = self.options();
        writeln!(
            f,
            "// inband chunking fuzz input: {} bytes",
            self.bytes.len()
        )?;
        writeln!(f, "let dialect = Dialect::{:?};", self.dialect())?;
        writeln!(f, "let mut options = Options::default();")?;
        writeln!(
            f,
            "options.starts_in_reasoning = {};",
            options.starts_in_reasoning
        )?;
        writeln!(
            f,
            "options.max_argument_bytes = {};",
            options.max_argument_bytes
        )?;
        writeln!(f, "options.max_calls = {};", options.max_calls)?;
        writeln!(f, "let input: &[u8] = b\"{}\";", escape(self.bytes))?;
        writeln!(
            f,
            "let chunk_lengths: &[usize] = &{:?}; // cycled",
            self.chunk_lengths()
        )?;
        writeln!(
            f,
            "let empty_feeds = {}; // an empty feed before every chunk",
            self.empty_feeds
        )?;
        let lengths: Vec<usize> = self.split().iter().map(|c| c.len()).collect();
        write!(f, "// chunks as fed: {lengths:?}")
    }
}

/// The bytes as the inside of a Rust byte-string literal.
fn escape(bytes: &[u8]) -> String {
    bytes
        .iter()
        .flat_map(|&b| std::ascii::escape_default(b))
        .map(char::from)
        .collect()
}

fn scan(input: &Input<'_>, chunks: &[&[u8]]) -> EventLog {
    let mut scanner = Scanner::new(input.dialect(), input.options());
    let mut log = EventLog::new();
    for chunk in chunks {
        if input.empty_feeds {
            scanner
                .feed(b"", &mut log)
                .expect("an unfinished scanner takes an empty chunk");
        }
        scanner
            .feed(chunk, &mut log)
            .expect("an unfinished scanner takes a chunk");
    }
    scanner.finish(&mut log).expect("a scanner finishes once");

    // A finished scanner refuses more input and a second finish, and reports nothing.
    let mut after = EventLog::new();
    assert_eq!(
        scanner.feed(b"x", &mut after),
        Err(Error::Finished),
        "feed after finish"
    );
    assert_eq!(
        scanner.feed(b"", &mut after),
        Err(Error::Finished),
        "empty feed after finish"
    );
    assert_eq!(
        scanner.finish(&mut after),
        Err(Error::Finished),
        "finish after finish"
    );
    assert!(
        after.events.is_empty(),
        "a finished scanner reported events: {:?}",
        after.events
    );
    log
}

/// The payload spans tile `0..len` in order and their bytes are the input.
fn check_tiling(log: &EventLog, input: &[u8], which: &str) {
    let len = input.len() as u64;
    let mut at = 0u64;
    let mut joined = Vec::with_capacity(input.len());
    for (i, event) in log.events.iter().enumerate() {
        let span = event.span();
        assert!(
            span.start <= span.end && span.end <= len,
            "{which}: event {i} has span {span:?} outside 0..{len}: {event:?}"
        );
        if let Some(payload) = event.payload() {
            assert_eq!(
                span.start, at,
                "{which}: payload event {i} does not start where the last ended: {event:?}"
            );
            assert_eq!(
                span.len(),
                payload.len() as u64,
                "{which}: payload event {i} span length != byte count: {event:?}"
            );
            at = span.end;
            joined.extend_from_slice(payload);
        }
    }
    assert_eq!(
        at, len,
        "{which}: payload spans end at {at}, not at the input's end {len}"
    );
    assert!(
        joined == input,
        "{which}: the payload bytes are not the input"
    );
}

/// Calls are numbered 0, 1, 2… in order of their start; each ends exactly once, after it
/// started; names and argument fragments belong to a call that is open; parameters do not
/// nest, their values come inside them, as [`Piece::Verbatim`] exactly when the parameter's
/// kind is a raw-text one.
fn check_calls(log: &EventLog, which: &str) {
    // For each call number: has it ended?
    let mut ended: Vec<bool> = Vec::new();
    // The open parameter: its call and its kind.
    let mut param: Option<(u32, ValueKind)> = None;
    for (i, event) in log.events.iter().enumerate() {
        match event {
            OwnedEvent::ToolParam { call, kind, .. } => {
                let c = *call as usize;
                assert!(
                    c < ended.len() && !ended[c],
                    "{which}: event {i}: call {c} is not open: {event:?}"
                );
                assert!(
                    param.is_none(),
                    "{which}: event {i}: parameters nest: {event:?}"
                );
                param = Some((*call, *kind));
            }
            OwnedEvent::ToolValue { call, piece, .. } => {
                let Some((open, kind)) = param else {
                    panic!("{which}: event {i}: a value outside a parameter: {event:?}");
                };
                assert_eq!(
                    open, *call,
                    "{which}: event {i}: a value of another call: {event:?}"
                );
                assert_eq!(
                    *piece == Piece::Verbatim,
                    !kind.is_literal(),
                    "{which}: event {i}: a {kind:?} parameter's value as {piece:?}"
                );
            }
            OwnedEvent::ToolParamEnd { call, .. } => {
                assert_eq!(
                    param.map(|(open, _)| open),
                    Some(*call),
                    "{which}: event {i}: a parameter end without its parameter: {event:?}"
                );
                param = None;
            }
            OwnedEvent::ToolStart { call, .. } => {
                assert_eq!(
                    *call as usize,
                    ended.len(),
                    "{which}: event {i}: calls are not numbered in order: {event:?}"
                );
                ended.push(false);
            }
            OwnedEvent::ToolEnd { call, .. } => {
                if param.is_some_and(|(open, _)| open == *call) {
                    param = None;
                }
                let c = *call as usize;
                assert!(
                    c < ended.len(),
                    "{which}: event {i}: end of a call that never started: {event:?}"
                );
                assert!(
                    !ended[c],
                    "{which}: event {i}: call {c} ended twice: {event:?}"
                );
                ended[c] = true;
            }
            OwnedEvent::ToolName { call, .. } | OwnedEvent::ToolArgs { call, .. } => {
                let c = *call as usize;
                assert!(
                    c < ended.len() && !ended[c],
                    "{which}: event {i}: call {c} is not open: {event:?}"
                );
            }
            _ => {}
        }
    }
    if let Some(c) = ended.iter().position(|&e| !e) {
        panic!("{which}: call {c} started but never ended");
    }
}

fuzz_target!(|input: Input<'_>| -> Corpus {
    if input.bytes.len() > MAX_INPUT {
        return Corpus::Reject;
    }

    let whole = scan(&input, &[input.bytes]);
    let chunked = scan(&input, &input.split());

    check_tiling(&whole, input.bytes, "whole");
    check_calls(&whole, "whole");
    check_tiling(&chunked, input.bytes, "chunked");
    check_calls(&chunked, "chunked");
    if whole != chunked {
        let first = whole
            .events
            .iter()
            .zip(&chunked.events)
            .position(|(a, b)| a != b);
        panic!(
            "chunked events differ from whole events (first difference at event {first:?})\n\
             whole:   {:?}\nchunked: {:?}",
            whole.events, chunked.events
        );
    }

    // A reset scanner is a new scanner.
    let mut scanner = Scanner::new(input.dialect(), input.options());
    let mut junk = EventLog::new();
    let _ = scanner.feed(&input.bytes[..input.bytes.len() / 2], &mut junk);
    scanner.reset();
    let mut again = EventLog::new();
    scanner
        .feed(input.bytes, &mut again)
        .expect("a reset scanner takes input");
    scanner
        .finish(&mut again)
        .expect("a reset scanner finishes");
    assert!(
        again == whole,
        "a reset scanner gave different events:\nnew:   {:?}\nreset: {:?}",
        whole.events,
        again.events
    );

    Corpus::Keep
});
