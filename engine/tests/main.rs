//! The engine's integration tests, as one test binary: the modules share one build and one
//! link (a binary per file took most of CI's compile). The GPU tests, carried alone to the
//! GPU machine, stay binaries of their own. Tests that measure the whole process run in one
//! of their own (`common::process::in_own_process`). Run one module with
//! `cargo test -p engine --test integration <module>::`.

mod cli_generate;
mod common;
mod device_sampling;
mod family_hostile;
mod family_hostile_hybrid;
mod family_tool_formats;
mod gguf_hostile;
mod gguf_model;
mod grammars;
mod grpc_api;
mod hardening;
mod harmony;
mod http_api;
mod kv_disk_tier;
mod lora;
mod lora_peft;
mod lora_serving;
mod lora_tenants;
mod model_cache_equivalence;
mod model_families;
mod model_families_hybrid;
mod model_reference;
mod module_graph;
mod openai_sdk;
mod pre_tokenizers;
mod reasoning;
mod recurrent_serving;
mod rope_freqs;
mod sampling_properties;
mod sampling_stop;
mod scaleout_smg;
mod scheduler_real_model;
mod scheduler_scripted;
mod server_abuse;
mod sglang_worker;
mod speculative;
mod structured_output;
mod tagged_grammars;
mod tenant_fairness;
mod tenant_scheduling;
mod tenants;
mod tokenizer_real;
mod tool_templates;
