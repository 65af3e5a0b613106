//! The family's tables and knobs ([`Modes`]) and the parts of the machine they drive: the
//! header the prompt opened (`prompt_header`), and the strategy that reads a call
//! message's body as markup of the parameters shape ([`CallBody::Params`], Muse's ATEM):
//! the message machine keeps the headers and channels, and a tool message's invokes are
//! read by the parameters machine (`lex/params/`) with this machine's frame, as the
//! special-token family embeds it for DeepSeek's DSML. docs/dialects.md §harmony, §muse.

use super::header::{Author, Header};
use super::{Harmony, Phase, Slot};
use crate::automaton::{Delimiter, Dfa};
use crate::engine::frame::Frame;
use crate::lex::params::{ParamCalls, Tagset};
use crate::tables::MessageChannel;
use crate::{Diagnostic, Role, Sink, Span};

/// How a call message's body is read; set per dialect in `core/machine.rs`.
#[derive(Debug)]
pub(crate) enum CallBody {
    /// The body is the call's JSON arguments and the recipient names the tool (gpt-oss).
    Json,
    /// The body of a message to a tool holds calls in `tags`, a tagset of the parameters
    /// shape, whose openers `tool_body` finds; each invoke names its tool, the recipient
    /// only makes the message a tool message (Muse). Text around them is content.
    Params {
        tool_body: &'static Dfa,
        tags: Tagset,
    },
}

/// One dialect of the message/header family: its modes and its table's `[knobs]`.
#[derive(Debug)]
pub(crate) struct Modes {
    /// Outside messages.
    pub(crate) content: &'static Dfa,
    /// A header, up to its `<|message|>`.
    pub(crate) header: &'static Dfa,
    /// A message's body (and a `<` outside a string in a JSON call's body).
    pub(crate) body: &'static Dfa,
    pub(crate) calls: CallBody,
    /// The output's first bytes that go on the prompt's header (`prompt_header`; empty:
    /// none).
    pub(crate) prompt_header: &'static [u8],
    /// That header is drift, reported (`prompt_header_repair`).
    pub(crate) prompt_header_repair: bool,
    /// Recipients that make a text message of a channel, not a call (`recipients`).
    pub(crate) recipients: &'static [(&'static [u8], MessageChannel)],
    /// What a message with neither recipient nor channel is (`bare_message`).
    pub(crate) bare_message: MessageChannel,
}

impl Slot {
    fn header(&mut self) -> &mut Header {
        loop {
            match self {
                Slot::Header(header) => return header,
                // The markup of a tool message is over when anything reads a header: a new
                // one, empty.
                Slot::Markup(_) => *self = Slot::Header(Header::new(false)),
            }
        }
    }
}

impl Harmony {
    /// The stream's first bytes: the `prompt_header` knob's recipient there
    /// (` to=functions.read<|channel|>…` in gpt-oss, ` to=self<|message|>` in Muse) is
    /// the header the prompt's `<|start|>assistant` opened, gone on by the model
    /// (docs/dialects.md §harmony, §muse); anything else is text.
    pub(super) fn start<S: Sink>(
        &mut self,
        frame: &Frame,
        chunk: &[u8],
        pos: usize,
        sink: &mut S,
    ) -> usize {
        let Phase::Start { mut from, mut to } = self.phase else {
            return pos;
        };
        let literal = self.modes.prompt_header;
        let mut i = pos;
        while i < chunk.len() && usize::from(to) < literal.len() {
            let b = chunk[i];
            if to == 0 && b != b' ' {
                (from, to) = (1, 1);
            }
            if b != literal[usize::from(to)] {
                self.phase = Phase::Text;
                let held = &literal[usize::from(from)..usize::from(to)];
                if !held.is_empty() {
                    frame.release(Span::new(0, held.len() as u64), held, sink);
                }
                return i;
            }
            to += 1;
            i += 1;
        }
        if usize::from(to) < literal.len() {
            self.phase = Phase::Start { from, to };
            return i;
        }
        let recipient = &literal[usize::from(from)..];
        let span = Span::new(0, recipient.len() as u64);
        if self.modes.prompt_header_repair {
            sink.diagnostic(span, Diagnostic::HeaderFromPrompt);
        }
        // The prompt wrote the author: a word before the next token is not one.
        let mut header = Header::new(false);
        header.author = Author::Assistant;
        header.first_word = false;
        header.text(span, recipient, sink);
        self.slot = Slot::Header(header);
        self.phase = Phase::Header;
        i
    }

    /// The header being read (or the last one read).
    pub(super) fn head(&mut self) -> &mut Header {
        self.slot.header()
    }

    /// In a tool message, an ATEM section or invoke opener at `span` (not reported yet)
    /// hands the stream to the parameters machine; false for any other delimiter.
    pub(super) fn enter_invokes(&mut self, delimiter: &'static Delimiter, span: Span) -> bool {
        let CallBody::Params { tags, .. } = &self.modes.calls else {
            return false;
        };
        if !self.tool || !matches!(delimiter.role, Role::SectionOpen | Role::CallOpen) {
            return false;
        }
        let mut calls = ParamCalls::new(tags);
        calls.enter(tags, delimiter, span);
        self.slot = Slot::Markup(calls);
        self.phase = Phase::Invokes;
        true
    }

    /// The parameters machine reads the tool message's markup; when it hands the stream
    /// back (its structure ended, or a message token ended it), the message's text goes on
    /// (bytes it still held are scanned again by the driver, `Frame::replay`).
    pub(super) fn invokes<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let Slot::Markup(calls) = &mut self.slot else {
            self.phase = Phase::Text;
            return pos;
        };
        let pos = calls.run(frame, chunk, pos, base, sink);
        if !calls.active() {
            self.phase = Phase::Text;
        }
        pos
    }

    /// The stream ended in the markup: the parameters machine ends its own structure (an
    /// open call is incomplete, an open section reported).
    pub(super) fn finish_invokes<S: Sink>(&mut self, frame: &mut Frame, end: u64, sink: &mut S) {
        if let Slot::Markup(calls) = &mut self.slot {
            calls.finish(frame, end, sink);
        }
        self.phase = Phase::Text;
    }
}
