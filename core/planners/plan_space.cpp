#include "planners/plan_space.h"

#include <algorithm>
#include <cmath>

#include "io/limits.h"
#include "physics/portable_math.h"
#include "planners/plan_layout.h"

namespace scalescope {

namespace {

enum { kData, kFsdp, kTensor, kPipeline, kExpert, kContext };

// The microbatch size of a shard that holds part of a sequence (SpaceOptions::split_sequences): one microbatch.
constexpr int kPartOfASequence = 0;

// Why the model, the batch or the mesh rules out a combination of degrees (the checks of plan_problems that depend
// on the degrees alone), or kAllowed.
constexpr int kAllowed = -1;
int model_rejects(const TrainingInput& in, const std::array<int, kLayoutStrategies>& g, bool split_sequences) {
  const ModelConfig& m = *in.model;
  const double tp = g[kTensor], ep = g[kExpert];
  if (!divides(tp, m.heads) || !(divides(tp, m.kv_heads) || divides(m.kv_heads, tp))) return kRejectTensorHeads;
  if (m.dense_mlp_layers() > 0 && !divides(tp, m.d_ff)) return kRejectTensorFfn;  // the experts' TP is a knob
  if (g[kPipeline] > m.layers) return kRejectPipelineLayers;
  if (ep > 1 && (!m.is_moe() || ep > m.experts || !divides(ep, m.experts))) return kRejectExperts;
  if (!divides(g[kContext], in.seq_len)) return kRejectContext;
  const double sequences = in.batch_tokens / in.seq_len;
  const double shards = static_cast<double>(g[kData]) * g[kFsdp] * g[kExpert];
  if (!divides(in.seq_len, in.batch_tokens)) return kRejectWholeSequences;
  if (!divides(shards, sequences) && !(split_sequences && in.batch_tokens / g[kContext] >= shards))
    return kRejectWholeSequences;
  return kAllowed;
}

void combos_from(PlanSpace& space, std::array<int, kLayoutStrategies>& g, int s, std::int64_t left) {
  const SpaceOptions& o = space.options;
  if (s == kLayoutStrategies - 1) {
    g[s] = static_cast<int>(left);
    const bool allowed = (left == 1 || (o.strategies >> s & 1u)) && (o.fixed[s] == 0 || o.fixed[s] == left) &&
                         (o.max_degree[s] == 0 || left <= o.max_degree[s]);
    if (!allowed) return;
    const double chunk = space.options.min_context_chunk_tokens;
    int reason = model_rejects(space.base, g, o.split_sequences);
    if (reason == kAllowed && chunk > 0 && g[kContext] > 1 && space.base.seq_len / g[kContext] < chunk)
      reason = kRejectContextChunk;
    if (reason != kAllowed) {
      ++space.rejected_by[reason];
      ++space.rejected_combos;
      return;
    }
    LayoutRules rules = space.rules;
    rules.degrees = g;
    DegreeCombo c{g, count_layouts(*space.base.mesh, rules, kMaxLayoutsPerPlan), 0, 0};
    if (c.layouts > kMaxLayoutsPerPlan || space.layouts + c.layouts > kMaxSearchLayouts) {
      space.too_many_layouts = true;  // the rest is not counted: the query refuses the space
      space.over_degrees = g;
      return;
    }
    if (c.layouts == 0) {
      ++space.rejected_by[kRejectNoLayout];
      ++space.rejected_combos;
      return;
    }
    c.knobs = knob_lists(space, c).count();
    if (c.knobs == 0) {  // no setting the caller allows fits this combination (the experts' TP, a schedule)
      ++space.rejected_by[kRejectNoSetting];
      ++space.rejected_combos;
      return;
    }
    c.first = space.size;
    space.size += static_cast<long long>(c.layouts) * c.knobs;
    space.layouts += c.layouts;
    space.combos.push_back(c);
    return;
  }
  for (std::int64_t f : divisors_of(left)) {
    if (space.too_many_layouts) return;
    if (f > 1 && !(o.strategies >> s & 1u)) continue;
    if (o.fixed[s] > 0 && f != o.fixed[s]) continue;
    if (o.max_degree[s] > 0 && f > o.max_degree[s]) continue;
    g[s] = static_cast<int>(f);
    combos_from(space, g, s + 1, left / f);
  }
}

}  // namespace

const char* reject_reason_name(int reason) {
  static const char* kNames[kRejectReasons] = {"tensor_heads",    "tensor_d_ff",      "pipeline_layers",
                                               "expert_count",    "context_sequence", "context_chunk",
                                               "whole_sequences", "no_layout",        "no_setting"};
  return reason >= 0 && reason < kRejectReasons ? kNames[reason] : "";
}

const char* offload_name(OffloadChoice o) {
  static const char* kNames[] = {"none", "optimizer", "activations", "both"};
  return kNames[static_cast<int>(o)];
}
const char* context_variant_name(ContextVariant v) { return v == ContextVariant::all_gather ? "all_gather" : "ring"; }

std::array<int, kKnobDimensions> KnobLists::radix() const {
  return {static_cast<int>(zero.size()),
          static_cast<int>(schedule.size()),
          static_cast<int>(microbatch_sequences.size()),
          static_cast<int>(remat.size()),
          static_cast<int>(offload.size()),
          static_cast<int>(matmul.size()),
          static_cast<int>(sequence_parallel.size()),
          static_cast<int>(context_variant.size()),
          static_cast<int>(expert_tensor.size()),
          static_cast<int>(capacity_factor.size())};
}

std::int64_t KnobLists::count() const {
  std::int64_t n = 1;
  for (int r : radix()) n *= r;
  return n;
}

KnobLists knob_lists(const PlanSpace& space, const DegreeCombo& c) {
  const SpaceOptions& o = space.options;
  const TrainingInput& in = space.base;
  const ModelConfig& m = *in.model;
  KnobLists k;
  // ZeRO stages apply to FSDP only; without it the one setting is "replicated" (stage 3 of nothing).
  if (c.degrees[kFsdp] > 1)
    k.zero = o.zero_stages;
  else
    k.zero = {3};
  if (c.degrees[kPipeline] > 1) {
    for (PipelineSchedule s : o.schedules) {
      if (s == PipelineSchedule::interleaved) {
        for (int v : o.virtual_stages)
          if (v > 1 && c.degrees[kPipeline] * v <= m.layers) k.schedule.push_back({s, v});
      } else if (s == PipelineSchedule::dualpipe) {
        if (c.degrees[kPipeline] % 2 == 0) k.schedule.push_back({s, 1});  // it pairs stage i with S - 1 - i
      } else if (s == PipelineSchedule::dualpipe_v) {
        if (2 * c.degrees[kPipeline] <= m.layers) k.schedule.push_back({s, 1});  // two chunks per stage
      } else {
        k.schedule.push_back({s, 1});
      }
    }
    if (k.schedule.empty()) k.schedule = {{PipelineSchedule::one_f_one_b, 1}};
  } else {
    k.schedule = {{PipelineSchedule::one_f_one_b, 1}};
  }
  const double per_shard =
      in.batch_tokens / in.seq_len / (static_cast<double>(c.degrees[kData]) * c.degrees[kFsdp] * c.degrees[kExpert]);
  if (per_shard >= 1 && per_shard <= 1e15 && per_shard == std::floor(per_shard))
    for (std::int64_t size : divisors_of(static_cast<std::int64_t>(per_shard)))
      if (size <= (1L << 30) &&
          (o.microbatch_sequences.empty() || std::find(o.microbatch_sequences.begin(), o.microbatch_sequences.end(),
                                                       size) != o.microbatch_sequences.end()))
        k.microbatch_sequences.push_back(static_cast<int>(size));
  if (per_shard != std::floor(per_shard) && o.split_sequences) k.microbatch_sequences = {kPartOfASequence};
  k.remat = o.remats;
  if (space.base.hw->host_pcie_unidir_bytes_per_s > 0)
    k.offload = o.offloads;
  else
    k.offload = {OffloadChoice::none};
  for (const MatmulChoice& x : o.matmul)
    if (space.base.hw->peak(x.dtype) > 0) k.matmul.push_back(x);
  if (c.degrees[kTensor] > 1)
    k.sequence_parallel = o.sequence_parallel;
  else
    k.sequence_parallel = {true};
  if (c.degrees[kContext] > 1)
    k.context_variant = o.context_variants;
  else
    k.context_variant = {ContextVariant::ring};
  // The experts' TP: each allowed degree that divides TP and the experts' d_ff, with the folded expert group
  // (expert x TP / ETP) dividing the experts. A dense model, or no MoE TP, has the one setting.
  const int tp = c.degrees[kTensor];
  if (m.is_moe()) {
    for (int etp : o.expert_tensor) {
      const int e = etp == 0 ? tp : etp;
      if (tp % e != 0 || !divides(e, m.expert_d_ff)) continue;
      const double folded = static_cast<double>(c.degrees[kExpert]) * tp / e;
      if (folded > m.experts || !divides(folded, m.experts)) continue;
      if (std::find(k.expert_tensor.begin(), k.expert_tensor.end(), etp == tp ? 0 : etp) == k.expert_tensor.end())
        k.expert_tensor.push_back(etp == tp ? 0 : etp);
    }
    k.capacity_factor = o.capacity_factors;
  } else {
    k.expert_tensor = {0};
    k.capacity_factor = {0};
  }
  return k;
}

void apply_knobs(const PlanSpace& space, const DegreeCombo& c, const KnobLists& k,
                 const std::array<int, kKnobDimensions>& digit, TrainingInput& in) {
  TrainingPlan& p = in.plan;
  p.zero_stage = k.zero[digit[0]];
  p.schedule = k.schedule[digit[1]].first;
  p.virtual_stages = k.schedule[digit[1]].second;
  const double per_shard = space.base.batch_tokens / space.base.seq_len /
                           (static_cast<double>(c.degrees[kData]) * c.degrees[kFsdp] * c.degrees[kExpert]);
  const int sequences = k.microbatch_sequences[digit[2]];
  p.microbatches = sequences == kPartOfASequence ? 1.0 : per_shard / sequences;
  in.remat = k.remat[digit[3]];
  const OffloadChoice off = k.offload[digit[4]];
  p.offload_optimizer = off == OffloadChoice::optimizer || off == OffloadChoice::both;
  p.offload_activations = off == OffloadChoice::activations || off == OffloadChoice::both;
  in.precision.matmul = k.matmul[digit[5]].dtype;
  in.precision.recipe = k.matmul[digit[5]].recipe;
  p.sequence_parallel = k.sequence_parallel[digit[6]];
  p.context_variant = k.context_variant[digit[7]];
  p.expert_tensor = k.expert_tensor[digit[8]];
  if (const double cf = k.capacity_factor[digit[9]]; cf > 0) {
    // A capacity tried by the search drops at it unless the query pads.
    in.moe.capacity_factor = cf;
    if (in.moe.policy == TokenPolicy::dropless) in.moe.policy = TokenPolicy::drop;
  } else if (cf == SpaceOptions::kDropless) {
    in.moe.capacity_factor = 0;
    in.moe.policy = TokenPolicy::dropless;
  }
}

PlanSpace build_plan_space(const TrainingInput& base, const SpaceOptions& options) {
  PlanSpace space;
  space.base = base;
  space.options = options;
  space.rules.dcn_strategies = options.dcn_strategies;
  space.rules.max_slots_per_torus_axis = options.max_strategies_per_torus_axis;
  std::array<int, kLayoutStrategies> g{};
  if (base.mesh->chips >= 1 && base.mesh->chips <= kMaxMeshChips)
    combos_from(space, g, 0, static_cast<std::int64_t>(base.mesh->chips));
  return space;
}

namespace {
struct Nth {
  std::int64_t target;
  std::int64_t seen = 0;
  MeshLayout layout{};
};
}  // namespace

bool decode_plan(const PlanSpace& space, long long index, TrainingInput& in) {
  if (index < 0 || index >= space.size) return false;
  auto it = std::upper_bound(space.combos.begin(), space.combos.end(), index,
                             [](long long i, const DegreeCombo& c) { return i < c.first; });
  const DegreeCombo& c = *(it - 1);
  const long long offset = index - c.first;
  Nth nth{static_cast<std::int64_t>(offset / c.knobs)};
  LayoutRules rules = space.rules;
  rules.degrees = c.degrees;
  for_each_layout(
      *space.base.mesh, rules,
      [](const MeshLayout& l, void* ctx) {
        Nth& n = *static_cast<Nth*>(ctx);
        if (n.seen++ < n.target) return true;
        n.layout = l;
        return false;
      },
      &nth);
  std::array<AxisGroup, kLayoutStrategies> groups;
  layout_groups(*space.base.mesh, nth.layout, groups);
  in = space.base;
  set_plan_groups(in.plan, groups);
  const KnobLists k = knob_lists(space, c);
  const std::array<int, kKnobDimensions> radix = k.radix();
  std::array<int, kKnobDimensions> digit{};
  std::int64_t knob = static_cast<std::int64_t>(offset % c.knobs);
  for (int d = kKnobDimensions - 1; d >= 0; --d) {
    digit[d] = static_cast<int>(knob % radix[d]);
    knob /= radix[d];
  }
  apply_knobs(space, c, k, digit, in);
  return true;
}

}  // namespace scalescope
