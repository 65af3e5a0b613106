//! Dialect phase machines: the small hand-written state machines that react to the
//! delimiters the tables find. One module per wire family.
//!
//! Adding a dialect (the full checklist is `docs/DESIGN.md`, "Adding a family"): write
//! `tables/dialects/NAME.toml` (its modes and delimiters, and its family settings in
//! `[knobs]`; new roles go in `inband-tables`' role list and [`Role`](crate::Role)), add a
//! [`Dialect`](crate::Dialect) variant, and either map it onto an existing family's `Modes`
//! (as `qwen3` reuses the JSON-in-tags machine) or add a family module here, driven by the
//! same [`DelimiterScan`](crate::scan::DelimiterScan) and lexers, and dispatch to it from
//! the scanner.

pub(crate) mod gemini;
pub(crate) mod gemma;
pub(crate) mod glm;
pub(crate) mod harmony;
pub(crate) mod json_tag;
pub(crate) mod params;
pub(crate) mod token_json;
