//! Each parameters dialect's layout of a turn's calls, as data (the chat templates and
//! server parsers each cites).

use inband::Dialect;

use super::{KeyTag, ParamCalls};

/// GLM-4.5/4.6: the name on the opener's line, every tag on a line of its own, calls one
/// per line (the chat template of docs/dialects.md §glm, llama.cpp `GLM-4.6.jinja`).
pub(crate) static GLM: ParamCalls = ParamCalls {
    dialect: Dialect::Glm,
    wrapper: None,
    block: ("", ""),
    named_block: None,
    separator: "\n",
    call_open: ("<tool_call>", "\n"),
    param_open: ("<arg_key>", "</arg_key>\n<arg_value>"),
    param_close: "</arg_value>\n",
    call_close: "</tool_call>",
    quote: None,
    equals: false,
    implied_section: false,
    typed_open: None,
    type_words: false,
    index_close: None,
    key_tag: Some(&KeyTag {
        open: "<arg_key>",
        close: "</arg_key>",
        value_open: "<arg_value>",
    }),
    verbatim: None,
    key_close: None,
};

/// Hunyuan Hy3: glm's layout with Hunyuan's `:opensource` tags, the name ended by
/// `<tool_sep:opensource>`, the calls of a turn in one `<tool_calls:opensource>` section
/// (docs/dialects.md §hunyuan; SGLang `hunyuan_detector.py`'s documented layout).
pub(crate) static HUNYUAN: ParamCalls = ParamCalls {
    dialect: Dialect::Hunyuan,
    wrapper: Some(("<tool_calls:opensource>\n", "\n</tool_calls:opensource>")),
    block: ("", ""),
    named_block: None,
    separator: "\n",
    call_open: ("<tool_call:opensource>", "<tool_sep:opensource>\n"),
    param_open: (
        "<arg_key:opensource>",
        "</arg_key:opensource>\n<arg_value:opensource>",
    ),
    param_close: "</arg_value:opensource>\n",
    call_close: "</tool_call:opensource>",
    quote: None,
    equals: false,
    // The table's `bare_call = "missing_section"`.
    implied_section: true,
    typed_open: None,
    type_words: false,
    index_close: None,
    key_tag: Some(&KeyTag {
        open: "<arg_key:opensource>",
        close: "</arg_key:opensource>",
        value_open: "<arg_value:opensource>",
    }),
    verbatim: None,
    key_close: None,
};

/// IQuest Q1: glm's key and value tags in an `<iquest_tool_call>` block, the parts back to
/// back as its chat template writes them (docs/dialects.md §iquest-q1).
pub(crate) static IQUEST_Q1: ParamCalls = ParamCalls {
    dialect: Dialect::IquestQ1,
    wrapper: None,
    block: ("", ""),
    named_block: None,
    separator: "",
    call_open: ("<iquest_tool_call>", ""),
    param_open: ("<arg_key>", "</arg_key><arg_value>"),
    param_close: "</arg_value>",
    call_close: "</iquest_tool_call>",
    quote: None,
    equals: false,
    implied_section: false,
    typed_open: None,
    type_words: false,
    index_close: None,
    key_tag: Some(&KeyTag {
        open: "<arg_key>",
        close: "</arg_key>",
        value_open: "<arg_value>",
    }),
    verbatim: None,
    key_close: None,
};

/// K2 Horizon: glm's one-part-a-line layout with IFM's `ifm|` tags, the calls of a turn in
/// one `<ifm|tool_calls>` section (the template's tool-call instructions, docs/dialects.md
/// §k2-horizon).
pub(crate) static K2_HORIZON: ParamCalls = ParamCalls {
    dialect: Dialect::K2Horizon,
    wrapper: Some(("<ifm|tool_calls>\n", "\n</ifm|tool_calls>")),
    block: ("", ""),
    named_block: None,
    separator: "\n",
    call_open: ("<ifm|tool_call>", "\n"),
    param_open: ("<ifm|arg_key>", "</ifm|arg_key>\n<ifm|arg_value>"),
    param_close: "</ifm|arg_value>\n",
    call_close: "</ifm|tool_call>",
    quote: None,
    equals: false,
    // The table's `bare_call = "canonical"`: only a real section's closer counts.
    implied_section: false,
    typed_open: None,
    type_words: false,
    index_close: None,
    key_tag: Some(&KeyTag {
        open: "<ifm|arg_key>",
        close: "</ifm|arg_key>",
        value_open: "<ifm|arg_value>",
    }),
    verbatim: None,
    key_close: None,
};

/// The generic xml dialect: bare invokes, one per line (docs/seed.md §2.5 b).
pub(crate) static XML: ParamCalls = ParamCalls {
    dialect: Dialect::Xml,
    wrapper: None,
    block: ("", ""),
    named_block: None,
    separator: "\n",
    call_open: ("<invoke name=\"", "\">\n"),
    param_open: ("<parameter name=\"", "\">"),
    param_close: "</parameter>\n",
    call_close: "</invoke>",
    quote: Some('"'),
    equals: false,
    implied_section: false,
    typed_open: None,
    type_words: false,
    index_close: None,
    key_tag: None,
    verbatim: None,
    key_close: None,
};

/// DeepSeek V4.1: the invokes of a turn in one `<｜DSML｜ calls>` block, each parameter
/// tag declaring its value raw text or JSON (docs/dialects.md §deepseek-v41).
pub(crate) static DEEPSEEK_V41: ParamCalls = ParamCalls {
    dialect: Dialect::DeepseekV41,
    wrapper: Some(("<｜DSML｜ calls>\n", "\n</｜DSML｜ calls>")),
    block: ("", ""),
    named_block: None,
    separator: "\n",
    call_open: ("<｜DSML｜ invoke name=\"", "\">\n"),
    param_open: ("<｜DSML｜ parameter name=\"", "\">"),
    typed_open: Some(("\" string=\"true\">", "\" string=\"false\">")),
    type_words: false,
    index_close: None,
    param_close: "</｜DSML｜ parameter>\n",
    call_close: "</｜DSML｜ invoke>",
    quote: Some('"'),
    equals: false,
    // The table's `bare_call = "missing_section"`: the block's closer counts after a value
    // even outside a block.
    implied_section: true,
    key_tag: None,
    verbatim: None,
    key_close: None,
};

/// Claude's legacy XML: the invokes of a turn in one `<function_calls>` block
/// (docs/seed.md §2.4 a–b).
pub(crate) static ANTHROPIC: ParamCalls = ParamCalls {
    dialect: Dialect::Anthropic,
    wrapper: Some(("<function_calls>\n", "\n</function_calls>")),
    implied_section: true,
    ..XML
};

/// MiniMax-M2: the invokes of a turn in one `<minimax:tool_call>` block (docs/seed.md
/// §2.6 b, docs/dialects.md §minimax).
pub(crate) static MINIMAX: ParamCalls = ParamCalls {
    dialect: Dialect::Minimax,
    wrapper: Some(("<minimax:tool_call>\n", "\n</minimax:tool_call>")),
    ..ANTHROPIC
};

/// Qwen3-Coder: one `<tool_call>` block per call, each tag and value on its own line;
/// the newline on each side of a value is template framing (docs/dialects.md §qwen3-coder).
pub(crate) static QWEN3_CODER: ParamCalls = ParamCalls {
    dialect: Dialect::Qwen3Coder,
    wrapper: None,
    block: ("<tool_call>\n", "\n</tool_call>"),
    named_block: None,
    separator: "\n",
    call_open: ("<function=", ">\n"),
    param_open: ("<parameter=", ">\n"),
    param_close: "\n</parameter>\n",
    call_close: "</function>",
    quote: None,
    equals: true,
    implied_section: true,
    typed_open: None,
    type_words: false,
    index_close: None,
    key_tag: None,
    verbatim: None,
    key_close: None,
};

/// Seed-OSS: one `<seed:tool_call>` block per call, each tag on its own line, each value
/// right between its tags with no framing newline (the chat template of docs/dialects.md
/// §seed-oss, llama.cpp `ByteDance-Seed-OSS.jinja`).
pub(crate) static SEED_OSS: ParamCalls = ParamCalls {
    dialect: Dialect::SeedOss,
    block: ("<seed:tool_call>\n", "\n</seed:tool_call>"),
    param_open: ("<parameter=", ">"),
    param_close: "</parameter>\n",
    ..QWEN3_CODER
};

/// Xiaomi MiMo-V2: one `<tool_call>` block per call, each tag on its own line, each value
/// right between its tags with no framing newline (seed-oss's layout in qwen3-coder's block;
/// vLLM's and SGLang's `mimo` parsers, docs/dialects.md §mimo).
pub(crate) static MIMO: ParamCalls = ParamCalls {
    dialect: Dialect::Mimo,
    block: ("<tool_call>\n", "\n</tool_call>"),
    ..SEED_OSS
};

/// rednote dots.llm1 / dots.vlm1: the invokes of a turn in one `<dots_function_call>`
/// block, one part a line (vLLM's dots parser, docs/dialects.md §dots).
pub(crate) static DOTS: ParamCalls = ParamCalls {
    dialect: Dialect::Dots,
    wrapper: Some(("<dots_function_call>\n", "\n</dots_function_call>")),
    ..ANTHROPIC
};

/// Moonshot Kimi K3: the calls of a turn back to back in one `tools` channel, each tag
/// ended by `<|sep|>`, each call numbered from 1, each argument typed by its JSON type word
/// (SGLang's K3 structural tag, docs/dialects.md §kimi-k3).
pub(crate) static KIMI_K3: ParamCalls = ParamCalls {
    dialect: Dialect::KimiK3,
    wrapper: Some(("<|open|>tools<|sep|>", "<|close|>tools<|sep|>")),
    block: ("", ""),
    separator: "",
    call_open: ("<|open|>call tool=\"", "\" index=\""),
    index_close: Some("\"<|sep|>"),
    param_open: ("<|open|>argument key=\"", "\"<|sep|>"),
    typed_open: Some(("\" type=\"string\"<|sep|>", "\" type=\"{}\"<|sep|>")),
    type_words: true,
    param_close: "<|close|>argument<|sep|>",
    call_close: "<|close|>call<|sep|>",
    quote: Some('"'),
    equals: false,
    // The table's `bare_call = "missing_section"`.
    implied_section: true,
    key_tag: None,
    verbatim: None,
    key_close: None,
    named_block: None,
};

/// Muse: one assistant message per call, to the tool, its body one ATEM block (the chat
/// template's assistant history, docs/dialects.md §muse).
pub(crate) static MUSE: ParamCalls = ParamCalls {
    dialect: Dialect::Muse,
    wrapper: None,
    block: ("<|start|>assistant to=", "\n</atem:function_calls><|eom|>"),
    named_block: Some("<|message|><atem:function_calls>\n"),
    separator: "",
    call_open: ("<atem:invoke name=\"", "\">\n"),
    param_open: ("<atem:parameter name=\"", "\">"),
    param_close: "</atem:parameter>\n",
    call_close: "</atem:invoke>",
    implied_section: false,
    ..XML
};

/// StepFun Step-3: the calls of a turn in one `<｜tool_calls_begin｜>` block, one call a
/// line, its type word `function` and the separator token before the steptml invoke, one
/// parameter a line (SGLang's step3 detector's layout, docs/dialects.md §step3).
pub(crate) static STEP3: ParamCalls = ParamCalls {
    dialect: Dialect::Step3,
    wrapper: Some(("<｜tool_calls_begin｜>\n", "\n<｜tool_calls_end｜>")),
    block: ("", ""),
    separator: "\n",
    call_open: (
        "<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"",
        "\">\n",
    ),
    param_open: ("<steptml:parameter name=\"", "\">"),
    typed_open: None,
    param_close: "</steptml:parameter>\n",
    call_close: "</steptml:invoke><｜tool_call_end｜>",
    quote: Some('"'),
    equals: false,
    // The table's `bare_call = "missing_section"`: the block's closer counts after a value
    // even outside a block.
    implied_section: true,
    key_tag: None,
    named_block: None,
    type_words: false,
    index_close: None,
    verbatim: None,
    key_close: None,
};

/// Sber GigaChat 3.5: DeepSeek V4.1's layout with the `GCML` tags, the invokes of a turn in
/// one `<｜GCML｜tool_calls>` block, each parameter tag declaring its value raw text or
/// JSON (SGLang's gigachat35 detector, docs/dialects.md §gigachat35).
pub(crate) static GIGACHAT35: ParamCalls = ParamCalls {
    dialect: Dialect::Gigachat35,
    wrapper: Some(("<｜GCML｜tool_calls>\n", "\n</｜GCML｜tool_calls>")),
    call_open: ("<｜GCML｜invoke name=\"", "\">\n"),
    param_open: ("<｜GCML｜parameter name=\"", "\">"),
    param_close: "</｜GCML｜parameter>\n",
    call_close: "</｜GCML｜invoke>",
    ..DEEPSEEK_V41
};
