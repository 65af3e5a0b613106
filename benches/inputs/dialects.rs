//! How a transcript is written in each dialect: prose in its markup, calls as JSON objects,
//! raw-text parameters or literals, with the text and argument bytes a scan must report.

use inband::Dialect;

use super::Input;

/// One piece of a transcript before it is written in a dialect.
pub(super) enum Piece {
    /// Visible prose.
    Prose(Vec<u8>),
    /// A call: its name and its arguments as one JSON object.
    Call(&'static str, String),
}

/// Writes `pieces` as a response in `dialect`, counting text and argument bytes.
pub(super) fn render(dialect: Dialect, pieces: &[Piece]) -> Input {
    let mut input = Input {
        dialect,
        bytes: Vec::new(),
        calls: 0,
        text: 0,
        args: 0,
    };
    // Harmony text lives in messages: adjacent prose pieces make one `final` message.
    let mut prose_open = false;
    for piece in pieces {
        match piece {
            Piece::Prose(prose) => {
                if !prose_open {
                    input
                        .bytes
                        .extend_from_slice(prose_markup(dialect).0.as_bytes());
                    prose_open = true;
                }
                input.bytes.extend_from_slice(prose);
                input.text += prose.len() as u64;
            }
            Piece::Call(name, args) => {
                if prose_open {
                    input
                        .bytes
                        .extend_from_slice(prose_markup(dialect).1.as_bytes());
                    prose_open = false;
                }
                let (call, args) = write_call(dialect, name, args, input.calls);
                input.bytes.extend_from_slice(call.as_bytes());
                input.calls += 1;
                input.args += args;
            }
        }
    }
    if prose_open {
        input
            .bytes
            .extend_from_slice(prose_markup(dialect).1.as_bytes());
    }
    input
}

/// The markup around a run of visible prose in `dialect`.
fn prose_markup(dialect: Dialect) -> (&'static str, &'static str) {
    match dialect {
        Dialect::Harmony => ("<|start|>assistant<|channel|>final<|message|>", "<|end|>"),
        _ => ("", ""),
    }
}

/// A call in `dialect` (the `index`th call of the response) and how many of its bytes are
/// argument text: the JSON object, or for parameters (raw-text or literal) the values as
/// written, which the scanner reports as `tool_value` pieces.
pub(super) fn write_call(dialect: Dialect, name: &str, args: &str, index: u64) -> (String, u64) {
    let json = |open: String, close: &str| (format!("{open}{args}{close}"), args.len() as u64);
    match dialect {
        Dialect::Hermes | Dialect::Qwen3 => json(
            format!("<tool_call>\n{{\"name\": \"{name}\", \"arguments\": "),
            "}\n</tool_call>",
        ),
        Dialect::Kimi => json(
            format!(
                "<|tool_calls_section_begin|><|tool_call_begin|>functions.{name}:{index}<|tool_call_argument_begin|>"
            ),
            "<|tool_call_end|><|tool_calls_section_end|>",
        ),
        Dialect::Deepseek => json(
            format!("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>{name}<｜tool▁sep｜>"),
            "<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
        ),
        Dialect::Harmony => json(
            format!("<|start|>assistant<|channel|>commentary to=functions.{name} <|constrain|>json<|message|>"),
            "<|call|>",
        ),
        Dialect::Xml => raw_params(
            args,
            format!("<tool_calls>\n<invoke name=\"{name}\">\n"),
            |key, text| format!("<parameter name=\"{key}\">{text}</parameter>\n"),
            "</invoke>\n</tool_calls>",
        ),
        Dialect::Anthropic => raw_params(
            args,
            format!("<function_calls>\n<invoke name=\"{name}\">\n"),
            |key, text| format!("<parameter name=\"{key}\">{text}</parameter>\n"),
            "</invoke>\n</function_calls>",
        ),
        Dialect::Minimax => raw_params(
            args,
            format!("<minimax:tool_call>\n<invoke name=\"{name}\">\n"),
            |key, text| format!("<parameter name=\"{key}\">{text}</parameter>\n"),
            "</invoke>\n</minimax:tool_call>",
        ),
        // The newline on each side of a value is the template's framing, not value text.
        Dialect::Qwen3Coder => raw_params(
            args,
            format!("<tool_call>\n<function={name}>\n"),
            |key, text| format!("<parameter={key}>\n{text}\n</parameter>\n"),
            "</function>\n</tool_call>",
        ),
        Dialect::Glm => raw_params(
            args,
            format!("<tool_call>{name}\n"),
            |key, text| format!("<arg_key>{key}</arg_key>\n<arg_value>{text}</arg_value>\n"),
            "</tool_call>",
        ),
        Dialect::Gemma => {
            // Literal syntax: `<|"|>` strings without escapes, bare keys, no whitespace.
            let mut call = format!("<|tool_call>call:{name}{{");
            let mut values = 0;
            for (k, (key, value)) in json_object(args).iter().enumerate() {
                let text = gemma_value(value);
                values += text.len() as u64;
                let comma = if k > 0 { "," } else { "" };
                call.push_str(&format!("{comma}{key}:{text}"));
            }
            call.push_str("}<tool_call|>");
            (call, values)
        }
        Dialect::Gemini => {
            // A Python call in a tool_code block: keyword arguments, Python literals.
            let mut call = format!("```tool_code\ndefault_api.{name}(");
            let mut values = 0;
            for (k, (key, value)) in json_object(args).iter().enumerate() {
                let text = python_value(value);
                values += text.len() as u64;
                let comma = if k > 0 { ", " } else { "" };
                call.push_str(&format!("{comma}{key}={text}"));
            }
            call.push_str(")\n```");
            (call, values)
        }
        _ => panic!("no bench rendering for {dialect}"),
    }
}

/// A call of raw-text parameters, one per top-level key of `args` (strings raw, other
/// values as JSON text), between `open` and `close`, and how many bytes the values are.
fn raw_params(
    args: &str,
    open: String,
    param: impl Fn(&str, &str) -> String,
    close: &str,
) -> (String, u64) {
    let mut call = open;
    let mut values = 0;
    for (key, value) in &json_object(args) {
        let text = match value {
            serde_json::Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        values += text.len() as u64;
        call.push_str(&param(key, &text));
    }
    call.push_str(close);
    (call, values)
}

/// The bench arguments, a JSON object.
fn json_object(args: &str) -> serde_json::Map<String, serde_json::Value> {
    serde_json::from_str(args).expect("bench arguments are a JSON object")
}

/// `value` in Gemma 4's literal syntax (docs/dialects.md §gemma).
fn gemma_value(value: &serde_json::Value) -> String {
    use serde_json::Value;
    match value {
        Value::String(text) => format!("<|\"|>{text}<|\"|>"),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(gemma_value).collect();
            format!("[{}]", items.join(","))
        }
        Value::Object(object) => {
            let entries: Vec<String> = object
                .iter()
                .map(|(key, value)| format!("{key}:{}", gemma_value(value)))
                .collect();
            format!("{{{}}}", entries.join(","))
        }
        other => other.to_string(),
    }
}

/// `value` as a Python literal (JSON's string escapes are Python's too).
fn python_value(value: &serde_json::Value) -> String {
    use serde_json::Value;
    match value {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(python_value).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(object) => {
            let entries: Vec<String> = object
                .iter()
                .map(|(key, value)| {
                    format!("{}: {}", Value::from(key.as_str()), python_value(value))
                })
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
        other => other.to_string(),
    }
}
