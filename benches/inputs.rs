//! Deterministic benchmark inputs (Hermes transcripts) and the counting sink that checks
//! them, shared by `throughput.rs` and `instructions.rs` through `#[path]`.

// Each bench uses a different subset of these helpers.
#![allow(dead_code)]

use std::hint::black_box;

use inband::{CallEnd, Dialect, Markup, Options, Scanner, Sink, Span};

/// A generated transcript and what a correct scan of it must report.
pub struct Input {
    /// The dialect it is written in.
    pub dialect: Dialect,
    /// The transcript bytes.
    pub bytes: Vec<u8>,
    /// Tool calls in it, every one complete and well-formed.
    pub calls: u64,
    /// Bytes of visible text (everything outside the calls' markup).
    pub text: u64,
    /// Bytes of argument text (the arguments object of every call).
    pub args: u64,
}

/// One piece of a transcript before it is written in a dialect.
enum Piece {
    /// Visible prose.
    Prose(Vec<u8>),
    /// A call: its name and its arguments as one JSON object.
    Call(&'static str, String),
}

/// Writes `pieces` as a response in `dialect`, counting text and argument bytes.
fn render(dialect: Dialect, pieces: &[Piece]) -> Input {
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
fn write_call(dialect: Dialect, name: &str, args: &str, index: u64) -> (String, u64) {
    let json = |open: String, close: &str| (format!("{open}{args}{close}"), args.len() as u64);
    match dialect {
        Dialect::Hermes | Dialect::Qwen3 => json(
            format!("<tool_call>\n{{\"name\": \"{name}\", \"arguments\": "),
            "}\n</tool_call>",
        ),
        Dialect::Longcat => json(
            format!("<longcat_tool_call>\n{{\"name\": \"{name}\", \"arguments\": "),
            "}\n</longcat_tool_call>",
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
        // No framing: every byte between the parameter tags is value text.
        Dialect::SeedOss => raw_params(
            args,
            format!("<seed:tool_call>\n<function={name}>\n"),
            |key, text| format!("<parameter={key}>{text}</parameter>\n"),
            "</function>\n</seed:tool_call>",
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

impl Input {
    /// Size in bytes.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Panics unless `counts` is exactly what this input must give.
    pub fn check(&self, counts: &Counts) {
        assert_eq!(counts.starts, self.calls, "tool_start count");
        assert_eq!(counts.names, 0, "every name comes before the arguments");
        assert_eq!(counts.complete, self.calls, "complete tool_end count");
        assert_eq!(
            counts.other_ends, 0,
            "incomplete/invalid/demoted tool_end count"
        );
        assert_eq!(counts.diagnostics, 0, "diagnostics");
        assert_eq!(counts.text_bytes, self.text, "text bytes");
        assert_eq!(counts.args_bytes, self.args, "argument bytes");
        assert_eq!(counts.reasoning_bytes, 0, "reasoning bytes");
        // Payload spans tile the stream: text + reasoning + markup + arguments is everything.
        let payload =
            counts.text_bytes + counts.reasoning_bytes + counts.markup_bytes + counts.args_bytes;
        assert_eq!(
            payload,
            self.bytes.len() as u64,
            "payload bytes must tile the input"
        );
    }
}

/// A sink that only counts, so the scan cannot be optimised away and can be checked.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Counts {
    pub events: u64,
    pub text_bytes: u64,
    pub reasoning_bytes: u64,
    pub markup_bytes: u64,
    pub args_bytes: u64,
    pub starts: u64,
    pub names: u64,
    pub complete: u64,
    pub other_ends: u64,
    pub diagnostics: u64,
}

impl Sink for Counts {
    fn text(&mut self, _: Span, text: &[u8]) {
        self.events += 1;
        self.text_bytes += text.len() as u64;
    }
    fn reasoning(&mut self, _: Span, text: &[u8]) {
        self.events += 1;
        self.reasoning_bytes += text.len() as u64;
    }
    fn markup(&mut self, _: Span, _: Markup, bytes: &[u8]) {
        self.events += 1;
        self.markup_bytes += bytes.len() as u64;
    }
    fn tool_start(&mut self, _: Span, _: u32, _: Option<&[u8]>, _: bool) {
        self.events += 1;
        self.starts += 1;
    }
    fn tool_name(&mut self, _: Span, _: u32, _: &[u8]) {
        self.events += 1;
        self.names += 1;
    }
    fn tool_args(&mut self, _: Span, _: u32, json: &[u8]) {
        self.events += 1;
        self.args_bytes += json.len() as u64;
    }
    fn tool_value(&mut self, _: Span, _: u32, _: inband::Piece, text: &[u8]) {
        self.events += 1;
        self.args_bytes += text.len() as u64;
    }
    fn tool_end(&mut self, _: Span, _: u32, end: CallEnd) {
        self.events += 1;
        if end == CallEnd::Complete {
            self.complete += 1;
        } else {
            self.other_ends += 1;
        }
    }
    fn diagnostic(&mut self, _: Span, _: inband::Diagnostic) {
        self.events += 1;
        self.diagnostics += 1;
    }
}

/// Scanner options for the benches: the defaults, but with room for the 16 384 calls of
/// the 16 MiB sweep input (the default `max_calls` is 1024).
pub fn options() -> Options {
    let mut options = Options::default();
    options.max_calls = u32::MAX;
    options
}

/// Feeds `input` to `scanner` in chunks of `chunk` bytes (`0`: in one piece) and finishes.
#[inline]
pub fn scan_into(scanner: &mut Scanner, sink: &mut Counts, input: &[u8], chunk: usize) {
    if chunk == 0 {
        scanner.feed(input, sink).unwrap();
    } else {
        for piece in input.chunks(chunk) {
            scanner.feed(piece, sink).unwrap();
        }
    }
    scanner.finish(sink).unwrap();
}

/// A fresh scan of `input` in chunks of `chunk` bytes (`0`: in one piece).
pub fn scan(input: &Input, chunk: usize) -> Counts {
    let mut scanner = Scanner::new(input.dialect, options());
    let mut counts = Counts::default();
    scan_into(&mut scanner, &mut counts, black_box(&input.bytes), chunk);
    counts
}

/// 1 MiB of prose without calls.
pub const PROSE_LEN: usize = 1 << 20;
/// Escaped code in the big call's `content` string.
pub const CODE_LEN: usize = 64 << 10;
/// Calls in the many-calls input.
pub const MANY_CALLS: usize = 200;
/// Response sizes of the flatness sweep (prose and calls mixed, one call per KiB).
pub const SWEEP: [usize; 4] = [1 << 10, 64 << 10, 1 << 20, 16 << 20];

/// (a) `len` bytes of prose, no calls: English-ish sentences and paragraphs with
/// punctuation, `<`-fragments that are not delimiters (`<br>`, `Vec<u8>`, `a < b`,
/// `<thead>`, `<toolbox>`) and some non-ASCII.
pub fn prose(dialect: Dialect, len: usize) -> Input {
    let mut rng = Rng(0x5eed_0001);
    let mut bytes = Vec::with_capacity(len);
    prose_into(&mut bytes, &mut rng, len);
    render(dialect, &[Piece::Prose(bytes)])
}

/// (b) One `write_file` call whose `content` holds `code_len` bytes of escaped Rust code
/// (newlines, quotes, backslashes, generics, a `</tool_call>` in a string).
pub fn big_call(dialect: Dialect, code_len: usize) -> Input {
    let mut rng = Rng(0x5eed_0002);
    let mut args = Vec::with_capacity(code_len + 64);
    args.extend_from_slice(b"{\"path\": \"src/big.rs\", \"content\": \"");
    let code_start = args.len();
    let mut line = Vec::new();
    loop {
        line.clear();
        json_escape_into(&mut line, code_line(&mut rng).as_bytes());
        if args.len() - code_start + line.len() > code_len {
            break;
        }
        args.extend_from_slice(&line);
    }
    args.resize(code_start + code_len, b' ');
    args.extend_from_slice(b"\"}");
    let args = String::from_utf8(args).expect("generated code is UTF-8");
    let lead = b"I'll write the new module in one go.\n\n".to_vec();
    render(
        dialect,
        &[Piece::Prose(lead), Piece::Call("write_file", args)],
    )
}

/// (c) `n` small calls with a sentence or two of prose before each.
pub fn many_calls(dialect: Dialect, n: usize) -> Input {
    let mut rng = Rng(0x5eed_0003);
    let mut pieces = Vec::new();
    for _ in 0..n {
        let mut prose = Vec::new();
        let len = 40 + rng.below(160) as usize;
        prose_into(&mut prose, &mut rng, len);
        prose.push(b'\n');
        pieces.push(Piece::Prose(prose));
        let (name, args) = small_call(&mut rng);
        pieces.push(Piece::Call(name, args));
        pieces.push(Piece::Prose(b"\n".to_vec()));
    }
    pieces.push(Piece::Prose(b"Done.".to_vec()));
    render(dialect, &pieces)
}

/// A sweep input of exactly `len` bytes (a multiple of 1 KiB): 1 KiB units, each a
/// paragraph of prose and then one small call (about 85% prose by bytes). Hermes only: the
/// sweep measures cost against size, not dialects.
pub fn mix(len: usize) -> Input {
    let dialect = Dialect::Hermes;
    assert_eq!(len % 1024, 0, "sweep sizes are whole KiB");
    let mut rng = Rng(0x5eed_0004);
    let mut pieces = Vec::new();
    for unit in 0..len / 1024 {
        let (name, args) = small_call(&mut rng);
        let call_len = write_call(dialect, name, &args, unit as u64).0.len() + 1;
        let mut prose = Vec::new();
        prose_into(&mut prose, &mut rng, 1024 - call_len);
        pieces.push(Piece::Prose(prose));
        pieces.push(Piece::Call(name, args));
        pieces.push(Piece::Prose(b"\n".to_vec()));
    }
    let input = render(dialect, &pieces);
    assert_eq!(input.bytes.len(), len);
    input
}

/// A small, deterministic PRNG (SplitMix64): the inputs are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "the",
    "a",
    "of",
    "to",
    "and",
    "in",
    "is",
    "that",
    "it",
    "for",
    "with",
    "as",
    "on",
    "this",
    "be",
    "we",
    "can",
    "you",
    "file",
    "function",
    "value",
    "request",
    "server",
    "model",
    "token",
    "stream",
    "parser",
    "buffer",
    "error",
    "result",
    "config",
    "test",
    "build",
    "change",
    "update",
    "check",
    "because",
    "however",
    "should",
    "would",
    "might",
    "returns",
    "calls",
    "reads",
    "writes",
    "first",
    "then",
    "after",
    "before",
    "every",
    "each",
    "small",
    "large",
    "simple",
    "latest",
    "current",
    "output",
    "input",
    "chunk",
    "byte",
    "string",
    "field",
    "option",
    "default",
    "user",
    "answer",
    "question",
    "example",
    "problem",
    "solution",
    "approach",
    "reason",
    "case",
    "line",
    "page",
    "weather",
    "city",
    "temperature",
    "forecast",
    "today",
    "tomorrow",
    "meeting",
    "schedule",
    "report",
    "summary",
    "data",
    "table",
    "column",
    "query",
    "index",
    "cache",
    "memory",
    "thread",
    "café",
    "naïve",
    "résumé",
    "über",
    "façade",
    "déjà",
    "Zürich",
    "São",
    "Paulo",
    "Kraków",
];

/// Inline fragments with `<` or non-ASCII that must stay text.
const FRAGMENTS: &[&str] = &[
    "<br>",
    "<b>note</b>",
    "<em>not</em>",
    "x < y",
    "i <= n",
    "a<b",
    "`Vec<u8>`",
    "`Option<&str>`",
    "`Result<(), Error>`",
    "<thead>",
    "<table>",
    "<toolbox>",
    "<tool>",
    "<div class=\"note\">",
    "</div>",
    "<3",
    "1 < 2",
    "—",
    "→",
    "“quoted”",
    "€12.50",
    "25 °C",
    "日本語",
    "東京",
    "😀",
    "naïve café",
    "(see above)",
    "e.g.",
    "i.e.",
    "42%",
];

const ENDS: &[&str] = &[".", ".", ".", ".", "?", "!", ":", "..."];

/// Appends prose until `out.len() == target` exactly (a sentence that does not fit is cut
/// at a character boundary and padded with spaces).
fn prose_into(out: &mut Vec<u8>, rng: &mut Rng, target: usize) {
    let mut sentence = String::new();
    while out.len() < target {
        sentence.clear();
        let words = 5 + rng.below(14);
        for k in 0..words {
            let word = if rng.below(24) == 0 {
                rng.pick(FRAGMENTS)
            } else {
                rng.pick(WORDS)
            };
            if k > 0 {
                sentence.push(' ');
            }
            let at = sentence.len();
            sentence.push_str(word);
            if k == 0 {
                if let Some(first) = sentence.get_mut(at..at + 1) {
                    first.make_ascii_uppercase();
                }
            } else if k + 1 < words && rng.below(12) == 0 {
                sentence.push(',');
            }
        }
        sentence.push_str(rng.pick(ENDS));
        sentence.push_str(match rng.below(20) {
            0..=2 => "\n\n",
            3 => "\n\n- ",
            4 => "\n",
            _ => " ",
        });
        let room = target - out.len();
        if sentence.len() <= room {
            out.extend_from_slice(sentence.as_bytes());
        } else {
            let cut = (0..=room)
                .rev()
                .find(|&i| sentence.is_char_boundary(i))
                .unwrap_or(0);
            out.extend_from_slice(&sentence.as_bytes()[..cut]);
            out.resize(target, b' ');
        }
    }
}

/// One small, well-formed call: a name and its JSON arguments.
fn small_call(rng: &mut Rng) -> (&'static str, String) {
    let n = rng.below(1000);
    let (name, args) = match rng.below(6) {
        0 => ("read_file", format!("{{\"path\": \"src/module_{n}.rs\"}}")),
        1 => (
            "search",
            format!("{{\"query\": \"{} {}\", \"max_results\": {}}}", rng.pick(WORDS), rng.pick(WORDS), 1 + n % 20),
        ),
        2 => (
            "run_shell_command",
            format!("{{\"command\": \"cargo test -p crate_{n} -- --nocapture\", \"timeout_s\": {}}}", 60 + n),
        ),
        3 => ("get_weather", format!("{{\"city\": \"{}\", \"unit\": \"celsius\", \"days\": {}}}", rng.pick(WORDS), n % 7)),
        4 => (
            "write_file",
            format!(
                "{{\"path\": \"notes/{n}.md\", \"content\": \"# Note {n}\\n\\nSee \\\"{}\\\" <br> and {{braces}}.\\n\"}}",
                rng.pick(WORDS)
            ),
        ),
        _ => (
            "query_db",
            format!(
                "{{\"table\": \"events\", \"filters\": {{\"kind\": [\"start\", \"end\"], \"id\": {n}}}, \"limit\": [10, 20]}}"
            ),
        ),
    };
    (name, args)
}

/// One line of Rust-looking source, with its newline.
fn code_line(rng: &mut Rng) -> String {
    const IDENTS: &[&str] = &[
        "buf", "len", "state", "chunk", "pos", "out", "span", "depth", "name", "value",
    ];
    const TYPES: &[&str] = &[
        "usize",
        "u8",
        "Vec<u8>",
        "Option<&str>",
        "Result<(), Error>",
        "&[u8]",
        "String",
    ];
    let indent = "    ".repeat(rng.below(4) as usize);
    let (a, b, t) = (rng.pick(IDENTS), rng.pick(IDENTS), rng.pick(TYPES));
    let n = rng.below(100);
    let body = match rng.below(12) {
        0 => format!("let {a}: {t} = {b}.get({n}).copied().unwrap_or_default();"),
        1 => format!("if {a} < {b} && {b} <= {n} {{"),
        2 => "}".to_string(),
        3 => format!("println!(\"{a} = {{}}\\n\", {b});"),
        4 => format!("// {a}: the “{b}” value, never more than {n} bytes — see <br> handling"),
        5 => format!("fn {a}_{n}(&mut self, {b}: {t}) -> {t} {{"),
        6 => format!("let s = \"quote \\\"{a}\\\" and tab\\t and backslash \\\\\";"),
        7 => format!("match {a} {{ b'<' => {n}, b'\\'' => 1, _ => 0 }}"),
        8 => format!("assert_eq!({a}, \"</tool_call>\", \"closer {n} stays in the string\");"),
        9 => format!("{a}.extend_from_slice(&{b}[..{n}]);"),
        10 => String::new(),
        _ => format!("return Ok({a} + {b} * {n});"),
    };
    let tab = if rng.below(20) == 0 { "\t" } else { "" };
    format!("{indent}{tab}{body}\n")
}

/// Appends `raw` as the inside of a JSON string.
fn json_escape_into(out: &mut Vec<u8>, raw: &[u8]) {
    for &b in raw {
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\t' => out.extend_from_slice(b"\\t"),
            _ => out.push(b),
        }
    }
}
