//! SGLang's `POST /v1/score`: each label's probability as the next token after query and
//! item, checked against the model's own last-position logits computed directly (no
//! server, no sampler, no prompt scoring); the text form, `item_first`, `apply_softmax`,
//! the prefix cache between pairs, and refusals.

use super::*;
use common::{load_model, Runner};

/// The model's log-probability of each of `labels` after `prompt`, from its logits.
fn direct_logprobs(prompt: &[u32], labels: &[u32]) -> Vec<f64> {
    let (model, _) = load_model();
    let mut runner = Runner::new(model, 1, 1024);
    let mut req = runner.admit_uncached();
    let logits = runner.extend(&mut [(&mut req, prompt)]).remove(0);
    runner.release(req);
    let max = logits.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v)) as f64;
    let log_total = (logits.iter().map(|&v| (v as f64 - max).exp()).sum::<f64>()).ln() + max;
    labels
        .iter()
        .map(|&l| logits[l as usize] as f64 - log_total)
        .collect()
}

fn scores_of(response: &Value) -> Vec<Vec<f64>> {
    serde_json::from_value(response["scores"].clone()).unwrap()
}

async fn score(body: Value) -> Value {
    let (status, response) = post_json("/v1/score", body).await;
    assert_eq!(status, 200, "{response}");
    response
}

#[tokio::test]
async fn scores_are_the_models_next_token_probabilities() {
    let _turn = SERIAL.lock().await;
    let engine = &server().engine;
    let tok = engine.tokenizer();
    let query = "Question: which city is the capital of France? Answer:";
    let items = [" The capital is", " It is the city of"];
    let labels: Vec<u32> = [" Paris", " London", " Berlin"]
        .iter()
        .map(|w| {
            let ids = tok.encode_without_bos_eos(w, true).unwrap();
            assert_eq!(ids.len(), 1, "{w:?} is one token");
            ids[0]
        })
        .collect();
    let query_ids = tok.encode(query, true).unwrap();
    let item_ids: Vec<Vec<u32>> = items
        .iter()
        .map(|i| tok.encode_without_bos_eos(i, true).unwrap())
        .collect();
    let expected: Vec<Vec<f64>> = {
        let (query_ids, item_ids, labels) = (query_ids.clone(), item_ids.clone(), labels.clone());
        tokio::task::spawn_blocking(move || {
            (item_ids.iter())
                .map(|item| direct_logprobs(&[query_ids.as_slice(), item].concat(), &labels))
                .collect()
        })
        .await
        .unwrap()
    };
    let by_ids = score(json!({
        "query": query_ids, "items": item_ids, "label_token_ids": labels,
    }))
    .await;
    assert_eq!(by_ids["object"], json!("scoring"));
    let got = scores_of(&by_ids);
    assert_eq!(got.len(), 2);
    for (item, (got, want)) in got.iter().zip(&expected).enumerate() {
        for (label, (p, lp)) in got.iter().zip(want).enumerate() {
            assert!(
                (p.ln() - lp).abs() < 1e-3,
                "item {item} label {label}: {p} vs exp({lp})"
            );
        }
        // The model knows the answer.
        assert!(got[0] > got[1] && got[0] > got[2], "{got:?}");
    }
    // Every pair after the first found the query cached; an item's later labels, the item.
    let usage = &by_ids["usage"];
    let prompt_tokens = usage["prompt_tokens"].as_u64().unwrap() as usize;
    let want_tokens: usize = item_ids
        .iter()
        .map(|i| 3 * (query_ids.len() + i.len() + 1))
        .sum();
    assert_eq!(prompt_tokens, want_tokens, "{usage}");
    let cached = usage["prompt_tokens_details"]["cached_tokens"]
        .as_u64()
        .unwrap() as usize;
    assert!(cached >= 5 * query_ids.len(), "{usage}");

    // With softmax: the same, as a distribution over the labels alone.
    let soft = scores_of(
        &score(json!({
            "query": query_ids, "items": item_ids, "label_token_ids": labels,
            "apply_softmax": true,
        }))
        .await,
    );
    assert_eq!(soft.len(), got.len());
    for (soft, plain) in soft.iter().zip(&got) {
        assert_eq!(soft.len(), labels.len());
        let total: f64 = plain.iter().sum();
        assert!((soft.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{soft:?}");
        for (s, p) in soft.iter().zip(plain) {
            assert!((s - p / total).abs() < 1e-6, "{soft:?} vs {plain:?}");
        }
    }

    // The text form scores what its tokens score; a single item may be a string.
    let by_text = scores_of(
        &score(json!({"query": query, "items": items[0], "label_token_ids": labels})).await,
    );
    let text_ids = tok.encode(&format!("{query}{}", items[0]), true).unwrap();
    let by_those_ids = scores_of(
        &score(json!({"query": text_ids, "items": [[]], "label_token_ids": labels})).await,
    );
    assert_eq!(by_text, by_those_ids);

    // `item_first`: the item's tokens, then the query's.
    let first = scores_of(
        &score(json!({
            "query": item_ids[1], "items": [query_ids], "label_token_ids": labels,
            "item_first": true,
        }))
        .await,
    );
    let (q, i, l) = (query_ids.clone(), item_ids[1].clone(), labels.clone());
    let want = tokio::task::spawn_blocking(move || direct_logprobs(&[q, i].concat(), &l))
        .await
        .unwrap();
    assert_eq!(first[0].len(), want.len());
    for (p, lp) in first[0].iter().zip(&want) {
        assert!((p.ln() - lp).abs() < 1e-3, "{first:?} vs {want:?}");
    }
    common::wait_idle(engine);
}

#[tokio::test]
async fn score_refuses_what_it_cannot_score() {
    let _turn = SERIAL.lock().await;
    let vocab = server().engine.model_info().vocab_size;
    for (body, status, param) in [
        (
            json!({"query": "a", "items": ["b"]}),
            400,
            Some("label_token_ids"),
        ),
        (
            json!({"query": "a", "items": ["b"], "label_token_ids": []}),
            400,
            Some("label_token_ids"),
        ),
        (
            json!({"items": ["b"], "label_token_ids": [1]}),
            400,
            Some("query"),
        ),
        (
            json!({"query": "a", "label_token_ids": [1]}),
            400,
            Some("items"),
        ),
        (
            json!({"query": "a", "items": [[1, 2]], "label_token_ids": [1]}),
            400,
            Some("items"),
        ),
        (
            json!({"query": [1, 2], "items": ["b"], "label_token_ids": [1]}),
            400,
            Some("items"),
        ),
        (
            json!({"query": "a", "items": [], "label_token_ids": [1]}),
            400,
            Some("items"),
        ),
        (
            json!({"query": [], "items": [[]], "label_token_ids": [1]}),
            400,
            Some("items"),
        ),
        (
            json!({"query": "a", "items": vec!["b"; 129], "label_token_ids": [1, 2]}),
            400,
            Some("items"),
        ),
        (
            json!({"query": "a", "items": ["b"], "label_token_ids": [vocab]}),
            400,
            Some("label_token_ids"),
        ),
        (
            json!({"query": "a", "items": ["b"], "label_token_ids": [1], "bogus": 1}),
            400,
            None,
        ),
    ] {
        let (got, response) = post_json("/v1/score", body.clone()).await;
        assert_openai_error(got, &response, status, param);
    }
    common::wait_idle(&server().engine);
}
