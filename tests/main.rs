//! The integration tests: one binary (link time matters on small machines).

mod alloc;
mod conformance;
mod corpus;
mod dsml;
mod gemini;
mod gemma;
mod glm;
mod harmony;
mod harness;
mod properties;
mod special_tokens;
mod tables;
mod xml;

#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;
