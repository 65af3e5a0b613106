//! scratch
use crate::conformance::render;
use crate::harness;
use inband::{Dialect, Options};

#[test]
fn explore() {
    let inputs = std::fs::read_to_string("/tmp/explore.txt").unwrap();
    for line in inputs.lines() {
        let input: String = serde_json::from_str(line).unwrap();
        let log = harness::check(Dialect::Xml, Options::default(), input.as_bytes());
        println!("== {line}");
        for e in render(&log) {
            println!("   {e}");
        }
        let c = inband_alloc::assemble::assemble(
            Dialect::Xml,
            Options::default(),
            &inband_alloc::assemble::AssembleOptions::seeded(1),
            [input.as_bytes()],
        );
        println!("   => {}", serde_json::to_string(&c).unwrap());
    }
}
#[test]
fn size() {
    println!("SIZE {}", std::mem::size_of::<inband::Scanner>());
}
