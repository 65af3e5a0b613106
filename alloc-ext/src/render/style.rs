//! Each dialect's writer: the forms of its calls, results, reasoning and transcript, one
//! `Style` per dialect (the tables of docs/dialects.md in the renderer's terms).

use inband::Dialect;

use super::json::{self, JsonCalls};
use super::literal::{self, Literal};
use super::params::{self, ParamCalls};
use super::reasoning::{
    self, ReasoningForm, APERTUS_INNER, COHERE_THINK, KIMI_K3_THINK, MISTRAL_THINK, MM_THINK,
    THINK, THINKING,
};
use super::results::ResultForm;
use super::transcript::{ChatMl, TemplateForm};

/// How a dialect writes calls.
#[derive(Debug, Clone, Copy)]
pub(super) enum CallForm {
    /// A JSON body in tags or tokens (hermes, qwen3, longcat, kimi, deepseek, harmony).
    Json(&'static JsonCalls),
    /// Raw-text parameters in tags (xml, anthropic, minimax, qwen3-coder, seed-oss, dots, mimo,
    /// step3, kimi-k3, minicpm5, muse, glm, hunyuan, iquest-q1, k2-horizon, deepseek-v41,
    /// gigachat35).
    Params(&'static ParamCalls),
    /// A literal syntax (gemma, functiongemma, gemini, pythonic, lfm2).
    Literal(Literal),
}

/// A dialect's writer: one form per thing it writes.
#[derive(Debug, Clone, Copy)]
pub(super) struct Style {
    pub(super) calls: CallForm,
    pub(super) results: ResultForm,
    pub(super) reasoning: ReasoningForm,
    pub(super) template: TemplateForm,
}

impl Style {
    /// The generic invoke/parameter markup with `<thinking>` reasoning and the legacy
    /// `Human:`/`Assistant:` transcript.
    const XML: Style = Style {
        calls: CallForm::Params(&params::XML),
        results: ResultForm::ToolResponse,
        reasoning: ReasoningForm::Delimited(&THINKING, true),
        template: TemplateForm::Legacy,
    };

    /// Hermes: JSON in `<tool_call>` tags, `<think>` reasoning, ChatML with tool results in a
    /// `tool` turn.
    const HERMES: Style = Style {
        calls: CallForm::Json(&json::HERMES),
        results: ResultForm::ToolResponse,
        reasoning: ReasoningForm::Delimited(&THINK, true),
        template: TemplateForm::ChatMl(ChatMl {
            results_role: "tool",
            results_end: "",
        }),
    };

    /// ERNIE 4.5: the Hermes calls; ChatML turns, results in `<tool_output>` tags in a `tool`
    /// turn (not established, docs/dialects.md §ernie45).
    const ERNIE45: Style = Style {
        calls: CallForm::Json(&json::HERMES),
        results: ResultForm::ToolOutput,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::ChatMl(ChatMl {
            results_role: "tool",
            results_end: "",
        }),
    };

    /// granite-20b-functioncalling: `<function_call>` before each call object, vLLM's
    /// template's `SYSTEM:` / `USER:` / `ASSISTANT:` turns, `<function_response>` results.
    const GRANITE_20B_FC: Style = Style {
        calls: CallForm::Json(&json::GRANITE_20B_FC),
        results: ResultForm::FunctionResponse,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::Granite20bFc,
    };

    /// Qwen3: the Hermes calls, ChatML with tool results in a `user` turn.
    const QWEN3: Style = Style {
        calls: CallForm::Json(&json::HERMES),
        results: ResultForm::ToolResponse,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::ChatMl(ChatMl {
            results_role: "user",
            results_end: "",
        }),
    };

    /// Jamba: its own turn tokens were not established from public material: its
    /// transcript is ChatML, tool results in a `tool` turn (docs/dialects.md §jamba).
    const JAMBA: Style = Style {
        calls: CallForm::Json(&json::JAMBA),
        results: ResultForm::ToolResponse,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::ChatMl(ChatMl {
            results_role: "tool",
            results_end: "",
        }),
    };

    /// Granite 3: its turns; results each a `tool_response` turn (docs/dialects.md
    /// §granite).
    const GRANITE: Style = Style {
        calls: CallForm::Json(&json::GRANITE),
        results: ResultForm::Granite,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::Granite,
    };

    /// Phi-4-mini: `functools[…]`, its `<|ROLE|>` turns; results each a `<|tool|>` turn
    /// (docs/dialects.md §phi4-mini).
    const PHI4_MINI: Style = Style {
        calls: CallForm::Json(&json::PHI4_MINI),
        results: ResultForm::Phi4Mini,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::Phi4Mini,
    };

    /// Hunyuan-A13B: Jamba's `<tool_calls>` array, its own turns; a run of results in one
    /// turn of `<tool_response>` blocks (docs/dialects.md §hunyuan-a13b).
    const HUNYUAN_A13B: Style = Style {
        calls: CallForm::Json(&json::JAMBA),
        results: ResultForm::HunyuanA13b,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::HunyuanA13b,
    };

    /// Cohere Command R7B / Command A: the action block's array with Cohere's keys, the
    /// tool plan in `<|START_THINKING|>`, its turn tokens; a run of results one
    /// `<|START_TOOL_RESULT|>` block (docs/dialects.md §cohere).
    const COHERE: Style = Style {
        calls: CallForm::Json(&json::COHERE),
        results: ResultForm::Cohere,
        reasoning: ReasoningForm::Delimited(&COHERE_THINK, false),
        template: TemplateForm::Cohere,
    };

    /// Apertus: the tools tokens' array of `{"NAME": {…}}` calls, the inner section's
    /// reasoning, its turn tokens; a run of results one JSON array inside the assistant
    /// turn (docs/dialects.md §apertus).
    const APERTUS: Style = Style {
        calls: CallForm::Json(&json::APERTUS),
        results: ResultForm::Apertus,
        reasoning: ReasoningForm::Delimited(&APERTUS_INNER, false),
        template: TemplateForm::Apertus,
    };

    /// GigaChat 3: each call a `function call` message, `<think>` reasoning (not
    /// established), its `ROLE<|role_sep|>` messages; each result a `function result`
    /// message (docs/dialects.md §gigachat3).
    const GIGACHAT3: Style = Style {
        calls: CallForm::Json(&json::GIGACHAT3),
        results: ResultForm::Gigachat3,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::Gigachat3,
    };

    /// PLaMo 3: its calls and reasoning markers; its turn layout and tool results were not
    /// established from public material: ChatML, each result in a `tool` turn
    /// (docs/dialects.md §plamo3).
    const PLAMO3: Style = Style {
        calls: CallForm::Json(&json::PLAMO3),
        results: ResultForm::ToolResponse,
        reasoning: ReasoningForm::Delimited(&reasoning::PLAMO3_THINK, false),
        template: TemplateForm::ChatMl(ChatMl {
            results_role: "tool",
            results_end: "",
        }),
    };

    /// InternLM: ChatML turns; each result an `environment` turn of its own, addressed to
    /// the plugin (docs/dialects.md §internlm).
    const INTERNLM: Style = Style {
        calls: CallForm::Json(&json::INTERNLM),
        results: ResultForm::Internlm,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::ChatMl(ChatMl {
            results_role: "",
            results_end: "",
        }),
    };

    /// GLM: key and value tags, GLM's own turns.
    const GLM: Style = Style {
        calls: CallForm::Params(&params::GLM),
        results: ResultForm::ToolResponse,
        reasoning: ReasoningForm::Delimited(&reasoning::GLM_THINK, false),
        template: TemplateForm::Glm,
    };

    /// Hunyuan Hy3 / HY4: glm's key and value tags with Hunyuan's `:opensource` suffix in a
    /// section, `<think:opensource>` reasoning, Hunyuan's turns.
    const HUNYUAN: Style = Style {
        calls: CallForm::Params(&params::HUNYUAN),
        results: ResultForm::Hunyuan,
        reasoning: ReasoningForm::Delimited(&reasoning::HUNYUAN_THINK, false),
        template: TemplateForm::Hunyuan,
    };

    /// IQuest Q1: glm's key and value tags in its own block, `<think>` reasoning, IQuest's
    /// turns with the results in a user turn.
    const IQUEST_Q1: Style = Style {
        calls: CallForm::Params(&params::IQUEST_Q1),
        results: ResultForm::ToolResponse,
        reasoning: ReasoningForm::Delimited(&reasoning::IQUEST_THINK, false),
        template: TemplateForm::Iquest,
    };

    /// K2 Horizon: glm's key and value tags with IFM's `ifm|` tags in a section,
    /// `<ifm|think>` reasoning, ChatML turns with `ifm|` tokens, each result a `tool` turn.
    const K2_HORIZON: Style = Style {
        calls: CallForm::Params(&params::K2_HORIZON),
        results: ResultForm::Ifm,
        reasoning: ReasoningForm::Delimited(&reasoning::IFM_THINK, false),
        template: TemplateForm::Ifm,
    };

    /// Qwen3-Coder: raw-text parameters, ChatML with tool results in a `user` turn.
    const QWEN3_CODER: Style = Style {
        calls: CallForm::Params(&params::QWEN3_CODER),
        results: ResultForm::ToolResponse,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::ChatMl(ChatMl {
            results_role: "user",
            results_end: "\n",
        }),
    };

    /// LongCat: JSON in `<longcat_tool_call>` tags, `<longcat_think>` reasoning, its own turns.
    const LONGCAT: Style = Style {
        calls: CallForm::Json(&json::LONGCAT),
        results: ResultForm::Longcat,
        reasoning: ReasoningForm::Delimited(&reasoning::LONGCAT_THINK, false),
        template: TemplateForm::Longcat,
    };

    /// Seed-OSS: raw-text parameters, `<seed:think>` reasoning, each tool result a turn.
    const SEED_OSS: Style = Style {
        calls: CallForm::Params(&params::SEED_OSS),
        results: ResultForm::SeedOss,
        reasoning: ReasoningForm::Delimited(&reasoning::SEED_THINK, false),
        template: TemplateForm::SeedOss,
    };

    /// dots: xml's invokes in one `<dots_function_call>` block, `<think>` reasoning, the dots1
    /// turns with the results in a user turn of `<tool_response>` blocks.
    const DOTS: Style = Style {
        calls: CallForm::Params(&params::DOTS),
        results: ResultForm::ToolResponse,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::Dots,
    };

    /// MiMo-V2: qwen3-coder's blocks with each value right between its tags, `<think>`
    /// reasoning, ChatML with the results in a user turn of `<tool_response>` blocks.
    const MIMO: Style = Style {
        calls: CallForm::Params(&params::MIMO),
        ..Style::QWEN3_CODER
    };

    /// Step-3: the steptml invokes in one `<｜tool_calls_begin｜>` block, `<think>` reasoning,
    /// the `<|BOT|>ROLE\n…<|EOT|>` turns with each result a `tool_response` turn.
    const STEP3: Style = Style {
        calls: CallForm::Params(&params::STEP3),
        results: ResultForm::Step3,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::Step3,
    };

    /// GigaChat 3.5: GCML invokes in one block, `<think>` reasoning, GigaChat's
    /// `ROLE<|role_sep|>\n…<|message_sep|>\n\n` turns with each result a `function result`
    /// turn.
    const GIGACHAT35: Style = Style {
        calls: CallForm::Params(&params::GIGACHAT35),
        results: ResultForm::Gigachat,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::Gigachat35,
    };

    /// Kimi: JSON between special tokens, Kimi's turns.
    const KIMI: Style = Style {
        calls: CallForm::Json(&json::KIMI),
        results: ResultForm::Kimi,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::Kimi,
    };

    /// DeepSeek V3.1: JSON between special tokens, DeepSeek's turns.
    const DEEPSEEK: Style = Style {
        calls: CallForm::Json(&json::DEEPSEEK),
        results: ResultForm::Deepseek,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::Deepseek,
    };

    /// DeepSeek V4.1: spaced DSML calls after a blank line, `<function_results>`, DeepSeek's
    /// turns.
    const DEEPSEEK_V41: Style = Style {
        calls: CallForm::Params(&params::DEEPSEEK_V41),
        results: ResultForm::FunctionResults,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::Deepseek,
    };

    /// Kimi K3: the calls in the `tools` channel, the reasoning in the `think` channel, the
    /// text in the `response` channel, each turn an XTML `message` (not established).
    const KIMI_K3: Style = Style {
        calls: CallForm::Params(&params::KIMI_K3),
        results: ResultForm::ToolResponse,
        reasoning: ReasoningForm::Delimited(&KIMI_K3_THINK, false),
        template: TemplateForm::KimiK3,
    };

    /// Harmony: calls, results and reasoning all Harmony messages.
    const HARMONY: Style = Style {
        calls: CallForm::Json(&json::HARMONY),
        results: ResultForm::Harmony,
        reasoning: ReasoningForm::Harmony,
        template: TemplateForm::Harmony,
    };

    /// Muse: Harmony-like messages; each call a tool message holding one ATEM block, each
    /// result a `tool` message, reasoning a `to=self` message.
    const MUSE: Style = Style {
        calls: CallForm::Params(&params::MUSE),
        results: ResultForm::Muse,
        reasoning: ReasoningForm::Muse,
        template: TemplateForm::Muse,
    };

    /// Anthropic: invoke/parameter markup, `<function_results>`, the legacy transcript.
    const ANTHROPIC: Style = Style {
        calls: CallForm::Params(&params::ANTHROPIC),
        results: ResultForm::FunctionResults,
        reasoning: ReasoningForm::Delimited(&THINKING, true),
        template: TemplateForm::Legacy,
    };

    /// MiniMax: invoke/parameter markup, `<function_results>`, MiniMax's turns.
    const MINIMAX: Style = Style {
        calls: CallForm::Params(&params::MINIMAX),
        results: ResultForm::FunctionResults,
        reasoning: ReasoningForm::Delimited(&THINK, true),
        template: TemplateForm::Minimax,
    };

    /// MiniMax-M3: namespaced element markup, `<tool_response>`, `<mm:think>`, MiniMax-M2's
    /// turns (M3's turn tokens are not established, docs/dialects.md §minimax-m3).
    const MINIMAX_M3: Style = Style {
        calls: CallForm::Params(&params::MINIMAX_M3),
        results: ResultForm::ToolResponse,
        reasoning: ReasoningForm::Delimited(&MM_THINK, false),
        template: TemplateForm::Minimax,
    };

    /// Gemma 4: its literal syntax for calls and results, its own turns.
    const GEMMA: Style = Style {
        calls: CallForm::Literal(Literal::Gemma(&literal::GEMMA4)),
        results: ResultForm::Gemma,
        reasoning: ReasoningForm::Gemma,
        template: TemplateForm::Gemma,
    };

    /// FunctionGemma: Gemma 4's literal calls and results with its own tokens, no
    /// reasoning, Gemma 3's turns.
    const FUNCTIONGEMMA: Style = Style {
        calls: CallForm::Literal(Literal::Gemma(&literal::FUNCTIONGEMMA)),
        results: ResultForm::FunctionGemma,
        reasoning: ReasoningForm::None,
        template: TemplateForm::FunctionGemma,
    };

    /// MiniCPM 5: bare `<function>` elements, `<think>` reasoning, ChatML turns with the
    /// results in a user turn of `<tool_response>` blocks (not established, docs/dialects.md
    /// §minicpm5).
    const MINICPM5: Style = Style {
        calls: CallForm::Params(&params::MINICPM5),
        results: ResultForm::ToolResponse,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::ChatMl(ChatMl {
            results_role: "user",
            results_end: "",
        }),
    };

    /// Mistral: the v11+ calls `[TOOL_CALLS]NAME[ARGS]{…}` (what current models write; the
    /// scanner reads the older array too), `[THINK]` reasoning, `[INST]` turns.
    const MISTRAL: Style = Style {
        calls: CallForm::Json(&json::MISTRAL),
        results: ResultForm::Mistral,
        reasoning: ReasoningForm::Delimited(&MISTRAL_THINK, false),
        template: TemplateForm::Mistral,
    };

    /// Gemini: a Python call in a `tool_code` fence, results in `tool_outputs` fences.
    const GEMINI: Style = Style {
        calls: CallForm::Literal(Literal::Gemini),
        results: ResultForm::Gemini,
        reasoning: ReasoningForm::Gemini,
        template: TemplateForm::Gemini,
    };

    /// Pythonic: Olmo 3's `<function_calls>` lines (read wherever they stand), `<think>`
    /// reasoning, ChatML with each result an `environment` turn of its own (Olmo 3).
    const PYTHONIC: Style = Style {
        calls: CallForm::Literal(Literal::Pythonic),
        results: ResultForm::Environment,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::ChatMl(ChatMl {
            results_role: "",
            results_end: "",
        }),
    };

    /// LFM2: a Python list between its call tokens, `<think>` reasoning, ChatML with the
    /// results in one `tool` turn.
    const LFM2: Style = Style {
        calls: CallForm::Literal(Literal::Lfm2),
        results: ResultForm::Lfm2,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::ChatMl(ChatMl {
            results_role: "tool",
            results_end: "",
        }),
    };

    /// Llama 3 JSON: the calls after `<|python_tag|>`, `<think>` reasoning (fine-tunes),
    /// Llama 3 header turns with each result an `ipython` turn.
    const LLAMA3_JSON: Style = Style {
        calls: CallForm::Json(&json::LLAMA3_JSON),
        results: ResultForm::Ipython,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::Llama3,
    };

    /// xLAM: the calls' array in `<tool_call>` tags, `<think>` reasoning, Llama 3 header
    /// turns with each result an `ipython` turn (Llama-xLAM-2, the Llama-based models).
    const XLAM: Style = Style {
        calls: CallForm::Json(&json::XLAM),
        results: ResultForm::Ipython,
        reasoning: ReasoningForm::Delimited(&THINK, false),
        template: TemplateForm::Llama3,
    };

    /// The style `dialect` writes in.
    pub(super) fn of(dialect: Dialect) -> Style {
        match dialect {
            Dialect::Hermes => Style::HERMES,
            Dialect::Qwen3 => Style::QWEN3,
            Dialect::Jamba => Style::JAMBA,
            Dialect::Granite => Style::GRANITE,
            Dialect::Internlm => Style::INTERNLM,
            Dialect::Glm => Style::GLM,
            Dialect::Qwen3Coder => Style::QWEN3_CODER,
            Dialect::Longcat => Style::LONGCAT,
            Dialect::SeedOss => Style::SEED_OSS,
            Dialect::Kimi => Style::KIMI,
            Dialect::Deepseek => Style::DEEPSEEK,
            Dialect::Harmony => Style::HARMONY,
            Dialect::Xml => Style::XML,
            Dialect::Anthropic => Style::ANTHROPIC,
            Dialect::Minimax => Style::MINIMAX,
            Dialect::Gemma => Style::GEMMA,
            Dialect::FunctionGemma => Style::FUNCTIONGEMMA,
            Dialect::Minicpm5 => Style::MINICPM5,
            Dialect::Gemini => Style::GEMINI,
            Dialect::Mistral => Style::MISTRAL,
            Dialect::Pythonic => Style::PYTHONIC,
            Dialect::Lfm2 => Style::LFM2,
            Dialect::Llama3Json => Style::LLAMA3_JSON,
            Dialect::Xlam => Style::XLAM,
            Dialect::Phi4Mini => Style::PHI4_MINI,
            Dialect::HunyuanA13b => Style::HUNYUAN_A13B,
            Dialect::Hunyuan => Style::HUNYUAN,
            Dialect::IquestQ1 => Style::IQUEST_Q1,
            Dialect::K2Horizon => Style::K2_HORIZON,
            Dialect::Cohere => Style::COHERE,
            Dialect::Apertus => Style::APERTUS,
            Dialect::DeepseekV41 => Style::DEEPSEEK_V41,
            Dialect::KimiK3 => Style::KIMI_K3,
            Dialect::Dots => Style::DOTS,
            Dialect::Gigachat3 => Style::GIGACHAT3,
            Dialect::Plamo3 => Style::PLAMO3,
            Dialect::Ernie45 => Style::ERNIE45,
            Dialect::Granite20bFc => Style::GRANITE_20B_FC,
            Dialect::Muse => Style::MUSE,
            Dialect::Mimo => Style::MIMO,
            Dialect::Step3 => Style::STEP3,
            Dialect::Gigachat35 => Style::GIGACHAT35,
            Dialect::MinimaxM3 => Style::MINIMAX_M3,
            // A dialect added to the scanner after this crate (the enum is non-exhaustive):
            // the generic markup, as select::FALLBACK prompts unknown models.
            _ => Style::XML,
        }
    }
}
