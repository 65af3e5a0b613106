//! Harmony header leak detection, recovery and audit (docs/seed.md §4.6, §5.10). The
//! seed's fixture corpus is not public; the positives here are built to the spec's
//! signal definitions, one or more per class.

use inband_alloc::runtime::harmony_leak::{
    audit, detect, detect_in_message, extract_removed, is_mitigation_target, recover, redact,
    signal_label, Action, AuditContext, Block, Class, Surface, ABORT_SENTINEL,
};
use serde_json::json;

const EDIT_DSL: &[&str] = &[
    "@packages/fxe-ui/src/components/Pressable.ts\n=89hm\n~  }ենց to=functions.edit code  wrong\n",
    "@src/a.ts\n=12ab\n+ const x = 1;\nanalysis to=functions.edit code 大发官网\n",
    "@src/b.ts\n=34cd\n- old\n changedFiles to=functions.edit code\n",
];
const EDIT_JSON: &[&str] = &[
    "{\"path\":\"src/a.ts\",\"new\":\"y\"} analysis to=functions.edit code 天天中彩票",
    "{\"path\":\"b.ts\"}\nRTLU to=functions.edit code {}",
];
const EVAL: &[&str] = &[
    "const a = 1;\nconsole.log(a);\nJsii to=functions.eval code x\n",
    "x = 1\nprint(x)\nassistant to=functions.eval code 天天\n",
];
const HEADER: &str = "header line one\nanalysis to=functions.edit code 大发官网";

#[test]
fn mitigation_targets() {
    assert!(is_mitigation_target("openai-codex"));
    assert!(!is_mitigation_target("anthropic"));
}

#[test]
fn negatives_do_not_trip() {
    for text in [
        "See the errata: the marker `to=functions.edit` appears in legitimate documentation.",
        "Example of corruption:\n```\nchangedFiles to=functions.edit code analysis\n```\nThat is the bug.",
        "expect(out).toContain('to=functions.edit');",
        "`to=functions.X`, where X is the tool name. Bare `to=functions.edit` does not trip.",
        "I read about to=functions.edit in the docs.",
    ] {
        assert_eq!(detect(text, Surface::AssistantText, None), None, "{text:?}");
    }
    for text in ["...to=funct", "...to=functions."] {
        assert_eq!(detect(text, Surface::ToolArg, Some(0)), None, "{text:?}");
    }
}

#[test]
fn positives_trip_on_tool_arguments_after_the_parse() {
    for text in EDIT_DSL.iter().chain(EDIT_JSON).chain(EVAL) {
        let found = detect(text, Surface::ToolArg, Some(0)).unwrap_or_else(|| panic!("{text:?}"));
        assert!(!found.signals.is_empty());
        for signal in &found.signals {
            assert!(
                signal.classes.len() >= 2 && signal.classes[0] == Class::M,
                "{text:?}: {signal:?}"
            );
        }
    }
    let classes = |text: &str| {
        detect(text, Surface::ToolArg, Some(0)).unwrap().signals[0]
            .classes
            .clone()
    };
    assert_eq!(classes(EDIT_DSL[0]), [Class::M, Class::S, Class::T]);
    assert_eq!(
        classes(EDIT_DSL[1]),
        [Class::M, Class::C, Class::S, Class::T]
    );
    assert_eq!(classes(EDIT_DSL[2]), [Class::M, Class::G, Class::T]);
}

#[test]
fn tool_arguments_need_a_parse_end() {
    // §5.10 items 16–19.
    assert_eq!(detect(HEADER, Surface::ToolArg, None), None);
    let text = detect(HEADER, Surface::AssistantText, None).unwrap();
    assert_eq!(text.signals[0].classes, [Class::M, Class::C, Class::S]);
    assert_eq!(
        detect(HEADER, Surface::ToolArg, Some(HEADER.chars().count())),
        None
    );
    let analysis = HEADER.find("analysis").unwrap();
    let found = detect(HEADER, Surface::ToolArg, Some(analysis)).unwrap();
    assert!(found.signals.iter().all(|s| s.classes.contains(&Class::T)));
}

#[test]
fn control_tokens_trip_alone_outside_fences() {
    let found = detect("done<|end|>", Surface::AssistantThinking, None).unwrap();
    assert_eq!(found.signals[0].classes, [Class::H]);
    assert_eq!((found.signals[0].start, found.signals[0].end), (4, 11));
    assert_eq!(
        detect("```\n<|end|>\n```", Surface::AssistantText, None),
        None
    );
}

#[test]
fn cascades_and_fake_results() {
    let cascade = "ok to=functions.edit code then to=functions.edit again";
    let found = detect(cascade, Surface::AssistantText, None).unwrap();
    assert_eq!(found.signals[0].classes, [Class::M, Class::B]);
    let fake = "ran to=functions.python code_output\nCell 3: done";
    let found = detect(fake, Surface::AssistantText, None).unwrap();
    assert_eq!(found.signals[0].classes, [Class::M, Class::R]);
}

#[test]
fn dsl_edits_and_evals_are_recovered() {
    // §5.10 items 20–23, 27–28.
    for (tool, text) in EDIT_DSL
        .iter()
        .map(|t| ("edit", t))
        .chain(EVAL.iter().map(|t| ("eval", t)))
    {
        let found = detect(text, Surface::ToolArg, Some(0)).unwrap();
        let recovered = recover(tool, text, &found).unwrap_or_else(|| panic!("{text:?}"));
        assert!(recovered.input.ends_with(ABORT_SENTINEL));
        assert!(recovered.input.len() < text.len() + 16);
        assert!(!recovered.input.contains("to=functions."));
        assert!(recovered.removed.contains("to=functions."));
        // Idempotent: the recovered input does not trip again.
        assert_eq!(detect(&recovered.input, Surface::ToolArg, Some(0)), None);
    }
    let found = detect(EDIT_DSL[1], Surface::ToolArg, Some(0)).unwrap();
    assert_eq!(
        recover("edit", EDIT_DSL[1], &found).unwrap().input,
        "@src/a.ts\n=12ab\n+ const x = 1;\n*** Abort\n"
    );
}

#[test]
fn other_tools_are_detected_not_recovered() {
    // §5.10 items 24–26, 29.
    let patch = "*** Begin Patch\n*** Update File: a.ts\n@@\n-old\n+new\n*** End Patch\n analysis to=functions.edit code 大发官网";
    let read = "{\"path\":\"src/foo.ts\",\"sel\":\"raw\"} \tchangedFiles to=functions.read code  天天中彩票";
    for (tool, text) in [
        ("edit", patch),
        ("edit", EDIT_JSON[0]),
        ("edit", EDIT_JSON[1]),
        ("read", read),
    ] {
        let found = detect(text, Surface::ToolArg, Some(0)).unwrap_or_else(|| panic!("{text:?}"));
        assert_eq!(recover(tool, text, &found), None, "{text:?}");
    }
    let found = detect(read, Surface::ToolArg, Some(0)).unwrap();
    assert!(found.signals[0].classes.contains(&Class::G));
    // A leak on the first line cannot be cut.
    let first = "@a.ts analysis to=functions.edit code 大发";
    let found = detect(first, Surface::ToolArg, Some(0)).unwrap();
    assert_eq!(recover("edit", first, &found), None);
}

#[test]
fn removed_text_starts_at_the_first_signal() {
    // §5.10 items 30–31.
    let found = detect(EDIT_JSON[0], Surface::ToolArg, Some(0)).unwrap();
    let removed = extract_removed(EDIT_JSON[0], &found);
    assert_eq!(removed, "to=functions.edit code 天天中彩票");
    let prose = "Some prose. analysis to=functions.edit code 大发官网";
    let (index, found) = detect_in_message(
        &[Block::Text("fine".into()), Block::Text(prose.into())],
        None,
    )
    .unwrap();
    assert_eq!(index, 1);
    assert_eq!(
        extract_removed(prose, &found),
        "to=functions.edit code 大发官网"
    );
}

#[test]
fn messages_are_checked_block_by_block() {
    let blocks = [
        Block::Thinking("plain".into()),
        Block::ToolCall {
            name: "edit".into(),
            arguments: json!({"input": EDIT_DSL[1]}),
        },
    ];
    assert_eq!(detect_in_message(&blocks, None), None);
    let (index, found) = detect_in_message(&blocks, Some(0)).unwrap();
    assert_eq!((index, found.surface), (1, Surface::ToolArg));
}

#[test]
fn the_audit_record() {
    // §5.10 item 32.
    let found = detect(EDIT_DSL[1], Surface::ToolArg, Some(0)).unwrap();
    let recovered = recover("edit", EDIT_DSL[1], &found).unwrap();
    let context = AuditContext {
        action: Action::TruncateResume,
        retry: 0,
        model: "gpt-5.4",
        provider: "openai-codex",
        tool: Some("edit"),
        debug: false,
    };
    let record = audit(&found, &recovered.removed, context);
    assert_eq!(record.removed_len, recovered.removed.chars().count());
    // Python: hashlib.new("sha512_256", removed.encode()).hexdigest()[:8]
    assert_eq!(
        recovered.removed,
        "analysis to=functions.edit code 大发官网\n"
    );
    assert_eq!(record.removed_sha8, "85ff1d05");
    assert_eq!(record.raw, None);
    assert_eq!(record.signals, signal_label(&found.signals));
    assert_eq!(record.signals, "M+C+S+T");
    assert_eq!(record.preview, "analysis to=functions.···· ···· 大发官网\n");
    let debug = audit(
        &found,
        &recovered.removed,
        AuditContext {
            debug: true,
            ..context
        },
    );
    assert_eq!(debug.raw.as_deref(), Some(recovered.removed.as_str()));
    assert_eq!(redact("abc 】"), "··· 】");
    assert_eq!(signal_label(&[]), "none");
}
