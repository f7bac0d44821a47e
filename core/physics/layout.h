// Logical mesh axes (jax-ml.github.io/scaling-book/sharding: an array dimension sharded over several mesh axes,
// `A[I_XY]`; JAX and MaxText device meshes): a parallelism strategy runs on a group of factors ("pieces") of the mesh
// axes: whole axes, one factor of a 16-long torus axis split 4 x 4, or factors of several axes. This module lays
// strategies' degrees onto a mesh (every distinct layout, or the book's greedy decoding of its training-roofline
// figure, scaling-book/training), derives what each group's collectives run on (TPU rings with or without wraparound
// and with shared links, GPU members and stride, DCN slices) and costs them. Groups are plain data; costing one
// allocates nothing.
#pragma once
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "physics/collectives.h"
#include "physics/mesh.h"

namespace scalescope {

constexpr int kMaxGroupPieces = 8;
constexpr int kMaxLayoutAxes = 7;     // six mesh axes and a DCN axis
constexpr int kLayoutStrategies = 6;  // data, fsdp, tensor, pipeline, expert, context (TrainingPlan's order)
// The strategies' indices in that order, their query keys and their short names in messages.
enum StrategyIndex : int { kDataIndex, kFsdpIndex, kTensorIndex, kPipelineIndex, kExpertIndex, kContextIndex };
inline constexpr const char* kStrategyKeys[kLayoutStrategies] = {"data",     "fsdp",   "tensor",
                                                                 "pipeline", "expert", "context"};
inline constexpr const char* kStrategyLabels[kLayoutStrategies] = {"DP", "FSDP", "TP", "PP", "EP", "CP"};
constexpr int kMaxSlotsPerAxis = kLayoutStrategies;

// `size` positions of mesh axis `axis`, `stride` positions apart along it (the product of the factors laid inside
// this one on the same axis). A whole axis is {axis, size, 1}.
struct AxisPiece {
  int axis = 0;
  int size = 1;
  int stride = 1;
};

// The pieces one strategy runs on, and what its collectives see (derived as pieces are added).
struct AxisGroup {
  std::array<AxisPiece, kMaxGroupPieces> pieces{};
  int count = 0;
  double degree = 1;
  double ici_degree = 1;  // the pieces on the torus / inside the cluster
  double dcn_degree = 1;  // slices spanned over DCN
  int ici_axes = 0;       // mesh axes touched on the torus / in the cluster: the book's M_X, M_Y
                          // (scaling-book/training)
  bool has_dcn = false;
  unsigned axis_mask = 0;
  std::array<TorusRing, kMaxGroupPieces> rings{};  // TPU: one ring (or line) per ICI piece
  int ring_count = 0;
  double gpu_members = 1, gpu_span = 1;  // GPU: members, and the consecutive GPUs their positions span
};

// Adds a piece (or a whole mesh axis) to a group.
void add_piece(AxisGroup& group, const Mesh& mesh, AxisPiece piece);
void add_axis(AxisGroup& group, const Mesh& mesh, int axis);
AxisGroup make_axis_group(const Mesh& mesh, std::initializer_list<int> axes);

// The collective over the group's ICI pieces (its DCN part, if any, is costed by group_dcn_collective): TPU rings
// (scaling-book/sharding, collective costs, with sub-axis rings: tpu_ring_collective), GPU members spaced by their
// inner stride (scaling-book/gpus, collectives).
CollectiveCost group_collective(const Hardware& hw, const Mesh& mesh, const AxisGroup& group, Collective op,
                                double bytes, const CollectiveOptions& options = {});

// The group's DCN leg (scaling-book/training, multi-pod over DCN): the collective among its `dcn_degree` slices, where
// `leg_bytes` is V as one leg's group (one chip per slice) sees it; every chip of the slice runs its own leg over the
// slice's DCN.
CollectiveCost group_dcn_collective(const Hardware& hw, const Mesh& mesh, const AxisGroup& group, Collective op,
                                    double leg_bytes, double traffic_frac = 1.0);

// One-way bandwidth of a hop between neighbouring members (a pipeline stage's send to the next): over DCN when
// the group spans slices, through the scale-out network when its GPUs span more than one NVLink domain, else one
// ICI link or NVLink (scaling-book/tpus and scaling-book/gpus). The slowest hop sets the pace.
double group_hop_unidir_bytes_per_s(const Hardware& hw, const Mesh& mesh, const AxisGroup& group);

// A layout: per mesh axis, the factors laid on it from the innermost (stride 1) out, each a strategy's; their
// product is the axis size.
struct LayoutSlot {
  int strategy = 0;
  int size = 1;
};
struct MeshLayout {
  std::array<std::array<LayoutSlot, kMaxSlotsPerAxis>, kMaxLayoutAxes> slots{};
  std::array<int, kMaxLayoutAxes> slot_count{};
};

// The groups of a layout, one per strategy (pieces in mesh-axis order).
void layout_groups(const Mesh& mesh, const MeshLayout& layout, std::array<AxisGroup, kLayoutStrategies>& groups);

// What a layout may do: each strategy's degree; strategies given as explicit pieces (`fixed_size[axis][s]` > 0,
// `fixed_stride` > 0 pins the order) take only those; `dcn_strategies` (a bit per strategy) may take DCN factors.
struct LayoutRules {
  std::array<int, kLayoutStrategies> degrees{1, 1, 1, 1, 1, 1};
  std::array<std::array<int, kLayoutStrategies>, kMaxLayoutAxes> fixed_size{};
  std::array<std::array<int, kLayoutStrategies>, kMaxLayoutAxes> fixed_stride{};
  unsigned explicit_strategies = 0;
  unsigned dcn_strategies = ~0u;
  int max_slots_per_torus_axis = kMaxSlotsPerAxis;  // strategies sharing one physical TPU axis
};

// Calls `visit` for every distinct layout of the rules (at most one factor per strategy per axis; torus axes of the
// same size and wraparound are interchangeable and counted once; the order on the DCN axis does not matter), in a
// fixed order, until it returns false. Returns how many layouts were visited. Allocation-free.
using LayoutVisitor = bool (*)(const MeshLayout& layout, void* context);
std::int64_t for_each_layout(const Mesh& mesh, const LayoutRules& rules, LayoutVisitor visit, void* context);
std::int64_t count_layouts(const Mesh& mesh, const LayoutRules& rules);
// The same, stopping once it passes `cap`: cap + 1 means "more than cap" (a huge mesh can hold millions).
std::int64_t count_layouts(const Mesh& mesh, const LayoutRules& rules, std::int64_t cap);

// The divisors of n, ascending, found up to sqrt(n): a mesh can hold 1e8 chips, a batch as many sequences.
std::vector<std::int64_t> divisors_of(std::int64_t n);

// The degrees a strategy could take on this mesh alone (products of one divisor per axis), for diagnostics.
std::vector<int> degrees_that_fit(const Mesh& mesh, bool include_dcn);

// The book's decoding (scaling-book/training, the training-roofline figure): lay `degree` greedily onto the axes in
// order from (axis, used); returns the axes it touches and moves (axis, used) past it. 512-way FSDP then 8-way TP on
// 16x16x16 touch 3 and 1 axes.
int place_in_order(double degree, const Mesh& mesh, int& axis, double& used);

}  // namespace scalescope
