//! The hub without its thread: numbering, snapshots on (re)subscription, resync of a
//! lagging subscriber, bounded batches, and namespaces kept apart.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use radix::StoredBlock;
use std::collections::HashMap;

fn state() -> HubState {
    HubState::default()
}

fn stored(ns: &Namespace, parent: Option<u64>, hash: u64) -> BlockEvent {
    BlockEvent {
        namespace: ns.clone(),
        change: BlockChange::Stored {
            parent,
            blocks: vec![StoredBlock {
                hash,
                tokens: vec![hash as u32; 4],
            }],
        },
    }
}

fn removed(ns: &Namespace, hash: u64) -> BlockEvent {
    BlockEvent {
        namespace: ns.clone(),
        change: BlockChange::Removed { hashes: vec![hash] },
    }
}

fn drain(sub: &mut KvSubscription) -> Vec<KvBatch> {
    std::iter::from_fn(|| sub.try_recv()).collect()
}

/// The blocks a subscriber holds after applying `batches` in order.
fn apply(batches: &[KvBatch]) -> HashMap<u64, Option<u64>> {
    let mut blocks = HashMap::new();
    for event in batches.iter().flat_map(|b| b.events.iter()) {
        match event {
            KvEvent::Stored { parent, blocks: b } => {
                let mut parent = *parent;
                for block in b {
                    blocks.insert(block.hash, parent);
                    parent = Some(block.hash);
                }
            }
            KvEvent::Removed { hashes } => hashes.iter().for_each(|h| {
                blocks.remove(h);
            }),
            KvEvent::Cleared => blocks.clear(),
        }
    }
    blocks
}

fn numbers(batches: &[KvBatch]) -> Vec<u64> {
    batches.iter().map(|b| b.sequence).collect()
}

fn contiguous(batches: &[KvBatch]) -> bool {
    batches
        .windows(2)
        .all(|w| w[1].sequence == w[0].sequence + 1)
}

#[test]
fn a_fresh_subscriber_gets_a_snapshot_numbered_from_one_then_live_batches() {
    let ns = Namespace::global();
    let mut hub = state();
    hub.ingest(HubInput::Events(vec![
        stored(&ns, None, 1),
        stored(&ns, Some(1), 2),
    ]));
    let mut sub = hub.subscribe(&ns, 0, 64);
    hub.ingest(HubInput::Events(vec![removed(&ns, 2)]));
    let got = drain(&mut sub);
    assert_eq!(numbers(&got), vec![1, 2]);
    assert_eq!(got[0].events[0], KvEvent::Cleared);
    assert_eq!(apply(&got), HashMap::from([(1, None)]));
}

/// A reconnect gets the whole state numbered right after its last number, whatever it
/// missed and however its numbers were made: nothing it missed is ever skipped.
#[test]
fn a_reconnect_gets_a_snapshot_numbered_after_its_last_batch() {
    let ns = Namespace::global();
    let mut hub = state();
    let mut first = hub.subscribe(&ns, 0, 64);
    for h in 1..=5 {
        let parent = (h > 1).then_some(h - 1);
        hub.ingest(HubInput::Events(vec![stored(&ns, parent, h)]));
    }
    let seen = drain(&mut first);
    let last_seen = seen[2].sequence;
    drop(first);
    hub.ingest(HubInput::Events(vec![removed(&ns, 5), removed(&ns, 4)]));
    let mut again = hub.subscribe(&ns, last_seen, 64);
    let replay = drain(&mut again);
    assert_eq!(replay[0].sequence, last_seen + 1);
    assert_eq!(replay[0].events[0], KvEvent::Cleared);
    let mut all = seen[..=2].to_vec();
    all.extend(replay);
    assert!(contiguous(&all), "{:?}", numbers(&all));
    let want: HashMap<u64, Option<u64>> = (1..=3).map(|h| (h, (h > 1).then_some(h - 1))).collect();
    assert_eq!(apply(&all), want);
}

#[test]
fn a_subscriber_ahead_of_the_worker_gets_a_resync_numbered_after_its_own() {
    let ns = Namespace::global();
    let mut hub = state();
    hub.ingest(HubInput::Events(vec![stored(&ns, None, 7)]));
    // A gateway that outlived a restart of the worker asks for numbers it never issued.
    let mut sub = hub.subscribe(&ns, 5_000_000, 64);
    hub.ingest(HubInput::Events(vec![stored(&ns, Some(7), 8)]));
    let got = drain(&mut sub);
    assert_eq!(numbers(&got), vec![5_000_001, 5_000_002]);
    assert_eq!(got[0].events[0], KvEvent::Cleared);
    assert_eq!(apply(&got), HashMap::from([(7, None), (8, Some(7))]));
}

#[test]
fn a_lagging_subscriber_is_resynced_without_gaps_and_its_queue_stays_bounded() {
    let ns = Namespace::global();
    let mut hub = state();
    let mut sub = hub.subscribe(&ns, 0, 8);
    let mut got = drain(&mut sub);
    for h in 1..=50u64 {
        let parent = (h > 1).then_some(h - 1);
        hub.ingest(HubInput::Events(vec![stored(&ns, parent, h)]));
        if h % 3 == 0 {
            hub.ingest(HubInput::Events(vec![removed(&ns, h)]));
            hub.ingest(HubInput::Events(vec![stored(&ns, Some(h - 1), h)]));
        }
    }
    // Never more than the queue's 8 batches were waiting.
    let waiting = drain(&mut sub);
    assert_eq!(waiting.len(), 8);
    got.extend(waiting);
    // Read now; the next change (or the retry tick) brings the resync.
    hub.retry_lagging();
    got.extend(drain(&mut sub));
    hub.ingest(HubInput::Events(vec![stored(&ns, Some(50), 51)]));
    got.extend(drain(&mut sub));
    assert!(contiguous(&got), "{:?}", numbers(&got));
    let want: HashMap<u64, Option<u64>> = (1..=51).map(|h| (h, (h > 1).then_some(h - 1))).collect();
    assert_eq!(apply(&got), want);
}

/// A reader slower than the changes holds at most one snapshot: the next one comes only
/// once it has read everything queued, and none is built for it before that.
#[test]
fn a_slow_reader_never_holds_two_snapshots() {
    let ns = Namespace::global();
    let mut hub = state();
    for h in 1..=100u64 {
        hub.ingest(HubInput::Events(vec![stored(
            &ns,
            (h > 1).then_some(h - 1),
            h,
        )]));
    }
    let mut sub = hub.subscribe(&ns, 0, 8);
    let mut got = drain(&mut sub);
    for round in 0..400u64 {
        hub.ingest(HubInput::Events(vec![stored(&ns, Some(100), 1000 + round)]));
        if round % 2 == 0 {
            got.extend(sub.try_recv());
        }
        let stream = &hub.streams[&ns];
        let lagging = stream.subscribers.iter().any(|s| s.lagged);
        assert!(
            !lagging || stream.snapshot.is_none() || stream.subscribers[0].ready_for_resync(),
            "a snapshot was built for a reader with unread batches"
        );
        assert!(sub.rx.len() <= 8);
    }
    got.extend(drain(&mut sub));
    hub.retry_lagging();
    got.extend(drain(&mut sub));
    assert!(contiguous(&got), "{:?}", numbers(&got));
    let snapshots = got
        .iter()
        .filter(|b| b.events.first() == Some(&KvEvent::Cleared))
        .count();
    assert!(snapshots >= 2, "it lagged and was resynced");
    // The mirror as the subscriber rebuilt it equals the hub's.
    assert_eq!(apply(&got).len(), hub.streams[&ns].mirror.len());
}

#[test]
fn one_huge_change_is_split_into_bounded_batches_that_keep_the_chain() {
    let ns = Namespace::global();
    let mut hub = state();
    let mut sub = hub.subscribe(&ns, 0, 64);
    let n = 2 * SNAPSHOT_CHUNK_BLOCKS as u64 + 1;
    let chain = BlockEvent {
        namespace: ns.clone(),
        change: BlockChange::Stored {
            parent: None,
            blocks: (1..=n)
                .map(|h| StoredBlock {
                    hash: h,
                    tokens: vec![h as u32; 4],
                })
                .collect(),
        },
    };
    hub.ingest(HubInput::Events(vec![chain]));
    hub.ingest(HubInput::Events(vec![BlockEvent {
        namespace: ns.clone(),
        change: BlockChange::Removed {
            hashes: (2..=n).rev().collect(),
        },
    }]));
    let got = drain(&mut sub);
    let blocks = |b: &KvBatch| {
        b.events
            .iter()
            .map(|e| match e {
                KvEvent::Stored { blocks, .. } => blocks.len(),
                KvEvent::Removed { hashes } => hashes.len(),
                KvEvent::Cleared => 0,
            })
            .sum::<usize>()
    };
    assert!(got.iter().all(|b| blocks(b) <= SNAPSHOT_CHUNK_BLOCKS));
    assert_eq!(
        got.len(),
        1 + 3 + 2,
        "snapshot, the chain in 3, the removal in 2"
    );
    assert!(contiguous(&got));
    let mut partial = got[..4].to_vec();
    let want: HashMap<u64, Option<u64>> = (1..=n).map(|h| (h, (h > 1).then_some(h - 1))).collect();
    assert_eq!(apply(&partial), want);
    partial.extend_from_slice(&got[4..]);
    assert_eq!(apply(&partial), HashMap::from([(1, None)]));
}

#[test]
fn namespaces_are_separate_streams_and_salted_ones_are_not_published() {
    let a = Namespace::scoped(radix::CacheScope::Tenant(1));
    let b = Namespace::scoped(radix::CacheScope::Tenant(2));
    let salted = a.clone().with_salt("s");
    let mut hub = state();
    let mut sub_a = hub.subscribe(&a, 0, 64);
    hub.ingest(HubInput::Events(vec![
        stored(&b, None, 1),
        stored(&salted, None, 2),
        stored(&a, None, 3),
    ]));
    let got = drain(&mut sub_a);
    assert_eq!(apply(&got), HashMap::from([(3, None)]));
    assert!(!hub.streams.contains_key(&salted));
}

#[test]
fn a_resync_from_the_scheduler_replaces_every_stream() {
    let ns = Namespace::global();
    let mut hub = state();
    let mut sub = hub.subscribe(&ns, 0, 64);
    hub.ingest(HubInput::Events(vec![
        stored(&ns, None, 1),
        stored(&ns, Some(1), 2),
    ]));
    // Changes were lost; the tree now holds only block 9.
    hub.ingest(HubInput::Resync(vec![stored(&ns, None, 9)]));
    let got = drain(&mut sub);
    assert!(contiguous(&got));
    assert_eq!(apply(&got), HashMap::from([(9, None)]));
}
