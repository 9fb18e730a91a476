//! A request's event channel, counting the events its reader has not taken yet. A client
//! that stops reading (a stalled socket, an HTTP/2 stream never given window) counts as gone
//! once it leaves [`MAX_UNREAD_EVENTS`] behind, so its output cannot pile up in memory while
//! the scheduler keeps generating it.

use super::GenerateEvent;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::sync::mpsc;

/// Events a reader may leave unread before its request is aborted. A request sends one per
/// step (its tokens of that step; the last step also its end), so this is thousands of
/// steps behind.
pub const MAX_UNREAD_EVENTS: usize = 4096;

/// The scheduler's end of a request's events.
pub(crate) struct EventSender {
    tx: mpsc::UnboundedSender<GenerateEvent>,
    unread: Arc<AtomicUsize>,
}

/// The reader's end.
pub(crate) struct EventReceiver {
    rx: mpsc::UnboundedReceiver<GenerateEvent>,
    unread: Arc<AtomicUsize>,
}

pub(crate) fn event_channel() -> (EventSender, EventReceiver) {
    let (tx, rx) = mpsc::unbounded_channel();
    let unread = Arc::new(AtomicUsize::new(0));
    let sender = EventSender {
        tx,
        unread: unread.clone(),
    };
    (sender, EventReceiver { rx, unread })
}

impl EventSender {
    /// Sends `event` unless the reader is gone.
    pub fn send(&self, event: GenerateEvent) {
        // Counted before it can be read, so the count never goes below zero.
        self.unread.fetch_add(1, Ordering::AcqRel);
        if self.tx.send(event).is_err() {
            self.unread.fetch_sub(1, Ordering::AcqRel);
        }
    }

    /// The reader dropped its end, or left too many events unread.
    pub fn reader_gone(&self) -> bool {
        self.tx.is_closed() || self.unread.load(Ordering::Acquire) >= MAX_UNREAD_EVENTS
    }
}

impl EventReceiver {
    pub async fn recv(&mut self) -> Option<GenerateEvent> {
        let event = self.rx.recv().await;
        self.took(event)
    }

    pub fn blocking_recv(&mut self) -> Option<GenerateEvent> {
        let event = self.rx.blocking_recv();
        self.took(event)
    }

    fn took(&self, event: Option<GenerateEvent>) -> Option<GenerateEvent> {
        if event.is_some() {
            self.unread.fetch_sub(1, Ordering::AcqRel);
        }
        event
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::GenerateError;

    fn event() -> GenerateEvent {
        GenerateEvent::Error(GenerateError::Engine("x".into()))
    }

    #[test]
    fn a_reader_that_falls_too_far_behind_counts_as_gone() {
        let (tx, mut rx) = event_channel();
        for _ in 0..MAX_UNREAD_EVENTS - 1 {
            tx.send(event());
        }
        assert!(!tx.reader_gone());
        assert!(rx.blocking_recv().is_some());
        tx.send(event());
        assert!(!tx.reader_gone(), "it read one: still one short");
        tx.send(event());
        assert!(tx.reader_gone());
        drop(rx);
        tx.send(event());
        assert!(tx.reader_gone());
    }

    #[test]
    fn a_dropped_reader_is_gone_at_once() {
        let (tx, rx) = event_channel();
        assert!(!tx.reader_gone());
        drop(rx);
        assert!(tx.reader_gone());
    }
}
