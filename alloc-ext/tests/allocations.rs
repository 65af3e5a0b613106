//! Heap allocations of the server path, counted by a global allocator: a
//! [`DeltaStream`] fed chunk by chunk, its delta taken after each ([`DeltaStream::delta`])
//! and written with [`write_chunk`], allocates nothing per chunk in steady state, a small
//! constant per call (its id and name, the call's record), and nothing per argument
//! fragment.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use inband::{Dialect, Options, Scanner};
use inband_alloc::assemble::AssembleOptions;
use inband_alloc::stream::{write_chunk, ChunkMeta, DeltaStream, Retain};

thread_local! {
    // Per thread: the test harness runs tests in parallel threads.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

struct Counting;

// SAFETY: every call is forwarded to `System` unchanged; the counter is a thread-local
// `Cell` that needs no allocation.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

const META: ChunkMeta<'static> = ChunkMeta {
    id: "chatcmpl-test",
    created: 0,
    model: "test",
};

/// A server's decode loop over `chunks`; returns the allocations made while feeding each
/// of them (scan, delta, serialisation into a reused buffer).
struct Server {
    scanner: Scanner,
    stream: DeltaStream,
    out: Vec<u8>,
}

impl Server {
    fn new(dialect: Dialect, retain: Retain) -> Self {
        Server {
            scanner: Scanner::new(dialect, Options::default()),
            stream: DeltaStream::retaining(dialect, &AssembleOptions::seeded(3), retain),
            out: Vec::with_capacity(1 << 16),
        }
    }

    /// Feeds `bytes` in `chunk`-byte pieces; returns the allocations it took.
    fn feed(&mut self, bytes: &[u8], chunk: usize) -> u64 {
        let before = allocations();
        for piece in bytes.chunks(chunk) {
            self.scanner.feed(piece, &mut self.stream).unwrap();
            let delta = self.stream.delta();
            if !delta.is_empty() {
                self.out.clear();
                write_chunk(&mut self.out, &META, delta, false, None).unwrap();
            }
        }
        allocations() - before
    }
}

fn prose(len: usize) -> Vec<u8> {
    let words = "Zürich — the forecast says < 10 °C; see `Vec<u8>` and 日本語 😀. ";
    words.repeat(len / words.len() + 1).into_bytes()[..len].to_vec()
}

#[test]
fn prose_chunks_allocate_nothing_in_steady_state() {
    for chunk in [1, 4, 16, 4096] {
        let text = prose(64 << 10);
        let mut server = Server::new(Dialect::Hermes, Retain::Unsent);
        // Warm-up: the buffers reach their working size.
        server.feed(&text, chunk);
        assert_eq!(server.feed(&text, chunk), 0, "{chunk}-byte chunks");
        assert_eq!(server.feed(&text, chunk), 0, "{chunk}-byte chunks");
    }
}

#[test]
fn reasoning_chunks_allocate_nothing_in_steady_state() {
    let text = prose(64 << 10);
    let mut server = Server::new(Dialect::Hermes, Retain::Unsent);
    server.feed(b"<think>", 4);
    server.feed(&text, 4);
    assert_eq!(server.feed(&text, 4), 0);
}

fn call(args_len: usize) -> Vec<u8> {
    let value = "x".repeat(args_len);
    format!(
        "Let me look.\n<tool_call>\n{{\"name\": \"write_file\", \"arguments\": {{\"path\": \"a.txt\", \"content\": \"{value}\"}}}}\n</tool_call>\n"
    )
    .into_bytes()
}

#[test]
fn calls_allocate_a_small_constant_each() {
    for chunk in [1, 4, 16, 4096] {
        let mut server = Server::new(Dialect::Hermes, Retain::Unsent);
        let one = call(40);
        for _ in 0..10 {
            server.feed(&one, chunk);
        }
        let ten = (0..10)
            .map(|_| server.feed(&one, chunk))
            .collect::<Vec<_>>();
        // The same for every call: nothing accumulates.
        assert!(ten.iter().all(|&n| n == ten[0]), "{chunk}: {ten:?}");
        assert_eq!(ten[0], PER_CALL, "{chunk}-byte chunks");
    }
}

/// Allocations per Hermes JSON call of about 140 bytes, whatever the chunking: its name.
/// The record's buffers (id, raw capture, argument text, repeated-key filter and its key
/// table) are a retired call's, the delta's id and name `String`s an earlier fragment's,
/// and with `Retain::Unsent` the arguments are checked to be one JSON object without
/// building it.
const PER_CALL: u64 = 1;

#[test]
fn argument_fragments_allocate_nothing() {
    // A call with 64 times the argument text of another costs only the growth of the
    // buffers that hold it (one doubling each per factor two), not one per fragment.
    let mut small = Server::new(Dialect::Hermes, Retain::Unsent);
    let mut large = Server::new(Dialect::Hermes, Retain::Unsent);
    let (short, long) = (call(1 << 10), call(64 << 10));
    small.feed(&short, 4);
    large.feed(&long, 4);
    let (a, b) = (small.feed(&short, 4), large.feed(&long, 4));
    // Buffers of up to 16 KiB are reused from call to call; larger ones are not kept, so
    // the 64 KiB call grows its raw capture, argument text and delta fragment again:
    // nothing for the 16 000 more fragments.
    assert_eq!((a, b), (PER_CALL + 1, 31), "4-byte chunks");
}

#[path = "../../benches/inputs/mod.rs"]
mod inputs;

/// The dialects of the per-response table: a JSON body in tags, in tokens, Harmony, the
/// parameter tagsets, GLM and Gemma's literals.
const DIALECTS: [Dialect; 8] = [
    Dialect::Hermes,
    Dialect::Kimi,
    Dialect::Harmony,
    Dialect::Xml,
    Dialect::Minimax,
    Dialect::Qwen3Coder,
    Dialect::Glm,
    Dialect::Gemma,
];

/// Chunk sizes of the table (`0`: the response in one piece).
const CHUNKS: [usize; 3] = [1, 4, 0];

/// The allocations of one whole response of `input` through a server's decode loop, from
/// the scanner's and the stream's creation to the final chunk written and everything
/// dropped, with the chunks fed and the calls announced.
fn response(input: &inputs::Input, chunk: usize) -> (u64, u64, u64) {
    let size = if chunk == 0 { input.bytes.len() } else { chunk };
    let before = allocations();
    let dialect = input.dialect;
    let mut scanner = Scanner::new(dialect, inputs::options());
    let mut stream = DeltaStream::unsent(dialect, &AssembleOptions::seeded(3));
    let mut out = Vec::with_capacity(1 << 16);
    let (mut chunks, mut calls) = (0, 0);
    for piece in input.bytes.chunks(size) {
        scanner.feed(piece, &mut stream).unwrap();
        let delta = stream.delta();
        calls += delta.tool_calls.iter().filter(|c| c.id.is_some()).count() as u64;
        out.clear();
        write_chunk(&mut out, &META, delta, chunks == 0, None).unwrap();
        chunks += 1;
    }
    scanner.finish(&mut stream).unwrap();
    let (delta, reason, completion) = stream.finish();
    calls += delta.tool_calls.iter().filter(|c| c.id.is_some()).count() as u64;
    out.clear();
    write_chunk(&mut out, &META, &delta, false, Some(reason)).unwrap();
    drop((completion, delta, out));
    (allocations() - before, chunks, calls)
}

/// Allocations per response through the decode loop (`Retain::Unsent`), by dialect, for
/// 64 KiB of prose, one call with a 64 KiB argument and 200 small calls with prose, each
/// at 1 B, 4 B and whole (`BENCHMARKS.md` has them per chunk and per call). Exact: a
/// regression of one allocation per chunk, per call or per fragment changes them. In
/// small chunks a call costs its name (and, with a model-written id, the copy the set of
/// ids keeps: Kimi); fed whole, the one delta holds every call's fragment and the calls'
/// records are all open at once, so their buffers are not reused from call to call.
const RESPONSES: [(Dialect, [[u64; 3]; 3]); 8] = [
    (Dialect::Hermes, [[3, 3, 3], [48, 48, 39], [232, 234, 3252]]),
    (Dialect::Kimi, [[3, 2, 3], [50, 50, 42], [441, 441, 3694]]),
    (
        Dialect::Harmony,
        [[5, 4, 4], [49, 49, 38], [232, 232, 3253]],
    ),
    (Dialect::Xml, [[3, 3, 3], [80, 80, 59], [245, 245, 4125]]),
    (
        Dialect::Minimax,
        [[3, 3, 3], [79, 79, 70], [244, 243, 4124]],
    ),
    (
        Dialect::Qwen3Coder,
        [[3, 3, 3], [80, 80, 59], [245, 245, 4125]],
    ),
    (Dialect::Glm, [[3, 3, 3], [79, 79, 70], [245, 246, 4161]]),
    (
        Dialect::Gemma,
        [[3, 3, 3], [55, 55, 59], [1181, 1182, 5043]],
    ),
];

#[test]
fn responses_allocate_what_the_table_says() {
    let mut table = Vec::new();
    for dialect in DIALECTS {
        let inputs = [
            inputs::prose(dialect, 64 << 10),
            inputs::big_call(dialect, inputs::CODE_LEN),
            inputs::many_calls(dialect, inputs::MANY_CALLS),
        ];
        let mut row = [[0; 3]; 3];
        for (i, input) in inputs.iter().enumerate() {
            for (j, chunk) in CHUNKS.into_iter().enumerate() {
                let (n, chunks, calls) = response(input, chunk);
                assert_eq!(calls, input.calls, "{dialect}");
                eprintln!(
                    "{dialect} input {i} chunk {chunk}: {n} allocations, {chunks} chunks, {calls} calls, {:.4}/chunk, {:.2}/call",
                    n as f64 / chunks as f64,
                    n as f64 / calls.max(1) as f64
                );
                row[i][j] = n;
            }
        }
        table.push((dialect, row));
    }
    eprintln!("{table:?}");
    assert_eq!(table, RESPONSES);
}
