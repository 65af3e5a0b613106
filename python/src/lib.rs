//! `inband._native`: the Python binding of inband's scanner (`inband`) and of the layer on
//! top of it (`inband-alloc`). The Python package `inband` wraps these functions and classes
//! in typed, documented objects; this module keeps to plain values (str, bytes, int, dict,
//! list) so that the Python side owns the API's shapes.
//!
//! Every error is a `ValueError` carrying the Rust message; nothing in a model's output is
//! ever an error. Inputs of [`GIL_RELEASE_BYTES`] or more are scanned with the GIL released.

use inband::Dialect;
use inband_alloc::select;
use inband_alloc::tools::ToolSet;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView, PyString};

mod encode;
mod scan;
mod stream;
mod vocab;

/// Inputs at least this long (bytes) are scanned with the GIL released: below it, releasing
/// and taking the GIL back costs more than the scan.
pub(crate) const GIL_RELEASE_BYTES: usize = 4096;

/// The dialect `name` stands for: an inband name (`qwen3-coder`, also written
/// `qwen3_coder`) or an inference server's `--tool-call-parser` name (`hermes`,
/// `deepseek_v31`, …; see `inband_alloc::select::for_parser`).
///
/// # Errors
/// `ValueError` naming the known dialects when `name` is neither.
pub(crate) fn dialect(name: &str) -> PyResult<Dialect> {
    Dialect::from_name(name)
        .or_else(|| select::for_parser(name))
        .ok_or_else(|| {
            let known: Vec<&str> = Dialect::ALL.iter().map(|d| d.name()).collect();
            PyValueError::new_err(format!(
                "unknown dialect {name:?}: expected one of {} or a server's tool-call parser name",
                known.join(", ")
            ))
        })
}

/// The tools of an OpenAI `tools` JSON array (text), or none.
///
/// # Errors
/// `ValueError` with the reason when the text is not such an array.
pub(crate) fn tools(json: Option<&str>) -> PyResult<Option<ToolSet>> {
    json.map(|text| {
        ToolSet::from_json(text.as_bytes())
            .map_err(|e| PyValueError::new_err(format!("tools are not an OpenAI tools array: {e}")))
    })
    .transpose()
}

/// The bytes of a chunk: a `str` (as UTF-8), `bytes`, `bytearray` or `memoryview`.
///
/// # Errors
/// `TypeError` for anything else (a list of ints is no chunk), `UnicodeEncodeError` for a
/// `str` holding a lone surrogate.
/// One decode step's tokens, `(text, added)` pairs (`text` as [`chunk_bytes`] takes it,
/// `added`: the vocabulary has the token as its own), as one chunk and the byte ranges of
/// its added tokens in it, for `Scanner::feed_tokens`.
///
/// # Errors
/// `TypeError` for anything that is not an iterable of such pairs.
pub(crate) fn token_chunk(
    tokens: &Bound<'_, PyAny>,
) -> PyResult<(Vec<u8>, Vec<std::ops::Range<usize>>)> {
    let mut chunk = Vec::new();
    let mut spans = Vec::new();
    for item in tokens.try_iter()? {
        let item = item?;
        let (text, added): (Bound<'_, PyAny>, bool) = item.extract().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err("a token is a (text, added) pair")
        })?;
        let bytes = chunk_bytes(&text)?;
        if added && !bytes.is_empty() {
            spans.push(chunk.len()..chunk.len() + bytes.len());
        }
        chunk.extend_from_slice(&bytes);
    }
    Ok((chunk, spans))
}

/// A scanner for `dialect`, in token mode when `added_tokens` (the texts of the
/// vocabulary's added and special tokens) are given.
pub(crate) fn scanner(
    dialect: inband::Dialect,
    options: inband::Options,
    added_tokens: Option<Vec<String>>,
) -> inband::Scanner {
    let mut scanner = inband::Scanner::new(dialect, options);
    if let Some(tokens) = added_tokens {
        let mut gate = inband::TokenGate::new(dialect);
        for token in &tokens {
            gate.add_token(token.as_bytes());
        }
        scanner = inband::Scanner::with_tokens(gate, options);
    }
    scanner
}

pub(crate) fn chunk_bytes(chunk: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(text) = chunk.downcast::<PyString>() {
        return Ok(text.to_cow()?.as_bytes().to_vec());
    }
    if let Ok(bytes) = chunk.downcast::<PyBytes>() {
        return Ok(bytes.as_bytes().to_vec());
    }
    if let Ok(bytes) = chunk.downcast::<PyByteArray>() {
        return Ok(bytes.to_vec());
    }
    if let Ok(view) = chunk.downcast::<PyMemoryView>() {
        return Ok(view
            .call_method0("tobytes")?
            .downcast::<PyBytes>()?
            .as_bytes()
            .to_vec());
    }
    let name = chunk
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "a chunk is str or bytes, not {name}"
    )))
}

/// A serializable value (a completion) as Python data, through its JSON text and Python's
/// `json.loads`: serde's private tokens (`RawValue` arguments, `arbitrary_precision`
/// numbers) are JSON to serde_json's serializer but opaque structs to a generic one, so
/// the JSON text is the one faithful form. Numbers come back as Python reads JSON: integers
/// exact at any size, others as `float`.
///
/// # Errors
/// `ValueError` if the value cannot be serialized (never for a completion).
pub(crate) fn to_python<'py, T: serde::Serialize>(
    py: Python<'py>,
    value: &T,
) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(value).map_err(|e| PyValueError::new_err(e.to_string()))?;
    // `inband._types.loads` reads numbers without rounding (int, float where exact, else
    // Decimal), as the arbitrary-precision numbers of the Rust side are.
    py.import("inband._types")?.call_method1("loads", (text,))
}

/// A completion as Python data ([`to_python`]'s summary shape), each complete call also
/// given `arguments_text`: the JSON text its arguments were parsed from, exactly, which is
/// the concatenation of its streamed argument fragments.
///
/// # Errors
/// As [`to_python`].
pub(crate) fn completion<'py>(
    py: Python<'py>,
    completion: &inband_alloc::assemble::Completion,
) -> PyResult<Bound<'py, PyAny>> {
    let value = to_python(py, completion)?;
    let calls = value.get_item("tool_calls")?;
    for (i, call) in completion.tool_calls.iter().enumerate() {
        calls
            .get_item(i)?
            .set_item("arguments_text", call.arguments_text())?;
    }
    Ok(value)
}

/// The dialect for a model id (`Qwen/Qwen3-Coder-480B-A35B-Instruct` → `qwen3-coder`);
/// ids no rule knows get `xml`.
#[pyfunction]
fn dialect_for_model(model_id: &str) -> &'static str {
    select::for_model(model_id).name()
}

/// The dialect for an inference server's tool-call parser name (`qwen3_coder` →
/// `qwen3-coder`), or `None`.
#[pyfunction]
fn dialect_for_parser(parser: &str) -> Option<&'static str> {
    select::for_parser(parser).map(Dialect::name)
}

/// The inband name of a dialect given by any accepted name.
#[pyfunction]
fn dialect_name(name: &str) -> PyResult<&'static str> {
    dialect(name).map(Dialect::name)
}

/// Every dialect's inband name.
#[pyfunction]
fn dialects() -> Vec<&'static str> {
    Dialect::ALL.iter().map(|d| d.name()).collect()
}

/// Whether the dialect's delimiters are special tokens of the model's vocabulary.
#[pyfunction]
fn uses_special_tokens(name: &str) -> PyResult<bool> {
    dialect(name).map(Dialect::special_tokens)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(dialect_for_model, m)?)?;
    m.add_function(wrap_pyfunction!(dialect_for_parser, m)?)?;
    m.add_function(wrap_pyfunction!(dialect_name, m)?)?;
    m.add_function(wrap_pyfunction!(dialects, m)?)?;
    m.add_function(wrap_pyfunction!(uses_special_tokens, m)?)?;
    m.add_class::<scan::Scanner>()?;
    m.add_class::<stream::DeltaStream>()?;
    m.add_class::<vocab::Vocabulary>()?;
    m.add_function(wrap_pyfunction!(stream::assemble, m)?)?;
    encode::add(m)?;
    m.add("GIL_RELEASE_BYTES", GIL_RELEASE_BYTES)?;
    Ok(())
}
