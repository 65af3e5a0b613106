//! Wall-clock throughput (criterion, `Throughput::Bytes`) of the Hermes scanner on prose,
//! one 64 KiB call, 200 small calls and a 1 KiB–16 MiB size sweep, whole and chunked.
//!
//! Run with `cargo bench --bench throughput`; figures are recorded in `BENCHMARKS.md`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use inband::{Dialect, Scanner};

#[path = "inputs.rs"]
mod inputs;

use inputs::{Counts, Input};

/// Counts heap allocations so each bench can check that a scan makes none.
struct CountingAllocator;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: forwards every call unchanged to `System`, which upholds the `GlobalAlloc`
// contract; the counter has no effect on the memory handed out.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's preconditions for `alloc` are passed through unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: `ptr` and `layout` come from this allocator, i.e. from `System`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` and `layout` come from this allocator, i.e. from `System`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Chunkings: `0` is the whole input in one `feed`.
const CHUNKS: [usize; 4] = [0, 16, 4, 1];

fn chunk_id(chunk: usize) -> String {
    if chunk == 0 {
        "whole".to_string()
    } else {
        format!("{chunk}B")
    }
}

/// Scans `input` once outside the measurement and panics unless the events are exactly
/// the expected ones and the scan allocated nothing.
fn check(name: &str, input: &Input, chunk: usize) {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let counts = inputs::scan(&input.bytes, chunk);
    let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
    input.check(&counts);
    assert_eq!(
        allocations,
        0,
        "{name}/{}: the scan allocated",
        chunk_id(chunk)
    );
}

/// The measured routine: a fresh scanner (set up outside the timing) fed the whole input.
fn bench_scan(b: &mut criterion::Bencher<'_>, bytes: &[u8], chunk: usize) {
    b.iter_batched_ref(
        || {
            (
                Scanner::new(Dialect::Hermes, inputs::options()),
                Counts::default(),
            )
        },
        |(scanner, sink)| {
            inputs::scan_into(scanner, sink, black_box(bytes), chunk);
            sink.events
        },
        BatchSize::SmallInput,
    );
}

fn bench_input(c: &mut Criterion, name: &str, input: &Input) {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(input.len() as u64));
    for chunk in CHUNKS {
        check(name, input, chunk);
        group.bench_function(chunk_id(chunk), |b| bench_scan(b, &input.bytes, chunk));
    }
    group.finish();
}

fn inputs(c: &mut Criterion) {
    bench_input(c, "prose_1MiB", &inputs::prose(inputs::PROSE_LEN));
    bench_input(c, "call_64KiB", &inputs::big_call(inputs::CODE_LEN));
    bench_input(c, "calls_200", &inputs::many_calls(inputs::MANY_CALLS));
}

/// Cost per byte against response size: the same prose-and-calls mix, 4-byte chunks.
fn sweep(c: &mut Criterion) {
    let mut group = c.benchmark_group("sweep_4B");
    for len in inputs::SWEEP {
        let input = inputs::mix(len);
        assert_eq!(input.calls, len as u64 / 1024);
        check("sweep_4B", &input, 4);
        let label = if len >= 1 << 20 {
            format!("{}MiB", len >> 20)
        } else {
            format!("{}KiB", len >> 10)
        };
        group.throughput(Throughput::Bytes(len as u64));
        group.bench_function(BenchmarkId::from_parameter(label), |b| {
            bench_scan(b, &input.bytes, 4)
        });
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = config();
    targets = inputs, sweep
}
criterion_main!(benches);
