//! A server's decode loop, timed (criterion): feed each chunk, take the delta after it,
//! write it as a `chat.completion.chunk`, and at the end the last delta and the finish
//! reason; every dialect, on the shared benchmark inputs, fed whole and in 16, 4 and 1-byte
//! chunks, next to the core scanner alone on the same chunks.
//!
//! Three loops per cell:
//! - `core`: the scanner with a counting sink (`benches/inputs/counts.rs`), the floor;
//! - `borrowed`: [`DeltaStream::delta`] (buffers reused) and [`write_chunk`] into one
//!   reused `Vec<u8>`, what a server should call;
//! - `owned`: [`DeltaStream::take_delta`], [`ChunkDelta::to_openai`] and serde_json, the
//!   loop a server wrote before the library had a serializer.
//!
//! `cargo bench -p inband-alloc --bench decode_loop [-- FILTER]`; see `BENCHMARKS.md`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use inband::{Dialect, Scanner};
use inband_alloc::assemble::AssembleOptions;
use inband_alloc::stream::{write_chunk, ChunkMeta, DeltaStream, Retain};
use serde_json::{json, Value};

#[path = "../../benches/inputs/mod.rs"]
mod inputs;

use inputs::Input;

const META: ChunkMeta<'static> = ChunkMeta {
    id: "chatcmpl-bench",
    created: 0,
    model: "bench",
};

fn pieces(input: &Input, chunk: usize) -> Vec<&[u8]> {
    if chunk == 0 {
        vec![&input.bytes[..]]
    } else {
        input.bytes.chunks(chunk).collect()
    }
}

/// The borrowed loop; returns the bytes written and the calls seen, for the checks.
fn borrowed(dialect: Dialect, pieces: &[&[u8]], retain: Retain, out: &mut Vec<u8>) -> (usize, u64) {
    let mut scanner = Scanner::new(dialect, inputs::options());
    let mut stream = DeltaStream::retaining(dialect, &AssembleOptions::seeded(7), retain);
    let (mut written, mut calls, mut first) = (0, 0, true);
    for piece in pieces {
        scanner.feed(piece, &mut stream).unwrap();
        let delta = stream.delta();
        if delta.is_empty() {
            continue;
        }
        calls += delta.tool_calls.iter().filter(|c| c.id.is_some()).count() as u64;
        out.clear();
        write_chunk(out, &META, delta, std::mem::take(&mut first), None).unwrap();
        written += out.len();
    }
    scanner.finish(&mut stream).unwrap();
    let (delta, reason, completion) = stream.finish();
    calls += delta.tool_calls.iter().filter(|c| c.id.is_some()).count() as u64;
    out.clear();
    write_chunk(out, &META, &delta, first, Some(reason)).unwrap();
    black_box(completion);
    (written + out.len(), calls)
}

/// The owned loop (the pre-serializer way); returns what [`borrowed`] returns.
fn owned(dialect: Dialect, pieces: &[&[u8]], retain: Retain, out: &mut Vec<u8>) -> (usize, u64) {
    let mut scanner = Scanner::new(dialect, inputs::options());
    let mut stream = DeltaStream::retaining(dialect, &AssembleOptions::seeded(7), retain);
    let (mut written, mut calls) = (0, 0);
    let write = |delta: Value, reason: Option<&str>, out: &mut Vec<u8>| {
        let chunk = json!({
            "id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 0,
            "model": "bench",
            "choices": [{ "index": 0, "delta": delta, "finish_reason": reason }],
        });
        out.clear();
        serde_json::to_writer(&mut *out, &chunk).unwrap();
        out.len()
    };
    for piece in pieces {
        scanner.feed(piece, &mut stream).unwrap();
        let delta = stream.take_delta();
        if delta.is_empty() {
            continue;
        }
        calls += delta.tool_calls.iter().filter(|c| c.id.is_some()).count() as u64;
        written += write(Value::Object(delta.to_openai()), None, out);
    }
    scanner.finish(&mut stream).unwrap();
    let (delta, reason, completion) = stream.finish();
    calls += delta.tool_calls.iter().filter(|c| c.id.is_some()).count() as u64;
    written += write(Value::Object(delta.to_openai()), Some(reason), out);
    black_box(completion);
    (written, calls)
}

/// Every dialect the generators write; Hermes first.
const DIALECTS: &[Dialect] = &[
    Dialect::Hermes,
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

fn chunk_id(chunk: usize) -> String {
    if chunk == 0 {
        "whole".into()
    } else {
        format!("{chunk}B")
    }
}

fn decode_loop(c: &mut Criterion) {
    let mut out = Vec::new();
    for &dialect in DIALECTS {
        let cases = [
            // 256 KiB of prose: a long answer; the per-byte cost is flat beyond it.
            ("prose_256KiB", inputs::prose(dialect, 256 << 10)),
            ("call_64KiB", inputs::big_call(dialect, inputs::CODE_LEN)),
            ("calls_200", inputs::many_calls(dialect, inputs::MANY_CALLS)),
        ];
        for (name, input) in &cases {
            let mut group = c.benchmark_group(format!("{dialect}/{name}"));
            group.throughput(Throughput::Bytes(input.bytes.len() as u64));
            for chunk in [0, 16, 4, 1] {
                let pieces = pieces(input, chunk);
                // The loops agree and see every call before anything is timed.
                let (_, calls) = borrowed(dialect, &pieces, Retain::Unsent, &mut out);
                assert_eq!(calls, input.calls, "{dialect} {name} {chunk}");
                assert_eq!(
                    owned(dialect, &pieces, Retain::Unsent, &mut out).1,
                    input.calls
                );
                let id = chunk_id(chunk);
                group.bench_function(BenchmarkId::new("core", &id), |b| {
                    b.iter(|| inputs::scan(input, chunk))
                });
                group.bench_function(BenchmarkId::new("borrowed", &id), |b| {
                    b.iter(|| borrowed(dialect, &pieces, Retain::Unsent, &mut out))
                });
                group.bench_function(BenchmarkId::new("owned", &id), |b| {
                    b.iter(|| owned(dialect, &pieces, Retain::Unsent, &mut out))
                });
                group.bench_function(BenchmarkId::new("borrowed_completion", &id), |b| {
                    b.iter(|| borrowed(dialect, &pieces, Retain::Completion, &mut out))
                });
            }
            group.finish();
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(700));
    targets = decode_loop
}
criterion_main!(benches);
