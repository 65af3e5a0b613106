//! The encoding side: calls, results and transcripts written in a dialect, and the tool
//! prompt. Inputs are JSON text (the Python side serializes lists of dicts).

use inband_alloc::prompt;
use inband_alloc::render::{Call, Message, Renderer, ToolResult};
use inband_alloc::tools::ToolSet;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde::de::DeserializeOwned;

fn parse<T: DeserializeOwned>(json: &str, what: &str) -> PyResult<T> {
    serde_json::from_str(json)
        .map_err(|e| PyValueError::new_err(format!("not a JSON array of {what}: {e}")))
}

fn render<T: DeserializeOwned>(
    json: &str,
    dialect: &str,
    tools_json: Option<&str>,
    what: &str,
    write: impl FnOnce(&Renderer<'_>, &T) -> Result<String, inband_alloc::render::RenderError>,
) -> PyResult<String> {
    let dialect = crate::dialect(dialect)?;
    let tools = crate::tools(tools_json)?.unwrap_or_default();
    let items: T = parse(json, what)?;
    let renderer = Renderer::new(dialect).with_tools(&tools);
    write(&renderer, &items)
        .map_err(|e| PyValueError::new_err(format!("cannot render in {dialect}: {e}")))
}

/// One assistant turn's calls (JSON array of `{"id", "name", "arguments"}` or OpenAI's
/// `{"id", "function": {…}}`) in the dialect's envelope.
#[pyfunction]
#[pyo3(signature = (calls_json, dialect, *, tools_json = None))]
fn render_calls(calls_json: &str, dialect: &str, tools_json: Option<&str>) -> PyResult<String> {
    render(
        calls_json,
        dialect,
        tools_json,
        "tool calls",
        |r, c: &Vec<Call>| r.calls(c),
    )
}

/// A run of tool results (JSON array of `{"tool_call_id", "name", "content", "is_error"}`).
#[pyfunction]
#[pyo3(signature = (results_json, dialect, *, tools_json = None))]
fn render_results(results_json: &str, dialect: &str, tools_json: Option<&str>) -> PyResult<String> {
    render(
        results_json,
        dialect,
        tools_json,
        "tool results",
        |r, c: &Vec<ToolResult>| r.results(c),
    )
}

/// A conversation (JSON array of OpenAI chat messages) as the model's chat template text.
#[pyfunction]
#[pyo3(signature = (messages_json, dialect, *, tools_json = None))]
fn render_transcript(
    messages_json: &str,
    dialect: &str,
    tools_json: Option<&str>,
) -> PyResult<String> {
    render(
        messages_json,
        dialect,
        tools_json,
        "messages",
        |r, c: &Vec<Message>| r.transcript(c),
    )
}

/// The tool prompt: preamble, the tools' catalog and the dialect's format guide.
#[pyfunction]
fn tool_prompt(tools_json: &str, dialect: &str) -> PyResult<String> {
    let dialect = crate::dialect(dialect)?;
    let tools: ToolSet = crate::tools(Some(tools_json))?.unwrap_or_default();
    prompt::tool_prompt(&tools, dialect).map_err(|e| {
        PyValueError::new_err(format!("cannot write the tool prompt in {dialect}: {e}"))
    })
}

pub(crate) fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(render_calls, m)?)?;
    m.add_function(wrap_pyfunction!(render_results, m)?)?;
    m.add_function(wrap_pyfunction!(render_transcript, m)?)?;
    m.add_function(wrap_pyfunction!(tool_prompt, m)?)?;
    Ok(())
}
