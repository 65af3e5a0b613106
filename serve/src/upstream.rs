//! The upstream OpenAI-compatible server: requests with timeouts, its server-sent events
//! read as chat-completion chunks.

use std::time::Duration;

use axum::http::{HeaderValue, StatusCode};
use bytes::Bytes;
use eventsource_stream::Eventsource;
use futures_util::stream::BoxStream;
use futures_util::StreamExt;
use inband_alloc::runtime::ProviderDelta;
use serde_json::Value;

use crate::error::ApiError;

/// A client for one upstream base URL (`http://host:port/v1`).
#[derive(Debug, Clone)]
pub struct Upstream {
    client: reqwest::Client,
    base: String,
    /// Longest wait for the response head and for each later piece of the body.
    pub timeout: Duration,
}

/// One chunk of the upstream's stream, the parts the proxy reads.
#[derive(Debug, Default)]
pub struct Piece {
    /// `choices[0]`: content, reasoning a server split off itself (`reasoning_content` or
    /// `reasoning`), native tool-call fragments and `finish_reason`.
    pub delta: ProviderDelta,
    /// `usage`, on the last chunk when asked for.
    pub usage: Option<Value>,
}

/// The upstream's chunks, each within the timeout; `None` after `[DONE]` or the end of
/// the body. Dropping it closes the connection, which cancels the upstream request.
pub struct Chunks {
    events: BoxStream<'static, Result<eventsource_stream::Event, String>>,
    timeout: Duration,
    done: bool,
}

impl Upstream {
    /// A client for `base`, with `timeout` for connecting, the response head and each read.
    ///
    /// # Errors
    /// When reqwest cannot build its client (no TLS configuration).
    pub fn new(base: &str, timeout: Duration) -> Result<Self, reqwest::Error> {
        let client = reqwest::Client::builder()
            .connect_timeout(timeout)
            .read_timeout(timeout)
            .build()?;
        Ok(Upstream {
            client,
            base: base.trim_end_matches('/').to_owned(),
            timeout,
        })
    }

    /// `POST {base}/chat/completions` with `body`; the response once its status is a
    /// success.
    ///
    /// # Errors
    /// 504 on timeout, 502 when unreachable, the upstream's own status and error on a
    /// failure status.
    pub async fn chat(
        &self,
        body: Bytes,
        auth: Option<&HeaderValue>,
    ) -> Result<reqwest::Response, ApiError> {
        let mut request = self
            .client
            .post(format!("{}/chat/completions", self.base))
            .header("content-type", "application/json")
            .body(body);
        if let Some(auth) = auth {
            request = request.header("authorization", auth.clone());
        }
        self.send(request).await
    }

    /// `GET {base}/models`.
    ///
    /// # Errors
    /// As [`Upstream::chat`].
    pub async fn models(&self, auth: Option<&HeaderValue>) -> Result<reqwest::Response, ApiError> {
        let mut request = self.client.get(format!("{}/models", self.base));
        if let Some(auth) = auth {
            request = request.header("authorization", auth.clone());
        }
        self.send(request).await
    }

    async fn send(&self, request: reqwest::RequestBuilder) -> Result<reqwest::Response, ApiError> {
        let response = match tokio::time::timeout(self.timeout, request.send()).await {
            Err(_) => return Err(self.timed_out()),
            Ok(Err(e)) if e.is_timeout() => return Err(self.timed_out()),
            Ok(Err(e)) => return Err(ApiError::upstream(format!("upstream unreachable: {e}"))),
            Ok(Ok(response)) => response,
        };
        let status = response.status();
        if status.is_success() {
            return Ok(response);
        }
        let text = match tokio::time::timeout(self.timeout, response.bytes()).await {
            Ok(Ok(bytes)) => bytes,
            _ => Bytes::new(),
        };
        Err(failure(status.as_u16(), &text))
    }

    fn timed_out(&self) -> ApiError {
        ApiError::timeout(format!(
            "the upstream did not answer within {} ms",
            self.timeout.as_millis()
        ))
    }

    /// The chunks of a streaming response.
    pub fn chunks(&self, response: reqwest::Response) -> Chunks {
        let events = response
            .bytes_stream()
            .eventsource()
            .map(|r| r.map_err(|e| e.to_string()))
            .boxed();
        Chunks {
            events,
            timeout: self.timeout,
            done: false,
        }
    }
}

/// The upstream's failure status as an error: its own error message when the body is an
/// OpenAI error, else the body's text.
fn failure(status: u16, body: &[u8]) -> ApiError {
    let upstream_message = serde_json::from_slice::<Value>(body)
        .ok()
        .and_then(|v| v.get("error").cloned())
        .and_then(|e| match e {
            Value::String(s) => Some(s),
            other => other
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_owned),
        })
        .unwrap_or_else(|| String::from_utf8_lossy(body).chars().take(500).collect());
    let mut error = ApiError::upstream(format!("upstream status {status}: {upstream_message}"));
    if let Ok(code) = StatusCode::from_u16(status) {
        if code.is_client_error() || code.is_server_error() {
            error.status = code;
        }
    }
    error
}

impl std::fmt::Debug for Chunks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Chunks")
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl Chunks {
    /// The next chunk, `Ok(None)` at the end.
    ///
    /// # Errors
    /// 504 when no event arrives within the timeout, 502 for a broken stream, a chunk that
    /// is not JSON, or an error event.
    pub async fn next(&mut self) -> Result<Option<Piece>, ApiError> {
        if self.done {
            return Ok(None);
        }
        loop {
            let event = match tokio::time::timeout(self.timeout, self.events.next()).await {
                Err(_) => {
                    return Err(ApiError::timeout(format!(
                        "the upstream sent nothing for {} ms",
                        self.timeout.as_millis()
                    )))
                }
                Ok(None) => {
                    self.done = true;
                    return Ok(None);
                }
                Ok(Some(Err(e))) => {
                    return Err(ApiError::upstream(format!("upstream stream broke: {e}")))
                }
                Ok(Some(Ok(event))) => event,
            };
            let data = event.data.trim();
            if data.is_empty() {
                continue;
            }
            if data == "[DONE]" {
                self.done = true;
                return Ok(None);
            }
            let value: Value = serde_json::from_str(data).map_err(|e| {
                ApiError::upstream(format!("the upstream sent a chunk that is not JSON: {e}"))
            })?;
            if let Some(error) = value.get("error") {
                let message = error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("error event");
                return Err(ApiError::upstream(format!("upstream error: {message}")));
            }
            return Ok(Some(piece(&value)));
        }
    }
}

fn piece(value: &Value) -> Piece {
    Piece {
        delta: ProviderDelta::from_chunk(value),
        usage: value.get("usage").filter(|u| !u.is_null()).cloned(),
    }
}
