//! The integration tests: one binary (link time matters on small machines).

mod alloc;
mod conformance;
mod corpus;
mod harness;
mod properties;
mod tables;
mod xml;

#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;
