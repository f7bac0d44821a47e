// The space of training plans a search walks (issue 9): every combination of strategy degrees that the model and
// the batch allow, every distinct layout of each on the mesh (core/physics/layout.h: where the expert-parallel
// group sits, inside a domain or across), and every setting the caller allows: ZeRO stage, pipeline schedule and
// interleave (zero-bubble and DualPipe included), microbatch size in whole sequences, remat policy, host offload,
// matmul precision and recipe, sequence parallelism, context-parallel variant, the experts' TP (parallel folding)
// and the MoE capacity. Plans are numbered (an ordinal per plan, in a fixed order), so a search can be counted
// before it runs, cut into chunks and resumed.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "physics/layout.h"
#include "planners/training.h"

namespace scalescope {

enum class OffloadChoice { none, optimizer, activations, both };

// What the caller allows. Degrees: `fixed` (0 = free) and `max_degree` (0 = no cap) per strategy, in
// TrainingPlan's order (data, fsdp, tensor, pipeline, expert, context); `strategies` and `dcn_strategies` are
// bits in that order.
struct SpaceOptions {
  std::array<int, kLayoutStrategies> fixed{};
  std::array<int, kLayoutStrategies> max_degree{};
  unsigned strategies = 0b111111;
  unsigned dcn_strategies = 0b011011;      // data, fsdp, pipeline, expert
  int max_strategies_per_torus_axis = 2;   // a TPU axis split between at most this many strategies
  double min_context_chunk_tokens = 4096;  // CP degree at most seq_len / this (0: any divisor)
  std::vector<int> zero_stages{1, 2, 3};
  // GPipe is left out by default: it has 1F1B's bubble and holds every microbatch's activations.
  std::vector<PipelineSchedule> schedules{PipelineSchedule::one_f_one_b, PipelineSchedule::interleaved};
  std::vector<int> virtual_stages{2, 4};
  std::vector<int> microbatch_sequences;  // empty: every size that divides a data shard's sequences
  std::vector<Remat> remats{Remat::none, Remat::big_matmuls, Remat::mlp_matmuls, Remat::block};
  // Opt-in (the caller allows them): host offload, other precisions, TP without SP, all-gather CP.
  std::vector<OffloadChoice> offloads{OffloadChoice::none};
  std::vector<MatmulChoice> matmul{MatmulChoice{}};
  std::vector<bool> sequence_parallel{true};
  std::vector<ContextVariant> context_variants{ContextVariant::ring};
  // MoE (opt-in): the experts' TP degrees to try (0: the TP degree, Megatron's default; smaller ones fold the
  // other TP ranks into the expert group), and capacity factors (0: the query's own setting; kDropless: none).
  std::vector<int> expert_tensor{0};
  std::vector<double> capacity_factors{0};
  static constexpr double kDropless = -1;
  // Data shards holding part of a sequence (the book's "tokens are tokens", scaling-book/applied-training, sharding
  // LLaMA 3-70B): plans with a warning, in the space only when the search includes warnings (plan_search's
  // include_warnings). Such a shard runs one microbatch.
  bool split_sequences = false;
};

// One combination of degrees: its layouts on the mesh, its settings per layout, its first plan's ordinal.
struct DegreeCombo {
  std::array<int, kLayoutStrategies> degrees{};
  std::int64_t layouts = 0;
  std::int64_t knobs = 0;
  long long first = 0;
};

// The settings of one combination, as lists; a plan's settings are one entry of each (a mixed-radix number).
constexpr int kKnobDimensions = 10;
struct KnobLists {
  std::vector<int> zero;
  std::vector<std::pair<PipelineSchedule, int>> schedule;  // (schedule, virtual stages)
  std::vector<int> microbatch_sequences;
  std::vector<Remat> remat;
  std::vector<OffloadChoice> offload;
  std::vector<MatmulChoice> matmul;
  std::vector<bool> sequence_parallel;
  std::vector<ContextVariant> context_variant;
  std::vector<int> expert_tensor;
  std::vector<double> capacity_factor;
  std::array<int, kKnobDimensions> radix() const;
  std::int64_t count() const;
};

// Why degree combinations were left out of a space (PlanSpace::rejected_by), in the words of plan_search's answer.
enum : int {
  kRejectTensorHeads,     // TP does not divide the heads and KV heads
  kRejectTensorFfn,       // TP does not divide the dense MLP's d_ff
  kRejectPipelineLayers,  // more stages than layers
  kRejectExperts,         // EP does not divide the experts (or the model has none)
  kRejectContext,         // CP does not divide the sequence
  kRejectContextChunk,    // CP cuts the sequence below space.min_context_chunk_tokens
  kRejectWholeSequences,  // a data shard (data x fsdp x expert) would get part of a sequence
  kRejectNoLayout,        // the degrees do not lie on the mesh
  kRejectNoSetting,       // no setting the caller allows fits (the experts' TP, a schedule)
  kRejectReasons
};
const char* reject_reason_name(int reason);

struct PlanSpace {
  TrainingInput base;  // model, hardware, mesh, batch, precision (matmul replaced per plan), efficiency
  SpaceOptions options;
  LayoutRules rules;  // dcn_strategies; degrees set per combination
  std::vector<DegreeCombo> combos;
  long long size = 0;             // plans in the space
  long long layouts = 0;          // (combination, layout) pairs
  long long rejected_combos = 0;  // degree combinations the model, the batch or the mesh rule out
  std::array<long long, kRejectReasons> rejected_by{};
  // Counting stopped: one combination lies on the mesh in more than kMaxLayoutsPerPlan ways, or the space holds
  // more than kMaxSearchLayouts layouts (io/limits.h); `over_degrees` is where it stopped.
  bool too_many_layouts = false;
  std::array<int, kLayoutStrategies> over_degrees{};
};

// The combinations of degrees and their layouts, counted (no plan is evaluated).
PlanSpace build_plan_space(const TrainingInput& base, const SpaceOptions& options);

KnobLists knob_lists(const PlanSpace& space, const DegreeCombo& combo);

// Writes one setting of `lists` (digit per dimension) into the plan, remat and precision of `in`.
void apply_knobs(const PlanSpace& space, const DegreeCombo& combo, const KnobLists& lists,
                 const std::array<int, kKnobDimensions>& digits, TrainingInput& in);

// The plan with ordinal `index` (layout groups and settings) into `in`; false past the end.
bool decode_plan(const PlanSpace& space, long long index, TrainingInput& in);

const char* offload_name(OffloadChoice o);
const char* context_variant_name(ContextVariant v);

}  // namespace scalescope
