//! Token mode (docs/dialects.md rule 14): a gated delimiter counts only where the model
//! emitted it as its token. Inputs are token sequences, `(text, added)` pairs: `added` marks
//! a token the vocabulary has as its own. Each case is fed in every grouping of its tokens
//! (every two-way split between tokens, every group size, one token at a time) and must give
//! the same log.

// Token spans are byte ranges, and a step with one token has one span.
#![allow(clippy::single_range_in_vec_init)]

use inband::{Dialect, Error, Options, Scanner, TokenGate};
use inband_alloc::events::EventLog;

use crate::harness::{check, check_log, render};

/// A token sequence written compactly: `⟦…⟧` is one added token, anything else ordinary
/// text, cut into one-character tokens (the chunking inside ordinary text is the harness's
/// business, not the test's).
fn tokens(spec: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut rest = spec;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('⟦') {
            let end = after.find('⟧').expect("closed ⟦");
            out.push((after[..end].to_string(), true));
            rest = &after[end + '⟧'.len_utf8()..];
        } else {
            let c = rest.chars().next().unwrap();
            out.push((c.to_string(), false));
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// Feeds `groups` of tokens, each group one `feed_tokens` call, and finishes.
fn scan_groups(gate: TokenGate, groups: &[&[(String, bool)]]) -> EventLog {
    let mut scanner = Scanner::with_tokens(gate, Options::default());
    let mut log = EventLog::new();
    for group in groups {
        let mut chunk = Vec::new();
        let mut spans = Vec::new();
        for (text, added) in group.iter() {
            if *added {
                spans.push(chunk.len()..chunk.len() + text.len());
            }
            chunk.extend_from_slice(text.as_bytes());
        }
        scanner.feed_tokens(&chunk, &spans, &mut log).unwrap();
    }
    scanner.finish(&mut log).unwrap();
    log
}

/// The log of `spec` in token mode with `gate`, checked equal over every grouping of its
/// tokens and for every invariant of the harness, rendered.
fn token_scan(gate: TokenGate, spec: &str) -> Vec<String> {
    let toks = tokens(spec);
    let input: Vec<u8> = toks.iter().flat_map(|(t, _)| t.bytes()).collect();
    let whole = scan_groups(gate, &[&toks]);
    check_log(&whole, &input);
    for k in 0..=toks.len() {
        let split = scan_groups(gate, &[&toks[..k], &toks[k..]]);
        assert_eq!(split, whole, "{spec:?} split after token {k}");
    }
    for size in 1..=toks.len().max(1) {
        let groups: Vec<&[(String, bool)]> = toks.chunks(size).collect();
        assert_eq!(
            scan_groups(gate, &groups),
            whole,
            "{spec:?} in groups of {size}"
        );
    }
    render(&whole)
}

/// A gate for `dialect` with `added` declared as its tokens.
fn gate(dialect: Dialect, added: &[&str]) -> TokenGate {
    let mut gate = TokenGate::new(dialect);
    for token in added {
        gate.add_token(token.as_bytes());
    }
    gate
}

/// Qwen 3.5's vocabulary: `<tool_call>`, `</tool_call>`, `<think>`, `</think>` and the
/// ChatML tokens are added tokens.
fn qwen35() -> TokenGate {
    gate(
        Dialect::Qwen3,
        &[
            "<tool_call>",
            "</tool_call>",
            "<think>",
            "</think>",
            "<tool_response>",
            "</tool_response>",
            "<|im_start|>",
            "<|im_end|>",
            "<|endoftext|>",
        ],
    )
}

#[test]
fn a_gate_names_the_delimiters_that_begin_with_a_token() {
    let gate = qwen35();
    let gated: Vec<&str> = gate
        .gated()
        .map(|d| std::str::from_utf8(d).unwrap())
        .collect();
    assert_eq!(
        gated,
        [
            "<tool_call>",
            "</tool_call>",
            "</think>",
            "<|im_end|>",
            "<|endoftext|>",
            "<think>",
            "<tool_response>",
            "<|im_start|>user\n",
            "<|im_start|>tool\n",
        ]
    );
    assert!(gate.is_gated(b"<|im_start|>user\n"));
    assert!(!gate.is_gated(b"<tool"));
    let mut empty = TokenGate::new(Dialect::Qwen3);
    assert_eq!(empty.add_token(b""), 0);
    assert_eq!(empty.add_token(b"<|vision_pad|>"), 0);
    assert_eq!(empty.add_token(b"<|im_start|>"), 2);
    assert_eq!(empty.add_token(b"<|im_start|>"), 0, "already gated");
}

#[test]
fn every_dialect_fits_the_gate() {
    for &dialect in Dialect::ALL {
        assert!(
            dialect.delimiters().count() <= inband::MAX_GATED_ENTRIES,
            "{dialect}: {} delimiter entries",
            dialect.delimiters().count()
        );
    }
}

#[test]
fn a_call_of_added_tokens_is_a_call() {
    let log = token_scan(
        qwen35(),
        r#"Sure.⟦<tool_call>⟧{"name": "f", "arguments": {"a": 1}}⟦</tool_call>⟧"#,
    );
    assert_eq!(
        log,
        [
            r#"T"Sure.""#,
            "<CallOpen>",
            r#"E"{\"name\": \"f\"""#,
            "S0:f",
            r#"E", \"arguments\": ""#,
            r#"A0"{\"a\": 1}""#,
            r#"E"}""#,
            "<CallClose>",
            "X0:Complete",
        ]
    );
}

#[test]
fn a_quoted_delimiter_of_ordinary_tokens_is_text() {
    let spec = r#"Write <tool_call>{"name": "f", "arguments": {}}</tool_call> to call f."#;
    let log = token_scan(qwen35(), spec);
    assert_eq!(log, [format!("T{:?}", spec)]);
    // The same text in text mode is a call.
    let text = render(&check(Dialect::Qwen3, Options::default(), spec.as_bytes()));
    assert!(text.contains(&"S0:f".to_string()), "{text:?}");
}

#[test]
fn a_closer_of_ordinary_tokens_inside_a_call_is_not_its_end() {
    // The model writes the closer's characters as ordinary tokens after the body, then
    // its real closer token: only the token closes the call.
    let log = token_scan(
        qwen35(),
        r#"⟦<tool_call>⟧{"name": "f", "arguments": {"q": "</tool_call>"}}⟦</tool_call>⟧ok"#,
    );
    assert_eq!(
        log,
        [
            "<CallOpen>",
            r#"E"{\"name\": \"f\"""#,
            "S0:f",
            r#"E", \"arguments\": ""#,
            r#"A0"{\"q\": \"</tool_call>\"}""#,
            r#"E"}""#,
            "<CallClose>",
            "X0:Complete",
            r#"T"ok""#,
        ]
    );
}

#[test]
fn reasoning_closes_only_at_its_token() {
    let log = token_scan(
        qwen35(),
        "⟦<think>⟧The tag </think> ends it.⟦</think>⟧Answer.",
    );
    assert_eq!(
        log,
        [
            "<ReasoningOpen>",
            "R+",
            r#"R"The tag </think> ends it.""#,
            "<ReasoningClose>",
            "R-",
            r#"T"Answer.""#,
        ]
    );
}

#[test]
fn a_delimiter_that_begins_with_a_token_needs_that_token() {
    // `<|im_start|>user\n` is the token `<|im_start|>` then ordinary text.
    let gate = qwen35();
    let real = token_scan(gate, "Done.⟦<|im_start|>⟧user\nNext");
    assert_eq!(real[..3], [r#"T"Done.""#, "<ResultOpen>", "F"]);
    let quoted = token_scan(gate, "Done. <|im_start|>user\nNext");
    assert_eq!(quoted, [r#"T"Done. <|im_start|>user\nNext""#]);
}

#[test]
fn ungated_delimiters_count_as_in_text_mode() {
    // Qwen 2.5's vocabulary has no `<tool_call>` token: the tag is ordinary text there and
    // counts wherever it is, as in text mode.
    let gate = gate(Dialect::Qwen3, &["<|im_start|>", "<|im_end|>"]);
    let spec = r#"<tool_call>{"name": "f", "arguments": {}}</tool_call>⟦<|im_end|>⟧"#;
    let input: String = tokens(spec).into_iter().map(|(t, _)| t).collect();
    let text = render(&check(Dialect::Qwen3, Options::default(), input.as_bytes()));
    assert_eq!(token_scan(gate, spec), text);
}

#[test]
fn deepseek_tokens_and_dsml_text() {
    // DeepSeek's call tokens are added tokens (marked `special: false` in its
    // tokenizer.json); a prose mention of one is text.
    let gate = gate(
        Dialect::Deepseek,
        &[
            "<｜tool▁calls▁begin｜>",
            "<｜tool▁call▁begin｜>",
            "<｜tool▁sep｜>",
            "<｜tool▁call▁end｜>",
            "<｜tool▁calls▁end｜>",
            "<｜end▁of▁sentence｜>",
            "<think>",
            "</think>",
        ],
    );
    let real = token_scan(
        gate,
        "⟦<｜tool▁calls▁begin｜>⟧⟦<｜tool▁call▁begin｜>⟧f⟦<｜tool▁sep｜>⟧{\"a\": 1}⟦<｜tool▁call▁end｜>⟧⟦<｜tool▁calls▁end｜>⟧",
    );
    assert!(real.contains(&"S0:f".to_string()), "{real:?}");
    assert!(real.contains(&"X0:Complete".to_string()), "{real:?}");
    let quoted = token_scan(gate, "The token <｜tool▁calls▁begin｜> starts calls.");
    assert_eq!(
        quoted,
        [r#"T"The token <｜tool▁calls▁begin｜> starts calls.""#]
    );
}

#[test]
fn feed_in_text_mode_has_no_tokens() {
    let mut scanner = Scanner::with_tokens(qwen35(), Options::default());
    let mut log = EventLog::new();
    scanner.feed(b"<tool_call>", &mut log).unwrap();
    scanner.finish(&mut log).unwrap();
    assert_eq!(render(&log), [r#"T"<tool_call>""#]);
    scanner.reset();
    assert_eq!(scanner.token_gate(), Some(qwen35()), "reset keeps the gate");
}

#[test]
fn bad_token_spans_are_errors_and_scan_nothing() {
    let mut scanner = Scanner::with_tokens(qwen35(), Options::default());
    let mut log = EventLog::new();
    let chunk = b"ab<think>cd";
    for (spans, k) in [
        (vec![2..9, 3..4], 1),
        (vec![2..2], 0),
        (vec![0..1, 5..12], 1),
        #[allow(clippy::reversed_empty_ranges)]
        (vec![4..3], 0),
    ] {
        assert_eq!(
            scanner.feed_tokens(chunk, &spans, &mut log),
            Err(Error::TokenSpan(k))
        );
    }
    assert!(log.events.is_empty());
    assert_eq!(scanner.offset(), 0);
    let mut text = Scanner::new(Dialect::Qwen3, Options::default());
    assert_eq!(
        text.feed_tokens(chunk, &[2..9], &mut log),
        Err(Error::NotTokenMode)
    );
    scanner.finish(&mut log).unwrap();
    assert_eq!(
        scanner.feed_tokens(chunk, &[], &mut log),
        Err(Error::Finished)
    );
}

#[test]
fn a_closer_of_ordinary_tokens_after_the_body_does_not_close() {
    // The body is whole, so the call is complete without its closer; the characters and
    // then the closer token that follow are content (a closer outside a call is text in
    // this dialect, token or not).
    let log = token_scan(
        qwen35(),
        r#"⟦<tool_call>⟧{"name": "f", "arguments": {}}</tool_call>⟦</tool_call>⟧"#,
    );
    assert_eq!(
        log,
        [
            "<CallOpen>",
            r#"E"{\"name\": \"f\"""#,
            "S0:f",
            r#"E", \"arguments\": ""#,
            r#"A0"{}""#,
            r#"E"}""#,
            "D:missing_closer",
            "X0:Complete",
            r#"T"</tool_call></tool_call>""#,
        ]
    );
}

mod properties {
    use inband::{Dialect, Options, Scanner, TokenGate};
    use inband_alloc::events::EventLog;
    use proptest::prelude::*;

    use crate::harness::check_log;
    use crate::properties::PIECES;

    /// Random token sequences from the property tests' pieces, each piece one token,
    /// `added` at random (so some delimiters arrive as tokens, some as ordinary text).
    fn tokens() -> impl Strategy<Value = Vec<(&'static str, bool)>> {
        prop::collection::vec((prop::sample::select(PIECES), any::<bool>()), 0..40)
    }

    /// A gate in which every delimiter of `dialect` is an added token.
    fn every_delimiter(dialect: Dialect) -> TokenGate {
        let mut gate = TokenGate::new(dialect);
        for d in dialect.delimiters() {
            gate.add_token(d.bytes);
        }
        gate
    }

    fn feed(gate: TokenGate, tokens: &[(&str, bool)], cuts: &[usize]) -> EventLog {
        let mut scanner = Scanner::with_tokens(gate, Options::default());
        let mut log = EventLog::new();
        let mut from = 0;
        for &to in cuts.iter().chain([&tokens.len()]) {
            let to = to.clamp(from, tokens.len());
            let mut chunk = Vec::new();
            let mut spans = Vec::new();
            for (text, added) in &tokens[from..to] {
                if *added && !text.is_empty() {
                    spans.push(chunk.len()..chunk.len() + text.len());
                }
                chunk.extend_from_slice(text.as_bytes());
            }
            scanner.feed_tokens(&chunk, &spans, &mut log).unwrap();
            from = to;
        }
        scanner.finish(&mut log).unwrap();
        log
    }

    proptest! {
        /// Any grouping of the tokens into feeds gives one log, and it accounts for every byte.
        #[test]
        fn token_groupings_give_the_same_events(
            dialect in prop::sample::select(Dialect::ALL),
            tokens in tokens(),
            mut cuts in prop::collection::vec(0usize..40, 0..8),
        ) {
            cuts.sort_unstable();
            let gate = every_delimiter(dialect);
            let one_per_feed: Vec<usize> = (1..tokens.len()).collect();
            let expected = feed(gate, &tokens, &one_per_feed);
            let input: Vec<u8> = tokens.iter().flat_map(|(t, _)| t.bytes()).collect();
            check_log(&expected, &input);
            prop_assert_eq!(feed(gate, &tokens, &cuts), expected.clone());
            prop_assert_eq!(feed(gate, &tokens, &[]), expected);
        }

        /// With nothing gated, token mode is text mode.
        #[test]
        fn an_empty_gate_is_text_mode(
            dialect in prop::sample::select(Dialect::ALL),
            tokens in tokens(),
            mut cuts in prop::collection::vec(0usize..40, 0..8),
        ) {
            cuts.sort_unstable();
            let input: Vec<u8> = tokens.iter().flat_map(|(t, _)| t.bytes()).collect();
            let text = EventLog::scan(dialect, Options::default(), [&input[..]]);
            prop_assert_eq!(feed(TokenGate::new(dialect), &tokens, &cuts), text);
        }
    }
}

#[test]
fn a_reasoning_closer_of_ordinary_tokens_in_content_is_plain_text() {
    // Text mode notes a `</think>` in content as a sign that the prompt opened the
    // reasoning (`unopened_reasoning`); made of ordinary tokens it is just text.
    assert_eq!(
        token_scan(qwen35(), "Use </think> to end it."),
        [r#"T"Use </think> to end it.""#]
    );
    let log = token_scan(qwen35(), "Thinking.⟦</think>⟧Answer.");
    assert!(log.contains(&"D:unopened_reasoning".to_string()), "{log:?}");
}

#[test]
fn a_delimiter_of_two_adjacent_tokens_counts() {
    // InternLM's call opener `<|action_start|><|plugin|>` is two added tokens.
    let gate = gate(
        Dialect::Internlm,
        &[
            "<|action_start|>",
            "<|plugin|>",
            "<|action_end|>",
            "<|im_end|>",
        ],
    );
    let log = token_scan(
        gate,
        r#"⟦<|action_start|>⟧⟦<|plugin|>⟧{"name": "f", "parameters": {}}⟦<|action_end|>⟧"#,
    );
    assert!(log.contains(&"S0:f".to_string()), "{log:?}");
    assert!(log.contains(&"X0:Complete".to_string()), "{log:?}");
    // Ordinary text between the two tokens: not the opener.
    let split = token_scan(gate, r#"⟦<|action_start|>⟧x⟦<|plugin|>⟧{"name": "f"}"#);
    assert!(!split.iter().any(|e| e.starts_with("S0")), "{split:?}");
    // The space a server's detokenizer puts between them (Intern-S1) is the table's other
    // spelling of the opener: it counts where its first token began.
    let spaced = token_scan(
        gate,
        r#"⟦<|action_start|>⟧ ⟦<|plugin|>⟧{"name": "f", "parameters": {}}⟦<|action_end|>⟧"#,
    );
    assert!(spaced.contains(&"X0:Complete".to_string()), "{spaced:?}");
}

#[test]
fn a_delimiter_with_ordinary_text_between_its_tokens_counts() {
    // Kimi K3's markers are built of three added tokens with ordinary text between them
    // (`<|open|>tools<|sep|>`): the delimiter counts where its first token began, however
    // many tokens it holds (found by a review: only the latest token was remembered).
    let gate = gate(Dialect::KimiK3, &["<|open|>", "<|close|>", "<|sep|>"]);
    let call = r#"⟦<|open|>⟧tools⟦<|sep|>⟧⟦<|open|>⟧call tool="f" index="1"⟦<|sep|>⟧⟦<|open|>⟧argument key="s" type="string"⟦<|sep|>⟧v⟦<|close|>⟧argument⟦<|sep|>⟧⟦<|close|>⟧call⟦<|sep|>⟧⟦<|close|>⟧tools⟦<|sep|>⟧"#;
    let log = token_scan(gate, call);
    assert!(log.contains(&"S0:f".to_string()), "{log:?}");
    assert!(log.contains(&"X0:Complete".to_string()), "{log:?}");
    assert!(!log.iter().any(|e| e.starts_with("D:")), "{log:?}");
    // The same markers of ordinary tokens are text.
    let quoted = token_scan(
        gate,
        r#"<|open|>tools<|sep|><|open|>call tool="f" index="1"<|sep|>"#,
    );
    assert!(!quoted.iter().any(|e| e.starts_with("S0")), "{quoted:?}");
}
