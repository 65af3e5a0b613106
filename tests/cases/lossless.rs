//! Nothing lost (docs/dialects.md rules 2 and 12): every case of every case file whose
//! response holds no call (no complete, no incomplete one) and no reasoning, in each of its
//! dialects, gives back its whole input as content but for exactly the tokens rule 12
//! drops: stop tokens, the answer wrapper (hunyuan-a13b, cohere, ernie45) and, in the dialects whose
//! delimiters are special tokens, the special-token delimiters out of place. A broken block's delimiters, names, keys and
//! values all come back.

use inband::{Dialect, Markup, Options, Role};
use inband_alloc::events::{EventLog, OwnedEvent};

use super::{dir, format};
use crate::harness;

/// Whether rule 12 drops this markup from the content of `dialect`; `in_call` says a call
/// is open.
fn dropped(dialect: Dialect, kind: Markup, bytes: &[u8], in_call: bool) -> bool {
    match kind {
        // Hunyuan's `<answer>` and Cohere's response wrappers are the template's, as a stop token is.
        Markup::Delimiter(Role::Stop | Role::Stray | Role::Answer) => true,
        // Rule 5: the opener of a fabricated result stays in the content.
        Markup::Delimiter(Role::ResultOpen) => false,
        Markup::Delimiter(_) => dialect.is_special_token(bytes),
        // A Harmony message header (author, channel, recipient, content type) is the
        // message's framing, never content, whatever becomes of the message's body.
        Markup::Envelope => dialect == Dialect::Harmony && !in_call,
        _ => false,
    }
}

/// The input without the markup rule 12 drops.
fn expected_content(dialect: Dialect, input: &[u8], log: &EventLog) -> Vec<u8> {
    let mut content = Vec::with_capacity(input.len());
    let (mut at, mut in_call) = (0, false);
    for event in &log.events {
        let (span, kind, bytes) = match event {
            OwnedEvent::ToolStart { .. } => {
                in_call = true;
                continue;
            }
            OwnedEvent::ToolEnd { .. } => {
                in_call = false;
                continue;
            }
            OwnedEvent::Markup { span, kind, bytes } => (span, *kind, bytes),
            _ => continue,
        };
        if dropped(dialect, kind, bytes, in_call) {
            content.extend_from_slice(&input[at..span.start as usize]);
            at = span.end as usize;
        }
    }
    content.extend_from_slice(&input[at..]);
    content
}

/// A failure report for `input` in `dialect`, or `None` when the response is not a broken
/// block (it holds a call or reasoning, or, with `diagnosed`, nothing was wrong with it: no
/// diagnostic) or its content is whole.
fn check(
    dialect: Dialect,
    options: Options,
    heading: &str,
    input: &[u8],
    diagnosed: bool,
) -> Option<String> {
    let text = std::str::from_utf8(input).ok()?;
    let completion = harness::completion(dialect, options, text);
    if !completion.tool_calls.is_empty()
        || !completion.incomplete_calls.is_empty()
        || completion.reasoning.is_some()
        || (diagnosed && completion.diagnostics.is_empty())
    {
        return None;
    }
    let log = EventLog::scan(dialect, options, [input]);
    let expected = expected_content(dialect, input, &log);
    // The assembler trims the content's ends.
    let expected = String::from_utf8_lossy(&expected).trim().to_owned();
    (completion.content != expected).then(|| {
        format!(
            "`{heading}` [{}]\n  content  {:?}\n  expected {expected:?}\n{}",
            dialect.name(),
            completion.content,
            harness::render(&log).join("\n"),
        )
    })
}

/// Broken blocks of every dialect, between prose: names and keys rule 9 refuses, bodies
/// that are not calls, literals that do not parse, blocks of prose.
const BROKEN: &[(&str, &str)] = &[
    ("hermes qwen3", "<tool_call>\n{\"name\": \"a b\", \"arguments\": {}}\n</tool_call>"),
    ("hermes qwen3", "<tool_call>\n[1, 2]\n</tool_call>"),
    ("longcat", "<longcat_tool_call>\n{\"name\": \"a b\", \"arguments\": {}}\n</longcat_tool_call>"),
    ("jamba", "<tool_calls>[{\"name\": \"a b\", \"arguments\": {}}]</tool_calls>"),
    ("granite", "<|tool_call|>[{\"name\": \"a b\", \"arguments\": {}}]"),
    ("phi4-mini", "functools[{\"name\": \"a b\", \"arguments\": {}}]"),
    ("phi4-mini", "functools[see the docs]"),
    ("hunyuan-a13b", "<tool_calls>[{\"name\": \"a b\", \"arguments\": {}}]</tool_calls>"),
    ("ernie45", "<tool_call>\n{\"name\": \"a b\", \"arguments\": {}}\n</tool_call>"),
    ("granite-20b-fc", "<function_call> {\"name\": \"a b\", \"arguments\": {}}"),
    ("apertus", "<|tools_prefix|>[{\"a b\": {}}]<|tools_suffix|>"),
    ("gigachat3", "function call<|role_sep|>\n{\"name\": \"a b\", \"arguments\": {}}"),
    ("gigachat3", "<|function_call|>{\"name\": \"a b\", \"arguments\": {}}"),
    (
        "plamo3",
        "<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|>\
         <|plamo:begin_tool_name:plamo|>a b<|plamo:end_tool_name:plamo|>\
         <|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{}\
         <|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>\
         <|plamo:end_tool_requests:plamo|>",
    ),
    ("cohere", "<|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"a b\", \"parameters\": {}}]<|END_ACTION|>"),
    ("internlm", "<|action_start|><|plugin|>\n{\"name\": \"a b\", \"parameters\": {}}<|action_end|>"),
    ("internlm", "<|action_start|> <|plugin|>\n{\"name\": \"a b\", \"parameters\": {}}<|action_end|>"),
    (
        "kimi",
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.a b:0\
         <|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>",
    ),
    (
        "deepseek",
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>a b<｜tool▁sep｜>{}<｜tool▁call▁end｜>\
         <｜tool▁calls▁end｜>",
    ),
    (
        "deepseek",
        "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"a b\">\n\
         <｜DSML｜parameter name=\"k\" string=\"true\">v</｜DSML｜parameter>\n\
         </｜DSML｜invoke>\n</｜DSML｜function_calls>",
    ),
    ("harmony", "<|channel|>commentary to=functions.read<|message|>not json<|call|>"),
    (
        "xml anthropic minimax",
        "<invoke name=\"a b\">\n<parameter name=\"k\">v</parameter>\n</invoke>",
    ),
    (
        "minimax-m3",
        "]<]minimax[>[<invoke name=\"a b\">\n]<]minimax[>[<k>v]<]minimax[>[</k>\n]<]minimax[>[</invoke>",
    ),
    (
        "xml",
        "<tool_calls>\n<invoke name=\"a b\">\n<parameter name=\"k\">v</parameter>\n\
         </invoke>\n</tool_calls>",
    ),
    (
        "xml anthropic",
        "<function_calls>\n<invoke name=\"f\">\n<parameter name=\"a b\">v</parameter>\n\
         </invoke>\n</function_calls>",
    ),
    (
        "minimax",
        "<minimax:tool_call>\n<invoke name=\"a b\">\n<parameter name=\"k\">v</parameter>\n\
         </invoke>\n</minimax:tool_call>",
    ),
    (
        "qwen3-coder",
        "<tool_call>\n<function=a b>\n<parameter=k>\nv\n</parameter>\n</function>\n</tool_call>",
    ),
    (
        "seed-oss",
        "<seed:tool_call>\n<function=f>\n<parameter=a b>v</parameter>\n</function>\n\
         </seed:tool_call>",
    ),
    (
        "glm",
        "<tool_call>f\n<arg_key>a b</arg_key>\n<arg_value>v</arg_value>\n</tool_call>",
    ),
    ("gemma", "<|tool_call>call:f{k:[1,,2]}<tool_call|>"),
    ("gemma", "<|tool_call>call:f{k:<|\"|>v<|\"|>,a b:1}<tool_call|>"),
    ("gemma", "<|tool_call>call:f{k:<|\"|>v}<tool_call|>"),
    ("gemma", "<|tool_call>call:{k:1}<tool_call|>"),
    ("gemma", "<|tool_call>call:f(1)<tool_call|>"),
    ("gemma", "<|tool_call>nothing here<tool_call|>"),
    ("gemini gemma", "```tool_code\nprint(default_api.f(1))\n```"),
    ("minimax", "<minimax:tool_call>\nI will call it.\n</minimax:tool_call>"),
    ("minimax", "<minimax:tool_call>\n<invoke name=\"f\">\n<parameter name=\"a b\">v</parameter>\n</invoke>\n</minimax:tool_call>"),
    ("qwen3-coder", "<tool_call>\nI will call it.\n</tool_call>"),
    ("glm", "<tool_call>a b\n<arg_key>k</arg_key>\n<arg_value>v</arg_value>\n</tool_call>"),
    ("hermes", "<tool_call>\nnot json\n</tool_call>"),
    ("kimi", "<|tool_calls_section_begin|>prose<|tool_calls_section_end|>"),
];

/// Every block of [`BROKEN`] in each of its dialects, alone and between prose, at every
/// two-way split and byte by byte (`harness::completion`).
#[test]
fn a_generated_broken_block_loses_only_rule_12_tokens() {
    let mut failures = Vec::new();
    for &(dialects, block) in BROKEN {
        for name in dialects.split(' ') {
            let dialect = Dialect::from_name(name).unwrap();
            for input in [block.to_owned(), format!("Before.\n{block}\nAfter.")] {
                let text = input.as_str();
                let completion = harness::completion(dialect, Options::default(), text);
                if !completion.tool_calls.is_empty() {
                    failures.push(format!("[{name}] not a broken block: {text:?}"));
                    continue;
                }
                let heading = format!("{text:?}");
                if let Some(report) = check(
                    dialect,
                    Options::default(),
                    &heading,
                    input.as_bytes(),
                    false,
                ) {
                    failures.push(report);
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} lossy:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every broken-block case of every case file, in each of its dialects.
#[test]
fn a_broken_block_loses_only_rule_12_tokens() {
    let mut files: Vec<_> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md") && !p.ends_with("README.md"))
        .collect();
    files.sort();
    let (mut failures, mut checked) = (Vec::new(), 0);
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        for case in format::parse(&text).unwrap() {
            for &dialect in &case.dialects {
                checked += 1;
                if let Some(report) = check(dialect, case.options, &case.heading, &case.input, true)
                {
                    failures.push(format!("{}: {report}", path.display()));
                }
            }
        }
    }
    assert!(checked > 0);
    assert!(
        failures.is_empty(),
        "{} lossy:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
