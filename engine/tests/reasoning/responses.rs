//! A thinking model on `/v1/responses`: the thinking is a reasoning item ahead of the
//! message, holding what chat gives as `reasoning_content`, whole and streamed; usage counts
//! its tokens, and the message's logprobs leave them out (whole and streamed); `reasoning.effort: "none"` turns thinking off as `enable_thinking` does.

use super::*;
use common::servers::without_ids;

/// The events of a Responses stream.
async fn events(body: Value) -> Vec<Value> {
    let mut body = body;
    body["stream"] = json!(true);
    post_sse(servers().http, "/v1/responses", body).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_thinking_is_a_reasoning_item_whole_and_streamed() {
    let servers = servers();
    let question = "What is the capital of France?";
    let chat = json!({
        "messages": [{"role": "user", "content": question}],
        "temperature": 0, "max_tokens": 40,
    });
    let (status, chat) = post_json(servers.http, "/v1/chat/completions", chat).await;
    assert_eq!(status, 200, "{chat}");
    let message = &chat["choices"][0]["message"];
    let thinking = message["reasoning_content"].as_str().unwrap_or_default();
    assert!(!thinking.is_empty(), "{chat}");
    let content = message["content"].as_str().unwrap_or_default();

    let request = json!({
        "input": question, "temperature": 0, "max_output_tokens": 40,
    });
    let (status, whole) = post_json(servers.http, "/v1/responses", request.clone()).await;
    assert_eq!(status, 200, "{whole}");
    let output = whole["output"].as_array().unwrap();
    assert_eq!(output[0]["type"], "reasoning", "{whole}");
    assert_eq!(output[0]["content"][0]["type"], "reasoning_text");
    assert_eq!(output[0]["content"][0]["text"], thinking, "{whole}");
    let text: String = (output.iter().skip(1))
        .map(|item| item["content"][0]["text"].as_str().unwrap())
        .collect();
    assert_eq!(text, content, "{whole}");
    assert_eq!(
        output.len(),
        1 + usize::from(!content.is_empty()),
        "{whole}"
    );
    assert_eq!(
        whole["usage"]["output_tokens_details"]["reasoning_tokens"],
        reasoning_tokens(&chat).unwrap()
    );

    let events = events(request).await;
    let deltas = |kind: &str| -> String {
        (events.iter())
            .filter(|e| e["type"] == kind)
            .map(|e| e["delta"].as_str().unwrap())
            .collect()
    };
    assert_eq!(deltas("response.reasoning_text.delta"), thinking);
    assert_eq!(deltas("response.output_text.delta"), content);
    let last = events.last().unwrap();
    assert_eq!(
        without_ids(&last["response"]["output"]),
        without_ids(&whole["output"])
    );
    assert_eq!(last["response"]["usage"], whole["usage"]);
    common::wait_idle(&servers.engine);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reasoning_effort_none_turns_thinking_off() {
    let servers = servers();
    let off = json!({"chat_template_kwargs": {"enable_thinking": false}});
    let (status, chat) = post_json(servers.http, "/v1/chat/completions", ask(ANSWER, off)).await;
    assert_eq!(status, 200, "{chat}");
    let request = json!({
        "input": "What is the capital of France?", "regex": ANSWER, "temperature": 0,
        "max_output_tokens": 60, "reasoning": {"effort": "none"},
    });
    let (status, whole) = post_json(servers.http, "/v1/responses", request).await;
    assert_eq!(status, 200, "{whole}");
    assert_eq!(whole["output"].as_array().unwrap().len(), 1, "{whole}");
    assert_eq!(whole["output"][0]["type"], "message");
    assert_eq!(
        whole["output"][0]["content"][0]["text"],
        chat["choices"][0]["message"]["content"]
    );
    assert_eq!(
        whole["usage"]["output_tokens_details"]["reasoning_tokens"],
        0
    );
    common::wait_idle(&servers.engine);
}

/// `</think>` pushed by `logit_bias` ends the thinking at once: its tokens are the
/// reasoning tokens, and the message's logprobs are those of the JSON answer after them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_text_logprobs_leave_the_thinking_out() {
    let servers = servers();
    let bias = think_end_bias();
    let schema =
        json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
    let request = json!({
        "input": "Pick a number.", "temperature": 0, "max_output_tokens": 40,
        "logit_bias": bias, "include": ["message.output_text.logprobs"], "top_logprobs": 1,
        "text": {"format": {"type": "json_schema", "name": "n", "schema": schema}},
    });
    let (status, whole) = post_json(servers.http, "/v1/responses", request.clone()).await;
    assert_eq!(status, 200, "{whole}");
    let usage = &whole["usage"];
    let thinking = usage["output_tokens_details"]["reasoning_tokens"]
        .as_u64()
        .unwrap();
    assert!(thinking > 0, "{whole}");
    let output = whole["output"].as_array().unwrap();
    assert_eq!(output.len(), 1, "an empty thinking makes no item: {whole}");
    let part = &output[0]["content"][0];
    let answer: Value = serde_json::from_str(part["text"].as_str().unwrap()).unwrap();
    assert!(answer["n"].is_i64(), "{whole}");
    let logprobs = part["logprobs"].as_array().unwrap();
    let text_tokens = usage["output_tokens"].as_u64().unwrap() - thinking;
    assert_eq!(logprobs.len() as u64, text_tokens, "{whole}");
    let pieces: String = (logprobs.iter())
        .map(|l| l["token"].as_str().unwrap())
        .collect();
    assert_eq!(
        pieces.trim_start(),
        part["text"].as_str().unwrap(),
        "{whole}"
    );

    let events = events(request).await;
    let last = events.last().unwrap();
    assert_eq!(
        without_ids(&last["response"]["output"]),
        without_ids(&whole["output"])
    );
    common::wait_idle(&servers.engine);
}
