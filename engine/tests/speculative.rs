//! Exact n-gram speculative decoding: an engine that drafts from n-grams of the prompt and
//! output and verifies the drafts in one extend step gives, token for token, what an engine
//! without speculation gives: greedy and seeded, with penalties, alone and in small batches,
//! and when a later turn reuses the K/V cached by the first (rejected drafts' slots must be
//! given back, never cached). The drafts must actually be accepted on copy-heavy prompts,
//! or the comparison would prove nothing.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use engine::handle::{Completion, EngineConfig, EngineHandle, GenerateEvent, GenerateRequest};
use engine::sampling::SamplingParams;

fn engine(draft_tokens: usize) -> EngineHandle {
    engine_with_pages(draft_tokens, 1)
}

fn engine_with_pages(draft_tokens: usize, page_size: usize) -> EngineHandle {
    let mut config = EngineConfig::new(common::model_path());
    config.page_size = page_size;
    config.kv_budget_bytes = 96 << 20;
    config.max_context_len = 1024;
    config.scheduler.speculative_draft_tokens = draft_tokens;
    EngineHandle::start(config).unwrap()
}

/// Output ids of each request, submitted together (a batch) and read to the end.
fn run(engine: &EngineHandle, requests: &[(Vec<u32>, SamplingParams)]) -> Vec<Vec<u32>> {
    run_to_completion(engine, requests)
        .into_iter()
        .map(|(ids, _)| ids)
        .collect()
}

/// As [`run`], with each request's completion record.
fn run_to_completion(
    engine: &EngineHandle,
    requests: &[(Vec<u32>, SamplingParams)],
) -> Vec<(Vec<u32>, Completion)> {
    let mut streams: Vec<_> = requests
        .iter()
        .map(|(ids, params)| {
            engine
                .submit(GenerateRequest::new(ids.clone(), params.clone()))
                .unwrap()
        })
        .collect();
    streams
        .iter_mut()
        .map(|stream| {
            let mut out = Vec::new();
            loop {
                match stream.blocking_next().expect("an event") {
                    GenerateEvent::Chunk { token_ids, .. } => out.extend(token_ids),
                    GenerateEvent::Finished(done) => return (out, done),
                    GenerateEvent::Error(e) => panic!("{e}"),
                }
            }
        })
        .collect()
}

fn prompts(engine: &EngineHandle) -> Vec<Vec<u32>> {
    let tok = engine.tokenizer();
    let chat = |text: &str| {
        tok.encode_without_bos_eos(
            &format!("<|im_start|>user\n{text}<|im_end|>\n<|im_start|>assistant\n"),
            true,
        )
        .unwrap()
    };
    let code = "def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    return a - b\n";
    vec![
        chat(&format!("Repeat this code exactly:\n{code}")),
        chat(&format!(
            "Rewrite with `add` renamed to `plus`:\n{code}{code}"
        )),
        chat("Count from one to twenty in words: one, two, three, four, five,"),
        chat("Write a short story about a lighthouse keeper."),
        tok.encode_without_bos_eos("1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3,", true)
            .unwrap(),
    ]
}

/// A follow-up turn (the case's prompt, the speculating engine's answer, then more) gives
/// the same output on both engines.
fn second_turn_matches(
    spec: &EngineHandle,
    plain: &EngineHandle,
    case: &(Vec<u32>, SamplingParams),
) {
    let first = run(spec, std::slice::from_ref(case))[0].clone();
    let mut turn = case.0.clone();
    turn.extend(&first);
    let follow_up = [(turn, params(None, 24))];
    assert_eq!(run(spec, &follow_up), run(plain, &follow_up));
}

fn params(seed: Option<u64>, max_new_tokens: u32) -> SamplingParams {
    SamplingParams {
        temperature: if seed.is_some() { 0.9 } else { 0.0 },
        seed,
        max_new_tokens,
        ..Default::default()
    }
}

#[test]
fn speculation_changes_no_token_and_its_drafts_are_accepted() {
    let plain = engine(0);
    let spec = engine(4);
    let prompts = prompts(&plain);
    let mut cases = Vec::new();
    for ids in &prompts {
        cases.push((ids.clone(), params(None, 48)));
        cases.push((ids.clone(), params(Some(7), 48)));
    }
    let mut penalized = params(Some(3), 40);
    penalized.repetition_penalty = 1.1;
    penalized.frequency_penalty = 0.3;
    cases.push((prompts[1].clone(), penalized));

    // One at a time: speculation at batch 1.
    for case in &cases {
        let want = run(&plain, std::slice::from_ref(case));
        let got = run(&spec, std::slice::from_ref(case));
        assert_eq!(got, want, "prompt {:?}", case.0);
    }
    // In batches of up to four (speculation on) and of five (off for the whole batch).
    for batch in [&cases[..3], &cases[3..7], &cases[6..11]] {
        assert_eq!(run(&spec, batch), run(&plain, batch));
    }
    // A second turn over the first's cached K/V: rejected drafts left nothing behind.
    second_turn_matches(&spec, &plain, &cases[0]);

    let info = spec.server_info();
    assert!(info.spec_draft_tokens > 0, "{info:?}");
    assert!(
        info.spec_accepted_tokens * 4 >= info.spec_draft_tokens,
        "copy-heavy prompts accept most drafts: {info:?}"
    );
    assert_eq!(plain.server_info().spec_draft_tokens, 0);

    // Each request's completion counts its own drafts: they add up to the server's totals
    // (read from the snapshots published once the engine is idle: the last step's counts
    // come out after its requests finished).
    common::wait_idle(&spec);
    let before = spec.server_info();
    let done = run_to_completion(&spec, &cases[..4]);
    common::wait_idle(&spec);
    let after = spec.server_info();
    let drafted: u64 = done.iter().map(|(_, c)| c.spec_draft_tokens as u64).sum();
    let accepted: u64 = done
        .iter()
        .map(|(_, c)| c.spec_accepted_tokens as u64)
        .sum();
    assert!(drafted > 0);
    assert_eq!(drafted, after.spec_draft_tokens - before.spec_draft_tokens);
    assert_eq!(
        accepted,
        after.spec_accepted_tokens - before.spec_accepted_tokens
    );
    assert!(done
        .iter()
        .all(|(_, c)| c.spec_accepted_tokens <= c.spec_draft_tokens));
    let unspeculated = run_to_completion(&plain, &cases[..1]);
    assert_eq!(unspeculated[0].1.spec_draft_tokens, 0);
    common::wait_idle(&spec);
    common::wait_idle(&plain);
}

#[test]
fn with_pages_of_four_speculation_changes_no_token_either() {
    // Rejected drafts give back whole pages only; the request keeps its last page and its
    // next tokens reuse the slots after the accepted ones.
    let plain = engine_with_pages(0, 1);
    let spec = engine_with_pages(4, 4);
    let prompts = prompts(&plain);
    let cases: Vec<_> = prompts
        .iter()
        .flat_map(|ids| {
            [
                (ids.clone(), params(None, 40)),
                (ids.clone(), params(Some(5), 40)),
            ]
        })
        .collect();
    for case in &cases {
        let want = run(&plain, std::slice::from_ref(case));
        assert_eq!(
            run(&spec, std::slice::from_ref(case)),
            want,
            "prompt {:?}",
            case.0
        );
    }
    assert_eq!(run(&spec, &cases[..4]), run(&plain, &cases[..4]));
    // A second turn over the first's cached pages.
    second_turn_matches(&spec, &plain, &cases[0]);
    let info = spec.server_info();
    assert!(info.spec_accepted_tokens > 0, "{info:?}");
    assert!(
        info.spec_accepted_tokens < info.spec_draft_tokens,
        "some drafts rejected: {info:?}"
    );
    common::wait_idle(&spec);
    common::wait_idle(&plain);
}
