//! The generic chunking harness every dialect's tests go through: a case must give the
//! same joined events whole, at every two-way split, at fixed chunk sizes and one byte at
//! a time, padded with prose so the memchr skip crosses its vector-width boundaries; and
//! payload spans must tile the input exactly.

use inband::{CallEnd, Dialect, Markup, Options, Piece, Scanner, ValueKind};
use inband_alloc::assemble::{assemble, AssembleOptions, Completion};
use inband_alloc::events::{EventLog, OwnedEvent};
use serde_json::Value;

/// Chunk sizes tried besides every two-way split.
const SIZES: &[usize] = &[1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 64];

/// Prose around a case, long enough to cross 16- and 32-byte vector boundaries.
const PAD: &str = "Some prose before the structure, with a < and a > and é. ";

/// A chunking whose log differs from the whole feed's (or whose log breaks an invariant of
/// [`check_log`]), as [`verify`] reports it.
#[derive(Debug)]
pub struct Mismatch {
    /// How the input was fed: `whole`, `split at K`, `N-byte chunks`, `padded, …`.
    pub chunking: String,
    /// The log every chunking must give (the whole feed's; for the padded feeds, the padded
    /// whole feed's).
    pub expected: EventLog,
    /// The log this chunking gave.
    pub actual: EventLog,
    /// Why it failed: `log differs`, or the invariant [`check_log`] found broken.
    pub reason: String,
}

/// Scans `input` in every chunking and returns the log of the whole feed, or the first
/// chunking that gives another log or a log that does not account for every byte.
pub fn verify(dialect: Dialect, options: Options, input: &[u8]) -> Result<EventLog, Mismatch> {
    let whole = EventLog::scan(dialect, options, [input]);
    invariants("whole", &whole, input)?;
    let compare = |chunking: String, expected: &EventLog, actual: EventLog| {
        if actual == *expected {
            return Ok(());
        }
        Err(Mismatch {
            chunking,
            expected: expected.clone(),
            actual,
            reason: "log differs".into(),
        })
    };
    for k in 0..=input.len() {
        let split = EventLog::scan(dialect, options, [&input[..k], &input[k..]]);
        compare(format!("split at {k}"), &whole, split)?;
    }
    for &size in SIZES {
        let chunked = EventLog::scan(dialect, options, input.chunks(size));
        compare(format!("{size}-byte chunks"), &whole, chunked)?;
    }
    let mut padded = PAD.as_bytes().to_vec();
    padded.extend_from_slice(input);
    padded.extend_from_slice(PAD.as_bytes());
    let padded_whole = EventLog::scan(dialect, options, [&padded[..]]);
    invariants("padded, whole", &padded_whole, &padded)?;
    for &size in SIZES {
        let chunked = EventLog::scan(dialect, options, padded.chunks(size));
        compare(
            format!("padded, {size}-byte chunks"),
            &padded_whole,
            chunked,
        )?;
    }
    Ok(whole)
}

/// [`check_log`] as a result: the panic message of a broken invariant becomes the reason.
fn invariants(chunking: &str, log: &EventLog, input: &[u8]) -> Result<(), Mismatch> {
    let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check_log(log, input)));
    checked.map_err(|panic| Mismatch {
        chunking: chunking.into(),
        expected: log.clone(),
        actual: log.clone(),
        reason: panic_message(&*panic),
    })
}

/// What a panic said, for a report.
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_else(|| "a panic without a message".into())
}

/// Scans `input` in every chunking and returns the log of the whole feed, after checking
/// that every chunking gives it and that it accounts for every byte.
///
/// # Panics
///
/// When [`verify`] finds a mismatch, with the chunking and both logs.
pub fn check(dialect: Dialect, options: Options, input: &[u8]) -> EventLog {
    verify(dialect, options, input).unwrap_or_else(|m| {
        panic!(
            "{}: {} for {:?}\nexpected {:?}\nactual   {:?}",
            m.chunking,
            m.reason,
            String::from_utf8_lossy(input),
            m.expected,
            m.actual
        )
    })
}

/// The payload events tile `input` in order, every call starts once and ends once, and
/// parameter values come inside their parameter, inside their call, as the pieces of its
/// kind ([`Piece::Verbatim`] exactly for the raw-text kinds).
pub fn check_log(log: &EventLog, input: &[u8]) {
    let mut at = 0u64;
    let mut bytes = Vec::new();
    for event in &log.events {
        if let Some(payload) = event.payload() {
            let span = event.span();
            assert_eq!(
                span.start, at,
                "payload spans must be contiguous: {event:?}"
            );
            assert_eq!(span.len(), payload.len() as u64, "span length: {event:?}");
            at = span.end;
            bytes.extend_from_slice(payload);
        }
    }
    assert_eq!(at, input.len() as u64, "payload spans must cover the input");
    assert_eq!(bytes, input, "payload bytes must be the input");
    let mut started = Vec::new();
    let mut ended = Vec::new();
    // The call whose parameter value is open: parameters never nest, and values only come
    // inside one.
    let mut param = None;
    let mut param_kind = None;
    for event in &log.events {
        match event {
            OwnedEvent::ToolStart { call, .. } => {
                assert_eq!(*call as usize, started.len(), "calls are numbered in order");
                started.push(*call);
            }
            OwnedEvent::ToolEnd { call, .. } => {
                assert!(
                    started.contains(call),
                    "call {call} ended before it started"
                );
                assert!(!ended.contains(call), "call {call} ended twice");
                ended.push(*call);
                if param == Some(*call) {
                    param = None;
                }
            }
            OwnedEvent::ToolParam { call, kind, .. } => {
                assert_eq!(param, None, "parameters do not nest: {event:?}");
                param_kind = Some(*kind);
                assert!(
                    started.contains(call) && !ended.contains(call),
                    "a parameter of a call that is not open: {event:?}"
                );
                param = Some(*call);
            }
            OwnedEvent::ToolValue { call, piece, .. } => {
                assert_eq!(param, Some(*call), "a value outside a parameter: {event:?}");
                let literal = param_kind.is_some_and(ValueKind::is_literal);
                assert_eq!(
                    *piece == Piece::Verbatim,
                    !literal,
                    "a value piece of another kind's: {event:?} in a {param_kind:?} parameter"
                );
            }
            OwnedEvent::ToolParamEnd { call, .. } => {
                assert_eq!(param, Some(*call), "a parameter end without a parameter");
                param = None;
            }
            _ => {}
        }
    }
    ended.sort_unstable();
    assert_eq!(started, ended, "every call that starts ends");
}

/// A compact, exact rendering of a log: `T` text, `R` reasoning, `<role>` delimiter,
/// `E` envelope, `S` start, `N` late name, `I` id, `A` arguments, `P` parameter
/// (`call:key:kind`), `V` value (`call:Piece"bytes"`), `P-` parameter end, `X` end,
/// `D` diagnostic, `R+`/`R-` reasoning bounds, `F` fabricated result.
pub fn render(log: &EventLog) -> Vec<String> {
    let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    log.events
        .iter()
        .map(|e| match e {
            OwnedEvent::Text { text, .. } => format!("T{:?}", s(text)),
            OwnedEvent::Reasoning { text, .. } => format!("R{:?}", s(text)),
            OwnedEvent::Markup {
                kind: Markup::Delimiter(role),
                ..
            } => format!("<{role:?}>"),
            OwnedEvent::Markup { bytes, .. } => format!("E{:?}", s(bytes)),
            OwnedEvent::ReasoningStart { .. } => "R+".into(),
            OwnedEvent::ReasoningEnd { .. } => "R-".into(),
            OwnedEvent::ToolStart {
                call,
                name,
                provisional,
                ..
            } => {
                let draft = if *provisional { "?" } else { "" };
                format!(
                    "S{call}{draft}:{}",
                    name.as_deref().map(s).unwrap_or_default()
                )
            }
            OwnedEvent::ToolId { call, id, .. } => format!("I{call}:{}", s(id)),
            OwnedEvent::ToolName { call, name, .. } => format!("N{call}:{}", s(name)),
            OwnedEvent::ToolArgs { call, json, .. } => format!("A{call}{:?}", s(json)),
            OwnedEvent::ToolParam {
                call, key, kind, ..
            } => format!("P{call}:{}:{}", s(key), kind.code()),
            OwnedEvent::ToolValue {
                call, piece, bytes, ..
            } => format!("V{call}:{piece:?}{:?}", s(bytes)),
            OwnedEvent::ToolParamEnd { call, .. } => format!("P-{call}"),
            OwnedEvent::ToolEnd { call, end, .. } => format!("X{call}:{end:?}"),
            OwnedEvent::FabricatedResult { .. } => "F".into(),
            OwnedEvent::Diagnostic { diagnostic, .. } => format!("D:{}", diagnostic.code()),
        })
        .collect()
}

/// How each call of a log ended, in call order.
pub fn ends(log: &EventLog) -> Vec<CallEnd> {
    let mut ends: Vec<(u32, CallEnd)> = log
        .events
        .iter()
        .filter_map(|e| match e {
            OwnedEvent::ToolEnd { call, end, .. } => Some((*call, *end)),
            _ => None,
        })
        .collect();
    ends.sort_by_key(|(call, _)| *call);
    ends.into_iter().map(|(_, end)| end).collect()
}

/// The [`render`]ed log of `input` in `dialect`, after [`check`] has fed it in every
/// chunking.
pub fn scan(dialect: Dialect, options: Options, input: &str) -> Vec<String> {
    render(&check(dialect, options, input.as_bytes()))
}

/// The [`render`]ed events of each feed of `chunks` with default options, the last one
/// including `finish` (the whole input goes through [`check`] too): pins what each feed may
/// emit at chosen chunk boundaries.
pub fn per_feed(dialect: Dialect, chunks: &[&str]) -> Vec<Vec<String>> {
    check(dialect, Options::default(), chunks.concat().as_bytes());
    let mut scanner = Scanner::new(dialect, Options::default());
    let mut feeds = Vec::new();
    for (k, chunk) in chunks.iter().enumerate() {
        let mut log = EventLog::new();
        scanner.feed(chunk.as_bytes(), &mut log).unwrap();
        if k + 1 == chunks.len() {
            scanner.finish(&mut log).unwrap();
        }
        feeds.push(render(&log));
    }
    feeds
}

/// The completion of `chunks` fed in turn, ids seeded with 1.
pub fn assembled<'a>(
    dialect: Dialect,
    options: Options,
    chunks: impl IntoIterator<Item = &'a [u8]>,
) -> Completion {
    assemble(dialect, options, &AssembleOptions::seeded(1), chunks)
}

/// The completion of `input` (ids seeded with 1), checked to be the same whole, one byte
/// at a time and at every two-way split; its events pass [`check`].
pub fn completion(dialect: Dialect, options: Options, input: &str) -> Completion {
    let whole = completion_bytewise(dialect, options, &AssembleOptions::seeded(1), input);
    let bytes = input.as_bytes();
    for k in 0..=bytes.len() {
        assert_eq!(
            assembled(dialect, options, [&bytes[..k], &bytes[k..]]),
            whole,
            "split at {k}"
        );
    }
    whole
}

/// The completion of `input` with `assemble_options`, checked to be the same whole and one
/// byte at a time; its events pass [`check`].
pub fn completion_bytewise(
    dialect: Dialect,
    options: Options,
    assemble_options: &AssembleOptions,
    input: &str,
) -> Completion {
    let bytes = input.as_bytes();
    check(dialect, options, bytes);
    let whole = assemble(dialect, options, assemble_options, [bytes]);
    assert_eq!(
        assemble(dialect, options, assemble_options, bytes.chunks(1)),
        whole,
        "byte by byte"
    );
    whole
}

/// The complete calls of `completion` as `(name, arguments)`, the arguments as serde_json
/// values.
pub fn calls(completion: &Completion) -> Vec<(String, Value)> {
    completion
        .tool_calls
        .iter()
        .map(|call| {
            let text = serde_json::to_string(&call.arguments).unwrap();
            (call.name.clone(), serde_json::from_str(&text).unwrap())
        })
        .collect()
}

/// An expected entry of [`calls`].
pub fn call(name: &str, arguments: Value) -> (String, Value) {
    (name.to_owned(), arguments)
}

/// The codes of `completion`'s diagnostics, in order.
pub fn codes(completion: &Completion) -> Vec<&'static str> {
    completion.diagnostics.iter().map(|d| d.code).collect()
}

/// `input` cut into chunks of the given sizes (bytes), cycling through them; no chunk is
/// empty, and an empty input gives no chunk.
pub fn chunked<'a>(input: &'a [u8], sizes: &[usize]) -> Vec<&'a [u8]> {
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
    chunks
}

/// The log of `input` fed whole (checked with [`check_log`]) and the log of it cut by
/// [`chunked`] at `sizes`, for property tests to compare.
pub fn whole_and_chunked(
    dialect: Dialect,
    options: Options,
    input: &[u8],
    sizes: &[usize],
) -> (EventLog, EventLog) {
    let whole = EventLog::scan(dialect, options, [input]);
    check_log(&whole, input);
    let chunked = EventLog::scan(dialect, options, chunked(input, sizes));
    (whole, chunked)
}
