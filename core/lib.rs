//! # inband
//!
//! A streaming, allocation-free decoder for *in-band tool calls*: language models that
//! write their tool calls, tool results and reasoning as text, each model family in its
//! own dialect. Feed it every decode step's text, in chunks split anywhere, and it
//! reports content, reasoning and tool-call events through a [`Sink`].
//!
//! ## Overview
//!
//! - [`Scanner`]: one generic push scanner for every [`Dialect`]; [`Scanner::feed`] a
//!   chunk, [`Scanner::finish`] at end of stream, [`Scanner::reset`] to reuse it.
//! - [`Sink`]: receives events; every method has a no-op default.
//! - [`Span`], [`CallEnd`], [`Diagnostic`], [`Markup`], [`Role`], [`ValueKind`],
//!   [`Piece`]: what events carry.
//! - [`ArgumentsNormalizer`]: turns the model's raw argument text into JSON text for
//!   clients, fragment by fragment.
//! - [`Dialect::delimiters`]: each dialect's delimiters, compiled from `tables/dialects/` at
//!   build time.
//!
//! ## Example: a Hermes call split across chunks
//!
//! ```
//! use inband::{CallEnd, Dialect, Options, Scanner, Sink, Span};
//!
//! #[derive(Default)]
//! struct Calls { names: Vec<String>, args: Vec<u8>, ended: Vec<CallEnd> }
//!
//! impl Sink for Calls {
//!     fn tool_start(&mut self, _: Span, _: u32, name: Option<&[u8]>, _: bool) {
//!         self.names.push(String::from_utf8_lossy(name.unwrap_or(b"")).into_owned());
//!     }
//!     fn tool_args(&mut self, _: Span, _: u32, json: &[u8]) {
//!         self.args.extend_from_slice(json);
//!     }
//!     fn tool_end(&mut self, _: Span, _: u32, end: CallEnd) {
//!         self.ended.push(end);
//!     }
//! }
//!
//! let mut scanner = Scanner::new(Dialect::Hermes, Options::default());
//! let mut calls = Calls::default();
//! for chunk in ["Sure.<tool", "_call>{\"name\": \"read\", \"argu", "ments\": {\"path\": \"a.rs\"}}</tool_call>"] {
//!     scanner.feed(chunk.as_bytes(), &mut calls)?;
//! }
//! scanner.finish(&mut calls)?;
//! assert_eq!(calls.names, ["read"]);
//! assert_eq!(calls.args, br#"{"path": "a.rs"}"#);
//! assert_eq!(calls.ended, [CallEnd::Complete]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Crate features
//!
//! - `no-skip`: turns off the `memchr` skip-ahead (a plain byte loop instead), so tests
//!   can check that both paths give the same events. Off by default.
//!
//! ## Differences from the reference (docs/seed.md)
//!
//! - Chunking never matters; nothing is dropped, truncated names are never reported, and a
//!   call cut off by the end of the stream is incomplete, never complete (docs/dialects.md rules
//!   1–3; docs/seed.md B1, B4, B6, B11).
//! - `</tool_call>` inside a JSON string is argument text (docs/seed.md B8).
//! - Every dialect recognises reasoning by default; calls drafted inside closed reasoning
//!   are demoted (rule 7).
//! - Kimi and DeepSeek: a call header is bounded and never swallows the next call (docs/seed.md
//!   B9); arguments that are not JSON make the call invalid, never a call with `{}` (B11);
//!   tool-output tokens in content are fabricated results, not deleted (B19).
//! - Markup (`xml`, and DSML in `deepseek`): a `>` inside a quoted attribute does not end the tag (docs/seed.md B15); a
//!   self-closing `<invoke name="N"/>` is a complete call with `{}` (B16); a `</parameter>`
//!   inside a value counts only when structure follows it (rule 4); the `string` attribute
//!   reads `true`/`false` in any quoting and case, and without it a value is typed as in
//!   every other raw-text dialect (B17).
//! - Gemma and Gemini: a Gemma `<|"|>` inside a string closes it only before `,` `}` `]`
//!   (docs/dialects.md §gemma); a `)` or a fence inside a Python string is data (docs/seed.md B8); a call
//!   with a positional argument, or a `tool_code` statement that is not a call, is not a
//!   tool call (B20).

#![no_std]
// Every public item is part of the contract with embedders.
#![deny(missing_docs)]
// Broken links in docs are broken promises.
#![deny(rustdoc::broken_intra_doc_links)]
// Every public type should be printable in a test failure.
#![warn(missing_debug_implementations)]
// The core needs no unsafe code; keep it that way until a benchmark says otherwise.
#![forbid(unsafe_code)]

mod automaton;
mod dialect;
mod edges;
mod engine;
pub mod event;
mod lex;
mod machine;
pub mod normalize;
mod options;
mod scan;
mod scanner;
mod tables;
mod token;

/// The README's examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub use event::{CallEnd, Diagnostic, Markup, Piece, Role, Sink, Span, ValueKind};
pub use lex::tag::MAX_TAG;
pub use normalize::ArgumentsNormalizer;
pub use options::{Error, Options, MAX_DRAFT_CALLS, MAX_LITERAL_DEPTH, MAX_LOOKAHEAD, MAX_NAME};
pub use scanner::{Dialect, Scanner, TableDelimiter};
pub use tables::MAX_HOLD;
pub use token::{TokenGate, MAX_GATED_ENTRIES};
