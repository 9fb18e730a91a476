//! Files of the hybrid families (delta nets, short convolutions, Mamba-2 layers) that do not
//! hold what their family needs get a clear error, never a panic or a model that computes
//! something else: the family test models rebuilt with a part broken (`family_hostile`'s
//! helpers).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::family_hostile::{f32_tensor, open, refused};
use crate::common::gguf_writer::rebuild;
use engine::gguf::MetadataValue;

#[test]
fn broken_qwen35_parts_are_refused_by_name() {
    let file = open("qwen35");
    let sections = |s: [u32; 4]| MetadataValue::Array(s.map(MetadataValue::U32).to_vec());
    for (key, value) in [
        ("qwen35.ssm.conv_kernel", MetadataValue::U32(0)),
        ("qwen35.ssm.state_size", MetadataValue::U32(1 << 20)),
        // 96 is not 4 value heads of 32.
        ("qwen35.ssm.inner_size", MetadataValue::U32(96)),
        ("qwen35.full_attention_interval", MetadataValue::U32(0)),
        ("qwen35.rope.dimension_sections", MetadataValue::U32(3)),
        // Sector 1 of [2, 0, 2, 0] reads the fourth section: position 0 for text.
        ("qwen35.rope.dimension_sections", sections([2, 0, 2, 0])),
        ("qwen35.rope.dimension_sections", sections([0, 0, 0, 0])),
        (
            "qwen35.attention.recurrent_layers",
            MetadataValue::Array(vec![MetadataValue::Bool(true); 5]),
        ),
    ] {
        refused(&rebuild(&file, &[(key, value)], &[], Vec::new()), &[key]);
    }
    // Three value heads cannot share two key heads.
    let uneven = rebuild(
        &file,
        &[
            ("qwen35.ssm.time_step_rank", MetadataValue::U32(3)),
            ("qwen35.ssm.inner_size", MetadataValue::U32(96)),
        ],
        &[],
        Vec::new(),
    );
    refused(&uneven, &["qwen35.ssm.time_step_rank"]);
    for missing in [
        "blk.0.ssm_a",
        "blk.1.ssm_conv1d.weight",
        "blk.3.attn_gate.weight",
        "blk.2.attn_q_norm.weight",
    ] {
        refused(&rebuild(&file, &[], &[missing], Vec::new()), &[missing]);
    }
    let nan = f32_tensor("blk.0.ssm_a", &[4], &[-1.0, f32::NAN, -1.0, -1.0]);
    refused(&rebuild(&file, &[], &[], vec![nan]), &["not finite"]);
    let conv = f32_tensor("blk.0.ssm_conv1d.weight", &[256, 4], &[0.0; 1024]);
    refused(
        &rebuild(&file, &[], &[], vec![conv]),
        &["blk.0.ssm_conv1d.weight"],
    );
    // The file's own flags choose the delta nets: here every other layer.
    let flags = (0..6).map(|i| MetadataValue::Bool(i % 2 == 0)).collect();
    let key = "qwen35.attention.recurrent_layers";
    let other = rebuild(
        &file,
        &[(key, MetadataValue::Array(flags))],
        &[],
        Vec::new(),
    );
    // Layer 1 was a delta net in the file: as an attention layer it lacks its query.
    refused(&other, &["blk.1.attn_q.weight"]);
}

#[test]
fn broken_qwen3next_parts_are_refused_by_name() {
    let file = open("qwen3next");
    for missing in ["blk.0.ssm_ba.weight", "blk.1.attn_gate.weight"] {
        refused(&rebuild(&file, &[], &[missing], Vec::new()), &[missing]);
    }
    let key = "qwen3next.expert_count";
    refused(
        &rebuild(&file, &[(key, MetadataValue::U32(0))], &[], Vec::new()),
        &[key],
    );
    // The older layout's fused projection, one row short.
    let legacy = open("qwen3next_ssm_in");
    let short = f32_tensor("blk.0.ssm_in.weight", &[256, 383], &vec![0.0; 256 * 383]);
    refused(
        &rebuild(&legacy, &[], &[], vec![short]),
        &["blk.0.ssm_in.weight", "384"],
    );
}

#[test]
fn broken_lfm2_parts_are_refused_by_name() {
    let file = open("lfm2");
    let counts =
        |v: &[i32]| MetadataValue::Array(v.iter().map(|&n| MetadataValue::I32(n)).collect());
    for (key, value) in [
        // A kernel of one tap keeps no state; one of a million would be allocated per request.
        ("lfm2.shortconv.l_cache", MetadataValue::U32(1)),
        ("lfm2.shortconv.l_cache", MetadataValue::U32(1 << 20)),
        // Attention layers of two K/V head counts.
        ("lfm2.attention.head_count_kv", counts(&[0, 0, 2, 0, 0, 1])),
    ] {
        refused(&rebuild(&file, &[(key, value)], &[], Vec::new()), &[key]);
    }
    let all_convolutions = rebuild(
        &file,
        &[("lfm2.attention.head_count_kv", counts(&[0; 6]))],
        &[],
        Vec::new(),
    );
    refused(&all_convolutions, &["lfm2.attention.head_count_kv"]);
    for missing in [
        "token_embd_norm.weight",
        "blk.0.shortconv.conv.weight",
        "blk.1.shortconv.in_proj.weight",
        "blk.3.shortconv.out_proj.weight",
        "blk.2.attn_k_norm.weight",
    ] {
        refused(&rebuild(&file, &[], &[missing], Vec::new()), &[missing]);
    }
    let mut taps = vec![0.5; 3 * 256];
    taps[7] = f32::INFINITY;
    let poisoned = f32_tensor("blk.4.shortconv.conv.weight", &[3, 256], &taps);
    refused(
        &rebuild(&file, &[], &[], vec![poisoned]),
        &["blk.4.shortconv.conv.weight", "not finite"],
    );
    let narrow = f32_tensor("blk.4.shortconv.conv.weight", &[2, 256], &[0.5; 512]);
    refused(
        &rebuild(&file, &[], &[], vec![narrow]),
        &["blk.4.shortconv.conv.weight", "dims"],
    );
}

#[test]
fn broken_granite_hybrid_parts_are_refused_by_name() {
    let file = open("granite_hybrid");
    let counts =
        |v: &[i32]| MetadataValue::Array(v.iter().map(|&n| MetadataValue::I32(n)).collect());
    for (key, value) in [
        // 8 heads in 3 groups; 100 channels for 8 heads; a kernel that keeps no input.
        ("granitehybrid.ssm.group_count", MetadataValue::U32(3)),
        ("granitehybrid.ssm.inner_size", MetadataValue::U32(100)),
        ("granitehybrid.ssm.conv_kernel", MetadataValue::U32(1)),
        // A state of a million floats per channel would be allocated per request.
        ("granitehybrid.ssm.state_size", MetadataValue::U32(1 << 20)),
        ("granitehybrid.ssm.time_step_rank", MetadataValue::U32(0)),
        (
            "granitehybrid.attention.head_count_kv",
            counts(&[0, 0, 2, 0, 0, 1]),
        ),
    ] {
        refused(&rebuild(&file, &[(key, value)], &[], Vec::new()), &[key]);
    }
    for missing in [
        "blk.0.ssm_in.weight",
        "blk.1.ssm_a",
        "blk.3.ssm_d",
        "blk.4.ssm_dt.bias",
        "blk.0.ssm_norm.weight",
        "blk.1.ssm_out.weight",
        "blk.3.ssm_conv1d.weight",
    ] {
        refused(&rebuild(&file, &[], &[missing], Vec::new()), &[missing]);
    }
    let mut decay = vec![-1.0; 8];
    decay[5] = f32::NEG_INFINITY;
    let poisoned = f32_tensor("blk.4.ssm_a", &[1, 8], &decay);
    refused(
        &rebuild(&file, &[], &[], vec![poisoned]),
        &["layer 4", "not finite"],
    );
    let narrow = f32_tensor("blk.4.ssm_conv1d.weight", &[3, 192], &[0.5; 576]);
    refused(
        &rebuild(&file, &[], &[], vec![narrow]),
        &["blk.4.ssm_conv1d.weight", "dims"],
    );
    // The norm's weights in four groups where the keys say two: as many values, refused.
    let regrouped = f32_tensor("blk.1.ssm_norm.weight", &[32, 4], &[1.0; 128]);
    refused(
        &rebuild(&file, &[], &[], vec![regrouped]),
        &["blk.1.ssm_norm.weight", "dims"],
    );
    let bias = f32_tensor("blk.0.ssm_in.bias", &[328], &[0.0; 328]);
    refused(
        &rebuild(&file, &[], &[], vec![bias]),
        &["blk.0.ssm_in.bias"],
    );
}

#[test]
fn broken_lfm2moe_experts_are_refused_by_name() {
    let file = open("lfm2moe");
    for (key, value) in [
        ("lfm2moe.expert_count", MetadataValue::U32(0)),
        ("lfm2moe.expert_used_count", MetadataValue::U32(9)),
        ("lfm2moe.expert_feed_forward_length", MetadataValue::U32(0)),
        ("lfm2moe.expert_gating_func", MetadataValue::U32(7)),
        ("lfm2moe.expert_gating_func", MetadataValue::U32(0)),
        ("lfm2moe.expert_group_count", MetadataValue::U32(4)),
    ] {
        refused(&rebuild(&file, &[(key, value)], &[], Vec::new()), &[key]);
    }
    for missing in ["blk.2.exp_probs_b.bias", "blk.5.ffn_gate_inp.weight"] {
        refused(&rebuild(&file, &[], &[missing], Vec::new()), &[missing]);
    }
    let mut bias = vec![0.0; 8];
    bias[3] = f32::NAN;
    let nan = f32_tensor("blk.3.exp_probs_b.bias", &[8], &bias);
    refused(
        &rebuild(&file, &[], &[], vec![nan]),
        &["blk.3.exp_probs_b.bias", "not a finite number"],
    );
}

#[test]
fn broken_nemotron_h_blocks_are_refused_by_name() {
    let file = open("nemotron_h");
    let counts =
        |v: &[i32]| MetadataValue::Array(v.iter().map(|&n| MetadataValue::I32(n)).collect());
    // Block 0 an MLP (a width where its Mamba-2 layer had none): an MLP after no mixer.
    let widths = "nemotron_h.feed_forward_length";
    let first_mlp = counts(&[192, 192, 0, 0, 192, 0, 0, 192]);
    refused(
        &rebuild(&file, &[(widths, first_mlp)], &[], Vec::new()),
        &[widths, "block 0"],
    );
    let kv = "nemotron_h.attention.head_count_kv";
    refused(
        &rebuild(
            &file,
            &[(kv, counts(&[0, 0, 0, 2, 0, 0, 1, 0]))],
            &[],
            Vec::new(),
        ),
        &[kv],
    );
    // The MLP of block 4 is read with the layer of block 3: its tensors are named by block.
    for missing in [
        "blk.4.ffn_up.weight",
        "blk.4.attn_norm.weight",
        "blk.5.ssm_in.weight",
        "blk.6.attn_k.weight",
    ] {
        refused(&rebuild(&file, &[], &[missing], Vec::new()), &[missing]);
    }
    let bias = f32_tensor("blk.3.attn_output.bias", &[64], &[0.0; 64]);
    refused(
        &rebuild(&file, &[], &[], vec![bias]),
        &["blk.3.attn_output.bias"],
    );
}
