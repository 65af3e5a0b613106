//! The tool prompt (docs/seed.md §1.8, §5.1 case 1): its shape, the catalog, byte
//! stability, bad tools, examples as read, and the golden prompts (`INBAND_BLESS=1` rewrites
//! them).

use inband::Dialect;
use inband_alloc::prompt::{catalog, guide, tool_prompt};
use inband_alloc::tools::{ToolExample, ToolSet, ToolsError};
use serde_json::{json, Value};

use crate::common::{data, nth, parse, tools_file};

#[test]
fn the_prompt_has_the_template_shape_exactly() {
    let tools = tools_file("shell");
    let prompt = tool_prompt(&tools, Dialect::Hermes).unwrap();
    let expected_head = "# Tools\n\n\
        You may call one or more of the functions below to help with the user's request.\n\
        Write each call as plain text in your reply, in exactly the syntax the format guide below gives, not as a native tool-call message.\n\n\
        The functions you can call are listed between <tools> and </tools>, one JSON object per line.\n\n\
        <tools>\n\
        {\"type\":\"function\",\"function\":{\"name\":\"shell\",\"description\":\"Run a command\",\"parameters\":{\"type\":\"object\",\"properties\":{\"cmd\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},\"required\":[\"cmd\"]}}}\n\
        </tools>\n\n";
    assert_eq!(
        prompt,
        format!("{expected_head}{}\n", guide(Dialect::Hermes))
    );
    assert_eq!(
        prompt.matches('\n').count(),
        12 + guide(Dialect::Hermes).matches('\n').count()
    );
}

/// The catalog keeps a schema's key order however many keys it has: it is built from
/// serde_json values with `preserve_order` (a hash map would reorder a wide object).
#[test]
fn the_catalog_keeps_the_order_of_wide_schemas() {
    let keys: Vec<String> = (0..40).rev().map(|i| format!("k{i:02}")).collect();
    let properties: Vec<String> = keys
        .iter()
        .map(|k| format!("\"{k}\":{{\"type\":\"string\"}}"))
        .collect();
    let schema = format!(
        "{{\"type\":\"object\",\"properties\":{{{}}}}}",
        properties.join(",")
    );
    let tool = format!("[{{\"name\":\"wide\",\"parameters\":{schema}}}]");
    let tools = parse(&serde_json::from_str::<Vec<Value>>(&tool).unwrap()).unwrap();
    assert!(catalog(&tools).contains(&schema), "{}", catalog(&tools));
}

#[test]
fn the_catalog_keeps_key_order_and_fills_defaults() {
    let tools: Vec<Value> = serde_json::from_str(
        r#"[{"function": {"parameters": {"type": "object", "required": ["z"], "properties": {"z": {"type": "string"}, "a": {"type": "number"}}}, "description": "Zed — ünïcode \"quoted\"", "name": "zed"}, "type": "function"},
            {"name": "bare"}]"#,
    )
    .unwrap();
    let tools = parse(&tools).unwrap();
    assert_eq!(
        catalog(&tools),
        "{\"type\":\"function\",\"function\":{\"name\":\"zed\",\"description\":\"Zed — ünïcode \\\"quoted\\\"\",\"parameters\":{\"type\":\"object\",\"required\":[\"z\"],\"properties\":{\"z\":{\"type\":\"string\"},\"a\":{\"type\":\"number\"}}}}}\n\
         {\"type\":\"function\",\"function\":{\"name\":\"bare\",\"description\":\"\",\"parameters\":{\"type\":\"object\",\"properties\":{}}}}"
    );
}

#[test]
fn the_prompt_is_byte_stable() {
    let text = std::fs::read_to_string(data("tools/workspace.json")).unwrap();
    for &dialect in Dialect::ALL {
        let first = {
            let tools: Vec<Value> = serde_json::from_str(&text).unwrap();
            tool_prompt(&parse(&tools).unwrap(), dialect).unwrap()
        };
        for _ in 0..3 {
            let tools: Vec<Value> = serde_json::from_str(&text).unwrap();
            let again = tool_prompt(&parse(&tools).unwrap(), dialect).unwrap();
            assert_eq!(again.as_bytes(), first.as_bytes(), "{dialect}");
        }
        // The schema's keys come out in the file's order, not sorted.
        assert!(first.contains(
            "\"properties\":{\"path\":{\"type\":\"string\",\"description\":\"Path relative to the workspace root\"},\"offset\":"
        ));
    }
}

#[test]
fn no_tools_no_prompt() {
    assert_eq!(tool_prompt(&ToolSet::default(), Dialect::Glm).unwrap(), "");
}

#[test]
fn bad_tools_are_reported_by_position() {
    let tools: Vec<Value> = serde_json::from_str(
        r#"[{"name": "ok"}, {"type": "function", "function": {"description": "x"}}]"#,
    )
    .unwrap();
    let err = parse(&tools).unwrap_err();
    assert_eq!(
        err,
        ToolsError::Tool {
            index: 1,
            problem: "no `function.name`".into()
        }
    );
    assert_eq!(err.to_string(), "tool 1: no `function.name`");
    let error = |tool: Value| parse(&[tool]).unwrap_err().to_string();
    assert_eq!(
        error(json!({"name": "f", "parameters": [1]})),
        "tool 0: `function.parameters` is not a JSON object"
    );
    assert_eq!(
        error(json!({"name": "f", "examples": [{"note": "no caption"}]})),
        "tool 0: example 0: neither `call`, `bad`/`good` nor a `caption`"
    );
    assert_eq!(
        error(json!({"name": "f", "examples": {}})),
        "tool 0: `examples` is not an array"
    );
    assert_eq!(
        error(json!({"function": {"name": "f", "examples": [{"call": 1}]}})),
        "tool 0: example 0: `call` is not an object of arguments"
    );
}

#[test]
fn examples_are_read_in_their_three_shapes() {
    let tools = tools_file("workspace");
    assert_eq!(
        nth(&tools, 0).examples,
        vec![
            ToolExample::Call {
                caption: Some("Whole file".into()),
                arguments: json!({"path": "src/main.rs"}).as_object().unwrap().clone(),
            },
            ToolExample::Compare {
                caption: Some("Paths are relative".into()),
                bad: json!({"path": "/home/me/project/src/main.rs"})
                    .as_object()
                    .unwrap()
                    .clone(),
                good: json!({"path": "src/main.rs"}).as_object().unwrap().clone(),
            },
            ToolExample::Note {
                caption: "Large files".into(),
                note: Some("Read them in pieces with offset and limit.".into()),
            },
        ]
    );
}

// Golden prompts: INBAND_BLESS=1 rewrites them.

#[test]
fn golden_prompts_per_dialect() {
    let bless = std::env::var_os("INBAND_BLESS").is_some();
    let mut stale = Vec::new();
    for (tools, suffix) in [("shell", ""), ("workspace", "-workspace")] {
        let tools = tools_file(tools);
        for &dialect in Dialect::ALL {
            let path = data(&format!("golden/prompt-{dialect}{suffix}.md"));
            let prompt = tool_prompt(&tools, dialect).unwrap();
            if bless {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &prompt).unwrap();
                continue;
            }
            let golden = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e} (INBAND_BLESS=1 writes it)", path.display()));
            if golden != prompt {
                stale.push(path.display().to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "prompts differ from (INBAND_BLESS=1 rewrites): {stale:#?}"
    );
}
