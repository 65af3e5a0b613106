//! Instruction counts (iai-callgrind) of the server path: a [`DeltaStream`] fed chunk by
//! chunk with its delta taken and written after each (`delta_stream`), and [`assemble`]
//! (`assemble`), for every dialect on the shared benchmark inputs, whole and in 4-byte
//! chunks (the decode loop in 1-byte chunks too); and a DHAT check of the allocations of a
//! long stream of calls.
//!
//! Needs `cargo install iai-callgrind-runner --version 0.16.1`; see `BENCHMARKS.md`.

use std::hint::black_box;

use iai_callgrind::{
    library_benchmark, library_benchmark_group, main, Callgrind, Dhat, DhatMetric, EventKind,
    LibraryBenchmarkConfig,
};
use inband::{Dialect, Scanner};
use inband_alloc::assemble::{assemble, AssembleOptions};
use inband_alloc::stream::{write_chunk, ChunkMeta, DeltaStream, Retain};

#[path = "../../benches/inputs/mod.rs"]
mod inputs;

use inputs::Input;

/// Prose is cut to 64 KiB here: callgrind runs some 50 times slower than native.
const PROSE_SMALL: usize = 64 << 10;

const META: ChunkMeta<'static> = ChunkMeta {
    id: "chatcmpl-bench",
    created: 0,
    model: "bench",
};

/// One input and the chunk size to feed it in (`0`: whole).
struct Case {
    input: Input,
    chunk: usize,
}

fn case(dialect: Dialect, input: &str, chunk: usize) -> Case {
    let input = match input {
        "prose" => inputs::prose(dialect, PROSE_SMALL),
        "call" => inputs::big_call(dialect, inputs::CODE_LEN),
        _ => inputs::many_calls(dialect, inputs::MANY_CALLS),
    };
    Case { input, chunk }
}

fn pieces(case: &Case) -> std::slice::Chunks<'_, u8> {
    let size = if case.chunk == 0 {
        case.input.bytes.len()
    } else {
        case.chunk
    };
    case.input.bytes.chunks(size.max(1))
}

/// A server's decode loop; returns the calls its deltas announced.
fn serve(case: &Case, retain: Retain) -> u64 {
    let dialect = case.input.dialect;
    let mut scanner = Scanner::new(dialect, inputs::options());
    let mut stream = DeltaStream::retaining(dialect, &AssembleOptions::seeded(7), retain);
    let mut out = Vec::with_capacity(1 << 16);
    let mut calls = 0;
    for piece in pieces(case) {
        scanner.feed(piece, &mut stream).unwrap();
        let delta = stream.delta();
        calls += delta.tool_calls.iter().filter(|c| c.id.is_some()).count() as u64;
        out.clear();
        write_chunk(&mut out, &META, delta, false, None).unwrap();
        black_box(&out);
    }
    scanner.finish(&mut stream).unwrap();
    let (delta, reason, completion) = stream.finish();
    calls += delta.tool_calls.iter().filter(|c| c.id.is_some()).count() as u64;
    out.clear();
    write_chunk(&mut out, &META, &delta, false, Some(reason)).unwrap();
    black_box((&out, completion));
    calls
}

// The decode loop over each dialect's inputs, the stream keeping only what it has not
// sent; the count of calls announced is checked. Ids are spelled out so that a new case
// does not shift the baselines of the others. (The macro rejects doc comments.)
#[library_benchmark]
#[bench::hermes_prose_whole(args = (Dialect::Hermes, "prose", 0), setup = case)]
#[bench::hermes_prose_4b(args = (Dialect::Hermes, "prose", 4), setup = case)]
#[bench::hermes_call_whole(args = (Dialect::Hermes, "call", 0), setup = case)]
#[bench::hermes_call_4b(args = (Dialect::Hermes, "call", 4), setup = case)]
#[bench::hermes_calls_whole(args = (Dialect::Hermes, "calls", 0), setup = case)]
#[bench::hermes_calls_4b(args = (Dialect::Hermes, "calls", 4), setup = case)]
#[bench::kimi_prose_whole(args = (Dialect::Kimi, "prose", 0), setup = case)]
#[bench::kimi_prose_4b(args = (Dialect::Kimi, "prose", 4), setup = case)]
#[bench::kimi_call_whole(args = (Dialect::Kimi, "call", 0), setup = case)]
#[bench::kimi_call_4b(args = (Dialect::Kimi, "call", 4), setup = case)]
#[bench::kimi_calls_whole(args = (Dialect::Kimi, "calls", 0), setup = case)]
#[bench::kimi_calls_4b(args = (Dialect::Kimi, "calls", 4), setup = case)]
#[bench::deepseek_prose_whole(args = (Dialect::Deepseek, "prose", 0), setup = case)]
#[bench::deepseek_prose_4b(args = (Dialect::Deepseek, "prose", 4), setup = case)]
#[bench::deepseek_call_whole(args = (Dialect::Deepseek, "call", 0), setup = case)]
#[bench::deepseek_call_4b(args = (Dialect::Deepseek, "call", 4), setup = case)]
#[bench::deepseek_calls_whole(args = (Dialect::Deepseek, "calls", 0), setup = case)]
#[bench::deepseek_calls_4b(args = (Dialect::Deepseek, "calls", 4), setup = case)]
#[bench::harmony_prose_whole(args = (Dialect::Harmony, "prose", 0), setup = case)]
#[bench::harmony_prose_4b(args = (Dialect::Harmony, "prose", 4), setup = case)]
#[bench::harmony_call_whole(args = (Dialect::Harmony, "call", 0), setup = case)]
#[bench::harmony_call_4b(args = (Dialect::Harmony, "call", 4), setup = case)]
#[bench::harmony_calls_whole(args = (Dialect::Harmony, "calls", 0), setup = case)]
#[bench::harmony_calls_4b(args = (Dialect::Harmony, "calls", 4), setup = case)]
#[bench::xml_prose_whole(args = (Dialect::Xml, "prose", 0), setup = case)]
#[bench::xml_prose_4b(args = (Dialect::Xml, "prose", 4), setup = case)]
#[bench::xml_call_whole(args = (Dialect::Xml, "call", 0), setup = case)]
#[bench::xml_call_4b(args = (Dialect::Xml, "call", 4), setup = case)]
#[bench::xml_calls_whole(args = (Dialect::Xml, "calls", 0), setup = case)]
#[bench::xml_calls_4b(args = (Dialect::Xml, "calls", 4), setup = case)]
#[bench::gemma_prose_whole(args = (Dialect::Gemma, "prose", 0), setup = case)]
#[bench::gemma_prose_4b(args = (Dialect::Gemma, "prose", 4), setup = case)]
#[bench::gemma_call_whole(args = (Dialect::Gemma, "call", 0), setup = case)]
#[bench::gemma_call_4b(args = (Dialect::Gemma, "call", 4), setup = case)]
#[bench::gemma_calls_whole(args = (Dialect::Gemma, "calls", 0), setup = case)]
#[bench::gemma_calls_4b(args = (Dialect::Gemma, "calls", 4), setup = case)]
#[bench::gemini_prose_whole(args = (Dialect::Gemini, "prose", 0), setup = case)]
#[bench::gemini_prose_4b(args = (Dialect::Gemini, "prose", 4), setup = case)]
#[bench::gemini_call_whole(args = (Dialect::Gemini, "call", 0), setup = case)]
#[bench::gemini_call_4b(args = (Dialect::Gemini, "call", 4), setup = case)]
#[bench::gemini_calls_whole(args = (Dialect::Gemini, "calls", 0), setup = case)]
#[bench::gemini_calls_4b(args = (Dialect::Gemini, "calls", 4), setup = case)]
#[bench::glm_prose_whole(args = (Dialect::Glm, "prose", 0), setup = case)]
#[bench::glm_prose_4b(args = (Dialect::Glm, "prose", 4), setup = case)]
#[bench::glm_call_whole(args = (Dialect::Glm, "call", 0), setup = case)]
#[bench::glm_call_4b(args = (Dialect::Glm, "call", 4), setup = case)]
#[bench::glm_calls_whole(args = (Dialect::Glm, "calls", 0), setup = case)]
#[bench::glm_calls_4b(args = (Dialect::Glm, "calls", 4), setup = case)]
#[bench::anthropic_prose_whole(args = (Dialect::Anthropic, "prose", 0), setup = case)]
#[bench::anthropic_prose_4b(args = (Dialect::Anthropic, "prose", 4), setup = case)]
#[bench::anthropic_call_whole(args = (Dialect::Anthropic, "call", 0), setup = case)]
#[bench::anthropic_call_4b(args = (Dialect::Anthropic, "call", 4), setup = case)]
#[bench::anthropic_calls_whole(args = (Dialect::Anthropic, "calls", 0), setup = case)]
#[bench::anthropic_calls_4b(args = (Dialect::Anthropic, "calls", 4), setup = case)]
#[bench::minimax_prose_whole(args = (Dialect::Minimax, "prose", 0), setup = case)]
#[bench::minimax_prose_4b(args = (Dialect::Minimax, "prose", 4), setup = case)]
#[bench::minimax_call_whole(args = (Dialect::Minimax, "call", 0), setup = case)]
#[bench::minimax_call_4b(args = (Dialect::Minimax, "call", 4), setup = case)]
#[bench::minimax_calls_whole(args = (Dialect::Minimax, "calls", 0), setup = case)]
#[bench::minimax_calls_4b(args = (Dialect::Minimax, "calls", 4), setup = case)]
#[bench::qwen3_coder_prose_whole(args = (Dialect::Qwen3Coder, "prose", 0), setup = case)]
#[bench::qwen3_coder_prose_4b(args = (Dialect::Qwen3Coder, "prose", 4), setup = case)]
#[bench::qwen3_coder_call_whole(args = (Dialect::Qwen3Coder, "call", 0), setup = case)]
#[bench::qwen3_coder_call_4b(args = (Dialect::Qwen3Coder, "call", 4), setup = case)]
#[bench::qwen3_coder_calls_whole(args = (Dialect::Qwen3Coder, "calls", 0), setup = case)]
#[bench::qwen3_coder_calls_4b(args = (Dialect::Qwen3Coder, "calls", 4), setup = case)]
#[bench::seed_oss_prose_whole(args = (Dialect::SeedOss, "prose", 0), setup = case)]
#[bench::seed_oss_prose_4b(args = (Dialect::SeedOss, "prose", 4), setup = case)]
#[bench::seed_oss_call_whole(args = (Dialect::SeedOss, "call", 0), setup = case)]
#[bench::seed_oss_call_4b(args = (Dialect::SeedOss, "call", 4), setup = case)]
#[bench::seed_oss_calls_whole(args = (Dialect::SeedOss, "calls", 0), setup = case)]
#[bench::seed_oss_calls_4b(args = (Dialect::SeedOss, "calls", 4), setup = case)]
#[bench::jamba_prose_whole(args = (Dialect::Jamba, "prose", 0), setup = case)]
#[bench::jamba_prose_4b(args = (Dialect::Jamba, "prose", 4), setup = case)]
#[bench::jamba_call_whole(args = (Dialect::Jamba, "call", 0), setup = case)]
#[bench::jamba_call_4b(args = (Dialect::Jamba, "call", 4), setup = case)]
#[bench::jamba_calls_whole(args = (Dialect::Jamba, "calls", 0), setup = case)]
#[bench::jamba_calls_4b(args = (Dialect::Jamba, "calls", 4), setup = case)]
#[bench::granite_prose_whole(args = (Dialect::Granite, "prose", 0), setup = case)]
#[bench::granite_prose_4b(args = (Dialect::Granite, "prose", 4), setup = case)]
#[bench::granite_call_whole(args = (Dialect::Granite, "call", 0), setup = case)]
#[bench::granite_call_4b(args = (Dialect::Granite, "call", 4), setup = case)]
#[bench::granite_calls_whole(args = (Dialect::Granite, "calls", 0), setup = case)]
#[bench::granite_calls_4b(args = (Dialect::Granite, "calls", 4), setup = case)]
#[bench::internlm_prose_whole(args = (Dialect::Internlm, "prose", 0), setup = case)]
#[bench::internlm_prose_4b(args = (Dialect::Internlm, "prose", 4), setup = case)]
#[bench::internlm_call_whole(args = (Dialect::Internlm, "call", 0), setup = case)]
#[bench::internlm_call_4b(args = (Dialect::Internlm, "call", 4), setup = case)]
#[bench::internlm_calls_whole(args = (Dialect::Internlm, "calls", 0), setup = case)]
#[bench::internlm_calls_4b(args = (Dialect::Internlm, "calls", 4), setup = case)]
#[bench::mistral_prose_whole(args = (Dialect::Mistral, "prose", 0), setup = case)]
#[bench::mistral_prose_4b(args = (Dialect::Mistral, "prose", 4), setup = case)]
#[bench::mistral_call_whole(args = (Dialect::Mistral, "call", 0), setup = case)]
#[bench::mistral_call_4b(args = (Dialect::Mistral, "call", 4), setup = case)]
#[bench::mistral_calls_whole(args = (Dialect::Mistral, "calls", 0), setup = case)]
#[bench::mistral_calls_4b(args = (Dialect::Mistral, "calls", 4), setup = case)]
#[bench::pythonic_prose_whole(args = (Dialect::Pythonic, "prose", 0), setup = case)]
#[bench::pythonic_prose_4b(args = (Dialect::Pythonic, "prose", 4), setup = case)]
#[bench::pythonic_call_whole(args = (Dialect::Pythonic, "call", 0), setup = case)]
#[bench::pythonic_call_4b(args = (Dialect::Pythonic, "call", 4), setup = case)]
#[bench::pythonic_calls_whole(args = (Dialect::Pythonic, "calls", 0), setup = case)]
#[bench::pythonic_calls_4b(args = (Dialect::Pythonic, "calls", 4), setup = case)]
#[bench::lfm2_prose_whole(args = (Dialect::Lfm2, "prose", 0), setup = case)]
#[bench::lfm2_prose_4b(args = (Dialect::Lfm2, "prose", 4), setup = case)]
#[bench::lfm2_call_whole(args = (Dialect::Lfm2, "call", 0), setup = case)]
#[bench::lfm2_call_4b(args = (Dialect::Lfm2, "call", 4), setup = case)]
#[bench::lfm2_calls_whole(args = (Dialect::Lfm2, "calls", 0), setup = case)]
#[bench::lfm2_calls_4b(args = (Dialect::Lfm2, "calls", 4), setup = case)]
#[bench::llama3_json_prose_whole(args = (Dialect::Llama3Json, "prose", 0), setup = case)]
#[bench::llama3_json_prose_4b(args = (Dialect::Llama3Json, "prose", 4), setup = case)]
#[bench::llama3_json_call_whole(args = (Dialect::Llama3Json, "call", 0), setup = case)]
#[bench::llama3_json_call_4b(args = (Dialect::Llama3Json, "call", 4), setup = case)]
#[bench::llama3_json_calls_whole(args = (Dialect::Llama3Json, "calls", 0), setup = case)]
#[bench::llama3_json_calls_4b(args = (Dialect::Llama3Json, "calls", 4), setup = case)]
#[bench::xlam_prose_whole(args = (Dialect::Xlam, "prose", 0), setup = case)]
#[bench::xlam_prose_4b(args = (Dialect::Xlam, "prose", 4), setup = case)]
#[bench::xlam_call_whole(args = (Dialect::Xlam, "call", 0), setup = case)]
#[bench::xlam_call_4b(args = (Dialect::Xlam, "call", 4), setup = case)]
#[bench::xlam_calls_whole(args = (Dialect::Xlam, "calls", 0), setup = case)]
#[bench::xlam_calls_4b(args = (Dialect::Xlam, "calls", 4), setup = case)]
#[bench::phi4_mini_prose_whole(args = (Dialect::Phi4Mini, "prose", 0), setup = case)]
#[bench::phi4_mini_prose_4b(args = (Dialect::Phi4Mini, "prose", 4), setup = case)]
#[bench::phi4_mini_call_whole(args = (Dialect::Phi4Mini, "call", 0), setup = case)]
#[bench::phi4_mini_call_4b(args = (Dialect::Phi4Mini, "call", 4), setup = case)]
#[bench::phi4_mini_calls_whole(args = (Dialect::Phi4Mini, "calls", 0), setup = case)]
#[bench::phi4_mini_calls_4b(args = (Dialect::Phi4Mini, "calls", 4), setup = case)]
#[bench::hunyuan_a13b_prose_whole(args = (Dialect::HunyuanA13b, "prose", 0), setup = case)]
#[bench::hunyuan_a13b_prose_4b(args = (Dialect::HunyuanA13b, "prose", 4), setup = case)]
#[bench::hunyuan_a13b_call_whole(args = (Dialect::HunyuanA13b, "call", 0), setup = case)]
#[bench::hunyuan_a13b_call_4b(args = (Dialect::HunyuanA13b, "call", 4), setup = case)]
#[bench::hunyuan_a13b_calls_whole(args = (Dialect::HunyuanA13b, "calls", 0), setup = case)]
#[bench::hunyuan_a13b_calls_4b(args = (Dialect::HunyuanA13b, "calls", 4), setup = case)]
#[bench::hunyuan_prose_whole(args = (Dialect::Hunyuan, "prose", 0), setup = case)]
#[bench::hunyuan_prose_4b(args = (Dialect::Hunyuan, "prose", 4), setup = case)]
#[bench::hunyuan_call_whole(args = (Dialect::Hunyuan, "call", 0), setup = case)]
#[bench::hunyuan_call_4b(args = (Dialect::Hunyuan, "call", 4), setup = case)]
#[bench::hunyuan_calls_whole(args = (Dialect::Hunyuan, "calls", 0), setup = case)]
#[bench::hunyuan_calls_4b(args = (Dialect::Hunyuan, "calls", 4), setup = case)]
#[bench::iquest_q1_prose_whole(args = (Dialect::IquestQ1, "prose", 0), setup = case)]
#[bench::iquest_q1_prose_4b(args = (Dialect::IquestQ1, "prose", 4), setup = case)]
#[bench::iquest_q1_call_whole(args = (Dialect::IquestQ1, "call", 0), setup = case)]
#[bench::iquest_q1_call_4b(args = (Dialect::IquestQ1, "call", 4), setup = case)]
#[bench::iquest_q1_calls_whole(args = (Dialect::IquestQ1, "calls", 0), setup = case)]
#[bench::iquest_q1_calls_4b(args = (Dialect::IquestQ1, "calls", 4), setup = case)]
#[bench::k2_horizon_prose_whole(args = (Dialect::K2Horizon, "prose", 0), setup = case)]
#[bench::k2_horizon_prose_4b(args = (Dialect::K2Horizon, "prose", 4), setup = case)]
#[bench::k2_horizon_call_whole(args = (Dialect::K2Horizon, "call", 0), setup = case)]
#[bench::k2_horizon_call_4b(args = (Dialect::K2Horizon, "call", 4), setup = case)]
#[bench::k2_horizon_calls_whole(args = (Dialect::K2Horizon, "calls", 0), setup = case)]
#[bench::k2_horizon_calls_4b(args = (Dialect::K2Horizon, "calls", 4), setup = case)]
#[bench::dots_prose_whole(args = (Dialect::Dots, "prose", 0), setup = case)]
#[bench::dots_prose_4b(args = (Dialect::Dots, "prose", 4), setup = case)]
#[bench::dots_call_whole(args = (Dialect::Dots, "call", 0), setup = case)]
#[bench::dots_call_4b(args = (Dialect::Dots, "call", 4), setup = case)]
#[bench::dots_calls_whole(args = (Dialect::Dots, "calls", 0), setup = case)]
#[bench::dots_calls_4b(args = (Dialect::Dots, "calls", 4), setup = case)]
#[bench::longcat_prose_whole(args = (Dialect::Longcat, "prose", 0), setup = case)]
#[bench::longcat_prose_4b(args = (Dialect::Longcat, "prose", 4), setup = case)]
#[bench::longcat_call_whole(args = (Dialect::Longcat, "call", 0), setup = case)]
#[bench::longcat_call_4b(args = (Dialect::Longcat, "call", 4), setup = case)]
#[bench::longcat_calls_whole(args = (Dialect::Longcat, "calls", 0), setup = case)]
#[bench::longcat_calls_4b(args = (Dialect::Longcat, "calls", 4), setup = case)]
#[bench::qwen3_prose_whole(args = (Dialect::Qwen3, "prose", 0), setup = case)]
#[bench::qwen3_prose_4b(args = (Dialect::Qwen3, "prose", 4), setup = case)]
#[bench::qwen3_call_whole(args = (Dialect::Qwen3, "call", 0), setup = case)]
#[bench::qwen3_call_4b(args = (Dialect::Qwen3, "call", 4), setup = case)]
#[bench::qwen3_calls_whole(args = (Dialect::Qwen3, "calls", 0), setup = case)]
#[bench::qwen3_calls_4b(args = (Dialect::Qwen3, "calls", 4), setup = case)]
#[bench::hermes_prose_1b(args = (Dialect::Hermes, "prose", 1), setup = case)]
#[bench::hermes_call_1b(args = (Dialect::Hermes, "call", 1), setup = case)]
#[bench::hermes_calls_1b(args = (Dialect::Hermes, "calls", 1), setup = case)]
#[bench::qwen3_prose_1b(args = (Dialect::Qwen3, "prose", 1), setup = case)]
#[bench::qwen3_call_1b(args = (Dialect::Qwen3, "call", 1), setup = case)]
#[bench::qwen3_calls_1b(args = (Dialect::Qwen3, "calls", 1), setup = case)]
#[bench::kimi_prose_1b(args = (Dialect::Kimi, "prose", 1), setup = case)]
#[bench::kimi_call_1b(args = (Dialect::Kimi, "call", 1), setup = case)]
#[bench::kimi_calls_1b(args = (Dialect::Kimi, "calls", 1), setup = case)]
#[bench::deepseek_prose_1b(args = (Dialect::Deepseek, "prose", 1), setup = case)]
#[bench::deepseek_call_1b(args = (Dialect::Deepseek, "call", 1), setup = case)]
#[bench::deepseek_calls_1b(args = (Dialect::Deepseek, "calls", 1), setup = case)]
#[bench::harmony_prose_1b(args = (Dialect::Harmony, "prose", 1), setup = case)]
#[bench::harmony_call_1b(args = (Dialect::Harmony, "call", 1), setup = case)]
#[bench::harmony_calls_1b(args = (Dialect::Harmony, "calls", 1), setup = case)]
#[bench::xml_prose_1b(args = (Dialect::Xml, "prose", 1), setup = case)]
#[bench::xml_call_1b(args = (Dialect::Xml, "call", 1), setup = case)]
#[bench::xml_calls_1b(args = (Dialect::Xml, "calls", 1), setup = case)]
#[bench::gemma_prose_1b(args = (Dialect::Gemma, "prose", 1), setup = case)]
#[bench::gemma_call_1b(args = (Dialect::Gemma, "call", 1), setup = case)]
#[bench::gemma_calls_1b(args = (Dialect::Gemma, "calls", 1), setup = case)]
#[bench::gemini_prose_1b(args = (Dialect::Gemini, "prose", 1), setup = case)]
#[bench::gemini_call_1b(args = (Dialect::Gemini, "call", 1), setup = case)]
#[bench::gemini_calls_1b(args = (Dialect::Gemini, "calls", 1), setup = case)]
#[bench::glm_prose_1b(args = (Dialect::Glm, "prose", 1), setup = case)]
#[bench::glm_call_1b(args = (Dialect::Glm, "call", 1), setup = case)]
#[bench::glm_calls_1b(args = (Dialect::Glm, "calls", 1), setup = case)]
#[bench::anthropic_prose_1b(args = (Dialect::Anthropic, "prose", 1), setup = case)]
#[bench::anthropic_call_1b(args = (Dialect::Anthropic, "call", 1), setup = case)]
#[bench::anthropic_calls_1b(args = (Dialect::Anthropic, "calls", 1), setup = case)]
#[bench::minimax_prose_1b(args = (Dialect::Minimax, "prose", 1), setup = case)]
#[bench::minimax_call_1b(args = (Dialect::Minimax, "call", 1), setup = case)]
#[bench::minimax_calls_1b(args = (Dialect::Minimax, "calls", 1), setup = case)]
#[bench::qwen3_coder_prose_1b(args = (Dialect::Qwen3Coder, "prose", 1), setup = case)]
#[bench::qwen3_coder_call_1b(args = (Dialect::Qwen3Coder, "call", 1), setup = case)]
#[bench::qwen3_coder_calls_1b(args = (Dialect::Qwen3Coder, "calls", 1), setup = case)]
fn delta_stream(case: Case) -> Case {
    assert_eq!(serve(&case, Retain::Unsent), case.input.calls);
    case
}

// The deltas alone, not written out: the stream's own cost against the core's.
#[library_benchmark]
#[bench::hermes_prose_whole(args = (Dialect::Hermes, "prose", 0), setup = case)]
#[bench::hermes_prose_4b(args = (Dialect::Hermes, "prose", 4), setup = case)]
#[bench::hermes_call_whole(args = (Dialect::Hermes, "call", 0), setup = case)]
#[bench::hermes_call_4b(args = (Dialect::Hermes, "call", 4), setup = case)]
#[bench::hermes_calls_whole(args = (Dialect::Hermes, "calls", 0), setup = case)]
#[bench::hermes_calls_4b(args = (Dialect::Hermes, "calls", 4), setup = case)]
#[bench::kimi_prose_whole(args = (Dialect::Kimi, "prose", 0), setup = case)]
#[bench::kimi_prose_4b(args = (Dialect::Kimi, "prose", 4), setup = case)]
#[bench::kimi_call_whole(args = (Dialect::Kimi, "call", 0), setup = case)]
#[bench::kimi_call_4b(args = (Dialect::Kimi, "call", 4), setup = case)]
#[bench::kimi_calls_whole(args = (Dialect::Kimi, "calls", 0), setup = case)]
#[bench::kimi_calls_4b(args = (Dialect::Kimi, "calls", 4), setup = case)]
#[bench::deepseek_prose_whole(args = (Dialect::Deepseek, "prose", 0), setup = case)]
#[bench::deepseek_prose_4b(args = (Dialect::Deepseek, "prose", 4), setup = case)]
#[bench::deepseek_call_whole(args = (Dialect::Deepseek, "call", 0), setup = case)]
#[bench::deepseek_call_4b(args = (Dialect::Deepseek, "call", 4), setup = case)]
#[bench::deepseek_calls_whole(args = (Dialect::Deepseek, "calls", 0), setup = case)]
#[bench::deepseek_calls_4b(args = (Dialect::Deepseek, "calls", 4), setup = case)]
#[bench::harmony_prose_whole(args = (Dialect::Harmony, "prose", 0), setup = case)]
#[bench::harmony_prose_4b(args = (Dialect::Harmony, "prose", 4), setup = case)]
#[bench::harmony_call_whole(args = (Dialect::Harmony, "call", 0), setup = case)]
#[bench::harmony_call_4b(args = (Dialect::Harmony, "call", 4), setup = case)]
#[bench::harmony_calls_whole(args = (Dialect::Harmony, "calls", 0), setup = case)]
#[bench::harmony_calls_4b(args = (Dialect::Harmony, "calls", 4), setup = case)]
#[bench::xml_prose_whole(args = (Dialect::Xml, "prose", 0), setup = case)]
#[bench::xml_prose_4b(args = (Dialect::Xml, "prose", 4), setup = case)]
#[bench::xml_call_whole(args = (Dialect::Xml, "call", 0), setup = case)]
#[bench::xml_call_4b(args = (Dialect::Xml, "call", 4), setup = case)]
#[bench::xml_calls_whole(args = (Dialect::Xml, "calls", 0), setup = case)]
#[bench::xml_calls_4b(args = (Dialect::Xml, "calls", 4), setup = case)]
#[bench::gemma_prose_whole(args = (Dialect::Gemma, "prose", 0), setup = case)]
#[bench::gemma_prose_4b(args = (Dialect::Gemma, "prose", 4), setup = case)]
#[bench::gemma_call_whole(args = (Dialect::Gemma, "call", 0), setup = case)]
#[bench::gemma_call_4b(args = (Dialect::Gemma, "call", 4), setup = case)]
#[bench::gemma_calls_whole(args = (Dialect::Gemma, "calls", 0), setup = case)]
#[bench::gemma_calls_4b(args = (Dialect::Gemma, "calls", 4), setup = case)]
#[bench::gemini_prose_whole(args = (Dialect::Gemini, "prose", 0), setup = case)]
#[bench::gemini_prose_4b(args = (Dialect::Gemini, "prose", 4), setup = case)]
#[bench::gemini_call_whole(args = (Dialect::Gemini, "call", 0), setup = case)]
#[bench::gemini_call_4b(args = (Dialect::Gemini, "call", 4), setup = case)]
#[bench::gemini_calls_whole(args = (Dialect::Gemini, "calls", 0), setup = case)]
#[bench::gemini_calls_4b(args = (Dialect::Gemini, "calls", 4), setup = case)]
#[bench::glm_prose_whole(args = (Dialect::Glm, "prose", 0), setup = case)]
#[bench::glm_prose_4b(args = (Dialect::Glm, "prose", 4), setup = case)]
#[bench::glm_call_whole(args = (Dialect::Glm, "call", 0), setup = case)]
#[bench::glm_call_4b(args = (Dialect::Glm, "call", 4), setup = case)]
#[bench::glm_calls_whole(args = (Dialect::Glm, "calls", 0), setup = case)]
#[bench::glm_calls_4b(args = (Dialect::Glm, "calls", 4), setup = case)]
#[bench::anthropic_prose_whole(args = (Dialect::Anthropic, "prose", 0), setup = case)]
#[bench::anthropic_prose_4b(args = (Dialect::Anthropic, "prose", 4), setup = case)]
#[bench::anthropic_call_whole(args = (Dialect::Anthropic, "call", 0), setup = case)]
#[bench::anthropic_call_4b(args = (Dialect::Anthropic, "call", 4), setup = case)]
#[bench::anthropic_calls_whole(args = (Dialect::Anthropic, "calls", 0), setup = case)]
#[bench::anthropic_calls_4b(args = (Dialect::Anthropic, "calls", 4), setup = case)]
#[bench::minimax_prose_whole(args = (Dialect::Minimax, "prose", 0), setup = case)]
#[bench::minimax_prose_4b(args = (Dialect::Minimax, "prose", 4), setup = case)]
#[bench::minimax_call_whole(args = (Dialect::Minimax, "call", 0), setup = case)]
#[bench::minimax_call_4b(args = (Dialect::Minimax, "call", 4), setup = case)]
#[bench::minimax_calls_whole(args = (Dialect::Minimax, "calls", 0), setup = case)]
#[bench::minimax_calls_4b(args = (Dialect::Minimax, "calls", 4), setup = case)]
#[bench::qwen3_coder_prose_whole(args = (Dialect::Qwen3Coder, "prose", 0), setup = case)]
#[bench::qwen3_coder_prose_4b(args = (Dialect::Qwen3Coder, "prose", 4), setup = case)]
#[bench::qwen3_coder_call_whole(args = (Dialect::Qwen3Coder, "call", 0), setup = case)]
#[bench::qwen3_coder_call_4b(args = (Dialect::Qwen3Coder, "call", 4), setup = case)]
#[bench::qwen3_coder_calls_whole(args = (Dialect::Qwen3Coder, "calls", 0), setup = case)]
#[bench::qwen3_coder_calls_4b(args = (Dialect::Qwen3Coder, "calls", 4), setup = case)]
#[bench::seed_oss_prose_whole(args = (Dialect::SeedOss, "prose", 0), setup = case)]
#[bench::seed_oss_prose_4b(args = (Dialect::SeedOss, "prose", 4), setup = case)]
#[bench::seed_oss_call_whole(args = (Dialect::SeedOss, "call", 0), setup = case)]
#[bench::seed_oss_call_4b(args = (Dialect::SeedOss, "call", 4), setup = case)]
#[bench::seed_oss_calls_whole(args = (Dialect::SeedOss, "calls", 0), setup = case)]
#[bench::seed_oss_calls_4b(args = (Dialect::SeedOss, "calls", 4), setup = case)]
#[bench::jamba_prose_whole(args = (Dialect::Jamba, "prose", 0), setup = case)]
#[bench::jamba_prose_4b(args = (Dialect::Jamba, "prose", 4), setup = case)]
#[bench::jamba_call_whole(args = (Dialect::Jamba, "call", 0), setup = case)]
#[bench::jamba_call_4b(args = (Dialect::Jamba, "call", 4), setup = case)]
#[bench::jamba_calls_whole(args = (Dialect::Jamba, "calls", 0), setup = case)]
#[bench::jamba_calls_4b(args = (Dialect::Jamba, "calls", 4), setup = case)]
#[bench::granite_prose_whole(args = (Dialect::Granite, "prose", 0), setup = case)]
#[bench::granite_prose_4b(args = (Dialect::Granite, "prose", 4), setup = case)]
#[bench::granite_call_whole(args = (Dialect::Granite, "call", 0), setup = case)]
#[bench::granite_call_4b(args = (Dialect::Granite, "call", 4), setup = case)]
#[bench::granite_calls_whole(args = (Dialect::Granite, "calls", 0), setup = case)]
#[bench::granite_calls_4b(args = (Dialect::Granite, "calls", 4), setup = case)]
#[bench::internlm_prose_whole(args = (Dialect::Internlm, "prose", 0), setup = case)]
#[bench::internlm_prose_4b(args = (Dialect::Internlm, "prose", 4), setup = case)]
#[bench::internlm_call_whole(args = (Dialect::Internlm, "call", 0), setup = case)]
#[bench::internlm_call_4b(args = (Dialect::Internlm, "call", 4), setup = case)]
#[bench::internlm_calls_whole(args = (Dialect::Internlm, "calls", 0), setup = case)]
#[bench::internlm_calls_4b(args = (Dialect::Internlm, "calls", 4), setup = case)]
#[bench::mistral_prose_whole(args = (Dialect::Mistral, "prose", 0), setup = case)]
#[bench::mistral_prose_4b(args = (Dialect::Mistral, "prose", 4), setup = case)]
#[bench::mistral_call_whole(args = (Dialect::Mistral, "call", 0), setup = case)]
#[bench::mistral_call_4b(args = (Dialect::Mistral, "call", 4), setup = case)]
#[bench::mistral_calls_whole(args = (Dialect::Mistral, "calls", 0), setup = case)]
#[bench::mistral_calls_4b(args = (Dialect::Mistral, "calls", 4), setup = case)]
#[bench::pythonic_prose_whole(args = (Dialect::Pythonic, "prose", 0), setup = case)]
#[bench::pythonic_prose_4b(args = (Dialect::Pythonic, "prose", 4), setup = case)]
#[bench::pythonic_call_whole(args = (Dialect::Pythonic, "call", 0), setup = case)]
#[bench::pythonic_call_4b(args = (Dialect::Pythonic, "call", 4), setup = case)]
#[bench::pythonic_calls_whole(args = (Dialect::Pythonic, "calls", 0), setup = case)]
#[bench::pythonic_calls_4b(args = (Dialect::Pythonic, "calls", 4), setup = case)]
#[bench::lfm2_prose_whole(args = (Dialect::Lfm2, "prose", 0), setup = case)]
#[bench::lfm2_prose_4b(args = (Dialect::Lfm2, "prose", 4), setup = case)]
#[bench::lfm2_call_whole(args = (Dialect::Lfm2, "call", 0), setup = case)]
#[bench::lfm2_call_4b(args = (Dialect::Lfm2, "call", 4), setup = case)]
#[bench::lfm2_calls_whole(args = (Dialect::Lfm2, "calls", 0), setup = case)]
#[bench::lfm2_calls_4b(args = (Dialect::Lfm2, "calls", 4), setup = case)]
#[bench::llama3_json_prose_whole(args = (Dialect::Llama3Json, "prose", 0), setup = case)]
#[bench::llama3_json_prose_4b(args = (Dialect::Llama3Json, "prose", 4), setup = case)]
#[bench::llama3_json_call_whole(args = (Dialect::Llama3Json, "call", 0), setup = case)]
#[bench::llama3_json_call_4b(args = (Dialect::Llama3Json, "call", 4), setup = case)]
#[bench::llama3_json_calls_whole(args = (Dialect::Llama3Json, "calls", 0), setup = case)]
#[bench::llama3_json_calls_4b(args = (Dialect::Llama3Json, "calls", 4), setup = case)]
#[bench::xlam_prose_whole(args = (Dialect::Xlam, "prose", 0), setup = case)]
#[bench::xlam_prose_4b(args = (Dialect::Xlam, "prose", 4), setup = case)]
#[bench::xlam_call_whole(args = (Dialect::Xlam, "call", 0), setup = case)]
#[bench::xlam_call_4b(args = (Dialect::Xlam, "call", 4), setup = case)]
#[bench::xlam_calls_whole(args = (Dialect::Xlam, "calls", 0), setup = case)]
#[bench::xlam_calls_4b(args = (Dialect::Xlam, "calls", 4), setup = case)]
#[bench::phi4_mini_prose_whole(args = (Dialect::Phi4Mini, "prose", 0), setup = case)]
#[bench::phi4_mini_prose_4b(args = (Dialect::Phi4Mini, "prose", 4), setup = case)]
#[bench::phi4_mini_call_whole(args = (Dialect::Phi4Mini, "call", 0), setup = case)]
#[bench::phi4_mini_call_4b(args = (Dialect::Phi4Mini, "call", 4), setup = case)]
#[bench::phi4_mini_calls_whole(args = (Dialect::Phi4Mini, "calls", 0), setup = case)]
#[bench::phi4_mini_calls_4b(args = (Dialect::Phi4Mini, "calls", 4), setup = case)]
#[bench::hunyuan_a13b_prose_whole(args = (Dialect::HunyuanA13b, "prose", 0), setup = case)]
#[bench::hunyuan_a13b_prose_4b(args = (Dialect::HunyuanA13b, "prose", 4), setup = case)]
#[bench::hunyuan_a13b_call_whole(args = (Dialect::HunyuanA13b, "call", 0), setup = case)]
#[bench::hunyuan_a13b_call_4b(args = (Dialect::HunyuanA13b, "call", 4), setup = case)]
#[bench::hunyuan_a13b_calls_whole(args = (Dialect::HunyuanA13b, "calls", 0), setup = case)]
#[bench::hunyuan_a13b_calls_4b(args = (Dialect::HunyuanA13b, "calls", 4), setup = case)]
#[bench::hunyuan_prose_whole(args = (Dialect::Hunyuan, "prose", 0), setup = case)]
#[bench::hunyuan_prose_4b(args = (Dialect::Hunyuan, "prose", 4), setup = case)]
#[bench::hunyuan_call_whole(args = (Dialect::Hunyuan, "call", 0), setup = case)]
#[bench::hunyuan_call_4b(args = (Dialect::Hunyuan, "call", 4), setup = case)]
#[bench::hunyuan_calls_whole(args = (Dialect::Hunyuan, "calls", 0), setup = case)]
#[bench::hunyuan_calls_4b(args = (Dialect::Hunyuan, "calls", 4), setup = case)]
#[bench::iquest_q1_prose_whole(args = (Dialect::IquestQ1, "prose", 0), setup = case)]
#[bench::iquest_q1_prose_4b(args = (Dialect::IquestQ1, "prose", 4), setup = case)]
#[bench::iquest_q1_call_whole(args = (Dialect::IquestQ1, "call", 0), setup = case)]
#[bench::iquest_q1_call_4b(args = (Dialect::IquestQ1, "call", 4), setup = case)]
#[bench::iquest_q1_calls_whole(args = (Dialect::IquestQ1, "calls", 0), setup = case)]
#[bench::iquest_q1_calls_4b(args = (Dialect::IquestQ1, "calls", 4), setup = case)]
#[bench::k2_horizon_prose_whole(args = (Dialect::K2Horizon, "prose", 0), setup = case)]
#[bench::k2_horizon_prose_4b(args = (Dialect::K2Horizon, "prose", 4), setup = case)]
#[bench::k2_horizon_call_whole(args = (Dialect::K2Horizon, "call", 0), setup = case)]
#[bench::k2_horizon_call_4b(args = (Dialect::K2Horizon, "call", 4), setup = case)]
#[bench::k2_horizon_calls_whole(args = (Dialect::K2Horizon, "calls", 0), setup = case)]
#[bench::k2_horizon_calls_4b(args = (Dialect::K2Horizon, "calls", 4), setup = case)]
#[bench::dots_prose_whole(args = (Dialect::Dots, "prose", 0), setup = case)]
#[bench::dots_prose_4b(args = (Dialect::Dots, "prose", 4), setup = case)]
#[bench::dots_call_whole(args = (Dialect::Dots, "call", 0), setup = case)]
#[bench::dots_call_4b(args = (Dialect::Dots, "call", 4), setup = case)]
#[bench::dots_calls_whole(args = (Dialect::Dots, "calls", 0), setup = case)]
#[bench::dots_calls_4b(args = (Dialect::Dots, "calls", 4), setup = case)]
#[bench::longcat_prose_whole(args = (Dialect::Longcat, "prose", 0), setup = case)]
#[bench::longcat_prose_4b(args = (Dialect::Longcat, "prose", 4), setup = case)]
#[bench::longcat_call_whole(args = (Dialect::Longcat, "call", 0), setup = case)]
#[bench::longcat_call_4b(args = (Dialect::Longcat, "call", 4), setup = case)]
#[bench::longcat_calls_whole(args = (Dialect::Longcat, "calls", 0), setup = case)]
#[bench::longcat_calls_4b(args = (Dialect::Longcat, "calls", 4), setup = case)]
#[bench::qwen3_prose_whole(args = (Dialect::Qwen3, "prose", 0), setup = case)]
#[bench::qwen3_prose_4b(args = (Dialect::Qwen3, "prose", 4), setup = case)]
#[bench::qwen3_call_whole(args = (Dialect::Qwen3, "call", 0), setup = case)]
#[bench::qwen3_call_4b(args = (Dialect::Qwen3, "call", 4), setup = case)]
#[bench::qwen3_calls_whole(args = (Dialect::Qwen3, "calls", 0), setup = case)]
#[bench::qwen3_calls_4b(args = (Dialect::Qwen3, "calls", 4), setup = case)]
#[bench::hermes_prose_1b(args = (Dialect::Hermes, "prose", 1), setup = case)]
#[bench::hermes_call_1b(args = (Dialect::Hermes, "call", 1), setup = case)]
#[bench::hermes_calls_1b(args = (Dialect::Hermes, "calls", 1), setup = case)]
fn delta_only(case: Case) -> Case {
    let dialect = case.input.dialect;
    let mut scanner = Scanner::new(dialect, inputs::options());
    let mut stream = DeltaStream::unsent(dialect, &AssembleOptions::seeded(7));
    let mut calls = 0;
    for piece in pieces(&case) {
        scanner.feed(piece, &mut stream).unwrap();
        let delta = stream.delta();
        calls += delta.tool_calls.iter().filter(|c| c.id.is_some()).count() as u64;
        black_box(delta);
    }
    scanner.finish(&mut stream).unwrap();
    let (delta, _, completion) = stream.finish();
    calls += delta.tool_calls.iter().filter(|c| c.id.is_some()).count() as u64;
    black_box((delta, completion));
    assert_eq!(calls, case.input.calls);
    case
}

// `assemble` on the same inputs: the whole completion, every call parsed.
#[library_benchmark]
#[bench::hermes_prose_whole(args = (Dialect::Hermes, "prose", 0), setup = case)]
#[bench::hermes_prose_4b(args = (Dialect::Hermes, "prose", 4), setup = case)]
#[bench::hermes_call_whole(args = (Dialect::Hermes, "call", 0), setup = case)]
#[bench::hermes_call_4b(args = (Dialect::Hermes, "call", 4), setup = case)]
#[bench::hermes_calls_whole(args = (Dialect::Hermes, "calls", 0), setup = case)]
#[bench::hermes_calls_4b(args = (Dialect::Hermes, "calls", 4), setup = case)]
#[bench::kimi_prose_whole(args = (Dialect::Kimi, "prose", 0), setup = case)]
#[bench::kimi_prose_4b(args = (Dialect::Kimi, "prose", 4), setup = case)]
#[bench::kimi_call_whole(args = (Dialect::Kimi, "call", 0), setup = case)]
#[bench::kimi_call_4b(args = (Dialect::Kimi, "call", 4), setup = case)]
#[bench::kimi_calls_whole(args = (Dialect::Kimi, "calls", 0), setup = case)]
#[bench::kimi_calls_4b(args = (Dialect::Kimi, "calls", 4), setup = case)]
#[bench::deepseek_prose_whole(args = (Dialect::Deepseek, "prose", 0), setup = case)]
#[bench::deepseek_prose_4b(args = (Dialect::Deepseek, "prose", 4), setup = case)]
#[bench::deepseek_call_whole(args = (Dialect::Deepseek, "call", 0), setup = case)]
#[bench::deepseek_call_4b(args = (Dialect::Deepseek, "call", 4), setup = case)]
#[bench::deepseek_calls_whole(args = (Dialect::Deepseek, "calls", 0), setup = case)]
#[bench::deepseek_calls_4b(args = (Dialect::Deepseek, "calls", 4), setup = case)]
#[bench::harmony_prose_whole(args = (Dialect::Harmony, "prose", 0), setup = case)]
#[bench::harmony_prose_4b(args = (Dialect::Harmony, "prose", 4), setup = case)]
#[bench::harmony_call_whole(args = (Dialect::Harmony, "call", 0), setup = case)]
#[bench::harmony_call_4b(args = (Dialect::Harmony, "call", 4), setup = case)]
#[bench::harmony_calls_whole(args = (Dialect::Harmony, "calls", 0), setup = case)]
#[bench::harmony_calls_4b(args = (Dialect::Harmony, "calls", 4), setup = case)]
#[bench::xml_prose_whole(args = (Dialect::Xml, "prose", 0), setup = case)]
#[bench::xml_prose_4b(args = (Dialect::Xml, "prose", 4), setup = case)]
#[bench::xml_call_whole(args = (Dialect::Xml, "call", 0), setup = case)]
#[bench::xml_call_4b(args = (Dialect::Xml, "call", 4), setup = case)]
#[bench::xml_calls_whole(args = (Dialect::Xml, "calls", 0), setup = case)]
#[bench::xml_calls_4b(args = (Dialect::Xml, "calls", 4), setup = case)]
#[bench::gemma_prose_whole(args = (Dialect::Gemma, "prose", 0), setup = case)]
#[bench::gemma_prose_4b(args = (Dialect::Gemma, "prose", 4), setup = case)]
#[bench::gemma_call_whole(args = (Dialect::Gemma, "call", 0), setup = case)]
#[bench::gemma_call_4b(args = (Dialect::Gemma, "call", 4), setup = case)]
#[bench::gemma_calls_whole(args = (Dialect::Gemma, "calls", 0), setup = case)]
#[bench::gemma_calls_4b(args = (Dialect::Gemma, "calls", 4), setup = case)]
#[bench::gemini_prose_whole(args = (Dialect::Gemini, "prose", 0), setup = case)]
#[bench::gemini_prose_4b(args = (Dialect::Gemini, "prose", 4), setup = case)]
#[bench::gemini_call_whole(args = (Dialect::Gemini, "call", 0), setup = case)]
#[bench::gemini_call_4b(args = (Dialect::Gemini, "call", 4), setup = case)]
#[bench::gemini_calls_whole(args = (Dialect::Gemini, "calls", 0), setup = case)]
#[bench::gemini_calls_4b(args = (Dialect::Gemini, "calls", 4), setup = case)]
#[bench::glm_prose_whole(args = (Dialect::Glm, "prose", 0), setup = case)]
#[bench::glm_prose_4b(args = (Dialect::Glm, "prose", 4), setup = case)]
#[bench::glm_call_whole(args = (Dialect::Glm, "call", 0), setup = case)]
#[bench::glm_call_4b(args = (Dialect::Glm, "call", 4), setup = case)]
#[bench::glm_calls_whole(args = (Dialect::Glm, "calls", 0), setup = case)]
#[bench::glm_calls_4b(args = (Dialect::Glm, "calls", 4), setup = case)]
#[bench::anthropic_prose_whole(args = (Dialect::Anthropic, "prose", 0), setup = case)]
#[bench::anthropic_prose_4b(args = (Dialect::Anthropic, "prose", 4), setup = case)]
#[bench::anthropic_call_whole(args = (Dialect::Anthropic, "call", 0), setup = case)]
#[bench::anthropic_call_4b(args = (Dialect::Anthropic, "call", 4), setup = case)]
#[bench::anthropic_calls_whole(args = (Dialect::Anthropic, "calls", 0), setup = case)]
#[bench::anthropic_calls_4b(args = (Dialect::Anthropic, "calls", 4), setup = case)]
#[bench::minimax_prose_whole(args = (Dialect::Minimax, "prose", 0), setup = case)]
#[bench::minimax_prose_4b(args = (Dialect::Minimax, "prose", 4), setup = case)]
#[bench::minimax_call_whole(args = (Dialect::Minimax, "call", 0), setup = case)]
#[bench::minimax_call_4b(args = (Dialect::Minimax, "call", 4), setup = case)]
#[bench::minimax_calls_whole(args = (Dialect::Minimax, "calls", 0), setup = case)]
#[bench::minimax_calls_4b(args = (Dialect::Minimax, "calls", 4), setup = case)]
#[bench::qwen3_coder_prose_whole(args = (Dialect::Qwen3Coder, "prose", 0), setup = case)]
#[bench::qwen3_coder_prose_4b(args = (Dialect::Qwen3Coder, "prose", 4), setup = case)]
#[bench::qwen3_coder_call_whole(args = (Dialect::Qwen3Coder, "call", 0), setup = case)]
#[bench::qwen3_coder_call_4b(args = (Dialect::Qwen3Coder, "call", 4), setup = case)]
#[bench::qwen3_coder_calls_whole(args = (Dialect::Qwen3Coder, "calls", 0), setup = case)]
#[bench::qwen3_coder_calls_4b(args = (Dialect::Qwen3Coder, "calls", 4), setup = case)]
#[bench::seed_oss_prose_whole(args = (Dialect::SeedOss, "prose", 0), setup = case)]
#[bench::seed_oss_prose_4b(args = (Dialect::SeedOss, "prose", 4), setup = case)]
#[bench::seed_oss_call_whole(args = (Dialect::SeedOss, "call", 0), setup = case)]
#[bench::seed_oss_call_4b(args = (Dialect::SeedOss, "call", 4), setup = case)]
#[bench::seed_oss_calls_whole(args = (Dialect::SeedOss, "calls", 0), setup = case)]
#[bench::seed_oss_calls_4b(args = (Dialect::SeedOss, "calls", 4), setup = case)]
#[bench::jamba_prose_whole(args = (Dialect::Jamba, "prose", 0), setup = case)]
#[bench::jamba_prose_4b(args = (Dialect::Jamba, "prose", 4), setup = case)]
#[bench::jamba_call_whole(args = (Dialect::Jamba, "call", 0), setup = case)]
#[bench::jamba_call_4b(args = (Dialect::Jamba, "call", 4), setup = case)]
#[bench::jamba_calls_whole(args = (Dialect::Jamba, "calls", 0), setup = case)]
#[bench::jamba_calls_4b(args = (Dialect::Jamba, "calls", 4), setup = case)]
#[bench::granite_prose_whole(args = (Dialect::Granite, "prose", 0), setup = case)]
#[bench::granite_prose_4b(args = (Dialect::Granite, "prose", 4), setup = case)]
#[bench::granite_call_whole(args = (Dialect::Granite, "call", 0), setup = case)]
#[bench::granite_call_4b(args = (Dialect::Granite, "call", 4), setup = case)]
#[bench::granite_calls_whole(args = (Dialect::Granite, "calls", 0), setup = case)]
#[bench::granite_calls_4b(args = (Dialect::Granite, "calls", 4), setup = case)]
#[bench::internlm_prose_whole(args = (Dialect::Internlm, "prose", 0), setup = case)]
#[bench::internlm_prose_4b(args = (Dialect::Internlm, "prose", 4), setup = case)]
#[bench::internlm_call_whole(args = (Dialect::Internlm, "call", 0), setup = case)]
#[bench::internlm_call_4b(args = (Dialect::Internlm, "call", 4), setup = case)]
#[bench::internlm_calls_whole(args = (Dialect::Internlm, "calls", 0), setup = case)]
#[bench::internlm_calls_4b(args = (Dialect::Internlm, "calls", 4), setup = case)]
#[bench::mistral_prose_whole(args = (Dialect::Mistral, "prose", 0), setup = case)]
#[bench::mistral_prose_4b(args = (Dialect::Mistral, "prose", 4), setup = case)]
#[bench::mistral_call_whole(args = (Dialect::Mistral, "call", 0), setup = case)]
#[bench::mistral_call_4b(args = (Dialect::Mistral, "call", 4), setup = case)]
#[bench::mistral_calls_whole(args = (Dialect::Mistral, "calls", 0), setup = case)]
#[bench::mistral_calls_4b(args = (Dialect::Mistral, "calls", 4), setup = case)]
#[bench::pythonic_prose_whole(args = (Dialect::Pythonic, "prose", 0), setup = case)]
#[bench::pythonic_prose_4b(args = (Dialect::Pythonic, "prose", 4), setup = case)]
#[bench::pythonic_call_whole(args = (Dialect::Pythonic, "call", 0), setup = case)]
#[bench::pythonic_call_4b(args = (Dialect::Pythonic, "call", 4), setup = case)]
#[bench::pythonic_calls_whole(args = (Dialect::Pythonic, "calls", 0), setup = case)]
#[bench::pythonic_calls_4b(args = (Dialect::Pythonic, "calls", 4), setup = case)]
#[bench::lfm2_prose_whole(args = (Dialect::Lfm2, "prose", 0), setup = case)]
#[bench::lfm2_prose_4b(args = (Dialect::Lfm2, "prose", 4), setup = case)]
#[bench::lfm2_call_whole(args = (Dialect::Lfm2, "call", 0), setup = case)]
#[bench::lfm2_call_4b(args = (Dialect::Lfm2, "call", 4), setup = case)]
#[bench::lfm2_calls_whole(args = (Dialect::Lfm2, "calls", 0), setup = case)]
#[bench::lfm2_calls_4b(args = (Dialect::Lfm2, "calls", 4), setup = case)]
#[bench::llama3_json_prose_whole(args = (Dialect::Llama3Json, "prose", 0), setup = case)]
#[bench::llama3_json_prose_4b(args = (Dialect::Llama3Json, "prose", 4), setup = case)]
#[bench::llama3_json_call_whole(args = (Dialect::Llama3Json, "call", 0), setup = case)]
#[bench::llama3_json_call_4b(args = (Dialect::Llama3Json, "call", 4), setup = case)]
#[bench::llama3_json_calls_whole(args = (Dialect::Llama3Json, "calls", 0), setup = case)]
#[bench::llama3_json_calls_4b(args = (Dialect::Llama3Json, "calls", 4), setup = case)]
#[bench::xlam_prose_whole(args = (Dialect::Xlam, "prose", 0), setup = case)]
#[bench::xlam_prose_4b(args = (Dialect::Xlam, "prose", 4), setup = case)]
#[bench::xlam_call_whole(args = (Dialect::Xlam, "call", 0), setup = case)]
#[bench::xlam_call_4b(args = (Dialect::Xlam, "call", 4), setup = case)]
#[bench::xlam_calls_whole(args = (Dialect::Xlam, "calls", 0), setup = case)]
#[bench::xlam_calls_4b(args = (Dialect::Xlam, "calls", 4), setup = case)]
#[bench::phi4_mini_prose_whole(args = (Dialect::Phi4Mini, "prose", 0), setup = case)]
#[bench::phi4_mini_prose_4b(args = (Dialect::Phi4Mini, "prose", 4), setup = case)]
#[bench::phi4_mini_call_whole(args = (Dialect::Phi4Mini, "call", 0), setup = case)]
#[bench::phi4_mini_call_4b(args = (Dialect::Phi4Mini, "call", 4), setup = case)]
#[bench::phi4_mini_calls_whole(args = (Dialect::Phi4Mini, "calls", 0), setup = case)]
#[bench::phi4_mini_calls_4b(args = (Dialect::Phi4Mini, "calls", 4), setup = case)]
#[bench::hunyuan_a13b_prose_whole(args = (Dialect::HunyuanA13b, "prose", 0), setup = case)]
#[bench::hunyuan_a13b_prose_4b(args = (Dialect::HunyuanA13b, "prose", 4), setup = case)]
#[bench::hunyuan_a13b_call_whole(args = (Dialect::HunyuanA13b, "call", 0), setup = case)]
#[bench::hunyuan_a13b_call_4b(args = (Dialect::HunyuanA13b, "call", 4), setup = case)]
#[bench::hunyuan_a13b_calls_whole(args = (Dialect::HunyuanA13b, "calls", 0), setup = case)]
#[bench::hunyuan_a13b_calls_4b(args = (Dialect::HunyuanA13b, "calls", 4), setup = case)]
#[bench::hunyuan_prose_whole(args = (Dialect::Hunyuan, "prose", 0), setup = case)]
#[bench::hunyuan_prose_4b(args = (Dialect::Hunyuan, "prose", 4), setup = case)]
#[bench::hunyuan_call_whole(args = (Dialect::Hunyuan, "call", 0), setup = case)]
#[bench::hunyuan_call_4b(args = (Dialect::Hunyuan, "call", 4), setup = case)]
#[bench::hunyuan_calls_whole(args = (Dialect::Hunyuan, "calls", 0), setup = case)]
#[bench::hunyuan_calls_4b(args = (Dialect::Hunyuan, "calls", 4), setup = case)]
#[bench::iquest_q1_prose_whole(args = (Dialect::IquestQ1, "prose", 0), setup = case)]
#[bench::iquest_q1_prose_4b(args = (Dialect::IquestQ1, "prose", 4), setup = case)]
#[bench::iquest_q1_call_whole(args = (Dialect::IquestQ1, "call", 0), setup = case)]
#[bench::iquest_q1_call_4b(args = (Dialect::IquestQ1, "call", 4), setup = case)]
#[bench::iquest_q1_calls_whole(args = (Dialect::IquestQ1, "calls", 0), setup = case)]
#[bench::iquest_q1_calls_4b(args = (Dialect::IquestQ1, "calls", 4), setup = case)]
#[bench::k2_horizon_prose_whole(args = (Dialect::K2Horizon, "prose", 0), setup = case)]
#[bench::k2_horizon_prose_4b(args = (Dialect::K2Horizon, "prose", 4), setup = case)]
#[bench::k2_horizon_call_whole(args = (Dialect::K2Horizon, "call", 0), setup = case)]
#[bench::k2_horizon_call_4b(args = (Dialect::K2Horizon, "call", 4), setup = case)]
#[bench::k2_horizon_calls_whole(args = (Dialect::K2Horizon, "calls", 0), setup = case)]
#[bench::k2_horizon_calls_4b(args = (Dialect::K2Horizon, "calls", 4), setup = case)]
#[bench::dots_prose_whole(args = (Dialect::Dots, "prose", 0), setup = case)]
#[bench::dots_prose_4b(args = (Dialect::Dots, "prose", 4), setup = case)]
#[bench::dots_call_whole(args = (Dialect::Dots, "call", 0), setup = case)]
#[bench::dots_call_4b(args = (Dialect::Dots, "call", 4), setup = case)]
#[bench::dots_calls_whole(args = (Dialect::Dots, "calls", 0), setup = case)]
#[bench::dots_calls_4b(args = (Dialect::Dots, "calls", 4), setup = case)]
#[bench::longcat_prose_whole(args = (Dialect::Longcat, "prose", 0), setup = case)]
#[bench::longcat_prose_4b(args = (Dialect::Longcat, "prose", 4), setup = case)]
#[bench::longcat_call_whole(args = (Dialect::Longcat, "call", 0), setup = case)]
#[bench::longcat_call_4b(args = (Dialect::Longcat, "call", 4), setup = case)]
#[bench::longcat_calls_whole(args = (Dialect::Longcat, "calls", 0), setup = case)]
#[bench::longcat_calls_4b(args = (Dialect::Longcat, "calls", 4), setup = case)]
#[bench::qwen3_prose_whole(args = (Dialect::Qwen3, "prose", 0), setup = case)]
#[bench::qwen3_prose_4b(args = (Dialect::Qwen3, "prose", 4), setup = case)]
#[bench::qwen3_call_whole(args = (Dialect::Qwen3, "call", 0), setup = case)]
#[bench::qwen3_call_4b(args = (Dialect::Qwen3, "call", 4), setup = case)]
#[bench::qwen3_calls_whole(args = (Dialect::Qwen3, "calls", 0), setup = case)]
#[bench::qwen3_calls_4b(args = (Dialect::Qwen3, "calls", 4), setup = case)]
fn assembled(case: Case) -> Case {
    let completion = assemble(
        case.input.dialect,
        inputs::options(),
        &AssembleOptions::seeded(7),
        pieces(&case),
    );
    assert_eq!(completion.tool_calls.len() as u64, case.input.calls);
    assert!(completion.diagnostics.is_empty());
    case
}

// 200 Hermes calls with prose between them, in 4-byte chunks, under DHAT: the blocks
// allocated (the input's generation included) may not grow past today's count; a
// regression that allocated once per chunk (12 460 of them) or per argument fragment
// would more than double it. `tests/allocations.rs` asserts the per-call constant.
#[library_benchmark(
    config = LibraryBenchmarkConfig::default().tool(
        Dhat::default().hard_limits([(DhatMetric::TotalBlocks, DHAT_BLOCKS)])
    )
)]
#[bench::hermes_calls_4b(args = (Dialect::Hermes, "calls", 4), setup = case)]
fn allocations(case: Case) -> Case {
    assert_eq!(serve(&case, Retain::Unsent), case.input.calls);
    case
}

/// The DHAT limit of `allocations`: the blocks it allocates (2 891 at commit time, the
/// input's own generation included; 8 618 on `main` before the call buffers were reused).
const DHAT_BLOCKS: u64 = 2_891;

library_benchmark_group!(name = server; benchmarks = delta_stream, delta_only, assembled, allocations);

// An instruction count more than 5% above the last run's fails the bench.
main!(
    config = LibraryBenchmarkConfig::default()
        .tool(Callgrind::default().soft_limits([(EventKind::Ir, 5.0)]));
    library_benchmark_groups = server
);
