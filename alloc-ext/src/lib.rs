//! # inband-alloc
//!
//! What a consumer of the allocation-free [`inband`] scanner builds on top of it, with
//! `alloc`: owned events ([`events`]), a whole completion with parsed tool calls
//! ([`assemble`], which also turns calls written as parameters, raw-text or literal, into
//! JSON arguments, typed by the tools' JSON Schemas), OpenAI-style streaming deltas
//! ([`stream`]), tool-call ids ([`ids`]), the tools offered to the model ([`tools`]: names,
//! descriptions and parameter schemas, read from an OpenAI `tools` array), and the encoding
//! side: calls, results, reasoning and transcripts written in a dialect ([`render`]), the
//! tool prompt with its catalog and format guide ([`prompt`]), the tool inventory and
//! examples ([`inventory`], [`examples`]), reasoning demotion ([`demote`]) and the dialect
//! for a model id or a server's parser name ([`select`]). Above them, the agent-runtime
//! layer ([`runtime`]): a provider stream projected into one assistant message (channel
//! lock, fabricated results, incomplete calls), leaked reasoning and template markup healed,
//! Harmony header leaks detected, the dialect resolved for a model.
//!
//! ## Example: assemble a completion
//!
//! ```
//! use inband::{Dialect, Options};
//! use inband_alloc::assemble::{assemble, AssembleOptions};
//!
//! let text = "Let me look.\n<tool_call>\n{\"name\": \"read\", \"arguments\": {\"path\": \"a.rs\"}}\n</tool_call>";
//! let completion = assemble(Dialect::Hermes, Options::default(), &AssembleOptions::seeded(7), [text.as_bytes()]);
//! assert_eq!(completion.content, "Let me look.");
//! assert_eq!(completion.tool_calls[0].name, "read");
//! assert_eq!(serde_json::to_string(&completion.tool_calls[0].arguments)?, r#"{"path":"a.rs"}"#);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Example: type raw-text parameters from the tools' schemas
//!
//! ```
//! use inband::{Dialect, Options};
//! use inband_alloc::assemble::{assemble, AssembleOptions};
//! use inband_alloc::tools::ToolSet;
//!
//! let tools = ToolSet::from_json(br#"[{"type": "function", "function": {"name": "read",
//!     "parameters": {"type": "object", "properties": {
//!         "path": {"type": "string"}, "limit": {"type": "integer"}, "all": {"type": "boolean"}}}}}]"#)?;
//! let mut options = AssembleOptions::seeded(7);
//! options.tools = Some(tools);
//! let text = r#"<invoke name="read"><parameter name="path">10</parameter><parameter name="limit"> 10 </parameter><parameter name="all">True</parameter></invoke>"#;
//! let completion = assemble(Dialect::Xml, Options::default(), &options, [text.as_bytes()]);
//! let arguments = &completion.tool_calls[0].arguments;
//! assert_eq!(arguments["path"], "10");
//! assert_eq!(arguments["limit"], 10);
//! assert_eq!(arguments["all"], true);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
// Every public item is part of the contract with servers and agent runtimes.
#![deny(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]
#![warn(missing_debug_implementations)]

pub mod assemble;
mod dedup;
pub mod demote;
pub mod events;
pub mod examples;
pub mod ids;
pub mod inventory;
mod json;
mod literal;
mod params;
pub mod prompt;
pub mod render;
pub mod runtime;
pub mod select;
pub mod stream;
pub mod tokens;
pub mod tools;

/// The JSON library of [`ToolCall::arguments`](assemble::ToolCall::arguments), with
/// `arbitrary_precision` (numbers as written) and `preserve_order` (keys as written).
pub use serde_json;
