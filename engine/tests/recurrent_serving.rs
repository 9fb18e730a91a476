//! Serving a model whose layers carry recurrent state (Qwen3.5's delta nets, LFM2's short
//! convolutions, Nemotron-H's Mamba-2 layers): requests that share their beginnings, run together or as a conversation's
//! later turn, in chunked prefills, get what the model gives each alone; a later turn resumes
//! from the state saved when the earlier one ended (and nothing else does); no token is
//! drafted; the running requests are capped so their states and as many saved take at most half
//! the KV budget; a flush forgets the saved states; and no K/V leaks.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{family_model_path, wait_idle, Runner};
use engine::gguf::GgufFile;
use engine::handle::{EngineConfig, EngineHandle, GenerateEvent, GenerateRequest};
use engine::model::Model;
use engine::sampling::SamplingParams;
use engine::tokenizer::Tokenizer;
use std::time::Duration;

const STEPS: usize = 12;

/// The greedy continuation of `prompt` by the model alone, one request over the pool.
fn alone(runner: &mut Runner, prompt: &[u32]) -> Vec<u32> {
    let mut req = runner.admit_uncached();
    let logits = runner.extend(&mut [(&mut req, prompt)]).remove(0);
    let out = runner.greedy_decode(&mut req, prompt, &logits, STEPS);
    runner.release(req);
    out
}

/// Each request's tokens and its reported cached prompt tokens.
fn serve(engine: &EngineHandle, prompts: &[Vec<u32>]) -> Vec<(Vec<u32>, u32)> {
    let streams: Vec<_> = prompts
        .iter()
        .map(|p| {
            let mut params = SamplingParams::greedy(STEPS as u32);
            params.ignore_eos = true;
            engine
                .submit(GenerateRequest::new(p.clone(), params))
                .unwrap()
        })
        .collect();
    streams
        .into_iter()
        .map(|mut s| {
            let mut ids = Vec::new();
            loop {
                match s.blocking_next().expect("stream ended early") {
                    GenerateEvent::Chunk { token_ids, .. } => ids.extend(token_ids),
                    GenerateEvent::Finished(c) => return (ids, c.usage.cached_tokens),
                    GenerateEvent::Error(e) => panic!("{e}"),
                }
            }
        })
        .collect()
}

#[test]
fn shared_beginnings_and_later_turns_get_what_each_request_gets_alone() {
    // Four delta nets of 3 x 256 convolution inputs and 4 x 32 x 32 state floats.
    shared_beginnings_and_later_turns("qwen35", 4 * (3 * 256 + 4 * 32 * 32) * 4);
}

#[test]
fn lfm2_requests_resume_their_short_convolutions_as_each_alone() {
    // Four short convolutions of 2 x 256 earlier inputs.
    shared_beginnings_and_later_turns("lfm2", 4 * 2 * 256 * 4);
}

#[test]
fn nemotron_h_requests_resume_their_mamba2_states_as_each_alone() {
    // Three Mamba-2 layers of 3 x 192 convolution inputs and 8 x 16 x 16 state floats.
    shared_beginnings_and_later_turns("nemotron_h", 3 * (3 * 192 + 8 * 16 * 16) * 4);
}

/// Requests of family model `name` (whose recurrent state takes `per_request` bytes) that
/// share beginnings, prefill in chunks beside each other's decodes, and come back for a
/// later turn get what each gets alone; the later turn resumes from the saved state.
fn shared_beginnings_and_later_turns(name: &str, per_request: usize) {
    let path = family_model_path(name);
    let file = GgufFile::open(&path).unwrap();
    let tok = Tokenizer::from_gguf_metadata(file.metadata()).unwrap();
    let mut runner = Runner::new(Model::from_gguf(&file).unwrap(), 1, 4096);
    let base = "A delta net keeps one state per request: it cannot be rebuilt from the keys \
                and values of a cached prefix, so every request computes its own.";
    let encode = |text: &str| tok.encode(text, true).unwrap();
    let prompts = [
        encode(&format!("{base} What follows?")),
        encode(&format!("{base} And after that?")),
        encode(base),
    ];
    let want: Vec<Vec<u32>> = prompts.iter().map(|p| alone(&mut runner, p)).collect();

    let mut config = EngineConfig::new(&path);
    config.kv_budget_bytes = 8 << 20;
    // Prompts of ~40 tokens prefill in several passes each, beside the others' decodes.
    config.scheduler.chunked_prefill_size = 16;
    let engine = EngineHandle::start(config).unwrap();
    let served = serve(&engine, &prompts);
    for ((got, _), want) in served.iter().zip(&want) {
        assert_eq!(got, want);
    }

    // The conversation's next turn: its first request's prompt and answer, then more. It
    // resumes from the state saved when the first request ended, which had absorbed all but
    // the last generated token, and the tree's K/V of those tokens.
    let mut turn = prompts[0].clone();
    turn.extend(&served[0].0);
    turn.extend(encode(" Then?"));
    let next = serve(&engine, std::slice::from_ref(&turn));
    let resumed = (prompts[0].len() + STEPS - 1) as u32;
    assert_eq!(next[0], (alone(&mut runner, &turn), resumed));
    // A prompt that only shares the beginning of a saved state's tokens finds none.
    let mut other = prompts[0][..prompts[0].len() - 1].to_vec();
    other.extend(encode(" Elsewhere."));
    let apart = serve(&engine, std::slice::from_ref(&other));
    assert_eq!(apart[0], (alone(&mut runner, &other), 0));

    wait_idle(&engine);
    let info = engine.server_info();
    assert_eq!(info.recurrent_bytes_per_request, per_request);
    // Their states and as many saved ones in half the budget.
    // (LFM2's small states hit the scheduler's own cap first.)
    let cap = EngineConfig::new(&path).scheduler.max_running_requests;
    assert_eq!(
        info.max_running_requests,
        ((2 << 20) / per_request).min(cap)
    );
    assert_eq!(info.recurrent_saved_states, 5);
    assert_eq!(info.spec_draft_tokens, 0);
    // Flushing the cache forgets the saved states: the turn is computed whole again.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime.block_on(engine.flush_cache(None)).unwrap();
    common::wait_until(&engine, "saved states forgotten", |i| {
        i.recurrent_saved_states == 0
    });
    assert_eq!(serve(&engine, std::slice::from_ref(&turn))[0].1, 0);
    engine.shutdown(Duration::from_secs(5));
}

#[test]
fn a_budget_too_small_for_one_requests_state_is_refused_by_name() {
    let mut config = EngineConfig::new(family_model_path("qwen35"));
    config.kv_budget_bytes = 256 << 10;
    let err = EngineHandle::start(config)
        .err()
        .expect("started")
        .to_string();
    assert!(
        err.contains("recurrent state") && err.contains("--kv-budget-mb"),
        "{err}"
    );
}

/// Requests retracted for room resume (from the state saved at retraction, or from scratch)
/// and still get what each gets alone.
#[test]
fn retracted_requests_still_get_what_each_gets_alone() {
    let path = family_model_path("qwen35");
    let file = GgufFile::open(&path).unwrap();
    let tok = Tokenizer::from_gguf_metadata(file.metadata()).unwrap();
    let mut runner = Runner::new(Model::from_gguf(&file).unwrap(), 1, 4096);
    let prompts: Vec<Vec<u32>> = (0..6)
        .map(|i| {
            let text = format!("Request {i} asks about the sea, the wind and the tide {i} times.");
            tok.encode(&text, true).unwrap()
        })
        .collect();
    let steps = 100;
    let want: Vec<Vec<u32>> = prompts
        .iter()
        .map(|p| {
            let mut req = runner.admit_uncached();
            let logits = runner.extend(&mut [(&mut req, p)]).remove(0);
            let out = runner.greedy_decode(&mut req, p, &logits, steps);
            runner.release(req);
            out
        })
        .collect();

    let mut config = EngineConfig::new(&path);
    // Six requests' states and six saved in half of it; K/V for about 500 tokens in the
    // rest, fewer than the six need (about 700): some are retracted.
    config.kv_budget_bytes = 2 << 20;
    let engine = EngineHandle::start(config).unwrap();
    let streams: Vec<_> = prompts
        .iter()
        .map(|p| {
            let mut params = SamplingParams::greedy(steps as u32);
            params.ignore_eos = true;
            engine
                .submit(GenerateRequest::new(p.clone(), params))
                .unwrap()
        })
        .collect();
    for (stream, want) in streams.into_iter().zip(&want) {
        assert_eq!(&common::scripted::collect_tokens(stream), want);
    }
    wait_idle(&engine);
    let info = engine.server_info();
    assert!(info.retractions > 0, "{info:?}");
    assert_eq!(info.max_running_requests, 6);
    engine.shutdown(Duration::from_secs(5));
}

/// Several samples of one prompt (`n`): the later ones find no saved state to resume from
/// (the first has not ended) and compute the prompt again; greedy, all equal the prompt's
/// continuation alone.
#[test]
fn samples_of_one_prompt_each_compute_it_and_agree() {
    let path = family_model_path("qwen35");
    let file = GgufFile::open(&path).unwrap();
    let tok = Tokenizer::from_gguf_metadata(file.metadata()).unwrap();
    let mut runner = Runner::new(Model::from_gguf(&file).unwrap(), 1, 4096);
    let prompt = tok
        .encode("Three samples of one prompt, please.", true)
        .unwrap();
    let want = alone(&mut runner, &prompt);
    let mut config = EngineConfig::new(&path);
    config.kv_budget_bytes = 8 << 20;
    let engine = EngineHandle::start(config).unwrap();
    let mut params = SamplingParams::greedy(STEPS as u32);
    params.ignore_eos = true;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let request = GenerateRequest::new(prompt.clone(), params);
    let streams = runtime.block_on(engine.submit_samples(request, 3)).unwrap();
    for mut stream in streams {
        let mut got = Vec::new();
        loop {
            match stream.blocking_next().expect("stream ended early") {
                GenerateEvent::Chunk { token_ids, .. } => got.extend(token_ids),
                GenerateEvent::Finished(c) => {
                    assert_eq!(c.usage.cached_tokens, 0);
                    break;
                }
                GenerateEvent::Error(e) => panic!("{e}"),
            }
        }
        assert_eq!(got, want);
    }
    wait_idle(&engine);
    engine.shutdown(Duration::from_secs(5));
}

#[test]
fn the_disk_tier_is_refused_for_a_model_with_recurrent_state() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = EngineConfig::new(family_model_path("qwen35"));
    config.kv_disk = Some(engine::handle::KvDiskConfig {
        dir: dir.path().to_path_buf(),
        budget_bytes: 1 << 20,
    });
    let err = EngineHandle::start(config)
        .err()
        .expect("started")
        .to_string();
    assert!(
        err.contains("--kv-disk-dir") && err.contains("recurrent state"),
        "{err}"
    );
}

/// Through the chat API, under Qwen3.5's own template (which drops a past turn's thinking
/// block from the history it renders): a prompt marks where its history ends, the request
/// saves its state there, and the conversation's next turn resumes from it and gets what
/// its prompt gets alone.
#[test]
fn a_chat_turn_resumes_from_the_state_saved_at_the_end_of_the_previous_history() {
    use engine::handle::Conversation;
    use engine::tokenizer::ChatMessage;
    let path = family_model_path("qwen35");
    let file = GgufFile::open(&path).unwrap();
    let mut runner = Runner::new(Model::from_gguf(&file).unwrap(), 1, 4096);
    let mut config = EngineConfig::new(&path);
    config.kv_budget_bytes = 8 << 20;
    config.chat_template = Some(include_str!("fixtures/qwen35_tools_template.jinja").into());
    let engine = EngineHandle::start(config).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let mut kwargs = serde_json::Map::new();
    kwargs.insert("enable_thinking".into(), false.into());
    let prompt = |messages: Vec<ChatMessage>| {
        let chat = Conversation {
            template_kwargs: kwargs.clone(),
            ..Conversation::new(messages)
        };
        runtime.block_on(engine.build_chat_prompt(chat, 0)).unwrap()
    };
    let submit = |ids: Vec<u32>, history_len: Option<u32>| {
        let mut params = SamplingParams::greedy(STEPS as u32);
        params.ignore_eos = true;
        let request = GenerateRequest {
            history_len,
            ..GenerateRequest::new(ids, params)
        };
        let mut stream = engine.submit(request).unwrap();
        let mut got = Vec::new();
        loop {
            match stream.blocking_next().expect("stream ended early") {
                GenerateEvent::Chunk { token_ids, .. } => got.extend(token_ids),
                GenerateEvent::Finished(c) => return (got, c.usage.cached_tokens),
                GenerateEvent::Error(e) => panic!("{e}"),
            }
        }
    };
    let user = ChatMessage::user("Tell me about the sea and its tides.");
    let first = prompt(vec![user.clone()]);
    let history = first.history_len.expect("a history mark");
    // The history is the prompt up to the end of the user's message.
    assert!(history > 0 && (history as usize) < first.ids.len());
    let (answer, cached) = submit(first.ids.clone(), first.history_len);
    assert_eq!(cached, 0);
    let text = engine.tokenizer().decode(&answer, true).unwrap();
    let next = prompt(vec![
        user,
        ChatMessage::assistant(&text),
        ChatMessage::user("And the wind?"),
    ]);
    assert!(next.ids.starts_with(&first.ids[..history as usize]));
    // The previous turn's whole prompt is not repeated (its think block is dropped).
    assert!(!next.ids.starts_with(&first.ids));
    let (got, cached) = submit(next.ids.clone(), next.history_len);
    assert_eq!(cached, history);
    assert_eq!(got, alone(&mut runner, &next.ids));
    wait_idle(&engine);
    engine.shutdown(Duration::from_secs(5));
}
