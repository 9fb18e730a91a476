//! The hub: takes the scheduler's block changes, keeps each namespace's mirror, and feeds
//! subscribers without ever blocking on them.
//!
//! Every subscription numbers its own batches, from the number its subscriber asked to
//! start after, and begins with a snapshot (`Cleared` and every block). A reconnecting
//! subscriber is thus always right, whatever it missed and however its numbers were made
//! (a resync after lagging shifts a subscription's numbers off any shared sequence, so
//! replaying recent batches by number could skip some for good). A subscriber whose queue
//! fills misses batches; once it has read everything queued it gets a fresh snapshot, so it
//! holds at most one snapshot at a time. Snapshots are built once per mirror state and
//! shared by every subscriber that needs one.

use super::mirror::{Mirror, SNAPSHOT_CHUNK_BLOCKS};
use super::{KvBatch, KvEvent};
use parking_lot::Mutex;
use radix::{BlockChange, BlockEvent, Namespace};
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Scheduler steps whose changes may wait for the hub; past that the scheduler resyncs.
const INPUT_CAPACITY: usize = 4096;
/// Batches queued per subscriber before it counts as lagging.
const SUBSCRIBER_QUEUE: usize = 2048;
/// How often lagging subscribers are offered their resync, and closed ones dropped, busy or
/// not.
const RETRY_INTERVAL: Duration = Duration::from_millis(200);

/// What the scheduler sends the hub.
pub(crate) enum HubInput {
    /// The tree's block changes since the last step.
    Events(Vec<BlockEvent>),
    /// Every cached block (after changes were lost): every namespace restarts from it.
    Resync(Vec<BlockEvent>),
}

/// The scheduler's end of the hub's input queue.
pub(crate) struct HubSender {
    tx: SyncSender<HubInput>,
    /// Inputs sent and not yet taken by the hub.
    queued: Arc<AtomicUsize>,
}

impl HubSender {
    /// Queues `input` unless the queue is full (or the hub is gone).
    pub fn try_send(&self, input: HubInput) -> Result<(), TrySendError<HubInput>> {
        self.queued.fetch_add(1, Ordering::Relaxed);
        let sent = self.tx.try_send(input);
        if sent.is_err() {
            self.queued.fetch_sub(1, Ordering::Relaxed);
        }
        sent
    }

    /// Whether an input would be taken now: a resync snapshot of the whole tree is built
    /// only then, never to be dropped at a full queue.
    pub fn has_room(&self) -> bool {
        self.queued.load(Ordering::Relaxed) < INPUT_CAPACITY
    }
}

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
        let queued = Arc::new(AtomicUsize::new(0));
        let state = Arc::new(Mutex::new(HubState::default()));
        let hub = Self {
            state: state.clone(),
            block_size,
        };
        let taken = queued.clone();
        std::thread::Builder::new()
            .name("kv-events".into())
            .spawn(move || run(&state, &rx, &taken))?;
        Ok((hub, HubSender { tx, queued }))
    }

    pub fn block_size(&self) -> usize {
        self.block_size
    }

    /// Subscribes to `namespace`'s batches, numbered from `start + 1`: a snapshot of its
    /// blocks first, then every change. Builds the snapshot if the namespace has none
    /// ready: call it off async workers.
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

fn run(state: &Mutex<HubState>, rx: &Receiver<HubInput>, queued: &AtomicUsize) {
    let mut retried = Instant::now();
    loop {
        match rx.recv_timeout(RETRY_INTERVAL) {
            Ok(input) => {
                queued.fetch_sub(1, Ordering::Relaxed);
                state.lock().ingest(input);
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
        if retried.elapsed() >= RETRY_INTERVAL {
            state.lock().retry_lagging();
            retried = Instant::now();
        }
    }
}

#[derive(Default)]
struct HubState {
    streams: FxHashMap<Namespace, Stream>,
}

/// Only namespaces a subscription can name are published: a tenant's (or a group's, or the
/// global) namespace without a request's salt or an adapter.
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

/// Splits one step's events into batches of at most `max_blocks` blocks (a flush of a huge
/// namespace would otherwise be one message past what a client decodes), keeping order; a
/// chain cut in two continues from its last block.
fn split_events(events: Vec<KvEvent>, max_blocks: usize) -> Vec<Vec<KvEvent>> {
    let max_blocks = max_blocks.max(1);
    let mut batches: Vec<Vec<KvEvent>> = vec![Vec::new()];
    let mut room = max_blocks;
    // Room for `wanted` more blocks, in the current batch or a new one: how many fit.
    let mut reserve = |batches: &mut Vec<Vec<KvEvent>>, wanted: usize| {
        if room == 0 {
            batches.push(Vec::new());
            room = max_blocks;
        }
        let take = wanted.min(room);
        room -= take;
        take
    };
    for event in events {
        match event {
            KvEvent::Stored { mut parent, blocks } => {
                let mut rest = blocks;
                while !rest.is_empty() {
                    let take = reserve(&mut batches, rest.len());
                    let later = rest.split_off(take);
                    let last = rest.last().map(|b| b.hash);
                    if let Some(batch) = batches.last_mut() {
                        batch.push(KvEvent::Stored {
                            parent,
                            blocks: rest,
                        });
                    }
                    parent = last;
                    rest = later;
                }
            }
            KvEvent::Removed { hashes } => {
                let mut rest = hashes;
                while !rest.is_empty() {
                    let take = reserve(&mut batches, rest.len());
                    let later = rest.split_off(take);
                    if let Some(batch) = batches.last_mut() {
                        batch.push(KvEvent::Removed { hashes: rest });
                    }
                    rest = later;
                }
            }
            KvEvent::Cleared => {
                if let Some(batch) = batches.last_mut() {
                    batch.push(KvEvent::Cleared);
                }
            }
        }
    }
    batches.retain(|b| !b.is_empty());
    batches
}

impl HubState {
    fn subscribe(&mut self, namespace: &Namespace, start: u64, queue: usize) -> KvSubscription {
        let (tx, rx) = tokio::sync::mpsc::channel(queue);
        let stream = self.stream(namespace);
        let mut sub = Subscriber {
            tx,
            next: start.wrapping_add(1),
            lagged: true,
        };
        let snapshot = stream.snapshot();
        sub.try_resync(&snapshot);
        stream.subscribers.push(sub);
        KvSubscription { rx }
    }

    fn stream(&mut self, ns: &Namespace) -> &mut Stream {
        self.streams.entry(ns.clone()).or_default()
    }

    fn ingest(&mut self, input: HubInput) {
        match input {
            HubInput::Events(events) => {
                for (ns, group) in by_namespace(events) {
                    let stream = self.stream(&ns);
                    for batch in split_events(group, SNAPSHOT_CHUNK_BLOCKS) {
                        stream.publish(batch);
                    }
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

    /// Offers lagging subscribers their resync and drops the ones that are gone.
    fn retry_lagging(&mut self) {
        for stream in self.streams.values_mut() {
            let snapshot = stream.snapshot_if_wanted();
            stream.subscribers.retain_mut(|sub| match &snapshot {
                Some(snapshot) if sub.lagged => sub.try_resync(snapshot),
                _ => !sub.tx.is_closed(),
            });
        }
    }
}

/// A snapshot's batches, shared by the subscribers resyncing from one mirror state.
type Snapshot = Arc<[Arc<[KvEvent]>]>;

#[derive(Default)]
struct Stream {
    mirror: Mirror,
    /// The mirror's snapshot, while it still describes the mirror.
    snapshot: Option<Snapshot>,
    subscribers: Vec<Subscriber>,
}

impl Stream {
    fn snapshot(&mut self) -> Snapshot {
        let mirror = &self.mirror;
        self.snapshot
            .get_or_insert_with(|| mirror.snapshot().into_iter().map(Arc::from).collect())
            .clone()
    }

    /// The snapshot, if a lagging subscriber has read everything queued and can take it
    /// now: built only then, so a slow reader costs one snapshot per queue it drains.
    fn snapshot_if_wanted(&mut self) -> Option<Snapshot> {
        self.subscribers
            .iter()
            .any(Subscriber::ready_for_resync)
            .then(|| self.snapshot())
    }

    fn publish(&mut self, events: Vec<KvEvent>) {
        events.iter().for_each(|e| self.mirror.apply(e));
        self.snapshot = None;
        let snapshot = self.snapshot_if_wanted();
        let events: Arc<[KvEvent]> = events.into();
        let timestamp = now_secs();
        self.subscribers.retain_mut(|sub| match &snapshot {
            _ if !sub.lagged => sub.offer(&events, timestamp),
            Some(snapshot) => sub.try_resync(snapshot),
            None => !sub.tx.is_closed(),
        });
    }
}

struct Subscriber {
    tx: tokio::sync::mpsc::Sender<KvBatch>,
    /// The number its next batch gets.
    next: u64,
    /// Missed a batch (or never got its first snapshot): waits for a resync.
    lagged: bool,
}

impl Subscriber {
    /// Offers one live batch; false once the subscriber is gone.
    fn offer(&mut self, events: &Arc<[KvEvent]>, timestamp: f64) -> bool {
        let batch = KvBatch {
            sequence: self.next,
            timestamp,
            events: events.clone(),
        };
        match self.tx.try_send(batch) {
            Ok(()) => {
                self.next = self.next.wrapping_add(1);
                true
            }
            Err(tokio::sync::mpsc::error::TrySendError::Full(_)) => {
                self.lagged = true;
                true
            }
            Err(tokio::sync::mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    /// Lagging, with nothing left unread: a resync now is its only snapshot in flight.
    fn ready_for_resync(&self) -> bool {
        self.lagged && self.tx.capacity() == self.tx.max_capacity()
    }

    /// Sends `snapshot` once everything queued before it has been read (so a slow reader
    /// holds at most one snapshot); false once the subscriber is gone.
    fn try_resync(&mut self, snapshot: &Snapshot) -> bool {
        if self.tx.is_closed() {
            return false;
        }
        if !self.ready_for_resync() {
            return true;
        }
        let timestamp = now_secs();
        for events in snapshot.iter() {
            let batch = KvBatch {
                sequence: self.next,
                timestamp,
                events: events.clone(),
            };
            if self.tx.try_send(batch).is_err() {
                // A snapshot longer than the whole queue (over 16 M blocks): what was sent
                // is superseded by the next resync, which starts with `Cleared` again.
                return !self.tx.is_closed();
            }
            self.next = self.next.wrapping_add(1);
        }
        self.lagged = false;
        true
    }
}

#[cfg(test)]
#[path = "hub_tests.rs"]
mod tests;
