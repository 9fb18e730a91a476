//! `POST /v1/completions` with `echo`: the prompt's text first, and with `logprobs` each
//! prompt token scored under the tokens before it (what evaluation harnesses ask to score a
//! continuation). Checked against llama.cpp's probabilities, against the engine's own
//! sampling logprobs, and the same streamed, batched, cached or not.

use super::*;

/// The `(logprobs, top ids)` of a completion choice's tokens: `None` where a token has
/// no logprob (an echoed prompt's first).
type Scored = Vec<Option<(f32, Vec<String>)>>;

fn scored(choice: &Value) -> (Vec<String>, Scored, Vec<u64>) {
    let lp = &choice["logprobs"];
    let tokens = lp["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    let values = lp["token_logprobs"]
        .as_array()
        .unwrap()
        .iter()
        .zip(lp["top_logprobs"].as_array().unwrap())
        .map(|(v, top)| {
            let v = v.as_f64()? as f32;
            let mut top: Vec<(String, f64)> = top
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, p)| (k.clone(), p.as_f64().unwrap()))
                .collect();
            top.sort_by(|a, b| b.1.total_cmp(&a.1));
            Some((v, top.into_iter().map(|(k, _)| k).collect()))
        })
        .collect();
    let offsets = lp["text_offset"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_u64().unwrap())
        .collect();
    (tokens, values, offsets)
}

async fn complete(body: Value) -> Value {
    let (status, response) = post_json("/v1/completions", body).await;
    assert_eq!(status, 200, "{response}");
    response
}

/// Teacher-forced over llama.cpp's greedy continuation of each fixture prompt: the
/// engine's probability of each of llama.cpp's tokens, scored in the prompt, is
/// llama.cpp's within 0.15 at every step (no near-tie ends the comparison: both score the
/// same tokens), and within 0.03 on average. llama.cpp's 8-bit activation rounding moves
/// probabilities by up to ~0.05 (see `common::llama_reference`); over the fixture's 320
/// steps the largest difference measured was 0.093, the mean 0.013.
#[tokio::test]
async fn echoed_prompt_logprobs_agree_with_llama_cpp() {
    let _turn = SERIAL.lock().await;
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/smollm2_reference.json"
    );
    let fixture = common::llama_reference::read_fixture(path);
    let ids = |v: &Value| -> Vec<u64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect()
    };
    let (mut worst, mut total, mut steps) = (0f64, 0f64, 0usize);
    for p in fixture["prompts"].as_array().unwrap() {
        let prompt = ids(&p["token_ids"]);
        let greedy = ids(&p["greedy_ids"]);
        let tokens: Vec<u64> = prompt.iter().chain(&greedy).copied().collect();
        let response = complete(json!({
            "prompt": tokens, "max_tokens": 0, "echo": true, "logprobs": 5
        }))
        .await;
        let choice = &response["choices"][0];
        assert_eq!(choice["finish_reason"], "length", "{response}");
        assert_eq!(response["usage"]["completion_tokens"], 0);
        assert_eq!(response["usage"]["prompt_tokens"], tokens.len());
        let (_, values, _) = scored(choice);
        assert_eq!(values.len(), tokens.len());
        assert!(values[0].is_none(), "the first token has nothing before it");
        for (step, candidates) in p["top_candidates"].as_array().unwrap().iter().enumerate() {
            let (logprob, _) = values[prompt.len() + step].clone().unwrap();
            let theirs = candidates[0][1].as_f64().unwrap();
            assert_eq!(candidates[0][0].as_u64().unwrap(), greedy[step]);
            let diff = (f64::from(logprob).exp() - theirs).abs();
            worst = worst.max(diff);
            (total, steps) = (total + diff, steps + 1);
            assert!(
                diff < 0.15,
                "{:?} step {step}: p {} against llama.cpp's {theirs}",
                p["prompt"],
                f64::from(logprob).exp()
            );
        }
    }
    let mean = total / steps as f64;
    eprintln!("probability difference from llama.cpp: mean {mean:.4}, largest {worst:.4}");
    assert!(mean < 0.03, "mean difference {mean}");
    common::wait_idle(&server().engine);
}

/// A greedy generation's logprobs are what its tokens score when echoed back as a
/// prompt: decode steps and a prefill compute the same distributions. The prompt is
/// longer than one step scores, so its scores come over several steps.
#[tokio::test]
async fn generated_tokens_score_their_sampling_logprobs_when_echoed() {
    let _turn = SERIAL.lock().await;
    let prompt = format!(
        "{}The three primary colors are",
        "Colors mix in many ways on a painter's palette. ".repeat(60)
    );
    let prompt = prompt.as_str();
    let generated = complete(json!({
        "prompt": prompt, "max_tokens": 12, "temperature": 0, "logprobs": 3
    }))
    .await;
    let choice = &generated["choices"][0];
    let text = choice["text"].as_str().unwrap();
    let (tokens, values, _) = scored(choice);
    let prompt_tokens = generated["usage"]["prompt_tokens"].as_u64().unwrap() as usize;
    assert!(
        prompt_tokens > 600,
        "{prompt_tokens} tokens: more than a step scores"
    );

    // The prompt and its continuation, as text: the same tokens again.
    let echoed = complete(json!({
        "prompt": format!("{prompt}{text}"), "max_tokens": 0, "echo": true, "logprobs": 3
    }))
    .await;
    let echo_choice = &echoed["choices"][0];
    assert_eq!(echo_choice["text"], format!("{prompt}{text}"));
    let (echo_tokens, echo_values, offsets) = scored(echo_choice);
    assert_eq!(echo_tokens.len(), prompt_tokens + tokens.len());
    assert_eq!(echo_tokens[prompt_tokens..], tokens[..]);
    for (i, (want, got)) in values.iter().zip(&echo_values[prompt_tokens..]).enumerate() {
        let (want, got) = (want.clone().unwrap(), got.clone().unwrap());
        assert!(
            (want.0 - got.0).abs() < 1e-3,
            "token {i}: sampled with {} scored {}",
            want.0,
            got.0
        );
        assert_eq!(want.1, got.1, "token {i}: top candidates");
    }
    // Offsets count the characters of the echoed text before each token.
    let whole = format!("{prompt}{text}");
    let mut at = 0;
    for (token, &offset) in echo_tokens.iter().zip(&offsets) {
        assert_eq!(offset as usize, at, "{echo_tokens:?} {offsets:?}");
        at += token.chars().count();
    }
    assert_eq!(at, whole.chars().count());
    common::wait_idle(&server().engine);
}

/// The same scores streamed or not, alone or batched (a long prompt in chunks beside
/// other prompts), its prefix cached or not; each choice echoes its own prompt first.
#[tokio::test]
async fn echo_is_the_same_streamed_batched_and_cached() {
    let _turn = SERIAL.lock().await;
    let long = "Rivers carry water from the mountains to the sea, and along the way ".repeat(8);
    let short = "Rivers carry water";
    let body = |prompt: Value, stream: bool| {
        json!({
            "prompt": prompt, "max_tokens": 4, "temperature": 0, "echo": true,
            "logprobs": 2, "stream": stream
        })
    };
    let alone = complete(body(json!(long), false)).await;
    let alone_choice = &alone["choices"][0];
    let text = alone_choice["text"].as_str().unwrap();
    assert!(text.starts_with(&long), "{text:?}");
    let alone_scores = scored(alone_choice);
    assert!(alone_scores.1[0].is_none() && alone_scores.1[1..].iter().all(Option::is_some));

    // Again, now that its prefix is cached, batched with a shorter prompt.
    let batched = complete(body(json!([short, long]), false)).await;
    let choices = batched["choices"].as_array().unwrap();
    assert!(choices[0]["text"].as_str().unwrap().starts_with(short));
    assert_eq!(choices[1]["text"], alone_choice["text"]);
    assert_eq!(scored(&choices[1]), alone_scores, "cached and batched");

    // Streamed: the chunks put back together are the same choice.
    let (status, sse) = post("/v1/completions", &body(json!(long), true).to_string()).await;
    assert_eq!(status, 200, "{sse}");
    let events = sse_data(&sse);
    let (mut streamed_text, mut streamed) = (String::new(), Vec::new());
    for data in events.iter().filter(|d| *d != "[DONE]") {
        let chunk: Value = serde_json::from_str(data).unwrap();
        let choice = &chunk["choices"][0];
        streamed_text.push_str(choice["text"].as_str().unwrap_or(""));
        if !choice["logprobs"].is_null() {
            streamed.push(scored(choice));
        }
    }
    assert_eq!(streamed_text, text);
    let first = &streamed[0];
    assert!(
        first.0.len() > 100,
        "the echo comes whole in the first chunk"
    );
    let merged = streamed
        .into_iter()
        .fold((vec![], vec![], vec![]), |mut acc, s| {
            acc.0.extend(s.0);
            acc.1.extend(s.1);
            acc.2.extend(s.2);
            acc
        });
    assert_eq!(merged, alone_scores, "streamed");
    common::wait_idle(&server().engine);
}

/// Echo without logprobs gives the prompt's text before the completion; `max_tokens: 0`
/// is the prompt alone, and is refused without `echo` (nothing to return).
#[tokio::test]
async fn echo_prepends_the_prompt_and_max_tokens_zero_needs_it() {
    let _turn = SERIAL.lock().await;
    let prompt = "Once upon a time";
    let plain = complete(json!({"prompt": prompt, "max_tokens": 6, "temperature": 0})).await;
    let echoed = complete(json!({
        "prompt": prompt, "max_tokens": 6, "temperature": 0, "echo": true, "n": 2
    }))
    .await;
    let want = format!("{prompt}{}", plain["choices"][0]["text"].as_str().unwrap());
    for choice in echoed["choices"].as_array().unwrap() {
        assert_eq!(choice["text"], want);
        assert!(choice["logprobs"].is_null());
    }
    // Three samples: the first scores the prompt, the others get its scores.
    let sampled = complete(json!({
        "prompt": prompt, "max_tokens": 3, "temperature": 1, "seed": 5, "echo": true,
        "logprobs": 1, "n": 3
    }))
    .await;
    let choices = sampled["choices"].as_array().unwrap();
    let prompt_part = |c: &Value| {
        let (tokens, values, _) = scored(c);
        let n = tokens.len() - 3;
        (tokens[..n].to_vec(), values[..n].to_vec())
    };
    let first = prompt_part(&choices[0]);
    assert!(first.1[1..].iter().all(Option::is_some), "{first:?}");
    for c in &choices[1..] {
        assert_eq!(
            prompt_part(c),
            first,
            "every sample echoes the same prompt scores"
        );
    }
    // Too many entries at once: refused before anything runs.
    let long = "hello ".repeat(300);
    let (status, body) = post_json(
        "/v1/completions",
        json!({"prompt": vec![long; 64], "max_tokens": 0, "echo": true, "logprobs": 20}),
    )
    .await;
    assert_openai_error(status, &body, 400, Some("logprobs"));
    let only = complete(json!({"prompt": prompt, "max_tokens": 0, "echo": true})).await;
    assert_eq!(only["choices"][0]["text"], prompt);
    assert_eq!(only["usage"]["completion_tokens"], 0);
    let (status, body) = post_json(
        "/v1/completions",
        json!({"prompt": prompt, "max_tokens": 0}),
    )
    .await;
    assert_openai_error(status, &body, 400, Some("max_tokens"));
    common::wait_idle(&server().engine);
}
