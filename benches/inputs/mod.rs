//! Deterministic benchmark inputs (Hermes transcripts) and the counting sink that checks
//! them, shared by `throughput.rs`, `instructions.rs` and `memory.rs` (and the alloc-ext and
//! capi benches) through `#[path]`.
//!
//! The generators and the `Input` they make are here; `dialects.rs` writes an input in a
//! dialect, `text.rs` makes its prose, calls and code, `counts.rs` checks a scan of it.

// Each bench uses a different subset of these helpers.
#![allow(dead_code)]

mod counts;
mod dialects;
mod text;

use inband::Dialect;

// Re-exported for the benches, each of which uses some of them.
#[allow(unused_imports)]
pub use counts::{options, scan, scan_into, Counts};
use dialects::{render, write_call, Piece};
use text::{code_line, json_escape_into, prose_into, small_call, Rng};

/// A generated transcript and what a correct scan of it must report.
pub struct Input {
    /// The dialect it is written in.
    pub dialect: Dialect,
    /// The transcript bytes.
    pub bytes: Vec<u8>,
    /// Tool calls in it, every one complete and well-formed.
    pub calls: u64,
    /// Bytes of visible text (everything outside the calls' markup).
    pub text: u64,
    /// Bytes of argument text (the arguments object of every call).
    pub args: u64,
}

impl Input {
    /// Size in bytes.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Panics unless `counts` is exactly what this input must give.
    pub fn check(&self, counts: &Counts) {
        assert_eq!(counts.starts, self.calls, "tool_start count");
        assert_eq!(counts.names, 0, "every name comes before the arguments");
        assert_eq!(counts.complete, self.calls, "complete tool_end count");
        assert_eq!(
            counts.other_ends, 0,
            "incomplete/invalid/demoted tool_end count"
        );
        assert_eq!(counts.diagnostics, 0, "diagnostics");
        assert_eq!(counts.text_bytes, self.text, "text bytes");
        assert_eq!(counts.args_bytes, self.args, "argument bytes");
        assert_eq!(counts.reasoning_bytes, 0, "reasoning bytes");
        // Payload spans tile the stream: text + reasoning + markup + arguments is everything.
        let payload =
            counts.text_bytes + counts.reasoning_bytes + counts.markup_bytes + counts.args_bytes;
        assert_eq!(
            payload,
            self.bytes.len() as u64,
            "payload bytes must tile the input"
        );
    }
}

/// 1 MiB of prose without calls.
pub const PROSE_LEN: usize = 1 << 20;
/// Escaped code in the big call's `content` string.
pub const CODE_LEN: usize = 64 << 10;
/// Calls in the many-calls input.
pub const MANY_CALLS: usize = 200;
/// Response sizes of the flatness sweep (prose and calls mixed, one call per KiB).
pub const SWEEP: [usize; 4] = [1 << 10, 64 << 10, 1 << 20, 16 << 20];

/// (a) `len` bytes of prose, no calls: English-ish sentences and paragraphs with
/// punctuation, `<`-fragments that are not delimiters (`<br>`, `Vec<u8>`, `a < b`,
/// `<thead>`, `<toolbox>`) and some non-ASCII.
pub fn prose(dialect: Dialect, len: usize) -> Input {
    let mut rng = Rng(0x5eed_0001);
    let mut bytes = Vec::with_capacity(len);
    prose_into(&mut bytes, &mut rng, len);
    render(dialect, &[Piece::Prose(bytes)])
}

/// (b) One `write_file` call whose `content` holds `code_len` bytes of escaped Rust code
/// (newlines, quotes, backslashes, generics, a `</tool_call>` in a string).
pub fn big_call(dialect: Dialect, code_len: usize) -> Input {
    let mut rng = Rng(0x5eed_0002);
    let mut args = Vec::with_capacity(code_len + 64);
    args.extend_from_slice(b"{\"path\": \"src/big.rs\", \"content\": \"");
    let code_start = args.len();
    let mut line = Vec::new();
    loop {
        line.clear();
        json_escape_into(&mut line, code_line(&mut rng).as_bytes());
        if args.len() - code_start + line.len() > code_len {
            break;
        }
        args.extend_from_slice(&line);
    }
    args.resize(code_start + code_len, b' ');
    args.extend_from_slice(b"\"}");
    let args = String::from_utf8(args).expect("generated code is UTF-8");
    let lead = b"I'll write the new module in one go.\n\n".to_vec();
    render(
        dialect,
        &[Piece::Prose(lead), Piece::Call("write_file", args)],
    )
}

/// (c) `n` small calls with a sentence or two of prose before each.
pub fn many_calls(dialect: Dialect, n: usize) -> Input {
    let mut rng = Rng(0x5eed_0003);
    let mut pieces = Vec::new();
    for _ in 0..n {
        let mut prose = Vec::new();
        let len = 40 + rng.below(160) as usize;
        prose_into(&mut prose, &mut rng, len);
        prose.push(b'\n');
        pieces.push(Piece::Prose(prose));
        let (name, args) = small_call(&mut rng);
        pieces.push(Piece::Call(name, args));
        pieces.push(Piece::Prose(b"\n".to_vec()));
    }
    pieces.push(Piece::Prose(b"Done.".to_vec()));
    render(dialect, &pieces)
}

/// A sweep input of exactly `len` bytes (a multiple of 1 KiB): 1 KiB units, each a
/// paragraph of prose and then one small call (about 85% prose by bytes). Hermes only: the
/// sweep measures cost against size, not dialects.
pub fn mix(len: usize) -> Input {
    let dialect = Dialect::Hermes;
    assert_eq!(len % 1024, 0, "sweep sizes are whole KiB");
    let mut rng = Rng(0x5eed_0004);
    let mut pieces = Vec::new();
    for unit in 0..len / 1024 {
        let (name, args) = small_call(&mut rng);
        let call_len = write_call(dialect, name, &args, unit as u64).0.len() + 1;
        let mut prose = Vec::new();
        prose_into(&mut prose, &mut rng, 1024 - call_len);
        pieces.push(Piece::Prose(prose));
        pieces.push(Piece::Call(name, args));
        pieces.push(Piece::Prose(b"\n".to_vec()));
    }
    let input = render(dialect, &pieces);
    assert_eq!(input.bytes.len(), len);
    input
}
