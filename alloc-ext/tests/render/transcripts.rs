//! Whole conversations: golden transcripts, the seed's transcript behaviours
//! (docs/seed.md §5.6), Kimi's ids across turns, results named after their calls, history
//! re-encoding (§4.4) and the message model's JSON shapes.

use inband::Dialect;
use inband_alloc::render::{Assistant, Call, Message, Renderer, ToolResult};
use serde_json::json;

use crate::common::{calls_of, object, scan};

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
        if dialect == Dialect::Apertus {
            // Its tool outputs are a plain JSON array in the assistant turn, no token: no
            // scanner can tell them from text (docs/dialects.md §apertus).
            continue;
        }
        if dialect == Dialect::Plamo3 {
            // Its tool results' form is not established: the renderer writes ChatML's
            // `<tool_response>`, which its table does not list (docs/dialects.md §plamo3).
            continue;
        }
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
        let reasoning = r.reasoning(&turn.reasoning).unwrap();
        // A dialect with no reasoning form leaves reasoning out (functiongemma).
        let want = (!reasoning.is_empty()).then_some("I should search.");
        let text = format!(
            "{}{}{}",
            reasoning,
            turn.content,
            r.calls(&turn.tool_calls).unwrap()
        );
        let completion = scan(dialect, &text, &[3, 17, 40]);
        assert_eq!(completion.reasoning.as_deref(), want, "{dialect}");
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
