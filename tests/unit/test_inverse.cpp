// The inverse questions readers ask (issue 10 defect 9): the most chips a batch keeps compute-bound, the chips a
// latency target needs, a node's NVLink bandwidth, on-chip memory, and the matrix units' peak from their geometry.
#include <catch2/catch.hpp>
#include <cmath>

#include "api.h"
#include "physics/topology.h"
#include "test_helpers.h"

using namespace scalescope;
using Catch::Matchers::WithinRel;
using nlohmann::json;

namespace {
json result_of(const std::string& text) {
  const json out = json::parse(evaluate_json(text));
  INFO(out["diagnostics"].dump());
  REQUIRE(out["ok"] == true);
  return out["result"];
}
}  // namespace

TEST_CASE(
    "bounds: the most chips a batch keeps compute-bound, per strategy (scaling-book/training, data "
    "parallelism and mixed FSDP + TP; scaling-book/gpus, rooflines)",
    "[inverse]") {
  // scaling-book/training, the data-parallel roofline: 850 tokens per chip over three v5p axes; 7,616,000 tokens keep
  // 8960 chips busy.
  const json tpu = result_of(R"({"hardware": {"preset": "tpu-v5p"}, "query": {"kind": "bounds", "d_ff": 30000,
    "fsdp_axes": 2, "batch_tokens": 7616000}})");
  const json& t = tpu["max_chips_compute_bound"];
  const double c = 4.59e14, w = 1.8e11, alpha = c / w;
  // Chip counts are whole: the most chips, rounded down (issue 22: 47,058.8 chips was an answer).
  CHECK(t["dp_fsdp_by_axes"][2] == 8960);
  CHECK(t["dp_fsdp_by_axes"][0] == std::floor(7616000 / alpha));
  // scaling-book/training, mixed FSDP + TP (Aug-2025): B / N > alpha^2 / (M_X M_Y F), so N < B M_X M_Y F / alpha^2.
  CHECK(t["fsdp_tp"] == std::floor(7616000.0 * 2 * 30000 / (alpha * alpha)));
  CHECK(t["fsdp_tp_feb2025_sum"] == std::floor(7616000.0 * 2 * 30000 / (alpha * alpha) / 4));
  // scaling-book/training: slices over DCN.
  CHECK(t["dcn_slices"] == std::floor(7616000 / (c / 6.25e9)));

  // scaling-book/gpus, data parallelism: H100 across nodes, 2475 tokens per GPU.
  const json gpu = result_of(R"({"hardware": {"preset": "h100-sxm"}, "query": {"kind": "bounds", "d_ff": 28672,
    "batch_tokens": 39600000}})");
  CHECK(gpu["max_chips_compute_bound"]["dp_fsdp_across_domains"] == std::floor(39600000 / (9.9e14 / 400e9)));
  // Inside one node at most its 8 GPUs; a 8800-token batch keeps only 4 of them busy (2200 tokens each).
  CHECK(gpu["max_chips_compute_bound"]["dp_fsdp_in_domain"] == 8);
  const json small = result_of(R"({"hardware": {"preset": "h100-sxm"}, "query": {"kind": "bounds", "d_ff": 28672,
    "batch_tokens": 8800}})");
  CHECK(small["max_chips_compute_bound"]["dp_fsdp_in_domain"] == std::floor(8800 / (9.9e14 / 450e9)));
}

TEST_CASE(
    "serving: the chips a per-token latency target needs (scaling-book/inference; scaling-book/tpus, "
    "Question 1)",
    "[inverse]") {
  // 200B bf16 params on TPU v4p (1.23e12 B/s): 32 chips load them in 10.16 ms; a 10 ms step needs 32.5 chips.
  const json r = result_of(R"({"hardware": {"preset": "tpu-v4p", "overrides": {"hbm_bandwidth_bytes_per_s": 1.23e12}},
    "model": {"preset": "llama-3-70b"}, "mesh": {"shape": [4, 4, 2]},
    "query": {"kind": "serving", "fidelity": "book", "batch": 1, "prompt_len": 1, "generated_len": 1,
              "kv_context_len": 1, "params_override": 200e9, "include_comms": false,
              "parallelism": {"tensor": ["X", "Y", "Z"]}, "latency_target_s": 0.01}})");
  const json& t = r["chips_for_latency_target"];
  const double step = r["decode"]["step_s"].get<double>();
  CHECK_THAT(t["chips"].get<double>(), WithinRel(32 * step / 0.01, 1e-12));
  CHECK_THAT(t["chips"].get<double>(), WithinRel(400e9 / (1.23e12 * 0.01), 1e-3));  // the weights dominate
  CHECK(t["min_chips"] == 33);
}

TEST_CASE(
    "a node's NVLink bandwidth: the switches' ports against the GPUs' own egress (scaling-book/gpus, Quiz 2 "
    "Question 1)",
    "[inverse]") {
  const GpuDomainBandwidth h100 = describe_gpu_domain(test::hardware("h100-sxm"));
  CHECK(h100.switch_capacity_unidir_bytes_per_s == 4 * 64 * 25e9);  // 6.4 TB/s
  CHECK(h100.gpu_egress_unidir_bytes_per_s == 8 * 450e9);           // 3.6 TB/s
  CHECK(h100.aggregate_unidir_bytes_per_s == 8 * 450e9);
  CHECK_FALSE(h100.limited_by_switches);
  // Bisection: 4 GPUs each side, each egressing 450 GB/s to the other half, both directions: 3.6 TB/s.
  CHECK(h100.bisection_bidir_bytes_per_s == 8 * 450e9);
  const GpuDomainBandwidth nvl72 = describe_gpu_domain(test::hardware("gb200-nvl72"));
  CHECK(nvl72.aggregate_unidir_bytes_per_s == 72 * 900e9);
  // Every preset with NVLink detail: links x link bandwidth is the GPU's egress.
  for (const char* id : {"h100-sxm", "h200", "b200", "gb200-nvl72"}) {
    const Hardware hw = test::hardware(id);
    INFO(id);
    CHECK_THAT(hw.scale_up.links_per_gpu * hw.scale_up.link_unidir_bytes_per_s,
               WithinRel(hw.scale_up.gpu_unidir_bytes_per_s, 1e-12));
  }
}

TEST_CASE(
    "on-chip memory: SMEM and registers per SM, TPU vector registers (scaling-book/tpus and "
    "scaling-book/gpus, chip specs)",
    "[inverse]") {
  const json h100 = result_of(R"({"hardware": {"preset": "h100-sxm"}, "query": {"kind": "chip"}})")["on_chip"];
  CHECK(h100["smem_bytes_per_sm"] == 262144);
  CHECK(h100["smem_bytes"] == 132 * 262144);
  CHECK(h100["register_bytes"] == 132 * 262144);
  CHECK(h100["l2_bytes"] == 50e6);
  const json v5p = result_of(R"({"hardware": {"preset": "tpu-v5p"}, "query": {"kind": "chip"}})")["on_chip"];
  CHECK(v5p["vector_register_bytes_per_core"] == 64 * 8 * 128 * 4);
  CHECK(v5p["vector_register_bytes"] == 2 * 64 * 8 * 128 * 4);
  CHECK(v5p["vmem_bytes"] == 128e6);
}

TEST_CASE(
    "every preset's bf16 peak agrees with its matrix units' geometry and clock (scaling-book/tpus, the MXU; "
    "scaling-book/gpus, the Tensor Core)",
    "[inverse][presets]") {
  int checked = 0;
  for (const auto& preset : hardware_preset_texts()) {
    const Hardware hw = test::hardware(std::string(preset.id).c_str());
    if (hw.matrix_unit_macs_per_cycle <= 0) continue;
    INFO(hw.id);
    const double derived = 2.0 * hw.matrix_unit_macs_per_cycle * hw.matrix_units * hw.clock_hz;
    CHECK(derived / hw.peak(Dtype::bf16) > 0.9);
    CHECK(derived / hw.peak(Dtype::bf16) < 1.1);
    ++checked;
  }
  CHECK(checked >= 5);
  // v5e: 4 MXUs of 128 x 128 multiply-adds at 1.5 GHz = 1.97e14 (scaling-book/tpus).
  const json v5e = result_of(R"({"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "chip"}})");
  CHECK_THAT(v5e["peak_bf16_flops_per_s_from_geometry"].get<double>(), WithinRel(2.0 * 128 * 128 * 4 * 1.5e9, 1e-12));
}

TEST_CASE("bounds: d_ff only where a bound uses it; one chip has a meaningful optimum (issue 10 defect 11)",
          "[inverse]") {
  // The DP/FSDP and DCN bounds need no d_ff.
  const json no_ff = result_of(R"({"hardware": {"preset": "tpu-v5p"}, "query": {"kind": "bounds"}})");
  CHECK(no_ff.contains("dp_fsdp_min_tokens_per_chip_by_axes"));
  CHECK(no_ff.contains("dcn_min_tokens_per_slice"));
  CHECK_FALSE(no_ff.contains("tp_max_degree"));
  const json gpu = result_of(R"({"hardware": {"preset": "h100-sxm"}, "query": {"kind": "bounds"}})");
  CHECK(gpu.contains("dp_fsdp_min_tokens_per_gpu_across_domains"));
  // X_opt lies in [1, chips]: one chip is neither FSDP- nor TP-sharded.
  const json one = result_of(R"({"hardware": {"preset": "tpu-v5p"}, "query": {"kind": "bounds", "d_ff": 28672,
    "chips": 1, "batch_tokens": 4096}})");
  CHECK(one["fsdp_optimal_degree"] == 1.0);
  CHECK(one["tp_degree_at_optimum"] == 1.0);
}
