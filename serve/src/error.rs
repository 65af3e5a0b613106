//! OpenAI-shaped errors: `{"error": {"message", "type", "param", "code"}}` with the HTTP
//! status that goes with them (OpenAI's API reference, "Error codes").

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

/// An error returned to the client as an OpenAI error body.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    /// The HTTP status: 4xx for the client's request, 502/504 (or the upstream's own
    /// status) for the upstream.
    pub status: StatusCode,
    /// Human-readable message.
    pub message: String,
    /// OpenAI's `type`: `invalid_request_error`, `upstream_error`, `timeout`, …
    pub kind: &'static str,
    /// The request field at fault, if any (`param`).
    pub param: Option<&'static str>,
}

impl ApiError {
    /// A 400 for a bad request field.
    pub fn invalid(param: Option<&'static str>, message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
            kind: "invalid_request_error",
            param,
        }
    }

    /// A 502: the upstream failed or answered with something unusable.
    pub fn upstream(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::BAD_GATEWAY,
            message: message.into(),
            kind: "upstream_error",
            param: None,
        }
    }

    /// A 504: the upstream did not answer within the configured timeout.
    pub fn timeout(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::GATEWAY_TIMEOUT,
            message: message.into(),
            kind: "timeout",
            param: None,
        }
    }

    /// The error object (the value of the body's `error` key, and of an error event in a
    /// stream that has already started).
    pub fn object(&self) -> Value {
        json!({
            "message": self.message,
            "type": self.kind,
            "param": self.param,
            "code": self.status.as_u16(),
        })
    }

    /// The whole body: `{"error": {...}}`.
    pub fn body(&self) -> Value {
        json!({ "error": self.object() })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(self.body())).into_response()
    }
}
