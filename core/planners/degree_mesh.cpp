#include "planners/degree_mesh.h"

#include <algorithm>

#include "io/format.h"
#include "physics/mesh.h"
#include "physics/topology.h"

namespace scalescope {

namespace {

// TPU axes go to the strategies in this order, outermost first: tensor last, on neighbouring chips.
constexpr int kTpuOrder[kLayoutStrategies] = {kDataIndex,   kFsdpIndex,     kContextIndex,
                                              kExpertIndex, kPipelineIndex, kTensorIndex};
// GPU axes, outermost first: tensor innermost, inside the NVLink domain; pipeline outermost, across it.
constexpr int kGpuOrder[kLayoutStrategies] = {kPipelineIndex, kDataIndex,    kFsdpIndex,
                                              kExpertIndex,   kContextIndex, kTensorIndex};

using Factors = std::vector<std::int64_t>;

// Every ordered factorisation of n into k factors, each at least 2 and at most max_factor, non-increasing, the
// largest first factor first (the order the shapes are tried in, so ties go to the first found).
void factorisations(std::int64_t n, int k, std::int64_t max_factor, Factors& prefix, std::vector<Factors>& out) {
  if (k == 1) {
    if (n >= 2 && n <= max_factor) {
      prefix.push_back(n);
      out.push_back(prefix);
      prefix.pop_back();
    }
    return;
  }
  const std::vector<std::int64_t> divisors = divisors_of(n);
  for (auto it = divisors.rbegin(); it != divisors.rend(); ++it) {
    if (*it < 2 || *it > max_factor) continue;
    prefix.push_back(*it);
    factorisations(n / *it, k - 1, *it, prefix, out);
    prefix.pop_back();
  }
}

std::vector<Factors> factorisations(std::int64_t n, int k) {
  std::vector<Factors> out;
  Factors prefix;
  factorisations(n, k, n, prefix, out);
  return out;
}

bool fits_pod(const Hardware& hw, const Factors& shape) {
  if (shape.size() > static_cast<std::size_t>(hw.ici.torus_dims)) return false;
  std::array<int, kMaxTorusDims> torus{1, 1, 1};
  for (std::size_t i = 0; i < shape.size(); ++i) torus[i] = static_cast<int>(shape[i]);
  return tpu_slice_fits(hw.ici, torus);
}

double pod_chips(const Hardware& hw) {
  double chips = 1;
  for (int i = 0; i < hw.ici.torus_dims && i < kMaxTorusDims; ++i)
    chips *= hw.ici.max_slice_shape[i] > 0 ? hw.ici.max_slice_shape[i] : 1;
  return chips;
}

std::string shape_text(const Factors& shape) {
  std::string out;
  for (std::int64_t v : shape) out += (out.empty() ? "" : "x") + std::to_string(v);
  return out;
}

std::int64_t largest(const Factors& shape) { return shape.empty() ? 1 : *std::max_element(shape.begin(), shape.end()); }

std::int64_t sum(const Factors& shape) {
  std::int64_t out = 0;
  for (std::int64_t v : shape) out += v;
  return out;
}

// The whole-axis search: each active strategy takes 1..dims axes (a factorisation of its degree), all within the
// torus's axes; the best slice is the smallest largest axis, then the fewest axes, then the smallest sum.
struct AxisSearch {
  const Hardware& hw;
  const std::vector<int>& active;
  const std::array<std::int64_t, kLayoutStrategies>& degrees;
  std::vector<Factors> parts, best_parts;
  bool found = false;
  std::int64_t best_largest = 0, best_sum = 0;
  int best_axes = 0;

  void run(std::size_t i, int used) {
    const int dims = hw.ici.torus_dims;
    if (i == active.size()) {
      Factors shape;
      for (const Factors& p : parts) shape.insert(shape.end(), p.begin(), p.end());
      if (!fits_pod(hw, shape)) return;
      const std::int64_t big = largest(shape), total = sum(shape);
      const bool better = !found || big < best_largest ||
                          (big == best_largest && (used < best_axes || (used == best_axes && total < best_sum)));
      if (!better) return;
      found = true;
      best_parts = parts;
      best_largest = big;
      best_axes = used;
      best_sum = total;
      return;
    }
    const int later = static_cast<int>(active.size() - i - 1);
    for (int k = 1; k <= dims - used - later; ++k)
      for (const Factors& sizes : factorisations(degrees[active[i]], k)) {
        parts.push_back(sizes);
        run(i + 1, used + k);
        parts.pop_back();
      }
  }
};

// Can each degree take one factor of every axis, so that the factors on each axis multiply to its size?
bool degrees_tile(const Factors& shape, const Factors& degrees, std::size_t next) {
  if (next == degrees.size()) return std::all_of(shape.begin(), shape.end(), [](std::int64_t a) { return a == 1; });
  struct Pick {
    const Factors& degrees;
    std::size_t next;
    bool run(std::size_t axis, std::int64_t left, Factors& rest) const {
      if (axis == rest.size()) return left == 1 && degrees_tile(rest, degrees, next + 1);
      const std::int64_t size = rest[axis];
      for (std::int64_t f : divisors_of(size)) {
        if (left % f != 0) continue;
        rest[axis] = size / f;
        const bool ok = run(axis + 1, left / f, rest);
        rest[axis] = size;
        if (ok) return true;
      }
      return false;
    }
  };
  Factors rest = shape;
  return Pick{degrees, next}.run(0, degrees[next], rest);
}

DegreeMesh problem(const char* code, std::string message) {
  DegreeMesh out;
  out.code = code;
  out.problem = std::move(message);
  return out;
}

void finish(DegreeMesh& out, std::int64_t slices, int dcn_strategy) {
  out.ok = true;
  out.chips_per_slice = 1;
  for (int v : out.shape) out.chips_per_slice *= v;
  if (slices > 1) out.axes[dcn_strategy].push_back(static_cast<int>(out.shape.size()));
  out.chips = out.chips_per_slice * static_cast<double>(slices);
}

void add_axis(DegreeMesh& out, int strategy, std::int64_t size) {
  out.axes[strategy].push_back(static_cast<int>(out.shape.size()));
  out.shape.push_back(static_cast<int>(size));
}

// The most cube-like slice of `chips` on which every active degree takes a factor of each axis: the smallest
// largest axis, then the fewest axes, then the smallest sum, the first found on a tie (false: none).
bool engine_laid_mesh(const DegreeMeshInput& in, const std::vector<int>& active, double chips, DegreeMesh& out) {
  if (active.empty() || (in.slices > 1 && in.degrees[in.dcn_strategy] > 1)) return false;
  Factors degrees, best;
  for (int s : active) degrees.push_back(in.degrees[s]);
  const auto key = [](const Factors& shape) {
    return std::array<std::int64_t, 3>{largest(shape), static_cast<std::int64_t>(shape.size()), sum(shape)};
  };
  for (int k = 1; k <= in.hw->ici.torus_dims; ++k)
    for (const Factors& shape : factorisations(static_cast<std::int64_t>(chips), k))
      if ((best.empty() || key(shape) < key(best)) && fits_pod(*in.hw, shape) && degrees_tile(shape, degrees, 0))
        best = shape;
  if (best.empty()) return false;
  out = DegreeMesh{};
  out.shape.assign(best.begin(), best.end());
  out.engine_layout = true;
  finish(out, in.slices, in.dcn_strategy);
  return true;
}

std::string pod_text(const Hardware& hw) {
  Factors pod;
  for (int i = 0; i < hw.ici.torus_dims; ++i) pod.push_back(hw.ici.max_slice_shape[i]);
  return shape_text(pod);
}

DegreeMesh slice_too_large(const Hardware& hw, double chips) {
  return problem("slice_too_large", format_count(chips) + " chips in these degrees do not fit one " + hw.name +
                                        " slice (largest " + pod_text(hw) + ", " + std::to_string(hw.ici.torus_dims) +
                                        " axes). Use fewer chips per slice, or more slices over DCN.");
}

DegreeMesh tpu_mesh(const DegreeMeshInput& in, const std::vector<int>& active, double chips) {
  const Hardware& hw = *in.hw;
  const int dims = hw.ici.torus_dims;
  DegreeMesh out;
  if (active.size() > static_cast<std::size_t>(dims)) {
    std::string names;
    for (int s : active) names += (names.empty() ? "" : ", ") + std::string(kStrategyLabels[s]);
    out = problem("too_many_axes", hw.name + " is a " + std::to_string(dims) + "D torus: " + names + " need " +
                                       std::to_string(active.size()) + " mesh axes but a slice has only " +
                                       std::to_string(dims) +
                                       ". Set one degree to 1, or join slices over DCN for data parallelism.");
  } else if (chips > pod_chips(hw)) {
    return slice_too_large(hw, chips);  // no shape holds them: search none
  } else {
    AxisSearch search{hw, active, in.degrees, {}, {}};
    search.run(0, 0);
    if (!search.found) {
      std::string names;
      for (int s : active)
        names += (names.empty() ? "" : " x ") + std::string(kStrategyLabels[s]) + " " + std::to_string(in.degrees[s]);
      out = problem("does_not_fit", names + " do not split into whole axes of any " + hw.name + " slice (largest " +
                                        pod_text(hw) + "): each strategy takes one or more whole torus axes, " +
                                        std::to_string(dims) + " in all");
    } else {
      for (std::size_t i = 0; i < active.size(); ++i)
        for (std::int64_t size : search.best_parts[i]) add_axis(out, active[i], size);
      if (out.shape.empty()) add_axis(out, in.slices > 1 ? in.dcn_strategy : kDataIndex, 1);
      finish(out, in.slices, in.dcn_strategy);
      return out;
    }
  }
  DegreeMesh laid;
  if (in.engine_layout && chips <= pod_chips(hw) && engine_laid_mesh(in, active, chips, laid)) return laid;
  return out;
}

}  // namespace

const char* degree_mesh_axis_name(int i, bool dcn) { return dcn ? "DCN" : kDefaultAxisNames[i]; }

DegreeMesh mesh_for_degrees(const DegreeMeshInput& in) {
  const Hardware& hw = *in.hw;
  if (hw.kind == ChipKind::gpu && in.slices > 1)
    return problem("not_applicable", "Slices joined over DCN are a TPU notion; for GPUs raise DP or FSDP instead.");
  double chips = 1;
  std::vector<int> active;
  const int* order = hw.kind == ChipKind::tpu ? kTpuOrder : kGpuOrder;
  for (int i = 0; i < kLayoutStrategies; ++i) {
    const int s = order[i];
    chips *= static_cast<double>(in.degrees[s]);
    if (in.degrees[s] > 1) active.push_back(s);
  }
  if (chips * static_cast<double>(in.slices) > kMaxMeshChips)
    return problem("too_large", "these degrees ask for " + format_count(chips * static_cast<double>(in.slices)) +
                                    " chips; a mesh holds at most 100 million");
  if (hw.kind == ChipKind::tpu) return tpu_mesh(in, active, chips);
  // A GPU mesh gives each strategy one axis, which the mesh reader bounds (issue 41: FSDP 2^23 on GB200 was laid
  // out, then refused by training_step).
  for (int s : active)
    if (in.degrees[s] > kMaxMeshAxisChips)
      return problem("too_large", std::string(kStrategyLabels[s]) + " " +
                                      format_count(static_cast<double>(in.degrees[s])) +
                                      " is one mesh axis of more than " + format_count(kMaxMeshAxisChips) + " GPUs");
  DegreeMesh out;
  for (int s : active) add_axis(out, s, in.degrees[s]);
  if (out.shape.empty()) add_axis(out, kDataIndex, 1);
  finish(out, in.slices, in.dcn_strategy);
  return out;
}

}  // namespace scalescope
