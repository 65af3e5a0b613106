//! `Scanner`: the scanner's events, owned, per fed chunk, and the assembled completion at
//! the end.

use inband::{CallEnd, Diagnostic, Dialect, Markup, Options, Piece, Sink, Span, ValueKind};
use inband_alloc::assemble::{AssembleOptions, Assembler};
use inband_alloc::events::{EventLog, OwnedEvent};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

/// Events of one response of a dialect; each `feed` returns the events it completed as
/// dicts (`kind`, `span`: byte offsets from stream start, `payload`: the event's bytes,
/// and the kind's fields, as `inband scan --format events` names them).
#[pyclass(module = "inband._native")]
pub struct Scanner {
    scanner: inband::Scanner,
    sinks: Tee,
    completion: Option<Py<PyAny>>,
}

/// The event log and the assembler, fed the same events.
struct Tee {
    log: EventLog,
    assembler: Option<Assembler>,
}

#[pymethods]
impl Scanner {
    #[new]
    #[pyo3(signature = (dialect, *, starts_in_reasoning = false, tools_json = None, added_tokens = None))]
    fn new(
        dialect: &str,
        starts_in_reasoning: bool,
        tools_json: Option<&str>,
        added_tokens: Option<Vec<String>>,
    ) -> PyResult<Self> {
        let dialect: Dialect = crate::dialect(dialect)?;
        let mut options = Options::default();
        options.starts_in_reasoning = starts_in_reasoning;
        let mut assemble_options = AssembleOptions::default();
        assemble_options.tools = crate::tools(tools_json)?;
        Ok(Scanner {
            scanner: crate::scanner(dialect, options, added_tokens),
            sinks: Tee {
                log: EventLog::new(),
                assembler: Some(Assembler::new(dialect, &assemble_options)),
            },
            completion: None,
        })
    }

    /// Scans the next chunk (str or bytes); returns the events it produced.
    fn feed<'py>(
        &mut self,
        py: Python<'py>,
        chunk: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let bytes = crate::chunk_bytes(chunk)?;
        let (scanner, sinks) = (&mut self.scanner, &mut self.sinks);
        let fed = if bytes.len() >= crate::GIL_RELEASE_BYTES {
            py.detach(|| scanner.feed(&bytes, sinks))
        } else {
            scanner.feed(&bytes, sinks)
        };
        fed.map_err(|e| PyValueError::new_err(e.to_string()))?;
        self.drain(py)
    }

    /// Scans one decode step given as its tokens, `(text, added)` pairs (token mode: made
    /// with `added_tokens`); returns the events it produced.
    fn feed_tokens<'py>(
        &mut self,
        py: Python<'py>,
        tokens: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let (chunk, spans) = crate::token_chunk(tokens)?;
        self.scanner
            .feed_tokens(&chunk, &spans, &mut self.sinks)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        self.drain(py)
    }

    /// Ends the response; returns the last events. The completion is then `completion()`.
    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.scanner
            .finish(&mut self.sinks)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        if let Some(assembler) = self.sinks.assembler.take() {
            let completion = assembler.finish();
            self.completion = Some(crate::completion(py, &completion)?.unbind());
        }
        self.drain(py)
    }

    /// The assembled completion as a dict (the `summary` shape), after `finish`.
    fn completion(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.completion
            .as_ref()
            .map(|c| c.clone_ref(py))
            .ok_or_else(|| PyValueError::new_err("the scanner is not finished: call finish()"))
    }

    fn __reduce__(&self) -> PyResult<()> {
        Err(PyTypeError::new_err(
            "a Scanner holds a response in progress and cannot be pickled; pickle its events or completion",
        ))
    }
}

impl Scanner {
    fn drain<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let events = std::mem::take(&mut self.sinks.log.events);
        let list = PyList::empty(py);
        for event in &events {
            list.append(event_dict(py, event)?)?;
        }
        Ok(list)
    }
}

fn event_dict<'py>(py: Python<'py>, event: &OwnedEvent) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let span = event.span();
    d.set_item("span", (span.start, span.end))?;
    let payload = |b: &[u8]| PyBytes::new(py, b);
    let kind = match event {
        OwnedEvent::Text { text, .. } => {
            d.set_item("payload", payload(text))?;
            "text"
        }
        OwnedEvent::Reasoning { text, .. } => {
            d.set_item("payload", payload(text))?;
            "reasoning"
        }
        OwnedEvent::Markup { kind, bytes, .. } => {
            let what = match kind {
                Markup::Delimiter(r) => r.key(),
                _ => "envelope",
            };
            d.set_item("markup", what)?;
            d.set_item("payload", payload(bytes))?;
            "markup"
        }
        OwnedEvent::ReasoningStart { .. } => "reasoning_start",
        OwnedEvent::ReasoningEnd { .. } => "reasoning_end",
        OwnedEvent::ToolStart {
            call,
            name,
            provisional,
            ..
        } => {
            d.set_item("call", call)?;
            d.set_item("name", name.as_deref().map(String::from_utf8_lossy))?;
            d.set_item("provisional", provisional)?;
            "tool_start"
        }
        OwnedEvent::ToolId { call, id, .. } => {
            d.set_item("call", call)?;
            d.set_item("payload", payload(id))?;
            "tool_id"
        }
        OwnedEvent::ToolName { call, name, .. } => {
            d.set_item("call", call)?;
            d.set_item("name", String::from_utf8_lossy(name))?;
            d.set_item("payload", payload(name))?;
            "tool_name"
        }
        OwnedEvent::ToolArgs { call, json, .. } => {
            d.set_item("call", call)?;
            d.set_item("payload", payload(json))?;
            "tool_args"
        }
        OwnedEvent::ToolParam {
            call, key, kind, ..
        } => {
            d.set_item("call", call)?;
            d.set_item("key", String::from_utf8_lossy(key))?;
            d.set_item("value_kind", kind.code())?;
            "tool_param"
        }
        OwnedEvent::ToolValue {
            call, piece, bytes, ..
        } => {
            d.set_item("call", call)?;
            d.set_item("piece", piece.code())?;
            d.set_item("payload", payload(bytes))?;
            "tool_value"
        }
        OwnedEvent::ToolParamEnd { call, .. } => {
            d.set_item("call", call)?;
            "tool_param_end"
        }
        OwnedEvent::ToolEnd { call, end, .. } => {
            d.set_item("call", call)?;
            d.set_item("end", end.code())?;
            "tool_end"
        }
        OwnedEvent::FabricatedResult { .. } => "fabricated_result",
        OwnedEvent::Diagnostic { diagnostic, .. } => {
            d.set_item("code", diagnostic.code())?;
            d.set_item("message", diagnostic.message())?;
            "diagnostic"
        }
    };
    d.set_item("kind", kind)?;
    Ok(d)
}

/// Forwards every event to both sinks.
macro_rules! tee {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {
        impl Sink for Tee {
            $(fn $name(&mut self, $($arg: $ty),*) {
                self.log.$name($($arg),*);
                if let Some(assembler) = self.assembler.as_mut() {
                    assembler.$name($($arg),*);
                }
            })*
        }
    };
}

tee! {
    text(span: Span, text: &[u8]);
    reasoning(span: Span, text: &[u8]);
    markup(span: Span, kind: Markup, bytes: &[u8]);
    reasoning_start(span: Span);
    reasoning_end(span: Span);
    tool_start(span: Span, call: u32, name: Option<&[u8]>, provisional: bool);
    tool_id(span: Span, call: u32, id: &[u8]);
    tool_name(span: Span, call: u32, name: &[u8]);
    tool_args(span: Span, call: u32, json: &[u8]);
    tool_param(span: Span, call: u32, key: &[u8], kind: ValueKind);
    tool_value(span: Span, call: u32, piece: Piece, bytes: &[u8]);
    tool_param_end(span: Span, call: u32);
    tool_end(span: Span, call: u32, end: CallEnd);
    fabricated_result(span: Span);
    diagnostic(span: Span, diagnostic: Diagnostic);
}
