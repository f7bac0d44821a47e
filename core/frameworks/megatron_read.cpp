// Megatron-LM's arguments and Megatron-Bridge's overrides read into a plan (megatron.cpp has the mapping).
#include <algorithm>
#include <cmath>

#include "frameworks/megatron_vocabulary.h"
#include "specs/model_json.h"

namespace scalescope::megatron {

namespace {

// --moe-layer-freq "([0]*3+[1]*58)": the leading dense layers.
bool leading_dense_layers(const std::string& pattern, double& dense) {
  const std::size_t zero = pattern.find("[0]*");
  if (zero == std::string::npos) return false;
  return config_number(pattern.substr(zero + 4, pattern.find('+', zero) - zero - 4), dense);
}

void read_model(ConfigSettings& c, ImportResult& out) {
  if (!c.has("num_layers") || !c.has("hidden_size") || !c.has("num_attention_heads")) return;
  ModelConfig m = imported_model();
  c.positive_integer("num_layers", "/model/layers", m.layers);
  c.positive_integer("hidden_size", "/model/d_model", m.d_model);
  c.positive_integer("num_attention_heads", "/model/heads", m.heads);
  m.d_ff = 4 * m.d_model;  // Megatron's defaults where the config is silent
  m.kv_heads = m.heads;
  m.head_dim = m.heads > 0 ? m.d_model / m.heads : 0;
  c.positive_integer("ffn_hidden_size", "/model/d_ff", m.d_ff);
  c.positive_integer("num_query_groups", "/model/kv_heads", m.kv_heads);
  c.take("group_query_attention", "/model/kv_heads");
  c.positive_integer("kv_channels", "/model/head_dim", m.head_dim);
  bool gated = false;
  c.boolean("swiglu", "/model/mlp", gated) || c.boolean("gated_linear_unit", "/model/mlp", gated);
  m.mlp = gated ? MlpKind::gated : MlpKind::plain;
  bool untie = false;
  m.tied_embeddings = true;  // Megatron ties the output layer to the embedding unless told otherwise
  if (c.boolean("untie_embeddings_and_output_weights", "/model/tied_embeddings", untie)) m.tied_embeddings = !untie;
  c.boolean("share_embeddings_and_output_weights", "/model/tied_embeddings", m.tied_embeddings);
  if (!c.positive_integer("vocab_size", "/model/vocab", m.vocab))
    out.assumed.push_back("vocab 32000: the config names a tokenizer, not a size; give the model's vocab");
  if (c.positive_integer("num_experts", "/model/experts", m.experts) ||
      c.positive_integer("num_moe_experts", "/model/experts", m.experts)) {
    m.active_experts = 2;
    m.expert_d_ff = m.d_ff;
    double shared = 0;
    c.positive_integer("moe_router_topk", "/model/active_experts", m.active_experts);
    c.positive_integer("moe_ffn_hidden_size", "/model/expert_d_ff", m.expert_d_ff);
    if (c.positive_integer("moe_shared_expert_intermediate_size", "/model/shared_experts", shared))
      m.shared_experts = std::round(shared / m.expert_d_ff);
    if (const ConfigEntry* e = c.take("moe_layer_freq", "/model/dense_layers"))
      if (!leading_dense_layers(e->value, m.dense_layers))
        c.refuse("moe_layer_freq", "only ([0]*k+[1]*n) is read: k dense layers first");
  }
  out.model = model_config_json(m);
}

void read_precision(ConfigSettings& c, ImportResult& out) {
  TrainingPrecision& pr = out.training.precision;
  pr.params = Dtype::bf16;
  pr.master_weights = true;
  pr.master = Dtype::fp32;
  if (const ConfigEntry* e = c.take("mixed_precision", "/precision/matmul")) {
    const RecipeName* found = nullptr;
    for (const RecipeName& r : kRecipes)
      if (e->value == r.bridge) found = &r;
    if (e->value == "bf16_with_fp8_delayed_scaling_mixed") found = &kRecipes[1];
    if (found) {
      pr.recipe = found->recipe;
      pr.matmul = found->dtype;
    } else {
      c.refuse("mixed_precision", "a recipe the engine does not price (bf16_mixed and the fp8, mxfp8 and nvfp4 ones)");
    }
  }
  if (const ConfigEntry* e = c.take("fp8_recipe", "/precision/matmul")) {
    pr.matmul = Dtype::fp8;
    pr.recipe = MatmulRecipe::tensorwise;
    for (const RecipeName& r : kRecipes)
      if (*r.megatron && e->value == r.megatron) pr.recipe = r.recipe;
  } else if (c.take("fp8_format", "/precision/matmul") || c.take("fp8", "/precision/matmul")) {
    pr.matmul = Dtype::fp8;
    pr.recipe = MatmulRecipe::tensorwise;
  }
  if (const ConfigEntry* e = c.take("fp4_recipe", "/precision/matmul"); e && e->value == "nvfp4") {
    pr.matmul = Dtype::fp4;
    pr.recipe = MatmulRecipe::nvfp4;
  }
  c.take("fp4_format", "/precision/matmul");
  c.take("bf16", "/precision/params");
  bool fp16 = false;
  if (c.boolean("fp16", "/precision/params", fp16) && fp16)
    out.assumed.push_back("fp16: priced as bf16 (the same bytes and, on every chip the engine has, the same peak)");
  c.take("use_precision_aware_optimizer", "/precision/optimizer_states");
  if (const ConfigEntry* e = c.take("exp_avg_dtype", "/precision/optimizer_states"))
    pr.optimizer = e->value == "bf16" || e->value == "torch.bfloat16" ? Dtype::bf16 : Dtype::fp32;
  c.take("exp_avg_sq_dtype", "/precision/optimizer_states");
  bool fp32_grads = false;
  if (c.boolean("grad_reduce_in_fp32", "/precision/gradients", fp32_grads) ||
      c.boolean("accumulate_allreduce_grads_in_fp32", "/precision/gradients", fp32_grads))
    pr.gradients = fp32_grads ? GradientBuffer::fp32 : GradientBuffer::same_as_params;
}

void read_remat(ConfigSettings& c, TrainingLaunch& p, ImportResult& out) {
  p.remat = Remat::none;
  bool on = false;
  if (c.boolean("recompute_activations", "/remat", on) && on) p.remat = Remat::selective;
  const ConfigEntry* g = c.take("recompute_granularity", "/remat");
  if (!g) return;
  if (g->value == "selective") {
    p.remat = Remat::selective;
    // recompute_modules without the attention core recompute small elementwise parts (norms, activations, MLA's
    // up-projections): the engine has no policy for them, and keeping the rest is closest to none.
    const ConfigEntry* modules = c.take("recompute_modules", "/remat");
    if (modules && modules->value.find("core_attn") == std::string::npos) {
      p.remat = Remat::none;
      out.assumed.push_back("recompute_modules " + modules->value +
                            ": priced as no remat (every other activation kept)");
    }
  } else if (g->value == "full") {
    p.remat = Remat::block;
    double n = 1;
    c.take("recompute_method", "/remat");
    if (c.number_in("recompute_num_layers", "/remat", n, kConfigCount) && n != 1)
      out.assumed.push_back("recompute_num_layers " + config_value(n) +
                            ": priced as every layer's input kept (the engine's block remat)");
  } else if (g->value != "null" && g->value != "None") {
    c.refuse("recompute_granularity", "neither full nor selective");
  }
}

void read_moe(ConfigSettings& c, TrainingLaunch& p) {
  MoeSettings& m = p.moe;
  if (const ConfigEntry* e = c.take("moe_token_dispatcher_type", "/moe/dispatcher")) {
    if (e->value == "flex")
      m.dispatcher = Dispatcher::hierarchical;
    else if (e->value != "alltoall")
      c.refuse("moe_token_dispatcher_type", "the engine prices alltoall and flex (DeepEP, HybridEP)");
  }
  c.take("moe_flex_dispatcher_backend", "/moe/dispatcher");
  bool on = false;
  if (c.boolean("moe_enable_deepep", "/moe/dispatcher", on) && on) m.dispatcher = Dispatcher::hierarchical;
  c.boolean("overlap_moe_expert_parallel_comm", "/moe/overlap", m.overlap);
  double capacity = 0;
  if (c.number_in("moe_expert_capacity_factor", "/moe/capacity_factor", capacity, kConfigFactor) && capacity > 0) {
    m.capacity_factor = capacity;
    bool pad = false;
    c.boolean("moe_pad_expert_input_to_capacity", "/moe/token_policy", pad);
    m.policy = pad ? TokenPolicy::pad : TokenPolicy::drop;
  }
}

void read_sharding(ConfigSettings& c, TrainingLaunch& p, double dp, double expert, ImportResult& out) {
  bool distributed = false, fsdp = false;
  c.boolean("use_distributed_optimizer", "/parallelism/zero_stage", distributed);
  c.boolean("use_megatron_fsdp", "/parallelism/zero_stage", fsdp);
  double instances = 1;
  c.positive_integer("num_distributed_optimizer_instances", "/parallelism/data", instances);
  const double rest = dp / expert;  // the data-parallel ranks besides the expert axis
  if (!distributed && !fsdp) {
    p.ici[0] = rest;
    p.zero_stage = 1;
    if (expert > 1)
      out.assumed.push_back(
          "without the distributed optimizer the engine still shards the non-expert optimizer "
          "states over the expert ranks (ZeRO-1)");
    return;
  }
  if (std::fmod(rest, instances) != 0) {
    c.refuse("num_distributed_optimizer_instances",
             "does not divide the " + config_value(rest) + " data-parallel ranks");
    instances = 1;
  }
  p.ici[0] = instances;
  p.ici[1] = rest / instances;
  p.zero_stage = 1;
  if (fsdp) {
    p.zero_stage = 3;
    if (const ConfigEntry* e = c.take("data_parallel_sharding_strategy", "/parallelism/zero_stage"))
      p.zero_stage = e->value == "optim" ? 1 : e->value == "optim_grads" ? 2 : 3;
  }
}

// Megatron's parallel degrees: TP, PP, CP, EP, expert TP (0: TP's) and the virtual stages (from their count or
// from the layers per virtual stage, which must divide the model's layers).
struct MegatronDegrees {
  double tp = 1, pp = 1, cp = 1, ep = 1, etp = 0, vp = 1;
};

MegatronDegrees read_degrees(ConfigSettings& c, const ImportContext& ctx, ImportResult& out) {
  MegatronDegrees g;
  double layers_per_vstage = 0;
  c.positive_integer("tensor_model_parallel_size", "/parallelism/tensor", g.tp);
  c.positive_integer("pipeline_model_parallel_size", "/parallelism/pipeline", g.pp);
  c.positive_integer("context_parallel_size", "/parallelism/context", g.cp);
  c.positive_integer("expert_model_parallel_size", "/parallelism/expert", g.ep);
  c.positive_integer("expert_tensor_parallel_size", "/parallelism/expert_tensor", g.etp);
  c.positive_integer("virtual_pipeline_model_parallel_size", "/parallelism/virtual_stages", g.vp) ||
      c.positive_integer("num_virtual_stages_per_pipeline_rank", "/parallelism/virtual_stages", g.vp);
  if (c.positive_integer("num_layers_per_virtual_pipeline_stage", "/parallelism/virtual_stages", layers_per_vstage)) {
    const double layers = import_layers(ctx, out);
    g.vp = layers / (g.pp * layers_per_vstage);
    if (layers <= 0)
      out.problems.push_back("num_layers_per_virtual_pipeline_stage needs the model's layers: give the model");
    else if (g.vp != std::floor(g.vp))  // Megatron asserts the same
      out.problems.push_back("num_layers_per_virtual_pipeline_stage " + config_value(layers_per_vstage) + " x PP " +
                             config_value(g.pp) + " does not divide the model's " + config_value(layers) + " layers");
  }
  return g;
}

// The GPUs: the import's own count, else torchrun's --nnodes x --nproc-per-node, else the world size (0: unknown,
// with a problem said).
double read_world_chips(ConfigSettings& c, const ImportContext& ctx, ImportResult& out) {
  double nodes = 0, per_node = 0, world = 0;
  c.positive_integer("nnodes", "/mesh", nodes);
  c.positive_integer("nproc_per_node", "/mesh", per_node);
  c.positive_integer("world_size", "/mesh", world);
  ImportContext with_world = ctx;
  if (with_world.chips <= 0 && nodes > 0 && per_node > 0) with_world.chips = nodes * per_node;
  if (with_world.chips <= 0 && world > 0) with_world.chips = world;
  return import_chips(with_world, out, "the GPUs (torchrun's --nnodes x --nproc-per-node)");
}

// The sequence length, the global batch in tokens and the microbatches per data-parallel rank.
void read_batch(ConfigSettings& c, double dp, TrainingLaunch& p, ImportResult& out) {
  double mbs = 1, gbs = 0, seq = 0;
  c.positive_integer("micro_batch_size", "/parallelism/microbatches", mbs);
  if (!c.positive_integer("seq_length", "/seq_len", seq) && !c.positive_integer("sequence_length", "/seq_len", seq))
    out.problems.push_back("the config gives no sequence length (seq_length)");
  if (!c.positive_integer("global_batch_size", "/batch_tokens", gbs)) gbs = mbs * dp;
  p.seq_len = seq;
  p.batch_tokens = gbs * seq;
  p.microbatches = gbs / (mbs * dp);
  if (p.microbatches != std::floor(p.microbatches))
    out.problems.push_back("global_batch_size " + config_value(gbs) + " is not micro_batch_size x the " +
                           config_value(dp) + " data-parallel ranks x a whole number of microbatches");
}

// Dropout (Megatron-LM's defaults to 0.1; Megatron-Bridge's model providers train without: Llama, Qwen, DeepSeek)
// and the attention kernel.
void read_attention_settings(ConfigSettings& c, TrainingLaunch& p, ImportResult& out, Flavour f) {
  const double default_dropout = f == Flavour::megatron ? 0.1 : 0;
  double attention_dropout = default_dropout, hidden_dropout = default_dropout;
  const bool said_attention = c.number_in("attention_dropout", "/dropout", attention_dropout, kConfigFraction);
  const bool said_hidden = c.number_in("hidden_dropout", "/dropout", hidden_dropout, kConfigFraction);
  const bool said = said_attention || said_hidden;  // both read: each is marked as mapped
  p.attention.dropout = attention_dropout > 0 || hidden_dropout > 0;
  if (!said)
    out.assumed.push_back(f == Flavour::megatron ? "dropout: Megatron-LM's default 0.1 (attention and hidden)"
                                                 : "dropout: none, as Megatron-Bridge's model providers train");
  if (const ConfigEntry* e = c.take("attention_backend", "/attention_kernel"))
    p.attention.kernel = e->value == "unfused" || e->value == "AttnBackend.unfused" ? AttentionKernel::materialized
                                                                                    : AttentionKernel::flash;
}

void read_settings(ConfigSettings& c, const ImportContext& ctx, ImportResult& out, Flavour f) {
  TrainingLaunch& p = out.training;
  read_model(c, out);
  MegatronDegrees g = read_degrees(c, ctx, out);
  const double chips = read_world_chips(c, ctx, out);
  if (chips <= 0) return;
  const double dp = chips / (g.tp * g.pp * g.cp);
  if (dp != std::floor(dp) || dp < 1) {
    out.problems.push_back("TP " + config_value(g.tp) + " x PP " + config_value(g.pp) + " x CP " + config_value(g.cp) +
                           " does not divide the " + config_value(chips) + " GPUs");
    return;
  }
  if (g.etp <= 0) g.etp = g.tp;
  const double expert = g.ep * g.etp / g.tp;  // the engine's expert axis: Megatron's EP less the folded TP ranks
  if (expert < 1 || expert != std::floor(expert) || std::fmod(dp, expert) != 0) {
    out.problems.push_back("EP " + config_value(g.ep) + " with ETP " + config_value(g.etp) + " and TP " +
                           config_value(g.tp) + " does not fold into the " + config_value(dp) + " data-parallel ranks");
    return;
  }
  p.chips = chips;
  p.ici = {1, 1, g.tp, g.pp, expert, g.cp};
  p.expert_tensor = g.etp == g.tp ? 0 : g.etp;
  read_sharding(c, p, dp, expert, out);
  // Megatron Core's default is off; Megatron-Bridge's recipes turn it on with TP.
  bool sp = f == Flavour::bridge && g.tp > 1;
  if (!c.boolean("sequence_parallel", "/parallelism/sequence_parallel", sp) && sp)
    out.assumed.push_back("sequence_parallel: on with TP, as Megatron-Bridge's recipes set it");
  p.sequence_parallel = sp;
  p.schedule = g.vp > 1 ? PipelineSchedule::interleaved : PipelineSchedule::one_f_one_b;
  p.virtual_stages = g.vp;
  if (const ConfigEntry* e = c.take("cp_comm_type", "/parallelism/context_variant")) {
    if (e->value == "all_gather")
      p.context_variant = ContextVariant::all_gather;
    else if (e->value != "p2p")
      c.refuse("cp_comm_type", "the engine prices p2p (ring) and all_gather context parallelism");
  }
  read_batch(c, dp, p, out);
  read_remat(c, p, out);
  read_precision(c, out);
  bool offload = false;
  if (c.boolean("optimizer_cpu_offload", "/offload/optimizer", offload)) p.offload_optimizer = offload;
  if (c.boolean("cpu_offloading", "/offload/activations", offload)) p.offload_activations = offload;
  c.take("cpu_offloading_activations", "/offload/activations");
  read_attention_settings(c, p, out, f);
  read_moe(c, p);
}

}  // namespace

std::string setting_name(const std::string& key) {
  std::string name = key.substr(key.rfind('.') == std::string::npos ? 0 : key.rfind('.') + 1);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

void read_megatron(ConfigSettings& c, const ImportContext& ctx, ImportResult& out) {
  read_settings(c, ctx, out, Flavour::megatron);
}
void read_bridge(ConfigSettings& c, const ImportContext& ctx, ImportResult& out) {
  read_settings(c, ctx, out, Flavour::bridge);
}

}  // namespace scalescope::megatron
