# Sourced by test.sh, check-cuda.sh and serve.sh (not run): installs the NVIDIA wheels that
# carry NVRTC, the CUDA headers (cuda_fp16.h) and, when asked, cuBLAS into .cache/cuda-pip
# (git-ignored), once per wheel set, and points the loader and the kernel compiler at them. No
# CUDA toolkit is needed, only the driver for running. Usage: cuda_env [--cublas]
cuda_env() {
    local cache=.cache/cuda-pip
    local wheels=(nvidia-cuda-nvrtc-cu12==12.9.86 nvidia-cuda-runtime-cu12==12.9.79)
    [[ ${1:-} == --cublas ]] && wheels+=(nvidia-cublas-cu12==12.9.1.4)
    # One stamp per wheel set: pip runs only when the set changes.
    local stamp
    stamp="$cache/.installed-$(echo "${wheels[*]}" | cksum | cut -d' ' -f1)"
    if [[ ! -f $stamp ]]; then
        python3 -m pip install --quiet --disable-pip-version-check --no-deps --upgrade \
            --target "$cache" "${wheels[@]}"
        touch "$stamp"
    fi
    local root=$PWD/$cache/nvidia
    local lib_path=$root/cuda_nvrtc/lib
    [[ ${1:-} == --cublas ]] && lib_path=$lib_path:$root/cublas/lib
    export LD_LIBRARY_PATH=$lib_path${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export RADIXSERVE_CUDA_INCLUDE=$root/cuda_runtime/include${RADIXSERVE_CUDA_INCLUDE:+:$RADIXSERVE_CUDA_INCLUDE}
}

# Whether this machine has no NVIDIA driver (no device node, no libcuda in the loader cache).
no_gpu() {
    local loader_cache
    loader_cache=$(ldconfig -p 2>/dev/null || true)
    [[ ! -e /dev/nvidiactl && $loader_cache != *libcuda.so* ]]
}

# Points cudarc at the CUDA emulator (kernels/emu-driver: libcuda.so and libcublas.so on the
# CPU) and makes every GPU test fail rather than skip; builds the emulator first. Sets
# CUDA_EMULATED_SKIPS to the --skip arguments of the tests whose sizes take minutes on the
# emulator (their kernels are covered at smaller sizes by kernels/emu/tests), left to GPU
# machines. Usage: cuda_emulator [--built] (after cuda_env). With --built, the library the
# test build made (target/ci/deps) is used as it is: building it again on its own would
# resolve other features for shared dependencies and compile them twice.
cuda_emulator() {
    local target lib
    target=$(realpath -m "${CARGO_TARGET_DIR:-target}/ci")
    if [[ ${1:-} == --built ]]; then
        lib=$target/deps/libcuda_emu_driver.so
    else
        cargo build --profile ci -p cuda-emu-driver
        lib=$target/libcuda_emu_driver.so
    fi
    if [[ ! -f $lib ]]; then
        echo "the CUDA emulator was not built: no $lib" >&2
        return 1
    fi
    local links=$target/cuda-emu
    mkdir -p "$links"
    ln -sf "$lib" "$links/libcuda.so"
    ln -sf "$lib" "$links/libcublas.so"
    export LD_LIBRARY_PATH=$links${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export RADIXSERVE_REQUIRE_GPU=1
    local heavy=(paged_attention_matches_the_cpu_for_decode_extend_and_split_k)
    CUDA_EMULATED_SKIPS=()
    for t in "${heavy[@]}"; do CUDA_EMULATED_SKIPS+=(--skip "$t"); done
    echo "no GPU: the GPU tests run on the CUDA emulator; left to a GPU: ${heavy[*]}"
}
