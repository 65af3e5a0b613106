//! Level 1's events: the C callback table and the sink that forwards to it.

use std::ffi::{c_char, c_void};

use inband::{CallEnd, Diagnostic, Markup, Piece, Sink, Span, ValueKind};

use crate::scanner::inband_span_t;

/// How a tool call ended (`tool_end`). Every `tool_start` is followed by exactly one
/// `tool_end` for the same call, at the latest during `inband_scanner_finish()`.
pub type inband_call_end_t = u32;
/// The call's structure closed (or its JSON was complete when the stream ended). Safe to
/// execute.
pub const INBAND_CALL_COMPLETE: inband_call_end_t = 0;
/// The stream ended inside the call. Never executable.
pub const INBAND_CALL_INCOMPLETE: inband_call_end_t = 1;
/// A draft inside a reasoning block that later closed: its bytes belong back in the
/// reasoning text at their position.
pub const INBAND_CALL_DEMOTED: inband_call_end_t = 2;
/// Its structure broke; its bytes belong back in the enclosing text. A diagnostic says why.
pub const INBAND_CALL_INVALID: inband_call_end_t = 3;

fn call_end_of(end: CallEnd) -> inband_call_end_t {
    match end {
        CallEnd::Complete => INBAND_CALL_COMPLETE,
        CallEnd::Incomplete => INBAND_CALL_INCOMPLETE,
        CallEnd::Demoted => INBAND_CALL_DEMOTED,
        CallEnd::Invalid => INBAND_CALL_INVALID,
    }
}

/// The events of a scanner, one function pointer per event kind (the shape of llhttp's
/// settings); a NULL member ignores its event. Every callback gets the `user` pointer
/// given to `inband_scanner_feed()` / `inband_scanner_finish()` first.
///
/// Payload pointers (`text`, `bytes`, `name`, `key`, `id`, `json`) are borrowed for the
/// duration of the callback only: they point into the chunk being fed or into the scanner,
/// are not NUL-terminated, and may end inside a UTF-8 code point; copy what you keep.
/// Adjacent payloads of one kind may arrive as any number of fragments: join them before
/// comparing. Code strings (`kind`, `piece`, `code`, `message`) are static, not
/// NUL-terminated (print them with `%.*s`), and the same codes as the CLI's `events`
/// output. Spans are byte offsets from stream start; the spans of `text`, `reasoning`,
/// `markup`, `tool_args` and `tool_value` tile the stream exactly. Calls are numbered from
/// 0 in stream order (`call`).
///
/// A callback must not call back into the same scanner (that returns `INBAND_ERROR_STATE`),
/// must not unwind (a C++ exception or `longjmp` through the library aborts the process) and
/// should return quickly: the scanner waits for it.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct inband_callbacks_t {
    /// Visible content (OpenAI `delta.content`).
    pub text: Option<
        unsafe extern "C" fn(user: *mut c_void, span: inband_span_t, text: *const u8, len: usize),
    >,
    /// Reasoning text (between the reasoning delimiters, or from the stream start when the
    /// scanner starts in reasoning).
    pub reasoning: Option<
        unsafe extern "C" fn(user: *mut c_void, span: inband_span_t, text: *const u8, len: usize),
    >,
    /// Consumed structure: a delimiter, whole, whose role is `kind` (`call_open`,
    /// `call_close`, `reasoning_open`, `stop`, …, the role keys of the dialect tables), or
    /// call envelope bytes (`kind` is `envelope`: braces, keys, the name, separators).
    pub markup: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            span: inband_span_t,
            kind: *const c_char,
            kind_len: usize,
            bytes: *const u8,
            len: usize,
        ),
    >,
    /// A reasoning block opened; `span` is its opener (empty when the stream started in
    /// reasoning).
    pub reasoning_start: Option<unsafe extern "C" fn(user: *mut c_void, span: inband_span_t)>,
    /// A reasoning block ended; `span` is its closer (empty when the stream ended first).
    pub reasoning_end: Option<unsafe extern "C" fn(user: *mut c_void, span: inband_span_t)>,
    /// A call began. `name` is the whole name when the model wrote it before the arguments,
    /// else NULL with `name_len` 0 (then `tool_name` follows). `provisional` is true for a
    /// call inside reasoning whose fate waits for the reasoning to close: a server must not
    /// expose it before its `tool_end`.
    pub tool_start: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            span: inband_span_t,
            call: u32,
            name: *const u8,
            name_len: usize,
            provisional: bool,
        ),
    >,
    /// The call's id as the model wrote it (Kimi `functions.NAME:IDX`), before any
    /// argument; other dialects never send it.
    pub tool_id: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            span: inband_span_t,
            call: u32,
            id: *const u8,
            len: usize,
        ),
    >,
    /// The name of a call whose arguments came first (trimmed, whole).
    pub tool_name: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            span: inband_span_t,
            call: u32,
            name: *const u8,
            len: usize,
        ),
    >,
    /// A fragment of the model's raw JSON text of the call's arguments (JSON dialects).
    pub tool_args: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            span: inband_span_t,
            call: u32,
            json: *const u8,
            len: usize,
        ),
    >,
    /// A parameter began (dialects that write parameters instead of JSON). `key` is its
    /// name, whole; `kind` says how its value is written: `text`, `json`, `untyped` (raw
    /// text), `gemma` or `python` (literal syntax).
    pub tool_param: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            span: inband_span_t,
            call: u32,
            key: *const u8,
            key_len: usize,
            kind: *const c_char,
            kind_len: usize,
        ),
    >,
    /// A fragment of the current parameter's value as written; `piece` is `verbatim` for a
    /// raw-text value, else `punct`, `space`, `string_open`, `string_close`, `raw`,
    /// `escaped`, `literal_quote` or `bare`.
    pub tool_value: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            span: inband_span_t,
            call: u32,
            piece: *const c_char,
            piece_len: usize,
            bytes: *const u8,
            len: usize,
        ),
    >,
    /// The current parameter's value is complete.
    pub tool_param_end:
        Option<unsafe extern "C" fn(user: *mut c_void, span: inband_span_t, call: u32)>,
    /// The call ended, as `end` says (`INBAND_CALL_COMPLETE` …).
    pub tool_end: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            span: inband_span_t,
            call: u32,
            end: inband_call_end_t,
        ),
    >,
    /// The model began writing a tool result itself; a consumer may stop feeding here.
    pub fabricated_result: Option<unsafe extern "C" fn(user: *mut c_void, span: inband_span_t)>,
    /// Something in the output worth reporting (never an error): `code` is a stable
    /// snake_case code (`missing_closer`, `truncated_call`, …), `message` an English
    /// sentence.
    pub diagnostic: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            span: inband_span_t,
            code: *const c_char,
            code_len: usize,
            message: *const c_char,
            message_len: usize,
        ),
    >,
}

/// Forwards a scanner's events to C callbacks.
pub(crate) struct Callbacks<'a> {
    pub(crate) table: &'a inband_callbacks_t,
    pub(crate) user: *mut c_void,
}

/// A static code string as C's pointer and length.
fn code(s: &'static str) -> (*const c_char, usize) {
    (s.as_ptr().cast(), s.len())
}

impl Sink for Callbacks<'_> {
    fn text(&mut self, span: Span, text: &[u8]) {
        if let Some(f) = self.table.text {
            // SAFETY: the caller supplied `f` for this signature; `text` lives for the call.
            unsafe { f(self.user, span.into(), text.as_ptr(), text.len()) }
        }
    }
    fn reasoning(&mut self, span: Span, text: &[u8]) {
        if let Some(f) = self.table.reasoning {
            // SAFETY: as in `text`.
            unsafe { f(self.user, span.into(), text.as_ptr(), text.len()) }
        }
    }
    fn markup(&mut self, span: Span, kind: Markup, bytes: &[u8]) {
        if let Some(f) = self.table.markup {
            let (k, k_len) = code(match kind {
                Markup::Delimiter(role) => role.key(),
                _ => "envelope",
            });
            // SAFETY: as in `text`; the kind is static.
            unsafe {
                f(
                    self.user,
                    span.into(),
                    k,
                    k_len,
                    bytes.as_ptr(),
                    bytes.len(),
                )
            }
        }
    }
    fn reasoning_start(&mut self, span: Span) {
        if let Some(f) = self.table.reasoning_start {
            // SAFETY: the caller supplied `f` for this signature.
            unsafe { f(self.user, span.into()) }
        }
    }
    fn reasoning_end(&mut self, span: Span) {
        if let Some(f) = self.table.reasoning_end {
            // SAFETY: the caller supplied `f` for this signature.
            unsafe { f(self.user, span.into()) }
        }
    }
    fn tool_start(&mut self, span: Span, call: u32, name: Option<&[u8]>, provisional: bool) {
        if let Some(f) = self.table.tool_start {
            let (ptr, len) = name.map_or((std::ptr::null(), 0), |n| (n.as_ptr(), n.len()));
            // SAFETY: as in `text`; a missing name is NULL with length 0, as documented.
            unsafe { f(self.user, span.into(), call, ptr, len, provisional) }
        }
    }
    fn tool_id(&mut self, span: Span, call: u32, id: &[u8]) {
        if let Some(f) = self.table.tool_id {
            // SAFETY: as in `text`.
            unsafe { f(self.user, span.into(), call, id.as_ptr(), id.len()) }
        }
    }
    fn tool_name(&mut self, span: Span, call: u32, name: &[u8]) {
        if let Some(f) = self.table.tool_name {
            // SAFETY: as in `text`.
            unsafe { f(self.user, span.into(), call, name.as_ptr(), name.len()) }
        }
    }
    fn tool_args(&mut self, span: Span, call: u32, json: &[u8]) {
        if let Some(f) = self.table.tool_args {
            // SAFETY: as in `text`.
            unsafe { f(self.user, span.into(), call, json.as_ptr(), json.len()) }
        }
    }
    fn tool_param(&mut self, span: Span, call: u32, key: &[u8], kind: ValueKind) {
        if let Some(f) = self.table.tool_param {
            let (k, k_len) = code(kind.code());
            // SAFETY: as in `text`; the kind is static.
            unsafe {
                f(
                    self.user,
                    span.into(),
                    call,
                    key.as_ptr(),
                    key.len(),
                    k,
                    k_len,
                )
            }
        }
    }
    fn tool_value(&mut self, span: Span, call: u32, piece: Piece, bytes: &[u8]) {
        if let Some(f) = self.table.tool_value {
            let (p, p_len) = code(piece.code());
            // SAFETY: as in `text`; the piece is static.
            unsafe {
                f(
                    self.user,
                    span.into(),
                    call,
                    p,
                    p_len,
                    bytes.as_ptr(),
                    bytes.len(),
                )
            }
        }
    }
    fn tool_param_end(&mut self, span: Span, call: u32) {
        if let Some(f) = self.table.tool_param_end {
            // SAFETY: the caller supplied `f` for this signature.
            unsafe { f(self.user, span.into(), call) }
        }
    }
    fn tool_end(&mut self, span: Span, call: u32, end: CallEnd) {
        if let Some(f) = self.table.tool_end {
            // SAFETY: the caller supplied `f` for this signature.
            unsafe { f(self.user, span.into(), call, call_end_of(end)) }
        }
    }
    fn fabricated_result(&mut self, span: Span) {
        if let Some(f) = self.table.fabricated_result {
            // SAFETY: the caller supplied `f` for this signature.
            unsafe { f(self.user, span.into()) }
        }
    }
    fn diagnostic(&mut self, span: Span, diagnostic: Diagnostic) {
        if let Some(f) = self.table.diagnostic {
            let (c, c_len) = code(diagnostic.code());
            let (m, m_len) = code(diagnostic.message());
            // SAFETY: the caller supplied `f` for this signature; both strings are static.
            unsafe { f(self.user, span.into(), c, c_len, m, m_len) }
        }
    }
}
