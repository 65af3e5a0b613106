//! Values the scanners would end early (docs/dialects.md rule 4): refused, naming the call
//! and the argument, in the xml, anthropic, minimax and Qwen3-Coder tagsets; the rest
//! written as it is.

use inband::Dialect;
use inband_alloc::render::{Call, Reason, Renderer};
use serde_json::{json, Map};

use crate::common::{calls_of, object, scan};

/// Values that cannot be written are refused, naming the call and the argument; a closer
/// that structure does not follow is written as it is (docs/dialects.md rule 4).
#[test]
fn unwritable_values() {
    let calls = [
        Call::new("ok", object(json!({"a": "x"}))),
        Call::new(
            "write",
            object(json!({"path": "a", "text": "x</parameter>\n<parameter name=\"y\">z"})),
        ),
    ];
    let error = Renderer::new(Dialect::Xml).calls(&calls).unwrap_err();
    assert_eq!(error.index, 1);
    assert_eq!(error.name.as_deref(), Some("write"));
    assert_eq!(error.argument.as_deref(), Some("/text"));
    assert_eq!(error.reason, Reason::CloserInValue("</parameter>"));
    assert_eq!(
        error.to_string(),
        "item 1 (\"write\"), argument \"/text\": the value holds \"</parameter>\" followed by structure; the scanner would end the value there"
    );
    for text in [
        "x</parameter></invoke>",
        "x</parameter> \n <invoke name=\"z\">",
        "x</invoke><invoke>",
    ] {
        let call = Call::new("w", object(json!({ "text": text })));
        assert!(Renderer::new(Dialect::Xml).call(&call).is_err(), "{text}");
    }
    // Followed by prose, by more than 32 bytes of whitespace, or by the value's end: text.
    for text in [
        "x</parameter> and more",
        &format!("x</parameter>{}<parameter name=\"y\">", " ".repeat(33)),
        "x</parameter>",
        "x</invoke>",
        "x</parameter><parameters>",
    ] {
        let call = Call::new("w", object(json!({ "text": text })));
        let rendered = Renderer::new(Dialect::Xml).call(&call).unwrap();
        let completion = scan(Dialect::Xml, &rendered, &[]);
        assert_eq!(
            calls_of(&completion),
            [("w".to_owned(), json!({ "text": text }))]
        );
    }

    let gemma = Call::new("f", object(json!({"a": {"b": ["x<|\"|>y"]}})));
    let error = Renderer::new(Dialect::Gemma).call(&gemma).unwrap_err();
    assert_eq!(error.argument.as_deref(), Some("/a/b/0"));
    assert_eq!(error.reason, Reason::QuoteTokenInString);

    let bad_key = Call::new("f", object(json!({"a b": 1})));
    assert!(matches!(
        Renderer::new(Dialect::Gemini)
            .call(&bad_key)
            .unwrap_err()
            .reason,
        Reason::InvalidKey(_)
    ));
    assert!(matches!(
        Renderer::new(Dialect::Gemma)
            .call(&bad_key)
            .unwrap_err()
            .reason,
        Reason::InvalidKey(_)
    ));
    for name in ["", "a b", "<x>", "a\"b"] {
        let call = Call::new(name, Map::new());
        for &dialect in Dialect::ALL {
            assert!(matches!(
                Renderer::new(dialect).call(&call).unwrap_err().reason,
                Reason::InvalidName(_)
            ));
        }
    }
    // Python strings always can be written.
    let python = Call::new("f", object(json!({"s": "\"\\\n\r\t\u{1}```'"})));
    let rendered = Renderer::new(Dialect::Gemini).call(&python).unwrap();
    assert_eq!(
        rendered,
        "```tool_code\ndefault_api.f(s=\"\\\"\\\\\\n\\r\\t\\x01```'\")\n```"
    );
    assert_eq!(
        calls_of(&scan(Dialect::Gemini, &rendered, &[])),
        [("f".to_owned(), json!({"s": "\"\\\n\r\t\u{1}```'"}))]
    );
}

/// Rule 4 in the anthropic and minimax tagsets: `</parameter>`, `</invoke>`, the closer
/// named after the parameter and a line-initial `<parameter` tag end a value; the
/// scanner's own reading decides, so what is written is read back and what is refused
/// really would break.
#[test]
fn invoke_tagsets_refuse_what_their_scanners_end_values_at() {
    for dialect in [Dialect::Anthropic, Dialect::Minimax] {
        let refused: &[(&str, Reason)] = &[
            (
                "x</parameter>\n<parameter name=\"y\">",
                Reason::CloserInValue("</parameter>"),
            ),
            (
                "x</parameter></invoke>",
                Reason::CloserInValue("</parameter>"),
            ),
            (
                "x</invoke>\n<invoke name=\"z\">",
                Reason::CloserInValue("</invoke>"),
            ),
            ("x</text> <parameter name=\"y\">", Reason::KeyCloserInValue),
            ("x</text></invoke>", Reason::KeyCloserInValue),
            (
                "x\n<parameter name=\"y\">z",
                Reason::CloserInValue("\n<parameter"),
            ),
            ("x\n<parameter>", Reason::CloserInValue("\n<parameter")),
        ];
        for (text, reason) in refused {
            let call = Call::new("w", object(json!({ "text": text })));
            let error = Renderer::new(dialect).call(&call).unwrap_err();
            assert_eq!(&error.reason, reason, "{dialect}: {text:?}");
            assert_eq!(error.argument.as_deref(), Some("/text"));
            // Inside the turn's wrapper as well.
            assert!(
                Renderer::new(dialect).calls(&[call]).is_err(),
                "{dialect}: {text:?}"
            );
        }
        let wrapper_close = if dialect == Dialect::Anthropic {
            "x</parameter>\n</function_calls>"
        } else {
            "x</parameter>\n</minimax:tool_call>"
        };
        let call = Call::new("w", object(json!({ "text": wrapper_close })));
        assert!(Renderer::new(dialect).call(&call).is_err(), "{dialect}");
        let kept = [
            "x</parameter> and more",
            "x</text> and more",
            "x</other> <parameter name=\"y\">",
            "x</parameter>",
            "x</text>",
            "x<parameter name=\"y\">",
            "x\n<parameters>",
            "x\n<parameter",
            "x</parameter><parameters>",
            &format!("x</text>{}<parameter name=\"y\">", " ".repeat(33)),
        ];
        for text in kept {
            let call = Call::new("w", object(json!({ "text": text })));
            for rendered in [
                Renderer::new(dialect).call(&call).unwrap(),
                Renderer::new(dialect)
                    .calls(std::slice::from_ref(&call))
                    .unwrap(),
            ] {
                let completion = scan(dialect, &rendered, &[5, 11]);
                assert_eq!(
                    calls_of(&completion),
                    [("w".to_owned(), json!({ "text": text }))],
                    "{dialect}: {rendered}"
                );
            }
        }
    }
    let minimax_stop = Call::new("w", object(json!({"text": "x</parameter>[e~["})));
    assert_eq!(
        Renderer::new(Dialect::Minimax)
            .call(&minimax_stop)
            .unwrap_err()
            .reason,
        Reason::TemplateToken("[e~[")
    );
    let rendered = Renderer::new(Dialect::Anthropic)
        .call(&minimax_stop)
        .unwrap();
    assert_eq!(
        calls_of(&scan(Dialect::Anthropic, &rendered, &[])),
        [("w".to_owned(), json!({"text": "x</parameter>[e~["}))]
    );
}

/// Rule 4 in Qwen3-Coder: `</parameter>` before structure, a line-initial `</function>`
/// or `<parameter=NAME`, and the turn's end token end a value; the framing newline on
/// each side of a value is not part of it.
#[test]
fn qwen3_coder_refuses_what_its_scanner_ends_values_at() {
    let qwen = Renderer::new(Dialect::Qwen3Coder);
    let refused: &[(&str, Reason)] = &[
        (
            "x</parameter>\n<parameter=y>",
            Reason::CloserInValue("</parameter>"),
        ),
        (
            "x</parameter>\n</function>",
            Reason::CloserInValue("</parameter>"),
        ),
        (
            "x</parameter></tool_call>",
            Reason::CloserInValue("</parameter>"),
        ),
        (
            "x\n</function>\n</tool_call>",
            Reason::CloserInValue("\n</function>"),
        ),
        (
            "x\n</function><function=g>",
            Reason::CloserInValue("\n</function>"),
        ),
        ("x\n<parameter=y>z", Reason::CloserInValue("\n<parameter=")),
        ("x<|im_end|>y", Reason::TemplateToken("<|im_end|>")),
        ("x<|endoftext|>", Reason::TemplateToken("<|endoftext|>")),
    ];
    for (text, reason) in refused {
        let call = Call::new("w", object(json!({ "text": text })));
        assert_eq!(&qwen.call(&call).unwrap_err().reason, reason, "{text:?}");
    }
    let kept = [
        "x</parameter> and more",
        "x</parameter>",
        "x</function>\n</tool_call>",
        "x\n</function> more",
        "x\n</function>",
        "<parameter=y>z",
        "x\n<parameter= y>",
        "<tool_call>\n</tool_call>",
        "",
        "\n",
        "\n\nx\n\n",
        "x</text> <parameter=y>",
    ];
    for text in kept {
        let call = Call::new("w", object(json!({ "text": text })));
        let rendered = qwen.call(&call).unwrap();
        assert_eq!(
            calls_of(&scan(Dialect::Qwen3Coder, &rendered, &[7, 13, 20])),
            [("w".to_owned(), json!({ "text": text }))],
            "{rendered}"
        );
    }
    for name in ["a=b", "/a"] {
        let call = Call::new(name, Map::new());
        assert!(matches!(
            qwen.call(&call).unwrap_err().reason,
            Reason::InvalidName(_)
        ));
        let call = Call::new("f", object(json!({ name: 1 })));
        assert!(matches!(
            qwen.call(&call).unwrap_err().reason,
            Reason::InvalidKey(_)
        ));
    }
}

/// Seed-OSS (docs/dialects.md §seed-oss): the same closers as qwen3-coder's with its own
/// block closer and stop token, and no framing: a value's leading and trailing newlines are
/// its own, written and read back as they are.
#[test]
fn seed_oss_refuses_what_its_scanner_ends_values_at() {
    let seed = Renderer::new(Dialect::SeedOss);
    let refused: &[(&str, Reason)] = &[
        (
            "x</parameter>\n<parameter=y>",
            Reason::CloserInValue("</parameter>"),
        ),
        (
            "x</parameter>\n</function>",
            Reason::CloserInValue("</parameter>"),
        ),
        (
            "x</parameter></seed:tool_call>",
            Reason::CloserInValue("</parameter>"),
        ),
        (
            "x\n</function>\n</seed:tool_call>",
            Reason::CloserInValue("\n</function>"),
        ),
        ("x\n<parameter=y>z", Reason::CloserInValue("\n<parameter=")),
        ("x<seed:eos>y", Reason::TemplateToken("<seed:eos>")),
    ];
    for (text, reason) in refused {
        let call = Call::new("w", object(json!({ "text": text })));
        assert_eq!(&seed.call(&call).unwrap_err().reason, reason, "{text:?}");
    }
    let kept = [
        "x</parameter> and more",
        "x</function>\n</seed:tool_call>",
        "x\n</function> more",
        "<parameter=y>z",
        "<seed:tool_call>\n</seed:tool_call>",
        "<tool_call>\n</tool_call>",
        "",
        "\n",
        "\nx\n",
        "\n\nx\n\n",
    ];
    for text in kept {
        let call = Call::new("w", object(json!({ "text": text })));
        let rendered = seed.call(&call).unwrap();
        assert_eq!(
            calls_of(&scan(Dialect::SeedOss, &rendered, &[7, 13, 20])),
            [("w".to_owned(), json!({ "text": text }))],
            "{rendered}"
        );
    }
}

/// MiniCPM 5: a value its scanner would end early (a `</param>` that structure follows, a
/// CDATA opener) is written as a CDATA section and reads back as itself; one that also
/// holds the section's closer is refused; a plain value is written as it is.
#[test]
fn minicpm5_writes_cdata_where_a_plain_value_would_end() {
    let renderer = Renderer::new(Dialect::Minicpm5);
    let plain = Call::new("f", object(json!({"a": "x < y & z"})));
    assert_eq!(
        renderer.calls(&[plain]).unwrap(),
        "<function name=\"f\"><param name=\"a\">x < y & z</param></function>"
    );
    for (value, section) in [
        ("x</param><param name=\"b\">2", true),
        ("keep <![CDATA[ as text", true),
        // Rule 4: `</param>` after it, no structure: the closer does not count.
        ("end </function>", false),
    ] {
        let call = Call::new("f", object(json!({ "a": value })));
        let text = renderer.calls(std::slice::from_ref(&call)).unwrap();
        assert_eq!(text.contains("<![CDATA["), section, "{text}");
        let completion = scan(Dialect::Minicpm5, &text, &[1, 5, 11]);
        assert_eq!(
            calls_of(&completion),
            [("f".to_owned(), json!({ "a": value }))],
            "{text}"
        );
    }
    let closer = Call::new("f", object(json!({"a": "x]]></param><param name=\"b\">"})));
    let error = renderer.calls(&[closer]).unwrap_err();
    assert_eq!(error.reason, Reason::CloserInValue("</param>"));
    let opener = Call::new("f", object(json!({"a": "<![CDATA[x]]>"})));
    let error = renderer.calls(&[opener]).unwrap_err();
    assert_eq!(error.reason, Reason::SectionOpenerInValue("<![CDATA["));
}
