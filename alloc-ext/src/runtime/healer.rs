//! The leaked-reasoning healer (docs/seed.md §4.2): lifts reasoning that a model leaked
//! into its *visible* text, whatever idiom it used, out of that text.
//!
//! Not a dialect: it knows only reasoning delimiters, never tool calls. The agent runtime
//! runs it over the visible content of a provider-native stream ([`super::markup`]) and over
//! the content an in-band scanner leaves ([`super::projector`]).
//!
//! Recognised openers, first match at a position wins (all plain and attribute-free;
//! `<thinking signature="…">` and namespaced tags are the anthropic scanner's business):
//!
//! | opener | closer | idiom of |
//! |---|---|---|
//! | `<think>` | `</think>` | DeepSeek, GLM, Hermes, IQuest Q1, Kimi, Qwen3 |
//! | `<thinking>` | `</thinking>` | Anthropic, MiniMax, XML |
//! | `<scratchpad>` | `</scratchpad>` | Anthropic |
//! | `<seed:think>` | `</seed:think>` | Seed-OSS |
//! | `<longcat_think>` | `</longcat_think>` | LongCat |
//! | `<think:opensource>` | `</think:opensource>` | Hunyuan Hy3 / HY4 |
//! | `<ifm\|think>` | `</ifm\|think>` | K2 Horizon |
//! | `[THINK]` | `[/THINK]` | Mistral (Magistral) |
//! | `<\|START_THINKING\|>` | `<\|END_THINKING\|>` | Cohere |
//! | `<\|inner_prefix\|>` | `<\|inner_suffix\|>` | Apertus |
//! | `<\|open\|>think<\|sep\|>` | `<\|close\|>think<\|sep\|>` | Kimi K3 |
//! | `<\|plamo:begin_think:plamo\|>` | `<\|plamo:end_think:plamo\|>` | PLaMo 3 |
//! | ```` ```thinking ```` + `\n` | a closing fence line (docs/seed.md §2.10.1: a nested ```` ```rs ```` block does not close it) | Gemini |
//! | `<\|channel>thought` + `\n` | `<channel\|>` | Gemma 4 |
//! | `<\|start\|>assistant<\|channel\|>analysis<\|message\|>` | `<\|end\|>` | Harmony, rendered |
//! | `<\|channel\|>analysis<\|message\|>` | `<\|end\|>` | Harmony, bare leak |
//! | `<\|start\|>assistant to=self<\|message\|>` | `<\|eom\|>` | Muse, rendered |
//!
//! Code is never healed: after a backtick run the text is in code until the code ends, an
//! inline span at the next run of the same length, a fenced block (a run of three or more
//! that starts a line, after at most three spaces) at a later line of only backticks, at
//! least as many. So `` `<think>` `` and fenced examples stay visible.
//!
//! Differences from the seed: a block still open at [`ReasoningHealer::finish`] is closed
//! (the seed never closes an unclosed tag form, §6.3 B3); everything is chunk-invariant:
//! the events joined are the same however the text is cut.

use super::fence::{FenceStep, FencedReasoning};

/// What the healer found, in text order. Adjacent text or reasoning fragments may be split
/// anywhere; join them before comparing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HealEvent {
    /// Visible text.
    Text(String),
    /// A reasoning block opened.
    ReasoningStart,
    /// Reasoning text.
    Reasoning(String),
    /// The open reasoning block closed (its closer, or the end of the stream).
    ReasoningEnd,
}

/// Opener, closer (`None`: the fence-aware matcher).
const FORMS: &[(&str, Option<&str>)] = &[
    ("<think>", Some("</think>")),
    ("<thinking>", Some("</thinking>")),
    ("<scratchpad>", Some("</scratchpad>")),
    ("<seed:think>", Some("</seed:think>")),
    ("<mm:think>", Some("</mm:think>")),
    ("<longcat_think>", Some("</longcat_think>")),
    ("<think:opensource>", Some("</think:opensource>")),
    ("<ifm|think>", Some("</ifm|think>")),
    ("[THINK]", Some("[/THINK]")),
    ("<|START_THINKING|>", Some("<|END_THINKING|>")),
    ("<|inner_prefix|>", Some("<|inner_suffix|>")),
    ("<|open|>think<|sep|>", Some("<|close|>think<|sep|>")),
    (
        "<|plamo:begin_think:plamo|>",
        Some("<|plamo:end_think:plamo|>"),
    ),
    ("```thinking\n", None),
    ("<|channel>thought\n", Some("<channel|>")),
    (
        "<|start|>assistant<|channel|>analysis<|message|>",
        Some("<|end|>"),
    ),
    ("<|channel|>analysis<|message|>", Some("<|end|>")),
    ("<|start|>assistant to=self<|message|>", Some("<|eom|>")),
];

#[derive(Debug, Clone)]
enum State {
    Visible,
    /// Inside an inline code span opened by a run of this many backticks.
    Inline(usize),
    /// Inside a fenced code block opened by a run of this many backticks; `true` once the
    /// current line holds something that rules it out as the closing fence (it was sent).
    Fenced(usize, bool),
    /// Inside a tag-form reasoning block ending at this closer.
    Tag(&'static str),
    /// Inside a ```` ```thinking ```` block.
    Fence(FencedReasoning),
}

/// A streaming leaked-reasoning healer. Feed text with [`ReasoningHealer::feed`], end with
/// [`ReasoningHealer::finish`]; memory is the text held back: a possible partial opener,
/// closer or backtick run, or the start of a line that may still be a fence (at most 1 KiB:
/// a longer line is never a fence, in whole and streamed feeding alike).
#[derive(Debug, Clone)]
pub struct ReasoningHealer {
    buf: String,
    state: State,
    /// Spaces so far on the current visible line when it holds nothing else, else `None`:
    /// decides whether a backtick run opens a fenced block. The stream starts a line.
    line_spaces: Option<usize>,
    finished: bool,
    /// Whether ```` ```thinking ```` fences are reasoning (not on the official OpenAI
    /// endpoint: docs/seed.md §5.12).
    thinking_fences: bool,
}

impl Default for ReasoningHealer {
    fn default() -> Self {
        Self::new()
    }
}

impl ReasoningHealer {
    /// A healer at the start of a stream (which is the start of a line).
    pub fn new() -> Self {
        ReasoningHealer {
            buf: String::new(),
            state: State::Visible,
            line_spaces: Some(0),
            finished: false,
            thinking_fences: true,
        }
    }

    /// A healer that leaves ```` ```thinking ```` fences as visible text (docs/seed.md §5.12: they
    /// are lifted "except on the official OpenAI endpoint", whose models do not leak that
    /// idiom, so such a fence is one the user asked for); the other idioms are lifted.
    pub fn without_thinking_fences() -> Self {
        ReasoningHealer {
            thinking_fences: false,
            ..Self::new()
        }
    }

    /// Whether a reasoning block is open.
    pub fn in_reasoning(&self) -> bool {
        matches!(self.state, State::Tag(_) | State::Fence(_))
    }

    /// Heals the next piece of text, appending what is settled to `out`. Text after
    /// [`ReasoningHealer::finish`] is ignored.
    pub fn feed(&mut self, text: &str, out: &mut Vec<HealEvent>) {
        if self.finished {
            return;
        }
        self.buf.push_str(text);
        self.run(false, out);
    }

    /// Ends the stream: everything held goes out, and an open reasoning block is closed.
    pub fn finish(&mut self, out: &mut Vec<HealEvent>) {
        if self.finished {
            return;
        }
        self.run(true, out);
        if self.in_reasoning() {
            push(out, HealEvent::ReasoningEnd);
        }
        self.state = State::Visible;
        self.finished = true;
    }

    /// Processes the buffer as far as it is decided; keeps the undecided rest.
    fn run(&mut self, last: bool, out: &mut Vec<HealEvent>) {
        let mut at = 0;
        loop {
            let step = match &mut self.state {
                State::Visible => self.visible(at, last, out),
                State::Inline(run) => {
                    let run = *run;
                    self.inline(at, run, last, out)
                }
                State::Fenced(run, sent) => {
                    let (run, sent) = (*run, *sent);
                    self.fenced(at, run, sent, last, out)
                }
                State::Tag(close) => {
                    let close = *close;
                    self.tag(at, close, last, out)
                }
                State::Fence(matcher) => {
                    let (step, events) = matcher.step(&self.buf[at..], last);
                    for event in events {
                        push(out, event);
                    }
                    match step {
                        FenceStep::Hold(used) => Step::Hold(at + used),
                        FenceStep::Closed(used) => {
                            push(out, HealEvent::ReasoningEnd);
                            self.state = State::Visible;
                            Step::Go(at + used)
                        }
                    }
                }
            };
            match step {
                Step::Go(next) => at = next,
                Step::Hold(next) => {
                    self.buf.drain(..next);
                    return;
                }
            }
        }
    }

    fn visible(&mut self, from: usize, last: bool, out: &mut Vec<HealEvent>) -> Step {
        let fences = self.thinking_fences;
        let forms = || {
            FORMS
                .iter()
                .filter(move |(open, _)| fences || !open.starts_with('`'))
        };
        let rest = &self.buf[from..];
        let mut search = 0;
        while let Some(found) = rest[search..].find(['<', '`', '[']) {
            let i = search + found;
            let here = &rest[i..];
            if let Some((open, close)) = forms().find(|(open, _)| here.starts_with(open)) {
                let text = rest[..i].to_owned();
                self.text(text, out);
                push(out, HealEvent::ReasoningStart);
                self.state = match close {
                    Some(close) => State::Tag(close),
                    None => State::Fence(FencedReasoning::default()),
                };
                return Step::Go(from + i + open.len());
            }
            if !last && forms().any(|(open, _)| open.starts_with(here)) {
                let text = rest[..i].to_owned();
                self.text(text, out);
                return Step::Hold(from + i);
            }
            if here.starts_with('`') {
                let run = here.bytes().take_while(|&b| b == b'`').count();
                if !last && i + run == rest.len() {
                    let text = rest[..i].to_owned();
                    self.text(text, out);
                    return Step::Hold(from + i);
                }
                let before = rest[..i].to_owned();
                self.text(before, out);
                let fenced = run >= 3 && self.line_spaces.is_some_and(|n| n <= 3);
                self.text("`".repeat(run), out);
                self.state = if fenced {
                    State::Fenced(run, false)
                } else {
                    State::Inline(run)
                };
                return Step::Go(from + i + run);
            }
            search = i + 1;
        }
        let text = rest.to_owned();
        self.text(text, out);
        Step::Hold(self.buf.len())
    }

    fn inline(&mut self, from: usize, open: usize, last: bool, out: &mut Vec<HealEvent>) -> Step {
        let rest = &self.buf[from..];
        let mut search = 0;
        while let Some(found) = rest[search..].find('`') {
            let i = search + found;
            let run = rest[i..].bytes().take_while(|&b| b == b'`').count();
            if !last && i + run == rest.len() {
                // The run may grow, or be the closer with nothing after it yet.
                let text = rest[..i].to_owned();
                self.text(text, out);
                return Step::Hold(from + i);
            }
            if run == open {
                let text = rest[..i + run].to_owned();
                self.text(text, out);
                self.state = State::Visible;
                return Step::Go(from + i + run);
            }
            search = i + run;
        }
        let text = rest.to_owned();
        self.text(text, out);
        Step::Hold(self.buf.len())
    }

    fn fenced(
        &mut self,
        from: usize,
        open: usize,
        mut sent: bool,
        last: bool,
        out: &mut Vec<HealEvent>,
    ) -> Step {
        let rest = &self.buf[from..];
        let mut line_start = 0;
        while let Some(nl) = rest[line_start..].find('\n') {
            let end = line_start + nl + 1;
            if !sent && closes_fence(&rest[line_start..end], open) {
                let text = rest[..end].to_owned();
                self.text(text, out);
                self.state = State::Visible;
                return Step::Go(from + end);
            }
            sent = false;
            line_start = end;
        }
        // A partial line that can no longer be the closer goes out now, so a long line
        // is never held.
        let tail = &rest[line_start..];
        let settled = if last || sent || !closer_prefix(tail) {
            rest.len()
        } else {
            line_start
        };
        // The line in progress went out: it is not the closer, whatever follows.
        let line_sent = settled == rest.len() && !tail.is_empty();
        let text = rest[..settled].to_owned();
        self.text(text, out);
        self.state = if last {
            State::Visible
        } else {
            State::Fenced(open, line_sent)
        };
        Step::Hold(from + settled)
    }

    fn tag(
        &mut self,
        from: usize,
        close: &'static str,
        last: bool,
        out: &mut Vec<HealEvent>,
    ) -> Step {
        let rest = &self.buf[from..];
        if let Some(i) = rest.find(close) {
            reasoning(out, &rest[..i]);
            push(out, HealEvent::ReasoningEnd);
            self.state = State::Visible;
            return Step::Go(from + i + close.len());
        }
        let keep = if last { 0 } else { partial_suffix(rest, close) };
        let settled = rest.len() - keep;
        reasoning(out, &rest[..settled]);
        Step::Hold(from + settled)
    }

    /// Emits visible text and follows the current line's leading spaces.
    fn text(&mut self, text: String, out: &mut Vec<HealEvent>) {
        if text.is_empty() {
            return;
        }
        let tail = match text.rfind('\n') {
            Some(nl) => {
                self.line_spaces = Some(0);
                &text[nl + 1..]
            }
            None => &text[..],
        };
        for c in tail.chars() {
            self.line_spaces = match self.line_spaces {
                Some(n) if c == ' ' => Some(n + 1),
                _ => None,
            };
        }
        push(out, HealEvent::Text(text));
    }
}

enum Step {
    /// Go on scanning from this byte of the buffer.
    Go(usize),
    /// Keep the buffer from this byte for the next feed.
    Hold(usize),
}

/// Longest line (bytes) that may close a fenced code block: a longer one is code, so the
/// healer never holds more than this of a line.
const MAX_FENCE_LINE: usize = 1024;

/// Whether a complete line (with its `\n`) closes a fenced code block opened by `open`
/// backticks: trimmed, it is only backticks, at least as many, and it is at most
/// [`MAX_FENCE_LINE`] bytes.
fn closes_fence(line: &str, open: usize) -> bool {
    let trimmed = line.trim();
    line.len() <= MAX_FENCE_LINE
        && !trimmed.is_empty()
        && trimmed.bytes().all(|b| b == b'`')
        && trimmed.len() >= open
}

/// Whether a partial line may still become a closing fence.
fn closer_prefix(tail: &str) -> bool {
    tail.len() < MAX_FENCE_LINE && tail.chars().all(|c| c == '`' || c.is_whitespace())
}

/// Length of the longest proper prefix of `token` that `text` ends with.
pub(crate) fn partial_suffix(text: &str, token: &str) -> usize {
    (1..token.len().min(text.len() + 1))
        .rev()
        .find(|&n| text.ends_with(&token[..n]))
        .unwrap_or(0)
}

fn reasoning(out: &mut Vec<HealEvent>, text: &str) {
    if !text.is_empty() {
        push(out, HealEvent::Reasoning(text.to_owned()));
    }
}

/// Appends an event, joining it to the previous one when both are text or both reasoning.
pub(crate) fn push(out: &mut Vec<HealEvent>, event: HealEvent) {
    match (out.last_mut(), event) {
        (Some(HealEvent::Text(a)), HealEvent::Text(b)) => a.push_str(&b),
        (Some(HealEvent::Reasoning(a)), HealEvent::Reasoning(b)) => a.push_str(&b),
        (_, event) => out.push(event),
    }
}

/// Heals a whole text: `(visible text, reasoning text, reasoning blocks)`.
pub fn heal(text: &str) -> (String, String, usize) {
    let mut healer = ReasoningHealer::new();
    let mut events = Vec::new();
    healer.feed(text, &mut events);
    healer.finish(&mut events);
    let (mut visible, mut thought, mut blocks) = (String::new(), String::new(), 0);
    for event in events {
        match event {
            HealEvent::Text(t) => visible.push_str(&t),
            HealEvent::Reasoning(t) => thought.push_str(&t),
            HealEvent::ReasoningStart => blocks += 1,
            HealEvent::ReasoningEnd => {}
        }
    }
    (visible, thought, blocks)
}
