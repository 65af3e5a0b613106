//! `inband prompt`: the tool prompt (preamble, catalog, format guide) for a dialect, named
//! or selected from a model id, and an OpenAI `tools` file.

use std::path::PathBuf;

use inband::Dialect;
use inband_alloc::prompt::tool_prompt;
use inband_alloc::select;
use inband_alloc::tools::ToolSet;

/// The arguments of `inband prompt`.
#[derive(clap::Args, Debug)]
#[command(group = clap::ArgGroup::new("which").required(true).args(["dialect", "model"]))]
pub struct PromptArgs {
    /// The dialect to prompt in (the README lists them).
    #[arg(long, value_parser = crate::parse_dialect)]
    dialect: Option<Dialect>,
    /// Select the dialect from this model id instead (`Qwen/Qwen3-Coder-480B-A35B-Instruct`).
    #[arg(long, value_name = "ID")]
    model: Option<String>,
    /// The tools, as an OpenAI `tools` JSON array.
    #[arg(long, value_name = "FILE")]
    tools: PathBuf,
}

/// The prompt `args` ask for.
///
/// # Errors
/// A one-line message when the tools file cannot be read or is not a tools array.
pub fn render(args: &PromptArgs) -> Result<String, String> {
    let dialect = match (&args.dialect, &args.model) {
        (Some(dialect), _) => *dialect,
        (None, Some(model)) => select::for_model(model),
        (None, None) => return Err("give --dialect or --model".into()),
    };
    let path = &args.tools;
    let text = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let not_tools = |why: String| format!("{} is not an OpenAI tools array: {why}", path.display());
    let tools = ToolSet::from_json(&text).map_err(|e| not_tools(e.to_string()))?;
    tool_prompt(&tools, dialect).map_err(|e| format!("cannot prompt for {dialect}: {e}"))
}
