//! Generates the prost messages and tonic client/server code with `protox` (a Rust protobuf
//! compiler, so no `protoc` is needed) and writes the file descriptor sets that server
//! reflection serves: radixserve's own API (`radixserve/v1`) and the SGLang worker protocol
//! the smg gateway speaks (`smg/`).

use prost::Message;
use std::path::PathBuf;

const RADIXSERVE: &str = "radixserve/v1/radixserve.proto";
const SGLANG_DIR: &str = "smg";
const SGLANG: [&str; 2] = ["sglang_scheduler.proto", "common.proto"];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed={RADIXSERVE}");
    println!("cargo:rerun-if-changed={SGLANG_DIR}");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);

    let radixserve = protox::compile([RADIXSERVE], ["."])?;
    std::fs::write(
        out_dir.join("radixserve_descriptor.bin"),
        radixserve.encode_to_vec(),
    )?;
    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        .compile_fds(radixserve)?;

    let sglang = protox::compile(SGLANG, [SGLANG_DIR])?;
    std::fs::write(
        out_dir.join("sglang_descriptor.bin"),
        sglang.encode_to_vec(),
    )?;
    // The shared package first, then the scheduler's, which refers to it by path.
    tonic_prost_build::configure().compile_fds(protox::compile([SGLANG[1]], [SGLANG_DIR])?)?;
    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        .extern_path(".smg.grpc.common", "crate::sglang::common")
        .compile_fds(sglang)?;
    Ok(())
}
