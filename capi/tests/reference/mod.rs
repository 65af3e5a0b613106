//! What the Rust API gives for the driver's feedings, in the driver's output format.

use std::fmt::Write as _;
use std::path::Path;

use inband::{
    CallEnd, Diagnostic, Dialect, Markup, Options, Piece, Scanner, Sink, Span, ValueKind,
};
use inband_alloc::assemble::AssembleOptions;
use inband_alloc::stream::DeltaStream;
use inband_alloc::tools::ToolSet;
use serde_json::Value;

/// One case as the driver reads it.
pub struct Case {
    pub name: String,
    pub dialect: Dialect,
    pub input: Vec<u8>,
    /// The OpenAI tools array's JSON text.
    pub tools: Option<Vec<u8>>,
    pub starts_in_reasoning: bool,
}

/// Every corpus case (`tests/data/corpus/`), and one that starts in reasoning.
pub fn cases(root: &Path) -> Vec<Case> {
    let mut paths: Vec<_> = std::fs::read_dir(root.join("tests/data/corpus"))
        .expect("tests/data/corpus")
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    let mut cases: Vec<Case> = paths
        .iter()
        .map(|path| {
            let case: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
            Case {
                name: case["id"].as_str().unwrap().to_owned(),
                dialect: Dialect::from_name(case["dialect"].as_str().unwrap()).unwrap(),
                input: case["input"].as_str().unwrap().as_bytes().to_vec(),
                tools: case.get("tools").map(|t| serde_json::to_vec(t).unwrap()),
                starts_in_reasoning: false,
            }
        })
        .collect();
    cases.push(Case {
        name: "starts-in-reasoning".to_owned(),
        dialect: Dialect::Minimax,
        input: "Plan: read it.</think>Reading <b>é</b>.<minimax:tool_call><invoke name=\"read\"><parameter name=\"path\">a.rs</parameter></invoke></minimax:tool_call>"
            .as_bytes()
            .to_vec(),
        tools: None,
        starts_in_reasoning: true,
    });
    cases
}

/// The driver's output files for `case` and their expected contents.
pub fn outputs(case: &Case) -> Vec<(&'static str, Vec<u8>)> {
    let mut options = Options::default();
    options.starts_in_reasoning = case.starts_in_reasoning;
    let input = &case.input;
    let whole: Vec<&[u8]> = vec![input];
    let bytes: Vec<&[u8]> = input.chunks(1).collect();
    vec![
        ("l1.whole", events(case.dialect, options, &whole)),
        ("l1.bytes", events(case.dialect, options, &bytes)),
        ("l2.whole", deltas(case, options, &whole, false)),
        ("l2.bytes", deltas(case, options, &bytes, false)),
        ("l2.hold", deltas(case, options, &bytes, true)),
    ]
}

/// Writes events as the driver's callbacks print them.
struct Lines(String);

impl Lines {
    fn head(&mut self, kind: &str, span: Span) {
        let _ = write!(self.0, "{kind} {} {}", span.start, span.end);
    }
    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            match b {
                b'\\' => self.0.push_str("\\\\"),
                0x20..=0x7e => self.0.push(b as char),
                _ => {
                    let _ = write!(self.0, "\\x{b:02x}");
                }
            }
        }
    }
    fn call_bytes(&mut self, kind: &str, span: Span, call: u32, bytes: &[u8]) {
        self.head(kind, span);
        let _ = write!(self.0, " {call} ");
        self.bytes(bytes);
        self.0.push('\n');
    }
}

impl Sink for Lines {
    fn text(&mut self, span: Span, text: &[u8]) {
        self.head("text", span);
        self.0.push(' ');
        self.bytes(text);
        self.0.push('\n');
    }
    fn reasoning(&mut self, span: Span, text: &[u8]) {
        self.head("reasoning", span);
        self.0.push(' ');
        self.bytes(text);
        self.0.push('\n');
    }
    fn markup(&mut self, span: Span, kind: Markup, bytes: &[u8]) {
        self.head("markup", span);
        let kind = match kind {
            Markup::Delimiter(role) => role.key(),
            _ => "envelope",
        };
        let _ = write!(self.0, " {kind} ");
        self.bytes(bytes);
        self.0.push('\n');
    }
    fn reasoning_start(&mut self, span: Span) {
        self.head("reasoning_start", span);
        self.0.push('\n');
    }
    fn reasoning_end(&mut self, span: Span) {
        self.head("reasoning_end", span);
        self.0.push('\n');
    }
    fn tool_start(&mut self, span: Span, call: u32, name: Option<&[u8]>, provisional: bool) {
        self.head("tool_start", span);
        let _ = write!(self.0, " {call} ");
        match name {
            Some(name) => {
                self.0.push('=');
                self.bytes(name);
            }
            None => self.0.push('-'),
        }
        let _ = writeln!(self.0, " {}", u8::from(provisional));
    }
    fn tool_id(&mut self, span: Span, call: u32, id: &[u8]) {
        self.call_bytes("tool_id", span, call, id);
    }
    fn tool_name(&mut self, span: Span, call: u32, name: &[u8]) {
        self.call_bytes("tool_name", span, call, name);
    }
    fn tool_args(&mut self, span: Span, call: u32, json: &[u8]) {
        self.call_bytes("tool_args", span, call, json);
    }
    fn tool_param(&mut self, span: Span, call: u32, key: &[u8], kind: ValueKind) {
        self.head("tool_param", span);
        let _ = write!(self.0, " {call} {} ", kind.code());
        self.bytes(key);
        self.0.push('\n');
    }
    fn tool_value(&mut self, span: Span, call: u32, piece: Piece, bytes: &[u8]) {
        self.head("tool_value", span);
        let _ = write!(self.0, " {call} {} ", piece.code());
        self.bytes(bytes);
        self.0.push('\n');
    }
    fn tool_param_end(&mut self, span: Span, call: u32) {
        self.head("tool_param_end", span);
        let _ = writeln!(self.0, " {call}");
    }
    fn tool_end(&mut self, span: Span, call: u32, end: CallEnd) {
        self.head("tool_end", span);
        let end = match end {
            CallEnd::Complete => 0,
            CallEnd::Incomplete => 1,
            CallEnd::Demoted => 2,
            CallEnd::Invalid => 3,
        };
        let _ = writeln!(self.0, " {call} {end}");
    }
    fn fabricated_result(&mut self, span: Span) {
        self.head("fabricated_result", span);
        self.0.push('\n');
    }
    fn diagnostic(&mut self, span: Span, diagnostic: Diagnostic) {
        self.head("diagnostic", span);
        let _ = writeln!(self.0, " {} {}", diagnostic.code(), diagnostic.message());
    }
}

fn events(dialect: Dialect, options: Options, chunks: &[&[u8]]) -> Vec<u8> {
    let mut scanner = Scanner::new(dialect, options);
    let mut lines = Lines(String::new());
    for chunk in chunks {
        scanner.feed(chunk, &mut lines).unwrap();
    }
    scanner.finish(&mut lines).unwrap();
    lines.0.into_bytes()
}

fn deltas(case: &Case, options: Options, chunks: &[&[u8]], hold_calls: bool) -> Vec<u8> {
    let mut assemble = AssembleOptions::seeded(1);
    assemble.hold_calls = hold_calls;
    assemble.tools = case
        .tools
        .as_ref()
        .map(|json| ToolSet::from_json(json).unwrap());
    let mut scanner = Scanner::new(case.dialect, options);
    let mut stream = DeltaStream::new(case.dialect, &assemble);
    let mut out = String::new();
    for chunk in chunks {
        scanner.feed(chunk, &mut stream).unwrap();
        let delta = Value::Object(stream.take_delta().to_openai());
        let _ = writeln!(out, "{delta}");
    }
    scanner.finish(&mut stream).unwrap();
    let (delta, reason, completion) = stream.finish();
    let _ = writeln!(out, "{reason}\n{}", Value::Object(delta.to_openai()));
    let _ = writeln!(out, "{}", serde_json::to_string(&completion).unwrap());
    out.into_bytes()
}
