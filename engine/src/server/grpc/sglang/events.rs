//! `SubscribeKvEvents`: the engine's KV event batches for the caller's namespace in the
//! protocol's shapes. Block handles are the tree's keyed hashes, passed as i64.

use super::subscriptions::SubscriptionSlot;
use crate::kv_events::{KvBatch, KvEvent, KvSubscription};
use futures_util::Stream;
use proto::sglang::common as pb;
use proto::sglang::common::kv_cache_event::Data;
use std::pin::Pin;
use tonic::Status;

pub(super) type KvEventStream =
    Pin<Box<dyn Stream<Item = Result<pb::KvEventBatch, Status>> + Send>>;

fn handle(hash: u64) -> i64 {
    hash as i64
}

fn event(event: &KvEvent, block_size: usize) -> pb::KvCacheEvent {
    let data = match event {
        KvEvent::Stored { parent, blocks } => Data::Stored(pb::KvBlocksStored {
            blocks: blocks
                .iter()
                .map(|b| pb::KvBlock {
                    block_hash: handle(b.hash),
                    token_ids: b.tokens.clone(),
                    block_size: i32::try_from(block_size).unwrap_or(i32::MAX),
                })
                .collect(),
            parent_block_hash: parent.map(handle),
            tier: Some(pb::KvCacheTier::Device.into()),
        }),
        KvEvent::Removed { hashes } => Data::Removed(pb::KvBlocksRemoved {
            block_hashes: hashes.iter().copied().map(handle).collect(),
            cache_level: None,
            tier: Some(pb::KvCacheTier::Device.into()),
        }),
        KvEvent::Cleared => Data::Cleared(pb::KvCacheCleared {}),
    };
    pb::KvCacheEvent {
        event_id: 0,
        data: Some(data),
    }
}

fn batch(batch: &KvBatch, block_size: usize) -> pb::KvEventBatch {
    pb::KvEventBatch {
        sequence_number: batch.sequence,
        timestamp: batch.timestamp,
        events: batch.events.iter().map(|e| event(e, block_size)).collect(),
        dp_rank: Some(0),
    }
}

/// The subscription as a response stream, holding its slot; it ends when the engine stops.
pub(super) fn event_stream(
    subscription: KvSubscription,
    block_size: usize,
    slot: SubscriptionSlot,
) -> KvEventStream {
    Box::pin(futures_util::stream::unfold(
        (subscription, slot),
        move |(mut subscription, slot)| async move {
            let next = subscription.recv().await?;
            Some((Ok(batch(&next, block_size)), (subscription, slot)))
        },
    ))
}
