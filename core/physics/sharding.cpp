#include "physics/sharding.h"

#include <algorithm>
#include <cctype>
#include <functional>

#include "io/limits.h"
#include "io/text.h"

namespace scalescope {

bool ShardedArray::uses_axis(int axis) const {
  for (const auto& d : dims)
    if (std::find(d.axes.begin(), d.axes.end(), axis) != d.axes.end()) return true;
  return std::find(unreduced.begin(), unreduced.end(), axis) != unreduced.end();
}

const ShardedDim* ShardedArray::dim(const std::string& dim_name) const {
  for (const auto& d : dims)
    if (d.name == dim_name) return &d;
  return nullptr;
}

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// Splits "XY" into mesh axes by longest match; returns false (with a diagnostic) on an unknown remainder.
bool split_axes(std::string_view text, const Mesh& mesh, std::vector<int>& out, const std::string& path,
                Diagnostics& d) {
  while (!text.empty()) {
    int best = -1;
    std::size_t best_len = 0;
    for (std::size_t i = 0; i < mesh.axes.size(); ++i) {
      const std::string& n = mesh.axes[i].name;
      if (n.size() > best_len && text.substr(0, n.size()) == n) {
        best = static_cast<int>(i);
        best_len = n.size();
      }
    }
    if (best < 0) {
      add_diagnostic(d, path, "unknown_mesh_axis",
                     "unknown mesh axis in " + quote(text) + "; mesh axes: " + join_choices(mesh.names()));
      return false;
    }
    out.push_back(best);
    text.remove_prefix(best_len);
  }
  return true;
}

std::string axes_text(const std::vector<int>& axes, const Mesh& mesh) {
  std::string s;
  for (int a : axes) s += mesh.axes[a].name;
  return s;
}

double shards(const std::vector<int>& axes, const Mesh& mesh) {
  double n = 1;
  for (int a : axes) n *= mesh.axes[a].size;
  return n;
}

}  // namespace

std::optional<ShardedArray> parse_sharded_array(std::string_view text, const Mesh& mesh, const std::string& path,
                                                Diagnostics& d) {
  const std::size_t before = d.size();
  text = trim(text);
  ShardedArray arr;
  std::size_t i = 0;
  while (i < text.size() && is_name_char(text[i])) ++i;
  arr.name = std::string(text.substr(0, i));
  const std::size_t open = text.find('['), close = text.find(']');
  if (arr.name.empty() || open != i || close == std::string_view::npos || close < open) {
    add_diagnostic(d, path, "bad_sharding",
                   "cannot read " + quote(text) + "; write an array as NAME[DIM_AXES, ...], e.g. A[I_X, J]");
    return std::nullopt;
  }
  std::string_view body = text.substr(open + 1, close - open - 1);
  // Bounded work (issue 12): a matmul tries every reduce-or-gather choice per contracting dimension, 2^dims plans.
  if (std::count(body.begin(), body.end(), ',') >= static_cast<std::ptrdiff_t>(kMaxArrayDims)) {
    add_diagnostic(d, path, "too_large", "an array has at most " + std::to_string(kMaxArrayDims) + " dimensions");
    return std::nullopt;
  }
  while (true) {
    const std::size_t comma = body.find(',');
    std::string_view item = trim(body.substr(0, comma));
    const std::size_t underscore = item.find('_');
    ShardedDim dim{std::string(trim(item.substr(0, underscore))), {}};
    if (dim.name.empty() || !std::all_of(dim.name.begin(), dim.name.end(), is_name_char))
      add_diagnostic(d, path, "bad_sharding", "bad dimension " + quote(item) + " in " + quote(text));
    if (underscore != std::string_view::npos) split_axes(trim(item.substr(underscore + 1)), mesh, dim.axes, path, d);
    arr.dims.push_back(std::move(dim));
    if (comma == std::string_view::npos) break;
    body.remove_prefix(comma + 1);
  }
  std::string_view rest = trim(text.substr(close + 1));
  if (!rest.empty()) {
    if (rest.size() < 4 || rest.substr(0, 3) != "{U_" || rest.back() != '}')
      add_diagnostic(d, path, "bad_sharding", "after ']' only an unreduced mark like {U_X} may follow, got " + quote(rest));
    else
      split_axes(rest.substr(3, rest.size() - 4), mesh, arr.unreduced, path, d);
  }
  // §2.3: a mesh axis may appear at most once per array.
  std::vector<int> all;
  for (const auto& dim : arr.dims) all.insert(all.end(), dim.axes.begin(), dim.axes.end());
  all.insert(all.end(), arr.unreduced.begin(), arr.unreduced.end());
  std::sort(all.begin(), all.end());
  for (std::size_t k = 1; k < all.size(); ++k)
    if (all[k] == all[k - 1])
      add_diagnostic(d, path, "axis_reused",
                     "mesh axis '" + mesh.axes[all[k]].name + "' is used twice in " + arr.name +
                         "; an axis may shard at most one dimension of an array");
  for (std::size_t a = 0; a < arr.dims.size(); ++a)
    for (std::size_t b = 0; b < a; ++b)
      if (arr.dims[a].name == arr.dims[b].name)
        add_diagnostic(d, path, "dim_reused", "dimension '" + arr.dims[a].name + "' appears twice in " + arr.name);
  if (d.size() != before) return std::nullopt;
  return arr;
}

std::string format_sharded_array(const ShardedArray& arr, const Mesh& mesh) {
  std::string s = arr.name + "[";
  for (std::size_t i = 0; i < arr.dims.size(); ++i) {
    if (i) s += ", ";
    s += arr.dims[i].name;
    if (!arr.dims[i].axes.empty()) s += "_" + axes_text(arr.dims[i].axes, mesh);
  }
  s += "]";
  if (!arr.unreduced.empty()) s += "{U_" + axes_text(arr.unreduced, mesh) + "}";
  return s;
}

void check_array_sizes(const ShardedArray& arr, const DimSizes& sizes, const Mesh& mesh, const std::string& dims_path,
                       Diagnostics& d) {
  for (const auto& dim : arr.dims) {
    auto it = sizes.find(dim.name);
    if (it == sizes.end()) {
      add_diagnostic(d, dims_path, "missing_dim_size", "no size for dimension '" + dim.name + "' of " + arr.name + "; add it to 'dims'");
      continue;
    }
    const double n = shards(dim.axes, mesh);
    if (std::fmod(it->second, n) != 0)
      add_diagnostic(d, json_pointer_child(dims_path, dim.name), "not_divisible",
                     "dimension '" + dim.name + "' (" + std::to_string(static_cast<long long>(it->second)) +
                         ") is not divisible by its " + std::to_string(static_cast<long long>(n)) + " shards");
  }
}

ArrayMemory array_memory(const ShardedArray& arr, const DimSizes& sizes, Dtype dtype, const Mesh& mesh) {
  ArrayMemory m;
  m.elements = 1;
  double local = 1;
  for (const auto& dim : arr.dims) {
    const double size = sizes.count(dim.name) ? sizes.at(dim.name) : 0;
    m.elements *= size;
    m.local_shape.push_back(size / shards(dim.axes, mesh));
    local *= m.local_shape.back();
  }
  for (std::size_t a = 0; a < mesh.axes.size(); ++a)
    if (!arr.uses_axis(static_cast<int>(a))) m.replication *= mesh.axes[a].size;
  m.bytes_per_device = local * bytes_per_element(dtype);
  m.total_bytes_all_devices = m.bytes_per_device * mesh.chips;
  return m;
}

namespace {

struct MatmulContext {
  const DimSizes& sizes;
  Dtype dtype;
  const Hardware& hw;
  const Mesh& mesh;
  const CollectiveOptions& options;
};

double local_bytes(const ShardedArray& arr, const MatmulContext& ctx) {
  return array_memory(arr, ctx.sizes, ctx.dtype, ctx.mesh).bytes_per_device;
}

void add_step(MatmulPlan& plan, Collective op, ShardedArray& arr, const std::vector<int>& axes,
              const std::function<void(ShardedArray&)>& change, const MatmulContext& ctx) {
  if (axes.empty()) return;
  CommStep step;
  step.op = op;
  step.array = arr.name;
  step.before = format_sharded_array(arr, ctx.mesh);
  step.axes = axes;
  // V is the larger side of the collective: after an AllGather, before a ReduceScatter / AllReduce (§2.5).
  const double bytes_before = local_bytes(arr, ctx);
  change(arr);
  step.after = format_sharded_array(arr, ctx.mesh);
  step.bytes = op == Collective::all_gather ? local_bytes(arr, ctx) : bytes_before;
  step.cost = mesh_collective(ctx.hw, ctx.mesh, op, step.bytes, axes.data(), static_cast<int>(axes.size()), ctx.options);
  plan.steps.push_back(std::move(step));
}

void remove_axes(std::vector<int>& from, const std::vector<int>& axes) {
  from.erase(std::remove_if(from.begin(), from.end(),
                            [&](int a) { return std::find(axes.begin(), axes.end(), a) != axes.end(); }),
             from.end());
}

// Gathers `arr` over `axes` wherever they shard it.
void gather(MatmulPlan& plan, ShardedArray& arr, const std::vector<int>& axes, const MatmulContext& ctx) {
  add_step(plan, Collective::all_gather, arr, axes, [&](ShardedArray& a) { for (auto& dim : a.dims) remove_axes(dim.axes, axes); }, ctx);
}

struct Decisions {
  bool gather_a_for_conflicts = true;       // case 4: gather A (else B)
  std::vector<bool> reduce_instead;         // case 2, per contracting dim: slice + reduce instead of gather
};

MatmulPlan build_plan(ShardedArray a, ShardedArray b, const std::optional<ShardedArray>& want,
                      const std::vector<std::string>& contracting, const std::vector<int>& conflicts,
                      const Decisions& dec, const MatmulContext& ctx) {
  MatmulPlan plan;
  std::vector<std::string> names;
  if (!conflicts.empty()) {
    gather(plan, dec.gather_a_for_conflicts ? a : b, conflicts, ctx);
    names.push_back(dec.gather_a_for_conflicts ? "gather_A" : "gather_B");
  }
  std::vector<int> unreduced;
  for (std::size_t i = 0; i < contracting.size(); ++i) {
    auto find_dim = [&](ShardedArray& arr) {
      return std::find_if(arr.dims.begin(), arr.dims.end(), [&](const ShardedDim& dd) { return dd.name == contracting[i]; });
    };
    auto da = find_dim(a), db = find_dim(b);
    if (da->axes == db->axes) {  // cases 1 and 3
      unreduced.insert(unreduced.end(), da->axes.begin(), da->axes.end());
      continue;
    }
    const bool only_a = db->axes.empty(), only_b = da->axes.empty();
    ShardedArray& sharded = only_a ? a : b;
    ShardedArray& other = only_a ? b : a;
    const std::vector<int> axes = only_a ? da->axes : db->axes;
    const bool can_slice = (only_a || only_b) &&
                           std::none_of(axes.begin(), axes.end(), [&](int x) { return other.uses_axis(x); });
    if ((only_a || only_b) && dec.reduce_instead[i] && can_slice) {
      (only_a ? db : da)->axes = axes;  // a local slice of the replicated operand: free
      unreduced.insert(unreduced.end(), axes.begin(), axes.end());
      names.push_back("multiply_then_reduce");
    } else if (only_a || only_b) {
      gather(plan, sharded, axes, ctx);
      names.push_back("gather_then_multiply");
    } else {
      gather(plan, a, da->axes, ctx);
      gather(plan, b, db->axes, ctx);
      names.push_back("gather_both");
    }
  }
  // The local matmul: every dim once, at its local size.
  double local_elements = 1;
  ShardedArray out{"C", {}, unreduced};
  if (want) out.name = want->name;
  for (const ShardedArray* arr : {&a, &b})
    for (const auto& dim : arr->dims) {
      const bool is_contracting = std::find(contracting.begin(), contracting.end(), dim.name) != contracting.end();
      if (is_contracting && arr == &b) continue;
      local_elements *= ctx.sizes.at(dim.name) / shards(dim.axes, ctx.mesh);
      if (!is_contracting) out.dims.push_back(dim);
    }
  plan.flops_per_device = 2.0 * local_elements;
  plan.local_op = format_sharded_array(a, ctx.mesh) + " * " + format_sharded_array(b, ctx.mesh) + " -> " +
                  format_sharded_array(out, ctx.mesh);
  // Finish: reduce the partial sums, then match the requested output sharding.
  if (!unreduced.empty()) {
    std::vector<int> scatter, reduce;
    for (int x : unreduced) {
      const bool wanted_sharded = want && std::any_of(want->dims.begin(), want->dims.end(), [&](const ShardedDim& dd) {
        return std::find(dd.axes.begin(), dd.axes.end(), x) != dd.axes.end();
      });
      const bool wanted_unreduced =
          want && std::find(want->unreduced.begin(), want->unreduced.end(), x) != want->unreduced.end();
      if (wanted_unreduced) continue;
      (wanted_sharded ? scatter : reduce).push_back(x);
    }
    add_step(plan, Collective::reduce_scatter, out, scatter, [&](ShardedArray& c) {
      remove_axes(c.unreduced, scatter);
      for (auto& dim : c.dims)
        for (const auto& wd : want->dims)
          if (wd.name == dim.name)
            for (int x : scatter)
              if (std::find(wd.axes.begin(), wd.axes.end(), x) != wd.axes.end()) dim.axes.push_back(x);
    }, ctx);
    add_step(plan, Collective::all_reduce, out, reduce, [&](ShardedArray& c) { remove_axes(c.unreduced, reduce); }, ctx);
  }
  if (want) {
    std::vector<int> extra;
    for (const auto& dim : out.dims)
      if (const ShardedDim* wd = want->dim(dim.name))
        for (int x : dim.axes)
          if (std::find(wd->axes.begin(), wd->axes.end(), x) == wd->axes.end()) extra.push_back(x);
    gather(plan, out, extra, ctx);
  }
  plan.output = format_sharded_array(out, ctx.mesh);
  plan.name = names.empty() ? "local" : names.front();
  for (std::size_t i = 1; i < names.size(); ++i) plan.name += "+" + names[i];
  plan.compute_s = plan.flops_per_device / ctx.hw.peak(ctx.dtype);
  for (const auto& s : plan.steps) plan.comms_s += s.cost.time_s;
  plan.lower_bound_s = std::max(plan.compute_s, plan.comms_s);
  plan.upper_bound_s = plan.compute_s + plan.comms_s;
  return plan;
}

}  // namespace

std::optional<ShardedMatmul> analyse_sharded_matmul(std::string_view expression, const DimSizes& sizes, Dtype dtype,
                                                    const Hardware& hw, const Mesh& mesh,
                                                    const CollectiveOptions& options, const std::string& path,
                                                    const std::string& dims_path, Diagnostics& d) {
  const std::size_t before = d.size();
  std::string_view lhs = expression, rhs;
  if (auto arrow = expression.find("->"); arrow != std::string_view::npos) {
    lhs = expression.substr(0, arrow);
    rhs = expression.substr(arrow + 2);
  }
  const std::size_t star = lhs.find_first_of("*@");
  if (star == std::string_view::npos) {
    add_diagnostic(d, path, "bad_sharding", "write a matmul as 'A[I_X, J] * B[J, K]' (optionally '-> C[I_X, K]')");
    return std::nullopt;
  }
  auto a = parse_sharded_array(lhs.substr(0, star), mesh, path, d);
  auto b = parse_sharded_array(lhs.substr(star + 1), mesh, path, d);
  std::optional<ShardedArray> want;
  if (!trim(rhs).empty()) want = parse_sharded_array(rhs, mesh, path, d);
  if (!a || !b || (!trim(rhs).empty() && !want)) return std::nullopt;
  check_array_sizes(*a, sizes, mesh, dims_path, d);
  check_array_sizes(*b, sizes, mesh, dims_path, d);
  if (want) check_array_sizes(*want, sizes, mesh, dims_path, d);
  std::vector<std::string> used;
  for (const ShardedArray* arr : {&*a, &*b})
    for (const auto& dim : arr->dims)
      if (std::find(used.begin(), used.end(), dim.name) == used.end()) used.push_back(dim.name);
  for (const auto& [name, size] : sizes)
    if (!a->dim(name) && !b->dim(name))
      add_diagnostic(d, json_pointer_child(dims_path, name), "unknown_dim",
                     "no array uses dimension " + quote(name) + "; the arrays' dimensions: " + join_choices(used));

  std::vector<std::string> contracting;
  for (const auto& dim : a->dims)
    if (b->dim(dim.name)) contracting.push_back(dim.name);
  if (contracting.empty())
    add_diagnostic(d, path, "no_contracting_dim", "A and B share no dimension to contract over");
  if (want)
    for (const auto& dim : want->dims)
      if (std::find(contracting.begin(), contracting.end(), dim.name) != contracting.end() ||
          (!a->dim(dim.name) && !b->dim(dim.name)))
        add_diagnostic(d, path, "bad_output", "output dimension '" + dim.name + "' is not a free dimension of A or B");
  if (d.size() != before) return std::nullopt;

  // §2.4 case 4: one mesh axis shards a free dimension of both inputs.
  std::vector<int> conflicts;
  for (const auto& da : a->dims) {
    if (b->dim(da.name)) continue;
    for (int x : da.axes)
      for (const auto& db : b->dims)
        if (!a->dim(db.name) && std::find(db.axes.begin(), db.axes.end(), x) != db.axes.end()) conflicts.push_back(x);
  }
  ShardedMatmul result;
  bool any_single = false, any_both = false;
  for (const auto& name : contracting) {
    const auto& xa = a->dim(name)->axes;
    const auto& xb = b->dim(name)->axes;
    if (xa == xb && !xa.empty()) any_both = true;
    if (xa != xb) any_single = true;
  }
  result.book_case = !conflicts.empty() ? 4 : any_single ? 2 : any_both ? 3 : 1;
  static const char* kCase[] = {"",
                                "case 1: no contracting dimension is sharded; multiply locally, no communication",
                                "case 2: one input is sharded on the contracting dimension; gather it first, or "
                                "multiply the local slices and reduce the partial sums",
                                "case 3: both inputs are sharded the same way on the contracting dimension; multiply "
                                "locally, then AllReduce (or ReduceScatter) the partial sums",
                                "case 4: one mesh axis shards a free dimension of both inputs, which is invalid as is; "
                                "AllGather one input first"};
  result.description = kCase[result.book_case];
  result.total_flops = 2.0;
  for (const auto& dim : a->dims) result.total_flops *= sizes.at(dim.name);
  for (const auto& dim : b->dims)
    if (!a->dim(dim.name)) result.total_flops *= sizes.at(dim.name);

  const MatmulContext ctx{sizes, dtype, hw, mesh, options};
  const std::size_t n = contracting.size();
  for (int conflict_choice = 0; conflict_choice < (conflicts.empty() ? 1 : 2); ++conflict_choice)
    for (std::size_t mask = 0; mask < (std::size_t{1} << n); ++mask) {
      Decisions dec{conflict_choice == 0, std::vector<bool>(n)};
      for (std::size_t i = 0; i < n; ++i) dec.reduce_instead[i] = (mask >> i) & 1;
      MatmulPlan plan = build_plan(*a, *b, want, contracting, conflicts, dec, ctx);
      const bool seen = std::any_of(result.plans.begin(), result.plans.end(),
                                    [&](const MatmulPlan& p) { return p.local_op == plan.local_op && p.steps.size() == plan.steps.size(); });
      if (!seen) result.plans.push_back(std::move(plan));
    }
  std::stable_sort(result.plans.begin(), result.plans.end(),
                   [](const MatmulPlan& x, const MatmulPlan& y) { return x.lower_bound_s < y.lower_bound_s; });
  return result;
}

}  // namespace scalescope
