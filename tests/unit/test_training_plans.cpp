// Training plans issue 9 made expressible: host offload, the CP variants, pipelines and experts over DCN,
// pipeline hops across NVLink domains (planners/training.cpp).
#include <catch2/catch.hpp>

#include "physics/layout.h"
#include "planners/training.h"
#include "test_helpers.h"

using namespace scalescope;
using Catch::Matchers::WithinRel;

namespace {
struct Job {
  Hardware hw;
  ModelConfig model;
  Mesh mesh;
  TrainingInput in;
  Job(const char* chip, const char* model_id, const Json& mesh_spec)
      : hw(test::hardware(chip)), model(test::model(model_id)), mesh(test::mesh_of(hw, mesh_spec)) {
    in.model = &model;
    in.hw = &hw;
    in.mesh = &mesh;
    in.batch_tokens = 4194304;
    in.seq_len = 4096;
    in.remat = Remat::block;
  }
};
}  // namespace

TEST_CASE("optimizer offload moves Adam's states to the host and streams them once a step", "[training]") {
  Job j("tpu-v5p", "llama-3-70b", Json{{"shape", {4, 4, 4}}});
  j.in.plan.fsdp = make_axis_group(j.mesh, {0, 1, 2});
  const TrainingStep base = evaluate_training_step(j.in);
  j.in.plan.offload_optimizer = true;
  const TrainingStep off = evaluate_training_step(j.in);
  const double states = base.optimizer_bytes + base.master_bytes;
  CHECK_THAT(base.total_bytes - off.total_bytes, WithinRel(states, 1e-12));
  CHECK(off.host_bytes == states);
  // In for the update and back out, on a full-duplex link: the busier direction, states / W_host.
  CHECK_THAT(off.offload_s, WithinRel(states / j.hw.host_pcie_unidir_bytes_per_s, 1e-12));
  CHECK(off.step_s >= base.step_s);
}

TEST_CASE("activation offload keeps two layers' activations in HBM and sends the rest out and back", "[training]") {
  Job j("tpu-v5p", "llama-3-70b", Json{{"shape", {4, 4, 4}}});
  j.in.plan.fsdp = make_axis_group(j.mesh, {0, 1, 2});
  j.in.plan.microbatches = 4;
  const TrainingStep base = evaluate_training_step(j.in);
  j.in.plan.offload_activations = true;
  const TrainingStep off = evaluate_training_step(j.in);
  CHECK_THAT(off.activations_bytes, WithinRel(base.activations_bytes * 2.0 / 80.0, 1e-12));
  // Every microbatch's saved activations (here one at a time in HBM) cross the host link each way.
  CHECK_THAT(off.host_bytes, WithinRel(base.activations_bytes * 4, 1e-12));
  CHECK_THAT(off.offload_s, WithinRel(off.host_bytes / j.hw.host_pcie_unidir_bytes_per_s, 1e-12));
}

TEST_CASE("the all-gather CP variant holds the whole sequence's K and V; ring attention two chunks", "[training]") {
  Job j("tpu-v5p", "llama-3-70b", Json{{"shape", {4, 4, 4}}});
  j.in.seq_len = 32768;
  j.in.plan.fsdp = make_axis_group(j.mesh, {0, 1});
  j.in.plan.context = make_axis_group(j.mesh, {2});
  const TrainingStep ring = evaluate_training_step(j.in);
  j.in.plan.context_variant = ContextVariant::all_gather;
  const TrainingStep gathered = evaluate_training_step(j.in);
  CHECK_THAT(gathered.context_buffers_bytes, WithinRel(ring.context_buffers_bytes * 4 / 2, 1e-12));
  CHECK(gathered.comms_s[int(CommPart::context)] == ring.comms_s[int(CommPart::context)]);  // same bytes
                                                                                            // (scaling-book/training)
}

TEST_CASE("a pipeline across slices sends its activations over DCN; experts across slices send tokens over it",
          "[training]") {
  Job j("tpu-v5p", "mixtral-8x7b", Json{{"shape", {4, 4, 4}}, {"slices", 2}});
  j.in.plan.fsdp = make_axis_group(j.mesh, {0, 1, 2});
  j.in.plan.pipeline = make_axis_group(j.mesh, {3});
  j.in.plan.zero_stage = 1;
  j.in.plan.microbatches = 8;
  const TrainingStep pp = evaluate_training_step(j.in);
  // scaling-book/gpus, pipelining comms with the slowest hop at the per-chip DCN bandwidth.
  const double hop = 2.0 * pp.microbatch_tokens * j.model.d_model / j.hw.dcn_unidir_bytes_per_s_per_chip;
  CHECK_THAT(pp.comms_s[int(CommPart::pipeline)], WithinRel(2.0 * (8 + 2 - 2) * hop, 1e-12));
  Job e("tpu-v5p", "mixtral-8x7b", Json{{"shape", {4, 4, 4}}, {"slices", 2}});
  e.in.plan.fsdp = make_axis_group(e.mesh, {0, 1});
  e.in.plan.expert = make_axis_group(e.mesh, {2, 3});  // 4 experts per slice x 2 slices
  const TrainingStep ep = evaluate_training_step(e.in);
  CHECK(ep.expert == 8);
  CHECK(ep.comms_s[int(CommPart::dcn)] > 0);
  CHECK(ep.comms_s[int(CommPart::expert)] > 0);
}

TEST_CASE("pipeline stages in different NVLink domains send over the NIC (scaling-book/gpus, networking)",
          "[training]") {
  // 16 H100s: PP 2 outermost with DP 8 inside puts the stages in different nodes.
  Job j("h100-sxm", "llama-3-8b", Json{{"shape", {2, 8}}});
  j.in.plan.pipeline = make_axis_group(j.mesh, {0});
  j.in.plan.data = make_axis_group(j.mesh, {1});
  j.in.plan.microbatches = 4;
  const TrainingStep across = evaluate_training_step(j.in);
  const double hop = 2.0 * across.microbatch_tokens * j.model.d_model / j.hw.scale_out.nic_unidir_bytes_per_s_per_gpu;
  CHECK_THAT(across.comms_s[int(CommPart::pipeline)], WithinRel(2.0 * (4 + 2 - 2) * hop, 1e-12));
  // Swapped (PP inner, consecutive GPUs), the hop stays on NVLink.
  Job k("h100-sxm", "llama-3-8b", Json{{"shape", {8, 2}}});
  k.in.plan.pipeline = make_axis_group(k.mesh, {1});
  k.in.plan.data = make_axis_group(k.mesh, {0});
  k.in.plan.microbatches = 4;
  const TrainingStep inside = evaluate_training_step(k.in);
  CHECK_THAT(inside.comms_s[int(CommPart::pipeline)] * 9.0, WithinRel(across.comms_s[int(CommPart::pipeline)], 1e-12));
}
