//! The integration tests: one binary (link time matters on small machines).

mod alloc;
mod anthropic;
mod arguments;
mod bench_inputs;
mod cases;
mod conformance;
mod corpus;
mod dsml;
mod edges;
mod gemini;
mod gemma;
mod glm;
mod harmony;
mod harness;
mod minimax;
mod muse;
mod properties;
mod qwen3_coder;
mod special_tokens;
mod streams;
mod tables;
mod tokens;
mod xml;

#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;
