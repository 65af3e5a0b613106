//! The counting sink that checks a scan, the benches' scanner options and the scan itself.

use std::hint::black_box;

use inband::{CallEnd, Markup, Options, Scanner, Sink, Span};

use super::Input;

/// A sink that only counts, so the scan cannot be optimised away and can be checked.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Counts {
    pub events: u64,
    pub text_bytes: u64,
    pub reasoning_bytes: u64,
    pub markup_bytes: u64,
    pub args_bytes: u64,
    pub starts: u64,
    pub names: u64,
    pub complete: u64,
    pub other_ends: u64,
    pub diagnostics: u64,
}

impl Sink for Counts {
    fn text(&mut self, _: Span, text: &[u8]) {
        self.events += 1;
        self.text_bytes += text.len() as u64;
    }
    fn reasoning(&mut self, _: Span, text: &[u8]) {
        self.events += 1;
        self.reasoning_bytes += text.len() as u64;
    }
    fn markup(&mut self, _: Span, _: Markup, bytes: &[u8]) {
        self.events += 1;
        self.markup_bytes += bytes.len() as u64;
    }
    fn tool_start(&mut self, _: Span, _: u32, _: Option<&[u8]>, _: bool) {
        self.events += 1;
        self.starts += 1;
    }
    fn tool_name(&mut self, _: Span, _: u32, _: &[u8]) {
        self.events += 1;
        self.names += 1;
    }
    fn tool_args(&mut self, _: Span, _: u32, json: &[u8]) {
        self.events += 1;
        self.args_bytes += json.len() as u64;
    }
    fn tool_value(&mut self, _: Span, _: u32, _: inband::Piece, text: &[u8]) {
        self.events += 1;
        self.args_bytes += text.len() as u64;
    }
    fn tool_end(&mut self, _: Span, _: u32, end: CallEnd) {
        self.events += 1;
        if end == CallEnd::Complete {
            self.complete += 1;
        } else {
            self.other_ends += 1;
        }
    }
    fn diagnostic(&mut self, _: Span, _: inband::Diagnostic) {
        self.events += 1;
        self.diagnostics += 1;
    }
}

/// Scanner options for the benches: the defaults, but with room for the 16 384 calls of
/// the 16 MiB sweep input (the default `max_calls` is 1024).
pub fn options() -> Options {
    let mut options = Options::default();
    options.max_calls = u32::MAX;
    options
}

/// Feeds `input` to `scanner` in chunks of `chunk` bytes (`0`: in one piece) and finishes.
#[inline]
pub fn scan_into(scanner: &mut Scanner, sink: &mut Counts, input: &[u8], chunk: usize) {
    if chunk == 0 {
        scanner.feed(input, sink).unwrap();
    } else {
        for piece in input.chunks(chunk) {
            scanner.feed(piece, sink).unwrap();
        }
    }
    scanner.finish(sink).unwrap();
}

/// A fresh scan of `input` in chunks of `chunk` bytes (`0`: in one piece).
pub fn scan(input: &Input, chunk: usize) -> Counts {
    let mut scanner = Scanner::new(input.dialect, options());
    let mut counts = Counts::default();
    scan_into(&mut scanner, &mut counts, black_box(&input.bytes), chunk);
    counts
}
