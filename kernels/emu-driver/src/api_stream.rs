//! Streams, events, stream capture and graphs.

use crate::status::{CuResult, CUDA_ERROR_INVALID_HANDLE, CUDA_ERROR_INVALID_VALUE, CUDA_SUCCESS};
use crate::stream::{refuse_during_capture, run_queued, run_through, stream_of, Graph, Stream};
use parking_lot::Mutex;
use std::ffi::{c_int, c_uint, c_ulonglong, c_void};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// # Safety
/// `stream` is writable.
#[no_mangle]
pub unsafe extern "C" fn cuStreamCreate(stream: *mut *mut c_void, _flags: c_uint) -> CuResult {
    if stream.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // SAFETY: the caller's contract.
    unsafe { *stream = Box::into_raw(Box::<Stream>::default()).cast() };
    CUDA_SUCCESS
}

/// # Safety
/// `stream` is writable.
#[no_mangle]
pub unsafe extern "C" fn cuStreamCreateWithPriority(
    stream: *mut *mut c_void,
    flags: c_uint,
    _priority: c_int,
) -> CuResult {
    // SAFETY: the caller's contract.
    unsafe { cuStreamCreate(stream, flags) }
}

/// A capture still under way on the stream ends with it (its records dropped).
///
/// # Safety
/// `stream` came from `cuStreamCreate` and is destroyed once.
#[no_mangle]
pub unsafe extern "C" fn cuStreamDestroy_v2(stream: *mut c_void) -> CuResult {
    if (stream as usize) <= 2 {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    // SAFETY: the caller's contract.
    let stream = unsafe { Box::from_raw(stream.cast::<Stream>()) };
    if stream.is_capturing() {
        let _ = stream.end_capture();
    }
    CUDA_SUCCESS
}

fn code(result: Result<(), CuResult>) -> CuResult {
    match result {
        Ok(()) => CUDA_SUCCESS,
        Err(code) => code,
    }
}

/// Runs everything enqueued (on every stream: one queue keeps them in program order); a
/// capturing stream cannot be waited on.
///
/// # Safety
/// `stream` is a live stream handle.
#[no_mangle]
pub unsafe extern "C" fn cuStreamSynchronize(stream: *mut c_void) -> CuResult {
    // SAFETY: the caller's contract.
    code(
        unsafe { stream_of(stream) }
            .refuse_if_capturing()
            .and_then(|()| run_queued()),
    )
}

/// # Safety
/// `stream` is a live stream handle.
#[no_mangle]
pub unsafe extern "C" fn cuStreamQuery(stream: *mut c_void) -> CuResult {
    // SAFETY: the caller's contract.
    unsafe { cuStreamSynchronize(stream) }
}

/// Work on one stream is ordered with all other work already: one queue holds them all in
/// program order.
#[no_mangle]
pub extern "C" fn cuStreamWaitEvent(
    _stream: *mut c_void,
    event: *mut c_void,
    _flags: c_uint,
) -> CuResult {
    if event.is_null() {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    CUDA_SUCCESS
}

/// # Safety
/// `stream` is a live stream handle.
#[no_mangle]
pub unsafe extern "C" fn cuStreamBeginCapture_v2(stream: *mut c_void, mode: c_uint) -> CuResult {
    if (stream as usize) <= 2 {
        // The legacy stream cannot be captured.
        return CUDA_ERROR_INVALID_VALUE;
    }
    // SAFETY: the caller's contract.
    unsafe { stream_of(stream) }.begin_capture(mode)
}

/// # Safety
/// `stream` is a live stream handle; `graph` is writable.
#[no_mangle]
pub unsafe extern "C" fn cuStreamEndCapture(
    stream: *mut c_void,
    graph: *mut *mut c_void,
) -> CuResult {
    if graph.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // SAFETY: the caller's contract.
    let ended = unsafe { stream_of(stream) }.end_capture();
    let (handle, code) = match ended {
        Ok(captured) => (Box::into_raw(Box::new(captured)).cast(), CUDA_SUCCESS),
        Err(code) => (std::ptr::null_mut(), code),
    };
    // SAFETY: the caller's contract.
    unsafe { *graph = handle };
    code
}

/// # Safety
/// `stream` is a live stream handle; `status` is writable.
#[no_mangle]
pub unsafe extern "C" fn cuStreamIsCapturing(stream: *mut c_void, status: *mut c_uint) -> CuResult {
    if status.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // SAFETY: the caller's contract.
    let capture = unsafe { stream_of(stream) }.capture_status();
    // SAFETY: the caller's contract.
    unsafe { *status = capture };
    CUDA_SUCCESS
}

/// An instantiated graph shares the captured records.
///
/// # Safety
/// `graph` came from `cuStreamEndCapture`; `exec` is writable.
#[no_mangle]
pub unsafe extern "C" fn cuGraphInstantiateWithFlags(
    exec: *mut *mut c_void,
    graph: *mut c_void,
    _flags: c_ulonglong,
) -> CuResult {
    if exec.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // SAFETY: the caller's contract.
    let Some(graph) = (unsafe { graph.cast::<Graph>().as_ref() }) else {
        return CUDA_ERROR_INVALID_HANDLE;
    };
    let instance = Graph {
        ops: graph.ops.clone(),
    };
    // SAFETY: the caller's contract.
    unsafe { *exec = Box::into_raw(Box::new(instance)).cast() };
    CUDA_SUCCESS
}

/// # Safety
/// `exec` is a live instantiated graph; `stream` a live stream handle.
#[no_mangle]
pub unsafe extern "C" fn cuGraphLaunch(exec: *mut c_void, stream: *mut c_void) -> CuResult {
    // SAFETY: the caller's contract.
    let Some(graph) = (unsafe { exec.cast::<Graph>().as_ref() }) else {
        return CUDA_ERROR_INVALID_HANDLE;
    };
    // SAFETY: the caller's contract.
    graph.launch(unsafe { stream_of(stream) })
}

/// Nothing to upload: the records are in host memory already.
#[no_mangle]
pub extern "C" fn cuGraphUpload(exec: *mut c_void, _stream: *mut c_void) -> CuResult {
    if exec.is_null() {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    CUDA_SUCCESS
}

/// # Safety
/// `graph` came from `cuStreamEndCapture` and is destroyed once.
#[no_mangle]
pub unsafe extern "C" fn cuGraphDestroy(graph: *mut c_void) -> CuResult {
    if graph.is_null() {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    // SAFETY: the caller's contract.
    drop(unsafe { Box::from_raw(graph.cast::<Graph>()) });
    CUDA_SUCCESS
}

/// # Safety
/// `exec` came from `cuGraphInstantiateWithFlags` and is destroyed once.
#[no_mangle]
pub unsafe extern "C" fn cuGraphExecDestroy(exec: *mut c_void) -> CuResult {
    // SAFETY: the same ownership rule as for graphs.
    unsafe { cuGraphDestroy(exec) }
}

/// A `CUevent`: the host time at which the stream reached it, and the number of its last
/// queued record (0: none), which a wait runs the queue through.
#[derive(Default)]
struct Event {
    reached: Mutex<Option<Instant>>,
    record: AtomicU64,
}

/// # Safety
/// `event` is writable.
#[no_mangle]
pub unsafe extern "C" fn cuEventCreate(event: *mut *mut c_void, _flags: c_uint) -> CuResult {
    if event.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    let created = Arc::new(Event::default());
    // SAFETY: the caller's contract.
    unsafe { *event = Arc::into_raw(created).cast_mut().cast() };
    CUDA_SUCCESS
}

/// # Safety
/// `event` came from `cuEventCreate`; `stream` is a live stream handle.
#[no_mangle]
pub unsafe extern "C" fn cuEventRecord(event: *mut c_void, stream: *mut c_void) -> CuResult {
    if event.is_null() {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    // SAFETY: the caller's contract: a live `Arc<Event>`, shared with the record.
    let event = unsafe {
        Arc::increment_strong_count(event.cast::<Event>());
        Arc::from_raw(event.cast::<Event>())
    };
    let marked = event.clone();
    // SAFETY: the caller's contract.
    let queued = unsafe { stream_of(stream) }.enqueue_numbered(Arc::new(move || {
        *marked.reached.lock() = Some(Instant::now());
        Ok(())
    }));
    match queued {
        Ok(number) => {
            event.record.store(number.unwrap_or(0), Ordering::SeqCst);
            CUDA_SUCCESS
        }
        Err(code) => code,
    }
}

/// Runs the queue through the event's last record, and no further: work queued after it
/// still waits. An event never recorded is complete at once.
///
/// # Safety
/// `event` came from `cuEventCreate` and is live.
#[no_mangle]
pub unsafe extern "C" fn cuEventSynchronize(event: *mut c_void) -> CuResult {
    // SAFETY: the caller's contract.
    let Some(event) = (unsafe { event.cast::<Event>().as_ref() }) else {
        return CUDA_ERROR_INVALID_HANDLE;
    };
    if let Err(code) = refuse_during_capture() {
        return code;
    }
    match event.record.load(Ordering::SeqCst) {
        0 => CUDA_SUCCESS,
        last => code(run_through(last)),
    }
}

/// As [`cuEventSynchronize`]: a host polling an event must see it complete.
///
/// # Safety
/// `event` came from `cuEventCreate` and is live.
#[no_mangle]
pub unsafe extern "C" fn cuEventQuery(event: *mut c_void) -> CuResult {
    // SAFETY: the caller's contract.
    unsafe { cuEventSynchronize(event) }
}

/// # Safety
/// `event` came from `cuEventCreate` and is destroyed once.
#[no_mangle]
pub unsafe extern "C" fn cuEventDestroy_v2(event: *mut c_void) -> CuResult {
    if event.is_null() {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    // SAFETY: the caller's contract: drops the reference `cuEventCreate` handed out.
    drop(unsafe { Arc::from_raw(event.cast::<Event>()) });
    CUDA_SUCCESS
}

/// # Safety
/// `ms` is writable; both events are live.
#[no_mangle]
pub unsafe extern "C" fn cuEventElapsedTime(
    ms: *mut f32,
    start: *mut c_void,
    end: *mut c_void,
) -> CuResult {
    if ms.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // SAFETY: the caller's contract.
    let (Some(start), Some(end)) = (unsafe { start.cast::<Event>().as_ref() }, unsafe {
        end.cast::<Event>().as_ref()
    }) else {
        return CUDA_ERROR_INVALID_HANDLE;
    };
    let (Some(a), Some(b)) = (*start.reached.lock(), *end.reached.lock()) else {
        return CUDA_ERROR_INVALID_HANDLE;
    };
    // SAFETY: the caller's contract.
    unsafe { *ms = b.saturating_duration_since(a).as_secs_f32() * 1e3 };
    CUDA_SUCCESS
}
