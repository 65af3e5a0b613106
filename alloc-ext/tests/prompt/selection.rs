//! Selection from a model id or a server's parser name (docs/seed.md §4.7, §4.3 examples,
//! §5.9, §5.11; docs/dialects.md §families).

use inband::Dialect;
use inband_alloc::select;

#[track_caller]
fn assert_models(cases: &[(&str, &str)]) {
    for (model, dialect) in cases {
        assert_eq!(select::for_model(model).name(), *dialect, "model {model}");
    }
}

#[test]
fn seed_model_examples_select_their_dialects() {
    assert_models(&[
        ("claude-sonnet-4-5", "anthropic"),
        ("claude-3-5-sonnet-20241022", "anthropic"),
        ("gpt-5", "harmony"),
        ("", "xml"),
        ("deepseek-v3", "deepseek"),
        ("gemini-2.5-pro", "gemini"),
        ("gemini-3-pro-preview", "gemini"),
        ("claude-opus-4-8", "anthropic"),
        ("claude-sonnet-4-6", "anthropic"),
        ("claude-haiku-4-5", "anthropic"),
        ("claude-fable-5", "anthropic"),
        ("claude-mythos-5", "anthropic"),
        ("us.anthropic.claude-haiku-4-5-20251001-v1:0", "anthropic"),
        ("eu.anthropic.claude-haiku-4-5-20251001-v1:0", "anthropic"),
        ("global.anthropic.claude-opus-4-8", "anthropic"),
        ("anthropic/claude-3-opus", "anthropic"),
        ("MiniMax-M2.5", "minimax"),
        // M3 writes its own wire (docs/dialects.md §minimax-m3).
        ("MiniMax-M3", "minimax-m3"),
        ("unclassified-model-id", "xml"),
        ("deepseek-r1-distill-qwen-32b", "qwen3"),
        ("o3-mini", "harmony"),
        ("openai/gpt-oss-120b", "harmony"),
        ("gpt-oss-20b", "harmony"),
        ("glm-4.6", "glm"),
        ("glm-10", "xml"),
    ]);
}

#[test]
fn every_family_of_model_formats_selects_its_dialect() {
    assert_models(&[
        // Hermes and Granite 4 (exact hermes).
        ("NousResearch/Hermes-3-Llama-3.1-8B", "hermes"),
        ("NousResearch/Hermes-4-14B", "hermes"),
        ("ibm-granite/granite-4.0-h-small", "hermes"),
        ("granite-3.3-8b-instruct", "granite"),
        ("ibm-granite/granite-3.1-8b-instruct", "granite"),
        ("ibm-granite/granite-3.0-2b-instruct", "granite"),
        // Qwen JSON family, QwQ, MiMo.
        ("Qwen/Qwen2.5-7B-Instruct", "qwen3"),
        ("Qwen/Qwen3-235B-A22B-Thinking-2507", "qwen3"),
        ("qwen3-32b", "qwen3"),
        ("Qwen/Qwen2.5-Coder-32B-Instruct", "qwen3"),
        ("Qwen/QwQ-32B", "qwen3"),
        ("XiaomiMiMo/MiMo-7B-RL", "qwen3"),
        // MiMo-V2 and later: Qwen3-Coder's tags, values exact (docs/dialects.md §mimo).
        ("XiaomiMiMo/MiMo-V2-Flash", "mimo"),
        ("mimo-v2-flash", "mimo"),
        ("XiaomiMiMo/MiMo-V2.5-Pro", "mimo"),
        // StepFun Step-3: steptml between special tokens (Step3-VL writes JSON tags).
        ("stepfun-ai/step3", "step3"),
        ("stepfun-ai/step3-fp8", "step3"),
        ("step-3", "step3"),
        ("stepfun-ai/Step3-VL-10B", "xml"),
        // Sber GigaChat 3.5: GCML tags (GigaChat 3 writes JSON: its own dialect).
        ("ai-sage/GigaChat3.5-Lightning", "gigachat35"),
        ("gigachat-3.5-pro", "gigachat35"),
        ("ai-sage/GigaChat3-10B-A1.8B", "gigachat3"),
        // Qwen3-Coder, Qwen3.5 / 3.6, Step-3.5 / 3.7.
        ("Qwen/Qwen3-Coder-480B-A35B-Instruct", "qwen3-coder"),
        ("qwen3-coder-plus", "qwen3-coder"),
        ("Qwen/Qwen3.5-397B-A17B", "qwen3-coder"),
        ("qwen3.6-plus", "qwen3-coder"),
        ("stepfun-ai/Step-3.5-Flash", "qwen3-coder"),
        ("step-3.7-flash", "qwen3-coder"),
        ("step3p5", "qwen3-coder"),
        // GLM-4.5 … 5.
        ("zai-org/GLM-4.5", "glm"),
        ("zai-org/GLM-4.5-Air", "glm"),
        ("glm-4.7", "glm"),
        ("zai-org/GLM-5", "glm"),
        // Kimi.
        ("moonshotai/Kimi-K2-Instruct", "kimi"),
        ("kimi-k2-thinking", "kimi"),
        ("kimi-k2.5", "kimi"),
        // DeepSeek V3, R1, V3.1, V3.2, V4.
        ("deepseek-ai/DeepSeek-V3-0324", "deepseek"),
        ("deepseek-ai/DeepSeek-R1-0528", "deepseek"),
        ("deepseek-ai/DeepSeek-V3.1-Terminus", "deepseek"),
        ("deepseek-ai/DeepSeek-V3.2", "deepseek"),
        ("deepseek-v4-pro", "deepseek"),
        // DeepSeek V4.1: spaced DSML, a dialect of its own.
        ("deepseek-ai/DeepSeek-V4.1-Flash", "deepseek-v41"),
        ("deepseek-v4.1", "deepseek-v41"),
        ("deepseek_v41-pro", "deepseek-v41"),
        // MiniMax M2 (M1 writes JSON lines: no dialect).
        ("MiniMaxAI/MiniMax-M2", "minimax"),
        ("minimax-m2.1", "minimax"),
        ("MiniMax-M2.5", "minimax"),
        ("MiniMaxAI/MiniMax-M1-80k", "xml"),
        ("MiniMaxAI/MiniMax-M3", "minimax-m3"),
        ("minimax-m3.1", "minimax-m3"),
        // gpt-oss and OpenAI.
        ("openai/gpt-oss-120b", "harmony"),
        ("chatgpt-4o-latest", "harmony"),
        ("gpt-4.1-mini", "harmony"),
        // Gemma 4 vs Gemma 3, Gemini.
        ("google/gemma-4-31b-it", "gemma"),
        ("gemma-3-27b-it", "gemini"),
        ("gemma3:12b", "gemini"),
        ("google/gemma-3n-E4B-it", "gemini"),
        ("gemini-exp-1206", "gemini"),
        ("codegemma-7b", "xml"),
        // Seed-OSS.
        ("ByteDance-Seed/Seed-OSS-36B-Instruct", "seed-oss"),
        ("seed-oss-36b-base", "seed-oss"),
        // LongCat-Flash.
        ("meituan-longcat/LongCat-Flash-Chat", "longcat"),
        ("meituan-longcat/LongCat-Flash-Thinking", "longcat"),
        ("longcat-flash-chat", "longcat"),
        // Jamba.
        ("ai21labs/AI21-Jamba-Mini-1.6", "jamba"),
        ("ai21labs/AI21-Jamba-Large-1.7", "jamba"),
        ("ai21labs/AI21-Jamba-Reasoning-3B", "jamba"),
        ("jamba-1.5-mini", "jamba"),
        // InternLM.
        ("internlm/internlm2_5-7b-chat", "internlm"),
        ("internlm/internlm3-8b-instruct", "internlm"),
        ("internlm/Intern-S1", "internlm"),
        ("Intern-S1-mini-FP8", "internlm"),
        ("interns1:latest", "internlm"),
        ("internlm2-chat-20b", "internlm"),
        // Mistral AI, both tokenizer generations.
        ("mistralai/Mistral-Small-3.2-24B-Instruct-2506", "mistral"),
        ("mistralai/Mistral-7B-Instruct-v0.3", "mistral"),
        ("mistralai/Mistral-Nemo-Instruct-2407", "mistral"),
        ("mistralai/Magistral-Small-2509", "mistral"),
        ("mistralai/Devstral-Small-2507", "mistral"),
        ("mistralai/Ministral-3-8B-Instruct-2512", "mistral"),
        ("mistralai/Mixtral-8x22B-Instruct-v0.1", "mistral"),
        ("codestral-latest", "mistral"),
        ("mistral-large-latest", "mistral"),
        // Olmo 3 (its `<function_calls>` lines) and LFM2.
        ("allenai/Olmo-3-7B-Instruct", "pythonic"),
        ("allenai/Olmo-3-32B-Think", "pythonic"),
        ("olmo3-7b", "pythonic"),
        ("LiquidAI/LFM2-1.2B", "lfm2"),
        ("LiquidAI/LFM2.5-1.2B-Instruct", "lfm2"),
        ("lfm2-350m", "lfm2"),
        // Phi-4-mini and its reasoning and multimodal siblings; Phi-4 (14B) has no tool format.
        ("microsoft/Phi-4-mini-instruct", "phi4-mini"),
        ("microsoft/Phi-4-mini-flash-reasoning", "phi4-mini"),
        ("microsoft/Phi-4-multimodal-instruct", "phi4-mini"),
        ("phi4-mini", "phi4-mini"),
        ("microsoft/phi-4", "xml"),
    ]);
}

/// The JSON-bodies families added after the first table: Hunyuan-A13B, Cohere, Apertus.
#[test]
fn later_json_body_families_select_their_dialects() {
    assert_models(&[
        // Hunyuan-A13B; the later Hunyuan models write another wire (docs/parsers.md).
        ("tencent/Hunyuan-A13B-Instruct", "hunyuan-a13b"),
        ("tencent/Hunyuan-A13B-Instruct-FP8", "hunyuan-a13b"),
        ("hunyuan-a13b", "hunyuan-a13b"),
        ("tencent/Hunyuan-7B-Instruct", "xml"),
        // Tencent Hy3 / HY4 (`:opensource` key/value calls).
        ("tencent/Hy3", "hunyuan"),
        ("tencent/Hy3-preview", "hunyuan"),
        ("hy3-nvfp4", "hunyuan"),
        ("tencent/HY4", "hunyuan"),
        // IQuest Q1.
        ("IQuest/IQuest-Q1", "iquest-q1"),
        ("iquest-q1-375b-a23b", "iquest-q1"),
        ("iquest_q1", "iquest-q1"),
        // K2 Horizon (IFM).
        ("k2-horizon-375b-a23b", "k2-horizon"),
        ("K2-Horizon-MoVA", "k2-horizon"),
        // Command R7B and Command A; Command R / R+ write the unread `Action:` form.
        ("CohereLabs/c4ai-command-r7b-12-2024", "cohere"),
        ("CohereForAI/c4ai-command-r7b-arabic-02-2025", "cohere"),
        ("CohereLabs/c4ai-command-a-03-2025", "cohere"),
        ("CohereLabs/command-a-reasoning-08-2025", "cohere"),
        ("CohereLabs/command-a-vision-07-2025", "cohere"),
        ("CohereForAI/c4ai-command-r-plus-08-2024", "xml"),
        ("CohereForAI/c4ai-command-r-v01", "xml"),
        ("swiss-ai/Apertus-8B-Instruct-2509", "apertus"),
        ("swiss-ai/Apertus-70B-Instruct-2509", "apertus"),
        // rednote dots.
        ("rednote-hilab/dots.llm1.inst", "dots"),
        ("rednote-hilab/dots.vlm1.inst", "dots"),
        ("dots1-142b", "dots"),
        // Muse Spark, Muse Glimmer.
        ("muse-spark-1x", "muse"),
        ("org/Muse-Glimmer", "muse"),
        ("musespark1x", "muse"),
        ("rednote-hilab/dots.ocr", "xml"),
        // Baidu ERNIE 4.5.
        ("baidu/ERNIE-4.5-21B-A3B-Thinking", "ernie45"),
        ("baidu/ERNIE-4.5-300B-A47B-PT", "ernie45"),
        ("baidu/ERNIE-4.5-VL-28B-A3B-Thinking", "ernie45"),
        // IBM granite-20b-functioncalling (not Granite 20: its own wire).
        ("ibm-granite/granite-20b-functioncalling", "granite-20b-fc"),
        // Google FunctionGemma (before Gemma's version rule).
        ("google/functiongemma-270m-it", "functiongemma"),
        ("functiongemma-270m-it-mobile-actions", "functiongemma"),
        // OpenBMB MiniCPM 5; MiniCPM-V writes Qwen3-Coder's calls, no dialect of its own.
        ("openbmb/MiniCPM5-16B", "minicpm5"),
        ("minicpm-5-8b", "minicpm5"),
        ("openbmb/MiniCPM-V-4_5", "xml"),
        // Moonshot Kimi K3.
        ("moonshotai/Kimi-K3", "kimi-k3"),
        // Sber GigaChat 3; GigaChat 3.5 writes another wire (docs/parsers.md).
        ("ai-sage/GigaChat3-10B-A1.8B", "gigachat3"),
        ("ai-sage/GigaChat3-702B-A36B-preview-bf16", "gigachat3"),
        ("gigachat-3-10b", "gigachat3"),
        ("ai-sage/GigaChat3.5-10B-A1.8B", "gigachat35"),
        // PFN PLaMo 3 (vLLM `plamo3`); PLaMo 2 has no tool-call wire of its own.
        ("pfnet/plamo-3-nict-31b-base", "plamo3"),
        ("pfnet/plamo-2-8b", "xml"),
        // Meta Llama 3.1 – 3.3: JSON tool calls; Llama 3.0 has none, Llama 4 two wires.
        ("meta-llama/Llama-3.3-70B-Instruct", "llama3-json"),
        ("meta-llama/Llama-3.1-8B-Instruct", "llama3-json"),
        ("meta-llama/Meta-Llama-3.1-70B-Instruct", "llama3-json"),
        ("meta-llama/Llama-3.2-3B-Instruct", "llama3-json"),
        ("llama3.1:8b", "llama3-json"),
        ("meta-llama/Meta-Llama-3-8B-Instruct", "xml"),
        // Salesforce xLAM, Llama-, Qwen- and Mistral-based alike.
        ("Salesforce/Llama-xLAM-2-8b-fc-r", "xlam"),
        ("Salesforce/xLAM-2-32b-fc-r", "xlam"),
        ("Salesforce/xLAM-7b-r", "xlam"),
        ("meta-llama/Llama-4-Scout-17B-16E-Instruct", "xml"),
    ]);
}

#[test]
fn server_parser_names_select_their_dialects() {
    let cases = [
        ("hermes", Some("hermes")),
        ("granite4", Some("hermes")),
        ("qwen", Some("qwen3")),
        ("qwen25", Some("qwen3")),
        ("qwen3_coder", Some("qwen3-coder")),
        ("qwen3_xml", Some("qwen3-coder")),
        ("qwen_coder", Some("qwen3-coder")),
        ("step3p5", Some("qwen3-coder")),
        ("glm", Some("glm")),
        ("glm45", Some("glm")),
        ("glm47", Some("glm")),
        ("glm45_moe", Some("glm")),
        ("glm47_moe", Some("glm")),
        ("kimi_k2", Some("kimi")),
        ("kimik2", Some("kimi")),
        ("deepseek_v3", Some("deepseek")),
        ("deepseekv3", Some("deepseek")),
        ("deepseek", Some("deepseek")),
        ("deepseek_v31", Some("deepseek")),
        ("deepseekv31", Some("deepseek")),
        ("deepseek31", Some("deepseek")),
        ("deepseek_v32", Some("deepseek")),
        ("deepseekv32", Some("deepseek")),
        ("deepseek_v4", Some("deepseek")),
        ("deepseekv4", Some("deepseek")),
        ("minimax_m2", Some("minimax")),
        ("minimax-m2", Some("minimax")),
        ("minimax_m3", Some("minimax-m3")),
        ("minimax-m3", Some("minimax-m3")),
        ("openai", Some("harmony")),
        ("gpt-oss", Some("harmony")),
        ("gemma4", Some("gemma")),
        ("seed_oss", Some("seed-oss")),
        ("longcat", Some("longcat")),
        ("jamba", Some("jamba")),
        ("internlm", Some("internlm")),
        ("interns1", Some("internlm")),
        ("olmo3", Some("pythonic")),
        ("lfm2", Some("lfm2")),
        ("phi4_mini_json", Some("phi4-mini")),
        ("hunyuan_a13b", Some("hunyuan-a13b")),
        ("hunyuan", Some("hunyuan")),
        ("hy_v3", Some("hunyuan")),
        ("hy_v4", Some("hunyuan")),
        ("iquest_q1", Some("iquest-q1")),
        ("k2_horizon", Some("k2-horizon")),
        ("cohere_command3", Some("cohere")),
        ("cohere_command4", Some("cohere")),
        ("apertus", Some("apertus")),
        ("apertus2509", Some("apertus")),
        ("deepseek_v41", Some("deepseek-v41")),
        ("deepseekv41", Some("deepseek-v41")),
        ("deepseek-v41", Some("deepseek-v41")),
        ("dots", Some("dots")),
        ("ernie45", Some("ernie45")),
        ("granite-20b-fc", Some("granite-20b-fc")),
        ("muse", Some("muse")),
        ("musespark1x", Some("muse")),
        ("muse_glimmer", Some("muse")),
        ("mimo", Some("mimo")),
        ("step3", Some("step3")),
        ("gigachat35", Some("gigachat35")),
        ("gigachat3", Some("gigachat3")),
        ("plamo3", Some("plamo3")),
        ("minimax", None),
        ("kimi_k3", Some("kimi-k3")),
        ("mistral", Some("mistral")),
        ("llama3_json", Some("llama3-json")),
        ("pythonic", Some("pythonic")),
        ("granite", Some("granite")),
        ("qwen3_json", Some("qwen3")),
        ("functiongemma", Some("functiongemma")),
        ("minicpm5", Some("minicpm5")),
        ("minicpmv", None),
        ("no_such_parser", None),
    ];
    for (parser, dialect) in cases {
        assert_eq!(
            select::for_parser(parser).map(Dialect::name),
            dialect,
            "parser {parser}"
        );
    }
}

#[test]
fn callers_with_their_own_fallback_see_unknown_models() {
    // The seed's agent (§5.11) prompts models no rule knows in glm; Qwen3-Coder now has
    // its own dialect.
    let agent = |id: Option<&str>| {
        id.and_then(select::known_model)
            .unwrap_or(Dialect::Glm)
            .name()
    };
    assert_eq!(agent(Some("MiniMax-M2")), "minimax");
    assert_eq!(agent(Some("MiniMax-M3")), "minimax-m3");
    assert_eq!(agent(Some("qwen3-coder-plus")), "qwen3-coder");
    assert_eq!(agent(Some("unclassified-model-id")), "glm");
    assert_eq!(agent(None), "glm");
    assert_eq!(select::known_model("mistral-large"), Some(Dialect::Mistral));
    assert_eq!(select::known_model("unclassified-model-id"), None);
}

/// Kimi K3's XTML channels are the kimi-k3 dialect's, not kimi's (docs/dialects.md
/// §kimi-k3), as `for_parser` says of `kimi_k3`; K2 and K2.5 stay kimi.
#[test]
fn kimi_k3_is_not_kimi() {
    use inband_alloc::select::{for_model, known_model};
    for id in [
        "moonshotai/Kimi-K3",
        "kimi-k3-preview",
        "Kimi-K3.1",
        "kimi-k4",
    ] {
        assert_eq!(known_model(id), Some(Dialect::KimiK3), "{id}");
        assert_eq!(for_model(id), Dialect::KimiK3, "{id}");
    }
    for id in [
        "moonshotai/Kimi-K2.5",
        "kimi-k2-0711-preview",
        "moonshotai/Kimi-K2-Thinking",
    ] {
        assert_eq!(known_model(id), Some(Dialect::Kimi), "{id}");
    }
}
