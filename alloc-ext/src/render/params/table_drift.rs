//! The rule-4 data the renderer builds from the dialect tables, pinned: a table or a
//! follow-relation change that moves what the scanner admits after a closer shows up here
//! as a changed line, to be read against docs/dialects.md rule 4.

use inband::Dialect;

use super::closers::{value_rules, Follow};

/// `text`, `text+tag` (an opener whose tag goes on), `text@wrapper` (a section closer).
fn spell(follows: &[Follow]) -> Vec<String> {
    let mut out: Vec<String> = follows
        .iter()
        .map(|f| match (f.tag, f.in_wrapper) {
            (true, _) => format!("{}+tag", f.text),
            (_, true) => format!("{}@wrapper", f.text),
            _ => f.text.to_string(),
        })
        .collect();
    out.sort();
    out
}

fn closers(dialect: Dialect) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<_> = value_rules(dialect)
        .closers
        .iter()
        .map(|c| (c.text.to_string(), spell(&c.follows)))
        .collect();
    out.sort();
    out
}

fn owned(rows: &[(&str, &[&str])]) -> Vec<(String, Vec<String>)> {
    rows.iter()
        .map(|(c, f)| (c.to_string(), f.iter().map(|s| s.to_string()).collect()))
        .collect()
}

const INVOKE_AFTER_PARAM: [&str; 5] = [
    "</function_calls>@wrapper",
    "</invoke>",
    "</tool_calls>@wrapper",
    "<invoke+tag",
    "<parameter+tag",
];
const INVOKE_AFTER_CALL: [&str; 3] = [
    "</function_calls>@wrapper",
    "</tool_calls>@wrapper",
    "<invoke+tag",
];

#[test]
fn xml_and_anthropic() {
    let rows = owned(&[
        ("</invoke>", &INVOKE_AFTER_CALL),
        ("</parameter>", &INVOKE_AFTER_PARAM),
    ]);
    for dialect in [Dialect::Xml, Dialect::Anthropic] {
        let rules = value_rules(dialect);
        assert_eq!(closers(dialect), rows, "{dialect}");
        assert_eq!(rules.line_openers, ["\n<parameter"], "{dialect}");
        assert!(rules.stops.is_empty(), "{dialect}");
    }
    assert!(value_rules(Dialect::Xml).key_closer.is_none());
    let key = value_rules(Dialect::Anthropic).key_closer.as_deref();
    assert_eq!(
        key.map(spell),
        Some(INVOKE_AFTER_PARAM.map(String::from).to_vec())
    );
}

#[test]
fn minimax() {
    let after_param = [
        "</invoke>",
        "</minimax:tool_call>@wrapper",
        "</tool_call>@wrapper",
        "<invoke+tag",
        "<parameter+tag",
        "[e~[",
    ];
    let after_call = [
        "</minimax:tool_call>@wrapper",
        "</tool_call>@wrapper",
        "<invoke+tag",
        "[e~[",
    ];
    let rules = value_rules(Dialect::Minimax);
    assert_eq!(
        closers(Dialect::Minimax),
        owned(&[("</invoke>", &after_call), ("</parameter>", &after_param)])
    );
    assert_eq!(
        rules.key_closer.as_deref().map(spell),
        Some(after_param.map(String::from).to_vec())
    );
    assert_eq!(rules.line_openers, ["\n<parameter"]);
    assert_eq!(rules.stops, ["[e~["]);
}

#[test]
fn qwen3_coder() {
    let rules = value_rules(Dialect::Qwen3Coder);
    // The misspelled closers (docs/dialects.md §qwen3-coder) close a value too, so a value
    // holding one before structure is refused like one holding `</parameter>`.
    let after_param = [
        "</function>",
        "</tool_call>@wrapper",
        "<function=+tag",
        "<parameter=+tag",
        "<|endoftext|>",
        "<|im_end|>",
    ];
    let after_call = [
        "</tool_call>@wrapper",
        "<function=+tag",
        "<|endoftext|>",
        "<|im_end|>",
    ];
    assert_eq!(
        closers(Dialect::Qwen3Coder),
        owned(&[
            ("\n</function>", &after_call),
            ("</parameter\n", &after_param),
            ("</parameter/>", &after_param),
            ("</parameter1>", &after_param),
            ("</parameter>", &after_param),
            ("</parameter_function>", &after_call),
            ("</parameterfunction>", &after_call),
        ])
    );
    assert!(rules.key_closer.is_none());
    assert_eq!(rules.line_openers, ["\n<parameter="]);
    assert_eq!(rules.stops, ["<|im_end|>", "<|endoftext|>"]);
}

#[test]
fn seed_oss() {
    let rules = value_rules(Dialect::SeedOss);
    assert_eq!(
        closers(Dialect::SeedOss),
        owned(&[
            (
                "\n</function>",
                &["</seed:tool_call>@wrapper", "<function=+tag", "<seed:eos>"]
            ),
            (
                "</parameter>",
                &[
                    "</function>",
                    "</seed:tool_call>@wrapper",
                    "<function=+tag",
                    "<parameter=+tag",
                    "<seed:eos>",
                ]
            ),
        ])
    );
    assert!(rules.key_closer.is_none());
    assert_eq!(rules.line_openers, ["\n<parameter="]);
    assert_eq!(rules.stops, ["<seed:eos>"]);
}

#[test]
fn glm() {
    let stops = ["<|endoftext|>", "<|observation|>", "<|user|>"];
    let with = |extra: &[&'static str]| {
        let mut v: Vec<&str> = extra.to_vec();
        v.extend(stops);
        v.sort();
        v
    };
    let rules = value_rules(Dialect::Glm);
    let after_key = with(&["</arg_value>", "</tool_call>", "<arg_key>", "<tool_call>"]);
    let after_value = with(&["</tool_call>", "<arg_key>", "<tool_call>"]);
    let after_call = with(&["<tool_call>"]);
    assert_eq!(
        closers(Dialect::Glm),
        owned(&[
            ("</arg_key>", &after_key),
            ("</arg_value>", &after_value),
            ("</tool_call>", &after_call),
        ])
    );
    assert!(rules.key_closer.is_none());
    assert!(rules.line_openers.is_empty());
    assert_eq!(
        rules.stops,
        ["<|user|>", "<|observation|>", "<|endoftext|>"]
    );
}

/// The key/value family's other tables: glm's closers with their own tags, and for the
/// sectioned ones the section closer after a value or a call.
#[test]
fn hunyuan() {
    let stops = ["<｜hy_User:opensource｜>", "<｜hy_eos:opensource｜>"];
    let with = |extra: &[&'static str]| {
        let mut v: Vec<&str> = extra.to_vec();
        v.extend(stops);
        v.sort();
        v
    };
    let after_key = with(&[
        "</arg_value:opensource>",
        "</tool_call:opensource>",
        "<arg_key:opensource>",
        "<tool_call:opensource>",
    ]);
    let after_value = with(&[
        "</tool_call:opensource>",
        "</tool_calls:opensource>@wrapper",
        "<arg_key:opensource>",
        "<tool_call:opensource>",
    ]);
    let after_call = with(&["</tool_calls:opensource>@wrapper", "<tool_call:opensource>"]);
    assert_eq!(
        closers(Dialect::Hunyuan),
        owned(&[
            ("</arg_key:opensource>", &after_key),
            ("</arg_value:opensource>", &after_value),
            ("</tool_call:opensource>", &after_call),
        ])
    );
    assert_eq!(value_rules(Dialect::Hunyuan).stops, stops);
}

#[test]
fn iquest_q1() {
    let after_key = [
        "</arg_value>",
        "</iquest_tool_call>",
        "<arg_key>",
        "<iquest_tool_call>",
        "<|iquest_end|>",
    ];
    let after_value = [
        "</iquest_tool_call>",
        "<arg_key>",
        "<iquest_tool_call>",
        "<|iquest_end|>",
    ];
    let after_call = ["<iquest_tool_call>", "<|iquest_end|>"];
    assert_eq!(
        closers(Dialect::IquestQ1),
        owned(&[
            ("</arg_key>", &after_key),
            ("</arg_value>", &after_value),
            ("</iquest_tool_call>", &after_call),
        ])
    );
    assert_eq!(value_rules(Dialect::IquestQ1).stops, ["<|iquest_end|>"]);
}

#[test]
fn k2_horizon() {
    let stops = ["<|ifm|endoftext|>", "<|ifm|im_end|>"];
    let with = |extra: &[&'static str]| {
        let mut v: Vec<&str> = extra.to_vec();
        v.extend(stops);
        v.sort();
        v
    };
    let after_key = with(&[
        "</ifm|arg_value>",
        "</ifm|tool_call>",
        "<ifm|arg_key>",
        "<ifm|tool_call>",
    ]);
    let after_value = with(&[
        "</ifm|tool_call>",
        "</ifm|tool_calls>@wrapper",
        "<ifm|arg_key>",
        "<ifm|tool_call>",
    ]);
    let after_call = with(&["</ifm|tool_calls>@wrapper", "<ifm|tool_call>"]);
    assert_eq!(
        closers(Dialect::K2Horizon),
        owned(&[
            ("</ifm|arg_key>", &after_key),
            ("</ifm|arg_value>", &after_value),
            ("</ifm|tool_call>", &after_call),
        ])
    );
    assert_eq!(
        value_rules(Dialect::K2Horizon).stops,
        ["<|ifm|im_end|>", "<|ifm|endoftext|>"]
    );
}

#[test]
fn dialects_without_raw_values_have_no_rules() {
    for dialect in [
        Dialect::Hermes,
        Dialect::Kimi,
        Dialect::Gemma,
        Dialect::Harmony,
    ] {
        let rules = value_rules(dialect);
        assert!(
            rules.closers.is_empty() && rules.stops.is_empty(),
            "{dialect}"
        );
    }
}

/// Spaced DSML, both pipe spellings of every tag (docs/dialects.md §deepseek-v41).
#[test]
fn deepseek_v41() {
    let after_call: &[&str] = &[
        "</|DSML| calls>@wrapper",
        "</｜DSML｜ calls>@wrapper",
        "<|DSML| invoke+tag",
        "<｜DSML｜ invoke+tag",
        "<｜end▁of▁sentence｜>",
    ];
    let after_param: &[&str] = &[
        "</|DSML| calls>@wrapper",
        "</|DSML| invoke>",
        "</｜DSML｜ calls>@wrapper",
        "</｜DSML｜ invoke>",
        "<|DSML| invoke+tag",
        "<|DSML| parameter+tag",
        "<｜DSML｜ invoke+tag",
        "<｜DSML｜ parameter+tag",
        "<｜end▁of▁sentence｜>",
    ];
    let rules = value_rules(Dialect::DeepseekV41);
    assert_eq!(
        closers(Dialect::DeepseekV41),
        owned(&[
            ("</|DSML| invoke>", after_call),
            ("</|DSML| parameter>", after_param),
            ("</｜DSML｜ invoke>", after_call),
            ("</｜DSML｜ parameter>", after_param),
        ])
    );
    assert!(rules.key_closer.is_none());
    assert!(rules.line_openers.is_empty());
    assert_eq!(rules.stops, ["<｜end▁of▁sentence｜>"]);
}

/// XTML, every tag ended by `<|sep|>` (docs/dialects.md §kimi-k3).
#[test]
fn kimi_k3() {
    let after_call: &[&str] = &[
        "<|close|>message<|sep|>",
        "<|close|>tools<|sep|>@wrapper",
        "<|open|>call+tag",
    ];
    let after_param: &[&str] = &[
        "<|close|>call<|sep|>",
        "<|close|>message<|sep|>",
        "<|close|>tools<|sep|>@wrapper",
        "<|open|>argument+tag",
        "<|open|>call+tag",
    ];
    let rules = value_rules(Dialect::KimiK3);
    assert_eq!(
        closers(Dialect::KimiK3),
        owned(&[
            ("<|close|>argument<|sep|>", after_param),
            ("<|close|>call<|sep|>", after_call),
        ])
    );
    assert!(rules.closers[0].follows.iter().all(|f| f.end == Some(b'<')));
    assert!(rules.key_closer.is_none());
    assert!(rules.line_openers.is_empty());
    assert_eq!(rules.stops, ["<|close|>message<|sep|>"]);
}

/// Step-3: each call's section closed by `<｜tool_call_end｜>` (either pipe), the steptml
/// invoke inside it, a line-initial parameter tag ending a value that lost its closer
/// (docs/dialects.md §step3).
#[test]
fn step3() {
    let after_call: &[&str] = &[
        "<steptml:invoke+tag",
        "<|EOT|>",
        "<|tool_call_end|>@wrapper",
        "<｜tool_call_end｜>@wrapper",
    ];
    let after_param: &[&str] = &[
        "</steptml:invoke>",
        "<steptml:invoke+tag",
        "<steptml:parameter+tag",
        "<|EOT|>",
        "<|tool_call_end|>@wrapper",
        "<｜tool_call_end｜>@wrapper",
    ];
    let rules = value_rules(Dialect::Step3);
    assert_eq!(
        closers(Dialect::Step3),
        owned(&[
            ("</steptml:invoke>", after_call),
            ("</steptml:parameter>", after_param),
        ])
    );
    assert!(rules.key_closer.is_none());
    assert_eq!(rules.line_openers, ["\n<steptml:parameter"]);
    assert_eq!(rules.stops, ["<|EOT|>"]);
}

/// GigaChat 3.5: deepseek-v41's rows with the `GCML` tags, fullwidth pipes only, and the
/// turn's two stop tokens (docs/dialects.md §gigachat35).
#[test]
fn gigachat35() {
    let after_call: &[&str] = &[
        "</s>",
        "</｜GCML｜tool_calls>@wrapper",
        "<|message_sep|>",
        "<｜GCML｜invoke+tag",
    ];
    let after_param: &[&str] = &[
        "</s>",
        "</｜GCML｜invoke>",
        "</｜GCML｜tool_calls>@wrapper",
        "<|message_sep|>",
        "<｜GCML｜invoke+tag",
        "<｜GCML｜parameter+tag",
    ];
    let rules = value_rules(Dialect::Gigachat35);
    assert_eq!(
        closers(Dialect::Gigachat35),
        owned(&[
            ("</｜GCML｜invoke>", after_call),
            ("</｜GCML｜parameter>", after_param),
        ])
    );
    assert!(rules.key_closer.is_none());
    assert!(rules.line_openers.is_empty());
    assert_eq!(rules.stops, ["<|message_sep|>", "</s>"]);
}

/// MiMo-V2: seed-oss's rows in qwen3-coder's `<tool_call>` block, ChatML's two stop tokens
/// (docs/dialects.md §mimo).
#[test]
fn mimo() {
    let rules = value_rules(Dialect::Mimo);
    assert_eq!(
        closers(Dialect::Mimo),
        owned(&[
            (
                "\n</function>",
                &[
                    "</tool_call>@wrapper",
                    "<function=+tag",
                    "<|endoftext|>",
                    "<|im_end|>",
                ]
            ),
            (
                "</parameter>",
                &[
                    "</function>",
                    "</tool_call>@wrapper",
                    "<function=+tag",
                    "<parameter=+tag",
                    "<|endoftext|>",
                    "<|im_end|>",
                ]
            ),
        ])
    );
    assert!(rules.key_closer.is_none());
    assert_eq!(rules.line_openers, ["\n<parameter="]);
    assert_eq!(rules.stops, ["<|im_end|>", "<|endoftext|>"]);
}

/// MiniMax-M3: one tag start after a value (the element form), the generic closer start
/// after the namespace marker, MiniMax's end of turn (docs/dialects.md §minimax-m3).
#[test]
fn minimax_m3() {
    let after_param = ["[e~[", "]<]minimax[>[<+tag"];
    let rules = value_rules(Dialect::MinimaxM3);
    assert_eq!(
        closers(Dialect::MinimaxM3),
        owned(&[("]<]minimax[>[</invoke>", &["[e~["])])
    );
    assert_eq!(
        rules.key_closer.as_deref().map(spell),
        Some(after_param.map(String::from).to_vec())
    );
    assert_eq!(rules.key_closer_start, "]<]minimax[>[</");
    assert!(rules.line_openers.is_empty());
    assert_eq!(rules.stops, ["[e~["]);
}
