//! The integration tests: one binary (link time matters on small machines).

mod conformance;
mod corpus;
mod harness;
mod tables;
