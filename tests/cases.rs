//! Tests as data: every `tests/cases/*.md` file is a list of cases, each an input and the
//! exact event log it must give, run through the chunking checks of [`harness::verify`]
//! (whole, every two-way split, fixed chunk sizes, one byte at a time, padded with prose).
//!
//! # The case-file format
//!
//! Markdown, in the manner of llhttp's `test/*.md`:
//!
//! ````text
//! # Title (one; prose below it is free)
//! <!-- dialect: kimi -->          file defaults, before the first `##` heading
//! <!-- tokens: kimi -->
//!
//! ## A heading names a case       any `##`…`######` heading with an input block
//! <!-- options: starts_in_reasoning, max_calls=2 -->   this case's own settings
//!
//! ```input
//! the bytes fed, as written; the line break before the closing fence is not part of them
//! ```
//!
//! ```log
//! T"one rendered event a line"
//! ```
//! ````
//!
//! - `input-escaped` instead of `input`: line breaks in the block are dropped and `\\`
//!   `\n` `\r` `\t` `\xNN` (one byte) `\u{…}` are decoded, for inputs with trailing
//!   whitespace, control bytes or a final line break.
//! - A fence may be longer than three backticks, for inputs that hold a fence.
//! - `dialect:` names one or more dialects (their `Dialect::name`); each must give the log.
//! - `tokens:` (`none`, `kimi`, `deepseek`, `dsml`) expands abbreviations such as `[S]`
//!   before feeding (see `format::Tokens`).
//! - `options:` sets [`inband::Options`] fields over the default: `starts_in_reasoning`,
//!   `max_calls=N`, `max_argument_bytes=N`.
//! - The log notation is [`harness::render`]'s. A log block with a `...` line is a
//!   pattern: `...` stands for any run of events (none included), so `...` then two events
//!   pins how the log ends, and `...`, an event, `...` that it holds that event. A case has
//!   at most one exact log block and any number of patterns.
//! - A ` ```completion ` block checks the completion of the input (`harness::completion`:
//!   the same whole, at every split and byte by byte), only in what it lists, one
//!   `key: value` a line: `content: "…"` and `reasoning: "…"` (JSON strings; `reasoning:
//!   none`), `call: NAME {…}` a complete call, in order (arguments compared as JSON
//!   values; `call-text:` compares their compact text, key order included), `calls: none`,
//!   `codes: a b` the diagnostics' codes in order (`codes: none`), `has-code: c` a code among
//!   them, `ids: a b` the complete calls' ids in order, `incomplete: N`.
//!
//! A case needs an input and at least one log or completion block; a heading without an
//! input block is a section. Any other block, comment or a second
//! input or log in one case is a malformed file: a test failure naming the line.
//!
//! `INBAND_BLESS=1 cargo test --test integration cases::` rewrites every exact log block
//! with the current output and adds one to a case that has no block at all (patterns and
//! completion blocks are left as written): for filling in new cases, which are then read.

mod format;
mod lossless;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use inband_alloc::events::EventLog;
use serde_json::Value;
use similar::TextDiff;

use crate::harness;
use format::Case;

/// Runs one case file; panics with every failing case's report.
fn run_file(name: &str) {
    let path = dir().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: cannot read: {e}", path.display()));
    let cases = format::parse(&text).unwrap_or_else(|e| {
        panic!(
            "{}:{}: malformed case file: {}",
            shown(&path),
            e.line,
            e.message
        )
    });
    assert!(!cases.is_empty(), "{}: no case in the file", shown(&path));
    let bless = std::env::var_os("INBAND_BLESS").is_some_and(|v| v == "1");
    let mut failures = String::new();
    let mut blessed = Vec::new();
    for case in &cases {
        let outcome = run_case(case)
            .and_then(|log| check_patterns(case, &log).map(|()| log))
            .and_then(|log| check_completion(case).map(|()| log));
        // A case with only log patterns or a completion block pins no whole log.
        let wants_log =
            case.log.is_some() || (case.completion.is_none() && case.patterns.is_empty());
        match outcome {
            Err(report) => {
                let _ = writeln!(
                    failures,
                    "{}:{}: `{}`: {report}",
                    shown(&path),
                    case.line,
                    case.heading
                );
            }
            Ok(actual) if bless && wants_log => blessed.push((case, actual)),
            Ok(actual) if !wants_log || case.log.as_ref() == Some(&actual) => {}
            Ok(actual) => {
                let expected = case.log.as_deref().unwrap_or_default();
                let _ = write!(
                    failures,
                    "{}:{}: `{}`: every chunking gives this log, not the expected one\n{}\n",
                    shown(&path),
                    case.line,
                    case.heading,
                    diff(expected, &actual)
                );
                if case.log.is_none() {
                    failures
                        .push_str("  (no log block: write one, or bless with INBAND_BLESS=1)\n");
                }
            }
        }
    }
    if bless {
        write_blessed(&path, &text, blessed);
    }
    assert!(failures.is_empty(), "case failures:\n{failures}");
}

/// The rendered log of `case` in its first dialect, after every dialect has given it in
/// every chunking; otherwise the report of what differs.
fn run_case(case: &Case) -> Result<Vec<String>, String> {
    let mut first: Option<(inband::Dialect, Vec<String>)> = None;
    for &dialect in &case.dialects {
        let log = harness::verify(dialect, case.options, &case.input).map_err(|m| {
            let mut report = format!("[{}] {}: {}", dialect.name(), m.chunking, m.reason);
            let (expected, actual) = (harness::render(&m.expected), harness::render(&m.actual));
            if expected == actual {
                report.push_str(&spans(&m.expected, &m.actual));
            } else {
                report.push('\n');
                report.push_str(&diff(&expected, &actual));
            }
            report
        })?;
        let rendered = harness::render(&log);
        match &first {
            None => first = Some((dialect, rendered)),
            Some((d, log)) if *log != rendered => {
                return Err(format!(
                    "[{}] gives another log than [{}]\n{}",
                    dialect.name(),
                    d.name(),
                    diff(log, &rendered)
                ));
            }
            Some(_) => {}
        }
    }
    Ok(first.map(|(_, log)| log).unwrap_or_default())
}

/// The case's log patterns (`...` blocks) against its log.
fn check_patterns(case: &Case, log: &[String]) -> Result<(), String> {
    for pattern in &case.patterns {
        if !format::matches(pattern, log) {
            return Err(format!(
                "the log does not match a pattern (`...` is any run of events)\n{}",
                diff(pattern, log)
            ));
        }
    }
    Ok(())
}

/// The case's completion block against the completion of its input in each dialect
/// (`harness::completion`: the same whole, at every two-way split and byte by byte).
fn check_completion(case: &Case) -> Result<(), String> {
    let Some(expected) = &case.completion else {
        return Ok(());
    };
    let Ok(input) = std::str::from_utf8(&case.input) else {
        return Err("a completion block needs a UTF-8 input".into());
    };
    for &dialect in &case.dialects {
        let name = dialect.name();
        let completion =
            std::panic::catch_unwind(|| harness::completion(dialect, case.options, input))
                .map_err(|panic| {
                    format!("[{name}] completion: {}", harness::panic_message(&*panic))
                })?;
        let mut wrong = Vec::new();
        if let Some(content) = &expected.content {
            if completion.content != *content {
                wrong.push(format!(
                    "content {:?}, expected {content:?}",
                    completion.content
                ));
            }
        }
        if let Some(reasoning) = &expected.reasoning {
            if completion.reasoning != *reasoning {
                wrong.push(format!(
                    "reasoning {:?}, expected {reasoning:?}",
                    completion.reasoning
                ));
            }
        }
        if let Some(calls) = &expected.calls {
            let actual = &completion.tool_calls;
            let same = actual.len() == calls.len()
                && actual.iter().zip(calls).all(|(call, want)| {
                    let text = serde_json::to_string(&call.arguments).unwrap();
                    call.name == want.name
                        && if want.exact {
                            text == want.arguments
                        } else {
                            serde_json::from_str::<Value>(&text).ok()
                                == serde_json::from_str::<Value>(&want.arguments).ok()
                        }
                });
            if !same {
                let shown: Vec<String> = actual
                    .iter()
                    .map(|c| {
                        format!(
                            "{} {}",
                            c.name,
                            serde_json::to_string(&c.arguments).unwrap()
                        )
                    })
                    .collect();
                let want: Vec<String> = calls
                    .iter()
                    .map(|c| format!("{} {}", c.name, c.arguments))
                    .collect();
                wrong.push(format!("calls {shown:?}, expected {want:?}"));
            }
        }
        if let Some(codes) = &expected.codes {
            let actual = harness::codes(&completion);
            if actual != *codes {
                wrong.push(format!("codes {actual:?}, expected {codes:?}"));
            }
        }
        if let Some(ids) = &expected.ids {
            let actual: Vec<&str> = completion
                .tool_calls
                .iter()
                .map(|c| c.id.as_str())
                .collect();
            if actual != *ids {
                wrong.push(format!("ids {actual:?}, expected {ids:?}"));
            }
        }
        let codes = harness::codes(&completion);
        for code in &expected.has_codes {
            if !codes.contains(&code.as_str()) {
                wrong.push(format!("codes {codes:?} without {code:?}"));
            }
        }
        if let Some(incomplete) = expected.incomplete {
            if completion.incomplete_calls.len() != incomplete {
                wrong.push(format!(
                    "{} incomplete calls, expected {incomplete}: {:?}",
                    completion.incomplete_calls.len(),
                    completion.incomplete_calls
                ));
            }
        }
        if !wrong.is_empty() {
            return Err(format!("[{name}] completion: {}", wrong.join("; ")));
        }
    }
    Ok(())
}

/// A unified diff of two rendered logs (`-` expected, `+` actual).
fn diff(expected: &[String], actual: &[String]) -> String {
    let expected = expected.join("\n") + "\n";
    let actual = actual.join("\n") + "\n";
    TextDiff::from_lines(&expected, &actual)
        .unified_diff()
        .header("expected", "actual")
        .to_string()
}

/// The first event whose span or other unrendered field differs, when the renderings agree.
fn spans(expected: &EventLog, actual: &EventLog) -> String {
    let at = expected
        .events
        .iter()
        .zip(&actual.events)
        .position(|(e, a)| e != a);
    match at {
        Some(k) => format!(
            " (the same rendering; event {k} differs)\n  expected {:?}\n  actual   {:?}",
            expected.events[k], actual.events[k]
        ),
        None => format!(
            " (the same rendering; {} events expected, {})",
            expected.events.len(),
            actual.events.len()
        ),
    }
}

/// Rewrites the log blocks of `text` with the blessed logs, last block first so the line
/// ranges of earlier ones stay valid.
fn write_blessed(path: &Path, text: &str, mut blessed: Vec<(&Case, Vec<String>)>) {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    blessed.sort_by_key(|(case, _)| std::cmp::Reverse(case.log_lines.start));
    for (case, log) in blessed {
        let range = case.log_lines.clone();
        if case.log.is_some() {
            lines.splice(range, log);
        } else {
            let block = ["".to_owned(), "```log".to_owned()]
                .into_iter()
                .chain(log)
                .chain(["```".to_owned()]);
            lines.splice(range, block);
        }
    }
    std::fs::write(path, lines.join("\n") + "\n")
        .unwrap_or_else(|e| panic!("{}: cannot write: {e}", path.display()));
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases")
}

/// `path` relative to the repository, as a failure names it.
fn shown(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// One test per case file (so files run in parallel), and a test that none is left out.
macro_rules! case_files {
    ($($test:ident => $file:literal,)*) => {
        $(
            #[test]
            fn $test() {
                run_file($file);
            }
        )*
        /// Every `*.md` file but the README has its test above.
        #[test]
        fn every_case_file_is_run() {
            let mut found: Vec<String> = std::fs::read_dir(dir())
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .filter(|n| n.ends_with(".md") && n != "README.md")
                .collect();
            found.sort();
            let mut listed = vec![$($file),*];
            listed.sort_unstable();
            assert_eq!(found, listed, "a case file without a test in tests/cases.rs");
        }
    };
}

case_files! {
    anthropic => "anthropic.md",
    conformance => "conformance.md",
    deepseek => "deepseek.md",
    deepseek_v41 => "deepseek_v41.md",
    dots => "dots.md",
    functiongemma => "functiongemma.md",
    minicpm5 => "minicpm5.md",
    muse => "muse.md",
    mimo => "mimo.md",
    step3 => "step3.md",
    gigachat35 => "gigachat35.md",
    dsml => "dsml.md",
    gemini => "gemini.md",
    gemma => "gemma.md",
    glm => "glm.md",
    hunyuan => "hunyuan.md",
    iquest_q1 => "iquest_q1.md",
    k2_horizon => "k2_horizon.md",
    kimi_k3 => "kimi_k3.md",
    minimax_m3 => "minimax_m3.md",
    granite => "granite.md",
    internlm => "internlm.md",
    lfm2 => "lfm2.md",
    llama3_json => "llama3_json.md",
    longcat => "longcat.md",
    harmony => "harmony.md",
    jamba => "jamba.md",
    minimax => "minimax.md",
    mistral => "mistral.md",
    phi4_mini => "phi4_mini.md",
    hunyuan_a13b => "hunyuan_a13b.md",
    cohere => "cohere.md",
    apertus => "apertus.md",
    ernie45 => "ernie45.md",
    granite_20b_fc => "granite_20b_fc.md",
    gigachat3 => "gigachat3.md",
    plamo3 => "plamo3.md",
    pythonic => "pythonic.md",
    qwen3_coder => "qwen3_coder.md",
    seed_oss => "seed_oss.md",
    special_tokens => "special_tokens.md",
    xlam => "xlam.md",
    xml => "xml.md",
}

/// A malformed file is a clear error naming the line, not a panic inside the reader.
#[test]
fn malformed_files_name_the_line() {
    let cases = [
        ("# t\n## c\n```input\nx\n", 3, "never closed"),
        ("# t\n## c\n```json\nx\n```\n", 3, "unknown block `json`"),
        ("# t\n<!-- dialect: nope -->\n", 2, "unknown dialect `nope`"),
        ("# t\n## c\n```input\nx\n```\n", 2, "no `dialect:`"),
        (
            "# t\n<!-- dialect: xml -->\n## c\n```log\nT\"x\"\n```\n",
            4,
            "before the input",
        ),
        (
            "# t\n<!-- dialect: xml -->\n## c\n```input\nx\n```\n```log\nT\"x\"\n\n```\n",
            9,
            "blank line",
        ),
        (
            "# t\n## c\n<!-- options: max_calls=two -->\n",
            3,
            "bad value `two`",
        ),
        (
            "# t\n## s\n<!-- tokens: kimi -->\n## c\n",
            2,
            "without an input block",
        ),
        (
            "# t\n## c\n```input-escaped\n\\q\n```\n",
            3,
            "bad escape `\\q`",
        ),
        ("# t\n<!-- note -->\n", 2, "not `<!-- key: value -->`"),
    ];
    for (text, line, message) in cases {
        let error = format::parse(text).expect_err(text);
        assert_eq!(error.line, line, "{text:?}: {error:?}");
        assert!(error.message.contains(message), "{text:?}: {error:?}");
    }
}

/// Every key of a completion block, read as written.
#[test]
fn the_reader_decodes_completion_blocks() {
    let text = "# t\n<!-- dialect: xml -->\n## c\n```input\nx\n```\n```completion\n\
        content: \"a\\nb\"\nreasoning: none\ncall: f {\"k\": 1}\ncall-text: g {}\n\
        codes: x y\nhas-code: x\nhas-code: y\nids: i1 i2\nincomplete: 2\n```\n";
    let cases = format::parse(text).unwrap();
    let expected = cases[0].completion.as_ref().unwrap();
    assert_eq!(expected.content.as_deref(), Some("a\nb"));
    assert_eq!(expected.reasoning, Some(None));
    let calls = expected.calls.as_ref().unwrap();
    let calls: Vec<_> = calls
        .iter()
        .map(|c| (c.name.as_str(), c.arguments.as_str(), c.exact))
        .collect();
    assert_eq!(calls, [("f", "{\"k\": 1}", false), ("g", "{}", true)]);
    assert_eq!(
        expected.codes.as_deref(),
        Some(&["x".to_owned(), "y".to_owned()][..])
    );
    assert_eq!(expected.has_codes, ["x", "y"]);
    assert_eq!(
        expected.ids.as_deref(),
        Some(&["i1".to_owned(), "i2".to_owned()][..])
    );
    assert_eq!(expected.incomplete, Some(2));
    let bad =
        "# t\n<!-- dialect: xml -->\n## c\n```input\nx\n```\n```completion\ncontent: x\n```\n";
    let error = format::parse(bad).unwrap_err();
    assert_eq!(error.line, 8);
    assert!(error.message.contains("not a JSON string"), "{error:?}");
}

/// `...` in a log block: any run of events, none included, anywhere.
#[test]
fn patterns_match_any_run() {
    let log: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
    let pattern = |p: &str| p.split(' ').map(String::from).collect::<Vec<_>>();
    for yes in [
        "a ...",
        "... d",
        "... b c ...",
        "a ... d",
        "... a b c d",
        "a ... b ... d",
        "...",
    ] {
        assert!(format::matches(&pattern(yes), &log), "{yes}");
    }
    for no in [
        "b ...",
        "... c",
        "... c b ...",
        "a b c d e ...",
        "a b c",
        "... x ...",
    ] {
        assert!(!format::matches(&pattern(no), &log), "{no}");
    }
}

/// The reader's decoding: escapes, fences longer than three, several dialects, options and
/// tokens, and where a missing log block goes.
#[test]
fn the_reader_decodes_inputs_and_settings() {
    let text = "# t\n<!-- dialect: hermes qwen3 -->\n<!-- tokens: kimi -->\n\n\
        ## a\n<!-- options: starts_in_reasoning, max_calls=2 -->\n````input\n```x\n[S]\n````\n\n\
        ## b\n<!-- tokens: none -->\n<!-- dialect: xml -->\n```input-escaped\na\\x20\\n\nb\\u{e9}\\\\\n```\n\
        ```log\nT\"x\"\n```\n";
    let cases = format::parse(text).unwrap();
    assert_eq!(cases.len(), 2);
    let (a, b) = (&cases[0], &cases[1]);
    assert_eq!((a.heading.as_str(), a.line), ("a", 5));
    assert_eq!(
        a.dialects,
        [inband::Dialect::Hermes, inband::Dialect::Qwen3]
    );
    assert!(a.options.starts_in_reasoning);
    assert_eq!(a.options.max_calls, 2);
    assert_eq!(a.input, "```x\n<|tool_calls_section_begin|>".as_bytes());
    assert_eq!((a.log.as_ref(), a.log_lines.clone()), (None, 10..10));
    assert_eq!(b.dialects, [inband::Dialect::Xml]);
    assert_eq!(b.options, inband::Options::default());
    assert_eq!(b.input, "a \nbé\\".as_bytes());
    assert_eq!(b.log.as_deref(), Some(&["T\"x\"".to_owned()][..]));
    assert_eq!(b.log_lines, 19..20);
}
