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

/// Sorts `waiting` in place by `policy`, reading (not changing) the tree.
pub fn order_waiting(policy: Policy, waiting: &mut [Req], tree: &RadixCache) {
    let fcfs_key = |r: &Req| (r.retractions == 0, r.seq);
    if policy == Policy::Fcfs || waiting.len() > PREFIX_POLICY_MAX_QUEUE {
        waiting.sort_by_key(fcfs_key);
        return;
    }
    // The cache key of a waiting request: all but its last token (one is always computed).
    let matches: Vec<(usize, NodeId)> = waiting
        .iter()
        .map(|r| {
            let ids = r.fill_ids();
            tree.match_node(r.ns, &ids[..ids.len() - 1])
                .unwrap_or((0, tree.root_of(r.ns).unwrap_or(NodeId::NONE)))
        })
        .collect();
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
    use super::apply_order;

    #[test]
    fn apply_order_permutes() {
        let mut v = vec!['a', 'b', 'c', 'd', 'e'];
        apply_order(&mut v, &[3, 0, 4, 1, 2]);
        assert_eq!(v, vec!['d', 'a', 'e', 'b', 'c']);
    }
}
