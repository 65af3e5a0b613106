//! The encoding side: render → scan is the identity for every dialect (property tests at
//! random chunkings), golden transcripts, the seed's transcript behaviours
//! (docs/seed.md §5.6, amended by docs/dialects.md) and history re-encoding (§4.4).
//! `PROPTEST_CASES` sets the number of cases; `INBAND_BLESS=1` rewrites the golden files.

use inband::{Dialect, Options};
use inband_alloc::assemble::{assemble, AssembleOptions, Completion};
use inband_alloc::render::{Assistant, Call, Message, Reason, RenderError, Renderer, ToolResult};
use inband_alloc::tools::ToolSet;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// Scans `text` in `dialect`, cut at `cuts` (byte offsets, taken modulo the length).
fn scan(dialect: Dialect, text: &str, cuts: &[usize]) -> Completion {
    let bytes = text.as_bytes();
    let mut points: Vec<usize> = cuts
        .iter()
        .map(|c| if bytes.is_empty() { 0 } else { c % bytes.len() })
        .collect();
    points.push(0);
    points.push(bytes.len());
    points.sort_unstable();
    points.dedup();
    let chunks: Vec<&[u8]> = points.windows(2).map(|w| &bytes[w[0]..w[1]]).collect();
    assemble(
        dialect,
        Options::default(),
        &AssembleOptions::seeded(1),
        chunks,
    )
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

/// The assembled calls as (name, arguments) with arguments as serde_json values.
fn calls_of(completion: &Completion) -> Vec<(String, Value)> {
    completion
        .tool_calls
        .iter()
        .map(|call| {
            let text = serde_json::to_string(&call.arguments).unwrap();
            (call.name.clone(), serde_json::from_str(&text).unwrap())
        })
        .collect()
}

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
    let raw_text = matches!(
        dialect,
        Dialect::Xml
            | Dialect::Anthropic
            | Dialect::Minimax
            | Dialect::Qwen3Coder
            | Dialect::SeedOss
            | Dialect::Glm
    );
    match error.reason {
        Reason::CloserInValue(closer) => raw_text && text.contains(&compact_str(closer)),
        Reason::TemplateToken(token) => {
            matches!(
                dialect,
                Dialect::Qwen3Coder | Dialect::SeedOss | Dialect::Glm | Dialect::Minimax
            ) && text.contains(&compact_str(token))
        }
        Reason::QuoteTokenInString => dialect == Dialect::Gemma,
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
/// reasoning opener or closer is tested on its own below).
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

/// A run of tool results written by the renderer is what a model must never write:
/// every dialect's scanner reports it as a fabricated result.
#[test]
fn rendered_results_are_fabricated_results_to_the_scanner() {
    let results = [ToolResult {
        tool_call_id: "call-1".into(),
        name: "search".into(),
        content: "result".into(),
        is_error: false,
    }];
    for &dialect in Dialect::ALL {
        let rendered = Renderer::new(dialect).results(&results).unwrap();
        let completion = scan(dialect, &format!("Done. {rendered}"), &[]);
        assert!(
            completion
                .diagnostics
                .iter()
                .any(|d| d.code == "fabricated_result"),
            "{dialect}: {rendered} → {:?}",
            completion.diagnostics
        );
    }
}

/// The docs/seed.md §5.6 conversation, with an error result and two parallel calls.
fn conversation() -> Vec<Message> {
    vec![
        Message::System {
            content: "You are a careful assistant.".into(),
        },
        Message::User {
            content: "Find pi".into(),
        },
        Message::Assistant(Assistant {
            content: "Searching.".into(),
            reasoning: "I should search.".into(),
            tool_calls: vec![Call {
                id: "call-1".into(),
                name: "search".into(),
                arguments: object(json!({"query": "pi"})),
            }],
        }),
        Message::Tool(ToolResult {
            tool_call_id: "call-1".into(),
            name: "search".into(),
            content: "result".into(),
            is_error: false,
        }),
        Message::Assistant(Assistant {
            content: String::new(),
            reasoning: String::new(),
            tool_calls: vec![
                Call {
                    id: "call-2".into(),
                    name: "read".into(),
                    arguments: object(json!({"path": "pi.txt", "lines": [1, 2]})),
                },
                Call {
                    id: "call-3".into(),
                    name: "read".into(),
                    arguments: object(json!({"path": "missing.txt"})),
                },
            ],
        }),
        Message::Tool(ToolResult {
            tool_call_id: "call-2".into(),
            name: "read".into(),
            content: "3.14159".into(),
            is_error: false,
        }),
        Message::Tool(ToolResult {
            tool_call_id: "call-3".into(),
            name: "read".into(),
            content: "no such file".into(),
            is_error: true,
        }),
        Message::Assistant(Assistant {
            content: "Done.".into(),
            ..Assistant::default()
        }),
    ]
}

/// Each dialect's transcript of [`conversation`], byte for byte.
#[test]
fn golden_transcripts() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/golden");
    let bless = std::env::var_os("INBAND_BLESS").is_some_and(|v| v == "1");
    for &dialect in Dialect::ALL {
        let text = Renderer::new(dialect).transcript(&conversation()).unwrap();
        let path = dir.join(format!("transcript-{dialect}.txt"));
        if bless {
            std::fs::write(&path, &text).unwrap();
        }
        let golden = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (INBAND_BLESS=1 writes it)", path.display()));
        assert_eq!(text, golden, "{dialect}: differs from {}", path.display());
    }
}

fn seed_conversation(thinking: &str) -> Vec<Message> {
    vec![
        Message::User {
            content: "Find pi".into(),
        },
        Message::Assistant(Assistant {
            content: "Searching.".into(),
            reasoning: thinking.into(),
            tool_calls: vec![Call {
                id: "call-1".into(),
                name: "search".into(),
                arguments: object(json!({"query": "pi"})),
            }],
        }),
        Message::Tool(ToolResult {
            tool_call_id: "call-1".into(),
            name: "search".into(),
            content: "result".into(),
            is_error: false,
        }),
        Message::Assistant(Assistant {
            content: "Done.".into(),
            ..Assistant::default()
        }),
    ]
}

fn transcript(dialect: Dialect, messages: &[Message]) -> String {
    Renderer::new(dialect).transcript(messages).unwrap()
}

/// docs/seed.md §5.6 items 1 to 5 (xml's legacy transcript is checked like anthropic's).
#[test]
fn seed_transcript_behaviours() {
    let messages = seed_conversation("I should search.");
    let harmony = transcript(Dialect::Harmony, &messages);
    for part in [
        "<|start|>user<|message|>Find pi<|end|>",
        "<|start|>assistant<|channel|>analysis<|message|>I should search.<|end|>",
        "<|start|>assistant<|channel|>final<|message|>Searching.<|end|>",
        "to=functions.search",
        "<|start|>functions.search to=assistant<|channel|>commentary<|message|>result<|end|>",
    ] {
        assert!(harmony.contains(part), "harmony lacks {part:?}:\n{harmony}");
    }
    let qwen3 = transcript(Dialect::Qwen3, &messages);
    assert!(qwen3.contains("<|im_start|>assistant\n<think>\nI should search.\n</think>"));
    assert!(
        qwen3.contains("<|im_start|>user\n<tool_response>\nresult\n</tool_response><|im_end|>\n")
    );
    assert!(!qwen3.contains("[User]:"));
    let glm = transcript(Dialect::Glm, &messages);
    assert!(glm.starts_with("[gMASK]<sop>"));
    assert!(glm.contains("<|assistant|>\n\n<think>\nI should search.\n</think>"));
    assert!(glm.contains("<|observation|>\n<tool_response>\nresult\n</tool_response>"));
    let xml = transcript(Dialect::Xml, &messages);
    assert!(xml.contains("\n\nHuman: Find pi"));
    assert!(xml.contains("\n\nAssistant: <thinking>\nI should search.\n</thinking>"));
    assert!(xml.contains("<invoke name=\"search\">"));
    assert!(xml.contains("\n\nHuman: <tool_response>\nresult\n</tool_response>"));
    assert!(!xml.contains("[Assistant tool calls]:"));
    let anthropic = transcript(Dialect::Anthropic, &messages);
    assert!(anthropic.contains("\n\nHuman: Find pi"));
    assert!(anthropic.contains("\n\nAssistant: <thinking>\nI should search.\n</thinking>"));
    assert!(anthropic.contains("<function_calls>"));
    assert!(anthropic.contains("<function_results>"));
    assert!(!anthropic.contains("[Assistant tool calls]:"));
    let all: Vec<String> = Dialect::ALL
        .iter()
        .map(|&d| transcript(d, &messages))
        .collect();
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert_ne!(a, b);
        }
    }
}

/// docs/seed.md §5.6 items 6 and 7: envelopes already in the reasoning are unwrapped where the
/// dialect's renderer unwraps (anthropic's and xml's `<thinking>`), kept as text inside
/// another tag.
#[test]
fn seed_thinking_envelopes() {
    let stored = seed_conversation("<thinking>\nCheck logs first.\n</thinking>");
    for dialect in [Dialect::Xml, Dialect::Anthropic] {
        let text = transcript(dialect, &stored);
        assert!(text.contains("Assistant: <thinking>\nCheck logs first.\n</thinking>"));
        assert!(!text.contains("<thinking>\n<thinking>"));
        let two =
            seed_conversation("<thinking>\nfirst\n</thinking>\n<thinking>\nsecond\n</thinking>");
        let text = transcript(dialect, &two);
        assert!(text.contains("Assistant: <thinking>\nfirst\nsecond\n</thinking>"));
        assert!(!text.contains("first\n</thinking>\n<thinking>\nsecond"));
    }
    let xml = transcript(Dialect::Xml, &stored);
    assert!(xml.contains("Assistant: <thinking>\nCheck logs first.\n</thinking>"));
    assert!(!xml.contains("<thinking>\n<thinking>"));
    let qwen3 = transcript(Dialect::Qwen3, &stored);
    assert!(qwen3.contains("<think>\n<thinking>\nCheck logs first.\n</thinking>\n</think>"));

    let two = seed_conversation("<thinking>\nfirst\n</thinking>\n<thinking>\nsecond\n</thinking>");
    let xml = transcript(Dialect::Xml, &two);
    assert!(xml.contains("Assistant: <thinking>\nfirst\nsecond\n</thinking>"));
    assert!(!xml.contains("first\n</thinking>\n<thinking>\nsecond"));
}

/// docs/seed.md §1.10's unwrapping examples, amended: text that keeps the closer after unwrapping
/// is refused (the scanner would end the block there), not written broken.
#[test]
fn reasoning_unwrapping() {
    let hermes = Renderer::new(Dialect::Hermes);
    assert_eq!(
        hermes
            .reasoning("<think>\n a \n</think>\n<think>b</think>")
            .unwrap(),
        "<think>\na\nb\n</think>"
    );
    assert_eq!(
        hermes.reasoning("<think><think>x</think></think>").unwrap(),
        "<think>\nx\n</think>"
    );
    assert_eq!(hermes.reasoning("").unwrap(), "");
    let error = hermes.reasoning("x <think>a</think>").unwrap_err();
    assert_eq!(error.reason, Reason::CloserInReasoning("</think>"));
    // Qwen3 does not unwrap: the envelope is text, and its closer ends the block.
    assert_eq!(
        Renderer::new(Dialect::Qwen3)
            .reasoning("<think>a</think>")
            .unwrap_err()
            .reason,
        Reason::CloserInReasoning("</think>")
    );
    assert_eq!(
        Renderer::new(Dialect::Gemini)
            .reasoning("a\n```\nb")
            .unwrap_err()
            .reason,
        Reason::CloserInReasoning("```")
    );
    assert_eq!(
        Renderer::new(Dialect::Gemini)
            .reasoning("a\n```rs\nb")
            .unwrap_err()
            .reason,
        Reason::CloserInReasoning("```")
    );
    assert_eq!(
        Renderer::new(Dialect::Gemini)
            .reasoning("a\n```rs\nb\n```\nc")
            .unwrap(),
        "```thinking\na\n```rs\nb\n```\nc\n```"
    );
    assert_eq!(
        Renderer::new(Dialect::Gemma)
            .reasoning("a<channel|>")
            .unwrap_err()
            .reason,
        Reason::CloserInReasoning("<channel|>")
    );
    assert_eq!(
        Renderer::new(Dialect::Harmony)
            .reasoning("a<|end|>")
            .unwrap_err()
            .reason,
        Reason::CloserInReasoning("<|end|>")
    );
}

/// Every dialect's single call, exactly.
#[test]
fn one_call_per_dialect() {
    let call = Call::new("read", object(json!({"path": "a & <b>.rs", "n": 2})));
    let expected = [
        (Dialect::Hermes, "<tool_call>\n{\"name\":\"read\",\"arguments\":{\"path\":\"a & <b>.rs\",\"n\":2}}\n</tool_call>"),
        (Dialect::Qwen3, "<tool_call>\n{\"name\":\"read\",\"arguments\":{\"path\":\"a & <b>.rs\",\"n\":2}}\n</tool_call>"),
        (Dialect::Kimi, "<|tool_call_begin|>functions.read:0<|tool_call_argument_begin|>{\"path\":\"a & <b>.rs\",\"n\":2}<|tool_call_end|>"),
        (Dialect::Deepseek, "<｜tool▁call▁begin｜>read<｜tool▁sep｜>{\"path\":\"a & <b>.rs\",\"n\":2}<｜tool▁call▁end｜>"),
        (Dialect::Harmony, "<|start|>assistant<|channel|>commentary to=functions.read <|constrain|>json<|message|>{\"path\":\"a & <b>.rs\",\"n\":2}<|call|>"),
        (Dialect::Xml, "<invoke name=\"read\">\n<parameter name=\"path\">a & <b>.rs</parameter>\n<parameter name=\"n\">2</parameter>\n</invoke>"),
        (Dialect::Gemma, "<|tool_call>call:read{path:<|\"|>a & <b>.rs<|\"|>,n:2}<tool_call|>"),
        (Dialect::Gemini, "```tool_code\ndefault_api.read(path=\"a & <b>.rs\", n=2)\n```"),
        (Dialect::Anthropic, "<invoke name=\"read\">\n<parameter name=\"path\">a & <b>.rs</parameter>\n<parameter name=\"n\">2</parameter>\n</invoke>"),
        (Dialect::Minimax, "<invoke name=\"read\">\n<parameter name=\"path\">a & <b>.rs</parameter>\n<parameter name=\"n\">2</parameter>\n</invoke>"),
        (Dialect::Glm, "<tool_call>read\n<arg_key>path</arg_key>\n<arg_value>a & <b>.rs</arg_value>\n<arg_key>n</arg_key>\n<arg_value>2</arg_value>\n</tool_call>"),
        (Dialect::Qwen3Coder, "<tool_call>\n<function=read>\n<parameter=path>\na & <b>.rs\n</parameter>\n<parameter=n>\n2\n</parameter>\n</function>\n</tool_call>"),        (Dialect::Longcat, "<longcat_tool_call>\n{\"name\":\"read\",\"arguments\":{\"path\":\"a & <b>.rs\",\"n\":2}}\n</longcat_tool_call>"),
        (Dialect::SeedOss, "<seed:tool_call>\n<function=read>\n<parameter=path>a & <b>.rs</parameter>\n<parameter=n>2</parameter>\n</function>\n</seed:tool_call>"),
    ];
    for (dialect, want) in expected {
        assert_eq!(
            Renderer::new(dialect).call(&call).unwrap(),
            want,
            "{dialect}"
        );
    }
}

/// Envelopes of a turn: Kimi's section and numbering (a caller's own
/// `functions.NAME:IDX` id kept), DeepSeek's section, Gemini's list.
#[test]
fn turn_envelopes() {
    let calls = [
        Call {
            id: "functions.read:7".into(),
            name: "read".into(),
            arguments: object(json!({"path": "a"})),
        },
        Call {
            id: "call_x".into(),
            name: "grep".into(),
            arguments: object(json!({"q": "b"})),
        },
    ];
    assert_eq!(
        Renderer::new(Dialect::Kimi).calls(&calls).unwrap(),
        "<|tool_calls_section_begin|>\
         <|tool_call_begin|>functions.read:7<|tool_call_argument_begin|>{\"path\":\"a\"}<|tool_call_end|>\
         <|tool_call_begin|>functions.grep:1<|tool_call_argument_begin|>{\"q\":\"b\"}<|tool_call_end|>\
         <|tool_calls_section_end|>"
    );
    assert_eq!(
        Renderer::new(Dialect::Gemini).calls(&calls).unwrap(),
        "```tool_code\n[default_api.read(path=\"a\"), default_api.grep(q=\"b\")]\n```"
    );
    let completion = scan(
        Dialect::Kimi,
        &Renderer::new(Dialect::Kimi).calls(&calls).unwrap(),
        &[],
    );
    let ids: Vec<&str> = completion
        .tool_calls
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(ids, ["functions.read:7", "functions.grep:1"]);
    assert_eq!(Renderer::new(Dialect::Xml).calls(&[]).unwrap(), "");
    assert_eq!(
        Renderer::new(Dialect::Anthropic).calls(&calls).unwrap(),
        "<function_calls>\n<invoke name=\"read\">\n<parameter name=\"path\">a</parameter>\n</invoke>\n\
         <invoke name=\"grep\">\n<parameter name=\"q\">b</parameter>\n</invoke>\n</function_calls>"
    );
    assert_eq!(
        Renderer::new(Dialect::Minimax).calls(&calls).unwrap(),
        "<minimax:tool_call>\n<invoke name=\"read\">\n<parameter name=\"path\">a</parameter>\n</invoke>\n\
         <invoke name=\"grep\">\n<parameter name=\"q\">b</parameter>\n</invoke>\n</minimax:tool_call>"
    );
    assert_eq!(
        Renderer::new(Dialect::Qwen3Coder).calls(&calls).unwrap(),
        "<tool_call>\n<function=read>\n<parameter=path>\na\n</parameter>\n</function>\n</tool_call>\n\
         <tool_call>\n<function=grep>\n<parameter=q>\nb\n</parameter>\n</function>\n</tool_call>"
    );
    assert_eq!(
        Renderer::new(Dialect::Glm).calls(&calls).unwrap(),
        "<tool_call>read\n<arg_key>path</arg_key>\n<arg_value>a</arg_value>\n</tool_call>\n\
         <tool_call>grep\n<arg_key>q</arg_key>\n<arg_value>b</arg_value>\n</tool_call>"
    );
    for dialect in [
        Dialect::Anthropic,
        Dialect::Minimax,
        Dialect::Qwen3Coder,
        Dialect::Glm,
    ] {
        assert_eq!(Renderer::new(dialect).calls(&[]).unwrap(), "", "{dialect}");
    }
}

/// Raw-text values: a string that reads as JSON is written as a JSON string unless the
/// schema says the parameter is a string; values are never entity-escaped.
#[test]
fn raw_text_typing() {
    let call = Call::new("f", object(json!({"s": "7", "t": "a & b", "n": 7})));
    let xml = Renderer::new(Dialect::Xml);
    assert_eq!(
        xml.call(&call).unwrap(),
        "<invoke name=\"f\">\n<parameter name=\"s\">\"7\"</parameter>\n<parameter name=\"t\">a & b</parameter>\n<parameter name=\"n\">7</parameter>\n</invoke>"
    );
    let tools = ToolSet::from_json(
        br#"[{"type": "function", "function": {"name": "f", "parameters":
            {"type": "object", "properties": {"s": {"type": "string"}}}}}]"#,
    )
    .unwrap();
    assert_eq!(
        xml.with_tools(&tools).call(&call).unwrap(),
        "<invoke name=\"f\">\n<parameter name=\"s\">7</parameter>\n<parameter name=\"t\">a & b</parameter>\n<parameter name=\"n\">7</parameter>\n</invoke>"
    );
}

/// With tools, a string value is written raw exactly where the assembler, given the same
/// tools, reads the value as raw text (its rule-8 typing: `$ref`, `anyOf`, `["string"]`,
/// `additionalProperties` resolved alike), in every raw-text dialect.
#[test]
fn raw_text_typing_agrees_with_the_assembler() {
    let tools = ToolSet::from_json(
        br##"[{"type": "function", "function": {"name": "f", "parameters": {
            "type": "object",
            "$defs": {"path": {"type": "string"}},
            "properties": {
                "r": {"$ref": "#/$defs/path"},
                "a": {"anyOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]},
                "l": {"type": ["string"]},
                "u": {"type": ["string", "integer"]},
                "n": {"type": "integer"}
            },
            "additionalProperties": {"type": "string"}
        }}}]"##,
    )
    .unwrap();
    let arguments = object(json!({
        "r": "7", "a": "[1]", "l": "true", "u": "8", "n": 9, "extra": "null"
    }));
    let call = Call::new("f", arguments.clone());
    for dialect in [
        Dialect::Xml,
        Dialect::Anthropic,
        Dialect::Minimax,
        Dialect::Qwen3Coder,
        Dialect::Glm,
    ] {
        let rendered = Renderer::new(dialect)
            .with_tools(&tools)
            .call(&call)
            .unwrap();
        for raw in ["7", "[1]", "true", "null"] {
            assert!(
                !rendered.contains(&format!("\"{raw}\"")),
                "{dialect}: {rendered}"
            );
        }
        assert!(rendered.contains("\"8\""), "{dialect}: {rendered}");
        let mut options = AssembleOptions::seeded(1);
        options.tools = Some(tools.clone());
        let completion = assemble(
            dialect,
            Options::default(),
            &options,
            rendered.as_bytes().chunks(5),
        );
        assert_eq!(
            calls_of(&completion),
            [("f".to_owned(), Value::Object(arguments.clone()))],
            "{dialect}: {rendered}"
        );
    }
}

/// With tools, a value is written as the first text the assembler, given the same tools,
/// reads back as that value; one no text of which reads back is refused, naming the
/// argument: `"5"` for an `integer` parameter (raw it reads as 5, quoted it is not an
/// integer), `"null"` for `integer|null`, `5` for a string-only one. A string that a union
/// with `string` would read as something else raw (`"True"` for `boolean|string`, `"null"`
/// for `string|null`) is written quoted, which the union reads back as the string.
#[test]
fn strings_the_schema_types_differently() {
    let tools = ToolSet::from_json(
        br#"[{"type": "function", "function": {"name": "f", "parameters": {
            "type": "object",
            "properties": {
                "i": {"type": "integer"},
                "z": {"type": ["integer", "null"]},
                "s": {"type": "string"},
                "b": {"type": ["boolean", "string"]},
                "n": {"anyOf": [{"type": "string"}, {"type": "null"}]}
            }
        }}}]"#,
    )
    .unwrap();
    let read = |dialect: Dialect, text: &str| {
        let mut options = AssembleOptions::seeded(1);
        options.tools = Some(tools.clone());
        let completion = assemble(
            dialect,
            Options::default(),
            &options,
            text.as_bytes().chunks(3),
        );
        calls_of(&completion)
    };
    for dialect in [
        Dialect::Xml,
        Dialect::Anthropic,
        Dialect::Minimax,
        Dialect::Qwen3Coder,
        Dialect::Glm,
    ] {
        let with_tools = Renderer::new(dialect).with_tools(&tools);
        for (key, value, other) in [
            ("i", json!("5"), json!(5)),
            ("i", json!("-2"), json!(-2)),
            ("z", json!("null"), Value::Null),
            ("s", json!(5), json!("5")),
            ("s", json!(true), json!("true")),
        ] {
            let arguments = object(json!({ "a": 1, key: value.clone() }));
            let call = Call::new("f", arguments.clone());
            let error = with_tools.call(&call).unwrap_err();
            assert_eq!(error.reason, Reason::TypedDifferently, "{dialect}: {key}");
            assert_eq!(error.argument.as_deref(), Some(format!("/{key}").as_str()));
            assert_eq!(
                error.to_string(),
                format!("item 0 (\"f\"), argument \"/{key}\": the tool's schema types this parameter so that no raw text of the value reads back as it (rule 8)")
            );
            // Written anyway, as its raw text or its JSON (what the untyped renderer
            // writes for it and for `other`), the assembler reads another value.
            for written in [&value, &other] {
                let unchecked = Renderer::new(dialect)
                    .call(&Call::new("f", object(json!({ "a": 1, key: written }))))
                    .unwrap();
                let back = read(dialect, &unchecked);
                assert_eq!(back.len(), 1, "{dialect}: {unchecked}");
                assert_ne!(
                    back[0].1,
                    Value::Object(arguments.clone()),
                    "{dialect}: {unchecked}"
                );
            }
        }
        let arguments = object(json!({
            "b": "True", "n": "null", "i": 7, "z": null, "s": "5", "a": "true"
        }));
        let rendered = with_tools.call(&Call::new("f", arguments.clone())).unwrap();
        for quoted in ["\"True\"", "\"null\"", "\"true\""] {
            assert!(rendered.contains(quoted), "{dialect}: {rendered}");
        }
        assert!(!rendered.contains("\"5\""), "{dialect}: {rendered}");
        assert_eq!(
            read(dialect, &rendered),
            [("f".to_owned(), Value::Object(arguments))],
            "{dialect}: {rendered}"
        );
    }
}

/// Values that cannot be written are refused, naming the call and the argument; a closer
/// that structure does not follow is written as it is (docs/dialects.md rule 4).
#[test]
fn unwritable_values() {
    let calls = [
        Call::new("ok", object(json!({"a": "x"}))),
        Call::new(
            "write",
            object(json!({"path": "a", "text": "x</parameter>\n<parameter name=\"y\">z"})),
        ),
    ];
    let error = Renderer::new(Dialect::Xml).calls(&calls).unwrap_err();
    assert_eq!(error.index, 1);
    assert_eq!(error.name.as_deref(), Some("write"));
    assert_eq!(error.argument.as_deref(), Some("/text"));
    assert_eq!(error.reason, Reason::CloserInValue("</parameter>"));
    assert_eq!(
        error.to_string(),
        "item 1 (\"write\"), argument \"/text\": the value holds \"</parameter>\" followed by structure; the scanner would end the value there"
    );
    for text in [
        "x</parameter></invoke>",
        "x</parameter> \n <invoke name=\"z\">",
        "x</invoke><invoke>",
    ] {
        let call = Call::new("w", object(json!({ "text": text })));
        assert!(Renderer::new(Dialect::Xml).call(&call).is_err(), "{text}");
    }
    // Followed by prose, by more than 32 bytes of whitespace, or by the value's end: text.
    for text in [
        "x</parameter> and more",
        &format!("x</parameter>{}<parameter name=\"y\">", " ".repeat(33)),
        "x</parameter>",
        "x</invoke>",
        "x</parameter><parameters>",
    ] {
        let call = Call::new("w", object(json!({ "text": text })));
        let rendered = Renderer::new(Dialect::Xml).call(&call).unwrap();
        let completion = scan(Dialect::Xml, &rendered, &[]);
        assert_eq!(
            calls_of(&completion),
            [("w".to_owned(), json!({ "text": text }))]
        );
    }

    let gemma = Call::new("f", object(json!({"a": {"b": ["x<|\"|>y"]}})));
    let error = Renderer::new(Dialect::Gemma).call(&gemma).unwrap_err();
    assert_eq!(error.argument.as_deref(), Some("/a/b/0"));
    assert_eq!(error.reason, Reason::QuoteTokenInString);

    let bad_key = Call::new("f", object(json!({"a b": 1})));
    assert!(matches!(
        Renderer::new(Dialect::Gemini)
            .call(&bad_key)
            .unwrap_err()
            .reason,
        Reason::InvalidKey(_)
    ));
    assert!(matches!(
        Renderer::new(Dialect::Gemma)
            .call(&bad_key)
            .unwrap_err()
            .reason,
        Reason::InvalidKey(_)
    ));
    for name in ["", "a b", "<x>", "a\"b"] {
        let call = Call::new(name, Map::new());
        for &dialect in Dialect::ALL {
            assert!(matches!(
                Renderer::new(dialect).call(&call).unwrap_err().reason,
                Reason::InvalidName(_)
            ));
        }
    }
    // Python strings always can be written.
    let python = Call::new("f", object(json!({"s": "\"\\\n\r\t\u{1}```'"})));
    let rendered = Renderer::new(Dialect::Gemini).call(&python).unwrap();
    assert_eq!(
        rendered,
        "```tool_code\ndefault_api.f(s=\"\\\"\\\\\\n\\r\\t\\x01```'\")\n```"
    );
    assert_eq!(
        calls_of(&scan(Dialect::Gemini, &rendered, &[])),
        [("f".to_owned(), json!({"s": "\"\\\n\r\t\u{1}```'"}))]
    );
}

/// Results: ids, names and the error form where the dialect has one.
#[test]
fn results_per_dialect() {
    let results = [
        ToolResult {
            tool_call_id: "functions.read:0".into(),
            name: "read".into(),
            content: "{\"a\":[1,\"x\"]}".into(),
            is_error: false,
        },
        ToolResult {
            tool_call_id: "call_9".into(),
            name: "read".into(),
            content: "no such file".into(),
            is_error: true,
        },
    ];
    let expected = [
        (Dialect::Hermes, "<tool_response>\n{\"a\":[1,\"x\"]}\n</tool_response>\n<tool_response>\nno such file\n</tool_response>"),
        (Dialect::Kimi, "<|im_system|>read<|im_middle|>## Return of functions.read:0\n{\"a\":[1,\"x\"]}<|im_end|><|im_system|>read<|im_middle|>## Return of functions.read:1\nno such file<|im_end|>"),
        (Dialect::Deepseek, "<｜tool▁output▁begin｜>{\"a\":[1,\"x\"]}<｜tool▁output▁end｜>\n<｜tool▁output▁begin｜>no such file<｜tool▁output▁end｜>"),
        (Dialect::Harmony, "<|start|>functions.read to=assistant<|channel|>commentary<|message|>{\"a\":[1,\"x\"]}<|end|><|start|>functions.read to=assistant<|channel|>commentary<|message|>no such file<|end|>"),
        (Dialect::Gemma, "<|tool_response>response:read{output:{a:[1,<|\"|>x<|\"|>]}}<tool_response|><|tool_response>response:read{error:<|\"|>no such file<|\"|>}<tool_response|>"),
        (Dialect::Gemini, "```tool_outputs\n{\"a\":[1,\"x\"]}\n```\n```tool_outputs\nno such file\n```"),
        (Dialect::Anthropic, "<function_results>\n<result>\n<tool_name>read</tool_name>\n<stdout>{\"a\":[1,\"x\"]}</stdout>\n</result>\n<error>\n<tool_name>read</tool_name>\n<stderr>no such file</stderr>\n</error>\n</function_results>"),
        (Dialect::Minimax, "<function_results>\n<result>\n<tool_name>read</tool_name>\n<stdout>{\"a\":[1,\"x\"]}</stdout>\n</result>\n<error>\n<tool_name>read</tool_name>\n<stderr>no such file</stderr>\n</error>\n</function_results>"),
        (Dialect::Qwen3Coder, "<tool_response>\n{\"a\":[1,\"x\"]}\n</tool_response>\n<tool_response>\nno such file\n</tool_response>"),        (Dialect::Longcat, "<longcat_tool_response>\n{\"a\":[1,\"x\"]}\n</longcat_tool_response>\n<longcat_tool_response>\nno such file\n</longcat_tool_response>"),
        (Dialect::SeedOss, "<seed:bos>tool\n{\"a\":[1,\"x\"]}<seed:eos><seed:bos>tool\nno such file<seed:eos>"),
    ];
    for (dialect, want) in expected {
        assert_eq!(
            Renderer::new(dialect).results(&results).unwrap(),
            want,
            "{dialect}"
        );
    }
}

/// Kimi transcripts number calls across the conversation and head each result with the
/// id its call was given.
#[test]
fn kimi_transcript_ids() {
    let text = transcript(Dialect::Kimi, &conversation());
    assert!(text.contains("<|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>"));
    assert!(text.contains("<|tool_call_begin|>functions.read:1<|tool_call_argument_begin|>"));
    assert!(text.contains("<|tool_call_begin|>functions.read:2<|tool_call_argument_begin|>"));
    assert!(text.contains("## Return of functions.search:0\nresult"));
    assert!(text.contains("## Return of functions.read:1\n3.14159"));
    assert!(text.contains("## Return of functions.read:2\nno such file"));
}

/// The assistant turns of a transcript scan back to their calls and reasoning.
#[test]
fn transcript_assistant_turns_scan_back() {
    for &dialect in Dialect::ALL {
        let messages = seed_conversation("I should search.");
        let Message::Assistant(turn) = &messages[1] else {
            unreachable!()
        };
        let r = Renderer::new(dialect);
        let text = format!(
            "{}{}{}",
            r.reasoning(&turn.reasoning).unwrap(),
            turn.content,
            r.calls(&turn.tool_calls).unwrap()
        );
        let completion = scan(dialect, &text, &[3, 17, 40]);
        assert_eq!(
            completion.reasoning.as_deref(),
            Some("I should search."),
            "{dialect}"
        );
        assert_eq!(completion.content, "Searching.", "{dialect}");
        assert_eq!(
            calls_of(&completion),
            [("search".to_owned(), json!({"query": "pi"}))],
            "{dialect}"
        );
    }
}

/// History re-encoding (docs/seed.md §4.4).
#[test]
fn history_reencoding() {
    let messages = vec![
        Message::User {
            content: "Find pi".into(),
        },
        Message::Assistant(Assistant {
            content: "Searching.  \n".into(),
            reasoning: "I should search.".into(),
            tool_calls: vec![Call::new("search", object(json!({"query": "pi"})))],
        }),
        Message::Tool(ToolResult {
            tool_call_id: "c1".into(),
            name: "search".into(),
            content: "one".into(),
            is_error: false,
        }),
        Message::Tool(ToolResult {
            tool_call_id: "c2".into(),
            name: "search".into(),
            content: "two".into(),
            is_error: false,
        }),
        Message::Assistant(Assistant {
            content: "Done.".into(),
            reasoning: "kept".into(),
            tool_calls: Vec::new(),
        }),
    ];
    let out = Renderer::new(Dialect::Hermes).history(&messages).unwrap();
    assert_eq!(
        out,
        vec![
            messages[0].clone(),
            Message::Assistant(Assistant {
                content: "Searching.\n<tool_call>\n{\"name\":\"search\",\"arguments\":{\"query\":\"pi\"}}\n</tool_call>".into(),
                reasoning: String::new(),
                tool_calls: Vec::new(),
            }),
            Message::User {
                content: "<tool_response>\none\n</tool_response>\n<tool_response>\ntwo\n</tool_response>".into(),
            },
            messages[4].clone(),
        ]
    );
}

/// The message model reads OpenAI's JSON shape as well as the flat one.
#[test]
fn messages_from_openai_json() {
    let messages: Vec<Message> = serde_json::from_value(json!([
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": [{"type": "text", "text": "Find "}, {"type": "text", "text": "pi"}]},
        {"role": "assistant", "content": null, "reasoning_content": "hm",
         "tool_calls": [{"id": "c1", "type": "function",
                         "function": {"name": "search", "arguments": "{\"query\":\"pi\",\"a\":1}"}}]},
        {"role": "tool", "tool_call_id": "c1", "name": "search", "content": "r", "is_error": true},
        {"role": "assistant", "content": "ok", "tool_calls": [{"name": "f", "arguments": {"z": 1, "a": 2}}]}
    ]))
    .unwrap();
    assert_eq!(
        messages,
        vec![
            Message::System {
                content: "Be brief.".into()
            },
            Message::User {
                content: "Find pi".into()
            },
            Message::Assistant(Assistant {
                content: String::new(),
                reasoning: "hm".into(),
                tool_calls: vec![Call {
                    id: "c1".into(),
                    name: "search".into(),
                    arguments: object(json!({"query": "pi", "a": 1})),
                }],
            }),
            Message::Tool(ToolResult {
                tool_call_id: "c1".into(),
                name: "search".into(),
                content: "r".into(),
                is_error: true,
            }),
            Message::Assistant(Assistant {
                content: "ok".into(),
                reasoning: String::new(),
                tool_calls: vec![Call::new("f", object(json!({"z": 1, "a": 2})))],
            }),
        ]
    );
    // Key order is the caller's.
    let Message::Assistant(turn) = &messages[4] else {
        unreachable!()
    };
    assert_eq!(
        Renderer::new(Dialect::Hermes)
            .calls(&turn.tool_calls)
            .unwrap(),
        "<tool_call>\n{\"name\":\"f\",\"arguments\":{\"z\":1,\"a\":2}}\n</tool_call>"
    );
    let bad: Result<Vec<Message>, _> = serde_json::from_value(json!([
        {"role": "assistant", "tool_calls": [{"name": "f", "arguments": "[1]"}]}
    ]));
    assert!(bad.is_err());
}

/// Rule 4 in the anthropic and minimax tagsets: `</parameter>`, `</invoke>`, the closer
/// named after the parameter and a line-initial `<parameter` tag end a value; the
/// scanner's own reading decides, so what is written is read back and what is refused
/// really would break.
#[test]
fn invoke_tagsets_refuse_what_their_scanners_end_values_at() {
    for dialect in [Dialect::Anthropic, Dialect::Minimax] {
        let refused: &[(&str, Reason)] = &[
            (
                "x</parameter>\n<parameter name=\"y\">",
                Reason::CloserInValue("</parameter>"),
            ),
            (
                "x</parameter></invoke>",
                Reason::CloserInValue("</parameter>"),
            ),
            (
                "x</invoke>\n<invoke name=\"z\">",
                Reason::CloserInValue("</invoke>"),
            ),
            ("x</text> <parameter name=\"y\">", Reason::KeyCloserInValue),
            ("x</text></invoke>", Reason::KeyCloserInValue),
            (
                "x\n<parameter name=\"y\">z",
                Reason::CloserInValue("\n<parameter"),
            ),
            ("x\n<parameter>", Reason::CloserInValue("\n<parameter")),
        ];
        for (text, reason) in refused {
            let call = Call::new("w", object(json!({ "text": text })));
            let error = Renderer::new(dialect).call(&call).unwrap_err();
            assert_eq!(&error.reason, reason, "{dialect}: {text:?}");
            assert_eq!(error.argument.as_deref(), Some("/text"));
            // Inside the turn's wrapper as well.
            assert!(
                Renderer::new(dialect).calls(&[call]).is_err(),
                "{dialect}: {text:?}"
            );
        }
        let wrapper_close = if dialect == Dialect::Anthropic {
            "x</parameter>\n</function_calls>"
        } else {
            "x</parameter>\n</minimax:tool_call>"
        };
        let call = Call::new("w", object(json!({ "text": wrapper_close })));
        assert!(Renderer::new(dialect).call(&call).is_err(), "{dialect}");
        let kept = [
            "x</parameter> and more",
            "x</text> and more",
            "x</other> <parameter name=\"y\">",
            "x</parameter>",
            "x</text>",
            "x<parameter name=\"y\">",
            "x\n<parameters>",
            "x\n<parameter",
            "x</parameter><parameters>",
            &format!("x</text>{}<parameter name=\"y\">", " ".repeat(33)),
        ];
        for text in kept {
            let call = Call::new("w", object(json!({ "text": text })));
            for rendered in [
                Renderer::new(dialect).call(&call).unwrap(),
                Renderer::new(dialect)
                    .calls(std::slice::from_ref(&call))
                    .unwrap(),
            ] {
                let completion = scan(dialect, &rendered, &[5, 11]);
                assert_eq!(
                    calls_of(&completion),
                    [("w".to_owned(), json!({ "text": text }))],
                    "{dialect}: {rendered}"
                );
            }
        }
    }
    let minimax_stop = Call::new("w", object(json!({"text": "x</parameter>[e~["})));
    assert_eq!(
        Renderer::new(Dialect::Minimax)
            .call(&minimax_stop)
            .unwrap_err()
            .reason,
        Reason::TemplateToken("[e~[")
    );
    let rendered = Renderer::new(Dialect::Anthropic)
        .call(&minimax_stop)
        .unwrap();
    assert_eq!(
        calls_of(&scan(Dialect::Anthropic, &rendered, &[])),
        [("w".to_owned(), json!({"text": "x</parameter>[e~["}))]
    );
}

/// Rule 4 in Qwen3-Coder: `</parameter>` before structure, a line-initial `</function>`
/// or `<parameter=NAME`, and the turn's end token end a value; the framing newline on
/// each side of a value is not part of it.
#[test]
fn qwen3_coder_refuses_what_its_scanner_ends_values_at() {
    let qwen = Renderer::new(Dialect::Qwen3Coder);
    let refused: &[(&str, Reason)] = &[
        (
            "x</parameter>\n<parameter=y>",
            Reason::CloserInValue("</parameter>"),
        ),
        (
            "x</parameter>\n</function>",
            Reason::CloserInValue("</parameter>"),
        ),
        (
            "x</parameter></tool_call>",
            Reason::CloserInValue("</parameter>"),
        ),
        (
            "x\n</function>\n</tool_call>",
            Reason::CloserInValue("\n</function>"),
        ),
        (
            "x\n</function><function=g>",
            Reason::CloserInValue("\n</function>"),
        ),
        ("x\n<parameter=y>z", Reason::CloserInValue("\n<parameter=")),
        ("x<|im_end|>y", Reason::TemplateToken("<|im_end|>")),
        ("x<|endoftext|>", Reason::TemplateToken("<|endoftext|>")),
    ];
    for (text, reason) in refused {
        let call = Call::new("w", object(json!({ "text": text })));
        assert_eq!(&qwen.call(&call).unwrap_err().reason, reason, "{text:?}");
    }
    let kept = [
        "x</parameter> and more",
        "x</parameter>",
        "x</function>\n</tool_call>",
        "x\n</function> more",
        "x\n</function>",
        "<parameter=y>z",
        "x\n<parameter= y>",
        "<tool_call>\n</tool_call>",
        "",
        "\n",
        "\n\nx\n\n",
        "x</text> <parameter=y>",
    ];
    for text in kept {
        let call = Call::new("w", object(json!({ "text": text })));
        let rendered = qwen.call(&call).unwrap();
        assert_eq!(
            calls_of(&scan(Dialect::Qwen3Coder, &rendered, &[7, 13, 20])),
            [("w".to_owned(), json!({ "text": text }))],
            "{rendered}"
        );
    }
    for name in ["a=b", "/a"] {
        let call = Call::new(name, Map::new());
        assert!(matches!(
            qwen.call(&call).unwrap_err().reason,
            Reason::InvalidName(_)
        ));
        let call = Call::new("f", object(json!({ name: 1 })));
        assert!(matches!(
            qwen.call(&call).unwrap_err().reason,
            Reason::InvalidKey(_)
        ));
    }
}

/// Seed-OSS (docs/dialects.md §seed-oss): the same closers as qwen3-coder's with its own
/// block closer and stop token, and no framing: a value's leading and trailing newlines are
/// its own, written and read back as they are.
#[test]
fn seed_oss_refuses_what_its_scanner_ends_values_at() {
    let seed = Renderer::new(Dialect::SeedOss);
    let refused: &[(&str, Reason)] = &[
        (
            "x</parameter>\n<parameter=y>",
            Reason::CloserInValue("</parameter>"),
        ),
        (
            "x</parameter>\n</function>",
            Reason::CloserInValue("</parameter>"),
        ),
        (
            "x</parameter></seed:tool_call>",
            Reason::CloserInValue("</parameter>"),
        ),
        (
            "x\n</function>\n</seed:tool_call>",
            Reason::CloserInValue("\n</function>"),
        ),
        ("x\n<parameter=y>z", Reason::CloserInValue("\n<parameter=")),
        ("x<seed:eos>y", Reason::TemplateToken("<seed:eos>")),
    ];
    for (text, reason) in refused {
        let call = Call::new("w", object(json!({ "text": text })));
        assert_eq!(&seed.call(&call).unwrap_err().reason, reason, "{text:?}");
    }
    let kept = [
        "x</parameter> and more",
        "x</function>\n</seed:tool_call>",
        "x\n</function> more",
        "<parameter=y>z",
        "<seed:tool_call>\n</seed:tool_call>",
        "<tool_call>\n</tool_call>",
        "",
        "\n",
        "\nx\n",
        "\n\nx\n\n",
    ];
    for text in kept {
        let call = Call::new("w", object(json!({ "text": text })));
        let rendered = seed.call(&call).unwrap();
        assert_eq!(
            calls_of(&scan(Dialect::SeedOss, &rendered, &[7, 13, 20])),
            [("w".to_owned(), json!({ "text": text }))],
            "{rendered}"
        );
    }
}

/// Pieces of GLM values: its tags whole and cut, its stop tokens, whitespace runs on both
/// sides of the 32-byte look-ahead and keys on both sides of the key buffer.
const GLM_PIECES: &[&str] = &[
    "x",
    "k",
    " ",
    "\n",
    "\t",
    "<",
    "</arg_",
    "<arg_key>",
    "</arg_key>",
    "<arg_value>",
    "</arg_value>",
    "<tool_call>",
    "</tool_call>",
    "</think>",
    "<|user|>",
    "<|observation|>",
    "<tool_response>",
    "                                 ",
    "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk",
];

/// A string-only parameter `text` of the tool `w`, so that GLM values are written raw.
fn glm_tools() -> ToolSet {
    ToolSet::from_json(
        br#"[{"type": "function", "function": {"name": "w", "parameters":
            {"type": "object", "properties": {"text": {"type": "string"}}}}}]"#,
    )
    .unwrap()
}

fn glm_scan(text: &str, tools: &ToolSet, cuts: &[usize]) -> Completion {
    let mut options = AssembleOptions::seeded(1);
    options.tools = Some(tools.clone());
    let bytes = text.as_bytes();
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    points.extend([0, bytes.len()]);
    points.sort_unstable();
    points.dedup();
    let chunks: Vec<&[u8]> = points.windows(2).map(|w| &bytes[w[0]..w[1]]).collect();
    assemble(Dialect::Glm, Options::default(), &options, chunks)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(256)
    ))]

    /// GLM's refusal is exact: a value is refused if and only if the call written anyway
    /// (the same bytes, unchecked) does not read back as that call, at any chunking.
    #[test]
    fn glm_refuses_exactly_what_its_scanner_reads_differently(
        pieces in prop::collection::vec(prop::sample::select(GLM_PIECES), 0..7),
        cuts in prop::collection::vec(any::<usize>(), 0..8),
        second in any::<bool>(),
    ) {
        let text = pieces.concat();
        let tools = glm_tools();
        let mut arguments = object(json!({ "text": text }));
        if second {
            arguments.insert("n".into(), json!(1));
        }
        let call = Call::new("w", arguments.clone());
        let mut unchecked = format!(
            "<tool_call>w\n<arg_key>text</arg_key>\n<arg_value>{text}</arg_value>\n"
        );
        if second {
            unchecked.push_str("<arg_key>n</arg_key>\n<arg_value>1</arg_value>\n");
        }
        unchecked.push_str("</tool_call>");
        let completion = glm_scan(&unchecked, &tools, &cuts);
        let reads_back = calls_of(&completion) == [("w".to_owned(), Value::Object(arguments))]
            && completion.content.is_empty();
        match Renderer::new(Dialect::Glm).with_tools(&tools).call(&call) {
            Ok(rendered) => {
                prop_assert_eq!(&rendered, &unchecked);
                prop_assert!(reads_back, "{:?} → {:?}", text, completion);
            }
            Err(error) => {
                prop_assert_eq!(error.argument.as_deref(), Some("/text"));
                prop_assert!(!reads_back, "{:?} refused ({}) but reads back", text, error);
            }
        }
    }
}

/// GLM (docs/seed.md §2.1, glm.rs): the closers before structure (before a key opener only
/// when a whole key tag follows it, which may span lines), the stray `</arg_key>`
/// even before `</arg_value>`, a whole key tag after `<arg_key>` (the missing-closer heal)
/// and the turn's end tokens end a value; tag-like prose does not.
#[test]
fn glm_refuses_what_its_scanner_ends_values_at() {
    let glm = Renderer::new(Dialect::Glm);
    let refused: &[(&str, Reason)] = &[
        (
            "x</arg_value>\n<arg_key>y</arg_key>\n<arg_value>",
            Reason::CloserInValue("</arg_value>"),
        ),
        (
            "x</arg_value>\n<arg_key>y\nz</arg_key><arg_value>",
            Reason::CloserInValue("</arg_value>"),
        ),
        (
            "x</arg_value> </tool_call>",
            Reason::CloserInValue("</arg_value>"),
        ),
        (
            "x</tool_call>\n<tool_call>f",
            Reason::CloserInValue("</tool_call>"),
        ),
        ("x</arg_key>", Reason::CloserInValue("</arg_key>")),
        (
            "x</arg_key>\n<arg_key>k</arg_key> <arg_value>",
            Reason::CloserInValue("</arg_key>"),
        ),
        (
            "x\n<arg_key>y</arg_key>\n<arg_value>",
            Reason::CloserInValue("<arg_key>"),
        ),
        (
            "x<arg_key> <arg_key>y</arg_key> <arg_value>z",
            Reason::CloserInValue("<arg_key>"),
        ),
        (
            "x<arg_key>y</arg_key></arg_key> <arg_value>z",
            Reason::CloserInValue("<arg_key>"),
        ),
        (
            "x<arg_key></arg_key><arg_value>",
            Reason::CloserInValue("<arg_key>"),
        ),
        ("x<|user|>y", Reason::TemplateToken("<|user|>")),
        ("<|observation|>", Reason::TemplateToken("<|observation|>")),
        ("x<|endoftext|>", Reason::TemplateToken("<|endoftext|>")),
    ];
    for (text, reason) in refused {
        let call = Call::new("w", object(json!({ "text": text })));
        let error = glm.call(&call).unwrap_err();
        assert_eq!(&error.reason, reason, "{text:?}");
        assert_eq!(error.argument.as_deref(), Some("/text"));
    }
    let kept = [
        // A key opener after a closer continues the structure only with a whole key tag.
        "x</arg_value>\n<arg_key>y</arg_key>",
        "x</arg_key>\n<arg_key>",
        "fmt:\n</arg_value>\n<arg_key>\nend",
        "x</arg_value> and more",
        "x</arg_value>",
        "x</tool_call>",
        "x</tool_call>\n<arg_key>y</arg_key>",
        "x</arg_key> and more",
        "uses <arg_key> and </arg_key> tokens in prose",
        "x<arg_key>y</arg_key></arg_value>",
        "x\n<arg_key>a\nb</arg_key>\n<arg_value>",
        "x<arg_key>y</arg_key>z<arg_value>",
        "x<arg_key>y<arg_value>",
        "x<arg_key> <arg_key>y</arg_key></arg_key> <arg_value>z",
        "x<arg_key>y</arg_key></arg_key></arg_key><arg_value>z",
        &format!("x</arg_key>{}</arg_value>", " ".repeat(33)),
        &format!("x<arg_key>{}</arg_key><arg_value>", "k".repeat(161)),
        " \n x \n ",
        "<tool_call>f\n</tool_call>",
        "</think>",
    ];
    let tools = glm_tools();
    for text in kept {
        let call = Call::new("w", object(json!({ "text": text })));
        let rendered = glm.with_tools(&tools).call(&call).unwrap();
        assert_eq!(
            calls_of(&glm_scan(&rendered, &tools, &[7, 13, 20])),
            [("w".to_owned(), json!({ "text": text }))],
            "{rendered}"
        );
    }
    for key in ["a<b", " a", &"k".repeat(129)] {
        let call = Call::new("f", object(json!({ key: 1 })));
        assert!(matches!(
            glm.call(&call).unwrap_err().reason,
            Reason::InvalidKey(_)
        ));
    }
}

/// The refusal of `call` in `dialect`: (index, name, argument, reason).
fn refusal(dialect: Dialect, call: Call) -> (usize, Option<String>, Option<String>, Reason) {
    let error = Renderer::new(dialect).calls(&[call]).unwrap_err();
    (error.index, error.name, error.argument, error.reason)
}

/// Renders `call` in `dialect` and checks that it scans back as itself, whole and at every
/// byte, with nothing else.
fn round_trips(dialect: Dialect, call: Call) -> String {
    let rendered = Renderer::new(dialect)
        .calls(std::slice::from_ref(&call))
        .unwrap();
    let every_byte: Vec<usize> = (0..rendered.len()).collect();
    for cuts in [&[][..], &every_byte[..]] {
        let completion = scan(dialect, &rendered, cuts);
        assert_eq!(
            calls_of(&completion),
            vec![(call.name.clone(), Value::Object(call.arguments.clone()))],
            "{dialect}: {rendered}"
        );
        assert_eq!(completion.content, "", "{dialect}: {rendered}");
        assert_eq!(completion.diagnostics, vec![], "{dialect}: {rendered}");
    }
    rendered
}

/// Gemma's scanner ends a name at `{ } [ ] ( ) , =` (core/dialect/gemma/call.rs `name_byte`) but
/// reads `:` in it.
#[test]
fn gemma_names_are_refused_exactly_where_the_scanner_ends_them() {
    for name in ["f[", "f]", "]", "f=", "[e~[", "f{", "f(", "f,"] {
        assert_eq!(
            refusal(Dialect::Gemma, Call::new(name, object(json!({"a": 1})))),
            (
                0,
                Some(name.to_owned()),
                None,
                Reason::InvalidName("without { } [ ] ( ) , = in Gemma")
            ),
            "{name}"
        );
    }
    assert_eq!(
        round_trips(
            Dialect::Gemma,
            Call::new("ns:read", object(json!({"a": 1})))
        ),
        "<|tool_call>call:ns:read{a:1}<tool_call|>"
    );
}

/// The literal scanners read 64 levels of lists and objects in a value; a 65th is refused,
/// naming the first container beyond the limit.
#[test]
fn literal_values_nest_as_deep_as_their_scanners_read() {
    let nested = |levels: usize, list: bool| {
        let mut value = json!(1);
        for _ in 0..levels {
            value = if list {
                json!([value])
            } else {
                json!({ "a": value })
            };
        }
        Call::new("f", object(json!({ "k": value })))
    };
    for dialect in [Dialect::Gemma, Dialect::Gemini] {
        for list in [true, false] {
            round_trips(dialect, nested(64, list));
            let step = if list { "/0" } else { "/a" };
            assert_eq!(
                refusal(dialect, nested(65, list)),
                (
                    0,
                    Some("f".to_owned()),
                    Some(format!("/k{}", step.repeat(64))),
                    Reason::TooDeep(64)
                ),
                "{dialect}"
            );
        }
    }
}

/// Names and keys as long as each dialect's scanner reads them, and refused one byte
/// longer: the tag lexer keeps `inband::MAX_TAG` bytes after `<invoke`/`<parameter`
/// (` name="…">`) and after `<function=`/`<parameter=` (`…>`); Gemini's callee
/// `default_api.NAME` and Gemma's and Gemini's keys are words of `inband::MAX_NAME` bytes.
#[test]
fn names_and_keys_as_long_as_the_scanners_read() {
    assert_eq!(inband::MAX_TAG, 128);
    assert_eq!(inband::MAX_NAME, 128);
    let attribute =
        "at most 119 bytes: the tag ` name=\"…\">` after <invoke or <parameter holds at most 128";
    let equals =
        "at most 127 bytes: the tag `…>` after <function= or <parameter= holds at most 128";
    let cases: &[(Dialect, usize, usize, &str, &str)] = &[
        // dialect, longest name, longest key, why a longer name, why a longer key
        (Dialect::Xml, 119, 119, attribute, attribute),
        (Dialect::Anthropic, 119, 119, attribute, attribute),
        (Dialect::Minimax, 119, 119, attribute, attribute),
        (Dialect::Qwen3Coder, 127, 127, equals, equals),
        (Dialect::SeedOss, 127, 127, equals, equals),
        (
            Dialect::Gemini,
            116,
            128,
            "at most 116 bytes: the callee `default_api.NAME` holds at most 128",
            "a Python identifier of at most 128 bytes: [A-Za-z_][A-Za-z0-9_]*",
        ),
        (Dialect::Gemma, 128, 128, "", "at most 128 bytes"),
    ];
    for &(dialect, name_len, key_len, name_why, key_why) in cases {
        let name = "n".repeat(name_len);
        let key = "k".repeat(key_len);
        round_trips(dialect, Call::new(name.clone(), object(json!({"k": 1}))));
        round_trips(dialect, Call::new("f", object(json!({ key.clone(): 1 }))));
        if !name_why.is_empty() {
            let longer = format!("{name}n");
            assert_eq!(
                refusal(dialect, Call::new(longer.clone(), object(json!({"k": 1})))),
                (0, Some(longer), None, Reason::InvalidName(name_why)),
                "{dialect}"
            );
        }
        let longer = format!("{key}k");
        assert_eq!(
            refusal(
                dialect,
                Call::new("f", object(json!({ longer.clone(): 1 })))
            ),
            (
                0,
                Some("f".to_owned()),
                Some(format!("/{longer}")),
                Reason::InvalidKey(key_why)
            ),
            "{dialect}"
        );
    }
}

/// A caller's Kimi id is kept only with a decimal index: anything else after the colon
/// (here the call's own closing token) would break the call.
#[test]
fn kimi_ids_keep_only_decimal_indexes() {
    let call = |id: &str| Call {
        id: id.to_owned(),
        name: "f".to_owned(),
        arguments: object(json!({"a": 1})),
    };
    let kimi = Renderer::new(Dialect::Kimi);
    assert_eq!(
        kimi.call(&call("functions.f:<|tool_call_end|>")).unwrap(),
        "<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{\"a\":1}<|tool_call_end|>"
    );
    assert_eq!(
        kimi.call(&call("functions.f:x")).unwrap(),
        "<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{\"a\":1}<|tool_call_end|>"
    );
    assert_eq!(
        kimi.call(&call("functions.f:12")).unwrap(),
        "<|tool_call_begin|>functions.f:12<|tool_call_argument_begin|>{\"a\":1}<|tool_call_end|>"
    );
}

/// Reasoning holding a delimiter the dialect's scanner acts on inside reasoning (a stop
/// token, a special token it removes as stray, a section opener) is refused, naming it.
#[test]
fn reasoning_with_delimiters_the_scanner_acts_on_is_refused() {
    let cases: &[(Dialect, &str, &str)] = &[
        (Dialect::Hermes, "a <|im_end|> b", "<|im_end|>"),
        (Dialect::Qwen3, "a <|endoftext|> b", "<|endoftext|>"),
        (Dialect::Qwen3Coder, "a <|im_end|> b", "<|im_end|>"),
        (Dialect::SeedOss, "a <seed:eos> b", "<seed:eos>"),
        (Dialect::Longcat, "a </longcat_s> b", "</longcat_s>"),
        (
            Dialect::Kimi,
            "a <|tool_calls_section_begin|> b",
            "<|tool_calls_section_begin|>",
        ),
        (Dialect::Kimi, "a <|tool_call_end|> b", "<|tool_call_end|>"),
        (Dialect::Deepseek, "a <｜tool▁sep｜> b", "<｜tool▁sep｜>"),
        (
            Dialect::Deepseek,
            "a <｜end▁of▁sentence｜> b",
            "<｜end▁of▁sentence｜>",
        ),
        (Dialect::Gemma, "a <|\"|> b", "<|\"|>"),
        (Dialect::Gemma, "a <tool_call|> b", "<tool_call|>"),
        (Dialect::Glm, "a <|assistant|> b", "<|assistant|>"),
        (Dialect::Minimax, "a [e~[ b", "[e~["),
        (
            Dialect::Xml,
            "a <｜end▁of▁sentence｜> b",
            "<｜end▁of▁sentence｜>",
        ),
    ];
    for &(dialect, text, delimiter) in cases {
        let error = Renderer::new(dialect).reasoning(text).unwrap_err();
        assert_eq!(
            error,
            RenderError {
                index: 0,
                name: None,
                argument: None,
                reason: Reason::DelimiterInText(delimiter.to_owned()),
            },
            "{dialect}"
        );
    }
    // A tag the scanner reads as reasoning text stays written.
    assert_eq!(
        Renderer::new(Dialect::Hermes)
            .reasoning("use <tool_call> tags")
            .unwrap(),
        "<think>\nuse <tool_call> tags\n</think>"
    );
}

/// OpenAI's tool messages carry only the call's id: the result is named after the earlier
/// call with that id, in the transcript and in re-encoded history (a fresh-eyes find:
/// harmony wrote `functions. to=assistant`).
#[test]
fn results_are_named_after_their_calls() {
    let messages: Vec<Message> = serde_json::from_str(
        r#"[{"role": "user", "content": "read main"},
            {"role": "assistant", "content": "", "tool_calls": [{"id": "call_1", "type": "function",
             "function": {"name": "read", "arguments": "{\"path\": \"main.rs\"}"}}]},
            {"role": "tool", "tool_call_id": "call_1", "content": "fn main() {}"}]"#,
    )
    .unwrap();
    let harmony = Renderer::new(Dialect::Harmony)
        .transcript(&messages)
        .unwrap();
    assert!(
        harmony.contains(
            "<|start|>functions.read to=assistant<|channel|>commentary<|message|>fn main() {}<|end|>"
        ),
        "{harmony}"
    );
    let gemma = Renderer::new(Dialect::Gemma).transcript(&messages).unwrap();
    assert!(gemma.contains("response:read{"), "{gemma}");
}
