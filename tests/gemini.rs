//! Gemini (`tool_code`) scanning behaviours: docs/seed.md §2.10, §2.10.1, §5.2 (items
//! 1–11) and §5.3 (items 6–18, 35), as amended by docs/dialects.md (docs/seed.md B8 and B20 fixed),
//! pinned as exact values. Every input also goes through the chunking harness, so each
//! behaviour holds for every split.

use inband::{CallEnd, Dialect, Options};
use inband_alloc::assemble::{assemble, AssembleOptions, Completion};
use inband_alloc::stream::DeltaStream;
use serde_json::{json, Value};

use crate::harness;
use crate::harness::codes;

fn scan_with(options: Options, input: &str) -> Vec<String> {
    harness::scan(Dialect::Gemini, options, input)
}

fn scan(input: &str) -> Vec<String> {
    scan_with(Options::default(), input)
}

/// The completion of `input` with `options`, the same whole and one byte at a time, after
/// the chunking harness has checked the events.
fn complete_with(options: &AssembleOptions, input: &str) -> Completion {
    harness::completion_bytewise(Dialect::Gemini, Options::default(), options, input)
}

fn complete(input: &str) -> Completion {
    complete_with(&AssembleOptions::seeded(5), input)
}

/// The complete calls of `input` as (name, arguments).
fn calls(input: &str) -> Vec<(String, Value)> {
    harness::calls(&complete(input))
}

fn one(name: &str, arguments: Value) -> Vec<(String, Value)> {
    vec![(name.to_owned(), arguments)]
}

fn block(body: &str) -> String {
    format!("```tool_code\n{body}\n```")
}

/// docs/seed.md §5.2 items 2–4: the callee is the last dotted segment; assignments are markup;
/// every literal type; brackets inside strings are data.
#[test]
fn call_forms_and_literals() {
    let search = one("search", json!({"pattern": "x"}));
    assert_eq!(calls(&block("default_api.search(pattern=\"x\")")), search);
    assert_eq!(calls(&block("result = search(pattern=\"x\")")), search);
    assert_eq!(
        calls(&block(
            "default_api.f(s=\"hi\", n=3, r=1.5, b=True, z=None, arr=[1, 2], obj={\"k\": \"v\"})"
        )),
        one(
            "f",
            json!({"s": "hi", "n": 3, "r": 1.5, "b": true, "z": null, "arr": [1, 2], "obj": {"k": "v"}})
        )
    );
    assert_eq!(
        calls(&block(
            "default_api.search(pattern=\"foo(a, b)\", flag=False)"
        )),
        one("search", json!({"pattern": "foo(a, b)", "flag": false}))
    );
    assert_eq!(
        calls(&block(
            "f(t=(1, 'a'), j=[true, null], u=u'x', e=[], d={}, x=-0x10, y=1_000.5)"
        )),
        one(
            "f",
            json!({"t": [1, "a"], "j": [true, null], "u": "x", "e": [], "d": {}, "x": -16, "y": 1000.5})
        )
    );
}

/// docs/seed.md §5.2 item 5: comments, a raw string, `\U` escapes, a trailing comma, and a list of
/// calls after a call, in one block.
#[test]
fn comments_raw_strings_and_several_statements() {
    let body = [
        "# default_api.write(path=\"ignored\")",
        "result = read(",
        "  path=r\"src/(foo)\\.ts\", # default_api.write(path=\"ignored\")",
        "  count=2,",
        "  meta={\"emoji\": \"\\U0001F600\"},",
        ")",
        "[default_api.write(path=\"out\", content=\"foo(,bar\")]",
    ]
    .join("\n");
    assert_eq!(
        calls(&block(&body)),
        vec![
            (
                "read".to_owned(),
                json!({"path": "src/(foo)\\.ts", "count": 2, "meta": {"emoji": "😀"}})
            ),
            (
                "write".to_owned(),
                json!({"path": "out", "content": "foo(,bar"})
            ),
        ]
    );
}

/// docs/seed.md §5.2 items 6, 7 and 9: a list of calls; prose around the block; the seed's
/// rendering of two calls.
#[test]
fn parallel_calls_and_prose() {
    let two = vec![
        ("read".to_owned(), json!({"path": "a"})),
        ("write".to_owned(), json!({"path": "b", "content": "c"})),
    ];
    let rendered =
        block("[default_api.read(path=\"a\"), default_api.write(path=\"b\", content=\"c\")]");
    assert_eq!(calls(&rendered), two);
    // One call per line works too.
    assert_eq!(
        calls(&block(
            "default_api.read(path=\"a\")\ndefault_api.write(path=\"b\", content=\"c\")"
        )),
        two
    );
    let completion = complete("before\n```tool_code\ndefault_api.read(path=\"a\")\n```\nafter");
    assert_eq!(completion.content, "before\n\nafter");
    assert_eq!(completion.tool_calls.len(), 1);
    assert!(completion.diagnostics.is_empty());
}

/// docs/seed.md B20: a positional argument makes a call not a tool call; a statement that is not a
/// call makes the rest of the block text; neither is silent.
#[test]
fn only_keyword_calls_are_calls() {
    for (body, code) in [
        ("x = foo(1)", "positional_argument"),
        ("default_api.read(\"a.ts\")", "positional_argument"),
        ("f(a == 1)", "positional_argument"),
        ("import os\nprint(os.getcwd())", "not_a_call"),
        ("x = 5", "not_a_call"),
        ("", "not_a_call"),
    ] {
        let input = block(body);
        let completion = complete(&input);
        assert!(completion.tool_calls.is_empty(), "{body}");
        assert_eq!(completion.content, input, "{body}: the block stays text");
        assert_eq!(completion.diagnostics[0].code, code, "{body}");
    }
    // Calls before the statement that is not one stay calls.
    let completion = complete(&block("default_api.read(path=\"a\")\nx.y = 1"));
    assert_eq!(completion.tool_calls.len(), 1);
    assert_eq!(completion.content, "x.y = 1\n```");
    let codes: Vec<&str> = completion.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["not_a_call"]);
    // A later call that breaks is text from its statement on.
    let completion = complete(&block(
        "default_api.read(path=\"a\")\ndefault_api.write(\"b\")",
    ));
    assert_eq!(completion.tool_calls.len(), 1);
    assert_eq!(completion.content, "default_api.write(\"b\")\n```");
}

/// Unknown names are calls with a diagnostic when a tool list is given (rule 9).
#[test]
fn unknown_tools_are_reported() {
    let mut options = AssembleOptions::seeded(1);
    options.tools = Some(vec!["read".to_owned()].into());
    let completion = complete_with(&options, &block("default_api.delete_all(confirm=True)"));
    assert_eq!(completion.tool_calls[0].name, "delete_all");
    assert_eq!(completion.diagnostics[0].code, "unknown_tool");
}

/// Rule 3: a call cut off is incomplete; a block whose calls completed lacks only its fence.
#[test]
fn cut_off_calls() {
    let log = harness::check(
        Dialect::Gemini,
        Options::default(),
        b"```tool_code\ndefault_api.write(content=\"abc",
    );
    assert_eq!(harness::ends(&log), [CallEnd::Incomplete]);
    let completion = complete("```tool_code\ndefault_api.write(content=\"abc");
    assert!(completion.tool_calls.is_empty());
    assert_eq!(completion.content, "");
    assert_eq!(
        completion.incomplete_calls[0].arguments,
        "{\"content\":\"abc"
    );
    let log = scan("```tool_code\ndefault_api.f(a=1)\n");
    assert_eq!(
        log[log.len() - 3..],
        ["X0:Complete", "E\"\\n\"", "D:missing_closer"]
    );
}

/// Rule 5: a results fence is a fabricated result only in content.
#[test]
fn fabricated_results() {
    assert_eq!(
        scan("x\n```tool_outputs\n{}"),
        ["T\"x\\n\"", "<ResultOpen>", "F", "T\"\\n{}\""]
    );
    let completion = complete(&block("f(s=\"```tool_outputs\\n\")"));
    assert!(completion.diagnostics.is_empty());
    assert_eq!(completion.tool_calls.len(), 1);
}

/// docs/seed.md §5.3 items 6–14 and §2.10.1: the fence-aware close of a reasoning block.
#[test]
fn fenced_reasoning() {
    let completion = complete("```thinking\nreasoning\n```\nVisible answer.");
    assert_eq!(completion.reasoning.as_deref(), Some("reasoning"));
    assert_eq!(completion.content, "Visible answer.");
    assert_eq!(
        scan("```thinking\nPlan:\n```rs\nfn main() {}\n```\nThen decide.\n```Visible after"),
        [
            "<ReasoningOpen>",
            "R+",
            "R\"Plan:\\n```rs\\nfn main() {}\\n```\\nThen decide.\\n\"",
            "<ReasoningClose>",
            "R-",
            "T\"Visible after\"",
        ]
    );
    for suffix in ["Visible after", " after", "Done", "\nreply", ""] {
        let log = scan(&format!("```thinking\nplan\n```{suffix}"));
        assert_eq!(log[2], "R\"plan\\n\"", "{suffix:?}");
        assert_eq!(log.iter().filter(|e| *e == "R+").count(), 1);
        assert_eq!(log.iter().filter(|e| *e == "R-").count(), 1);
        let completion = complete(&format!("```thinking\nplan\n```{suffix}"));
        assert_eq!(completion.content, suffix.trim(), "{suffix:?}");
    }
    // Tilde fences nest too; an indented fence is text; a fence mid-line is text.
    let completion = complete("```thinking\n~~~\n```\n~~~\n    ```\nuse ``` here\n```rest");
    assert_eq!(
        completion.reasoning.as_deref(),
        Some("~~~\n```\n~~~\n    ```\nuse ``` here")
    );
    assert_eq!(completion.content, "rest");
    // The end of the stream closes an unclosed block (docs/seed.md §5.3 item 35).
    let log = scan("```thinking\npartial");
    assert_eq!(log[2..], ["R\"partial\"", "D:unclosed_reasoning", "R-"]);
}

/// docs/seed.md §5.3 items 16–17: reasoning, then a call.
#[test]
fn reasoning_then_a_call() {
    let completion =
        complete("```thinking\nplan\n```\n```tool_code\nprint(default_api.foo(x=1))\n```");
    assert_eq!(completion.reasoning.as_deref(), Some("plan"));
    assert_eq!(completion.tool_calls[0].name, "foo");
}

/// Rule 7: a tool_code block inside reasoning is a draft until the reasoning closes; when
/// it never closes, it is a call.
#[test]
fn calls_inside_reasoning() {
    let draft = "```thinking\nmaybe\n```tool_code\ndefault_api.f(a=1)\n```\nno\n```\nok";
    let completion = complete(draft);
    assert!(completion.tool_calls.is_empty());
    assert_eq!(
        completion.reasoning.as_deref(),
        Some("maybe\n```tool_code\ndefault_api.f(a=1)\n```\nno")
    );
    assert_eq!(completion.content, "ok");
    let kept = complete("```thinking\nnow\n```tool_code\ndefault_api.f(a=1)\n```\n");
    assert_eq!(kept.tool_calls.len(), 1);
    assert_eq!(kept.reasoning.as_deref(), Some("now"));
}

/// Limits: the argument budget ends the call on the same byte whatever the chunking.
#[test]
fn limits() {
    let mut options = Options::default();
    options.max_argument_bytes = 24;
    let log = scan_with(options, &block("default_api.f(a='0123456789abcdef')"));
    assert!(log.contains(&"D:arguments_too_long".to_owned()), "{log:?}");
    assert!(log.contains(&"X0:Invalid".to_owned()));
    options.max_argument_bytes = 1 << 20;
    options.max_calls = 1;
    let log = scan_with(options, &block("f(a=1)\ng(b=2)"));
    assert!(log.contains(&"D:too_many_calls".to_owned()), "{log:?}");
}

/// Found by fuzzing: a comment before a value, then blanks, are the value's.
#[test]
fn comment_before_a_value() {
    assert_eq!(
        calls(&block("f(a=# the count\n  2)")),
        one("f", json!({"a": 2}))
    );
    let completion = complete(&block("f(a=1, b= # none\n)"));
    assert!(completion.tool_calls.is_empty());
    assert_eq!(completion.diagnostics[0].code, "malformed_call");
}

/// Found by fuzzing: the argument budget of a call that opens mid-chunk applies from its
/// `(` whatever the chunking.
#[test]
fn budget_of_a_later_call() {
    let mut options = Options::default();
    options.max_argument_bytes = 8;
    let log = scan_with(options, &block("f(a=1)\ng(b='0123456789')"));
    assert_eq!(
        log.iter()
            .filter(|e| e.starts_with('X'))
            .collect::<Vec<_>>(),
        ["X0:Complete", "X1:Invalid"]
    );
    assert!(log.contains(&"D:arguments_too_long".to_owned()), "{log:?}");
}

/// The first call's argument deltas joined, after checking that every chunk size from 1 to
/// 7 joins to the same text as the whole feed.
fn streamed(input: &str) -> String {
    let run = |size: usize| {
        let mut scanner = inband::Scanner::new(Dialect::Gemini, Options::default());
        let mut stream = DeltaStream::new(Dialect::Gemini, &AssembleOptions::seeded(1));
        let mut arguments = String::new();
        for chunk in input.as_bytes().chunks(size) {
            scanner.feed(chunk, &mut stream).unwrap();
            for call in stream.take_delta().tool_calls {
                arguments.push_str(&call.arguments);
            }
        }
        scanner.finish(&mut stream).unwrap();
        for call in stream.finish().0.tool_calls {
            arguments.push_str(&call.arguments);
        }
        arguments
    };
    let whole = run(input.len());
    for size in 1..=7 {
        assert_eq!(run(size), whole, "{size}-byte chunks of {input:?}");
    }
    whole
}

/// Found by review: `\N{NAME}` escapes need Unicode's name table, which is not carried:
/// the escape is kept as written, with a diagnostic, never silently.
#[test]
fn named_escapes_are_kept_with_a_diagnostic() {
    for (value, kept) in [
        (r"'\N{BULLET} x'", r"\N{BULLET} x"),
        (
            r"'\N{latin small letter e with acute}'",
            r"\N{latin small letter e with acute}",
        ),
        (r"'\Nx'", r"\Nx"),
        (r"'\N{BULLET'", r"\N{BULLET"),
        (r"'\N{A\x41}'", r"\N{AA}"),
    ] {
        let input = block(&format!("f(a={value})"));
        assert_eq!(calls(&input), one("f", json!({ "a": kept })), "{value}");
        assert_eq!(codes(&complete(&input)), ["repaired_arguments"], "{value}");
    }
}

/// Issue 11: a number is the model's text, however long: an integer beyond 64 bits, a
/// long decimal and an exponent beyond f64 stream and parse unchanged, without a
/// diagnostic (nothing was rounded).
#[test]
fn numbers_beyond_64_bits_stay_exact() {
    let input = block("f(a=123456789012345678901234567890, b=0.1000000000000000000001, c=1e999)");
    assert_eq!(
        streamed(&input),
        r#"{"a":123456789012345678901234567890,"b":0.1000000000000000000001,"c":1e999}"#
    );
    assert_eq!(codes(&complete(&input)), Vec::<&str>::new());
    let input = block("f(a=18446744073709551615, b=-9223372036854775808, c=0xFFFF_FFFF)");
    assert_eq!(
        streamed(&input),
        r#"{"a":18446744073709551615,"b":-9223372036854775808,"c":4294967295}"#
    );
    assert!(complete(&input).diagnostics.is_empty());
}

/// Found by review: parentheses without a comma only group (`(1)` is `1`, not `[1]`); with
/// one, or empty, they are a tuple. The arguments still stream as their final JSON text.
#[test]
fn parentheses_group_or_make_tuples() {
    let input = block(
        r#"f(a=(1), b=("x"), c=((1, 2)), d=(), e=((),), g=(1,), h=[(1), (2, 3)], i={"k": (("v"))})"#,
    );
    let arguments =
        r#"{"a":1,"b":"x","c":[1,2],"d":[],"e":[[]],"g":[1],"h":[1,[2,3]],"i":{"k":"v"}}"#;
    assert_eq!(streamed(&input), arguments);
    assert_eq!(
        calls(&input),
        one("f", serde_json::from_str(arguments).unwrap())
    );
    assert!(complete(&input).diagnostics.is_empty());
}

/// Found by review: a value that is not a literal (a subscript or method call on a literal,
/// a lambda, a set, a dict entry without its key or value, an empty element, brackets that
/// do not match, a token right after a complete literal, a container as a dict key,
/// nesting beyond 64) made a "complete" call with invalid arguments, whose block lost its
/// closing fence from the text. The call is now malformed where its value breaks, and the
/// whole block stays text.
#[test]
fn values_that_are_not_literals() {
    let deep = format!("{}1{}", "[".repeat(65), "]".repeat(65));
    for value in [
        "[1, 2][0]",
        r#""x".upper()"#,
        "lambda: 1",
        "{1, 2}",
        r#"{"k"}"#,
        r#"{"k": }"#,
        "{: 1}",
        r#"{"k": 1: 2}"#,
        "[1, , 2]",
        "[, 1]",
        "[1: 2]",
        "[1, 2)",
        "(1, 2]",
        r#"{"k": 1]"#,
        "{(1, 2): 3}",
        "{[1]: 3}",
        r#""x" if c else "y""#,
        r#"1 "x""#,
        "x r'y'",
        r#""x" y"#,
        "(1) 2",
        "[1] [2]",
        "x (1)",
        "not [1]",
        &deep,
    ] {
        let input = block(&format!("f(a={value}, b=1)"));
        let completion = complete(&input);
        assert!(completion.tool_calls.is_empty(), "{value}");
        assert_eq!(completion.content, input, "{value}");
        assert_eq!(codes(&completion), ["malformed_call"], "{value}");
    }
    // Where it breaks: the value as lexed up to the offending byte, then text (a
    // consumer takes the call's bytes back as text at `X0:Invalid`).
    assert_eq!(
        scan(&block("f(a=[1][0])")),
        [
            "<CallOpen>",
            "E\"\\nf\"",
            "S0:f",
            "E\"(a=\"",
            "P0:a:python",
            "V0:Punct\"[\"",
            "V0:Bare\"1\"",
            "V0:Punct\"]\"",
            "D:malformed_call",
            "X0:Invalid",
            "T\"[0])\\n```\"",
        ]
    );
    // 64 levels are fine.
    let deep = format!("{}1{}", "[".repeat(64), "]".repeat(64));
    assert_eq!(calls(&block(&format!("f(a={deep})"))).len(), 1);
}

/// Found by review: a call, subscript or attribute on a name is one expression, kept as
/// its text with a diagnostic, whatever follows it (another call, a subscript, `.attr`,
/// more words).
#[test]
fn expressions_on_names_are_their_text() {
    let input = block(
        r#"f(a=g(x).y, b=g(x)(y), c=x[0][1], d=g(x) if y else z, e=os.path.join("a", "b"), h={g(x): [k[1]]})"#,
    );
    assert_eq!(
        streamed(&input),
        r#"{"a":"g(x).y","b":"g(x)(y)","c":"x[0][1]","d":"g(x) if y else z","e":"os.path.join(\"a\", \"b\")","h":{"g(x)":["k[1]"]}}"#
    );
    assert_eq!(codes(&complete(&input)), ["repaired_arguments"]);
}

/// Found by review: with CRLF line breaks, a ```` ```thinking ```` block was not reasoning
/// (its opener required `\n`), although CRLF tool_code blocks and fence lines worked.
#[test]
fn crlf_line_breaks() {
    let completion = complete("```thinking\r\nplan\r\n```\r\n```tool_code\r\nf(a=1)\r\n```\r\nok");
    assert_eq!(completion.reasoning.as_deref(), Some("plan"));
    assert_eq!(completion.content, "ok");
    assert_eq!(completion.tool_calls.len(), 1);
    assert!(completion.diagnostics.is_empty());
    assert_eq!(
        scan("```thinking\r\nx\r\n```\r\ny"),
        [
            "<ReasoningOpen>",
            "R+",
            "R\"x\\r\\n\"",
            "<ReasoningClose>",
            "E\"\\r\"",
            "R-",
            "T\"\\ny\"",
        ]
    );
    let completion = complete("```tool_output\r\n{}\r\n```");
    assert_eq!(codes(&completion), ["fabricated_result"]);
}

/// Found by review: a statement that is not a call, after a call, lost its start from the
/// text: its `print(` or `[` had gone out as the block's markup (`print("x")` came back as
/// `"x")`). A statement's bytes now belong to a call slot from its first byte, so the
/// whole statement is text; one cut off by the end of the stream is an incomplete call.
#[test]
fn a_statement_that_is_not_a_call_is_text_from_its_start() {
    for statement in [
        "print(\"x\")",
        "print(1)",
        "[1, 2]",
        "x = [1]",
        "x = y",
        "[",
    ] {
        let completion = complete(&block(&format!("f(a=1)\n{statement}")));
        assert_eq!(completion.tool_calls.len(), 1, "{statement}");
        assert_eq!(
            completion.content,
            format!("{statement}\n```"),
            "{statement}"
        );
        assert_eq!(codes(&completion), ["not_a_call"], "{statement}");
    }
    assert_eq!(
        scan(&block("f(a=1)\nprint(2)")),
        [
            "<CallOpen>",
            "E\"\\nf\"",
            "S0:f",
            "E\"(a=\"",
            "P0:a:python",
            "V0:Bare\"1\"",
            "P-0",
            "E\")\"",
            "X0:Complete",
            "E\"\\nprint(\"",
            "S1:",
            "D:not_a_call",
            "X1:Invalid",
            "T\"2)\\n```\"",
        ]
    );
    // Cut off: the second statement is an incomplete call, the first stays complete.
    let completion = complete("```tool_code\nf(a=1)\ndefault_ap");
    assert_eq!(completion.tool_calls.len(), 1);
    assert_eq!(completion.incomplete_calls.len(), 1);
    assert_eq!(completion.incomplete_calls[0].name, None);
    assert_eq!(codes(&completion), ["truncated_call"]);
    // Only blanks after the last call: the block lacks its fence, nothing more.
    assert_eq!(
        codes(&complete("```tool_code\nf(a=1)\n  \n")),
        ["missing_closer"]
    );
}

/// Found by review: an assignment of a list of calls (`results = [a(…), b(…)]`) was not a
/// call, though both forms are.
#[test]
fn assignment_of_a_list_of_calls() {
    assert_eq!(
        calls(&block("results = [default_api.a(x=1),\n    b(y=2)]")),
        vec![
            ("a".to_owned(), json!({"x": 1})),
            ("b".to_owned(), json!({"y": 2})),
        ]
    );
    let input = block("x = [1, 2]");
    let completion = complete(&input);
    assert_eq!(completion.content, input);
    assert_eq!(codes(&completion), ["not_a_call"]);
}

/// Found while reviewing the literal dialects: a JSON-bodied call whose arguments hold an
/// integer beyond 64 bits (valid JSON) is a call, and the parsed number keeps every digit
/// (issue 11), as the literal dialects' numbers do.
#[test]
fn hermes_call_with_an_integer_beyond_64_bits() {
    let input =
        r#"<tool_call>{"name":"f","arguments":{"a":123456789012345678901234567890}}</tool_call>"#;
    let completion = assemble(
        Dialect::Hermes,
        Options::default(),
        &AssembleOptions::seeded(1),
        vec![input.as_bytes()],
    );
    assert_eq!(completion.tool_calls.len(), 1, "{completion:?}");
    assert_eq!(completion.content, "");
    let arguments = serde_json::to_string(&completion.tool_calls[0].arguments).unwrap();
    assert_eq!(arguments, r#"{"a":123456789012345678901234567890}"#);
}
