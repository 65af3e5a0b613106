//! Reasoning blocks: `<think>` tags (with docs/seed.md §1.10's envelope unwrapping where the
//! seed applies it), Harmony's `analysis` message, Gemma's `<|channel>thought`, Gemini's
//! ```` ```thinking ```` fence (docs/seed.md §2.x e). Text that the scanner would end early
//! is refused.

use inband::{Dialect, Options, Span};

use super::error::{Reason, RenderError};
use crate::assemble::{assemble, AssembleOptions};
use crate::events::{EventLog, OwnedEvent};

/// A tag pair, and every closer the dialect's scanner ends reasoning at.
#[derive(Debug)]
pub(crate) struct Tags {
    pub(crate) open: &'static str,
    pub(crate) close: &'static str,
    pub(crate) closers: &'static [&'static str],
    /// The text on lines of its own, `OPEN\nT\nCLOSE` (most templates), or right between
    /// the tags, `OPENTCLOSE` (Seed-OSS).
    pub(crate) lines: bool,
}

/// `<think>…</think>` (hermes, qwen3, kimi, deepseek).
pub(crate) static THINK: Tags = Tags {
    open: "<think>",
    close: "</think>",
    closers: &["</think>"],
    lines: true,
};

/// Kimi K3's `think` channel, `<|open|>think<|sep|>T<|close|>think<|sep|>`, the text right
/// between its markers (docs/dialects.md §kimi-k3).
/// MiniMax-M3's `<mm:think>` block (docs/dialects.md §minimax-m3).
pub(crate) static MM_THINK: Tags = Tags {
    open: "<mm:think>",
    close: "</mm:think>",
    closers: &["</mm:think>"],
    lines: true,
};

pub(crate) static KIMI_K3_THINK: Tags = Tags {
    open: "<|open|>think<|sep|>",
    close: "<|close|>think<|sep|>",
    closers: &["<|close|>think<|sep|>"],
    lines: false,
};

/// PLaMo 3's `<|plamo:begin_think:plamo|>…<|plamo:end_think:plamo|>`, whose scanner also
/// ends reasoning at the turn's end (`plamo3.toml`, mode `reasoning`).
pub(crate) static PLAMO3_THINK: Tags = Tags {
    open: "<|plamo:begin_think:plamo|>",
    close: "<|plamo:end_think:plamo|>",
    closers: &["<|plamo:end_think:plamo|>", "<|plamo:tag|>"],
    lines: true,
};

/// `<thinking>…</thinking>` (xml; its scanner also ends reasoning at `</think>`).
pub(crate) static THINKING: Tags = Tags {
    open: "<thinking>",
    close: "</thinking>",
    closers: &["</think>", "</thinking>"],
    lines: true,
};

/// `<think>…</think>` in GLM, whose scanner also ends reasoning at the tokens that end the
/// assistant turn (`glm.toml`, mode `reasoning`).
pub(crate) static GLM_THINK: Tags = Tags {
    open: "<think>",
    close: "</think>",
    closers: &["</think>", "<|user|>", "<|observation|>", "<|endoftext|>"],
    lines: true,
};

/// `<think:opensource>…</think:opensource>` (Hunyuan), whose scanner also ends reasoning
/// at the tokens that end the turn (`hunyuan.toml`, mode `reasoning`).
pub(crate) static HUNYUAN_THINK: Tags = Tags {
    open: "<think:opensource>",
    close: "</think:opensource>",
    closers: &[
        "</think:opensource>",
        "<｜hy_User:opensource｜>",
        "<｜hy_eos:opensource｜>",
    ],
    lines: true,
};

/// `<think>…</think>` in IQuest Q1, whose scanner also ends reasoning at the token that ends
/// the turn (`iquest-q1.toml`, mode `reasoning`).
pub(crate) static IQUEST_THINK: Tags = Tags {
    open: "<think>",
    close: "</think>",
    closers: &["</think>", "<|iquest_end|>"],
    lines: true,
};

/// `<ifm|think>…</ifm|think>` (K2 Horizon at its default, high, effort), whose scanner also
/// ends reasoning at the medium and low efforts' closers and at the tokens that end the
/// turn (`k2-horizon.toml`, mode `reasoning`).
pub(crate) static IFM_THINK: Tags = Tags {
    open: "<ifm|think>",
    close: "</ifm|think>",
    closers: &[
        "</ifm|think>",
        "</ifm|think_fast>",
        "</ifm|think_faster>",
        "<|ifm|im_end|>",
        "<|ifm|endoftext|>",
    ],
    lines: true,
};

/// `<longcat_think>…</longcat_think>` (LongCat), whose scanner also ends reasoning at
/// `</think>` (`longcat.toml`, mode `reasoning`).
pub(crate) static LONGCAT_THINK: Tags = Tags {
    open: "<longcat_think>",
    close: "</longcat_think>",
    closers: &["</longcat_think>", "</think>"],
    lines: true,
};

/// `<seed:think>…</seed:think>` (Seed-OSS), the reasoning written right between the tags
/// as its template writes it (docs/dialects.md §seed-oss).
pub(crate) static SEED_THINK: Tags = Tags {
    open: "<seed:think>",
    close: "</seed:think>",
    closers: &["</seed:think>"],
    lines: false,
};

/// `[THINK]…[/THINK]` (Mistral's Magistral), whose scanner also ends reasoning at
/// `</think>` (`mistral.toml`, mode `reasoning`); the text right between the tokens.
pub(crate) static MISTRAL_THINK: Tags = Tags {
    open: "[THINK]",
    close: "[/THINK]",
    closers: &["[/THINK]", "</think>"],
    lines: false,
};

/// `<|START_THINKING|>…<|END_THINKING|>` (Cohere's tool plan), the text right between
/// the tokens as its templates write it.
pub(crate) static COHERE_THINK: Tags = Tags {
    open: "<|START_THINKING|>",
    close: "<|END_THINKING|>",
    closers: &["<|END_THINKING|>"],
    lines: false,
};

/// `<|inner_prefix|>…<|inner_suffix|>` (Apertus's inner section), the text right between
/// the tokens as its format renders it.
pub(crate) static APERTUS_INNER: Tags = Tags {
    open: "<|inner_prefix|>",
    close: "<|inner_suffix|>",
    closers: &["<|inner_suffix|>"],
    lines: false,
};

/// Harmony's tokens, each of which ends or breaks a message body.
const HARMONY_TOKENS: &[&str] = &[
    "<|start|>",
    "<|end|>",
    "<|message|>",
    "<|channel|>",
    "<|constrain|>",
    "<|return|>",
    "<|call|>",
];

/// Muse's tokens, each of which ends or breaks a message body.
const MUSE_TOKENS: &[&str] = &[
    "<|start|>",
    "<|message|>",
    "<|eom|>",
    "<|eot|>",
    "<|end_of_text|>",
];

/// How a dialect writes reasoning.
#[derive(Debug, Clone, Copy)]
pub(crate) enum ReasoningForm {
    /// `OPEN\nT\nCLOSE` (`OPENTCLOSE` for tags without [`Tags::lines`]); with `true`,
    /// envelopes already in `T` are unwrapped first.
    Delimited(&'static Tags, bool),
    /// `<|start|>assistant<|channel|>analysis<|message|>T<|end|>`.
    Harmony,
    /// `<|start|>assistant to=self<|message|>T<|eom|>` (Muse).
    Muse,
    /// `<|channel>thought\nT<channel|>`.
    Gemma,
    /// ```` ```thinking\nT\n``` ````.
    Gemini,
    /// No reasoning form (FunctionGemma, which was not trained to reason): a turn's
    /// reasoning is left out of the prompt, as templates leave out past reasoning.
    None,
}

impl ReasoningForm {
    /// The block for `text` in `dialect`; `""` for empty text.
    pub(crate) fn render(self, dialect: Dialect, text: &str) -> Result<String, RenderError> {
        if text.is_empty() || matches!(self, ReasoningForm::None) {
            return Ok(String::new());
        }
        let (open, body, close) = self.parts(text)?;
        let block = format!("{open}{body}{close}");
        check_read_back(dialect, &block, open.len()..open.len() + body.len())?;
        Ok(block)
    }

    /// The block's opener, body and closer, refusing a body that holds the closer.
    fn parts(self, text: &str) -> Result<(&'static str, String, &'static str), RenderError> {
        let refuse = |closer| Err(RenderError::new(Reason::CloserInReasoning(closer)));
        match self {
            ReasoningForm::Delimited(tags, unwrap_envelopes) => {
                let text = if unwrap_envelopes {
                    unwrap(text, tags.open, tags.close)
                } else {
                    text.to_owned()
                };
                if let Some(closer) = tags.closers.iter().find(|c| text.contains(*c)) {
                    return refuse(closer);
                }
                let body = if tags.lines {
                    format!("\n{text}\n")
                } else {
                    text
                };
                Ok((tags.open, body, tags.close))
            }
            ReasoningForm::Harmony => {
                if let Some(token) = HARMONY_TOKENS.iter().find(|t| text.contains(*t)) {
                    return refuse(token);
                }
                Ok((
                    "<|start|>assistant<|channel|>analysis<|message|>",
                    text.to_owned(),
                    "<|end|>",
                ))
            }
            ReasoningForm::Muse => {
                if let Some(token) = MUSE_TOKENS.iter().find(|t| text.contains(*t)) {
                    return refuse(token);
                }
                Ok((
                    "<|start|>assistant to=self<|message|>",
                    text.to_owned(),
                    "<|eom|>",
                ))
            }
            ReasoningForm::Gemma => {
                if text.contains("<channel|>") {
                    return refuse("<channel|>");
                }
                Ok(("<|channel>thought\n", text.to_owned(), "<channel|>"))
            }
            ReasoningForm::Gemini => {
                check_fenced(text)?;
                Ok(("```thinking\n", text.to_owned(), "\n```"))
            }
            // `render` writes nothing for it.
            ReasoningForm::None => Ok(("", String::new(), "")),
        }
    }
}

/// Refuses a reasoning block whose body (the bytes `body` of `block`) the dialect's own
/// scanner and assembler do not read back as that reasoning, trimmed: a delimiter the scanner acts on inside
/// reasoning (a stop token, a special token removed as stray under docs/dialects.md rule 12, a
/// section or call opener) would end the block, vanish or start a call. The scanner is the
/// judge, so no list of its delimiters is kept here.
fn check_read_back(
    dialect: Dialect,
    block: &str,
    body: std::ops::Range<usize>,
) -> Result<(), RenderError> {
    // The assembler decides what reads back: it gives the bytes of a draft call that came
    // to nothing (`<tool_call>` mentioned in the reasoning) back to the reasoning.
    let completion = assemble(
        dialect,
        Options::default(),
        &AssembleOptions::seeded(0),
        [block.as_bytes()],
    );
    let read = completion.reasoning.as_deref().unwrap_or_default();
    if completion.content.is_empty()
        && completion.tool_calls.is_empty()
        && completion.incomplete_calls.is_empty()
        && read.trim() == block[body.clone()].trim()
    {
        return Ok(());
    }
    // The delimiter to name: the first structure the scanner found in the body.
    let log = EventLog::scan(dialect, Options::default(), [block.as_bytes()]);
    let inside = |span: Span| {
        (body.start as u64..body.end as u64).contains(&span.start)
            || (span.start < body.start as u64 && span.end > body.start as u64)
    };
    let first = |markup: bool| {
        log.events.iter().find_map(|event| {
            let span = event.span();
            let wanted = match event {
                OwnedEvent::Reasoning { .. }
                | OwnedEvent::ReasoningStart { .. }
                | OwnedEvent::ReasoningEnd { .. }
                | OwnedEvent::Diagnostic { .. } => false,
                OwnedEvent::Markup { .. } => true,
                _ => !markup,
            };
            (wanted && inside(span)).then_some(span)
        })
    };
    let delimiter = first(true)
        .or_else(|| first(false))
        .and_then(|span| block.get(span.start as usize..span.end as usize))
        .unwrap_or_default()
        .trim();
    Err(RenderError::new(Reason::DelimiterInText(
        delimiter.to_owned(),
    )))
}

/// ASCII whitespace as the seed's unwrapping trims it (tab, LF, VT, FF, CR, space).
fn trim_ws(s: &str) -> &str {
    s.trim_matches(|c| matches!(c, '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' '))
}

/// Removes envelopes already around `text` (docs/seed.md §1.10): if the trimmed text is
/// one or more `open … close` envelopes separated only by whitespace (the close found by
/// depth counting of the same pair), each one's trimmed inner text, unwrapped again, joined
/// by `\n`; otherwise `text` unchanged.
pub(crate) fn unwrap(text: &str, open: &str, close: &str) -> String {
    let trimmed = trim_ws(text);
    if !trimmed.starts_with(open) {
        return text.to_owned();
    }
    let mut pieces = Vec::new();
    let mut rest = trimmed;
    while !rest.is_empty() {
        if !rest.starts_with(open) {
            return text.to_owned();
        }
        let Some(end) = matching_close(rest, open, close) else {
            return text.to_owned();
        };
        let inner = trim_ws(&rest[open.len()..end - close.len()]);
        pieces.push(unwrap(inner, open, close));
        rest = trim_ws(&rest[end..]);
    }
    pieces.join("\n")
}

/// The end of the close that matches the `open` at the start of `s`, by depth counting.
fn matching_close(s: &str, open: &str, close: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = 0;
    while i < s.len() {
        let rest = &s[i..];
        if rest.starts_with(open) {
            depth += 1;
            i += open.len();
        } else if rest.starts_with(close) {
            depth = depth.saturating_sub(1);
            i += close.len();
            if depth == 0 {
                return Some(i);
            }
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    None
}

/// Refuses reasoning that the Gemini scanner would end before the block's own closing
/// fence (docs/seed.md §2.10.1 as the core reads it): a top-level line of up to three
/// spaces and three or more backticks followed by nothing, by prose or by `tool_code`;
/// or a nested code block left open, which would take the closing fence for its own.
pub(crate) fn check_fenced(text: &str) -> Result<(), RenderError> {
    let refuse = |closer| Err(RenderError::new(Reason::CloserInReasoning(closer)));
    let mut nested: Option<(u8, usize)> = None;
    for line in text.split('\n') {
        let indent = line.bytes().take_while(|&b| b == b' ').count();
        if indent > 3 {
            continue;
        }
        let rest = &line[indent..];
        let Some(byte) = rest.bytes().next().filter(|b| matches!(b, b'`' | b'~')) else {
            continue;
        };
        let run = rest.bytes().take_while(|&b| b == byte).count();
        if run < 3 {
            continue;
        }
        let info = &rest[run..];
        let blank = |s: &str| s.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r'));
        match nested {
            None if byte == b'`' => {
                let word = info.trim_matches([' ', '\t', '\r']);
                let token = !word.is_empty()
                    && info.len() <= inband::MAX_NAME
                    && word.bytes().all(|b| {
                        b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'#' | b'-')
                    });
                if !token {
                    return refuse("```");
                }
                if run == 3 && info.starts_with("tool_code") && blank(&info[9..]) {
                    return refuse("```tool_code");
                }
                nested = Some((byte, run));
            }
            None => nested = Some((byte, run)),
            Some((open, open_run)) => {
                if byte == open && run >= open_run && blank(info) {
                    nested = None;
                }
            }
        }
    }
    if nested.is_some() {
        return refuse("```");
    }
    Ok(())
}
