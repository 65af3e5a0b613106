//! Heap bytes per input byte: peak and retained, for the assembler (a whole `Completion`)
//! and the `DeltaStream` (a server's per-chunk deltas, keeping the whole completion or
//! only what it has not sent, in bytes), on the bench inputs and on hostile ones. A counting global allocator measures them; `cargo bench --bench memory` prints a
//! table (figures in BENCHMARKS.md). Counts are deterministic: no clock is read.

#[path = "inputs/mod.rs"]
mod inputs;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use inband::{Dialect, Scanner};
use inband_alloc::assemble::{AssembleOptions, Assembler};
use inband_alloc::stream::{DeltaStream, Retain};

/// Counts live heap bytes and their peak (the bench is single-threaded).
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every method forwards to `System` unchanged; the counters are atomics.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_sub(layout.size(), Relaxed);
        grew(new_size);
        // SAFETY: same contract as ours.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Heap bytes: the peak above the start, and what is still live at the end above the start.
struct Heap {
    peak: usize,
    retained: usize,
}

fn measure<T>(run: impl FnOnce() -> T) -> (Heap, T) {
    let start = LIVE.load(Relaxed);
    PEAK.store(start, Relaxed);
    let out = run();
    let heap = Heap {
        peak: PEAK.load(Relaxed) - start,
        retained: LIVE.load(Relaxed).saturating_sub(start),
    };
    (heap, out)
}

/// The server's chunk: 16 bytes, about four tokens. Scanner options: `inputs::options()`
/// (no call limit, so every call of the hostile inputs is a call).
const CHUNK: usize = 16;

/// The assembler over the whole input fed in `CHUNK`-byte chunks; retained is the
/// `Completion`.
fn assembler(dialect: Dialect, input: &[u8]) -> Heap {
    let (heap, completion) = measure(|| {
        let mut scanner = Scanner::new(dialect, inputs::options());
        let mut assembler = Assembler::new(dialect, &AssembleOptions::seeded(1));
        for chunk in input.chunks(CHUNK) {
            scanner.feed(chunk, &mut assembler).unwrap();
        }
        scanner.finish(&mut assembler).unwrap();
        assembler.finish()
    });
    drop(completion);
    heap
}

/// The delta stream fed in `CHUNK`-byte chunks, each delta taken and dropped (sent);
/// retained is the stream's own state just before its `finish`.
fn delta_stream(dialect: Dialect, input: &[u8], retain: Retain) -> Heap {
    let (heap, stream) = measure(|| {
        let mut scanner = Scanner::new(dialect, inputs::options());
        let mut stream = DeltaStream::retaining(dialect, &AssembleOptions::seeded(1), retain);
        for chunk in input.chunks(CHUNK) {
            scanner.feed(chunk, &mut stream).unwrap();
            drop(stream.take_delta());
        }
        scanner.finish(&mut stream).unwrap();
        stream
    });
    drop(stream.finish());
    heap
}

fn row(name: &str, dialect: Dialect, input: &[u8]) {
    let len = input.len() as f64;
    let a = assembler(dialect, input);
    let d = delta_stream(dialect, input, Retain::Completion);
    let u = delta_stream(dialect, input, Retain::Unsent);
    println!(
        "| {name} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {} | {} |",
        input.len(),
        a.peak as f64 / len,
        a.retained as f64 / len,
        d.peak as f64 / len,
        d.retained as f64 / len,
        u.peak,
        u.retained,
    );
}

fn main() {
    let hermes = Dialect::Hermes;
    println!(
        "| input | bytes | assembler peak B/B | assembler retained B/B | stream peak B/B | stream retained B/B | unsent stream peak bytes | unsent stream retained bytes |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let input = inputs::prose(hermes, inputs::PROSE_LEN);
    row("prose_1MiB", hermes, &input.bytes);
    let input = inputs::big_call(hermes, inputs::CODE_LEN);
    row("call_64KiB", hermes, &input.bytes);
    let input = inputs::many_calls(hermes, inputs::MANY_CALLS);
    row("calls_200", hermes, &input.bytes);
    let input = inputs::mix(16 << 20);
    row("mix_16MiB", hermes, &input.bytes);
    // Hostile: openers without closers, endless small calls, one huge argument.
    let openers = "<tool_call>".repeat((4 << 20) / 11);
    row("`<tool_call>` x 381k", Dialect::Qwen3, openers.as_bytes());
    let call = "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1}}</tool_call>\n";
    let calls = call.repeat((16 << 20) / call.len());
    row("small calls, 16 MiB", Dialect::Qwen3, calls.as_bytes());
    let huge = format!(
        "<tool_call>{{\"name\": \"write\", \"arguments\": {{\"body\": \"{}\"}}}}</tool_call>",
        "x".repeat(16 << 20)
    );
    row("one 16 MiB argument", Dialect::Qwen3, huge.as_bytes());
}
