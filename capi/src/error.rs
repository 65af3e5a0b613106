//! Status codes, the per-thread last error, and the guard that keeps panics inside.

use std::cell::RefCell;
use std::ffi::{c_char, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What a function returns: `INBAND_OK` (0) on success, else one of the `INBAND_ERROR_…`
/// codes below, with a message in `inband_last_error()`. On an error, no out parameter is
/// written and the handle is unchanged, except where a function says otherwise.
pub type inband_status_t = i32;

/// Success.
pub const INBAND_OK: inband_status_t = 0;
/// A pointer that must not be NULL was NULL (a handle, an out parameter, a buffer with a
/// non-zero length), or a handle freed through `…_free()` was used again.
pub const INBAND_ERROR_NULL: inband_status_t = 1;
/// A dialect id, name or parser name that no dialect has.
pub const INBAND_ERROR_DIALECT: inband_status_t = 2;
/// `…_feed()` or `…_finish()` after `…_finish()` (a scanner takes `inband_scanner_reset()`
/// to start a new stream; a delta stream serves one response).
pub const INBAND_ERROR_FINISHED: inband_status_t = 3;
/// The tools were not an OpenAI `tools` JSON array (malformed JSON, a tool without a name,
/// a name no dialect can write, a duplicate name).
pub const INBAND_ERROR_TOOLS: inband_status_t = 4;
/// Another unusable argument: a string that is not UTF-8, a length over `PTRDIFF_MAX`,
/// caller memory too small or not aligned, a scanner in caller memory passed to
/// `inband_scanner_free()`.
pub const INBAND_ERROR_ARGUMENT: inband_status_t = 5;
/// The handle is not in a state for this call: the memory holds no initialized scanner or
/// live delta stream, or a call is running on the scanner (it was called again from inside
/// one of its own callbacks, or from a second thread during a call of the first).
/// The first is checked by a marker in the handle, so it is best effort: it catches memory
/// that was never initialized and, until the memory is reused, a handle used after its
/// free; but using a freed pointer is undefined behaviour in C already. Free through the
/// one variable that `…_free()` sets to NULL, and use no copies of it afterwards.
pub const INBAND_ERROR_STATE: inband_status_t = 6;
/// An internal error of the library (a Rust panic, caught at the boundary). The handle
/// should be freed; please report it with the input that caused it.
pub const INBAND_ERROR_PANIC: inband_status_t = 7;

/// An error on its way to the caller: its code and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    pub(crate) status: inband_status_t,
    message: String,
}

impl Failure {
    pub(crate) fn new(status: inband_status_t, message: String) -> Self {
        Failure { status, message }
    }

    /// `what` was NULL.
    pub(crate) fn null(what: &str) -> Self {
        Failure::new(INBAND_ERROR_NULL, format!("{what} is NULL"))
    }
}

thread_local! {
    /// The message of the calling thread's last failed call (empty before any).
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Records `failure` as the thread's last error and returns its status.
fn record(failure: Failure) -> inband_status_t {
    // A message never holds a NUL byte of its own; one that did would lose its tail.
    let bytes: Vec<u8> = failure.message.bytes().take_while(|&b| b != 0).collect();
    let message = CString::new(bytes).unwrap_or_default();
    // `try_with`: during thread teardown the slot may be gone; the status still tells.
    let _ = LAST_ERROR.try_with(|slot| *slot.borrow_mut() = message);
    failure.status
}

/// Runs the body of an exported function: its result as a status, a panic caught and
/// turned into `INBAND_ERROR_PANIC`. Success allocates nothing and leaves the last error
/// as it was.
pub(crate) fn guard(body: impl FnOnce() -> Result<(), Failure>) -> inband_status_t {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => INBAND_OK,
        Ok(Err(failure)) => record(failure),
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_owned());
            record(Failure::new(
                INBAND_ERROR_PANIC,
                format!("internal error of the inband library (a panic: {what})"),
            ))
        }
    }
}

/// The message of the calling thread's last failed call, as a NUL-terminated UTF-8
/// string: `""` before any failure. Successful calls leave it as it was. The pointer is
/// owned by the library and valid until the next failing call on the same thread (or the
/// thread's end); copy the message to keep it. Never NULL, never fails.
#[no_mangle]
pub extern "C" fn inband_last_error() -> *const c_char {
    static EMPTY: &std::ffi::CStr = c"";
    LAST_ERROR
        .try_with(|slot| slot.borrow().as_ptr())
        .unwrap_or(EMPTY.as_ptr())
}

/// The name of a status code (`"INBAND_OK"`, `"INBAND_ERROR_NULL"`, …) as a static
/// NUL-terminated string that is never freed; `"INBAND_UNKNOWN_STATUS"` for a number that
/// is no status. Never fails.
#[no_mangle]
pub extern "C" fn inband_status_name(status: inband_status_t) -> *const c_char {
    let name = match status {
        INBAND_OK => c"INBAND_OK",
        INBAND_ERROR_NULL => c"INBAND_ERROR_NULL",
        INBAND_ERROR_DIALECT => c"INBAND_ERROR_DIALECT",
        INBAND_ERROR_FINISHED => c"INBAND_ERROR_FINISHED",
        INBAND_ERROR_TOOLS => c"INBAND_ERROR_TOOLS",
        INBAND_ERROR_ARGUMENT => c"INBAND_ERROR_ARGUMENT",
        INBAND_ERROR_STATE => c"INBAND_ERROR_STATE",
        INBAND_ERROR_PANIC => c"INBAND_ERROR_PANIC",
        _ => c"INBAND_UNKNOWN_STATUS",
    };
    name.as_ptr()
}

#[cfg(test)]
mod tests {
    use std::ffi::CStr;

    use super::*;

    fn last() -> String {
        // SAFETY: inband_last_error never returns NULL and its string is NUL-terminated.
        unsafe { CStr::from_ptr(inband_last_error()) }
            .to_str()
            .unwrap()
            .to_owned()
    }

    #[test]
    fn a_panic_becomes_a_status_and_a_message() {
        let status = guard(|| panic!("boom {}", 7));
        assert_eq!(status, INBAND_ERROR_PANIC);
        assert_eq!(
            last(),
            "internal error of the inband library (a panic: boom 7)"
        );
        assert_eq!(guard(|| Ok(())), INBAND_OK);
        assert_eq!(
            last(),
            "internal error of the inband library (a panic: boom 7)",
            "success keeps the last error"
        );
        assert_eq!(guard(|| Err(Failure::null("out"))), INBAND_ERROR_NULL);
        assert_eq!(last(), "out is NULL");
    }

    #[test]
    fn every_status_has_its_name() {
        // SAFETY: static NUL-terminated strings.
        let name = |s| {
            unsafe { CStr::from_ptr(inband_status_name(s)) }
                .to_str()
                .unwrap()
        };
        assert_eq!(name(INBAND_OK), "INBAND_OK");
        assert_eq!(name(INBAND_ERROR_TOOLS), "INBAND_ERROR_TOOLS");
        assert_eq!(name(INBAND_ERROR_PANIC), "INBAND_ERROR_PANIC");
        assert_eq!(name(99), "INBAND_UNKNOWN_STATUS");
    }
}
