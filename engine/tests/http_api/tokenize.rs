//! `/tokenize` and `/detokenize`: the served model's own tokenizer and chat template, as the
//! generation endpoints use them.

use super::*;

#[tokio::test]
async fn tokenize_gives_the_ids_the_endpoints_use() {
    let _turn = SERIAL.lock().await;
    let engine = &server().engine;
    let tokenizer = engine.tokenizer();
    let text = "<|im_start|>user\nHello, world!<|im_end|>";
    let ids = tokenizer.encode(text, true).unwrap();
    let (status, body) = post_json("/tokenize", json!({"model": "x", "prompt": text})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["tokens"], json!(ids));
    assert_eq!(body["count"], ids.len());
    assert_eq!(body["max_model_len"], engine.max_context_len());
    // llama.cpp's field names, a batch, and each token's vocabulary string.
    let (status, body) = post_json(
        "/v1/tokenize",
        json!({"content": [text, "Hi"], "add_special": true, "return_token_strs": true}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let hi = tokenizer.encode("Hi", true).unwrap();
    assert_eq!(body["tokens"], json!([ids, hi]));
    assert_eq!(body["count"], json!([ids.len(), hi.len()]));
    let strs: Vec<&str> = ids
        .iter()
        .map(|&i| tokenizer.token_text(i).unwrap())
        .collect();
    assert_eq!(body["token_strs"][0], json!(strs));
    // Chat turns: the prompt chat completions computes, generation prompt included.
    let messages = json!([{"role": "user", "content": "Name a colour."}]);
    let (status, body) = post_json("/tokenize", json!({"messages": messages})).await;
    assert_eq!(status, 200, "{body}");
    let (status, chat) = post_json(
        "/v1/chat/completions",
        json!({"messages": messages, "max_tokens": 1, "temperature": 0}),
    )
    .await;
    assert_eq!(status, 200, "{chat}");
    assert_eq!(
        body["count"], chat["usage"]["prompt_tokens"],
        "{body} {chat}"
    );
    let generation_prompt = tokenizer
        .encode_without_bos_eos("<|im_start|>assistant\n", true)
        .unwrap();
    let chat_ids: Vec<u32> = serde_json::from_value(body["tokens"].clone()).unwrap();
    assert!(chat_ids.ends_with(&generation_prompt), "{body}");
    let user_turn = tokenizer
        .encode_without_bos_eos("<|im_start|>user\nName a colour.<|im_end|>\n", true)
        .unwrap();
    assert!(
        chat_ids.windows(user_turn.len()).any(|w| w == user_turn),
        "{body}"
    );
    // Longer than the context: counted all the same.
    let long = "word ".repeat(2 * engine.max_context_len());
    let (status, body) = post_json("/tokenize", json!({"prompt": long})).await;
    assert_eq!(status, 200, "{body}");
    assert!(body["count"].as_u64().unwrap() > engine.max_context_len() as u64);
    // Back to the text, control tokens shown unless asked otherwise.
    let (status, body) = post_json("/detokenize", json!({"tokens": ids})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["text"], text);
    assert_eq!(body["prompt"], text);
    assert_eq!(body["content"], text);
    let (status, body) = post_json(
        "/v1/detokenize",
        json!({"tokens": [ids, hi], "skip_special_tokens": true}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["text"], json!(["user\nHello, world!", "Hi"]));
    common::wait_idle(engine);
}

#[tokio::test]
async fn bad_tokenize_requests_are_refused_by_name() {
    let vocab = server().engine.model_info().vocab_size;
    for (path, body, param) in [
        ("/tokenize", json!({}), Some("prompt")),
        (
            "/tokenize",
            json!({"prompt": "a", "messages": [{"role": "user", "content": "b"}]}),
            Some("messages"),
        ),
        ("/tokenize", json!({"prompt": []}), Some("prompt")),
        ("/tokenize", json!({"messages": []}), Some("messages")),
        (
            "/tokenize",
            json!({"messages": [{"role": "user", "content": "b"}], "tools": []}),
            Some("tools"),
        ),
        (
            "/tokenize",
            json!({"messages": [{"role": "user", "content": "b"}],
                   "add_generation_prompt": false}),
            Some("add_generation_prompt"),
        ),
        ("/tokenize", json!({"prompt": 5}), None),
        ("/detokenize", json!({"tokens": [1, vocab]}), Some("tokens")),
        ("/detokenize", json!({"tokens": "abc"}), None),
    ] {
        let (status, response) = post_json(path, body.clone()).await;
        assert_openai_error(status, &response, 400, param);
    }
}
