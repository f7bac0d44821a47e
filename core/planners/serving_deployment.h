// A deployment: identical replicas of one serving replica, enough of them for a demand of output tokens
// (scaling-book/inference). One definition of its latency and cost, used by the serving search's rows and by the
// serving query's `deployment` (issue 20: the two disagreed, $13.43 against $2.94 per 1M tokens, because one counted
// prefill and the other not).
//  - colocated: B/G sequences finish every decode step, and B/G new prompts are prefilled on the same chips between
//    steps, so a token waits for the step plus those prefills;
//  - disaggregated: prompts go to prefill servers of the replica's size, as many as keep up with the decoders
//    (P_servers / T_prefill = B G_servers / (T_step G)); a token waits for the step alone.
#pragma once

namespace scalescope {

struct DeploymentInput {
  double decode_step_s = 0;  // one replica's decode step at `batch`
  double prefill_one_s = 0;  // one prompt's prefill on one replica
  double batch = 1, generated_len = 1;
  double demand_tokens_per_s = 0;  // output tokens per second to serve (0: one replica)
  double replica_chips = 1, usd_per_chip_hour = 0;
  bool disaggregated = false;
};

struct DeploymentCost {
  double latency_per_token_s = 0;
  double replicas = 1;         // decode replicas (at least one)
  double prefill_servers = 0;  // disaggregated only (at least one)
  double total_chips = 0;
  double tokens_per_s = 0, tokens_per_s_per_chip = 0;
  double usd_per_million_output_tokens = 0;
  bool prefill_bound = false;  // colocated: the prefills between steps take longer than the step
};

DeploymentCost deployment_cost(const DeploymentInput& in);

}  // namespace scalescope
