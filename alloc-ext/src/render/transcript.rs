//! Whole conversations in each model family's chat template text (docs/seed.md §1.10 and
//! §2.x f; docs/dialects.md for the real templates): system, user, assistant and
//! tool-result turns, without a generation prompt at the end.

mod turns;

use super::error::RenderError;
use super::message::{Assistant, Message, ToolResult};
use super::text::{check_content, check_message};
use super::Renderer;

mod dots;
mod gemma;
mod gigachat3;
mod keyvalue;
mod kimi;
mod kimi_k3;
mod legacy;
mod messages;
mod plain;
mod step3;
mod tokens;

use dots::dots;
use gemma::{gemma, FUNCTIONGEMMA_TURNS, GEMMA4_TURNS};
use gigachat3::{gigachat3, gigachat35};
use keyvalue::{glm, hunyuan, ifm, iquest};
use kimi::kimi;
use kimi_k3::kimi_k3;
use legacy::legacy;
use messages::{harmony, muse};
use plain::{granite_20b_fc, longcat};
use step3::step3;

/// A ChatML template (`<|im_start|>ROLE\nBODY<|im_end|>\n`, docs/dialects.md).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ChatMl {
    /// The role of the turn that carries tool results: `tool` (Hermes) or `user` (Qwen);
    /// empty where the result form writes each result as a turn of its own (InternLM).
    pub(crate) results_role: &'static str,
    /// After the run of results in their turn: `"\n"` where the template ends every
    /// `</tool_response>` with a line break (Qwen3-Coder, docs/dialects.md §qwen3-coder).
    pub(crate) results_end: &'static str,
}

/// How a dialect's model family lays out a conversation.
#[derive(Debug, Clone, Copy)]
pub(crate) enum TemplateForm {
    /// ChatML turns (hermes, qwen3, qwen3-coder).
    ChatMl(ChatMl),
    /// `\n\nHuman: …` / `\n\nAssistant: …` (xml, anthropic; docs/seed.md §1.10).
    Legacy,
    /// `]~!b[`, then `]~b]ROLE\nBODY[e~[\n` turns, the assistant's role `ai`; a run of
    /// results is one `]~b]tool` turn with a `<response>` per result (MiniMax-M2,
    /// docs/dialects.md §minimax).
    Minimax,
    /// `<|im_ROLE|>NAME<|im_middle|>BODY<|im_end|>` (Kimi K2).
    Kimi,
    /// `<｜begin▁of▁sentence｜>`, `<｜User｜>`, `<｜Assistant｜>…<｜end▁of▁sentence｜>`
    /// (DeepSeek V3.1).
    Deepseek,
    /// `<|start|>ROLE…<|message|>…<|end|>` messages (gpt-oss).
    Harmony,
    /// `<|start|>ROLE<|message|>TEXT<|eot|>` turns; the assistant's messages
    /// `<|start|>assistant to=RECIPIENT<|message|>…`, each result a `tool` message (Muse,
    /// docs/dialects.md §muse).
    Muse,
    /// `<bos><|turn>ROLE\n…<turn|>\n`, results inside the model turn (Gemma 4).
    Gemma,
    /// `<bos><start_of_turn>ROLE\n…<end_of_turn>\n`, the system text a `developer` turn,
    /// results inside the model turn (FunctionGemma, docs/dialects.md §functiongemma).
    FunctionGemma,
    /// `<bos><start_of_turn>ROLE\n…<end_of_turn>\n`, no system role (Gemma 3 / Gemini).
    Gemini,
    /// `[gMASK]<sop>`, then `<|ROLE|>\nBODY` turns without an end token; a run of results
    /// is one `<|observation|>` turn (GLM-4.5/4.6, docs/dialects.md §glm; docs/seed.md §2.1 f).
    Glm,
    /// `<｜hy_begin_of_sentence:opensource｜>`, the system text, then
    /// `<｜hy_User:opensource｜>USER` and `<｜hy_Assistant:opensource｜>BODY<｜hy_eos:opensource｜>`
    /// turns; a run of results is a user turn of one `<tool_responses:opensource>` block
    /// (Hunyuan Hy3 / HY4, docs/dialects.md §hunyuan).
    Hunyuan,
    /// `<|iquest_ROLE|>BODY<|iquest_end|>` turns back to back; a run of results is a user
    /// turn of `<tool_response>` blocks (IQuest Q1, docs/dialects.md §iquest-q1: the result
    /// turn's layout was not established from public material).
    Iquest,
    /// `<|ifm|begin_of_text|>`, then `<|ifm|im_start|>ROLE\nBODY<|ifm|im_end|>` turns back to
    /// back; each result a `tool` turn of its own (K2 Horizon, docs/dialects.md §k2-horizon).
    Ifm,
    /// `<seed:bos>ROLE\nBODY<seed:eos>` turns back to back; the assistant's turn is
    /// `<seed:bos>assistant`, then each of reasoning, content and calls after a line break;
    /// each result a `tool` turn of its own (Seed-OSS, docs/dialects.md §seed-oss).
    SeedOss,
    /// `<|system|>TEXT<|endofsystem|>`, `<|userprompt|>TEXT<|endofuserprompt|>`,
    /// `<|response|>BODY<|endofresponse|>` turns back to back; a run of results is a user turn
    /// of `<tool_response>` blocks (dots.llm1, docs/dialects.md §dots).
    Dots,
    /// `SYSTEM: TEXT`, then `\nUSER: TEXT` and `\nASSISTANT:BODY<|endoftext|>` turns; each
    /// result `<function_response> TEXT` after the calls' turn (vLLM's
    /// granite-20b-functioncalling template, docs/dialects.md §granite-20b-fc).
    Granite20bFc,
    /// `<|open|>message role="ROLE"<|sep|>BODY<|close|>message<|sep|>` turns back to back,
    /// an assistant's text in the `response` channel; a run of results one `tool` message
    /// of `<tool_response>` blocks (Kimi K3, not established: docs/dialects.md §kimi-k3).
    KimiK3,
    /// The system text as written, then `<|BOT|>ROLE\nBODY<|EOT|>` turns back to back; each
    /// result a `tool_response` turn of its own (Step-3, docs/dialects.md §step3).
    Step3,
    /// `ROLE<|role_sep|>\nBODY<|message_sep|>\n\n` turns back to back; each result a
    /// `function result` turn of its own (GigaChat 3's turns, the closest established for
    /// GigaChat 3.5, docs/dialects.md §gigachat35).
    Gigachat35,
    /// `SYSTEM:TEXT`, then rounds ` [Round N] USER:TEXT ASSISTANT:BODY</longcat_s>` from 0; a
    /// run of results is a round's user turn of `<longcat_tool_response>` blocks (LongCat-Flash,
    /// docs/dialects.md §longcat).
    Longcat,
    /// `<|start_of_role|>ROLE<|end_of_role|>BODY<|end_of_text|>` turns, one per line; each
    /// result a `tool_response` turn (Granite 3, docs/dialects.md §granite).
    Granite,
    /// `<|ROLE|>\nBODY<|end|>` turns, one per line; each result a `<|tool|>` turn (vLLM's
    /// Phi-4-mini template, docs/dialects.md §phi4-mini).
    Phi4Mini,
    /// `<|startoftext|>`, the system text ended by `<|extra_4|>`, `用户：TEXT<|extra_0|>`,
    /// the assistant's `BODY<|eos|>` (`助手：` before a text answer), a run of results
    /// `<tool_response>…</tool_response><|extra_0|>` (Hunyuan-A13B, docs/dialects.md
    /// §hunyuan-a13b).
    HunyuanA13b,
    /// `<BOS_TOKEN>`, then `<|START_OF_TURN_TOKEN|><|ROLE_TOKEN|>BODY<|END_OF_TURN_TOKEN|>`
    /// turns; the assistant's text answer in `<|START_RESPONSE|>…<|END_RESPONSE|>`, a run of
    /// results one `<|START_TOOL_RESULT|>` block in a system turn (Cohere Command R7B /
    /// Command A, docs/dialects.md §cohere).
    Cohere,
    /// `<s>`, then `<|ROLE_start|>BODY<|ROLE_end|>` turns, one per line; a run of results
    /// a JSON array inside the assistant turn that made the calls, which goes on after it
    /// (Apertus, docs/dialects.md §apertus).
    Apertus,
    /// `ROLE<|role_sep|>\nTEXT<|message_sep|>\n\n` messages; the calls `function call`
    /// messages after the assistant's, each result a `function result` message (GigaChat 3).
    Gigachat3,
    /// `<s>[SYSTEM_PROMPT]…[/SYSTEM_PROMPT][INST]USER[/INST]ASSISTANT</s>`, a run of results
    /// `[TOOL_RESULTS]…[/TOOL_RESULTS]` after the calls' turn (Mistral, docs/dialects.md
    /// §mistral).
    Mistral,
    /// `<|begin_of_text|>`, then `<|start_header_id|>ROLE<|end_header_id|>\n\nBODY<|eot_id|>`
    /// turns back to back; each result an `ipython` turn (Llama 3, docs/dialects.md
    /// §llama3-json; Llama-xLAM-2, §xlam).
    Llama3,
}

/// Refuses the first message whose text would leave its block (render/text.rs); the
/// error's `index` is the message's position in the transcript.
fn check_messages(renderer: &Renderer<'_>, messages: &[Message]) -> Result<(), RenderError> {
    let dialect = renderer.dialect;
    let template = renderer.style.template;
    for (i, message) in messages.iter().enumerate() {
        let checked = match message {
            Message::System { content }
            | Message::Developer { content }
            | Message::User { content } => check_message(dialect, template, content),
            Message::Assistant(turn) => check_message(dialect, template, &turn.content)
                .and_then(|()| check_message(dialect, template, &turn.reasoning))
                .and_then(|()| check_content(dialect, &turn.content)),
            Message::Tool(result) => renderer
                .check_result(result)
                .map_err(|e| e.at(i, &result.name)),
        };
        checked.map_err(|mut e| {
            e.index = i;
            e
        })?;
    }
    Ok(())
}

/// One turn of the conversation, with tool-result runs gathered.
enum Turn<'m> {
    System(&'m str),
    Developer(&'m str),
    User(&'m str),
    Assistant(&'m Assistant),
    Results(Vec<ToolResult>),
}

fn turns(messages: &[Message]) -> Vec<Turn<'_>> {
    let mut turns = Vec::new();
    let mut i = 0;
    while i < messages.len() {
        match &messages[i] {
            Message::System { content } => turns.push(Turn::System(content)),
            Message::Developer { content } => turns.push(Turn::Developer(content)),
            Message::User { content } => turns.push(Turn::User(content)),
            Message::Assistant(turn) => turns.push(Turn::Assistant(turn)),
            Message::Tool(_) => {
                let run = super::tool_run(messages, i);
                i += run.len();
                turns.push(Turn::Results(run));
                continue;
            }
        }
        i += 1;
    }
    turns
}

/// The conversation in `renderer`'s template.
pub(crate) fn render(renderer: &Renderer<'_>, messages: &[Message]) -> Result<String, RenderError> {
    if messages.is_empty() {
        return Ok(String::new());
    }
    check_messages(renderer, messages)?;
    let turns = turns(messages);
    let mut out = String::new();
    match renderer.style.template {
        TemplateForm::ChatMl(form) => chatml(renderer, &turns, &mut out, form)?,
        TemplateForm::Legacy => legacy(renderer, &turns, &mut out)?,
        TemplateForm::Kimi => kimi(renderer, &turns, &mut out)?,
        TemplateForm::Minimax => minimax(renderer, &turns, &mut out)?,
        TemplateForm::Deepseek => deepseek(renderer, &turns, &mut out)?,
        TemplateForm::Harmony => harmony(renderer, &turns, &mut out)?,
        TemplateForm::Muse => muse(renderer, &turns, &mut out)?,
        TemplateForm::Gemma => gemma(renderer, &turns, &mut out, &GEMMA4_TURNS)?,
        TemplateForm::FunctionGemma => gemma(renderer, &turns, &mut out, &FUNCTIONGEMMA_TURNS)?,
        TemplateForm::Gemini => gemini(renderer, &turns, &mut out)?,
        TemplateForm::Glm => glm(renderer, &turns, &mut out)?,
        TemplateForm::Hunyuan => hunyuan(renderer, &turns, &mut out)?,
        TemplateForm::Iquest => iquest(renderer, &turns, &mut out)?,
        TemplateForm::Ifm => ifm(renderer, &turns, &mut out)?,
        TemplateForm::Granite => granite(renderer, &turns, &mut out)?,
        TemplateForm::Phi4Mini => turns::phi4_mini(renderer, &turns, &mut out)?,
        TemplateForm::HunyuanA13b => turns::hunyuan_a13b(renderer, &turns, &mut out)?,
        TemplateForm::Cohere => turns::cohere(renderer, &turns, &mut out)?,
        TemplateForm::Apertus => turns::apertus(renderer, &turns, &mut out)?,
        TemplateForm::Longcat => longcat(renderer, &turns, &mut out)?,
        TemplateForm::SeedOss => seed_oss(renderer, &turns, &mut out)?,
        TemplateForm::Dots => dots(renderer, &turns, &mut out)?,
        TemplateForm::Granite20bFc => granite_20b_fc(renderer, &turns, &mut out)?,
        TemplateForm::KimiK3 => kimi_k3(renderer, &turns, &mut out)?,
        TemplateForm::Step3 => step3(renderer, &turns, &mut out)?,
        TemplateForm::Gigachat35 => gigachat35(renderer, &turns, &mut out)?,
        TemplateForm::Gigachat3 => gigachat3(renderer, &turns, &mut out)?,
        TemplateForm::Mistral => mistral(renderer, &turns, &mut out)?,
        TemplateForm::Llama3 => llama3(renderer, &turns, &mut out)?,
    }
    Ok(out)
}

/// ChatML turns.
fn chatml(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
    chatml: ChatMl,
) -> Result<(), RenderError> {
    for turn in turns {
        let (role, body) = match turn {
            Turn::System(text) | Turn::Developer(text) => ("system", text.to_string()),
            Turn::User(text) => ("user", text.to_string()),
            Turn::Assistant(turn) => ("assistant", body(renderer, turn, "\n\n")?),
            Turn::Results(run) if chatml.results_role.is_empty() => {
                out.push_str(&renderer.results(run)?);
                out.push('\n');
                continue;
            }
            Turn::Results(run) => (
                chatml.results_role,
                renderer.results(run)? + chatml.results_end,
            ),
        };
        out.push_str(&format!("<|im_start|>{role}\n{body}<|im_end|>\n"));
    }
    Ok(())
}

/// MiniMax turns.
fn minimax(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    out.push_str("]~!b[");
    for turn in turns {
        let (role, body) = match turn {
            Turn::System(text) | Turn::Developer(text) => ("system", text.to_string()),
            Turn::User(text) => ("user", text.to_string()),
            Turn::Assistant(turn) => ("ai", body(renderer, turn, "\n\n")?),
            Turn::Results(run) => (
                "tool",
                run.iter()
                    .map(|r| format!("\n<response>{}</response>", r.content))
                    .collect(),
            ),
        };
        // The tool turn's role has no line break of its own: each response begins
        // with one.
        let gap = if matches!(turn, Turn::Results(_)) {
            ""
        } else {
            "\n"
        };
        out.push_str(&format!("]~b]{role}{gap}{body}[e~[\n"));
    }
    Ok(())
}

/// DeepSeek turns.
fn deepseek(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    out.push_str("<｜begin▁of▁sentence｜>");
    for turn in turns {
        match turn {
            Turn::System(text) | Turn::Developer(text) => out.push_str(text),
            Turn::User(text) => out.push_str(&format!("<｜User｜>{text}")),
            Turn::Assistant(turn) => out.push_str(&format!(
                "<｜Assistant｜>{}<｜end▁of▁sentence｜>",
                body(renderer, turn, "\n\n")?
            )),
            Turn::Results(run) => out.push_str(&renderer.results(run)?),
        }
    }
    Ok(())
}

/// Granite 3 turns, each result a turn of its own.
fn granite(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    for turn in turns {
        let (role, body) = match turn {
            Turn::System(text) | Turn::Developer(text) => ("system", text.to_string()),
            Turn::User(text) => ("user", text.to_string()),
            Turn::Assistant(turn) => ("assistant", body(renderer, turn, "\n")?),
            // Each result is a turn of its own, written by the result form.
            Turn::Results(run) => {
                separate_line(out);
                out.push_str(&renderer.results(run)?);
                continue;
            }
        };
        separate_line(out);
        out.push_str(&format!(
            "<|start_of_role|>{role}<|end_of_role|>{body}<|end_of_text|>"
        ));
    }
    Ok(())
}

/// Mistral turns: the BOS, the system prompt in its tokens, each user turn in `[INST]`, each
/// assistant turn ended by `</s>`, results right after the turn that called them.
fn mistral(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    out.push_str("<s>");
    for turn in turns {
        match turn {
            Turn::System(text) | Turn::Developer(text) => {
                out.push_str(&format!("[SYSTEM_PROMPT]{text}[/SYSTEM_PROMPT]"));
            }
            Turn::User(text) => out.push_str(&format!("[INST]{text}[/INST]")),
            Turn::Assistant(turn) => {
                out.push_str(&body(renderer, turn, "")?);
                out.push_str("</s>");
            }
            Turn::Results(run) => out.push_str(&renderer.results(run)?),
        }
    }
    Ok(())
}

/// Llama 3 header turns, each result an `ipython` turn of its own.
fn llama3(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    out.push_str("<|begin_of_text|>");
    for turn in turns {
        let (role, body) = match turn {
            Turn::System(text) | Turn::Developer(text) => ("system", text.to_string()),
            Turn::User(text) => ("user", text.to_string()),
            Turn::Assistant(turn) => ("assistant", body(renderer, turn, "")?),
            // Each result is a turn of its own, written by the result form.
            Turn::Results(run) => {
                out.push_str(&renderer.results(run)?);
                continue;
            }
        };
        out.push_str(&format!(
            "<|start_header_id|>{role}<|end_header_id|>\n\n{body}<|eot_id|>"
        ));
    }
    Ok(())
}

/// Seed-OSS turns.
fn seed_oss(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    for turn in turns {
        match turn {
            Turn::System(text) | Turn::Developer(text) => {
                out.push_str(&format!("<seed:bos>system\n{text}<seed:eos>"));
            }
            Turn::User(text) => out.push_str(&format!("<seed:bos>user\n{text}<seed:eos>")),
            Turn::Assistant(turn) => {
                // The template writes each part after a line break, the calls
                // each after one of their own (the blocks' separator).
                out.push_str("<seed:bos>assistant");
                let reasoning = renderer.reasoning(&turn.reasoning)?;
                let calls = renderer.calls(&turn.tool_calls)?;
                for part in [reasoning.as_str(), turn.content.as_str()] {
                    if !part.is_empty() {
                        out.push('\n');
                        out.push_str(part);
                    }
                }
                if !calls.is_empty() {
                    if !turn.content.is_empty() {
                        out.push('\n');
                    }
                    out.push('\n');
                    out.push_str(&calls);
                }
                out.push_str("<seed:eos>");
            }
            Turn::Results(run) => out.push_str(&renderer.results(run)?),
        }
    }
    Ok(())
}

/// An assistant turn's body: reasoning, `gap`, text, a line break, calls (each part only
/// when present).
fn body(renderer: &Renderer<'_>, turn: &Assistant, gap: &str) -> Result<String, RenderError> {
    let reasoning = renderer.reasoning(&turn.reasoning)?;
    let calls = renderer.calls(&turn.tool_calls)?;
    let mut out = reasoning;
    if !out.is_empty() && (!turn.content.is_empty() || !calls.is_empty()) {
        out.push_str(gap);
    }
    out.push_str(&turn.content);
    if !turn.content.is_empty() && !calls.is_empty() {
        out.push('\n');
    }
    out.push_str(&calls);
    Ok(out)
}

/// A line break before the next Granite turn, none before the first.
fn separate_line(out: &mut String) {
    if !out.is_empty() {
        out.push('\n');
    }
}

/// Gemma 3 / Gemini: user and model turns only; system text goes at the top of the next
/// user turn (docs/dialects.md §gemini).
fn gemini(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    let turn = |out: &mut String, role: &str, body: &str| {
        out.push_str(&format!("<start_of_turn>{role}\n{body}<end_of_turn>\n"));
    };
    out.push_str("<bos>");
    let mut preamble: Option<String> = None;
    for t in turns {
        match t {
            Turn::System(text) | Turn::Developer(text) => match &mut preamble {
                Some(p) => {
                    p.push('\n');
                    p.push_str(text);
                }
                None => preamble = Some(text.to_string()),
            },
            Turn::User(text) => match preamble.take() {
                Some(p) => turn(out, "user", &format!("{p}\n{text}")),
                None => turn(out, "user", text),
            },
            Turn::Assistant(a) => {
                if let Some(p) = preamble.take() {
                    turn(out, "user", &p);
                }
                turn(out, "model", &body(renderer, a, "\n")?);
            }
            Turn::Results(run) => {
                if let Some(p) = preamble.take() {
                    turn(out, "user", &p);
                }
                turn(out, "user", &renderer.results(run)?);
            }
        }
    }
    if let Some(p) = preamble {
        turn(out, "user", &p);
    }
    Ok(())
}
