#include "io/ranges.h"

namespace scalescope {

namespace {

constexpr bool kWhole = true, kReal = false, kOrZero = true;
constexpr double kMaxAxis = 1 << 20;  // chips along one axis, GPUs in one domain

// One row per field. Bandwidths from 1 MB/s to 100 PB/s, FLOP/s from 1 GFLOP/s to 10 EFLOP/s, memories from 1 kB;
// sizes, degrees and lengths as the planners can hold them finite (a product of every maximum stays below 1e300).
constexpr NumberRange kRanges[] = {
    // Hardware (presets and overrides; docs/presets.md).
    {"peak_flops_per_s", 1e9, 1e19, kReal, "FLOP/s"},
    {"vector_flops_per_s", 1e6, 1e19, kReal, "FLOP/s"},
    {"hbm_capacity_bytes", 1e6, 1e15, kReal, "bytes"},
    {"on_chip_memory_bytes", 1e3, 1e13, kReal, "bytes"},
    {"hbm_bandwidth_bytes_per_s", 1e6, 1e17, kReal, "bytes/s"},
    {"on_chip_bandwidth_bytes_per_s", 1e6, 1e17, kReal, "bytes/s"},
    {"host_pcie_unidir_bytes_per_s", 1e6, 1e17, kReal, "bytes/s"},
    {"dcn_unidir_bytes_per_s_per_chip", 1e6, 1e17, kReal, "bytes/s"},
    {"link_unidir_bytes_per_s", 1e6, 1e17, kReal, "bytes/s"},
    {"gpu_unidir_bytes_per_s", 1e6, 1e17, kReal, "bytes/s"},
    {"nic_unidir_bytes_per_s_per_gpu", 1e6, 1e17, kReal, "bytes/s"},
    {"bandwidth_bytes_per_s", 1e6, 1e17, kReal, "bytes/s"},  // a roofline's own bandwidth
    {"matrix_units", 1, 1e9, kWhole, "units"},
    {"vector_lanes", 1, 1e9, kWhole, "lanes"},
    {"clock_hz", 1e6, 1e11, kReal, "Hz"},
    {"matrix_unit_macs_per_cycle", 1, 1e9, kWhole, "MACs per cycle"},
    {"sm_count", 1, 1e6, kWhole, "SMs"},
    {"smem_bytes_per_sm", 1, 1e12, kWhole, "bytes"},
    {"register_bytes_per_sm", 1, 1e12, kWhole, "bytes"},
    {"vector_register_bytes_per_core", 1, 1e12, kWhole, "bytes"},
    {"price_usd_per_chip_hour", 1e-4, 1e6, kReal, "USD per chip-hour"},
    {"hop_latency_s", 1e-12, 1, kReal, "s"},
    {"launch_latency_s", 1e-12, 1, kReal, "s"},
    {"step_latency_s", 1e-12, 1, kReal, "s"},
    {"torus_dims", 1, 3, kWhole, "axes"},
    {"max_slice_shape", 1, kMaxAxis, kWhole, "chips"},
    {"host_shape", 1, kMaxAxis, kWhole, "chips"},
    {"cores_per_chip", 1, 64, kWhole, "cores"},
    {"links_per_chip", 1, 64, kWhole, "links"},
    {"wraparound_axis_multiple", 1, kMaxAxis, kWhole, "chips"},
    {"domain_gpus", 1, kMaxAxis, kWhole, "GPUs"},
    {"switches", 1, kMaxAxis, kWhole, "switches"},
    {"switch_ports", 1, kMaxAxis, kWhole, "ports"},
    {"links_per_gpu", 1, kMaxAxis, kWhole, "links"},
    {"fat_tree_fanouts", 1, kMaxAxis, kWhole, "children"},
    // Models (the book's symbols, spec §0).
    {"layers", 1, 1e9, kWhole, ""},
    {"d_model", 1, 1e9, kWhole, ""},
    {"d_ff", 1, 1e9, kWhole, ""},
    {"heads", 1, 1e9, kWhole, ""},
    {"kv_heads", 1, 1e9, kWhole, ""},
    {"head_dim", 1, 1e9, kWhole, ""},
    {"vocab", 1, 1e9, kWhole, "tokens"},
    {"expert_d_ff", 1, 1e9, kWhole, ""},
    {"experts", 0, 1e9, kWhole, ""},
    {"active_experts", 0, 1e9, kWhole, ""},
    {"shared_experts", 0, 1e9, kWhole, ""},
    {"dense_layers", 0, 1e9, kWhole, "layers"},
    {"q_lora_rank", 0, 1e9, kWhole, ""},  // 0: a full-rank query projection
    {"kv_lora_rank", 1, 1e9, kWhole, ""},
    {"qk_nope_head_dim", 0, 1e9, kWhole, ""},
    {"qk_rope_head_dim", 0, 1e9, kWhole, ""},
    {"v_head_dim", 1, 1e9, kWhole, ""},
    {"sliding_window", 1, 1e9, kWhole, "tokens"},
    {"attention_chunk", 1, 1e9, kWhole, "tokens"},
    {"mtp_layers", 0, 1e6, kWhole, "layers"},
    // Scenario and query arguments (docs/api.md).
    {"version", 1, 1, kWhole, ""},
    {"flops", 1, 1e30, kReal, "FLOPs", kOrZero},
    {"bytes", 0.5, 1e30, kReal, "bytes", kOrZero},  // int4: half a byte
    {"chips", 1, 1e8, kWhole, "chips"},
    {"gpus", 1, 1e8, kWhole, "GPUs"},
    {"model_parallel_gpus", 1, 1e8, kWhole, "GPUs"},
    {"fsdp", 1, 1e8, kWhole, "chips"},
    {"tp", 1, 1e8, kWhole, "chips"},
    {"fsdp_axes", 1, 6, kWhole, "axes"},
    {"tp_axes", 1, 6, kWhole, "axes"},
    {"batch", 1, 1e15, kWhole, ""},
    {"d", 1, 1e12, kWhole, ""},
    {"f", 1, 1e12, kWhole, ""},
    {"dims", 1, 1e12, kWhole, ""},
    {"ports", 1, 1e6, kWhole, "ports"},
    {"hops", 0, 1e6, kWhole, "hops"},
    {"active", 1, 1e9, kWhole, "shards"},
    {"seq_len", 1, 1e9, kWhole, "tokens"},
    {"prompt_len", 1, 1e9, kWhole, "tokens"},
    {"generated_len", 1, 1e9, kWhole, "tokens"},
    {"kv_context_len", 1, 1e9, kWhole, "tokens"},
    {"contexts", 1, 1e9, kWhole, "tokens"},
    {"batches", 1, 1e12, kWhole, ""},
    {"tokens", 1, 1e18, kWhole, "tokens"},
    {"batch_tokens", 1, 1e15, kWhole, "tokens"},
    {"train_tokens", 0, 1e18, kWhole, "tokens"},
    {"active_params", 1, 1e15, kWhole, "parameters"},
    {"params_override", 1, 1e15, kWhole, "parameters"},
    {"chip_hours", 1e-6, 1e15, kReal, "chip-hours"},
    {"checkpoints_per_layer", 1, 1e6, kWhole, ""},
    {"flops_frac", 0.01, 1, kReal, "of peak"},
    {"hbm_frac", 0.01, 1, kReal, "of peak"},
    {"network_frac", 0.01, 1, kReal, "of peak"},
    {"prefill_flops_frac", 0.01, 1, kReal, "of peak"},
    {"acceptance_rate", 0, 1, kReal, ""},
    {"lookahead", 1, 64, kWhole, "tokens"},
    {"zero_stage", 1, 3, kWhole, ""},
    {"virtual_stages", 1, 1024, kWhole, ""},
    {"microbatches", 1, 1e6, kWhole, ""},
    {"keep", 1, 100, kWhole, "plans"},
    {"target_mfu_frac", 0.01, 1, kReal, "of peak"},
    {"microbatch_sequences", 1, 1e9, kWhole, "sequences"},
    {"expert_tensor", 1, 1 << 24, kWhole, "chips"},
    {"capacity_factor", 0.01, 1024, kReal, "x the mean tokens per expert"},
    {"load_imbalance", 1, 1024, kReal, "x the mean tokens per expert rank"},
    {"latency_target_s", 1e-9, 1e6, kReal, "s"},
    // plan_search (the space, its constraints and its cursor) and serving_search.
    {"limit", 1, 1e9, kWhole, "plans"},  // plans a search may evaluate (default 2e7)
    {"next", 0, 1e18, kWhole, "plans", kOrZero},
    {"min_context_chunk_tokens", 0, 1e9, kWhole, "tokens", kOrZero},
    {"memory_headroom_frac", 0, 0.9, kReal, "of HBM", kOrZero},
    {"demand_tokens_per_s", 0, 1e15, kReal, "tokens/s", kOrZero},
    {"latency_per_token_s", 1e-9, 1e6, kReal, "s"},
    {"time_to_first_token_s", 1e-9, 1e6, kReal, "s"},
    // Calibration: profiles (calibration_profiles/, query.calibration; their fitted parameters keep their ranges
    // beside their priors in specs/calibration_profile.cpp), published runs and the calibrate query.
    {"tile_m", 1, 4096, kWhole, ""},
    {"tile_n", 1, 4096, kWhole, ""},
    {"tile_k", 1, 4096, kWhole, ""},
    {"parallel_tiles", 1, 100000, kWhole, "tiles"},
    {"runs", 1, 1e6, kWhole, "runs"},
    {"max_expert_degree", 1, 1e8, kWhole, "expert ranks"},  // a fitted scope's widest expert group
    // An error band holds whatever the fit measured: a prediction of 1e6 s against a measured 1e-6 s is 1e12.
    {"median_frac", 0, 1e13, kReal, "of the measured value"},
    {"p90_frac", 0, 1e13, kReal, "of the measured value"},
    {"max_frac", 0, 1e13, kReal, "of the measured value"},
    {"signed_median_frac", -1e13, 1e13, kReal, "of the measured value"},
    {"measured", 1e-6, 1e12, kReal, "s or tokens/s"},
    {"replicas", 1, 1e6, kWhole, "replicas"},
    {"max_iterations", 1, 1000, kWhole, "iterations"},
};

}  // namespace

std::span<const NumberRange> number_ranges() { return kRanges; }

const NumberRange* find_range(std::string_view field) {
  for (const NumberRange& r : kRanges)
    if (r.field == field) return &r;
  return nullptr;
}

}  // namespace scalescope
