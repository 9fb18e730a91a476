//! SGLang's native endpoints beside `/generate`: `/model_info` and `/server_info` (and their
//! `/get_` names) describe what the engine reports, `/health_generate` answers once a token
//! came, `/flush_cache` drops the cached prefixes, and `/abort_request` ends a running
//! request by its `rid` or every request with `abort_all`.

use super::*;

async fn get_json(path: &str) -> Value {
    let (status, body) = get(&server().base, path).await;
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).unwrap()
}

#[tokio::test]
async fn model_and_server_info_describe_the_engine() {
    let _turn = SERIAL.lock().await;
    let engine = &server().engine;
    let model = get_json("/model_info").await;
    assert_eq!(model, get_json("/get_model_info").await);
    let info = engine.model_info();
    assert_eq!(model["model_path"], json!(info.path));
    assert_eq!(model["served_model_name"], json!(info.name));
    assert_eq!(model["is_generation"], json!(true));
    assert_eq!(model["context_length"], json!(engine.max_context_len()));
    assert_eq!(
        model["max_req_input_len"],
        json!(engine.max_prompt_tokens())
    );
    assert_eq!(model["architectures"], json!([info.architecture]));
    assert_eq!(model["lora_adapters"], json!([]));

    let server_info = get_json("/server_info").await;
    let snapshot = engine.server_info();
    assert_eq!(
        server_info["max_total_num_tokens"],
        json!(snapshot.kv_capacity_tokens)
    );
    assert_eq!(server_info["page_size"], json!(snapshot.page_size));
    // An open server's caller is its administrator: it sees the engine's activity.
    let states = server_info["internal_states"].as_array().unwrap();
    assert_eq!(states.len(), 1, "{server_info}");
    assert!(states[0]["finished_requests"].is_u64(), "{server_info}");
    assert_eq!(
        get_json("/get_server_info").await["max_total_num_tokens"],
        server_info["max_total_num_tokens"]
    );

    let (status, _) = get(&server().base, "/health_generate").await;
    assert_eq!(status, 200);
    common::wait_idle(engine);
}

#[tokio::test]
async fn flush_cache_drops_the_cached_prefixes() {
    let _turn = SERIAL.lock().await;
    let prompt = "A long shared introduction about rivers, mountains and the sea, told twice.";
    let body = json!({"text": prompt, "sampling_params": {"temperature": 0, "max_new_tokens": 2}});
    let cached = |v: &Value| v["meta_info"]["cached_tokens"].as_u64().unwrap();
    let (status, first) = post_json("/generate", body.clone()).await;
    assert_eq!(status, 200, "{first}");
    let (_, again) = post_json("/generate", body.clone()).await;
    assert!(cached(&again) > 0, "the prompt is cached: {again}");
    let (status, text) = post("/flush_cache", "").await;
    assert_eq!(status, 200, "{text}");
    assert!(text.starts_with("Cache flushed.\n"), "{text}");
    let dropped: u64 = (text.lines().nth(1).unwrap().split(' ').next().unwrap())
        .parse()
        .unwrap();
    assert!(dropped >= cached(&again), "{text}");
    let (_, after) = post_json("/generate", body).await;
    assert_eq!(cached(&after), 0, "{after}");
    // SGLang takes GET too.
    let (status, _) = get(&server().base, "/flush_cache").await;
    assert_eq!(status, 200);
    common::wait_idle(&server().engine);
}

/// Starts a `/generate` of `max_new_tokens` with id `rid`, returning its answer's task once
/// the engine runs it.
async fn running(rid: &str, running_before: usize) -> tokio::task::JoinHandle<(u16, Value)> {
    let body = json!({
        "text": "Count slowly:", "rid": rid,
        "sampling_params": {"temperature": 0, "max_new_tokens": 900, "ignore_eos": true}
    });
    let task = tokio::spawn(async move { post_json("/generate", body).await });
    let deadline = Instant::now() + Duration::from_secs(30);
    while server().engine.server_info().running_requests <= running_before {
        assert!(Instant::now() < deadline, "the request never ran");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    task
}

fn assert_aborted(answer: (u16, Value)) {
    let (status, body) = answer;
    assert_eq!(status, 200, "{body}");
    let meta = &body["meta_info"];
    assert_eq!(meta["finish_reason"]["type"], json!("abort"), "{body}");
    assert!(meta["completion_tokens"].as_u64().unwrap() < 900, "{body}");
}

#[tokio::test]
async fn abort_request_ends_a_request_by_rid_or_all_of_them() {
    let _turn = SERIAL.lock().await;
    let long = running("abort-me", 0).await;
    // Ids are unique while in flight: an abort by one would end both.
    let short = |rid: Value| {
        let text = match rid.as_array() {
            Some(batch) => json!(vec!["Hi"; batch.len()]),
            None => json!("Hi"),
        };
        json!({"text": text, "rid": rid, "sampling_params": {"max_new_tokens": 1}})
    };
    for rid in [json!("abort-me"), json!(["twice", "twice"])] {
        let (status, response) = post_json("/generate", short(rid)).await;
        assert_openai_error(status, &response, 400, Some("rid"));
    }
    // A refused call took no id.
    let (status, response) = post_json("/generate", short(json!("twice"))).await;
    assert_eq!(status, 200, "{response}");
    // An empty id names nothing: the engine names each such request itself.
    let (status, unnamed) = post_json("/generate", short(json!(["", ""]))).await;
    assert_eq!(status, 200, "{unnamed}");
    let ids: Vec<&str> = (unnamed.as_array().unwrap().iter())
        .map(|c| c["meta_info"]["id"].as_str().unwrap())
        .collect();
    assert!(
        ids[0] != ids[1] && ids.iter().all(|id| id.starts_with("req-")),
        "{unnamed}"
    );
    let (status, text) = post("/abort_request", r#"{"rid": "abort-me"}"#).await;
    assert_eq!((status, text.as_str()), (200, ""));
    assert_aborted(long.await.unwrap());
    // Free again once its call has ended.
    let (status, again) = post_json("/generate", short(json!("abort-me"))).await;
    assert_eq!(status, 200, "{again}");

    let one = running("all-1", 0).await;
    let two = running("all-2", 1).await;
    let (status, _) = post("/abort_request", r#"{"abort_all": true}"#).await;
    assert_eq!(status, 200);
    assert_aborted(one.await.unwrap());
    assert_aborted(two.await.unwrap());

    // Streamed, the aborted choice ends with its finish reason too, not an error.
    let body = json!({
        "text": "Count slowly:", "rid": "streamed", "stream": true,
        "sampling_params": {"temperature": 0, "max_new_tokens": 900, "ignore_eos": true}
    });
    let streamed = tokio::spawn(async move { post("/generate", &body.to_string()).await });
    let deadline = Instant::now() + Duration::from_secs(30);
    while server().engine.server_info().running_requests == 0 {
        assert!(Instant::now() < deadline, "the request never ran");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(
        post("/abort_request", r#"{"rid": "streamed"}"#).await.0,
        200
    );
    let (status, text) = streamed.await.unwrap();
    assert_eq!(status, 200);
    let payloads = sse_data(&text);
    let last = payloads.iter().rev().find(|p| *p != "[DONE]").unwrap();
    let last: Value = serde_json::from_str(last).unwrap();
    assert_aborted((200, last));

    for (body, param) in [
        (json!({}), Some("rid")),
        (json!({"rid": ""}), Some("rid")),
        (json!({"rid": 5}), None),
        (json!({"rid": "x", "bogus": 1}), None),
    ] {
        let (status, response) = post_json("/abort_request", body.clone()).await;
        assert_openai_error(status, &response, 400, param);
    }
    common::wait_idle(&server().engine);
}
