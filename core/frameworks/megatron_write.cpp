// Megatron-LM's arguments and Megatron-Bridge's overrides written from a plan (megatron.cpp has the mapping).
#include <algorithm>
#include <cmath>

#include "frameworks/megatron_vocabulary.h"
#include "io/format.h"

namespace scalescope::megatron {

namespace {

struct Setting {
  const char* section;  // Megatron-Bridge's ConfigContainer section ("" at the top)
  std::string name;     // Megatron Core's field name; Megatron-LM's flag is it with dashes
  std::string value;    // "true" / "false" for a switch
};

std::string bool_text(bool b) { return b ? "true" : "false"; }

void add_model(std::vector<Setting>& s, const ModelConfig& m, Flavour f, LaunchNotes& notes) {
  auto add = [&](const char* name, double v) { s.push_back({"model", name, config_value(v)}); };
  add("num_layers", m.layers);
  add("hidden_size", m.d_model);
  add("ffn_hidden_size", m.d_ff > 0 ? m.d_ff : m.expert_d_ff);
  add("num_attention_heads", m.heads);
  if (m.kv_heads != m.heads) {
    if (f == Flavour::megatron) s.push_back({"model", "group_query_attention", "true"});
    add("num_query_groups", m.kv_heads);
  }
  if (m.head_dim * m.heads != m.d_model) add("kv_channels", m.head_dim);
  if (m.mlp == MlpKind::gated) s.push_back({"model", f == Flavour::megatron ? "swiglu" : "gated_linear_unit", "true"});
  if (f == Flavour::megatron) {
    if (!m.tied_embeddings) s.push_back({"model", "untie_embeddings_and_output_weights", "true"});
  } else {
    s.push_back({"model", "share_embeddings_and_output_weights", bool_text(m.tied_embeddings)});
  }
  add("vocab_size", m.vocab);
  if (m.is_moe()) {
    add(f == Flavour::megatron ? "num_experts" : "num_moe_experts", m.experts);
    add("moe_router_topk", m.active_experts);
    add("moe_ffn_hidden_size", m.expert_d_ff);
    if (m.shared_experts > 0) add("moe_shared_expert_intermediate_size", m.shared_experts * m.expert_d_ff);
    if (m.dense_layers > 0)
      s.push_back({"model", "moe_layer_freq",
                   "([0]*" + config_value(m.dense_layers) + "+[1]*" + config_value(m.layers - m.dense_layers) + ")"});
  }
  if (m.is_mla() || m.has_linear_attention() || m.has_sparse_attention() || m.sliding_window > 0 ||
      m.attention_chunk > 0 || m.expert_latent_dim > 0 || !m.mlp_pattern.empty() || !m.attention_pattern.empty())
    notes.undecided.push_back(
        "the architecture beyond these fields (latent, linear, sparse or windowed attention, "
        "layer patterns): take it from the model's own Megatron-Bridge provider");
}

void add_recompute(std::vector<Setting>& s, const TrainingLaunch& p, LaunchNotes& notes) {
  auto full = [&] {
    s.push_back({"model", "recompute_granularity", "full"});
    s.push_back({"model", "recompute_method", "uniform"});
    s.push_back({"model", "recompute_num_layers", "1"});
  };
  switch (p.remat) {
    case Remat::none:
      break;
    case Remat::block:
      full();
      break;
    case Remat::selective:
      s.push_back({"model", "recompute_granularity", "selective"});
      break;
    case Remat::big_matmuls:
      s.push_back({"model", "recompute_granularity", "selective"});
      notes.cannot("/remat",
                   "remat big_matmuls (keep only the matmul outputs): Megatron's selective recompute "
                   "recomputes the same attention core but keeps every other activation");
      break;
    default:
      full();
      notes.cannot("/remat", "remat " + std::string(remat_name(p.remat)) +
                                 ": Megatron recomputes whole layers or the attention core; written as full recompute");
  }
}

void add_precision(std::vector<Setting>& s, const TrainingLaunch& p, Flavour f, LaunchNotes& notes) {
  const TrainingPrecision& pr = p.precision;
  const RecipeName* recipe = nullptr;
  for (const RecipeName& r : kRecipes)
    if (r.recipe == pr.recipe && (r.recipe != MatmulRecipe::none || pr.matmul == Dtype::bf16)) recipe = &r;
  if (!recipe) {
    recipe = &kRecipes[0];
    notes.cannot("/precision/matmul", std::string("matmul ") + matmul_precision_name(pr) +
                                          ": no Megatron recipe runs the linear layers so; written as bf16");
  }
  if (f == Flavour::bridge) {
    s.push_back({"", "mixed_precision", recipe->bridge});
  } else {
    s.push_back({"", "bf16", "true"});
    if (recipe->recipe == MatmulRecipe::nvfp4) {
      s.push_back({"", "fp4_format", "e2m1"});
      s.push_back({"", "fp4_recipe", "nvfp4"});
    } else if (recipe->recipe != MatmulRecipe::none) {
      s.push_back({"", "fp8_format", "hybrid"});
      s.push_back({"", "fp8_recipe", recipe->megatron});
    }
  }
  if (pr.params != Dtype::bf16)
    notes.cannot("/precision/params", "fp32 working weights: Megatron's bf16 runs keep bf16 weights");
  if (!pr.master_weights || pr.master != Dtype::fp32)
    notes.cannot("/precision/master_weights", "Megatron's optimizer keeps fp32 main weights beside the bf16 ones");
  if (pr.optimizer == Dtype::bf16) {
    s.push_back({"optimizer", "use_precision_aware_optimizer", "true"});
    s.push_back({"optimizer", "exp_avg_dtype", "bf16"});
    s.push_back({"optimizer", "exp_avg_sq_dtype", "bf16"});
  }
  if (pr.gradients == GradientBuffer::fp32) s.push_back({"ddp", "grad_reduce_in_fp32", "true"});
  if (pr.gradients == GradientBuffer::fused)
    notes.cannot("/precision/gradients", "gradients fused into the optimizer: Megatron keeps a gradient buffer");
}

void add_moe(std::vector<Setting>& s, const TrainingLaunch& p, LaunchNotes& notes) {
  const MoeSettings& m = p.moe;
  if (m.dispatcher == Dispatcher::hierarchical) {
    s.push_back({"model", "moe_token_dispatcher_type", "flex"});
    s.push_back({"model", "moe_flex_dispatcher_backend", "deepep"});
  } else {
    s.push_back({"model", "moe_token_dispatcher_type", "alltoall"});
  }
  // Megatron-Bridge copies comm_overlap's value onto the model at setup, so the override lives there.
  if (m.overlap) s.push_back({"comm_overlap", "overlap_moe_expert_parallel_comm", "true"});
  if (m.policy != TokenPolicy::dropless) {
    s.push_back({"model", "moe_expert_capacity_factor", config_value(m.capacity_factor)});
    if (m.policy == TokenPolicy::pad) s.push_back({"model", "moe_pad_expert_input_to_capacity", "true"});
  }
  if (m.load_imbalance != 1)
    notes.cannot("/moe/load_imbalance", "load_imbalance " + config_value(m.load_imbalance) +
                                            " is the engine's assumption about the routing, not a setting");
}

std::vector<Setting> megatron_settings(const TrainingLaunch& p, const ModelConfig& m, Flavour f, LaunchNotes& notes) {
  std::vector<Setting> s;
  auto add = [&](const char* section, const char* name, double v) { s.push_back({section, name, config_value(v)}); };
  const double tp = p.degree(2), pp = p.degree(3), ep = p.degree(4), cp = p.degree(5);
  add("model", "tensor_model_parallel_size", tp);
  add("model", "pipeline_model_parallel_size", pp);
  if (p.virtual_stages > 1)
    add("model",
        f == Flavour::megatron ? "num_virtual_stages_per_pipeline_rank" : "virtual_pipeline_model_parallel_size",
        p.virtual_stages);
  add("model", "context_parallel_size", cp);
  if (m.is_moe()) {
    add("model", "expert_model_parallel_size", p.expert_parallel());
    add("model", "expert_tensor_parallel_size", p.expert_tensor_degree());
  } else if (ep > 1) {
    notes.cannot("/parallelism/expert", "an expert axis on a dense model");
  }
  if (tp > 1 && (p.sequence_parallel || f == Flavour::bridge))
    s.push_back({"model", "sequence_parallel", bool_text(p.sequence_parallel)});
  if (cp > 1)
    s.push_back({"model", "cp_comm_type", p.context_variant == ContextVariant::all_gather ? "all_gather" : "p2p"});
  if (pp > 1 && p.schedule != PipelineSchedule::one_f_one_b && p.schedule != PipelineSchedule::interleaved)
    notes.cannot("/parallelism/pipeline_schedule", std::string("the ") + pipeline_schedule_name(p.schedule) +
                                                       " schedule: Megatron runs 1F1B, interleaved when "
                                                       "virtual stages are given");
  add("model", "seq_length", p.seq_len);
  add("train", "micro_batch_size", p.microbatch_sequences());
  add("train", "global_batch_size", p.batch_sequences());
  if (p.microbatch_sequences() != std::floor(p.microbatch_sequences()))
    notes.cannot("/parallelism/microbatches", "a microbatch of " + config_value(p.microbatch_sequences()) +
                                                  " sequences: Megatron's micro_batch_size is whole sequences");
  // The optimizer's sharding: over fsdp x expert ranks, with the data degree as separate instances.
  if (p.degree(1) * ep > 1) {
    if (p.zero_stage == 1) {
      s.push_back({"ddp", "use_distributed_optimizer", "true"});
    } else {
      s.push_back({"ddp", "use_megatron_fsdp", "true"});
      s.push_back({"ddp", "data_parallel_sharding_strategy", p.zero_stage == 2 ? "optim_grads" : "optim_grads_params"});
    }
    if (p.degree(0) > 1) add("ddp", "num_distributed_optimizer_instances", p.degree(0));
  }
  add_recompute(s, p, notes);
  add_precision(s, p, f, notes);
  if (p.offload_optimizer) s.push_back({"optimizer", "optimizer_cpu_offload", "true"});
  if (p.offload_activations) {
    if (f == Flavour::bridge) {
      s.push_back({"model", "cpu_offloading", "true"});
      s.push_back({"model", "cpu_offloading_activations", "true"});
    } else {
      notes.cannot("/offload/activations",
                   "activation offloading: set Transformer Engine's CPU offloading in "
                   "TransformerConfig (cpu_offloading); Megatron-LM has no flag for it");
    }
  }
  // Megatron-LM's dropouts default to 0.1; the engine's plan says whether there are any.
  const std::string dropout = p.attention.dropout ? "0.1" : "0";
  s.push_back({"model", "attention_dropout", dropout});
  s.push_back({"model", "hidden_dropout", dropout});
  if (p.attention.kernel == AttentionKernel::materialized) s.push_back({"model", "attention_backend", "unfused"});
  if (m.is_moe()) add_moe(s, p, notes);
  add_model(s, m, f, notes);
  return s;
}

std::string dashes(std::string name) {
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

std::string header(const char* what, const TrainingLaunch& p, const ModelConfig& m) {
  return std::string("# ") + what + ": " + m.name + " on " + format_count(p.chips) +
         " GPUs, the plan Scalescope priced (tensor " + format_count(p.degree(2)) + ", pipeline " +
         format_count(p.degree(3)) + ", context " + format_count(p.degree(5)) + ", data " +
         format_count(p.batch_ranks()) + ")\n";
}

// torchrun's node count and GPUs per node: whole nodes of eight where the GPUs make them.
std::string torchrun_line(double chips) {
  const double per_node = std::fmod(chips, 8.0) == 0 ? 8 : chips;
  return "torchrun --nnodes " + config_value(chips / per_node) + " --nproc-per-node " + config_value(per_node);
}

}  // namespace

std::string write_megatron(const TrainingLaunch& p, const ModelConfig& m, LaunchNotes& notes) {
  notes.undecided = {"--data-path, --tokenizer-type and --tokenizer-model (the data and its tokenizer)",
                     "--train-iters or --train-samples, --lr and its schedule, --save, --load and --save-interval",
                     "torchrun's --node-rank, --master-addr and --master-port on each node"};
  const std::vector<Setting> settings = megatron_settings(p, m, Flavour::megatron, notes);
  std::string out = header("Megatron-LM pretrain_gpt.py", p, m) + notes_comment(notes);
  out += torchrun_line(p.chips) + " pretrain_gpt.py";
  for (const Setting& s : settings) {
    if (s.value == "false") continue;
    out += " \\\n    --" + dashes(s.name) + (s.value == "true" ? "" : " " + s.value);
  }
  return out + "\n";
}

std::string write_bridge(const TrainingLaunch& p, const ModelConfig& m, LaunchNotes& notes) {
  notes.undecided = {"dataset (paths, tokenizer) and checkpoint (save, load, intervals)",
                     "train.train_iters, the optimizer's learning rate and its scheduler",
                     "the launch: " + torchrun_line(p.chips) + " with the recipe script and this file"};
  const std::vector<Setting> settings = megatron_settings(p, m, Flavour::bridge, notes);
  std::string out = header("Megatron-Bridge ConfigContainer overrides (YAML)", p, m) + notes_comment(notes);
  for (const char* section : {"", "model", "train", "ddp", "optimizer", "comm_overlap"}) {
    bool opened = false;
    for (const Setting& s : settings) {
      if (std::string(s.section) != section) continue;
      if (*section && !opened) out += std::string(section) + ":\n";
      opened = true;
      out += (*section ? "  " : "") + s.name + ": " + (s.name == "moe_layer_freq" ? "\"" + s.value + "\"" : s.value) +
             "\n";
    }
  }
  return out;
}

}  // namespace scalescope::megatron
