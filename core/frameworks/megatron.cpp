// Megatron-LM's pretrain_gpt.py arguments and Megatron-Bridge's ConfigContainer fields: one vocabulary (Megatron
// Core's TransformerConfig, DistributedDataParallelConfig and training arguments), spelled
// `--tensor-model-parallel-size` on Megatron-LM's command line and `model.tensor_model_parallel_size` in a
// Megatron-Bridge recipe override. Sources: NVIDIA/Megatron-LM megatron/training/arguments.py and
// NVIDIA-NeMo/Megatron-Bridge src/megatron/bridge/training/config.py and mixed_precision.py (both 2025-2026 main).
//
// The strategies map as follows. Megatron's world is TP x PP x CP x DP; its data-parallel ranks are the engine's
// data x fsdp x expert, and its expert-parallel group folds the TP ranks the experts do not split (EP = expert x
// TP / ETP, the engine's parallel folding). The distributed optimizer shards over DP / num_distributed_optimizer_
// instances ranks: the engine's fsdp x expert with zero_stage 1, the instances its data degree; Megatron-FSDP's
// sharding strategies are zero stages 2 (optim_grads) and 3 (optim_grads_params).
#include "frameworks/megatron_vocabulary.h"

namespace scalescope {

const Framework& megatron_framework() {
  static const Framework f{"megatron",
                           "Megatron-LM (pretrain_gpt.py arguments)",
                           "command_line",
                           true,
                           true,
                           megatron::write_megatron,
                           nullptr,
                           read_command_line,
                           megatron::setting_name,
                           megatron::read_megatron};
  return f;
}

const Framework& megatron_bridge_framework() {
  static const Framework f{"megatron-bridge",
                           "Megatron-Bridge (ConfigContainer overrides)",
                           "yaml",
                           true,
                           true,
                           megatron::write_bridge,
                           nullptr,
                           read_yaml_or_overrides,
                           megatron::setting_name,
                           megatron::read_bridge};
  return f;
}

}  // namespace scalescope
