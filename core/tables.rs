//! The generated dialect tables: one dense Aho–Corasick [`Dfa`](crate::automaton::Dfa) per
//! dialect and scanner mode, compiled at build time from the delimiter tables in
//! `tables/dialects/*.toml`.
//!
//! `build.rs` runs the `inband-tables` compiler over every table file and writes
//! `$OUT_DIR/dialects.rs`, included here; `cargo build` regenerates it whenever a table
//! changes (`tables/README.md` describes the format). It holds:
//!
//! - [`MAX_DELIMITER_LEN`] and [`MAX_HOLD`], the longest delimiter of any dialect and the
//!   hold-back capacity it implies;
//! - one module per dialect (`hermes`, `qwen3`, …; `-` in a dialect name becomes `_`) with
//!   the dialect's `SOURCE` and one `static` DFA per mode, named after the mode in upper
//!   case (`CONTENT`, `REASONING`, `CALL_BODY`, `CALL_TAIL`).
//!
//! Every DFA checks its own invariants in `const` context, so a malformed table fails the
//! build rather than the scanner.

include!(concat!(env!("OUT_DIR"), "/dialects.rs"));
