//! Property tests: calls and reasoning rendered in every dialect scan back as themselves
//! at random chunkings (`PROPTEST_CASES` sets the number of cases).

use inband::event::Role;
use inband::Dialect;
use inband_alloc::render::{Call, Reason, RenderError, Renderer};
use proptest::prelude::*;
use serde_json::{json, Value};

use crate::common::{calls_of, scan};

/// Pieces string values are made of: markup of every dialect, quotes, backslashes,
/// newlines, non-ASCII.
const STRING_PIECES: &[&str] = &[
    "a",
    "path/to/file.rs",
    " ",
    "\n",
    "\t",
    "\"",
    "'",
    "\\",
    "\\n",
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "=",
    "(",
    ")",
    "<",
    ">",
    "&amp;",
    "é",
    "城堡",
    "🦀",
    "<tool_call>",
    "</tool_call>",
    "<think>",
    "</think>",
    "<tool_response>",
    "<|tool_call_end|>",
    "<|tool_calls_section_end|>",
    "<｜tool▁call▁end｜>",
    "<|call|>",
    "<|end|>",
    "</parameter>",
    "</invoke>",
    "<parameter name=\"x\">",
    "\n<parameter name=\"y\">",
    "</function_calls>",
    "</minimax:tool_call>",
    "[e~[",
    "<function=f>",
    "<parameter=k>",
    "\n<parameter=k>",
    "</function>",
    "\n</function>",
    "<|im_end|>",
    "<tool_call|>",
    "<|tool_call>",
    "```",
    "```tool_code\n",
    "default_api.f(x=1)",
    "functools[",
    "<answer>",
    "<|START_ACTION|>",
    "<|END_RESPONSE|>",
    "tool_name",
    "<|tools_prefix|>",
    "<|inner_suffix|>",
    "<response>",
    "</tool_output>",
    "<function_call>",
    "<function_response>",
    "<|action_start|> <|plugin|>",
    "</answer>",
    "<tool_calls>",
    "</tool_calls>",
    "True",
    "null",
    "42",
];

fn string_value() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(STRING_PIECES), 0..8).prop_map(|p| p.concat())
}

fn key() -> impl Strategy<Value = String> {
    "[a-z_][a-z0-9_]{0,8}"
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|n| json!(n)),
        // Quarters: exact in binary and in decimal, so the generated f64 and the number
        // text read back are the same value whichever way either is written.
        (-4_000_000i32..4_000_000).prop_map(|n| json!(f64::from(n) / 4.0)),
        string_value().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..4)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
        ]
    })
}

fn call() -> impl Strategy<Value = Call> {
    (
        "[a-z_][a-z0-9_]{0,12}",
        prop::collection::vec((key(), value()), 0..5),
    )
        .prop_map(|(name, pairs)| Call::new(name, pairs.into_iter().collect()))
}

/// `s` as it appears inside compact JSON text (without the quotes).
fn compact_str(s: &str) -> String {
    let quoted = serde_json::to_string(s).unwrap();
    quoted[1..quoted.len() - 1].to_owned()
}

/// Whether `error` is one the renderer may give for `calls` in `dialect`: a value really
/// holds what the reason names.
fn legitimate(dialect: Dialect, calls: &[Call], error: &RenderError) -> bool {
    let text = serde_json::to_string(&calls[error.index].arguments).unwrap();
    // Read from the tables, so a new family is covered: a dialect with raw-text values
    // has value closers, and a token its value mode stops at may not be in a value.
    let raw_text = dialect.value_closers().next().is_some();
    let value_stop = |token: &str| {
        dialect
            .delimiters()
            .any(|d| d.mode == "value" && d.role == Role::Stop && d.bytes == token.as_bytes())
    };
    match error.reason {
        Reason::CloserInValue(closer) => raw_text && text.contains(&compact_str(closer)),
        Reason::TemplateToken(token) => value_stop(token) && text.contains(&compact_str(token)),
        Reason::QuoteTokenInString => {
            matches!(dialect, Dialect::Gemma | Dialect::FunctionGemma)
        }
        Reason::SectionOpenerInValue(_) => dialect == Dialect::Minicpm5,
        _ => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(64)
    ))]

    /// Every dialect: a turn's calls, rendered and scanned at random chunkings, are the
    /// same calls, and nothing else is in the output.
    #[test]
    fn calls_round_trip(
        calls in prop::collection::vec(call(), 1..4),
        cuts in prop::collection::vec(any::<usize>(), 0..12),
    ) {
        for &dialect in Dialect::ALL {
            let rendered = match Renderer::new(dialect).calls(&calls) {
                Ok(text) => text,
                Err(error) => {
                    prop_assert!(legitimate(dialect, &calls, &error), "{dialect}: {error}");
                    continue;
                }
            };
            let completion = scan(dialect, &rendered, &cuts);
            let expected: Vec<(String, Value)> = calls
                .iter()
                .map(|c| (c.name.clone(), Value::Object(c.arguments.clone())))
                .collect();
            prop_assert_eq!(calls_of(&completion), expected.clone(), "{}: {}", dialect, rendered);
            prop_assert_eq!(&completion.content, "", "{}: {}", dialect, rendered);
            prop_assert!(completion.incomplete_calls.is_empty(), "{}: {}", dialect, rendered);
            // One call alone, without the turn's envelope, reads back the same.
            let one = Renderer::new(dialect).call(&calls[0]).unwrap();
            let alone = scan(dialect, &one, &cuts);
            prop_assert_eq!(calls_of(&alone), expected[..1].to_vec(), "{}: {}", dialect, one);
            if dialect == Dialect::Kimi {
                let ids: Vec<&str> = completion.tool_calls.iter().map(|c| c.id.as_str()).collect();
                let want: Vec<String> = calls
                    .iter()
                    .enumerate()
                    .map(|(i, c)| format!("functions.{}:{i}", c.name))
                    .collect();
                prop_assert_eq!(ids, want);
            }
        }
    }

    /// Reasoning rendered in a dialect is read back as that reasoning.
    #[test]
    fn reasoning_round_trip(
        pieces in prop::collection::vec(prop::sample::select(REASONING_PIECES), 1..10),
        cuts in prop::collection::vec(any::<usize>(), 0..12),
    ) {
        let text = pieces.concat();
        for &dialect in Dialect::ALL {
            let rendered = match Renderer::new(dialect).reasoning(&text) {
                // A dialect with no reasoning form leaves reasoning out (functiongemma).
                Ok(rendered) if rendered.is_empty() => continue,
                Ok(rendered) => rendered,
                Err(error) => {
                    prop_assert!(matches!(error.reason, Reason::CloserInReasoning(_)));
                    continue;
                }
            };
            let completion = scan(dialect, &rendered, &cuts);
            prop_assert_eq!(
                completion.reasoning.as_deref(),
                Some(text.trim()),
                "{}: {}", dialect, rendered
            );
            prop_assert_eq!(&completion.content, "", "{}: {}", dialect, rendered);
        }
    }
}

/// Pieces reasoning text is made of (no tags: a reasoning block holding the dialect's own
/// reasoning opener or closer is tested on its own in `reasoning.rs`).
const REASONING_PIECES: &[&str] = &[
    "I should search.",
    " ",
    "\n",
    "é城堡🦀",
    "a < b && c > d",
    "\"quoted\"",
    "```rs\nfn main() {}\n```\n",
    "~~~\n",
];

/// The round trip's first find on a new family (dots): a value holding a line-initial
/// parameter opener is refused by every raw-text dialect's renderer, legitimately, and
/// rendered by the others.
#[test]
fn a_line_opener_in_a_value_is_refused_where_values_are_raw_text() {
    let calls = [Call::new(
        "_".to_owned(),
        [("a".to_owned(), json!("\n<parameter name=\"y\">"))]
            .into_iter()
            .collect(),
    )];
    for &dialect in Dialect::ALL {
        match Renderer::new(dialect).calls(&calls) {
            Err(error) => assert!(legitimate(dialect, &calls, &error), "{dialect}: {error}"),
            Ok(_) => assert!(
                dialect.value_closers().next().is_none()
                    || !dialect
                        .delimiters()
                        .any(|d| d.mode == "value" && d.bytes == b"\n<parameter"),
                "{dialect} rendered a value its scanner would end"
            ),
        }
    }
    assert!(Renderer::new(Dialect::Dots).calls(&calls).is_err());
}

/// Kimi K3's tags end in `<|sep|>`: a value holding the argument closer and then an
/// argument opener with no attributes is ended there by the scanner (the tag begins with
/// the `<` of its end), so the renderer refuses it; the opener followed by a word is a
/// tag name that runs on, and the value is rendered and reads back.
#[test]
fn kimi_k3_refuses_a_closer_before_a_bare_opener() {
    let call = |text: &str| {
        [Call::new(
            "note".to_owned(),
            [("text".to_owned(), json!(text))].into_iter().collect(),
        )]
    };
    let renderer = Renderer::new(Dialect::KimiK3);
    let ends = call("a<|close|>argument<|sep|><|open|>argument<|sep|>b");
    assert!(renderer.calls(&ends).is_err());
    let runs_on = call("a<|close|>argument<|sep|><|open|>arguments b");
    let text = renderer.calls(&runs_on).unwrap();
    let completion = scan(Dialect::KimiK3, &text, &[]);
    let want = json!({"text": "a<|close|>argument<|sep|><|open|>arguments b"});
    assert_eq!(calls_of(&completion), vec![("note".to_owned(), want)]);
}

/// MiniMax-M3's parameters are elements named after their keys: a value holding its own
/// closer and then any tag start (a parameter, or the `/` of the invoke's closer) is ended
/// there by the scanner, so the renderer refuses it; child-element markup and another
/// key's closer are value text, rendered and read back as written.
#[test]
fn minimax_m3_refuses_its_key_closer_before_a_tag() {
    let call = |text: &str| {
        [Call::new(
            "note".to_owned(),
            [("text".to_owned(), json!(text))].into_iter().collect(),
        )]
    };
    let renderer = Renderer::new(Dialect::MinimaxM3);
    for ends in [
        "a]<]minimax[>[</text>]<]minimax[>[<k>",
        "a]<]minimax[>[</text>\n]<]minimax[>[</invoke>",
    ] {
        assert!(renderer.calls(&call(ends)).is_err(), "{ends}");
    }
    let kept = "]<]minimax[>[<item>x]<]minimax[>[</item>]<]minimax[>[</other> y";
    let text = renderer.calls(&call(kept)).unwrap();
    let completion = scan(Dialect::MinimaxM3, &text, &[]);
    assert_eq!(
        calls_of(&completion),
        vec![("note".to_owned(), json!({"text": kept}))]
    );
}
