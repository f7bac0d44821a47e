#include "planners/serving_deployment.h"

#include <algorithm>
#include <cmath>

namespace scalescope {

DeploymentCost deployment_cost(const DeploymentInput& in) {
  DeploymentCost out;
  const double prefills_per_step_s = in.batch / in.generated_len * in.prefill_one_s;
  out.latency_per_token_s = in.disaggregated ? in.decode_step_s : in.decode_step_s + prefills_per_step_s;
  out.prefill_bound = !in.disaggregated && prefills_per_step_s > in.decode_step_s;
  const double replica_tokens_per_s = in.batch / out.latency_per_token_s;
  // At least one replica: a tiny demand (5e-324 tokens/s) must not underflow to none (issue 22).
  out.replicas = std::max(1.0, std::ceil(in.demand_tokens_per_s / replica_tokens_per_s));
  if (in.disaggregated)
    out.prefill_servers =
        std::max(1.0, std::ceil(out.replicas * in.batch * in.prefill_one_s / (in.decode_step_s * in.generated_len)));
  out.total_chips = (out.replicas + out.prefill_servers) * in.replica_chips;
  out.tokens_per_s = out.replicas * replica_tokens_per_s;
  out.tokens_per_s_per_chip = out.tokens_per_s / out.total_chips;
  out.usd_per_million_output_tokens = out.total_chips * in.usd_per_chip_hour / 3600.0 / out.tokens_per_s * 1e6;
  return out;
}

}  // namespace scalescope
