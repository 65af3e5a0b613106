//! The proxy's behaviour against the scripted stub: calls, reasoning, history, choices.

mod common;

use common::{join, start, tools};
use inband::Dialect;
use inband_alloc::prompt::tool_prompt;
use inband_alloc::render::{Message, Renderer};
use inband_alloc::tools::ToolSet;
use serde_json::{json, Value};

fn ask(model: &str, stream: bool) -> Value {
    json!({"model": model, "stream": stream, "tools": tools(),
           "messages": [{"role": "system", "content": "Be brief."},
                        {"role": "user", "content": "Weather in Paris and Porto?"}]})
}

#[tokio::test]
async fn non_streaming_parallel_calls_with_reasoning() {
    let rig = start(|_| {}).await;
    let (status, body) = rig.post_json(&ask("Qwen/Qwen3-8B", false)).await;
    assert_eq!(status, 200);
    let choice = &body["choices"][0];
    assert_eq!(choice["finish_reason"], "tool_calls");
    let message = &choice["message"];
    assert_eq!(message["content"], "Checking both cities.");
    assert_eq!(
        message["reasoning_content"],
        "The user wants the weather in two cities; one call each."
    );
    let calls = message["tool_calls"].as_array().expect("calls");
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0]["function"]["name"], "get_weather");
    assert_eq!(calls[0]["function"]["arguments"], r#"{"city": "Paris"}"#);
    assert_eq!(
        calls[1]["function"]["arguments"],
        r#"{"city": "Porto", "days": 2}"#
    );
    assert_eq!(calls[0]["type"], "function");
    assert!(calls[0]["id"].as_str().expect("id").starts_with("call_"));
    assert_ne!(calls[0]["id"], calls[1]["id"]);
    assert_eq!(body["usage"]["total_tokens"], 30);

    // What went upstream: no tools, the tool prompt after the system text, streaming.
    let log = rig.stub.log();
    assert_eq!(log.requests.len(), 1);
    let sent = &log.requests[0];
    assert_eq!(sent.get("tools"), None);
    assert_eq!(sent.get("tool_choice"), None);
    assert_eq!(sent["stream"], true);
    let toolset = ToolSet::from_value(&tools()).expect("tools");
    let prompt = tool_prompt(&toolset, Dialect::Qwen3).expect("prompt");
    assert_eq!(
        sent["messages"],
        json!([{"role": "system", "content": format!("Be brief.\n\n{prompt}")},
               {"role": "user", "content": "Weather in Paris and Porto?"}])
    );
}

#[tokio::test]
async fn streaming_harmony_reasoning_and_call() {
    let rig = start(|_| {}).await;
    let (status, text) = rig.post(&ask("openai/gpt-oss-20b", true)).await;
    assert_eq!(status, 200);
    let turn = join(&text);
    assert_eq!(turn.content, "");
    assert_eq!(
        turn.reasoning,
        "User wants the current weather; call the tool."
    );
    assert_eq!(turn.calls.len(), 1);
    assert_eq!(turn.calls[0].1, "get_weather");
    assert_eq!(turn.calls[0].2, r#"{"city":"Paris"}"#);
    assert_eq!(turn.finish_reason.as_deref(), Some("tool_calls"));
    assert!(turn.done);
    // Token-sized pieces stream as many chunks, not one at the end.
    assert!(common::events(&text).len() > 10, "{text}");
}

#[tokio::test]
async fn streaming_kimi_two_calls() {
    let rig = start(|_| {}).await;
    let tools = json!([{"type": "function", "function": {"name": "write_file"}},
                       {"type": "function", "function": {"name": "list_dir"}}]);
    let body = json!({"model": "moonshotai/Kimi-K2-Instruct", "stream": true, "tools": tools,
                      "messages": [{"role": "user", "content": "Write notes, list the folder."}]});
    let (status, text) = rig.post(&body).await;
    assert_eq!(status, 200);
    let turn = join(&text);
    assert_eq!(
        turn.content,
        "I'll write the summary file and then list the folder."
    );
    let names: Vec<&str> = turn.calls.iter().map(|c| c.1.as_str()).collect();
    assert_eq!(names, ["write_file", "list_dir"]);
    let args: Value = serde_json::from_str(&turn.calls[0].2).expect("arguments JSON");
    assert_eq!(
        args,
        json!({"path": "NOTES.md", "content": "# Plan\n\n- parse `{a: {b: 1}}` blocks\n- keep } and { literal\n"})
    );
    assert_eq!(turn.calls[1].2, r#"{"path": "."}"#);
    assert_eq!(turn.finish_reason.as_deref(), Some("tool_calls"));
}

#[tokio::test]
async fn glm_arguments_typed_by_schema() {
    let rig = start(|_| {}).await;
    let tools = json!([{"type": "function", "function": {"name": "web_search", "parameters": {"type": "object",
        "properties": {"query": {"type": "string"}, "max_results": {"type": "integer"},
                       "safe_search": {"type": "boolean"}, "zip": {"type": "string"}}}}}]);
    let body = json!({"model": "zai-org/GLM-4.6", "tools": tools,
                      "messages": [{"role": "user", "content": "Search."}]});
    let (status, body) = rig.post_json(&body).await;
    assert_eq!(status, 200);
    let call = &body["choices"][0]["message"]["tool_calls"][0]["function"];
    assert_eq!(call["name"], "web_search");
    let args: Value =
        serde_json::from_str(call["arguments"].as_str().expect("text")).expect("JSON");
    assert_eq!(
        args,
        json!({"query": "incremental parsers", "max_results": 10, "safe_search": true, "zip": "10001"})
    );
    assert_eq!(body["choices"][0]["message"]["content"], Value::Null);
}

#[tokio::test]
async fn second_turn_reencodes_calls_and_results() {
    let rig = start(|_| {}).await;
    let messages = json!([
        {"role": "user", "content": "Weather in Paris and Porto?"},
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}},
            {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Porto\"}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny, 21 C"},
        {"role": "tool", "tool_call_id": "call_2", "content": "cloudy, 17 C"}]);
    let body =
        json!({"model": "Qwen/Qwen3-8B", "stream": true, "tools": tools(), "messages": messages});
    let (status, text) = rig.post(&body).await;
    assert_eq!(status, 200);
    let turn = join(&text);
    assert_eq!(turn.content, "Paris: sunny, 21 °C. Porto: cloudy, 17 °C.");
    assert_eq!(turn.reasoning, "Both results are in.");
    assert!(turn.calls.is_empty());
    assert_eq!(turn.finish_reason.as_deref(), Some("stop"));

    let toolset = ToolSet::from_value(&tools()).expect("tools");
    let parsed: Vec<Message> = serde_json::from_value(messages).expect("messages");
    let history = Renderer::new(Dialect::Qwen3)
        .with_tools(&toolset)
        .history(&parsed)
        .expect("history");
    let text_of = |m: &Message| match m {
        Message::User { content } | Message::System { content } => content.clone(),
        Message::Assistant(a) => a.content.clone(),
        _ => String::new(),
    };
    let sent = &rig.stub.log().requests[0]["messages"];
    assert_eq!(sent.as_array().expect("messages").len(), 4);
    assert_eq!(sent[0]["role"], "system");
    assert_eq!(sent[2]["role"], "assistant");
    assert_eq!(sent[2]["content"], text_of(&history[1]));
    assert!(sent[2]["content"]
        .as_str()
        .expect("text")
        .contains("<tool_call>"));
    assert_eq!(sent[3]["role"], "user");
    assert_eq!(sent[3]["content"], text_of(&history[2]));
    assert!(sent[3]["content"]
        .as_str()
        .expect("text")
        .contains("cloudy, 17 C"));
}

#[tokio::test]
async fn tool_choice_none_keeps_calls_out() {
    let rig = start(|_| {}).await;
    let mut body = ask("Qwen/Qwen3-8B", false);
    body["tool_choice"] = json!("none");
    let (status, body) = rig.post_json(&body).await;
    assert_eq!(status, 200);
    let choice = &body["choices"][0];
    assert_eq!(choice["finish_reason"], "stop");
    assert_eq!(choice["message"]["content"], "Checking both cities.");
    assert_eq!(choice["message"].get("tool_calls"), None);
    // No tool prompt went up either.
    let sent = &rig.stub.log().requests[0];
    assert_eq!(
        sent["messages"][0],
        json!({"role": "system", "content": "Be brief."})
    );
}

#[tokio::test]
async fn parallel_tool_calls_false_stops_after_the_first() {
    let rig = start(|_| {}).await;
    let mut body = ask("Qwen/Qwen3-8B", true);
    body["parallel_tool_calls"] = json!(false);
    let (status, text) = rig.post(&body).await;
    assert_eq!(status, 200);
    let turn = join(&text);
    assert_eq!(turn.calls.len(), 1);
    assert_eq!(turn.calls[0].2, r#"{"city": "Paris"}"#);
    assert_eq!(turn.finish_reason.as_deref(), Some("tool_calls"));
    assert_eq!(rig.stub.log().requests[0].get("parallel_tool_calls"), None);
}

#[tokio::test]
async fn fabricated_result_ends_the_turn_and_cancels_upstream() {
    let rig = start(|_| {}).await;
    for stream in [true, false] {
        let (status, text) = rig.post(&ask("stub/fabricated", stream)).await;
        assert_eq!(status, 200);
        if stream {
            let turn = join(&text);
            assert_eq!(turn.calls.len(), 1);
            assert_eq!(turn.calls[0].2, r#"{"city": "Paris"}"#);
            assert_eq!(turn.content, "");
            assert_eq!(turn.finish_reason.as_deref(), Some("tool_calls"));
        } else {
            let body: Value = serde_json::from_str(&text).expect("JSON");
            assert_eq!(body["choices"][0]["message"]["content"], Value::Null);
            assert_eq!(
                body["choices"][0]["message"]["tool_calls"][0]["function"]["name"],
                "get_weather"
            );
        }
        assert!(
            !text.contains("degrees") && !text.contains("temperature"),
            "{text}"
        );
    }
    let log = rig.log_when(|l| l.cancelled == 2).await;
    assert_eq!((log.cancelled, log.completed), (2, 0));
}

#[tokio::test]
async fn client_disconnect_cancels_upstream() {
    let rig = start(|_| {}).await;
    let body = json!({"model": "stub/slow", "stream": true, "tools": tools(),
                      "messages": [{"role": "user", "content": "Count."}]});
    let mut response = rig
        .http
        .post(format!("{}/chat/completions", rig.proxy))
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .expect("proxy answers");
    assert_eq!(response.status().as_u16(), 200);
    let mut seen = String::new();
    while seen.matches("\"content\"").count() < 5 {
        let chunk = response.chunk().await.expect("read").expect("more");
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }
    drop(response);
    let log = rig.log_when(|l| l.cancelled == 1).await;
    assert_eq!((log.cancelled, log.completed), (1, 0));
}

#[tokio::test]
async fn without_tools_the_request_passes_through_untouched() {
    let rig = start(|_| {}).await;
    let body = json!({"model": "Qwen/Qwen3-8B", "messages": [{"role": "user", "content": "Hi"}], "temperature": 0.5});
    let (status, reply) = rig.post_json(&body).await;
    assert_eq!(status, 200);
    let content = reply["choices"][0]["message"]["content"]
        .as_str()
        .expect("content");
    assert!(content.starts_with("<think>\nThe user wants"), "{content}");
    assert_eq!(rig.stub.log().requests[0], body);
    let models: Value = rig
        .http
        .get(format!("{}/models", rig.proxy))
        .send()
        .await
        .expect("models")
        .json_text()
        .await;
    assert_eq!(models["data"].as_array().expect("list").len(), 7);
}

#[tokio::test]
async fn healing_lifts_leaked_reasoning_and_keeps_unprompted_markup() {
    let rig = start(|c| c.heal = true).await;
    let body = json!({"model": "Qwen/Qwen3-8B", "messages": [{"role": "user", "content": "Hi"}]});
    let (status, reply) = rig.post_json(&body).await;
    assert_eq!(status, 200);
    let message = &reply["choices"][0]["message"];
    // Qwen's template does not leak calls: without tools the model was not prompted, so
    // `<tool_call>` in its text is text (only Kimi and DSML markup are leaks).
    assert_eq!(
        message["content"],
        "Checking both cities.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Porto\", \"days\": 2}}\n</tool_call>"
    );
    assert_eq!(
        message["reasoning_content"],
        "The user wants the weather in two cities; one call each."
    );
    assert_eq!(message.get("tool_calls"), None);
    assert_eq!(reply["choices"][0]["finish_reason"], "stop");
    assert_eq!(rig.stub.log().requests[0]["messages"], body["messages"]);
}

#[tokio::test]
async fn healing_turns_leaked_kimi_markup_into_tool_calls() {
    let rig = start(|c| c.heal = true).await;
    let body = json!({"model": "moonshotai/Kimi-K2-Instruct", "stream": true,
                      "messages": [{"role": "user", "content": "Write notes, list the folder."}]});
    let (status, text) = rig.post(&body).await;
    assert_eq!(status, 200);
    let turn = join(&text);
    assert!(turn.done);
    assert_eq!(
        turn.content,
        "I'll write the summary file and then list the folder."
    );
    let names: Vec<&str> = turn.calls.iter().map(|c| c.1.as_str()).collect();
    assert_eq!(names, ["write_file", "list_dir"]);
    assert_eq!(turn.calls[1].2, r#"{"path": "."}"#);
    assert_eq!(turn.finish_reason.as_deref(), Some("tool_calls"));
    // Without healing the same request passes through with the markup in the content.
    let plain = start(|_| {}).await;
    let (_, text) = plain.post(&body).await;
    let turn = join(&text);
    assert!(turn.content.contains("<|tool_calls_section_begin|>"));
    assert!(turn.calls.is_empty());
}

#[tokio::test]
async fn healing_turns_leaked_dsml_into_a_tool_call() {
    let rig = start(|c| c.heal = true).await;
    let body = json!({"model": "deepseek-ai/DeepSeek-V3.2",
                      "messages": [{"role": "user", "content": "How big is Größe/東京?"}]});
    let (status, reply) = rig.post_json(&body).await;
    assert_eq!(status, 200);
    let message = &reply["choices"][0]["message"];
    assert_eq!(message["content"], "Let me check 東京.");
    assert_eq!(
        message["reasoning_content"],
        "The user wants the file size; bash it."
    );
    assert_eq!(message["tool_calls"][0]["function"]["name"], "bash");
    let args: Value = serde_json::from_str(
        message["tool_calls"][0]["function"]["arguments"]
            .as_str()
            .expect("text"),
    )
    .expect("arguments JSON");
    assert_eq!(
        args,
        json!({"command": "du -sh \"Größe/東京\" | sort", "timeout": 15})
    );
    assert_eq!(reply["choices"][0]["finish_reason"], "tool_calls");
}

trait JsonText {
    async fn json_text(self) -> Value;
}

impl JsonText for reqwest::Response {
    async fn json_text(self) -> Value {
        serde_json::from_str(&self.text().await.expect("body")).expect("JSON")
    }
}

#[tokio::test]
async fn non_streaming_client_disconnect_cancels_upstream() {
    let rig = start(|_| {}).await;
    let body = json!({"model": "stub/slow", "tools": tools(),
                      "messages": [{"role": "user", "content": "Count."}]});
    let request = rig
        .http
        .post(format!("{}/chat/completions", rig.proxy))
        .header("content-type", "application/json")
        .body(body.to_string())
        .timeout(std::time::Duration::from_millis(300))
        .send()
        .await;
    assert!(request.expect_err("the client gives up").is_timeout());
    let log = rig.log_when(|l| l.cancelled == 1).await;
    assert_eq!((log.cancelled, log.completed), (1, 0));
}
