//! The normaliser's unit tests.

// The module is test-only already (normalize/mod.rs); the attribute repeats it for CI's
// source check, which looks for `extern crate std` outside cfg(test) file by file.
#[cfg(test)]
extern crate std;

use super::ArgumentsNormalizer;
use std::string::String;
use std::vec::Vec;

/// Normalise `input` fed in the given pieces; returns the output and its fragment count.
fn run_pieces(pieces: &[&[u8]]) -> (Vec<u8>, usize) {
    let mut n = ArgumentsNormalizer::new();
    let mut text = Vec::new();
    let mut frags = 0;
    let mut out = |f: &[u8]| {
        assert!(!f.is_empty(), "empty fragment");
        text.extend_from_slice(f);
        frags += 1;
    };
    for p in pieces {
        n.feed(p, &mut out);
    }
    n.finish(&mut out);
    (text, frags)
}

fn whole(input: &[u8]) -> Vec<u8> {
    run_pieces(&[input]).0
}

fn norm(input: &str) -> String {
    String::from_utf8(whole(input.as_bytes())).expect("utf-8 output")
}

/// Every way of feeding `input` checked here gives the same output.
fn assert_chunk_invariant(input: &[u8]) -> Vec<u8> {
    let expect = whole(input);
    for k in 0..=input.len() {
        let (a, b) = input.split_at(k);
        assert_eq!(
            run_pieces(&[a, b]).0,
            expect,
            "split at {k} of {:?}",
            String::from_utf8_lossy(input)
        );
    }
    let mut bytes: Vec<&[u8]> = Vec::new();
    for k in 0..input.len() {
        bytes.push(&input[k..k + 1]);
        bytes.push(&[]);
    }
    assert_eq!(
        run_pieces(&bytes).0,
        expect,
        "bytewise {:?}",
        String::from_utf8_lossy(input)
    );
    for size in [3, 7] {
        let pieces: Vec<&[u8]> = input.chunks(size).collect();
        assert_eq!(run_pieces(&pieces).0, expect, "chunks of {size}");
    }
    expect
}

#[test]
fn invalid_escapes_become_literal_backslashes() {
    assert_eq!(norm(r#"{"p": "D:\Work"}"#), r#"{"p": "D:\\Work"}"#);
    assert_eq!(norm(r#"{"p": "\d+"}"#), r#"{"p": "\\d+"}"#);
    assert_eq!(norm(r#"{"p": "\u00e9"}"#), r#"{"p": "\u00e9"}"#);
    assert_eq!(norm(r#"{"p": "\u00E9\uABCD"}"#), r#"{"p": "\u00E9\uABCD"}"#);
    assert_eq!(norm(r#"{"p": "\u12"}"#), r#"{"p": "\\u12"}"#);
    assert_eq!(norm(r#"{"p": "\u"}"#), r#"{"p": "\\u"}"#);
    assert_eq!(norm(r#"{"p": "\uZZ\u1\\"}"#), r#"{"p": "\\uZZ\\u1\\"}"#);
    assert_eq!(norm(r#"{"p": "\é"}"#), r#"{"p": "\\é"}"#);
    assert_eq!(norm(r#"{"p": "\'"}"#), r#"{"p": "\\'"}"#);
    // Every valid escape passes unchanged.
    let valid = r#"{"p": "\"\\\/\b\f\n\r\t\u0041\\d"}"#;
    assert_eq!(norm(valid), valid);
    // Unfinished escapes at the end are literal too.
    assert_eq!(norm(r#"{"p": "x\"#), r#"{"p": "x\\"#);
    assert_eq!(norm(r#"{"p": "x\u00e"#), r#"{"p": "x\\u00e"#);
    // Backslashes outside strings are not touched.
    assert_eq!(norm(r#"{"p": 1\2}"#), r#"{"p": 1\2}"#);
}

#[test]
fn corpus_036_windows_path_and_regex() {
    let raw = r#"{"path": "D:\Work\Logs\app.log", "pattern": "\d+ errors"}"#;
    let fixed = r#"{"path": "D:\\Work\\Logs\\app.log", "pattern": "\\d+ errors"}"#;
    assert_eq!(norm(raw), fixed);
    let value: serde_json::Value = serde_json::from_str(&norm(raw)).expect("valid JSON");
    assert_eq!(value["path"], "D:\\Work\\Logs\\app.log");
    assert_eq!(value["pattern"], "\\d+ errors");
}

#[test]
fn python_literals_become_json() {
    assert_eq!(
        norm(r#"{"a": True, "b": False, "c": None, "d": [True,False,None]}"#),
        r#"{"a": true, "b": false, "c": null, "d": [true,false,null]}"#
    );
    // Only whole bare words, never inside strings or other words.
    let same = r#"{"a": Truex, "b": Nonesuch, "c": "True", "d": xTrue, "e": Tru, "f": 1None, "g": _False, "h": true}"#;
    assert_eq!(norm(same), same);
    assert_eq!(norm("True"), "true");
    assert_eq!(norm("[None]"), "[null]");
    assert_eq!(norm("Fals"), "Fals");
    assert_eq!(norm("{'a':None}"), r#"{"a":null}"#);
}

#[test]
fn single_quoted_strings_become_double_quoted() {
    assert_eq!(
        norm(r#"{'a': 'say "hi"', 'b': 'don\'t', 'c': '\d', 'd': 'x\ny\"z'}"#),
        r#"{"a": "say \"hi\"", "b": "don't", "c": "\\d", "d": "x\ny\"z"}"#
    );
    assert_eq!(norm(r#"{"a": "it's"}"#), r#"{"a": "it's"}"#);
    assert_eq!(norm(r#"['\u00e9', '\u12']"#), r#"["\u00e9", "\\u12"]"#);
    assert_eq!(norm("{'日本語': 'é'}"), r#"{"日本語": "é"}"#);
}

#[test]
fn trailing_commas_are_dropped() {
    assert_eq!(
        norm("{\"a\": [1, 2, ], \"b\": 3 ,\n}"),
        "{\"a\": [1, 2 ], \"b\": 3 \n}"
    );
    assert_eq!(norm("[1,]"), "[1]");
    assert_eq!(
        norm(r#"{"a": ",}", "b": [","],}"#),
        r#"{"a": ",}", "b": [","]}"#
    );
    assert_eq!(norm("[1,,]"), "[1,]");
    // A comma at the very end stays.
    assert_eq!(norm("[1, "), "[1, ");
    // 63 whitespace bytes after the comma fit in the 64-byte hold; 64 do not.
    let fits = std::format!("[1,{}]", " ".repeat(63));
    assert_eq!(norm(&fits), std::format!("[1{}]", " ".repeat(63)));
    let overflows = std::format!("[1,{}]", " ".repeat(64));
    assert_eq!(norm(&overflows), overflows);
    assert_chunk_invariant(fits.as_bytes());
    assert_chunk_invariant(overflows.as_bytes());
}

#[test]
fn double_encoded_arguments_are_unescaped() {
    let mut n = ArgumentsNormalizer::new();
    let mut text = Vec::new();
    n.feed(
        br#"  "{\"a\": \"x\\ny\", \"b\": \"\u00e9\ud83d\ude00\"}"  "#,
        &mut |f| text.extend_from_slice(f),
    );
    assert!(n.double_encoded());
    n.finish(&mut |f| text.extend_from_slice(f));
    assert_eq!(
        std::str::from_utf8(&text).unwrap(),
        r#"{"a": "x\ny", "b": "é😀"}"#
    );

    assert_eq!(norm(r#""{\"a\": 1}""#), r#"{"a": 1}"#);
    assert_eq!(norm(r#"'{"a": \'x\'}'"#), r#"{"a": "x"}"#);
    assert_eq!(norm(r#""{\n  \"a\": \t1\r}""#), "{\n  \"a\": \t1\r}");
    assert_eq!(norm(r#""{\"a\": \/\b\f}""#), "{\"a\": /\x08\x0c}");
    // Lone surrogates become U+FFFD.
    assert_eq!(norm(r#""[\"\ud83d\"]""#), "[\"\u{FFFD}\"]");
    assert_eq!(norm(r#""[\"\ude00\"]""#), "[\"\u{FFFD}\"]");
    assert_eq!(norm(r#""[\"\ud83d\ud83d\ude00\"]""#), "[\"\u{FFFD}😀\"]");
    assert_eq!(norm(r#""[\"\ud83d\u0041\"]""#), "[\"\u{FFFD}A\"]");
    assert_eq!(
        norm(r#""[\"\ud83dx\ud83d\n\"]""#),
        "[\"\u{FFFD}x\u{FFFD}\\n\"]"
    );
    assert_eq!(norm(r#""[\"\ud83d"#), "[\"\u{FFFD}");
    // Invalid escapes stay literal, then repair 1 applies inside the inner string.
    assert_eq!(norm(r#""{\"p\": \"D:\Work\"}""#), r#"{"p": "D:\\Work"}"#);
    assert_eq!(norm(r#""{\"p\": \"\u12\"}""#), r#"{"p": "\\u12"}"#);
    assert_eq!(norm(r#""{\"p\": \"D:\\\\Work\"}""#), r#"{"p": "D:\\Work"}"#);
    // Repairs 2-4 apply to the unescaped text.
    assert_eq!(
        norm(r#""{'a': True, \"b\": [None,],}""#),
        r#"{"a": true, "b": [null]}"#
    );
    // Leading whitespace is dropped up to 16 bytes, else kept.
    assert_eq!(norm(&std::format!("{}\"[]\"", " ".repeat(16))), "[]");
    let long = std::format!("{}\"[]\"", " ".repeat(17));
    assert_eq!(norm(&long), std::format!("{}[]", " ".repeat(17)));
    assert_chunk_invariant(long.as_bytes());
    // Plain input is not double-encoded, and keeps its whitespace.
    let mut n = ArgumentsNormalizer::new();
    n.feed(b" \n{}", &mut |_| {});
    assert!(!n.double_encoded());
    assert_eq!(norm(" \n{} \n"), " \n{} \n");
    assert_eq!(norm("   "), "   ");
    assert_eq!(norm(""), "");
}

#[test]
fn raw_control_bytes_in_strings_are_escaped() {
    /// `input` normalises to exactly `expect`, which is valid JSON.
    fn fixed(input: &str, expect: &str) {
        assert_eq!(norm(input), expect);
        let parsed = serde_json::from_str::<serde_json::Value>(expect);
        assert!(parsed.is_ok(), "{expect:?}");
    }
    // Code written into a string with its real newlines, tabs and carriage returns.
    fixed(
        "{\"code\": \"fn main() {\n\tprintln!();\r\n}\"}",
        r#"{"code": "fn main() {\n\tprintln!();\r\n}"}"#,
    );
    // The two-byte escapes where JSON has one, else \u00xx in lowercase hex.
    fixed(
        "[\"a\u{1}b\u{0}\u{8}\u{c}\u{b}\u{1b}\u{1f}\"]",
        r#"["a\u0001b\u0000\b\f\u000b\u001b\u001f"]"#,
    );
    // Between tokens, control bytes are whitespace (or garbage) and pass unchanged.
    let between = "{\n\t\"a\": 1,\r\n\t\"b\": [\n2\n]\n}";
    fixed(between, between);
    assert_eq!(norm("[1,\u{1}2]"), "[1,\u{1}2]");
    // Single-quoted strings, converted by repair 3.
    fixed("{'a': 'x\ty'}", r#"{"a": "x\ty"}"#);
    fixed("['\u{1}\"']", r#"["\u0001\""]"#);
    // Double-encoded: an outer `\n` escape unescapes into a raw newline; inside an inner
    // string it is escaped again, between the inner tokens it stays whitespace.
    fixed(r#""{\"a\":\"x\ny\"}""#, r#"{"a":"x\ny"}"#);
    fixed(
        r#""{\n\"a\":\t\"x\ty\u0001\"}""#,
        "{\n\"a\":\t\"x\\ty\\u0001\"}",
    );
    // Raw control bytes written straight into a double-encoded string.
    fixed("\"{\\\"a\\\":\n\\\"x\ny\\\"}\"", "{\"a\":\n\"x\\ny\"}");
    // A control byte after a backslash: an invalid escape (repair 1), then escaped.
    fixed("[\"a\\\nb\"]", r#"["a\\\nb"]"#);
    fixed("[\"\\u1\tb\"]", r#"["\\u1\tb"]"#);
    // Every control byte, anywhere relative to the skip-ahead's blocks, decodes back.
    for b in 0u8..0x20 {
        for pad in 0..150 {
            let mut input = std::vec![b'[', b'"'];
            input.extend(core::iter::repeat_n(b'a', pad));
            input.push(b);
            input.extend_from_slice(b"z\"]");
            let text = whole(&input);
            let value: [String; 1] = serde_json::from_slice(&text).expect("valid JSON");
            assert_eq!(
                value[0].as_bytes(),
                &input[2..input.len() - 2],
                "byte {b} after {pad}"
            );
        }
    }
    // Unchanged runs around an escape stay borrowed whole.
    let long = std::format!("[\"{}\n{}\"]", "x".repeat(100), "y".repeat(100));
    let (text, frags) = run_pieces(&[long.as_bytes()]);
    assert_eq!(
        text,
        std::format!("[\"{}\\n{}\"]", "x".repeat(100), "y".repeat(100)).as_bytes()
    );
    assert_eq!(frags, 3);
}

#[test]
fn lone_surrogate_escapes_become_replacement_characters() {
    /// `input` normalises to exactly `expect`, which is valid JSON, whatever the split.
    fn fixed(input: &str, expect: &str) {
        assert_eq!(norm(input), expect, "{input}");
        let parsed = serde_json::from_str::<serde_json::Value>(expect);
        assert!(parsed.is_ok(), "{expect:?}");
        assert_eq!(assert_chunk_invariant(input.as_bytes()), expect.as_bytes());
    }
    // Lone high, lone low, a reversed pair.
    fixed(r#"{"a": "\ud83d"}"#, r#"{"a": "\ufffd"}"#);
    fixed(r#"{"a": "\ude00"}"#, r#"{"a": "\ufffd"}"#);
    fixed(r#"{"a": "\ude00\ud83d"}"#, r#"{"a": "\ufffd\ufffd"}"#);
    fixed(r#"{"a": "\uDFFF\uD800"}"#, r#"{"a": "\ufffd\ufffd"}"#);
    // Valid pairs pass byte for byte, whatever the case of their digits.
    for pair in [
        r#"{"a": "\ud83d\ude00"}"#,
        r#"{"a": "\uD83D\uDE00"}"#,
        r#"{"a": "\uD83d\udE00"}"#,
        r#"{"a": "\ud800\udc00\udbff\udfff"}"#,
    ] {
        fixed(pair, pair);
    }
    // A high surrogate followed by anything but its low half.
    fixed(r#"{"a": "\ud83dx"}"#, r#"{"a": "\ufffdx"}"#);
    fixed(r#"{"a": "\ud83d\n"}"#, r#"{"a": "\ufffd\n"}"#);
    fixed(r#"{"a": "\ud83d\""}"#, r#"{"a": "\ufffd\""}"#);
    fixed(r#"{"a": "\ud83d\u0041"}"#, r#"{"a": "\ufffd\u0041"}"#);
    fixed(
        r#"{"a": "\ud83d\ud83d\ude00"}"#,
        r#"{"a": "\ufffd\ud83d\ude00"}"#,
    );
    fixed(r#"{"a": "\ud83d\ud83d"}"#, r#"{"a": "\ufffd\ufffd"}"#);
    fixed(r#"{"a": "\ud83d\ude0x"}"#, r#"{"a": "\ufffd\\ude0x"}"#);
    fixed(r#"{"a": "\ud83d\d"}"#, r#"{"a": "\ufffd\\d"}"#);
    fixed("{\"a\": \"\\ud83d\n\"}", r#"{"a": "\ufffd\n"}"#);
    // A high surrogate at the end of the input.
    assert_eq!(norm(r#"{"a": "\ud83d"#), r#"{"a": "\ufffd"#);
    assert_eq!(norm(r#"{"a": "\ud83d\"#), r#"{"a": "\ufffd\\"#);
    assert_eq!(norm(r#"{"a": "\ud83d\u"#), r#"{"a": "\ufffd\\u"#);
    assert_eq!(norm(r#"{"a": "\ud83d\ude0"#), r#"{"a": "\ufffd\\ude0"#);
    // Inner strings of double-encoded arguments.
    fixed(r#""{\"a\": \"\\ud83d\"}""#, r#"{"a": "\ufffd"}"#);
    fixed(
        r#""{\"a\": \"\\ude00\\ud83d\"}""#,
        r#"{"a": "\ufffd\ufffd"}"#,
    );
    fixed(
        r#""{\"a\": \"\\ud83d\\ude00\"}""#,
        r#"{"a": "\ud83d\ude00"}"#,
    );
    fixed(r#""{\"a\": \"\\ud83d\\n\"}""#, r#"{"a": "\ufffd\n"}"#);
    fixed(r#"'{"a": "\\ud83d"}'"#, r#"{"a": "\ufffd"}"#);
    // Single-quoted strings.
    fixed(r#"{'a': '\ud83d'}"#, r#"{"a": "\ufffd"}"#);
    fixed(r#"{'a': '\ud83d\''}"#, r#"{"a": "\ufffd'"}"#);
    fixed(r#"{'a': '\ude00\ud83d'}"#, r#"{"a": "\ufffd\ufffd"}"#);
    fixed(r#"{'a': '\uD83D\uDE00'}"#, r#"{"a": "\uD83D\uDE00"}"#);
    // Outside strings nothing changes.
    assert_eq!(norm(r#"[1\ud83d]"#), r#"[1\ud83d]"#);
    // Unchanged runs around a replaced or a kept pair stay borrowed whole.
    let pair = std::format!("[\"{}\\ud83d\\ude00{}\"]", "x".repeat(50), "y".repeat(50));
    let (text, frags) = run_pieces(&[pair.as_bytes()]);
    assert_eq!(text, pair.as_bytes());
    assert_eq!(frags, 1);
    let lone = std::format!("[\"{}\\ud83d{}\"]", "x".repeat(50), "y".repeat(50));
    let (text, frags) = run_pieces(&[lone.as_bytes()]);
    assert_eq!(
        text,
        std::format!("[\"{}\\ufffd{}\"]", "x".repeat(50), "y".repeat(50)).as_bytes()
    );
    assert_eq!(frags, 3);
    // Random strings rich in surrogate escapes: valid JSON, whatever the split.
    let pieces: [&str; 10] = [
        "\\ud83d", "\\ude00", "\\uD83D", "\\uDE00", "\\u0041", "x", "\\n", "\\d", "\\u", "\\ud8",
    ];
    let mut state: u64 = 0x853C_49E6_748F_EA9B;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..300 {
        let mut input = String::from("[\"");
        for _ in 0..(next() % 8) {
            input.push_str(pieces[(next() % pieces.len() as u64) as usize]);
        }
        input.push_str("\"]");
        let text = assert_chunk_invariant(input.as_bytes());
        let parsed = serde_json::from_slice::<serde_json::Value>(&text);
        assert!(
            parsed.is_ok(),
            "{input} -> {}",
            String::from_utf8_lossy(&text)
        );
    }
}

#[test]
fn clean_json_passes_through_as_few_fragments() {
    let clean = "{\"name\": \"x\", \"list\": [1, -2.5e3, true, false, null], \"nested\": \
                 {\"s\": \"a\\\"b\\\\c\\u00e9\\n 日本語 é\", \"t\": []}, \"u\": {}}";
    let (text, frags) = run_pieces(&[clean.as_bytes()]);
    assert_eq!(text, clean.as_bytes());
    assert_eq!(frags, 1);
    for k in 0..=clean.len() {
        let (a, b) = clean.as_bytes().split_at(k);
        let (text, frags) = run_pieces(&[a, b]);
        assert_eq!(text, clean.as_bytes());
        assert!(frags <= 3, "{frags} fragments for a split at {k}");
    }
}

#[test]
fn output_is_independent_of_chunking() {
    let cases: &[&str] = &[
        r#"{"path": "D:\Work\Logs\app.log", "pattern": "\d+ errors"}"#,
        r#"  "{\"a\": \"x\\ny\", \"b\": \"\u00e9\ud83d\ude00\", \"c\": \"D:\Work\", \"d\": \"\u12\"}"  "#,
        r#"'{"a": \'it\\\'s\', "b": "\ud83d"}'"#,
        r#"{"a": True, "b": False, "c": None, "d": [Tru, Nonesuch, xFalse, True]}"#,
        r#"{'a': 'say "hi" \'twice\'', 'b': '\d\u00e9\u1', "c": "it's"}"#,
        "{\"a\": [1, 2 ,\t\n ], \"b\": {\"c\": 3,  },   }",
        "{\"s\": \"日本語\", \"t\": 'é', \"u\": \"\\u65e5\\u672c\", \"v\": \"\\é\"}",
        r#"{"valid": "\"\\\/\b\f\n\r\t\u0041\uABCD", "end": "\"#,
        "\"[\\\"\\ud83d\\ud83d\\ude00\\\", \\\"\\ude00\\\", \\\"\\ud83d",
        "True",
        "[1, 2, None,",
        "  \n {\"a\": \"\\u12\"} \n",
        r#"{"a": 1}  , "b" xyz"#,
        r#""{}" trailing "#,
        // Raw control bytes (repair 6), from index 14.
        "{\"code\": \"fn main() {\n\tprintln!();\r\n}\", \"c\": \"\u{1}\u{0}\u{1f}\"}",
        "{\n\t\"a\": 1,\r\n\t\"b\": [\n2\n]\n}",
        r#""{\"a\":\"x\ny\"}""#,
        r#""{\n\"a\":\t\"x\ty\u0001\"}""#,
        "\"{\\\"a\\\":\n\\\"x\ny\\\"}\"",
        "{'a': 'x\ty', 'b': '\u{1}\"\\\t'}",
        "[\"a\\\nb\", \"\\u1\tb\"]",
        // Lone surrogate escapes (repair 7), from index 21.
        r#"{"a": "\ud83d", "b": "\ude00", "c": "\ude00\ud83d", "d": "\ud83dx\ud83d\n"}"#,
        r#"{"a": "\ud83d\ude00\uD83D\uDE00", "b": "\ud83d\ud83d\ude00\ud83d\u0041"}"#,
        r#"{"a": "\ud83d\u12", "b": "\ud83d\d", "c": "\ud83d\uZ", "d": "\uDBFF\uDFFF"}"#,
        r#""{\"a\": \"\\ud83d\", \"b\": \"\\ude00\\ud83d\", \"c\": \"\\ud83d\\ude00\"}""#,
        r#"{'a': '\ud83d', 'b': '\ud83d\'', 'c': '\uD83D\uDE00', 'd': '\ude00'}"#,
        "{\"a\": \"\\ud83d\n\\ud83d\"}",
        r#"{"a": "\ud83d"#,
        r#"{"a": "\ud83d\"#,
        r#"{"a": "\ud83d\ude0"#,
    ];
    for case in cases {
        assert_chunk_invariant(case.as_bytes());
    }
    // Outputs of the well-formed-after-repair cases are valid JSON.
    for &k in &[
        0, 1, 2, 4, 5, 6, 11, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
    ] {
        let text = whole(cases[k].as_bytes());
        let parsed = serde_json::from_slice::<serde_json::Value>(&text);
        assert!(
            parsed.is_ok(),
            "case {k}: {}",
            String::from_utf8_lossy(&text)
        );
    }
}

#[test]
fn double_encoding_round_trips() {
    // (text, its normalised form): the same unless raw control bytes sit in its strings.
    let texts = [
        (
            "{\"a\": \"x\\ny \\\"q\\\" \\\\ / \\u0001\", \"b\": [1, true, null]}",
            None,
        ),
        ("{\"s\": \"日本語 é 😀 \\t\", \"n\": -1.5e-3}", None),
        (
            "{\"ctl\": \"\u{1}\u{1f}\n\", \"nested\":\n{\"k\": []}}",
            Some("{\"ctl\": \"\\u0001\\u001f\\n\", \"nested\":\n{\"k\": []}}"),
        ),
    ];
    for (text, normalised) in texts {
        let expect = normalised.unwrap_or(text);
        // As serde_json encodes a string (non-ASCII raw, control bytes as \u00XX).
        let encoded = serde_json::to_string(text).unwrap();
        assert_eq!(norm(&encoded), expect, "{encoded}");
        // ASCII-only, with surrogate pairs.
        let mut ascii = String::from("\"");
        for ch in text.chars() {
            match ch {
                '"' => ascii.push_str("\\\""),
                '\\' => ascii.push_str("\\\\"),
                ' '..='~' => ascii.push(ch),
                _ => {
                    let mut units = [0u16; 2];
                    for u in ch.encode_utf16(&mut units) {
                        ascii.push_str(&std::format!("\\u{u:04x}"));
                    }
                }
            }
        }
        ascii.push('"');
        assert_eq!(norm(&ascii), expect, "{ascii}");
        assert_chunk_invariant(ascii.as_bytes());
    }
}

#[test]
fn arbitrary_bytes_never_panic_and_ignore_chunking() {
    // A small deterministic generator over an alphabet rich in the bytes that matter.
    let alphabet: &[u8] = b"\"'\\u0aFfTrueNonlsD,]} \t\n\x01\x1f{[:\xc3\xa9\xff";
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..400 {
        let len = (next() % 24) as usize;
        let input: Vec<u8> = (0..len)
            .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
            .collect();
        assert_chunk_invariant(&input);
    }
}

#[test]
fn skip_ahead_in_strings_agrees_with_a_plain_search() {
    use super::{find_in_string, Quote};
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..3000 {
        let len = (next() % 400) as usize;
        // Mostly clean bytes, with a few of any value (including 0x80 and up).
        let hay: Vec<u8> = (0..len)
            .map(|_| match next() % 128 {
                0 => next() as u8,
                1 => b"\"'\\\x00\x1f\x20\x7f\x80\xa2\xdc"[(next() % 10) as usize],
                _ => b'a',
            })
            .collect();
        for (q, single) in [(Quote::Double, false), (Quote::Single, true)] {
            let plain = hay
                .iter()
                .position(|&b| b < 0x20 || b == b'"' || b == b'\\' || (single && b == b'\''));
            assert_eq!(find_in_string(q, &hay), plain, "round {round}: {hay:?}");
        }
    }
    // Every byte value at every offset, in the near words, the blocks and the tail.
    for b in 0..=255u8 {
        for at in 0..200 {
            let mut hay = std::vec![b'a'; 230];
            hay[at] = b;
            let stop = b < 0x20 || b == b'"' || b == b'\\';
            let want = if stop { Some(at) } else { None };
            assert_eq!(find_in_string(Quote::Double, &hay), want, "{b} at {at}");
            let want = if stop || b == b'\'' { Some(at) } else { None };
            assert_eq!(find_in_string(Quote::Single, &hay), want, "{b} at {at}");
        }
    }
}

#[test]
fn state_is_small_and_copy() {
    fn copy<T: Copy + Clone + core::fmt::Debug + Default>() {}
    copy::<ArgumentsNormalizer>();
    assert!(core::mem::size_of::<ArgumentsNormalizer>() <= 128);
    let n = ArgumentsNormalizer::default();
    assert!(!n.double_encoded());
    assert!(!std::format!("{n:?}").is_empty());
}
