//! Instruction counts (iai-callgrind) of the Hermes scanner on the benchmark inputs, whole
//! and in 16/4/1-byte chunks, and a DHAT check that a 10 000-chunk feed allocates nothing.
//!
//! Needs `cargo install iai-callgrind-runner --version 0.16.1`; see `BENCHMARKS.md`.

use iai_callgrind::{
    library_benchmark, library_benchmark_group, main, Callgrind, Dhat, DhatMetric, EventKind,
    LibraryBenchmarkConfig,
};
use std::ops::Range;

use inband::{Dialect, Options, Scanner, TokenGate};

#[path = "inputs/mod.rs"]
mod inputs;

use inputs::{Counts, Input};

/// Prose is cut to 256 KiB here: callgrind runs the scan some 50 times slower than native.
const PROSE_SMALL: usize = 256 << 10;

/// One input and the chunk size to feed it in (`0`: whole).
struct Case {
    input: Input,
    chunk: usize,
}

fn prose(chunk: usize) -> Case {
    Case {
        input: inputs::prose(Dialect::Hermes, PROSE_SMALL),
        chunk,
    }
}

fn big_call(chunk: usize) -> Case {
    Case {
        input: inputs::big_call(Dialect::Hermes, inputs::CODE_LEN),
        chunk,
    }
}

fn many_calls(chunk: usize) -> Case {
    Case {
        input: inputs::many_calls(Dialect::Hermes, inputs::MANY_CALLS),
        chunk,
    }
}

fn mix_4b(len: usize) -> Case {
    Case {
        input: inputs::mix(len),
        chunk: 4,
    }
}

// Scans the case's input with a fresh scanner and checks every count (the checks cost a
// few dozen instructions); returns the case so that freeing it is not measured. (The
// macro rejects doc comments on benchmark functions.) Ids are spelled out so that a new
// case does not shift the baselines of the others.
#[library_benchmark]
#[bench::prose_256k_whole(args = (0), setup = prose)]
#[bench::prose_256k_16b(args = (16), setup = prose)]
#[bench::prose_256k_4b(args = (4), setup = prose)]
#[bench::prose_256k_1b(args = (1), setup = prose)]
#[bench::call_64k_whole(args = (0), setup = big_call)]
#[bench::call_64k_16b(args = (16), setup = big_call)]
#[bench::call_64k_4b(args = (4), setup = big_call)]
#[bench::call_64k_1b(args = (1), setup = big_call)]
#[bench::calls_200_whole(args = (0), setup = many_calls)]
#[bench::calls_200_16b(args = (16), setup = many_calls)]
#[bench::calls_200_4b(args = (4), setup = many_calls)]
#[bench::calls_200_1b(args = (1), setup = many_calls)]
#[bench::sweep_4b_1k(args = (1 << 10), setup = mix_4b)]
#[bench::sweep_4b_64k(args = (64 << 10), setup = mix_4b)]
#[bench::sweep_4b_1m(args = (1 << 20), setup = mix_4b)]
fn scan(case: Case) -> Case {
    let counts = inputs::scan(&case.input, case.chunk);
    case.input.check(&counts);
    case
}

/// Another dialect's input (`prose`, `call` or `calls`, written in that dialect) and the
/// chunk size.
fn dialect_case(dialect: Dialect, input: &str, chunk: usize) -> Case {
    let input = match input {
        "prose" => inputs::prose(dialect, PROSE_SMALL),
        "call" => inputs::big_call(dialect, inputs::CODE_LEN),
        _ => inputs::many_calls(dialect, inputs::MANY_CALLS),
    };
    Case { input, chunk }
}

// The same three inputs written in each other dialect, whole and in 4-byte chunks: with
// `scan`'s Hermes cases, every dialect × {prose, 64 KiB call, 200 calls} × {whole, 4 B}.
#[library_benchmark]
#[bench::qwen3_prose_whole(args = (Dialect::Qwen3, "prose", 0), setup = dialect_case)]
#[bench::qwen3_prose_4b(args = (Dialect::Qwen3, "prose", 4), setup = dialect_case)]
#[bench::qwen3_call_whole(args = (Dialect::Qwen3, "call", 0), setup = dialect_case)]
#[bench::qwen3_call_4b(args = (Dialect::Qwen3, "call", 4), setup = dialect_case)]
#[bench::qwen3_calls_whole(args = (Dialect::Qwen3, "calls", 0), setup = dialect_case)]
#[bench::qwen3_calls_4b(args = (Dialect::Qwen3, "calls", 4), setup = dialect_case)]
#[bench::kimi_prose_whole(args = (Dialect::Kimi, "prose", 0), setup = dialect_case)]
#[bench::kimi_prose_4b(args = (Dialect::Kimi, "prose", 4), setup = dialect_case)]
#[bench::kimi_call_whole(args = (Dialect::Kimi, "call", 0), setup = dialect_case)]
#[bench::kimi_call_4b(args = (Dialect::Kimi, "call", 4), setup = dialect_case)]
#[bench::kimi_calls_whole(args = (Dialect::Kimi, "calls", 0), setup = dialect_case)]
#[bench::kimi_calls_4b(args = (Dialect::Kimi, "calls", 4), setup = dialect_case)]
#[bench::deepseek_prose_whole(args = (Dialect::Deepseek, "prose", 0), setup = dialect_case)]
#[bench::deepseek_prose_4b(args = (Dialect::Deepseek, "prose", 4), setup = dialect_case)]
#[bench::deepseek_call_whole(args = (Dialect::Deepseek, "call", 0), setup = dialect_case)]
#[bench::deepseek_call_4b(args = (Dialect::Deepseek, "call", 4), setup = dialect_case)]
#[bench::deepseek_calls_whole(args = (Dialect::Deepseek, "calls", 0), setup = dialect_case)]
#[bench::deepseek_calls_4b(args = (Dialect::Deepseek, "calls", 4), setup = dialect_case)]
#[bench::harmony_prose_whole(args = (Dialect::Harmony, "prose", 0), setup = dialect_case)]
#[bench::harmony_prose_4b(args = (Dialect::Harmony, "prose", 4), setup = dialect_case)]
#[bench::harmony_call_whole(args = (Dialect::Harmony, "call", 0), setup = dialect_case)]
#[bench::harmony_call_4b(args = (Dialect::Harmony, "call", 4), setup = dialect_case)]
#[bench::harmony_calls_whole(args = (Dialect::Harmony, "calls", 0), setup = dialect_case)]
#[bench::harmony_calls_4b(args = (Dialect::Harmony, "calls", 4), setup = dialect_case)]
#[bench::xml_prose_whole(args = (Dialect::Xml, "prose", 0), setup = dialect_case)]
#[bench::xml_prose_4b(args = (Dialect::Xml, "prose", 4), setup = dialect_case)]
#[bench::xml_call_whole(args = (Dialect::Xml, "call", 0), setup = dialect_case)]
#[bench::xml_call_4b(args = (Dialect::Xml, "call", 4), setup = dialect_case)]
#[bench::xml_calls_whole(args = (Dialect::Xml, "calls", 0), setup = dialect_case)]
#[bench::xml_calls_4b(args = (Dialect::Xml, "calls", 4), setup = dialect_case)]
#[bench::gemma_prose_whole(args = (Dialect::Gemma, "prose", 0), setup = dialect_case)]
#[bench::gemma_prose_4b(args = (Dialect::Gemma, "prose", 4), setup = dialect_case)]
#[bench::gemma_call_whole(args = (Dialect::Gemma, "call", 0), setup = dialect_case)]
#[bench::gemma_call_4b(args = (Dialect::Gemma, "call", 4), setup = dialect_case)]
#[bench::gemma_calls_whole(args = (Dialect::Gemma, "calls", 0), setup = dialect_case)]
#[bench::gemma_calls_4b(args = (Dialect::Gemma, "calls", 4), setup = dialect_case)]
#[bench::gemini_prose_whole(args = (Dialect::Gemini, "prose", 0), setup = dialect_case)]
#[bench::gemini_prose_4b(args = (Dialect::Gemini, "prose", 4), setup = dialect_case)]
#[bench::gemini_call_whole(args = (Dialect::Gemini, "call", 0), setup = dialect_case)]
#[bench::gemini_call_4b(args = (Dialect::Gemini, "call", 4), setup = dialect_case)]
#[bench::gemini_calls_whole(args = (Dialect::Gemini, "calls", 0), setup = dialect_case)]
#[bench::gemini_calls_4b(args = (Dialect::Gemini, "calls", 4), setup = dialect_case)]
#[bench::glm_prose_whole(args = (Dialect::Glm, "prose", 0), setup = dialect_case)]
#[bench::glm_prose_4b(args = (Dialect::Glm, "prose", 4), setup = dialect_case)]
#[bench::glm_call_whole(args = (Dialect::Glm, "call", 0), setup = dialect_case)]
#[bench::glm_call_4b(args = (Dialect::Glm, "call", 4), setup = dialect_case)]
#[bench::glm_calls_whole(args = (Dialect::Glm, "calls", 0), setup = dialect_case)]
#[bench::glm_calls_4b(args = (Dialect::Glm, "calls", 4), setup = dialect_case)]
#[bench::anthropic_prose_whole(args = (Dialect::Anthropic, "prose", 0), setup = dialect_case)]
#[bench::anthropic_prose_4b(args = (Dialect::Anthropic, "prose", 4), setup = dialect_case)]
#[bench::anthropic_call_whole(args = (Dialect::Anthropic, "call", 0), setup = dialect_case)]
#[bench::anthropic_call_4b(args = (Dialect::Anthropic, "call", 4), setup = dialect_case)]
#[bench::anthropic_calls_whole(args = (Dialect::Anthropic, "calls", 0), setup = dialect_case)]
#[bench::anthropic_calls_4b(args = (Dialect::Anthropic, "calls", 4), setup = dialect_case)]
#[bench::minimax_prose_whole(args = (Dialect::Minimax, "prose", 0), setup = dialect_case)]
#[bench::minimax_prose_4b(args = (Dialect::Minimax, "prose", 4), setup = dialect_case)]
#[bench::minimax_call_whole(args = (Dialect::Minimax, "call", 0), setup = dialect_case)]
#[bench::minimax_call_4b(args = (Dialect::Minimax, "call", 4), setup = dialect_case)]
#[bench::minimax_calls_whole(args = (Dialect::Minimax, "calls", 0), setup = dialect_case)]
#[bench::minimax_calls_4b(args = (Dialect::Minimax, "calls", 4), setup = dialect_case)]
#[bench::qwen3_coder_prose_whole(args = (Dialect::Qwen3Coder, "prose", 0), setup = dialect_case)]
#[bench::qwen3_coder_prose_4b(args = (Dialect::Qwen3Coder, "prose", 4), setup = dialect_case)]
#[bench::qwen3_coder_call_whole(args = (Dialect::Qwen3Coder, "call", 0), setup = dialect_case)]
#[bench::qwen3_coder_call_4b(args = (Dialect::Qwen3Coder, "call", 4), setup = dialect_case)]
#[bench::qwen3_coder_calls_whole(args = (Dialect::Qwen3Coder, "calls", 0), setup = dialect_case)]
#[bench::qwen3_coder_calls_4b(args = (Dialect::Qwen3Coder, "calls", 4), setup = dialect_case)]
#[bench::seed_oss_prose_whole(args = (Dialect::SeedOss, "prose", 0), setup = dialect_case)]
#[bench::seed_oss_prose_4b(args = (Dialect::SeedOss, "prose", 4), setup = dialect_case)]
#[bench::seed_oss_call_whole(args = (Dialect::SeedOss, "call", 0), setup = dialect_case)]
#[bench::seed_oss_call_4b(args = (Dialect::SeedOss, "call", 4), setup = dialect_case)]
#[bench::seed_oss_calls_whole(args = (Dialect::SeedOss, "calls", 0), setup = dialect_case)]
#[bench::seed_oss_calls_4b(args = (Dialect::SeedOss, "calls", 4), setup = dialect_case)]
#[bench::jamba_prose_whole(args = (Dialect::Jamba, "prose", 0), setup = dialect_case)]
#[bench::jamba_prose_4b(args = (Dialect::Jamba, "prose", 4), setup = dialect_case)]
#[bench::jamba_call_whole(args = (Dialect::Jamba, "call", 0), setup = dialect_case)]
#[bench::jamba_call_4b(args = (Dialect::Jamba, "call", 4), setup = dialect_case)]
#[bench::jamba_calls_whole(args = (Dialect::Jamba, "calls", 0), setup = dialect_case)]
#[bench::jamba_calls_4b(args = (Dialect::Jamba, "calls", 4), setup = dialect_case)]
#[bench::granite_prose_whole(args = (Dialect::Granite, "prose", 0), setup = dialect_case)]
#[bench::granite_prose_4b(args = (Dialect::Granite, "prose", 4), setup = dialect_case)]
#[bench::granite_call_whole(args = (Dialect::Granite, "call", 0), setup = dialect_case)]
#[bench::granite_call_4b(args = (Dialect::Granite, "call", 4), setup = dialect_case)]
#[bench::granite_calls_whole(args = (Dialect::Granite, "calls", 0), setup = dialect_case)]
#[bench::granite_calls_4b(args = (Dialect::Granite, "calls", 4), setup = dialect_case)]
#[bench::internlm_prose_whole(args = (Dialect::Internlm, "prose", 0), setup = dialect_case)]
#[bench::internlm_prose_4b(args = (Dialect::Internlm, "prose", 4), setup = dialect_case)]
#[bench::internlm_call_whole(args = (Dialect::Internlm, "call", 0), setup = dialect_case)]
#[bench::internlm_call_4b(args = (Dialect::Internlm, "call", 4), setup = dialect_case)]
#[bench::internlm_calls_whole(args = (Dialect::Internlm, "calls", 0), setup = dialect_case)]
#[bench::internlm_calls_4b(args = (Dialect::Internlm, "calls", 4), setup = dialect_case)]
#[bench::mistral_prose_whole(args = (Dialect::Mistral, "prose", 0), setup = dialect_case)]
#[bench::mistral_prose_4b(args = (Dialect::Mistral, "prose", 4), setup = dialect_case)]
#[bench::mistral_call_whole(args = (Dialect::Mistral, "call", 0), setup = dialect_case)]
#[bench::mistral_call_4b(args = (Dialect::Mistral, "call", 4), setup = dialect_case)]
#[bench::mistral_calls_whole(args = (Dialect::Mistral, "calls", 0), setup = dialect_case)]
#[bench::mistral_calls_4b(args = (Dialect::Mistral, "calls", 4), setup = dialect_case)]
#[bench::pythonic_prose_whole(args = (Dialect::Pythonic, "prose", 0), setup = dialect_case)]
#[bench::pythonic_prose_4b(args = (Dialect::Pythonic, "prose", 4), setup = dialect_case)]
#[bench::pythonic_call_whole(args = (Dialect::Pythonic, "call", 0), setup = dialect_case)]
#[bench::pythonic_call_4b(args = (Dialect::Pythonic, "call", 4), setup = dialect_case)]
#[bench::pythonic_calls_whole(args = (Dialect::Pythonic, "calls", 0), setup = dialect_case)]
#[bench::pythonic_calls_4b(args = (Dialect::Pythonic, "calls", 4), setup = dialect_case)]
#[bench::lfm2_prose_whole(args = (Dialect::Lfm2, "prose", 0), setup = dialect_case)]
#[bench::lfm2_prose_4b(args = (Dialect::Lfm2, "prose", 4), setup = dialect_case)]
#[bench::lfm2_call_whole(args = (Dialect::Lfm2, "call", 0), setup = dialect_case)]
#[bench::lfm2_call_4b(args = (Dialect::Lfm2, "call", 4), setup = dialect_case)]
#[bench::lfm2_calls_whole(args = (Dialect::Lfm2, "calls", 0), setup = dialect_case)]
#[bench::lfm2_calls_4b(args = (Dialect::Lfm2, "calls", 4), setup = dialect_case)]
#[bench::llama3_json_prose_whole(args = (Dialect::Llama3Json, "prose", 0), setup = dialect_case)]
#[bench::llama3_json_prose_4b(args = (Dialect::Llama3Json, "prose", 4), setup = dialect_case)]
#[bench::llama3_json_call_whole(args = (Dialect::Llama3Json, "call", 0), setup = dialect_case)]
#[bench::llama3_json_call_4b(args = (Dialect::Llama3Json, "call", 4), setup = dialect_case)]
#[bench::llama3_json_calls_whole(args = (Dialect::Llama3Json, "calls", 0), setup = dialect_case)]
#[bench::llama3_json_calls_4b(args = (Dialect::Llama3Json, "calls", 4), setup = dialect_case)]
#[bench::xlam_prose_whole(args = (Dialect::Xlam, "prose", 0), setup = dialect_case)]
#[bench::xlam_prose_4b(args = (Dialect::Xlam, "prose", 4), setup = dialect_case)]
#[bench::xlam_call_whole(args = (Dialect::Xlam, "call", 0), setup = dialect_case)]
#[bench::xlam_call_4b(args = (Dialect::Xlam, "call", 4), setup = dialect_case)]
#[bench::xlam_calls_whole(args = (Dialect::Xlam, "calls", 0), setup = dialect_case)]
#[bench::xlam_calls_4b(args = (Dialect::Xlam, "calls", 4), setup = dialect_case)]
#[bench::phi4_mini_prose_whole(args = (Dialect::Phi4Mini, "prose", 0), setup = dialect_case)]
#[bench::phi4_mini_prose_4b(args = (Dialect::Phi4Mini, "prose", 4), setup = dialect_case)]
#[bench::phi4_mini_call_whole(args = (Dialect::Phi4Mini, "call", 0), setup = dialect_case)]
#[bench::phi4_mini_call_4b(args = (Dialect::Phi4Mini, "call", 4), setup = dialect_case)]
#[bench::phi4_mini_calls_whole(args = (Dialect::Phi4Mini, "calls", 0), setup = dialect_case)]
#[bench::phi4_mini_calls_4b(args = (Dialect::Phi4Mini, "calls", 4), setup = dialect_case)]
#[bench::hunyuan_a13b_prose_whole(args = (Dialect::HunyuanA13b, "prose", 0), setup = dialect_case)]
#[bench::hunyuan_a13b_prose_4b(args = (Dialect::HunyuanA13b, "prose", 4), setup = dialect_case)]
#[bench::hunyuan_a13b_call_whole(args = (Dialect::HunyuanA13b, "call", 0), setup = dialect_case)]
#[bench::hunyuan_a13b_call_4b(args = (Dialect::HunyuanA13b, "call", 4), setup = dialect_case)]
#[bench::hunyuan_a13b_calls_whole(args = (Dialect::HunyuanA13b, "calls", 0), setup = dialect_case)]
#[bench::hunyuan_a13b_calls_4b(args = (Dialect::HunyuanA13b, "calls", 4), setup = dialect_case)]
#[bench::hunyuan_prose_whole(args = (Dialect::Hunyuan, "prose", 0), setup = dialect_case)]
#[bench::hunyuan_prose_4b(args = (Dialect::Hunyuan, "prose", 4), setup = dialect_case)]
#[bench::hunyuan_call_whole(args = (Dialect::Hunyuan, "call", 0), setup = dialect_case)]
#[bench::hunyuan_call_4b(args = (Dialect::Hunyuan, "call", 4), setup = dialect_case)]
#[bench::hunyuan_calls_whole(args = (Dialect::Hunyuan, "calls", 0), setup = dialect_case)]
#[bench::hunyuan_calls_4b(args = (Dialect::Hunyuan, "calls", 4), setup = dialect_case)]
#[bench::iquest_q1_prose_whole(args = (Dialect::IquestQ1, "prose", 0), setup = dialect_case)]
#[bench::iquest_q1_prose_4b(args = (Dialect::IquestQ1, "prose", 4), setup = dialect_case)]
#[bench::iquest_q1_call_whole(args = (Dialect::IquestQ1, "call", 0), setup = dialect_case)]
#[bench::iquest_q1_call_4b(args = (Dialect::IquestQ1, "call", 4), setup = dialect_case)]
#[bench::iquest_q1_calls_whole(args = (Dialect::IquestQ1, "calls", 0), setup = dialect_case)]
#[bench::iquest_q1_calls_4b(args = (Dialect::IquestQ1, "calls", 4), setup = dialect_case)]
#[bench::k2_horizon_prose_whole(args = (Dialect::K2Horizon, "prose", 0), setup = dialect_case)]
#[bench::k2_horizon_prose_4b(args = (Dialect::K2Horizon, "prose", 4), setup = dialect_case)]
#[bench::k2_horizon_call_whole(args = (Dialect::K2Horizon, "call", 0), setup = dialect_case)]
#[bench::k2_horizon_call_4b(args = (Dialect::K2Horizon, "call", 4), setup = dialect_case)]
#[bench::k2_horizon_calls_whole(args = (Dialect::K2Horizon, "calls", 0), setup = dialect_case)]
#[bench::k2_horizon_calls_4b(args = (Dialect::K2Horizon, "calls", 4), setup = dialect_case)]
#[bench::cohere_prose_whole(args = (Dialect::Cohere, "prose", 0), setup = dialect_case)]
#[bench::cohere_prose_4b(args = (Dialect::Cohere, "prose", 4), setup = dialect_case)]
#[bench::cohere_call_whole(args = (Dialect::Cohere, "call", 0), setup = dialect_case)]
#[bench::cohere_call_4b(args = (Dialect::Cohere, "call", 4), setup = dialect_case)]
#[bench::cohere_calls_whole(args = (Dialect::Cohere, "calls", 0), setup = dialect_case)]
#[bench::cohere_calls_4b(args = (Dialect::Cohere, "calls", 4), setup = dialect_case)]
#[bench::apertus_prose_whole(args = (Dialect::Apertus, "prose", 0), setup = dialect_case)]
#[bench::apertus_prose_4b(args = (Dialect::Apertus, "prose", 4), setup = dialect_case)]
#[bench::apertus_call_whole(args = (Dialect::Apertus, "call", 0), setup = dialect_case)]
#[bench::apertus_call_4b(args = (Dialect::Apertus, "call", 4), setup = dialect_case)]
#[bench::apertus_calls_whole(args = (Dialect::Apertus, "calls", 0), setup = dialect_case)]
#[bench::apertus_calls_4b(args = (Dialect::Apertus, "calls", 4), setup = dialect_case)]
#[bench::deepseek_v41_prose_whole(args = (Dialect::DeepseekV41, "prose", 0), setup = dialect_case)]
#[bench::deepseek_v41_prose_4b(args = (Dialect::DeepseekV41, "prose", 4), setup = dialect_case)]
#[bench::deepseek_v41_call_whole(args = (Dialect::DeepseekV41, "call", 0), setup = dialect_case)]
#[bench::deepseek_v41_call_4b(args = (Dialect::DeepseekV41, "call", 4), setup = dialect_case)]
#[bench::deepseek_v41_calls_whole(args = (Dialect::DeepseekV41, "calls", 0), setup = dialect_case)]
#[bench::deepseek_v41_calls_4b(args = (Dialect::DeepseekV41, "calls", 4), setup = dialect_case)]
#[bench::dots_prose_whole(args = (Dialect::Dots, "prose", 0), setup = dialect_case)]
#[bench::dots_prose_4b(args = (Dialect::Dots, "prose", 4), setup = dialect_case)]
#[bench::dots_call_whole(args = (Dialect::Dots, "call", 0), setup = dialect_case)]
#[bench::dots_call_4b(args = (Dialect::Dots, "call", 4), setup = dialect_case)]
#[bench::dots_calls_whole(args = (Dialect::Dots, "calls", 0), setup = dialect_case)]
#[bench::dots_calls_4b(args = (Dialect::Dots, "calls", 4), setup = dialect_case)]
#[bench::ernie45_prose_whole(args = (Dialect::Ernie45, "prose", 0), setup = dialect_case)]
#[bench::ernie45_prose_4b(args = (Dialect::Ernie45, "prose", 4), setup = dialect_case)]
#[bench::ernie45_call_whole(args = (Dialect::Ernie45, "call", 0), setup = dialect_case)]
#[bench::ernie45_call_4b(args = (Dialect::Ernie45, "call", 4), setup = dialect_case)]
#[bench::ernie45_calls_whole(args = (Dialect::Ernie45, "calls", 0), setup = dialect_case)]
#[bench::ernie45_calls_4b(args = (Dialect::Ernie45, "calls", 4), setup = dialect_case)]
#[bench::granite_20b_fc_prose_whole(args = (Dialect::Granite20bFc, "prose", 0), setup = dialect_case)]
#[bench::granite_20b_fc_prose_4b(args = (Dialect::Granite20bFc, "prose", 4), setup = dialect_case)]
#[bench::granite_20b_fc_call_whole(args = (Dialect::Granite20bFc, "call", 0), setup = dialect_case)]
#[bench::granite_20b_fc_call_4b(args = (Dialect::Granite20bFc, "call", 4), setup = dialect_case)]
#[bench::granite_20b_fc_calls_whole(args = (Dialect::Granite20bFc, "calls", 0), setup = dialect_case)]
#[bench::granite_20b_fc_calls_4b(args = (Dialect::Granite20bFc, "calls", 4), setup = dialect_case)]
#[bench::functiongemma_prose_whole(args = (Dialect::FunctionGemma, "prose", 0), setup = dialect_case)]
#[bench::functiongemma_prose_4b(args = (Dialect::FunctionGemma, "prose", 4), setup = dialect_case)]
#[bench::functiongemma_call_whole(args = (Dialect::FunctionGemma, "call", 0), setup = dialect_case)]
#[bench::functiongemma_call_4b(args = (Dialect::FunctionGemma, "call", 4), setup = dialect_case)]
#[bench::functiongemma_calls_whole(args = (Dialect::FunctionGemma, "calls", 0), setup = dialect_case)]
#[bench::functiongemma_calls_4b(args = (Dialect::FunctionGemma, "calls", 4), setup = dialect_case)]
#[bench::minicpm5_prose_whole(args = (Dialect::Minicpm5, "prose", 0), setup = dialect_case)]
#[bench::minicpm5_prose_4b(args = (Dialect::Minicpm5, "prose", 4), setup = dialect_case)]
#[bench::minicpm5_call_whole(args = (Dialect::Minicpm5, "call", 0), setup = dialect_case)]
#[bench::minicpm5_call_4b(args = (Dialect::Minicpm5, "call", 4), setup = dialect_case)]
#[bench::minicpm5_calls_whole(args = (Dialect::Minicpm5, "calls", 0), setup = dialect_case)]
#[bench::minicpm5_calls_4b(args = (Dialect::Minicpm5, "calls", 4), setup = dialect_case)]
#[bench::kimi_k3_prose_whole(args = (Dialect::KimiK3, "prose", 0), setup = dialect_case)]
#[bench::kimi_k3_prose_4b(args = (Dialect::KimiK3, "prose", 4), setup = dialect_case)]
#[bench::kimi_k3_call_whole(args = (Dialect::KimiK3, "call", 0), setup = dialect_case)]
#[bench::kimi_k3_call_4b(args = (Dialect::KimiK3, "call", 4), setup = dialect_case)]
#[bench::kimi_k3_calls_whole(args = (Dialect::KimiK3, "calls", 0), setup = dialect_case)]
#[bench::kimi_k3_calls_4b(args = (Dialect::KimiK3, "calls", 4), setup = dialect_case)]
#[bench::muse_prose_whole(args = (Dialect::Muse, "prose", 0), setup = dialect_case)]
#[bench::muse_prose_4b(args = (Dialect::Muse, "prose", 4), setup = dialect_case)]
#[bench::muse_call_whole(args = (Dialect::Muse, "call", 0), setup = dialect_case)]
#[bench::muse_call_4b(args = (Dialect::Muse, "call", 4), setup = dialect_case)]
#[bench::muse_calls_whole(args = (Dialect::Muse, "calls", 0), setup = dialect_case)]
#[bench::muse_calls_4b(args = (Dialect::Muse, "calls", 4), setup = dialect_case)]
#[bench::mimo_prose_whole(args = (Dialect::Mimo, "prose", 0), setup = dialect_case)]
#[bench::mimo_prose_4b(args = (Dialect::Mimo, "prose", 4), setup = dialect_case)]
#[bench::mimo_call_whole(args = (Dialect::Mimo, "call", 0), setup = dialect_case)]
#[bench::mimo_call_4b(args = (Dialect::Mimo, "call", 4), setup = dialect_case)]
#[bench::mimo_calls_whole(args = (Dialect::Mimo, "calls", 0), setup = dialect_case)]
#[bench::mimo_calls_4b(args = (Dialect::Mimo, "calls", 4), setup = dialect_case)]
#[bench::step3_prose_whole(args = (Dialect::Step3, "prose", 0), setup = dialect_case)]
#[bench::step3_prose_4b(args = (Dialect::Step3, "prose", 4), setup = dialect_case)]
#[bench::step3_call_whole(args = (Dialect::Step3, "call", 0), setup = dialect_case)]
#[bench::step3_call_4b(args = (Dialect::Step3, "call", 4), setup = dialect_case)]
#[bench::step3_calls_whole(args = (Dialect::Step3, "calls", 0), setup = dialect_case)]
#[bench::step3_calls_4b(args = (Dialect::Step3, "calls", 4), setup = dialect_case)]
#[bench::gigachat35_prose_whole(args = (Dialect::Gigachat35, "prose", 0), setup = dialect_case)]
#[bench::gigachat35_prose_4b(args = (Dialect::Gigachat35, "prose", 4), setup = dialect_case)]
#[bench::gigachat35_call_whole(args = (Dialect::Gigachat35, "call", 0), setup = dialect_case)]
#[bench::gigachat35_call_4b(args = (Dialect::Gigachat35, "call", 4), setup = dialect_case)]
#[bench::gigachat35_calls_whole(args = (Dialect::Gigachat35, "calls", 0), setup = dialect_case)]
#[bench::gigachat35_calls_4b(args = (Dialect::Gigachat35, "calls", 4), setup = dialect_case)]
#[bench::gigachat3_prose_whole(args = (Dialect::Gigachat3, "prose", 0), setup = dialect_case)]
#[bench::gigachat3_prose_4b(args = (Dialect::Gigachat3, "prose", 4), setup = dialect_case)]
#[bench::gigachat3_call_whole(args = (Dialect::Gigachat3, "call", 0), setup = dialect_case)]
#[bench::gigachat3_call_4b(args = (Dialect::Gigachat3, "call", 4), setup = dialect_case)]
#[bench::gigachat3_calls_whole(args = (Dialect::Gigachat3, "calls", 0), setup = dialect_case)]
#[bench::gigachat3_calls_4b(args = (Dialect::Gigachat3, "calls", 4), setup = dialect_case)]
#[bench::plamo3_prose_whole(args = (Dialect::Plamo3, "prose", 0), setup = dialect_case)]
#[bench::plamo3_prose_4b(args = (Dialect::Plamo3, "prose", 4), setup = dialect_case)]
#[bench::plamo3_call_whole(args = (Dialect::Plamo3, "call", 0), setup = dialect_case)]
#[bench::plamo3_call_4b(args = (Dialect::Plamo3, "call", 4), setup = dialect_case)]
#[bench::plamo3_calls_whole(args = (Dialect::Plamo3, "calls", 0), setup = dialect_case)]
#[bench::plamo3_calls_4b(args = (Dialect::Plamo3, "calls", 4), setup = dialect_case)]
#[bench::minimax_m3_prose_whole(args = (Dialect::MinimaxM3, "prose", 0), setup = dialect_case)]
#[bench::minimax_m3_prose_4b(args = (Dialect::MinimaxM3, "prose", 4), setup = dialect_case)]
#[bench::minimax_m3_call_whole(args = (Dialect::MinimaxM3, "call", 0), setup = dialect_case)]
#[bench::minimax_m3_call_4b(args = (Dialect::MinimaxM3, "call", 4), setup = dialect_case)]
#[bench::minimax_m3_calls_whole(args = (Dialect::MinimaxM3, "calls", 0), setup = dialect_case)]
#[bench::minimax_m3_calls_4b(args = (Dialect::MinimaxM3, "calls", 4), setup = dialect_case)]
#[bench::longcat_prose_whole(args = (Dialect::Longcat, "prose", 0), setup = dialect_case)]
#[bench::longcat_prose_4b(args = (Dialect::Longcat, "prose", 4), setup = dialect_case)]
#[bench::longcat_call_whole(args = (Dialect::Longcat, "call", 0), setup = dialect_case)]
#[bench::longcat_call_4b(args = (Dialect::Longcat, "call", 4), setup = dialect_case)]
#[bench::longcat_calls_whole(args = (Dialect::Longcat, "calls", 0), setup = dialect_case)]
#[bench::longcat_calls_4b(args = (Dialect::Longcat, "calls", 4), setup = dialect_case)]
fn dialect(case: Case) -> Case {
    let counts = inputs::scan(&case.input, case.chunk);
    case.input.check(&counts);
    case
}

/// An input cut into tokens as a server would feed it in token mode: each delimiter of the
/// gate one added token, other text in ordinary tokens of at most 4 bytes (none crossing a
/// delimiter), one token per feed; `tokens` is false for the text-mode run of the same cuts.
struct TokenCase {
    input: Input,
    gate: TokenGate,
    cuts: Vec<(Range<usize>, bool)>,
    tokens: bool,
}

/// The gate of a vocabulary in which every delimiter of `dialect` is one added token.
fn every_delimiter_a_token(dialect: Dialect) -> TokenGate {
    let mut gate = TokenGate::new(dialect);
    for d in dialect.delimiters() {
        gate.add_token(d.bytes);
    }
    gate
}

fn token_case(dialect: Dialect, tokens: bool) -> TokenCase {
    let input = inputs::many_calls(dialect, inputs::MANY_CALLS);
    let gate = every_delimiter_a_token(dialect);
    let texts: Vec<&[u8]> = gate.gated().collect();
    let mut cuts = Vec::new();
    let mut i = 0;
    let bytes = &input.bytes;
    while i < bytes.len() {
        let token = texts
            .iter()
            .filter(|t| bytes[i..].starts_with(t))
            .map(|t| t.len())
            .max();
        if let Some(len) = token {
            cuts.push((i..i + len, true));
            i += len;
            continue;
        }
        let mut end = (i + 4).min(bytes.len());
        if let Some(k) = (i + 1..end).find(|&k| texts.iter().any(|t| bytes[k..].starts_with(t))) {
            end = k;
        }
        cuts.push((i..end, false));
        i = end;
    }
    TokenCase {
        input,
        gate,
        cuts,
        tokens,
    }
}

// The 200-call inputs fed one token per feed, in token mode (every delimiter an added
// token) and in text mode on the same cuts: token mode's cost per token against text mode's.
#[library_benchmark]
#[bench::qwen3_text(args = (Dialect::Qwen3, false), setup = token_case)]
#[bench::qwen3_tokens(args = (Dialect::Qwen3, true), setup = token_case)]
#[bench::kimi_text(args = (Dialect::Kimi, false), setup = token_case)]
#[bench::kimi_tokens(args = (Dialect::Kimi, true), setup = token_case)]
#[bench::harmony_text(args = (Dialect::Harmony, false), setup = token_case)]
#[bench::harmony_tokens(args = (Dialect::Harmony, true), setup = token_case)]
fn tokens(case: TokenCase) -> TokenCase {
    let mut counts = Counts::default();
    let mut scanner = if case.tokens {
        Scanner::with_tokens(case.gate, Options::default())
    } else {
        Scanner::new(case.input.dialect, Options::default())
    };
    for (range, added) in &case.cuts {
        let piece = &case.input.bytes[range.clone()];
        if !case.tokens {
            scanner.feed(piece, &mut counts).unwrap();
        } else if *added {
            scanner
                .feed_tokens(piece, std::slice::from_ref(&(0..piece.len())), &mut counts)
                .unwrap();
        } else {
            scanner.feed_tokens(piece, &[], &mut counts).unwrap();
        }
    }
    scanner.finish(&mut counts).unwrap();
    case.input.check(&counts);
    case
}

/// A short, realistic Hermes turn: reasoning, prose with non-ASCII, two calls.
const TURN: &[u8] = "<think>\nThe user wants the weather in Zürich and a file read; two calls.\n</think>\n\
Sure — let me check the forecast for Zürich (it's usually < 10 °C in March) and read the config.\n\
<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Zürich\", \"unit\": \"celsius\"}}\n</tool_call>\n\
<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"config/app.toml\", \"note\": \"see \\\"<br>\\\" {x}\"}}\n</tool_call>\n\
Both requests are on their way.\n"
    .as_bytes();

// Feeds `TURN` over and over in 4-byte chunks, at least 10 000 chunks in whole turns,
// under DHAT: the scan must not allocate (hard limits of 0 blocks and 0 bytes).
#[library_benchmark(
    config = LibraryBenchmarkConfig::default().tool(
        Dhat::default().hard_limits([(DhatMetric::TotalBlocks, 0u64), (DhatMetric::TotalBytes, 0u64)])
    )
)]
fn no_allocations() -> u64 {
    let per_turn = TURN.len().div_ceil(4);
    let turns = 10_000usize.div_ceil(per_turn);
    let mut scanner = Scanner::new(Dialect::Hermes, Options::default());
    let mut counts = Counts::default();
    for piece in TURN.chunks(4).cycle().take(turns * per_turn) {
        scanner.feed(piece, &mut counts).unwrap();
    }
    scanner.finish(&mut counts).unwrap();
    assert_eq!(counts.complete, 2 * turns as u64);
    assert_eq!(counts.other_ends + counts.diagnostics, 0);
    counts.events
}

library_benchmark_group!(name = scanner; benchmarks = scan, dialect, tokens, no_allocations);

// CI gate: an instruction count more than 5% above the last run's fails the bench.
main!(
    config = LibraryBenchmarkConfig::default()
        .tool(Callgrind::default().soft_limits([(EventKind::Ir, 5.0)]));
    library_benchmark_groups = scanner
);
