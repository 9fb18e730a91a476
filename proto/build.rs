//! Generates the prost messages and tonic client/server from `radixserve/v1/radixserve.proto`
//! with `protox` (a Rust protobuf compiler), so no `protoc` is needed, and writes the file
//! descriptor set that server reflection serves.

use prost::Message;
use std::path::PathBuf;

const PROTO: &str = "radixserve/v1/radixserve.proto";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed={PROTO}");
    let descriptors = protox::compile([PROTO], ["."])?;
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(
        out_dir.join("radixserve_descriptor.bin"),
        descriptors.encode_to_vec(),
    )?;
    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        .compile_fds(descriptors)?;
    Ok(())
}
