// Plans that cannot run are diagnosed, not computed (issue: planners): the shape checks of a training plan.
#include <cmath>
#include <utility>

#include "io/format.h"
#include "planners/training.h"

namespace scalescope {

void check_training_plan(const TrainingInput& in, const std::string& query_path, Diagnostics& d) {
  const std::string par = query_path + "/parallelism";
  const std::string batch_path = query_path + "/batch_tokens";
  const ModelConfig& m = *in.model;
  const TrainingPlan& p = in.plan;
  auto need = [&](bool ok, const std::string& key, const char* code, const std::string& message) {
    if (!ok) add_diagnostic(d, json_pointer_child(par, key), code, message);
  };
  const double tp = p.tensor.degree, pp = p.pipeline.degree, ep = p.expert.degree, cp = p.context.degree;
  auto divides = [](double a, double b) { return std::fmod(b, a) == 0; };
  need(divides(tp, m.heads), "tensor", "not_divisible",
       format_count(tp) + "-way TP does not divide the " + format_count(m.heads) + " attention heads");
  need(divides(tp, m.kv_heads) || divides(m.kv_heads, tp), "tensor", "not_divisible",
       format_count(tp) + "-way TP neither divides nor is a multiple of the " + format_count(m.kv_heads) + " KV heads");
  need(divides(tp, m.d_ff), "tensor", "not_divisible",
       format_count(tp) + "-way TP does not divide d_ff " + format_count(m.d_ff));
  if (m.is_moe())
    need(divides(tp, m.expert_d_ff), "tensor", "not_divisible",
         format_count(tp) + "-way TP does not divide the experts' d_ff " + format_count(m.expert_d_ff));
  need(divides(pp, m.layers), "pipeline", "not_divisible",
       format_count(pp) + " pipeline stages do not divide the " + format_count(m.layers) + " layers");
  if (p.schedule == PipelineSchedule::interleaved)
    need(divides(pp * p.virtual_stages, m.layers), "virtual_stages", "not_divisible",
         format_count(pp) + " stages x " + format_count(p.virtual_stages) + " virtual stages do not divide the layers");
  need(ep == 1 || m.is_moe(), "expert", "not_applicable", "expert parallelism needs an MoE model (" + m.name + " is dense)");
  need(ep == 1 || !m.is_moe() || ep <= m.experts, "expert", "too_large",
       format_count(ep) + "-way EP exceeds the " + format_count(m.experts) + " experts");
  need(ep == 1 || !m.is_moe() || ep > m.experts || divides(ep, m.experts), "expert", "not_divisible",
       format_count(ep) + "-way EP does not divide the " + format_count(m.experts) + " experts");
  need(divides(cp, in.seq_len), "context", "not_divisible",
       format_count(cp) + "-way CP does not divide the sequence length " + format_count(in.seq_len));
  const std::pair<const char*, const AxisGroup*> non_data[] = {
      {"fsdp", &p.fsdp}, {"tensor", &p.tensor}, {"pipeline", &p.pipeline}, {"expert", &p.expert}, {"context", &p.context}};
  for (const auto& [key, group] : non_data)
    need(!group->has_dcn, key, "dcn_not_data",
         std::string("the DCN axis between slices carries data parallelism only (spec §2.9.7): move it from '") + key +
             "' to 'data'");
  const double sequences = in.batch_tokens / in.seq_len;
  if (std::fmod(in.batch_tokens, in.seq_len) != 0)
    add_diagnostic(d, batch_path, "not_divisible", "batch_tokens is not a whole number of sequences");
  const double seq_shards = p.data.degree * p.fsdp.degree * p.expert.degree;
  const double pieces = seq_shards * p.microbatches;
  if (in.batch_tokens / cp < pieces)
    add_diagnostic(d, batch_path, "too_small",
                   format_count(in.batch_tokens) + " tokens cannot feed " + format_count(seq_shards) +
                       " data shards x " + format_count(p.microbatches) + " microbatches");
  else if (std::fmod(in.batch_tokens / cp, pieces) != 0)
    add_warning(d, batch_path, "uneven_split",
                format_count(in.batch_tokens) + " tokens do not split evenly over " + format_count(pieces) +
                    " data shards x microbatches; the estimate uses the average");
  if (in.batch_tokens / cp >= pieces && std::fmod(sequences, pieces) != 0)
    // §3.6 #61: the book shards sequences too ("tokens are tokens" for the MLP); attention then needs the other
    // pieces' keys and values, which this estimate does not cost (use 'context' axes for ring attention).
    add_warning(d, batch_path, "sequence_sharded",
                format_count(sequences) + " sequences over " + format_count(pieces) +
                    " data shards x microbatches: sequences are split, and attention's KV exchange is not costed");
  if (in.precision.gradients == GradientBuffer::fused && p.microbatches > 1)
    add_diagnostic(d, query_path + "/precision/gradients", "conflicting",
                   "fused gradients (no gradient buffer) cannot accumulate over " + format_count(p.microbatches) +
                       " microbatches; use one microbatch, or gradients 'bf16' or 'fp32'");
  if (pp > 1 && p.zero_stage >= 3 && p.fsdp.degree > 1)
    add_warning(d, json_pointer_child(par, "zero_stage"), "zero3_with_pipeline",
                "ZeRO-3 with pipelining re-gathers the weights for every microbatch (spec §2.9.5); ZeRO-1 is usual");
}

}  // namespace scalescope
