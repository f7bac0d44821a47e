// The settings of a training plan beside its strategies: the linear layers' low-precision recipe, how MoE layers
// run, expert parallelism with parallel folding.
#include <algorithm>

#include "planners/training.h"

namespace scalescope {

namespace {

struct MatmulPrecision {
  const char* name;
  Dtype dtype;
  MatmulRecipe recipe;
};
constexpr MatmulPrecision kMatmulPrecisions[] = {
    {"bf16", Dtype::bf16, MatmulRecipe::none},
    {"fp8", Dtype::fp8, MatmulRecipe::tensorwise},
    {"fp8_blockwise", Dtype::fp8, MatmulRecipe::blockwise},
    {"mxfp8", Dtype::fp8, MatmulRecipe::mxfp8},
    {"nvfp4", Dtype::fp4, MatmulRecipe::nvfp4},
    {"int8", Dtype::int8, MatmulRecipe::tensorwise},
    {"fp4", Dtype::fp4, MatmulRecipe::tensorwise},
};

}  // namespace

const char* matmul_precision_name(const TrainingPrecision& p) {
  for (const auto& x : kMatmulPrecisions)
    if (x.dtype == p.matmul && x.recipe == p.recipe) return x.name;
  return dtype_name(p.matmul).data();
}

bool set_matmul_precision(std::string_view name, TrainingPrecision& p) {
  for (const auto& x : kMatmulPrecisions)
    if (name == x.name) {
      p.matmul = x.dtype;
      p.recipe = x.recipe;
      return true;
    }
  return false;
}

const std::vector<std::string>& matmul_precision_choices() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& x : kMatmulPrecisions) out.emplace_back(x.name);
    return out;
  }();
  return names;
}

// Per element of each operand of a linear matmul: read it in bf16 (2 bytes) and write each low-precision copy the
// recipe needs, with its scales.
//   per tensor: one fp8 copy of each (Transformer Engine: the input and weight forward, the gradient backward);
//   blockwise:  the 1x128 tiles of the input and gradient are along K, so the weight gradient needs them quantised
//               again along the other axis: two copies of those, one of the 128x128-blocked weights;
//   MXFP8:      a row-wise and a column-wise copy of every operand (32-element blocks along K, a byte of scale each);
//   NVFP4:      an amax pass, then 4-bit values (0.5 bytes) with an fp8 scale per 16, row- and column-wise for the
//               input and gradient (plus a Hadamard transform, read and written, for the weight gradient), once
//               for the 2D-blocked weights.
CastBytes cast_bytes_per_element(MatmulRecipe r) {
  switch (r) {
    case MatmulRecipe::none:
      return {0, 0, 0};
    case MatmulRecipe::tensorwise:
      return {3, 3, 3};
    case MatmulRecipe::blockwise:
      return {2 + 2 * (1 + 1.0 / 128), 3 + 1.0 / 16384, 2 + 2 * (1 + 1.0 / 128)};
    case MatmulRecipe::mxfp8:
      return {2 + 2 * (1 + 1.0 / 32), 2 + 2 * (1 + 1.0 / 32), 2 + 2 * (1 + 1.0 / 32)};
    case MatmulRecipe::nvfp4: {
      const double copy = 0.5 + 1.0 / 16;
      return {2 + 2 + 2 * copy + 4, 2 + 2 + copy, 2 + 2 + 2 * copy + 4};
    }
  }
  return {0, 0, 0};
}

double expert_load(const MoeSettings& moe) {
  const double imbalance = std::max(1.0, moe.load_imbalance);
  if (moe.capacity_factor <= 0) return imbalance;
  switch (moe.policy) {
    case TokenPolicy::dropless:
      return imbalance;
    case TokenPolicy::drop:
      return std::min(imbalance, std::max(moe.capacity_factor, 1e-9));
    case TokenPolicy::pad:
      return moe.capacity_factor;
  }
  return imbalance;
}

}  // namespace scalescope
