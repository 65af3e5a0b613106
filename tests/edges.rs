//! The stream's edges (core/edges.rs): the model's end-of-turn token at the very end is the
//! normal stop, not a leak; a reasoning closer with no opener before it says the prompt
//! opened the reasoning. Every case at every chunking (harness::check).

use inband::{Dialect, Options, Role};

use crate::harness::{self, codes, completion};

/// Every dialect's stop tokens (`<|im_end|>`, `<｜end▁of▁sentence｜>`, `[e~[`, `<turn|>`,
/// `<|return|>`, …), from its own table.
fn stop_tokens(dialect: Dialect) -> Vec<&'static str> {
    dialect
        .delimiters()
        .filter(|d| d.mode == "content" && d.role == Role::Stop)
        .map(|d| std::str::from_utf8(d.bytes).unwrap())
        .collect()
}

/// At the end of the stream, alone or before whitespace, a stop token is removed with no
/// diagnostic; before anything else it leaked, and its diagnostic comes just before what
/// follows it.
#[test]
fn the_end_of_turn_token_at_the_end_is_the_normal_stop() {
    let mut seen = 0;
    for &dialect in Dialect::ALL {
        for stop in stop_tokens(dialect) {
            seen += 1;
            for tail in ["", "\n", " \r\n\t"] {
                let input = format!("The answer is 4.{stop}{tail}");
                let done = completion(dialect, Options::default(), &input);
                assert_eq!(done.content, "The answer is 4.", "{dialect} {input:?}");
                assert!(
                    !codes(&done).contains(&"stray_stop_token"),
                    "{dialect} {input:?}"
                );
            }
            let input = format!("The answer is 4.{stop}\nMore.");
            let leaked = completion(dialect, Options::default(), &input);
            assert!(
                codes(&leaked).contains(&"stray_stop_token"),
                "{dialect} {input:?}"
            );
            assert!(!leaked.content.contains(stop), "{dialect} {input:?}");
        }
    }
    assert!(seen >= 20, "{seen} stop tokens");
    let options = Options::default();
    assert_eq!(
        harness::scan(Dialect::Qwen3, options, "4.<|im_end|>\n"),
        ["T\"4.\"", "<Stop>", "T\"\\n\""]
    );
    assert_eq!(
        harness::scan(Dialect::Qwen3, options, "4.<|im_end|>\nMore"),
        [
            "T\"4.\"",
            "<Stop>",
            "T\"\\n\"",
            "D:stray_stop_token",
            "T\"More\""
        ]
    );
    // Stop tokens with only whitespace between them are one run: at the end, the end of
    // the turn; before text, one leak whose diagnostic spans the run.
    assert_eq!(
        harness::scan(Dialect::Qwen3, options, "4.<|im_end|>\n<|endoftext|>\n"),
        ["T\"4.\"", "<Stop>", "T\"\\n\"", "<Stop>", "T\"\\n\""]
    );
    assert_eq!(
        harness::scan(Dialect::Qwen3, options, "4.<|im_end|><|endoftext|>More"),
        [
            "T\"4.\"",
            "<Stop>",
            "<Stop>",
            "D:stray_stop_token",
            "T\"More\""
        ]
    );
    let run = completion(Dialect::Qwen3, options, "4.<|im_end|> <|endoftext|>More");
    assert_eq!(
        run.diagnostics
            .iter()
            .map(|d| (d.code, d.span))
            .collect::<Vec<_>>(),
        [("stray_stop_token", [2, 26])]
    );
    // After a call, and split anywhere (the harness feeds every chunking).
    let call = "<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call><|im_end|>";
    let done = completion(Dialect::Qwen3, options, call);
    assert_eq!(done.tool_calls.len(), 1);
    assert_eq!(codes(&done), Vec::<&str>::new());
    let deepseek = "Done.<｜end▁of▁sentence｜>";
    assert_eq!(
        codes(&completion(Dialect::Deepseek, options, deepseek)),
        Vec::<&str>::new()
    );
    // Reasoning cut off by the end of the turn is still unclosed reasoning.
    let cut = completion(Dialect::Qwen3, options, "<think>hm<|im_end|>");
    assert_eq!(codes(&cut), ["unclosed_reasoning"]);
}

/// The reasoning closers watched for: each dialect's own, from its reasoning mode's table.
fn closers(dialect: Dialect) -> &'static [&'static str] {
    match dialect {
        Dialect::Xml => &["</thinking>", "</think>"],
        Dialect::Anthropic => &["</thinking>", "</think>"],
        Dialect::Gemma => &["<channel|>"],
        Dialect::SeedOss => &["</seed:think>"],
        Dialect::Longcat => &["</longcat_think>", "</think>"],
        Dialect::Mistral => &["[/THINK]", "</think>"],
        Dialect::Hunyuan => &["</think:opensource>"],
        Dialect::K2Horizon => &["</ifm|think>", "</ifm|think_fast>", "</ifm|think_faster>"],
        Dialect::Cohere => &["<|END_THINKING|>"],
        Dialect::Apertus => &["<|inner_suffix|>"],
        Dialect::Dots => &["</think>"],
        Dialect::KimiK3 => &["<|close|>think<|sep|>"],
        Dialect::Mimo => &["</think>"],
        Dialect::Step3 => &["</think>"],
        Dialect::Gigachat35 => &["</think>"],
        Dialect::Plamo3 => &["<|plamo:end_think:plamo|>"],
        Dialect::MinimaxM3 => &["</mm:think>"],
        Dialect::Harmony | Dialect::Muse | Dialect::Gemini | Dialect::FunctionGemma => &[],
        _ => &["</think>"],
    }
}

/// A response that starts inside reasoning, scanned without `starts_in_reasoning`: its
/// text stays content (it was already sent), and the first closer gets an
/// `unopened_reasoning` diagnostic naming the option; with the option, the same text is
/// reasoning and content with no diagnostic.
#[test]
fn a_reasoning_closer_without_an_opener_names_the_option() {
    for &dialect in Dialect::ALL {
        for closer in closers(dialect) {
            let input = format!("Let me think.{closer}\n\nIt is 4. {closer} again");
            let silent = completion(dialect, Options::default(), &input);
            assert_eq!(silent.reasoning, None, "{dialect}");
            let stray = matches!(
                dialect,
                Dialect::Deepseek | Dialect::Gemma | Dialect::Cohere | Dialect::Apertus
            ) || (dialect == Dialect::Mistral && closer.starts_with('['));
            if stray {
                // Their closer in content is a stray token, removed.
                assert_eq!(silent.content, input.replace(closer, ""), "{dialect}");
                assert_eq!(
                    codes(&silent),
                    ["unopened_reasoning", "stray_token", "stray_token"]
                );
            } else {
                assert_eq!(silent.content, input, "{dialect}");
                assert_eq!(codes(&silent), ["unopened_reasoning"], "{dialect} {closer}");
            }
            let at = input.find(closer).unwrap() as u64;
            assert_eq!(
                silent.diagnostics[0].span,
                [at, at + closer.len() as u64],
                "{dialect}"
            );
            assert!(silent.diagnostics[0]
                .message
                .contains("starts_in_reasoning"));
            let mut options = Options::default();
            options.starts_in_reasoning = true;
            let read = completion(dialect, options, &input);
            assert_eq!(
                read.reasoning.as_deref(),
                Some("Let me think."),
                "{dialect}"
            );
            assert!(!codes(&read).contains(&"unopened_reasoning"), "{dialect}");
        }
    }
    let options = Options::default();
    let opened = completion(Dialect::Qwen3, options, "<think>a</think>b</think>c");
    assert_eq!(codes(&opened), Vec::<&str>::new());
    assert_eq!(
        harness::scan(Dialect::Qwen3, options, "plan</think>answer"),
        ["T\"plan</think>\"", "D:unopened_reasoning", "T\"answer\""]
    );
    // Inside a call's JSON a closer is argument text, never watched.
    let call = "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": \"</think>\"}}</tool_call>";
    assert_eq!(
        codes(&completion(Dialect::Qwen3, options, call)),
        Vec::<&str>::new()
    );
    // The closer split by a markup event is not a closer.
    assert_eq!(
        codes(&completion(Dialect::Qwen3, options, "</thi<|im_end|>nk>")),
        ["stray_stop_token"]
    );
    // Harmony and Gemini: no closer to watch.
    for dialect in [Dialect::Harmony, Dialect::Gemini] {
        let text = completion(dialect, options, "plan</think>answer");
        assert!(!codes(&text).contains(&"unopened_reasoning"), "{dialect}");
    }
}

/// The watch's fast path skips text without `<` (core/edges.rs): every reasoning closer of
/// every watched dialect begins with `<`, or is a stray token of its content mode, which
/// never reaches the watch as text (mistral's `[/THINK]`; the watch reports it from its
/// markup).
#[test]
fn every_watched_reasoning_closer_begins_with_a_bracket() {
    let mut closers = 0;
    // Every dialect with a watch (Scanner::new: all but harmony and gemini).
    for dialect in Dialect::ALL
        .iter()
        .filter(|d| !matches!(d, Dialect::Harmony | Dialect::Gemini))
    {
        for delimiter in dialect
            .delimiters()
            .filter(|d| d.mode == "reasoning" && d.role == Role::ReasoningClose)
        {
            let stray = dialect.delimiters().any(|d| {
                d.mode == "content" && d.role == Role::Stray && d.bytes == delimiter.bytes
            });
            if !stray {
                assert_eq!(
                    delimiter.bytes.first(),
                    Some(&b'<'),
                    "{:?}",
                    delimiter.bytes
                );
            }
            closers += 1;
        }
    }
    assert!(closers >= 10, "{closers}");
}
