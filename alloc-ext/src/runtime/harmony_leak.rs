//! GPT-5 Harmony header leak detection and recovery (docs/seed.md §4.6, §5.10).
//!
//! Not a dialect scanner: a post-hoc check of a finished response from a Codex / GPT-5
//! model (native tool calling) that leaked Harmony routing text (`… to=functions.edit code
//! …`) into its text, its reasoning or a tool call's arguments. [`detect`] finds the
//! signals of one surface, [`detect_in_message`] checks a message's blocks in order,
//! [`recover`] cuts a leaked tail off the tools the seed recovers, [`audit`] writes the
//! record an agent logs.
//!
//! Positions and windows are counted in Unicode scalar values (the seed counts UTF-16 code
//! units; the two differ only outside the Basic Multilingual Plane). Fenced code is exempt:
//! a line of optional whitespace then three or more backticks or tildes toggles a fence; an
//! unclosed fence runs to the end.

use sha2::{Digest, Sha512_256};

/// Where a leak was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Surface {
    /// Visible text.
    AssistantText,
    /// Reasoning.
    AssistantThinking,
    /// A tool call's arguments (its `input` string, else its arguments' JSON).
    ToolArg,
}

/// A signal class, reported in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum Class {
    /// `to=functions.NAME` at a word boundary.
    M,
    /// A channel word (`analysis`, `commentary`, …) right before the marker.
    C,
    /// A glitch token (`changedFiles`, `RTLU`, `Jsii`, …) near the marker.
    G,
    /// A run of another script near the marker in mostly-ASCII text.
    S,
    /// A cascade: `to=functions.X code` followed by another marker.
    B,
    /// A fake result: `to=functions.X` then `code_output`, a newline, `Cell N:`.
    R,
    /// The marker starts where a valid parse of the tool argument had ended.
    T,
    /// A Harmony control token (`<|start|>`, `<|end|>`, `<|channel|>`, `<|message|>`,
    /// `<|call|>`, `<|return|>`).
    H,
}

/// One signal: its classes and the characters `[start, end)` it covers.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Signal {
    /// What tripped, in class order.
    pub classes: Vec<Class>,
    /// First character (Unicode scalar index).
    pub start: usize,
    /// One past the last character.
    pub end: usize,
}

/// A leak: its surface and every signal, sorted by position.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Detection {
    /// Where.
    pub surface: Surface,
    /// The signals that count, sorted by position.
    pub signals: Vec<Signal>,
}

/// Whether the seed mitigates leaks for a model of this provider: exactly `openai-codex`.
pub fn is_mitigation_target(provider: &str) -> bool {
    provider == "openai-codex"
}

const MARKER: &str = "to=functions.";
const CONTROL: &[&str] = &[
    "<|start|>",
    "<|end|>",
    "<|channel|>",
    "<|message|>",
    "<|call|>",
    "<|return|>",
];
const CHANNELS: &[&str] = &[
    "analysis",
    "commentary",
    "assistant",
    "user",
    "system",
    "developer",
    "tool",
];
const GLITCHES: &[&str] = &[
    "changedFiles",
    "RTLU",
    "Jsii",
    "Jsii_commentary",
    "Japgolly",
];

fn word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn other_script(c: char) -> bool {
    matches!(c as u32,
        0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x0400..=0x04FF | 0x0E00..=0x0E7F
        | 0x10A0..=0x10FF | 0x0530..=0x058F | 0x0C80..=0x0CFF | 0x0C00..=0x0C7F
        | 0x0900..=0x097F | 0x0600..=0x06FF | 0x0D00..=0x0D7F)
}

/// Whether `chars[at..]` starts with `s`.
fn at(chars: &[char], at: usize, s: &str) -> bool {
    (at..).zip(s.chars()).all(|(i, c)| chars.get(i) == Some(&c))
}

/// Occurrences of `s` in `chars[from..to]` (clipped), as start indices.
fn find_all(chars: &[char], from: usize, to: usize, s: &str) -> Vec<usize> {
    let n = s.chars().count();
    let to = to.min(chars.len());
    (from..to)
        .filter(|&i| i + n <= to && at(chars, i, s))
        .collect()
}

/// The fenced ranges of the text, as (start, end) character indices.
fn fences(chars: &[char]) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let mut open = None;
    let mut line = 0;
    while line <= chars.len() {
        let end = chars[line..]
            .iter()
            .position(|&c| c == '\n')
            .map_or(chars.len(), |p| line + p);
        let body: Vec<char> = chars[line..end]
            .iter()
            .copied()
            .skip_while(|c| c.is_whitespace())
            .collect();
        let fence = body.len() >= 3
            && (body[..3].iter().all(|&c| c == '`') || body[..3].iter().all(|&c| c == '~'));
        if fence {
            match open.take() {
                Some(start) => ranges.push((start, end)),
                None => open = Some(line),
            }
        }
        line = end + 1;
    }
    if let Some(start) = open {
        ranges.push((start, chars.len()));
    }
    ranges
}

/// Whether a word from `words` occurs in `chars[from..to]` at word boundaries (the window
/// edges count as boundaries); with `then_marker`, followed by whitespace and the marker.
fn word_in(chars: &[char], from: usize, to: usize, words: &[&str], then_marker: bool) -> bool {
    let to = to.min(chars.len());
    words.iter().any(|w| {
        let n = w.chars().count();
        find_all(chars, from, to, w).into_iter().any(|i| {
            let before = i == from || !word(chars[i - 1]);
            let after = i + n == to || !chars.get(i + n).is_some_and(|&c| word(c));
            if !(before && after) {
                return false;
            }
            if !then_marker {
                return true;
            }
            let mut j = i + n;
            let spaces = chars[j..to]
                .iter()
                .take_while(|c| c.is_whitespace())
                .count();
            j += spaces;
            spaces > 0 && j + MARKER.len() <= to && at(chars, j, MARKER)
        })
    })
}

/// After the marker at `i`: the end of `to=functions.` + word characters.
fn marker_word_end(chars: &[char], i: usize) -> usize {
    let mut j = i + MARKER.len();
    while chars.get(j).is_some_and(|&c| word(c)) {
        j += 1;
    }
    j
}

fn cascade(chars: &[char], start: usize) -> bool {
    let limit = (start + 240).min(chars.len());
    find_all(chars, start, limit, MARKER).into_iter().any(|i| {
        let mut j = marker_word_end(chars, i);
        let spaces = chars[j.min(limit)..limit]
            .iter()
            .take_while(|c| c.is_whitespace())
            .count();
        j += spaces;
        let code = spaces > 0
            && j + 4 <= limit
            && at(chars, j, "code")
            && !chars.get(j + 4).is_some_and(|&c| word(c));
        code && !find_all(chars, j + 4, j + 4 + 200, MARKER).is_empty()
    })
}

fn fake_result(chars: &[char], start: usize) -> bool {
    let limit = (start + 240).min(chars.len());
    find_all(chars, start, limit, MARKER).into_iter().any(|i| {
        let from = marker_word_end(chars, i);
        find_all(chars, from, from + 80 + "code_output".len(), "code_output")
            .into_iter()
            .any(|k| {
                let mut j = k + "code_output".len();
                let ws: Vec<char> = chars[j..]
                    .iter()
                    .copied()
                    .take_while(|c| c.is_whitespace())
                    .collect();
                j += ws.len();
                if !ws.contains(&'\n') || !at(chars, j, "Cell") {
                    return false;
                }
                j += 4;
                let sp = chars[j..].iter().take_while(|c| c.is_whitespace()).count();
                let digits = chars[j + sp..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .count();
                sp > 0 && digits > 0 && chars.get(j + sp + digits) == Some(&':')
            })
    })
}

fn script_mismatch(chars: &[char], start: usize, end: usize) -> bool {
    let (from, to) = (start.saturating_sub(32), (end + 32).min(chars.len()));
    let run = chars[from..to]
        .windows(2)
        .any(|w| other_script(w[0]) && other_script(w[1]));
    let (wf, wt) = (start.saturating_sub(200), (end + 200).min(chars.len()));
    let ascii = chars[wf..wt].iter().filter(|c| c.is_ascii()).count();
    run && ascii * 100 >= (wt - wf) * 85
}

/// The signals in `text` (fenced code exempt), whether or not they trip.
pub fn signals(text: &str, parsed_end: Option<usize>) -> Vec<Signal> {
    let chars: Vec<char> = text.chars().collect();
    let fenced = fences(&chars);
    let outside = |i: usize| !fenced.iter().any(|&(s, e)| i >= s && i < e);
    let mut out = Vec::new();
    for token in CONTROL {
        for i in find_all(&chars, 0, chars.len(), token) {
            if outside(i) {
                out.push(Signal {
                    classes: vec![Class::H],
                    start: i,
                    end: i + token.chars().count(),
                });
            }
        }
    }
    for start in find_all(&chars, 0, chars.len(), MARKER) {
        let bounded = start == 0 || !word(chars[start - 1]);
        let ident = chars
            .get(start + MARKER.len())
            .is_some_and(|&c| c.is_ascii_alphabetic() || c == '_');
        if !bounded || !ident || !outside(start) {
            continue;
        }
        let end = marker_word_end(&chars, start);
        let mut classes = vec![Class::M];
        if word_in(&chars, start.saturating_sub(64), end + 16, CHANNELS, true) {
            classes.push(Class::C);
        }
        if word_in(&chars, start.saturating_sub(16), end + 16, GLITCHES, false) {
            classes.push(Class::G);
        }
        if script_mismatch(&chars, start, end) {
            classes.push(Class::S);
        }
        if cascade(&chars, start) {
            classes.push(Class::B);
        }
        if fake_result(&chars, start) {
            classes.push(Class::R);
        }
        if parsed_end.is_some_and(|p| start >= p) {
            classes.push(Class::T);
        }
        out.push(Signal {
            classes,
            start,
            end,
        });
    }
    out.sort_by_key(|s| s.start);
    out
}

/// The leak on one surface, if the signals trip: any control token, or a marker with at
/// least one co-signal; on [`Surface::ToolArg`] at least one signal must also carry
/// [`Class::T`], so without `parsed_end` tool arguments never trip (a legitimate tool call
/// is never aborted). Only the signals that count are listed.
pub fn detect(text: &str, surface: Surface, parsed_end: Option<usize>) -> Option<Detection> {
    let signals: Vec<Signal> = signals(text, parsed_end)
        .into_iter()
        .filter(|s| s.classes[0] == Class::H || s.classes.len() > 1)
        .collect();
    let trips = !signals.is_empty()
        && (surface != Surface::ToolArg || signals.iter().any(|s| s.classes.contains(&Class::T)));
    trips.then_some(Detection { surface, signals })
}

/// A signal list's label: distinct class combinations in order of appearance, classes
/// joined with `+`, combinations with `,`; `none` for no signal.
pub fn signal_label(signals: &[Signal]) -> String {
    let mut combos: Vec<String> = Vec::new();
    for s in signals {
        let combo = s
            .classes
            .iter()
            .map(|c| format!("{c:?}"))
            .collect::<Vec<_>>()
            .join("+");
        if !combos.contains(&combo) {
            combos.push(combo);
        }
    }
    if combos.is_empty() {
        "none".to_owned()
    } else {
        combos.join(",")
    }
}

/// One block of a finished assistant message.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// Visible text.
    Text(String),
    /// Reasoning.
    Thinking(String),
    /// A tool call: its name and arguments (a JSON object).
    ToolCall {
        /// The tool name.
        name: String,
        /// The arguments.
        arguments: serde_json::Value,
    },
}

/// The text of a block that the detector reads: a tool call's `input` string argument
/// when it has one, else its arguments' JSON.
pub fn block_text(block: &Block) -> String {
    match block {
        Block::Text(t) | Block::Thinking(t) => t.clone(),
        Block::ToolCall { arguments, .. } => match arguments.get("input") {
            Some(serde_json::Value::String(input)) => input.clone(),
            _ => arguments.to_string(),
        },
    }
}

/// The first leak in a message's blocks, in order, with its block's index; `tool_parse_end`
/// is the [`detect`] `parsed_end` of tool arguments.
pub fn detect_in_message(
    blocks: &[Block],
    tool_parse_end: Option<usize>,
) -> Option<(usize, Detection)> {
    blocks.iter().enumerate().find_map(|(i, block)| {
        let (surface, parsed) = match block {
            Block::Text(_) => (Surface::AssistantText, None),
            Block::Thinking(_) => (Surface::AssistantThinking, None),
            Block::ToolCall { .. } => (Surface::ToolArg, tool_parse_end),
        };
        detect(&block_text(block), surface, parsed).map(|d| (i, d))
    })
}

/// The sentinel a recovered input ends with.
pub const ABORT_SENTINEL: &str = "\n*** Abort\n";

/// A recovered tool call: the cleaned input and the tail that was cut off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recovery {
    /// The input up to the line of the first signal, right-trimmed, plus [`ABORT_SENTINEL`].
    pub input: String,
    /// What was cut off: from the start of that line to the end.
    pub removed: String,
}

/// Recovers a [`Surface::ToolArg`] leak of a tool the seed recovers: `edit` when its
/// `input`, left-trimmed, starts with `@` (the hashline edit language), and `eval` (any
/// input). The input is cut at the start of the line of the first signal; `None` when that
/// is the first line, nothing remains, or the tool is not recoverable: the caller aborts and
/// retries. The seed's recovered message holds only the cleaned call (provider payload and
/// error cleared) and ends with tool use: the caller builds it from [`Recovery::input`].
pub fn recover(tool: &str, input: &str, detection: &Detection) -> Option<Recovery> {
    let recoverable = match tool {
        "edit" => input.trim_start().starts_with('@'),
        "eval" => true,
        _ => false,
    };
    if !recoverable || detection.surface != Surface::ToolArg {
        return None;
    }
    let first = detection.signals.first()?.start;
    let byte = input
        .char_indices()
        .nth(first)
        .map_or(input.len(), |(b, _)| b);
    let line = input[..byte].rfind('\n').map(|nl| nl + 1)?;
    let head = input[..line].trim_end();
    if head.is_empty() {
        return None;
    }
    Some(Recovery {
        input: format!("{head}{ABORT_SENTINEL}"),
        removed: input[line..].to_owned(),
    })
}

/// The text from the first signal to the end (`""` without a signal).
pub fn extract_removed(text: &str, detection: &Detection) -> String {
    match detection.signals.first() {
        Some(s) => text.chars().skip(s.start).collect(),
        None => String::new(),
    }
}

/// What the agent did about a leak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// The call was cut and the turn resumed.
    TruncateResume,
    /// The turn was aborted and retried.
    AbortRetry,
    /// Retries ran out.
    Escalated,
}

/// The audit record of a leak (docs/seed.md §4.6).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Audit {
    /// What was done.
    pub action: Action,
    /// Where the leak was.
    pub surface: Surface,
    /// [`signal_label`] of the signals.
    pub signals: String,
    /// Retries so far.
    pub retry: u32,
    /// The model id.
    pub model: String,
    /// The provider.
    pub provider: String,
    /// The tool, for a tool-argument leak.
    pub tool: Option<String>,
    /// Characters removed.
    pub removed_len: usize,
    /// The first 8 hex digits of the SHA-512/256 of the removed text's UTF-8.
    pub removed_sha8: String,
    /// The first 64 characters of the removed text, redacted ([`redact`]).
    pub preview: String,
    /// The removed text itself, only when asked for (the seed's `OMP_HARMONY_DEBUG=1`).
    pub raw: Option<String>,
}

/// The redacted preview: the first 64 characters, keeping marker, channel and glitch
/// words, characters of other scripts, whitespace and CJK punctuation `】【”“…」「、。`;
/// every other character becomes `·`.
pub fn redact(removed: &str) -> String {
    let chars: Vec<char> = removed.chars().take(64).collect();
    let mut keep = vec![false; chars.len()];
    let words = GLITCHES
        .iter()
        .chain(CHANNELS)
        .chain(std::iter::once(&MARKER));
    for w in words {
        for i in find_all(&chars, 0, chars.len(), w) {
            let n = w.chars().count();
            keep[i..(i + n).min(chars.len())].fill(true);
        }
    }
    chars
        .iter()
        .zip(keep)
        .map(|(&c, kept)| {
            if kept || other_script(c) || c.is_whitespace() || "】【”“…」「、。".contains(c)
            {
                c
            } else {
                '·'
            }
        })
        .collect()
}

/// Context of an [`audit`] record.
#[derive(Debug, Clone, Copy)]
pub struct AuditContext<'a> {
    /// What was done.
    pub action: Action,
    /// Retries so far.
    pub retry: u32,
    /// The model id.
    pub model: &'a str,
    /// The provider.
    pub provider: &'a str,
    /// The tool, for a tool-argument leak.
    pub tool: Option<&'a str>,
    /// Keep the raw removed text in the record.
    pub debug: bool,
}

/// The audit record of `detection`, whose removed text is `removed`.
pub fn audit(detection: &Detection, removed: &str, context: AuditContext<'_>) -> Audit {
    let digest = Sha512_256::digest(removed.as_bytes());
    let sha: String = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
    Audit {
        action: context.action,
        surface: detection.surface,
        signals: signal_label(&detection.signals),
        retry: context.retry,
        model: context.model.to_owned(),
        provider: context.provider.to_owned(),
        tool: context.tool.map(str::to_owned),
        removed_len: removed.chars().count(),
        removed_sha8: sha,
        preview: redact(removed),
        raw: context.debug.then(|| removed.to_owned()),
    }
}
