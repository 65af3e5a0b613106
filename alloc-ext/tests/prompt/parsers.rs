//! Server parser names (vLLM 0.33 and SGLang `--tool-call-parser` / `--reasoning-parser`
//! values, smg names) and the dialect each resolves to (docs/parsers.md).

use inband::Dialect;
use inband_alloc::select::{for_parser, PARSERS};

/// Every name `for_parser` knows, with the dialect it must give: exactly `PARSERS`.
const ALIASES: &[(&str, &str)] = &[
    ("hermes", "hermes"),
    ("granite4", "hermes"),
    ("qwen", "qwen3"),
    ("qwen25", "qwen3"),
    ("qwen3_json", "qwen3"),
    ("qwen3", "qwen3"),
    ("qwen3-thinking", "qwen3"),
    ("trinity", "qwen3"),
    ("qwen3_coder", "qwen3-coder"),
    ("qwen3_xml", "qwen3-coder"),
    ("qwen_coder", "qwen3-coder"),
    ("step3p5", "qwen3-coder"),
    ("step5", "qwen3-coder"),
    ("nanbeige", "qwen3-coder"),
    ("nemotron_v3", "qwen3-coder"),
    ("nemotron_3", "qwen3-coder"),
    ("granite_thinking_parser", "qwen3-coder"),
    ("glm", "glm"),
    ("glm45", "glm"),
    ("glm47", "glm"),
    ("glm4_moe", "glm"),
    ("glm45_moe", "glm"),
    ("glm47_moe", "glm"),
    ("poolside_v1", "glm"),
    ("ling3", "glm"),
    ("spark25", "glm"),
    ("kimi_k2", "kimi"),
    ("kimik2", "kimi"),
    ("deepseek_v3", "deepseek"),
    ("deepseekv3", "deepseek"),
    ("deepseek-v3", "deepseek"),
    ("deepseek", "deepseek"),
    ("deepseek_r1", "deepseek"),
    ("deepseek-r1", "deepseek"),
    ("deepseek_v31", "deepseek"),
    ("deepseekv31", "deepseek"),
    ("deepseek31", "deepseek"),
    ("deepseek_v32", "deepseek"),
    ("deepseekv32", "deepseek"),
    ("deepseek_v4", "deepseek"),
    ("deepseekv4", "deepseek"),
    ("deepseek-v4", "deepseek"),
    ("deepseek_v41", "deepseek-v41"),
    ("deepseekv41", "deepseek-v41"),
    ("deepseek-v41", "deepseek-v41"),
    ("minimax_m2", "minimax"),
    ("minimax-m2", "minimax"),
    ("minimax_m2_append_think", "minimax"),
    ("minimax-append-think", "minimax"),
    ("openai", "harmony"),
    ("gpt-oss", "harmony"),
    ("gpt_oss", "harmony"),
    ("openai_gptoss", "harmony"),
    ("gemma4", "gemma"),
    ("seed_oss", "seed-oss"),
    ("longcat", "longcat"),
    ("jamba", "jamba"),
    ("granite", "granite"),
    ("internlm", "internlm"),
    ("internlm2", "internlm"),
    ("interns1", "internlm"),
    ("mistral", "mistral"),
    ("pythonic", "pythonic"),
    ("llama4_pythonic", "pythonic"),
    ("olmo3", "pythonic"),
    ("lfm2", "lfm2"),
    ("llama3_json", "llama3-json"),
    ("llama4_json", "llama3-json"),
    ("llama3", "llama3-json"),
    ("xlam", "xlam"),
    ("phi4_mini_json", "phi4-mini"),
    ("hunyuan_a13b", "hunyuan-a13b"),
    ("hunyuan", "hunyuan"),
    ("hy_v3", "hunyuan"),
    ("hy_v4", "hunyuan"),
    ("iquest_q1", "iquest-q1"),
    ("k2_horizon", "k2-horizon"),
    ("cohere_command3", "cohere"),
    ("cohere_command4", "cohere"),
    ("apertus", "apertus"),
    ("apertus2509", "apertus"),
    ("dots", "dots"),
    ("ernie45", "ernie45"),
    ("granite-20b-fc", "granite-20b-fc"),
    ("functiongemma", "functiongemma"),
    ("minicpm5", "minicpm5"),
    ("kimi_k3", "kimi-k3"),
    ("muse", "muse"),
    ("musespark1x", "muse"),
    ("muse_glimmer", "muse"),
    ("mimo", "mimo"),
    ("step3", "step3"),
    ("gigachat35", "gigachat35"),
    ("gigachat3", "gigachat3"),
    ("plamo3", "plamo3"),
    ("minimax_m3", "minimax-m3"),
    ("minimax-m3", "minimax-m3"),
];

/// Every vLLM 0.33 and SGLang parser name whose wire no dialect reads exactly (each with its
/// format in docs/parsers.md): `for_parser` gives `None`.
const UNCOVERED: &[&str] = &[
    "beam",
    "hf",
    "holo2",
    "inkling",
    "kimi",
    "minicpmv",
    "minimax",
    "response_template",
];

#[test]
fn every_alias_resolves_to_its_dialect() {
    for &(parser, dialect) in ALIASES {
        assert_eq!(
            for_parser(parser).map(Dialect::name),
            Some(dialect),
            "parser {parser}"
        );
    }
}

#[test]
fn the_table_is_exactly_the_tested_aliases() {
    let table: Vec<(&str, &str)> = PARSERS.iter().map(|&(n, d)| (n, d.name())).collect();
    assert_eq!(table, ALIASES, "PARSERS and ALIASES differ");
    for (at, (name, _)) in PARSERS.iter().enumerate() {
        assert_eq!(*name, name.to_ascii_lowercase(), "{name} is not lowercase");
        let again = PARSERS[at + 1..].iter().any(|(other, _)| other == name);
        assert!(!again, "{name} twice");
    }
}

#[test]
fn uncovered_parsers_resolve_to_none() {
    for &parser in UNCOVERED {
        assert_eq!(for_parser(parser), None, "parser {parser}");
        assert!(
            ALIASES.iter().all(|&(alias, _)| alias != parser),
            "{parser}"
        );
    }
}

#[test]
fn case_and_whitespace_do_not_matter() {
    assert_eq!(for_parser(" Qwen3_Coder\n"), Some(Dialect::Qwen3Coder));
    assert_eq!(for_parser("POOLSIDE_V1"), Some(Dialect::Glm));
    assert_eq!(for_parser("Deepseek-R1"), Some(Dialect::Deepseek));
    assert_eq!(for_parser(""), None);
}

/// `-` and `_` are one byte to `for_parser` (`Hy-V3` is `hy_v3`), so no two table names
/// that differ only there may name different dialects.
#[test]
fn dashes_and_underscores_name_one_dialect() {
    let fold = |name: &str| name.to_ascii_lowercase().replace('-', "_");
    for &(a, x) in PARSERS {
        for &(b, y) in PARSERS {
            if fold(a) == fold(b) {
                assert_eq!(x, y, "{a} and {b}");
            }
        }
        let swapped: String = a
            .chars()
            .map(|c| match c {
                '-' => '_',
                '_' => '-',
                c => c.to_ascii_uppercase(),
            })
            .collect();
        assert_eq!(for_parser(&swapped), Some(x), "{swapped}");
    }
    assert_eq!(for_parser("Hy-V3"), Some(Dialect::Hunyuan));
    assert_eq!(for_parser("deepseek_v3"), for_parser("deepseek-v3"));
    assert_eq!(for_parser("granite-20b_fc"), Some(Dialect::Granite20bFc));
}
