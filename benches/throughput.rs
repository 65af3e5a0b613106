//! Throughput (criterion, `Throughput::Bytes`) of the Hermes scanner on prose,
//! one 64 KiB call, 200 small calls and a 1 KiB–16 MiB size sweep, whole and chunked.
//!
//! Run with `cargo bench --bench throughput`; figures are recorded in `BENCHMARKS.md`.
//! On Linux the clock is the thread's CPU time, so that other work on a shared machine is
//! not counted; `INBAND_BENCH_CLOCK=wall` measures wall-clock time instead.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use inband::{Dialect, Scanner};

#[path = "inputs/mod.rs"]
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

/// The benches' clock, in nanoseconds: this thread's CPU time (Linux), or wall-clock time
/// when `INBAND_BENCH_CLOCK=wall` is set or the target is not Linux.
struct Clock {
    cpu: bool,
}

impl Clock {
    fn from_env() -> Self {
        let wall = std::env::var("INBAND_BENCH_CLOCK").is_ok_and(|v| v == "wall");
        Clock {
            cpu: cfg!(target_os = "linux") && !wall,
        }
    }

    fn now(&self) -> u64 {
        if self.cpu {
            thread_cpu_ns()
        } else {
            static EPOCH: OnceLock<Instant> = OnceLock::new();
            EPOCH.get_or_init(Instant::now).elapsed().as_nanos() as u64
        }
    }
}

#[cfg(target_os = "linux")]
fn thread_cpu_ns() -> u64 {
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut time = Timespec { sec: 0, nsec: 0 };
    // SAFETY: `clock_gettime` is the C library's (std links it on Linux) and writes one
    // `struct timespec` (two 64-bit fields on the 64-bit targets we bench) through a valid,
    // exclusive pointer; the clock id is Linux's CLOCK_THREAD_CPUTIME_ID.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut time) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    time.sec as u64 * 1_000_000_000 + time.nsec as u64
}

#[cfg(not(target_os = "linux"))]
fn thread_cpu_ns() -> u64 {
    unreachable!("the CPU-time clock is only used on Linux")
}

impl Measurement for Clock {
    type Intermediate = u64;
    type Value = u64;

    fn start(&self) -> u64 {
        self.now()
    }
    fn end(&self, start: u64) -> u64 {
        self.now() - start
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, value: &u64) -> f64 {
        *value as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        // Values are nanoseconds, as for wall-clock time.
        static WALL: WallTime = WallTime;
        WALL.formatter()
    }
}

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
    let counts = inputs::scan(input, chunk);
    let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
    input.check(&counts);
    assert_eq!(
        allocations,
        0,
        "{name}/{}: the scan allocated",
        chunk_id(chunk)
    );
}

/// The measured routine: a fresh scanner (set up outside the timing) fed the whole input
/// in `chunk`-byte pieces, then finished.
fn bench_scan(b: &mut criterion::Bencher<'_, Clock>, input: &Input, chunk: usize) {
    b.iter_batched_ref(
        || {
            (
                Scanner::new(input.dialect, inputs::options()),
                Counts::default(),
            )
        },
        |(scanner, sink)| {
            inputs::scan_into(scanner, sink, black_box(&input.bytes), chunk);
            sink.events
        },
        BatchSize::SmallInput,
    );
}

fn bench_input(c: &mut Criterion<Clock>, name: &str, input: &Input) {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(input.len() as u64));
    for chunk in CHUNKS {
        check(name, input, chunk);
        group.bench_function(chunk_id(chunk), |b| bench_scan(b, input, chunk));
    }
    group.finish();
}

fn inputs(c: &mut Criterion<Clock>) {
    let hermes = Dialect::Hermes;
    bench_input(c, "prose_1MiB", &inputs::prose(hermes, inputs::PROSE_LEN));
    bench_input(c, "call_64KiB", &inputs::big_call(hermes, inputs::CODE_LEN));
    bench_input(
        c,
        "calls_200",
        &inputs::many_calls(hermes, inputs::MANY_CALLS),
    );
}

/// The dialects other than Hermes, on the same three inputs written in each, fed whole
/// and in 4-byte chunks.
const DIALECTS: &[Dialect] = &[
    Dialect::Kimi,
    Dialect::Deepseek,
    Dialect::Harmony,
    Dialect::Xml,
    Dialect::Gemma,
    Dialect::Gemini,
    Dialect::Glm,
    Dialect::Anthropic,
    Dialect::Minimax,
    Dialect::Qwen3Coder,
    Dialect::SeedOss,
    Dialect::Jamba,
    Dialect::Longcat,
    Dialect::Granite,
    Dialect::Internlm,
    Dialect::Mistral,
    Dialect::Pythonic,
    Dialect::Lfm2,
    Dialect::Llama3Json,
    Dialect::Xlam,
    Dialect::Phi4Mini,
    Dialect::HunyuanA13b,
    Dialect::Hunyuan,
    Dialect::IquestQ1,
    Dialect::K2Horizon,
    Dialect::Cohere,
    Dialect::Apertus,
    Dialect::DeepseekV41,
    Dialect::Dots,
    Dialect::Ernie45,
    Dialect::Granite20bFc,
    Dialect::FunctionGemma,
    Dialect::Minicpm5,
    Dialect::KimiK3,
    Dialect::Muse,
    Dialect::Mimo,
    Dialect::Step3,
    Dialect::Gigachat35,
    Dialect::Gigachat3,
    Dialect::Plamo3,
    Dialect::MinimaxM3,
];

fn dialects(c: &mut Criterion<Clock>) {
    for &dialect in DIALECTS {
        let cases = [
            ("prose_1MiB", inputs::prose(dialect, inputs::PROSE_LEN)),
            ("call_64KiB", inputs::big_call(dialect, inputs::CODE_LEN)),
            ("calls_200", inputs::many_calls(dialect, inputs::MANY_CALLS)),
        ];
        for (name, input) in &cases {
            let name = format!("{dialect}_{name}");
            let mut group = c.benchmark_group(&name);
            group.throughput(Throughput::Bytes(input.len() as u64));
            for chunk in [0, 4] {
                check(&name, input, chunk);
                group.bench_function(chunk_id(chunk), |b| bench_scan(b, input, chunk));
            }
            group.finish();
        }
    }
}

/// Cost per byte against response size: the same prose-and-calls mix, 4-byte chunks.
fn sweep(c: &mut Criterion<Clock>) {
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
            bench_scan(b, &input, 4)
        });
    }
    group.finish();
}

fn config() -> Criterion<Clock> {
    Criterion::default()
        .with_measurement(Clock::from_env())
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = config();
    targets = inputs, dialects, sweep
}
criterion_main!(benches);
