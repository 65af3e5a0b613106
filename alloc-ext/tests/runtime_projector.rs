//! The projector (docs/seed.md §4.5, §5.4, §5.5, §6.3 B1, B2, B13) and leaked-markup
//! healing through it (§4.8, §5.12 items 1–9): in-band content whole, char by char and at
//! every two-piece cut.

use inband::Dialect;
use inband_alloc::assemble::AssembleOptions;
use inband_alloc::runtime::{
    leak_pattern, Channel, LeakPattern, NativeCallDelta, Projected, Projector, ProjectorOptions,
    ProviderDelta,
};

fn content(text: &str) -> ProviderDelta {
    ProviderDelta {
        content: text.to_owned(),
        ..ProviderDelta::default()
    }
}

fn native(index: u32, id: &str, name: &str, arguments: &str) -> ProviderDelta {
    ProviderDelta {
        tool_calls: vec![NativeCallDelta {
            index,
            id: Some(id.to_owned()),
            name: Some(name.to_owned()),
            arguments: Some(arguments.to_owned()),
        }],
        ..ProviderDelta::default()
    }
}

/// Pushes `chunks`, then finishes; returns the result and whether a push reported a
/// fabricated result.
fn project(options: &ProjectorOptions, chunks: &[ProviderDelta], abort: bool) -> (Projected, bool) {
    let mut projector = Projector::new(options.clone());
    let mut fabricated = false;
    for chunk in chunks {
        if projector.push(chunk).fabricated {
            fabricated = true;
            if abort {
                break;
            }
        }
    }
    (projector.finish(), fabricated)
}

/// (content, reasoning, calls as (name, arguments), finish_reason) of `text` as content,
/// asserted the same at every chunking.
fn every_chunking(
    options: &ProjectorOptions,
    text: &str,
) -> (String, Option<String>, Vec<(String, String)>, String) {
    let summary = |p: Projected| {
        (
            p.message.content,
            p.message.reasoning_content,
            p.message
                .tool_calls
                .into_iter()
                .map(|c| (c.name, c.arguments))
                .collect::<Vec<_>>(),
            p.finish_reason,
        )
    };
    let whole = summary(project(options, &[content(text)], false).0);
    let chars: Vec<ProviderDelta> = text.chars().map(|c| content(&c.to_string())).collect();
    assert_eq!(
        summary(project(options, &chars, false).0),
        whole,
        "char-fed {text:?}"
    );
    for (cut, _) in text.char_indices().skip(1) {
        let two = [content(&text[..cut]), content(&text[cut..])];
        assert_eq!(
            summary(project(options, &two, false).0),
            whole,
            "cut {cut} of {text:?}"
        );
    }
    whole
}

fn glm() -> ProjectorOptions {
    ProjectorOptions::inband(Dialect::Glm, AssembleOptions::seeded(1))
}

#[test]
fn a_fabricated_result_ends_the_turn_abort_or_drain() {
    // §5.4: both modes give one call `echo {msg:"hi"}` and no FAKE RESULT.
    let chunks = [
        content(
            "<tool_call>echo\n<arg_key>msg</arg_key>\n<arg_value>hi</arg_value>\n</tool_call>\n",
        ),
        content("<tool_response>\nFAKE RESULT\n</tool_response>"),
        ProviderDelta {
            finish_reason: Some("stop".into()),
            ..ProviderDelta::default()
        },
    ];
    let (aborted, fabricated) = project(&glm(), &chunks, true);
    assert!(fabricated);
    let (drained, fabricated_too) = project(&glm(), &chunks, false);
    assert!(fabricated_too);
    assert_eq!(aborted.message, drained.message);
    assert!(aborted.fabricated && drained.fabricated);
    let calls: Vec<_> = aborted
        .message
        .tool_calls
        .iter()
        .map(|c| (c.name.as_str(), c.arguments.as_str()))
        .collect();
    assert_eq!(calls, [("echo", r#"{"msg":"hi"}"#)]);
    assert_eq!(aborted.message.content, "\n");
    assert_eq!(aborted.finish_reason, "tool_calls");
    assert!(!format!("{:?}", aborted.message).contains("FAKE RESULT"));
    // Whole and at every chunking, the same.
    let text = "<tool_call>echo\n<arg_key>msg</arg_key>\n<arg_value>hi</arg_value>\n</tool_call>\n<tool_response>\nFAKE RESULT\n</tool_response>";
    assert_eq!(
        every_chunking(&glm(), text),
        (
            "\n".into(),
            None,
            vec![("echo".into(), r#"{"msg":"hi"}"#.into())],
            "tool_calls".into()
        )
    );
}

#[test]
fn the_fabrication_check_skips_argument_values() {
    // §6.3 B2: the seed cut this write at `<function_results>`.
    let options = ProjectorOptions::inband(Dialect::Anthropic, AssembleOptions::seeded(1));
    let text = r#"<function_calls><invoke name="write"><parameter name="content">doc mentions <function_results> here</parameter></invoke></function_calls>"#;
    assert_eq!(
        every_chunking(&options, text),
        (
            "".into(),
            None,
            vec![(
                "write".into(),
                r#"{"content":"doc mentions <function_results> here"}"#.into()
            )],
            "tool_calls".into()
        )
    );
}

#[test]
fn truncated_calls_are_never_executable() {
    // §6.3 B1: glm, hermes and harmony calls the stream cut off.
    let cases = [
        (
            Dialect::Glm,
            "hi <tool_call>write\n<arg_key>path</arg_key>\n<arg_value>a.t",
        ),
        (
            Dialect::Hermes,
            r#"hi <tool_call>{"name":"read","arguments":{"path":"a"#,
        ),
    ];
    for (dialect, text) in cases {
        let options = ProjectorOptions::inband(dialect, AssembleOptions::seeded(1));
        let (content, _, calls, reason) = every_chunking(&options, text);
        assert_eq!(
            (content.as_str(), calls.len(), reason.as_str()),
            ("hi ", 0, "stop"),
            "{dialect:?}"
        );
        let (projected, _) = project(&options, &[content_of(text)], false);
        assert_eq!(projected.message.incomplete_calls.len(), 1, "{dialect:?}");
    }
}

fn content_of(text: &str) -> ProviderDelta {
    content(text)
}

#[test]
fn stop_reasons_are_kept() {
    // §6.3 B13: a reason other than stop/length survives when no call is present.
    let finish = |reason: &str| ProviderDelta {
        finish_reason: Some(reason.into()),
        ..ProviderDelta::default()
    };
    let reason = |chunks: &[ProviderDelta]| project(&glm(), chunks, false).0.finish_reason;
    assert_eq!(reason(&[content("hello"), finish("error")]), "error");
    assert_eq!(reason(&[content("hello"), finish("length")]), "length");
    assert_eq!(reason(&[content("hello"), finish("stop")]), "stop");
    assert_eq!(reason(&[content("hello")]), "stop");
    let call =
        content("<tool_call>echo\n<arg_key>msg</arg_key>\n<arg_value>hi</arg_value>\n</tool_call>");
    assert_eq!(reason(&[call.clone(), finish("stop")]), "tool_calls");
    assert_eq!(reason(&[call.clone(), finish("length")]), "length");
    assert_eq!(reason(&[call, finish("content_filter")]), "content_filter");
}

fn gemini() -> ProjectorOptions {
    ProjectorOptions::inband(Dialect::Gemini, AssembleOptions::seeded(1))
}

#[test]
fn native_calls_pass_through_as_they_stream() {
    // §5.5 item 1: the deltas mirror the provider's.
    let mut projector = Projector::new(gemini());
    let start = projector.push(&native(0, "tool_todo_streaming", "todo", ""));
    assert_eq!(
        serde_json::Value::Object(start.delta.to_openai()).to_string(),
        r#"{"tool_calls":[{"index":0,"id":"tool_todo_streaming","type":"function","function":{"name":"todo","arguments":""}}]}"#
    );
    let more = |arguments: &str| ProviderDelta {
        tool_calls: vec![NativeCallDelta {
            index: 0,
            arguments: Some(arguments.into()),
            ..NativeCallDelta::default()
        }],
        ..ProviderDelta::default()
    };
    let d1 = projector.push(&more(r#"{"ops":["#));
    assert_eq!(d1.delta.tool_calls[0].arguments, r#"{"ops":["#);
    assert_eq!(d1.delta.tool_calls[0].id, None);
    let d2 = projector.push(&more(r#"{"op":"view"}]}"#));
    assert_eq!(d2.delta.tool_calls[0].arguments, r#"{"op":"view"}]}"#);
    let done = projector.finish();
    assert_eq!(done.message.tool_calls.len(), 1);
    let call = &done.message.tool_calls[0];
    assert_eq!(
        (
            call.id.as_str(),
            call.name.as_str(),
            call.arguments.as_str(),
            call.channel
        ),
        (
            "tool_todo_streaming",
            "todo",
            r#"{"ops":[{"op":"view"}]}"#,
            Channel::Native
        )
    );
    assert_eq!(done.finish_reason, "tool_calls");
}

#[test]
fn native_reasoning_and_a_native_call() {
    // §5.5 item 2.
    let chunks = [
        ProviderDelta {
            reasoning: "Checking the todo list.".into(),
            ..ProviderDelta::default()
        },
        native(0, "tool_todo_abc", "todo", r#"{"ops":[{"op":"view"}]}"#),
        ProviderDelta {
            finish_reason: Some("stop".into()),
            ..ProviderDelta::default()
        },
    ];
    let (done, _) = project(&gemini(), &chunks, false);
    assert_eq!(
        done.message.reasoning_content.as_deref(),
        Some("Checking the todo list.")
    );
    assert_eq!(done.message.tool_calls.len(), 1);
    assert_eq!(done.message.tool_calls[0].id, "tool_todo_abc");
    assert_eq!(done.finish_reason, "tool_calls");
}

#[test]
fn ghost_calls_are_ignored() {
    // §5.5 item 3: a nameless call, then the real one.
    let chunks = [
        native(0, "", "", "{}"),
        native(1, "tool_todo_real", "todo", "{}"),
    ];
    let (done, _) = project(&gemini(), &chunks, false);
    let ids: Vec<_> = done
        .message
        .tool_calls
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(ids, ["tool_todo_real"]);
}

#[test]
fn the_first_named_call_locks_the_channel() {
    // §5.5 item 4: in-band call plus a native duplicate → one call.
    let inband = content("Sure.\n```tool_code\ndefault_api.todo(ops=[{\"op\": \"view\"}])\n```\n");
    let dup = native(0, "dup", "todo", r#"{"ops":[{"op":"view"}]}"#);
    let orders = [
        (vec![inband.clone(), dup.clone()], Channel::Inband),
        (vec![dup, inband], Channel::Native),
    ];
    for (chunks, channel) in orders {
        let (done, _) = project(&gemini(), &chunks, false);
        let calls: Vec<_> = done
            .message
            .tool_calls
            .iter()
            .map(|c| (c.name.as_str(), c.arguments.as_str(), c.channel))
            .collect();
        assert_eq!(calls, [("todo", r#"{"ops":[{"op":"view"}]}"#, channel)]);
        assert_eq!(done.message.content, "Sure.\n\n");
        assert!(done.diagnostics.iter().any(|d| d.code == "dropped_call"));
    }
}

#[test]
fn native_and_inband_reasoning_merge() {
    let chunks = [
        ProviderDelta {
            reasoning: "native ".into(),
            ..ProviderDelta::default()
        },
        content("<think>in-band</think>answer"),
    ];
    let (done, _) = project(&glm(), &chunks, false);
    assert_eq!(
        done.message.reasoning_content.as_deref(),
        Some("native in-band")
    );
    assert_eq!(done.message.content, "answer");
}

#[test]
fn leak_patterns_from_provider_and_model() {
    // §5.12 item 1.
    assert_eq!(
        leak_pattern("openrouter", "moonshotai/kimi-k2"),
        LeakPattern::Kimi
    );
    assert_eq!(
        leak_pattern("ollama-cloud", "deepseek-v4-pro"),
        LeakPattern::Dsml
    );
    assert_eq!(
        leak_pattern("nanogpt", "deepseek/deepseek-v4-pro"),
        LeakPattern::Dsml
    );
    assert_eq!(
        leak_pattern("opencode-zen", "minimax-m3"),
        LeakPattern::Thinking
    );
    assert_eq!(
        leak_pattern("openrouter", "google/gemini-3.5-flash"),
        LeakPattern::Thinking
    );
    assert_eq!(
        leak_pattern("ollama-cloud", "gpt-oss:120b"),
        LeakPattern::Thinking
    );
    assert_eq!(
        leak_pattern("openai", "deepseek-v4-pro"),
        LeakPattern::Thinking
    );
    assert_eq!(leak_pattern("moonshot", "anything"), LeakPattern::Kimi);
}

const DSML_LEAK: &str = "<｜DSML｜tool_calls><｜DSML｜invoke name=\"bash\"><｜DSML｜parameter name=\"i\" string=\"true\">check the package</｜DSML｜parameter><｜DSML｜parameter name=\"command\" string=\"true\">docker exec web sh -c \"rpm -qa | grep -i 'openssl' 2>/dev/null\"</｜DSML｜parameter><｜DSML｜parameter name=\"timeout\" string=\"false\">15</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>";

fn dsml() -> ProjectorOptions {
    ProjectorOptions::healing(
        "ollama-cloud",
        "deepseek-v4-pro",
        AssembleOptions::seeded(1),
    )
}

#[test]
fn dsml_leaks_become_calls() {
    // §5.12 items 2–4, 6.
    let args = r#"{"i":"check the package","command":"docker exec web sh -c \"rpm -qa | grep -i 'openssl' 2>/dev/null\"","timeout":15}"#;
    assert_eq!(
        every_chunking(&dsml(), DSML_LEAK),
        (
            "".into(),
            None,
            vec![("bash".into(), args.into())],
            "tool_calls".into()
        )
    );
    let chunks: Vec<ProviderDelta> = DSML_LEAK
        .chars()
        .collect::<Vec<_>>()
        .chunks(7)
        .map(|c| content(&c.iter().collect::<String>()))
        .collect();
    let (done, _) = project(&dsml(), &chunks, false);
    assert_eq!(done.message.content, "");
    assert_eq!(done.message.tool_calls[0].arguments, args);
    assert!(done.message.tool_calls[0].id.starts_with("call_"));
    let around = format!("Before\n{DSML_LEAK}\nAfter");
    assert_eq!(every_chunking(&dsml(), &around).0, "Before\n\nAfter");
    let ascii = "<|DSML|tool_calls><|DSML|invoke name=\"bash\"><|DSML|parameter name=\"cmd\" string=\"true\">ls -la</|DSML|parameter></|DSML|invoke></|DSML|tool_calls>";
    assert_eq!(
        every_chunking(&dsml(), ascii).2,
        [("bash".to_owned(), r#"{"cmd":"ls -la"}"#.to_owned())]
    );
}

#[test]
fn a_cut_dsml_leak_is_neither_text_nor_call() {
    // §5.12 item 5: the leak minus its last 30 characters.
    let cut: String = {
        let chars: Vec<char> = DSML_LEAK.chars().collect();
        chars[..chars.len() - 30].iter().collect()
    };
    let (content, _, calls, reason) = every_chunking(&dsml(), &cut);
    assert_eq!(
        (content.as_str(), calls.len(), reason.as_str()),
        ("", 0, "stop")
    );
}

#[test]
fn prose_passes_through_at_once() {
    // §5.12 items 7–8.
    let mut projector = Projector::new(dsml());
    assert_eq!(
        projector
            .push(&content("if a < b:\n    return a"))
            .delta
            .content,
        "if a < b:\n    return a"
    );
    let mut projector = Projector::new(dsml());
    assert_eq!(projector.push(&content("run ")).delta.content, "run ");
    assert_eq!(projector.push(&content("<｜DSML｜tool")).delta.content, "");
    assert_eq!(projector.push(&content("_calls>")).delta.content, "");
    let rest = "<｜DSML｜invoke name=\"bash\"><｜DSML｜parameter name=\"cmd\">ls</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>";
    assert_eq!(projector.push(&content(rest)).delta.content, "");
    let done = projector.finish();
    assert_eq!(done.message.tool_calls.len(), 1);
}

#[test]
fn leaked_reasoning_and_a_leaked_call_together() {
    // §5.12 item 9.
    let text = format!("```thinking\nplan\n```before {DSML_LEAK} after");
    let (content, reasoning, calls, _) = every_chunking(&dsml(), &text);
    assert_eq!(content, "before  after");
    assert_eq!(reasoning.as_deref(), Some("plan\n"));
    assert_eq!(calls.len(), 1);
}

#[test]
fn text_keeps_its_order_around_native_blocks() {
    // §6.3 B12: the seed's hold-back put "is a sentence." after the provider's thinking.
    let chunks = [
        content("Hello world, this is a sentence."),
        ProviderDelta {
            reasoning: "T".into(),
            ..ProviderDelta::default()
        },
        content(" Second."),
    ];
    let mut projector = Projector::new(glm());
    let first = projector.push(&chunks[0]);
    assert_eq!(first.delta.content, "Hello world, this is a sentence.");
    projector.push(&chunks[1]);
    projector.push(&chunks[2]);
    let done = projector.finish();
    assert_eq!(
        done.message.content,
        "Hello world, this is a sentence. Second."
    );
    assert_eq!(done.message.reasoning_content.as_deref(), Some("T"));
}

#[test]
fn after_a_fabricated_result_nothing_counts() {
    // Drain mode: native calls and content after the fabricated result are ignored.
    let chunks = [
        content("<tool_call>echo\n<arg_key>msg</arg_key>\n<arg_value>hi</arg_value>\n</tool_call>"),
        content("<tool_response>made up"),
        native(0, "late", "todo", "{}"),
        content(" more"),
    ];
    let (done, fabricated) = project(&glm(), &chunks, false);
    assert!(fabricated);
    let ids: Vec<_> = done
        .message
        .tool_calls
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(ids, ["echo"]);
    assert_eq!(done.message.content, "");
}

#[test]
fn a_new_id_at_a_known_index_is_a_new_native_call() {
    // Review fault: providers that omit `index` put every call at position 0; the second
    // call's arguments were appended to the first.
    let (done, _) = project(
        &gemini(),
        &[
            native(0, "call_a", "read", "{}"),
            native(0, "call_b", "list", "[]"),
        ],
        false,
    );
    let calls: Vec<_> = done
        .message
        .tool_calls
        .iter()
        .map(|c| (c.id.as_str(), c.name.as_str(), c.arguments.as_str()))
        .collect();
    assert_eq!(calls, [("call_a", "read", "{}"), ("call_b", "list", "[]")]);
}

#[test]
fn leaked_reasoning_that_differs_from_the_native_is_kept() {
    // The leak repeats the native reasoning's first bytes, then differs: all of it is sent.
    let options = ProjectorOptions::healing(
        "openrouter",
        "moonshotai/kimi-k2",
        AssembleOptions::seeded(1),
    );
    let native = ProviderDelta {
        reasoning: "plan".to_owned(),
        ..ProviderDelta::default()
    };
    let (done, _) = project(
        &options,
        &[
            native.clone(),
            content("<think>pl"),
            content("ot</think>ok"),
        ],
        false,
    );
    assert_eq!(done.message.reasoning_content.as_deref(), Some("planplot"));
    assert_eq!(done.message.content, "ok");
    let (same, _) = project(&options, &[native, content("<think>plan</think>ok")], false);
    assert_eq!(same.message.reasoning_content.as_deref(), Some("plan"));
    assert_eq!(same.message.content, "ok");
}

#[test]
fn a_closed_section_is_reported_once_where_it_closes() {
    // docs/seed.md §4.8: healing reports when a section closed, here with the closer split.
    let mut projector = Projector::new(dsml());
    let pieces = [
        "Hi <｜DSML｜tool_calls><｜DSML｜invoke name=\"read\">",
        "<｜DSML｜parameter name=\"path\" string=\"true\">a</｜DSML｜parameter>",
        "</｜DSML｜invoke></｜DSML",
        "｜tool_cal",
        "ls> after",
        " </｜DSML｜tool_calls>",
    ];
    let closed: Vec<bool> = pieces
        .iter()
        .map(|p| projector.push(&content(p)).section_closed)
        .collect();
    assert_eq!(closed, [false, false, false, false, true, true]);
    let mut kimi = Projector::new(ProjectorOptions::healing(
        "moonshot",
        "kimi-k2",
        AssembleOptions::seeded(1),
    ));
    let step = kimi.push(&content(
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.read:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>",
    ));
    assert!(step.section_closed);
    // Not healing (a model prompted in-band): never reported.
    let mut glm = Projector::new(glm());
    assert!(!glm.push(&content("</｜DSML｜tool_calls>")).section_closed);
}

#[test]
fn a_bounded_projector_sends_the_same_and_keeps_no_text() {
    let chunks = [
        ProviderDelta {
            reasoning: "plan".to_owned(),
            ..ProviderDelta::default()
        },
        content("<think>plan</think>I'll read it. <|tool_calls_section_begin|><|tool_call_begin|>functions.read:0"),
        content("<|tool_call_argument_begin|>{\"path\": \"a.rs\"}<|tool_call_end|><|tool_calls_section_end|>"),
    ];
    let run = |bounded: bool| {
        let mut options =
            ProjectorOptions::healing("moonshot", "kimi-k2", AssembleOptions::seeded(1));
        options.bounded = bounded;
        let mut projector = Projector::new(options);
        let sent: Vec<_> = chunks.iter().map(|c| projector.push(c).delta).collect();
        (sent, projector.finish())
    };
    let (sent, full) = run(false);
    let (sent_bounded, bounded) = run(true);
    assert_eq!(sent_bounded, sent);
    assert_eq!(full.message.content, "I'll read it. ");
    assert_eq!(full.message.reasoning_content.as_deref(), Some("plan"));
    assert_eq!(bounded.message.content, "");
    assert_eq!(bounded.message.reasoning_content.as_deref(), Some(""));
    assert_eq!(bounded.message.tool_calls, full.message.tool_calls);
    assert_eq!(
        bounded.message.tool_calls[0].arguments,
        r#"{"path": "a.rs"}"#
    );
    assert_eq!(bounded.finish_reason, "tool_calls");
}

#[test]
fn a_bounded_projector_stops_comparing_past_the_dedupe_limit() {
    use inband_alloc::runtime::projector::DEDUPE_LIMIT;
    let long = "r".repeat(DEDUPE_LIMIT + 1);
    let mut options = ProjectorOptions::healing("moonshot", "kimi-k2", AssembleOptions::seeded(1));
    options.bounded = true;
    let mut projector = Projector::new(options);
    let native = projector.push(&ProviderDelta {
        reasoning: "rr".to_owned(),
        ..ProviderDelta::default()
    });
    assert_eq!(native.delta.reasoning_content, "rr");
    // The leak repeats it so far: held back.
    let first = projector.push(&content("<think>rr"));
    assert_eq!(first.delta.reasoning_content, "");
    // The native reasoning passes the limit: the held leak is sent, then the native text.
    let second = projector.push(&ProviderDelta {
        reasoning: long.clone(),
        ..ProviderDelta::default()
    });
    assert_eq!(second.delta.reasoning_content, format!("rr{long}"));
}
