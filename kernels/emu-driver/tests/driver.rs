//! The emulated driver through its C entry points, as cudarc calls them: the rules it
//! enforces (stream captures, copies, module contents, operand bounds) and the ordering it
//! promises (queued work runs when the host waits). The GPU tests of `kernels` and `engine`
//! exercise it as a whole (scripts/check-cuda.sh); these pin down each rule.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use libloading::{Library, Symbol};
use std::ffi::{c_char, c_int, c_uint, c_void};
use std::sync::{Mutex, OnceLock};

const SUCCESS: i32 = 0;
const INVALID_VALUE: i32 = 1;
const NOT_FOUND: i32 = 500;
const ILLEGAL_ADDRESS: i32 = 700;
const CAPTURE_UNSUPPORTED: i32 = 900;
const CAPTURE_INVALIDATED: i32 = 901;
const CUBLAS_INVALID_VALUE: i32 = 7;
const CAPTURE_MODE_THREAD_LOCAL: c_uint = 1;

/// The queue and the capture watches are process-wide (one test's wait runs another's queued
/// copies): the tests run one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

/// The shared library cargo built beside this test binary, loaded once and never unloaded
/// (threads that used it run its thread-local destructors when they end).
fn driver() -> &'static Library {
    static LIBRARY: OnceLock<Library> = OnceLock::new();
    LIBRARY.get_or_init(|| {
        let exe = std::env::current_exe().unwrap();
        let path = exe.parent().unwrap().join("libcuda_emu_driver.so");
        // SAFETY: the library's initializers are Rust's; loading it runs nothing else.
        unsafe { Library::new(&path) }.unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    })
}

type Ptr = *mut c_void;

/// A driver entry point by name, with the signature the test gives it.
fn sym<'a, F>(lib: &'a Library, name: &str) -> Symbol<'a, F> {
    // SAFETY: each call site names the entry point's C signature.
    unsafe { lib.get::<F>(name.as_bytes()) }.unwrap()
}

struct Cuda<'a> {
    lib: &'a Library,
    stream: Ptr,
}

impl<'a> Cuda<'a> {
    fn new(lib: &'a Library) -> Self {
        let mut stream: Ptr = std::ptr::null_mut();
        // SAFETY: the entry points' C signatures.
        unsafe {
            assert_eq!(
                sym::<unsafe extern "C" fn(c_uint) -> i32>(lib, "cuInit")(0),
                SUCCESS
            );
            let create =
                sym::<unsafe extern "C" fn(*mut Ptr, c_uint) -> i32>(lib, "cuStreamCreate");
            assert_eq!(create(&mut stream, 0), SUCCESS);
        }
        Cuda { lib, stream }
    }

    fn alloc(&self, bytes: usize) -> Result<u64, i32> {
        let mut ptr = 0u64;
        // SAFETY: the entry point's C signature.
        let rc = unsafe {
            sym::<unsafe extern "C" fn(*mut u64, usize) -> i32>(self.lib, "cuMemAlloc_v2")(
                &mut ptr, bytes,
            )
        };
        if rc == SUCCESS {
            Ok(ptr)
        } else {
            Err(rc)
        }
    }

    fn pinned(&self, bytes: usize) -> *mut u8 {
        let mut ptr: Ptr = std::ptr::null_mut();
        // SAFETY: the entry point's C signature.
        let rc = unsafe {
            sym::<unsafe extern "C" fn(*mut Ptr, usize, c_uint) -> i32>(self.lib, "cuMemHostAlloc")(
                &mut ptr, bytes, 0,
            )
        };
        assert_eq!(rc, SUCCESS);
        ptr.cast()
    }

    fn htod(&self, dst: u64, src: *const u8, bytes: usize) -> i32 {
        // SAFETY: the entry point's C signature; `src` holds `bytes` bytes.
        unsafe {
            sym::<unsafe extern "C" fn(u64, *const c_void, usize, Ptr) -> i32>(
                self.lib,
                "cuMemcpyHtoDAsync_v2",
            )(dst, src.cast(), bytes, self.stream)
        }
    }

    fn dtoh(&self, dst: *mut u8, src: u64, bytes: usize) -> i32 {
        // SAFETY: the entry point's C signature; `dst` has room for `bytes` bytes.
        unsafe {
            sym::<unsafe extern "C" fn(*mut c_void, u64, usize, Ptr) -> i32>(
                self.lib,
                "cuMemcpyDtoHAsync_v2",
            )(dst.cast(), src, bytes, self.stream)
        }
    }

    fn sync(&self) -> i32 {
        // SAFETY: the entry point's C signature.
        unsafe {
            sym::<unsafe extern "C" fn(Ptr) -> i32>(self.lib, "cuStreamSynchronize")(self.stream)
        }
    }

    fn begin_capture(&self) -> i32 {
        // SAFETY: the entry point's C signature.
        unsafe {
            sym::<unsafe extern "C" fn(Ptr, c_uint) -> i32>(self.lib, "cuStreamBeginCapture_v2")(
                self.stream,
                CAPTURE_MODE_THREAD_LOCAL,
            )
        }
    }

    /// Ends the capture: its instantiated graph, or the error.
    fn end_capture(&self) -> Result<Ptr, i32> {
        let (mut graph, mut exec): (Ptr, Ptr) = (std::ptr::null_mut(), std::ptr::null_mut());
        // SAFETY: the entry points' C signatures.
        unsafe {
            let rc = sym::<unsafe extern "C" fn(Ptr, *mut Ptr) -> i32>(
                self.lib,
                "cuStreamEndCapture",
            )(self.stream, &mut graph);
            if rc != SUCCESS {
                assert!(graph.is_null());
                return Err(rc);
            }
            let instantiate = sym::<unsafe extern "C" fn(*mut Ptr, Ptr, u64) -> i32>(
                self.lib,
                "cuGraphInstantiateWithFlags",
            );
            assert_eq!(instantiate(&mut exec, graph, 0), SUCCESS);
        }
        Ok(exec)
    }

    fn event(&self) -> Ptr {
        let mut event: Ptr = std::ptr::null_mut();
        // SAFETY: the entry point's C signature.
        let rc = unsafe {
            sym::<unsafe extern "C" fn(*mut Ptr, c_uint) -> i32>(self.lib, "cuEventCreate")(
                &mut event, 0,
            )
        };
        assert_eq!(rc, SUCCESS);
        event
    }

    fn record(&self, event: Ptr) -> i32 {
        // SAFETY: the entry point's C signature.
        unsafe {
            sym::<unsafe extern "C" fn(Ptr, Ptr) -> i32>(self.lib, "cuEventRecord")(
                event,
                self.stream,
            )
        }
    }

    fn wait_event(&self, event: Ptr) -> i32 {
        // SAFETY: the entry point's C signature.
        unsafe { sym::<unsafe extern "C" fn(Ptr) -> i32>(self.lib, "cuEventSynchronize")(event) }
    }

    fn replay(&self, exec: Ptr) -> i32 {
        // SAFETY: the entry point's C signature.
        unsafe {
            sym::<unsafe extern "C" fn(Ptr, Ptr) -> i32>(self.lib, "cuGraphLaunch")(
                exec,
                self.stream,
            )
        }
    }
}

#[test]
fn queued_copies_reach_pinned_memory_only_when_the_host_waits() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let lib = driver();
    let cuda = Cuda::new(lib);
    let dev = cuda.alloc(16).unwrap();
    let mut source = [1u8, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
    assert_eq!(cuda.htod(dev, source.as_ptr(), 16), SUCCESS);
    // Pageable memory is taken when the call returns: overwriting it changes nothing.
    source.fill(0);
    let pinned = cuda.pinned(16);
    assert_eq!(cuda.dtoh(pinned, dev, 16), SUCCESS);
    // SAFETY: the pinned allocation holds 16 bytes.
    let host = unsafe { std::slice::from_raw_parts(pinned, 16) };
    assert_eq!(host, &[0xff; 16], "the copy ran before the host waited");
    assert_eq!(cuda.sync(), SUCCESS);
    assert_eq!(
        host,
        &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
    );
    // Pageable destinations are written before the call returns.
    let mut back = [0u8; 16];
    assert_eq!(cuda.dtoh(back.as_mut_ptr(), dev, 16), SUCCESS);
    assert_eq!(back[15], 16);
}

#[test]
fn an_event_wait_runs_the_queue_through_its_record_and_no_further() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let lib = driver();
    let cuda = Cuda::new(lib);
    let dev = cuda.alloc(8).unwrap();
    let (first, second) = (cuda.pinned(4), cuda.pinned(4));
    let (recorded, never) = (cuda.event(), cuda.event());
    assert_eq!(cuda.htod(dev, [1u8, 2, 3, 4].as_ptr(), 4), SUCCESS);
    assert_eq!(cuda.dtoh(first, dev, 4), SUCCESS);
    assert_eq!(cuda.record(recorded), SUCCESS);
    assert_eq!(cuda.htod(dev + 4, [5u8, 6, 7, 8].as_ptr(), 4), SUCCESS);
    assert_eq!(cuda.dtoh(second, dev + 4, 4), SUCCESS);
    // SAFETY: both pinned allocations hold 4 bytes.
    let (first, second) = unsafe {
        (
            std::slice::from_raw_parts(first, 4),
            std::slice::from_raw_parts(second, 4),
        )
    };
    // An event never recorded is complete at once, and runs nothing.
    assert_eq!(cuda.wait_event(never), SUCCESS);
    assert_eq!(first, &[0xff; 4]);
    assert_eq!(cuda.wait_event(recorded), SUCCESS);
    assert_eq!(first, &[1, 2, 3, 4]);
    assert_eq!(second, &[0xff; 4], "work queued after the event ran");
    assert_eq!(cuda.sync(), SUCCESS);
    assert_eq!(second, &[5, 6, 7, 8]);
}

#[test]
fn a_graph_replayed_after_its_buffer_was_freed_reports_an_illegal_address() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let lib = driver();
    let cuda = Cuda::new(lib);
    let (dev, pinned) = (cuda.alloc(4).unwrap(), cuda.pinned(4));
    assert_eq!(cuda.begin_capture(), SUCCESS);
    assert_eq!(cuda.dtoh(pinned, dev, 4), SUCCESS);
    let exec = cuda.end_capture().unwrap();
    assert_eq!(cuda.replay(exec), SUCCESS);
    assert_eq!(cuda.sync(), SUCCESS);
    // SAFETY: the entry point's C signature; `dev` is freed once.
    let freed = unsafe { sym::<unsafe extern "C" fn(u64) -> i32>(lib, "cuMemFree_v2")(dev) };
    assert_eq!(freed, SUCCESS);
    assert_eq!(cuda.replay(exec), SUCCESS);
    assert_eq!(cuda.sync(), ILLEGAL_ADDRESS);
    // The error is reported once; the stream goes on.
    assert_eq!(cuda.sync(), SUCCESS);
}

#[test]
fn copies_must_stay_inside_one_allocation() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let lib = driver();
    let cuda = Cuda::new(lib);
    let dev = cuda.alloc(64).unwrap();
    let data = [0u8; 65];
    assert_eq!(cuda.htod(dev, data.as_ptr(), 65), INVALID_VALUE);
    assert_eq!(cuda.htod(dev + 8, data.as_ptr(), 57), INVALID_VALUE);
    assert_eq!(cuda.htod(dev + 8, data.as_ptr(), 56), SUCCESS);
    assert_eq!(cuda.htod(0x1000, data.as_ptr(), 4), INVALID_VALUE);
    assert_eq!(cuda.alloc(0), Err(INVALID_VALUE));
}

#[test]
fn a_capture_that_allocates_or_copies_pageable_memory_is_invalidated() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let lib = driver();
    let cuda = Cuda::new(lib);
    let dev = cuda.alloc(16).unwrap();
    assert_eq!(cuda.begin_capture(), SUCCESS);
    assert_eq!(cuda.alloc(16), Err(CAPTURE_UNSUPPORTED));
    assert_eq!(cuda.end_capture(), Err(CAPTURE_INVALIDATED));

    let pageable = [7u8; 16];
    assert_eq!(cuda.begin_capture(), SUCCESS);
    assert_eq!(cuda.htod(dev, pageable.as_ptr(), 16), CAPTURE_UNSUPPORTED);
    assert_eq!(cuda.end_capture(), Err(CAPTURE_INVALIDATED));
    // The stream works again after the failed captures.
    assert_eq!(cuda.htod(dev, pageable.as_ptr(), 16), SUCCESS);
    assert_eq!(cuda.sync(), SUCCESS);
}

#[test]
fn a_graph_reads_its_pinned_source_at_each_replay() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let lib = driver();
    let cuda = Cuda::new(lib);
    let dev = cuda.alloc(4).unwrap();
    let (source, out) = (cuda.pinned(4), cuda.pinned(4));
    assert_eq!(cuda.begin_capture(), SUCCESS);
    assert_eq!(cuda.htod(dev, source, 4), SUCCESS);
    assert_eq!(cuda.dtoh(out, dev, 4), SUCCESS);
    let exec = cuda.end_capture().unwrap();
    for round in 1..=3u8 {
        // SAFETY: both pinned allocations hold 4 bytes.
        unsafe {
            std::ptr::write_bytes(source, round, 4);
            assert_eq!(cuda.replay(exec), SUCCESS);
            assert_eq!(cuda.sync(), SUCCESS);
            assert_eq!(std::slice::from_raw_parts(out, 4), &[round; 4]);
        }
    }
    // A wait inside a capture is refused and invalidates it.
    assert_eq!(cuda.begin_capture(), SUCCESS);
    assert_eq!(cuda.sync(), CAPTURE_UNSUPPORTED);
    assert_eq!(cuda.end_capture(), Err(CAPTURE_INVALIDATED));
}

#[test]
fn modules_give_only_the_kernels_they_declare_and_launches_run_them() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let lib = driver();
    let cuda = Cuda::new(lib);
    let ptx = b".version 8.0\n.target sm_90\n.visible .entry add_inplace(\n)\n{\n}\n\0";
    let mut module: Ptr = std::ptr::null_mut();
    let mut function: Ptr = std::ptr::null_mut();
    // SAFETY: the entry points' C signatures; the names are NUL-terminated.
    unsafe {
        let load =
            sym::<unsafe extern "C" fn(*mut Ptr, *const c_void) -> i32>(lib, "cuModuleLoadData");
        assert_eq!(load(&mut module, ptx.as_ptr().cast()), SUCCESS);
        let get = sym::<unsafe extern "C" fn(*mut Ptr, Ptr, *const c_char) -> i32>(
            lib,
            "cuModuleGetFunction",
        );
        let other = c"rms_norm";
        assert_eq!(get(&mut function, module, other.as_ptr()), NOT_FOUND);
        let prefix = c"add_in";
        assert_eq!(get(&mut function, module, prefix.as_ptr()), NOT_FOUND);
        let name = c"add_inplace";
        assert_eq!(get(&mut function, module, name.as_ptr()), SUCCESS);
    }
    let n = 300usize;
    let (x, y) = (cuda.alloc(n * 4).unwrap(), cuda.alloc(n * 4).unwrap());
    let xs: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let ys: Vec<f32> = (0..n).map(|i| 0.5 * i as f32).collect();
    assert_eq!(cuda.htod(x, xs.as_ptr().cast(), n * 4), SUCCESS);
    assert_eq!(cuda.htod(y, ys.as_ptr().cast(), n * 4), SUCCESS);
    let count = n as u64;
    let mut params: [Ptr; 3] = [
        (&x as *const u64).cast_mut().cast(),
        (&y as *const u64).cast_mut().cast(),
        (&count as *const u64).cast_mut().cast(),
    ];
    type LaunchFn = unsafe extern "C" fn(
        Ptr,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        Ptr,
        *mut Ptr,
        *mut Ptr,
    ) -> i32;
    let launch = sym::<LaunchFn>(lib, "cuLaunchKernel");
    // SAFETY: add_inplace(float*, const float*, unsigned long long) over two n-float buffers.
    unsafe {
        let null = std::ptr::null_mut();
        // Over 1,024 threads in a block: refused at the call, as a GPU does.
        assert_eq!(
            launch(
                function,
                1,
                1,
                1,
                2048,
                1,
                1,
                0,
                cuda.stream,
                params.as_mut_ptr(),
                null
            ),
            INVALID_VALUE
        );
        assert_eq!(
            launch(
                function,
                2,
                1,
                1,
                128,
                1,
                1,
                0,
                cuda.stream,
                params.as_mut_ptr(),
                null
            ),
            SUCCESS
        );
    }
    let mut out = vec![0f32; n];
    assert_eq!(cuda.dtoh(out.as_mut_ptr().cast(), x, n * 4), SUCCESS);
    for (i, v) in out.iter().enumerate() {
        assert_eq!(*v, 1.5 * i as f32);
    }
}

#[test]
fn gemm_operands_must_lie_in_device_memory() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let lib = driver();
    let cuda = Cuda::new(lib);
    let (m, n, k) = (3usize, 2usize, 4usize);
    let (a, b, c) = (
        cuda.alloc(m * k * 4).unwrap(),
        cuda.alloc(k * n * 4).unwrap(),
        cuda.alloc(m * n * 4).unwrap(),
    );
    let a_host: Vec<f32> = (0..m * k).map(|i| i as f32).collect();
    let b_host: Vec<f32> = (0..k * n).map(|i| 1.0 - i as f32).collect();
    assert_eq!(cuda.htod(a, a_host.as_ptr().cast(), m * k * 4), SUCCESS);
    assert_eq!(cuda.htod(b, b_host.as_ptr().cast(), k * n * 4), SUCCESS);
    let mut handle: Ptr = std::ptr::null_mut();
    type GemmEx = unsafe extern "C" fn(
        Ptr,
        c_int,
        c_int,
        c_int,
        c_int,
        c_int,
        *const c_void,
        u64,
        c_int,
        c_int,
        u64,
        c_int,
        c_int,
        *const c_void,
        u64,
        c_int,
        c_int,
        c_int,
        c_int,
    ) -> i32;
    let (alpha, beta) = (1.0f32, 0.0f32);
    // SAFETY: the entry points' C signatures; column-major A (m x k), B (k x n), C (m x n).
    unsafe {
        assert_eq!(
            sym::<unsafe extern "C" fn(*mut Ptr) -> i32>(lib, "cublasCreate_v2")(&mut handle),
            SUCCESS
        );
        assert_eq!(
            sym::<unsafe extern "C" fn(Ptr, Ptr) -> i32>(lib, "cublasSetStream_v2")(
                handle,
                cuda.stream
            ),
            SUCCESS
        );
        let gemm = sym::<GemmEx>(lib, "cublasGemmEx");
        let (al, be): (*const c_void, *const c_void) =
            ((&alpha as *const f32).cast(), (&beta as *const f32).cast());
        // A leading dimension that reaches past A's allocation.
        assert_eq!(
            gemm(
                handle, 0, 0, m as c_int, n as c_int, k as c_int, al, a, 0, 4, b, 0, 4, be, c, 0,
                3, 68, -1
            ),
            CUBLAS_INVALID_VALUE
        );
        assert_eq!(
            gemm(
                handle, 0, 0, m as c_int, n as c_int, k as c_int, al, a, 0, 3, b, 0, 4, be, c, 0,
                3, 68, -1
            ),
            SUCCESS
        );
    }
    let mut out = vec![0f32; m * n];
    assert_eq!(cuda.dtoh(out.as_mut_ptr().cast(), c, m * n * 4), SUCCESS);
    for i in 0..m {
        for j in 0..n {
            let want: f32 = (0..k).map(|p| a_host[i + p * m] * b_host[p + j * k]).sum();
            assert_eq!(out[i + j * m], want);
        }
    }
}
