# Sourced by check-cuda.sh and serve.sh (not run): installs the NVIDIA wheels that carry NVRTC,
# the CUDA headers (cuda_fp16.h) and, when asked, cuBLAS into .cache/cuda-pip (git-ignored),
# once per wheel set, and points the loader and the kernel compiler at them. No CUDA toolkit
# is needed, only the driver for running. Usage: cuda_env [--cublas]
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
