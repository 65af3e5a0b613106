//! The tool prompt (docs/seed.md §1.8): a short preamble, the tool catalog (one compact
//! JSON object per tool) and the dialect's format guide and rules, written for a model that
//! calls tools in band. The output is byte-stable for the same input, so a provider's
//! prompt cache keeps hitting.
//!
//! The guides live in `src/prompt/guides/NAME.md`, one per dialect, keyed by its
//! [`Dialect::name`].
//!
//! ## Example: a Hermes tool prompt
//!
//! ```
//! use inband::Dialect;
//! use inband_alloc::prompt::tool_prompt;
//! use inband_alloc::tools::ToolSet;
//!
//! let tools = ToolSet::from_json(
//!     br#"[{"type": "function", "function": {"name": "read", "parameters": {"type": "object"}}}]"#,
//! )?;
//! let prompt = tool_prompt(&tools, Dialect::Hermes)?;
//! assert!(prompt.starts_with("# Tools\n\n"));
//! assert!(prompt.contains(
//!     "<tools>\n{\"type\":\"function\",\"function\":{\"name\":\"read\",\"description\":\"\",\"parameters\":{\"type\":\"object\"}}}\n</tools>"
//! ));
//! assert!(prompt.contains("## Format guide"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use inband::Dialect;

use crate::render::{RenderError, Renderer};
use serde_json::{json, Map, Value};

use crate::tools::ToolSet;

/// The format guide and rules of each dialect, by [`Dialect::name`]: docs/seed.md §2.x
/// (i) and §3 in our words, each showing the canonical form its scanner reads.
const GUIDES: [(&str, &str); 43] = [
    ("hermes", include_str!("guides/hermes.md")),
    ("qwen3", include_str!("guides/qwen3.md")),
    ("kimi", include_str!("guides/kimi.md")),
    ("deepseek", include_str!("guides/deepseek.md")),
    ("harmony", include_str!("guides/harmony.md")),
    ("xml", include_str!("guides/xml.md")),
    ("gemma", include_str!("guides/gemma.md")),
    ("gemini", include_str!("guides/gemini.md")),
    ("anthropic", include_str!("guides/anthropic.md")),
    ("minimax", include_str!("guides/minimax.md")),
    ("qwen3-coder", include_str!("guides/qwen3-coder.md")),
    ("glm", include_str!("guides/glm.md")),
    ("seed-oss", include_str!("guides/seed-oss.md")),
    ("longcat", include_str!("guides/longcat.md")),
    ("jamba", include_str!("guides/jamba.md")),
    ("granite", include_str!("guides/granite.md")),
    ("internlm", include_str!("guides/internlm.md")),
    ("mistral", include_str!("guides/mistral.md")),
    ("pythonic", include_str!("guides/pythonic.md")),
    ("lfm2", include_str!("guides/lfm2.md")),
    ("llama3-json", include_str!("guides/llama3-json.md")),
    ("xlam", include_str!("guides/xlam.md")),
    ("phi4-mini", include_str!("guides/phi4-mini.md")),
    ("hunyuan-a13b", include_str!("guides/hunyuan-a13b.md")),
    ("hunyuan", include_str!("guides/hunyuan.md")),
    ("iquest-q1", include_str!("guides/iquest-q1.md")),
    ("k2-horizon", include_str!("guides/k2-horizon.md")),
    ("cohere", include_str!("guides/cohere.md")),
    ("apertus", include_str!("guides/apertus.md")),
    ("deepseek-v41", include_str!("guides/deepseek-v41.md")),
    ("dots", include_str!("guides/dots.md")),
    ("ernie45", include_str!("guides/ernie45.md")),
    ("granite-20b-fc", include_str!("guides/granite-20b-fc.md")),
    ("functiongemma", include_str!("guides/functiongemma.md")),
    ("minicpm5", include_str!("guides/minicpm5.md")),
    ("kimi-k3", include_str!("guides/kimi-k3.md")),
    ("muse", include_str!("guides/muse.md")),
    ("mimo", include_str!("guides/mimo.md")),
    ("step3", include_str!("guides/step3.md")),
    ("gigachat35", include_str!("guides/gigachat35.md")),
    ("gigachat3", include_str!("guides/gigachat3.md")),
    ("plamo3", include_str!("guides/plamo3.md")),
    ("minimax-m3", include_str!("guides/minimax-m3.md")),
];

/// The preamble: what the model may do, how calls are written, where the tools are.
const PREAMBLE: &str = "# Tools\n\n\
You may call one or more of the functions below to help with the user's request.\n\
Write each call as plain text in your reply, in exactly the syntax the format guide below gives, not as a native tool-call message.\n\n\
The functions you can call are listed between <tools> and </tools>, one JSON object per line.\n\n";

/// The dialect's format guide and rules (`## Format guide` with fenced `text` examples,
/// then `## Rules` bullets), trimmed.
///
/// Every one of [`Dialect::ALL`] has a guide; a dialect added to the scanner after this
/// crate (the enum is non-exhaustive) gets `""`.
///
/// # Panics
/// Never.
pub fn guide(dialect: Dialect) -> &'static str {
    GUIDES
        .iter()
        .find(|(name, _)| *name == dialect.name())
        .map_or("", |(_, text)| text.trim())
}

/// The tool catalog: one line per tool, in the given order, each the compact JSON
/// `{"type":"function","function":{"name":…,"description":…,"parameters":…}}` with the
/// keys in exactly that order and the schema's keys in the order given; a tool without a
/// description has `""`, one without parameters `{"type":"object","properties":{}}`.
/// Lines are joined by `\n`, with no newline at the end.
///
/// # Panics
/// Never.
pub fn catalog(tools: &ToolSet) -> String {
    let lines: Vec<String> = tools
        .iter()
        .map(|tool| {
            let mut function = Map::new();
            function.insert("name".into(), Value::String(tool.name.clone()));
            function.insert(
                "description".into(),
                Value::String(tool.description.clone().unwrap_or_default()),
            );
            function.insert(
                "parameters".into(),
                tool.parameters
                    .clone()
                    .unwrap_or_else(|| json!({"type": "object", "properties": {}})),
            );
            let mut line = Map::new();
            line.insert("type".into(), Value::String("function".into()));
            line.insert("function".into(), Value::Object(function));
            Value::Object(line).to_string()
        })
        .collect();
    lines.join("\n")
}

/// The whole tool prompt for `dialect`:
///
/// ```text
/// # Tools\n\n<what you may do>\n<how calls are written>\n\n<where the tools are>\n\n<tools>\n{CATALOG}\n</tools>\n\n{GUIDE}\n
/// ```
///
/// with [`catalog`] and [`guide`]. No tools, no prompt: an empty list gives `""`.
///
/// # Errors
/// A tool whose name `dialect` cannot write in a call that its scanner reads back
/// ([`Renderer::check_name`]: Gemini's callee is a Python identifier, Gemma's name ends at
/// `{ } [ ] ( ) , =`, the markup dialects' tags hold a bounded name, …): offering it would
/// invite calls no reader gets. The error's `index` is the tool's position, `name` its
/// name, `reason` [`Reason::InvalidName`](crate::render::Reason::InvalidName) with the
/// dialect's form. [`ToolSet::from_json`] already refused names no dialect can write.
///
/// # Panics
/// Never.
pub fn tool_prompt(tools: &ToolSet, dialect: Dialect) -> Result<String, RenderError> {
    if tools.is_empty() {
        return Ok(String::new());
    }
    let renderer = Renderer::new(dialect);
    for (index, tool) in tools.iter().enumerate() {
        renderer
            .check_name(&tool.name)
            .map_err(|e| e.at(index, &tool.name))?;
    }
    let catalog = catalog(tools);
    let guide = guide(dialect);
    let mut prompt = String::with_capacity(PREAMBLE.len() + catalog.len() + guide.len() + 32);
    prompt.push_str(PREAMBLE);
    prompt.push_str("<tools>\n");
    prompt.push_str(&catalog);
    prompt.push_str("\n</tools>\n\n");
    prompt.push_str(guide);
    prompt.push('\n');
    Ok(prompt)
}
