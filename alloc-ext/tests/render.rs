//! The encoding side: render → scan is the identity for every dialect (property tests at
//! random chunkings), golden transcripts, the seed's transcript behaviours
//! (docs/seed.md §5.6, amended by docs/dialects.md) and history re-encoding (§4.4).
//! `PROPTEST_CASES` sets the number of cases; `INBAND_BLESS=1` rewrites the golden files.
//!
//! One test binary: the topics are the modules in `render/`, their helpers in `render/common.rs`.

#[path = "render/calls.rs"]
mod calls;
#[path = "render/common.rs"]
mod common;
#[path = "render/glm.rs"]
mod glm;
#[path = "render/limits.rs"]
mod limits;
#[path = "render/reasoning.rs"]
mod reasoning;
#[path = "render/round_trip.rs"]
mod round_trip;
#[path = "render/transcripts.rs"]
mod transcripts;
#[path = "render/typing.rs"]
mod typing;
#[path = "render/values.rs"]
mod values;
