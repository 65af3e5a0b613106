//! Level 2: OpenAI deltas as JSON, one response per handle.

use std::ffi::{c_char, CStr};
use std::ptr::addr_of;

use inband::Scanner;
use inband_alloc::assemble::AssembleOptions;
use inband_alloc::stream::{ChunkDelta, DeltaStream, Retain};
use inband_alloc::tools::ToolSet;

use crate::error::*;
use crate::scanner::{bytes, inband_options_t, options_of};
use crate::{dialect_of, inband_dialect_t, put};

/// Options of a delta stream. All zero (`inband_delta_options_t options = {0};`, or a NULL
/// pointer) means the defaults: scanner defaults, no tools, random call ids, calls sent as
/// soon as their name is known, the whole completion kept up to 64 MiB of response.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct inband_delta_options_t {
    /// The scanner's options (`starts_in_reasoning`, limits).
    pub scanner: inband_options_t,
    /// The tools offered to the model, as an OpenAI `tools` JSON array
    /// (`[{"type": "function", "function": {"name": …, "parameters": {…}}}]`), `tools_len`
    /// bytes, not necessarily NUL-terminated; NULL for none. Calls of other names get an
    /// `unknown_tool` diagnostic, and the tools' JSON Schemas type raw-text parameter values.
    /// Read during `inband_deltas_new()` only.
    pub tools: *const c_char,
    /// Length of `tools` in bytes.
    pub tools_len: usize,
    /// Mint call ids (`call_…`) deterministically from `seed`; false: random ids from the
    /// operating system.
    pub has_seed: bool,
    /// The seed, when `has_seed`.
    pub seed: u64,
    /// Send a call only once it is complete and its arguments parse, instead of from the
    /// moment its name is known (nothing sent ever has to be taken back, at the cost of
    /// streaming arguments).
    pub hold_calls: bool,
    /// End the response where the model begins writing a tool result itself: nothing from
    /// there on is content or a call.
    pub stop_at_fabricated_result: bool,
    /// Most bytes of the response (stream offsets) the handle keeps for the completion of
    /// `inband_deltas_finish()`; 0 means the default, 64 MiB. Past it nothing more is sent
    /// or kept (no content, reasoning or call; an open call becomes incomplete) and the
    /// completion has a `response_too_long` diagnostic saying where. Ignored with
    /// `unsent_only`.
    pub max_response_bytes: u64,
    /// Keep only what no delta has carried yet, for a server with many open streams: memory
    /// stays flat however long the response, and no response limit applies. The completion
    /// then has no content (`""`), no reasoning (`null`, or `""` when the response had a
    /// reasoning block) and no complete calls (the deltas carried them; `finish_reason`
    /// still counts them): only the incomplete calls and the diagnostics (at most 1024, then
    /// one `too_many_diagnostics`).
    pub unsent_only: bool,
}

/// What `inband_deltas_finish()` gives: the last delta, the finish reason and the whole
/// completion. The strings are NUL-terminated; lengths are in bytes, without the NUL.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct inband_finish_t {
    /// The last delta, as JSON (see `inband_deltas_feed()`), owned by the handle until
    /// `inband_deltas_free()`.
    pub delta: *const c_char,
    /// Length of `delta` in bytes.
    pub delta_len: usize,
    /// OpenAI's `finish_reason`: `"tool_calls"` when any call is complete, else `"stop"`; a
    /// static string.
    pub finish_reason: *const c_char,
    /// The whole completion as one JSON object, the CLI's `summary` format:
    /// `{"content", "reasoning": str|null, "tool_calls": [{"id", "name", "arguments":
    /// object}], "incomplete_calls": [{"id", "name", "arguments": str}], "diagnostics":
    /// [{"code", "message", "span": [start, end]}]}`; content and reasoning trimmed at both
    /// ends; cut at `max_response_bytes`, or only what no delta carried with `unsent_only`
    /// (see `inband_delta_options_t`). Owned by the handle until `inband_deltas_free()`.
    pub completion: *const c_char,
    /// Length of `completion` in bytes.
    pub completion_len: usize,
}

/// Marks a live delta stream ("inbandDS").
const LIVE: u64 = 0x696e_6261_6e64_4453;

/// A stream of OpenAI deltas for one model response (opaque): a scanner and the delta
/// builder, with the buffers it returns. Made by `inband_deltas_new()`, released by
/// `inband_deltas_free()`.
#[derive(Debug)]
pub struct inband_deltas_t {
    magic: u64,
    scanner: Scanner,
    /// `None` after `inband_deltas_finish`.
    stream: Option<DeltaStream>,
    /// The last delta's JSON, NUL-terminated.
    delta: Vec<u8>,
    /// The completion's JSON, NUL-terminated, after finish.
    completion: Vec<u8>,
}

/// Allocates a delta stream for one response of `dialect` and writes it to `*out`;
/// `options` may be NULL for the defaults.
///
/// Errors: `INBAND_ERROR_NULL` if `out` is NULL, or `options->tools` is NULL with a
/// non-zero `tools_len`; `INBAND_ERROR_ARGUMENT` if `tools_len` exceeds `PTRDIFF_MAX`;
/// `INBAND_ERROR_DIALECT` for an unknown dialect id;
/// `INBAND_ERROR_TOOLS` if `options->tools` is not an OpenAI `tools` array (the message
/// says where); `INBAND_ERROR_PANIC` if the operating system's random source fails
/// (without a seed). `*out` is then left as it was.
///
/// # Safety
/// `options` is NULL or readable, with `tools` NULL or readable for `tools_len` bytes;
/// `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn inband_deltas_new(
    dialect: inband_dialect_t,
    options: *const inband_delta_options_t,
    out: *mut *mut inband_deltas_t,
) -> inband_status_t {
    guard(|| {
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        let dialect = dialect_of(dialect)?;
        // SAFETY: NULL or readable by this function's contract.
        let c = unsafe { options.as_ref() };
        let mut assemble = AssembleOptions::seeded(0);
        assemble.seed = None;
        let mut scanner_options = inband::Options::default();
        let mut retain = Retain::Completion;
        if let Some(c) = c {
            // SAFETY: a field of a readable struct.
            scanner_options = unsafe { options_of(addr_of!(c.scanner)) };
            assemble.seed = c.has_seed.then_some(c.seed);
            assemble.hold_calls = c.hold_calls;
            assemble.stop_at_fabricated_result = c.stop_at_fabricated_result;
            if c.max_response_bytes != 0 {
                assemble.max_response_bytes = c.max_response_bytes;
            }
            if c.unsent_only {
                retain = Retain::Unsent;
            }
            if !c.tools.is_null() || c.tools_len != 0 {
                // SAFETY: readable for `tools_len` bytes by contract; copied by the parse.
                let json = unsafe { bytes(c.tools.cast(), c.tools_len, "options->tools") }?;
                let tools = ToolSet::from_json(json).map_err(|e| {
                    Failure::new(
                        INBAND_ERROR_TOOLS,
                        format!("options->tools is not an OpenAI tools array: {e}"),
                    )
                })?;
                assemble.tools = Some(tools);
            }
        }
        let handle = inband_deltas_t {
            magic: LIVE,
            scanner: Scanner::new(dialect, scanner_options),
            stream: Some(DeltaStream::retaining(dialect, &assemble, retain)),
            delta: Vec::new(),
            completion: Vec::new(),
        };
        // SAFETY: forwarded from this function's contract.
        unsafe { put(out, Box::into_raw(Box::new(handle)), "out") }
    })
}

/// The live handle at `deltas`.
///
/// # Safety
/// `deltas` is NULL or came from `inband_deltas_new()` and is not freed, and no other
/// reference to it is live for `'a`.
unsafe fn handle<'a>(deltas: *mut inband_deltas_t) -> Result<&'a mut inband_deltas_t, Failure> {
    // SAFETY: NULL or a live handle, exclusively ours for the call, by contract.
    let handle = unsafe { deltas.as_mut() }.ok_or_else(|| Failure::null("deltas"))?;
    if handle.magic != LIVE {
        return Err(Failure::new(
            INBAND_ERROR_STATE,
            "not a live delta stream (freed or overwritten)".to_owned(),
        ));
    }
    Ok(handle)
}

/// Replaces `buffer` with `value`'s JSON text and a NUL.
fn write_json(buffer: &mut Vec<u8>, value: &impl serde::Serialize) -> Result<(), Failure> {
    buffer.clear();
    serde_json::to_writer(&mut *buffer, value)
        .map_err(|e| Failure::new(INBAND_ERROR_PANIC, format!("serializing JSON failed: {e}")))?;
    buffer.push(0);
    Ok(())
}

/// Writes `delta` (OpenAI's `choices[0].delta`) into `buffer`, NUL-terminated, reusing its
/// memory.
fn write_delta(buffer: &mut Vec<u8>, delta: &ChunkDelta) -> Result<(), Failure> {
    buffer.clear();
    delta
        .write_openai(&mut *buffer)
        .map_err(|e| Failure::new(INBAND_ERROR_PANIC, format!("writing JSON failed: {e}")))?;
    buffer.push(0);
    Ok(())
}

fn finished() -> Failure {
    Failure::new(
        INBAND_ERROR_FINISHED,
        "the delta stream was finished; a new response takes a new inband_deltas_new()".to_owned(),
    )
}

/// Feeds the next `len` bytes of the response at `buf` (a decode step's text, split
/// anywhere) and writes the delta they add to `*json`: OpenAI's `choices[0].delta` object
/// without `role`, NUL-terminated, with `content` and `reasoning_content` when not empty and
/// `tool_calls` when any (`[{"index", "id", "type": "function", "function": {"name",
/// "arguments"}}]`, `id`, `type` and `name` on a call's first fragment only; the
/// concatenated `arguments` of a complete call are exactly the JSON text of its arguments
/// in the completion). `{}` when the chunk added nothing a client sees (text may wait for
/// the rest of a delimiter or code point), and from `max_response_bytes` of response on (64
/// MiB by default; not with `unsent_only`).
///
/// A call is sent from the moment its name is known, so one that breaks later (it ends
/// `INBAND_CALL_INVALID`, as `{"a": ]` does) has had fragments sent that nothing takes
/// back: its remaining bytes come as `content`, while the completion has none of it as a
/// call, its whole text as content and a diagnostic. A call the stream ends inside
/// (incomplete) has been sent too; the completion lists it in `incomplete_calls` and the
/// finish reason does not count it. With `hold_calls` only complete calls are sent, so
/// nothing sent ever disagrees with the completion.
/// `*json_len` (unless `json_len` is NULL) gets its length in bytes, without the NUL. The
/// buffer is owned by the handle and valid until the next call on it.
///
/// Errors: `INBAND_ERROR_NULL` if `deltas` or `json` is NULL, or `buf` is NULL with `len` >
/// 0; `INBAND_ERROR_ARGUMENT` if `len` exceeds `PTRDIFF_MAX`; `INBAND_ERROR_STATE` for
/// memory that is not a live delta stream; `INBAND_ERROR_FINISHED` after
/// `inband_deltas_finish()`. Nothing is fed then.
///
/// # Safety
/// `deltas` is NULL or a live handle of `inband_deltas_new()` not in use by another thread;
/// `buf` is NULL or readable for `len` bytes; `json` and `json_len` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn inband_deltas_feed(
    deltas: *mut inband_deltas_t,
    buf: *const u8,
    len: usize,
    json: *mut *const c_char,
    json_len: *mut usize,
) -> inband_status_t {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let handle = unsafe { handle(deltas) }?;
        // SAFETY: forwarded from this function's contract.
        let chunk = unsafe { bytes(buf, len, "buf") }?;
        if json.is_null() {
            return Err(Failure::null("json"));
        }
        let stream = handle.stream.as_mut().ok_or_else(finished)?;
        handle.scanner.feed(chunk, stream).map_err(|_| finished())?;
        write_delta(&mut handle.delta, stream.delta())?;
        // SAFETY: `json` is writable by contract (checked not NULL); the buffer lives in the
        // handle until its next call.
        unsafe { json.write(handle.delta.as_ptr().cast()) };
        if !json_len.is_null() {
            // SAFETY: not NULL, writable by contract.
            unsafe { json_len.write(handle.delta.len() - 1) };
        }
        Ok(())
    })
}

/// Ends the response: writes the last delta, the finish reason and the whole completion to
/// `*out` (see `inband_finish_t`). The handle then only answers `inband_deltas_free()`; its
/// buffers stay valid until then.
///
/// Errors: `INBAND_ERROR_NULL` if `deltas` or `out` is NULL, `INBAND_ERROR_STATE` for a
/// memory that is not a live delta stream, `INBAND_ERROR_FINISHED` when called twice.
///
/// # Safety
/// As `inband_deltas_feed()`; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn inband_deltas_finish(
    deltas: *mut inband_deltas_t,
    out: *mut inband_finish_t,
) -> inband_status_t {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let handle = unsafe { handle(deltas) }?;
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        let mut stream = handle.stream.take().ok_or_else(finished)?;
        handle.scanner.finish(&mut stream).map_err(|_| finished())?;
        let (delta, reason, completion) = stream.finish();
        write_delta(&mut handle.delta, &delta)?;
        write_json(&mut handle.completion, &completion)?;
        let reason: &'static CStr = if reason == "tool_calls" {
            c"tool_calls"
        } else {
            c"stop"
        };
        let finish = inband_finish_t {
            delta: handle.delta.as_ptr().cast(),
            delta_len: handle.delta.len() - 1,
            finish_reason: reason.as_ptr(),
            completion: handle.completion.as_ptr().cast(),
            completion_len: handle.completion.len() - 1,
        };
        // SAFETY: forwarded from this function's contract.
        unsafe { put(out, finish, "out") }
    })
}

/// Releases a delta stream and its buffers and sets `*deltas` to NULL, so that a second
/// free of the same variable is an error, not a double free. May be called before or after
/// `inband_deltas_finish()`.
///
/// Errors: `INBAND_ERROR_NULL` if `deltas` or `*deltas` is NULL (already freed),
/// `INBAND_ERROR_STATE` if it is not a live delta stream; nothing is released then.
///
/// # Safety
/// `deltas` is NULL or points to a readable and writable pointer, which is NULL or was
/// written by `inband_deltas_new()`.
#[no_mangle]
pub unsafe extern "C" fn inband_deltas_free(deltas: *mut *mut inband_deltas_t) -> inband_status_t {
    guard(|| {
        if deltas.is_null() {
            return Err(Failure::null("deltas"));
        }
        // SAFETY: not NULL, readable by contract.
        let ptr = unsafe { deltas.read() };
        // SAFETY: forwarded from this function's contract.
        let live = unsafe { handle(ptr) }?;
        live.magic = 0;
        // SAFETY: a live handle made by `Box::into_raw` in `inband_deltas_new`; the pointer
        // is cleared so the caller's variable cannot free it twice.
        unsafe {
            drop(Box::from_raw(ptr));
            deltas.write(std::ptr::null_mut());
        }
        Ok(())
    })
}
