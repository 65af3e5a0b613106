//! The bounded stream sends what the stream that keeps the whole completion sends, delta
//! for delta, and that stream's completion is `assemble()`'s, for random inputs, dialects
//! and chunkings: retiring settled calls and dropping sent text change nothing a client or
//! a caller sees.

use inband::{Dialect, Options, Scanner};
use inband_alloc::assemble::{assemble, AssembleOptions, Completion};
use inband_alloc::stream::{ChunkDelta, DeltaStream, Retain};
use proptest::prelude::*;

use crate::harness;
use crate::properties::PIECES;

/// Every delta of a stream fed `chunks`, the finish reason and the final completion.
fn stream(
    dialect: Dialect,
    options: Options,
    assemble_options: &AssembleOptions,
    retain: Retain,
    chunks: &[&[u8]],
) -> (Vec<ChunkDelta>, &'static str, Completion) {
    let mut scanner = Scanner::new(dialect, options);
    let mut stream = DeltaStream::retaining(dialect, assemble_options, retain);
    let mut deltas = Vec::new();
    for chunk in chunks {
        scanner.feed(chunk, &mut stream).unwrap();
        deltas.push(stream.take_delta());
    }
    scanner.finish(&mut stream).unwrap();
    let (last, reason, completion) = stream.finish();
    deltas.push(last);
    (deltas, reason, completion)
}

fn input() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(PIECES), 0..40)
        .prop_map(|pieces| pieces.concat().into_bytes())
}

proptest! {
    #[test]
    fn the_unsent_stream_sends_the_same_and_the_whole_one_keeps_assembles(
        input in input(),
        sizes in prop::collection::vec(1usize..9, 1..8),
        dialect in prop::sample::select(Dialect::ALL),
        starts_in_reasoning in any::<bool>(),
        hold_calls in any::<bool>(),
        max_calls in prop::sample::select(&[1024, 1, 2][..]),
    ) {
        let mut options = Options::default();
        options.starts_in_reasoning = starts_in_reasoning;
        options.max_calls = max_calls;
        let mut assemble_options = AssembleOptions::seeded(3);
        assemble_options.hold_calls = hold_calls;
        let chunks = harness::chunked(&input, &sizes);
        let whole = assemble(dialect, options, &assemble_options, [&input[..]]);
        let (deltas, reason, completion) =
            stream(dialect, options, &assemble_options, Retain::Completion, &chunks);
        prop_assert_eq!(&completion, &whole);
        let (unsent_deltas, unsent_reason, unsent) =
            stream(dialect, options, &assemble_options, Retain::Unsent, &chunks);
        prop_assert_eq!(unsent_deltas, deltas);
        prop_assert_eq!(unsent_reason, reason);
        prop_assert_eq!(unsent.content, "");
        prop_assert!(unsent.reasoning.as_deref().is_none_or(str::is_empty));
        prop_assert!(unsent.tool_calls.is_empty());
        prop_assert_eq!(unsent.incomplete_calls, whole.incomplete_calls);
        prop_assert_eq!(unsent.diagnostics, whole.diagnostics);
    }
}
