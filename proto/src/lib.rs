//! radixserve's gRPC API (`radixserve.v1`): the prost messages, the tonic client and server
//! traits generated from `radixserve/v1/radixserve.proto`, and its file descriptor set for
//! server reflection. No engine logic lives here.

/// The `radixserve.v1` package.
pub mod v1 {
    #![allow(clippy::all, clippy::pedantic)]
    tonic::include_proto!("radixserve.v1");
}

/// The encoded `FileDescriptorSet` of `radixserve.v1`, for `tonic-reflection`.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/radixserve_descriptor.bin"));

/// The path of the `.proto` file inside this crate, for clients that compile it themselves.
pub const PROTO_PATH: &str = "radixserve/v1/radixserve.proto";
