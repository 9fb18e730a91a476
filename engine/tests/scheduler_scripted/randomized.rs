//! The scheduler under a randomized load of generations, embeddings and prompt scores,
//! with aborts, deadlines and dropped readers, on roomy and tiny pools, every page size,
//! host and device sampling and both overlap modes: every output must equal the scripted
//! model's reference, and nothing may leak. A third of the requests run one of two LoRA
//! adapters on the same shared prefixes: K/V cached under one adapter and read under
//! another (or the base model) would change their output.

use super::*;

enum Plan {
    Complete,
    DropAfter(usize),
    AbortById,
    Deadline(u64),
}

struct Outcome {
    retractions: u64,
    completed: usize,
    aborted: usize,
    /// Of the completed, embeddings.
    embedded: usize,
    /// Of the completed, those that had their prompt scored.
    scored: usize,
    /// Of the completed, those that ran an adapter.
    adapted: usize,
}

fn run_workload(engine: &EngineHandle, seed: u64, requests: usize) -> Outcome {
    let mut rng = Rng(seed);
    let bases: Vec<Vec<u32>> = (0..4)
        .map(|_| (0..48).map(|_| 100 + rng.below(900) as u32).collect())
        .collect();
    let (mut completed, mut aborted, mut embedded, mut scored, mut adapted) = (0, 0, 0, 0, 0);
    let vocab = engine.model_info().vocab_size;
    let mut submitted = 0;
    while submitted < requests {
        // A wave of concurrent requests; their streams buffer while we read them in turn.
        let wave = 1 + rng.below(12) as usize;
        let mut streams = Vec::new();
        for _ in 0..wave {
            let base = &bases[rng.below(4) as usize];
            let mut prompt = base[..rng.below(48) as usize].to_vec();
            prompt.extend((0..1 + rng.below(16)).map(|_| 100 + rng.below(900) as u32));
            let max_new = 1 + rng.below(24) as u32;
            let plan = match rng.below(10) {
                0 => Plan::DropAfter(rng.below(4) as usize),
                1 => Plan::AbortById,
                2 => Plan::Deadline(rng.below(3)),
                _ => Plan::Complete,
            };
            // Some are embeddings: the prompt's hidden state, nothing generated.
            let embeds = rng.below(8) == 0;
            // Some score their prompt from a random position (and a third of those
            // generate nothing).
            let scores = (!embeds && rng.below(6) == 0)
                .then(|| (rng.below(prompt.len() as u64) as u32, rng.below(4) as u32));
            let max_new = match scores {
                Some(_) if rng.below(3) == 0 => 0,
                _ => max_new,
            };
            let adapter = match rng.below(6) {
                0 => Some(0),
                1 => Some(1),
                _ => None,
            };
            let mut req = if embeds {
                GenerateRequest::embedding(prompt.clone())
            } else {
                GenerateRequest::new(prompt.clone(), SamplingParams::greedy(max_new))
            };
            if let Some((from, top)) = scores {
                req.prompt_logprobs_from = Some(from);
                req.params.logprobs = Some(top);
            }
            req.params.ignore_eos = true;
            req.namespace.adapter = adapter;
            if let Plan::Deadline(ms) = plan {
                req.deadline = Some(Instant::now() + Duration::from_millis(ms));
            }
            let stream = engine.submit(req).unwrap();
            if let Plan::AbortById = plan {
                engine.abort(&stream.rid);
            }
            let max_new = if embeds { 0 } else { max_new };
            streams.push((prompt, max_new, plan, scores, adapter, stream));
            submitted += 1;
        }
        for (prompt, max_new, plan, scores, adapter, mut stream) in streams {
            let mut tokens = Vec::new();
            let mut prompt_scores = Vec::new();
            let mut events = 0;
            let finish = loop {
                if let Plan::DropAfter(n) = plan {
                    if events >= n {
                        break None;
                    }
                }
                match stream.blocking_next() {
                    Some(GenerateEvent::Chunk {
                        token_ids,
                        prompt_logprobs,
                        ..
                    }) => {
                        let first = events == 0;
                        assert!(first || prompt_logprobs.is_empty(), "only the first chunk");
                        tokens.extend(token_ids);
                        prompt_scores.extend(prompt_logprobs);
                    }
                    Some(GenerateEvent::Finished(c)) => break Some(c),
                    Some(GenerateEvent::Error(e)) => panic!("engine error: {e}"),
                    None => panic!("stream ended without a final event"),
                }
                events += 1;
            };
            let finished = finish
                .as_ref()
                .is_some_and(|c| c.finish_reason == FinishReason::Length);
            // An aborted request may have had them already, whole.
            let received = finished || !prompt_scores.is_empty();
            if let (Some((from, top)), true) = (scores, received) {
                // Each prompt token from `from` (from 1: the first has nothing before it)
                // scored under the prompt before it.
                let from = (from as usize).max(1);
                assert_eq!(prompt_scores.len(), prompt.len() - from, "one per position");
                for (p, got) in (from..).zip(&prompt_scores) {
                    let want = ScriptedModel::reference_score_for(
                        &prompt[..p],
                        adapter,
                        prompt[p],
                        top as usize,
                        vocab,
                    );
                    assert_eq!(got.token_id, want.token, "position {p}");
                    assert!(
                        (got.logprob - want.logprob).abs() < 1e-4,
                        "position {p}: {got:?} {want:?}"
                    );
                    let ids = |top: &[(u32, f32)]| -> Vec<u32> {
                        top.iter().map(|&(id, _)| id).collect()
                    };
                    assert_eq!(ids(&got.top), ids(&want.top), "position {p}");
                }
                scored += usize::from(finished);
            } else {
                assert!(prompt_scores.is_empty(), "scores only for who asked, whole");
            }
            let want = reference_for(&prompt, max_new as usize, adapter);
            assert_eq!(
                tokens,
                want[..tokens.len()],
                "tokens must follow the reference"
            );
            match finish {
                Some(c)
                    if c.finish_reason == FinishReason::Length
                        && scores.is_some()
                        && max_new == 0 =>
                {
                    assert!(tokens.is_empty(), "a scoring request generates nothing");
                    assert_eq!(c.embedding, None);
                    assert_eq!(c.usage.completion_tokens, 0);
                    completed += 1;
                }
                Some(c) if c.finish_reason == FinishReason::Length && max_new == 0 => {
                    assert!(tokens.is_empty(), "an embedding generates nothing");
                    let hidden = ScriptedModel::reference_hidden_for(&prompt, adapter);
                    assert_eq!(c.embedding.as_deref(), Some(&hidden[..]));
                    assert_eq!(c.usage.completion_tokens, 0);
                    assert_eq!(c.usage.prompt_tokens as usize, prompt.len());
                    assert!(c.usage.cached_tokens < c.usage.prompt_tokens);
                    completed += 1;
                    embedded += 1;
                    adapted += usize::from(adapter.is_some());
                }
                Some(c) if c.finish_reason == FinishReason::Length => {
                    assert_eq!(c.embedding, None);
                    assert_eq!(tokens, want, "a completed request has all its tokens");
                    assert_eq!(c.usage.completion_tokens, max_new);
                    assert_eq!(c.usage.prompt_tokens as usize, prompt.len());
                    assert!(c.usage.cached_tokens < c.usage.prompt_tokens);
                    completed += 1;
                    adapted += usize::from(adapter.is_some());
                }
                Some(c) => {
                    assert_eq!(c.finish_reason, FinishReason::Abort);
                    assert!(
                        !matches!(plan, Plan::Complete),
                        "only planned aborts happen"
                    );
                    aborted += 1;
                }
                None => aborted += 1,
            }
        }
    }
    assert_idle_without_leak(engine);
    Outcome {
        retractions: engine.server_info().retractions,
        completed,
        aborted,
        embedded,
        scored,
        adapted,
    }
}

#[test]
fn randomized_load_on_roomy_and_tiny_pools() {
    // The last cases sample on the "device" (the sampling kernel's twin), as the GPU does,
    // and with overlap scheduling (decodes launched on tokens not yet collected).
    for (page, kv_tokens, policy, sampling) in [
        (1, 4096, Policy::Lpm, Sampling::Host),
        (1, 160, Policy::Fcfs, Sampling::Host),
        (4, 192, Policy::DfsWeight, Sampling::Host),
        (16, 256, Policy::Lpm, Sampling::Host),
        (4, 160, Policy::Fcfs, Sampling::Device),
        (1, 4096, Policy::Lpm, Sampling::Overlap),
        (1, 160, Policy::Fcfs, Sampling::Overlap),
        (16, 256, Policy::DfsWeight, Sampling::Overlap),
        (1, 160, Policy::Lpm, Sampling::OverlapPending),
    ] {
        let engine = start_sampling(page, kv_tokens, 8, 16, policy, sampling);
        let begun = Instant::now();
        let outcome = run_workload(&engine, 7 + page as u64 + kv_tokens as u64, 600);
        eprintln!(
            "page {page}, {kv_tokens} slots, {policy:?}, {sampling:?}: {} completed ({} embeddings, {} scored, {} adapted), {} aborted, {} retractions in {:?}",
            outcome.completed,
            outcome.embedded,
            outcome.scored,
            outcome.adapted,
            outcome.aborted,
            outcome.retractions,
            begun.elapsed()
        );
        assert!(
            outcome.completed > 300,
            "page {page}: {} completed",
            outcome.completed
        );
        assert!(outcome.aborted > 0);
        assert!(outcome.embedded > 30, "{} embeddings", outcome.embedded);
        assert!(outcome.scored > 30, "{} scored", outcome.scored);
        assert!(outcome.adapted > 60, "{} adapted", outcome.adapted);
        if kv_tokens < 1000 {
            assert!(
                outcome.retractions > 0,
                "page {page}, {kv_tokens} slots: no retraction"
            );
        }
        let info = engine.server_info();
        assert!(
            info.cache_hit_tokens > 0,
            "shared prefixes must hit: {info:?}"
        );
        if matches!(sampling, Sampling::Overlap | Sampling::OverlapPending) {
            assert!(info.overlapped_decodes > 1000, "{info:?}");
        } else {
            assert_eq!(info.overlapped_decodes, 0);
        }
        engine.shutdown(Duration::from_secs(1));
    }
}
