//! # inband-serve
//!
//! Tool calling for any model behind an OpenAI-compatible endpoint: an HTTP server that
//! accepts `POST /v1/chat/completions` (streaming and not) and `GET /v1/models`, puts the
//! request's tools into the system prompt in the model's dialect, re-encodes earlier calls
//! and results as the dialect's text, forwards the request without `tools` to the
//! upstream, and decodes the upstream's text back into OpenAI `tool_calls`,
//! `reasoning_content` and `finish_reason: "tool_calls"` (docs/seed.md §4).
//!
//! - `tool_choice: "none"`: no tool prompt, and calls the model writes anyway are dropped.
//!   `"required"` is treated as `"auto"` (text cannot force a call); a named function
//!   offers only that tool.
//! - `parallel_tool_calls: false`: the turn ends when a second call begins (the first is
//!   then complete) and the upstream request is cancelled.
//! - A fabricated tool result (the model writing a result itself) ends the turn and
//!   cancels the upstream request.
//! - The upstream's text, native reasoning and native tool calls go through the runtime
//!   layer's projector (`inband_alloc::runtime::Projector`).
//! - Requests without tools go through untouched, or healed when [`Config::heal`] is set
//!   (the projector's healing mode: leaked reasoning becomes `reasoning_content`, leaked
//!   Kimi or DSML call markup becomes `tool_calls`).
//! - Errors are OpenAI error bodies: 400 for a bad request, the upstream's status for its
//!   failures, 502 for an unreachable or garbled upstream, 504 for a timeout; inside a
//!   stream that has started, an `{"error": ...}` event ends it.
//! - Every wait on the upstream has [`Config::timeout`]; a client that goes away drops its
//!   response stream, which closes the upstream connection.
//!
//! [`stub`] is a scripted upstream replaying recorded outputs, for tests and demos.

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

mod error;
mod projection;
mod proxy;
mod request;
pub mod stub;
mod upstream;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Duration;

use inband::Dialect;
use tokio::net::TcpListener;

pub use error::ApiError;
pub use projection::{Final, Projection, ProjectionOptions, Step};

/// How the server runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// The upstream's base URL, with its `/v1` (as an OpenAI client's `base_url`).
    pub upstream: String,
    /// One dialect for every model; `None` picks it per request.
    pub dialect: Option<Dialect>,
    /// Model id → dialect, before `select::for_model`'s rules.
    pub model_map: HashMap<String, Dialect>,
    /// Longest wait for the upstream: connecting, the response head, and each piece after.
    pub timeout: Duration,
    /// Heal replies to requests without tools too (leaked reasoning and template call
    /// markup; see the crate docs).
    pub heal: bool,
    /// Mint call ids from this seed (tests); `None` for random ids.
    pub seed: Option<u64>,
    /// The largest request body read, in bytes (64 MiB by default: a long agent history
    /// with base64 images); a larger one is a 413 with an OpenAI error body.
    pub body_limit: usize,
}

impl Config {
    /// Defaults for `upstream`: dialect per model, 120 s timeout, no healing, random ids,
    /// 64 MiB bodies.
    pub fn new(upstream: impl Into<String>) -> Self {
        Config {
            upstream: upstream.into(),
            dialect: None,
            model_map: HashMap::new(),
            timeout: Duration::from_secs(120),
            heal: false,
            seed: None,
            body_limit: 64 << 20,
        }
    }
}

/// Reads a model map: a JSON object of model id → dialect name (or a server's tool-call
/// parser name for one: `inband_alloc::select::for_parser`).
///
/// # Errors
/// Not a JSON object of strings, or an unknown dialect name (the message names it).
pub fn parse_model_map(text: &[u8]) -> Result<HashMap<String, Dialect>, String> {
    let value: serde_json::Value = serde_json::from_slice(text).map_err(|e| e.to_string())?;
    let object = value
        .as_object()
        .ok_or("the model map must be a JSON object")?;
    let mut map = HashMap::new();
    for (model, name) in object {
        let name = name
            .as_str()
            .ok_or_else(|| format!("the dialect of `{model}` must be a string"))?;
        let dialect = Dialect::from_name(name)
            .or_else(|| inband_alloc::select::for_parser(name))
            .ok_or_else(|| format!("unknown dialect `{name}` for `{model}`"))?;
        map.insert(model.clone(), dialect);
    }
    Ok(map)
}

/// Installs rustls' ring provider for reqwest (once per process; later calls do nothing).
pub fn install_crypto() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// Serves `config` on `listener` until the future is dropped.
///
/// # Errors
/// The upstream client cannot be built, or accepting connections fails.
pub async fn serve(listener: TcpListener, config: Config) -> std::io::Result<()> {
    install_crypto();
    let upstream =
        upstream::Upstream::new(&config.upstream, config.timeout).map_err(std::io::Error::other)?;
    let state = Arc::new(proxy::AppState {
        upstream,
        dialect: config.dialect,
        model_map: config.model_map,
        heal: config.heal,
        seed: config.seed,
        next_id: AtomicU64::new(0),
    });
    axum::serve(listener, proxy::router(state, config.body_limit)).await
}

/// Serves the stub on `listener` until the future is dropped.
///
/// # Errors
/// Accepting connections fails.
pub async fn serve_stub(listener: TcpListener, stub: stub::Stub) -> std::io::Result<()> {
    axum::serve(listener, stub.router()).await
}

/// Binds `addr` (port 0 for an ephemeral one).
///
/// # Errors
/// The address cannot be bound.
pub async fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_maps_take_dialect_and_parser_names() {
        let map = parse_model_map(br#"{"a": "granite", "b": "qwen3_coder"}"#).unwrap();
        assert_eq!(map["a"], Dialect::Granite);
        assert_eq!(map["b"], Dialect::Qwen3Coder);
        assert_eq!(
            parse_model_map(br#"{"c": "llama"}"#).unwrap_err(),
            "unknown dialect `llama` for `c`"
        );
    }
}
