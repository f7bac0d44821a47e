#include <algorithm>
#include <catch2/catch.hpp>

#include "planners/training.h"
#include "test_helpers.h"

using namespace scalescope;
using Catch::Matchers::WithinRel;

namespace {

using test::mesh_of;
constexpr auto group = make_axis_group;

struct Fixture {
  Hardware hw;
  ModelConfig model;
  Mesh mesh;
  TrainingInput in;
  explicit Fixture(const Json& mesh_spec) : Fixture("tpu-v5p", "llama-3-70b", mesh_spec) {}
  Fixture(const char* hw_id, const char* model_id, const Json& mesh_spec)
      : hw(test::hardware(hw_id)), model(test::model(model_id)), mesh(mesh_of(hw, mesh_spec)) {
    in.model = &model;
    in.hw = &hw;
    in.mesh = &mesh;
    in.batch_tokens = 4 * 1024 * 1024;
    in.seq_len = 4096;
    in.remat = Remat::none;
  }
};

}  // namespace

TEST_CASE("pure FSDP on a full v5p pod is comms-bound at 4M tokens (scaling-book/applied-training, FSDP alone)",
          "[training]") {
  Fixture f(Json{{"shape", {16, 20, 28}}});
  f.in.plan.fsdp = group(f.mesh, {0, 1, 2});
  const TrainingStep s = evaluate_training_step(f.in);
  REQUIRE(s.threshold_count >= 1);
  const Threshold& t = s.thresholds[s.binding];
  CHECK(std::string(t.name) == "dp_fsdp_tokens_per_chip");
  CHECK_THAT(t.actual, WithinRel(468.1, 1e-3));
  CHECK_THAT(t.required, WithinRel(850, 1e-3));
  CHECK_FALSE(t.ok);
  CHECK(std::string(s.bound) == "communication");
  CHECK(std::string(s.critical) == "fsdp");
  // The comms/compute ratio is the threshold ratio, up to attention and embedding FLOPs (a few percent).
  CHECK_THAT(s.comms_s[int(CommPart::fsdp)] / s.compute_s, WithinRel(850.0 / 468.1, 0.06));
}

TEST_CASE("FSDP x TP clears the mixed bound and reports X_opt (scaling-book/applied-training, mixed FSDP + TP)",
          "[training]") {
  Fixture f(Json{{"shape", {16, 20, 28}}});
  f.in.plan.fsdp = group(f.mesh, {0, 1});
  f.in.plan.tensor = group(f.mesh, {2});  // 28-way does not divide 64 heads, but the thresholds do not care
  const TrainingStep s = evaluate_training_step(f.in);
  bool found = false;
  for (int i = 0; i < s.threshold_count; ++i)
    if (std::string(s.thresholds[i].name) == "fsdp_tp_tokens_per_chip") {
      found = true;
      CHECK_THAT(s.thresholds[i].required, WithinRel(2550.0 * 2550.0 / (2 * 28672), 2e-3));  // 113
    }
  CHECK(found);
  CHECK_THAT(s.fsdp_optimal_degree, WithinRel(1618, 2e-3));
}

TEST_CASE("the step's bounds: max of the parts below, their sum above (scaling-book/roofline)", "[training]") {
  Fixture f(Json{{"shape", {4, 4, 4}}});
  f.in.plan.fsdp = group(f.mesh, {0, 1});
  f.in.plan.tensor = group(f.mesh, {2});
  const TrainingStep s = evaluate_training_step(f.in);
  CHECK(s.lower_bound_s >= s.compute_s);
  CHECK(s.lower_bound_s >= s.comms_s_total);
  CHECK(s.upper_bound_s >= s.lower_bound_s);
  CHECK(s.upper_bound_s <= 3.0 * s.lower_bound_s);
  CHECK(s.mfu_frac <= s.hfu_frac);
  CHECK(s.mfu_frac <= 1.0);
  // The Feb-2025 sum model is never faster than the Aug-2025 max model.
  f.in.sum_comms_model = true;
  CHECK(evaluate_training_step(f.in).comms_s_total >= s.comms_s_total);
}

TEST_CASE("memory per chip: ZeRO stages shard optimizer, then gradients, then weights (scaling-book/training, FSDP)",
          "[training]") {
  Fixture f(Json{{"shape", {4, 4, 4}}});
  f.in.plan.fsdp = group(f.mesh, {0, 1, 2});
  double previous = 1e300;
  for (int stage = 1; stage <= 3; ++stage) {
    f.in.plan.zero_stage = stage;
    const TrainingStep s = evaluate_training_step(f.in);
    CHECK(s.total_bytes < previous);
    previous = s.total_bytes;
    // Adam's fp32 moments are 8 bytes per parameter, split 64 ways from ZeRO-1 on.
    CHECK_THAT(s.optimizer_bytes, WithinRel(8.0 * count_params(f.model).total / 64, 1e-9));
  }
}

TEST_CASE("a pipeline's bubble shrinks with microbatches and virtual stages", "[training]") {
  Fixture f(Json{{"shape", {4, 4, 4}}});
  f.in.plan.fsdp = group(f.mesh, {0, 1});
  f.in.plan.pipeline = group(f.mesh, {2});
  f.in.plan.zero_stage = 1;
  f.in.plan.microbatches = 4;
  const double four = evaluate_training_step(f.in).bubble_frac;
  CHECK_THAT(four, WithinRel(3.0 / 7.0, 1e-12));
  f.in.plan.microbatches = 16;
  CHECK(evaluate_training_step(f.in).bubble_frac < four);
  f.in.plan.schedule = PipelineSchedule::interleaved;
  f.in.plan.virtual_stages = 2;
  CHECK_THAT(evaluate_training_step(f.in).bubble_frac, WithinRel(3.0 / 35.0, 1e-12));
  // GPipe keeps every microbatch's activations; 1F1B at most one per stage.
  f.in.plan.schedule = PipelineSchedule::gpipe;
  CHECK(evaluate_training_step(f.in).in_flight_microbatches == 16);
  f.in.plan.schedule = PipelineSchedule::one_f_one_b;
  CHECK(evaluate_training_step(f.in).in_flight_microbatches == 4);
}

TEST_CASE("data parallelism across slices pays the DCN all-reduce (scaling-book/training, multi-pod over DCN)",
          "[training]") {
  Fixture f(Json{{"shape", {16, 20, 28}}, {"slices", 2}});
  f.in.batch_tokens = 2 * 1024 * 1024;
  f.in.plan.fsdp = group(f.mesh, {0, 1});
  f.in.plan.tensor = group(f.mesh, {2});
  f.in.plan.data = group(f.mesh, {3});
  const TrainingStep s = evaluate_training_step(f.in);
  CHECK(s.slices == 2);
  CHECK(s.comms_s[int(CommPart::dcn)] > 0);
  bool dcn = false;
  for (int i = 0; i < s.threshold_count; ++i)
    if (std::string(s.thresholds[i].name) == "dcn_tokens_per_slice") {
      dcn = true;
      CHECK_THAT(s.thresholds[i].required, WithinRel(4.59e14 / 6.25e9, 1e-9));  // 73,440 (scaling-book/training:
                                                                                // 71,360 with 4.46e14)
      CHECK(s.thresholds[i].ok);                                                // 1M tokens per slice
    }
  CHECK(dcn);
}

TEST_CASE("GPU plans use NVLink inside the node and the node's egress beyond (scaling-book/gpus, rooflines)",
          "[training]") {
  Fixture f("h100-sxm", "llama-3-70b", Json{{"shape", {128, 8}}});
  f.in.batch_tokens = 16 * 1024 * 1024;
  f.in.remat = Remat::block;
  f.in.plan.fsdp = group(f.mesh, {0});
  f.in.plan.tensor = group(f.mesh, {1});
  const TrainingStep s = evaluate_training_step(f.in);
  for (int i = 0; i < s.threshold_count; ++i) {
    const Threshold& t = s.thresholds[i];
    if (std::string(t.name) == "tensor_parallel_degree")
      CHECK_THAT(t.required, WithinRel(28672 * 450e9 / 9.9e14, 1e-9));
    if (std::string(t.name) == "dp_fsdp_tokens_per_chip")  // 8-way TP spans one node: (X-1)/X x C / W_node
      CHECK_THAT(t.required, WithinRel(9.9e14 / 400e9 * 127.0 / 128.0, 1e-9));
  }
}

TEST_CASE(
    "2-way DP between GPU replicas pays (2-1)/2 of the gradient AllReduce (scaling-book/gpus, data "
    "parallelism)",
    "[training]") {
  Fixture f("h100-sxm", "llama-3-70b", Json{{"shape", {2, 128, 8}}});
  f.in.batch_tokens = 16 * 1024 * 1024;
  f.in.plan.data = group(f.mesh, {0});
  f.in.plan.fsdp = group(f.mesh, {1});
  f.in.plan.tensor = group(f.mesh, {2});
  f.in.plan.zero_stage = 1;
  const TrainingStep s = evaluate_training_step(f.in);
  const ModelConfig& model = f.model;
  // Each GPU all-reduces its 1/(8 x 128) share of a layer's weights with its one peer in the other replica, over its
  // own 50 GB/s NIC: 2 x V (n-1)/n / W_nic per layer with n = 2.
  const double layer_shard_bytes = 2.0 * count_params(model).total / 8 / model.layers / 128;
  CHECK_THAT(s.comms_s[int(CommPart::data)], WithinRel(model.layers * 2 * layer_shard_bytes * 0.5 / 50e9, 1e-9));
}

namespace {
const Threshold* find_threshold(const TrainingStep& s, const char* name) {
  for (int i = 0; i < s.threshold_count; ++i)
    if (std::string(s.thresholds[i].name) == name) return &s.thresholds[i];
  return nullptr;
}
}  // namespace

TEST_CASE(
    "GPU DP/FSDP threshold compares tokens per GPU, and agrees with the step it prices (scaling-book/gpus, "
    "data parallelism)",
    "[training]") {
  Fixture f("h100-sxm", "llama-3-70b", Json{{"shape", {512, 8}}});  // 4M tokens: 1024 per GPU, 8192 per shard
  f.in.plan.fsdp = group(f.mesh, {0});
  f.in.plan.tensor = group(f.mesh, {1});
  const TrainingStep s = evaluate_training_step(f.in);
  const Threshold* t = find_threshold(s, "dp_fsdp_tokens_per_chip");
  REQUIRE(t);
  // The book's per-GPU batch against C / W_node, (X-1)/X for X = 512 node groups: 990e12/400e9 x 511/512 = 2470.
  CHECK_THAT(t->actual, WithinRel(1024, 1e-12));
  CHECK_THAT(t->required, WithinRel(9.9e14 / 400e9 * 511 / 512, 1e-12));
  CHECK_FALSE(t->ok);
  // The step model prices the same plan communication-bound on its ZeRO-3 gathers, and says so beside the threshold.
  CHECK(std::string(s.bound) == "communication");
  CHECK(std::string(s.critical) == "fsdp");
  CHECK(t->step_margin < 1.0);
  CHECK_THAT(t->step_margin, WithinRel(s.compute_s / s.comms_s[int(CommPart::fsdp)], 1e-12));
  CHECK(std::string(t->simplification).size() > 0);
}

TEST_CASE("every threshold carries the step model's own margin for the same comparison", "[training]") {
  Fixture f(Json{{"shape", {16, 20, 28}}});
  f.in.plan.fsdp = group(f.mesh, {0, 1});
  f.in.plan.tensor = group(f.mesh, {2});
  const TrainingStep s = evaluate_training_step(f.in);
  const double busy = s.compute_s + s.bubble_s;
  const double fsdp = s.comms_s[int(CommPart::fsdp)], tp = s.comms_s[int(CommPart::tensor)];
  CHECK_THAT(find_threshold(s, "dp_fsdp_tokens_per_chip")->step_margin, WithinRel(busy / fsdp, 1e-12));
  CHECK_THAT(find_threshold(s, "tensor_parallel_degree")->step_margin, WithinRel(busy / tp, 1e-12));
  // scaling-book/training, mixed FSDP + TP, at the optimal split: compute^2 / (T_FSDP T_TP) is the book's
  // (B/N) M_X M_Y F / alpha^2.
  CHECK_THAT(find_threshold(s, "fsdp_tp_tokens_per_chip")->step_margin, WithinRel(busy * busy / (fsdp * tp), 1e-12));
}

TEST_CASE(
    "expert parallelism inside one NVLink domain has a finite threshold (scaling-book/gpus, expert "
    "parallelism and intra-node AllToAll)",
    "[training]") {
  for (const char* chip : {"h100-sxm", "gb200-nvl72"}) {
    const int domain = test::hardware(chip).scale_up.domain_gpus;
    const int ep = std::min(domain, 8);
    Fixture f(chip, "mixtral-8x7b", Json{{"shape", {domain / ep, ep}}});
    const Hardware& hw = f.hw;
    f.in.batch_tokens = 1024 * 1024;
    f.in.plan.fsdp = group(f.mesh, {0});
    f.in.plan.expert = group(f.mesh, {1});
    const TrainingStep s = evaluate_training_step(f.in);
    const Threshold* t = find_threshold(s, "expert_d_ff");
    REQUIRE(t);
    // Inside the domain the two AllToAlls run over NVLink: 4BkDF/(ZC) > 4BkD (Z-1)/(Z^2 W_GPU) ... per GPU, i.e.
    // F > (C / W_GPU) (Z - 1)/Z.
    const double z = ep;
    CHECK_THAT(t->required, WithinRel(hw.peak(Dtype::bf16) / hw.scale_up.gpu_unidir_bytes_per_s * (z - 1) / z, 1e-12));
    CHECK(std::isfinite(t->margin));
  }
}

TEST_CASE(
    "expert parallelism divides the experts a chip reduces: the DP bound's E/k becomes (E/Z)/k "
    "(scaling-book/gpus, expert parallelism)",
    "[training]") {
  Fixture f("gb200-nvl72", "deepseek-v3", Json{{"shape", {9, 8}}});
  f.in.plan.fsdp = group(f.mesh, {0});
  f.in.plan.expert = group(f.mesh, {1});
  const TrainingStep s = evaluate_training_step(f.in);
  const Hardware& hw = f.hw;
  const ModelConfig& model = f.model;
  const Threshold* t = find_threshold(s, "dp_fsdp_tokens_per_chip");
  REQUIRE(t);
  // scaling-book/gpus, data parallelism for MoE: T_comms = 8 E' D F / W for the E' experts a GPU holds (E/Z + shared
  // under EP), T_math = 8 k' B D F/(XC).
  const double held = model.experts / 8.0 + model.shared_experts, used = model.active_experts + model.shared_experts;
  CHECK_THAT(t->required, WithinRel(held / used * hw.peak(Dtype::bf16) / hw.scale_up.gpu_unidir_bytes_per_s, 1e-12));
  CHECK(t->ok == t->step_margin >= 1.0);
}

TEST_CASE(
    "training state: 12 B/param by default (bf16 params + bf16 grads + fp32 Adam), the book's 10 with fused "
    "gradients (scaling-book/training, memory)",
    "[training]") {
  Fixture f(Json{{"shape", {4, 4, 4}}});
  f.in.plan.data = group(f.mesh, {0, 1, 2});
  const double params = count_params(f.model).total;
  const TrainingStep by_default = evaluate_training_step(f.in);
  CHECK_THAT(by_default.grads_bytes, WithinRel(2.0 * params, 1e-12));
  CHECK(by_default.state_bytes_per_param == 12.0);
  // The optimizer consumes each gradient as the backward pass produces it: no gradient buffer, 2 + 8 bytes.
  f.in.precision.gradients = GradientBuffer::fused;
  const TrainingStep fused = evaluate_training_step(f.in);
  CHECK(fused.grads_bytes == 0.0);
  CHECK(fused.state_bytes_per_param == 10.0);
  CHECK_THAT(fused.params_bytes + fused.optimizer_bytes, WithinRel(10.0 * params, 1e-12));
  // fp32 gradients (mixed precision without in-place accumulation): 2 + 4 + 8.
  f.in.precision.gradients = GradientBuffer::fp32;
  CHECK(evaluate_training_step(f.in).state_bytes_per_param == 14.0);
  // Fused gradients cannot accumulate over microbatches.
  f.in.precision.gradients = GradientBuffer::fused;
  f.in.plan.microbatches = 4;
  Diagnostics d;
  check_training_plan(f.in, "/query", d);
  CHECK(test::has_code(d, "conflicting", "/query/precision/gradients"));
}

TEST_CASE(
    "days at X% MFU: a target MFU prices the step as 6ND / (chips C MFU) (scaling-book/applied-training, "
    "the full-pod training time)",
    "[training]") {
  Fixture f(Json{{"shape", {16, 20, 28}}});
  f.in.plan.tensor = group(f.mesh, {0});
  f.in.plan.fsdp = group(f.mesh, {1, 2});
  f.in.remat = Remat::block;
  f.in.flop_account = FlopAccount::six_nd;
  f.in.target_mfu_frac = 0.4;
  const TrainingStep s = evaluate_training_step(f.in);
  const double six_nd = 6.0 * count_params(f.model).active * f.in.batch_tokens;
  CHECK_THAT(s.model_flops, WithinRel(six_nd, 1e-12));
  CHECK(s.hardware_flops > s.model_flops);  // remat's recompute still counts as hardware FLOPs ...
  CHECK_THAT(s.step_s, WithinRel(six_nd / (8960 * 4.59e14 * 0.4), 1e-12));  // ... but the MFU covers it
  CHECK_THAT(s.mfu_frac, WithinRel(0.4, 1e-12));
  CHECK(std::string(s.bound) == "compute");
}

TEST_CASE("a batch that is not a whole number of sequences names the nearest that are (issue 20: \"16M\" tokens)",
          "[training]") {
  Fixture f(Json{{"shape", {4, 4, 4}}});
  f.in.plan.fsdp = group(f.mesh, {0, 1, 2});
  f.in.batch_tokens = 16e6;  // 3906.25 sequences of 4096
  Diagnostics d;
  check_training_plan(f.in, "/query", d);
  REQUIRE(test::has_code(d, "not_divisible", "/query/batch_tokens"));
  const auto it = std::find_if(d.begin(), d.end(), [](const Diagnostic& x) { return x.path == "/query/batch_tokens"; });
  CHECK(it->message ==
        "16000000 tokens is not a whole number of 4096-token sequences; the nearest are 15998976 and 16003072");
  // Below one sequence there is only the one above.
  f.in.batch_tokens = 1000;
  Diagnostics small;
  check_training_plan(f.in, "/query", small);
  const auto at =
      std::find_if(small.begin(), small.end(), [](const Diagnostic& x) { return x.code == "not_divisible"; });
  REQUIRE(at != small.end());
  CHECK(at->message == "1000 tokens is not a whole number of 4096-token sequences; the nearest is 4096");
}

TEST_CASE("issue 39: explain.comms_total_s names each strategy's comms, the largest the combined figure",
          "[training][explain]") {
  // Book fidelity, LLaMA-3 70B on a v5p 4x4x4 with FSDP over X, Y and TP over Z (the book's training chapter):
  // the max model's values list every strategy by name, and the combined time is the largest of them.
  const Json answer = scalescope::test::run_json({{"hardware", {{"preset", "tpu-v5p"}}},
                                                  {"model", {{"preset", "llama-3-70b"}}},
                                                  {"mesh", {{"shape", {4, 4, 4}}}},
                                                  {"query",
                                                   {{"kind", "training_step"},
                                                    {"fidelity", "book"},
                                                    {"batch_tokens", 1048576},
                                                    {"seq_len", 4096},
                                                    {"explain", true},
                                                    {"parallelism", {{"fsdp", {"X", "Y"}}, {"tensor", {"Z"}}}}}}});
  REQUIRE(answer["ok"] == true);
  const Json& r = answer["result"];
  const std::string values = r["explain"]["comms_total_s"]["values"];
  INFO(values);
  CHECK(values.rfind("max(fsdp ", 0) == 0);
  CHECK(values.find(", tensor ") != std::string::npos);
  // The critical component of the step ("compute" here) is not a comms term, and is not named as one.
  CHECK(values.find(r["time"]["critical"].get<std::string>()) == std::string::npos);
  const double fsdp = r["time"]["comms"]["fsdp_s"], tensor = r["time"]["comms"]["tensor_s"];
  CHECK(r["time"]["comms_total_s"].get<double>() == Approx(std::max(fsdp, tensor)));
}
