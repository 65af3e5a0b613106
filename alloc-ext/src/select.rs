//! Which dialect to speak with a model: from its model id (docs/seed.md §4.7, extended to
//! the families of docs/dialects.md §families) or from the tool-call parser an inference server
//! was started with (docs/dialects.md §families).

use inband::Dialect;

/// The dialect for models no rule knows: the generic `<invoke>` markup (docs/seed.md §1.1).
pub const FALLBACK: Dialect = Dialect::Xml;

/// The dialect to prompt a model in, from its id: a bare id (`gpt-oss-120b`), a repository
/// path (`Qwen/Qwen3-Coder-480B-A35B-Instruct`) or a provider's routed id
/// (`us.anthropic.claude-haiku-4-5-20251001-v1:0`). Case does not matter. Ids no rule
/// knows get [`FALLBACK`].
///
/// The rules, first match wins (docs/seed.md §4.7 in its order, with the families of
/// docs/dialects.md §families added where they fit a dialect exactly):
///
/// | model id | dialect |
/// | --- | --- |
/// | `claude-…`, `….claude-…`, `anthropic/…` | `anthropic` |
/// | `gpt-…`, `chatgpt-…`, `codex-…`, `o1`/`o3`/`o4…`, `openai/…`, `gpt-oss…` | `harmony` |
/// | `kimi-…`, `moonshotai/kimi…` (K2, K2-Thinking, K2.5; not K3 and later) | `kimi` |
/// | `kimi-k3…` and later (Moonshot Kimi K3's XTML channels) | `kimi-k3` |
/// | `…hermes…` (Hermes 2 Pro, 3, 4, whatever the base model) | `hermes` |
/// | Qwen3-Coder, Qwen3.5 and later Qwen3.x | `qwen3-coder` |
/// | other `…qwen…`, `…qwq…` (Qwen2.5, Qwen3, QwQ, R1 distills of Qwen) | `qwen3` |
/// | `…minimax…` with an `m2…` part (M2, M2.1, M2.5) | `minimax` |
/// | `…minimax…` with an `m3…` part (MiniMax-M3: every tag after the `]<]minimax[>[` marker) | `minimax-m3` |
/// | `…deepseek-v4.1…`, `…deepseek-v41…`, `…deepseek_v41…` (DeepSeek V4.1: spaced DSML) | `deepseek-v41` |
/// | other `…deepseek…` (V3, R1, V3.1, V3.2, V4) | `deepseek` |
/// | `…mimo-v2…` and later (MiMo-V2-Flash, MiMo-V2.5: Qwen3-Coder's tags, values exact) | `mimo` |
/// | other `…mimo…` (MiMo-7B) | `qwen3` |
/// | `step-3.5…`, `step3p5…`, Step-3.7 | `qwen3-coder` |
/// | `functiongemma…` (Google FunctionGemma: Gemma 4's body with `<escape>` strings) | `functiongemma` |
/// | `…gigachat3.5…`, `…gigachat-3.5…`, `…gigachat35…` (Sber GigaChat 3.5: GCML tags; GigaChat 3 writes another wire) | `gigachat35` |
/// | `step3…`, `step-3…` with no minor version (StepFun Step-3; not Step3-VL, whose template writes Hermes-style JSON) | `step3` |
/// | `gemma-4…` and later | `gemma` |
/// | `gemma-3…` and earlier (Gemma 3 is prompted into `tool_code`) | `gemini` |
/// | `…gemini…` | `gemini` |
/// | `glm-M[.m]…` with M ≤ 9, m ≤ 10 (GLM-4.5, 4.6, 4.7, 5) | `glm` |
/// | `granite-20b-functioncalling…`, `granite-20b-fc…` (IBM's 20B function-calling model) | `granite-20b-fc` |
/// | `granite-4…` and later (Granite 4 writes Hermes calls) | `hermes` |
/// | `granite-3…` (Granite 3.0 – 3.3: a JSON array of calls) | `granite` |
/// | `seed-oss…`, `bytedance-seed/seed-oss…` (Seed-OSS) | `seed-oss` |
/// | `longcat-flash…`, `meituan-longcat/…` (LongCat-Flash) | `longcat` |
/// | `…jamba…` (AI21 Jamba 1.5, 1.6, 1.7, Jamba Reasoning) | `jamba` |
/// | `…internlm…`, `intern-s1…`, `interns1…` (InternLM2, 2.5, 3; Intern-S1, Intern-S1-mini) | `internlm` |
/// | `…mistral…`, `…mixtral…`, `…magistral…`, `…devstral…`, `…ministral…`, `…codestral…`, `…pixtral…` (Mistral AI) | `mistral` |
/// | `olmo-3…`, `olmo3…` (Olmo 3: `<function_calls>` lines) | `pythonic` |
/// | `lfm2…`, `liquidai/…` (Liquid LFM2, LFM2.5) | `lfm2` |
/// | `…xlam…` (Salesforce xLAM-1, xLAM-2 fc-r, whatever the base model) | `xlam` |
/// | `…llama-3.1…`, `…llama-3.2…`, `…llama-3.3…`, `llama3.1…` (Meta's JSON tool calls; not Llama 3.0, which has none, nor Llama 4, whose models are served with both a JSON and a pythonic parser) | `llama3-json` |
/// | `phi-4-mini…`, `phi4-mini…`, `phi-4-multimodal…` (Phi-4-mini instruct, reasoning, flash; Phi-4-multimodal) | `phi4-mini` |
/// | `hunyuan-a13b…` (Tencent Hunyuan-A13B; other Hunyuan generations write other wires) | `hunyuan-a13b` |
/// | `hy3…`, `hy-3…`, `hy4…`, `hy-4…`, `hunyuan-v3…` (Tencent Hy3, HY4; not Hunyuan-A13B) | `hunyuan` |
/// | `…iquest-q1…`, `…iquest_q1…`, `…iquestq1…` (IQuest Q1) | `iquest-q1` |
/// | `k2-horizon…`, `k2_horizon…`, `k2horizon…` (K2 Horizon, IFM) | `k2-horizon` |
/// | `c4ai-command-r7b…`, `command-r7b…`, `c4ai-command-a…`, `command-a…` (Cohere Command R7B, Command A; Command R / R+ write another wire) | `cohere` |
/// | `apertus-…` (Swiss AI Apertus 8B / 70B) | `apertus` |
/// | `gigachat3-…`, `gigachat-3-…` (Sber GigaChat 3 10B / 702B; not GigaChat 3.5, whose wire is DSML-shaped) | `gigachat3` |
/// | `plamo-3…`, `plamo3…` (PFN PLaMo 3) | `plamo3` |
/// | `dots.llm…`, `dots.vlm…`, `dots-llm…`, `dots-vlm…`, `dots_llm…`, `dots_vlm…`, `dots1…` (rednote dots.llm1, dots.vlm1; not dots.ocr, which has no tools) | `dots` |
/// | `ernie-4.5…`, `ernie4.5…`, `ernie-4_5…` (Baidu ERNIE 4.5, its Thinking and VL releases) | `ernie45` |
/// | `minicpm5…`, `minicpm-5…`, `minicpm_5…` (OpenBMB MiniCPM 5; not MiniCPM-V, whose calls are Qwen3-Coder's) | `minicpm5` |
/// | `muse-spark…`, `muse_spark…`, `musespark…`, `muse-glimmer…`, `muse_glimmer…`, `museglimmer…` (Muse Spark, Muse Glimmer) | `muse` |
///
/// Differences from the seed: Qwen3-Coder, Qwen3.5 and Step-3.5 get their own
/// `qwen3-coder` dialect (docs/dialects.md), MiMo gets `qwen3` (MiMo-7B) or, from MiMo-V2 on,
/// `mimo` rather than the fallback, Gemma 3
/// gets `gemini` rather than `gemma` (Gemma 4's tokens are not Gemma 3's), and Gemini ids
/// need no version number, and Seed-OSS, LongCat-Flash and Jamba get their own `seed-oss`,
/// `longcat` and `jamba` dialects rather than the fallback.
///
/// # Panics
/// Never.
pub fn for_model(model_id: &str) -> Dialect {
    known_model(model_id).unwrap_or(FALLBACK)
}

/// The dialect a rule of [`for_model`] gives for `model_id`, or `None` when no rule knows
/// the id: for callers with a fallback of their own (the seed's agent prompts unknown
/// models in `glm`, docs/seed.md §4.7, §5.11).
///
/// # Panics
/// Never.
pub fn known_model(model_id: &str) -> Option<Dialect> {
    let id = model_id.trim().to_ascii_lowercase();
    let bare = id.rsplit('/').next().unwrap_or("");
    let dialect = if is_anthropic(&id) {
        Dialect::Anthropic
    } else if is_openai(&id) {
        Dialect::Harmony
    } else if version_after(bare, "kimi-k").is_some_and(|(major, _)| major >= 3) {
        // Kimi K3's XTML channels (docs/dialects.md §kimi-k3), not K2's tokens.
        Dialect::KimiK3
    } else if id.contains("moonshotai/kimi") || at_word_start(&id, "kimi", b"-.") {
        Dialect::Kimi
    } else if id.contains("hermes") {
        Dialect::Hermes
    } else if let Some(qwen) = qwen_dialect(bare) {
        qwen
    } else if id.contains("minimax") && minimax_generation(bare, b'2') {
        Dialect::Minimax
    } else if id.contains("minimax") && minimax_generation(bare, b'3') {
        Dialect::MinimaxM3
    } else if [
        "deepseek-v4.1",
        "deepseek-v41",
        "deepseek_v41",
        "deepseek_v4.1",
    ]
    .iter()
    .any(|name| bare.contains(name))
    {
        // V4.1 renamed and spaced V4's DSML tags, which a V4 reader takes for prose.
        Dialect::DeepseekV41
    } else if id.contains("deepseek") {
        Dialect::Deepseek
    } else if id.contains("mimo") {
        mimo_dialect(bare)
    } else if is_step_3_5(bare) {
        Dialect::Qwen3Coder
    } else if bare.starts_with("functiongemma") {
        // Before Gemma's rule: FunctionGemma is a Gemma 3 whose calls are Gemma 4's body.
        Dialect::FunctionGemma
    } else if let Some(dialect) = named_family(bare) {
        dialect
    } else if let Some(major) = gemma_major(&id) {
        if major >= 4 {
            Dialect::Gemma
        } else {
            Dialect::Gemini
        }
    } else if id.contains("gemini") {
        Dialect::Gemini
    } else if is_glm(bare) {
        Dialect::Glm
    } else if bare.starts_with("seed-oss") {
        Dialect::SeedOss
    } else if bare.starts_with("longcat-flash") || id.contains("meituan-longcat/") {
        Dialect::Longcat
    } else if id.contains("jamba") {
        Dialect::Jamba
    } else if id.contains("internlm")
        || bare.starts_with("intern-s1")
        || bare.starts_with("interns1")
    {
        // Intern-S1 writes InternLM's action tokens (docs/dialects.md §internlm).
        Dialect::Internlm
    } else if is_mistral(&id) {
        Dialect::Mistral
    } else if bare.starts_with("olmo-3") || bare.starts_with("olmo3") {
        Dialect::Pythonic
    } else if bare.starts_with("lfm2") || id.starts_with("liquidai/") {
        Dialect::Lfm2
    } else if id.contains("xlam") {
        Dialect::Xlam
    } else if is_llama3_json(bare) {
        Dialect::Llama3Json
    } else if ["phi-4-mini", "phi4-mini", "phi-4-multimodal"]
        .iter()
        .any(|family| bare.starts_with(family))
    {
        // Not Phi-4 (14B): its template declares no tool format.
        Dialect::Phi4Mini
    } else if bare.starts_with("hunyuan-a13b") {
        Dialect::HunyuanA13b
    } else if is_hunyuan_v3(bare) {
        Dialect::Hunyuan
    } else if ["iquest-q1", "iquest_q1", "iquestq1"]
        .iter()
        .any(|name| bare.contains(name))
    {
        Dialect::IquestQ1
    } else if ["k2-horizon", "k2_horizon", "k2horizon"]
        .iter()
        .any(|name| bare.starts_with(name))
    {
        Dialect::K2Horizon
    } else if [
        "c4ai-command-r7b",
        "command-r7b",
        "c4ai-command-a-",
        "command-a-",
    ]
    .iter()
    .any(|family| bare.starts_with(family))
    {
        // Not Command R / R+ (`c4ai-command-r-v01`, `command-r-plus…`): their plain-text
        // `Action:` form is not read (docs/dialects.md §cohere).
        Dialect::Cohere
    } else if bare.starts_with("apertus-") {
        Dialect::Apertus
    } else if ["ernie-4.5", "ernie4.5", "ernie-4_5"]
        .iter()
        .any(|family| bare.starts_with(family))
    {
        Dialect::Ernie45
    } else if ["granite-20b-functioncalling", "granite-20b-fc"]
        .iter()
        .any(|family| bare.starts_with(family))
    {
        // Before the version rule, which would read its `20b` as Granite 20.
        Dialect::Granite20bFc
    } else if ["minicpm5", "minicpm-5", "minicpm_5"]
        .iter()
        .any(|family| bare.starts_with(family))
    {
        Dialect::Minicpm5
    } else if [
        "muse-spark",
        "muse_spark",
        "musespark",
        "muse-glimmer",
        "muse_glimmer",
        "museglimmer",
    ]
    .iter()
    .any(|family| bare.starts_with(family))
    {
        Dialect::Muse
    } else if bare.starts_with("gigachat3-") || bare.starts_with("gigachat-3-") {
        Dialect::Gigachat3
    } else if bare.starts_with("plamo-3") || bare.starts_with("plamo3") {
        Dialect::Plamo3
    } else if version_after(bare, "granite-").is_some_and(|(major, _)| major >= 4)
        || version_after(bare, "granite").is_some_and(|(major, _)| major >= 4)
    {
        Dialect::Hermes
    } else if version_after(bare, "granite-").is_some_and(|(major, _)| major == 3) {
        Dialect::Granite
    } else {
        return None;
    };
    Some(dialect)
}

/// The dialect that reads what a server's parser reads: a vLLM (0.33) or SGLang
/// `--tool-call-parser` or `--reasoning-parser` value, or an smg (Rust gateway) parser name
/// (docs/dialects.md §families, docs/parsers.md). ASCII case, surrounding whitespace and
/// `-` for `_` do not matter. `None` for parsers of formats no dialect reads (
/// MiniMax-M1, …;
/// docs/parsers.md lists each with its wire) and for names not in [`PARSERS`].
///
/// # Panics
/// Never.
pub fn for_parser(parser: &str) -> Option<Dialect> {
    // Case, surrounding blanks and `-` for `_` do not matter (`Hy-V3`, `deepseek-v31`): no
    // two names in the table differ only so and mean different dialects (a test checks).
    let fold = |b: u8| {
        if b == b'-' {
            b'_'
        } else {
            b.to_ascii_lowercase()
        }
    };
    let parser = parser.trim().as_bytes();
    PARSERS
        .iter()
        .find(|(name, _)| {
            name.len() == parser.len() && name.bytes().zip(parser).all(|(a, &b)| fold(a) == fold(b))
        })
        .map(|&(_, dialect)| dialect)
}

/// Every server parser name [`for_parser`] knows, with its dialect: each one's wire (the
/// delimiters and body shape its parser reads, established from the parser's source) is that
/// dialect's. Tool-call and reasoning parser names share the table: a reasoning parser's name
/// gives the dialect of the family it was written for, when that family's calls are the
/// dialect's wire and its reasoning tags the dialect's.
pub const PARSERS: &[(&str, Dialect)] = &[
    // Hermes JSON in `<tool_call>`.
    ("hermes", Dialect::Hermes),
    ("granite4", Dialect::Hermes),
    // The same wire in ChatML (Qwen2.5 / Qwen3 / QwQ); vLLM's `qwen3_json` is its Hermes
    // parser; SGLang's `trinity` is Qwen2.5's detector that also reads calls inside
    // `<think>` (which this dialect leaves reasoning).
    ("qwen", Dialect::Qwen3),
    ("qwen25", Dialect::Qwen3),
    ("qwen3_json", Dialect::Qwen3),
    ("qwen3", Dialect::Qwen3),
    ("qwen3-thinking", Dialect::Qwen3),
    ("trinity", Dialect::Qwen3),
    // `<tool_call><function=N><parameter=k>` XML with framing newlines: Qwen3-Coder's parser
    // is SGLang's `nanbeige` and vLLM's `step5`; vLLM's Nemotron V3 and Granite 4.2 thinking
    // parsers are its Qwen3 parser under another name.
    ("qwen3_coder", Dialect::Qwen3Coder),
    ("qwen3_xml", Dialect::Qwen3Coder),
    ("qwen_coder", Dialect::Qwen3Coder),
    ("step3p5", Dialect::Qwen3Coder),
    ("step5", Dialect::Qwen3Coder),
    ("nanbeige", Dialect::Qwen3Coder),
    ("nemotron_v3", Dialect::Qwen3Coder),
    ("nemotron_3", Dialect::Qwen3Coder),
    ("granite_thinking_parser", Dialect::Qwen3Coder),
    // `<tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>`: poolside
    // Laguna (`poolside_v1`), Ling 3 (GLM-4.5's detector), Spark 2.5.
    ("glm", Dialect::Glm),
    ("glm45", Dialect::Glm),
    ("glm47", Dialect::Glm),
    ("glm4_moe", Dialect::Glm),
    ("glm45_moe", Dialect::Glm),
    ("glm47_moe", Dialect::Glm),
    ("poolside_v1", Dialect::Glm),
    ("ling3", Dialect::Glm),
    ("spark25", Dialect::Glm),
    ("kimi_k2", Dialect::Kimi),
    ("kimik2", Dialect::Kimi),
    ("deepseek_v3", Dialect::Deepseek),
    ("deepseekv3", Dialect::Deepseek),
    ("deepseek-v3", Dialect::Deepseek),
    ("deepseek", Dialect::Deepseek),
    ("deepseek_r1", Dialect::Deepseek),
    ("deepseek-r1", Dialect::Deepseek),
    ("deepseek_v31", Dialect::Deepseek),
    ("deepseekv31", Dialect::Deepseek),
    ("deepseek31", Dialect::Deepseek),
    ("deepseek_v32", Dialect::Deepseek),
    ("deepseekv32", Dialect::Deepseek),
    ("deepseek_v4", Dialect::Deepseek),
    ("deepseekv4", Dialect::Deepseek),
    ("deepseek-v4", Dialect::Deepseek),
    // V4's DSML with a space after each `｜DSML｜` and the block named ` calls` (vLLM
    // `deepseek_v41`, SGLang `deepseekv41` and its reasoning parser `deepseek-v41`).
    ("deepseek_v41", Dialect::DeepseekV41),
    ("deepseekv41", Dialect::DeepseekV41),
    ("deepseek-v41", Dialect::DeepseekV41),
    ("minimax_m2", Dialect::Minimax),
    ("minimax-m2", Dialect::Minimax),
    ("minimax_m2_append_think", Dialect::Minimax),
    ("minimax-append-think", Dialect::Minimax),
    ("openai", Dialect::Harmony),
    ("gpt-oss", Dialect::Harmony),
    ("gpt_oss", Dialect::Harmony),
    ("openai_gptoss", Dialect::Harmony),
    ("gemma4", Dialect::Gemma),
    ("seed_oss", Dialect::SeedOss),
    ("longcat", Dialect::Longcat),
    ("jamba", Dialect::Jamba),
    ("granite", Dialect::Granite),
    ("internlm", Dialect::Internlm),
    ("internlm2", Dialect::Internlm),
    // Intern-S1: the same action tokens, spaced as a detokenizer writes them, and `<think>`
    // reasoning (SGLang's `interns1` tool and reasoning parsers).
    ("interns1", Dialect::Internlm),
    // `[TOOL_CALLS]` + a JSON array, or `[TOOL_CALLS]NAME[ARGS]{…}` per call (vLLM and
    // SGLang `mistral`, both tokenizer generations).
    ("mistral", Dialect::Mistral),
    ("pythonic", Dialect::Pythonic),
    ("llama4_pythonic", Dialect::Pythonic),
    ("olmo3", Dialect::Pythonic),
    ("lfm2", Dialect::Lfm2),
    // A bare `{"name": …, "parameters": …}` at the output's start, or after `<|python_tag|>`,
    // objects separated by `;` (vLLM `llama3_json` and `llama4_json`, SGLang `llama3`).
    ("llama3_json", Dialect::Llama3Json),
    ("llama4_json", Dialect::Llama3Json),
    ("llama3", Dialect::Llama3Json),
    // A JSON array of call objects, bare at the output's start, after `[TOOL_CALLS]` or in
    // `<tool_call>`, after an optional `</think>` (vLLM `xlam`).
    ("xlam", Dialect::Xlam),
    // `functools[{…}, …]` (vLLM's parser for Phi-4-mini).
    ("phi4_mini_json", Dialect::Phi4Mini),
    // `<tool_calls>[{…}, …]</tool_calls>` and `<think>` / `<answer>` (vLLM's tool and
    // reasoning parsers for Hunyuan-A13B).
    ("hunyuan_a13b", Dialect::HunyuanA13b),
    ("hunyuan", Dialect::Hunyuan),
    ("hy_v3", Dialect::Hunyuan),
    ("hy_v4", Dialect::Hunyuan),
    ("iquest_q1", Dialect::IquestQ1),
    ("k2_horizon", Dialect::K2Horizon),
    // `<|START_ACTION|>[{…}, …]<|END_ACTION|>`, `<|START_THINKING|>` reasoning and the
    // response or text wrapper (vLLM's Command 3 and Command 4 parsers, SGLang's Command 4
    // detector and reasoning parser).
    ("cohere_command3", Dialect::Cohere),
    ("cohere_command4", Dialect::Cohere),
    // `<|tools_prefix|>[{"NAME": {…}}, …]<|tools_suffix|>` and `<|inner_prefix|>`
    // reasoning (vLLM's `apertus`, SGLang's `apertus2509` tool and reasoning parsers).
    ("apertus", Dialect::Apertus),
    ("apertus2509", Dialect::Apertus),
    // `<dots_function_call><invoke name="N"><parameter name="k">v</parameter></invoke>
    // </dots_function_call>` (vLLM and SGLang `dots`; SGLang's reasoning parser `dots`
    // reads `<think>`).
    ("dots", Dialect::Dots),
    // Hermes' `<tool_call>` JSON, the answer in `<response>`, reasoning a bare `</think>`
    // ends (vLLM's `ernie45` tool and reasoning parsers).
    ("ernie45", Dialect::Ernie45),
    // `<function_call> {…}` per call, no closer (vLLM's `granite-20b-fc`).
    ("granite-20b-fc", Dialect::Granite20bFc),
    // `<start_function_call>call:NAME{k:<escape>v<escape>}<end_function_call>` (vLLM's
    // FunctionGemma parser).
    ("functiongemma", Dialect::FunctionGemma),
    // `<function name="N"><param name="k">v</param></function>`, CDATA values (vLLM and
    // SGLang `minicpm5`).
    ("minicpm5", Dialect::Minicpm5),
    // `<|open|>tools<|sep|><|open|>call tool="N" index="1"<|sep|><|open|>argument key="k"
    // type="T"<|sep|>v<|close|>argument<|sep|>…` and the `think` channel (vLLM and SGLang
    // `kimi_k3` tool and reasoning parsers).
    ("kimi_k3", Dialect::KimiK3),
    // `<|start|>assistant to=TOOL<|message|><atem:function_calls><atem:invoke name="N">
    // <atem:parameter name="k">v</atem:parameter>…` messages, `to=self` reasoning (vLLM's
    // `muse`, `musespark1x` and `muse_glimmer` tool and reasoning parsers, SGLang's `muse`;
    // the Glimmer profile reads a message without recipient as content, the dialect as
    // reasoning, as vLLM's `muse`).
    ("muse", Dialect::Muse),
    ("musespark1x", Dialect::Muse),
    ("muse_glimmer", Dialect::Muse),
    // `<tool_call><function=N><parameter=k>v</parameter></function></tool_call>`, every
    // byte between the parameter tags the value (vLLM and SGLang `mimo`, tool and reasoning
    // parsers; the reasoning parsers read `<think>`).
    ("mimo", Dialect::Mimo),
    // `<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke …>`
    // (vLLM and SGLang `step3`, tool and reasoning parsers; the reasoning parsers end the
    // template-opened reasoning at `</think>`).
    ("step3", Dialect::Step3),
    // `<｜GCML｜tool_calls><｜GCML｜invoke name="N"><｜GCML｜parameter name="k"
    // string="true|false">v…` (SGLang `gigachat35`, tool and reasoning parsers; the
    // reasoning parser is DeepSeek-R1's, `</think>` ending the reasoning the template opens).
    ("gigachat35", Dialect::Gigachat35),
    // `function call<|role_sep|>\n{"name": …, "arguments": {…}}` or `<|function_call|>{…}`
    // (vLLM and SGLang `gigachat3`).
    ("gigachat3", Dialect::Gigachat3),
    // `<|plamo:begin_tool_requests:plamo|>` sections of tagged names and JSON arguments,
    // `<|plamo:begin_think:plamo|>` reasoning (vLLM `plamo3`, tool and reasoning parsers).
    ("plamo3", Dialect::Plamo3),
    // `]<]minimax[>[<tool_call>]<]minimax[>[<invoke name="N">]<]minimax[>[<k>v…` (vLLM
    // `minimax_m3`, SGLang `minimax-m3`, tool and reasoning parsers; the reasoning parsers
    // read `<mm:think>`).
    ("minimax_m3", Dialect::MinimaxM3),
    ("minimax-m3", Dialect::MinimaxM3),
];

/// rednote hi lab's dots.llm1 and dots.vlm1 (`dots.llm1.inst`, `dots.vlm1.inst`): the
/// releases whose template writes `<dots_function_call>`; not dots.ocr, which has no tools.
fn is_dots(bare: &str) -> bool {
    [
        "dots.llm", "dots.vlm", "dots-llm", "dots-vlm", "dots_llm", "dots_vlm", "dots1",
    ]
    .iter()
    .any(|family| bare.starts_with(family))
}

/// Meta's Llama 3.1, 3.2 and 3.3 (`llama-3.1-8b-instruct`, `meta-llama-3.1-70b-instruct`,
/// Ollama's `llama3.2:3b`): the releases with JSON tool calling.
fn is_llama3_json(bare: &str) -> bool {
    let version = version_after(bare, "llama-").or_else(|| version_after(bare, "llama"));
    matches!(version, Some((3, Some(1..=3))))
}

/// Mistral AI's models: every family name of theirs that serves tool calls.
fn is_mistral(id: &str) -> bool {
    [
        "mistral",
        "mixtral",
        "magistral",
        "devstral",
        "ministral",
        "codestral",
        "pixtral",
    ]
    .iter()
    .any(|family| id.contains(family))
}

/// Whether `bare` (a model id's last part, lower case) names Tencent Hy3 or HY4, whose
/// `:opensource` key/value calls the `hunyuan` dialect reads; Hunyuan-A13B writes a JSON list
/// (docs/parsers.md) and is not one.
fn is_hunyuan_v3(bare: &str) -> bool {
    [
        "hy3",
        "hy-3",
        "hy4",
        "hy-4",
        "hunyuan-v3",
        "hunyuan-3",
        "hunyuan-v4",
        "hunyuan-4",
    ]
    .iter()
    .any(|prefix| bare.starts_with(prefix))
}

/// Whether `word` occurs in `id` at the start or after a `/`, followed by one of `next`.
fn at_word_start(id: &str, word: &str, next: &[u8]) -> bool {
    id.match_indices(word).any(|(at, _)| {
        let starts = at == 0 || id.as_bytes()[at - 1] == b'/';
        let follows = id.as_bytes().get(at + word.len());
        starts && follows.is_some_and(|b| next.contains(b))
    })
}

/// `claude-…` as a bare id or after a `/` or `.` (Bedrock's `us.anthropic.claude-…`), or
/// an `anthropic/` route.
fn is_anthropic(id: &str) -> bool {
    let claude = id.match_indices("claude").any(|(at, _)| {
        let starts = at == 0 || matches!(id.as_bytes()[at - 1], b'/' | b'.');
        let follows = id.as_bytes().get(at + "claude".len());
        starts && matches!(follows, Some(b'-' | b'.'))
    });
    claude || id.starts_with("anthropic/") || id.contains("/anthropic/")
}

/// OpenAI's models (all spoken to in Harmony): `gpt-…`, `chatgpt-…`, `codex-…`, the
/// `o1`/`o3`/`o4` reasoning models, `openai/…` routes, and gpt-oss.
fn is_openai(id: &str) -> bool {
    let reasoning = ["o1", "o3", "o4"].iter().any(|o| {
        id.match_indices(o).any(|(at, _)| {
            let starts = at == 0 || id.as_bytes()[at - 1] == b'/';
            let follows = id.as_bytes().get(at + o.len());
            starts && matches!(follows, None | Some(b'-' | b'.'))
        })
    });
    ["gpt", "chatgpt", "codex"]
        .iter()
        .any(|w| at_word_start(id, w, b"-."))
        || reasoning
        || id.contains("openai/")
}

/// `qwen3-coder` for Qwen3-Coder and Qwen3.5 and later 3.x, `qwen3` for other Qwen and QwQ
/// ids, `None` for ids that are not Qwen.
fn qwen_dialect(bare: &str) -> Option<Dialect> {
    if let Some((major, minor)) = version_after(bare, "qwen") {
        let coder = major == 3 && (minor.is_some_and(|m| m >= 5) || bare.contains("coder"));
        return Some(if coder {
            Dialect::Qwen3Coder
        } else {
            Dialect::Qwen3
        });
    }
    (bare.contains("qwen") || bare.contains("qwq")).then_some(Dialect::Qwen3)
}

/// A MiniMax generation: a part of the id (between `-`, `_`, `.` or `/`) that is `m` and
/// the digit `generation`, optionally followed by digits (`m21`) or a `.minor` (`m2.5`).
/// M2 writes `<minimax:tool_call>` (`minimax`); M3 prefixes every tag with `]<]minimax[>[`
/// (`minimax-m3`).
fn minimax_generation(bare: &str, generation: u8) -> bool {
    bare.match_indices(['m', 'M']).any(|(at, _)| {
        let bytes = bare.as_bytes();
        let starts = at == 0 || matches!(bytes[at - 1], b'-' | b'_' | b'/' | b'.');
        let generation = bytes.get(at + 1) == Some(&generation);
        let rest = bytes.get(at + 2..).unwrap_or(&[]);
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let ends = match rest.get(digits) {
            None | Some(b'-' | b'_' | b'/') => true,
            Some(b'.') => rest.get(digits + 1).is_some_and(u8::is_ascii_digit),
            _ => false,
        };
        starts && generation && ends
    })
}

/// MiMo-V2 and later write `<tool_call><function=N><parameter=k>v</parameter>…` with every
/// byte between the parameter tags the value (vLLM's and SGLang's `mimo` parsers): `mimo`.
/// MiMo-7B keeps `qwen3`.
fn mimo_dialect(bare: &str) -> Dialect {
    if version_after(bare, "mimo-v").is_some_and(|(major, _)| major >= 2) {
        Dialect::Mimo
    } else {
        Dialect::Qwen3
    }
}

/// The families told apart by their own names, which no rule before them matches: StepFun
/// Step-3, Sber GigaChat 3.5 (GCML tags; GigaChat 3 writes JSON after
/// `function call<|role_sep|>`), rednote dots.
fn named_family(bare: &str) -> Option<Dialect> {
    let gigachat35 = ["gigachat3.5", "gigachat-3.5", "gigachat35", "gigachat3-5"];
    if is_step3(bare) {
        Some(Dialect::Step3)
    } else if gigachat35.iter().any(|name| bare.contains(name)) {
        Some(Dialect::Gigachat35)
    } else if is_dots(bare) {
        Some(Dialect::Dots)
    } else {
        None
    }
}

/// StepFun Step-3 (`stepfun-ai/step3`, `step3-fp8`, `step-3`): the steptml markup between
/// special tokens. Not Step3-VL (`step3-vl-10b`), whose template writes JSON in
/// `<tool_call>` tags.
fn is_step3(bare: &str) -> bool {
    ["step-", "step"].iter().any(|prefix| {
        bare.starts_with(prefix)
            && version_after(bare, prefix)
                .is_some_and(|(major, minor)| major == 3 && minor.is_none())
    }) && !bare.contains("-vl")
}

/// Step-3.5 and Step-3.7 (`step-3.5-flash`, `step3p5`): Qwen3-Coder's format.
fn is_step_3_5(bare: &str) -> bool {
    ["step-", "step"].iter().any(|prefix| {
        version_after(bare, prefix)
            .is_some_and(|(major, minor)| major == 3 && minor.is_some_and(|m| m >= 5))
    })
}

/// The major version of a Gemma id: `gemma` at the start or after a `/`, an optional `-`
/// or `.`, then a digit (docs/seed.md §4.7 rule 10).
fn gemma_major(id: &str) -> Option<u32> {
    id.match_indices("gemma").find_map(|(at, _)| {
        let starts = at == 0 || id.as_bytes()[at - 1] == b'/';
        let rest = &id[at + "gemma".len()..];
        let rest = rest.strip_prefix(['-', '.']).unwrap_or(rest);
        let digit = rest.bytes().next().filter(u8::is_ascii_digit)?;
        starts.then_some(u32::from(digit - b'0'))
    })
}

/// `glm-M` or `glm-M.m` with a version in the seed's table: major 0–9 (one or two
/// digits written, so `glm-10` is not GLM), minor 0–10.
fn is_glm(bare: &str) -> bool {
    bare.match_indices("glm-").any(|(at, _)| {
        let rest = &bare[at + "glm-".len()..];
        let major_len = rest.bytes().take_while(u8::is_ascii_digit).count();
        if !(1..=2).contains(&major_len) {
            return false;
        }
        let Ok(major) = rest[..major_len].parse::<u32>() else {
            return false;
        };
        let minor = rest[major_len..].strip_prefix('.').map(|m| {
            let len = m.bytes().take_while(u8::is_ascii_digit).count();
            m[..len].parse::<u32>().unwrap_or(u32::MAX)
        });
        major <= 9 && minor.is_none_or(|m| m <= 10)
    })
}

/// The version right after the first `prefix` in `id`: `MAJOR` then optionally `.MINOR`,
/// `-MINOR` (one digit, so `qwen3-32b` is 3 without a minor) or `pMINOR` (`step3p5`).
fn version_after(id: &str, prefix: &str) -> Option<(u32, Option<u32>)> {
    let at = id.find(prefix)?;
    let rest = &id[at + prefix.len()..];
    let major_len = rest.bytes().take_while(u8::is_ascii_digit).count();
    let major = rest[..major_len].parse::<u32>().ok()?;
    let after = &rest[major_len..];
    let minor = after
        .strip_prefix('.')
        .or_else(|| after.strip_prefix('p'))
        .or_else(|| {
            after
                .strip_prefix('-')
                .filter(|m| m.bytes().take_while(u8::is_ascii_digit).count() == 1)
                .filter(|m| !m[1..].starts_with(|c: char| c.is_ascii_alphabetic()))
        })
        .and_then(|m| {
            let len = m.bytes().take_while(u8::is_ascii_digit).count();
            m[..len].parse::<u32>().ok()
        });
    Some((major, minor))
}
