//! [`GpuContext`]: one device, one stream, the lazily compiled kernel modules and the cuBLAS
//! handle. Everything is enqueued on the one stream, so launches are ordered without events.

use super::error::CudaError;
use super::nvrtc::{compile_module, default_include_paths, CompileTarget, Module};
use cudarc::cublas::CudaBlas;
use cudarc::driver::{
    CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtrMut, DeviceRepr,
    ValidAsZeroBits,
};
use cudarc::nvrtc::Ptx;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

/// How to open a device.
#[derive(Clone, Debug, Default)]
pub struct GpuOptions {
    /// Directories holding `cuda_fp16.h` for NVRTC; empty: [`default_include_paths`].
    pub include_paths: Vec<PathBuf>,
    /// Compile PTX for this virtual architecture instead of a CUBIN for the device (e.g. for a
    /// GPU newer than the NVRTC in use).
    pub ptx_arch: Option<u32>,
}

#[derive(Default)]
struct Loaded {
    modules: [Option<Arc<CudaModule>>; Module::ALL.len()],
    functions: Vec<(&'static str, CudaFunction)>,
}

/// Owner of one CUDA device: its context and stream, the kernel modules (compiled by NVRTC on
/// first use, then cached) and the cuBLAS handle (created on first GEMM).
pub struct GpuContext {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    target: CompileTarget,
    include_paths: Vec<PathBuf>,
    loaded: Mutex<Loaded>,
    blas: Mutex<Option<Blas>>,
}

/// The cuBLAS handle with the workspace it was given: a fixed buffer, so that GEMMs recorded
/// into a CUDA graph never allocate one.
struct Blas {
    handle: Arc<CudaBlas>,
    _workspace: CudaSlice<u8>,
}

/// cuBLAS workspace: NVIDIA's recommendation for Hopper (32 MiB covers every GEMM we run).
const BLAS_WORKSPACE_BYTES: usize = 32 << 20;

impl std::fmt::Debug for GpuContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GpuContext")
            .field("ordinal", &self.ctx.ordinal())
            .field("target", &self.target)
            .field("include_paths", &self.include_paths)
            .finish()
    }
}

/// Whether the NVIDIA driver library can be loaded.
pub fn driver_available() -> bool {
    // SAFETY: only tries to dlopen the library by its usual names.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

impl GpuContext {
    /// Opens device `ordinal` with the default options.
    pub fn new(ordinal: usize) -> Result<Self, CudaError> {
        Self::with_options(ordinal, GpuOptions::default())
    }

    /// Fails cleanly (no panic) when the driver, a device or NVRTC is missing.
    pub fn with_options(ordinal: usize, options: GpuOptions) -> Result<Self, CudaError> {
        if !driver_available() {
            return Err(CudaError::LibraryMissing("CUDA driver (libcuda.so)"));
        }
        if !super::nvrtc::nvrtc_available() {
            return Err(CudaError::LibraryMissing("NVRTC (libnvrtc.so)"));
        }
        let ctx = CudaContext::new(ordinal)?;
        // With a second stream cudarc would record and wait on events around every buffer of
        // every launch (thousands of driver calls per decode step); all our work is on `stream`.
        // SAFETY: every allocation, copy, launch and cuBLAS call of this context is issued on
        // `stream` (the only stream created), so stream order alone synchronizes them.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.new_stream()?;
        let target = match options.ptx_arch {
            Some(arch) => CompileTarget::Ptx { arch },
            None => {
                let (major, minor) = ctx.compute_capability()?;
                CompileTarget::Cubin {
                    arch: (major * 10 + minor) as u32,
                }
            }
        };
        let include_paths = if options.include_paths.is_empty() {
            default_include_paths()
        } else {
            options.include_paths
        };
        Ok(Self {
            ctx,
            stream,
            target,
            include_paths,
            loaded: Mutex::new(Loaded::default()),
            blas: Mutex::new(None),
        })
    }

    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    pub fn context(&self) -> &Arc<CudaContext> {
        &self.ctx
    }

    /// What NVRTC compiles the modules to.
    pub fn target(&self) -> CompileTarget {
        self.target
    }

    /// Waits for everything enqueued so far.
    pub fn synchronize(&self) -> Result<(), CudaError> {
        Ok(self.stream.synchronize()?)
    }

    /// Compiles and loads every module now instead of on first use.
    pub fn preload(&self) -> Result<(), CudaError> {
        for module in Module::ALL {
            for name in module.entry_points() {
                self.function(module, name)?;
            }
        }
        Ok(())
    }

    /// Kernel `name` of `module`, compiling and loading the module on first use.
    pub(crate) fn function(
        &self,
        module: Module,
        name: &'static str,
    ) -> Result<CudaFunction, CudaError> {
        if !module.entry_points().contains(&name) {
            return Err(CudaError::MissingKernel {
                module: module.name(),
                name,
            });
        }
        let mut loaded = self.loaded.lock().map_err(|_| CudaError::Poisoned)?;
        if let Some((_, f)) = loaded.functions.iter().find(|(n, _)| *n == name) {
            return Ok(f.clone());
        }
        let cu_module = match &loaded.modules[module.index()] {
            Some(m) => m.clone(),
            None => {
                let image = compiled_image(module, self.target, &self.include_paths)?;
                let ptx = match self.target {
                    CompileTarget::Cubin { .. } => Ptx::from_binary(image.to_vec()),
                    CompileTarget::Ptx { .. } => {
                        let end = image.iter().position(|&b| b == 0).unwrap_or(image.len());
                        Ptx::from_src(String::from_utf8_lossy(&image[..end]).into_owned())
                    }
                };
                let m = self.ctx.load_module(ptx)?;
                loaded.modules[module.index()] = Some(m.clone());
                m
            }
        };
        let f = cu_module.load_function(name)?;
        loaded.functions.push((name, f.clone()));
        Ok(f)
    }

    /// The cuBLAS handle on this context's stream, created on first use.
    pub(crate) fn blas(&self) -> Result<Arc<CudaBlas>, CudaError> {
        let mut blas = self.blas.lock().map_err(|_| CudaError::Poisoned)?;
        if let Some(b) = blas.as_ref() {
            return Ok(b.handle.clone());
        }
        // SAFETY: only tries to dlopen the library by its usual names.
        if !unsafe { cudarc::cublas::sys::is_culib_present() } {
            return Err(CudaError::LibraryMissing("cuBLAS (libcublas.so)"));
        }
        let handle = Arc::new(CudaBlas::new(self.stream.clone())?);
        let mut workspace = self.zeros::<u8>(BLAS_WORKSPACE_BYTES)?;
        {
            let (ptr, _sync) = workspace.device_ptr_mut(&self.stream);
            // SAFETY: the handle is live, and the workspace outlives it (both dropped with
            // this context, the handle first: it is the first field of `Blas`).
            unsafe {
                cudarc::cublas::sys::cublasSetWorkspace_v2(
                    *handle.handle(),
                    ptr as *mut std::ffi::c_void,
                    BLAS_WORKSPACE_BYTES,
                )
            }
            .result()?;
        }
        *blas = Some(Blas {
            handle: handle.clone(),
            _workspace: workspace,
        });
        Ok(handle)
    }

    /// Copies `host` to a new device buffer. An empty slice gets one zeroed element (the
    /// driver refuses empty allocations); callers track lengths on the host.
    pub fn upload<T: DeviceRepr + ValidAsZeroBits>(
        &self,
        host: &[T],
    ) -> Result<CudaSlice<T>, CudaError> {
        if host.is_empty() {
            return Ok(self.stream.alloc_zeros::<T>(1)?);
        }
        Ok(self.stream.clone_htod(host)?)
    }

    /// A zeroed device buffer of `len` elements (at least one, see [`Self::upload`]).
    pub fn zeros<T: DeviceRepr + ValidAsZeroBits>(
        &self,
        len: usize,
    ) -> Result<CudaSlice<T>, CudaError> {
        Ok(self.stream.alloc_zeros::<T>(len.max(1))?)
    }

    /// Copies a device buffer back (waits for the stream).
    pub fn download<T: DeviceRepr + Clone + Default>(
        &self,
        dev: &CudaSlice<T>,
    ) -> Result<Vec<T>, CudaError> {
        Ok(self.stream.clone_dtoh(dev)?)
    }

    /// Copies the first `n` values of `dev` into `out` (resized to `n`) and waits for them:
    /// the per-step read-back of a buffer sized for the largest batch.
    pub fn download_prefix<T: DeviceRepr + Clone + Default>(
        &self,
        dev: &CudaSlice<T>,
        n: usize,
        out: &mut Vec<T>,
    ) -> Result<(), CudaError> {
        if n > dev.len() {
            return Err(CudaError::Shape(format!(
                "download of {n} values from a buffer of {}",
                dev.len()
            )));
        }
        out.clear();
        out.resize(n, T::default());
        if n == 0 {
            return Ok(());
        }
        self.stream
            .memcpy_dtoh(&dev.slice(..n), out.as_mut_slice())?;
        Ok(self.stream.synchronize()?)
    }
}

/// Images compiled in this process, by module, target and include paths.
type ImageCache = HashMap<(Module, CompileTarget, Vec<PathBuf>), Arc<Vec<u8>>>;

/// `module` compiled for `target`, once per process: NVRTC takes seconds for all modules,
/// and every context (each model loaded, each test) would otherwise compile the same
/// sources again. Compile errors are not kept: a later call tries again.
fn compiled_image(
    module: Module,
    target: CompileTarget,
    include_paths: &[PathBuf],
) -> Result<Arc<Vec<u8>>, CudaError> {
    static IMAGES: OnceLock<Mutex<ImageCache>> = OnceLock::new();
    let images = IMAGES.get_or_init(Mutex::default);
    let key = (module, target, include_paths.to_vec());
    if let Some(image) = images.lock().map_err(|_| CudaError::Poisoned)?.get(&key) {
        return Ok(image.clone());
    }
    // Compiled outside the lock: contexts of other modules need not wait.
    let image = Arc::new(compile_module(module, target, include_paths)?);
    images
        .lock()
        .map_err(|_| CudaError::Poisoned)?
        .insert(key, image.clone());
    Ok(image)
}
