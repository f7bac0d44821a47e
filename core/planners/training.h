// One training step of a parallelism plan (jax-ml.github.io/scaling-book/training; GPUs: .../gpus): time split into
// compute, HBM and communication per parallelism axis, memory per chip, MFU, cost, and the book's thresholds for the
// plan. evaluate_training_step is allocation-free and runs in well under 2 µs, so a plan search can call it freely.
#pragma once
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "io/dtype.h"
#include "physics/layout.h"
#include "physics/mesh.h"
#include "physics/transformer.h"
#include "specs/hardware.h"
#include "specs/model.h"

namespace scalescope {

// Pipeline schedules: GPipe (Huang et al. 2019), 1F1B and its interleaved form with v model chunks per stage
// (Narayanan et al. 2021), zero bubble ZB-H1 (Qi et al. 2023, "Zero Bubble Pipeline Parallelism": the weight
// gradients fill the bubble), DualPipe (DeepSeek-V3 §3.2.1: two directions, every stage's parameters twice) and
// DualPipeV (its cut-in-half V shape: two chunks per device, parameters once). deepseek-ai/DualPipe's table gives
// each one's bubble and memory.
enum class PipelineSchedule { gpipe, one_f_one_b, interleaved, zero_bubble, dualpipe, dualpipe_v };
inline constexpr PipelineSchedule kPipelineSchedules[] = {PipelineSchedule::gpipe,       PipelineSchedule::one_f_one_b,
                                                          PipelineSchedule::interleaved, PipelineSchedule::zero_bubble,
                                                          PipelineSchedule::dualpipe,    PipelineSchedule::dualpipe_v};
// The query's names ("gpipe", "1f1b", "interleaved", "zero_bubble", "dualpipe", "dualpipe_v"), in that order.
const char* pipeline_schedule_name(PipelineSchedule s);
const std::vector<std::string>& pipeline_schedule_choices();
// Parameters per device relative to 1F1B (DualPipe holds two stages' weights), and the microbatches' activations
// held at once on the first of `stages` stages (in units of one microbatch through a whole stage's layers) with
// `microbatches` per step and, for the interleaved schedule, `virtual_stages` chunks per stage.
double schedule_parameter_copies(PipelineSchedule s);
double schedule_in_flight_microbatches(PipelineSchedule s, double stages, double microbatches,
                                       double virtual_stages = 1);
// The same on the last stage, which runs the output layer and the loss: one microbatch under 1F1B, fewer warm-up
// chunks under the interleaved schedule, as many as the first under GPipe and under DualPipe(V), whose devices hold
// both ends of the pipeline.
double schedule_last_stage_in_flight(PipelineSchedule s, double stages, double microbatches, double virtual_stages = 1);
// Context parallelism (scaling-book/training): ring attention passes K/V chunks around the group; the all-gather
// variant (Llama 3) gathers the sequence's K/V before attention. Same bytes; the all-gather variant holds the whole KV.
enum class ContextVariant { ring, all_gather };

struct TrainingPlan {
  AxisGroup data, fsdp, tensor, pipeline, expert, context;
  // Expert tensor parallelism (Megatron-Core's parallel folding): the experts' d_ff is split over `expert_tensor`
  // of the TP ranks, and the other TP / expert_tensor ranks join the expert-parallel group. 0: the TP degree.
  double expert_tensor = 0;
  int zero_stage = 3;
  bool sequence_parallel = true;
  PipelineSchedule schedule = PipelineSchedule::one_f_one_b;
  double virtual_stages = 1;
  double microbatches = 1;
  ContextVariant context_variant = ContextVariant::ring;
  bool offload_optimizer = false;    // Adam moments (and master weights) live in host memory (ZeRO-Offload)
  bool offload_activations = false;  // saved activations go to host memory and come back for the backward pass
};

// Where gradients live (scaling-book/training, memory): a buffer in the params' dtype (the default: 2 + 2 + 8 = 12
// bytes per parameter with bf16 params and fp32 Adam), an fp32 buffer, or none: the optimizer consumes each gradient
// as the backward pass produces it (one microbatch), the book's 2 + 8 = 10 bytes per parameter.
enum class GradientBuffer { same_as_params, fp32, fused };

// How the linear layers' low-precision matmuls are scaled, which sets their casts: per tensor (Transformer Engine's
// FP8 recipes), in 1x128 / 128x128 blocks (DeepSeek-V3 §3.3), MXFP8 (OCP microscaling, 32-element blocks: a row-wise
// and a column-wise copy of every operand), NVFP4 (16-element blocks with an FP8 scale and a tensor scale, 2D
// blocks for weights, Hadamard transforms on the weight gradient's inputs: NVIDIA 2025, "Pretraining Large Language
// Models with NVFP4").
enum class MatmulRecipe { none, tensorwise, blockwise, mxfp8, nvfp4 };

struct TrainingPrecision {
  Dtype matmul = Dtype::bf16;  // the dtype the matrix units run (fp8 doubles C on chips that have it)
  MatmulRecipe recipe = MatmulRecipe::none;
  Dtype params = Dtype::bf16;  // working weights
  GradientBuffer gradients = GradientBuffer::same_as_params;
  bool master_weights = false;    // a separate master copy ...
  Dtype master = Dtype::fp32;     // ... in this format
  Dtype optimizer = Dtype::fp32;  // Adam's two moments
};

// The linear layers' precision as a plan setting: the dtype the matrix units run and its recipe.
struct MatmulChoice {
  Dtype dtype = Dtype::bf16;
  MatmulRecipe recipe = MatmulRecipe::none;
  bool operator==(const MatmulChoice& o) const { return dtype == o.dtype && recipe == o.recipe; }
};
// The query's name for the linear layers' precision (bf16, fp8, fp8_blockwise, mxfp8, nvfp4, int8, fp4), and back.
const char* matmul_precision_name(const TrainingPrecision& p);
bool set_matmul_precision(std::string_view name, TrainingPrecision& p);
const std::vector<std::string>& matmul_precision_choices();
// Bytes of casting per element of a linear matmul's input, weight and output gradient (for its forward and both
// backward matmuls): reading bf16 and writing the low-precision copies the recipe needs.
struct CastBytes {
  double input = 0, weight = 0, gradient = 0;
};
CastBytes cast_bytes_per_element(MatmulRecipe r);

// How an MoE layer runs (the calibrated fidelity; the book's step keeps its closed forms but for padding FLOPs).
enum class TokenPolicy { dropless, drop, pad };
enum class Dispatcher {
  all_to_all,   // every one of a token's k copies goes to its expert's rank (Megatron's alltoall dispatcher)
  hierarchical  // one copy per destination node over the scale-out network, then NVLink (DeepEP, HybridEP)
};
struct MoeSettings {
  double capacity_factor = 0;  // > 0: each expert takes at most capacity_factor x its mean tokens
  TokenPolicy policy = TokenPolicy::dropless;
  double load_imbalance = 1;  // the busiest expert rank's tokens over the mean (1: the force-balanced benchmarks)
  Dispatcher dispatcher = Dispatcher::all_to_all;
  bool overlap = false;  // dispatch and combine run beside another microbatch's compute (Megatron's
                         // overlap_moe_expert_parallel_comm; DualPipe always overlaps)
};
// The busiest expert rank's rows over the mean: its imbalance (dropless), capped at the capacity (drop), or the
// capacity itself (pad: every expert runs capacity_factor x the mean rows).
double expert_load(const MoeSettings& moe);

struct Efficiency {
  double flops_frac = 1.0, hbm_frac = 1.0, network_frac = 1.0;  // achievable fraction of each peak (book: 1.0)
};

struct TrainingInput {
  const ModelConfig* model = nullptr;
  const Hardware* hw = nullptr;
  const Mesh* mesh = nullptr;
  double batch_tokens = 0, seq_len = 0;
  bool causal = true;
  TrainingPrecision precision;
  Remat remat = Remat::block;
  double checkpoints_per_layer = 0;
  AttentionImpl attention;  // flash (default) or materialized scores, and dropout masks: saved activations
  Efficiency efficiency;
  bool sum_comms_model = false;  // Feb-2025 "sum" instead of Aug-2025 "max" (scaling-book/training, mixed FSDP + TP)
  FlopAccount flop_account = FlopAccount::full;  // the fuller count, or the book's 6ND (scaling-book/transformers)
  // > 0: the book's "days at X% MFU" (scaling-book/training): the step's model FLOPs run at this share of peak, remat
  // recompute and the pipeline bubble included; efficiency.flops_frac must then stay 1.
  double target_mfu_frac = 0;
  double train_tokens = 0;
  double mtp_layers = 0;  // multi-token prediction modules trained with the model (at most the model's)
  MoeSettings moe;
  TrainingPlan plan;
};

// Expert parallelism as the experts see it: the expert axis times the TP ranks folded into it, and the experts'
// tensor parallelism (ETP).
inline double expert_tensor_degree(const TrainingPlan& plan) {
  return plan.expert_tensor > 0 ? plan.expert_tensor : plan.tensor.degree;
}
inline double expert_parallel_degree(const TrainingPlan& plan) {
  return plan.expert.degree * plan.tensor.degree / expert_tensor_degree(plan);
}

enum class CommPart { data, fsdp, tensor, pipeline, expert, context, dcn, count };
inline constexpr int kCommParts = static_cast<int>(CommPart::count);
const char* comm_part_name(CommPart p);

enum class ThresholdKind { at_least, at_most };  // actual must be >= required, or <= required
struct Threshold {
  const char* name = "";
  ThresholdKind kind = ThresholdKind::at_least;
  double required = 0, actual = 0;
  bool ok = true;
  double margin = 0;  // actual/required (at_least) or required/actual (at_most): < 1 means violated
  double axes = 0;    // mesh axes the bound counts (M_X, M_Y), for the reason
  // The same comparison priced by the step model (the compute it overlaps with over this strategy's comms, as the
  // step combines them): >= 1 when the step is not bound by this strategy. The closed form above is the book's;
  // `simplification` says what it leaves out that the step prices (issue 10 defect 2).
  double step_margin = 0;
  const char* simplification = "";
};
constexpr int kMaxThresholds = 6;

struct TrainingStep {
  // degrees
  double data = 1, fsdp = 1, tensor = 1, pipeline = 1, expert = 1, context = 1, slices = 1, chips = 1;
  double tokens_per_chip = 0, tokens_per_data_shard = 0, microbatch_tokens = 0;
  // time per step
  // The step adds up: step = compute + bubble + the exposed parts of HBM, comms and offload + overhead. "Total" is
  // the resource's whole time, "exposed" what it adds to the step beyond what it overlaps (issue 20).
  double compute_s = 0, bubble_s = 0, bubble_frac = 0, hbm_s = 0, hbm_exposed_s = 0;
  double stage_layers = 0;     // layers on the busiest pipeline stage (it sets the pace)
  double stage_imbalance = 1;  // its layers' work over the average stage's (1 when the stages divide the layers)
  LayerCounts stage_kinds;     // the busiest stage's layers by kind
  double offload_s = 0;        // host-link traffic of offloaded state per step (full duplex, overlapped)
  double offload_exposed_s = 0;
  std::array<double, kCommParts> comms_s{};  // each strategy's whole comms time
  double comms_s_total = 0;                  // as combined by the comms model (max or sum; the calibrated step sums)
  double comms_s_sum = 0;
  double comms_exposed_s = 0;
  double overhead_s = 0;  // per-op launch and per-step fixed time (the calibrated step; 0 in the book's)
  double lower_bound_s = 0, upper_bound_s = 0, step_s = 0;
  const char* bound = "compute";
  const char* critical = "compute";
  // memory per chip
  double params_bytes = 0, master_bytes = 0, grads_bytes = 0, optimizer_bytes = 0, activations_bytes = 0;
  double in_flight_microbatches = 1, context_buffers_bytes = 0, total_bytes = 0, hbm_capacity_bytes = 0;
  double state_bytes_per_param = 0;  // params + gradients + master + Adam, before sharding (12 default,
                                     // scaling-book/training's 10 fused)
  double host_bytes = 0;             // offloaded to host memory (not in total_bytes)
  bool fits = true;
  double shortfall_bytes = 0;
  double min_chips_for_memory = 0;  // all state and activations of the step over one chip's HBM
                                    // (scaling-book/applied-training, minimum chips)
  // throughput and cost
  double model_flops = 0, hardware_flops = 0, mfu_frac = 0, hfu_frac = 0;
  double tokens_per_s = 0, tokens_per_s_per_chip = 0;
  double usd_per_hour = 0, train_time_s = 0, train_usd = 0;
  // the book's thresholds
  std::array<Threshold, kMaxThresholds> thresholds{};
  int threshold_count = 0;
  int binding = -1;                // index of the threshold with the smallest margin
  double fsdp_optimal_degree = 0;  // X_opt (scaling-book/training, mixed FSDP + TP), when both FSDP and TP are used
};

TrainingStep evaluate_training_step(const TrainingInput& in);

// A step's rates and cost from its time, the same for the book's step and the calibrated one (scaling-book/training):
// MFU and HFU against `peak` (the matmul precision's), tokens per second, and the time and dollars to train.
void finish_rates(const TrainingInput& in, double peak, TrainingStep& s);

// Bytes per parameter of the master copy (0 without one) and of Adam's two moments (scaling-book/training, memory).
double master_bytes_per_param(const TrainingPrecision& p);
double optimizer_bytes_per_param(const TrainingPrecision& p);
// What a checkpoint saves per parameter: the working weights, the master copy and Adam's two moments (not the
// gradients, which the next step recomputes).
double checkpoint_bytes_per_param(const TrainingPrecision& p);

// Parameters on one chip of the busiest stage before ZeRO shards them: the non-expert ones split by TP, the routed
// experts by EP x ETP (parallel folding), all by PP (DualPipe holds two stages); the trained multi-token prediction
// modules count like the model's own layers. `step` gives the degrees and the stage's share.
struct ChipParams {
  double dense = 0, routed = 0;
  double total() const { return dense + routed; }
  // Under ZeRO: the non-expert parameters shard over FSDP x the expert ranks (data ranks to them), the routed
  // experts over FSDP.
  double zero_sharded(double fsdp, double expert) const { return dense / (fsdp * expert) + routed / fsdp; }
};
ChipParams training_chip_params(const TrainingInput& in, const TrainingStep& step, const ParamCounts& params);

// The share of a stage's saved activations in HBM at once: all of them, or with activation offload the layer being
// computed and the next one's, prefetched (the rest wait in host memory).
double resident_activation_frac(const TrainingPlan& plan, double stage_layers);

// evaluate_training_step in its two halves, for a plan search that needs a plan's memory before its time (its
// bound, planners/calibrated_training.h): the degrees, FLOPs, compute with the bubble, and memory per chip; then
// HBM, comms, their combination, rates, cost and thresholds. `counts` carries what the first half counted. With
// `model_counted` set, its params and flops are taken as this input's (the model's, at its batch, sequence and
// FLOP account: a search's plans share them, and it counts them once).
struct StepCounts {
  bool model_counted = false;
  ParamCounts params;
  FlopCounts flops;        // the model's, with the multi-token prediction modules it trains
  FlopCounts layer_flops;  // without them: what remat redoes
  ChipParams chip;
  double batch_activation_bytes = 0;  // the whole batch's saved activations
                                      // (scaling-book/applied-training, minimum chips)
  double peak = 0;                    // the matmul dtype's peak FLOP/s
};
void training_step_memory(const TrainingInput& in, StepCounts& counts, TrainingStep& s);
void training_step_time(const TrainingInput& in, const StepCounts& counts, TrainingStep& s);

// Why a plan cannot run, or what to warn about, as bits (allocation-free: what a search reads).
enum PlanProblem : unsigned {
  kTensorHeads = 1u << 0,          // TP does not divide the attention heads
  kTensorKvHeads = 1u << 1,        // ... nor divides nor is a multiple of the KV heads
  kTensorDff = 1u << 2,            // ... does not divide d_ff
  kTensorExpertDff = 1u << 3,      // ... does not divide the experts' d_ff
  kPipelineLayers = 1u << 4,       // more stages than layers
  kVirtualStagesLayers = 1u << 5,  // more stages x virtual stages than layers
  kExpertDense = 1u << 6,          // EP on a dense model
  kExpertTooLarge = 1u << 7,       // EP above the experts
  kExpertNotDivisible = 1u << 8,   // EP does not divide the experts
  kContextSeq = 1u << 9,           // CP does not divide the sequence
  kDcnTensor = 1u << 10,           // TP over DCN
  kDcnContext = 1u << 11,          // CP over DCN
  kBatchNotWholeSequences = 1u << 12,
  kBatchTooSmall = 1u << 13,               // fewer tokens than data shards x microbatches
  kUnevenSplit = 1u << 14,                 // warning: the batch does not split evenly
  kSequenceSharded = 1u << 15,             // warning: sequences are split over data shards or microbatches
  kZero3Pipeline = 1u << 16,               // warning: ZeRO-3 under pipelining
  kFusedGradientsMicrobatches = 1u << 17,  // fused gradients (no buffer) cannot accumulate over microbatches
  kExpertTensor = 1u << 18,                // ETP does not divide TP, or does not divide the experts' d_ff
  kDualPipeStages = 1u << 19,              // DualPipe needs an even number of stages
  kFoldedExperts = 1u << 20,               // EP x TP / ETP does not divide the experts
  kDualPipeMicrobatches = 1u << 21,        // warning: fewer microbatches than DualPipe's schedule is written for
};
constexpr unsigned kPlanWarnings = kUnevenSplit | kSequenceSharded | kZero3Pipeline | kDualPipeMicrobatches;
unsigned plan_problems(const TrainingInput& in);
// plan_problems in two: what the plan's layout on the mesh decides (TP or CP over DCN), and the rest, which the
// degrees and the settings decide (a plan search checks it once for all the layouts of a combination of degrees).
unsigned layout_problems(const TrainingPlan& plan);
unsigned setting_problems(const TrainingInput& in);

// Diagnoses a plan that cannot run (TP not dividing heads or d_ff, more pipeline stages than layers, EP above the
// experts, CP not dividing the sequence, TP or CP over DCN, a batch too small to split); warns about uneven splits,
// split sequences and ZeRO-3 under PP. Paths are under `query_path`. Allocates only to write diagnostics.
void check_training_plan(const TrainingInput& in, const std::string& query_path, Diagnostics& diagnostics);
// The same for the given problem bits only (plan_mesh words the model's splits without a batch).
void describe_plan_problems(const TrainingInput& in, unsigned problems, const std::string& query_path,
                            Diagnostics& diagnostics);

// The bits that say a model (or its sequence) does not split `strategy` ways (TrainingPlan's order: data, fsdp,
// tensor, pipeline, expert, context): what the degrees a strategy may take are checked against.
unsigned split_problems_of(int strategy);

}  // namespace scalescope
