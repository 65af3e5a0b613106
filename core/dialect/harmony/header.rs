//! A Harmony message header, read as it streams by: the author, the channel word, the
//! `to=` recipient (the call's name) and the content type, in fixed buffers.

use arrayvec::ArrayVec;

use crate::options::MAX_NAME;
use crate::tables::MessageChannel;
use crate::{Diagnostic, Markup, Sink, Span};

/// Longest header read, in bytes of text between its special tokens. Real headers are
/// under 100 bytes; a longer one is a model that forgot `<|message|>`, and what it writes
/// must not vanish into markup.
const HEADER_CAP: u16 = 256;

/// The longest header word that is compared with anything (`assistant`).
const WORD_CAP: usize = 9;

/// The namespace of the caller's functions in a recipient.
const FUNCTIONS: &[u8] = b"functions.";

/// Which header field the words being read follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Part {
    /// After `<|start|>`: the author, then maybe a recipient and a content type.
    Author,
    /// After `<|channel|>`: the channel word, then maybe a recipient and a content type.
    Channel,
    /// After `<|constrain|>`: the content type.
    Type,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Author {
    /// No author word (yet): the assistant, as after a bare `<|channel|>`.
    Unnamed,
    Assistant,
    /// Anyone else: a fabricated message.
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Channel {
    Unnamed,
    Analysis,
    /// `final`, `commentary` or anything else: visible text.
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Recipient {
    None,
    /// Inside the word `to=…`.
    Reading,
    Done,
}

/// What a header has said so far.
#[derive(Debug, Clone)]
pub(super) struct Header {
    /// Header text bytes so far, special tokens not counted.
    len: u16,
    /// Past [`HEADER_CAP`]: the rest of the header is text and it makes nothing.
    pub(super) overflow: bool,
    pub(super) part: Part,
    /// No word of the current part has ended yet.
    pub(super) first_word: bool,
    pub(super) author: Author,
    pub(super) channel: Channel,
    /// A `<|channel|>` was read.
    pub(super) channel_token: bool,
    in_word: bool,
    /// The word's first bytes (up to its length), enough to compare it with the words that
    /// matter.
    word: [u8; WORD_CAP],
    word_len: u16,
    word_start: u64,
    recipient: Recipient,
    /// Where the word `to=…` starts, and its length once it ended.
    recipient_start: u64,
    recipient_len: u16,
    /// How many bytes of `functions.` the recipient began with (all of them: it is dropped).
    namespace: u8,
    pub(super) name: ArrayVec<u8, MAX_NAME>,
    name_too_long: bool,
}

impl Header {
    /// A header opened by `<|start|>`, or by a `<|channel|>` outside a header (the prompt
    /// wrote `<|start|>assistant`).
    pub(super) fn new(at_channel: bool) -> Self {
        Header {
            len: 0,
            overflow: false,
            part: if at_channel {
                Part::Channel
            } else {
                Part::Author
            },
            first_word: true,
            author: Author::Unnamed,
            channel: Channel::Unnamed,
            channel_token: at_channel,
            in_word: false,
            word: [0; WORD_CAP],
            word_len: 0,
            word_start: 0,
            recipient: Recipient::None,
            recipient_start: 0,
            recipient_len: 0,
            namespace: 0,
            name: ArrayVec::new_const(),
            name_too_long: false,
        }
    }

    /// The word's bytes kept, and whether that is all of it.
    fn word(&self) -> (&[u8], bool) {
        let len = usize::from(self.word_len);
        (&self.word[..len.min(WORD_CAP)], len <= WORD_CAP)
    }

    /// Where the name is in the stream: the recipient after `to=` and its namespace.
    pub(super) fn name_span(&self) -> Span {
        let mut start = self.recipient_start + 3;
        if usize::from(self.namespace) == FUNCTIONS.len() {
            start += FUNCTIONS.len() as u64;
        }
        Span::new(start, self.recipient_start + u64::from(self.recipient_len))
    }

    /// Header text between special tokens (`span` is where `bytes` are): markup up to
    /// [`HEADER_CAP`], text after it.
    pub(super) fn text<S: Sink>(&mut self, span: Span, bytes: &[u8], sink: &mut S) {
        let at = |i: usize| span.start + i as u64;
        // First byte not yet reported: events about a word come right after its last byte.
        let mut run = 0;
        let mut i = 0;
        while i < bytes.len() {
            if self.len == HEADER_CAP || self.overflow {
                markup(Span::new(at(run), at(i)), &bytes[run..i], sink);
                if !self.overflow {
                    self.overflow = true;
                    self.in_word = false;
                    sink.diagnostic(Span::new(at(i), at(i + 1)), Diagnostic::HeaderTooLong);
                }
                sink.text(Span::new(at(i), span.end), &bytes[i..]);
                return;
            }
            // The seed's header words end at whitespace or `<` (corpus 044: a recipient
            // never takes in markup).
            let b = bytes[i];
            if word_end(b) {
                self.len += 1;
                if self.in_word {
                    markup(Span::new(at(run), at(i)), &bytes[run..i], sink);
                    run = i;
                    self.end_word(sink);
                }
                i += 1;
            } else {
                // The word's bytes up to its end, or up to the cap, at once.
                let room = usize::from(HEADER_CAP - self.len);
                let n = bytes[i..]
                    .iter()
                    .take(room)
                    .take_while(|&&b| !word_end(b))
                    .count();
                // Fits: `n` is at most the room left below the cap.
                self.len += n as u16;
                self.word_bytes(&bytes[i..i + n], at(i));
                i += n;
            }
        }
        markup(Span::new(at(run), span.end), &bytes[run..], sink);
    }

    /// Bytes of a word (not empty, none of them ending it), the first at stream offset `at`.
    fn word_bytes(&mut self, bytes: &[u8], at: u64) {
        if !self.in_word {
            self.in_word = true;
            self.word_len = 0;
            self.word_start = at;
        }
        let old = usize::from(self.word_len);
        if old < WORD_CAP {
            let n = bytes.len().min(WORD_CAP - old);
            self.word[old..old + n].copy_from_slice(&bytes[..n]);
        }
        // Fits: a word is part of a header of at most HEADER_CAP bytes.
        self.word_len += bytes.len() as u16;
        let rest = match self.recipient {
            // The word is `to=` once its third byte is read; the bytes after it are the
            // recipient's.
            Recipient::None if old < 3 && usize::from(self.word_len) >= 3 => {
                if &self.word[..3] != b"to=" {
                    return;
                }
                self.recipient = Recipient::Reading;
                self.recipient_start = self.word_start;
                &bytes[3 - old..]
            }
            Recipient::Reading => bytes,
            _ => return,
        };
        self.recipient_bytes(rest);
    }

    fn recipient_bytes(&mut self, mut bytes: &[u8]) {
        while self.name.is_empty() && usize::from(self.namespace) < FUNCTIONS.len() {
            let Some((&b, rest)) = bytes.split_first() else {
                return;
            };
            if b != FUNCTIONS[usize::from(self.namespace)] {
                // Another namespace (`browser.search`): what looked like `functions.` is name.
                self.unmatch_namespace();
                break;
            }
            self.namespace += 1;
            bytes = rest;
        }
        let room = self.name.remaining_capacity();
        if bytes.len() > room {
            self.name_too_long = true;
        }
        // Cannot overflow: at most the room left.
        let _ = self
            .name
            .try_extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    /// The recipient is not in the `functions.` namespace: the bytes taken for its prefix
    /// are the start of the name.
    fn unmatch_namespace(&mut self) {
        let matched = usize::from(self.namespace);
        if matched < FUNCTIONS.len() {
            // Fits: the name is empty and shorter than the namespace.
            let _ = self.name.try_extend_from_slice(&FUNCTIONS[..matched]);
        }
    }

    /// The word being read (if any) ended: it may be the author, the channel or the
    /// recipient.
    pub(super) fn end_word<S: Sink>(&mut self, sink: &mut S) {
        if !self.in_word {
            return;
        }
        self.in_word = false;
        if self.recipient == Recipient::Reading {
            if self.name.is_empty() {
                self.unmatch_namespace();
            }
            self.recipient = Recipient::Done;
            self.recipient_len = self.word_len;
            // `<|start|>assistant to=…` and `<|channel|>to=… commentary` alike: the recipient
            // is neither the author nor the channel.
            return;
        }
        if !core::mem::replace(&mut self.first_word, false) {
            return;
        }
        let word = self.word();
        match self.part {
            Part::Author if word == (b"assistant", true) => self.author = Author::Assistant,
            Part::Author => {
                self.author = Author::Other;
                let end = self.word_start + u64::from(self.word_len);
                sink.fabricated_result(Span::new(self.word_start, end));
            }
            Part::Channel if self.channel == Channel::Unnamed => {
                self.channel = if word == (b"analysis", true) {
                    Channel::Analysis
                } else {
                    Channel::Other
                };
            }
            Part::Channel | Part::Type => {}
        }
    }

    /// The header names a call: a recipient other than the assistant, from the assistant.
    pub(super) fn is_call(&self) -> bool {
        let namespaced = usize::from(self.namespace) == FUNCTIONS.len();
        !self.overflow
            && self.author != Author::Other
            && self.recipient == Recipient::Done
            && (namespaced || self.name.as_slice() != b"assistant")
    }

    /// The channel a listed recipient gives its message (the `recipients` knob: Muse's
    /// `to=self`), if the recipient is one of them; a namespaced recipient never is.
    pub(super) fn listed(&self, recipients: &[(&[u8], MessageChannel)]) -> Option<MessageChannel> {
        if self.overflow
            || self.recipient != Recipient::Done
            || usize::from(self.namespace) == FUNCTIONS.len()
        {
            return None;
        }
        let name = self.name.as_slice();
        recipients
            .iter()
            .find(|(word, _)| *word == name)
            .map(|&(_, channel)| channel)
    }

    /// Neither a recipient nor a channel: Muse's bare `<|message|>`.
    pub(super) fn is_bare(&self) -> bool {
        self.recipient == Recipient::None && !self.channel_token
    }

    /// Why the recipient cannot be a name (docs/dialects.md rule 9), if it cannot.
    pub(super) fn name_problem(&self) -> Option<Diagnostic> {
        let name = &self.name;
        if self.name_too_long {
            Some(Diagnostic::NameTooLong)
        } else if name.is_empty()
            || (!name.is_ascii() && core::str::from_utf8(name).is_err())
            || name
                .iter()
                .any(|&b| b.is_ascii_control() || matches!(b, b'>' | b'"' | b'\'' | b'\\'))
        {
            Some(Diagnostic::InvalidName)
        } else {
            None
        }
    }
}

/// A byte that ends a header word.
#[inline(always)]
fn word_end(b: u8) -> bool {
    b.is_ascii_whitespace() || b == b'<'
}

#[inline]
pub(super) fn markup<S: Sink>(span: Span, bytes: &[u8], sink: &mut S) {
    if !bytes.is_empty() {
        sink.markup(span, Markup::Envelope, bytes);
    }
}
