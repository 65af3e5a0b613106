//! Level 1: the allocation-free scanner, its memory and its callbacks.

use std::cell::Cell;
use std::ffi::{c_char, c_void};
use std::mem::{align_of, size_of};
use std::ptr::{addr_of, addr_of_mut};

use inband::{CallEnd, Diagnostic, Markup, Options, Piece, Scanner, Sink, Span, ValueKind};

use crate::error::*;
use crate::{dialect_of, inband_dialect_t, put};

/// A byte range of the stream: offsets in bytes from the first byte fed (after the last
/// `inband_scanner_reset()`), `start` inclusive, `end` exclusive.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct inband_span_t {
    /// Offset of the first byte, in bytes from stream start.
    pub start: u64,
    /// Offset one past the last byte, in bytes from stream start.
    pub end: u64,
}

impl From<Span> for inband_span_t {
    fn from(span: Span) -> Self {
        inband_span_t {
            start: span.start,
            end: span.end,
        }
    }
}

/// Scanner options. All zero (`inband_options_t options = {0};`, or a NULL pointer where
/// options are taken) means the defaults.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct inband_options_t {
    /// The stream starts inside reasoning: the prompt already opened it (Qwen3-Thinking,
    /// DeepSeek-R1 and MiniMax-M2 templates end the prompt with `<think>\n`). Default: false.
    pub starts_in_reasoning: bool,
    /// Most argument bytes one call may have; more end the call as invalid with an
    /// `arguments_too_long` diagnostic. 0 means the default, 64 MiB.
    pub max_argument_bytes: u64,
    /// Most call openers one response may hold; later calls are invalid with a
    /// `too_many_calls` diagnostic. 0 means the default, 1024.
    pub max_calls: u32,
}

/// The Rust options of C options (NULL: the defaults).
///
/// # Safety
/// `options` is NULL or points to a readable `inband_options_t`.
pub(crate) unsafe fn options_of(options: *const inband_options_t) -> Options {
    let mut rust = Options::default();
    // SAFETY: NULL or readable, by the caller's contract.
    if let Some(c) = unsafe { options.as_ref() } {
        rust.starts_in_reasoning = c.starts_in_reasoning;
        if c.max_argument_bytes != 0 {
            rust.max_argument_bytes = c.max_argument_bytes;
        }
        if c.max_calls != 0 {
            rust.max_calls = c.max_calls;
        }
    }
    rust
}

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
struct Callbacks<'a> {
    table: &'a inband_callbacks_t,
    user: *mut c_void,
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

/// Marks memory that holds an initialized scanner ("inbandSC").
const LIVE: u64 = 0x696e_6261_6e64_5343;

/// A streaming scanner for one dialect (opaque). It lives in caller memory
/// (`inband_scanner_init()`) or in memory of the library's (`inband_scanner_new()`); it
/// owns nothing else, allocates nothing and has a fixed size.
#[derive(Debug)]
pub struct inband_scanner_t {
    /// [`LIVE`] while initialized.
    magic: u64,
    /// Allocated by `inband_scanner_new` (then `inband_scanner_free` may release it).
    owned: bool,
    /// Inside `feed` or `finish`: a callback must not re-enter.
    busy: Cell<bool>,
    scanner: Scanner,
}

/// Bytes of memory a scanner needs (`inband_scanner_init()`); a constant of the library
/// build, a few hundred bytes.
#[no_mangle]
pub extern "C" fn inband_scanner_size() -> usize {
    size_of::<inband_scanner_t>()
}

/// The alignment, in bytes, that memory for a scanner needs (`inband_scanner_init()`).
#[no_mangle]
pub extern "C" fn inband_scanner_align() -> usize {
    align_of::<inband_scanner_t>()
}

fn new_state(
    dialect: inband_dialect_t,
    options: Options,
    owned: bool,
) -> Result<inband_scanner_t, Failure> {
    Ok(inband_scanner_t {
        magic: LIVE,
        owned,
        busy: Cell::new(false),
        scanner: Scanner::new(dialect_of(dialect)?, options),
    })
}

/// Initializes a scanner for `dialect` at the start of a stream in caller memory `mem` of
/// `size` bytes, which must be at least `inband_scanner_size()` bytes aligned to
/// `inband_scanner_align()` (`malloc` memory, `alignas(16)` storage or a `max_align_t`
/// array do). `options` may be NULL for the defaults. Writes `(inband_scanner_t *)mem` to
/// `*out` unless `out` is NULL. Allocates nothing.
///
/// The scanner owns no other resource: there is nothing to tear down, and the memory may be
/// reused or released once no call on the scanner is running (do not pass it to
/// `inband_scanner_free()`). Initializing memory that already holds a scanner starts it
/// afresh.
///
/// Errors: `INBAND_ERROR_NULL` if `mem` is NULL, `INBAND_ERROR_ARGUMENT` if it is too small
/// or misaligned, `INBAND_ERROR_DIALECT` for an unknown dialect id.
///
/// # Safety
/// `mem` is NULL or valid for writing `size` bytes; `options` is NULL or readable; `out` is
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn inband_scanner_init(
    mem: *mut c_void,
    size: usize,
    dialect: inband_dialect_t,
    options: *const inband_options_t,
    out: *mut *mut inband_scanner_t,
) -> inband_status_t {
    guard(|| {
        if mem.is_null() {
            return Err(Failure::null("mem"));
        }
        if size < inband_scanner_size() {
            return Err(Failure::new(
                INBAND_ERROR_ARGUMENT,
                format!(
                    "mem holds {size} bytes; a scanner needs {}",
                    inband_scanner_size()
                ),
            ));
        }
        if !mem.cast::<inband_scanner_t>().is_aligned() {
            return Err(Failure::new(
                INBAND_ERROR_ARGUMENT,
                format!("mem is not aligned to {} bytes", inband_scanner_align()),
            ));
        }
        // SAFETY: NULL or readable by this function's contract.
        let state = new_state(dialect, unsafe { options_of(options) }, false)?;
        let scanner = mem.cast::<inband_scanner_t>();
        // SAFETY: checked above: not NULL, large enough, aligned; writable by contract. The
        // old contents need no drop: a scanner owns no resource.
        unsafe { scanner.write(state) };
        if !out.is_null() {
            // SAFETY: not NULL, writable by contract.
            unsafe { out.write(scanner) };
        }
        Ok(())
    })
}

/// Allocates a scanner for `dialect` at the start of a stream and writes it to `*out`;
/// `options` may be NULL for the defaults. Release it with `inband_scanner_free()`.
///
/// Errors: `INBAND_ERROR_NULL` if `out` is NULL, `INBAND_ERROR_DIALECT` for an unknown
/// dialect id; `*out` is then left as it was.
///
/// # Safety
/// `options` is NULL or readable; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn inband_scanner_new(
    dialect: inband_dialect_t,
    options: *const inband_options_t,
    out: *mut *mut inband_scanner_t,
) -> inband_status_t {
    guard(|| {
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        // SAFETY: NULL or readable by this function's contract.
        let state = new_state(dialect, unsafe { options_of(options) }, true)?;
        // SAFETY: forwarded from this function's contract.
        unsafe { put(out, Box::into_raw(Box::new(state)), "out") }
    })
}

/// Releases a scanner made by `inband_scanner_new()` and sets `*scanner` to NULL, so that a
/// second free of the same variable is an error, not a double free.
///
/// Errors: `INBAND_ERROR_NULL` if `scanner` or `*scanner` is NULL (already freed),
/// `INBAND_ERROR_STATE` if it is not a live scanner or a callback of it is running,
/// `INBAND_ERROR_ARGUMENT` for a scanner in caller memory (`inband_scanner_init()`: release
/// that memory yourself); nothing is released then.
///
/// # Safety
/// `scanner` is NULL or points to a readable and writable pointer, which is NULL or was
/// written by `inband_scanner_new()` or `inband_scanner_init()`.
#[no_mangle]
pub unsafe extern "C" fn inband_scanner_free(
    scanner: *mut *mut inband_scanner_t,
) -> inband_status_t {
    guard(|| {
        if scanner.is_null() {
            return Err(Failure::null("scanner"));
        }
        // SAFETY: not NULL; readable by contract.
        let state = unsafe { scanner.read() };
        // SAFETY: forwarded from this function's contract.
        unsafe { check(state) }?;
        // SAFETY: `check` passed: a live scanner, readable.
        if !unsafe { addr_of!((*state).owned).read() } {
            return Err(Failure::new(
                INBAND_ERROR_ARGUMENT,
                "the scanner lives in caller memory (inband_scanner_init); release that memory instead"
                    .to_owned(),
            ));
        }
        // SAFETY: live and made by `Box::into_raw` in `inband_scanner_new` (`owned`), not
        // borrowed by a running call (`check`); the marker is cleared before the release.
        unsafe {
            addr_of_mut!((*state).magic).write(0);
            drop(Box::from_raw(state));
            scanner.write(std::ptr::null_mut());
        }
        Ok(())
    })
}

/// Checks that `state` is a live scanner that no call is using.
///
/// # Safety
/// `state` is NULL or points to at least `inband_scanner_size()` readable bytes aligned as
/// a scanner.
unsafe fn check(state: *mut inband_scanner_t) -> Result<(), Failure> {
    if state.is_null() {
        return Err(Failure::null("scanner"));
    }
    if !state.is_aligned() {
        return Err(Failure::new(
            INBAND_ERROR_STATE,
            "the scanner pointer is not aligned: not a scanner".to_owned(),
        ));
    }
    // SAFETY: readable by contract; a u64 has no invalid bit pattern.
    if unsafe { addr_of!((*state).magic).read() } != LIVE {
        return Err(Failure::new(
            INBAND_ERROR_STATE,
            "not an initialized scanner (never initialized, freed or overwritten)".to_owned(),
        ));
    }
    // SAFETY: live, so `busy` was initialized; only this field is borrowed, shared, while a
    // running call holds the `scanner` field alone.
    if unsafe { &*addr_of!((*state).busy) }.get() {
        return Err(Failure::new(
            INBAND_ERROR_STATE,
            "the scanner was called from inside one of its own callbacks".to_owned(),
        ));
    }
    Ok(())
}

/// Runs `body` on the scanner of a checked, live `state`, marked busy meanwhile.
///
/// # Safety
/// `state` passed [`check`] and is valid for reads and writes during the call.
unsafe fn with_scanner<R>(state: *mut inband_scanner_t, body: impl FnOnce(&mut Scanner) -> R) -> R {
    struct Busy<'a>(&'a Cell<bool>);
    impl Drop for Busy<'_> {
        fn drop(&mut self) {
            self.0.set(false);
        }
    }
    // SAFETY: live by contract; `busy` and `scanner` are disjoint fields, so the shared
    // borrow of one and the exclusive borrow of the other do not alias, and re-entry from a
    // callback only reads `magic` and `busy`.
    let (busy, scanner) = unsafe {
        (
            &*addr_of!((*state).busy),
            &mut *addr_of_mut!((*state).scanner),
        )
    };
    busy.set(true);
    let _busy = Busy(busy);
    body(scanner)
}

/// The callback table at `callbacks`, checked.
///
/// # Safety
/// `callbacks` is NULL or readable for the lifetime `'a`.
unsafe fn table<'a>(
    callbacks: *const inband_callbacks_t,
) -> Result<&'a inband_callbacks_t, Failure> {
    // SAFETY: NULL or readable by contract.
    unsafe { callbacks.as_ref() }.ok_or_else(|| Failure::null("callbacks"))
}

fn finished(_: inband::Error) -> Failure {
    Failure::new(
        INBAND_ERROR_FINISHED,
        "the scanner was finished; call inband_scanner_reset() before feeding it again".to_owned(),
    )
}

/// Feeds the next `len` bytes of the stream at `buf`; the events of everything now
/// decidable go to `callbacks` (with `user`) before it returns. A chunk may be split
/// anywhere, even inside a delimiter or a UTF-8 code point; `len` 0 does nothing (and `buf`
/// may then be NULL). Bytes a later chunk may still change are held inside the scanner, so
/// `buf` may be reused or freed as soon as the call returns. Allocates nothing.
///
/// Errors: `INBAND_ERROR_NULL` if `scanner` or `callbacks` is NULL, or `buf` is NULL with
/// `len` > 0; `INBAND_ERROR_STATE` for memory that holds no scanner or a call from one of its
/// callbacks; `INBAND_ERROR_FINISHED` after `inband_scanner_finish()` without
/// `inband_scanner_reset()`. Nothing is scanned then.
///
/// # Safety
/// `scanner` is NULL or came from `inband_scanner_new()` / `inband_scanner_init()` and is
/// not freed; `buf` is NULL or readable for `len` bytes; `callbacks` is NULL or readable,
/// with each member NULL or a function of its documented signature.
#[no_mangle]
pub unsafe extern "C" fn inband_scanner_feed(
    scanner: *mut inband_scanner_t,
    buf: *const u8,
    len: usize,
    callbacks: *const inband_callbacks_t,
    user: *mut c_void,
) -> inband_status_t {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        unsafe { check(scanner) }?;
        // SAFETY: forwarded from this function's contract.
        let chunk = unsafe { bytes(buf, len, "buf") }?;
        // SAFETY: forwarded from this function's contract.
        let table = unsafe { table(callbacks) }?;
        let mut sink = Callbacks { table, user };
        // SAFETY: checked above.
        unsafe { with_scanner(scanner, |s| s.feed(chunk, &mut sink)) }.map_err(finished)
    })
}

/// The `len` bytes at `buf` as a slice (empty for `len` 0, whatever `buf`).
///
/// # Safety
/// `buf` is NULL or readable for `len` bytes during `'a`.
pub(crate) unsafe fn bytes<'a>(
    buf: *const u8,
    len: usize,
    what: &str,
) -> Result<&'a [u8], Failure> {
    if len == 0 {
        return Ok(&[]);
    }
    if buf.is_null() {
        return Err(Failure::new(
            INBAND_ERROR_NULL,
            format!("{what} is NULL with a length of {len}"),
        ));
    }
    // SAFETY: not NULL, readable for `len` bytes by contract.
    Ok(unsafe { std::slice::from_raw_parts(buf, len) })
}

/// Ends the stream: releases held-back bytes, ends an open call as incomplete and closes
/// an open reasoning block, reporting to `callbacks` (with `user`). Every call started has
/// had its `tool_end` after this. Allocates nothing.
///
/// Errors: as `inband_scanner_feed()`; `INBAND_ERROR_FINISHED` when called twice without
/// `inband_scanner_reset()`.
///
/// # Safety
/// As `inband_scanner_feed()`.
#[no_mangle]
pub unsafe extern "C" fn inband_scanner_finish(
    scanner: *mut inband_scanner_t,
    callbacks: *const inband_callbacks_t,
    user: *mut c_void,
) -> inband_status_t {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        unsafe { check(scanner) }?;
        // SAFETY: forwarded from this function's contract.
        let table = unsafe { table(callbacks) }?;
        let mut sink = Callbacks { table, user };
        // SAFETY: checked above.
        unsafe { with_scanner(scanner, |s| s.finish(&mut sink)) }.map_err(finished)
    })
}

/// Returns the scanner to the start of a new stream, with its dialect and options; offsets
/// start from 0 again. The old stream is abandoned without events (call
/// `inband_scanner_finish()` first to close it properly). Allocates nothing.
///
/// Errors: `INBAND_ERROR_NULL` if `scanner` is NULL, `INBAND_ERROR_STATE` for memory that
/// holds no scanner or a call from one of its callbacks.
///
/// # Safety
/// `scanner` is NULL or came from `inband_scanner_new()` / `inband_scanner_init()` and is
/// not freed.
#[no_mangle]
pub unsafe extern "C" fn inband_scanner_reset(scanner: *mut inband_scanner_t) -> inband_status_t {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        unsafe { check(scanner) }?;
        // SAFETY: checked above.
        unsafe { with_scanner(scanner, Scanner::reset) };
        Ok(())
    })
}

/// Writes the number of bytes fed since the start of the stream (the offset of the next
/// byte) to `*out`.
///
/// Errors: `INBAND_ERROR_NULL` if `scanner` or `out` is NULL, `INBAND_ERROR_STATE` as in
/// `inband_scanner_reset()`.
///
/// # Safety
/// As `inband_scanner_reset()`; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn inband_scanner_offset(
    scanner: *mut inband_scanner_t,
    out: *mut u64,
) -> inband_status_t {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        unsafe { check(scanner) }?;
        // SAFETY: checked above.
        let offset = unsafe { with_scanner(scanner, |s| s.offset()) };
        // SAFETY: forwarded from this function's contract.
        unsafe { put(out, offset, "out") }
    })
}
