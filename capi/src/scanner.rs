//! Level 1: the allocation-free scanner and its memory.

use std::cell::Cell;
use std::ffi::c_void;
use std::mem::{align_of, size_of};
use std::ptr::{addr_of, addr_of_mut};
use std::sync::atomic::{AtomicU8, Ordering};

use inband::{Options, Scanner, Span};

use crate::callbacks::{inband_callbacks_t, Callbacks};
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
    /// 1 while a call runs on the scanner (a callback re-entering or a second thread gets
    /// `INBAND_ERROR_STATE`), else 0. A byte, not a bool: any value of memory is valid.
    busy: AtomicU8,
    scanner: Scanner,
}

/// Bytes of memory that hold a scanner of this library version, known when compiling: for
/// a scanner in static or stack memory, e.g. `union { unsigned char bytes[INBAND_SCANNER_SIZE];
/// uint64_t align; } mem;` (C99), or `alignas(INBAND_SCANNER_ALIGN) unsigned char
/// mem[INBAND_SCANNER_SIZE];` (C11, C++11). At least `inband_scanner_size()`; a build that
/// would need more fails to compile.
pub const INBAND_SCANNER_SIZE: usize = 480;

/// The alignment in bytes that memory of `INBAND_SCANNER_SIZE` bytes needs, known when
/// compiling: at least `inband_scanner_align()`, that of `uint64_t`.
pub const INBAND_SCANNER_ALIGN: usize = 8;

const _: () = assert!(size_of::<inband_scanner_t>() <= INBAND_SCANNER_SIZE);
const _: () = assert!(align_of::<inband_scanner_t>() <= INBAND_SCANNER_ALIGN);

/// Bytes of memory a scanner needs (`inband_scanner_init()`); a constant of the library
/// build, a few hundred bytes, at most `INBAND_SCANNER_SIZE`.
#[no_mangle]
pub extern "C" fn inband_scanner_size() -> usize {
    size_of::<inband_scanner_t>()
}

/// The alignment, in bytes, that memory for a scanner needs (`inband_scanner_init()`), at
/// most `INBAND_SCANNER_ALIGN`.
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
        busy: AtomicU8::new(0),
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
/// afresh, except from a callback of a scanner in that memory (`INBAND_ERROR_STATE`); no
/// other thread may be running a call on a scanner there.
///
/// Errors: `INBAND_ERROR_NULL` if `mem` is NULL, `INBAND_ERROR_ARGUMENT` if it is too small
/// or misaligned, `INBAND_ERROR_DIALECT` for an unknown dialect id, `INBAND_ERROR_STATE`
/// from a callback of a scanner in `mem` (the feed it interrupts goes on unharmed); the
/// memory is unchanged then.
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
        // SAFETY: checked above: not NULL, large enough, aligned; writable by contract.
        unsafe { reinit(scanner, state) }?;
        if !out.is_null() {
            // SAFETY: not NULL, writable by contract.
            unsafe { out.write(scanner) };
        }
        Ok(())
    })
}

/// A scanner a call is running on, in a chain through the calls running on this thread
/// (a callback of one scanner may feed another); the nodes live on the stack of
/// [`with_scanner`].
struct Running {
    state: *const inband_scanner_t,
    outer: *const Running,
}

thread_local! {
    /// The innermost call running on a scanner on this thread, or NULL.
    static RUNNING: Cell<*const Running> = const { Cell::new(std::ptr::null()) };
}

/// Writes `state` to `scanner`'s memory, unless a call on this thread is running on a
/// scanner there (re-initialization from one of its callbacks): that is refused, not
/// overwritten under the call. The memory is not read (it may be fresh `malloc` memory);
/// the old contents need no drop: a scanner owns no resource.
///
/// # Safety
/// `scanner` is not NULL, aligned and valid for writes of a scanner, and no call on another
/// thread is running on a scanner there.
unsafe fn reinit(scanner: *mut inband_scanner_t, state: inband_scanner_t) -> Result<(), Failure> {
    let start = scanner as usize;
    let end = start + size_of::<inband_scanner_t>();
    let mut node = RUNNING.with(|r| r.get());
    while !node.is_null() {
        // SAFETY: a node of the chain lives on the stack of a `with_scanner` still running
        // on this thread (it unlinks itself before it returns).
        let running = unsafe { &*node };
        let other = running.state as usize;
        if other < end && start < other + size_of::<inband_scanner_t>() {
            return Err(in_use());
        }
        node = running.outer;
    }
    // SAFETY: writable by contract; no call runs on a scanner there.
    unsafe { scanner.write(state) };
    Ok(())
}

/// Marks a scanner busy, or fails if a call already runs on it.
fn claim(busy: &AtomicU8) -> Result<(), Failure> {
    busy.compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed)
        .map(|_| ())
        .map_err(|_| in_use())
}

fn in_use() -> Failure {
    Failure::new(
        INBAND_ERROR_STATE,
        "the scanner is in use: called from inside one of its own callbacks, or from another \
         thread during a call"
            .to_owned(),
    )
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
/// `INBAND_ERROR_STATE` if it is not a live scanner or a call is running on it,
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
        // SAFETY: live (`check`), so `busy` is an initialized byte.
        claim(unsafe { &*addr_of!((*state).busy) })?;
        // SAFETY: live and made by `Box::into_raw` in `inband_scanner_new` (`owned`), claimed
        // (no call runs on it); the marker is cleared before the release.
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
    if unsafe { &*addr_of!((*state).busy) }.load(Ordering::Acquire) != 0 {
        return Err(in_use());
    }
    Ok(())
}

/// Runs `body` on the scanner of a checked, live `state`, marked busy meanwhile; fails if a
/// call already runs on it (a callback re-entering, another thread).
///
/// # Safety
/// `state` passed [`check`] and is valid for reads and writes during the call.
unsafe fn with_scanner<R>(
    state: *mut inband_scanner_t,
    body: impl FnOnce(&mut Scanner) -> R,
) -> Result<R, Failure> {
    struct Busy<'a>(&'a AtomicU8, *const Running);
    impl Drop for Busy<'_> {
        fn drop(&mut self) {
            RUNNING.with(|r| r.set(self.1));
            self.0.store(0, Ordering::Release);
        }
    }
    // SAFETY: live by contract; `busy` and `scanner` are disjoint fields, so the shared
    // borrow of one and the exclusive borrow of the other do not alias, and re-entry from a
    // callback or another thread only reads `magic` and `busy` (atomically) until it has
    // claimed `busy`, which it cannot while this call holds it.
    let busy = unsafe { &*addr_of!((*state).busy) };
    claim(busy)?;
    let node = Running {
        state,
        outer: RUNNING.with(|r| r.get()),
    };
    RUNNING.with(|r| r.set(&node));
    let _busy = Busy(busy, node.outer);
    // SAFETY: claimed above: this call alone uses the `scanner` field until `_busy` drops.
    let scanner = unsafe { &mut *addr_of_mut!((*state).scanner) };
    Ok(body(scanner))
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
/// `len` > 0; `INBAND_ERROR_ARGUMENT` if `len` exceeds `PTRDIFF_MAX`; `INBAND_ERROR_STATE`
/// for memory that holds no scanner, or a scanner a call is running on (a call from one of
/// its callbacks or from another thread meanwhile); `INBAND_ERROR_FINISHED` after
/// `inband_scanner_finish()` without `inband_scanner_reset()`. Nothing is scanned then.
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
        unsafe { with_scanner(scanner, |s| s.feed(chunk, &mut sink)) }?.map_err(finished)
    })
}

/// The byte range of one added or special token in a chunk given to
/// `inband_scanner_feed_tokens()`: bytes `start` (inclusive) to `end` (exclusive), offsets
/// from the chunk's first byte.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct inband_token_span_t {
    /// Offset of the token's first byte in the chunk.
    pub start: usize,
    /// Offset just after the token's last byte.
    pub end: usize,
}

/// Declares the `len` bytes at `text` (UTF-8) the text of one added or special token of
/// the model's vocabulary and puts the scanner in token mode (docs/dialects.md rule 14):
/// every delimiter of the dialect that begins with this text then counts only where
/// `inband_scanner_feed_tokens()` says such a token began. Call it for each added token
/// (or only those that are the dialect's delimiters) before the first feed; a scanner in
/// token mode stays in it across `inband_scanner_reset()`. Writes to `*gated` (unless NULL)
/// how many delimiter texts the token gated (0: no delimiter begins with it). Allocates
/// nothing.
///
/// Errors: `INBAND_ERROR_NULL` if `scanner` is NULL, or `text` is NULL with `len` > 0;
/// `INBAND_ERROR_STATE` as in `inband_scanner_reset()`, or once anything was fed.
///
/// # Safety
/// As `inband_scanner_reset()`; `text` is NULL or readable for `len` bytes; `gated` is NULL
/// or writable.
#[no_mangle]
pub unsafe extern "C" fn inband_scanner_add_token(
    scanner: *mut inband_scanner_t,
    text: *const u8,
    len: usize,
    gated: *mut usize,
) -> inband_status_t {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        unsafe { check(scanner) }?;
        // SAFETY: forwarded from this function's contract.
        let token = unsafe { bytes(text, len, "text") }?;
        // SAFETY: checked above.
        let n = unsafe { with_scanner(scanner, |s| s.add_token(token)) }?
            .map_err(|e| Failure::new(INBAND_ERROR_STATE, format!("{e}")))?;
        if !gated.is_null() {
            // SAFETY: not NULL, writable by contract.
            unsafe { gated.write(n) };
        }
        Ok(())
    })
}

/// Feeds the next chunk in token mode, as `inband_scanner_feed()`, with `spans[0..n]` the
/// byte ranges in it where added or special tokens arrived (sorted, not overlapping, none
/// empty; `spans` may be NULL when `n` is 0). The events are `inband_scanner_feed()`'s on
/// the same bytes, except that a delimiter gated by `inband_scanner_add_token()` counts only
/// where one of these tokens began. Allocates nothing.
///
/// Errors: as `inband_scanner_feed()`; `INBAND_ERROR_STATE` for a scanner not in token
/// mode; `INBAND_ERROR_ARGUMENT` for a span that is empty, runs past the chunk or overlaps
/// the one before it (the message names its index). Nothing is scanned then.
///
/// # Safety
/// As `inband_scanner_feed()`; `spans` is NULL or readable for `n` spans.
#[no_mangle]
pub unsafe extern "C" fn inband_scanner_feed_tokens(
    scanner: *mut inband_scanner_t,
    buf: *const u8,
    len: usize,
    spans: *const inband_token_span_t,
    n: usize,
    callbacks: *const inband_callbacks_t,
    user: *mut c_void,
) -> inband_status_t {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        unsafe { check(scanner) }?;
        // SAFETY: forwarded from this function's contract.
        let chunk = unsafe { bytes(buf, len, "buf") }?;
        let spans: &[inband_token_span_t] = if n == 0 {
            &[]
        } else if spans.is_null() {
            return Err(Failure::new(
                INBAND_ERROR_NULL,
                format!("spans is NULL with a count of {n}"),
            ));
        } else if n > isize::MAX as usize / size_of::<inband_token_span_t>() {
            return Err(Failure::new(
                INBAND_ERROR_ARGUMENT,
                format!("{n} spans: more than any buffer holds"),
            ));
        } else {
            // SAFETY: not NULL, readable for `n` spans by contract.
            unsafe { std::slice::from_raw_parts(spans, n) }
        };
        let mut end = 0;
        for (k, t) in spans.iter().enumerate() {
            if t.start < end || t.start >= t.end || t.end > chunk.len() {
                return Err(Failure::new(
                    INBAND_ERROR_ARGUMENT,
                    format!("{}", inband::Error::TokenSpan(k)),
                ));
            }
            end = t.end;
        }
        // SAFETY: forwarded from this function's contract.
        let table = unsafe { table(callbacks) }?;
        let mut sink = Callbacks { table, user };
        // One token at a time: the spans need no copy in the core's form.
        let feed = |s: &mut Scanner| {
            let mut pos = 0;
            for t in spans {
                s.feed_tokens(&chunk[pos..t.start], &[], &mut sink)?;
                let whole = 0..t.end - t.start;
                s.feed_tokens(
                    &chunk[t.start..t.end],
                    std::slice::from_ref(&whole),
                    &mut sink,
                )?;
                pos = t.end;
            }
            s.feed_tokens(&chunk[pos..], &[], &mut sink)
        };
        // SAFETY: checked above.
        let fed = unsafe { with_scanner(scanner, feed) }?;
        fed.map_err(|e| match e {
            inband::Error::TokenSpan(_) => Failure::new(INBAND_ERROR_ARGUMENT, format!("{e}")),
            inband::Error::NotTokenMode => Failure::new(
                INBAND_ERROR_STATE,
                "the scanner is not in token mode: declare its tokens with inband_scanner_add_token() first"
                    .to_owned(),
            ),
            other => finished(other),
        })
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
    // No object is larger than PTRDIFF_MAX bytes (and a slice of more is undefined
    // behaviour): such a length is a negative number cast or SIZE_MAX, never a buffer.
    if len > isize::MAX as usize {
        return Err(Failure::new(
            INBAND_ERROR_ARGUMENT,
            format!("{what} has a length of {len} bytes, more than PTRDIFF_MAX: not a buffer"),
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
        unsafe { with_scanner(scanner, |s| s.finish(&mut sink)) }?.map_err(finished)
    })
}

/// Returns the scanner to the start of a new stream, with its dialect and options; offsets
/// start from 0 again. The old stream is abandoned without events (call
/// `inband_scanner_finish()` first to close it properly). Allocates nothing.
///
/// Errors: `INBAND_ERROR_NULL` if `scanner` is NULL, `INBAND_ERROR_STATE` for memory that
/// holds no scanner, or a scanner a call is running on (from one of its callbacks or from
/// another thread).
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
        unsafe { with_scanner(scanner, Scanner::reset) }?;
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
        let offset = unsafe { with_scanner(scanner, |s| s.offset()) }?;
        // SAFETY: forwarded from this function's contract.
        unsafe { put(out, offset, "out") }
    })
}
