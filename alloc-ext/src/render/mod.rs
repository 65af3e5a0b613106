//! The encoding side: tool calls, tool results, reasoning and whole transcripts written in
//! a dialect, so that the dialect's scanner reads them back as the same calls (render →
//! scan is the identity), and history re-encoding for text-only endpoints.
//!
//! ## Overview
//!
//! - [`Renderer`]: one dialect's writer. [`Renderer::call`] one call,
//!   [`Renderer::calls`] an assistant turn's calls in the dialect's envelope,
//!   [`Renderer::results`] a run of tool results, [`Renderer::reasoning`] a reasoning
//!   block, [`Renderer::transcript`] a conversation in the model's chat template text,
//!   [`Renderer::history`] native tool-call messages turned into text messages.
//! - [`Message`], [`Assistant`], [`Call`], [`ToolResult`]: the caller's conversation,
//!   deserializable from OpenAI-like JSON; the tools are the assembler's
//!   [`crate::tools::ToolSet`].
//! - [`RenderError`], [`Reason`]: what cannot be written, and where.
//!
//! Dialects share shapes, and so do their writers: JSON in tags (hermes, qwen3, longcat), JSON
//! between special tokens (kimi, deepseek), Harmony messages, raw-text parameters (xml,
//! anthropic, minimax, qwen3-coder, seed-oss; glm's key and value tags),
//! literal syntaxes (gemma, gemini); ChatML transcripts (hermes, qwen3), the legacy
//! `Human:`/`Assistant:` transcript (xml). Each dialect is a table of those
//! shapes, one per thing it writes; adding a dialect of a known shape is a few lines.
//!
//! Values are written raw, never entity-escaped (docs/dialects.md rule 11). JSON is compact,
//! in the caller's key order. Sources: docs/seed.md §1.10, §2.x (a)–(f), §4.4;
//! docs/dialects.md for the chat templates.
//!
//! ## Example: a call in two dialects
//!
//! ```
//! use inband::Dialect;
//! use inband_alloc::render::{Call, Renderer};
//!
//! let call = Call::new("read", serde_json::from_str(r#"{"path": "a.rs"}"#)?);
//! let hermes = Renderer::new(Dialect::Hermes);
//! assert_eq!(
//!     hermes.call(&call)?,
//!     "<tool_call>\n{\"name\":\"read\",\"arguments\":{\"path\":\"a.rs\"}}\n</tool_call>"
//! );
//! let xml = Renderer::new(Dialect::Xml);
//! assert_eq!(
//!     xml.call(&call)?,
//!     "<invoke name=\"read\">\n<parameter name=\"path\">a.rs</parameter>\n</invoke>"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod depth;
mod error;
mod json;
mod literal;
mod message;
mod params;
mod reasoning;
mod results;
mod text;
mod transcript;
pub(crate) mod unique;

pub use error::{Reason, RenderError};
pub use message::{Assistant, Call, Message, ToolResult};

use inband::Dialect;

use crate::tools::ToolSet;

use self::json::JsonCalls;
use self::literal::Literal;
use self::params::ParamCalls;
use self::reasoning::{ReasoningForm, APERTUS_INNER, COHERE_THINK, MISTRAL_THINK, THINK, THINKING};
use self::results::ResultForm;
use self::transcript::{ChatMl, TemplateForm};

/// How a dialect writes calls.
#[derive(Debug, Clone, Copy)]
enum CallForm {
    /// A JSON body in tags or tokens (hermes, qwen3, longcat, kimi, deepseek, harmony).
    Json(&'static JsonCalls),
    /// Raw-text parameters in tags (xml, anthropic, minimax, qwen3-coder, seed-oss, dots, glm,
    /// hunyuan, iquest-q1, k2-horizon).
    Params(&'static ParamCalls),
    /// A literal syntax (gemma, gemini).
    Literal(Literal),
}

/// A dialect's writer: one form per thing it writes.
#[derive(Debug, Clone, Copy)]
struct Style {
    calls: CallForm,
    results: ResultForm,
    reasoning: ReasoningForm,
    template: TemplateForm,
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
        reasoning: ReasoningForm::Delimited(&self::reasoning::GLM_THINK, false),
        template: TemplateForm::Glm,
    };

    /// Hunyuan Hy3 / HY4: glm's key and value tags with Hunyuan's `:opensource` suffix in a
    /// section, `<think:opensource>` reasoning, Hunyuan's turns.
    const HUNYUAN: Style = Style {
        calls: CallForm::Params(&params::HUNYUAN),
        results: ResultForm::Hunyuan,
        reasoning: ReasoningForm::Delimited(&self::reasoning::HUNYUAN_THINK, false),
        template: TemplateForm::Hunyuan,
    };

    /// IQuest Q1: glm's key and value tags in its own block, `<think>` reasoning, IQuest's
    /// turns with the results in a user turn.
    const IQUEST_Q1: Style = Style {
        calls: CallForm::Params(&params::IQUEST_Q1),
        results: ResultForm::ToolResponse,
        reasoning: ReasoningForm::Delimited(&self::reasoning::IQUEST_THINK, false),
        template: TemplateForm::Iquest,
    };

    /// K2 Horizon: glm's key and value tags with IFM's `ifm|` tags in a section,
    /// `<ifm|think>` reasoning, ChatML turns with `ifm|` tokens, each result a `tool` turn.
    const K2_HORIZON: Style = Style {
        calls: CallForm::Params(&params::K2_HORIZON),
        results: ResultForm::Ifm,
        reasoning: ReasoningForm::Delimited(&self::reasoning::IFM_THINK, false),
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
        reasoning: ReasoningForm::Delimited(&self::reasoning::LONGCAT_THINK, false),
        template: TemplateForm::Longcat,
    };

    /// Seed-OSS: raw-text parameters, `<seed:think>` reasoning, each tool result a turn.
    const SEED_OSS: Style = Style {
        calls: CallForm::Params(&params::SEED_OSS),
        results: ResultForm::SeedOss,
        reasoning: ReasoningForm::Delimited(&self::reasoning::SEED_THINK, false),
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

    /// Harmony: calls, results and reasoning all Harmony messages.
    const HARMONY: Style = Style {
        calls: CallForm::Json(&json::HARMONY),
        results: ResultForm::Harmony,
        reasoning: ReasoningForm::Harmony,
        template: TemplateForm::Harmony,
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

    /// Gemma 4: its literal syntax for calls and results, its own turns.
    const GEMMA: Style = Style {
        calls: CallForm::Literal(Literal::Gemma),
        results: ResultForm::Gemma,
        reasoning: ReasoningForm::Gemma,
        template: TemplateForm::Gemma,
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
    fn of(dialect: Dialect) -> Style {
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
            Dialect::Dots => Style::DOTS,
            Dialect::Gigachat3 => Style::GIGACHAT3,
            Dialect::Plamo3 => Style::PLAMO3,
            // A dialect added to the scanner after this crate (the enum is non-exhaustive):
            // the generic markup, as select::FALLBACK prompts unknown models.
            _ => Style::XML,
        }
    }
}

/// Writes calls, results, reasoning and transcripts in one dialect.
///
/// Every method is a pure function of its input: the same input gives the same bytes
/// (prompt caches depend on it). Errors say which item and which argument cannot be
/// written; nothing partial is returned.
#[derive(Debug, Clone, Copy)]
pub struct Renderer<'t> {
    dialect: Dialect,
    style: Style,
    tools: Option<&'t ToolSet>,
}

impl Renderer<'static> {
    /// The renderer of `dialect`, without tools (see [`Renderer::with_tools`]). Every
    /// dialect of [`Dialect::ALL`] has its own writer; a variant added to the scanner after
    /// this crate (the enum is non-exhaustive) is written as the generic `xml` markup.
    pub fn new(dialect: Dialect) -> Self {
        Renderer {
            dialect,
            style: Style::of(dialect),
            tools: None,
        }
    }
}

impl<'t> Renderer<'t> {
    /// The same renderer, knowing the tools, for an assembler given the same tools: in the
    /// raw-text dialects (xml, anthropic, minimax, qwen3-coder, seed-oss, glm) each value is
    /// written as the first text that the assembler's rule-8 typing of its parameter
    /// ([`Tool::parameter_types`](crate::tools::Tool::parameter_types)) reads back as that
    /// value: a string raw (even one that reads as JSON, for a string-only parameter), else
    /// the value's compact JSON. A value no text of which reads back (`"5"` for an
    /// `integer` parameter, `5` for a string-only one) is refused
    /// ([`Reason::TypedDifferently`]). Without tools, a string that reads as JSON is written
    /// as a JSON string so that the untyped reading (JSON if it parses) gives it back.
    pub fn with_tools<'u>(self, tools: &'u ToolSet) -> Renderer<'u> {
        Renderer {
            dialect: self.dialect,
            style: self.style,
            tools: Some(tools),
        }
    }

    /// The dialect written.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Whether this dialect can write a call to a tool named `name` that its scanner reads
    /// back as that name: the checks of [`Renderer::call`] for the name (docs/dialects.md rule
    /// 9; at most [`inband::MAX_NAME`] bytes, no whitespace, control characters, quotes,
    /// backslash or `<` `>`; Gemini: a Python identifier of at most 116 bytes; Gemma:
    /// without `{ } [ ] ( ) , =`; the markup dialects: a tag of at most
    /// [`inband::MAX_TAG`] bytes).
    ///
    /// # Errors
    /// [`Reason::InvalidName`] with the form the dialect allows; `index` 0, `name` the name.
    pub fn check_name(&self, name: &str) -> Result<(), RenderError> {
        self.call(&Call::new(name, serde_json::Map::new()))
            .map(drop)
    }

    /// One call, without the envelope of a turn (a section or wrapper): the block an
    /// example or a single-call prompt shows. Kimi numbers it 0. In a dialect whose calls
    /// are the elements of one block's array (jamba) the call is that block's one element.
    ///
    /// # Errors
    /// When a name, key or value cannot be written (see [`Reason`]); `index` is 0.
    pub fn call(&self, call: &Call) -> Result<String, RenderError> {
        if let CallForm::Json(form) = self.style.calls {
            if form.list {
                return form.render_all(core::slice::from_ref(call));
            }
        }
        let mut out = String::new();
        self.write_call(&mut out, call, 0, false)
            .map_err(|e| e.at(0, &call.name))?;
        Ok(out)
    }

    /// An assistant turn's calls in the dialect's envelope (Kimi's and DeepSeek's
    /// sections, a Gemini list in one fence, …); `""` for no calls. Kimi numbers calls by
    /// their position, `functions.NAME:IDX`, unless a call's id already has that form
    /// for its name (docs/seed.md §4.4, Kimi note).
    ///
    /// # Errors
    /// When a name, key or value cannot be written; `index` is the call's position.
    pub fn calls(&self, calls: &[Call]) -> Result<String, RenderError> {
        if calls.is_empty() {
            return Ok(String::new());
        }
        match self.style.calls {
            CallForm::Json(form) => form.render_all(calls),
            CallForm::Params(form) => form.render_all(calls, self.tools),
            CallForm::Literal(form) => form.render_all(calls),
        }
    }

    /// A run of tool results in the order given, as the dialect carries them back to the
    /// model. Names and ids appear where the dialect has them (Kimi's `## Return of
    /// functions.NAME:IDX`, Harmony's `functions.NAME` author, Gemma's `response:NAME`);
    /// `is_error` only where the dialect has an error form (Gemma's `error` key); other
    /// dialects carry the text alone.
    ///
    /// # Errors
    /// A result's text that would leave its block ([`Reason::CloserInResult`]: the block's
    /// closer; [`Reason::TemplateToken`] or [`Reason::DelimiterInText`]: a token of the
    /// chat template or a special token of the dialect, see the module `text` rules;
    /// [`Reason::InvalidName`]: a tool name that is not a name, in the dialects whose block
    /// writes it: kimi, harmony, gemma, anthropic, minimax);
    /// Gemma: a result's text, read as JSON, holds a string with `<|"|>`. `index` is the
    /// result's position in the run, `name` its tool's name.
    pub fn results(&self, results: &[ToolResult]) -> Result<String, RenderError> {
        for (i, result) in results.iter().enumerate() {
            self.check_result(result)
                .map_err(|e| e.at(i, &result.name))?;
        }
        self.style.results.render(results)
    }

    /// Refuses a result's text that would leave its block (see [`Renderer::results`]).
    pub(crate) fn check_result(&self, result: &ToolResult) -> Result<(), RenderError> {
        text::check_message(self.dialect, self.style.template, &result.content)?;
        self.style.results.check(result)?;
        if let transcript::TemplateForm::Minimax = self.style.template {
            text::check_result(&["</response>"], &result.content)?;
        }
        Ok(())
    }

    /// A reasoning block, `""` for empty text. The dialects that render with envelope
    /// unwrapping (hermes `<think>`, xml `<thinking>`) first remove envelopes already
    /// there (docs/seed.md §1.10): `<think>\n a \n</think>\n<think>b</think>` is written
    /// once, `<think>\na\nb\n</think>`.
    ///
    /// # Errors
    /// The text (after unwrapping) holds the reasoning closer, which would end the block
    /// early ([`Reason::CloserInReasoning`]), or another delimiter that the dialect's
    /// scanner acts on inside reasoning, so that it would not read the text back
    /// ([`Reason::DelimiterInText`]: `<|im_end|>` in hermes, Kimi's section tokens, …).
    pub fn reasoning(&self, text: &str) -> Result<String, RenderError> {
        self.style.reasoning.render(self.dialect, text)
    }

    /// A whole conversation in the model's chat template text (no generation prompt at
    /// the end).
    ///
    /// # Errors
    /// A message whose text would leave its block or turn (the chat template's tokens, a
    /// special token of the dialect, a result's block closer, assistant content that the
    /// dialect's scanner would not read back as that content: `index` is the message's
    /// position in the transcript); then the first call, result or reasoning block that
    /// cannot be written (`index` is the call's position in its turn, the result's in its
    /// run, `0` for reasoning).
    pub fn transcript(&self, messages: &[Message]) -> Result<String, RenderError> {
        transcript::render(self, messages)
    }

    /// History re-encoding (docs/seed.md §4.4): the conversation for a model that only
    /// speaks the dialect in text. An assistant message with calls becomes one with their
    /// text appended to its content after a newline (its reasoning is dropped: it belonged
    /// to the native turn); a run of tool results becomes one user message holding
    /// [`Renderer::results`]; other messages are kept as they are.
    ///
    /// # Errors
    /// As [`Renderer::calls`] and [`Renderer::results`].
    pub fn history(&self, messages: &[Message]) -> Result<Vec<Message>, RenderError> {
        let mut out = Vec::with_capacity(messages.len());
        let mut i = 0;
        while i < messages.len() {
            match &messages[i] {
                Message::Assistant(turn) if !turn.tool_calls.is_empty() => {
                    let rendered = self.calls(&turn.tool_calls)?;
                    let prose = turn.content.trim_end();
                    let content = if prose.is_empty() {
                        rendered
                    } else {
                        format!("{prose}\n{rendered}")
                    };
                    out.push(Message::Assistant(Assistant {
                        content,
                        reasoning: String::new(),
                        tool_calls: Vec::new(),
                    }));
                    i += 1;
                }
                Message::Tool(_) => {
                    let run = tool_run(messages, i);
                    i += run.len();
                    out.push(Message::User {
                        content: self.results(&run)?,
                    });
                }
                other => {
                    out.push(other.clone());
                    i += 1;
                }
            }
        }
        Ok(out)
    }

    /// One call into `out`; `index` is its position in the turn, `wrapped` whether the
    /// turn's envelope is around it.
    fn write_call(
        &self,
        out: &mut String,
        call: &Call,
        index: usize,
        wrapped: bool,
    ) -> Result<(), RenderError> {
        match self.style.calls {
            CallForm::Json(form) => form.write(out, call, index),
            CallForm::Params(form) => form.write(out, call, self.tools, wrapped),
            CallForm::Literal(form) => form.write(out, call),
        }
    }
}

/// The run of tool results from `messages[at]` on, in order, each named after its call.
fn tool_run(messages: &[Message], at: usize) -> Vec<ToolResult> {
    let earlier = messages.get(..at).unwrap_or_default();
    messages
        .get(at..)
        .unwrap_or_default()
        .iter()
        .map_while(|m| match m {
            Message::Tool(result) => Some(named(result.clone(), earlier)),
            _ => None,
        })
        .collect()
}

/// `result` with its tool's name: OpenAI's tool messages carry only the call's id, and
/// most dialects write the name, so it comes from the earlier call with that id.
fn named(mut result: ToolResult, earlier: &[Message]) -> ToolResult {
    if result.name.is_empty() && !result.tool_call_id.is_empty() {
        let call = earlier.iter().rev().find_map(|m| match m {
            Message::Assistant(turn) => {
                turn.tool_calls.iter().find(|c| c.id == result.tool_call_id)
            }
            _ => None,
        });
        if let Some(call) = call {
            result.name = call.name.clone();
        }
    }
    result
}
