//! docs/dialects.md rule 8: raw-text parameters typed by the tool's JSON Schema, every branch
//! pinned as the exact arguments' JSON text and diagnostics, in the `xml` dialect (plain and
//! DSML tagsets), whole and at many chunkings; and the streamed `function.arguments`
//! fragments, which concatenate to exactly that text.

use inband::{Dialect, Options, Scanner};
use inband_alloc::assemble::{AssembleOptions, Completion};
use inband_alloc::stream::DeltaStream;
use inband_alloc::tools::ToolSet;
use serde_json::Value;

/// One tool, `edit`, with a parameter per kind of schema.
const TOOLS: &str = r##"[{"type": "function", "function": {"name": "edit", "description": "Edit a file",
  "parameters": {"type": "object", "properties": {
    "path": {"type": "string"},
    "body": {"type": "string"},
    "line": {"type": "integer"},
    "ratio": {"type": "number"},
    "force": {"type": "boolean"},
    "ids": {"type": "array", "items": {"type": "string"}},
    "opts": {"type": "object"},
    "cursor": {"type": ["string", "null"]},
    "id": {"type": ["string", "integer"]},
    "either": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
    "flag": {"oneOf": [{"type": "boolean"}, {"type": "string"}]},
    "mode": {"enum": ["r", "w"]},
    "limit": {"type": "integer", "nullable": true},
    "level": {"$ref": "#/$defs/Level"},
    "any": {"description": "anything"}
  }, "$defs": {"Level": {"type": "integer"}}}}}]"##;

fn tools() -> ToolSet {
    ToolSet::from_json(TOOLS.as_bytes()).unwrap()
}

/// What a client saw and what the completion holds.
#[derive(Debug, PartialEq)]
struct Run {
    /// Per exposed call, its `function.arguments` fragments joined.
    streamed: Vec<String>,
    /// Per exposed call, its fragments joined after each fed chunk.
    partial: Vec<Vec<String>>,
    completion: Completion,
}

fn run(tools: Option<&ToolSet>, chunks: &[&[u8]]) -> Run {
    let mut options = AssembleOptions::seeded(3);
    options.tools = tools.cloned();
    let mut scanner = Scanner::new(Dialect::Xml, Options::default());
    let mut stream = DeltaStream::new(Dialect::Xml, &options);
    let mut streamed: Vec<String> = Vec::new();
    let mut partial = Vec::new();
    let add = |calls: Vec<inband_alloc::stream::ToolCallDelta>, streamed: &mut Vec<String>| {
        for call in calls {
            let index = call.index as usize;
            if streamed.len() <= index {
                streamed.resize(index + 1, String::new());
            }
            streamed[index].push_str(&call.arguments);
        }
    };
    for chunk in chunks {
        scanner.feed(chunk, &mut stream).unwrap();
        add(stream.take_delta().tool_calls, &mut streamed);
        partial.push(streamed.clone());
    }
    scanner.finish(&mut stream).unwrap();
    let (delta, _, completion) = stream.finish();
    add(delta.tool_calls, &mut streamed);
    Run {
        streamed,
        partial,
        completion,
    }
}

/// Runs `input` whole, at every two-way split and in chunks of 1 to 16 bytes: the same
/// arguments' text and completion every time; the fragments parse to the completion's
/// arguments. Returns the whole run.
fn check(tools: Option<&ToolSet>, input: &str) -> Run {
    let bytes = input.as_bytes();
    let whole = run(tools, &[bytes]);
    let mut chunkings: Vec<Vec<&[u8]>> = (1..=16).map(|n| bytes.chunks(n).collect()).collect();
    chunkings.extend((0..=bytes.len()).map(|k| vec![&bytes[..k], &bytes[k..]]));
    for chunks in &chunkings {
        let split = run(tools, chunks);
        assert_eq!(split.streamed, whole.streamed, "{} chunks", chunks.len());
        assert_eq!(
            split.completion,
            whole.completion,
            "{} chunks",
            chunks.len()
        );
    }
    assert_eq!(whole.streamed.len(), whole.completion.tool_calls.len());
    for (text, call) in whole.streamed.iter().zip(&whole.completion.tool_calls) {
        let streamed: Value = serde_json::from_str(text).unwrap();
        let final_: Value =
            serde_json::from_str(&serde_json::to_string(&call.arguments).unwrap()).unwrap();
        assert_eq!(streamed, final_, "the fragments are the arguments' JSON");
    }
    whole
}

fn codes(run: &Run) -> Vec<&'static str> {
    run.completion.diagnostics.iter().map(|d| d.code).collect()
}

/// The arguments' exact JSON text and the diagnostics of one `invoke` of `name` with
/// `params` (`(key, value)`, written as `<parameter name="key">value</parameter>`).
fn typed_as(
    tools: Option<&ToolSet>,
    name: &str,
    params: &[(&str, &str)],
) -> (String, Vec<&'static str>) {
    let mut input = format!("<invoke name=\"{name}\">");
    for (key, value) in params {
        input.push_str(&format!("<parameter name=\"{key}\">{value}</parameter>"));
    }
    input.push_str("</invoke>");
    let run = check(tools, &input);
    let [text] = &run.streamed[..] else {
        panic!("one call: {:?}", run.streamed);
    };
    (text.clone(), codes(&run))
}

fn typed(params: &[(&str, &str)]) -> (String, Vec<&'static str>) {
    typed_as(Some(&tools()), "edit", params)
}

fn text(json: &str, codes: &[&'static str]) -> (String, Vec<&'static str>) {
    (json.to_owned(), codes.to_vec())
}

#[test]
fn string_only_keeps_the_exact_text() {
    assert_eq!(
        typed(&[("path", " a.rs\n"), ("body", "10"), ("mode", "w"),]),
        text(r#"{"path":" a.rs\n","body":"10","mode":"w"}"#, &[])
    );
    assert_eq!(
        typed(&[("path", "null"), ("body", "True"), ("mode", " 1")]),
        text(r#"{"path":"null","body":"True","mode":" 1"}"#, &[])
    );
    assert_eq!(
        typed(&[("path", "a&amp;b \"q\" \\d"), ("body", "{\"k\": 1}")]),
        text(r#"{"path":"a&amp;b \"q\" \\d","body":"{\"k\": 1}"}"#, &[]),
        "no entity decoding, no JSON parsing"
    );
}

#[test]
fn other_types_are_trimmed_json() {
    assert_eq!(
        typed(&[
            ("line", " 5\n"),
            ("ratio", "0.25"),
            ("force", "false"),
            ("ids", "[\"a\", \"b\"]"),
            ("opts", "\n{\"k\": [1, null]}\n"),
            ("limit", "null"),
            ("level", "3"),
        ]),
        text(
            r#"{"line":5,"ratio":0.25,"force":false,"ids":["a", "b"],"opts":{"k": [1, null]},"limit":null,"level":3}"#,
            &[]
        )
    );
}

#[test]
fn python_literals_and_single_quotes_are_repaired_with_a_schema() {
    assert_eq!(
        typed(&[("force", "True"), ("ids", "['a', 'b',]"), ("limit", "None")]),
        text(
            r#"{"force":true,"ids":["a", "b"],"limit":null}"#,
            &["repaired_arguments"]
        )
    );
    assert_eq!(
        typed(&[("opts", "{'x': False}")]),
        text(r#"{"opts":{"x": false}}"#, &["repaired_arguments"])
    );
}

/// Integer versus number: an integral value (`140.0` too, as written) is an integer; a
/// fraction for an `integer` is kept as its exact text with a diagnostic.
#[test]
fn integers_and_numbers() {
    assert_eq!(
        typed(&[("line", "140.0"), ("ratio", "140"), ("level", "1e2")]),
        text(r#"{"line":140.0,"ratio":140,"level":1e2}"#, &[])
    );
    assert_eq!(
        typed(&[("line", "1.5")]),
        text(r#"{"line":"1.5"}"#, &["schema_type_mismatch"])
    );
    assert_eq!(typed(&[("ratio", "1.5")]), text(r#"{"ratio":1.5}"#, &[]));
}

#[test]
fn what_does_not_fit_the_schema_is_the_exact_text() {
    assert_eq!(
        typed(&[("line", " ten ")]),
        text(r#"{"line":" ten "}"#, &["invalid_typed_value"])
    );
    assert_eq!(
        typed(&[("force", "")]),
        text(r#"{"force":""}"#, &["invalid_typed_value"])
    );
    assert_eq!(
        typed(&[("line", "\"5\"")]),
        text(r#"{"line":"\"5\""}"#, &["schema_type_mismatch"])
    );
    assert_eq!(
        typed(&[("ids", "{\"a\": 1}")]),
        text(r#"{"ids":"{\"a\": 1}"}"#, &["schema_type_mismatch"])
    );
    assert_eq!(
        typed(&[("line", "null")]),
        text(r#"{"line":"null"}"#, &["schema_type_mismatch"]),
        "null is not admitted"
    );
}

/// A union admitting strings takes the JSON value only when its type is admitted; else the
/// exact text, silently.
#[test]
fn unions_with_string() {
    assert_eq!(
        typed(&[("cursor", "null"), ("id", "null"), ("either", " 7 ")]),
        text(r#"{"cursor":null,"id":"null","either":7}"#, &[])
    );
    assert_eq!(
        typed(&[("cursor", "abc"), ("id", " 7 "), ("either", "x y")]),
        text(r#"{"cursor":"abc","id":7,"either":"x y"}"#, &[])
    );
    assert_eq!(
        typed(&[("id", "'x'"), ("cursor", "[1]"), ("either", "1.5")]),
        text(r#"{"id":"'x'","cursor":"[1]","either":"1.5"}"#, &[])
    );
    assert_eq!(
        typed(&[("id", "\"q\""), ("flag", "True")]),
        text(r#"{"id":"q","flag":true}"#, &["repaired_arguments"])
    );
}

/// Without a schema for the value: JSON if it parses, else the exact text; Python
/// literals stay text.
#[test]
fn unknown_parameters_and_tools_and_no_tools() {
    let untyped = r#"{"extra":"True","n":[1],"path":10,"s":"'x'"}"#;
    let params = [
        ("extra", "True"),
        ("n", " [1] "),
        ("path", "10"),
        ("s", "'x'"),
    ];
    assert_eq!(
        typed(&[
            ("extra", "True"),
            ("n", " [1] "),
            ("any", "True"),
            ("s", "'x'")
        ]),
        text(r#"{"extra":"True","n":[1],"any":"True","s":"'x'"}"#, &[])
    );
    assert_eq!(
        typed_as(Some(&tools()), "other", &params),
        text(untyped, &["unknown_tool"])
    );
    assert_eq!(typed_as(None, "edit", &params), text(untyped, &[]));
    let names = ToolSet::from_names(["edit"]);
    assert_eq!(typed_as(Some(&names), "edit", &params), text(untyped, &[]));
}

/// DSML's `string` attribute overrides the schema.
#[test]
fn dsml_string_attribute_overrides_the_schema() {
    let input = "<｜DSML｜tool_calls><｜DSML｜invoke name=\"edit\"><｜DSML｜parameter name=\"line\" string=\"true\"> 5</｜DSML｜parameter><｜DSML｜parameter name=\"path\" string=\"false\">5</｜DSML｜parameter><｜DSML｜parameter name=\"force\">True</｜DSML｜parameter><｜DSML｜parameter name=\"body\">True</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>";
    let run = check(Some(&tools()), input);
    assert_eq!(
        run.streamed,
        [r#"{"line":" 5","path":5,"force":true,"body":"True"}"#]
    );
    assert_eq!(codes(&run), ["repaired_arguments"]);
}

/// A string-only value streams as `"` and its escaped text as it arrives; any other value
/// goes out once complete. Mixed-type calls, plain and DSML, at every chunking.
#[test]
fn string_values_stream_and_typed_values_go_out_whole() {
    let body = "fn main() {\n\tprintln!(\"</parameter> é\");\n}\n".repeat(3);
    let plain = format!(
        "Editing.\n<tool_calls>\n<invoke name=\"edit\">\n<parameter name=\"path\">src/main.rs</parameter>\n<parameter name=\"line\"> 42 </parameter>\n<parameter name=\"body\">{body}</parameter>\n<parameter name=\"force\">True</parameter>\n<parameter name=\"cursor\">null</parameter>\n</invoke>\n</tool_calls>"
    );
    let dsml = format!(
        "Editing.\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"edit\">\n<｜DSML｜parameter name=\"path\">src/main.rs</｜DSML｜parameter>\n<｜DSML｜parameter name=\"line\"> 42 </｜DSML｜parameter>\n<｜DSML｜parameter name=\"body\">{body}</｜DSML｜parameter>\n<｜DSML｜parameter name=\"force\">True</｜DSML｜parameter>\n<｜DSML｜parameter name=\"cursor\">null</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>"
    );
    let escaped = body
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
        .replace('\t', "\\t");
    let expected = format!(
        r#"{{"path":"src/main.rs","line":42,"body":"{escaped}","force":true,"cursor":null}}"#
    );
    for input in [plain, dsml] {
        let whole = check(Some(&tools()), &input);
        assert_eq!(whole.streamed, std::slice::from_ref(&expected));
        assert_eq!(whole.completion.content, "Editing.");
        let run = run(
            Some(&tools()),
            &input.as_bytes().chunks(5).collect::<Vec<_>>(),
        );
        let seen: Vec<&str> = run
            .partial
            .iter()
            .filter_map(|p| p.first().map(String::as_str))
            .collect();
        // The body was seen growing, before the call closed.
        assert!(
            seen.iter()
                .any(|p| p.contains("fn main") && !p.contains(r#"","force""#)),
            "{seen:?}"
        );
        assert!(seen
            .iter()
            .any(|p| p.starts_with(r#"{"path":"src"#) && !p.contains("main.rs\"")));
        for p in &seen {
            assert!(expected.starts_with(p));
            // A typed value is never seen in part: its key may wait for it.
            for whole in [r#""line":42"#, r#""force":true"#, r#""cursor":null"#] {
                let (key, _) = whole.split_at(whole.find(':').unwrap() + 1);
                if p.contains(key) {
                    assert!(p.ends_with(key) || p.contains(whole), "{p}");
                }
            }
        }
    }
}

/// Without tools, the same values are typed as before: no schema, no streaming of the
/// untyped ones.
#[test]
fn the_same_call_without_tools() {
    let input = "<invoke name=\"edit\"><parameter name=\"path\">10</parameter><parameter name=\"force\">True</parameter><parameter name=\"cursor\">null</parameter></invoke>";
    let run = check(None, input);
    assert_eq!(
        run.streamed,
        [r#"{"path":10,"force":"True","cursor":null}"#]
    );
    assert_eq!(codes(&run), Vec::<&str>::new());
}

/// The values of corpus cases 014 (glm) and 029 (qwen3-coder), written in the xml dialect
/// with the cases' own tools: the same typing in every dialect (docs/seed.md B17).
#[test]
fn corpus_014_and_029_values_in_xml() {
    let tools_014 = ToolSet::from_json(br#"[{"type": "function", "function": {"name": "web_search", "description": "", "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "max_results": {"type": "integer"}, "exclude_domains": {"type": "array"}, "safe_search": {"type": "boolean"}, "cursor": {"type": ["string", "null"]}, "zip": {"type": "string"}}, "required": []}}}]"#).unwrap();
    assert_eq!(
        typed_as(
            Some(&tools_014),
            "web_search",
            &[
                ("query", "incremental parsers"),
                ("max_results", "10"),
                ("exclude_domains", "[]"),
                ("safe_search", "true"),
                ("cursor", "null"),
                ("zip", "10001"),
            ]
        ),
        text(
            r#"{"query":"incremental parsers","max_results":10,"exclude_domains":[],"safe_search":true,"cursor":null,"zip":"10001"}"#,
            &[]
        )
    );
    let tools_029 = ToolSet::from_json(br#"[{"type": "function", "function": {"name": "process", "description": "", "parameters": {"type": "object", "properties": {"action": {"type": "string"}, "id": {"type": "integer"}, "limit": {"type": "integer"}, "follow": {"type": "boolean"}}, "required": []}}}]"#).unwrap();
    assert_eq!(
        typed_as(
            Some(&tools_029),
            "process",
            &[
                ("action", "output"),
                ("id", "\n0\n"),
                ("limit", "\n140.0\n"),
                ("follow", "\nTrue\n"),
                ("when", "2026-01-15"),
            ]
        ),
        text(
            r#"{"action":"output","id":0,"limit":140.0,"follow":true,"when":"2026-01-15"}"#,
            &["repaired_arguments"]
        )
    );
    assert_eq!(
        typed_as(Some(&tools_029), "process", &[("id", "2026-01-15")]),
        text(r#"{"id":"2026-01-15"}"#, &["invalid_typed_value"]),
        "a value that cannot be typed keeps the call (mlx-lm#1330)"
    );
}
