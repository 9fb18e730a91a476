//! One prompt computed four ways over the paged pool must give bitwise the same logits and the
//! same greedy continuation: (a) one extend, (b) an extend over a prefix cached in the radix
//! tree by an earlier request, (c) token by token, (d) inside a batch with other requests of
//! other lengths. Shared by the default model's test and every family's.

use super::{greedy, Runner};
use engine::model::ForwardModel;

pub fn assert_close(a: &[f32], b: &[f32], what: &str) {
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

/// Asserts the four ways agree for each of `prompts` (token ids); `others` are the two
/// requests batched beside it in (d).
pub fn assert_four_ways_agree<M: ForwardModel>(
    runner: &mut Runner<M>,
    prompts: &[Vec<u32>],
    others: [&[u32]; 2],
) {
    for ids in prompts {
        let ids = ids.clone();
        assert!(ids.len() > 4, "{ids:?}");
        let split = ids.len() / 2;
        // (a) One extend, no cache.
        let (a_logits, a_tokens) = {
            let mut req = runner.admit_uncached();
            let logits = runner.extend(&mut [(&mut req, &ids)]).remove(0);
            let tokens = runner.greedy_decode(&mut req, &ids, &logits, 32);
            runner.release(req);
            (logits, tokens)
        };

        // (b) The first half cached in the tree by an earlier request, the rest extended. A
        // model with recurrent state cannot resume from the tree's K/V alone: the resumed
        // request is refused, and (b) is then the request's own first half computed in an
        // earlier pass (a prefill in two chunks).
        let (b_logits, b_tokens) = if runner.model.recurrent_state_bytes() > 0 {
            assert_resuming_a_tree_prefix_is_refused(runner, &ids, split);
            let mut req = runner.admit_uncached();
            runner.extend(&mut [(&mut req, &ids[..split])]);
            let logits = runner.extend(&mut [(&mut req, &ids)]).remove(0);
            let tokens = runner.greedy_decode(&mut req, &ids, &logits, 32);
            runner.release(req);
            (logits, tokens)
        } else {
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
            let (other1, other2) = (others[0].to_vec(), others[1].to_vec());
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
        assert_eq!(a_tokens, b_tokens, "{ids:?}: greedy (a) vs (b)");
        assert_eq!(a_tokens, c_tokens, "{ids:?}: greedy (a) vs (c)");
        assert_eq!(a_tokens, d_tokens, "{ids:?}: greedy (a) vs (d)");
        // The kernels are batch-invariant by construction: the four are bitwise identical.
        assert_eq!(a_logits, b_logits, "(a) vs (b) bitwise");
        assert_eq!(a_logits, c_logits, "(a) vs (c) bitwise");
        assert_eq!(a_logits, d_logits, "(a) vs (d) bitwise");
        runner.cache.check_idle().unwrap();
    }
}

/// A request of a model with recurrent state that starts from a prefix the tree holds, on a
/// row whose state never saw it, is refused rather than computed from a zero state.
fn assert_resuming_a_tree_prefix_is_refused<M: ForwardModel>(
    runner: &mut Runner<M>,
    ids: &[u32],
    split: usize,
) {
    let mut first = runner.admit_uncached();
    runner.extend(&mut [(&mut first, &ids[..split])]);
    let first_row = first.row_index();
    runner.finish(first, &ids[..split]);
    // Not on the row that computed the prefix: its state happens to be the prefix's.
    let mut held = Vec::new();
    let mut req = runner.admit(&ids[..ids.len() - 1]);
    while req.row_index() == first_row {
        held.push(req);
        req = runner.admit(&ids[..ids.len() - 1]);
    }
    assert_eq!(req.cached_len(), split, "the prefix comes from the tree");
    let err = runner.try_extend(&mut [(&mut req, ids)]).unwrap_err();
    assert!(err.contains("recurrent state"), "{err}");
    for r in held.into_iter().chain([req]) {
        runner.release(r);
    }
    runner.flush();
}
