//! `--tools`: an OpenAI tools array repairs a glued Harmony recipient and types raw-text
//! parameters; a bad file is a one-line error.

use serde_json::Value;

use crate::common::{data, inband, one_line_error, openai_deltas, stdout};

/// `--tools` takes an OpenAI tools array: a Harmony recipient glued to its content type is
/// repaired to the declared name; an unreadable or malformed file is a one-line error.
#[test]
fn tools_file_repairs_a_glued_recipient() {
    let input = std::env::temp_dir().join(format!("inband-glued-{}.txt", std::process::id()));
    std::fs::write(
        &input,
        "<|channel|>analysis<|message|>List the directory.<|end|><|start|>assistant<|channel|>\
         commentary to=functions.shelljson<|message|>{\"cmd\":[\"ls\",\"-la\"]}<|call|>",
    )
    .unwrap();
    let input = input.to_str().unwrap();
    let tools = data("tools/shell.json");
    let scan = |tools: &str| {
        inband(&[
            "scan",
            input,
            "--dialect",
            "harmony",
            "--seed",
            "1",
            "--tools",
            tools,
        ])
    };
    let summary: Value = serde_json::from_str(&stdout(&scan(tools.to_str().unwrap()))).unwrap();
    assert_eq!(summary["tool_calls"][0]["name"], "shell");
    assert_eq!(
        summary["tool_calls"][0]["arguments"],
        serde_json::json!({"cmd": ["ls", "-la"]})
    );
    assert_eq!(summary["diagnostics"][0]["code"], "glued_content_type");
    let without: Value =
        serde_json::from_str(&stdout(&inband(&["scan", input, "--dialect", "harmony"]))).unwrap();
    assert_eq!(without["tool_calls"][0]["name"], "shelljson");
    one_line_error(
        &scan("/no/such/tools.json"),
        1,
        "cannot read /no/such/tools.json",
    );
    one_line_error(&scan(input), 1, "is not an OpenAI tools array");
}

/// `--tools` passes the schemas through: an xml call's raw-text values are typed by them
/// (rule 8) in the summary and in the streamed `function.arguments`, at any chunk size; a
/// malformed tool says which one and what is wrong.
#[test]
fn tools_file_types_raw_text_parameters() {
    let dir = std::env::temp_dir();
    let input = dir.join(format!("inband-typed-{}.txt", std::process::id()));
    std::fs::write(
        &input,
        "Reading.\n<invoke name=\"read\">\n<parameter name=\"path\">2024</parameter>\n<parameter name=\"limit\"> 20 </parameter>\n<parameter name=\"all\">True</parameter>\n<parameter name=\"note\">null</parameter>\n</invoke>",
    )
    .unwrap();
    let tools = dir.join(format!("inband-typed-tools-{}.json", std::process::id()));
    std::fs::write(
        &tools,
        r#"[{"type": "function", "function": {"name": "read", "description": "Read a file", "parameters": {"type": "object", "properties": {"path": {"type": "string"}, "limit": {"type": "integer"}, "all": {"type": "boolean"}, "note": {"type": ["string", "integer"]}}}}}]"#,
    )
    .unwrap();
    let (input, tools) = (input.to_str().unwrap(), tools.to_str().unwrap());
    let scan = |extra: &[&str]| {
        let mut args = vec!["scan", input, "--dialect", "xml", "--seed", "1"];
        args.extend_from_slice(extra);
        stdout(&inband(&args))
    };
    let summary: Value = serde_json::from_str(&scan(&["--tools", tools])).unwrap();
    assert_eq!(summary["content"], "Reading.");
    assert_eq!(
        summary["tool_calls"][0]["arguments"],
        serde_json::json!({"path": "2024", "limit": 20, "all": true, "note": "null"})
    );
    let codes: Vec<&str> = summary["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["repaired_arguments"]);
    let untyped: Value = serde_json::from_str(&scan(&[])).unwrap();
    assert_eq!(
        untyped["tool_calls"][0]["arguments"],
        serde_json::json!({"path": 2024, "limit": 20, "all": "True", "note": null})
    );
    for chunk in ["1", "7", "64"] {
        let (deltas, reasons) = openai_deltas(&scan(&[
            "--tools", tools, "--format", "openai", "--chunk", chunk,
        ]));
        let arguments: String = deltas
            .iter()
            .filter_map(|d| d["tool_calls"][0]["function"]["arguments"].as_str())
            .collect();
        assert_eq!(
            arguments, r#"{"path":"2024","limit":20,"all":true,"note":"null"}"#,
            "--chunk {chunk}"
        );
        assert_eq!(reasons, ["tool_calls"]);
    }
    let bad = std::env::temp_dir().join(format!("inband-bad-tools-{}.json", std::process::id()));
    std::fs::write(
        &bad,
        r#"[{"type": "function", "function": {"name": "read"}}, {"type": "function", "function": {"name": "grep", "parameters": "none"}}]"#,
    )
    .unwrap();
    one_line_error(
        &inband(&[
            "scan",
            input,
            "--dialect",
            "xml",
            "--tools",
            bad.to_str().unwrap(),
        ]),
        1,
        "is not an OpenAI tools array: tool 1: `function.parameters` is not a JSON object",
    );
}
