//! Orders the waiting queue before admission (SGLang's `SchedulePolicy`).
//!
//! - FCFS: arrival order (retracted requests first, they were already running).
//! - LPM: longest cached prefix first, so hits are used before eviction can take them; on long
//!   queues the matching costs more than it saves and FCFS is used (as SGLang does).
//! - DFS-weight: requests grouped by the tree node their cached prefix ends in, heavier
//!   subtrees first, so requests sharing a prefix run together.

use super::req::Req;
use radix::{NodeId, RadixCache};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Policy {
    #[default]
    Fcfs,
    Lpm,
    DfsWeight,
}

impl std::str::FromStr for Policy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "fcfs" => Ok(Policy::Fcfs),
            "lpm" => Ok(Policy::Lpm),
            "dfs-weight" | "dfs_weight" => Ok(Policy::DfsWeight),
            other => Err(format!("unknown policy {other:?} (fcfs, lpm, dfs-weight)")),
        }
    }
}

/// Queues longer than this fall back from LPM / DFS-weight to FCFS.
pub const PREFIX_POLICY_MAX_QUEUE: usize = 128;

/// Tree nodes the matches of one ordering may visit; beyond, that step's order is FCFS. A
/// cached path is usually a few long nodes, but one split at every token (distinct
/// continuations of one prompt) makes it a node per token, and matching 128 waiting copies
/// of such a prompt every step would cost every tenant's step milliseconds.
pub const PREFIX_POLICY_MAX_VISITS: usize = 64 * 1024;

/// Sorts `waiting` in place by `policy`, reading (not changing) the tree.
pub fn order_waiting(policy: Policy, waiting: &mut [Req], tree: &RadixCache) {
    let fcfs_key = |r: &Req| (r.retractions == 0, r.seq);
    if policy == Policy::Fcfs || waiting.len() > PREFIX_POLICY_MAX_QUEUE {
        waiting.sort_by_key(fcfs_key);
        return;
    }
    // The cache key of a waiting request: all but its last token (one is always computed).
    let mut visits = PREFIX_POLICY_MAX_VISITS;
    let mut matches: Vec<(usize, NodeId)> = Vec::with_capacity(waiting.len());
    for r in waiting.iter() {
        let retracted;
        let ids: &[u32] = if r.output_ids.is_empty() {
            &r.input_ids
        } else {
            retracted = r.fill_ids();
            &retracted
        };
        let unmatched = (0, tree.root_of(r.ns).unwrap_or(NodeId::NONE));
        match tree.match_node_within(r.ns, &ids[..ids.len() - 1], &mut visits) {
            Ok(Some(matched)) => matches.push(matched),
            Ok(None) => {
                waiting.sort_by_key(fcfs_key);
                return;
            }
            Err(_) => matches.push(unmatched),
        }
    }
    let mut order: Vec<usize> = (0..waiting.len()).collect();
    match policy {
        Policy::Lpm => {
            order.sort_by_key(|&i| (std::cmp::Reverse(matches[i].0), fcfs_key(&waiting[i])))
        }
        Policy::DfsWeight => {
            // Weight of a node: waiting requests whose prefix ends at or below it.
            let mut weight: HashMap<NodeId, usize> = HashMap::new();
            let paths: Vec<Vec<NodeId>> = matches
                .iter()
                .map(|&(_, node)| tree.path_from_root(node))
                .collect();
            for path in &paths {
                for &n in path {
                    *weight.entry(n).or_default() += 1;
                }
            }
            // A DFS visiting heavier children first is the lexicographic order of the
            // root-to-node paths keyed by (-weight, node id).
            let keys: Vec<Vec<(std::cmp::Reverse<usize>, NodeId)>> = paths
                .iter()
                .map(|p| {
                    p.iter()
                        .map(|n| (std::cmp::Reverse(weight[n]), *n))
                        .collect()
                })
                .collect();
            order.sort_by(|&a, &b| {
                keys[a]
                    .cmp(&keys[b])
                    .then_with(|| fcfs_key(&waiting[a]).cmp(&fcfs_key(&waiting[b])))
            });
        }
        Policy::Fcfs => {}
    }
    apply_order(waiting, &order);
}

/// Permutes `items` so that position k holds the old `items[order[k]]`.
fn apply_order<T>(items: &mut [T], order: &[usize]) {
    let mut pos: Vec<usize> = (0..items.len()).collect(); // pos[old] = current index
    let mut at: Vec<usize> = (0..items.len()).collect(); // at[current] = old index
    for (k, &old) in order.iter().enumerate() {
        let cur = pos[old];
        if cur != k {
            items.swap(k, cur);
            let displaced = at[k];
            at[cur] = displaced;
            pos[displaced] = cur;
            at[k] = old;
            pos[old] = k;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sampling::{Sampler, SamplingParams, StopChecker};
    use crate::tokenizer::DecodeStream;
    use radix::{Namespace, NsId};

    fn req(seq: u64, ns: NsId, input_ids: Vec<u32>) -> Req {
        let params = SamplingParams::default();
        let (tx, _rx) = crate::io::event_channel();
        Req {
            seq,
            rid: format!("r{seq}"),
            tenant: 0,
            sampler: Sampler::new(&params, &input_ids),
            stop: StopChecker::new(&params, &[]),
            input_ids,
            output_ids: Vec::new(),
            params,
            ns,
            adapter: None,
            kv: None,
            cached_tokens: None,
            admitted_prefix: 0,
            history_len: None,
            detok: DecodeStream::new(true),
            tx,
            submitted_at: std::time::Instant::now(),
            first_token_at: None,
            last_token_at: None,
            deadline: None,
            retractions: 0,
            drafted: 0,
            accepted: 0,
            pending_ids: Vec::new(),
            pending_text: String::new(),
            pending_logprobs: Vec::new(),
            finish: None,
            error: None,
            constraint: None,
            embed: false,
            embedding: None,
            prompt_scores: None,
            staged: None,
            disk_loads: 0,
            may_evict_any: false,
            grammar_turn: 0,
            grammar_waiting: false,
        }
    }

    fn seqs(waiting: &[Req]) -> Vec<u64> {
        waiting.iter().map(|r| r.seq).collect()
    }

    /// A tree holding `[1..=8]` and `[1, 2, 9, 9]` in one namespace.
    fn tree() -> (RadixCache, NsId) {
        let mut t = RadixCache::new(1).unwrap();
        let ns = t.namespace_id(&Namespace::global());
        t.insert(ns, &[1, 2, 3, 4, 5, 6, 7, 8], &[1, 2, 3, 4, 5, 6, 7, 8])
            .unwrap();
        t.insert(ns, &[1, 2, 9, 9], &[1, 2, 9, 10]).unwrap();
        (t, ns)
    }

    #[test]
    fn apply_order_permutes() {
        let mut v = vec!['a', 'b', 'c', 'd', 'e'];
        apply_order(&mut v, &[3, 0, 4, 1, 2]);
        assert_eq!(v, vec!['d', 'a', 'e', 'b', 'c']);
    }

    #[test]
    fn fcfs_is_arrival_order_with_retracted_requests_first() {
        let (t, ns) = tree();
        let mut waiting = vec![
            req(3, ns, vec![5]),
            req(1, ns, vec![6]),
            req(2, ns, vec![7]),
        ];
        waiting[0].retractions = 1;
        order_waiting(Policy::Fcfs, &mut waiting, &t);
        assert_eq!(seqs(&waiting), [3, 1, 2]);
    }

    #[test]
    fn lpm_puts_the_longest_cached_prefix_first_and_breaks_ties_by_arrival() {
        let (t, ns) = tree();
        let mut waiting = vec![
            req(1, ns, vec![7, 7, 7]),                // no hit
            req(2, ns, vec![1, 2, 9, 9, 0]),          // 4 cached
            req(3, ns, vec![1, 2, 3, 4, 5, 6, 0]),    // 6 cached
            req(4, ns, vec![1, 2, 3, 4, 5, 6, 7, 8]), // 7 cached (the last token is computed)
            req(5, ns, vec![1, 2, 9, 9, 1]),          // 4 cached, arrived later than 2
        ];
        order_waiting(Policy::Lpm, &mut waiting, &t);
        assert_eq!(seqs(&waiting), [4, 3, 2, 5, 1]);
    }

    #[test]
    fn lpm_falls_back_to_fcfs_on_long_queues() {
        let (t, ns) = tree();
        let mut waiting: Vec<Req> = (0..=PREFIX_POLICY_MAX_QUEUE as u64)
            .map(|seq| {
                // Later arrivals have longer hits: LPM would reverse the queue.
                let hit = (seq % 8) as u32;
                req(seq, ns, (1..=hit).chain([99]).collect())
            })
            .collect();
        order_waiting(Policy::Lpm, &mut waiting, &t);
        let expected: Vec<u64> = (0..=PREFIX_POLICY_MAX_QUEUE as u64).collect();
        assert_eq!(seqs(&waiting), expected);
    }

    #[test]
    fn lpm_falls_back_to_fcfs_when_matching_would_visit_too_many_nodes() {
        const DEPTH: u32 = 1000;
        let mut t = RadixCache::new(1).unwrap();
        let ns = t.namespace_id(&Namespace::global());
        let long: Vec<u32> = (1..=DEPTH).collect();
        let slots = |key: &[u32]| (0..key.len() as i32).collect::<Vec<_>>();
        t.insert(ns, &long, &slots(&long)).unwrap();
        // A continuation diverging at every position: the path is one node per token.
        for k in 1..DEPTH as usize {
            let key: Vec<u32> = long[..k].iter().copied().chain([100_000]).collect();
            t.insert(ns, &key, &slots(&key)).unwrap();
        }
        let copies = (PREFIX_POLICY_MAX_VISITS / DEPTH as usize + 1) as u64;
        // The first to arrive has no hit; every later one a hit of the whole path.
        let mut waiting = vec![req(0, ns, vec![7])];
        waiting.extend(
            (1..=copies).map(|seq| req(seq, ns, long.iter().copied().chain([0]).collect())),
        );
        order_waiting(Policy::Lpm, &mut waiting, &t);
        let fcfs: Vec<u64> = (0..=copies).collect();
        assert_eq!(seqs(&waiting), fcfs);
        // Within the budget, LPM as usual.
        waiting.truncate(3);
        order_waiting(Policy::Lpm, &mut waiting, &t);
        assert_eq!(seqs(&waiting), [1, 2, 0]);
    }

    #[test]
    fn dfs_weight_runs_the_heavier_subtree_first_and_keeps_groups_together() {
        let (t, ns) = tree();
        let mut waiting = vec![
            req(1, ns, vec![1, 2, 9, 9, 0]),       // under [1,2]->[9,9]
            req(2, ns, vec![1, 2, 3, 4, 5, 0]),    // under [1,2]->[3..8]
            req(3, ns, vec![7]),                   // at the root
            req(4, ns, vec![1, 2, 3, 4, 5, 6, 0]), // under [1,2]->[3..8]
            req(5, ns, vec![1, 2, 3, 4, 1]),       // under [1,2]->[3..8]
        ];
        order_waiting(Policy::DfsWeight, &mut waiting, &t);
        let order = seqs(&waiting);
        // The [3..8] branch holds three requests, the [9,9] branch one, the root one more.
        let pos = |s: u64| order.iter().position(|&x| x == s).unwrap();
        let heavy = [pos(2), pos(4), pos(5)];
        assert!(heavy.iter().all(|&p| p < pos(1)), "{order:?}");
        assert!(pos(1) < pos(3) || pos(3) == 0, "{order:?}");
        let (lo, hi) = (heavy.iter().min().unwrap(), heavy.iter().max().unwrap());
        assert_eq!(
            hi - lo,
            2,
            "the heavy branch's requests run together: {order:?}"
        );
    }

    #[test]
    fn ordering_reads_the_tree_without_changing_it() {
        let (t, ns) = tree();
        let before = (t.node_count(), t.stats());
        let mut waiting = vec![req(1, ns, vec![1, 2, 3, 0]), req(2, ns, vec![1, 2, 9, 0])];
        for policy in [Policy::Fcfs, Policy::Lpm, Policy::DfsWeight] {
            order_waiting(policy, &mut waiting, &t);
        }
        assert_eq!((t.node_count(), t.stats()), before);
        t.sanity_check().unwrap();
    }
}
