// Memory per chip (issue 34): the formulas the published runs taught the model, each against its source.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "physics/layer_ops.h"
#include "planners/training.h"
#include "test_helpers.h"

using namespace scalescope;

namespace {

Json llama_step(const Json& hardware, const Json& mesh, const Json& parallelism, const char* remat, double batch_tokens,
                double seq_len, const Json& extra = Json::object()) {
  Json q = {{"kind", "training_step"},
            {"fidelity", "calibrated"},
            {"batch_tokens", batch_tokens},
            {"seq_len", seq_len},
            {"parallelism", parallelism},
            {"remat", remat},
            {"precision",
             {{"params", "bf16"}, {"master_weights", "fp32"}, {"optimizer_states", "fp32"}, {"matmul", "bf16"}}}};
  q.update(extra);
  const Json r =
      test::run_json({{"hardware", hardware}, {"model", {{"preset", "llama-3-8b"}}}, {"mesh", mesh}, {"query", q}});
  INFO(r.dump());
  REQUIRE(r["ok"] == true);
  return r["result"]["memory"];
}

}  // namespace

TEST_CASE("the interleaved schedule's first stage holds S + (S - 1)/v microbatches (Korthikanti et al. 2022 §4.2.3)",
          "[memory][issue34]") {
  // Megatron-LM's num_warmup_microbatches: 2 (S - 1) + (v - 1) S chunks of 1/v of the stage before the first
  // backward, then one more: v S + S - 1 chunks, i.e. S (1 + (S - 1)/(v S)) microbatches of the whole stage.
  for (double s : {2.0, 4.0, 8.0, 16.0})
    for (double v : {1.0, 2.0, 4.0, 8.0}) {
      const double chunks = 2.0 * (s - 1.0) + (v - 1.0) * s + 1.0;
      CHECK(schedule_in_flight_microbatches(PipelineSchedule::interleaved, s, 1000, v) == Approx(chunks / v));
      CHECK(schedule_in_flight_microbatches(PipelineSchedule::interleaved, s, 1000, v) ==
            Approx(s * (1.0 + (s - 1.0) / (v * s))));
      // The last stage's warm-up is (v - 1) S chunks.
      CHECK(schedule_last_stage_in_flight(PipelineSchedule::interleaved, s, 1000, v) ==
            Approx(((v - 1.0) * s + 1.0) / v));
    }
  // Never more microbatches than the step has; 1F1B's first stage holds S, its last one.
  CHECK(schedule_in_flight_microbatches(PipelineSchedule::interleaved, 8, 4, 4) == 4);
  CHECK(schedule_in_flight_microbatches(PipelineSchedule::one_f_one_b, 8, 32) == 8);
  CHECK(schedule_last_stage_in_flight(PipelineSchedule::one_f_one_b, 8, 32) == 1);
  // DualPipe(V) devices hold both ends of the pipeline: the last stage's count is the first's.
  CHECK(schedule_last_stage_in_flight(PipelineSchedule::dualpipe, 8, 32) ==
        schedule_in_flight_microbatches(PipelineSchedule::dualpipe, 8, 32));
}

TEST_CASE("ZeRO-1/2 states shard over the context ranks too (Megatron's dp_cp_group)", "[memory][issue34]") {
  const Json hw = {{"preset", "h100-sxm"}};
  const Json mesh = {{"shape", {2, 2}}, {"axis_names", {"DP", "CP"}}};
  const Json with_cp =
      llama_step(hw, mesh, {{"fsdp", {"DP"}}, {"context", {"CP"}}, {"zero_stage", 1}}, "block", 2 * 8192, 8192);
  const Json mesh_dp = {{"shape", {2}}, {"axis_names", {"DP"}}};
  const Json without = llama_step(hw, mesh_dp, {{"fsdp", {"DP"}}, {"zero_stage", 1}}, "block", 2 * 8192, 8192);
  // The same weights on every chip; the master weights and both Adam moments over DP x CP = 4 ranks, not 2.
  CHECK(with_cp["params_bytes"].get<double>() == Approx(without["params_bytes"].get<double>()));
  CHECK(with_cp["optimizer_bytes"].get<double>() == Approx(without["optimizer_bytes"].get<double>() / 2));
  CHECK(with_cp["master_weights_bytes"].get<double>() == Approx(without["master_weights_bytes"].get<double>() / 2));
}

TEST_CASE("transient buffers peak one at a time: the logits or one layer's recomputation (Chen et al. 2016 §3)",
          "[memory][issue34]") {
  // One chip, LLaMA 3 8B, one sequence: the logits phase (tokens x vocab, 6 bytes a logit on a GPU: bf16 and
  // Megatron's in-place fp32 copy) and block remat's recomputation of a layer (its full activations less the input
  // it kept) are live at different times.
  const ModelConfig m = test::model("llama-3-8b");
  const double seq = 8192;
  LayerShape shape;
  shape.tokens = seq;
  shape.seq_len = seq;
  shape.tensor = 1;
  const int dense = layer_kind(MlpLayer::dense, AttentionSpan::full);
  const double recompute = saved_activation_bytes(m, dense, shape, Remat::none, 0) -
                           saved_activation_bytes(m, dense, shape, Remat::block, 0);
  const double gpu_logits = (2.0 + 4.0) * seq * m.vocab;
  const Json gpu = llama_step({{"preset", "h100-sxm"}}, {{"shape", {1}}}, {{"zero_stage", 1}}, "block", seq, seq);
  CHECK(gpu["transient_bytes"].get<double>() == Approx(std::max(recompute, gpu_logits)));
  // XLA fuses the fp32 upcast into the loss: 4 bytes a logit on a TPU.
  const Json tpu = llama_step({{"preset", "tpu-v5p"}}, {{"shape", {1}}}, {{"zero_stage", 1}}, "block", seq, seq);
  CHECK(tpu["transient_bytes"].get<double>() == Approx(std::max(recompute, 4.0 * seq * m.vocab)));
  // Without remat nothing is recomputed: the logits alone.
  const Json none = llama_step({{"preset", "h100-sxm"}}, {{"shape", {1}}}, {{"zero_stage", 1}}, "none", seq, seq);
  CHECK(none["transient_bytes"].get<double>() == Approx(gpu_logits));
}

TEST_CASE("the logits add only beyond what the first pipeline stage holds over the last", "[memory][issue34]") {
  // 1F1B over 4 stages: the first stage holds 4 microbatches, the last 1 and the logits. With block remat a
  // microbatch's saved inputs on a stage are small, so the logits still dominate what is left.
  const Json hw = {{"preset", "h100-sxm"}};
  const Json mesh = {{"shape", {4}}, {"axis_names", {"PP"}}};
  const double seq = 8192;
  const Json pp =
      llama_step(hw, mesh, {{"pipeline", {"PP"}}, {"microbatches", 8}, {"zero_stage", 1}}, "block", 8 * seq, seq);
  const ModelConfig m = test::model("llama-3-8b");
  const double per_microbatch = pp["activations_bytes"].get<double>() / pp["in_flight_microbatches"].get<double>();
  const double logits = 6.0 * seq * m.vocab;
  CHECK(pp["in_flight_microbatches"].get<double>() == 4);
  CHECK(pp["transient_bytes"].get<double>() == Approx(logits - 3.0 * per_microbatch));
}

TEST_CASE("big_matmuls keeps the book's seven matmul outputs' worth: two d-wide tensors, q k v and the up projection",
          "[memory][issue34]") {
  // scaling-book/transformers, 'big matmuls only': Q, K, V, O and the MLP's matmul outputs. jax.checkpoint keeps the
  // layer's input (the remat boundary) in place of the down projection's output, which feeds only the residual sum.
  const ModelConfig m = test::model("llama-3-8b");
  LayerShape shape;
  shape.tokens = 4096;
  shape.seq_len = 4096;
  shape.tensor = 1;
  const double qkv = m.heads * m.head_dim + 2.0 * m.kv_heads * m.head_dim, up = 2.0 * m.d_ff;
  CHECK(saved_activation_bytes(m, layer_kind(MlpLayer::dense, AttentionSpan::full), shape, Remat::big_matmuls, 0) ==
        Approx(2.0 * shape.tokens * (2.0 * m.d_model + qkv + up)));
  // The book's count per token is the same width.
  CHECK(remat_saved_width(m, Remat::big_matmuls, 0) == Approx(2.0 * m.d_model + qkv + up));
}

TEST_CASE("offloaded activations leave HBM at the calibrated fidelity as at the book's", "[memory][issue34]") {
  const Json hw = {{"preset", "tpu-v6e"}};
  const Json mesh = {{"shape", {4, 4}}};
  const Json kept = llama_step(hw, mesh, {{"fsdp", 16}}, "block", 16 * 8192, 8192);
  const Json offloaded =
      llama_step(hw, mesh, {{"fsdp", 16}}, "block", 16 * 8192, 8192, {{"offload", {{"activations", true}}}});
  const ModelConfig m = test::model("llama-3-8b");
  // The layer being computed and the next one's, prefetched, stay in HBM.
  CHECK(offloaded["activations_bytes"].get<double>() ==
        Approx(kept["activations_bytes"].get<double>() * 2.0 / m.layers));
  CHECK(offloaded["total_bytes"].get<double>() < kept["total_bytes"].get<double>());
}
