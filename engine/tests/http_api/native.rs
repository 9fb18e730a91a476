//! SGLang's native `POST /generate`: the engine's greedy text, SGLang's answer shape
//! (`text`, `output_ids`, `meta_info` with its finish reason objects), batches and samples,
//! logprob triples of the output and of the prompt (the same as the OpenAI door's echo),
//! cumulative streaming, and every bad field refused by name.

use super::*;

async fn native(body: Value) -> Value {
    let (status, response) = post_json("/generate", body).await;
    assert_eq!(status, 200, "{response}");
    response
}

fn ids_of(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

#[tokio::test]
async fn generate_answers_the_engines_text_in_sglangs_shape() {
    let _turn = SERIAL.lock().await;
    let prompt = "The capital of France is";
    let want = engine_text(prompt, 8).await;
    let one = native(json!({
        "text": prompt, "rid": "mine-1",
        "sampling_params": {"temperature": 0, "max_new_tokens": 8, "ignore_eos": true}
    }))
    .await;
    assert_eq!(one["text"], want, "{one}");
    assert_eq!(one["output_ids"].as_array().unwrap().len(), 8);
    let meta = &one["meta_info"];
    assert_eq!(meta["id"], "mine-1");
    assert_eq!(
        meta["finish_reason"],
        json!({"type": "length", "length": 8})
    );
    assert_eq!(meta["completion_tokens"], 8);
    let ids = server().engine.tokenizer().encode(prompt, true).unwrap();
    assert_eq!(meta["prompt_tokens"], ids.len());
    assert!(meta["e2e_latency"].as_f64().unwrap() > 0.0);
    assert!(meta.get("input_token_logprobs").is_none(), "not asked for");

    // A batch of token ids with two samples each: a list, choice i sample i % 2 of prompt
    // i / 2, each the engine's greedy output.
    let other = "Water boils at";
    let other_ids = server().engine.tokenizer().encode(other, true).unwrap();
    let batch = native(json!({
        "input_ids": [ids, other_ids],
        "sampling_params": {"temperature": 0, "max_new_tokens": 8, "ignore_eos": true, "n": 2}
    }))
    .await;
    let choices = batch.as_array().unwrap();
    assert_eq!(choices.len(), 4, "{batch}");
    let other_want = engine_text(other, 8).await;
    for (i, choice) in choices.iter().enumerate() {
        assert_eq!(choice["index"], i);
        let expected = if i < 2 { &want } else { &other_want };
        assert_eq!(&choice["text"], expected, "choice {i}");
    }

    // A stop string, and a request that computes its prompt alone.
    let stopped = native(json!({
        "text": prompt,
        "sampling_params": {"temperature": 0, "max_new_tokens": 8, "stop": [want[3..6].to_string()]}
    }))
    .await;
    assert_eq!(
        stopped["meta_info"]["finish_reason"],
        json!({"type": "stop", "matched": want[3..6]}),
        "{stopped}"
    );
    let nothing = native(json!({"text": prompt, "sampling_params": {"max_new_tokens": 0}})).await;
    assert_eq!(nothing["text"], "");
    assert_eq!(nothing["output_ids"], json!([]));
    assert_eq!(nothing["meta_info"]["finish_reason"]["type"], "length");
    common::wait_idle(&server().engine);
}

/// Input logprobs are the prompt scores the OpenAI door echoes, as triples aligned with
/// the prompt from `logprob_start_len` (the first null); the default start gives the last
/// prompt token alone; output triples carry the sampled ids and their alternatives.
#[tokio::test]
async fn generate_logprobs_are_sglangs_triples_of_the_engines_scores() {
    let _turn = SERIAL.lock().await;
    let prompt = "Rivers carry water from the mountains to the sea";
    let ids: Vec<u64> = server()
        .engine
        .tokenizer()
        .encode(prompt, true)
        .unwrap()
        .into_iter()
        .map(u64::from)
        .collect();
    let echoed = {
        let (status, body) = post_json(
            "/v1/completions",
            json!({"prompt": prompt, "max_tokens": 0, "echo": true, "logprobs": 2}),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        body["choices"][0]["logprobs"]["token_logprobs"].clone()
    };
    let start = 3;
    let answer = native(json!({
        "text": prompt, "return_logprob": true, "logprob_start_len": start,
        "top_logprobs_num": 2, "return_text_in_logprobs": true,
        "sampling_params": {"temperature": 0, "max_new_tokens": 4, "ignore_eos": true}
    }))
    .await;
    let meta = &answer["meta_info"];
    let input = meta["input_token_logprobs"].as_array().unwrap();
    assert_eq!(input.len(), ids.len() - start, "{meta}");
    assert!(input[0][0].is_null(), "the first is null: {}", input[0]);
    assert!(meta["input_top_logprobs"][0].is_null());
    for (i, triple) in input.iter().enumerate() {
        let p = start + i;
        assert_eq!(triple[1], ids[p], "position {p}");
        let text = server()
            .engine
            .tokenizer()
            .decode(&[ids[p] as u32], false)
            .unwrap();
        assert_eq!(triple[2], text, "position {p}");
        if i > 0 {
            let want = echoed[p].as_f64().unwrap();
            let got = triple[0].as_f64().unwrap();
            assert!(
                (got - want).abs() < 1e-5,
                "position {p}: {got} against echo's {want}"
            );
            assert_eq!(meta["input_top_logprobs"][i].as_array().unwrap().len(), 2);
        }
    }
    let output = meta["output_token_logprobs"].as_array().unwrap();
    let output_ids = ids_of(&answer["output_ids"]);
    assert_eq!(output.len(), 4);
    for (k, triple) in output.iter().enumerate() {
        assert_eq!(triple[1], output_ids[k]);
        let top = meta["output_top_logprobs"][k].as_array().unwrap();
        // Greedy: the sampled token is the most likely one.
        assert_eq!(top[0][1], output_ids[k]);
        assert!((top[0][0].as_f64().unwrap() - triple[0].as_f64().unwrap()).abs() < 1e-6);
    }

    // Again, its prefix up to the start now cached: the same scores.
    let again = native(json!({
        "text": prompt, "return_logprob": true, "logprob_start_len": start,
        "top_logprobs_num": 2, "return_text_in_logprobs": true,
        "sampling_params": {"temperature": 0, "max_new_tokens": 4, "ignore_eos": true}
    }))
    .await;
    assert!(
        again["meta_info"]["cached_tokens"].as_u64().unwrap() > 0,
        "{again}"
    );
    for key in [
        "input_token_logprobs",
        "input_top_logprobs",
        "output_token_logprobs",
    ] {
        assert_eq!(again["meta_info"][key], meta[key], "{key}");
    }

    // The default start: the last prompt token alone, null; no text unless asked for.
    let last = native(json!({
        "text": prompt, "return_logprob": true,
        "sampling_params": {"temperature": 0, "max_new_tokens": 2}
    }))
    .await;
    assert_eq!(
        last["meta_info"]["input_token_logprobs"],
        json!([[null, ids[ids.len() - 1], null]])
    );
    assert!(last["meta_info"].get("input_top_logprobs").is_none());
    common::wait_idle(&server().engine);
}

/// `token_ids_logprob`: every position reports the given tokens' logprobs, in their order,
/// the same values its top list gives them; the output and the other logprobs unchanged.
#[tokio::test]
async fn generate_reports_the_logprobs_of_given_tokens() {
    let _turn = SERIAL.lock().await;
    let prompt = "Rivers carry water from the mountains to the sea";
    let ids: Vec<u64> = (server().engine.tokenizer().encode(prompt, true).unwrap())
        .into_iter()
        .map(u64::from)
        .collect();
    let ask = |given: Option<Vec<u64>>| {
        let mut body = json!({
            "text": prompt, "return_logprob": true, "logprob_start_len": 0,
            "top_logprobs_num": 5,
            "sampling_params": {"temperature": 0, "max_new_tokens": 4, "ignore_eos": true}
        });
        if let Some(given) = given {
            body["token_ids_logprob"] = json!(given);
        }
        body
    };
    let base = native(ask(None)).await;
    let meta = &base["meta_info"];
    assert!(
        meta.get("output_token_ids_logprobs").is_none(),
        "not asked for"
    );
    let out_ids = ids_of(&base["output_ids"]);
    // The first output token, the fifth most likely there, and the prompt's second token.
    let fifth = meta["output_top_logprobs"][0][4][1].as_u64().unwrap();
    let given = vec![out_ids[0], fifth, ids[1]];
    let answer = native(ask(Some(given.clone()))).await;
    let mine = &answer["meta_info"];
    assert_eq!(answer["output_ids"], base["output_ids"]);
    for key in [
        "output_token_logprobs",
        "input_token_logprobs",
        "output_top_logprobs",
    ] {
        assert_eq!(mine[key], meta[key], "{key}");
    }
    let value = |v: &Value| v.as_f64().unwrap();
    for side in ["input", "output"] {
        let per = mine[format!("{side}_token_ids_logprobs")]
            .as_array()
            .unwrap();
        let tops = meta[format!("{side}_top_logprobs")].as_array().unwrap();
        assert_eq!(per.len(), tops.len(), "{side}");
        for (k, (at, top)) in per.iter().zip(tops).enumerate() {
            if side == "input" && k == 0 {
                assert!(at.is_null(), "nothing before the first prompt token");
                continue;
            }
            let at = at.as_array().unwrap();
            let named: Vec<u64> = at.iter().map(|t| t[1].as_u64().unwrap()).collect();
            assert_eq!(named, given, "{side} {k}");
            for t in at {
                let listed = top.as_array().unwrap().iter().find(|x| x[1] == t[1]);
                if let Some(listed) = listed {
                    assert!(
                        (value(&t[0]) - value(&listed[0])).abs() < 1e-5,
                        "{side} {k}"
                    );
                }
            }
        }
    }
    // Where a given token came, it scores as it did.
    let first_out = value(&mine["output_token_ids_logprobs"][0][0][0]);
    assert!((first_out - value(&mine["output_token_logprobs"][0][0])).abs() < 1e-6);
    let second_in = value(&mine["input_token_ids_logprobs"][1][2][0]);
    assert!((second_in - value(&mine["input_token_logprobs"][1][0])).abs() < 1e-5);
    let fifth_out = value(&mine["output_token_ids_logprobs"][0][1][0]);
    assert!((fifth_out - value(&meta["output_top_logprobs"][0][4][0])).abs() < 1e-6);
    // A token outside the vocabulary is refused by name, and so are more values than a
    // response returns at once.
    let vocab = server().engine.model_info().vocab_size as u64;
    let (status, body) = post_json("/generate", ask(Some(vec![vocab]))).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("token_ids_logprob"));
    let mut huge = ask(Some((0..256).collect()));
    huge["sampling_params"]["max_new_tokens"] = json!(2048);
    let (status, body) = post_json("/generate", huge).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["param"], "token_ids_logprob", "{body}");
    common::wait_idle(&server().engine);
}

/// Streamed, each chunk holds the choice so far (text a prefix of the next chunk's), the
/// last its finish reason, then `[DONE]`; the whole is the unstreamed answer.
#[tokio::test]
async fn generate_streams_the_choice_so_far() {
    let _turn = SERIAL.lock().await;
    let body = |stream: bool| {
        json!({
            "text": "Once upon a time", "stream": stream, "return_logprob": true,
            "logprob_start_len": 0,
            "sampling_params": {"temperature": 0, "max_new_tokens": 10, "ignore_eos": true}
        })
    };
    let whole = native(body(false)).await;
    let (status, sse) = post("/generate", &body(true).to_string()).await;
    assert_eq!(status, 200, "{sse}");
    let events = sse_data(&sse);
    assert_eq!(events.last().map(String::as_str), Some("[DONE]"));
    let chunks: Vec<Value> = events[..events.len() - 1]
        .iter()
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    assert!(chunks.len() >= 2, "{chunks:?}");
    for pair in chunks.windows(2) {
        let (a, b) = (
            pair[0]["text"].as_str().unwrap(),
            pair[1]["text"].as_str().unwrap(),
        );
        assert!(b.starts_with(a), "{a:?} then {b:?}");
        assert!(pair[0]["meta_info"]["finish_reason"].is_null());
    }
    // The prompt's logprobs come in the first chunk and the last, not in between.
    assert!(chunks[0]["meta_info"].get("input_token_logprobs").is_some());
    if chunks.len() > 2 {
        assert!(chunks[1]["meta_info"].get("input_token_logprobs").is_none());
    }
    let last = chunks.last().unwrap();
    assert_eq!(last["text"], whole["text"]);
    assert_eq!(last["output_ids"], whole["output_ids"]);
    for key in [
        "finish_reason",
        "input_token_logprobs",
        "output_token_logprobs",
    ] {
        assert_eq!(last["meta_info"][key], whole["meta_info"][key], "{key}");
    }
    common::wait_idle(&server().engine);
}

#[tokio::test]
async fn generate_refuses_bad_fields_by_name() {
    let _turn = SERIAL.lock().await;
    let sp = json!({"max_new_tokens": 4});
    let cases = [
        (
            json!({"text": "hi", "input_ids": [1, 2], "sampling_params": sp}),
            "input_ids",
        ),
        (json!({"sampling_params": sp}), "text"),
        (json!({"text": "hi", "image_data": "x.png"}), "image_data"),
        (json!({"text": "hi", "lora_path": "a"}), "lora_path"),
        (
            json!({"text": "hi", "return_hidden_states": true}),
            "return_hidden_states",
        ),
        (
            json!({"text": "hi", "sampling_params": {"max_new_tokens": 4, "frobnicate": 1}}),
            "frobnicate",
        ),
        (
            json!({"text": "hi", "sampling_params": {"no_stop_trim": true}}),
            "no_stop_trim",
        ),
        (
            json!({"text": "hi", "sampling_params": {"temperature": -1}}),
            "temperature",
        ),
        (
            json!({"text": ["a", "b"], "sampling_params": [{"n": 1}, {"n": 2}]}),
            "sampling_params",
        ),
        (
            json!({"text": "hi", "return_logprob": true, "logprob_start_len": 50}),
            "logprob_start_len",
        ),
        (
            json!({"text": "hi", "return_logprob": true, "top_logprobs_num": 21}),
            "top_logprobs_num",
        ),
        (json!({"text": ["a", "b"], "rid": "one"}), "rid"),
        (json!({"text": "hi", "rid": "r".repeat(300)}), "rid"),
        (json!({"input_ids": [99_999_999]}), "input_ids"),
        (json!({"input_ids": []}), "input_ids"),
        (
            json!({"text": vec!["hello ".repeat(300); 64], "return_logprob": true,
                   "logprob_start_len": 0, "top_logprobs_num": 20}),
            "top_logprobs_num",
        ),
    ];
    for (body, field) in cases {
        let (status, response) = post_json("/generate", body.clone()).await;
        assert_eq!(status, 400, "{body}: {response}");
        let message = response["error"]["message"].as_str().unwrap_or_default();
        let param = response["error"]["param"].as_str().unwrap_or_default();
        assert!(
            param == field || message.contains(field),
            "{body}: {response} does not name {field}"
        );
    }
    common::wait_idle(&server().engine);
}
