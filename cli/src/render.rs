//! `inband render calls|results|transcript --dialect NAME [--tools FILE]`: JSON on
//! standard input (a list of calls, of tool results, or of messages, in the shapes of
//! `inband_alloc::render`'s message model) written as the dialect's text on standard output.

use std::io::{self, Read, Write};
use std::path::PathBuf;

use clap::ValueEnum;
use inband::Dialect;
use inband_alloc::render::{Call, Message, Renderer, ToolResult};
use inband_alloc::tools::ToolSet;

use crate::Failure;

#[derive(clap::Args, Debug)]
pub(crate) struct RenderArgs {
    /// What standard input holds and what to write.
    #[arg(value_enum)]
    what: What,
    /// The dialect to write (the README lists them).
    #[arg(long, value_parser = crate::parse_dialect)]
    dialect: Dialect,
    /// The tools, as an OpenAI `tools` JSON array: in raw-text dialects a string-only
    /// parameter's value is written raw even when it reads as JSON.
    #[arg(long, value_name = "FILE")]
    tools: Option<PathBuf>,
}

/// What to render.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum What {
    /// A JSON array of tool calls (`{"id", "name", "arguments"}` or OpenAI's
    /// `{"id", "function": {"name", "arguments"}}`): one assistant turn's calls.
    Calls,
    /// A JSON array of tool results (`{"tool_call_id", "name", "content", "is_error"}`).
    Results,
    /// A JSON array of chat messages (`{"role": "system|developer|user|assistant|tool",
    /// …}`): the whole conversation in the model's chat template.
    Transcript,
}

fn parse<T>(parsed: serde_json::Result<T>, what: &str) -> Result<T, Failure> {
    parsed
        .map_err(|e| Failure::Message(format!("standard input is not a JSON array of {what}: {e}")))
}

pub(crate) fn run(args: RenderArgs) -> Result<(), Failure> {
    let tools = match &args.tools {
        Some(path) => {
            let text = std::fs::read(path)
                .map_err(|e| Failure::Message(format!("cannot read {}: {e}", path.display())))?;
            ToolSet::from_json(&text).map_err(|e| {
                Failure::Message(format!(
                    "{} is not an OpenAI tools array: {e}",
                    path.display()
                ))
            })?
        }
        None => ToolSet::default(),
    };
    let mut input = Vec::new();
    io::stdin()
        .read_to_end(&mut input)
        .map_err(|e| Failure::Message(format!("cannot read standard input: {e}")))?;
    let input = inband_alloc::tools::strip_bom(&input);
    let renderer = Renderer::new(args.dialect).with_tools(&tools);
    let rendered = match args.what {
        What::Calls => renderer.calls(&parse::<Vec<Call>>(
            serde_json::from_slice(input),
            "tool calls",
        )?),
        What::Results => renderer.results(&parse::<Vec<ToolResult>>(
            serde_json::from_slice(input),
            "tool results",
        )?),
        What::Transcript => renderer.transcript(&parse::<Vec<Message>>(
            serde_json::from_slice(input),
            "messages",
        )?),
    }
    .map_err(|e| Failure::Message(format!("cannot render in {}: {e}", args.dialect)))?;
    let mut out = io::stdout().lock();
    out.write_all(rendered.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| match e.kind() {
            io::ErrorKind::BrokenPipe => Failure::ReaderGone,
            _ => Failure::Message(format!("cannot write output: {e}")),
        })
}
