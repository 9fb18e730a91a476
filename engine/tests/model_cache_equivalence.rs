//! The real model over the paged pool: the last token's logits computed (a) in one extend,
//! (b) as an extend of a prefix cached in the radix tree plus an extend of the rest, (c) token
//! by token in decode, and (d) inside a batch with other requests of other lengths must agree,
//! and give the same greedy continuation for 32 steps.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{greedy, load_model, Runner};

const PROMPTS: [&str; 3] = [
    "The capital of France is",
    "def fibonacci(n):\n    \"\"\"Return the n-th Fibonacci number.\"\"\"\n",
    "<|im_start|>user\nWrite a haiku about the sea.<|im_end|>\n<|im_start|>assistant\n",
];

fn assert_close(a: &[f32], b: &[f32], what: &str) {
    let scale = a.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    let worst = a
        .iter()
        .zip(b)
        .fold(0.0f32, |m, (x, y)| m.max((x - y).abs()));
    assert!(
        worst <= 1e-4 * scale,
        "{what}: max |diff| {worst} vs max |logit| {scale}"
    );
}

#[test]
fn four_ways_to_compute_a_prompt_agree() {
    let (model, tok) = load_model();
    let mut runner = Runner::new(model, 1, 4096);
    for prompt in PROMPTS {
        let ids = tok.encode(prompt, true).unwrap();
        assert!(ids.len() > 4, "{prompt:?}");
        let split = ids.len() / 2;

        // (a) One extend, no cache.
        let (a_logits, a_tokens) = {
            let mut req = runner.admit_uncached();
            let logits = runner.extend(&mut [(&mut req, &ids)]).remove(0);
            let tokens = runner.greedy_decode(&mut req, &ids, &logits, 32);
            runner.release(req);
            (logits, tokens)
        };

        // (b) The first half cached in the tree by an earlier request, the rest extended.
        let (b_logits, b_tokens) = {
            let mut first = runner.admit_uncached();
            runner.extend(&mut [(&mut first, &ids[..split])]);
            runner.finish(first, &ids[..split]);
            let mut req = runner.admit(&ids[..ids.len() - 1]);
            assert_eq!(req.cached_len(), split, "the prefix comes from the tree");
            let logits = runner.extend(&mut [(&mut req, &ids)]).remove(0);
            let tokens = runner.greedy_decode(&mut req, &ids, &logits, 32);
            runner.release(req);
            runner.flush();
            (logits, tokens)
        };

        // (c) Token by token.
        let (c_logits, c_tokens) = {
            let mut req = runner.admit_uncached();
            let mut logits = Vec::new();
            for n in 1..=ids.len() {
                logits = runner.extend(&mut [(&mut req, &ids[..n])]).remove(0);
            }
            let tokens = runner.greedy_decode(&mut req, &ids, &logits, 32);
            runner.release(req);
            (logits, tokens)
        };

        // (d) In one batch with two other requests of other lengths, then decoded together.
        let (d_logits, d_tokens) = {
            let other1 = tok
                .encode("Once upon a time, in a land far away,", true)
                .unwrap();
            let other2 = tok.encode("1 2 3", true).unwrap();
            let mut r0 = runner.admit_uncached();
            let mut r1 = runner.admit_uncached();
            let mut r2 = runner.admit_uncached();
            let logits =
                runner.extend(&mut [(&mut r1, &other1), (&mut r0, &ids), (&mut r2, &other2)]);
            let mut seqs = [other1.clone(), ids.clone(), other2.clone()];
            let mut last = logits.clone();
            let mut mine = Vec::new();
            for _ in 0..32 {
                for (seq, l) in seqs.iter_mut().zip(&last) {
                    seq.push(greedy(l));
                }
                mine.push(*seqs[1].last().unwrap());
                last = runner.extend(&mut [
                    (&mut r1, &seqs[0]),
                    (&mut r0, &seqs[1]),
                    (&mut r2, &seqs[2]),
                ]);
            }
            for r in [r0, r1, r2] {
                runner.release(r);
            }
            (logits[1].clone(), mine)
        };

        assert_close(&a_logits, &b_logits, "(a) vs (b)");
        assert_close(&a_logits, &c_logits, "(a) vs (c)");
        assert_close(&a_logits, &d_logits, "(a) vs (d)");
        assert_eq!(a_tokens, b_tokens, "{prompt:?}: greedy (a) vs (b)");
        assert_eq!(a_tokens, c_tokens, "{prompt:?}: greedy (a) vs (c)");
        assert_eq!(a_tokens, d_tokens, "{prompt:?}: greedy (a) vs (d)");
        // The kernels are batch-invariant by construction: the four are bitwise identical.
        assert_eq!(a_logits, b_logits, "(a) vs (b) bitwise");
        assert_eq!(a_logits, c_logits, "(a) vs (c) bitwise");
        assert_eq!(a_logits, d_logits, "(a) vs (d) bitwise");
        runner.cache.check_idle().unwrap();
    }
}

#[test]
fn the_model_knows_the_capital_of_france() {
    let (model, tok) = load_model();
    let mut runner = Runner::new(model, 1, 1024);
    let ids = tok.encode("The capital of France is", true).unwrap();
    let mut req = runner.admit_uncached();
    let logits = runner.extend(&mut [(&mut req, &ids)]).remove(0);
    let tokens = runner.greedy_decode(&mut req, &ids, &logits, 3);
    runner.release(req);
    let text = tok.decode(&tokens, true).unwrap();
    assert!(text.contains("Paris"), "continuation was {text:?}");
    runner.cache.check_idle().unwrap();
}
