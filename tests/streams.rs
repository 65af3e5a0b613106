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

/// What a client rebuilds from a stream's deltas: the content, the reasoning, and each
/// announced call's id, name and concatenated argument fragments, by index.
fn rebuilt(deltas: &[ChunkDelta]) -> (String, String, Vec<(String, String, String)>) {
    let (mut content, mut reasoning) = (String::new(), String::new());
    let mut calls: Vec<(String, String, String)> = Vec::new();
    for delta in deltas {
        content.push_str(&delta.content);
        reasoning.push_str(&delta.reasoning_content);
        for call in &delta.tool_calls {
            let index = call.index as usize;
            if let (Some(id), Some(name)) = (&call.id, &call.name) {
                assert_eq!(index, calls.len(), "a call is announced once, in order");
                calls.push((id.clone(), name.clone(), String::new()));
            }
            calls[index].2.push_str(&call.arguments);
        }
    }
    (content, reasoning, calls)
}

/// The deltas of a stream fed `chunks`, the delta taken (borrowed) after every `every`
/// chunks only: a server may feed several decode steps before it writes a chunk.
fn borrowed(
    dialect: Dialect,
    options: Options,
    assemble_options: &AssembleOptions,
    chunks: &[&[u8]],
    every: usize,
) -> (Vec<ChunkDelta>, Completion) {
    let mut scanner = Scanner::new(dialect, options);
    let mut stream = DeltaStream::new(dialect, assemble_options);
    let mut deltas = Vec::new();
    for (i, chunk) in chunks.iter().enumerate() {
        scanner.feed(chunk, &mut stream).unwrap();
        if (i + 1) % every == 0 {
            deltas.push(stream.delta().clone());
        }
    }
    scanner.finish(&mut stream).unwrap();
    let (last, _, completion) = stream.finish();
    deltas.push(last);
    (deltas, completion)
}

proptest! {
    /// Every byte the completion shows reached the client once: the deltas' content and
    /// reasoning, joined and trimmed, are the completion's; the calls announced are its
    /// calls with their ids, names and the exact argument text (with `hold_calls`, only
    /// complete calls are announced; without, a call announced may break afterwards, but
    /// every complete call is announced); whatever the chunking and however many chunks
    /// are fed between two deltas.
    #[test]
    fn the_deltas_rebuild_the_completion(
        input in input(),
        sizes in prop::collection::vec(1usize..9, 1..8),
        every in 1usize..4,
        dialect in prop::sample::select(Dialect::ALL),
        starts_in_reasoning in any::<bool>(),
        hold_calls in any::<bool>(),
    ) {
        let mut options = Options::default();
        options.starts_in_reasoning = starts_in_reasoning;
        let mut assemble_options = AssembleOptions::seeded(3);
        assemble_options.hold_calls = hold_calls;
        let chunks = harness::chunked(&input, &sizes);
        let (deltas, completion) = borrowed(dialect, options, &assemble_options, &chunks, every);
        prop_assert_eq!(&completion, &assemble(dialect, options, &assemble_options, [&input[..]]));
        let (content, reasoning, calls) = rebuilt(&deltas);
        let complete: Vec<(String, String, String)> = completion
            .tool_calls
            .iter()
            .map(|c| (c.id.clone(), c.name.clone(), c.arguments_text().to_owned()))
            .collect();
        if hold_calls {
            prop_assert_eq!(content.trim(), completion.content.as_str());
            prop_assert_eq!(calls, complete);
        } else {
            for call in &complete {
                prop_assert!(calls.contains(call), "{:?} not announced: {:?}", call, calls);
            }
        }
        prop_assert_eq!(
            reasoning.trim(),
            completion.reasoning.as_deref().unwrap_or_default()
        );
    }
}
