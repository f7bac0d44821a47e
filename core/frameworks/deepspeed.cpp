// DeepSpeed's JSON config (deepspeed.ai/docs/config-json): the batch (train_batch_size = micro batch per GPU x
// gradient accumulation x data-parallel GPUs), ZeRO's stage and offload, MiCS's shard groups (a ZeRO-3 group smaller
// than the data-parallel world, replicated across the rest: the engine's fsdp inside data), bf16, and AutoTP's
// tensor-parallel size. Pipeline stages, Ulysses sequence parallelism, MoE expert parallelism and activation
// checkpointing are set in the model's code (PipelineModule, deepspeed.initialize, deepspeed.moe, deepspeed.
// checkpointing), which the written config names in its notes.
#include <cmath>

#include "frameworks/framework.h"

namespace scalescope {

namespace {

std::string write_deepspeed(const TrainingLaunch& p, const ModelConfig&, LaunchNotes& notes) {
  notes.undecided = {"the optimizer and scheduler sections (learning rate, betas)",
                     "the launch: deepspeed --num_nodes N --num_gpus 8 train.py --deepspeed_config this.json"};
  if (p.degree(3) > 1)
    notes.cannot("/parallelism/pipeline", "pipeline stages: deepspeed.pipe.PipelineModule(num_stages=" +
                                              config_value(p.degree(3)) + ") in the model's code");
  // The expert ranks are data ranks to DeepSpeed's config, which then shards and batches over them all.
  if (p.degree(4) > 1)
    notes.cannot("/parallelism",
                 "expert parallelism: deepspeed.moe.layer.MoE(ep_size=" + config_value(p.expert_parallel()) +
                     ") in the model's code; the config's data "
                     "parallelism spans the expert ranks");
  if (p.moe_model)
    notes.cannot("/moe",
                 "the MoE layers' capacity, token dropping and dispatch: deepspeed.moe.layer.MoE's "
                 "arguments in the model's code");
  if (p.degree(5) > 1)
    notes.cannot("/parallelism/context", "context parallelism: Ulysses' sequence_parallel_size=" +
                                             config_value(p.degree(5)) + " in deepspeed.initialize's mpu");
  if (p.remat != Remat::block)
    notes.cannot("/remat", "remat " + std::string(remat_name(p.remat)) +
                               ": activation checkpointing is the model "
                               "code's (deepspeed.checkpointing)");
  if (p.attention.kernel == AttentionKernel::materialized)
    notes.cannot("/attention_kernel", "materialized attention scores: the model code's attention");
  if (p.attention.dropout) notes.cannot("/dropout", "dropout: the model code's");
  if (p.precision.matmul != Dtype::bf16)
    notes.cannot("/precision/matmul", "low-precision matmuls: Transformer Engine in the model's code");
  if (p.degree(2) > 1 && !p.sequence_parallel)
    notes.cannot("/parallelism/sequence_parallel", "AutoTP without sequence parallelism");
  Json zero{{"stage", p.degree(1) > 1 ? p.zero_stage : 0}};
  if (p.degree(1) > 1 && p.degree(0) > 1) {
    if (p.zero_stage == 3)
      zero["mics_shard_size"] = config_json(p.degree(1));
    else
      notes.cannot("/parallelism/data", "ZeRO-" + config_value(p.zero_stage) +
                                            " shards over every data-parallel "
                                            "rank: MiCS's smaller groups are ZeRO-3 only");
  }
  if (p.offload_optimizer) zero["offload_optimizer"] = {{"device", "cpu"}, {"pin_memory", true}};
  Json config{{"train_batch_size", config_json(p.batch_sequences())},
              {"train_micro_batch_size_per_gpu", config_json(p.microbatch_sequences())},
              {"gradient_accumulation_steps", config_json(p.microbatches)},
              {"bf16", {{"enabled", true}}},
              {"zero_optimization", zero}};
  if (p.degree(2) > 1) config["tensor_parallel"] = {{"autotp_size", config_json(p.degree(2))}};
  if (p.offload_activations)
    config["activation_checkpointing"] = {{"partition_activations", true}, {"cpu_checkpointing", true}};
  return config.dump(2) + "\n";
}

std::string normalize(const std::string& key) { return key; }

void read_deepspeed(ConfigSettings& c, const ImportContext& ctx, ImportResult& out) {
  TrainingLaunch& p = out.training;
  const double chips = import_chips(ctx, out, "the GPUs (deepspeed --num_nodes x --num_gpus)");
  if (chips <= 0) return;
  double tp = 1, stage = 0, mics = 0, batch = 0, micro = 0, accumulation = 0;
  c.positive_integer("tensor_parallel.autotp_size", "/parallelism/tensor", tp);
  c.number_in("zero_optimization.stage", "/parallelism/zero_stage", stage, kConfigCount);
  c.positive_integer("zero_optimization.mics_shard_size", "/parallelism/fsdp", mics);
  const double dp = chips / tp;
  if (dp != std::floor(dp))
    return out.problems.push_back("autotp_size does not divide the " + config_value(chips) + " GPUs");
  const bool has_batch = c.positive_integer("train_batch_size", "/batch_tokens", batch);
  const bool has_micro = c.positive_integer("train_micro_batch_size_per_gpu", "/parallelism/microbatches", micro);
  const bool has_accumulation =
      c.positive_integer("gradient_accumulation_steps", "/parallelism/microbatches", accumulation);
  if (!has_accumulation) accumulation = has_batch && has_micro ? batch / (micro * dp) : 1;
  if (!has_micro) micro = has_batch ? batch / (accumulation * dp) : 1;
  if (!has_batch) batch = micro * accumulation * dp;
  if (batch != micro * accumulation * dp || accumulation != std::floor(accumulation))
    return out.problems.push_back("train_batch_size is not micro batch x accumulation x the " + config_value(dp) +
                                  " data-parallel GPUs (the GPUs over autotp_size): pipeline, expert or sequence "
                                  "parallelism in the model's code would divide them further, which the config "
                                  "does not say");
  if (ctx.seq_len <= 0)
    return out.problems.push_back("DeepSpeed's config has no sequence length: give the query's seq_len");
  p.chips = chips;
  p.seq_len = ctx.seq_len;
  p.batch_tokens = batch * ctx.seq_len;
  p.microbatches = accumulation;
  p.ici = {dp, 1, tp, 1, 1, 1};
  if (stage >= 1) {
    const double group = mics > 0 && std::fmod(dp, mics) == 0 ? mics : dp;
    p.ici[0] = dp / group;
    p.ici[1] = group;
    p.zero_stage = static_cast<int>(std::min(stage, 3.0));
  }
  bool offload = false;
  c.take("zero_optimization.offload_optimizer.pin_memory", "/offload/optimizer");
  if (const ConfigEntry* e = c.take("zero_optimization.offload_optimizer.device", "/offload/optimizer"))
    p.offload_optimizer = e->value == "cpu" || e->value == "nvme";
  if (c.boolean("activation_checkpointing.cpu_checkpointing", "/offload/activations", offload))
    p.offload_activations = offload;
  c.take("activation_checkpointing.partition_activations", "/offload/activations");
  bool bf16 = false, fp16 = false;
  c.boolean("bf16.enabled", "/precision/params", bf16);
  if (c.boolean("fp16.enabled", "/precision/params", fp16) && fp16)
    c.refuse("fp16.enabled", "the engine prices bf16 training (fp16's loss scaling costs the same bytes)");
  p.precision.params = Dtype::bf16;
  p.precision.master_weights = true;
  p.remat = Remat::block;
  out.assumed.push_back("remat: the model code's checkpointing, priced as every layer's input kept (block)");
}

}  // namespace

const Framework& deepspeed_framework() {
  static const Framework f{"deepspeed", "DeepSpeed (config JSON)", "json",    true,          true, write_deepspeed,
                           nullptr,     read_json_config,          normalize, read_deepspeed};
  return f;
}

}  // namespace scalescope
