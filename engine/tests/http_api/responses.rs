//! `/v1/responses`: the same answers as `/v1/chat/completions` for the same conversation,
//! as output items; the stream's typed, numbered events rebuild the unstreamed response;
//! function calls round-trip; what needs stored state is refused by name.

use super::*;
use common::servers::without_ids;

/// The events of a Responses stream: each `event:` name must equal its data's `type`.
fn typed_events(body: &str) -> Vec<Value> {
    body.split("\n\n")
        .filter(|e| !e.trim().is_empty() && !e.starts_with(':'))
        .map(|event| {
            let name = event.lines().find_map(|l| l.strip_prefix("event: "));
            let data = event.lines().find_map(|l| l.strip_prefix("data: "));
            let data: Value = serde_json::from_str(data.unwrap_or_else(|| panic!("{event}")))
                .unwrap_or_else(|e| panic!("{e}: {event}"));
            assert_eq!(name, data["type"].as_str(), "{event}");
            data
        })
        .collect()
}

async fn create(request: Value) -> Value {
    let (status, body) = post_json("/v1/responses", request).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["object"], "response");
    body
}

/// Streams `request`; checks the event sequence and returns the events.
async fn stream(request: &Value) -> Vec<Value> {
    let mut streamed = request.clone();
    streamed["stream"] = json!(true);
    let (status, text) = post("/v1/responses", &streamed.to_string()).await;
    assert_eq!(status, 200, "{text}");
    assert!(!text.contains("[DONE]"), "{text}");
    let events = typed_events(&text);
    for (i, event) in events.iter().enumerate() {
        assert_eq!(event["sequence_number"], i as u64, "{event}");
    }
    let kinds: Vec<&str> = events.iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(kinds[..2], ["response.created", "response.in_progress"]);
    assert_eq!(events[0]["response"]["status"], "in_progress");
    assert_eq!(events[0]["response"]["output"], json!([]));
    events
}

/// What a stream's events say item by item: the items added and done in order, each
/// `done` item's text equal to its deltas.
fn check_items(events: &[Value]) -> Vec<Value> {
    let mut done = Vec::new();
    let mut text = String::new();
    for event in events {
        match event["type"].as_str().unwrap_or_default() {
            "response.output_item.added" => {
                assert_eq!(event["output_index"], done.len() as u64, "{event}");
                text.clear();
            }
            "response.output_text.delta" | "response.reasoning_text.delta" => {
                assert_eq!(event["output_index"], done.len() as u64, "{event}");
                text.push_str(event["delta"].as_str().unwrap());
            }
            "response.output_text.done" => assert_eq!(event["text"], text.as_str()),
            "response.function_call_arguments.done" => {
                assert_eq!(event["arguments"], text.as_str())
            }
            "response.function_call_arguments.delta" => {
                text.push_str(event["delta"].as_str().unwrap())
            }
            "response.output_item.done" => {
                assert_eq!(event["output_index"], done.len() as u64, "{event}");
                done.push(event["item"].clone());
            }
            _ => {}
        }
    }
    done
}

#[tokio::test]
async fn a_response_says_what_chat_says_whole_and_streamed() {
    let _turn = SERIAL.lock().await;
    let question = "What is the capital of France?";
    let chat = json!({
        "messages": [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": question},
        ],
        "max_completion_tokens": 12,
        "temperature": 0,
    });
    let (status, chat) = post_json("/v1/chat/completions", chat).await;
    assert_eq!(status, 200, "{chat}");
    let request = json!({
        "instructions": "You are a helpful assistant.",
        "input": [{"role": "user", "content": [{"type": "input_text", "text": question}]}],
        "max_output_tokens": 12,
        "temperature": 0,
        "include": ["message.output_text.logprobs"],
        "top_logprobs": 2,
        "metadata": {"run": "1"},
    });
    let whole = create(request.clone()).await;
    let output = whole["output"].as_array().unwrap();
    assert_eq!(output.len(), 1, "{whole}");
    assert_eq!(output[0]["type"], "message");
    assert_eq!(output[0]["role"], "assistant");
    let part = &output[0]["content"][0];
    assert_eq!(part["type"], "output_text");
    assert_eq!(part["text"], chat["choices"][0]["message"]["content"]);
    let usage = &whole["usage"];
    assert_eq!(usage["input_tokens"], chat["usage"]["prompt_tokens"]);
    assert_eq!(usage["output_tokens"], chat["usage"]["completion_tokens"]);
    assert_eq!(usage["output_tokens_details"]["reasoning_tokens"], 0);
    // Twelve tokens is where chat stopped too: the token limit, as the response says.
    let limited = chat["choices"][0]["finish_reason"] == "length";
    let status = if limited { "incomplete" } else { "completed" };
    assert_eq!(whole["status"], status, "{whole}");
    if limited {
        assert_eq!(whole["incomplete_details"]["reason"], "max_output_tokens");
    }
    let logprobs = part["logprobs"].as_array().unwrap();
    assert_eq!(Some(logprobs.len() as u64), usage["output_tokens"].as_u64());
    assert!(logprobs
        .iter()
        .all(|l| l["top_logprobs"].as_array().unwrap().len() == 2));
    assert_eq!(whole["metadata"], json!({"run": "1"}));
    assert_eq!(whole["store"], false);

    let events = stream(&request).await;
    let done = check_items(&events);
    let last = events.last().unwrap();
    let end = if limited {
        "response.incomplete"
    } else {
        "response.completed"
    };
    assert_eq!(last["type"], end);
    let response = &last["response"];
    assert_eq!(response["status"], status);
    assert_eq!(response["output"], Value::Array(done));
    assert_eq!(
        without_ids(&response["output"]),
        without_ids(&whole["output"])
    );
    assert_eq!(response["usage"]["output_tokens"], usage["output_tokens"]);
    // Every event of the response names the same response.
    assert!(events
        .iter()
        .filter_map(|e| e.get("response"))
        .all(|r| r["id"] == response["id"]));
}

#[tokio::test]
async fn function_calls_come_out_as_items_and_go_back_in_as_input() {
    let _turn = SERIAL.lock().await;
    let weather = json!({
        "type": "object",
        "properties": {"city": {"type": "string", "maxLength": 20}},
        "required": ["city"],
    });
    let input = json!([{"role": "user", "content": "What is the weather in Paris?"}]);
    let request = json!({
        "input": input,
        "tools": [{"type": "function", "name": "get_weather", "parameters": weather}],
        "tool_choice": "required",
        "parallel_tool_calls": false,
        "max_output_tokens": 60,
        "temperature": 0,
    });
    let whole = create(request.clone()).await;
    let calls: Vec<&Value> = (whole["output"].as_array().unwrap().iter())
        .filter(|i| i["type"] == "function_call")
        .collect();
    assert_eq!(calls.len(), 1, "{whole}");
    let call = calls[0];
    assert_eq!(call["name"], "get_weather");
    assert_eq!(call["status"], "completed");
    let arguments: Value = serde_json::from_str(call["arguments"].as_str().unwrap()).unwrap();
    assert!(arguments["city"].is_string(), "{arguments}");
    assert_eq!(whole["status"], "completed");
    assert_eq!(whole["tool_choice"], "required");

    let events = stream(&request).await;
    let done = check_items(&events);
    assert_eq!(
        without_ids(&Value::Array(done)),
        without_ids(&whole["output"])
    );

    // The call and its output go back as input; the model answers in text.
    let mut follow = request;
    let mut turns = input.as_array().unwrap().clone();
    turns.push(call.clone());
    turns.push(json!({"type": "function_call_output", "call_id": call["call_id"], "output": "Sunny, 21 C"}));
    follow["input"] = Value::Array(turns);
    follow["tool_choice"] = json!("none");
    let answer = create(follow).await;
    let output = answer["output"].as_array().unwrap();
    assert!(output.iter().all(|i| i["type"] == "message"), "{answer}");
    assert!(!output.is_empty());
}

#[tokio::test]
async fn responses_refuse_what_needs_stored_state_by_name() {
    let _turn = SERIAL.lock().await;
    let cases = [
        (
            json!({"input": "hi", "previous_response_id": "resp_1"}),
            "previous_response_id",
        ),
        (
            json!({"input": "hi", "tools": [{"type": "web_search"}]}),
            "tools",
        ),
        (json!({"input": "hi", "max_tokens": 3}), "max_tokens"),
        (
            json!({"input": [{"type": "item_reference", "id": "msg_1"}]}),
            "input",
        ),
        (
            json!({"input": "hi", "text": {"format": {"type": "json_schema"}}, "temperature": -1}),
            "temperature",
        ),
    ];
    let cases = cases.into_iter().chain([
        // Chat's errors name the Responses fields.
        (json!({"input": "hello ".repeat(1500)}), "input"),
        // SmolLM2's template does not think.
        (json!({"input": "hi", "thinking_budget": 5}), "thinking_budget"),
        (json!({"input": "hi", "max_output_tokens": 0}), "max_output_tokens"),
        (json!({"input": "hi", "text": {"format": {"type": "json_schema", "schema": {"type": 3}}}}), "text.format"),
    ]);
    for (request, param) in cases {
        let (status, body) = post_json("/v1/responses", request).await;
        assert_openai_error(status, &body, 400, Some(param));
    }
    let (status, body) = post_json("/v1/responses", json!({"model": "x"})).await;
    assert_openai_error(status, &body, 400, None);
}
