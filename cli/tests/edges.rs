//! Input edges of the `inband` binary: a byte order mark before JSON input, limits of the
//! input JSON itself.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// `inband ARGS` with `stdin` on standard input.
fn inband(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_inband"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the inband binary runs");
    let mut input = child.stdin.take().unwrap();
    let _ = input.write_all(stdin);
    drop(input);
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "inband failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A temporary file holding `bytes`, removed when dropped.
struct TempFile(std::path::PathBuf);

impl TempFile {
    fn new(name: &str, bytes: &[u8]) -> Self {
        let path = std::env::temp_dir().join(format!("inband-edges-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

const TOOLS: &str = r#"[{"type": "function", "function": {"name": "read",
    "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}}}}]"#;

/// A tools file and `render` input that begin with a UTF-8 byte order mark read as without
/// it, in `scan`, `prompt` and `render`.
#[test]
fn a_byte_order_mark_before_json_is_skipped() {
    let plain = TempFile::new("plain.json", TOOLS.as_bytes());
    let marked = TempFile::new("bom.json", &[BOM, TOOLS.as_bytes()].concat());
    let response = b"<tool_call>{\"name\": \"read\", \"arguments\": {\"n\": 1}}</tool_call>";
    for args in [
        &["scan", "--dialect", "qwen3", "--seed", "1", "--tools"][..],
        &["prompt", "--dialect", "glm", "--tools"][..],
    ] {
        let with = |file: &TempFile| {
            let mut all = args.to_vec();
            all.push(file.path());
            stdout(&inband(&all, response))
        };
        assert_eq!(with(&marked), with(&plain), "{args:?}");
    }
    let calls = br#"[{"name": "read", "arguments": {"n": 1}}]"#;
    let render = |input: &[u8]| {
        stdout(&inband(
            &[
                "render",
                "calls",
                "--dialect",
                "glm",
                "--tools",
                marked.path(),
            ],
            input,
        ))
    };
    let expected = "<tool_call>read\n<arg_key>n</arg_key>\n<arg_value>1</arg_value>\n</tool_call>";
    assert_eq!(render(calls), expected);
    assert_eq!(render(&[BOM, calls].concat()), expected);
    // Only at the start: a second mark is malformed JSON, an error, not a guess.
    let twice = inband(
        &["render", "calls", "--dialect", "glm"],
        &[BOM, BOM, calls].concat(),
    );
    assert_eq!(twice.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&twice.stderr)
        .starts_with("inband: standard input is not a JSON array of tool calls: "));
}
