//! Agreement of the argument outputs, for every dialect and chunking.
//!
//! One input is streamed through [`DeltaStream`] in the chunks the fuzzer chose. For
//! every complete call, the concatenation of its `function.arguments` fragments must
//! parse as JSON with no repeated key in any object, and equal the call's parsed
//! [`ToolCall::arguments`](inband_alloc::assemble::ToolCall::arguments) and its
//! `arguments_text`; an exposed call that was cut off has sent exactly its
//! `incomplete_calls` text; the stream's calls and argument diagnostics must equal those of
//! [`assemble`] of the whole input. See `fuzz/README.md`.

#![no_main]

use std::collections::HashSet;
use std::fmt;

use arbitrary::Arbitrary;
use inband::{Dialect, Options, Scanner};
use inband_alloc::assemble::{assemble, AssembleOptions, Completion};
use inband_alloc::serde_json::{self, Value};
use inband_alloc::stream::DeltaStream;
use inband_alloc::tools::ToolSet;
use libfuzzer_sys::{fuzz_target, Corpus};
use serde::de::{Deserialize, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};

/// Inputs longer than this are rejected, as in the `chunking` target.
const MAX_INPUT: usize = 4096;

/// Tools whose schemas type raw-text parameters (`--tools`): strings, integers, objects and
/// a union, so typed values are fuzzed too.
const TOOLS: &str = r#"[{"type": "function", "function": {"name": "f", "parameters":
    {"type": "object", "properties": {"s": {"type": "string"}, "n": {"type": "integer"},
    "o": {"type": "object"}, "u": {"type": ["string", "number"]}}}}}]"#;

#[derive(Arbitrary)]
struct Input<'a> {
    /// Picks the dialect, `% Dialect::ALL.len()`.
    dialect: u8,
    /// `Options::starts_in_reasoning`.
    starts_in_reasoning: bool,
    /// `AssembleOptions::hold_calls`.
    hold_calls: bool,
    /// Declare [`TOOLS`].
    tools: bool,
    /// Chunk lengths, used in a cycle; 0 means 1, an empty list means 1-byte chunks.
    chunks: Vec<u16>,
    /// The stream: the rest of the fuzzer's data.
    bytes: &'a [u8],
}

impl Input<'_> {
    fn dialect(&self) -> Dialect {
        Dialect::ALL[usize::from(self.dialect) % Dialect::ALL.len()]
    }

    fn options(&self) -> Options {
        let mut options = Options::default();
        options.starts_in_reasoning = self.starts_in_reasoning;
        options
    }

    fn assemble_options(&self) -> AssembleOptions {
        let mut options = AssembleOptions::seeded(1);
        options.hold_calls = self.hold_calls;
        if self.tools {
            options.tools = Some(ToolSet::from_json(TOOLS.as_bytes()).expect("TOOLS parse"));
        }
        options
    }

    /// The input cut into chunks, cycling through the chunk lengths.
    fn split(&self) -> Vec<&[u8]> {
        let lengths: Vec<usize> = if self.chunks.is_empty() {
            vec![1]
        } else {
            self.chunks.iter().map(|&n| usize::from(n).max(1)).collect()
        };
        let mut out = Vec::new();
        let mut rest = self.bytes;
        for len in lengths.into_iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let (chunk, tail) = rest.split_at(len.min(rest.len()));
            out.push(chunk);
            rest = tail;
        }
        out
    }
}

/// Prints a Rust reproduction: paste it into a test.
impl fmt::Debug for Input<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let escaped: String = self
            .bytes
            .iter()
            .flat_map(|&b| std::ascii::escape_default(b))
            .map(char::from)
            .collect();
        let lengths: Vec<usize> = self.split().iter().map(|c| c.len()).collect();
        writeln!(
            f,
            "// inband arguments fuzz input: {} bytes",
            self.bytes.len()
        )?;
        writeln!(f, "let dialect = Dialect::{:?};", self.dialect())?;
        writeln!(f, "let starts_in_reasoning = {};", self.starts_in_reasoning)?;
        writeln!(f, "let hold_calls = {};", self.hold_calls)?;
        writeln!(f, "let tools = {}; // the target's TOOLS", self.tools)?;
        writeln!(f, "let input: &[u8] = b\"{escaped}\";")?;
        write!(f, "// chunks as fed: {lengths:?}")
    }
}

/// A JSON value whose objects never repeat a key (deserialising one fails otherwise).
struct NoDuplicateKeys;

impl<'de> Deserialize<'de> for NoDuplicateKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NoDuplicateKeys)
    }
}

impl<'de> Visitor<'de> for NoDuplicateKeys {
    type Value = NoDuplicateKeys;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_unit<E>(self) -> Result<Self, E> {
        Ok(NoDuplicateKeys)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self, A::Error> {
        while seq.next_element::<NoDuplicateKeys>()?.is_some() {}
        Ok(NoDuplicateKeys)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self, A::Error> {
        let mut keys = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            // serde_json's arbitrary-precision numbers arrive as a one-entry map.
            if key == "$serde_json::private::Number" {
                map.next_value::<String>()?;
                return Ok(NoDuplicateKeys);
            }
            if !keys.insert(key.clone()) {
                return Err(A::Error::custom(format!("repeated key {key:?}")));
            }
            map.next_value::<NoDuplicateKeys>()?;
        }
        Ok(NoDuplicateKeys)
    }
}

/// Streams the chunks; returns each exposed call's id and concatenated fragments, in the
/// order the calls were exposed, and the completion.
fn stream(input: &Input<'_>) -> (Vec<(String, String)>, Completion) {
    let dialect = input.dialect();
    let mut scanner = Scanner::new(dialect, input.options());
    let mut stream = DeltaStream::new(dialect, &input.assemble_options());
    let mut calls: Vec<(String, String)> = Vec::new();
    let add = |calls: &mut Vec<(String, String)>, delta: inband_alloc::stream::ChunkDelta| {
        for call in delta.tool_calls {
            let index = call.index as usize;
            if let Some(id) = call.id {
                assert_eq!(index, calls.len(), "calls are exposed in index order");
                calls.push((id, String::new()));
            }
            calls[index].1.push_str(&call.arguments);
        }
    };
    for chunk in input.split() {
        scanner.feed(chunk, &mut stream).expect("feed");
        add(&mut calls, stream.take_delta());
    }
    scanner.finish(&mut stream).expect("finish");
    let (delta, _, completion) = stream.finish();
    add(&mut calls, delta);
    (calls, completion)
}

/// The diagnostics about arguments, in order.
fn argument_diagnostics(completion: &Completion) -> Vec<(&'static str, [u64; 2])> {
    const CODES: &[&str] = &[
        "duplicate_parameter",
        "duplicate_key",
        "invalid_arguments",
        "repaired_arguments",
        "invalid_json_value",
        "invalid_typed_value",
        "schema_type_mismatch",
    ];
    completion
        .diagnostics
        .iter()
        .filter(|d| CODES.contains(&d.code))
        .map(|d| (d.code, d.span))
        .collect()
}

fuzz_target!(|input: Input<'_>| -> Corpus {
    if input.bytes.len() > MAX_INPUT {
        return Corpus::Reject;
    }
    let (exposed, completion) = stream(&input);
    let whole = assemble(
        input.dialect(),
        input.options(),
        &input.assemble_options(),
        [input.bytes],
    );
    // The calls and the argument diagnostics do not depend on the chunking. (Not the
    // whole completion: an `invalid_utf8` span next to a stray token does, a fault of
    // the text path kept in regressions/arguments/utf8-span-across-stray-token.)
    assert_eq!(
        completion.tool_calls, whole.tool_calls,
        "calls, chunked and whole"
    );
    assert_eq!(
        completion.incomplete_calls, whole.incomplete_calls,
        "incomplete calls, chunked and whole"
    );
    assert_eq!(
        argument_diagnostics(&completion),
        argument_diagnostics(&whole),
        "argument diagnostics, chunked and whole"
    );

    // Complete calls were exposed in stream order (a broken call in between was exposed
    // too, but is not among them; a model's own ids, Kimi's, may repeat, so a call is
    // matched by its id and its text).
    let mut unmatched = exposed.iter();
    for call in &completion.tool_calls {
        let (_, fragments) = unmatched
            .find(|(id, fragments)| *id == call.id && fragments == call.arguments_text())
            .unwrap_or_else(|| {
                panic!(
                    "call {} was never exposed with its text {:?}: {exposed:?}",
                    call.id,
                    call.arguments_text()
                )
            });
        let parsed: Value = serde_json::from_str(fragments)
            .unwrap_or_else(|e| panic!("fragments {fragments:?} do not parse: {e}"));
        assert_eq!(
            parsed, call.arguments,
            "fragments {fragments:?} parse to other arguments"
        );
        if let Err(e) = serde_json::from_str::<NoDuplicateKeys>(fragments) {
            panic!("fragments {fragments:?}: {e}");
        }
        assert!(call.arguments.is_object(), "arguments are an object");
        assert_eq!(
            call.arguments_text(),
            fragments,
            "arguments_text is the fragments"
        );
    }
    // A call cut off after it was exposed: its fragments are its incomplete text.
    for call in &completion.incomplete_calls {
        if let Some((_, fragments)) = exposed.iter().find(|(id, _)| *id == call.id) {
            assert_eq!(
                *fragments, call.arguments,
                "an incomplete call's fragments are its incomplete_calls text"
            );
        }
    }
    Corpus::Keep
});
