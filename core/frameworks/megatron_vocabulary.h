// Megatron's vocabulary, shared by its writer (megatron_write.cpp) and reader (megatron_read.cpp): the precision
// recipes by each spelling, the two flavours' entry points (megatron.cpp registers them).
#pragma once
#include <string>

#include "frameworks/framework.h"

namespace scalescope::megatron {

enum class Flavour { megatron, bridge };

// The precision recipe each way: Megatron-Bridge's mixed_precision names (mixed_precision.py) and Megatron-LM's
// --fp8-recipe / --fp4-recipe.
struct RecipeName {
  MatmulRecipe recipe;
  Dtype dtype;
  const char* bridge;
  const char* megatron;  // --fp8-recipe (or --fp4-recipe for nvfp4)
};
inline constexpr RecipeName kRecipes[] = {
    {MatmulRecipe::none, Dtype::bf16, "bf16_mixed", ""},
    {MatmulRecipe::tensorwise, Dtype::fp8, "bf16_with_fp8_current_scaling_mixed", "tensorwise"},
    {MatmulRecipe::blockwise, Dtype::fp8, "bf16_with_fp8_subchannel_scaling_mixed", "blockwise"},
    {MatmulRecipe::mxfp8, Dtype::fp8, "bf16_with_mxfp8_mixed", "mxfp8"},
    {MatmulRecipe::nvfp4, Dtype::fp4, "bf16_with_nvfp4_mixed", "nvfp4"},
};

std::string write_megatron(const TrainingLaunch& plan, const ModelConfig& model, LaunchNotes& notes);
std::string write_bridge(const TrainingLaunch& plan, const ModelConfig& model, LaunchNotes& notes);
// "--micro-batch-size" and "train.micro_batch_size" are both "micro_batch_size".
std::string setting_name(const std::string& key);
void read_megatron(ConfigSettings& settings, const ImportContext& ctx, ImportResult& out);
void read_bridge(ConfigSettings& settings, const ImportContext& ctx, ImportResult& out);

}  // namespace scalescope::megatron
