//! Streams and graphs. Enqueued operations wait in one queue, in program order (which keeps
//! every stream's order and every order between streams), and run when the host waits for
//! the device: a stream or event synchronization, a copy into pageable host memory, a
//! synchronous free. So a host read of pinned memory before waiting for the copy into it
//! sees what was there before, as it may on a GPU. A capturing stream records operations
//! instead; a graph made from the capture enqueues the records on each launch.

use crate::status::{
    CuResult, CUDA_ERROR_INVALID_VALUE, CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
    CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, CUDA_SUCCESS,
};
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::ThreadId;

/// One enqueued operation; it may run many times (each replay of a graph that recorded it).
pub(crate) type Op = Arc<dyn Fn() -> Result<(), CuResult> + Send + Sync>;

/// `CUstreamCaptureMode`.
const CAPTURE_MODE_GLOBAL: u32 = 0;
const CAPTURE_MODE_THREAD_LOCAL: u32 = 1;
const CAPTURE_MODE_RELAXED: u32 = 2;

struct Capture {
    ops: Vec<Op>,
    invalidated: Arc<AtomicBool>,
}

/// A `CUstream`: its handle is a pointer to this.
#[derive(Default)]
pub(crate) struct Stream {
    capture: Mutex<Option<Capture>>,
}

/// A captured graph (`CUgraph`) and its instantiation (`CUgraphExec`): the recorded ops.
pub(crate) struct Graph {
    pub(crate) ops: Vec<Op>,
}

/// The captures under way, for the calls a capture forbids: which thread began each and in
/// which mode.
struct CaptureWatch {
    thread: ThreadId,
    mode: u32,
    invalidated: Arc<AtomicBool>,
}

static WATCHES: Mutex<Vec<CaptureWatch>> = Mutex::new(Vec::new());

/// Operations enqueued and not yet run, numbered in enqueue order from 1.
struct Queue {
    ops: VecDeque<(u64, Op)>,
    next: u64,
}

static QUEUE: Mutex<Queue> = Mutex::new(Queue {
    ops: VecDeque::new(),
    next: 1,
});
/// The number of the last operation run.
static RAN_THROUGH: AtomicU64 = AtomicU64::new(0);
/// Held while the queue runs, so that two waiting threads run it in order, not interleaved.
static RUNNING: Mutex<()> = Mutex::new(());
/// The first error of an operation run since the last wait, which the wait reports (as a
/// GPU reports a failed kernel at the next synchronization).
static DEFERRED_ERROR: Mutex<Option<CuResult>> = Mutex::new(None);

/// Runs everything enqueued so far; the first error among them, if any.
pub(crate) fn run_queued() -> Result<(), CuResult> {
    run_through(u64::MAX)
}

/// Runs the operations numbered up to `last` (an event's record and what came before it);
/// the first error of any operation run since the last wait, if any.
pub(crate) fn run_through(last: u64) -> Result<(), CuResult> {
    let _running = RUNNING.lock();
    loop {
        let next = {
            let mut queue = QUEUE.lock();
            match queue.ops.front() {
                Some(&(number, _)) if number <= last => queue.ops.pop_front(),
                _ => None,
            }
        };
        let Some((number, op)) = next else {
            break;
        };
        if let Err(code) = op() {
            DEFERRED_ERROR.lock().get_or_insert(code);
        }
        RAN_THROUGH.store(number, Ordering::SeqCst);
    }
    match DEFERRED_ERROR.lock().take() {
        Some(code) => Err(code),
        None => Ok(()),
    }
}

/// The legacy default stream (handle null, `CU_STREAM_LEGACY` or `CU_STREAM_PER_THREAD`).
static DEFAULT_STREAM: Stream = Stream {
    capture: Mutex::new(None),
};

/// The stream a handle names.
///
/// # Safety
/// `handle` is null, 0x1, 0x2 or a pointer that `cuStreamCreate` returned and that is not
/// yet destroyed.
pub(crate) unsafe fn stream_of<'a>(handle: *mut c_void) -> &'a Stream {
    match handle as usize {
        0..=2 => &DEFAULT_STREAM,
        // SAFETY: the caller's contract.
        _ => unsafe { &*(handle as *const Stream) },
    }
}

impl Stream {
    /// Queues `op`, or records it while the stream captures.
    pub(crate) fn enqueue(&self, op: Op) -> CuResult {
        match self.enqueue_numbered(op) {
            Ok(_) => CUDA_SUCCESS,
            Err(code) => code,
        }
    }

    /// [`Self::enqueue`], with the queued operation's number (None: recorded in a capture).
    pub(crate) fn enqueue_numbered(&self, op: Op) -> Result<Option<u64>, CuResult> {
        let mut capture = self.capture.lock();
        if let Some(capture) = capture.as_mut() {
            if capture.invalidated.load(Ordering::SeqCst) {
                return Err(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
            }
            capture.ops.push(op);
            return Ok(None);
        }
        let mut queue = QUEUE.lock();
        let number = queue.next;
        queue.next += 1;
        queue.ops.push_back((number, op));
        Ok(Some(number))
    }

    /// `CUstreamCaptureStatus`: none (0), active (1) or invalidated (2).
    pub(crate) fn capture_status(&self) -> u32 {
        match self.capture.lock().as_ref() {
            None => 0,
            Some(capture) if capture.invalidated.load(Ordering::SeqCst) => 2,
            Some(_) => 1,
        }
    }

    pub(crate) fn is_capturing(&self) -> bool {
        self.capture.lock().is_some()
    }

    /// Whether the stream captures; a wait on such a stream is refused and ends the capture's
    /// validity, as on a GPU.
    pub(crate) fn refuse_if_capturing(&self) -> Result<(), CuResult> {
        match self.capture.lock().as_ref() {
            Some(capture) => {
                capture.invalidated.store(true, Ordering::SeqCst);
                Err(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED)
            }
            None => Ok(()),
        }
    }

    pub(crate) fn begin_capture(&self, mode: u32) -> CuResult {
        if !matches!(
            mode,
            CAPTURE_MODE_GLOBAL | CAPTURE_MODE_THREAD_LOCAL | CAPTURE_MODE_RELAXED
        ) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let mut capture = self.capture.lock();
        if capture.is_some() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let invalidated = Arc::new(AtomicBool::new(false));
        WATCHES.lock().push(CaptureWatch {
            thread: std::thread::current().id(),
            mode,
            invalidated: invalidated.clone(),
        });
        *capture = Some(Capture {
            ops: Vec::new(),
            invalidated,
        });
        CUDA_SUCCESS
    }

    /// Ends the capture: its graph, or the error that invalidated it (the records dropped).
    pub(crate) fn end_capture(&self) -> Result<Graph, CuResult> {
        let capture = self
            .capture
            .lock()
            .take()
            .ok_or(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED)?;
        WATCHES
            .lock()
            .retain(|watch| !Arc::ptr_eq(&watch.invalidated, &capture.invalidated));
        if capture.invalidated.load(Ordering::SeqCst) {
            return Err(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
        }
        Ok(Graph { ops: capture.ops })
    }
}

/// For a call a capture forbids (allocating, freeing, copying pageable host memory): fails,
/// and invalidates the captures it would break, when one began on this thread in
/// thread-local or global mode, or on any thread in global mode.
pub(crate) fn refuse_during_capture() -> Result<(), CuResult> {
    let here = std::thread::current().id();
    let watches = WATCHES.lock();
    let mut refused = false;
    for watch in watches.iter() {
        let applies = match watch.mode {
            CAPTURE_MODE_GLOBAL => true,
            CAPTURE_MODE_THREAD_LOCAL => watch.thread == here,
            _ => false,
        };
        if applies {
            watch.invalidated.store(true, Ordering::SeqCst);
            refused = true;
        }
    }
    if refused {
        eprintln!(
            "cuda-emu-driver: a call that a stream capture forbids; the capture is invalidated"
        );
        Err(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED)
    } else {
        Ok(())
    }
}

impl Graph {
    /// Runs the recorded operations in order, on `stream` (recorded into it if it captures).
    pub(crate) fn launch(&self, stream: &Stream) -> CuResult {
        let ops = self.ops.clone();
        stream.enqueue(Arc::new(move || ops.iter().try_for_each(|op| op())))
    }
}
