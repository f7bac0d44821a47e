#include "frameworks/launch_plan.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "queries/plan_reader.h"

namespace scalescope {

TrainingLaunch training_launch(const TrainingInput& in) {
  TrainingLaunch out;
  out.chips = in.mesh->chips;
  out.slices = in.mesh->slices;
  for (int s = 0; s < kLayoutStrategies; ++s) {
    const AxisGroup& g = plan_group(in.plan, s);
    out.dcn[s] = g.has_dcn ? g.dcn_degree : 1;
    out.ici[s] = g.degree / out.dcn[s];
  }
  const TrainingPlan& p = in.plan;
  out.expert_tensor = p.expert_tensor;
  out.zero_stage = p.zero_stage;
  out.sequence_parallel = p.sequence_parallel;
  out.schedule = p.schedule;
  out.virtual_stages = p.schedule == PipelineSchedule::interleaved ? p.virtual_stages : 1;
  out.microbatches = p.microbatches;
  out.context_variant = p.context_variant;
  out.offload_optimizer = p.offload_optimizer;
  out.offload_activations = p.offload_activations;
  out.batch_tokens = in.batch_tokens;
  out.seq_len = in.seq_len;
  out.remat = in.remat;
  out.checkpoints_per_layer = in.checkpoints_per_layer;
  out.precision = in.precision;
  out.attention = in.attention;
  out.moe_model = in.model->is_moe();
  out.moe = in.moe;
  out.layers = in.model->layers;
  return out;
}

namespace {

const char* dtype_key(Dtype d) { return d == Dtype::fp32 ? "fp32" : "bf16"; }

// The strategies that span slices and nothing else are pinned to the DCN axis, so the engine lays out the rest.
Json strategy_json(const TrainingLaunch& plan, int s, const Mesh* mesh) {
  if (plan.dcn[s] > 1 && plan.ici[s] == 1 && mesh)
    for (const MeshAxis& axis : mesh->axes)
      if (axis.dcn)
        return plan.dcn[s] == axis.size ? Json::array({axis.name})
                                        : Json::array({Json{{"axis", axis.name}, {"size", config_json(plan.dcn[s])}}});
  return config_json(plan.degree(s));
}

}  // namespace

Json training_launch_query(const TrainingLaunch& plan, const Mesh* mesh) {
  Json par = Json::object();
  for (int s = 0; s < kLayoutStrategies; ++s)
    if (plan.degree(s) > 1) par[kStrategyKeys[s]] = strategy_json(plan, s, mesh);
  if (par.empty()) par["data"] = 1;
  if (plan.degree(1) * plan.degree(4) > 1) par["zero_stage"] = plan.zero_stage;
  if (plan.degree(2) > 1) par["sequence_parallel"] = plan.sequence_parallel;
  if (plan.degree(3) > 1) {
    par["pipeline_schedule"] = pipeline_schedule_name(plan.schedule);
    if (plan.virtual_stages > 1) par["virtual_stages"] = config_json(plan.virtual_stages);
  }
  if (plan.microbatches > 1) par["microbatches"] = config_json(plan.microbatches);
  if (plan.moe_model && plan.expert_tensor > 0 && plan.expert_tensor != plan.degree(2))
    par["expert_tensor"] = config_json(plan.expert_tensor);
  if (plan.degree(5) > 1)
    par["context_variant"] = plan.context_variant == ContextVariant::all_gather ? "all_gather" : "ring";
  const TrainingPrecision& pr = plan.precision;
  Json q{{"kind", "training_step"},
         {"batch_tokens", config_json(plan.batch_tokens)},
         {"seq_len", config_json(plan.seq_len)},
         {"parallelism", par},
         {"remat", std::string(remat_name(plan.remat))},
         {"precision",
          {{"matmul", matmul_precision_name(pr)},
           {"params", dtype_key(pr.params)},
           {"gradients", pr.gradients == GradientBuffer::fused  ? "fused"
                         : pr.gradients == GradientBuffer::fp32 ? "fp32"
                                                                : "params"},
           {"master_weights", pr.master_weights ? dtype_key(pr.master) : "none"},
           {"optimizer_states", dtype_key(pr.optimizer)}}}};
  if (plan.remat == Remat::checkpoints) q["checkpoints_per_layer"] = config_json(plan.checkpoints_per_layer);
  if (plan.attention.kernel == AttentionKernel::materialized) q["attention_kernel"] = "materialized";
  if (plan.attention.dropout) q["dropout"] = true;
  if (plan.offload_optimizer || plan.offload_activations)
    q["offload"] = {{"optimizer", plan.offload_optimizer}, {"activations", plan.offload_activations}};
  if (plan.moe_model) {
    const MoeSettings& m = plan.moe;
    Json moe{{"token_policy", m.policy == TokenPolicy::pad    ? "pad"
                              : m.policy == TokenPolicy::drop ? "drop"
                                                              : "dropless"},
             {"load_imbalance", m.load_imbalance},
             {"dispatcher", m.dispatcher == Dispatcher::hierarchical ? "hierarchical" : "all_to_all"},
             {"overlap", m.overlap}};
    if (m.policy != TokenPolicy::dropless) moe["capacity_factor"] = m.capacity_factor;
    q["moe"] = moe;
  }
  return q;
}

ServingLaunch serving_launch(const ServingInput& in, double batch, double prompt_len, double generated_len) {
  ServingLaunch out;
  out.tensor = in.tensor.degree;
  out.expert = in.expert.degree;
  out.expert_tensor = in.expert_tensor;
  out.batch = batch;
  out.prompt_len = prompt_len;
  out.generated_len = generated_len;
  out.weights = in.weights;
  out.kv = in.kv;
  // A budget the plan states, in both of the engines' forms for this replica's weights (each engine writes its own).
  const double hbm = in.mesh->chips * in.hw->hbm_capacity_bytes, weights = serving_param_bytes(in);
  const double kv = in.hbm_budget.kv_bytes(hbm, weights);
  if (in.hbm_budget.stated && weights < hbm && kv > 0) {
    out.memory_frac = in.hbm_budget.usable_bytes(hbm, weights) / hbm;
    out.free_memory_frac = kv / (hbm - weights);
  }
  return out;
}

Json serving_launch_mesh(const ServingLaunch& plan) {
  if (plan.expert > 1)
    return {{"shape", {config_json(plan.expert), config_json(plan.tensor)}}, {"axis_names", {"EP", "TP"}}};
  return {{"shape", {config_json(plan.tensor)}}, {"axis_names", {"TP"}}};
}

Json serving_launch_query(const ServingLaunch& plan) {
  Json par{{"tensor", Json::array({"TP"})}};
  if (plan.expert > 1) par["expert"] = Json::array({"EP"});
  if (plan.expert_tensor > 0 && plan.expert_tensor != plan.tensor)
    par["expert_tensor"] = config_json(plan.expert_tensor);
  Json q{{"kind", "serving"},
         {"batch", config_json(plan.batch)},
         {"prompt_len", config_json(plan.prompt_len)},
         {"generated_len", config_json(plan.generated_len)},
         {"dtypes", {{"weights", std::string(dtype_name(plan.weights))}, {"kv", std::string(dtype_name(plan.kv))}}},
         {"parallelism", par}};
  if (plan.memory_frac > 0)
    q["memory_frac"] = config_json(plan.memory_frac);
  else if (plan.free_memory_frac > 0)
    q["free_memory_frac"] = config_json(plan.free_memory_frac);
  return q;
}

Json notes_json(const LaunchNotes& notes) {
  Json unexpressed = Json::array();
  for (const LaunchNote& n : notes.unexpressed) unexpressed.push_back({{"setting", n.setting}, {"text", n.text}});
  return {{"unexpressed", unexpressed}, {"undecided", notes.undecided}};
}

std::string notes_comment(const LaunchNotes& notes, const char* prefix) {
  std::string out;
  if (!notes.unexpressed.empty()) {
    out += std::string(prefix) + "Not expressible here (the engine's plan has it; this framework's config does not):\n";
    for (const LaunchNote& n : notes.unexpressed) out += std::string(prefix) + "  - " + n.text + "\n";
  }
  if (!notes.undecided.empty()) {
    out += std::string(prefix) + "Not decided by the engine (set them for your cluster and data):\n";
    for (const std::string& n : notes.undecided) out += std::string(prefix) + "  - " + n + "\n";
  }
  return out;
}

Json config_json(double v) {
  if (std::fabs(v) < 1e15 && v == std::floor(v)) return static_cast<long long>(v);
  return v;
}

std::string config_value(double v) {
  if (std::fabs(v) < 1e15 && v == std::floor(v)) return std::to_string(static_cast<long long>(v));
  char buf[32];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

}  // namespace scalescope
