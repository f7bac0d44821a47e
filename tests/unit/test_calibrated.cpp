// The calibrated fidelity's physics (issue: fidelity): per-op accounting that adds up to the book's FLOPs, shape
// efficiency, exposure, low precision as frameworks run it, and the book's step as the ideal lower bound.
#include <catch2/catch.hpp>
#include <cmath>

#include "invariants.h"
#include "physics/efficiency.h"
#include "physics/layer_ops.h"
#include "planners/calibrated_serving.h"
#include "planners/calibrated_training.h"
#include "test_helpers.h"

using namespace scalescope;

namespace {

// FLOPs of one chip's ops, summed over `tensor` chips: an op every TP rank runs whole (MLA's down-projections)
// counts once.
double matmul_and_attention_flops(const LayerOps& ops, double tensor, double& attention) {
  double matmul = 0;
  for (int i = 0; i < ops.count; ++i) {
    const double chips = ops.op[i].replicated ? 1.0 : tensor;
    if (ops.op[i].kind == OpKind::matmul) matmul += chips * ops.op[i].flops;
    if (ops.op[i].kind == OpKind::attention) attention += chips * ops.op[i].flops;
  }
  return matmul;
}

// The forward FLOPs of the whole model on `tensor` chips, summed from the per-op lists.
FlopCounts summed_flops(const ModelConfig& m, double tokens, double seq_len, double tensor) {
  LayerShape s;
  s.tokens = tokens;
  s.seq_len = seq_len;
  s.tensor = tensor;
  FlopCounts f;
  double attention_head = 0;
  f.matmul_forward = matmul_and_attention_flops(head_ops(m, s, true, true), tensor, attention_head);
  for (int k = 0; k < kLayerKinds; ++k) {
    if (m.pattern.all.n[k] <= 0) continue;
    double attention = 0;
    f.matmul_forward += m.pattern.all.n[k] * matmul_and_attention_flops(layer_ops(m, k, s), tensor, attention);
    f.attention_forward += m.pattern.all.n[k] * attention;
  }
  return f;
}

TrainingInput llama_on(const ModelConfig& m, const Hardware& hw, const Mesh& mesh, double batch, double seq) {
  TrainingInput in;
  in.model = &m;
  in.hw = &hw;
  in.mesh = &mesh;
  in.batch_tokens = batch;
  in.seq_len = seq;
  in.precision.master_weights = true;
  return in;
}

// GPT-3 175B on A100s: data 8 x `stages` pipeline stages x TP 8, 96 microbatches, block remat; interleaved over
// `virtual_stages` chunks when given.
CalibratedTrainingStep gpt3_pipelined(double stages, double virtual_stages = 0) {
  const ModelConfig gpt = test::model("gpt-3-175b");
  const Hardware a100 = test::hardware("a100-80gb");
  const Mesh gpus = test::mesh_of(a100, Json{{"shape", {8, stages, 8}}});
  TrainingInput in = llama_on(gpt, a100, gpus, 1572864, 2048);
  in.plan.data = make_axis_group(gpus, {0});
  in.plan.pipeline = make_axis_group(gpus, {1});
  in.plan.tensor = make_axis_group(gpus, {2});
  in.plan.microbatches = 96;
  in.remat = Remat::block;
  if (virtual_stages > 0) {
    in.plan.schedule = PipelineSchedule::interleaved;
    in.plan.virtual_stages = virtual_stages;
  }
  return evaluate_calibrated_training_step(in, *calibration_profile_for(a100));
}

}  // namespace

TEST_CASE("a layer's ops add up to the book's FLOPs, for dense, GQA and MoE models, over TP", "[calibrated]") {
  // jax-ml.github.io/scaling-book/transformers: matmul FLOPs 2 x active parameters in matmuls (+ the unembedding) per
  // token; attention 4 T S N H L with S/2 keys per query when causal.
  for (const char* id : {"llama-3-70b", "llama-3-8b", "gpt-3-175b", "mixtral-8x7b", "deepseek-v3", "gpt-oss-120b",
                         "llama-4-maverick", "gemma-3-27b", "qwen3-235b-a22b"}) {
    INFO(id);
    const ModelConfig m = test::model(id);
    const FlopCounts book = count_flops(m, 8192, 4096, true);
    for (double tp : {1.0, 8.0}) {
      INFO("TP " << tp);
      // Past its KV heads TP replicates them (every rank projects one), work the model counts once.
      if (tp > m.kv_heads) continue;
      const FlopCounts sum = summed_flops(m, 8192, 4096, tp);
      CHECK(sum.matmul_forward == Approx(book.matmul_forward).epsilon(1e-12));
      CHECK(sum.attention_forward == Approx(book.attention_forward).epsilon(1e-12));
    }
  }
}

TEST_CASE("matmul shape efficiency: padding to tiles and the last wave's idle SMs", "[calibrated]") {
  const MatmulTiling mxu{8, 128, 128, 1};
  CHECK(matmul_shape_efficiency(8192, 8192, 8192, mxu) == 1.0);
  // K and N padded to the MXU's 128: 129 uses two tiles.
  CHECK(matmul_shape_efficiency(8192, 129, 8192, mxu) == Approx(129.0 / 256.0));
  CHECK(matmul_shape_efficiency(8192, 8192, 64, mxu) == Approx(0.5));
  // H100-like: 132 SMs, 128x256 tiles; 133 tiles need two waves, the second nearly empty.
  const MatmulTiling sm{128, 256, 64, 132};
  CHECK(matmul_shape_efficiency(128 * 133, 4096, 256, sm) == Approx(133.0 / 264.0));
  CHECK(matmul_shape_efficiency(128 * 132, 4096, 256, sm) == Approx(1.0));
  // A decode-sized batch of 8 rows fills 8 of a tile's 128.
  CHECK(matmul_shape_efficiency(8, 8192, 256 * 132, sm) == Approx(8.0 / 128.0));
  // Too few tiles for the SMs: the contraction is split (split-K), 4 tiles x 33 pieces fill 132 SMs.
  CHECK(matmul_shape_efficiency(128, 8192, 1024, sm) == Approx(1.0));
  CHECK(matmul_shape_efficiency(128, 128, 1024, sm) == Approx(8.0 / 132.0));  // K has only 2 pieces of 64
}

TEST_CASE("size ramp, achieved collectives and exposure", "[calibrated]") {
  // A matmul of G_half FLOPs runs at half the rate; a large one at nearly the full rate; padding wastes work.
  CHECK(matmul_compute_s(1e9, 1.0, 1e9, 1e12) == Approx(2e-3));
  CHECK(1e12 / 1e12 / matmul_compute_s(1e12, 1.0, 1e9, 1e12) > 0.99);
  CHECK(matmul_compute_s(1e9, 0.5, 0, 1e12) == Approx(2e-3));
  // Half the link's bandwidth doubles the bandwidth term; software latency adds on top.
  CHECK(achieved_collective_s(1.0, 0.1, 0.5, 1e-5) == Approx(2.0 + 1e-5));
  CHECK(achieved_collective_s(1e-9, 1e-6, 1.0, 0.0) == Approx(1e-6));  // latency-bound stays latency-bound
  CHECK(exposed_s(1.0, 2.0, 0.5) == 0.0);
  CHECK(exposed_s(3.0, 2.0, 0.5) == Approx(2.0));
}

TEST_CASE("the calibrated step never beats the book's ideal, and reports the book's step as its lower bound",
          "[calibrated]") {
  const ModelConfig llama = test::model("llama-3-70b");
  const Hardware v5p = test::hardware("tpu-v5p"), h100 = test::hardware("h100-sxm");
  const Mesh pod = test::mesh_of(v5p, Json{{"shape", {16, 16, 16}}});
  const Mesh gpus = test::mesh_of(h100, Json{{"shape", {64, 8, 8}}});
  TrainingInput tpu = llama_on(llama, v5p, pod, 4194304, 4096);
  tpu.plan.fsdp = make_axis_group(pod, {0, 1});
  tpu.plan.tensor = make_axis_group(pod, {2});
  TrainingInput gpu = llama_on(llama, h100, gpus, 16777216, 4096);
  gpu.plan.fsdp = make_axis_group(gpus, {0});
  gpu.plan.zero_stage = 1;
  gpu.plan.pipeline = make_axis_group(gpus, {1});
  gpu.plan.tensor = make_axis_group(gpus, {2});
  gpu.plan.microbatches = 64;
  for (TrainingInput* in : {&tpu, &gpu})
    for (Remat r : {Remat::none, Remat::big_matmuls, Remat::block}) {
      in->remat = r;
      const CalibratedTrainingStep c = evaluate_calibrated_training_step(*in, *calibration_profile_for(*in->hw));
      INFO(in->hw->id << " remat " << remat_name(r));
      CHECK(c.step.step_s > c.ideal.step_s);
      CHECK(c.step.lower_bound_s == c.ideal.step_s);
      CHECK(c.step.mfu_frac < c.ideal.mfu_frac);
      CHECK(c.step.mfu_frac > 0.2);  // the published runs reach 40-70%
    }
}

// Issue 20: the book's ideal stays a lower bound on screen, or the result names the exception. Qwen3-30B-A3B on 64
// H100s with EP 16 across NVLink domains (TP 4 inside them): the book's all-to-all through each domain's egress
// (scaling-book/gpus, cross-node AllToAll) prices the expert exchange above the calibrated dispatch, so its step is
// above the estimate. The ideal says so, names the expert part, and that part's excess covers the whole gap.
TEST_CASE("an ideal above the calibrated step says it is not a lower bound, and why", "[calibrated][issue20]") {
  Json scenario = {{"hardware", {{"preset", "h100-sxm"}}},
                   {"model", {{"preset", "qwen3-30b-a3b"}}},
                   {"mesh", {{"shape", {16, 4}}}},
                   {"query",
                    {{"kind", "training_step"},
                     {"batch_tokens", 4194304},
                     {"seq_len", 4096},
                     {"parallelism", {{"expert", {"X"}}, {"tensor", {"Y"}}}}}}};
  const Json r = test::run_json(scenario);
  REQUIRE(r["ok"] == true);
  const Json& ideal = r["result"]["ideal"];
  const double gap = ideal["step_s"].get<double>() - r["result"]["time"]["step_s"].get<double>();
  REQUIRE(gap > 0);
  CHECK(ideal["lower_bound"] == false);
  const Json& above = ideal["above_estimate"];
  CHECK(above["part"] == "expert");
  CHECK(above["calibrated_s"] == r["result"]["breakdown"]["comms"]["expert"]["full_s"]);
  CHECK(above["book_s"].get<double>() - above["calibrated_s"].get<double>() >= gap);
  CHECK(above["text"].get<std::string>().find("not a lower bound") != std::string::npos);
  // The invariant the mutations hold accepts the named exception, and catches one that is not explained.
  CHECK(invariants::ideal_problems(scenario, r.dump()).empty());
  Json wrong = r;
  wrong["result"]["ideal"]["above_estimate"]["part"] = "fsdp";
  wrong["result"]["ideal"]["above_estimate"]["calibrated_s"] = r["result"]["breakdown"]["comms"]["fsdp"]["full_s"];
  wrong["result"]["ideal"]["above_estimate"]["book_s"] = 0.0;
  CHECK_FALSE(invariants::ideal_problems(scenario, wrong.dump()).empty());
  wrong = r;
  wrong["result"]["ideal"]["lower_bound"] = true;
  CHECK_FALSE(invariants::ideal_problems(scenario, wrong.dump()).empty());
  // The same model with its experts inside one NVLink domain (EP 8 x FSDP 8): the ideal is a bound again.
  scenario["mesh"]["shape"] = {8, 8};
  scenario["query"]["parallelism"] = {{"fsdp", {"X"}}, {"expert", {"Y"}}};
  const Json inside = test::run_json(scenario);
  REQUIRE(inside["ok"] == true);
  CHECK(inside["result"]["ideal"]["lower_bound"] == true);
  CHECK_FALSE(inside["result"]["ideal"].contains("above_estimate"));
}

TEST_CASE("fp8 speeds the step up 1.1-1.6x, not 2x: only the linear layers' matmuls run in fp8", "[calibrated]") {
  // Issue: fidelity ("fp8/int8 for the linear layers' matmuls, attention in bf16 unless stated, so fp8 yields the
  // measured 1.1-1.6x"); NeMo's published H100 runs show 1.3-1.5x.
  const ModelConfig llama = test::model("llama-3-70b");
  const Hardware h100 = test::hardware("h100-sxm");
  const Mesh gpus = test::mesh_of(h100, Json{{"shape", {8, 8, 8}}});
  TrainingInput in = llama_on(llama, h100, gpus, 4194304, 8192);
  in.plan.fsdp = make_axis_group(gpus, {0});
  in.plan.zero_stage = 1;
  in.plan.pipeline = make_axis_group(gpus, {1});
  in.plan.tensor = make_axis_group(gpus, {2});
  in.plan.microbatches = 64;
  in.remat = Remat::big_matmuls;
  const CalibrationProfile& p = *calibration_profile_for(h100);
  const double bf16 = evaluate_calibrated_training_step(in, p).step.step_s;
  in.precision.matmul = Dtype::fp8;
  const CalibratedTrainingStep fp8 = evaluate_calibrated_training_step(in, p);
  CHECK(bf16 / fp8.step.step_s >= 1.1);
  CHECK(bf16 / fp8.step.step_s <= 1.6);
  CHECK(fp8.parts.low_precision_cast_s > 0);
  // The book doubles C: its ideal speeds up by nearly 2x.
  in.precision.matmul = Dtype::bf16;
  const double book_bf16 = evaluate_training_step(in).step_s;
  CHECK(book_bf16 / fp8.ideal.step_s > 1.8);
}

TEST_CASE("overlap hides FSDP gathers behind compute; without it they are exposed", "[calibrated]") {
  const ModelConfig llama = test::model("llama-3-8b");
  const Hardware v5e = test::hardware("tpu-v5e");
  const Mesh slice = test::mesh_of(v5e, Json{{"shape", {16, 16}}});
  TrainingInput in = llama_on(llama, v5e, slice, 1048576, 4096);
  in.plan.fsdp = make_axis_group(slice, {0, 1});
  in.remat = Remat::block;
  CalibrationProfile p = *calibration_profile_for(v5e);
  double previous = 0;
  for (double overlap : {1.0, 0.5, 0.1, 0.01}) {
    p.overlap_frac = overlap;
    const CalibratedTrainingStep c = evaluate_calibrated_training_step(in, p);
    INFO("overlap " << overlap);
    CHECK(c.parts.comms_s[int(CommPart::fsdp)] > 0);
    CHECK(c.step.step_s >= previous);
    previous = c.step.step_s;
    if (overlap == 1.0) CHECK(c.parts.exposed_comms_s[int(CommPart::fsdp)] == 0.0);
    if (overlap == 0.01)
      CHECK(c.parts.exposed_comms_s[int(CommPart::fsdp)] > 0.5 * c.parts.comms_s[int(CommPart::fsdp)]);
  }
}

TEST_CASE("pipelines: the bubble is (S-1)/v microbatch times of the slowest stage, which holds the logits",
          "[calibrated]") {
  // Narayanan et al. 2021: the interleaved schedule divides the bubble by the virtual stages.
  const CalibratedTrainingStep one = gpt3_pipelined(8), four = gpt3_pipelined(8, 4);
  CHECK(four.parts.bubble_s == Approx(one.parts.bubble_s / 4.0).epsilon(1e-9));
  CHECK(one.parts.head_s > 0);
  CHECK(one.parts.bubble_s > 0);
}

TEST_CASE("the head runs on the last stage: where the split leaves that stage short, the busiest one paces without it",
          "[calibrated][issue34]") {
  // GPT-3's 96 layers on 9 stages: chunks of 11, so stage 9 holds the last 8 layers and the output layer (0.34 of a
  // layer's FLOPs); the 11-layer stages pace the pipeline. DeepSeek-V3's 61 layers on 16 stages are the same case
  // (published-runs D1: 4 layers a stage, 1 and the head and MTP on the last).
  const CalibratedTrainingStep even = gpt3_pipelined(8), short_last = gpt3_pipelined(9);
  CHECK(even.parts.head_s > 0);  // 12 layers on every stage: the last one, with the head, paces
  CHECK(short_last.parts.head_s == 0);
  CHECK(short_last.step.stage_kinds.total() == 11);
  // The pacing stage's layers: 11 against the even split's 12, at the same microbatch shape.
  CHECK(short_last.parts.attention_s / even.parts.attention_s == Approx(11.0 / 12.0).epsilon(1e-9));
}

// LLaMA-3 70B served at TP 8 on one H100 node (the calibrated serving tests' replica).
struct TpEightH100 {
  const ModelConfig llama = test::model("llama-3-70b");
  const Hardware h100 = test::hardware("h100-sxm");
  const Mesh tp = test::mesh_of(h100, Json{{"shape", {8}}});
  ServingInput in;
  const CalibrationProfile& p = *calibration_profile_for(h100);
  TpEightH100(const TpEightH100&) = delete;  // `in` points into it
  TpEightH100() {
    in.model = &llama;
    in.hw = &h100;
    in.mesh = &tp;
    in.tensor = make_axis_group(tp, {0});
  }
};

TEST_CASE("a calibrated decode step costs more than the book's and is ordered by batch", "[calibrated]") {
  const TpEightH100 node;
  const ServingInput& in = node.in;
  const CalibrationProfile& p = node.p;
  double previous = 0;
  for (double batch : {1.0, 16.0, 128.0, 512.0}) {
    const DecodeStep c = calibrated_decode_step(in, p, batch, 4096);
    INFO("batch " << batch);
    CHECK(c.step_s > decode_step(in, batch, 4096).step_s);
    CHECK(c.step_s > previous);
    CHECK(c.comms_s > 0);
    previous = c.step_s;
  }
  CHECK(calibrated_prefill(in, p, 1, 8192).time_s > prefill(in, 1, 8192).time_s);
}

TEST_CASE("a calibrated serving step reports each resource's whole time, and what each adds to the step (issue 20)",
          "[calibrated][issue20]") {
  const TpEightH100 node;
  const ModelConfig& llama = node.llama;
  const Hardware& h100 = node.h100;
  const ServingInput& in = node.in;
  const CalibrationProfile& p = node.p;
  // Batch 8 decodes memory-bound: every op's FLOPs hide under its loads, yet the FLOPs still take time ("Compute 0 s"
  // on the page was the exposed share under the name of the whole): more than 2 N B / (chips C) at the peak (8 rows
  // padded to the tile), less than the loads it hides under.
  const DecodeStep d = calibrated_decode_step(in, p, 8, 4096);
  CHECK(std::string(d.bound) == "memory");
  CHECK(d.exposed.flops_s == 0);
  const double ideal_flops_s = 2.0 * count_params(llama).total * 8 / (8 * h100.peak(Dtype::bf16));
  CHECK(d.flops_s > ideal_flops_s);
  CHECK(d.flops_s < d.param_load_s + d.kv_load_s);
  const DecodeStep book = decode_step(in, 8, 4096);
  CHECK(d.kv_load_s > book.kv_load_s);  // the achieved HBM bandwidth is below the peak
  auto sum = [](const ServingExposed& e) {
    return e.flops_s + e.param_load_s + e.kv_load_s + e.comms_s + e.overhead_s;
  };
  CHECK(sum(d.exposed) == Approx(d.step_s).epsilon(1e-12));
  CHECK(d.exposed.kv_load_s <= d.kv_load_s);
  CHECK(d.exposed.param_load_s <= d.param_load_s);
  // A long prefill is compute-bound: the loads it hides still take their whole time.
  const PrefillStep pre = calibrated_prefill(in, p, 8, 8192);
  CHECK(std::string(pre.bound) == "compute");
  CHECK(pre.param_load_s > 0);
  CHECK(pre.exposed.param_load_s < pre.param_load_s);
  CHECK(pre.flops_s >= pre.exposed.flops_s);
  CHECK(pre.matmul_flops_s < pre.flops_s);  // causal attention and the elementwise ops besides the matmuls
  CHECK(sum(pre.exposed) == Approx(pre.time_s).epsilon(1e-12));
}

TEST_CASE("a GPU collective pays NCCL's ring latency per step, so a 4096-way gather is not as cheap as an 8-way one",
          "[calibrated][issue22]") {
  // Issue 22 item 26: the fitted software latency was flat for any group. The calibrated model now adds the
  // preset's ring latency (NCCL src/graph/tuning.cc: a launch, then a step per ring step, NVLink or network),
  // linear in the group, as a TPU's collectives add their ICI hops.
  const Hardware hw = test::hardware("h100-sxm");
  const double kilobyte = 1024;
  const CollectiveCost small = gpu_collective(Collective::all_gather, kilobyte, hw, 8, 1, false);
  const CollectiveCost wide = gpu_collective(Collective::all_gather, kilobyte, hw, 4096, 1, false);
  // 8 GPUs in one domain: 3.6 us + 7 x 0.47 us; 4096 over 512 nodes: 3.6 us + 3584 x 0.47 us + 511 x 2.7 us.
  CHECK(unfitted_latency_s(hw, small) == Approx(3.6e-6 + 7 * 0.47e-6));
  CHECK(unfitted_latency_s(hw, wide) == Approx(3.6e-6 + 3584 * 0.47e-6 + 511 * 2.7e-6));
  const double software_s = 1.5e-5;  // the fitted GPU collective_latency_s is of this size
  // A flat latency would price both near software_s; the ring's steps make the wide one about 140x dearer.
  CHECK(achieved_collective_s(wide.bandwidth_s, unfitted_latency_s(hw, wide), 0.8, software_s) >
        50 * achieved_collective_s(small.bandwidth_s, unfitted_latency_s(hw, small), 0.8, software_s));
}

TEST_CASE("attention's backward: flash recomputes the scores (2.5x the forward), a materialized kernel does not (2x)",
          "[calibrated][issue22]") {
  // FlashAttention-2 §3.1: the backward recomputes S = QK^T and runs dV, dP, dQ and dK, five matmuls against the
  // forward's two. A kernel that saved the probabilities (Korthikanti et al. 2022's era) runs only the four.
  CHECK(backward_flops_factor(OpKind::attention, AttentionKernel::flash) == 2.5);
  CHECK(backward_flops_factor(OpKind::attention, AttentionKernel::materialized) == 2.0);
  CHECK(backward_flops_factor(OpKind::matmul, AttentionKernel::materialized) == 2.0);  // scaling-book/transformers:
                                                                                       // 4NPM, either way
}
