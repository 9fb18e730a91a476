//! The kernel sources and their compilation with NVRTC, to PTX (for checks, and for GPUs
//! newer than this NVRTC knows) or to a CUBIN for the exact device (the default at run time:
//! a CUBIN from a newer NVRTC still loads on an older driver of the same major version, PTX
//! does not).

use super::error::CudaError;
use cudarc::nvrtc::sys;
use std::ffi::{c_char, CString};
use std::path::{Path, PathBuf};

/// One `.cu` source of `kernels/cuda/`, compiled and loaded as one CUDA module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Module {
    KvIndices,
    StoreKv,
    Attention,
    Norm,
    Rope,
    Activation,
    Embedding,
    Cast,
    Sampling,
}

/// Helpers every source includes as `"common.cuh"`, handed to NVRTC as an in-memory header.
const COMMON_HEADER: &str = include_str!("../../cuda/common.cuh");

impl Module {
    pub const ALL: [Module; 9] = [
        Module::KvIndices,
        Module::StoreKv,
        Module::Attention,
        Module::Norm,
        Module::Rope,
        Module::Activation,
        Module::Embedding,
        Module::Cast,
        Module::Sampling,
    ];

    /// File stem in `kernels/cuda/`.
    pub fn name(self) -> &'static str {
        match self {
            Module::KvIndices => "kv_indices",
            Module::StoreKv => "store_kv",
            Module::Attention => "attention",
            Module::Norm => "norm",
            Module::Rope => "rope",
            Module::Activation => "activation",
            Module::Embedding => "embedding",
            Module::Cast => "cast",
            Module::Sampling => "sampling",
        }
    }

    pub fn source(self) -> &'static str {
        match self {
            Module::KvIndices => include_str!("../../cuda/kv_indices.cu"),
            Module::StoreKv => include_str!("../../cuda/store_kv.cu"),
            Module::Attention => include_str!("../../cuda/attention.cu"),
            Module::Norm => include_str!("../../cuda/norm.cu"),
            Module::Rope => include_str!("../../cuda/rope.cu"),
            Module::Activation => include_str!("../../cuda/activation.cu"),
            Module::Embedding => include_str!("../../cuda/embedding.cu"),
            Module::Cast => include_str!("../../cuda/cast.cu"),
            Module::Sampling => include_str!("../../cuda/sampling.cu"),
        }
    }

    /// The `extern "C"` kernels the launch wrappers call; checked against the compiled PTX.
    pub fn entry_points(self) -> &'static [&'static str] {
        match self {
            Module::KvIndices => &["create_kv_indices", "write_req_to_token"],
            Module::StoreKv => &["store_kv_f32", "store_kv_f16", "store_kv_bf16"],
            Module::Attention => &[
                "attention_partial_f32",
                "attention_partial_f16",
                "attention_partial_bf16",
                "attention_gqa_f32",
                "attention_gqa_f16",
                "attention_gqa_bf16",
                "attention_merge",
            ],
            Module::Norm => &[
                "rms_norm",
                "rms_norm_inplace",
                "add_rms_norm_f16",
                "qk_norm_inplace",
            ],
            Module::Rope => &[
                "rope",
                "rope_store_kv_f32",
                "rope_store_kv_f16",
                "rope_store_kv_bf16",
            ],
            Module::Activation => &[
                "silu_mul",
                "add_inplace",
                "gelu_tanh_mul",
                "add_bias",
                "scale_inplace",
                "softcap_inplace",
                "silu_mul_f16",
                "gelu_tanh_mul_f16",
            ],
            Module::Embedding => &["embedding_f32", "embedding_f16", "embedding_bf16"],
            Module::Cast => &[
                "cast_f32_f16",
                "cast_f32_bf16",
                "cast_f16_f32",
                "cast_bf16_f32",
            ],
            Module::Sampling => &["sample_rows", "resolve_futures"],
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// What NVRTC produces; `arch` is the compute capability as `major * 10 + minor` (80, 90).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompileTarget {
    /// Virtual-architecture PTX (`compute_XY`), JIT-compiled by the driver at load.
    Ptx { arch: u32 },
    /// Machine code for one GPU (`sm_XY`); also runs NVRTC's assembler, so it checks more.
    Cubin { arch: u32 },
}

impl CompileTarget {
    fn arch_flag(self) -> String {
        match self {
            CompileTarget::Ptx { arch } => format!("compute_{arch}"),
            CompileTarget::Cubin { arch } => format!("sm_{arch}"),
        }
    }
}

impl std::fmt::Display for CompileTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CompileTarget::Ptx { .. } => write!(f, "{} PTX", self.arch_flag()),
            CompileTarget::Cubin { .. } => write!(f, "{} CUBIN", self.arch_flag()),
        }
    }
}

/// Whether the NVRTC library can be loaded (cudarc would panic on first use otherwise).
pub fn nvrtc_available() -> bool {
    // SAFETY: only tries to dlopen the library by its usual names.
    unsafe { sys::is_culib_present() }
}

fn require_nvrtc() -> Result<(), CudaError> {
    if nvrtc_available() {
        Ok(())
    } else {
        Err(CudaError::LibraryMissing("NVRTC (libnvrtc.so)"))
    }
}

/// The loaded NVRTC's (major, minor) version.
pub fn nvrtc_version() -> Result<(i32, i32), CudaError> {
    require_nvrtc()?;
    let (mut major, mut minor) = (0, 0);
    // SAFETY: two valid out-pointers.
    unsafe { sys::nvrtcVersion(&mut major, &mut minor) }.result()?;
    Ok((major, minor))
}

/// Directories holding `cuda_fp16.h`, where NVRTC looks for it: `RADIXSERVE_CUDA_INCLUDE`
/// (a `:`-separated list) first, then `$CUDA_HOME`/`$CUDA_PATH`, `/usr/local/cuda`, `/opt/cuda`
/// and `/usr/include`.
pub fn default_include_paths() -> Vec<PathBuf> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(list) = std::env::var_os("RADIXSERVE_CUDA_INCLUDE") {
        candidates.extend(std::env::split_paths(&list));
    }
    for var in ["CUDA_HOME", "CUDA_PATH"] {
        if let Some(root) = std::env::var_os(var) {
            candidates.push(Path::new(&root).join("include"));
        }
    }
    // The toolkit's usual homes: NVIDIA's installer, then distribution packages.
    candidates.extend(
        [
            "/usr/local/cuda/include",
            "/opt/cuda/include",
            "/usr/include",
        ]
        .map(PathBuf::from),
    );
    let mut found: Vec<PathBuf> = Vec::new();
    for dir in candidates {
        if dir.join("cuda_fp16.h").is_file() && !found.contains(&dir) {
            found.push(dir);
        }
    }
    found
}

const MISSING_HEADERS_HINT: &str = "\nNo directory with cuda_fp16.h was found: set \
RADIXSERVE_CUDA_INCLUDE (or CUDA_HOME) to the CUDA headers, or start through scripts/serve.sh, \
which installs them.";

/// Destroys the NVRTC program on every exit path.
struct Program(sys::nvrtcProgram);

impl Drop for Program {
    fn drop(&mut self) {
        // SAFETY: created by nvrtcCreateProgram and destroyed only here. A failure to free
        // leaks the program, which is all that could be done about it.
        let _ = unsafe { sys::nvrtcDestroyProgram(&mut self.0) };
    }
}

fn c_string(s: &str, what: &str) -> Result<CString, CudaError> {
    CString::new(s).map_err(|_| CudaError::Shape(format!("{what} contains a NUL byte")))
}

/// Compiles `module` for `target` and returns the PTX text (NUL-terminated, as the driver
/// loads it) or the CUBIN image.
pub fn compile_module(
    module: Module,
    target: CompileTarget,
    include_paths: &[PathBuf],
) -> Result<Vec<u8>, CudaError> {
    require_nvrtc()?;
    let src = c_string(module.source(), "kernel source")?;
    let name = c_string(&format!("{}.cu", module.name()), "module name")?;
    let header = c_string(COMMON_HEADER, "common.cuh")?;
    let header_name = c_string("common.cuh", "header name")?;
    let headers = [header.as_ptr()];
    let header_names = [header_name.as_ptr()];
    let mut raw = std::ptr::null_mut();
    // SAFETY: every pointer is a live NUL-terminated string for the duration of the call, and
    // `headers`/`header_names` hold exactly one entry each.
    unsafe {
        sys::nvrtcCreateProgram(
            &mut raw,
            src.as_ptr(),
            name.as_ptr(),
            1,
            headers.as_ptr(),
            header_names.as_ptr(),
        )
    }
    .result()?;
    let program = Program(raw);

    let mut options = vec![
        format!("--gpu-architecture={}", target.arch_flag()),
        "--std=c++17".to_string(),
    ];
    options.extend(
        include_paths
            .iter()
            .map(|p| format!("--include-path={}", p.display())),
    );
    let options = options
        .iter()
        .map(|o| c_string(o, "NVRTC option"))
        .collect::<Result<Vec<_>, _>>()?;
    let option_ptrs: Vec<*const c_char> = options.iter().map(|o| o.as_ptr()).collect();
    // SAFETY: `program` is live; the option pointers outlive the call.
    let compiled = unsafe {
        sys::nvrtcCompileProgram(program.0, option_ptrs.len() as i32, option_ptrs.as_ptr())
    };
    if compiled.result().is_err() {
        let mut log = program_log(&program).unwrap_or_else(|e| format!("(no log: {e})"));
        if include_paths.is_empty() {
            log.push_str(MISSING_HEADERS_HINT);
        }
        return Err(CudaError::Compile {
            module: module.name(),
            target: target.to_string(),
            log,
        });
    }
    match target {
        CompileTarget::Ptx { .. } => read_output(&program, sys::nvrtcGetPTXSize, sys::nvrtcGetPTX),
        CompileTarget::Cubin { .. } => {
            read_output(&program, sys::nvrtcGetCUBINSize, sys::nvrtcGetCUBIN)
        }
    }
}

type SizeFn = unsafe fn(sys::nvrtcProgram, *mut usize) -> sys::nvrtcResult;
type ReadFn = unsafe fn(sys::nvrtcProgram, *mut c_char) -> sys::nvrtcResult;

fn read_output(program: &Program, size_fn: SizeFn, read_fn: ReadFn) -> Result<Vec<u8>, CudaError> {
    let mut size = 0usize;
    // SAFETY: `program` is live and compiled; the buffer has the size NVRTC asked for.
    unsafe { size_fn(program.0, &mut size) }.result()?;
    let mut buf = vec![0u8; size];
    unsafe { read_fn(program.0, buf.as_mut_ptr().cast()) }.result()?;
    Ok(buf)
}

fn program_log(program: &Program) -> Result<String, CudaError> {
    let log = read_output(
        program,
        sys::nvrtcGetProgramLogSize,
        sys::nvrtcGetProgramLog,
    )?;
    let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
    Ok(String::from_utf8_lossy(&log[..end]).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_module_declares_the_kernels_its_source_defines() {
        for module in Module::ALL {
            assert_eq!(Module::ALL[module.index()], module);
            let src = module.source();
            for name in module.entry_points() {
                // Kernels are written out (`__global__` in the declaration, the name after
                // the return type, attributes or a line break), or generated by a macro
                // from their name.
                let direct = src.match_indices(&format!("{name}(")).any(|(at, _)| {
                    let before = &src[..at];
                    let declaration = before.rfind([';', '}']).map_or(0, |i| i + 1);
                    before.ends_with(char::is_whitespace)
                        && before[declaration..].contains("__global__")
                });
                let by_macro = src.contains(&format!("({name},"));
                assert!(
                    direct || by_macro,
                    "{}.cu has no kernel {name}",
                    module.name()
                );
            }
        }
    }
}
