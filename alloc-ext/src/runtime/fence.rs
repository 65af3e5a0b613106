//! The fence-aware close matcher of a ```` ```thinking ```` block (docs/seed.md §2.10.1),
//! line by line: a line of at most three spaces and three or more backticks closes the
//! block unless what follows the backticks is a single language token (` ```rs `), which
//! opens a nested code block instead; a nested block (backticks or tildes) ends at a line of
//! the same fence character, at least as many, with nothing after it.
//!
//! Known limitation, as in the seed: a bare ```` ``` ```` meant to open a code block inside
//! the reasoning closes the reasoning.

use super::healer::HealEvent;

/// How far a [`FencedReasoning::step`] got through the text it was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FenceStep {
    /// Still inside the block: the first `n` bytes are done, the rest (the current line,
    /// part of which may already be out) must be given again with more text.
    Hold(usize),
    /// The block closed: visible text resumes at byte `n`.
    Closed(usize),
}

/// The matcher's state between feeds.
#[derive(Debug, Clone, Default)]
pub(crate) struct FencedReasoning {
    /// The fence character and run of an open nested code block.
    nested: Option<(u8, usize)>,
    /// Bytes of the current (incomplete) line already emitted as reasoning.
    emitted: usize,
}

/// Longest line (bytes) that counts as a fence: a longer one is reasoning text, so the
/// matcher never holds more than this of a line.
const MAX_FENCE_LINE: usize = 1024;

/// A fence line's parts: indentation (0–3 spaces), the fence character, its run, and the
/// rest of the line (without its newline).
fn fence(line: &str) -> Option<(u8, usize, &str)> {
    if line.len() > MAX_FENCE_LINE {
        return None;
    }
    let indent = line.bytes().take_while(|&b| b == b' ').count();
    if indent > 3 {
        return None;
    }
    let body = &line[indent..];
    let ch = *body.as_bytes().first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let run = body.bytes().take_while(|&b| b == ch).count();
    Some((ch, run, &body[run..]))
}

/// A Markdown info string of one word: `rs`, `c++`, `c#`, `objective-c`.
fn language_token(rest: &str) -> bool {
    !rest.is_empty()
        && rest
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'#' | b'-'))
}

impl FencedReasoning {
    /// Matches `text` (the buffer from the matcher's current line on); `last` when the
    /// stream ends. Returns the step and the reasoning text emitted.
    pub(crate) fn step(&mut self, text: &str, last: bool) -> (FenceStep, Vec<HealEvent>) {
        let mut out = String::new();
        let mut line_start = 0;
        while let Some(nl) = text[line_start..].find('\n') {
            let end = line_start + nl + 1;
            let line = &text[line_start..end - 1];
            if self.nested.is_none() {
                if let Some((b'`', run, rest)) = fence(line) {
                    if run >= 3 && !language_token(rest) {
                        let resume = if rest.trim().is_empty() {
                            end - 1
                        } else {
                            end - 1 - rest.len()
                        };
                        self.emitted = 0;
                        return (FenceStep::Closed(resume), events(out));
                    }
                }
            }
            out.push_str(&text[line_start + self.emitted..end]);
            self.emitted = 0;
            self.track_nested(line);
            line_start = end;
        }
        let tail = &text[line_start..];
        if self.nested.is_some() {
            out.push_str(&tail[self.emitted..]);
            self.emitted = tail.len();
            return (FenceStep::Hold(line_start), events(out));
        }
        let candidate = fence(tail).filter(|&(ch, _, _)| ch == b'`');
        if let Some((_, run, rest)) = candidate {
            let prose = !rest.trim().is_empty() && !language_token(rest);
            if run >= 3 && (last || prose) {
                let resume = if rest.trim().is_empty() {
                    text.len()
                } else {
                    text.len() - rest.len()
                };
                self.emitted = 0;
                return (FenceStep::Closed(resume), events(out));
            }
            let undecided = rest.trim().is_empty() || (run >= 3 && language_token(rest));
            if !last && undecided {
                return (FenceStep::Hold(line_start), events(out));
            }
        } else if !last && tail.len() <= 3 && tail.bytes().all(|b| b == b' ') {
            return (FenceStep::Hold(line_start), events(out));
        }
        out.push_str(&tail[self.emitted..]);
        self.emitted = tail.len();
        if last {
            self.emitted = 0;
            return (FenceStep::Hold(text.len()), events(out));
        }
        (FenceStep::Hold(line_start), events(out))
    }

    /// Follows nested code blocks over a complete reasoning line.
    fn track_nested(&mut self, line: &str) {
        match (self.nested, fence(line)) {
            (None, Some((ch, run, _))) if run >= 3 => self.nested = Some((ch, run)),
            (Some((open, need)), Some((ch, run, rest)))
                if ch == open && run >= need && rest.trim().is_empty() =>
            {
                self.nested = None
            }
            _ => {}
        }
    }
}

fn events(text: String) -> Vec<HealEvent> {
    if text.is_empty() {
        Vec::new()
    } else {
        vec![HealEvent::Reasoning(text)]
    }
}
