//! Failures: bad requests get 4xx OpenAI error bodies; upstream failures, timeouts and
//! garbled streams are passed on as OpenAI errors, and nothing hangs.

mod common;

use std::time::Duration;

use common::{events, start, tools};
use serde_json::{json, Value};

fn ask(model: &str, stream: bool) -> Value {
    json!({"model": model, "stream": stream, "tools": tools(),
           "messages": [{"role": "user", "content": "Weather?"}]})
}

fn error_of(body: &Value) -> (&str, &str, &Value) {
    let e = &body["error"];
    (
        e["type"].as_str().expect("type"),
        e["message"].as_str().expect("message"),
        &e["param"],
    )
}

#[tokio::test]
async fn a_body_over_the_limit_is_413_with_an_error_object() {
    let rig = start(|c| c.body_limit = 1 << 20).await;
    let big = "x".repeat(2 << 20);
    let body = json!({"model": "Qwen/Qwen3-8B", "messages": [{"role": "user", "content": big}]});
    let (status, reply) = rig.post_json(&body).await;
    assert_eq!(status, 413);
    assert_eq!(reply["error"]["type"], "invalid_request_error");
    assert!(reply["error"]["message"]
        .as_str()
        .expect("message")
        .starts_with("the body cannot be read"));
    assert!(rig.stub.log().requests.is_empty());
}

#[tokio::test]
async fn a_body_past_axums_default_limit_is_read() {
    // 3 MiB of base64 image in a content part, with tools: decoded and forwarded whole.
    let rig = start(|_| {}).await;
    let image = json!({"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{}", "A".repeat(3 << 20))}});
    let body = json!({"model": "Qwen/Qwen3-8B", "tools": tools(),
        "messages": [{"role": "user", "content": [{"type": "text", "text": "Wetter in Zürich?"}, image]}]});
    let (status, reply) = rig.post_json(&body).await;
    assert_eq!(status, 200);
    assert_eq!(reply["choices"][0]["finish_reason"], "tool_calls");
    let sent = &rig.stub.log().requests[0]["messages"];
    assert_eq!(sent[1], body["messages"][0]);
}

#[tokio::test]
async fn a_wrong_method_gets_405_with_an_error_object() {
    let rig = start(|_| {}).await;
    let response = rig
        .http
        .get(format!("{}/chat/completions", rig.proxy))
        .send()
        .await
        .expect("reply");
    assert_eq!(response.status().as_u16(), 405);
    let reply: serde_json::Value =
        serde_json::from_str(&response.text().await.expect("body")).expect("JSON");
    assert_eq!(reply["error"]["type"], "invalid_request_error");
    assert_eq!(reply["error"]["code"], 405);
}

#[tokio::test]
async fn bad_requests_get_400_with_the_field() {
    let rig = start(|_| {}).await;
    let cases = [
        (
            json!({"messages": [{"role": "user", "content": "x"}]}),
            "model",
        ),
        (json!({"model": "m"}), "messages"),
        (json!({"model": "m", "messages": []}), "messages"),
        (
            json!({"model": "m", "messages": [{"role": "user", "content": "x"}], "tools": {}}),
            "tools",
        ),
        (
            json!({"model": "m", "messages": [{"role": "user", "content": "x"}], "tools": [{"type": "function"}]}),
            "tools",
        ),
        (
            json!({"model": "m", "messages": [{"role": "user", "content": "x"}], "tools": tools(), "tool_choice": "sometimes"}),
            "tool_choice",
        ),
        (
            json!({"model": "m", "messages": [{"role": "user", "content": "x"}], "tools": tools(),
                "tool_choice": {"type": "function", "function": {"name": "nope"}}}),
            "tool_choice",
        ),
        (
            json!({"model": "m", "messages": [{"role": "wizard", "content": "x"}], "tools": tools()}),
            "messages",
        ),
        (
            json!({"model": "m", "messages": [{"role": "user", "content": "x"}], "stream": "yes"}),
            "stream",
        ),
        (
            json!({"model": "m", "messages": [{"role": "user", "content": "x"}], "tools": tools(), "n": 2}),
            "n",
        ),
        (
            json!({"model": "m", "messages": [{"role": "user", "content": "x"}], "tools": tools(),
                "functions": [{"name": "get_weather"}]}),
            "functions",
        ),
        (
            json!({"model": "m", "messages": [{"role": "user", "content": "x"}], "tool_choice": "required"}),
            "tool_choice",
        ),
    ];
    for (body, param) in cases {
        let (status, reply) = rig.post_json(&body).await;
        assert_eq!(status, 400, "{body}");
        let (kind, _, at) = error_of(&reply);
        assert_eq!(kind, "invalid_request_error");
        assert_eq!(at, param, "{body}");
    }
    let (status, text) = rig.post(&json!("not an object")).await;
    assert_eq!(status, 400);
    assert!(text.contains("not a JSON object"), "{text}");
    let response = rig
        .http
        .post(format!("{}/chat/completions", rig.proxy))
        .body("{oops")
        .send()
        .await
        .expect("answer");
    assert_eq!(response.status().as_u16(), 400);
    let reply: Value = serde_json::from_str(&response.text().await.expect("body")).expect("JSON");
    assert!(error_of(&reply).1.starts_with("the body is not valid JSON"));
    let response = rig
        .http
        .get(format!("{}/nowhere", rig.proxy))
        .send()
        .await
        .expect("answer");
    assert_eq!(response.status().as_u16(), 404);
    // None of them reached the upstream.
    assert!(rig.stub.log().requests.is_empty());
}

#[tokio::test]
async fn upstream_500_is_passed_on() {
    let rig = start(|_| {}).await;
    for stream in [false, true] {
        let (status, reply) = rig.post_json(&ask("stub/error-500", stream)).await;
        assert_eq!(status, 500);
        let (kind, message, _) = error_of(&reply);
        assert_eq!(kind, "upstream_error");
        assert_eq!(message, "upstream status 500: stub: scripted failure");
    }
}

#[tokio::test]
async fn upstream_timeout_is_504_and_cancels() {
    let rig = start(|c| c.timeout = Duration::from_millis(300)).await;
    for stream in [false, true] {
        let (status, reply) = rig.post_json(&ask("stub/hang", stream)).await;
        assert_eq!(status, 504);
        assert_eq!(error_of(&reply).0, "timeout");
    }
}

#[tokio::test]
async fn bad_json_mid_stream_ends_with_an_error_event() {
    let rig = start(|_| {}).await;
    let (status, text) = rig.post(&ask("stub/bad-json", true)).await;
    assert_eq!(status, 200);
    let last = events(&text).pop().expect("events");
    let error: Value = serde_json::from_str(&last).expect("JSON");
    assert_eq!(error["error"]["type"], "upstream_error");
    assert!(error["error"]["message"]
        .as_str()
        .expect("message")
        .starts_with("the upstream sent a chunk that is not JSON"));
    assert!(!text.contains("[DONE]"));
    // Non-streaming: the whole reply is the error.
    let (status, reply) = rig.post_json(&ask("stub/bad-json", false)).await;
    assert_eq!(status, 502);
    assert_eq!(error_of(&reply).0, "upstream_error");
}

#[tokio::test]
async fn unreachable_upstream_is_502() {
    // A port that was just free: nothing listens there.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let dead = format!("http://{}/v1", listener.local_addr().expect("addr"));
    drop(listener);
    let rig = start(|c| c.upstream = dead).await;
    let (status, reply) = rig.post_json(&ask("Qwen/Qwen3-8B", true)).await;
    assert_eq!(status, 502);
    assert!(error_of(&reply).1.starts_with("upstream unreachable"));
    let response = rig
        .http
        .get(format!("{}/models", rig.proxy))
        .send()
        .await
        .expect("answer");
    assert_eq!(response.status().as_u16(), 502);
}
