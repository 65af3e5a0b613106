//! Bounded memory: a counting global allocator measures the heap the assembler, the delta
//! stream, the event log and the tools loader use (bytes live, their peak, allocations),
//! on hostile inputs. Allocation sizes are deterministic: no clock is read.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use inband::{Dialect, Options, Scanner};
use inband_alloc::assemble::{assemble, AssembleOptions, Assembler};
use inband_alloc::events::{EventLog, OwnedEvent};
use inband_alloc::inventory::tool_inventory;
use inband_alloc::prompt::tool_prompt;
use inband_alloc::stream::DeltaStream;
use inband_alloc::tools::{ToolSet, ToolsError};

/// Counts the current thread's heap (tests run in parallel threads).
struct Counting;

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn grew(by: usize) {
    ALLOCATIONS.with(|n| n.set(n.get() + 1));
    LIVE.with(|live| {
        live.set(live.get() + by);
        PEAK.with(|peak| peak.set(peak.get().max(live.get())));
    });
}

fn shrank(by: usize) {
    // A block freed on another thread than its own may underflow this one's count.
    LIVE.with(|live| live.set(live.get().saturating_sub(by)));
}

// SAFETY: every method forwards to `System` unchanged; the counters are thread-local
// `Cell`s with const initialisers, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrank(layout.size());
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        shrank(layout.size());
        grew(new_size);
        // SAFETY: same contract as ours.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// What `run` did to the heap, in bytes above the heap at its start.
#[derive(Debug)]
struct Heap {
    peak: usize,
    /// Live at the end (what `run` returned included).
    retained: usize,
    allocations: u64,
}

fn measure<T>(run: impl FnOnce() -> T) -> (Heap, T) {
    let start = LIVE.with(Cell::get);
    PEAK.with(|peak| peak.set(start));
    let allocations = ALLOCATIONS.with(Cell::get);
    let out = run();
    let heap = Heap {
        peak: PEAK.with(Cell::get) - start,
        retained: LIVE.with(Cell::get).saturating_sub(start),
        allocations: ALLOCATIONS.with(Cell::get) - allocations,
    };
    (heap, out)
}

/// The server's decode step: about four tokens.
const STEP: usize = 16;

#[test]
fn the_assembler_drops_settled_calls() {
    // 100 000 openers without a body: each starts a call that is released as text.
    let input = "<tool_call>".repeat(100_000);
    let (heap, completion) = measure(|| {
        let mut scanner = Scanner::new(Dialect::Qwen3, Options::default());
        let mut assembler = Assembler::new(Dialect::Qwen3, &AssembleOptions::seeded(1));
        for chunk in input.as_bytes().chunks(STEP) {
            scanner.feed(chunk, &mut assembler).unwrap();
        }
        scanner.finish(&mut assembler).unwrap();
        assembler.finish()
    });
    assert_eq!(completion.content, input);
    assert!(completion.tool_calls.is_empty());
    assert!(completion.incomplete_calls.is_empty());
    let codes = |code: &str| {
        completion
            .diagnostics
            .iter()
            .filter(|d| d.code == code)
            .count()
    };
    assert_eq!(codes("malformed_call"), 1024);
    assert_eq!(codes("too_many_calls"), 100_000 - 1024);
    // The completion itself: the content and 100 000 diagnostics of 48 bytes (in a vector
    // of 131 072). Calls' records (hundreds of bytes each) are gone once settled: the peak
    // was 82 bytes per input byte when they all stayed.
    let len = input.len();
    assert!(heap.retained < 7 * len, "{heap:?} for {len} bytes");
    assert!(heap.peak < 12 * len, "{heap:?} for {len} bytes");
}

/// Feeds `calls` copies of `call` to a stream that keeps only what it has not sent, one
/// `STEP` at a time, and returns the heap, the distinct call indexes sent and every
/// argument fragment joined.
fn unsent_stream(call: &str, calls: usize) -> (Heap, u32, String, &'static str) {
    let input = call.repeat(calls);
    let (heap, (indexes, arguments, reason, completion)) = measure(|| {
        let mut scanner = Scanner::new(Dialect::Qwen3, Options::default());
        let mut stream = DeltaStream::unsent(Dialect::Qwen3, &AssembleOptions::seeded(1));
        let mut indexes = 0;
        let mut arguments = String::new();
        let mut take = |delta: inband_alloc::stream::ChunkDelta| {
            for call in delta.tool_calls {
                indexes += u32::from(call.id.is_some());
                arguments.push_str(&call.arguments);
            }
        };
        for chunk in input.as_bytes().chunks(STEP) {
            scanner.feed(chunk, &mut stream).unwrap();
            take(stream.take_delta());
        }
        scanner.finish(&mut stream).unwrap();
        let (last, reason, completion) = stream.finish();
        take(last);
        (indexes, arguments, reason, completion)
    });
    // Nothing sent is kept for the completion.
    assert_eq!(completion.content, "");
    assert_eq!(completion.reasoning, None);
    assert!(completion.tool_calls.is_empty());
    assert!(completion.incomplete_calls.is_empty());
    (heap, indexes, arguments, reason)
}

#[test]
fn an_unsent_stream_stays_flat_however_many_calls() {
    let call = "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1}}</tool_call>\n";
    // Within the scanner's call limit (1024 by default).
    let (small, indexes, arguments, reason) = unsent_stream(call, 100);
    assert_eq!(indexes, 100);
    assert_eq!(arguments, "{\"a\": 1}".repeat(100));
    assert_eq!(reason, "tool_calls");
    let (large, indexes, arguments, _) = unsent_stream(call, 1000);
    assert_eq!(indexes, 1000);
    assert_eq!(arguments.len(), 1000 * 8);
    // Ten times the calls, the same state: what the test itself collects (the argument
    // text, 8 bytes a call) is the only growth.
    assert!(
        large.peak < small.peak + 2 * 8 * 1000 + 1024,
        "{small:?} → {large:?}"
    );
    assert!(large.peak < 32 << 10, "{large:?}");
}

#[test]
fn an_unsent_stream_of_endless_prose_holds_one_step() {
    let prose = "Plain prose with a < and a <b> now and then, ünïcödé too. ".repeat(100_000);
    let (heap, completion) = measure(|| {
        let mut scanner = Scanner::new(Dialect::Qwen3, Options::default());
        let mut stream = DeltaStream::unsent(Dialect::Qwen3, &AssembleOptions::seeded(1));
        let mut sent = 0;
        for chunk in prose.as_bytes().chunks(STEP) {
            scanner.feed(chunk, &mut stream).unwrap();
            sent += stream.take_delta().content.len();
        }
        scanner.finish(&mut stream).unwrap();
        let (last, reason, completion) = stream.finish();
        assert_eq!(sent + last.content.len(), prose.len());
        assert_eq!(reason, "stop");
        completion
    });
    assert_eq!(completion.content, "");
    assert!(completion.diagnostics.is_empty());
    // 6 MB of input; the stream never holds more than a few steps of it.
    assert!(heap.peak < 1024, "{heap:?}");
}

#[test]
fn an_unsent_stream_keeps_1024_diagnostics_then_counts() {
    let input = "<tool_call>".repeat(1500);
    let mut scanner = Scanner::new(Dialect::Qwen3, Options::default());
    let mut stream = DeltaStream::unsent(Dialect::Qwen3, &AssembleOptions::seeded(1));
    for chunk in input.as_bytes().chunks(STEP) {
        scanner.feed(chunk, &mut stream).unwrap();
        stream.take_delta();
    }
    scanner.finish(&mut stream).unwrap();
    let (_, reason, completion) = stream.finish();
    assert_eq!(reason, "stop");
    assert_eq!(completion.diagnostics.len(), 1025);
    let last = completion.diagnostics.last().unwrap();
    assert_eq!(last.code, "too_many_diagnostics");
    // From the 1025th diagnostic (the 1025th opener's too_many_calls) to the last one's.
    assert_eq!(last.span, [11 * 1024, 11 * 1500]);
}

#[test]
fn a_whole_completion_is_cut_at_max_response_bytes() {
    let input = "Hello there, world. <tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1}}</tool_call> and after";
    let mut options = AssembleOptions::seeded(1);
    options.max_response_bytes = 50;
    let completion = assemble(
        Dialect::Qwen3,
        Options::default(),
        &options,
        [input.as_bytes()],
    );
    assert_eq!(completion.content, "Hello there, world.");
    assert!(completion.tool_calls.is_empty());
    assert_eq!(completion.incomplete_calls.len(), 1);
    assert_eq!(completion.incomplete_calls[0].name.as_deref(), Some("f"));
    let codes: Vec<(&str, [u64; 2])> = completion
        .diagnostics
        .iter()
        .map(|d| (d.code, d.span))
        .collect();
    // Cut at byte 50, inside the envelope `, "arguments": ` (43..58), which is left out.
    assert_eq!(codes.last(), Some(&("response_too_long", [50, 50])));
    assert_eq!(completion.incomplete_calls[0].arguments, "");
    // Without the limit the call is complete.
    let whole = assemble(
        Dialect::Qwen3,
        Options::default(),
        &AssembleOptions::seeded(1),
        [input.as_bytes()],
    );
    assert_eq!(whole.tool_calls.len(), 1);
    assert_eq!(whole.content, "Hello there, world.  and after");
}

/// The payloads of the events of `input` scanned in `size`-byte chunks, taken as settled
/// after each chunk in pieces of at most `max` bytes.
fn pieces(input: &[u8], size: usize, max: usize) -> Vec<OwnedEvent> {
    let mut scanner = Scanner::new(Dialect::Qwen3, Options::default());
    let mut log = EventLog::new();
    let mut taken = Vec::new();
    for chunk in input.chunks(size) {
        scanner.feed(chunk, &mut log).unwrap();
        taken.extend(log.take_settled(max));
        assert!(log.events.len() <= 1, "at most the last event is held");
    }
    scanner.finish(&mut log).unwrap();
    taken.extend(log.take_all(max));
    taken
}

#[test]
fn settled_events_come_in_the_same_pieces_whatever_the_chunking() {
    let text = "ab€ünï 😀 ".repeat(300);
    let input = format!(
        "{text}<tool_call>{{\"name\": \"f\", \"arguments\": {{\"body\": \"{text}\"}}}}</tool_call>{text}"
    );
    let whole = pieces(input.as_bytes(), input.len(), 100);
    for size in [1, 3, 16, 101] {
        assert_eq!(
            pieces(input.as_bytes(), size, 100),
            whole,
            "{size}-byte chunks"
        );
    }
    let mut joined = Vec::new();
    for event in &whole {
        if let Some(payload) = event.payload() {
            assert!(payload.len() <= 100);
            let span = event.span();
            assert_eq!(span.end - span.start, payload.len() as u64);
            if matches!(event, OwnedEvent::Text { .. }) {
                // Cut at code points: every piece is UTF-8 on its own.
                assert!(std::str::from_utf8(payload).is_ok());
            }
        }
        joined.push(event.span());
    }
    // The spans still tile the input.
    let covered: u64 = whole
        .iter()
        .filter(|e| {
            matches!(
                e,
                OwnedEvent::Text { .. } | OwnedEvent::Markup { .. } | OwnedEvent::ToolArgs { .. }
            )
        })
        .map(|e| e.span().end - e.span().start)
        .sum();
    assert_eq!(covered, input.len() as u64);
    // Nothing is lost: the text pieces join to the text.
    let text_out: Vec<u8> = whole
        .iter()
        .filter_map(|e| match e {
            OwnedEvent::Text { text, .. } => Some(text.as_slice()),
            _ => None,
        })
        .flatten()
        .copied()
        .collect();
    assert_eq!(text_out, format!("{text}{text}").as_bytes());
}

fn tools_json(n: usize) -> String {
    let mut json = String::from("[");
    for i in 0..n {
        if i > 0 {
            json.push(',');
        }
        json.push_str(&format!(
            r#"{{"type":"function","function":{{"name":"tool_{i}","description":"Tool {i}.","parameters":{{"type":"object","properties":{{"path":{{"type":"string"}}}}}}}}}}"#
        ));
    }
    json.push(']');
    json
}

#[test]
fn loading_and_prompting_100k_tools_is_linear() {
    let small = tools_json(1_000);
    let large = tools_json(100_000);
    let (small_load, tools) = measure(|| ToolSet::from_json(small.as_bytes()).unwrap());
    drop(tools);
    let (large_load, tools) = measure(|| ToolSet::from_json(large.as_bytes()).unwrap());
    assert_eq!(tools.len(), 100_000);
    assert!(tools.contains("tool_99999"));
    // A hundred times the tools, a hundred times the allocations (give or take the
    // doubling of the array and the name index).
    assert!(
        large_load.allocations < 101 * small_load.allocations,
        "{small_load:?} → {large_load:?}"
    );
    let (prompt, text) = measure(|| tool_prompt(&tools, Dialect::Qwen3).unwrap());
    assert!(text.contains("\"name\":\"tool_99999\""));
    assert!(prompt.allocations < 40 * 100_000, "{prompt:?}");
    let (inventory, text) = measure(|| tool_inventory(&tools, "Qwen/Qwen3-8B").unwrap());
    assert!(text.contains("# Tool: tool_99999\n"));
    assert!(inventory.allocations < 100 * 100_000, "{inventory:?}");
    eprintln!("100k tools: load {large_load:?}, prompt {prompt:?}, inventory {inventory:?}");
    // A repeated name is still found, and named with its first position.
    let repeated = format!("{},{{\"name\":\"tool_5\"}}]", &large[..large.len() - 1]);
    match ToolSet::from_json(repeated.as_bytes()) {
        Err(ToolsError::Duplicate { index, first, name }) => {
            assert_eq!((index, first, name.as_str()), (100_000, 5, "tool_5"));
        }
        other => panic!("{other:?}"),
    }
}

/// The response ends at `max_response_bytes` whatever the chunking: a text or argument
/// event that crosses it keeps its bytes before it, and a code point the limit cuts is
/// dropped, not reported as invalid (found by a review: the whole crossing event was left
/// out, so the cut moved with the chunks, and a code point split by them came out U+FFFD).
#[test]
fn the_response_limit_cuts_at_the_same_byte_at_every_chunking() {
    use inband_alloc::stream::DeltaStream;
    let input = "h\u{e9}llo \u{65e5}\u{672c}<think>r\u{1f980}</think> <tool_call>{\"name\": \"f\", \"arguments\": {\"a\": \"\u{e9}\u{e9}\"}}</tool_call> tail".as_bytes();
    for limit in 0..=input.len() as u64 + 1 {
        let mut options = AssembleOptions::seeded(5);
        options.max_response_bytes = limit;
        let whole = assemble(Dialect::Qwen3, Options::default(), &options, [input]);
        assert!(
            !whole.diagnostics.iter().any(|d| d.code == "invalid_utf8"),
            "limit {limit}: {:?}",
            whole.diagnostics
        );
        for size in 1..=7 {
            let chunked = assemble(
                Dialect::Qwen3,
                Options::default(),
                &options,
                input.chunks(size),
            );
            assert_eq!(chunked, whole, "limit {limit}, {size}-byte chunks");
            let mut scanner = Scanner::new(Dialect::Qwen3, Options::default());
            let mut stream = DeltaStream::new(Dialect::Qwen3, &options);
            for chunk in input.chunks(size) {
                scanner.feed(chunk, &mut stream).unwrap();
                stream.delta();
            }
            scanner.finish(&mut stream).unwrap();
            let (_, _, streamed) = stream.finish();
            assert_eq!(streamed, whole, "stream: limit {limit}, {size}-byte chunks");
        }
    }
    let mut options = AssembleOptions::seeded(5);
    options.max_response_bytes = 2;
    let cut = assemble(Dialect::Qwen3, Options::default(), &options, [input]);
    // `h` and the first byte of `é` are within 2 bytes: `é` is cut, `h` stays.
    assert_eq!(cut.content, "h");
}
