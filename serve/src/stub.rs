//! A scripted OpenAI-compatible upstream for tests, the load test and the README's example:
//! it replays recorded model outputs, streamed in token-sized pieces.
//!
//! A recording is a JSON file `{"model": ID, "turns": [TEXT, ...], "piece_chars": N,
//! "delay_ms": MS}`: a request for `model` with K assistant messages gets `turns[K]` (the
//! last turn when there are fewer), streamed `piece_chars` characters at a time (default
//! 3), `delay_ms` apart (default 0). Three model ids fail on purpose: `stub/error-500`
//! (status 500 with an OpenAI error body), `stub/hang` (never answers) and `stub/bad-json`
//! (one good chunk, then one that is not JSON). `GET /stub/log` reports what the stub saw.

use std::collections::HashMap;
use std::convert::Infallible;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

/// One recorded conversation of one model.
#[derive(Debug, Clone, PartialEq)]
pub struct Recording {
    /// The model id it answers to.
    pub model: String,
    /// The model's raw output per assistant turn.
    pub turns: Vec<String>,
    /// Characters per streamed piece (≥ 1).
    pub piece_chars: usize,
    /// Pause before each piece.
    pub delay: Duration,
}

/// What the stub saw, for tests to check.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct StubLog {
    /// Every chat request body, in order.
    pub requests: Vec<Value>,
    /// Streams that sent their last piece.
    pub completed: u64,
    /// Streams dropped before their end: the client (the proxy) cancelled.
    pub cancelled: u64,
}

impl StubLog {
    fn to_json(&self) -> Value {
        json!({"requests": self.requests, "completed": self.completed, "cancelled": self.cancelled})
    }
}

/// The stub server's state.
#[derive(Debug, Clone, Default)]
pub struct Stub {
    recordings: Arc<HashMap<String, Recording>>,
    log: Arc<Mutex<StubLog>>,
}

impl Stub {
    /// A stub replaying `recordings`.
    pub fn new(recordings: Vec<Recording>) -> Self {
        let map = recordings
            .into_iter()
            .map(|r| (r.model.clone(), r))
            .collect();
        Stub {
            recordings: Arc::new(map),
            log: Arc::default(),
        }
    }

    /// A stub replaying every `*.json` recording in `dir`.
    ///
    /// # Errors
    /// The directory or a file cannot be read, or a file is not a recording (the message
    /// names the file).
    pub fn from_dir(dir: &Path) -> Result<Self, String> {
        let mut recordings = Vec::new();
        let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths
            .iter()
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
        {
            let text = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            recordings.push(parse(&text).map_err(|e| format!("{}: {e}", path.display()))?);
        }
        Ok(Stub::new(recordings))
    }

    /// A copy of the log so far.
    pub fn log(&self) -> StubLog {
        self.log.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// The stub's routes: `POST /v1/chat/completions`, `GET /v1/models`, `GET /stub/log`.
    /// Bodies up to 64 MiB are read, as by the proxy (axum's default is 2 MB).
    pub fn router(self) -> Router {
        Router::new()
            .route("/v1/chat/completions", post(chat))
            .route("/v1/models", get(models))
            .route("/stub/log", get(log))
            .layer(axum::extract::DefaultBodyLimit::max(64 << 20))
            .with_state(self)
    }
}

/// Reads one recording file.
///
/// # Errors
/// Not JSON, or `model` / `turns` missing or of the wrong type.
pub fn parse(text: &[u8]) -> Result<Recording, String> {
    let value: Value = serde_json::from_slice(text).map_err(|e| e.to_string())?;
    let model = value["model"]
        .as_str()
        .ok_or("`model` must be a string")?
        .to_owned();
    let turns = value["turns"]
        .as_array()
        .filter(|t| !t.is_empty())
        .ok_or("`turns` must be a non-empty array")?
        .iter()
        .map(|t| {
            t.as_str()
                .map(str::to_owned)
                .ok_or("every turn must be a string")
        })
        .collect::<Result<Vec<_>, _>>()?;
    let piece_chars = value["piece_chars"].as_u64().unwrap_or(3).max(1) as usize;
    let delay = Duration::from_millis(value["delay_ms"].as_u64().unwrap_or(0));
    Ok(Recording {
        model,
        turns,
        piece_chars,
        delay,
    })
}

/// `text` in pieces of `n` characters.
pub fn pieces(text: &str, n: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars.chunks(n.max(1)).map(|c| c.iter().collect()).collect()
}

async fn log(State(stub): State<Stub>) -> Json<Value> {
    Json(stub.log().to_json())
}

async fn models(State(stub): State<Stub>) -> Json<Value> {
    let mut ids: Vec<&String> = stub.recordings.keys().collect();
    ids.sort();
    let data: Vec<Value> = ids
        .iter()
        .map(|id| json!({"id": id, "object": "model", "created": 0, "owned_by": "stub"}))
        .collect();
    Json(json!({"object": "list", "data": data}))
}

fn error(status: StatusCode, message: &str) -> Response {
    (status, Json(json!({"error": {"message": message, "type": "server_error", "param": null, "code": null}})))
        .into_response()
}

/// Counts a stream as cancelled unless it reached its end.
struct Guard {
    log: Arc<Mutex<StubLog>>,
    done: bool,
}

impl Drop for Guard {
    fn drop(&mut self) {
        if let Ok(mut log) = self.log.lock() {
            if self.done {
                log.completed += 1;
            } else {
                log.cancelled += 1;
            }
        }
    }
}

fn chunk(model: &str, delta: Value, finish: Option<&str>) -> Value {
    json!({"id": "chatcmpl-stub", "object": "chat.completion.chunk", "created": 0, "model": model,
           "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
}

async fn chat(State(stub): State<Stub>, body: Bytes) -> Response {
    let Ok(request) = serde_json::from_slice::<Value>(&body) else {
        return error(StatusCode::BAD_REQUEST, "stub: the body is not JSON");
    };
    if let Ok(mut log) = stub.log.lock() {
        log.requests.push(request.clone());
    }
    let model = request["model"].as_str().unwrap_or_default().to_owned();
    match model.as_str() {
        "stub/error-500" => {
            return error(StatusCode::INTERNAL_SERVER_ERROR, "stub: scripted failure")
        }
        "stub/hang" => {
            // Cancelled with the connection: the proxy's timeout ends it.
            tokio::time::sleep(Duration::from_secs(3600)).await;
        }
        _ => {}
    }
    let turns_done = request["messages"]
        .as_array()
        .map_or(0, |m| m.iter().filter(|m| m["role"] == "assistant").count());
    let bad_json = model == "stub/bad-json";
    let recording = match stub.recordings.get(&model) {
        Some(r) => r.clone(),
        None if bad_json => Recording {
            model: model.clone(),
            turns: vec!["Hello".into()],
            piece_chars: 3,
            delay: Duration::ZERO,
        },
        None => {
            return error(
                StatusCode::NOT_FOUND,
                &format!("stub: no recording for model `{model}`"),
            )
        }
    };
    let text = recording.turns[turns_done.min(recording.turns.len() - 1)].clone();
    if request["stream"] != true {
        return Json(json!({"id": "chatcmpl-stub", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}))
        .into_response();
    }
    let usage = request["stream_options"]["include_usage"] == true;
    let log = stub.log.clone();
    let stream = async_stream::stream! {
        let mut guard = Guard { log, done: false };
        yield Ok::<Event, Infallible>(Event::default().data(chunk(&model, json!({"role": "assistant", "content": ""}), None).to_string()));
        for piece in pieces(&text, recording.piece_chars) {
            if !recording.delay.is_zero() {
                tokio::time::sleep(recording.delay).await;
            }
            yield Ok(Event::default().data(chunk(&model, json!({"content": piece}), None).to_string()));
            if bad_json {
                yield Ok(Event::default().data("{\"choices\": [oops"));
            }
        }
        yield Ok(Event::default().data(chunk(&model, json!({}), Some("stop")).to_string()));
        if usage {
            yield Ok(Event::default().data(json!({"id": "chatcmpl-stub", "object": "chat.completion.chunk",
                "created": 0, "model": model, "choices": [],
                "usage": {"prompt_tokens": 10, "completion_tokens": 20, "total_tokens": 30}}).to_string()));
        }
        yield Ok(Event::default().data("[DONE]"));
        guard.done = true;
    };
    Sse::new(stream).into_response()
}
