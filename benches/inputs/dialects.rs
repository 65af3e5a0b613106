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
        Dialect::Muse => ("<|start|>assistant to=user<|message|>", "<|eom|>"),
        _ => ("", ""),
    }
}

/// A call in `dialect` (the `index`th call of the response) and how many of its bytes are
/// argument text: the JSON object, or for parameters (raw-text or literal) the values as
/// written, which the scanner reports as `tool_value` pieces.
pub(super) fn write_call(dialect: Dialect, name: &str, args: &str, index: u64) -> (String, u64) {
    if let Some((open, close)) = json_markup(dialect, name, index) {
        return (format!("{open}{args}{close}"), args.len() as u64);
    }
    if let Some(markup) = param_markup(dialect) {
        return raw_params(args, name, markup);
    }
    match dialect {
        // Literal syntax: `<|"|>` strings without escapes, bare keys, no whitespace.
        Dialect::Gemma => literal_call(
            args,
            format!("<|tool_call>call:{name}{{"),
            (",", ":"),
            gemma_value,
            "}<tool_call|>",
        ),
        // Gemma 4's body with FunctionGemma's tokens and `<escape>` strings.
        Dialect::FunctionGemma => literal_call(
            args,
            format!("<start_function_call>call:{name}{{"),
            (",", ":"),
            functiongemma_value,
            "}<end_function_call>",
        ),
        // A Python call in a tool_code block: keyword arguments, Python literals.
        Dialect::Gemini => literal_call(
            args,
            format!("```tool_code\ndefault_api.{name}("),
            (", ", "="),
            python_value,
            ")\n```",
        ),
        // Olmo 3's block, one call a line (read wherever it stands).
        Dialect::Pythonic => literal_call(
            args,
            format!("<function_calls>\n{name}("),
            (", ", "="),
            python_value,
            ")\n</function_calls>",
        ),
        // LFM2: a one-call Python list between its tokens.
        Dialect::Lfm2 => literal_call(
            args,
            format!("<|tool_call_start|>[{name}("),
            (", ", "="),
            python_value,
            ")]<|tool_call_end|>",
        ),
        _ => panic!("no bench rendering for {dialect}"),
    }
}

/// The text before and after the JSON arguments of a call in `dialect`, if its calls are a
/// JSON object in tags or tokens.
fn json_markup(dialect: Dialect, name: &str, index: u64) -> Option<(String, &'static str)> {
    Some(match dialect {
        Dialect::Hermes | Dialect::Qwen3 => (
            format!("<tool_call>\n{{\"name\": \"{name}\", \"arguments\": "),
            "}\n</tool_call>",
        ),
        Dialect::Longcat => (
            format!("<longcat_tool_call>\n{{\"name\": \"{name}\", \"arguments\": "),
            "}\n</longcat_tool_call>",
        ),
        // One block per call here, its array of one element (a turn may also put every
        // call in one array).
        Dialect::Jamba => (
            format!("<tool_calls>[{{\"name\": \"{name}\", \"arguments\": "),
            "}]</tool_calls>",
        ),
        // Each call its own array here; the `]` ends it, no closer.
        Dialect::Granite => (
            format!("<|tool_call|>[{{\"name\": \"{name}\", \"arguments\": "),
            "}]",
        ),
        // Jamba's block, in the answer's wrapper.
        Dialect::HunyuanA13b => (
            format!("<answer><tool_calls>[{{\"name\": \"{name}\", \"arguments\": "),
            "}]</tool_calls></answer>",
        ),
        // One array per block, Cohere's keys (the model's own id first).
        Dialect::Cohere => (
            format!(
                "<|START_ACTION|>[{{\"tool_call_id\": \"{index}\", \"tool_name\": \"{name}\", \"parameters\": "
            ),
            "}]<|END_ACTION|>",
        ),
        // One array per block, the name the object's one key.
        Dialect::Apertus => (
            format!("<|tools_prefix|>[{{\"{name}\": "),
            "}]<|tools_suffix|>",
        ),
        Dialect::Ernie45 => (
            format!("<tool_call>\n{{\"name\": \"{name}\", \"arguments\": "),
            "}\n</tool_call>",
        ),
        Dialect::Granite20bFc => (
            format!("<function_call> {{\"name\": \"{name}\", \"arguments\": "),
            "}",
        ),
        // Each call a `function call` message; the object ends it, no closer.
        Dialect::Gigachat3 => (
            format!("function call<|role_sep|>\n{{\"name\": \"{name}\", \"arguments\": "),
            "}",
        ),
        // A section of one call: the name in its tags, the two-part arguments opener.
        Dialect::Plamo3 => (
            format!(
                "<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>{name}<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>"
            ),
            "<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|><|plamo:end_tool_requests:plamo|>",
        ),
        // Each call its own array after the plain-text marker; the `]` ends it.
        Dialect::Phi4Mini => (
            format!("functools[{{\"name\": \"{name}\", \"arguments\": "),
            "}]",
        ),
        // The v11+ form: one `[TOOL_CALLS]` per call, no closer.
        Dialect::Mistral => (format!("[TOOL_CALLS]{name}[ARGS]"), ""),
        // The tag before each call (read wherever it stands), the object ends the call.
        Dialect::Llama3Json => (
            format!("<|python_tag|>{{\"name\": \"{name}\", \"parameters\": "),
            "}",
        ),
        // Each call its own array in the tags here (a turn may also put every call in one).
        Dialect::Xlam => (
            format!("<tool_call>[{{\"name\": \"{name}\", \"arguments\": "),
            "}]</tool_call>",
        ),
        Dialect::Internlm => (
            format!("<|action_start|><|plugin|>\n{{\"name\": \"{name}\", \"parameters\": "),
            "}<|action_end|>",
        ),
        Dialect::Kimi => (
            format!(
                "<|tool_calls_section_begin|><|tool_call_begin|>functions.{name}:{index}<|tool_call_argument_begin|>"
            ),
            "<|tool_call_end|><|tool_calls_section_end|>",
        ),
        Dialect::Deepseek => (
            format!("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>{name}<｜tool▁sep｜>"),
            "<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
        ),
        Dialect::Harmony => (
            format!("<|start|>assistant<|channel|>commentary to=functions.{name} <|constrain|>json<|message|>"),
            "<|call|>",
        ),
        _ => return None,
    })
}

/// A dialect's raw-text parameter markup: a call is `open.0 NAME open.1`, then per
/// parameter `param.0 KEY param.1 TEXT param.2`, then `close`.
struct ParamMarkup {
    open: (&'static str, &'static str),
    param: (&'static str, &'static str, &'static str),
    close: &'static str,
}

static XML: ParamMarkup = ParamMarkup {
    open: ("<tool_calls>\n<invoke name=\"", "\">\n"),
    param: ("<parameter name=\"", "\">", "</parameter>\n"),
    close: "</invoke>\n</tool_calls>",
};
static ANTHROPIC: ParamMarkup = ParamMarkup {
    open: ("<function_calls>\n<invoke name=\"", "\">\n"),
    param: ("<parameter name=\"", "\">", "</parameter>\n"),
    close: "</invoke>\n</function_calls>",
};
static MINIMAX: ParamMarkup = ParamMarkup {
    open: ("<minimax:tool_call>\n<invoke name=\"", "\">\n"),
    param: ("<parameter name=\"", "\">", "</parameter>\n"),
    close: "</invoke>\n</minimax:tool_call>",
};
/// The newline on each side of a value is the template's framing, not value text.
static QWEN3_CODER: ParamMarkup = ParamMarkup {
    open: ("<tool_call>\n<function=", ">\n"),
    param: ("<parameter=", ">\n", "\n</parameter>\n"),
    close: "</function>\n</tool_call>",
};
/// No framing: every byte between the parameter tags is value text.
static SEED_OSS: ParamMarkup = ParamMarkup {
    open: ("<seed:tool_call>\n<function=", ">\n"),
    param: ("<parameter=", ">", "</parameter>\n"),
    close: "</function>\n</seed:tool_call>",
};
static GLM: ParamMarkup = ParamMarkup {
    open: ("<tool_call>", "\n"),
    param: ("<arg_key>", "</arg_key>\n<arg_value>", "</arg_value>\n"),
    close: "</tool_call>",
};
static HUNYUAN: ParamMarkup = ParamMarkup {
    open: (
        "<tool_calls:opensource>\n<tool_call:opensource>",
        "<tool_sep:opensource>\n",
    ),
    param: (
        "<arg_key:opensource>",
        "</arg_key:opensource>\n<arg_value:opensource>",
        "</arg_value:opensource>\n",
    ),
    close: "</tool_call:opensource>\n</tool_calls:opensource>",
};

static IQUEST_Q1: ParamMarkup = ParamMarkup {
    open: ("<iquest_tool_call>", ""),
    param: ("<arg_key>", "</arg_key><arg_value>", "</arg_value>"),
    close: "</iquest_tool_call>",
};

static K2_HORIZON: ParamMarkup = ParamMarkup {
    open: ("<ifm|tool_calls>\n<ifm|tool_call>", "\n"),
    param: (
        "<ifm|arg_key>",
        "</ifm|arg_key>\n<ifm|arg_value>",
        "</ifm|arg_value>\n",
    ),
    close: "</ifm|tool_call>\n</ifm|tool_calls>",
};

/// Spaced DSML: every value raw text (`string="true"`).
static DEEPSEEK_V41: ParamMarkup = ParamMarkup {
    open: ("<｜DSML｜ calls>\n<｜DSML｜ invoke name=\"", "\">\n"),
    param: (
        "<｜DSML｜ parameter name=\"",
        "\" string=\"true\">",
        "</｜DSML｜ parameter>\n",
    ),
    close: "</｜DSML｜ invoke>\n</｜DSML｜ calls>",
};

static DOTS: ParamMarkup = ParamMarkup {
    open: ("<dots_function_call>\n<invoke name=\"", "\">\n"),
    param: ("<parameter name=\"", "\">", "</parameter>\n"),
    close: "</invoke>\n</dots_function_call>",
};

static MINICPM5: ParamMarkup = ParamMarkup {
    open: ("<function name=\"", "\">"),
    param: ("<param name=\"", "\">", "</param>"),
    close: "</function>",
};

/// Kimi K3's XTML: every value raw text (`type="string"`), the parts back to back.
static KIMI_K3: ParamMarkup = ParamMarkup {
    open: (
        "<|open|>tools<|sep|><|open|>call tool=\"",
        "\" index=\"1\"<|sep|>",
    ),
    param: (
        "<|open|>argument key=\"",
        "\" type=\"string\"<|sep|>",
        "<|close|>argument<|sep|>",
    ),
    close: "<|close|>call<|sep|><|close|>tools<|sep|>",
};

/// One tool message per call, its recipient a namespace (the invoke names the tool).
static MUSE: ParamMarkup = ParamMarkup {
    open: (
        "<|start|>assistant to=functions<|message|><atem:function_calls>\n<atem:invoke name=\"",
        "\">\n",
    ),
    param: ("<atem:parameter name=\"", "\">", "</atem:parameter>\n"),
    close: "</atem:invoke>\n</atem:function_calls><|eom|>",
};

static MIMO: ParamMarkup = ParamMarkup {
    open: ("<tool_call>\n<function=", ">\n"),
    param: ("<parameter=", ">", "</parameter>\n"),
    close: "</function>\n</tool_call>",
};

static STEP3: ParamMarkup = ParamMarkup {
    open: (
        "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"",
        "\">\n",
    ),
    param: (
        "<steptml:parameter name=\"",
        "\">",
        "</steptml:parameter>\n",
    ),
    close: "</steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>",
};

/// MiniMax-M3: each parameter an element named after its key (`{key}` in the closer is the
/// key).
static MINIMAX_M3: ParamMarkup = ParamMarkup {
    open: (
        "]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name=\"",
        "\">\n",
    ),
    param: ("]<]minimax[>[<", ">", "]<]minimax[>[</{key}>\n"),
    close: "]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>",
};

static GIGACHAT35: ParamMarkup = ParamMarkup {
    open: ("<｜GCML｜tool_calls>\n<｜GCML｜invoke name=\"", "\">\n"),
    param: (
        "<｜GCML｜parameter name=\"",
        "\" string=\"true\">",
        "</｜GCML｜parameter>\n",
    ),
    close: "</｜GCML｜invoke>\n</｜GCML｜tool_calls>",
};

/// The raw-text parameter markup of `dialect`, if its calls are written so.
fn param_markup(dialect: Dialect) -> Option<&'static ParamMarkup> {
    match dialect {
        Dialect::Xml => Some(&XML),
        Dialect::Anthropic => Some(&ANTHROPIC),
        Dialect::Minimax => Some(&MINIMAX),
        Dialect::Qwen3Coder => Some(&QWEN3_CODER),
        Dialect::SeedOss => Some(&SEED_OSS),
        Dialect::Glm => Some(&GLM),
        Dialect::Hunyuan => Some(&HUNYUAN),
        Dialect::IquestQ1 => Some(&IQUEST_Q1),
        Dialect::K2Horizon => Some(&K2_HORIZON),
        Dialect::DeepseekV41 => Some(&DEEPSEEK_V41),
        Dialect::Dots => Some(&DOTS),
        Dialect::Minicpm5 => Some(&MINICPM5),
        Dialect::KimiK3 => Some(&KIMI_K3),
        Dialect::Muse => Some(&MUSE),
        Dialect::Mimo => Some(&MIMO),
        Dialect::Step3 => Some(&STEP3),
        Dialect::Gigachat35 => Some(&GIGACHAT35),
        Dialect::MinimaxM3 => Some(&MINIMAX_M3),
        _ => None,
    }
}

/// A call of raw-text parameters, one per top-level key of `args` (strings raw, other
/// values as JSON text), in `markup`, and how many bytes the values are.
fn raw_params(args: &str, name: &str, markup: &ParamMarkup) -> (String, u64) {
    let mut call = format!("{}{name}{}", markup.open.0, markup.open.1);
    let mut values = 0;
    for (key, value) in &json_object(args) {
        let text = match value {
            serde_json::Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        values += text.len() as u64;
        let (before_key, before_text, after) = markup.param;
        let after = after.replace("{key}", key);
        call.push_str(&format!("{before_key}{key}{before_text}{text}{after}"));
    }
    call.push_str(markup.close);
    (call, values)
}

/// A call in a literal syntax: `open`, then each top-level key of `args` and its value
/// written by `value`, the pairs separated by `separators.0` and each key from its value by
/// `separators.1`, then `close`; and how many bytes the values are.
fn literal_call(
    args: &str,
    open: String,
    separators: (&str, &str),
    value: fn(&serde_json::Value) -> String,
    close: &str,
) -> (String, u64) {
    let (comma, equals) = separators;
    let mut call = open;
    let mut values = 0;
    for (k, (key, item)) in json_object(args).iter().enumerate() {
        let text = value(item);
        values += text.len() as u64;
        let comma = if k > 0 { comma } else { "" };
        call.push_str(&format!("{comma}{key}{equals}{text}"));
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
    literal_value(value, "<|\"|>")
}

/// `value` in FunctionGemma's: Gemma 4's with `<escape>` strings (docs/dialects.md
/// §functiongemma).
fn functiongemma_value(value: &serde_json::Value) -> String {
    literal_value(value, "<escape>")
}

/// `value` in the gemma family's literal syntax, strings between `quote` tokens.
fn literal_value(value: &serde_json::Value, quote: &str) -> String {
    use serde_json::Value;
    match value {
        Value::String(text) => format!("{quote}{text}{quote}"),
        Value::Array(items) => {
            let items: Vec<String> = items
                .iter()
                .map(|item| literal_value(item, quote))
                .collect();
            format!("[{}]", items.join(","))
        }
        Value::Object(object) => {
            let entries: Vec<String> = object
                .iter()
                .map(|(key, value)| format!("{key}:{}", literal_value(value, quote)))
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
