//! Tool names: a name the renderer writes in a dialect is read back by that dialect's
//! scanner as the same name; the loader refuses a name no dialect can carry, and the
//! prompt refuses a tool its dialect cannot carry.

use inband::{Dialect, Options};
use inband_alloc::assemble::{assemble, AssembleOptions};
use inband_alloc::render::{Call, Reason, Renderer};
use serde_json::Map;

/// Names at the edges: every ASCII punctuation character, non-ASCII, the length limit.
fn names() -> Vec<String> {
    let mut names: Vec<String> = (b'!'..=b'~')
        .filter(|b| !b.is_ascii_alphanumeric())
        .map(|b| format!("get{}x", b as char))
        .collect();
    names.extend([
        "météo".into(),
        "天气".into(),
        "a".repeat(128),
        "a".repeat(129),
    ]);
    names.extend([
        "a".repeat(116),
        "a".repeat(117),
        "ns.tool".into(),
        "t:1".into(),
    ]);
    names
}

/// What the renderer writes, the scanner reads back as the same name; what it refuses is
/// an InvalidName.
#[test]
fn a_name_written_is_read_back() {
    for &dialect in Dialect::ALL {
        let renderer = Renderer::new(dialect);
        for name in names() {
            let call = Call::new(name.clone(), Map::new());
            match renderer.call(&call) {
                Ok(text) => {
                    let completion = assemble(
                        dialect,
                        Options::default(),
                        &AssembleOptions::seeded(1),
                        [text.as_bytes()],
                    );
                    let read: Vec<&str> = completion
                        .tool_calls
                        .iter()
                        .map(|c| c.name.as_str())
                        .collect();
                    assert_eq!(read, [name.as_str()], "{dialect}: {text}");
                }
                Err(error) => assert!(
                    matches!(error.reason, Reason::InvalidName(_)),
                    "{dialect} {name:?}: {error}"
                ),
            }
        }
    }
}

/// The loader refuses a name no dialect can write, naming the tool; a name some dialects
/// cannot write loads, and the prompt for such a dialect refuses it, naming the tool, its
/// position and the dialect's form.
#[test]
fn names_are_refused_where_no_reader_gets_them() {
    use inband_alloc::prompt::tool_prompt;
    use inband_alloc::tools::ToolSet;
    let tools = |name: &str| {
        format!(r#"[{{"function": {{"name": "ok"}}}}, {{"function": {{"name": "{name}"}}}}]"#)
    };
    let long = "a".repeat(129);
    let error = ToolSet::from_json(tools(&long).as_bytes()).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "tool 1: `function.name` \"{long}\" (129 bytes) cannot be written in a call in any dialect: at most 128 bytes"
        )
    );
    ToolSet::from_json(tools(&"a".repeat(128)).as_bytes()).unwrap();
    // `get-weather` is no Python identifier: Gemini, pythonic and LFM2 cannot call it (their
    // reference parsers read calls as Python), every other dialect can.
    let set = ToolSet::from_json(tools("get-weather").as_bytes()).unwrap();
    for &dialect in Dialect::ALL {
        let prompt = tool_prompt(&set, dialect);
        if matches!(dialect, Dialect::Pythonic | Dialect::Lfm2) {
            let error = prompt.unwrap_err();
            assert_eq!(
                (error.index, error.name.as_deref(), error.reason),
                (
                    1,
                    Some("get-weather"),
                    Reason::InvalidName(
                        "a Python identifier of at most 128 bytes: [A-Za-z_][A-Za-z0-9_]*"
                    )
                ),
                "{dialect}"
            );
        } else if dialect == Dialect::Gemini {
            let error = prompt.unwrap_err();
            assert_eq!(
                (error.index, error.name.as_deref(), error.reason),
                (
                    1,
                    Some("get-weather"),
                    Reason::InvalidName("a Python identifier: [A-Za-z_][A-Za-z0-9_]*")
                )
            );
        } else {
            assert!(prompt.unwrap().contains("get-weather"), "{dialect}");
        }
    }
    // `f(x)`: Gemma's name ends at the parenthesis.
    let set = ToolSet::from_json(tools("f(x)").as_bytes()).unwrap();
    let error = tool_prompt(&set, Dialect::Gemma).unwrap_err();
    assert_eq!(
        error.reason,
        Reason::InvalidName("without { } [ ] ( ) , = in Gemma")
    );
}

/// The inventory for a model refuses a tool its dialect cannot write, as the prompt does.
#[test]
fn the_inventory_refuses_a_tool_its_dialect_cannot_write() {
    use inband_alloc::inventory::tool_inventory;
    use inband_alloc::tools::ToolSet;
    let set = ToolSet::from_json(br#"[{"function": {"name": "get-weather"}}]"#).unwrap();
    let error = tool_inventory(&set, "gemini-1.5-pro").unwrap_err();
    assert_eq!(
        (error.index, error.name.as_deref()),
        (0, Some("get-weather"))
    );
    assert!(tool_inventory(&set, "gpt-5")
        .unwrap()
        .contains("# Tool: get-weather"));
}
