//! The real model over the paged pool: the last token's logits computed (a) in one extend,
//! (b) as an extend of a prefix cached in the radix tree plus an extend of the rest, (c) token
//! by token in decode, and (d) inside a batch with other requests of other lengths must agree,
//! and give the same greedy continuation for 32 steps.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::equivalence::assert_four_ways_agree;
use common::{load_model, Runner};

const PROMPTS: [&str; 3] = [
    "The capital of France is",
    "def fibonacci(n):\n    \"\"\"Return the n-th Fibonacci number.\"\"\"\n",
    "<|im_start|>user\nWrite a haiku about the sea.<|im_end|>\n<|im_start|>assistant\n",
];

#[test]
fn four_ways_to_compute_a_prompt_agree() {
    let (model, tok) = load_model();
    let mut runner = Runner::new(model, 1, 4096);
    let prompts: Vec<Vec<u32>> = PROMPTS
        .iter()
        .map(|p| tok.encode(p, true).unwrap())
        .collect();
    let other1 = tok
        .encode("Once upon a time, in a land far away,", true)
        .unwrap();
    let other2 = tok.encode("1 2 3", true).unwrap();
    assert_four_ways_agree(&mut runner, &prompts, [&other1, &other2]);
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
