//! Shared by the integration tests: a stub and a proxy on ephemeral loopback ports.
// Each test binary uses part of these helpers.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use inband::Dialect;
use inband_serve::stub::{Stub, StubLog};
use inband_serve::Config;
use serde_json::{json, Value};

/// A running stub and proxy (both stop when the test's runtime ends).
pub struct Rig {
    pub proxy: String,
    pub stub: Stub,
    pub http: reqwest::Client,
}

pub fn tools() -> Value {
    json!([{"type": "function", "function": {"name": "get_weather", "description": "Current weather",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                       "required": ["city"]}}}])
}

pub async fn start(tweak: impl FnOnce(&mut Config)) -> Rig {
    inband_serve::install_crypto();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let stub = Stub::from_dir(&data).expect("recordings load");
    let any = SocketAddr::from(([127, 0, 0, 1], 0));
    let stub_listener = inband_serve::bind(any).await.expect("bind stub");
    let stub_url = format!("http://{}/v1", stub_listener.local_addr().expect("addr"));
    tokio::spawn(inband_serve::serve_stub(stub_listener, stub.clone()));
    let mut config = Config::new(stub_url.clone());
    config.seed = Some(7);
    config.timeout = Duration::from_millis(2000);
    config
        .model_map
        .insert("stub/fabricated".into(), Dialect::Hermes);
    config.model_map.insert("stub/slow".into(), Dialect::Hermes);
    tweak(&mut config);
    let listener = inband_serve::bind(any).await.expect("bind proxy");
    let proxy = format!("http://{}/v1", listener.local_addr().expect("addr"));
    tokio::spawn(inband_serve::serve(listener, config));
    Rig {
        proxy,
        stub,
        http: reqwest::Client::new(),
    }
}

impl Rig {
    pub async fn post(&self, body: &Value) -> (u16, String) {
        let response = self
            .http
            .post(format!("{}/chat/completions", self.proxy))
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .expect("proxy answers");
        let status = response.status().as_u16();
        (status, response.text().await.expect("body"))
    }

    pub async fn post_json(&self, body: &Value) -> (u16, Value) {
        let (status, text) = self.post(body).await;
        (status, serde_json::from_str(&text).expect("JSON body"))
    }

    /// The stub's log once `ready` holds for it (the stub counts a cancelled stream when
    /// it notices the closed connection, a moment after the proxy closes it).
    pub async fn log_when(&self, ready: impl Fn(&StubLog) -> bool) -> StubLog {
        for _ in 0..200 {
            let log = self.stub.log();
            if ready(&log) {
                return log;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        self.stub.log()
    }
}

/// The `data:` payloads of a server-sent event stream.
pub fn events(text: &str) -> Vec<String> {
    text.split("\n\n")
        .filter_map(|e| {
            e.lines()
                .find_map(|l| l.strip_prefix("data: ").or(l.strip_prefix("data:")))
        })
        .map(str::to_owned)
        .collect()
}

/// A streamed turn joined: content, reasoning, calls (id, name, arguments), finish_reason.
#[derive(Debug, Default, PartialEq)]
pub struct Joined {
    pub content: String,
    pub reasoning: String,
    pub calls: Vec<(String, String, String)>,
    pub finish_reason: Option<String>,
    pub done: bool,
}

pub fn join(text: &str) -> Joined {
    let mut out = Joined::default();
    for data in events(text) {
        if data == "[DONE]" {
            out.done = true;
            continue;
        }
        let chunk: Value = serde_json::from_str(&data).expect("chunk JSON");
        let Some(choice) = chunk["choices"].get(0) else {
            continue;
        };
        let delta = &choice["delta"];
        out.content
            .push_str(delta["content"].as_str().unwrap_or_default());
        out.reasoning
            .push_str(delta["reasoning_content"].as_str().unwrap_or_default());
        for call in delta["tool_calls"].as_array().into_iter().flatten() {
            let index = call["index"].as_u64().expect("index") as usize;
            if index == out.calls.len() {
                out.calls.push(Default::default());
            }
            let entry = &mut out.calls[index];
            entry.0.push_str(call["id"].as_str().unwrap_or_default());
            entry
                .1
                .push_str(call["function"]["name"].as_str().unwrap_or_default());
            entry
                .2
                .push_str(call["function"]["arguments"].as_str().unwrap_or_default());
        }
        if let Some(reason) = choice["finish_reason"].as_str() {
            out.finish_reason = Some(reason.to_owned());
        }
    }
    out
}
