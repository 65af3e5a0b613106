//! `inband scan --format events` prints the scanner's events (the model's text as
//! written), and with them the repeat diagnostics the decoded formats carry: a repeated
//! key's `duplicate_parameter` / `duplicate_key` just before its call's `tool_end`, the
//! same at every chunking.

use std::io::Write;
use std::process::{Command, Stdio};

/// The `diagnostic` and `tool_end` lines of `inband scan --format events` on `input`,
/// checked to be the same at several chunk sizes.
fn events(dialect: &str, input: &str) -> Vec<String> {
    let run = |chunk: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_inband"))
            .args([
                "scan",
                "--dialect",
                dialect,
                "--format",
                "events",
                "--chunk",
                chunk,
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the inband binary runs");
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(input.as_bytes()).unwrap();
        drop(stdin);
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap()
    };
    let whole = run("65536");
    for chunk in ["1", "3", "7"] {
        assert_eq!(run(chunk), whole, "--chunk {chunk}");
    }
    whole
        .lines()
        .filter(|l| l.contains(r#""kind":"diagnostic""#) || l.contains(r#""kind":"tool_end""#))
        .map(str::to_owned)
        .collect()
}

#[test]
fn repeated_keys_are_reported_in_events() {
    assert_eq!(
        events(
            "qwen3",
            r#"<tool_call>{"name": "rm", "arguments": {"path": "/tmp/safe", "p\u0061th": "/"}}</tool_call>ok"#
        ),
        [
            r#"{"kind":"diagnostic","span":[0,91],"code":"duplicate_parameter","message":"a parameter appeared twice in a call; the first value was kept"}"#,
            r#"{"kind":"tool_end","span":[79,91],"call":0,"end":"complete"}"#,
        ]
    );
    assert_eq!(
        events(
            "glm",
            "<tool_call>f<arg_key>a</arg_key><arg_value>5</arg_value><arg_key>a</arg_key><arg_value>6</arg_value></tool_call>\
             <tool_call>f<arg_key>o</arg_key><arg_value>{\"x\": 1, \"x\": 2}</arg_value></tool_call>\
             <tool_call>f<arg_key>b</arg_key><arg_value>1</arg_value><arg_key>b</arg_key><arg_value>2"
        ),
        [
            r#"{"kind":"diagnostic","span":[65,66],"code":"duplicate_parameter","message":"a parameter appeared twice in a call; the first value was kept"}"#,
            r#"{"kind":"tool_end","span":[100,112],"call":0,"end":"complete"}"#,
            r#"{"kind":"diagnostic","span":[112,195],"code":"duplicate_key","message":"a key appeared twice in an object of the arguments; the first value was kept"}"#,
            r#"{"kind":"tool_end","span":[183,195],"call":1,"end":"complete"}"#,
            r#"{"kind":"diagnostic","span":[283,283],"code":"truncated_call","message":"the stream ended (or a stop token came) inside a call"}"#,
            r#"{"kind":"diagnostic","span":[260,261],"code":"duplicate_parameter","message":"a parameter appeared twice in a call; the first value was kept"}"#,
            r#"{"kind":"tool_end","span":[283,283],"call":2,"end":"incomplete"}"#,
        ]
    );
}
