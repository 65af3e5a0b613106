//! The dialects: which model family's wire a scanner reads, and the table data each one
//! publishes (its delimiters, special tokens, aliases and raw-value closers).

use core::fmt;

use crate::tables;

/// A model family's wire format for tool calls and reasoning. See `docs/dialects.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// `<tool_call>{"name": …, "arguments": {…}}</tool_call>`, `<think>` reasoning:
    /// Hermes 2 Pro / 3 / 4 (NousResearch), Granite 4.
    Hermes,
    /// The Hermes wire format as Qwen2.5, Qwen3 and QwQ write it.
    Qwen3,
    /// `<tool_calls>[{"name": …, "arguments": {…}}, …]</tool_calls>`: a JSON array of calls
    /// in one block, `<think>` reasoning: AI21 Jamba.
    Jamba,
    /// `<|tool_call|>[{"name": …, "arguments": {…}}, …]` (or the string `<tool_call>` before
    /// the array): a JSON array of calls that its `]` ends, no closer; `<think>` reasoning:
    /// IBM Granite 3.0 – 3.3.
    Granite,
    /// `<|action_start|><|plugin|>{"name": …, "parameters": {…}}<|action_end|>` in ChatML
    /// turns: InternLM2, InternLM2.5, InternLM3.
    Internlm,
    /// OpenAI Harmony messages (gpt-oss): `<|start|>assistant<|channel|>commentary
    /// to=functions.NAME <|constrain|>json<|message|>{…}<|call|>`, reasoning on the
    /// `analysis` channel.
    Harmony,
    /// `<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX`
    /// `<|tool_call_argument_begin|>{…}<|tool_call_end|><|tool_calls_section_end|>`, `<think>`
    /// reasoning: Kimi K2 / K2.5 (Moonshot). The model's `functions.NAME:IDX` is the call id.
    Kimi,
    /// `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>…`
    /// (V3.1), the V3 / R1 form with `function<｜tool▁sep｜>NAME` and a fenced JSON body, and
    /// the DSML envelope of V3.2 / V4 (`<｜DSML｜function_calls>`, V4
    /// `<｜DSML｜tool_calls>`, fullwidth or ASCII pipes, around
    /// `<｜DSML｜invoke name="N"><｜DSML｜parameter name="k" string="true|false">v…`), in any
    /// mix within one response, one call numbering for all; `<think>` reasoning: DeepSeek
    /// V3, R1, V3.1, V3.2, V4.
    Deepseek,
    /// Generic invoke/parameter markup: `<invoke name="N"><parameter name="k">v</parameter>
    /// </invoke>`, bare or in a `<tool_calls>` / `<function_calls>` wrapper, and DeepSeek's
    /// DSML tagset (`<｜DSML｜function_calls>`, `<｜DSML｜invoke name="N">`,
    /// `<｜DSML｜parameter name="k" string="true|false">`); `<think>` reasoning.
    Xml,
    /// `<|tool_call>call:NAME{key:<|"|>text<|"|>,n:2}<tool_call|>`, `<|channel>thought`
    /// reasoning: Gemma 4.
    Gemma,
    /// Python calls in a Markdown fence, ```` ```tool_code ```` +
    /// `default_api.NAME(key="text", n=2)` + ```` ``` ````, ```` ```thinking ```` reasoning:
    /// Gemini, and Gemma 3 when prompted so.
    Gemini,
    /// Claude's legacy XML: `<function_calls><invoke name="N"><parameter name="k">v
    /// </parameter></invoke></function_calls>` (`string="false"` marks a JSON value),
    /// `<thinking>` reasoning.
    Anthropic,
    /// `<minimax:tool_call><invoke name="N"><parameter name="k">v</parameter></invoke>
    /// </minimax:tool_call>` (also without the `minimax:` prefix), `<think>` reasoning:
    /// MiniMax-M2.
    Minimax,
    /// `<tool_call>\n<function=N>\n<parameter=k>\nv\n</parameter>\n</function>\n
    /// </tool_call>` (one framing newline around each value is the template's), `<think>`
    /// reasoning: Qwen3-Coder, Qwen3.5 / Qwen3.6, Step-3.5.
    Qwen3Coder,
    /// `<tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>` with raw-text
    /// values, one tag a line (GLM-4.5/4.6) or none (GLM-4.7/5), `<think>` reasoning: GLM
    /// (Zhipu / Z.ai).
    Glm,
    /// `<seed:tool_call>\n<function=N>\n<parameter=k>v</parameter>\n</function>\n
    /// </seed:tool_call>`, one block per call, qwen3-coder's equals-form tags without framing
    /// newlines (a value is every byte between its tags), `<seed:think>` reasoning, `<seed:eos>`
    /// ending the turn: ByteDance Seed-OSS.
    SeedOss,
    /// `<longcat_tool_call>{"name": …, "arguments": {…}}</longcat_tool_call>`, the Hermes wire
    /// with the tag pair renamed, `<longcat_think>` reasoning (also `<think>`), `</longcat_s>`
    /// ending the turn: Meituan LongCat-Flash (Chat, Thinking).
    Longcat,
    /// `[TOOL_CALLS]` + a JSON array `[{"name": …, "arguments": {…}}, …]` that its `]` ends
    /// (pre-v11 tokenizers: Mistral 7B v0.3, Nemo, Small 3.0 / 3.1), or one
    /// `[TOOL_CALLS]NAME[ARGS]{…}` per call, `[CALL_ID]ID` before `[ARGS]` in Mistral Small
    /// 3.2 (v11+ tokenizers: Devstral, Magistral 2509, Ministral 3, Mistral Large 3); no
    /// closer, `[THINK]` reasoning, `</s>` ending the turn: Mistral AI.
    Mistral,
    /// A Python list of calls that begins the output, `[NAME(key="text", n=2), …]`, also in
    /// `<|python_start|>` … `<|python_end|>`, or one call a line in `<function_calls>` …
    /// `</function_calls>`; `<think>` reasoning: Llama 3.2 pythonic, Llama 4, Olmo 3.
    Pythonic,
    /// `<|tool_call_start|>[NAME(key="text"), …]<|tool_call_end|>`, a Python list of calls
    /// between special tokens, in ChatML turns; `<think>` reasoning: Liquid LFM2 / LFM2.5.
    Lfm2,
    /// A JSON call object `{"name": …, "parameters": {…}}` (also `"arguments"`) that begins
    /// the output, optionally after `<|python_tag|>`, several separated by `;`; the object
    /// ends the call, `<|eom_id|>` / `<|eot_id|>` the turn, an `ipython` turn holds results:
    /// Meta Llama 3.1 / 3.2 / 3.3 and Llama 4 JSON tool calling.
    Llama3Json,
    /// A JSON array of call objects `[{"name": …, "arguments": {…}}, …]` that begins the
    /// output (or the content after `</think>`), also after `[TOOL_CALLS]` or in
    /// `<tool_call>` … `</tool_call>`; `<think>` reasoning: Salesforce xLAM.
    Xlam,
    /// `functools[{"name": …, "arguments": {…}}, …]`: the plain-text marker and a JSON
    /// array of calls that its `]` ends, no closer; `<think>` reasoning (the reasoning
    /// releases): Microsoft Phi-4-mini.
    Phi4Mini,
    /// `<tool_calls>[{"name": …, "arguments": {…}}, …]</tool_calls>` (Jamba's block),
    /// `<think>` reasoning, the answer in `<answer>…</answer>` (markup, removed from the
    /// content): Tencent Hunyuan-A13B.
    HunyuanA13b,
    /// `<tool_calls:opensource><tool_call:opensource>NAME<tool_sep:opensource>
    /// <arg_key:opensource>k</arg_key:opensource><arg_value:opensource>v
    /// </arg_value:opensource></tool_call:opensource></tool_calls:opensource>`, glm's
    /// key/value shape with Hunyuan's suffixed tags in a section (HY4 writes no
    /// `<tool_sep…>`), raw-text values, `<think:opensource>` reasoning: Tencent Hunyuan Hy3,
    /// HY4.
    Hunyuan,
    /// `<iquest_tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value>
    /// </iquest_tool_call>`, glm's key/value calls in a block of IQuest's, with or without
    /// newlines between the parts, raw-text values, `<think>` reasoning, `<|iquest_end|>`
    /// ending the turn: IQuest Q1.
    IquestQ1,
    /// `<ifm|tool_calls><ifm|tool_call>NAME<ifm|arg_key>k</ifm|arg_key><ifm|arg_value>v
    /// </ifm|arg_value></ifm|tool_call></ifm|tool_calls>`, glm's key/value shape with IFM's
    /// tags in a section, raw-text values, `<ifm|think>` / `<ifm|think_fast>` /
    /// `<ifm|think_faster>` reasoning, `<|ifm|im_end|>` ending the turn: K2 Horizon.
    K2Horizon,
    /// `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": …, "parameters": {…}}, …]<|END_ACTION|>`
    /// between special tokens, `<|START_THINKING|>` reasoning, the answer in
    /// `<|START_RESPONSE|>…<|END_RESPONSE|>` or `<|START_TEXT|>…<|END_TEXT|>` (markup,
    /// removed from the content): Cohere Command R7B, Command A.
    Cohere,
    /// `<|tools_prefix|>[{"NAME": {…}}, …]<|tools_suffix|>` between special tokens, each
    /// call an object whose one key is the tool's name; `<|inner_prefix|>` reasoning: Swiss
    /// AI Apertus.
    Apertus,
    /// `<｜DSML｜ calls><｜DSML｜ invoke name="N"><｜DSML｜ parameter name="k"
    /// string="true|false">v</｜DSML｜ parameter></｜DSML｜ invoke></｜DSML｜ calls>`, DeepSeek
    /// V4's DSML with one space after each `｜DSML｜` and the block named ` calls` (fullwidth
    /// or ASCII pipes), `<think>` reasoning: DeepSeek V4.1.
    DeepseekV41,
    /// `<dots_function_call><invoke name="N"><parameter name="k">v</parameter></invoke>
    /// </dots_function_call>`, the xml dialect's invoke/parameter markup in rednote's wrapper
    /// (several invokes per wrapper), raw-text values, `<think>` reasoning,
    /// `<|endofresponse|>` ending the turn: rednote dots.llm1 / dots.vlm1.
    Dots,
    /// `<tool_call>{"name": …, "arguments": {…}}</tool_call>` (the Hermes wire), `<think>`
    /// reasoning that the prompt opens (a bare `</think>` ends it), the answer in
    /// `<response>…</response>` (markup, removed from the content): Baidu ERNIE 4.5.
    Ernie45,
    /// `<function_call> {"name": …, "arguments": {…}}` per call, several in a row, no closer
    /// (the object ends its call), `<|endoftext|>` ending the turn: IBM
    /// granite-20b-functioncalling.
    Granite20bFc,
    /// `<start_function_call>call:NAME{key:<escape>text<escape>,n:2}<end_function_call>`,
    /// Gemma 4's literal body with `<escape>` as the string quote, no reasoning,
    /// `<end_of_turn>` ending the turn: Google FunctionGemma.
    FunctionGemma,
    /// `<function name="N"><param name="k">v</param></function>`, raw-text values (a
    /// `<![CDATA[…]]>` section's bytes verbatim), `<think>` reasoning, `<|im_end|>` ending
    /// the turn: OpenBMB MiniCPM 5.
    Minicpm5,
    /// `<|open|>tools<|sep|><|open|>call tool="N" index="1"<|sep|><|open|>argument key="k"
    /// type="string"<|sep|>v<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>`,
    /// XTML channels of `<|open|>`/`<|close|>`/`<|sep|>` tokens around words: each argument
    /// typed by its JSON type (`string` raw text, any other word JSON), the `think`
    /// channel's reasoning, the `response` channel's markers removed from the content:
    /// Moonshot Kimi K3.
    KimiK3,
    /// Harmony-like messages `<|start|>assistant to=RECIPIENT<|message|>…<|eom|>` whose
    /// recipient says what they are (`self` reasoning, `user` / `commentary` content, a
    /// tool otherwise); a tool message's body holds ATEM calls,
    /// `<atem:function_calls><atem:invoke name="N"><atem:parameter name="k">v
    /// </atem:parameter></atem:invoke></atem:function_calls>`, raw-text values;
    /// `<|eot|>` ends the turn: Muse Spark, Muse Glimmer.
    Muse,
    /// `<tool_call>\n<function=N>\n<parameter=k>v</parameter>\n</function>\n</tool_call>`,
    /// Qwen3-Coder's equals-form tags with every byte between the parameter tags the value
    /// (no framing newline), `<think>` reasoning, `<|im_end|>` ending the turn: Xiaomi MiMo-V2.
    Mimo,
    /// `<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke
    /// name="N"><steptml:parameter name="k">v</steptml:parameter></steptml:invoke>
    /// <｜tool_call_end｜><｜tool_calls_end｜>`, StepFun's steptml markup between special
    /// tokens, raw-text values, reasoning ended by `</think>`, `<|EOT|>` ending the turn:
    /// StepFun Step-3.
    Step3,
    /// `<｜GCML｜tool_calls><｜GCML｜invoke name="N"><｜GCML｜parameter name="k"
    /// string="true|false">v</｜GCML｜parameter></｜GCML｜invoke></｜GCML｜tool_calls>`,
    /// DeepSeek's DSML shape with `GCML` tags, reasoning ended by `</think>`,
    /// `<|message_sep|>` ending the turn: Sber GigaChat 3.5.
    Gigachat35,
    /// `TEXT<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": …, "arguments": {…}}`
    /// (or `<|function_call|>{…}`), the call a message of its own whose JSON object runs to
    /// the end of the output, no closer; `<|message_sep|>` markup, `</s>` ending the turn:
    /// Sber GigaChat 3.
    Gigachat3,
    /// `<|plamo:begin_tool_requests:plamo|>` + per call `<|plamo:begin_tool_request:plamo|>`,
    /// the name in `<|plamo:begin_tool_name:plamo|>…<|plamo:end_tool_name:plamo|>`, the
    /// arguments' JSON after `<|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>`
    /// up to `<|plamo:end_tool_arguments:plamo|>`, `<|plamo:end_tool_request:plamo|>`; text
    /// markers, `<|plamo:begin_think:plamo|>` reasoning (open at the start when thinking is
    /// enabled): PFN PLaMo 3.
    Plamo3,
    /// `]<]minimax[>[<tool_call>]<]minimax[>[<invoke name="N">]<]minimax[>[<k>v]<]minimax[>[</k>
    /// ]<]minimax[>[</invoke>]<]minimax[>[</tool_call>`, every tag after the namespace
    /// marker, a parameter an element named after its key, raw-text values (child elements
    /// kept as text), `<mm:think>` reasoning: MiniMax-M3.
    MinimaxM3,
}

impl Dialect {
    /// Every dialect, in table order.
    pub const ALL: &'static [Dialect] = &[
        Dialect::Hermes,
        Dialect::Qwen3,
        Dialect::Kimi,
        Dialect::Deepseek,
        Dialect::Harmony,
        Dialect::Xml,
        Dialect::Gemma,
        Dialect::Gemini,
        Dialect::Anthropic,
        Dialect::Minimax,
        Dialect::Qwen3Coder,
        Dialect::Glm,
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

    /// The dialect's name as used in `docs/dialects.md`, the CLI and the corpus.
    pub const fn name(self) -> &'static str {
        match self {
            Dialect::Hermes => "hermes",
            Dialect::Qwen3 => "qwen3",
            Dialect::Jamba => "jamba",
            Dialect::Granite => "granite",
            Dialect::Internlm => "internlm",
            Dialect::Kimi => "kimi",
            Dialect::Deepseek => "deepseek",
            Dialect::Harmony => "harmony",
            Dialect::Xml => "xml",
            Dialect::Gemma => "gemma",
            Dialect::Gemini => "gemini",
            Dialect::Anthropic => "anthropic",
            Dialect::Minimax => "minimax",
            Dialect::Qwen3Coder => "qwen3-coder",
            Dialect::Glm => "glm",
            Dialect::SeedOss => "seed-oss",
            Dialect::Longcat => "longcat",
            Dialect::Mistral => "mistral",
            Dialect::Pythonic => "pythonic",
            Dialect::Lfm2 => "lfm2",
            Dialect::Llama3Json => "llama3-json",
            Dialect::Xlam => "xlam",
            Dialect::Phi4Mini => "phi4-mini",
            Dialect::HunyuanA13b => "hunyuan-a13b",
            Dialect::Hunyuan => "hunyuan",
            Dialect::IquestQ1 => "iquest-q1",
            Dialect::K2Horizon => "k2-horizon",
            Dialect::Cohere => "cohere",
            Dialect::Apertus => "apertus",
            Dialect::DeepseekV41 => "deepseek-v41",
            Dialect::Dots => "dots",
            Dialect::Ernie45 => "ernie45",
            Dialect::Granite20bFc => "granite-20b-fc",
            Dialect::FunctionGemma => "functiongemma",
            Dialect::Minicpm5 => "minicpm5",
            Dialect::KimiK3 => "kimi-k3",
            Dialect::Muse => "muse",
            Dialect::Mimo => "mimo",
            Dialect::Step3 => "step3",
            Dialect::Gigachat35 => "gigachat35",
            Dialect::Gigachat3 => "gigachat3",
            Dialect::Plamo3 => "plamo3",
            Dialect::MinimaxM3 => "minimax-m3",
        }
    }

    /// The dialect called `name`, if there is one. The match ignores surrounding ASCII
    /// whitespace and ASCII case, and reads `_` as `-`, so `SEED-OSS`, `seed_oss` and
    /// `seed-oss` name the same dialect (servers spell parser names with underscores;
    /// [`Dialect::name`] gives the canonical spelling).
    pub fn from_name(name: &str) -> Option<Dialect> {
        let name = name
            .trim_matches(|c: char| c.is_ascii_whitespace())
            .as_bytes();
        let fold = |b: u8| {
            if b == b'_' {
                b'-'
            } else {
                b.to_ascii_lowercase()
            }
        };
        Dialect::ALL.iter().copied().find(|d| {
            let canonical = d.name().as_bytes();
            canonical.len() == name.len() && canonical.iter().zip(name).all(|(&c, &b)| c == fold(b))
        })
    }

    /// Whether the dialect's own delimiters are single special tokens of the model's
    /// vocabulary (`special_tokens` in its table): Kimi, DeepSeek and Harmony, not the
    /// plain-text tags of Hermes, Qwen3 or the XML family (docs/dialects.md rule 12).
    pub const fn special_tokens(self) -> bool {
        match self {
            Dialect::Hermes => tables::hermes::SPECIAL_TOKENS,
            Dialect::Qwen3 => tables::qwen3::SPECIAL_TOKENS,
            Dialect::Jamba => tables::jamba::SPECIAL_TOKENS,
            Dialect::Granite => tables::granite::SPECIAL_TOKENS,
            Dialect::Internlm => tables::internlm::SPECIAL_TOKENS,
            Dialect::Kimi => tables::kimi::SPECIAL_TOKENS,
            Dialect::Deepseek => tables::deepseek::SPECIAL_TOKENS,
            Dialect::Harmony => tables::harmony::SPECIAL_TOKENS,
            Dialect::Xml => tables::xml::SPECIAL_TOKENS,
            Dialect::Gemma => tables::gemma::SPECIAL_TOKENS,
            Dialect::Gemini => tables::gemini::SPECIAL_TOKENS,
            Dialect::Anthropic => tables::anthropic::SPECIAL_TOKENS,
            Dialect::Minimax => tables::minimax::SPECIAL_TOKENS,
            Dialect::Qwen3Coder => tables::qwen3_coder::SPECIAL_TOKENS,
            Dialect::Glm => tables::glm::SPECIAL_TOKENS,
            Dialect::SeedOss => tables::seed_oss::SPECIAL_TOKENS,
            Dialect::Dots => tables::dots::SPECIAL_TOKENS,
            Dialect::Ernie45 => tables::ernie45::SPECIAL_TOKENS,
            Dialect::Granite20bFc => tables::granite_20b_fc::SPECIAL_TOKENS,
            Dialect::FunctionGemma => tables::functiongemma::SPECIAL_TOKENS,
            Dialect::Minicpm5 => tables::minicpm5::SPECIAL_TOKENS,
            Dialect::KimiK3 => tables::kimi_k3::SPECIAL_TOKENS,
            Dialect::Muse => tables::muse::SPECIAL_TOKENS,
            Dialect::Mimo => tables::mimo::SPECIAL_TOKENS,
            Dialect::Step3 => tables::step3::SPECIAL_TOKENS,
            Dialect::Gigachat35 => tables::gigachat35::SPECIAL_TOKENS,
            Dialect::Longcat => tables::longcat::SPECIAL_TOKENS,
            Dialect::Mistral => tables::mistral::SPECIAL_TOKENS,
            Dialect::Pythonic => tables::pythonic::SPECIAL_TOKENS,
            Dialect::Lfm2 => tables::lfm2::SPECIAL_TOKENS,
            Dialect::Llama3Json => tables::llama3_json::SPECIAL_TOKENS,
            Dialect::Xlam => tables::xlam::SPECIAL_TOKENS,
            Dialect::Phi4Mini => tables::phi4_mini::SPECIAL_TOKENS,
            Dialect::HunyuanA13b => tables::hunyuan_a13b::SPECIAL_TOKENS,
            Dialect::Hunyuan => tables::hunyuan::SPECIAL_TOKENS,
            Dialect::IquestQ1 => tables::iquest_q1::SPECIAL_TOKENS,
            Dialect::K2Horizon => tables::k2_horizon::SPECIAL_TOKENS,
            Dialect::Cohere => tables::cohere::SPECIAL_TOKENS,
            Dialect::Apertus => tables::apertus::SPECIAL_TOKENS,
            Dialect::DeepseekV41 => tables::deepseek_v41::SPECIAL_TOKENS,
            Dialect::Gigachat3 => tables::gigachat3::SPECIAL_TOKENS,
            Dialect::Plamo3 => tables::plamo3::SPECIAL_TOKENS,
            Dialect::MinimaxM3 => tables::minimax_m3::SPECIAL_TOKENS,
        }
    }

    /// The non-canonical spellings of section delimiters this dialect accepts with
    /// [`Diagnostic::DelimiterAlias`](crate::Diagnostic::DelimiterAlias) (the `aliases`
    /// knob of its table, docs/dialects.md rule 13): a tokenizer need not have them.
    pub fn aliases(self) -> &'static [&'static [u8]] {
        match self {
            Dialect::Kimi => tables::kimi::KNOBS.aliases,
            Dialect::Deepseek => tables::deepseek::KNOBS.aliases,
            Dialect::Minimax => tables::minimax::KNOBS.aliases,
            Dialect::Anthropic => tables::anthropic::KNOBS.aliases,
            Dialect::Xml => tables::xml::KNOBS.aliases,
            Dialect::Qwen3Coder => tables::qwen3_coder::KNOBS.aliases,
            Dialect::SeedOss => tables::seed_oss::KNOBS.aliases,
            Dialect::Dots => tables::dots::KNOBS.aliases,
            Dialect::Ernie45 => tables::ernie45::KNOBS.aliases,
            Dialect::Granite20bFc => tables::granite_20b_fc::KNOBS.aliases,
            Dialect::Minicpm5 => tables::minicpm5::KNOBS.aliases,
            Dialect::KimiK3 => tables::kimi_k3::KNOBS.aliases,
            Dialect::Muse => tables::muse::KNOBS.aliases,
            Dialect::Mimo => tables::mimo::KNOBS.aliases,
            Dialect::Step3 => tables::step3::KNOBS.aliases,
            Dialect::Gigachat35 => tables::gigachat35::KNOBS.aliases,
            Dialect::Jamba => tables::jamba::KNOBS.aliases,
            Dialect::Granite => tables::granite::KNOBS.aliases,
            Dialect::Mistral => tables::mistral::KNOBS.aliases,
            Dialect::Pythonic => tables::pythonic::KNOBS.aliases,
            Dialect::Lfm2 => tables::lfm2::KNOBS.aliases,
            Dialect::Llama3Json => tables::llama3_json::KNOBS.aliases,
            Dialect::Xlam => tables::xlam::KNOBS.aliases,
            Dialect::Phi4Mini => tables::phi4_mini::KNOBS.aliases,
            Dialect::HunyuanA13b => tables::hunyuan_a13b::KNOBS.aliases,
            Dialect::Hunyuan => tables::hunyuan::KNOBS.aliases,
            Dialect::K2Horizon => tables::k2_horizon::KNOBS.aliases,
            Dialect::Cohere => tables::cohere::KNOBS.aliases,
            Dialect::Apertus => tables::apertus::KNOBS.aliases,
            Dialect::DeepseekV41 => tables::deepseek_v41::KNOBS.aliases,
            Dialect::Gigachat3 => tables::gigachat3::KNOBS.aliases,
            Dialect::Plamo3 => tables::plamo3::KNOBS.aliases,
            Dialect::MinimaxM3 => tables::minimax_m3::KNOBS.aliases,
            Dialect::Hermes
            | Dialect::Qwen3
            | Dialect::Internlm
            | Dialect::Harmony
            | Dialect::Gemma
            | Dialect::FunctionGemma
            | Dialect::Gemini
            | Dialect::Glm
            | Dialect::IquestQ1
            | Dialect::Longcat => &[],
        }
    }

    /// Whether `delimiter`, a delimiter this dialect's scanner reported
    /// ([`Markup::Delimiter`](crate::Markup::Delimiter)), is a single special token of the
    /// model's vocabulary, which never reaches content or reasoning as text (docs/dialects.md
    /// rule 12), not even with the bytes of a broken call given back: in a dialect with
    /// [`special_tokens`](Dialect::special_tokens), one spelled `<|…|>` or `<｜…｜>`
    /// (Kimi's `<|tool_call_begin|>`, DeepSeek's `<｜tool▁sep｜>`, Harmony's `<|call|>`), or
    /// `[NAME]` / `[/NAME]` with NAME in capitals, digits and `_` (Mistral's control tokens
    /// `[TOOL_CALLS]`, `[ARGS]`, `[/THINK]`).
    /// Tags of other shapes are text the tokenizer splits: `<think>`, DeepSeek's DSML
    /// markup (`<｜DSML｜invoke`, `</｜DSML｜parameter>`), Hermes's `<tool_call>`.
    pub fn is_special_token(self, delimiter: &[u8]) -> bool {
        const FULLWIDTH: &[u8] = "｜".as_bytes();
        let inner = |open: &[u8], close: &[u8]| {
            delimiter
                .strip_prefix(b"<")
                .and_then(|d| d.strip_prefix(open))
                .and_then(|d| d.strip_suffix(b">"))
                .and_then(|d| d.strip_suffix(close))
        };
        let token = |inner: Option<&[u8]>, pipe: &[u8]| {
            inner.is_some_and(|inner| {
                !inner.is_empty()
                    && !inner.iter().any(|&b| b == b'<' || b == b'>')
                    && !inner.windows(pipe.len()).any(|w| w == pipe)
            })
        };
        // Mistral's control tokens: `[NAME]` or `[/NAME]`, NAME in capitals, digits and `_`.
        let bracket = delimiter
            .strip_prefix(b"[")
            .and_then(|d| d.strip_suffix(b"]"))
            .map(|d| d.strip_prefix(b"/").unwrap_or(d))
            .is_some_and(|name| {
                !name.is_empty()
                    && name
                        .iter()
                        .all(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
            });
        self.special_tokens()
            && (token(inner(b"|", b"|"), b"|")
                || token(inner(FULLWIDTH, FULLWIDTH), FULLWIDTH)
                || bracket)
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
