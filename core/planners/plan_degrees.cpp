#include "planners/plan_degrees.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "io/format.h"
#include "planners/serving.h"

namespace scalescope {

namespace {

// How far from a degree the nearest one the model splits into is looked for, each way (a degree is at most 2^24).
constexpr std::int64_t kNearestSpan = 1 << 16;

bool active_in_mode(const DegreeQuestion& q, int s) { return !q.serving || s == kTensorIndex || s == kExpertIndex; }

TrainingInput training_input(const DegreeQuestion& q, const std::array<std::int64_t, kLayoutStrategies>& degrees) {
  TrainingInput in;
  in.model = q.model;
  in.hw = q.hw;
  in.seq_len = q.seq_len > 0 ? q.seq_len : 1;
  // The batch's checks (whole sequences, enough for every data shard) only when the question has a batch.
  in.batch_tokens = q.batch_tokens > 0 && q.seq_len > 0 ? q.batch_tokens : in.seq_len;
  AxisGroup* groups[kLayoutStrategies] = {&in.plan.data,     &in.plan.fsdp,   &in.plan.tensor,
                                          &in.plan.pipeline, &in.plan.expert, &in.plan.context};
  for (int s = 0; s < kLayoutStrategies; ++s) groups[s]->degree = static_cast<double>(degrees[s]);
  groups[q.dcn_strategy == 1 ? kFsdpIndex : kDataIndex]->degree *= static_cast<double>(q.slices);
  in.plan.schedule = q.schedule;
  in.plan.virtual_stages = q.virtual_stages;
  in.plan.expert_tensor = q.expert_tensor;
  return in;
}

ServingInput serving_input(const DegreeQuestion& q, const std::array<std::int64_t, kLayoutStrategies>& degrees) {
  ServingInput in;
  in.model = q.model;
  in.hw = q.hw;
  in.tensor.degree = static_cast<double>(degrees[kTensorIndex]);
  in.expert.degree = static_cast<double>(degrees[kExpertIndex]);
  in.expert_tensor = q.expert_tensor;
  return in;
}

// The bits a strategy's degree decides. The experts' checks move with TP only for an MoE model (on a dense one an
// experts' TP is wrong whatever TP is), and a serving replica's only when the experts' TP is set apart from TP (the
// other TP ranks then fold into the expert group).
unsigned mask_of(const DegreeQuestion& q, int s) {
  const unsigned expert_tp = kTensorExpertDff | kExpertTensor | kFoldedExperts;
  const unsigned tensor_experts = q.model->is_moe() ? ~0u : ~expert_tp;
  if (!q.serving) {
    const unsigned own = q.seq_len > 0 ? split_problems_of(s) : split_problems_of(s) & ~kContextSeq;
    return s == kTensorIndex ? own & tensor_experts : own;
  }
  const unsigned experts = kExpertDense | kExpertTooLarge | kExpertNotDivisible;
  if (s == kTensorIndex)
    return (kTensorHeads | kTensorDff | kTensorExpertDff | kExpertTensor | (q.expert_tensor > 0 ? experts : 0u)) &
           tensor_experts;
  return s == kExpertIndex ? experts : 0u;
}

unsigned problems_at(const DegreeQuestion& q, const std::array<std::int64_t, kLayoutStrategies>& degrees) {
  return q.serving ? serving_plan_problems(serving_input(q, degrees)) : setting_problems(training_input(q, degrees));
}

std::int64_t smallest_factor(std::int64_t n) {
  for (std::int64_t f = 2; f * f <= n; ++f)
    if (n % f == 0) return f;
  return n;
}

// The degree nearest `degree` (by ratio; the smaller on a tie) that `strategy` splits the model into, or 0.
std::int64_t nearest_split(const DegreeQuestion& q, int s, std::int64_t degree) {
  std::int64_t best = 0;
  double best_ratio = INFINITY;
  for (std::int64_t v = degree - 1; v >= 1 && v >= degree - kNearestSpan; --v)
    if (split_problems(q, s, v) == 0) {
      best = v;
      best_ratio = static_cast<double>(degree) / static_cast<double>(v);
      break;
    }
  for (std::int64_t v = degree + 1; v <= kMaxPlanDegree && v <= degree + kNearestSpan; ++v) {
    if (static_cast<double>(v) / static_cast<double>(degree) >= best_ratio) break;
    if (split_problems(q, s, v) == 0) return v;
  }
  return best;
}

// The words for the strategy's split problem (at its key, or the experts' TP for TP), for a change's reason.
std::string split_reason(const DegreeQuestion& q, int s) {
  Diagnostics words;
  describe_split_problems(q, "/query", words);
  const std::string key = std::string("/") + kStrategyKeys[s];
  for (const Diagnostic& w : words)
    if (w.path.ends_with(key) || (s == kTensorIndex && w.path.ends_with("/expert_tensor"))) return w.message;
  return std::string("the model does not split ") + kStrategyLabels[s] + " " + std::to_string(q.degrees[s]) + " ways";
}

void change(std::vector<DegreeChange>& out, const std::string& path, double from, double to, std::string reason) {
  out.push_back(DegreeChange{path, from, to, false, std::move(reason)});
}

void drop_chips(DegreeQuestion& q, std::vector<DegreeChange>& out, std::string reason) {
  out.push_back(DegreeChange{"/query/chips", static_cast<double>(q.chips), 0, true, std::move(reason)});
  q.chips = 0;
}

void drop_expert_tensor(DegreeQuestion& q, std::vector<DegreeChange>& out, std::string reason) {
  out.push_back(DegreeChange{"/query/parallelism/expert_tensor", q.expert_tensor, 0, true, std::move(reason)});
  q.expert_tensor = 0;
}

bool shrinking_helps(const DegreeMesh& mesh) {
  return mesh.code == "slice_too_large" || mesh.code == "too_many_axes" || mesh.code == "does_not_fit" ||
         mesh.code == "too_large";
}

bool lays_out(const DegreeQuestion& q) { return mesh_for_degrees(degree_mesh_input(q)).ok; }

// The next smaller degree of `s` below its own (by its smallest factor, then on) that splits the model, or 1.
std::int64_t smaller_split(const DegreeQuestion& q, int s) {
  std::int64_t v = q.degrees[s];
  do v /= smallest_factor(v);
  while (v > 1 && split_problems(q, s, v) != 0);
  return v;
}

// The strategy to shrink when the mesh does not lay out and the balancing degree cannot help: with too many axes
// the smallest degree above 1 (its strategy goes, the fewest chips lost), otherwise the largest. -1: none.
int strategy_to_shrink(const DegreeQuestion& q, const DegreeMesh& mesh) {
  int pick = -1;
  for (int s = 0; s < kLayoutStrategies; ++s) {
    if (!active_in_mode(q, s) || q.degrees[s] <= 1) continue;
    const bool better =
        pick < 0 || (mesh.code == "too_many_axes" ? q.degrees[s] < q.degrees[pick] : q.degrees[s] > q.degrees[pick]);
    if (better) pick = s;
  }
  return pick;
}

// 1. The model's splits, TP first (the experts' checks fold TP in): each strategy that does not split goes to the
// nearest degree that does, or shrinks until it does when none is near.
void fix_splits(DegreeQuestion& q, std::vector<DegreeChange>& out) {
  for (int s : {kTensorIndex, kExpertIndex, kPipelineIndex, kContextIndex}) {
    if (!active_in_mode(q, s) || split_problems(q, s, q.degrees[s]) == 0) continue;
    std::int64_t to = nearest_split(q, s, q.degrees[s]);
    if (to == 0) to = smaller_split(q, s);
    if (to == q.degrees[s]) continue;
    change(out, std::string("/query/parallelism/") + kStrategyKeys[s], static_cast<double>(q.degrees[s]),
           static_cast<double>(to), split_reason(q, s) + "; " + std::to_string(to) + " is the nearest that splits it");
    q.degrees[s] = to;
  }
}

// 2. A fixed chip count the degrees cannot split, or whose balancing degree the model does not split into.
void fix_chips(DegreeQuestion& q, std::vector<DegreeChange>& out) {
  DegreeQuestion balanced = q;
  if (const std::string problem = chips_problem(balanced); !problem.empty()) return drop_chips(q, out, problem);
  q = balanced;
}

// 3. The mesh: the balancing degree shrinks until the degrees lay out on the chip; if that is not enough, the other
// degrees shrink too (strategy_to_shrink), each change said. A single chip always lays out, so this ends.
void fix_mesh(DegreeQuestion& q, std::vector<DegreeChange>& out) {
  if (q.slices > 1 && !lays_out(q) && q.hw->kind == ChipKind::gpu) {
    out.push_back(DegreeChange{"/query/slices", static_cast<double>(q.slices), 1, false,
                               "slices joined over DCN are a TPU notion; a GPU cluster raises DP or FSDP instead"});
    q.slices = 1;
  }
  DegreeMesh mesh = mesh_for_degrees(degree_mesh_input(q));
  if (mesh.ok || !shrinking_helps(mesh)) return;
  const int b = balancing_strategy(q);
  const std::int64_t from = q.degrees[b];
  DegreeQuestion tried = q;
  while (!mesh.ok && tried.degrees[b] > 1) {
    tried.degrees[b] /= smallest_factor(tried.degrees[b]);
    mesh = mesh_for_degrees(degree_mesh_input(tried));
  }
  if (!mesh.ok) {  // shrinking it alone did not help: the others go first
    tried.degrees[b] = from;
    mesh = mesh_for_degrees(degree_mesh_input(tried));
  }
  bool balancing_said = false;
  for (int s = strategy_to_shrink(tried, mesh); !mesh.ok && s >= 0; s = strategy_to_shrink(tried, mesh)) {
    const std::int64_t was = tried.degrees[s];
    tried.degrees[s] = mesh.code == "too_many_axes" ? 1 : smaller_split(tried, s);
    change(out, std::string("/query/parallelism/") + kStrategyKeys[s], static_cast<double>(was),
           static_cast<double>(tried.degrees[s]), "so that the degrees fit one " + q.hw->name + " slice");
    balancing_said = balancing_said || s == b;
    mesh = mesh_for_degrees(degree_mesh_input(tried));
  }
  if (tried.degrees[b] != from && !balancing_said)
    change(out, std::string("/query/parallelism/") + kStrategyKeys[b], static_cast<double>(from),
           static_cast<double>(tried.degrees[b]), "so that the degrees fit one " + q.hw->name + " slice");
  q = tried;
  if (q.chips > 0) drop_chips(q, out, "the degrees shrank to fit the slice, so the chip count is no longer fixed");
}

}  // namespace

DegreeMeshInput degree_mesh_input(const DegreeQuestion& q) {
  DegreeMeshInput in;
  in.hw = q.hw;
  for (int s = 0; s < kLayoutStrategies; ++s) in.degrees[s] = active_in_mode(q, s) ? q.degrees[s] : 1;
  in.slices = q.serving ? 1 : q.slices;
  in.dcn_strategy = q.dcn_strategy;
  in.engine_layout = !q.serving;
  return in;
}

int balancing_strategy(const DegreeQuestion& q) {
  if (q.serving) return kTensorIndex;
  return q.degrees[kFsdpIndex] > 1 || q.degrees[kDataIndex] == 1 ? kFsdpIndex : kDataIndex;
}

double chips_unit(const DegreeQuestion& q, int skip) {
  const int balancing = balancing_strategy(q);
  double unit = q.serving ? 1.0 : static_cast<double>(q.slices);
  for (int s = 0; s < kLayoutStrategies; ++s)
    if (s != balancing && s != skip && active_in_mode(q, s)) unit *= static_cast<double>(q.degrees[s]);
  return unit;
}

unsigned split_problems(const DegreeQuestion& q, int s, std::int64_t degree) {
  std::array<std::int64_t, kLayoutStrategies> degrees = q.degrees;
  degrees[s] = degree;
  return problems_at(q, degrees) & mask_of(q, s);
}

unsigned split_problems(const DegreeQuestion& q) {
  // The experts' TP on a dense model is no strategy's fault (mask_of leaves it out), but the planners refuse it
  // (issue 41: plan_mesh said runs).
  unsigned mask = kExpertTensor | (q.batch_tokens > 0 && q.seq_len > 0 ? kBatchNotWholeSequences | kBatchTooSmall : 0u);
  for (int s = 0; s < kLayoutStrategies; ++s) mask |= mask_of(q, s);
  return problems_at(q, q.degrees) & mask;
}

void describe_split_problems(const DegreeQuestion& q, const std::string& query_path, Diagnostics& d) {
  const std::string par = query_path + "/parallelism";
  if (q.serving)
    check_serving_plan(serving_input(q, q.degrees), par, par + "/tensor", d);
  else
    describe_plan_problems(training_input(q, q.degrees), split_problems(q), query_path, d);
}

bool balance_chips(DegreeQuestion& q) {
  if (q.chips <= 0) return true;
  const double want = static_cast<double>(q.chips) / chips_unit(q);
  if (want != std::floor(want) || want < 1 || want > kMaxPlanDegree) return false;
  q.degrees[balancing_strategy(q)] = static_cast<std::int64_t>(want);
  return true;
}

std::string chips_problem(DegreeQuestion& q) {
  if (q.chips <= 0) return "";
  const DegreeQuestion asked = q;
  if (!balance_chips(q))
    return format_count(static_cast<double>(q.chips)) + " chips do not split into the other degrees (" +
           format_count(chips_unit(q)) + " chips per " + kStrategyLabels[balancing_strategy(q)] + " replica)";
  // Issue 41: 4,096 chips in serving set TP 4,096, which 64 heads do not split into; the count was applied anyway.
  const int b = balancing_strategy(q);
  if (split_problems(q, b, q.degrees[b]) == 0) return "";
  const std::string problem = format_count(static_cast<double>(q.chips)) + " chips set " + kStrategyLabels[b] + " " +
                              std::to_string(q.degrees[b]) + ", which the model does not split into";
  q = asked;
  return problem;
}

std::vector<std::int64_t> valid_degrees(const DegreeQuestion& q, int s, const DegreeOptions& options) {
  std::vector<std::int64_t> out;
  const int balancing = balancing_strategy(q);
  const bool fixed = q.chips > 0 && active_in_mode(q, s) && s != balancing;
  const double room = fixed ? static_cast<double>(q.chips) / chips_unit(q, s) : 0;
  // With a fixed chip count a stop moves the balancing degree too: both must split the model.
  const unsigned mask = mask_of(q, s) | (fixed ? mask_of(q, balancing) : 0u);
  const std::int64_t up_to = std::min(options.up_to, kMaxPlanDegree);
  std::array<std::int64_t, kLayoutStrategies> degrees = q.degrees;
  for (std::int64_t v = 1; v <= up_to; v = options.powers_of_two ? v * 2 : v + 1) {
    degrees[s] = v;
    if (fixed) {
      const double left = room / static_cast<double>(v);
      if (left < 1 || left != std::floor(left)) continue;
      degrees[balancing] = static_cast<std::int64_t>(left);
    }
    if ((problems_at(q, degrees) & mask) == 0) out.push_back(v);
  }
  return out;
}

bool runs(const DegreeQuestion& q) {
  DegreeQuestion balanced = q;
  return balance_chips(balanced) && lays_out(balanced) && split_problems(balanced) == 0;
}

std::vector<DegreeChange> nearest_runnable(DegreeQuestion& q) {
  std::vector<DegreeChange> out;
  // 0. The experts' TP on a dense model: no degree fixes it, so it goes.
  if (q.expert_tensor > 0 && !q.model->is_moe())
    drop_expert_tensor(q, out, "expert tensor parallelism needs an MoE model (" + q.model->name + " is dense)");
  // Each fix can undo another's work (a shrunk degree no longer splits, a fixed count sets a degree the model does
  // not take), so they repeat until the question runs; the mesh fix ends on one chip, so a few rounds suffice.
  // The batch is last: its fix moves no degree, so the rounds ask whether the degrees run whatever the batch.
  const auto degrees_run = [](const DegreeQuestion& x) {
    DegreeQuestion any_batch = x;
    any_batch.batch_tokens = 0;
    return runs(any_batch);
  };
  for (int round = 0; round < 8 && !degrees_run(q); ++round) {
    const std::size_t said = out.size();
    fix_splits(q, out);
    fix_chips(q, out);
    fix_mesh(q, out);
    // No single degree moves the experts' TP and the degrees it couples (EP x TP / ETP) together: when the fixes
    // stall, or undo each other (the mesh shrinks the TP the splits raised), it goes.
    if (q.expert_tensor > 0 && (out.size() == said || round >= 3) && !degrees_run(q))
      drop_expert_tensor(q, out,
                         "no degrees near these split the experts with their TP at " + format_count(q.expert_tensor) +
                             "; unset, it is the TP degree");
  }
  // 4. The batch: whole sequences, and at least one token per data shard and microbatch (as the training step
  // checks it: batch / CP >= data x FSDP x EP shards), rounded up to whole sequences.
  balance_chips(q);  // the degrees said are those the chip count sets
  if (!q.serving && q.batch_tokens > 0 && q.seq_len > 0) {
    const DegreeMeshInput in = degree_mesh_input(q);
    const double least = static_cast<double>(in.degrees[kDataIndex] * in.degrees[kFsdpIndex] *
                                             in.degrees[kExpertIndex] * in.degrees[kContextIndex]) *
                         static_cast<double>(q.slices);
    const double whole = std::max(1.0, std::round(q.batch_tokens / q.seq_len)) * q.seq_len;
    const bool too_small = whole < least;
    const double to = too_small ? std::ceil(least / q.seq_len) * q.seq_len : whole;
    if (to != q.batch_tokens)
      change(out, "/query/batch_tokens", q.batch_tokens, to,
             too_small
                 ? format_count(q.batch_tokens) + " tokens cannot feed " + format_count(least) + " data shards; " +
                       format_count(to) + " is the smallest whole number of sequences that does"
                 : format_count(q.batch_tokens) + " tokens is not a whole number of " + format_count(q.seq_len) +
                       "-token sequences; " + format_count(to) + " is the nearest that is");
    q.batch_tokens = to;
  }
  return out;
}

GpuCountPlan default_gpu_count_plan(const Hardware& hw, const ModelConfig* model, int gpus) {
  GpuCountPlan plan;
  plan.tensor = std::gcd(gpus, std::max(1, hw.scale_up.domain_gpus));
  if (model && model->heads >= 1) plan.tensor = std::gcd(plan.tensor, static_cast<int>(std::min(model->heads, 1e9)));
  plan.fsdp = gpus / plan.tensor;
  return plan;
}

}  // namespace scalescope
