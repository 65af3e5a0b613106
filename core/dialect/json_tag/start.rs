//! A call with no opener (the `json_start` knob): a JSON call object that begins the
//! output, `{"name": …, "parameters": {…}}` (Llama 3's JSON tool calls), or with `list` an
//! array of them, `[{"name": …, "arguments": {…}}, …]` (xLAM); after a call, another such
//! object after blanks and at most one `;` (Llama's `{…}; {…}`). Nothing marks the call but
//! where it stands, so the head is held until its first key says what it is: `{`, blanks
//! and a quoted `name`, `arguments` or `parameters`. Anything else there is text, and so
//! is what follows it (docs/dialects.md §llama3-json, §xlam).

use arrayvec::ArrayVec;

use super::{Envelope, JsonTag, Key, Modes, Phase, KEY_CAP};
use crate::engine::frame::Frame;
use crate::{Markup, Sink, Span};

/// Longest held head: separator blanks, `[`, `{`, blanks and the first key with its
/// quotes. A longer run of blanks is text.
const HEAD_CAP: usize = 48;

/// What the held head has reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum HeadAt {
    /// After a call: blanks, and at most one `;`, before the next object.
    Separator,
    /// After the separator's `;`: blanks.
    Semicolon,
    /// After an array's `[` (`list`): blanks, then `{`.
    List,
    /// After the object's `{`: blanks, then a key's quote.
    Brace,
    /// The opening fence's backticks (`json_start_fence`).
    Fence,
    /// The opening fence's info string, up to its line break.
    Info,
    /// Inside the first key.
    Key,
}

/// The held head of a call with no opener. Its bytes are held in the call's name buffer,
/// which no call uses meanwhile (the scanner stays small).
#[derive(Debug, Clone)]
pub(super) struct Head {
    at: HeadAt,
    /// Where the separator ends in `bytes`: the `[` or `{` that opens the call.
    open: u8,
    /// Where the key begins in `bytes`, after its quote.
    key: u8,
    /// The head began with a code fence.
    fenced: bool,
}

impl Head {
    pub(super) fn new() -> Self {
        Head {
            at: HeadAt::Separator,
            open: 0,
            key: 0,
            fenced: false,
        }
    }
}

/// What a call object's key means in a dialect with `modes`.
pub(super) fn key_kind(modes: &Modes, key: &[u8], overflow: bool) -> Key {
    if overflow || modes.keyed {
        Key::Other
    } else if key == modes.name_key {
        Key::Name
    } else if key == modes.arguments_key || key == b"parameters" {
        Key::Arguments
    } else if modes.id_key == Some(key) {
        Key::Id
    } else {
        Key::Other
    }
}

/// Blanks before a call with no opener and inside its head.
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

impl JsonTag {
    /// The phase after a call ended complete: text, or with `json_start` the held head of
    /// a next call with no opener.
    pub(super) fn after_call(&mut self) {
        if self.modes.json_start {
            self.head = Head::new();
            self.call.name.clear();
            self.phase = Phase::Head;
        } else {
            self.phase = Phase::Text;
        }
    }

    /// Where a call with no opener may begin (the stream's start, or a reasoning bound):
    /// blanks are text, a `{` (with `list`, a `[`) begins a held head; any other byte makes
    /// this text from here on.
    pub(super) fn start<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let blanks = chunk[pos..].iter().take_while(|&&b| is_blank(b)).count();
        let i = pos + blanks;
        if blanks > 0 {
            let span = Span::new(base + pos as u64, base + i as u64);
            frame.release(span, &chunk[pos..i], sink);
        }
        match chunk.get(i) {
            None => i,
            Some(&b)
                if b == b'{'
                    || (b == b'[' && self.modes.list)
                    || (b == b'`' && self.modes.json_start_fence) =>
            {
                // No separator at the start: the head begins with its call (or its fence).
                self.head = Head::new();
                self.head.at = match b {
                    b'{' => HeadAt::Brace,
                    b'[' => HeadAt::List,
                    _ => HeadAt::Fence,
                };
                self.head.fenced = b == b'`';
                self.call.name.clear();
                self.call.name.push(b);
                self.phase = Phase::Head;
                i + 1
            }
            Some(_) => {
                self.phase = Phase::Text;
                i
            }
        }
    }

    /// The held head: each byte either fits it (held), completes it (the call opens), or
    /// makes it text.
    pub(super) fn head<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        for (i, &b) in chunk.iter().enumerate().skip(pos) {
            let held = &mut self.call.name;
            let head = &mut self.head;
            let len = held.len() as u8;
            let fits = match (head.at, b) {
                (HeadAt::Separator | HeadAt::Semicolon | HeadAt::List | HeadAt::Brace, _)
                    if is_blank(b) =>
                {
                    true
                }
                (HeadAt::Separator, b';') => {
                    head.at = HeadAt::Semicolon;
                    true
                }
                (HeadAt::Separator | HeadAt::Semicolon, b'[') if self.modes.list => {
                    head.open = len;
                    head.at = HeadAt::List;
                    true
                }
                (HeadAt::Separator | HeadAt::Semicolon, b'{') => {
                    head.open = len;
                    head.at = HeadAt::Brace;
                    true
                }
                // Three backticks, an info string such as `json`, the line break: then
                // blanks and the call, as after a separator's `;`.
                (HeadAt::Fence, b'`') => len < 3,
                (HeadAt::Fence | HeadAt::Info, b'\n') if len >= 3 => {
                    head.at = HeadAt::Semicolon;
                    true
                }
                (HeadAt::Fence | HeadAt::Info, _) if len >= 3 && b.is_ascii_lowercase() => {
                    head.at = HeadAt::Info;
                    len < 12
                }
                (HeadAt::List, b'{') => {
                    head.at = HeadAt::Brace;
                    true
                }
                (HeadAt::Brace, b'"') => {
                    head.key = len + 1;
                    head.at = HeadAt::Key;
                    true
                }
                (HeadAt::Key, b'"') => {
                    // Opened: the quote was the call's; not: it is text, as the head is.
                    let opened = self.head_key(frame, base + i as u64, sink);
                    return if opened { i + 1 } else { i };
                }
                (HeadAt::Key, _) => {
                    usize::from(len - head.key) < KEY_CAP && b.is_ascii_alphabetic()
                }
                _ => false,
            };
            if !fits || held.len() >= HEAD_CAP {
                self.head_is_text_again(frame, base + i as u64, sink);
                return i;
            }
            held.push(b);
        }
        chunk.len()
    }

    /// The first key's closing quote is at stream offset `at`: a key of a call object
    /// opens the call, any other makes the head text. Returns whether the call opened.
    fn head_key<S: Sink>(&mut self, frame: &mut Frame, at: u64, sink: &mut S) -> bool {
        let key = usize::from(self.head.key);
        let kind = key_kind(self.modes, &self.call.name[key..], false);
        if !matches!(kind, Key::Name | Key::Arguments) {
            self.head_is_text_again(frame, at, sink);
            return false;
        }
        let mut held: ArrayVec<u8, HEAD_CAP> = ArrayVec::new_const();
        // Cannot fail: the head holds at most HEAD_CAP bytes.
        let _ = held.try_extend_from_slice(&self.call.name);
        let start = at - held.len() as u64;
        let open = usize::from(self.head.open);
        let (separator, rest) = held.split_at(open);
        if !separator.is_empty() {
            let span = Span::new(start, start + open as u64);
            sink.markup(span, Markup::Envelope, separator);
        }
        let call_at = start + open as u64;
        self.open_call(frame, Span::at(call_at), sink);
        if self.phase != Phase::Body {
            // A limit refused the call: its head is text.
            frame.release(Span::new(call_at, at), rest, sink);
            return false;
        }
        sink.markup(Span::new(call_at, at), Markup::Envelope, rest);
        sink.markup(Span::new(at, at + 1), Markup::Envelope, b"\"");
        self.in_list = rest[0] == b'[';
        let call = &mut self.call;
        // A fenced call's closing fence is markup of its tail.
        call.fence = u8::from(self.head.fenced);
        call.key.clear();
        // Cannot fail: the head's key is at most KEY_CAP bytes.
        let _ = call.key.try_extend_from_slice(&held[key..]);
        call.key_kind = kind;
        call.envelope = Envelope::Colon;
        true
    }

    /// The held head, which ends at stream offset `at` (the chunk byte the scan stops at),
    /// is no call: it is scanned again as text, as what follows is, so that a delimiter
    /// that begins in it is found (xLAM's `[` of `[TOOL_CALLS]`).
    fn head_is_text_again<S: Sink>(&mut self, frame: &mut Frame, at: u64, sink: &mut S) {
        let hold = &mut frame.delimiters.hold;
        if hold.is_empty() && self.call.name.len() <= hold.capacity() {
            // The driver scans the held bytes again in the text phase (`Frame::replay`).
            let _ = hold.try_extend_from_slice(&self.call.name);
            frame.replay = true;
            self.call.name.clear();
            self.phase = Phase::Text;
        } else {
            self.head_is_text(frame, at, sink);
        }
    }

    /// The held head, which ends at stream offset `at`, is no call: it is text, and so is
    /// what follows.
    pub(super) fn head_is_text<S: Sink>(&mut self, frame: &mut Frame, at: u64, sink: &mut S) {
        let bytes = &self.call.name;
        if !bytes.is_empty() {
            frame.release(Span::new(at - bytes.len() as u64, at), bytes, sink);
        }
        self.call.name.clear();
        self.phase = Phase::Text;
    }
}
