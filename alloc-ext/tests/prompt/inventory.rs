//! The inventory (docs/seed.md §1.9, §5.7): TypeScript-like signatures, demoted headings,
//! and the inventory with and without examples.

use inband_alloc::inventory::{demote_headings, signature, tool_inventory};
use inband_alloc::tools::{Tool, ToolSet};
use serde_json::{json, Value};

use crate::common::{nth, parse, tools_file};

#[test]
fn signatures_are_typescript_like() {
    let schema = json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "search query"},
            "recency": {"enum": ["day", "week"]},
        },
        "required": ["query"],
    });
    assert_eq!(
        signature(&schema),
        "{\n  /** search query */\n  query: string;\n  recency?: \"day\" | \"week\";\n}"
    );
    let tools = tools_file("workspace");
    assert_eq!(
        signature(nth(&tools, 0).parameters.as_ref().unwrap()),
        "{\n  /** Path relative to the workspace root */\n  path: string;\n  offset?: number;\n  /** Lines to read; all when null */\n  limit?: number | null;\n}"
    );
    assert_eq!(
        signature(nth(&tools, 2).parameters.as_ref().unwrap()),
        "{\n  query: string;\n  filters?: {\n    site?: string;\n    recency?: \"day\" | \"week\";\n  };\n  tags?: (string | number)[];\n  options?: Record<string, boolean>;\n}"
    );
    assert_eq!(nth(&tools, 3).parameters, None);
    let recursive = json!({
        "$ref": "#/$defs/node",
        "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}},
    });
    assert!(
        signature(&recursive).contains("next?: node;"),
        "{}",
        signature(&recursive)
    );
    assert_eq!(
        signature(
            &json!({"allOf": [{"type": "string"}, {"anyOf": [{"type": "null"}, {"type": "integer"}]}], "nullable": true})
        ),
        "string & (null | number) | null"
    );
}

#[test]
fn headings_are_demoted_only_under_a_level_one_heading() {
    let described = "Reads files.\n\n## Parameters\n\n- `path`\n\n# Files\n\nStuff.";
    let demoted = demote_headings(described);
    assert_eq!(
        demoted,
        "Reads files.\n\n### Parameters\n\n- `path`\n\n## Files\n\nStuff."
    );
    let plain = "Does nothing.\n\n## Parameters\n\n- `x`";
    assert_eq!(demote_headings(plain), plain);
    let fenced = "Runs commands.\n\n# Usage\n\n```bash\n# not a header\nls\n```";
    assert_eq!(
        demote_headings(fenced),
        "Runs commands.\n\n## Usage\n\n```bash\n# not a header\nls\n```"
    );
    // Only inside a fence is `#` a comment; a tilde fence is not closed by backticks.
    let tilde = "  # Top\n~~~\n# in\n```\n# still in\n~~~\n#no space\n#\ttab";
    assert_eq!(
        demote_headings(tilde),
        "  ## Top\n~~~\n# in\n```\n# still in\n~~~\n#no space\n##\ttab"
    );
}

#[test]
fn inventory_of_no_tools_is_empty() {
    assert_eq!(
        tool_inventory(&ToolSet::default(), "claude-3-5-sonnet-20241022").unwrap(),
        ""
    );
}

fn web_search() -> Tool {
    parse(&[json!({
        "type": "function",
        "function": {
            "name": "web_search",
            "description": "Searches the web.",
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "search query"},
                    "recency": {"enum": ["day", "week"]},
                },
                "required": ["query"],
            },
        },
        "examples": [{"caption": "Basic", "call": {"query": "rust"}}],
    })])
    .unwrap()
    .iter()
    .next()
    .unwrap()
    .clone()
}

#[test]
fn inventory_with_examples_in_the_models_dialect() {
    let inventory = tool_inventory(
        &ToolSet::from_tools([web_search()]),
        "claude-3-5-sonnet-20241022",
    )
    .unwrap();
    assert_eq!(
        inventory,
        "# Tool: web_search\n\
         Searches the web.\n\
         \n\
         Parameters: {\n  /** search query */\n  query: string;\n  recency?: \"day\" | \"week\";\n}\n\
         \n\
         <examples>\n\
         # Basic\n\
         <example>\n\
         <invoke name=\"web_search\">\n<parameter name=\"query\">rust</parameter>\n</invoke>\n\
         </example>\n\
         </examples>"
    );
    // Gemma 4 reads its own call syntax in the examples.
    let gemma = tool_inventory(
        &ToolSet::from_tools([web_search()]),
        "google/gemma-4-31b-it",
    )
    .unwrap();
    assert!(
        gemma.contains("<example>\n<|tool_call>call:web_search{query:<|\"|>rust<|\"|>}<tool_call|>\n</example>"),
        "{gemma}"
    );
}

#[test]
fn inventory_without_examples_and_with_headings() {
    let tools: Vec<Value> = vec![
        json!({"name": "read", "description": "Reads files.\n\n## Parameters\n\n- `path`\n\n# Files\n\nStuff.", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}),
        json!({"name": "noop"}),
    ];
    let inventory = tool_inventory(&parse(&tools).unwrap(), "gpt-5").unwrap();
    assert_eq!(
        inventory,
        "# Tool: read\n\
         Reads files.\n\n### Parameters\n\n- `path`\n\n## Files\n\nStuff.\n\
         \n\
         Parameters: {\n  path: string;\n}\n\
         \n\
         # Tool: noop\n\
         \n\
         Parameters: Record<string, unknown>"
    );
    assert!(!inventory.contains("<examples>"));
}
