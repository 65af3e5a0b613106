//! # inband-tables
//!
//! The table compiler behind `inband`: it reads the dialect delimiter tables in
//! `tables/dialects/*.toml`, validates them, compiles every scanner mode into a dense,
//! unanchored Aho–Corasick DFA, and writes the result as Rust source for the core
//! crate to `include!`. The core's `build.rs` calls it once per build; the core's
//! integration tests call it again and compare.
//!
//! ## Overview
//!
//! - [`parse`]: one table file to a validated [`DialectSpec`].
//! - [`compile()`]: a [`DialectSpec`] to a [`CompiledDialect`], one [`CompiledMode`] (a
//!   dense DFA as plain data) per mode.
//! - [`emit_rust`]: compiled dialects to the source of `$OUT_DIR/dialects.rs`.
//! - [`compile_all`]: [`parse`] and [`compile()`] over every table file, plus the checks
//!   that need all of them at once.
//! - [`ROLES`]: the delimiter roles a table may use, in delimiter order.
//! - [`TableError`]: everything that can be wrong with a table; its message names the
//!   dialect, the mode and the delimiter.
//!
//! See `tables/README.md` for the table file format and the validation rules.
//!
//! ## Example: compile a one-mode dialect
//!
//! ```
//! let text = r#"
//! dialect = "demo"
//! source = "a made-up format"
//!
//! [modes.content]
//! call_open = ["<call>"]
//! "#;
//! let spec = inband_tables::parse("tables/demo.toml", text)?;
//! let dialect = inband_tables::compile(&spec)?;
//! let content = &dialect.modes[0];
//! assert_eq!(content.name, "content");
//! assert_eq!(content.first_bytes, b"<");
//! // The trie of `<call>` has 7 states: depth 0 to 6.
//! assert_eq!(content.depth, [0, 1, 2, 3, 4, 5, 6]);
//! let source = inband_tables::emit_rust(&[dialect], &[("tables/demo.toml".into(), text.into())]);
//! assert!(source.contains("pub static CONTENT: crate::automaton::Dfa"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// Generated tables are trusted by the core's hot loop; the generator has no reason to
// be anything but safe code.
#![forbid(unsafe_code)]
// The generator is part of the published build of `inband`; document all of it.
#![deny(missing_docs)]
// Every public type should be printable in a test or build failure.
#![warn(missing_debug_implementations)]

mod compile;
mod emit;
mod error;
mod knobs;
mod spec;

pub use compile::{compile, compile_all, max_delimiter_len, CompiledDialect, CompiledMode};
pub use emit::{emit_rust, fnv1a64};
pub use error::TableError;
pub use knobs::{BareCall, HeaderForm, Knobs, MessageChannel, TagKnob};
pub use spec::{parse, DialectSpec, ModeSpec};

/// The longest delimiter a table may hold, in bytes.
///
/// A scanner holds back at most one byte less than the longest delimiter at a chunk end;
/// this cap bounds that hold-back buffer (and keeps every depth in a `u8`).
pub const MAX_DELIMITER_CAP: usize = 64;

/// One delimiter role: its key in a table file and the `inband::event::Role` variant the
/// generated code names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoleName {
    /// The key in a `[modes.NAME]` table (`call_open`).
    pub key: &'static str,
    /// The `inband::event::Role` variant (`CallOpen`).
    pub variant: &'static str,
}

/// Every role a table may use. Within a mode, delimiters are ordered by this list, then
/// by their order in the table. Adding a role is one line here (and one variant in the
/// core's `Role`).
pub const ROLES: &[RoleName] = &[
    RoleName {
        key: "call_open",
        variant: "CallOpen",
    },
    RoleName {
        key: "call_close",
        variant: "CallClose",
    },
    RoleName {
        key: "reasoning_open",
        variant: "ReasoningOpen",
    },
    RoleName {
        key: "reasoning_close",
        variant: "ReasoningClose",
    },
    RoleName {
        key: "result_open",
        variant: "ResultOpen",
    },
    RoleName {
        key: "stop",
        variant: "Stop",
    },
    RoleName {
        key: "section_open",
        variant: "SectionOpen",
    },
    RoleName {
        key: "section_close",
        variant: "SectionClose",
    },
    RoleName {
        key: "args_open",
        variant: "ArgsOpen",
    },
    RoleName {
        key: "stray",
        variant: "Stray",
    },
    RoleName {
        key: "message_start",
        variant: "MessageStart",
    },
    RoleName {
        key: "channel",
        variant: "Channel",
    },
    RoleName {
        key: "constrain",
        variant: "Constrain",
    },
    RoleName {
        key: "message_body",
        variant: "MessageBody",
    },
    RoleName {
        key: "message_end",
        variant: "MessageEnd",
    },
    RoleName {
        key: "markup_open",
        variant: "MarkupOpen",
    },
    RoleName {
        key: "param_open",
        variant: "ParamOpen",
    },
    RoleName {
        key: "param_close",
        variant: "ParamClose",
    },
    RoleName {
        key: "quote",
        variant: "Quote",
    },
    RoleName {
        key: "fence",
        variant: "Fence",
    },
    RoleName {
        key: "id_open",
        variant: "IdOpen",
    },
    RoleName {
        key: "answer",
        variant: "Answer",
    },
    RoleName {
        key: "name_open",
        variant: "NameOpen",
    },
    RoleName {
        key: "name_close",
        variant: "NameClose",
    },
    RoleName {
        key: "args_close",
        variant: "ArgsClose",
    },
];

/// The role whose table key is `key`, if there is one.
pub fn role(key: &str) -> Option<&'static RoleName> {
    ROLES.iter().find(|role| role.key == key)
}
