// Plans that cannot run are diagnosed, not computed (issue: planners): the shape checks of a training plan. The
// checks are bits (plan_problems, allocation-free, what a search reads); check_training_plan words them.
#include <cmath>
#include <utility>

#include "io/format.h"
#include "physics/portable_math.h"
#include "planners/pipeline.h"
#include "planners/training.h"

namespace scalescope {

unsigned layout_problems(const TrainingPlan& p) {
  return (p.tensor.has_dcn ? kDcnTensor : 0u) | (p.context.has_dcn ? kDcnContext : 0u);
}

unsigned split_problems_of(int strategy) {
  switch (strategy) {
    case 2:
      return kTensorHeads | kTensorKvHeads | kTensorDff | kTensorExpertDff | kExpertTensor | kFoldedExperts;
    case 3:
      return kPipelineLayers | kVirtualStagesLayers | kDualPipeStages;
    case 4:
      return kExpertDense | kExpertTooLarge | kExpertNotDivisible | kFoldedExperts;
    case 5:
      return kContextSeq;
    default:
      return 0;  // data and FSDP split the batch, whatever the model
  }
}

unsigned plan_problems(const TrainingInput& in) { return setting_problems(in) | layout_problems(in.plan); }

unsigned setting_problems(const TrainingInput& in) {
  const ModelConfig& m = *in.model;
  const TrainingPlan& p = in.plan;
  const double tp = p.tensor.degree, pp = p.pipeline.degree, ep = p.expert.degree, cp = p.context.degree;
  unsigned out = 0;
  auto flag = [&](bool bad, PlanProblem bit) {
    if (bad) out |= bit;
  };
  flag(!divides(tp, m.heads), kTensorHeads);
  flag(!(divides(tp, m.kv_heads) || divides(m.kv_heads, tp)), kTensorKvHeads);
  flag(m.dense_mlp_layers() > 0 && !divides(tp, m.d_ff), kTensorDff);
  const double etp = expert_tensor_degree(p);
  flag(m.is_moe() && !divides(etp, m.expert_d_ff), kTensorExpertDff);
  flag(p.expert_tensor > 0 && (!divides(p.expert_tensor, tp) || !m.is_moe()), kExpertTensor);
  // Stages need not divide the layers (the busiest stage sets the pace), but every stage needs a layer.
  flag(pp > m.layers, kPipelineLayers);
  flag(chunks_per_stage(p) > 1 && pp * chunks_per_stage(p) > m.layers, kVirtualStagesLayers);
  flag(p.schedule == PipelineSchedule::dualpipe && pp > 1 && !divides(2.0, pp), kDualPipeStages);
  // deepseek-ai/DualPipe @3da1bbe (dualpipe/dualpipe.py, dualpipev.py step()): num_chunks >= 2 x num_ranks, and even
  // for DualPipe; the bubble's closed form (planners/pipeline.cpp) is that full schedule's.
  const bool dual = p.schedule == PipelineSchedule::dualpipe || p.schedule == PipelineSchedule::dualpipe_v;
  flag(dual && pp > 1 &&
           (p.microbatches < 2.0 * pp || (p.schedule == PipelineSchedule::dualpipe && !divides(2.0, p.microbatches))),
       kDualPipeMicrobatches);
  flag(ep > 1 && !m.is_moe(), kExpertDense);
  flag(ep > 1 && m.is_moe() && ep > m.experts, kExpertTooLarge);
  flag(ep > 1 && m.is_moe() && ep <= m.experts && !divides(ep, m.experts), kExpertNotDivisible);
  // Parallel folding: the expert-parallel group is the expert axis times the TP ranks the experts do not split over.
  const double folded = expert_parallel_degree(p);
  flag(m.is_moe() && folded > ep && (out & kExpertTensor) == 0 && !divides(folded, m.experts), kFoldedExperts);
  flag(!divides(cp, in.seq_len), kContextSeq);
  const double sequences = in.batch_tokens / in.seq_len;
  flag(!divides(in.seq_len, in.batch_tokens), kBatchNotWholeSequences);
  const double seq_shards = p.data.degree * p.fsdp.degree * p.expert.degree;
  const double pieces = seq_shards * p.microbatches;
  if (in.batch_tokens / cp < pieces)
    out |= kBatchTooSmall;
  else if (!divides(pieces, in.batch_tokens / cp))
    out |= kUnevenSplit;
  // scaling-book/applied-training, sharding LLaMA 3-70B: the book shards sequences too ("tokens are tokens" for the
  // MLP); attention then needs the other pieces' keys and values, which the book's estimate does not cost and the
  // calibrated one does (planners/calibrated_training.cpp split_sequence_kv_s; 'context' axes say it as ring
  // attention).
  if (in.batch_tokens / cp >= pieces && !divides(pieces, sequences)) out |= kSequenceSharded;
  if (pp > 1 && p.zero_stage >= 3 && p.fsdp.degree > 1) out |= kZero3Pipeline;
  flag(in.precision.gradients == GradientBuffer::fused && p.microbatches > 1, kFusedGradientsMicrobatches);
  return out;
}

void check_training_plan(const TrainingInput& in, const std::string& query_path, Diagnostics& d) {
  describe_plan_problems(in, plan_problems(in), query_path, d);
}

namespace {

// The split's problems, at the keys of the query's `parallelism` (`par`).
void describe_split_problems(const TrainingInput& in, unsigned problems, const std::string& par, Diagnostics& d) {
  const ModelConfig& m = *in.model;
  const TrainingPlan& p = in.plan;
  const double tp = p.tensor.degree, pp = p.pipeline.degree, ep = p.expert.degree, cp = p.context.degree;
  auto need = [&](PlanProblem bit, const std::string& key, const char* code, const std::string& message) {
    if (problems & bit) add_diagnostic(d, json_pointer_child(par, key), code, message);
  };
  need(kTensorHeads, "tensor", "not_divisible",
       format_count(tp) + "-way TP does not divide the " + format_count(m.heads) + " attention heads");
  need(kTensorKvHeads, "tensor", "not_divisible",
       format_count(tp) + "-way TP neither divides nor is a multiple of the " + format_count(m.kv_heads) + " KV heads");
  need(kTensorDff, "tensor", "not_divisible",
       format_count(tp) + "-way TP does not divide d_ff " + format_count(m.d_ff));
  const double etp = expert_tensor_degree(p);
  need(kTensorExpertDff, p.expert_tensor > 0 ? "expert_tensor" : "tensor", "not_divisible",
       format_count(etp) + "-way " + (p.expert_tensor > 0 ? "expert TP" : "TP") +
           " does not divide the experts' d_ff " + format_count(m.expert_d_ff));
  need(kExpertTensor, "expert_tensor", m.is_moe() ? "not_divisible" : "not_applicable",
       m.is_moe() ? format_count(p.expert_tensor) + "-way expert TP does not divide the " + format_count(tp) +
                        "-way TP it is taken from (the other TP ranks join the expert-parallel group)"
                  : "expert tensor parallelism needs an MoE model (" + m.name + " is dense)");
  need(kFoldedExperts, "expert_tensor", "not_divisible",
       format_count(expert_parallel_degree(p)) + "-way expert parallelism (expert " + format_count(ep) + " x TP " +
           format_count(tp) + " / expert TP " + format_count(etp) + ") does not divide the " + format_count(m.experts) +
           " experts");
  need(kDualPipeStages, "pipeline", "not_divisible",
       "DualPipe pairs stage i with stage S - 1 - i: it needs an even number of stages, not " + format_count(pp) +
           " (dualpipe_v takes any)");
  need(kPipelineLayers, "pipeline", "too_large",
       format_count(pp) + " pipeline stages exceed the " + format_count(m.layers) + " layers");
  need(kVirtualStagesLayers, p.schedule == PipelineSchedule::interleaved ? "virtual_stages" : "pipeline", "too_large",
       format_count(pp) + " stages x " + format_count(chunks_per_stage(p)) + " model chunks exceed the " +
           format_count(m.layers) + " layers");
  need(kExpertDense, "expert", "not_applicable", "expert parallelism needs an MoE model (" + m.name + " is dense)");
  need(kExpertTooLarge, "expert", "too_large",
       format_count(ep) + "-way EP exceeds the " + format_count(m.experts) + " experts");
  need(kExpertNotDivisible, "expert", "not_divisible",
       format_count(ep) + "-way EP does not divide the " + format_count(m.experts) + " experts");
  need(kContextSeq, "context", "not_divisible",
       format_count(cp) + "-way CP does not divide the sequence length " + format_count(in.seq_len));
  const char* dcn_message =
      " runs a collective in every layer on the critical path, which DCN between slices cannot carry "
      "(scaling-book/training, multi-pod over DCN); give the DCN axis to data, fsdp, pipeline or expert";
  need(kDcnTensor, "tensor", "dcn_not_data", std::string("tensor parallelism") + dcn_message);
  need(kDcnContext, "context", "dcn_not_data", std::string("context parallelism") + dcn_message);
}

// The batch's, the gradients' and ZeRO's problems against the split.
void describe_batch_problems(const TrainingInput& in, unsigned problems, const std::string& query_path,
                             Diagnostics& d) {
  const std::string par = query_path + "/parallelism";
  const std::string batch_path = query_path + "/batch_tokens";
  const TrainingPlan& p = in.plan;
  if (problems & kBatchNotWholeSequences) {
    // Name the nearest whole numbers of sequences, so a reader can pick one (16M tokens is 3906.25 sequences of 4096).
    const double below = std::floor(in.batch_tokens / in.seq_len) * in.seq_len;
    const double above = below + in.seq_len;
    add_diagnostic(d, batch_path, "not_divisible",
                   format_count(in.batch_tokens) + " tokens is not a whole number of " + format_count(in.seq_len) +
                       "-token sequences; the nearest " +
                       (below > 0 ? "are " + format_count(below) + " and " : std::string("is ")) + format_count(above));
  }
  const double sequences = in.batch_tokens / in.seq_len;
  const double seq_shards = p.data.degree * p.fsdp.degree * p.expert.degree;
  const double pieces = seq_shards * p.microbatches;
  if (problems & kBatchTooSmall)
    add_diagnostic(d, batch_path, "too_small",
                   format_count(in.batch_tokens) + " tokens cannot feed " + format_count(seq_shards) +
                       " data shards x " + format_count(p.microbatches) + " microbatches");
  if (problems & kUnevenSplit)
    add_warning(d, batch_path, "uneven_split",
                format_count(in.batch_tokens) + " tokens do not split evenly over " + format_count(pieces) +
                    " data shards x microbatches; the estimate uses the average");
  if (problems & kSequenceSharded)
    add_warning(
        d, batch_path, "sequence_sharded",
        format_count(sequences) + " sequences over " + format_count(pieces) +
            " data shards x microbatches: sequences are split; their keys and values cross between the shards for "
            "attention, which the calibrated step costs (as CP's all-gather) and the book's does not");
  if (problems & kFusedGradientsMicrobatches)
    add_diagnostic(d, query_path + "/precision/gradients", "conflicting",
                   "fused gradients (no gradient buffer) cannot accumulate over " + format_count(p.microbatches) +
                       " microbatches; use one microbatch, or gradients 'bf16' or 'fp32'");
  if (problems & kDualPipeMicrobatches)
    add_warning(d, json_pointer_child(par, "microbatches"), "dualpipe_microbatches",
                format_count(p.microbatches) + " microbatches over " + format_count(p.pipeline.degree) + " stages: " +
                    (p.schedule == PipelineSchedule::dualpipe ? "DualPipe runs an even number" : "DualPipeV runs") +
                    " of at least twice the stages (deepseek-ai/DualPipe); the bubble is that full schedule's");
  if (problems & kZero3Pipeline)
    add_warning(d, json_pointer_child(par, "zero_stage"), "zero3_with_pipeline",
                "ZeRO-3 with pipelining re-gathers weights every microbatch (scaling-book/training); ZeRO-1 is usual");
}

}  // namespace

void describe_plan_problems(const TrainingInput& in, unsigned problems, const std::string& query_path, Diagnostics& d) {
  if (problems == 0) return;
  describe_split_problems(in, problems, query_path + "/parallelism", d);
  describe_batch_problems(in, problems, query_path, d);
}

}  // namespace scalescope
