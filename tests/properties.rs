//! Property tests: inputs assembled from the pieces real outputs are made of (delimiters,
//! JSON envelope fragments, escapes, prose, non-ASCII, stop tokens), scanned in random
//! chunkings, give the same joined events as the whole feed and account for every byte.
//! `PROPTEST_CASES` sets the number of cases.

use inband::{Dialect, Options};
use inband_alloc::events::EventLog;
use proptest::prelude::*;

use crate::harness;

pub(crate) const PIECES: &[&str] = &[
    "<tool_call>",
    "</tool_call>",
    "<think>",
    "</think>",
    "<tool_response>",
    "<|im_end|>",
    "<tool_ca",
    "</thi",
    "<",
    "{\"name\": \"read\", \"arguments\": ",
    "{\"arguments\": ",
    ", \"name\": \"f\"",
    "{\"path\": \"a\\\"b\"}",
    "{\"a\": [1, {\"b\": \"}\"}]}",
    "\"{\\\"x\\\": 1}\"",
    "}",
    "{",
    "\"",
    "\\",
    "'",
    "```json\n",
    "```",
    "\n",
    "  ",
    "prose ",
    "é",
    "城堡",
    "🦀",
    "True",
    ",",
    "42",
    "<|tool_call>",
    "call:f",
    "{a:",
    "<|\"|>",
    "<|\"|",
    "<tool_call|>",
    "<|channel>thought\n",
    "<channel|>",
    "<turn|>",
    "<|tool_response>",
    "[",
    "]",
    ":",
    "(",
    ")",
    "=",
    "x=1",
    "```tool_code\n",
    "```thinking\n",
    "```",
    "\n```\n",
    "~~~",
    "default_api.f(",
    "print(",
    "a='x'",
    "\"\"\"",
    "#",
    "r'",
    "[default_api.g(b=1), ",
    "```tool_outputs\n",
    "<function_calls>",
    "</function_calls>",
    "<minimax:tool_call>",
    "</minimax:tool_call>",
    "<invoke name=\"f\">",
    "</invoke>",
    "<parameter name=\"k\">",
    "</parameter>",
    "</k>",
    "<function=f>",
    "</function>",
    "<parameter=k>",
    "\n<parameter",
    "</",
    "[e~[",
    "<arg_key>",
    "</arg_key>",
    "<arg_value>",
    "</arg_value>",
    "<|observation|>",
];

fn input() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(PIECES), 0..40)
        .prop_map(|pieces| pieces.concat().into_bytes())
}

proptest! {
    #[test]
    fn random_chunkings_give_the_same_events(
        input in input(),
        sizes in prop::collection::vec(1usize..9, 1..8),
        dialect in prop::sample::select(Dialect::ALL),
        starts_in_reasoning in any::<bool>(),
        max_argument_bytes in prop::sample::select(&[64 << 20, 0, 1, 8, 64][..]),
        max_calls in prop::sample::select(&[1024, 0, 1, 2][..]),
    ) {
        let mut options = Options::default();
        options.starts_in_reasoning = starts_in_reasoning;
        options.max_argument_bytes = max_argument_bytes;
        options.max_calls = max_calls;
        let whole = EventLog::scan(dialect, options, [&input[..]]);
        harness::check_log(&whole, &input);
        let chunks = harness::chunked(&input, &sizes);
        let chunked = EventLog::scan(dialect, options, chunks);
        prop_assert_eq!(chunked, whole);
    }

    #[test]
    fn arbitrary_bytes_never_break_the_invariants(
        input in prop::collection::vec(any::<u8>(), 0..256),
        size in 1usize..7,
        dialect in prop::sample::select(Dialect::ALL),
    ) {
        let (whole, chunked) = harness::whole_and_chunked(dialect, Options::default(), &input, &[size]);
        prop_assert_eq!(chunked, whole);
    }
}

/// Text that breaks naive parsers: quotes, backslashes, newlines, fences, brackets, markup,
/// escapes written out, non-ASCII.
const STRING_PIECES: &[&str] = &[
    "a",
    "word ",
    " ",
    "\"",
    "'",
    "\\",
    "\n",
    "\t",
    "\r",
    "\u{7}",
    "```",
    "```tool_code\n",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    ",",
    ":",
    "=",
    "<",
    "|",
    ">",
    "<tool_call|>",
    "<|tool_call>",
    "é",
    "城",
    "🦀",
    "\\n",
    "\\u00e9",
    "#",
    "'''",
    "\"\"\"",
    "<|\"|",
    "True",
    "None",
    "1.5",
];

/// Keys as literal dialects write them unquoted.
fn key() -> impl Strategy<Value = String> {
    "[a-z_][a-z0-9_]{0,7}"
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(STRING_PIECES), 0..8).prop_map(|p| p.concat())
}

/// Argument values: every JSON type, nested, with strings from `text`.
fn value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e300f64..1e300).prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(key(), inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn arguments() -> impl Strategy<Value = Vec<(String, serde_json::Value)>> {
    prop::collection::btree_map(key(), value(), 0..5).prop_map(|m| m.into_iter().collect())
}

/// Gemma's canonical rendering (docs/seed.md §2.11 (a)), strings between `quote` tokens
/// (`<|"|>`, FunctionGemma's `<escape>`); strings hold no quote token.
fn gemma(value: &serde_json::Value, quote: &str) -> String {
    use serde_json::Value;
    match value {
        Value::String(s) => format!("{quote}{s}{quote}"),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(|item| gemma(item, quote)).collect();
            format!("[{}]", items.join(","))
        }
        Value::Object(map) => {
            let pairs: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{k}:{}", gemma(v, quote)))
                .collect();
            format!("{{{}}}", pairs.join(","))
        }
        other => other.to_string(),
    }
}

/// Strips the `quote` token from generated strings: Gemma strings cannot hold it.
fn without_quote_tokens(value: serde_json::Value, quote: &str) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::String(s) => Value::String(s.replace(quote, "\"")),
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|item| without_quote_tokens(item, quote))
                .collect(),
        ),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, without_quote_tokens(v, quote)))
                .collect(),
        ),
        other => other,
    }
}

/// JSON values equal as numbers by value (`1` and `1.0`: the assembler keeps a number's
/// text, which the generator's value may write differently; floats to a few ulps, the
/// f64 reading of either text), objects by key set.
fn same_json(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(x), Some(y)) => {
                x == y || (x - y).abs() <= 1e-15 * x.abs().max(y.abs()).max(f64::MIN_POSITIVE)
            }
            _ => false,
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

/// Scans `input` whole and in `sizes` chunks; checks the events and returns the one
/// complete call's arguments.
fn scan_back(dialect: Dialect, input: &str, sizes: &[usize]) -> serde_json::Value {
    use inband_alloc::assemble::{assemble, AssembleOptions};
    let whole = EventLog::scan(dialect, Options::default(), [input.as_bytes()]);
    harness::check_log(&whole, input.as_bytes());
    let chunks = harness::chunked(input.as_bytes(), sizes);
    assert_eq!(
        EventLog::scan(dialect, Options::default(), chunks.clone()),
        whole
    );
    let options = AssembleOptions::seeded(1);
    let completion = assemble(dialect, Options::default(), &options, chunks);
    assert_eq!(
        completion,
        assemble(dialect, Options::default(), &options, [input.as_bytes()])
    );
    assert_eq!(completion.tool_calls.len(), 1, "{input:?}: {completion:?}");
    let text = serde_json::to_string(&completion.tool_calls[0].arguments).unwrap();
    serde_json::from_str(&text).unwrap()
}

proptest! {
    #[test]
    fn gemma_arguments_scan_back(
        arguments in arguments(),
        sizes in prop::collection::vec(1usize..12, 1..8),
    ) {
        let quote = "<|\"|>";
        let arguments: Vec<(String, serde_json::Value)> = arguments
            .into_iter()
            .map(|(k, v)| (k, without_quote_tokens(v, quote)))
            .collect();
        let pairs: Vec<String> = arguments.iter().map(|(k, v)| format!("{k}:{}", gemma(v, quote))).collect();
        let input = format!("Calling.\n<|tool_call>call:f{{{}}}<tool_call|>\nDone.", pairs.join(","));
        let expected = serde_json::Value::Object(arguments.into_iter().collect());
        let got = scan_back(Dialect::Gemma, &input, &sizes);
        prop_assert!(same_json(&got, &expected), "{input:?}: {got} != {expected}");
    }

    /// FunctionGemma: the same body between its tokens, `<escape>` strings.
    #[test]
    fn functiongemma_arguments_scan_back(
        arguments in arguments(),
        sizes in prop::collection::vec(1usize..12, 1..8),
    ) {
        let quote = "<escape>";
        let arguments: Vec<(String, serde_json::Value)> = arguments
            .into_iter()
            .map(|(k, v)| (k, without_quote_tokens(v, quote)))
            .collect();
        let pairs: Vec<String> = arguments.iter().map(|(k, v)| format!("{k}:{}", gemma(v, quote))).collect();
        let input = format!(
            "Calling.\n<start_function_call>call:f{{{}}}<end_function_call>\nDone.",
            pairs.join(",")
        );
        let expected = serde_json::Value::Object(arguments.into_iter().collect());
        let got = scan_back(Dialect::FunctionGemma, &input, &sizes);
        prop_assert!(same_json(&got, &expected), "{input:?}: {got} != {expected}");
    }
}

/// A Python string literal for `s` in one of four styles (picked by `style`): double or
/// single quotes with escapes, triple quotes with real line breaks, or a raw string where
/// one can hold `s`.
fn python_string(s: &str, style: u64) -> String {
    let escape = |quote: char, line_breaks: bool| {
        let mut out = String::new();
        for c in s.chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '\n' if line_breaks => out.push('\n'),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if c == quote => {
                    out.push('\\');
                    out.push(c);
                }
                c if (c as u32) < 0x20 => out.push_str(&format!("\\x{:02x}", c as u32)),
                c => out.push(c),
            }
        }
        out
    };
    match style % 4 {
        0 => format!("\"{}\"", escape('"', false)),
        1 => format!("'{}'", escape('\'', false)),
        2 => format!("\"\"\"{}\"\"\"", escape('"', true)),
        _ if !s.contains(['\'', '\n', '\r'])
            && !s.ends_with('\\')
            && !s.chars().any(|c| (c as u32) < 0x20) =>
        {
            format!("r'{s}'")
        }
        _ => format!("\"{}\"", escape('"', false)),
    }
}

/// A Python literal for `value` (docs/seed.md §2.10 (a), with more string and container
/// styles), `style` picking among the forms.
fn python(value: &serde_json::Value, style: u64) -> String {
    use serde_json::Value;
    let next = style.rotate_left(7) ^ 0x9e37_79b9;
    match value {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => python_string(s, style),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(|v| python(v, next)).collect();
            match (style % 3, items.len()) {
                (0, 1) => format!("({},)", items[0]),
                (0, _) => format!("({})", items.join(", ")),
                _ => format!("[{}]", items.join(", ")),
            }
        }
        Value::Object(map) => {
            let pairs: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", python_string(k, next), python(v, next >> 3)))
                .collect();
            format!("{{{}}}", pairs.join(", "))
        }
    }
}

proptest! {
    #[test]
    fn gemini_arguments_scan_back(
        arguments in arguments(),
        style in any::<u64>(),
        wrap in any::<bool>(),
        sizes in prop::collection::vec(1usize..12, 1..8),
    ) {
        let pairs: Vec<String> = arguments
            .iter()
            .enumerate()
            .map(|(k, (key, v))| format!("{key}={}", python(v, style.rotate_left(k as u32 * 5))))
            .collect();
        let call = format!("default_api.f({})", pairs.join(", "));
        let call = if wrap { format!("print({call})") } else { call };
        let input = format!("Calling.\n```tool_code\n{call}\n```\nDone.");
        let expected = serde_json::Value::Object(arguments.into_iter().collect());
        let got = scan_back(Dialect::Gemini, &input, &sizes);
        prop_assert!(same_json(&got, &expected), "{input:?}: {got} != {expected}");
    }
}

/// Pieces of raw-text values for the markup dialects: markup-like text, entities, quotes,
/// newlines, non-ASCII, and each dialect's own tags where structure cannot follow them.
const MARKUP_TEXT: &[&str] = &[
    "a",
    " ",
    "\n",
    "\t",
    "<",
    ">",
    "&",
    "&amp;",
    "\"",
    "'",
    "é",
    "城堡",
    "🦀",
    "\\",
    "{",
    "}",
    "</",
    "</parameter>x",
    "</invoke>y",
    "</function>z",
    "\n</function>\nz",
    "</k>w",
    "</tool_call>",
    "</minimax:tool_call>",
    "</function_calls>",
    "<tool_call>",
    "<function=f>",
    "<parameter name=\"z\">",
    "<parameter=z>",
    "<think>",
    "<seed:tool_call>",
    "</seed:tool_call>",
    "<seed:think>",
];

/// A raw-text value: never one that a line-initial parameter opener would end (parameters
/// do not nest), nor, for an untyped parameter, JSON text (which would be typed).
fn markup_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(MARKUP_TEXT), 0..8).prop_map(|pieces| {
        let text = pieces.concat().replace("\n<parameter", "\n <parameter");
        if serde_json::from_str::<serde_json::Value>(&text).is_ok() {
            text + "x"
        } else {
            text
        }
    })
}

/// A markup argument: raw text, or JSON (written compact).
fn markup_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::{json, Value};
    prop_oneof![
        markup_text().prop_map(Value::String),
        any::<i32>().prop_map(|n| json!(n)),
        any::<bool>().prop_map(|b| json!(b)),
        Just(Value::Null),
        markup_text().prop_map(|s| json!([s, 1])),
        markup_text().prop_map(|s| json!({"k": s})),
    ]
}

/// The canonical rendering of one call in `dialect` (docs/seed.md §2.4 a/b, §2.6 b; docs/dialects.md
/// §qwen3-coder, §seed-oss): strings raw, other values JSON (`string="false"` in the attribute forms).
fn render_markup(dialect: Dialect, arguments: &[(String, serde_json::Value)]) -> String {
    let value = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let mut out = String::from("Calling.\n");
    if dialect == Dialect::Qwen3Coder {
        out.push_str("<tool_call>\n<function=f>\n");
        for (k, v) in arguments {
            out.push_str(&format!("<parameter={k}>\n{}\n</parameter>\n", value(v)));
        }
        out.push_str("</function>\n</tool_call>");
    } else if dialect == Dialect::SeedOss {
        // No framing: the value right between its tags (docs/dialects.md §seed-oss).
        out.push_str("\n<seed:tool_call>\n<function=f>\n");
        for (k, v) in arguments {
            out.push_str(&format!("<parameter={k}>{}</parameter>\n", value(v)));
        }
        out.push_str("</function>\n</seed:tool_call>");
    } else {
        let (open, close) = if dialect == Dialect::Minimax {
            ("<minimax:tool_call>", "</minimax:tool_call>")
        } else {
            ("<function_calls>", "</function_calls>")
        };
        out.push_str(&format!("{open}\n<invoke name=\"f\">\n"));
        for (k, v) in arguments {
            let string = if v.is_string() { "true" } else { "false" };
            out.push_str(&format!(
                "<parameter name=\"{k}\" string=\"{string}\">{}</parameter>\n",
                value(v)
            ));
        }
        out.push_str(&format!("</invoke>\n{close}"));
    }
    out
}

proptest! {
    #[test]
    fn markup_arguments_scan_back(
        arguments in prop::collection::btree_map("[a-z_]{1,8}", markup_value(), 0..5),
        dialect in prop::sample::select(&[Dialect::Anthropic, Dialect::Minimax, Dialect::Qwen3Coder, Dialect::SeedOss][..]),
        sizes in prop::collection::vec(1usize..12, 1..8),
    ) {
        let arguments: Vec<(String, serde_json::Value)> = arguments.into_iter().collect();
        let input = render_markup(dialect, &arguments);
        let expected = serde_json::Value::Object(arguments.into_iter().collect());
        let got = scan_back(dialect, &input, &sizes);
        prop_assert!(same_json(&got, &expected), "{input:?}: {got} != {expected}");
    }
}
