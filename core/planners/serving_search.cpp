#include "planners/serving_search.h"

#include <algorithm>
#include <cmath>

#include "physics/layout.h"
#include "physics/portable_math.h"
#include "planners/serving_deployment.h"

namespace scalescope {

namespace {

// The most balanced slice of n chips the pod holds (axes largest first, e.g. 4x2 for 8 v5e), or none.
std::vector<int> slice_shape(const Hardware& hw, int n) {
  if (hw.kind == ChipKind::gpu) return {n};
  std::vector<int> best;
  const int dims = hw.ici.torus_dims;
  for (int a = n; a >= 1; --a) {
    if (n % a) continue;
    for (int b = std::min(a, n / a); b >= 1; --b) {
      if ((n / a) % b) continue;
      const int c = n / a / b;
      if (c > b || (dims < 3 && c > 1)) continue;
      std::array<int, kMaxTorusDims> shape{a, b, c};
      Diagnostics d;
      describe_tpu_slice(hw, shape, dims, "", d);
      if (!d.empty()) continue;
      std::vector<int> cand{a};
      if (b > 1 || c > 1) cand.push_back(b);
      if (c > 1) cand.push_back(c);
      if (best.empty() || cand.front() < best.front()) best = cand;
    }
  }
  return best;
}

// One replica: its mesh, which axes carry TP and which EP (attention data parallel), and the experts' TP.
struct ReplicaLayout {
  std::vector<int> shape, tensor_axes, expert_axes;
  double tensor = 1, expert = 1, expert_tensor = 0;
};

// The layouts of `r`'s degrees a model can run: TP divides the heads (and a dense layer's d_ff), the experts' TP
// their d_ff, the expert group (expert x TP / ETP) the experts. An MoE model with TP also tries wide EP: the
// experts whole (ETP 1), spread over every chip of the replica.
void push_valid(const ModelConfig& m, ReplicaLayout r, std::vector<ReplicaLayout>& out) {
  if (!divides(r.tensor, m.heads) || (m.dense_mlp_layers() > 0 && !divides(r.tensor, m.d_ff))) return;
  if (!m.is_moe()) {
    if (r.expert == 1) out.push_back(r);
    return;
  }
  for (double etp : {r.tensor, 1.0}) {
    const double group = r.expert * r.tensor / etp;
    if (!divides(etp, m.expert_d_ff) || group > m.experts || !divides(group, m.experts)) continue;
    r.expert_tensor = etp == r.tensor ? 0 : etp;
    out.push_back(r);
    if (r.tensor == 1) break;
  }
}

std::vector<ReplicaLayout> replica_layouts(const ServingSearchInput& in, int n) {
  const ModelConfig& m = *in.model;
  std::vector<ReplicaLayout> out;
  if (in.hw->kind == ChipKind::gpu) {
    for (int ep = 1; ep <= n; ++ep) {
      if (n % ep || (ep > 1 && !m.is_moe())) continue;
      const int tp = n / ep;
      ReplicaLayout r;
      r.tensor = tp;
      r.expert = ep;
      if (ep == 1) {
        r.shape = {n};
        r.tensor_axes = {0};
      } else if (tp == 1) {
        r.shape = {n};
        r.expert_axes = {0};
      } else {  // TP innermost, inside the NVLink domain first
        r.shape = {ep, tp};
        r.expert_axes = {0};
        r.tensor_axes = {1};
      }
      push_valid(m, r, out);
    }
    return out;
  }
  const std::vector<int> shape = slice_shape(*in.hw, n);
  if (shape.empty()) return out;
  const int axes = static_cast<int>(shape.size());
  for (unsigned mask = 0; mask < (1u << axes); ++mask) {  // the axes given to EP
    if (mask && !m.is_moe()) break;
    ReplicaLayout r;
    r.shape = shape;
    for (int a = 0; a < axes; ++a) {
      if (mask >> a & 1u) {
        r.expert_axes.push_back(a);
        r.expert *= shape[a];
      } else {
        r.tensor_axes.push_back(a);
        r.tensor *= shape[a];
      }
    }
    push_valid(m, r, out);
  }
  return out;
}

double objective_of(const ServingDeployment& d, ServingObjective o) {
  switch (o) {
    case ServingObjective::fewest_chips:
      return d.total_chips;
    case ServingObjective::usd_per_million_tokens:
      return d.usd_per_million_tokens;
    case ServingObjective::tokens_per_s_per_chip:
      return -d.tokens_per_s_per_chip;
  }
  return d.usd_per_million_tokens;
}

bool better(const ServingDeployment& a, const ServingDeployment& b, ServingObjective o) {
  const double x = objective_of(a, o), y = objective_of(b, o);
  if (x != y) return x < y;
  if (a.usd_per_million_tokens != b.usd_per_million_tokens) return a.usd_per_million_tokens < b.usd_per_million_tokens;
  if (a.total_chips != b.total_chips) return a.total_chips < b.total_chips;
  return a.latency_per_token_s < b.latency_per_token_s;
}

// The frontier of latency per output token x dollars per million output tokens (the book's trade-off,
// scaling-book/applied-inference).
void frontier_insert(std::vector<ServingDeployment>& f, const ServingDeployment& d) {
  auto it = std::upper_bound(f.begin(), f.end(), d.latency_per_token_s,
                             [](double l, const ServingDeployment& x) { return l < x.latency_per_token_s; });
  if (it != f.begin() && (it - 1)->usd_per_million_tokens <= d.usd_per_million_tokens) return;
  while (it != f.begin() && (it - 1)->latency_per_token_s == d.latency_per_token_s) it = f.erase(it - 1);
  auto end = it;
  while (end != f.end() && end->usd_per_million_tokens >= d.usd_per_million_tokens) ++end;
  it = f.erase(it, end);
  f.insert(it, d);
}

// A deployment priced under a benchmark's load (issue 35): `batch` clients per decode replica in a closed loop, the
// backend's runtime, the steady state's TPOT and TTFT; disaggregated, the fewest prefill workers of the replica's
// size per decode replica that keep the pool below saturation (false: none does). Replicas for the demand, cost.
bool price_under_load(const ServingSearchInput& in, const ServingModel& model, double batch, bool disaggregated,
                      double replica_chips, ServingDeployment& x) {
  ServingLoadInput load;
  load.concurrency = batch;
  load.prompt_len = in.prompt_len;
  load.generated_len = in.generated_len;
  load.kv_context_len = in.kv_context_len;
  ServingLoad l;
  if (disaggregated) {
    load.prefill = &model;  // prefill workers of the replica's size and split
    LoadParts parts = load_parts(model, load);
    bool kept_up = false;
    for (double ratio : kPrefillWorkerRatios) {
      parts.prefill_workers = ratio;
      parts.chips = replica_chips * (1.0 + ratio);
      l = solve_load(parts, *in.backend);
      if (l.prefill_busy_frac < 1.0) {
        x.prefill_workers_per_replica = ratio;
        kept_up = true;
        break;
      }
    }
    if (!kept_up) return false;
  } else {
    l = serve_under_load(model, load, *in.backend);
  }
  if (!l.fits) return false;
  x.decode_step_s = l.decode_step_s;  // on the backend's runtime, at the mean context of a request
  x.bound = l.decode_bound;
  x.latency_per_token_s = l.time_per_output_token_s;
  x.time_to_first_token_s = l.time_to_first_token_s;
  x.replicas =
      in.demand_tokens_per_s > 0 ? std::max(1.0, std::ceil(in.demand_tokens_per_s / l.output_tokens_per_s)) : 1.0;
  x.prefill_servers = disaggregated ? std::ceil(x.replicas * x.prefill_workers_per_replica) : 0.0;
  x.total_chips = (x.replicas + x.prefill_servers) * replica_chips;
  x.tokens_per_s = x.replicas * l.output_tokens_per_s;
  x.tokens_per_s_per_chip = x.tokens_per_s / x.total_chips;
  x.usd_per_million_tokens = x.total_chips * in.hw->price_usd_per_chip_hour / 3600.0 / x.tokens_per_s * 1e6;
  return true;
}

// The replica's chips as a mesh of its slice's shape (`d` says why not).
Mesh replica_mesh(const ReplicaLayout& r, const Hardware& hw, Diagnostics& d) {
  Json shape = Json::array();
  for (int v : r.shape) shape.push_back(v);
  return parse_mesh(Json{{"shape", shape}}, "", hw, d);
}

// The serving planner's input for a replica layout on `mesh` (the dtypes are set per deployment).
ServingInput replica_input(const ServingSearchInput& in, const ReplicaLayout& r, const Mesh& mesh) {
  ServingInput s;
  s.model = in.model;
  s.hw = in.hw;
  s.mesh = &mesh;
  s.activations = in.activations;
  s.efficiency = in.efficiency;
  s.include_comms = in.include_comms;
  s.params_override = in.params_override;
  s.hbm_budget = in.hbm_budget;
  for (int a : r.tensor_axes) add_axis(s.tensor, mesh, a);
  for (int a : r.expert_axes) add_axis(s.expert, mesh, a);
  s.expert_tensor = r.expert_tensor;
  return s;
}

// The batches tried: the query's, or powers of two up to the largest that fits (and it), at most
// kLargestDefaultBatch.
std::vector<double> batches_to_try(const ServingSearchInput& in, double max_batch) {
  std::vector<double> batches = in.batches;
  if (batches.empty()) {
    for (double b = 1; b <= max_batch && b <= kLargestDefaultBatch; b *= 2) batches.push_back(b);
    if (max_batch <= kLargestDefaultBatch && batches.back() != max_batch) batches.push_back(max_batch);
  }
  return batches;
}

// A deployment's split, dtypes, batch, prefill and memory (its decode and cost are priced apart).
ServingDeployment deployment_of(const ReplicaLayout& r, const ServingInput& s, double batch, bool disaggregated,
                                double prefill_one_s, double final_context) {
  ServingDeployment x;
  x.mesh_shape = r.shape;
  x.tensor_axes = r.tensor_axes;
  x.expert_axes = r.expert_axes;
  x.tensor = r.tensor;
  x.expert = r.expert;
  x.expert_tensor = r.expert_tensor;
  x.weights = s.weights;
  x.kv = s.kv;
  x.batch = batch;
  x.disaggregated = disaggregated;
  x.prefill_one_s = prefill_one_s;
  x.time_to_first_token_s = prefill_one_s;
  x.memory_bytes = serving_param_bytes(s) + batch * kv_bytes_per_sequence(s, final_context);
  x.hbm_capacity_bytes = s.mesh->chips * s.hw->hbm_capacity_bytes;
  return x;
}

// The deployment's decode step at the query's context and what serving the demand with it costs
// (planners/serving_deployment.h).
void price_deployment(const ServingSearchInput& in, const ServingModel& model, double context, ServingDeployment& x) {
  const DecodeStep step = model.decode(x.batch, context);
  x.decode_step_s = step.step_s;
  x.bound = step.bound;  // what sets the step (KV loading can make it memory-bound)
  const DeploymentCost cost = deployment_cost({.decode_step_s = step.step_s,
                                               .prefill_one_s = x.prefill_one_s,
                                               .batch = x.batch,
                                               .generated_len = in.generated_len,
                                               .demand_tokens_per_s = in.demand_tokens_per_s,
                                               .replica_chips = model.in->mesh->chips,
                                               .usd_per_chip_hour = in.hw->price_usd_per_chip_hour,
                                               .disaggregated = x.disaggregated});
  x.latency_per_token_s = cost.latency_per_token_s;
  if (cost.prefill_bound) x.bound = "prefill";
  x.replicas = cost.replicas;
  x.prefill_servers = cost.prefill_servers;
  x.total_chips = cost.total_chips;
  x.tokens_per_s = cost.tokens_per_s;
  x.tokens_per_s_per_chip = cost.tokens_per_s_per_chip;
  x.usd_per_million_tokens = cost.usd_per_million_output_tokens;
}

// A priced deployment onto the frontier and, if it meets the targets, into the best `keep` by the objective.
void rank_deployment(const ServingSearchInput& in, ServingDeployment& x, ServingSearch& out) {
  x.meets_targets = (in.latency_per_token_s <= 0 || x.latency_per_token_s <= in.latency_per_token_s) &&
                    (in.time_to_first_token_s <= 0 || x.time_to_first_token_s <= in.time_to_first_token_s);
  frontier_insert(out.frontier, x);
  if (!x.meets_targets) return;
  ++out.meeting_targets;
  if (static_cast<int>(out.best.size()) == in.keep && !better(x, out.best.back(), in.objective)) return;
  auto at = std::upper_bound(
      out.best.begin(), out.best.end(), x,
      [&](const ServingDeployment& p, const ServingDeployment& q) { return better(p, q, in.objective); });
  out.best.insert(at, x);
  if (static_cast<int>(out.best.size()) > in.keep) out.best.pop_back();
}

// Every batch and prefill arrangement of one replica at its dtypes (`s`), counted, priced and ranked into `out`.
void search_batches(const ServingSearchInput& in, const ReplicaLayout& r, const ServingInput& s, ServingSearch& out) {
  const double final_context = in.prompt_len + in.generated_len;
  const double context = decode_context_tokens(in);
  const double max_batch = serving_max_batch(s, final_context);
  if (max_batch < 1) {
    ++out.evaluated;
    return;
  }
  const ServingModel model{&s, in.profile};
  const double prefill_one = model.prefill(1, in.prompt_len).time_s;
  for (double b : batches_to_try(in, max_batch))
    for (bool disaggregated : in.disaggregated) {
      ++out.evaluated;
      if (b > max_batch) continue;
      ++out.fitting;
      ServingDeployment x = deployment_of(r, s, b, disaggregated, prefill_one, final_context);
      if (in.backend) {
        // The load model prices the decode step itself (once, on the backend's runtime).
        if (!price_under_load(in, model, b, disaggregated, s.mesh->chips, x)) continue;
      } else {
        price_deployment(in, model, context, x);
      }
      rank_deployment(in, x, out);
    }
}

}  // namespace

std::vector<int> default_replica_sizes(const Hardware& hw, int most) {
  std::vector<int> out;
  for (int n = 1; n <= most; n *= 2)
    if (hw.kind == ChipKind::gpu || !slice_shape(hw, n).empty()) out.push_back(n);
  return out;
}

double serving_search_points(const ServingSearchInput& in) {
  const double batches = in.batches.empty() ? kDefaultBatchesPerPoint : static_cast<double>(in.batches.size());
  double layouts = 0;
  for (int n : in.replica_chips) layouts += static_cast<double>(replica_layouts(in, n).size());
  return layouts * static_cast<double>(in.weights.size() * in.kv.size() * in.disaggregated.size()) * batches;
}

double decode_context_tokens(const ServingSearchInput& in) {
  return in.kv_context_len > 0 ? in.kv_context_len : in.prompt_len + in.generated_len / 2.0;
}

ServingSearch search_serving(const ServingSearchInput& in) {
  ServingSearch out;
  for (int n : in.replica_chips)
    for (const ReplicaLayout& r : replica_layouts(in, n)) {
      Diagnostics d;
      const Mesh mesh = replica_mesh(r, *in.hw, d);
      if (has_errors(d)) continue;
      ServingInput s = replica_input(in, r, mesh);
      for (Dtype w : in.weights)
        for (Dtype kv : in.kv) {
          s.weights = w;
          s.kv = kv;
          search_batches(in, r, s, out);
        }
    }
  return out;
}

}  // namespace scalescope
