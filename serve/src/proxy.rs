//! The HTTP handlers: `POST /v1/chat/completions` and `GET /v1/models`.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::StreamExt;
use inband::Dialect;
use inband_alloc::select;
use serde_json::{json, Map, Value};

use crate::error::ApiError;
use crate::projection::{Projection, ProjectionOptions};
use crate::request::{prepare, Mode, Policy};
use crate::upstream::{Chunks, Upstream};

/// What every request shares.
#[derive(Debug)]
pub(crate) struct AppState {
    pub upstream: Upstream,
    pub dialect: Option<Dialect>,
    pub model_map: HashMap<String, Dialect>,
    pub heal: bool,
    pub seed: Option<u64>,
    pub next_id: AtomicU64,
}

impl AppState {
    fn dialect_for(&self, model: &str) -> Dialect {
        self.dialect
            .or_else(|| self.model_map.get(model).copied())
            .unwrap_or_else(|| select::for_model(model))
    }
}

pub(crate) fn router(state: Arc<AppState>, body_limit: usize) -> Router {
    Router::new()
        .route("/v1/chat/completions", post(chat))
        .route("/v1/models", get(models))
        .fallback(not_found)
        .method_not_allowed_fallback(wrong_method)
        // A long agent history with images in base64 passes axum's 2 MB default.
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError {
        status: StatusCode::NOT_FOUND,
        message: "no such route (POST /v1/chat/completions, GET /v1/models)".into(),
        kind: "invalid_request_error",
        param: None,
    }
}

async fn wrong_method() -> ApiError {
    ApiError {
        status: StatusCode::METHOD_NOT_ALLOWED,
        message: "wrong method (POST /v1/chat/completions, GET /v1/models)".into(),
        kind: "invalid_request_error",
        param: None,
    }
}

async fn models(State(state): State<Arc<AppState>>, headers: HeaderMap) -> Response {
    match state
        .upstream
        .models(headers.get(header::AUTHORIZATION))
        .await
    {
        Ok(response) => relay(response, &state.upstream).await,
        Err(e) => e.into_response(),
    }
}

async fn chat(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    // axum's own rejection is plain text; an OpenAI client expects an error object.
    let body = match body {
        Ok(body) => body,
        Err(rejection) => {
            return ApiError {
                status: rejection.status(),
                message: format!("the body cannot be read: {}", rejection.body_text()),
                kind: "invalid_request_error",
                param: None,
            }
            .into_response()
        }
    };
    let dialect_for = |model: &str| state.dialect_for(model);
    let policy = Policy {
        dialect_for: &dialect_for,
        heal: state.heal,
        seed: state.seed,
    };
    let prepared = match prepare(&body, policy) {
        Ok(p) => p,
        Err(e) => return e.into_response(),
    };
    let auth = headers.get(header::AUTHORIZATION);
    let options = match prepared.mode {
        Mode::Passthrough => {
            // Untouched: the client's own bytes go up, the upstream's come back.
            return match state.upstream.chat(body, auth).await {
                Ok(response) => relay(response, &state.upstream).await,
                Err(e) => e.into_response(),
            };
        }
        Mode::Project(options) => options,
    };
    let upstream_body = Bytes::from(prepared.upstream.to_string());
    let response = match state.upstream.chat(upstream_body, auth).await {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    let turn = Turn {
        id: format!(
            "chatcmpl-inband-{}",
            state.next_id.fetch_add(1, Ordering::Relaxed)
        ),
        created: SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
        model: prepared.model,
    };
    let chunks = state.upstream.chunks(response);
    if prepared.stream {
        stream_turn(turn, chunks, options).into_response()
    } else {
        match whole_turn(&turn, chunks, options).await {
            Ok(body) => Json(body).into_response(),
            Err(e) => e.into_response(),
        }
    }
}

/// The upstream's response as it is: status, content type, body (each read within the
/// timeout; a stalled body ends).
async fn relay(response: reqwest::Response, upstream: &Upstream) -> Response {
    let status =
        StatusCode::from_u16(response.status().as_u16()).unwrap_or(StatusCode::BAD_GATEWAY);
    let content_type = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("application/json")
        .to_owned();
    let timeout = upstream.timeout;
    let mut bytes = response.bytes_stream();
    let body = async_stream::stream! {
        loop {
            match tokio::time::timeout(timeout, bytes.next()).await {
                Ok(Some(Ok(chunk))) => yield Ok::<Bytes, std::io::Error>(chunk),
                Ok(Some(Err(e))) => {
                    yield Err(std::io::Error::other(e));
                    break;
                }
                Ok(None) => break,
                Err(_) => {
                    yield Err(std::io::Error::other("the upstream stalled"));
                    break;
                }
            }
        }
    };
    (
        status,
        [(header::CONTENT_TYPE, content_type)],
        Body::from_stream(body),
    )
        .into_response()
}

/// The response's identity, the same in every chunk.
struct Turn {
    id: String,
    created: u64,
    model: String,
}

impl Turn {
    fn chunk(&self, delta: Map<String, Value>, finish_reason: Option<&str>) -> Value {
        json!({
            "id": self.id,
            "object": "chat.completion.chunk",
            "created": self.created,
            "model": self.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
        })
    }
}

fn event(value: &Value) -> Result<Event, Infallible> {
    Ok(Event::default().data(value.to_string()))
}

/// A streaming response. The upstream's chunks are read only while the client reads; when
/// the client goes away the stream is dropped with `chunks`, which closes the upstream
/// connection (the upstream sees the request cancelled).
fn stream_turn(
    turn: Turn,
    mut chunks: Chunks,
    options: ProjectionOptions,
) -> Sse<impl futures_util::Stream<Item = Result<Event, Infallible>>> {
    let stream = async_stream::stream! {
        let mut projection = Projection::new(options);
        let mut role = Map::new();
        role.insert("role".into(), "assistant".into());
        role.insert("content".into(), "".into());
        yield event(&turn.chunk(role, None));
        let mut usage = None;
        loop {
            let piece = match chunks.next().await {
                Ok(Some(piece)) => piece,
                Ok(None) => break,
                Err(e) => {
                    yield event(&json!({"error": e.object()}));
                    return;
                }
            };
            if piece.usage.is_some() {
                usage = piece.usage;
            }
            let step = projection.feed(&piece.delta);
            if !step.delta.is_empty() {
                yield event(&turn.chunk(step.delta.to_openai(), None));
            }
            if step.stop {
                break;
            }
        }
        // Stops reading, and on an early stop cancels the upstream request.
        drop(chunks);
        let end = projection.finish();
        yield event(&turn.chunk(end.delta.to_openai(), Some(&end.finish_reason)));
        if let Some(usage) = usage {
            let mut last = turn.chunk(Map::new(), None);
            last["choices"] = json!([]);
            last["usage"] = usage;
            yield event(&last);
        }
        yield Ok(Event::default().data("[DONE]"));
    };
    Sse::new(stream)
}

/// A non-streaming response: the upstream's stream read to its end (or to an early stop)
/// and assembled.
async fn whole_turn(
    turn: &Turn,
    mut chunks: Chunks,
    options: ProjectionOptions,
) -> Result<Value, ApiError> {
    let mut projection = Projection::new(options);
    let mut usage = Value::Null;
    while let Some(piece) = chunks.next().await? {
        if let Some(u) = piece.usage {
            usage = u;
        }
        if projection.feed(&piece.delta).stop {
            break;
        }
    }
    drop(chunks);
    let end = projection.finish();
    let message = end.message;
    let mut out = Map::new();
    out.insert("role".into(), "assistant".into());
    let content = if message.content.is_empty() && !message.tool_calls.is_empty() {
        Value::Null
    } else {
        message.content.into()
    };
    out.insert("content".into(), content);
    if let Some(reasoning) = message.reasoning_content {
        out.insert("reasoning_content".into(), reasoning.into());
    }
    if !message.tool_calls.is_empty() {
        let calls: Vec<Value> = message
            .tool_calls
            .iter()
            .map(|call| {
                json!({
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.arguments},
                })
            })
            .collect();
        out.insert("tool_calls".into(), Value::Array(calls));
    }
    let (message, reason) = (out, end.finish_reason);
    Ok(json!({
        "id": turn.id,
        "object": "chat.completion",
        "created": turn.created,
        "model": turn.model,
        "choices": [{"index": 0, "message": message, "finish_reason": reason}],
        "usage": usage,
    }))
}
