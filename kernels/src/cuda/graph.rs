//! CUDA graphs: the launches of a decode step recorded once and replayed with one call, so a
//! step costs one launch instead of hundreds (SGLang's CUDA-graph runner).
//!
//! A captured graph holds the device addresses and scalar arguments of every launch, not the
//! data: whatever it reads must sit at fixed addresses that the host rewrites before each
//! replay ([`GpuContext::upload_into`]), and nothing it touches may be reallocated while it
//! lives. The capture itself must not allocate, copy from the host or wait on the stream.

use super::context::GpuContext;
use super::error::{bad_shape, CudaError};
use cudarc::driver::sys::{CUgraphInstantiate_flags, CUstreamCaptureMode};
use cudarc::driver::{CudaGraph, CudaSlice, CudaStream, DeviceRepr};
use std::sync::Arc;

/// A recorded sequence of launches on the context's stream.
pub struct DeviceGraph {
    graph: CudaGraph,
}

// SAFETY: a CUDA graph may be launched from any thread that makes its context current (the
// launch does); what the driver forbids is concurrent use, and `DeviceGraph` is not `Sync`:
// it is used through one owner at a time.
unsafe impl Send for DeviceGraph {}

impl std::fmt::Debug for DeviceGraph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DeviceGraph")
    }
}

impl DeviceGraph {
    /// Enqueues the recorded launches on the stream, after everything enqueued before.
    pub fn replay(&self) -> Result<(), CudaError> {
        Ok(self.graph.launch()?)
    }
}

impl GpuContext {
    /// Records what `body` enqueues on the stream into a graph instead of running it. On an
    /// error of `body` the capture is ended and dropped, and the error returned.
    pub fn capture<E>(&self, body: impl FnOnce() -> Result<(), E>) -> Result<DeviceGraph, E>
    where
        E: From<CudaError>,
    {
        // cuBLAS must not allocate its workspace inside the capture.
        self.blas()?;
        let stream = self.stream();
        stream
            .begin_capture(CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)
            .map_err(CudaError::from)?;
        let mut guard = CaptureGuard {
            stream,
            capturing: true,
        };
        body()?;
        guard.capturing = false;
        match stream
            .end_capture(CUgraphInstantiate_flags(0))
            .map_err(CudaError::from)?
        {
            Some(graph) => {
                // Loads the graph's resources now rather than on the first replay.
                graph.upload().map_err(CudaError::from)?;
                Ok(DeviceGraph { graph })
            }
            None => Err(CudaError::Shape("the capture recorded nothing".into()).into()),
        }
    }

    /// Copies `host` into the first values of `dev`, in stream order: the per-step refill of
    /// a buffer that a graph reads at its fixed address.
    pub fn upload_into<T: DeviceRepr>(
        &self,
        host: &[T],
        dev: &mut CudaSlice<T>,
    ) -> Result<(), CudaError> {
        if host.len() > dev.len() {
            return bad_shape(format!(
                "{} values into a device buffer of {}",
                host.len(),
                dev.len()
            ));
        }
        if host.is_empty() {
            return Ok(());
        }
        let mut prefix = dev.slice_mut(..host.len());
        Ok(self.stream().memcpy_htod(host, &mut prefix)?)
    }
}

/// Ends a capture whose body failed or panicked, discarding what it recorded, so the stream
/// never stays in capture mode (everything enqueued later would be recorded, not run).
struct CaptureGuard<'a> {
    stream: &'a Arc<CudaStream>,
    capturing: bool,
}

impl Drop for CaptureGuard<'_> {
    fn drop(&mut self) {
        if !self.capturing {
            return;
        }
        // SAFETY: the stream is in the capture `GpuContext::capture` began; ending it hands
        // back a graph (possibly null) that nothing else owns, destroyed here.
        unsafe {
            if let Ok(graph) = cudarc::driver::result::stream::end_capture(self.stream.cu_stream())
            {
                if !graph.is_null() {
                    let _ = cudarc::driver::result::graph::destroy(graph);
                }
            }
        }
    }
}
