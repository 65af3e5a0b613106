//! Tool results as each dialect carries them back to the model (docs/seed.md §1.10, §2.x d;
//! docs/dialects.md).

use serde_json::Value;

use super::error::{Reason, RenderError};
use super::json::{kimi_id, recipient};
use super::literal::gemma_value;
use super::message::ToolResult;
use super::unique::Unique;

/// How a dialect writes a run of tool results.
#[derive(Debug, Clone, Copy)]
pub(crate) enum ResultForm {
    /// `<tool_response>\nTEXT\n</tool_response>` per result, one per line (hermes, qwen3,
    /// xml, qwen3-coder, glm).
    ToolResponse,
    /// `<function_response> TEXT` per result, back to back after the calls' turn, no closer
    /// (vLLM's granite-20b-functioncalling template, docs/dialects.md §granite-20b-fc).
    FunctionResponse,
    /// `<tool_output>\nTEXT\n</tool_output>` per result, one per line (ERNIE 4.5's result
    /// tag; the layout is not established, docs/dialects.md §ernie45).
    ToolOutput,
    /// One system turn per result, `## Return of functions.NAME:IDX` first (Kimi).
    Kimi,
    /// `<｜tool▁output▁begin｜>TEXT<｜tool▁output▁end｜>` per result, one per line
    /// (DeepSeek V3.1).
    Deepseek,
    /// `<longcat_tool_response>\nTEXT\n</longcat_tool_response>` per result, one per line
    /// (LongCat, docs/dialects.md §longcat).
    Longcat,
    /// One `tool` turn per result, `<seed:bos>tool\nTEXT<seed:eos>`, back to back
    /// (Seed-OSS: its template writes every tool message as a turn of its own).
    SeedOss,
    /// One turn per result, `<|start_of_role|>tool_response<|end_of_role|>TEXT<|end_of_text|>`,
    /// one per line (Granite 3, docs/dialects.md §granite).
    Granite,
    /// One `tool` turn per result, `<|tool|>\nTEXT<|end|>`, one per line (Phi-4-mini,
    /// docs/dialects.md §phi4-mini).
    Phi4Mini,
    /// `<tool_response>TEXT</tool_response>` per result, back to back, in one results turn
    /// (Hunyuan-A13B, docs/dialects.md §hunyuan-a13b).
    HunyuanA13b,
    /// One `environment` turn per result, `<|im_start|>environment name=<|plugin|>\nTEXT
    /// <|im_end|>`, one per line (InternLM, docs/dialects.md §internlm).
    Internlm,
    /// One `<|START_TOOL_RESULT|>[…]<|END_TOOL_RESULT|>` block for the run, a
    /// `{"tool_call_id": "I", "results": {"0": {"content": TEXT}}, "is_error": null}`
    /// element per result, `I` its position in the run, the text a JSON string (Cohere,
    /// docs/dialects.md §cohere).
    Cohere,
    /// One JSON array for the run, each result's text as the JSON value it is (a JSON
    /// string for other text), on a line of its own inside the assistant turn that made
    /// the calls (Apertus, docs/dialects.md §apertus).
    Apertus,
    /// One `function result` message per result, `function result<|role_sep|>\nTEXT
    /// <|message_sep|>\n\n`, back to back (GigaChat 3, docs/dialects.md §gigachat3).
    Gigachat3,
    /// `[TOOL_RESULTS]TEXT[/TOOL_RESULTS]` per result, back to back (Mistral's v11+
    /// templates, docs/dialects.md §mistral).
    Mistral,
    /// One `ipython` turn per result, `<|start_header_id|>ipython<|end_header_id|>\n\nTEXT
    /// <|eot_id|>`, back to back (Llama 3, docs/dialects.md §llama3-json; Llama-xLAM-2).
    Ipython,
    /// A message from `functions.NAME` to the assistant per result (Harmony).
    Harmony,
    /// A `tool` message per result, `<|start|>tool NAME<|message|><tool_output
    /// name="NAME">\nTEXT\n</tool_output><|eot|>` (Muse, docs/dialects.md §muse).
    Muse,
    /// `<|tool_response>response:NAME{output:VALUE}<tool_response|>` per result, `error`
    /// instead of `output` for a failure (Gemma 4).
    Gemma,
    /// `<start_function_response>response:NAME{output:VALUE}<end_function_response>` per
    /// result, `error` for a failure (FunctionGemma: Gemma 4's form with its tokens and
    /// `<escape>` strings; Google's guide writes an object result's own keys, which no
    /// template text established, so the renderer keeps Gemma 4's `output` key).
    FunctionGemma,
    /// A ```` ```tool_outputs ```` fence per result, one per line (Gemini).
    Gemini,
    /// One ChatML `environment` turn per result, `<|im_start|>environment\nTEXT<|im_end|>`,
    /// one per line (Olmo 3, the `pythonic` dialect's transcript).
    Environment,
    /// `<|tool_response_start|>TEXT<|tool_response_end|>` per result, back to back, in
    /// one `tool` turn (LFM2).
    Lfm2,
    /// One `<tool_responses:opensource>` block for the run, a
    /// `<tool_response:opensource>\nTEXT\n</tool_response:opensource>` per result, one per
    /// line (Hunyuan Hy3 / HY4, docs/dialects.md §hunyuan).
    Hunyuan,
    /// One `tool` turn per result, `<|ifm|im_start|>tool\nTEXT<|ifm|im_end|>`, back to back
    /// (K2 Horizon, docs/dialects.md §k2-horizon).
    Ifm,
    /// One `tool_response` turn per result, `<|BOT|>tool_response\nTEXT<|EOT|>`, back to back
    /// (Step-3, docs/dialects.md §step3: the role is the template's, the layout not
    /// established).
    Step3,
    /// One `function result` turn per result, `function result<|role_sep|>\nTEXT
    /// <|message_sep|>\n\n`, back to back (GigaChat 3's turns, the closest established
    /// for GigaChat 3.5: docs/dialects.md §gigachat35).
    Gigachat,
    /// One `<function_results>` block for the run, a `<result>` per result with the
    /// tool's name and `<stdout>`, `<error>` and `<stderr>` for a failure (anthropic,
    /// minimax: docs/seed.md §2.4 d, §2.6 d).
    FunctionResults,
}

impl ResultForm {
    /// Refuses a result this form cannot write inside its block: a tool name that is not
    /// a name (rule 9: it is written raw where the form names the tool, and `<` `>` in it
    /// could write a token), a text that holds the block's closer.
    pub(crate) fn check(self, result: &ToolResult) -> Result<(), RenderError> {
        let named = matches!(
            self,
            ResultForm::Kimi
                | ResultForm::Harmony
                | ResultForm::Muse
                | ResultForm::Gemma
                | ResultForm::FunctionGemma
                | ResultForm::FunctionResults
        );
        if named && !result.name.is_empty() {
            super::json::check_name(&result.name)?;
        }
        self.check_text(&result.content)
    }

    /// Refuses `text` when it holds the closer of this form's block.
    fn check_text(self, text: &str) -> Result<(), RenderError> {
        let closers: &[&'static str] = match self {
            ResultForm::ToolResponse => &["</tool_response>"],
            ResultForm::ToolOutput => &["</tool_output>"],
            // No closer: the next turn's prefix ends a result.
            ResultForm::FunctionResponse => &["\nASSISTANT:", "\nUSER:"],
            ResultForm::Kimi => &["<|im_end|>"],
            ResultForm::Deepseek => &["<｜tool▁output▁end｜>", "<｜tool▁outputs▁end｜>"],
            ResultForm::SeedOss => &["<seed:eos>"],
            ResultForm::Granite => &["<|end_of_text|>"],
            ResultForm::Phi4Mini => &["<|end|>"],
            ResultForm::HunyuanA13b => &["</tool_response>"],
            ResultForm::Cohere => &["<|END_TOOL_RESULT|>", "<|END_OF_TURN_TOKEN|>"],
            ResultForm::Apertus => &["<|assistant_end|>"],
            ResultForm::Gigachat3 => &["<|message_sep|>", "</s>"],
            ResultForm::Internlm => &["<|im_end|>"],
            ResultForm::Mistral => &["[/TOOL_RESULTS]", "</s>"],
            ResultForm::Ipython => &["<|eot_id|>"],
            ResultForm::Longcat => &["</longcat_tool_response>"],
            ResultForm::Harmony => &["<|end|>", "<|start|>"],
            ResultForm::Muse => &["</tool_output>", "<|eot|>", "<|eom|>", "<|start|>"],
            ResultForm::Gemma => &["<tool_response|>"],
            ResultForm::FunctionGemma => &["<end_function_response>"],
            ResultForm::Environment => &["<|im_end|>"],
            ResultForm::Lfm2 => &["<|tool_response_end|>", "<|im_end|>"],
            ResultForm::Hunyuan => &[
                "</tool_response:opensource>",
                "</tool_responses:opensource>",
            ],
            ResultForm::Ifm => &["<|ifm|im_end|>", "<|ifm|im_start|>"],
            ResultForm::Step3 => &["<|EOT|>", "<|BOT|>"],
            ResultForm::Gigachat => &["<|message_sep|>", "<|role_sep|>"],
            ResultForm::Gemini => {
                return super::reasoning::check_fenced(text)
                    .map_err(|_| RenderError::new(Reason::CloserInResult("```")));
            }
            ResultForm::FunctionResults => &[
                "</stdout>",
                "</stderr>",
                "</result>",
                "</error>",
                "</function_results>",
            ],
        };
        super::text::check_result(closers, text)
    }

    /// The run, in order.
    pub(crate) fn render(self, results: &[ToolResult]) -> Result<String, RenderError> {
        let mut out = String::new();
        if results.is_empty() {
            return Ok(out);
        }
        let (open, close) = match self {
            ResultForm::FunctionResults => ("<function_results>\n", "\n</function_results>"),
            ResultForm::Hunyuan => (
                "<tool_responses:opensource>\n",
                "\n</tool_responses:opensource>",
            ),
            ResultForm::Cohere => ("<|START_TOOL_RESULT|>[", "]<|END_TOOL_RESULT|>"),
            ResultForm::Apertus => ("[", "]"),
            _ => ("", ""),
        };
        out.push_str(open);
        for (i, result) in results.iter().enumerate() {
            self.write(&mut out, result, i, None)
                .map_err(|e| e.at(i, &result.name))?;
        }
        out.push_str(close);
        Ok(out)
    }

    /// One result, the `index`-th of its run (inside the run's block, for
    /// [`ResultForm::FunctionResults`]); `id` is the Kimi call id when the caller
    /// knows which one the call was given.
    pub(crate) fn write(
        self,
        out: &mut String,
        result: &ToolResult,
        index: usize,
        id: Option<&str>,
    ) -> Result<(), RenderError> {
        let text = &result.content;
        if let Some(wrap) = self.wrap() {
            if wrap.separated && index > 0 {
                out.push('\n');
            }
            out.push_str(wrap.open);
            out.push_str(text);
            out.push_str(wrap.close);
            return Ok(());
        }
        match self {
            ResultForm::Kimi => write_kimi(out, result, index, id),
            ResultForm::Harmony => {
                out.push_str("<|start|>");
                out.push_str(&recipient(&result.name));
                out.push_str(" to=assistant<|channel|>commentary<|message|>");
                out.push_str(text);
                out.push_str("<|end|>");
            }
            ResultForm::Muse => {
                let (author, attribute) = if result.name.is_empty() {
                    (String::new(), String::new())
                } else {
                    (
                        format!(" {}", result.name),
                        format!(" name=\"{}\"", result.name),
                    )
                };
                out.push_str(&format!(
                    "<|start|>tool{author}<|message|><tool_output{attribute}>\n{text}\n</tool_output><|eot|>"
                ));
            }
            ResultForm::Gemma => write_gemma(out, result, &GEMMA4_RESULT)?,
            ResultForm::FunctionGemma => write_gemma(out, result, &FUNCTIONGEMMA_RESULT)?,
            ResultForm::Apertus => {
                if index > 0 {
                    out.push_str(", ");
                }
                // A JSON result is written as the value it is (the format's `[4]`), other
                // text as a string; a repeated key keeps the text (as Gemma's results).
                match serde_json::from_str::<Unique>(text) {
                    Ok(value) => out.push_str(&super::json::compact(&value.0)),
                    Err(_) => out.push_str(&super::json::compact(text)),
                }
            }
            ResultForm::Cohere => {
                if index > 0 {
                    out.push_str(", ");
                }
                let error = if result.is_error { "true" } else { "null" };
                out.push_str(&format!(
                    "{{\"tool_call_id\":\"{index}\",\"results\":{{\"0\":{{\"content\":{}}}}},\"is_error\":{error}}}",
                    super::json::compact(text)
                ));
            }
            ResultForm::FunctionResults => {
                if index > 0 {
                    out.push('\n');
                }
                let (element, stream) = if result.is_error {
                    ("error", "stderr")
                } else {
                    ("result", "stdout")
                };
                out.push_str(&format!(
                    "<{element}>\n<tool_name>{}</tool_name>\n<{stream}>{text}</{stream}>\n</{element}>",
                    result.name
                ));
            }
            // The forms that wrap the text, written above.
            _ => {}
        }
        Ok(())
    }

    /// The fixed text around each result, for a form that only wraps it.
    fn wrap(self) -> Option<Wrap> {
        let (separated, open, close) = match self {
            ResultForm::ToolResponse => (true, "<tool_response>\n", "\n</tool_response>"),
            ResultForm::ToolOutput => (true, "<tool_output>\n", "\n</tool_output>"),
            ResultForm::FunctionResponse => (false, "<function_response> ", ""),
            ResultForm::Deepseek => (true, "<｜tool▁output▁begin｜>", "<｜tool▁output▁end｜>"),
            ResultForm::Longcat => (
                true,
                "<longcat_tool_response>\n",
                "\n</longcat_tool_response>",
            ),
            ResultForm::Internlm => (
                true,
                "<|im_start|>environment name=<|plugin|>\n",
                "<|im_end|>",
            ),
            ResultForm::Granite => (
                true,
                "<|start_of_role|>tool_response<|end_of_role|>",
                "<|end_of_text|>",
            ),
            ResultForm::Phi4Mini => (true, "<|tool|>\n", "<|end|>"),
            ResultForm::HunyuanA13b => (false, "<tool_response>", "</tool_response>"),
            ResultForm::SeedOss => (false, "<seed:bos>tool\n", "<seed:eos>"),
            ResultForm::Mistral => (false, "[TOOL_RESULTS]", "[/TOOL_RESULTS]"),
            ResultForm::Gigachat3 => (
                false,
                "function result<|role_sep|>\n",
                "<|message_sep|>\n\n",
            ),
            ResultForm::Ipython => (
                false,
                "<|start_header_id|>ipython<|end_header_id|>\n\n",
                "<|eot_id|>",
            ),
            ResultForm::Gemini => (true, "```tool_outputs\n", "\n```"),
            ResultForm::Environment => (true, "<|im_start|>environment\n", "<|im_end|>"),
            ResultForm::Lfm2 => (false, "<|tool_response_start|>", "<|tool_response_end|>"),
            ResultForm::Hunyuan => (
                true,
                "<tool_response:opensource>\n",
                "\n</tool_response:opensource>",
            ),
            ResultForm::Ifm => (false, "<|ifm|im_start|>tool\n", "<|ifm|im_end|>"),
            ResultForm::Step3 => (false, "<|BOT|>tool_response\n", "<|EOT|>"),
            ResultForm::Gigachat => (
                false,
                "function result<|role_sep|>\n",
                "<|message_sep|>\n\n",
            ),
            _ => return None,
        };
        Some(Wrap {
            separated,
            open,
            close,
        })
    }
}

/// The text around each result of a form that only wraps it.
struct Wrap {
    /// Results after the first begin on a line of their own.
    separated: bool,
    /// Written before the result's text.
    open: &'static str,
    /// Written after it.
    close: &'static str,
}

/// A Kimi result: a system turn from the tool, `## Return of ID` first (the call's id, or
/// the one the `index`-th call was given).
fn write_kimi(out: &mut String, result: &ToolResult, index: usize, id: Option<&str>) {
    let id = id.map_or_else(
        || kimi_id(&result.tool_call_id, &result.name, index),
        str::to_owned,
    );
    let author = if result.name.is_empty() {
        "tool"
    } else {
        &result.name
    };
    out.push_str("<|im_system|>");
    out.push_str(author);
    out.push_str("<|im_middle|>## Return of ");
    out.push_str(&id);
    out.push('\n');
    out.push_str(&result.content);
    out.push_str("<|im_end|>");
}

/// A gemma-family result's tokens: the block's opener and closer, the string quote.
struct GemmaResult {
    open: &'static str,
    close: &'static str,
    quote: &'static str,
}

static GEMMA4_RESULT: GemmaResult = GemmaResult {
    open: "<|tool_response>",
    close: "<tool_response|>",
    quote: "<|\"|>",
};

static FUNCTIONGEMMA_RESULT: GemmaResult = GemmaResult {
    open: "<start_function_response>",
    close: "<end_function_response>",
    quote: "<escape>",
};

/// A gemma-family result: `response:NAME{output:VALUE}`, `error` for a failure, in the
/// dialect's `tokens`.
fn write_gemma(
    out: &mut String,
    result: &ToolResult,
    tokens: &GemmaResult,
) -> Result<(), RenderError> {
    let text = &result.content;
    // A JSON result is written as the value it is, other text as a string. A JSON object
    // that repeats a key is written as its text too: as a value it would keep one of the
    // two, which the tool may not have meant.
    let value =
        serde_json::from_str::<Unique>(text).map_or_else(|_| Value::String(text.clone()), |u| u.0);
    let key = if result.is_error { "error" } else { "output" };
    out.push_str(tokens.open);
    out.push_str("response:");
    out.push_str(&result.name);
    out.push('{');
    out.push_str(key);
    out.push(':');
    // The result is not an argument: the error names no argument.
    gemma_value(out, &value, "", tokens.quote).map_err(|mut e| {
        e.argument = None;
        e
    })?;
    out.push('}');
    out.push_str(tokens.close);
    Ok(())
}
