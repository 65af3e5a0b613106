//! Every dialect's benchmark inputs give exactly the counts they declare, whole and in
//! 4-byte chunks: a bench that measured a broken input would measure the wrong thing, and
//! the benches themselves do not run in the test suite (a review found step3's big call
//! giving two text bytes more than it declared).

use inband::Dialect;

#[path = "../benches/inputs/mod.rs"]
mod inputs;

#[test]
fn every_dialects_bench_inputs_give_their_counts() {
    for &dialect in Dialect::ALL {
        let cases = [
            inputs::prose(dialect, 16 << 10),
            inputs::big_call(dialect, 4 << 10),
            inputs::many_calls(dialect, 20),
        ];
        for input in &cases {
            for chunk in [0, 4] {
                let counts = inputs::scan(input, chunk);
                let check = std::panic::catch_unwind(|| input.check(&counts));
                assert!(check.is_ok(), "{dialect}, {chunk}-byte chunks: {counts:?}");
            }
        }
    }
}
