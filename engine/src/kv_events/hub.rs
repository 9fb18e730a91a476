//! The hub: numbers the scheduler's block changes per namespace, keeps each namespace's
//! mirror and recent batches, and feeds subscribers without ever blocking on them.

use super::mirror::Mirror;
use super::{KvBatch, KvEvent};
use parking_lot::Mutex;
use radix::{BlockChange, BlockEvent, Namespace};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::sync::mpsc::error::TrySendError;

/// Scheduler steps whose changes may wait for the hub; past that the scheduler resyncs.
const INPUT_CAPACITY: usize = 4096;
/// Batches kept per namespace for subscribers that reconnect.
const RING_BATCHES: usize = 1024;
/// Batches queued per subscriber before it counts as lagging (a ring's replay fits).
const SUBSCRIBER_QUEUE: usize = 2 * RING_BATCHES;
/// How often lagging subscribers are offered their resync while no change arrives.
const RETRY_INTERVAL: Duration = Duration::from_millis(200);

/// What the scheduler sends the hub.
pub(crate) enum HubInput {
    /// The tree's block changes since the last step.
    Events(Vec<BlockEvent>),
    /// Every cached block (after changes were lost): every namespace restarts from it.
    Resync(Vec<BlockEvent>),
}

pub(crate) type HubSender = SyncSender<HubInput>;

/// Subscriptions to the KV events of the engine's namespaces. Cheap to clone.
#[derive(Clone)]
pub struct KvEventHub {
    state: Arc<Mutex<HubState>>,
    block_size: usize,
}

/// A subscriber's batches, in order, numbered without gaps.
pub struct KvSubscription {
    rx: tokio::sync::mpsc::Receiver<KvBatch>,
}

impl KvSubscription {
    /// The next batch; `None` once the engine has stopped.
    pub async fn recv(&mut self) -> Option<KvBatch> {
        self.rx.recv().await
    }

    /// The next batch if one is queued.
    pub fn try_recv(&mut self) -> Option<KvBatch> {
        self.rx.try_recv().ok()
    }
}

impl KvEventHub {
    /// Starts the hub's thread; the scheduler gets the sender.
    pub(crate) fn start(block_size: usize) -> std::io::Result<(Self, HubSender)> {
        let (tx, rx) = std::sync::mpsc::sync_channel(INPUT_CAPACITY);
        // Numbers start at the start time in microseconds: a restarted worker's numbers
        // are above its predecessor's, and a fresh snapshot always has numbers below them.
        let base = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1 << 50, |d| d.as_micros() as u64);
        let state = Arc::new(Mutex::new(HubState {
            base,
            streams: FxHashMap::default(),
        }));
        let hub = Self {
            state: state.clone(),
            block_size,
        };
        std::thread::Builder::new()
            .name("kv-events".into())
            .spawn(move || run(&state, &rx))?;
        Ok((hub, tx))
    }

    pub fn block_size(&self) -> usize {
        self.block_size
    }

    /// Subscribes to `namespace`'s batches after `start`: the batches after it if the
    /// namespace's recent history still holds them; otherwise (and for 0) a snapshot first,
    /// numbered to end at the current number for 0 and to follow `start` for any other.
    pub fn subscribe(&self, namespace: &Namespace, start: u64) -> KvSubscription {
        self.state
            .lock()
            .subscribe(namespace, start, SUBSCRIBER_QUEUE)
    }

    /// Blocks of `namespace` the hub knows to be cached.
    pub fn cached_blocks(&self, namespace: &Namespace) -> usize {
        self.state
            .lock()
            .streams
            .get(namespace)
            .map_or(0, |s| s.mirror.len())
    }
}

fn run(state: &Mutex<HubState>, rx: &Receiver<HubInput>) {
    loop {
        match rx.recv_timeout(RETRY_INTERVAL) {
            Ok(input) => state.lock().ingest(input),
            Err(RecvTimeoutError::Timeout) => state.lock().retry_lagging(),
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
}

struct HubState {
    base: u64,
    streams: FxHashMap<Namespace, Stream>,
}

/// Only namespaces a subscription can name are published: a tenant's (or the global)
/// namespace without a request's salt or an adapter.
fn published(ns: &Namespace) -> bool {
    ns.salt.is_none() && ns.adapter.is_none()
}

fn now_secs() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

fn to_kv_event(change: BlockChange) -> KvEvent {
    match change {
        BlockChange::Stored { parent, blocks } => KvEvent::Stored { parent, blocks },
        BlockChange::Removed { hashes } => KvEvent::Removed { hashes },
    }
}

/// Events grouped by namespace, each group in order, groups in order of first appearance.
fn by_namespace(events: Vec<BlockEvent>) -> Vec<(Namespace, Vec<KvEvent>)> {
    let mut groups: Vec<(Namespace, Vec<KvEvent>)> = Vec::new();
    for event in events.into_iter().filter(|e| published(&e.namespace)) {
        let change = to_kv_event(event.change);
        match groups.iter_mut().find(|(ns, _)| *ns == event.namespace) {
            Some((_, group)) => group.push(change),
            None => groups.push((event.namespace, vec![change])),
        }
    }
    groups
}

impl HubState {
    fn subscribe(&mut self, namespace: &Namespace, start: u64, queue: usize) -> KvSubscription {
        let (tx, rx) = tokio::sync::mpsc::channel(queue);
        let stream = self.stream(namespace);
        let mut sub = Subscriber {
            tx,
            next: 0,
            expect: stream.last.wrapping_add(1),
            lagged: false,
        };
        if start != 0 && stream.covers(start) {
            sub.next = start.wrapping_add(1);
            sub.expect = start.wrapping_add(1);
            for batch in stream.ring.iter().filter(|b| b.sequence > start) {
                sub.offer(batch, &stream.mirror, stream.last);
            }
        } else {
            let chunks = stream.mirror.snapshot();
            sub.next = if start == 0 {
                stream
                    .last
                    .wrapping_add(1)
                    .wrapping_sub(chunks.len() as u64)
            } else {
                start.wrapping_add(1)
            };
            sub.send_snapshot(chunks, stream.last);
        }
        stream.subscribers.push(sub);
        KvSubscription { rx }
    }

    fn stream(&mut self, ns: &Namespace) -> &mut Stream {
        let base = self.base;
        self.streams.entry(ns.clone()).or_insert_with(|| Stream {
            last: base,
            ring: VecDeque::new(),
            mirror: Mirror::default(),
            subscribers: Vec::new(),
        })
    }

    fn ingest(&mut self, input: HubInput) {
        match input {
            HubInput::Events(events) => {
                for (ns, group) in by_namespace(events) {
                    self.stream(&ns).publish(group);
                }
            }
            HubInput::Resync(snapshot) => {
                let mut groups = by_namespace(snapshot);
                for ns in self.streams.keys() {
                    if !groups.iter().any(|(n, _)| n == ns) {
                        groups.push((ns.clone(), Vec::new()));
                    }
                }
                for (ns, stored) in groups {
                    let mut fresh = Mirror::default();
                    stored.iter().for_each(|e| fresh.apply(e));
                    let stream = self.stream(&ns);
                    for chunk in fresh.snapshot() {
                        stream.publish(chunk);
                    }
                }
            }
        }
    }

    fn retry_lagging(&mut self) {
        for stream in self.streams.values_mut() {
            let (mirror, last) = (&stream.mirror, stream.last);
            stream.subscribers.retain_mut(|sub| {
                if sub.lagged {
                    sub.try_resync(mirror, last);
                }
                !sub.tx.is_closed()
            });
        }
    }
}

struct Stream {
    /// Number of the newest batch.
    last: u64,
    ring: VecDeque<KvBatch>,
    mirror: Mirror,
    subscribers: Vec<Subscriber>,
}

impl Stream {
    /// Whether the batches after `start` are all still in the ring.
    fn covers(&self, start: u64) -> bool {
        start <= self.last
            && self
                .ring
                .front()
                .map_or(start == self.last, |first| start >= first.sequence - 1)
    }

    fn publish(&mut self, events: Vec<KvEvent>) {
        events.iter().for_each(|e| self.mirror.apply(e));
        self.last += 1;
        let batch = KvBatch {
            sequence: self.last,
            timestamp: now_secs(),
            events: events.into(),
        };
        let (mirror, last) = (&self.mirror, self.last);
        self.subscribers
            .retain_mut(|sub| sub.offer(&batch, mirror, last));
        self.ring.push_back(batch);
        if self.ring.len() > RING_BATCHES {
            self.ring.pop_front();
        }
    }
}

struct Subscriber {
    tx: tokio::sync::mpsc::Sender<KvBatch>,
    /// The number its next batch gets.
    next: u64,
    /// The stream number of the batch it expects next.
    expect: u64,
    /// Missed batches: waits for room for a resync.
    lagged: bool,
}

impl Subscriber {
    /// Offers one stream batch; false once the subscriber is gone.
    fn offer(&mut self, batch: &KvBatch, mirror: &Mirror, last: u64) -> bool {
        if self.lagged || batch.sequence != self.expect {
            self.lagged = true;
            return self.try_resync(mirror, last);
        }
        let numbered = KvBatch {
            sequence: self.next,
            ..batch.clone()
        };
        match self.tx.try_send(numbered) {
            Ok(()) => {
                self.next = self.next.wrapping_add(1);
                self.expect = self.expect.wrapping_add(1);
                true
            }
            Err(TrySendError::Full(_)) => {
                self.lagged = true;
                true
            }
            Err(TrySendError::Closed(_)) => false,
        }
    }

    /// Sends the mirror as of stream number `last` if the queue has room for all of it;
    /// false once the subscriber is gone.
    fn try_resync(&mut self, mirror: &Mirror, last: u64) -> bool {
        if self.tx.is_closed() {
            return false;
        }
        let chunks = mirror.snapshot();
        if self.tx.capacity() >= chunks.len() {
            self.send_snapshot(chunks, last);
        }
        true
    }

    fn send_snapshot(&mut self, chunks: Vec<Vec<KvEvent>>, last: u64) {
        let timestamp = now_secs();
        for events in chunks {
            let batch = KvBatch {
                sequence: self.next,
                timestamp,
                events: events.into(),
            };
            if self.tx.try_send(batch).is_err() {
                // No room after all (or gone): try again later.
                self.lagged = true;
                return;
            }
            self.next = self.next.wrapping_add(1);
        }
        self.expect = last.wrapping_add(1);
        self.lagged = false;
    }
}

#[cfg(test)]
#[path = "hub_tests.rs"]
mod tests;
