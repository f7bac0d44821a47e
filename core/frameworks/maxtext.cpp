// MaxText's train.py overrides (`key=value`, the keys of MaxText/configs/base.yml): the mesh as ici_*_parallelism
// inside a slice and dcn_*_parallelism across slices (-1: the rest), per_device_batch_size, remat_policy, the
// weights' and optimizer's dtypes, quantization, the MoE kernel and capacity. Source: AI-Hypercomputer/maxtext
// MaxText/configs/base.yml and MaxText/layers/decoders.py (2025-2026 main).
//
// MaxText's pipeline is circular: each stage runs num_layers_per_pipeline_stage layers per repeat, every
// microbatch's forward pass before the backward. The engine's interleaved schedule with v virtual stages is its
// L / (stages x v) layers per stage; one repeat is GPipe.
#include <algorithm>
#include <cmath>

#include "frameworks/framework.h"
#include "io/format.h"
#include "specs/model_json.h"

namespace scalescope {

namespace {

// MaxText's name for each strategy's mesh axis, in kStrategyKeys' order.
constexpr const char* kAxisNames[kLayoutStrategies] = {"data", "fsdp", "tensor", "pipeline", "expert", "context"};
// Axes of MaxText's mesh that split the same way as one of the engine's strategies.
struct AxisAlias {
  const char* maxtext;
  int strategy;
};
constexpr AxisAlias kAliases[] = {
    {"fsdp_transpose", 1}, {"tensor_transpose", 2}, {"tensor_sequence", 2}, {"sequence", 5}};

// MaxText's model configs (MaxText/configs/models/*.yml) for the engine's presets.
struct ModelName {
  const char* preset;
  const char* maxtext;
};
constexpr ModelName kModels[] = {
    {"llama-2-13b", "llama2-13b"},
    {"llama-3-8b", "llama3-8b"},
    {"llama-3-70b", "llama3-70b"},
    {"llama-3-405b", "llama3.1-405b"},
    {"mixtral-8x7b", "mixtral-8x7b"},
    {"deepseek-v3", "deepseek3-671b"},
    {"gemma-2-27b", "gemma2-27b"},
    {"gemma-3-27b", "gemma3-27b"},
    {"qwen3-32b", "qwen3-32b"},
    {"qwen3-30b-a3b", "qwen3-30b-a3b"},
    {"qwen3-235b-a22b", "qwen3-235b-a22b"},
    {"llama-4-scout", "llama4-17b-16e"},
    {"llama-4-maverick", "llama4-17b-128e"},
    {"gpt-oss-20b", "gpt-oss-20b"},
    {"gpt-oss-120b", "gpt-oss-120b"},
    // Read, never written: Llama 3.1's 8B and 70B are Llama 3's layers (the rotary scaling aside).
    {"llama-3-8b", "llama3.1-8b"},
    {"llama-3-70b", "llama3.1-70b"},
};

struct Line {
  std::string key, value;
};

void add_model(std::vector<Line>& out, const ModelConfig& m, LaunchNotes& notes) {
  for (const ModelName& n : kModels)
    if (m.id == n.preset) return out.push_back({"model_name", n.maxtext});
  auto add = [&](const char* key, double v) { out.push_back({key, config_value(v)}); };
  out.push_back({"model_name", "default"});
  add("base_num_decoder_layers", m.layers);
  add("base_emb_dim", m.d_model);
  add("base_mlp_dim", m.d_ff > 0 ? m.d_ff : m.expert_d_ff);
  add("base_num_query_heads", m.heads);
  add("base_num_kv_heads", m.kv_heads);
  add("head_dim", m.head_dim);
  add("vocab_size", m.vocab);
  out.push_back({"mlp_activations", m.mlp == MlpKind::gated ? "[\"silu\",\"linear\"]" : "[\"gelu\"]"});
  out.push_back({"logits_via_embedding", m.tied_embeddings ? "True" : "False"});
  if (m.is_moe()) {
    add("num_experts", m.experts);
    add("num_experts_per_tok", m.active_experts);
    add("base_moe_mlp_dim", m.expert_d_ff);
    if (m.shared_experts > 0) add("shared_experts", m.shared_experts);
    if (m.dense_layers > 0) add("first_num_dense_layers", m.dense_layers);
  }
  if (m.is_mla() || m.has_linear_attention() || m.has_sparse_attention() || m.sliding_window > 0 ||
      m.attention_chunk > 0 || !m.mlp_pattern.empty() || !m.attention_pattern.empty())
    notes.undecided.push_back(
        "the architecture beyond the base_* keys (latent, linear, sparse or windowed attention, "
        "layer patterns): MaxText's decoder_block for the model");
}

void add_remat(std::vector<Line>& out, const TrainingLaunch& p, LaunchNotes& notes) {
  if (p.offload_activations) {
    if (p.remat == Remat::block) {
      out.push_back({"remat_policy", "custom"});
      out.push_back({"decoder_layer_input", "offload"});
    } else if (p.remat == Remat::big_matmuls) {
      out.push_back({"remat_policy", "minimal_offloaded"});
    } else {
      out.push_back({"remat_policy", "full"});
      notes.cannot("/offload/activations",
                   "activations offloaded beside remat " + std::string(remat_name(p.remat)) +
                       ": MaxText offloads the layer input (custom) or minimal's matmul outputs");
    }
    return;
  }
  switch (p.remat) {
    case Remat::none:
      out.push_back({"remat_policy", "none"});
      break;
    case Remat::block:
      out.push_back({"remat_policy", "full"});
      break;
    case Remat::big_matmuls:
      out.push_back({"remat_policy", "minimal"});
      break;
    default:
      out.push_back({"remat_policy", "full"});
      notes.cannot("/remat", "remat " + std::string(remat_name(p.remat)) +
                                 ": no MaxText policy keeps the same tensors; written as full");
  }
}

void add_precision(std::vector<Line>& out, const TrainingLaunch& p, LaunchNotes& notes) {
  const TrainingPrecision& pr = p.precision;
  out.push_back({"dtype", "bfloat16"});
  const bool bf16_states = !pr.master_weights;
  out.push_back({"weight_dtype", bf16_states ? "bfloat16" : "float32"});
  if ((pr.optimizer == Dtype::bf16) != bf16_states)
    out.push_back({"mu_dtype", pr.optimizer == Dtype::bf16 ? "bfloat16" : "float32"});
  if (pr.params != Dtype::bf16)
    notes.cannot("/precision/params", "fp32 working weights: MaxText computes in `dtype` (bfloat16)");
  if (pr.master_weights && pr.master != Dtype::fp32)
    notes.cannot("/precision/master_weights", "bf16 master weights beside bf16 ones");
  if (pr.gradients != GradientBuffer::same_as_params)
    notes.cannot("/precision/gradients", "a gradient buffer other than the weights' dtype");
  if (pr.matmul == Dtype::fp8 && pr.recipe == MatmulRecipe::tensorwise)
    out.push_back({"quantization", "fp8"});
  else if (pr.matmul == Dtype::int8)
    out.push_back({"quantization", "int8"});
  else if (pr.matmul != Dtype::bf16)
    notes.cannot("/precision/matmul", std::string("matmul ") + matmul_precision_name(pr) +
                                          ": MaxText's quantization takes fp8 (per tensor) and int8");
}

void add_moe(std::vector<Line>& out, const TrainingLaunch& p, LaunchNotes& notes) {
  const MoeSettings& m = p.moe;
  out.push_back({"capacity_factor", m.policy == TokenPolicy::dropless ? "-1" : config_value(m.capacity_factor)});
  out.push_back({"sparse_matmul", m.policy == TokenPolicy::pad ? "False" : "True"});
  out.push_back({"megablox", m.policy == TokenPolicy::pad ? "False" : "True"});
  if (m.dispatcher == Dispatcher::hierarchical)
    notes.cannot("/moe/dispatcher",
                 "the hierarchical (node-deduplicated) dispatcher: MaxText's expert axis runs a "
                 "ragged all-to-all");
  if (m.overlap) notes.cannot("/moe/overlap", "dispatch overlapped with another microbatch's compute");
  if (m.load_imbalance != 1)
    notes.cannot("/moe/load_imbalance", "load_imbalance " + config_value(m.load_imbalance) +
                                            " is the engine's assumption about the routing, not a setting");
  if (p.expert_tensor > 0 && p.expert_tensor != p.degree(2))
    notes.cannot("/parallelism/expert_tensor", "the experts' own TP (" + config_value(p.expert_tensor) +
                                                   "): MaxText splits the experts over the tensor axis like the rest");
}

std::string write_maxtext(const TrainingLaunch& p, const ModelConfig& m, LaunchNotes& notes) {
  notes.undecided = {"run_name, base_output_directory, dataset_type and dataset_path (the data and where logs go)",
                     "steps, learning_rate and its schedule, checkpoint_period",
                     "the slice: " + format_count(p.chips / p.slices) + " chips" +
                         (p.slices > 1 ? " in each of " + format_count(p.slices) + " slices (xpk --num-slices)" : "")};
  std::vector<Line> lines;
  add_model(lines, m, notes);
  for (int s = 0; s < kLayoutStrategies; ++s)
    lines.push_back({std::string("ici_") + kAxisNames[s] + "_parallelism", config_value(p.ici[s])});
  if (p.slices > 1)
    for (int s = 0; s < kLayoutStrategies; ++s)
      lines.push_back({std::string("dcn_") + kAxisNames[s] + "_parallelism", config_value(p.dcn[s])});
  lines.push_back({"per_device_batch_size", config_value(p.batch_sequences() / p.chips)});
  lines.push_back({"max_target_length", config_value(p.seq_len)});
  const double stages = p.degree(3);
  if (stages > 1) {
    lines.push_back({"num_pipeline_microbatches", config_value(p.microbatches)});
    const double per_stage = std::ceil(p.layers / (stages * p.virtual_stages));
    lines.push_back({"num_layers_per_pipeline_stage", config_value(per_stage)});
    if (per_stage * stages * p.virtual_stages != p.layers) {
      const std::string uneven = config_value(p.layers) + " layers over " + config_value(stages) + " stages" +
                                 (p.virtual_stages > 1 ? " x " + config_value(p.virtual_stages) + " repeats" : "") +
                                 ": MaxText's stages hold equal whole layer counts";
      notes.cannot(p.virtual_stages > 1 ? "/parallelism/virtual_stages" : "/parallelism/pipeline", uneven);
      if (p.virtual_stages > 1)
        notes.cannot("/parallelism/pipeline_schedule", "the interleaved schedule over uneven repeats (above)");
    }
    if (p.schedule != PipelineSchedule::gpipe && !(p.schedule == PipelineSchedule::interleaved && p.virtual_stages > 1))
      notes.cannot("/parallelism/pipeline_schedule",
                   std::string("the ") + pipeline_schedule_name(p.schedule) +
                       " schedule: MaxText's pipeline runs "
                       "every microbatch forward before the backward (GPipe; interleaved over repeats)");
  } else if (p.microbatches > 1) {
    lines.push_back({"gradient_accumulation_steps", config_value(p.microbatches)});
  }
  if (p.degree(5) > 1)
    lines.push_back(
        {"context_parallel_strategy", p.context_variant == ContextVariant::all_gather ? "all_gather" : "ring"});
  if (p.degree(1) * p.degree(4) > 1 && p.zero_stage != 3)
    notes.cannot("/parallelism/zero_stage", "ZeRO-" + config_value(p.zero_stage) +
                                                ": MaxText's fsdp axis shards the "
                                                "weights, gradients and optimizer states alike (ZeRO-3)");
  if (p.degree(2) > 1 && !p.sequence_parallel)
    notes.cannot("/parallelism/sequence_parallel",
                 "TP without sequence parallelism: MaxText shards the activations "
                 "between blocks as its logical axis rules say");
  add_remat(lines, p, notes);
  if (p.offload_optimizer) lines.push_back({"optimizer_memory_host_offload", "True"});
  add_precision(lines, p, notes);
  if (p.attention.kernel == AttentionKernel::materialized) lines.push_back({"attention", "dot_product"});
  if (p.attention.dropout) lines.push_back({"dropout_rate", "0.1"});
  if (p.moe_model) add_moe(lines, p, notes);
  std::string out = "# MaxText train.py overrides: " + m.name + " on " + format_count(p.chips) +
                    " chips, the plan Scalescope priced\n" + notes_comment(notes) +
                    "python3 -m MaxText.train MaxText/configs/base.yml";
  for (const Line& l : lines)
    out += " \\\n    " + l.key + "=" +
           (l.value.find_first_of("[\" ") != std::string::npos ? "'" + l.value + "'" : l.value);
  return out + "\n";
}

std::string normalize(const std::string& key) { return key; }

// Every MaxText mesh axis the config sets at one level, each the strategy it splits like: the six, then the aliases.
struct LevelAxes {
  std::array<double, kLayoutStrategies + std::size(kAliases)> degree{};
  std::array<int, kLayoutStrategies + std::size(kAliases)> strategy{};
};

LevelAxes read_level(ConfigSettings& c, const char* level, const std::array<double, kLayoutStrategies>& defaults) {
  LevelAxes out;
  auto read = [&](std::size_t i, const std::string& axis, int strategy, double fallback) {
    out.strategy[i] = strategy;
    out.degree[i] = fallback;
    c.number_in(std::string(level) + "_" + axis + "_parallelism",
                std::string("/parallelism/") + kStrategyKeys[strategy], out.degree[i], kConfigDegree);
  };
  for (int s = 0; s < kLayoutStrategies; ++s) read(s, kAxisNames[s], s, defaults[s]);
  for (std::size_t a = 0; a < std::size(kAliases); ++a)
    read(kLayoutStrategies + a, kAliases[a].maxtext, kAliases[a].strategy, 1);
  return out;
}

// The axes' degrees with -1 (the rest of `total`; 0: unknown yet) resolved, folded into the six strategies.
bool resolve_level(LevelAxes& axes, double total, const char* level, std::array<double, kLayoutStrategies>& degrees,
                   ImportResult& out) {
  int rest = -1;
  double known = 1;
  for (std::size_t i = 0; i < axes.degree.size(); ++i) {
    if (axes.degree[i] == -1 && rest >= 0) {
      out.problems.push_back(std::string("two ") + level + " parallelisms are -1 (the rest): at most one may be");
      return false;
    }
    if (axes.degree[i] == -1)
      rest = static_cast<int>(i);
    else if (axes.degree[i] >= 1 && axes.degree[i] == std::floor(axes.degree[i]))
      known *= axes.degree[i];
    else
      return out.problems.push_back(std::string("a ") + level + " parallelism is a whole number or -1"), false;
  }
  if (rest >= 0) {
    if (total <= 0 || std::fmod(total, known) != 0) {
      out.problems.push_back(std::string("the ") + level + " parallelism given as -1 needs the chips" +
                             (total > 0 ? ": " + config_value(known) + " does not divide " + config_value(total) : "") +
                             "; give the scenario's mesh");
      return false;
    }
    axes.degree[rest] = total / known;
  }
  degrees.fill(1);
  for (std::size_t i = 0; i < axes.degree.size(); ++i) degrees[axes.strategy[i]] *= axes.degree[i];
  return true;
}

void read_mesh_degrees(ConfigSettings& c, const ImportContext& ctx, ImportResult& out) {
  TrainingLaunch& p = out.training;
  LevelAxes ici = read_level(c, "ici", {1, -1, 1, 1, 1, 1});  // base.yml: fsdp takes the rest of a slice
  LevelAxes dcn = read_level(c, "dcn", {-1, 1, 1, 1, 1, 1});  // and data the rest of the slices
  double slices = ctx.mesh ? ctx.mesh->slices : 0;
  c.positive_integer("num_slices", "/mesh/slices", slices);
  if (slices <= 0) {
    slices = 1;
    for (double v : dcn.degree) slices *= v > 0 ? v : 1;
  }
  double chips = ctx.chips;
  if (chips <= 0) {
    bool rest = false;
    chips = slices;
    for (double v : ici.degree) rest = rest || v == -1, chips *= v > 0 ? v : 1;
    if (rest) chips = 0;
  }
  if (!resolve_level(dcn, slices, "dcn", p.dcn, out) || !resolve_level(ici, chips / slices, "ici", p.ici, out)) return;
  double product = 1;
  for (int s = 0; s < kLayoutStrategies; ++s) product *= p.ici[s] * p.dcn[s];
  if (chips > 0 && product != chips) {
    out.problems.push_back("the ici and dcn parallelisms multiply to " + config_value(product) + ", not the " +
                           config_value(chips) + " chips");
    return;
  }
  p.chips = product;
  p.slices = slices;
}

void read_remat(ConfigSettings& c, TrainingLaunch& p, ImportResult& out) {
  p.remat = Remat::block;  // base.yml's 'full'
  const ConfigEntry* e = c.take("remat_policy", "/remat");
  if (!e) return out.assumed.push_back("remat_policy: MaxText's default 'full'");
  const std::string& v = e->value;
  if (v == "full")
    p.remat = Remat::block;
  else if (v == "minimal")
    p.remat = Remat::big_matmuls;
  else if (v == "none")
    p.remat = Remat::none;
  else if (v == "minimal_with_context" || v == "minimal_flash")
    p.remat = Remat::none;
  else if (v == "minimal_offloaded")
    p.remat = Remat::big_matmuls, p.offload_activations = true;
  else if (v == "custom") {
    const ConfigEntry* input = c.take("decoder_layer_input", "/offload/activations");
    p.offload_activations = input && input->value == "offload";
    out.assumed.push_back("remat_policy custom: priced as the layer input kept (" +
                          std::string(p.offload_activations ? "offloaded to the host" : "in HBM") +
                          "), the rest recomputed");
  } else {
    c.refuse("remat_policy",
             "no engine remat keeps the same tensors (none, full, minimal, minimal_with_context, "
             "minimal_offloaded and custom are read); priced as full");
  }
  if (v == "minimal_with_context" || v == "minimal_flash")
    out.assumed.push_back("remat_policy " + v +
                          ": every matmul output and the attention context kept, priced as no "
                          "remat");
}

void read_precision(ConfigSettings& c, TrainingLaunch& p) {
  TrainingPrecision& pr = p.precision;
  const ConfigEntry* w = c.take("weight_dtype", "/precision/master_weights");
  const bool bf16_weights = w && (w->value == "bfloat16" || w->value == "bf16");
  pr.params = Dtype::bf16;
  pr.master_weights = !bf16_weights;
  pr.master = Dtype::fp32;
  pr.optimizer = bf16_weights ? Dtype::bf16 : Dtype::fp32;
  if (const ConfigEntry* mu = c.take("mu_dtype", "/precision/optimizer_states"))
    pr.optimizer = mu->value == "bfloat16" || mu->value == "bf16" ? Dtype::bf16 : Dtype::fp32;
  if (const ConfigEntry* d = c.take("dtype", "/precision/params"); d && d->value != "bfloat16" && d->value != "bf16")
    c.refuse("dtype", "the engine prices bfloat16 activations");
  if (const ConfigEntry* q = c.take("quantization", "/precision/matmul")) {
    if (q->value == "fp8" || q->value == "nanoo_fp8" || q->value == "fp8_full") {
      pr.matmul = Dtype::fp8;
      pr.recipe = MatmulRecipe::tensorwise;
    } else if (q->value == "int8") {
      pr.matmul = Dtype::int8;
    } else if (!q->value.empty() && q->value != "''" && q->value != "\"\"") {
      c.refuse("quantization", "the engine prices fp8 (per tensor) and int8");
    }
  }
}

void read_moe(ConfigSettings& c, TrainingLaunch& p) {
  double capacity = -1;
  bool sparse = true, megablox = true;
  c.number_in("capacity_factor", "/moe/capacity_factor", capacity, kConfigFactor);
  c.boolean("sparse_matmul", "/moe/token_policy", sparse);
  c.boolean("megablox", "/moe/token_policy", megablox);
  if (capacity > 0) {
    p.moe.capacity_factor = capacity;
    p.moe.policy = sparse ? TokenPolicy::drop : TokenPolicy::pad;
  }
}

// MaxText's model configs by name, else the base_* keys (MaxText/configs/base.yml's model section).
void read_model(ConfigSettings& c, ImportResult& out) {
  if (const ConfigEntry* e = c.take("model_name", "/model"); e && e->value != "default") {
    for (const ModelName& n : kModels)
      if (e->value == n.maxtext) return void(out.model = Json{{"preset", n.preset}});
    c.refuse("model_name", "no engine preset for this MaxText model; give the model (or its base_* keys)");
  }
  ModelConfig m = imported_model();
  if (!c.positive_integer("base_num_decoder_layers", "/model/layers", m.layers) ||
      !c.positive_integer("base_emb_dim", "/model/d_model", m.d_model) ||
      !(c.positive_integer("base_num_query_heads", "/model/heads", m.heads) ||
        c.positive_integer("base_num_heads", "/model/heads", m.heads)))  // the name before 2024
    return;
  m.d_ff = 4 * m.d_model;  // base.yml's proportions where the config is silent
  m.kv_heads = m.heads;
  m.head_dim = m.d_model / m.heads;
  c.positive_integer("base_mlp_dim", "/model/d_ff", m.d_ff);
  c.positive_integer("base_num_kv_heads", "/model/kv_heads", m.kv_heads);
  c.positive_integer("head_dim", "/model/head_dim", m.head_dim);
  c.positive_integer("vocab_size", "/model/vocab", m.vocab);
  c.boolean("logits_via_embedding", "/model/tied_embeddings", m.tied_embeddings);
  const ConfigEntry* act = c.take("mlp_activations", "/model/mlp");
  m.mlp = !act || act->value.find(',') != std::string::npos ? MlpKind::gated : MlpKind::plain;
  if (c.positive_integer("num_experts", "/model/experts", m.experts) && m.experts > 1) {
    m.active_experts = 2;
    m.expert_d_ff = m.d_ff;
    c.positive_integer("num_experts_per_tok", "/model/active_experts", m.active_experts);
    c.positive_integer("base_moe_mlp_dim", "/model/expert_d_ff", m.expert_d_ff);
    c.number_in("shared_experts", "/model/shared_experts", m.shared_experts, kConfigCount);
    c.number_in("first_num_dense_layers", "/model/dense_layers", m.dense_layers, kConfigCount);
  } else {
    m.experts = 0;
  }
  out.model = model_config_json(m);
}

void read_maxtext(ConfigSettings& c, const ImportContext& ctx, ImportResult& out) {
  TrainingLaunch& p = out.training;
  read_model(c, out);
  read_mesh_degrees(c, ctx, out);
  if (!out.problems.empty()) return;
  double pdbs = 12, seq = 2048;  // base.yml's defaults
  if (!c.number_in("per_device_batch_size", "/batch_tokens", pdbs, kConfigBatch))
    out.assumed.push_back("per_device_batch_size: MaxText's default 12");
  if (!c.positive_integer("max_target_length", "/seq_len", seq))
    out.assumed.push_back("max_target_length: MaxText's default 2048");
  p.seq_len = seq;
  p.batch_tokens = pdbs * p.chips * seq;
  const double stages = p.degree(3);
  if (stages > 1) {
    double microbatches = stages, per_stage = 1;  // base.yml: -1 microbatches (one per stage), one layer a repeat
    c.positive_integer("num_pipeline_microbatches", "/parallelism/microbatches", microbatches);
    c.positive_integer("num_layers_per_pipeline_stage", "/parallelism/virtual_stages", per_stage);
    const double layers = import_layers(ctx, out);
    p.microbatches = microbatches;
    p.virtual_stages = std::max(1.0, std::floor(layers / (stages * per_stage)));
    if (layers <= 0) out.problems.push_back("a pipeline's repeats need the model's layers: give the model");
    p.schedule = p.virtual_stages > 1 ? PipelineSchedule::interleaved : PipelineSchedule::gpipe;
  } else {
    c.positive_integer("gradient_accumulation_steps", "/parallelism/microbatches", p.microbatches);
  }
  p.context_variant = ContextVariant::all_gather;
  if (const ConfigEntry* e = c.take("context_parallel_strategy", "/parallelism/context_variant");
      e && e->value == "ring")
    p.context_variant = ContextVariant::ring;
  p.zero_stage = 3;
  read_remat(c, p, out);
  bool offload = false;
  if (c.boolean("optimizer_memory_host_offload", "/offload/optimizer", offload)) p.offload_optimizer = offload;
  read_precision(c, p);
  if (const ConfigEntry* e = c.take("attention", "/attention_kernel"); e && e->value == "dot_product")
    p.attention.kernel = AttentionKernel::materialized;
  double dropout = 0;
  if (c.number_in("dropout_rate", "/dropout", dropout, kConfigFraction)) p.attention.dropout = dropout > 0;
  read_moe(c, p);
}

}  // namespace

const Framework& maxtext_framework() {
  static const Framework f{"maxtext", "MaxText (train.py overrides)", "command_line", true,        false, write_maxtext,
                           nullptr,   read_yaml_or_overrides,         normalize,      read_maxtext};
  return f;
}

}  // namespace scalescope
