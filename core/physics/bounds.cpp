#include "physics/bounds.h"

#include <cmath>

namespace scalescope {

double fsdp_optimal_degree(double batch_tokens, double d_ff, double m_x, double m_y, double chips) {
  return std::sqrt(batch_tokens / d_ff * (m_x / m_y) * chips);
}

}  // namespace scalescope
