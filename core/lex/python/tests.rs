//! The Python literal lexer's unit tests.

// The module is test-only already (lex/python.rs); the attribute repeats it for CI's
// source check, which looks for `extern crate std` outside cfg(test) file by file.
#[cfg(test)]
extern crate std;
use std::format;
use std::string::String;
use std::vec;
use std::vec::Vec;

use super::*;

/// Scans `parts` as one stream; returns the joined pieces and the final step, after
/// checking that the pieces' spans tile what was consumed.
fn lex(parts: &[&str]) -> (Vec<(Piece, String)>, Step) {
    let mut lexer = PyValue::new();
    let mut pieces: Vec<(Piece, String)> = Vec::new();
    let mut at = 0u64;
    let mut base = 0u64;
    let mut step = Step::More;
    {
        let mut emit = |piece: Piece, span: Span, bytes: &[u8]| {
            assert_eq!(span.start, at, "{piece:?} {bytes:?}");
            assert_eq!(span.len(), bytes.len() as u64);
            at = span.end;
            let text = String::from_utf8_lossy(bytes).into_owned();
            match pieces.last_mut() {
                Some((last, joined)) if *last == piece => joined.push_str(&text),
                _ => pieces.push((piece, text)),
            }
        };
        for part in parts {
            step = match lexer.scan(part.as_bytes(), base, &mut emit) {
                Step::More => Step::More,
                Step::Done(k) => Step::Done(base as usize + k),
                Step::Error(k) => Step::Error(base as usize + k),
            };
            if step != Step::More {
                break;
            }
            base += part.len() as u64;
        }
        if step == Step::More {
            lexer.flush(base, &mut emit);
        }
    }
    (pieces, step)
}

/// Every two-way split of `input` lexes alike.
fn lex_all(input: &str) -> (Vec<(Piece, String)>, Step) {
    let whole = lex(&[input]);
    for k in 0..=input.len() {
        if input.is_char_boundary(k) {
            assert_eq!(
                lex(&[&input[..k], &input[k..]]),
                whole,
                "split at {k} of {input:?}"
            );
        }
    }
    whole
}

use Piece::*;

fn p(piece: Piece, text: &str) -> (Piece, String) {
    (piece, String::from(text))
}

#[test]
fn strings_of_every_shape() {
    assert_eq!(
        lex_all("'a\\'b' \"\" r'\\d' rb\"x\" '''t\"'''"),
        (
            vec![
                p(StringOpen, "'"),
                p(Escaped, "a\\'b"),
                p(StringClose, "'"),
                p(Space, " "),
                p(StringOpen, "\""),
                p(StringClose, "\""),
                p(Space, " "),
                p(StringOpen, "r'"),
                p(Raw, "\\d"),
                p(StringClose, "'"),
                p(Space, " "),
                p(StringOpen, "rb\""),
                p(Raw, "x"),
                p(StringClose, "\""),
                p(Space, " "),
                p(StringOpen, "'''"),
                p(Escaped, "t\""),
                p(StringClose, "'''"),
            ],
            Step::More
        )
    );
}

#[test]
fn triple_quotes_hold_fences_and_short_quote_runs() {
    assert_eq!(
        lex_all("\"\"\"x\n```\n\"\" \"y\"\"\"),"),
        (
            vec![
                p(StringOpen, "\"\"\""),
                p(Escaped, "x\n```\n\"\" \"y"),
                p(StringClose, "\"\"\""),
            ],
            Step::Done(17)
        )
    );
}

#[test]
fn structure_outside_strings() {
    assert_eq!(
        lex_all("[1, (2,), {'k': None}] # c\n ,"),
        (
            vec![
                p(Punct, "["),
                p(Bare, "1"),
                p(Punct, ","),
                p(Space, " "),
                p(Punct, "("),
                p(Bare, "2"),
                p(Punct, ",),"),
                p(Space, " "),
                p(Punct, "{"),
                p(StringOpen, "'"),
                p(Escaped, "k"),
                p(StringClose, "'"),
                p(Punct, ":"),
                p(Space, " "),
                p(Bare, "None"),
                p(Punct, "}]"),
                p(Space, " # c\n "),
            ],
            Step::Done(28)
        )
    );
}

#[test]
fn words_that_look_like_prefixes() {
    assert_eq!(lex_all("rate, "), (vec![p(Bare, "rate")], Step::Done(4)));
    assert_eq!(lex_all("b"), (vec![p(Bare, "b")], Step::More));
    assert_eq!(
        lex_all("f(y=1))"),
        (
            vec![p(Bare, "f"), p(Punct, "("), p(Bare, "y=1"), p(Punct, ")")],
            Step::Done(6)
        )
    );
}

#[test]
fn structure_is_checked() {
    // Closers match their openers; a dict's `:` and `,` stand between key and value;
    // no element is empty; nothing but a separator follows a complete literal.
    for (value, at) in [
        ("[1)", 2),
        ("{'k'}", 4),
        ("{'k': }", 6),
        ("{1, 2}", 2),
        ("[1: 2]", 2),
        ("[1, , 2]", 4),
        ("{(1,): 2}", 1),
        ("[1][0]", 3),
        ("'x'.upper()", 3),
        ("'x' y", 4),
        ("x 'y'", 2),
        ("x r'y'", 3),
        ("(1) (2)", 4),
        (":", 0),
    ] {
        assert_eq!(lex_all(value).1, Step::Error(at), "{value}");
    }
    for value in [
        "[1, (2,), {'k': [3]}, {}, (), [],]",
        "'a' r'b' \\\n 'c'",
        "f(x)[0].y(z)",
        "x if y else z",
        "{f(x): 1, 'k': (1)}",
    ] {
        assert_eq!(
            lex_all(&format!("{value})")).1,
            Step::Done(value.len()),
            "{value}"
        );
    }
    let deep = |n: usize| format!("{}{})", "[".repeat(n), "]".repeat(n));
    assert_eq!(lex_all(&deep(64)).1, Step::Done(128));
    assert_eq!(lex_all(&deep(65)).1, Step::Error(64));
}

#[test]
fn a_fence_outside_strings_is_an_error() {
    assert_eq!(lex(&["'x'\n```"]).1, Step::Error(4));
    assert_eq!(lex(&["]"]).1, Step::Error(0));
}

#[test]
fn pieces_inside_a_string_are_taken_whole() {
    let mut lexer = PyValue::new();
    let mut sink = |_: Piece, _: Span, _: &[u8]| {};
    assert_eq!(lexer.scan(b"'ab", 0, &mut sink), Step::More);
    assert_eq!(lexer.take_inside_string(b"cd)"), Some(Escaped));
    assert_eq!(lexer.take_inside_string(b"c'"), None);
    assert_eq!(lexer.take_inside_string(b"c\\"), None);
}
