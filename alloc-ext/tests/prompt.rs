//! The prompt side: dialect selection, the tool prompt and its golden files, the format
//! guides read back by the scanners, the inventory, examples and reasoning demotion
//! (docs/seed.md §1.8, §1.9, §4.3, §4.7, §5.7–§5.9, docs/dialects.md §families).

use std::path::PathBuf;

use inband::{Dialect, Options};
use inband_alloc::assemble::{assemble, AssembleOptions};
use inband_alloc::demote::demoted_reasoning;
use inband_alloc::examples::tool_examples;
use inband_alloc::inventory::{demote_headings, signature, tool_inventory};
use inband_alloc::prompt::{catalog, guide, tool_prompt};
use inband_alloc::render::{Reason, Renderer};
use inband_alloc::select;
use inband_alloc::tools::{Tool, ToolExample, ToolSet, ToolsError};
use serde_json::{json, Value};

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data")
        .join(path)
}

fn tools_file(name: &str) -> ToolSet {
    ToolSet::from_json(&std::fs::read(data(&format!("tools/{name}.json"))).unwrap()).unwrap()
}

/// An OpenAI `tools` array read as the one tool type.
fn parse(tools: &[Value]) -> Result<ToolSet, ToolsError> {
    ToolSet::from_value(&Value::Array(tools.to_vec()))
}

/// The `i`-th tool of `tools`.
fn nth(tools: &ToolSet, i: usize) -> &Tool {
    tools.iter().nth(i).unwrap()
}

// ---------------------------------------------------------------------------------------
// Selection from a model id (docs/seed.md §4.7, §4.3 examples, §5.9, §5.11; docs/dialects.md §families).

#[track_caller]
fn assert_models(cases: &[(&str, &str)]) {
    for (model, dialect) in cases {
        assert_eq!(select::for_model(model).name(), *dialect, "model {model}");
    }
}

#[test]
fn seed_model_examples_select_their_dialects() {
    assert_models(&[
        ("claude-sonnet-4-5", "anthropic"),
        ("claude-3-5-sonnet-20241022", "anthropic"),
        ("gpt-5", "harmony"),
        ("", "xml"),
        ("deepseek-v3", "deepseek"),
        ("gemini-2.5-pro", "gemini"),
        ("gemini-3-pro-preview", "gemini"),
        ("claude-opus-4-8", "anthropic"),
        ("claude-sonnet-4-6", "anthropic"),
        ("claude-haiku-4-5", "anthropic"),
        ("claude-fable-5", "anthropic"),
        ("claude-mythos-5", "anthropic"),
        ("us.anthropic.claude-haiku-4-5-20251001-v1:0", "anthropic"),
        ("eu.anthropic.claude-haiku-4-5-20251001-v1:0", "anthropic"),
        ("global.anthropic.claude-opus-4-8", "anthropic"),
        ("anthropic/claude-3-opus", "anthropic"),
        ("MiniMax-M3", "minimax"),
        ("unclassified-model-id", "xml"),
        ("deepseek-r1-distill-qwen-32b", "qwen3"),
        ("o3-mini", "harmony"),
        ("openai/gpt-oss-120b", "harmony"),
        ("gpt-oss-20b", "harmony"),
        ("glm-4.6", "glm"),
        ("glm-10", "xml"),
    ]);
}

#[test]
fn every_family_of_model_formats_selects_its_dialect() {
    assert_models(&[
        // Hermes and Granite 4 (exact hermes).
        ("NousResearch/Hermes-3-Llama-3.1-8B", "hermes"),
        ("NousResearch/Hermes-4-14B", "hermes"),
        ("ibm-granite/granite-4.0-h-small", "hermes"),
        ("granite-3.3-8b-instruct", "xml"),
        // Qwen JSON family, QwQ, MiMo.
        ("Qwen/Qwen2.5-7B-Instruct", "qwen3"),
        ("Qwen/Qwen3-235B-A22B-Thinking-2507", "qwen3"),
        ("qwen3-32b", "qwen3"),
        ("Qwen/Qwen2.5-Coder-32B-Instruct", "qwen3"),
        ("Qwen/QwQ-32B", "qwen3"),
        ("XiaomiMiMo/MiMo-7B-RL", "qwen3"),
        // Qwen3-Coder, Qwen3.5 / 3.6, Step-3.5 / 3.7.
        ("Qwen/Qwen3-Coder-480B-A35B-Instruct", "qwen3-coder"),
        ("qwen3-coder-plus", "qwen3-coder"),
        ("Qwen/Qwen3.5-397B-A17B", "qwen3-coder"),
        ("qwen3.6-plus", "qwen3-coder"),
        ("stepfun-ai/Step-3.5-Flash", "qwen3-coder"),
        ("step-3.7-flash", "qwen3-coder"),
        ("step3p5", "qwen3-coder"),
        ("step-3", "xml"),
        // GLM-4.5 … 5.
        ("zai-org/GLM-4.5", "glm"),
        ("zai-org/GLM-4.5-Air", "glm"),
        ("glm-4.7", "glm"),
        ("zai-org/GLM-5", "glm"),
        // Kimi.
        ("moonshotai/Kimi-K2-Instruct", "kimi"),
        ("kimi-k2-thinking", "kimi"),
        ("kimi-k2.5", "kimi"),
        // DeepSeek V3, R1, V3.1, V3.2, V4.
        ("deepseek-ai/DeepSeek-V3-0324", "deepseek"),
        ("deepseek-ai/DeepSeek-R1-0528", "deepseek"),
        ("deepseek-ai/DeepSeek-V3.1-Terminus", "deepseek"),
        ("deepseek-ai/DeepSeek-V3.2", "deepseek"),
        ("deepseek-v4-pro", "deepseek"),
        // MiniMax M2 (M1 writes JSON lines: no dialect).
        ("MiniMaxAI/MiniMax-M2", "minimax"),
        ("minimax-m2.1", "minimax"),
        ("MiniMax-M2.5", "minimax"),
        ("MiniMaxAI/MiniMax-M1-80k", "xml"),
        // gpt-oss and OpenAI.
        ("openai/gpt-oss-120b", "harmony"),
        ("chatgpt-4o-latest", "harmony"),
        ("gpt-4.1-mini", "harmony"),
        // Gemma 4 vs Gemma 3, Gemini.
        ("google/gemma-4-31b-it", "gemma"),
        ("gemma-3-27b-it", "gemini"),
        ("gemma3:12b", "gemini"),
        ("google/gemma-3n-E4B-it", "gemini"),
        ("gemini-exp-1206", "gemini"),
        ("codegemma-7b", "xml"),
        // No dialect: the fallback.
        ("meta-llama/Llama-3.3-70B-Instruct", "xml"),
        ("mistralai/Mistral-Small-3.2-24B-Instruct-2506", "xml"),
    ]);
}

#[test]
fn server_parser_names_select_their_dialects() {
    let cases = [
        ("hermes", Some("hermes")),
        ("granite4", Some("hermes")),
        ("qwen", Some("qwen3")),
        ("qwen25", Some("qwen3")),
        ("qwen3_coder", Some("qwen3-coder")),
        ("qwen3_xml", Some("qwen3-coder")),
        ("qwen_coder", Some("qwen3-coder")),
        ("step3p5", Some("qwen3-coder")),
        ("glm", Some("glm")),
        ("glm45", Some("glm")),
        ("glm47", Some("glm")),
        ("glm45_moe", Some("glm")),
        ("glm47_moe", Some("glm")),
        ("kimi_k2", Some("kimi")),
        ("kimik2", Some("kimi")),
        ("deepseek_v3", Some("deepseek")),
        ("deepseekv3", Some("deepseek")),
        ("deepseek", Some("deepseek")),
        ("deepseek_v31", Some("deepseek")),
        ("deepseekv31", Some("deepseek")),
        ("deepseek31", Some("deepseek")),
        ("deepseek_v32", Some("deepseek")),
        ("deepseekv32", Some("deepseek")),
        ("deepseek_v4", Some("deepseek")),
        ("deepseekv4", Some("deepseek")),
        ("minimax_m2", Some("minimax")),
        ("minimax-m2", Some("minimax")),
        ("openai", Some("harmony")),
        ("gpt-oss", Some("harmony")),
        ("gemma4", Some("gemma")),
        ("seed_oss", Some("xml")),
        ("minimax", None),
        ("kimi_k3", None),
        ("mistral", None),
        ("llama3_json", None),
        ("pythonic", None),
        ("granite", None),
        ("step3", None),
        ("functiongemma", None),
        ("no_such_parser", None),
    ];
    for (parser, dialect) in cases {
        assert_eq!(
            select::for_parser(parser).map(Dialect::name),
            dialect,
            "parser {parser}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// The tool prompt (docs/seed.md §1.8, §5.1 case 1).

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

// ---------------------------------------------------------------------------------------
// The guides.

#[test]
fn every_dialect_has_a_guide() {
    for &dialect in Dialect::ALL {
        let text = guide(dialect);
        assert!(text.starts_with("## Format guide\n\n"), "{dialect}");
        let rules = text
            .find("\n## Rules\n\n- ")
            .unwrap_or_else(|| panic!("{dialect}"));
        assert!(text[..rules].contains("```text\n"), "{dialect}");
        assert!(
            text[rules..].contains("Never write"),
            "{dialect}: results rule"
        );
        assert!(
            text[rules..].contains("before you stop"),
            "{dialect}: stop rule"
        );
        assert!(
            text[rules..].contains("`cargo clippy`"),
            "{dialect}: stop rule"
        );
        assert!(
            text[rules..].contains("listed in `<tools>`"),
            "{dialect}: names rule"
        );
        assert!(!text.contains("&amp;;"), "{dialect}");
        assert_eq!(text, text.trim(), "{dialect}");
    }
}

/// The fenced `text` blocks of a guide's format section.
fn text_blocks(guide: &str) -> Vec<String> {
    let format = &guide[..guide.find("## Rules").unwrap()];
    let mut blocks = Vec::new();
    let mut rest = format;
    while let Some(at) = rest.find("text\n") {
        let fence_start = rest[..at].rfind('\n').map_or(0, |i| i + 1);
        let fence = &rest[fence_start..at];
        assert!(
            fence.len() >= 3 && fence.bytes().all(|b| b == b'`'),
            "{fence:?}"
        );
        let body_start = at + "text\n".len();
        let close = format!("\n{fence}\n");
        let end = body_start + rest[body_start..].find(&close).unwrap();
        blocks.push(rest[body_start..end].to_owned());
        rest = &rest[end + close.len()..];
    }
    blocks
}

/// The calls a guide's example blocks hold, in order: the weather call, and the time
/// call where the guide shows two calls.
fn expected_guide_calls(dialect: &str) -> Vec<(String, Value)> {
    let weather = (
        "get_weather".to_owned(),
        json!({"city": "Paris", "days": 3}),
    );
    let time = ("get_time".to_owned(), json!({"zone": "Europe/Paris"}));
    match dialect {
        "hermes" | "xml" | "anthropic" | "minimax" | "qwen3-coder" => {
            vec![weather.clone(), weather, time]
        }
        "harmony" => vec![weather.clone(), weather],
        "qwen3" | "kimi" | "deepseek" | "gemma" | "gemini" | "glm" | "jamba" => {
            vec![weather.clone(), weather.clone(), time, weather]
        }
        other => panic!("no expected calls for the {other} guide"),
    }
}

#[test]
fn every_guide_example_reads_back_as_the_calls_it_shows() {
    for dialect in Dialect::ALL {
        let text = guide(*dialect);
        let mut calls = Vec::new();
        for block in text_blocks(text) {
            for size in [1, 3, block.len()] {
                let completion = assemble(
                    *dialect,
                    Options::default(),
                    &AssembleOptions::seeded(1),
                    block.as_bytes().chunks(size),
                );
                if completion.tool_calls.is_empty() {
                    // A results example: the model must not write it, and the scanner says so.
                    assert!(
                        completion
                            .diagnostics
                            .iter()
                            .any(|d| d.code == "fabricated_result"),
                        "{dialect:?}: {block}\n{completion:?}"
                    );
                    continue;
                }
                assert_eq!(completion.content, "", "{dialect:?}: {block}");
                assert_eq!(completion.diagnostics, vec![], "{dialect:?}: {block}");
                assert!(completion.incomplete_calls.is_empty(), "{dialect:?}");
                if size == block.len() {
                    for call in completion.tool_calls {
                        calls.push((call.name, call.arguments));
                    }
                }
            }
        }
        assert_eq!(calls, expected_guide_calls(dialect.name()), "{dialect:?}");
    }
}

// ---------------------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------------------
// The inventory (docs/seed.md §1.9, §5.7).

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

// ---------------------------------------------------------------------------------------
// Tool examples (docs/seed.md §1.9, §5.8: tool find{paths: string[]}, intent field `i`).

fn find_tool(examples: Value) -> Tool {
    parse(&[json!({
        "name": "find",
        "parameters": {"type": "object", "properties": {"paths": {"type": "array", "items": {"type": "string"}}}, "required": ["paths"]},
        "examples": examples,
    })])
    .unwrap()
    .iter()
    .next()
    .unwrap()
    .clone()
}

#[test]
fn call_examples_in_the_xml_family_and_hermes() {
    let tool = find_tool(json!([{"caption": "Find files", "call": {"paths": ["src/**/*.ts"]}}]));
    let anthropic = tool_examples(&tool, Dialect::Anthropic, None).unwrap();
    assert_eq!(
        anthropic,
        "<examples>\n# Find files\n<example>\n<invoke name=\"find\">\n<parameter name=\"paths\">[\"src/**/*.ts\"]</parameter>\n</invoke>\n</example>\n</examples>"
    );
    assert_eq!(tool_examples(&tool, Dialect::Xml, None).unwrap(), anthropic);
    assert_eq!(
        tool_examples(&tool, Dialect::Hermes, None).unwrap(),
        "<examples>\n# Find files\n<example>\n<tool_call>\n{\"name\":\"find\",\"arguments\":{\"paths\":[\"src/**/*.ts\"]}}\n</tool_call>\n</example>\n</examples>"
    );
}

#[test]
fn harmony_and_gemini_examples_are_reduced() {
    let irc = parse(&[json!({
        "name": "irc",
        "parameters": {"type": "object", "properties": {"op": {"type": "string"}, "to": {"type": "string"}, "message": {"type": "string"}}},
        "examples": [{"call": {"op": "send", "to": "all", "message": "hi"}}],
    })])
    .unwrap()
    .iter()
    .next()
    .unwrap()
    .clone();
    let harmony = tool_examples(&irc, Dialect::Harmony, None).unwrap();
    assert_eq!(
        harmony,
        "<examples>\n<example>\n{\"op\":\"send\",\"to\":\"all\",\"message\":\"hi\"}\n</example>\n</examples>"
    );
    for token in ["<|start|>", "<|channel|>", "<|message|>", "<|call|>"] {
        assert!(!harmony.contains(token));
    }
    assert_eq!(
        tool_examples(&irc, Dialect::Gemini, None).unwrap(),
        "<examples>\n<example>\nirc(op=\"send\", to=\"all\", message=\"hi\")\n</example>\n</examples>"
    );
}

#[test]
fn compare_and_note_examples_and_none() {
    assert_eq!(
        tool_examples(&find_tool(json!([])), Dialect::Anthropic, None).unwrap(),
        ""
    );
    let tool = find_tool(json!([
        {"bad": {"paths": ["**/*.ts"]}, "good": {"paths": ["src/**/*.ts"]}},
        {"caption": "Globs  ", "note": "Quote them."},
        {"caption": "Short"},
    ]));
    assert_eq!(
        tool_examples(&tool, Dialect::Minimax, None).unwrap(),
        "<examples>\n\
         WRONG:\n<example>\n<invoke name=\"find\">\n<parameter name=\"paths\">[\"**/*.ts\"]</parameter>\n</invoke>\n</example>\n\
         RIGHT:\n<example>\n<invoke name=\"find\">\n<parameter name=\"paths\">[\"src/**/*.ts\"]</parameter>\n</invoke>\n</example>\n\
         # Globs\nQuote them.\n\
         # Short\n\
         </examples>"
    );
}

#[test]
fn the_intent_field_comes_first() {
    let tool = find_tool(json!([{"caption": "Find files", "call": {"paths": ["src/**/*.ts"]}}]));
    let with = tool_examples(&tool, Dialect::Anthropic, Some("i")).unwrap();
    assert!(with.contains(
        "<invoke name=\"find\">\n<parameter name=\"i\">\u{2026}</parameter>\n<parameter name=\"paths\">"
    ), "{with}");
    let without = tool_examples(&tool, Dialect::Anthropic, None).unwrap();
    assert!(!without.contains("<parameter name=\"i\""));
    // An intent the example sets keeps its value, in first place.
    let set = find_tool(json!([{"call": {"paths": ["a"], "i": "look"}}]));
    assert_eq!(
        tool_examples(&set, Dialect::Hermes, Some("i")).unwrap(),
        "<examples>\n<example>\n<tool_call>\n{\"name\":\"find\",\"arguments\":{\"i\":\"look\",\"paths\":[\"a\"]}}\n</tool_call>\n</example>\n</examples>"
    );
}

#[test]
fn an_example_the_dialect_cannot_write_is_an_error() {
    let tool = find_tool(json!([{"call": {"paths": ["a<|\"|>b"]}}]));
    let err = tool_examples(&tool, Dialect::Gemma, None).unwrap_err();
    assert_eq!(err.reason, Reason::QuoteTokenInString);
}

// ---------------------------------------------------------------------------------------
// Reasoning demotion (docs/seed.md §4.3, §5.9).

const REASONING: &str =
    "The user wants the Paris weather; I will call get_weather with city=Paris.";

#[test]
fn demotion_follows_the_target_model() {
    let gemini = demoted_reasoning("gemini-3-pro-preview", REASONING).unwrap();
    assert_eq!(gemini, format!("```thinking\n{REASONING}\n```"));
    let gpt = demoted_reasoning("gpt-5", REASONING).unwrap();
    assert_eq!(gpt, format!("<think>\n{REASONING}\n</think>"));
    assert!(!gpt.contains("<|"));
    let harmony = Renderer::new(Dialect::Harmony)
        .reasoning(REASONING)
        .unwrap();
    assert_ne!(gpt, harmony);
    for claude in [
        "claude-opus-4-8",
        "claude-sonnet-4-6",
        "claude-haiku-4-5",
        "claude-fable-5",
        "claude-mythos-5",
        "us.anthropic.claude-haiku-4-5-20251001-v1:0",
        "eu.anthropic.claude-haiku-4-5-20251001-v1:0",
        "global.anthropic.claude-opus-4-8",
    ] {
        assert_eq!(
            demoted_reasoning(claude, REASONING).unwrap(),
            REASONING,
            "{claude}"
        );
        assert_eq!(
            demoted_reasoning(claude, &format!("{REASONING}\n")).unwrap(),
            REASONING
        );
    }
    assert_eq!(
        demoted_reasoning("claude-sonnet-4-6", "The plan is complete.\n \t").unwrap(),
        "The plan is complete."
    );
    assert_eq!(demoted_reasoning("claude-sonnet-4-6", " \n\t").unwrap(), "");
    assert_eq!(demoted_reasoning("gpt-5", "").unwrap(), "");
}

#[test]
fn demotion_of_the_seed_examples() {
    let cases = [
        ("claude-sonnet-4-5", "r"),
        ("gpt-5", "<think>\nr\n</think>"),
        ("google/gemma-4-31b-it", "<think>\nr\n</think>"),
        // Gemma 3 is prompted in `gemini` here (the seed put it in `gemma`).
        ("gemma-3-27b", "```thinking\nr\n```"),
        ("", "<thinking>\nr\n</thinking>"),
        ("deepseek-v3", "<think>\nr\n</think>"),
        ("gemini-2.5-pro", "```thinking\nr\n```"),
        ("zai-org/GLM-4.5", "<think>\nr\n</think>"),
        (
            "Qwen/Qwen3-Coder-480B-A35B-Instruct",
            "<think>\nr\n</think>",
        ),
        // MiniMax-M2 reads `<think>` (docs/dialects.md §minimax), not the seed's `<thinking>`.
        ("MiniMax-M2", "<think>\nr\n</think>"),
        ("moonshotai/Kimi-K2-Instruct", "<think>\nr\n</think>"),
    ];
    for (model, demoted) in cases {
        assert_eq!(demoted_reasoning(model, "r").unwrap(), demoted, "{model}");
    }
    // Hermes and xml unwrap envelopes already there (docs/seed.md §1.10).
    assert_eq!(
        demoted_reasoning(
            "hermes-3-llama-3.1-8b",
            "<think>\n a \n</think>\n<think>b</think>"
        )
        .unwrap(),
        "<think>\na\nb\n</think>"
    );
}

#[test]
fn demoted_reasoning_that_would_close_early_is_an_error() {
    let err = demoted_reasoning("qwen3-32b", "a </think> b").unwrap_err();
    assert_eq!(err.reason, Reason::CloserInReasoning("</think>"));
}

#[test]
fn callers_with_their_own_fallback_see_unknown_models() {
    // The seed's agent (§5.11) prompts models no rule knows in glm; Qwen3-Coder now has
    // its own dialect.
    let agent = |id: Option<&str>| {
        id.and_then(select::known_model)
            .unwrap_or(Dialect::Glm)
            .name()
    };
    assert_eq!(agent(Some("MiniMax-M3")), "minimax");
    assert_eq!(agent(Some("qwen3-coder-plus")), "qwen3-coder");
    assert_eq!(agent(Some("unclassified-model-id")), "glm");
    assert_eq!(agent(None), "glm");
    assert_eq!(select::known_model("mistral-large"), None);
    assert_eq!(select::for_model("mistral-large"), select::FALLBACK);
}

/// Kimi K3's new markers are not the kimi dialect's (docs/dialects.md §families: fit "none"), as
/// `for_parser` already says of `kimi_k3`; K2 and K2.5 stay kimi.
#[test]
fn kimi_k3_is_not_kimi() {
    use inband_alloc::select::{for_model, known_model, FALLBACK};
    for id in ["moonshotai/Kimi-K3", "kimi-k3-preview", "Kimi-K3.1"] {
        assert_eq!(known_model(id), None, "{id}");
        assert_eq!(for_model(id), FALLBACK, "{id}");
    }
    for id in [
        "moonshotai/Kimi-K2.5",
        "kimi-k2-0711-preview",
        "moonshotai/Kimi-K2-Thinking",
    ] {
        assert_eq!(known_model(id), Some(Dialect::Kimi), "{id}");
    }
}
