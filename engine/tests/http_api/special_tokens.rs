//! `skip_special_tokens: false`: control tokens' text kept in the output text.

use super::*;

/// `skip_special_tokens: false` keeps control tokens' text in the output text (by default
/// it is left out), streamed or not; the end of sequence that stops the output still writes
/// nothing.
#[tokio::test]
async fn special_tokens_are_kept_when_asked() {
    let tokenizer = server().engine.tokenizer();
    let start = tokenizer.token_id("<|im_start|>").unwrap();
    let eos = tokenizer.eos_token_id().unwrap();
    let forced = |token: u32, skip: bool, stream: bool| {
        json!({"prompt": "Hello", "max_tokens": 3, "temperature": 0, "stream": stream,
               "logit_bias": {token.to_string(): 100}, "skip_special_tokens": skip})
    };
    let three = "<|im_start|>".repeat(3);
    assert_eq!(
        one_choice("Hello", forced(start, false, false)).await,
        three
    );
    assert_eq!(one_choice("Hello", forced(start, true, false)).await, "");
    // Logprob offsets count the kept text.
    let mut with_logprobs = forced(start, false, false);
    with_logprobs["logprobs"] = json!(1);
    let (status, body) = post_json("/v1/completions", with_logprobs).await;
    assert_eq!(status, 200, "{body}");
    let step = "<|im_start|>".len();
    assert_eq!(
        body["choices"][0]["logprobs"]["text_offset"],
        json!([0, step, 2 * step]),
        "{body}"
    );
    let (status, body) = post("/v1/completions", &forced(start, false, true).to_string()).await;
    assert_eq!(status, 200, "{body}");
    let streamed: String = sse_data(&body)
        .iter()
        .filter(|d| d.as_str() != "[DONE]")
        .map(|d| {
            let chunk: Value = serde_json::from_str(d).unwrap();
            chunk["choices"][0]["text"]
                .as_str()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    assert_eq!(streamed, three);
    // The chat API keeps them too.
    let mut chat = forced(start, false, false);
    let fields = chat.as_object_mut().unwrap();
    fields.remove("prompt");
    fields.insert(
        "messages".into(),
        json!([{"role": "user", "content": "Hello"}]),
    );
    let (status, body) = post_json("/v1/chat/completions", chat).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["choices"][0]["message"]["content"], three, "{body}");
    let (status, body) = post_json("/v1/completions", forced(eos, false, false)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["choices"][0]["text"], "", "{body}");
    assert_eq!(body["choices"][0]["finish_reason"], "stop", "{body}");
}
