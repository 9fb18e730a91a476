//! radixserve's gRPC APIs: the prost messages and tonic client and server traits generated
//! from `radixserve/v1/radixserve.proto` (`radixserve.v1`) and from `smg/` (the SGLang
//! worker protocol of the smg gateway: `sglang.grpc.scheduler` and `smg.grpc.common`), and
//! their file descriptor sets for server reflection. No engine logic lives here.

/// The `radixserve.v1` package.
pub mod v1 {
    #![allow(clippy::all, clippy::pedantic)]
    tonic::include_proto!("radixserve.v1");
}

/// The SGLang worker protocol as the smg gateway speaks it.
pub mod sglang {
    /// `sglang.grpc.scheduler`: the `SglangScheduler` service and its messages.
    pub mod scheduler {
        #![allow(clippy::all, clippy::pedantic)]
        tonic::include_proto!("sglang.grpc.scheduler");
    }

    /// `smg.grpc.common`: tokenizer chunks, KV events and admin messages.
    pub mod common {
        #![allow(clippy::all, clippy::pedantic)]
        tonic::include_proto!("smg.grpc.common");
    }
}

/// The encoded `FileDescriptorSet` of `radixserve.v1`, for `tonic-reflection`.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/radixserve_descriptor.bin"));

/// The encoded `FileDescriptorSet` of the SGLang worker protocol, for `tonic-reflection`.
pub const SGLANG_FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/sglang_descriptor.bin"));

/// The path of the `.proto` file inside this crate, for clients that compile it themselves.
pub const PROTO_PATH: &str = "radixserve/v1/radixserve.proto";
