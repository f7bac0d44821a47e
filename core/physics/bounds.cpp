#include "physics/bounds.h"

#include <algorithm>
#include <cmath>

namespace scalescope {

double fsdp_optimal_degree(double batch_tokens, double d_ff, double m_x, double m_y, double chips) {
  // Outside [1, chips] the optimum is a pure strategy: all TP (X = 1) or all FSDP (X = chips).
  return std::clamp(std::sqrt(batch_tokens / d_ff * (m_x / m_y) * chips), 1.0, std::max(1.0, chips));
}

}  // namespace scalescope
