//! A call id is one call's: results are matched to calls by id, so a model's own id
//! (Kimi's `functions.NAME:IDX`) that repeats an earlier call's is replaced by a minted
//! one, with `duplicate_call_id`, in the completion and in the stream's deltas alike.

use inband::{Dialect, Options, Scanner};
use inband_alloc::assemble::{assemble, AssembleOptions};
use inband_alloc::stream::DeltaStream;

const TWICE: &str = "<|tool_calls_section_begin|>\
    <|tool_call_begin|>functions.rm:0<|tool_call_argument_begin|>{\"path\": \"/tmp/safe\"}<|tool_call_end|>\
    <|tool_call_begin|>functions.rm:0<|tool_call_argument_begin|>{\"path\": \"/\"}<|tool_call_end|>\
    <|tool_call_begin|>functions.rm:1<|tool_call_argument_begin|>{}<|tool_call_end|>\
    <|tool_calls_section_end|>";

#[test]
fn a_repeated_model_call_id_is_replaced() {
    let options = AssembleOptions::seeded(1);
    let bytes = TWICE.as_bytes();
    let whole = assemble(Dialect::Kimi, Options::default(), &options, [bytes]);
    let ids: Vec<&str> = whole.tool_calls.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "functions.rm:0",
            "call_ZhbBe5TWZnBsx0ZihMiGdjOb",
            "functions.rm:1"
        ]
    );
    let diagnostics: Vec<(&str, [u64; 2])> =
        whole.diagnostics.iter().map(|d| (d.code, d.span)).collect();
    assert_eq!(diagnostics, [("duplicate_call_id", [146, 160])]);
    assert_eq!(&TWICE[146..160], "functions.rm:0");
    for size in 1..=bytes.len() {
        let chunks: Vec<&[u8]> = bytes.chunks(size).collect();
        assert_eq!(
            assemble(Dialect::Kimi, Options::default(), &options, chunks.clone()),
            whole,
            "chunks of {size}"
        );
        let mut scanner = Scanner::new(Dialect::Kimi, Options::default());
        let mut stream = DeltaStream::unsent(Dialect::Kimi, &options);
        let mut sent = Vec::new();
        for chunk in &chunks {
            scanner.feed(chunk, &mut stream).unwrap();
            sent.extend(
                stream
                    .take_delta()
                    .tool_calls
                    .into_iter()
                    .filter_map(|c| c.id),
            );
        }
        scanner.finish(&mut stream).unwrap();
        sent.extend(
            stream
                .finish()
                .0
                .tool_calls
                .into_iter()
                .filter_map(|c| c.id),
        );
        assert_eq!(sent, ids, "chunks of {size}");
    }
}
