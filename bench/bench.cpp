// Evaluations per second of the engine's primitives and of a whole scenario through the JSON entry point.
// Run natively (build/release/scalescope_bench) and under Node (node --no-experimental-fetch
// build/wasm/scalescope_bench.js; Node >= 18 needs the flag, TOOLCHAIN.md quirk 3) and compare the ratios within
// one run: these machines are noisy.
#include <chrono>
#include <cstdio>
#include <string>

#include "api.h"
#include "physics/collectives.h"
#include "planners/plan_search.h"
#include "specs/presets.h"
#include "physics/roofline.h"
#include "planners/serving.h"
#include "planners/calibrated_serving.h"
#include "planners/calibrated_training.h"
#include "planners/training.h"
#include "physics/transformer.h"

namespace {

volatile double g_sink = 0;  // keeps the optimiser from deleting the measured work

template <typename F>
void measure(const char* name, F&& body, double min_seconds = 0.3) {
  using clock = std::chrono::steady_clock;
  long iterations = 1;
  while (true) {
    const auto start = clock::now();
    double acc = 0;
    for (long i = 0; i < iterations; ++i) acc += body(i);
    g_sink = g_sink + acc;
    const double elapsed = std::chrono::duration<double>(clock::now() - start).count();
    if (elapsed >= min_seconds) {
      std::printf("%-40s %12.0f evals/s  %10.1f ns/eval\n", name, iterations / elapsed, 1e9 * elapsed / iterations);
      return;
    }
    iterations *= elapsed < min_seconds / 10 ? 10 : 2;
  }
}

}  // namespace

int main() {
  using namespace scalescope;
  scalescope::Diagnostics d;
  const Json v5p = Json::parse(find_preset(hardware_preset_texts(), "tpu-v5p")->json);
  const Json h100 = Json::parse(find_preset(hardware_preset_texts(), "h100-sxm")->json);
  const Json llama = Json::parse(find_preset(model_preset_texts(), "llama-3-70b")->json);
  const Hardware tpu = parse_hardware(v5p, "", true, d);
  const Hardware gpu = parse_hardware(h100, "", true, d);
  const ModelConfig model = parse_model(llama, "", true, d);
  if (!d.empty()) {
    std::printf("preset error: %s\n", d.front().message.c_str());
    return 1;
  }
  std::printf("scalescope %s benchmark\n", kEngineVersion);
  measure("roofline (one op)", [&](long i) {
    return roofline(1e12 + i, 1e9, tpu.peak(Dtype::bf16), tpu.hbm_bandwidth_bytes_per_s).lower_bound_s;
  });
  measure("matmul crossover batch", [&](long i) {
    return matmul_crossover_batch(4096 + (i & 7), 16384, MatmulDtypes{}, tpu.peak(Dtype::bf16), tpu.hbm_bandwidth_bytes_per_s);
  });
  const TorusAxis axes[3] = {{16, true}, {16, true}, {16, true}};
  measure("tpu all_gather over 3 axes", [&](long i) {
    return tpu_collective(Collective::all_gather, 1e8 + i, axes, 3, tpu.ici.link_unidir_bytes_per_s, 1e-6).time_s;
  });
  measure("gpu all_reduce, 1024 GPUs, fat tree", [&](long i) {
    return gpu_collective(Collective::all_reduce, 1e9 + i, gpu, 1024, 1, false).time_s;
  });
  measure("transformer params + flops + remat", [&](long i) {
    const double t = 4096.0 + (i & 15);
    return count_flops(model, 4e6, t, true).training +
           remat_cost(model, Remat::checkpoints, 4e6, t, 4, Dtype::bf16, true).activation_bytes;
  });
  // A full training step (LLaMA-3 70B, v5p 16x16x16, FSDP 256 x TP 16): the DESIGN.md budget is 2 µs.
  const Mesh pod = parse_mesh(Json{{"shape", {16, 16, 16}}}, "/mesh", tpu, d);
  TrainingInput step;
  step.model = &model;
  step.hw = &tpu;
  step.mesh = &pod;
  step.seq_len = 4096;
  step.plan.fsdp = make_axis_group(pod, {0, 1});
  step.plan.tensor = make_axis_group(pod, {2});
  measure("training step (FSDP x TP, v5p pod)", [&](long i) {
    step.batch_tokens = 4194304.0 + 4096.0 * (i & 7);
    return evaluate_training_step(step).step_s;
  });
  // The same step at the calibrated fidelity (every op of a layer, exposure per strategy; same 2 µs budget).
  const CalibrationProfile& v5p_profile = *calibration_profile_for(tpu);
  measure("calibrated training step (same plan)", [&](long i) {
    step.batch_tokens = 4194304.0 + 4096.0 * (i & 7);
    return evaluate_calibrated_training_step(step, v5p_profile).step.step_s;
  });
  ServingInput serve;
  serve.model = &model;
  serve.hw = &tpu;
  serve.mesh = &pod;
  serve.tensor = step.plan.tensor;
  measure("decode step (TP 16)", [&](long i) { return decode_step(serve, 1.0 + (i & 63), 8192).step_s; });
  measure("calibrated decode step (TP 16)", [&](long i) {
    return calibrated_decode_step(serve, v5p_profile, 1.0 + (i & 63), 8192).step_s;
  });
  measure("plan search (v5p 16x16x16, all plans)", [&](long) {
    return static_cast<double>(search_training_plans(step, 10).evaluated);
  }, 1.0);
  const std::string scenario = R"({"hardware": {"preset": "tpu-v5e"}, "mesh": {"shape": [16, 16]},
    "query": {"kind": "collective", "op": "all_gather", "bytes": 1e9, "axes": ["X", "Y"]}})";
  measure("whole scenario via evaluate_json", [&](long) { return static_cast<double>(evaluate_json(scenario).size()); });
  return 0;
}
