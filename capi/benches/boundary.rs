//! The C ABI's cost per token against the Rust API's, in one run: the same 200-call Hermes
//! response (`benches/inputs/`, 49 837 bytes) fed in 4-byte tokens through
//! `Scanner::feed` with a Rust sink and through `inband_scanner_feed` with C callbacks
//! (level 1), and through `DeltaStream` + `ChunkDelta::to_openai` + serde_json and through
//! `inband_deltas_feed` (level 2). The extern "C" functions are called as a C program
//! calls them: the status checks, the panic guard and the callback table all run. The four
//! paths run interleaved, round after round, so that load from other processes hits them
//! alike; each figure is the best round's wall-clock time, in ns per token.
//!
//! `cargo bench -p inband-capi --bench boundary` (a few seconds after the build).

use std::ffi::{c_char, c_void};
use std::hint::black_box;
use std::time::{Duration, Instant};

use inband::{Scanner, Sink, Span};
use inband_alloc::assemble::AssembleOptions;
use inband_alloc::stream::DeltaStream;
use inband_capi::*;

#[path = "../../benches/inputs/mod.rs"]
mod inputs;

const TOKEN: usize = 4;
const ROUNDS: usize = 31;

/// Counts payload bytes, as the C callbacks below do.
#[derive(Default)]
struct Count(u64);

impl Sink for Count {
    fn text(&mut self, _: Span, text: &[u8]) {
        self.0 += text.len() as u64;
    }
    fn markup(&mut self, _: Span, _: inband::Markup, bytes: &[u8]) {
        self.0 += bytes.len() as u64;
    }
    fn tool_args(&mut self, _: Span, _: u32, json: &[u8]) {
        self.0 += json.len() as u64;
    }
}

unsafe extern "C" fn c_text(user: *mut c_void, _: inband_span_t, _: *const u8, len: usize) {
    // SAFETY: `user` is the `u64` counter passed to feed.
    unsafe { *user.cast::<u64>() += len as u64 };
}

unsafe extern "C" fn c_markup(
    user: *mut c_void,
    _: inband_span_t,
    _: *const c_char,
    _: usize,
    _: *const u8,
    len: usize,
) {
    // SAFETY: as in `c_text`.
    unsafe { *user.cast::<u64>() += len as u64 };
}

unsafe extern "C" fn c_args(user: *mut c_void, _: inband_span_t, _: u32, _: *const u8, len: usize) {
    // SAFETY: as in `c_text`.
    unsafe { *user.cast::<u64>() += len as u64 };
}

/// The time of one run of `body`.
fn time(body: &mut dyn FnMut()) -> Duration {
    let start = Instant::now();
    body();
    start.elapsed()
}

fn main() {
    let input = inputs::many_calls(inband::Dialect::Hermes, inputs::MANY_CALLS);
    let bytes = &input.bytes;
    let tokens = bytes.len().div_ceil(TOKEN);

    let rust_json = std::cell::Cell::new(0usize);
    let c_json = std::cell::Cell::new(0usize);
    let mut rust_l1 = || rust_scanner(input.dialect, bytes);
    let callbacks = inband_callbacks_t {
        text: Some(c_text),
        markup: Some(c_markup),
        tool_args: Some(c_args),
        ..Default::default()
    };
    let mut c_l1 = || c_scanner(bytes, &callbacks);
    let mut rust_l2 = || rust_json.set(rust_deltas(input.dialect, bytes));
    let mut c_l2 = || c_json.set(c_deltas(bytes));
    let mut best = [Duration::MAX; 4];
    for _ in 0..ROUNDS {
        let paths: [&mut dyn FnMut(); 4] = [&mut rust_l1, &mut c_l1, &mut rust_l2, &mut c_l2];
        for (best, path) in best.iter_mut().zip(paths) {
            *best = (*best).min(time(path));
        }
    }
    assert_eq!(
        c_json.get(),
        rust_json.get(),
        "both paths give the same delta JSON bytes"
    );

    println!(
        "input: {} bytes, {tokens} tokens of {TOKEN} bytes, {} calls",
        bytes.len(),
        input.calls
    );
    print_table(best, tokens);
}

/// Level 1 through the Rust API: the baseline the C callbacks are measured against.
fn rust_scanner(dialect: inband::Dialect, bytes: &[u8]) {
    let mut scanner = Scanner::new(dialect, inband::Options::default());
    let mut count = Count::default();
    for token in bytes.chunks(TOKEN) {
        scanner.feed(black_box(token), &mut count).unwrap();
    }
    scanner.finish(&mut count).unwrap();
    assert_eq!(count.0, bytes.len() as u64);
}

/// Level 1 through the C ABI, in caller-provided memory as a C program without an
/// allocator would run it.
fn c_scanner(bytes: &[u8], callbacks: &inband_callbacks_t) {
    let mut mem = [0u64; 128];
    assert!(inband_scanner_size() <= std::mem::size_of_val(&mem));
    let mut scanner = std::ptr::null_mut();
    let mut count = 0u64;
    let user = (&mut count as *mut u64).cast::<c_void>();
    // SAFETY: `mem` is large and aligned enough (checked); every pointer is valid.
    unsafe {
        let size = std::mem::size_of_val(&mem);
        let status = inband_scanner_init(
            mem.as_mut_ptr().cast(),
            size,
            INBAND_DIALECT_HERMES,
            std::ptr::null(),
            &mut scanner,
        );
        assert_eq!(status, INBAND_OK);
        for token in bytes.chunks(TOKEN) {
            let token = black_box(token);
            let status = inband_scanner_feed(scanner, token.as_ptr(), token.len(), callbacks, user);
            assert_eq!(status, INBAND_OK);
        }
        assert_eq!(inband_scanner_finish(scanner, callbacks, user), INBAND_OK);
    }
    assert_eq!(count, bytes.len() as u64);
}

/// Level 2 through the Rust API, serializing each delta as the C ABI does; returns the
/// JSON bytes written, which `main` checks against [`c_deltas`]'s.
fn rust_deltas(dialect: inband::Dialect, bytes: &[u8]) -> usize {
    let mut scanner = Scanner::new(dialect, inband::Options::default());
    let mut stream = DeltaStream::new(dialect, &AssembleOptions::seeded(1));
    let mut out = Vec::new();
    let mut json = 0;
    for token in bytes.chunks(TOKEN) {
        scanner.feed(black_box(token), &mut stream).unwrap();
        out.clear();
        let delta = serde_json::Value::Object(stream.take_delta().to_openai());
        serde_json::to_writer(&mut out, &delta).unwrap();
        json += out.len();
    }
    scanner.finish(&mut stream).unwrap();
    black_box(stream.finish());
    json
}

/// Level 2 through the C ABI, with the same seed as [`rust_deltas`] so that the JSON
/// matches byte for byte; returns the JSON bytes returned.
fn c_deltas(bytes: &[u8]) -> usize {
    let options = inband_delta_options_t {
        scanner: inband_options_t {
            starts_in_reasoning: false,
            max_argument_bytes: 0,
            max_calls: 0,
        },
        tools: std::ptr::null(),
        tools_len: 0,
        has_seed: true,
        seed: 1,
        hold_calls: false,
        stop_at_fabricated_result: false,
        max_response_bytes: 0,
        unsent_only: false,
    };
    let mut deltas = std::ptr::null_mut();
    let mut total = 0;
    // SAFETY: every pointer is valid; the handle is freed at the end.
    unsafe {
        assert_eq!(
            inband_deltas_new(INBAND_DIALECT_HERMES, &options, &mut deltas),
            INBAND_OK
        );
        for token in bytes.chunks(TOKEN) {
            let token = black_box(token);
            let mut json = std::ptr::null();
            let mut len = 0;
            let status =
                inband_deltas_feed(deltas, token.as_ptr(), token.len(), &mut json, &mut len);
            assert_eq!(status, INBAND_OK);
            total += len;
        }
        let mut end = std::mem::MaybeUninit::uninit();
        assert_eq!(inband_deltas_finish(deltas, end.as_mut_ptr()), INBAND_OK);
        assert_eq!(inband_deltas_free(&mut deltas), INBAND_OK);
    }
    total
}

/// The Markdown table of BENCHMARKS.md: the best round of each path `[rust_l1, c_l1,
/// rust_l2, c_l2]`, per token, and the C ABI's overhead.
fn print_table(best: [Duration; 4], tokens: usize) {
    let per_token = |d: Duration| d.as_nanos() as f64 / tokens as f64;
    let [rust_l1, c_l1, rust_l2, c_l2] = best;
    println!("| path | Rust API ns/token | C ABI ns/token | C − Rust |");
    println!("| --- | ---: | ---: | ---: |");
    for (name, rust, c) in [
        ("level 1: scanner + callbacks", rust_l1, c_l1),
        ("level 2: delta JSON", rust_l2, c_l2),
    ] {
        println!(
            "| {name} | {:.1} | {:.1} | {:+.1} |",
            per_token(rust),
            per_token(c),
            per_token(c) - per_token(rust)
        );
    }
}
