//! Helpers shared by the prompt tests: the bundled test data and tools arrays.

use std::path::PathBuf;

use inband_alloc::tools::{Tool, ToolSet, ToolsError};
use serde_json::Value;

pub fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data")
        .join(path)
}

pub fn tools_file(name: &str) -> ToolSet {
    ToolSet::from_json(&std::fs::read(data(&format!("tools/{name}.json"))).unwrap()).unwrap()
}

/// An OpenAI `tools` array read as the one tool type.
pub fn parse(tools: &[Value]) -> Result<ToolSet, ToolsError> {
    ToolSet::from_value(&Value::Array(tools.to_vec()))
}

/// The `i`-th tool of `tools`.
pub fn nth(tools: &ToolSet, i: usize) -> &Tool {
    tools.iter().nth(i).unwrap()
}
