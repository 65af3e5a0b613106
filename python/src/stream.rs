//! `DeltaStream`: OpenAI-shaped deltas per fed chunk and the completion at the end;
//! `assemble`: a whole response at once.

use inband::{Dialect, Options};
use inband_alloc::assemble::AssembleOptions;
use inband_alloc::stream::ChunkDelta;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;

/// One response streamed as OpenAI deltas; the response ends at `max_response_bytes`
/// (64 MiB by default) whatever the chunking, the bytes past it left out, with a
/// `response_too_long` diagnostic. `feed` returns
/// `(content, reasoning_content, [(index, id, name, arguments), …])`; `finish` returns
/// `(delta, finish_reason, completion)`, the completion in the `summary` shape.
#[pyclass(module = "inband._native")]
pub struct DeltaStream {
    scanner: inband::Scanner,
    stream: Option<inband_alloc::stream::DeltaStream>,
}

type DeltaTuple<'py> = (String, String, Bound<'py, PyList>);

fn finished() -> PyErr {
    PyValueError::new_err("the stream was finished; start a new DeltaStream for the next response")
}

fn options(
    tools_json: Option<&str>,
    seed: Option<u64>,
    hold_calls: bool,
    stop_at_fabricated_result: bool,
    max_response_bytes: Option<u64>,
) -> PyResult<AssembleOptions> {
    let mut options = AssembleOptions::default();
    if let Some(limit) = max_response_bytes {
        options.max_response_bytes = limit;
    }
    options.tools = crate::tools(tools_json)?;
    options.seed = seed;
    options.hold_calls = hold_calls;
    options.stop_at_fabricated_result = stop_at_fabricated_result;
    Ok(options)
}

#[pymethods]
impl DeltaStream {
    #[new]
    #[pyo3(signature = (dialect, *, starts_in_reasoning = false, tools_json = None, seed = None,
                        hold_calls = false, stop_at_fabricated_result = false,
                        max_response_bytes = None, added_tokens = None))]
    // One parameter per Python keyword argument: the signature is the Python API.
    #[allow(clippy::too_many_arguments)]
    fn new(
        dialect: &str,
        starts_in_reasoning: bool,
        tools_json: Option<&str>,
        seed: Option<u64>,
        hold_calls: bool,
        stop_at_fabricated_result: bool,
        max_response_bytes: Option<u64>,
        added_tokens: Option<Vec<String>>,
    ) -> PyResult<Self> {
        let dialect: Dialect = crate::dialect(dialect)?;
        let mut scan_options = Options::default();
        scan_options.starts_in_reasoning = starts_in_reasoning;
        let options = options(
            tools_json,
            seed,
            hold_calls,
            stop_at_fabricated_result,
            max_response_bytes,
        )?;
        Ok(DeltaStream {
            scanner: crate::scanner(dialect, scan_options, added_tokens),
            stream: Some(inband_alloc::stream::DeltaStream::new(dialect, &options)),
        })
    }

    /// Scans the next chunk (str or bytes); returns what became visible.
    fn feed<'py>(
        &mut self,
        py: Python<'py>,
        chunk: &Bound<'py, PyAny>,
    ) -> PyResult<DeltaTuple<'py>> {
        let bytes = crate::chunk_bytes(chunk)?;
        let stream = self.stream.as_mut().ok_or_else(finished)?;
        let scanner = &mut self.scanner;
        let delta = if bytes.len() >= crate::GIL_RELEASE_BYTES {
            py.detach(|| scanner.feed(&bytes, stream).map(|()| stream.take_delta()))
        } else {
            scanner.feed(&bytes, stream).map(|()| stream.take_delta())
        }
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
        delta_tuple(py, delta)
    }

    /// Scans one decode step given as its tokens, `(text, added)` pairs (token mode: made
    /// with `added_tokens`); returns what became visible.
    fn feed_tokens<'py>(
        &mut self,
        py: Python<'py>,
        tokens: &Bound<'py, PyAny>,
    ) -> PyResult<DeltaTuple<'py>> {
        let (chunk, spans) = crate::token_chunk(tokens)?;
        let stream = self.stream.as_mut().ok_or_else(finished)?;
        let delta = self
            .scanner
            .feed_tokens(&chunk, &spans, stream)
            .map(|()| stream.take_delta())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        delta_tuple(py, delta)
    }

    /// Ends the response: the last delta, the `finish_reason` (`tool_calls` or `stop`) and
    /// the completion as a dict.
    fn finish<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<(DeltaTuple<'py>, &'static str, Bound<'py, PyAny>)> {
        let mut stream = self.stream.take().ok_or_else(finished)?;
        self.scanner
            .finish(&mut stream)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let (delta, reason, completion) = stream.finish();
        Ok((
            delta_tuple(py, delta)?,
            reason,
            crate::completion(py, &completion)?,
        ))
    }

    fn __reduce__(&self) -> PyResult<()> {
        Err(PyTypeError::new_err(
            "a DeltaStream holds a response in progress and cannot be pickled",
        ))
    }
}

fn delta_tuple(py: Python<'_>, delta: ChunkDelta) -> PyResult<DeltaTuple<'_>> {
    let calls = PyList::empty(py);
    for call in delta.tool_calls {
        calls.append((call.index, call.id, call.name, call.arguments))?;
    }
    Ok((delta.content, delta.reasoning_content, calls))
}

/// The completion of a whole response (str or bytes), as a dict in the `summary` shape.
#[pyfunction]
#[pyo3(signature = (text, dialect, *, starts_in_reasoning = false, tools_json = None,
                    seed = None, stop_at_fabricated_result = false, max_response_bytes = None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, one each
pub fn assemble<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    dialect: &str,
    starts_in_reasoning: bool,
    tools_json: Option<&str>,
    seed: Option<u64>,
    stop_at_fabricated_result: bool,
    max_response_bytes: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let bytes = crate::chunk_bytes(text)?;
    let dialect: Dialect = crate::dialect(dialect)?;
    let mut scan_options = Options::default();
    scan_options.starts_in_reasoning = starts_in_reasoning;
    let options = options(
        tools_json,
        seed,
        false,
        stop_at_fabricated_result,
        max_response_bytes,
    )?;
    let run = || inband_alloc::assemble::assemble(dialect, scan_options, &options, [&bytes[..]]);
    let completion = if bytes.len() >= crate::GIL_RELEASE_BYTES {
        py.detach(run)
    } else {
        run()
    };
    crate::completion(py, &completion)
}
