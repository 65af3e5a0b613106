//! Whole conversations in each model family's chat template text (docs/seed.md §1.10 and
//! §2.x f; docs/dialects.md for the real templates): system, user, assistant and
//! tool-result turns, without a generation prompt at the end.

mod turns;

use std::collections::HashMap;

use super::error::RenderError;
use super::json::kimi_id;
use super::message::{Assistant, Call, Message, ToolResult};
use super::text::{check_content, check_message};
use super::Renderer;

mod dots;
mod gigachat3;
mod keyvalue;
mod legacy;

use dots::dots;
use gigachat3::gigachat3;
use keyvalue::{glm, hunyuan, ifm, iquest};
use legacy::legacy;

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
    /// `<bos><|turn>ROLE\n…<turn|>\n`, results inside the model turn (Gemma 4).
    Gemma,
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

impl TemplateForm {
    /// The strings this template writes between and around messages, which no message's
    /// text may hold (render/text.rs rule 1). The dialects whose vocabulary has special
    /// tokens also refuse any text spelled as one (rule 2), so their lists hold only the
    /// tokens of other shapes.
    pub(crate) fn tokens(self) -> &'static [&'static str] {
        match self {
            TemplateForm::ChatMl(_) => &["<|im_start|>", "<|im_end|>", "<|endoftext|>"],
            TemplateForm::Legacy => &["\n\nHuman:", "\n\nAssistant:"],
            TemplateForm::Minimax => &["]~!b[", "]~b]", "[e~["],
            TemplateForm::Kimi
            | TemplateForm::Deepseek
            | TemplateForm::Harmony
            | TemplateForm::Granite
            | TemplateForm::Llama3
            | TemplateForm::Phi4Mini
            | TemplateForm::Hunyuan
            | TemplateForm::HunyuanA13b
            | TemplateForm::Iquest
            | TemplateForm::Cohere
            | TemplateForm::Apertus => &[],
            TemplateForm::Gemma => &[
                "<bos>",
                "<eos>",
                "<|turn>",
                "<turn|>",
                "<|tool_response>",
                "<tool_response|>",
            ],
            TemplateForm::Gemini => &["<bos>", "<eos>", "<start_of_turn>", "<end_of_turn>"],
            TemplateForm::Glm => &["[gMASK]", "<sop>"],
            // Its tokens are not of a spelling rule 2 finds: all listed.
            TemplateForm::Ifm => &[
                "<|ifm|begin_of_text|>",
                "<|ifm|im_start|>",
                "<|ifm|im_end|>",
                "<|ifm|endoftext|>",
            ],
            TemplateForm::SeedOss => &["<seed:bos>", "<seed:eos>", "<seed:pad>"],
            // The dots table has no special tokens (rule 2 finds none): all listed.
            TemplateForm::Dots => &[
                "<|system|>",
                "<|endofsystem|>",
                "<|userprompt|>",
                "<|endofuserprompt|>",
                "<|response|>",
                "<|endofresponse|>",
                "<|endoftext|>",
            ],
            TemplateForm::Gigachat3 => &["</s>"],
            TemplateForm::Longcat => &["</longcat_s>", "[Round ", " USER:", " ASSISTANT:"],
            // Control tokens spelled `[…]` are not found by rule 2's `<…>` scan: all listed.
            TemplateForm::Mistral => &[
                "<s>",
                "</s>",
                "[INST]",
                "[/INST]",
                "[SYSTEM_PROMPT]",
                "[/SYSTEM_PROMPT]",
                "[AVAILABLE_TOOLS]",
                "[/AVAILABLE_TOOLS]",
                "[TOOL_CALLS]",
                "[ARGS]",
                "[CALL_ID]",
                "[TOOL_RESULTS]",
                "[TOOL_CONTENT]",
                "[/TOOL_RESULTS]",
                "[THINK]",
                "[/THINK]",
            ],
        }
    }
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
        TemplateForm::Gemma => gemma(renderer, &turns, &mut out)?,
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

/// Harmony messages.
fn harmony(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    for turn in turns {
        match turn {
            Turn::System(text) => harmony_message(out, "system", text),
            Turn::Developer(text) => harmony_message(out, "developer", text),
            Turn::User(text) => harmony_message(out, "user", text),
            Turn::Assistant(turn) => {
                out.push_str(&renderer.reasoning(&turn.reasoning)?);
                if !turn.content.is_empty() || turn.tool_calls.is_empty() {
                    harmony_message(out, "assistant<|channel|>final", &turn.content);
                }
                out.push_str(&renderer.calls(&turn.tool_calls)?);
            }
            Turn::Results(run) => out.push_str(&renderer.results(run)?),
        }
    }
    Ok(())
}

/// Gemma 4 turns, results inside the model turn.
fn gemma(renderer: &Renderer<'_>, turns: &[Turn<'_>], out: &mut String) -> Result<(), RenderError> {
    out.push_str("<bos>");
    let mut i = 0;
    while i < turns.len() {
        let (role, mut text) = match &turns[i] {
            Turn::System(text) | Turn::Developer(text) => ("system", text.to_string()),
            Turn::User(text) => ("user", text.to_string()),
            Turn::Assistant(turn) => ("model", body(renderer, turn, "")?),
            Turn::Results(run) => ("model", renderer.results(run)?),
        };
        // The results of a model turn's calls go inside that turn (docs/dialects.md §gemma).
        if let (Turn::Assistant(_), Some(Turn::Results(run))) = (&turns[i], turns.get(i + 1)) {
            text.push_str(&renderer.results(run)?);
            i += 1;
        }
        out.push_str(&format!("<|turn>{role}\n{text}<turn|>\n"));
        i += 1;
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

/// LongCat-Flash rounds.
fn longcat(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    // The model card's turns: a space before every part but the first.
    let mut round = 0;
    for turn in turns {
        let space = if out.is_empty() { "" } else { " " };
        let user = |round: &mut usize, text: &str| {
            let part = format!("{space}[Round {round}] USER:{text}");
            *round += 1;
            part
        };
        let part = match turn {
            Turn::System(text) | Turn::Developer(text) => format!("{space}SYSTEM:{text}"),
            Turn::User(text) => user(&mut round, text),
            Turn::Results(run) => user(&mut round, &renderer.results(run)?),
            Turn::Assistant(turn) => {
                format!(
                    "{space}ASSISTANT:{}</longcat_s>",
                    body(renderer, turn, "\n")?
                )
            }
        };
        out.push_str(&part);
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

fn harmony_message(out: &mut String, header: &str, text: &str) {
    out.push_str(&format!("<|start|>{header}<|message|>{text}<|end|>"));
}

/// Kimi K2: calls numbered across the conversation, `functions.NAME:IDX`, and each result
/// headed by the id its call was given (docs/dialects.md §kimi).
fn kimi(renderer: &Renderer<'_>, turns: &[Turn<'_>], out: &mut String) -> Result<(), RenderError> {
    let mut counter = 0;
    let mut given: HashMap<&str, String> = HashMap::new();
    for turn in turns {
        match turn {
            Turn::System(text) | Turn::Developer(text) => {
                out.push_str(&format!("<|im_system|>system<|im_middle|>{text}<|im_end|>"));
            }
            Turn::User(text) => {
                out.push_str(&format!("<|im_user|>user<|im_middle|>{text}<|im_end|>"))
            }
            Turn::Assistant(turn) => {
                let calls: Vec<Call> = turn
                    .tool_calls
                    .iter()
                    .map(|call| {
                        let id = kimi_id(&call.id, &call.name, counter);
                        counter += 1;
                        if !call.id.is_empty() {
                            given.insert(&call.id, id.clone());
                        }
                        Call {
                            id,
                            name: call.name.clone(),
                            arguments: call.arguments.clone(),
                        }
                    })
                    .collect();
                let numbered = Assistant {
                    content: turn.content.clone(),
                    reasoning: turn.reasoning.clone(),
                    tool_calls: calls,
                };
                out.push_str(&format!(
                    "<|im_assistant|>assistant<|im_middle|>{}<|im_end|>",
                    body(renderer, &numbered, "")?
                ));
            }
            Turn::Results(run) => {
                for (i, result) in run.iter().enumerate() {
                    let id = given.get(result.tool_call_id.as_str()).map(String::as_str);
                    renderer
                        .style
                        .results
                        .write(out, result, i, id)
                        .map_err(|e| e.at(i, &result.name))?;
                }
            }
        }
    }
    Ok(())
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
