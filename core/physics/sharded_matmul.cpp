#include "physics/sharded_matmul.h"

#include <algorithm>
#include <functional>

namespace scalescope {

namespace {

struct MatmulContext {
  const DimSizes& sizes;
  Dtype dtype;
  const Hardware& hw;
  const Mesh& mesh;
  const CollectiveOptions& options;
};

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }
bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

ShardedDim* find_dim(ShardedArray& arr, const std::string& name) {
  for (auto& d : arr.dims)
    if (d.name == name) return &d;
  return nullptr;
}

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
  // V is the larger side of the collective: after an AllGather, before a ReduceScatter / AllReduce
  // (scaling-book/sharding).
  const double bytes_before = local_bytes(arr, ctx);
  change(arr);
  step.after = format_sharded_array(arr, ctx.mesh);
  step.bytes = op == Collective::all_gather ? local_bytes(arr, ctx) : bytes_before;
  step.cost =
      mesh_collective(ctx.hw, ctx.mesh, op, step.bytes, axes.data(), static_cast<int>(axes.size()), ctx.options);
  plan.steps.push_back(std::move(step));
}

void remove_axes(std::vector<int>& from, const std::vector<int>& axes) {
  from.erase(std::remove_if(from.begin(), from.end(), [&](int a) { return contains(axes, a); }), from.end());
}

// Does gathering `axes` out of a dimension split over `split` (major axis first, scaling-book/sharding, notation: the
// order matters) leave an interleaved split? Only a gather of the minor-most axes leaves each shard a contiguous block.
bool gather_interleaves(const std::vector<int>& split, const std::vector<int>& axes) {
  bool kept_after = false;  // a kept axis seen, walking from the minor end
  for (auto x = split.rbegin(); x != split.rend(); ++x) {
    if (!contains(axes, *x))
      kept_after = true;
    else if (kept_after)
      return true;  // a gathered axis more major than a kept one
  }
  return false;
}

// Gathers `arr` over `axes` wherever they shard it.
void gather(MatmulPlan& plan, ShardedArray& arr, const std::vector<int>& axes, const MatmulContext& ctx) {
  const bool interleaved = std::any_of(arr.dims.begin(), arr.dims.end(),
                                       [&](const ShardedDim& d) { return gather_interleaves(d.axes, axes); });
  add_step(
      plan, Collective::all_gather, arr, axes,
      [&](ShardedArray& a) {
        for (auto& dim : a.dims) remove_axes(dim.axes, axes);
      },
      ctx);
  if (interleaved && !plan.steps.empty()) {
    plan.steps.back().interleaved = true;
    plan.steps.back().after += " (interleaved)";
  }
}

// The dimensions' roles (scaling-book/transformers, the contraction rule): contracted (both inputs, not the output),
// batch (both inputs and the output); the rest are free (one input).
struct Roles {
  std::vector<std::string> contracting, batch;
};

struct Decisions {
  bool gather_a_for_conflicts = true;  // case 4: gather A (else B)
  std::vector<bool> reduce_instead;    // case 2, per contracting dim: slice + reduce instead of gather
  bool batch_follow_a = true;          // a batch dim sharded differently: B takes A's sharding (else A B's)
};

bool unused_by(const ShardedArray& arr, const std::vector<int>& axes) {
  return std::none_of(axes.begin(), axes.end(), [&](int x) { return arr.uses_axis(x); });
}

// Both inputs must split a batch dimension the same way. A side replicated over the other's axes takes its local
// slice (free). A side sharded otherwise is gathered over its own axes of that dimension and then sliced to the
// other's (X[B_X, D] * W[B_Y, D, F]: gather W over Y, slice it to B_X; issue 22); only when that slice would reuse an
// axis the side already shards do both gather the dimension.
void align_batch(MatmulPlan& plan, ShardedArray& a, ShardedArray& b, const Roles& roles, bool follow_a,
                 std::vector<std::string>& names, const MatmulContext& ctx) {
  for (const auto& name : roles.batch) {
    ShardedDim* da = find_dim(a, name);
    ShardedDim* db = find_dim(b, name);
    if (da->axes == db->axes) continue;
    if (db->axes.empty() && unused_by(b, da->axes)) {
      db->axes = da->axes;
      continue;
    }
    if (da->axes.empty() && unused_by(a, db->axes)) {
      da->axes = db->axes;
      continue;
    }
    ShardedArray& moved = follow_a ? b : a;
    ShardedDim* dm = follow_a ? db : da;
    const std::vector<int> target = follow_a ? da->axes : db->axes, own = dm->axes;
    ShardedArray without = moved;
    remove_axes(find_dim(without, name)->axes, own);
    if (unused_by(without, target)) {
      gather(plan, moved, own, ctx);
      dm->axes = target;  // then a local slice: free
      names.push_back(follow_a ? "reshard_batch_B" : "reshard_batch_A");
    } else {
      const std::vector<int> xa = da->axes, xb = db->axes;
      gather(plan, a, xa, ctx);
      gather(plan, b, xb, ctx);
      names.push_back("gather_batch");
    }
  }
}

// A wanted output sharding over an axis neither input uses yet (and no partial sum is pending over): slice the
// input that holds that dimension locally before multiplying (free), so each device computes only its shard.
void slice_for_output(ShardedArray& a, ShardedArray& b, const ShardedArray& want, const std::vector<int>& unreduced,
                      const Roles& roles) {
  for (const auto& wd : want.dims)
    for (int x : wd.axes) {
      if (contains(unreduced, x) || a.uses_axis(x) || b.uses_axis(x)) continue;
      const bool batch = contains(roles.batch, wd.name);
      if (ShardedDim* da = find_dim(a, wd.name)) da->axes.push_back(x);
      if (ShardedDim* db = find_dim(b, wd.name); db && (batch || !find_dim(a, wd.name))) db->axes.push_back(x);
    }
}

// scaling-book/roofline: the plan's lower bound is the slowest of compute, HBM and communication; its upper bound their
// sum.
void finish_times(MatmulPlan& plan, const MatmulContext& ctx) {
  plan.compute_s = plan.flops_per_device / ctx.hw.peak(ctx.dtype);
  plan.memory_s = plan.hbm_bytes_per_device / ctx.hw.hbm_bandwidth_bytes_per_s;
  for (const auto& s : plan.steps) plan.comms_s += s.cost.time_s;
  plan.lower_bound_s = std::max({plan.compute_s, plan.memory_s, plan.comms_s});
  plan.upper_bound_s = plan.compute_s + plan.memory_s + plan.comms_s;
  plan.bound = plan.comms_s > plan.compute_s && plan.comms_s > plan.memory_s ? "communication"
               : plan.memory_s > plan.compute_s                              ? "memory"
                                                                             : "compute";
}

// The contracting dimensions made local (scaling-book/sharding, cases 1-3): each sharded the same way in both inputs
// stays, its partial sums to reduce; one sharded in one input only is gathered, or its slice of the other taken and
// the partial sums reduced (`dec`); one sharded differently in both is gathered in both. Returns the mesh axes whose
// partial sums are left unreduced.
std::vector<int> make_contraction_local(MatmulPlan& plan, ShardedArray& a, ShardedArray& b, const Roles& roles,
                                        const Decisions& dec, std::vector<std::string>& names,
                                        const MatmulContext& ctx) {
  std::vector<int> unreduced;
  for (std::size_t i = 0; i < roles.contracting.size(); ++i) {
    ShardedDim* da = find_dim(a, roles.contracting[i]);
    ShardedDim* db = find_dim(b, roles.contracting[i]);
    if (da->axes == db->axes) {  // cases 1 and 3
      unreduced.insert(unreduced.end(), da->axes.begin(), da->axes.end());
      continue;
    }
    const bool only_a = db->axes.empty(), only_b = da->axes.empty();
    ShardedArray& sharded = only_a ? a : b;
    ShardedArray& other = only_a ? b : a;
    const std::vector<int> axes = only_a ? da->axes : db->axes;
    const bool can_slice =
        (only_a || only_b) && std::none_of(axes.begin(), axes.end(), [&](int x) { return other.uses_axis(x); });
    if ((only_a || only_b) && dec.reduce_instead[i] && can_slice) {
      (only_a ? db : da)->axes = axes;  // a local slice of the replicated operand: free
      unreduced.insert(unreduced.end(), axes.begin(), axes.end());
      names.push_back("multiply_then_reduce");
    } else if (only_a || only_b) {
      gather(plan, sharded, axes, ctx);
      names.push_back("gather_then_multiply");
    } else {
      const std::vector<int> xa = da->axes, xb = db->axes;
      gather(plan, a, xa, ctx);
      gather(plan, b, xb, ctx);
      names.push_back("gather_both");
    }
  }
  return unreduced;
}

// The local matmul: every dim once, at its local size; the output keeps the batch and free dims. Its FLOPs and HBM
// bytes per device go into `plan`; the output, its partial sums unreduced, is returned.
ShardedArray multiply_locally(MatmulPlan& plan, const ShardedArray& a, const ShardedArray& b,
                              const std::optional<ShardedArray>& want, const Roles& roles,
                              const std::vector<int>& unreduced, const MatmulContext& ctx) {
  double local_elements = 1;
  ShardedArray out{"C", {}, unreduced};
  if (want) out.name = want->name;
  for (const ShardedArray* arr : {&a, &b})
    for (const auto& dim : arr->dims) {
      const bool is_contracting = contains(roles.contracting, dim.name);
      if ((is_contracting || contains(roles.batch, dim.name)) && arr == &b) continue;
      local_elements *= ctx.sizes.at(dim.name) / shard_count(dim.axes, ctx.mesh);
      if (!is_contracting) out.dims.push_back(dim);
    }
  plan.flops_per_device = 2.0 * local_elements;
  plan.hbm_bytes_per_device = local_bytes(a, ctx) + local_bytes(b, ctx) + local_bytes(out, ctx);
  plan.local_op = format_sharded_array(a, ctx.mesh) + " * " + format_sharded_array(b, ctx.mesh) + " -> " +
                  format_sharded_array(out, ctx.mesh);
  return out;
}

// The partial sums reduced: ReduceScatter over the axes the output wants sharded, AllReduce over the rest (none over
// the axes it wants unreduced).
void reduce_partial_sums(MatmulPlan& plan, ShardedArray& out, const std::optional<ShardedArray>& want,
                         const std::vector<int>& unreduced, const MatmulContext& ctx) {
  std::vector<int> scatter, reduce;
  for (int x : unreduced) {
    const bool wanted_sharded = want && std::any_of(want->dims.begin(), want->dims.end(),
                                                    [&](const ShardedDim& dd) { return contains(dd.axes, x); });
    const bool wanted_unreduced = want && contains(want->unreduced, x);
    if (wanted_unreduced) continue;
    (wanted_sharded ? scatter : reduce).push_back(x);
  }
  add_step(
      plan, Collective::reduce_scatter, out, scatter,
      [&](ShardedArray& c) {
        remove_axes(c.unreduced, scatter);
        for (auto& dim : c.dims)
          if (const ShardedDim* wd = want->dim(dim.name))
            for (int x : scatter)
              if (contains(wd->axes, x)) dim.axes.push_back(x);
      },
      ctx);
  add_step(
      plan, Collective::all_reduce, out, reduce, [&](ShardedArray& c) { remove_axes(c.unreduced, reduce); }, ctx);
}

// The output sharded as asked: what it wants whole is gathered; a wanted shard of a replicated result is a free
// local slice.
void match_output(MatmulPlan& plan, ShardedArray& out, const ShardedArray& want, std::vector<std::string>& names,
                  const MatmulContext& ctx) {
  std::vector<int> extra;
  for (const auto& dim : out.dims)
    if (const ShardedDim* wd = want.dim(dim.name))
      for (int x : dim.axes)
        if (!contains(wd->axes, x)) extra.push_back(x);
  gather(plan, out, extra, ctx);
  if (!extra.empty()) names.push_back("gather_output");  // a sharded result the output wants whole
  for (auto& dim : out.dims)
    if (const ShardedDim* wd = want.dim(dim.name))
      for (int x : wd->axes)
        if (!out.uses_axis(x)) dim.axes.push_back(x);
}

MatmulPlan build_plan(ShardedArray a, ShardedArray b, const std::optional<ShardedArray>& want, const Roles& roles,
                      const std::vector<int>& conflicts, const Decisions& dec, const MatmulContext& ctx) {
  MatmulPlan plan;
  std::vector<std::string> names;
  if (!conflicts.empty()) {
    gather(plan, dec.gather_a_for_conflicts ? a : b, conflicts, ctx);
    names.push_back(dec.gather_a_for_conflicts ? "gather_A" : "gather_B");
  }
  const std::vector<int> unreduced = make_contraction_local(plan, a, b, roles, dec, names, ctx);
  align_batch(plan, a, b, roles, dec.batch_follow_a, names, ctx);
  if (want) slice_for_output(a, b, *want, unreduced, roles);
  ShardedArray out = multiply_locally(plan, a, b, want, roles, unreduced, ctx);
  // Finish: reduce the partial sums, then match the requested output sharding.
  const std::size_t steps_before_reduction = plan.steps.size();
  if (!unreduced.empty()) reduce_partial_sums(plan, out, want, unreduced, ctx);
  // Case 3 reduces its partial sums with no other step to name it (issue 22).
  if (names.empty() && plan.steps.size() > steps_before_reduction) names.push_back("multiply_then_reduce");
  if (want) match_output(plan, out, *want, names, ctx);
  plan.output = format_sharded_array(out, ctx.mesh);
  plan.name = names.empty() ? "local" : names.front();
  for (std::size_t i = 1; i < names.size(); ++i) plan.name += "+" + names[i];
  finish_times(plan, ctx);
  return plan;
}

// Reads the roles of the dimensions and reports what makes the expression invalid; warns when einsum's implicit
// rule contracts several shared dimensions (the user may have meant a batch dimension).
Roles read_roles(const ShardedArray& a, const ShardedArray& b, const std::optional<ShardedArray>& want,
                 const std::string& path, Diagnostics& d) {
  Roles roles;
  std::vector<std::string> shared;
  for (const auto& dim : a.dims)
    if (b.dim(dim.name)) shared.push_back(dim.name);
  for (const auto& name : shared) (want && want->dim(name) ? roles.batch : roles.contracting).push_back(name);
  if (roles.contracting.empty())
    add_diagnostic(d, path, "no_contracting_dim", "A and B share no dimension to contract over");
  if (!want && shared.size() > 1)
    add_warning(d, path, "implicit_contraction",
                "A and B share " + join_choices(shared) +
                    ": without '-> C[...]' every shared dimension is contracted "
                    "(einsum's rule); name the output, e.g. '-> C[" +
                    shared.front() + ", ...]', to keep a batch dimension");
  if (!want) return roles;
  for (const auto& dim : want->dims)
    if (!a.dim(dim.name) && !b.dim(dim.name))
      add_diagnostic(d, path, "bad_output", "output dimension '" + dim.name + "' is not a dimension of A or B");
  for (const ShardedArray* arr : {&a, &b})
    for (const auto& dim : arr->dims)
      if (!contains(shared, dim.name) && !want->dim(dim.name))
        add_diagnostic(d, path, "bad_output",
                       "output " + want->name + " lacks '" + dim.name + "', a dimension of " + arr->name +
                           " only; a matmul keeps every free dimension");
  return roles;
}

// The operands of `A * B -> C`, parsed and checked against the sizes (C absent: einsum's rule).
struct MatmulOperands {
  ShardedArray a, b;
  std::optional<ShardedArray> want;
};

std::optional<MatmulOperands> parse_operands(std::string_view expression, const DimSizes& sizes, const Mesh& mesh,
                                             const std::string& path, const std::string& dims_path, Diagnostics& d) {
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
  const bool has_output = rhs.find_first_not_of(" \t\r\n") != std::string_view::npos;
  auto a = parse_sharded_array(lhs.substr(0, star), mesh, path, d);
  auto b = parse_sharded_array(lhs.substr(star + 1), mesh, path, d);
  std::optional<ShardedArray> want;
  if (has_output) want = parse_sharded_array(rhs, mesh, path, d);
  if (!a || !b || (has_output && !want)) return std::nullopt;
  check_array_sizes(*a, sizes, mesh, dims_path, d);
  check_array_sizes(*b, sizes, mesh, dims_path, d);
  if (want) check_array_sizes(*want, sizes, mesh, dims_path, d);
  for (const auto& [name, size] : sizes)
    if (!a->dim(name) && !b->dim(name))
      add_diagnostic(d, json_pointer_child(dims_path, name), "unknown_dim", "no array uses dimension '" + name + "'");
  return MatmulOperands{std::move(*a), std::move(*b), std::move(want)};
}

// scaling-book/sharding, case 4: one mesh axis shards a different non-contracted dimension of each input (a batch
// dimension split the same way in both is not a conflict).
std::vector<int> conflicting_axes(const ShardedArray& a, const ShardedArray& b, const Roles& roles) {
  std::vector<int> conflicts;
  for (const auto& da : a.dims) {
    if (contains(roles.contracting, da.name)) continue;
    for (int x : da.axes)
      for (const auto& db : b.dims)
        if (db.name != da.name && !contains(roles.contracting, db.name) && contains(db.axes, x) &&
            !contains(conflicts, x))
          conflicts.push_back(x);
  }
  return conflicts;
}

// The book's case (scaling-book/sharding, cases 1-4) and its description; case 1 names the free dimensions whose
// result the output wants gathered.
void describe_book_case(const MatmulOperands& o, const Roles& roles, bool conflicts, ShardedMatmul& result) {
  bool any_single = false, any_both = false;
  for (const auto& name : roles.contracting) {
    const auto& xa = o.a.dim(name)->axes;
    const auto& xb = o.b.dim(name)->axes;
    if (xa == xb && !xa.empty()) any_both = true;
    if (xa != xb) any_single = true;
  }
  result.book_case = conflicts ? 4 : any_single ? 2 : any_both ? 3 : 1;
  static const char* kCase[] = {"", "case 1: no contracting dimension is sharded; multiply locally, no communication",
                                "case 2: one input is sharded on the contracting dimension; gather it first, or "
                                "multiply the local slices and reduce the partial sums",
                                "case 3: both inputs are sharded the same way on the contracting dimension; multiply "
                                "locally, then AllReduce (or ReduceScatter) the partial sums",
                                "case 4: one mesh axis shards a free dimension of both inputs, which is invalid as is; "
                                "AllGather one input first"};
  result.description = kCase[result.book_case];
  if (result.book_case != 1 || !o.want) return;
  // A free dimension sharded in an input but wanted whole in the output costs an AllGather of the result.
  std::vector<std::string> gathered;
  for (const ShardedArray* arr : {&o.a, &o.b})
    for (const auto& dim : arr->dims)
      if (const ShardedDim* wd = contains(roles.batch, dim.name) ? nullptr : o.want->dim(dim.name))
        if (std::any_of(dim.axes.begin(), dim.axes.end(), [&](int x) { return !contains(wd->axes, x); }) &&
            !contains(gathered, dim.name))
          gathered.push_back(dim.name);
  if (!gathered.empty())
    result.description =
        "case 1: no contracting dimension is sharded; multiply locally, then AllGather the "
        "result over " +
        join_choices(gathered) + "'s axes, which the output wants unsharded";
}

// The batch dimensions sharded differently in the two inputs (both ways of aligning each are tried); the description
// says which cost a regather before any case's local multiply.
std::vector<std::string> misaligned_batch_dims(const MatmulOperands& o, const Roles& roles, ShardedMatmul& result) {
  std::vector<std::string> misaligned, regathered;
  for (const auto& name : roles.batch) {
    const auto &xa = o.a.dim(name)->axes, &xb = o.b.dim(name)->axes;
    if (xa == xb) continue;
    misaligned.push_back(name);
    if (!xa.empty() && !xb.empty()) regathered.push_back(name);
  }
  if (!regathered.empty()) {
    if (result.book_case == 1)
      result.description =
          "case 1: no contracting dimension is sharded; multiply locally once the batch dimension "
          "agrees";
    result.description += "; batch dimension " + join_choices(regathered) +
                          " is sharded differently in A and B: one input is gathered over its axes and sliced to the "
                          "other's sharding first";
  }
  return misaligned;
}

// Every distinct plan of the decisions (which input to gather for a conflict, which batch sharding to follow, and
// per contracting dimension gather or reduce), cheapest by lower bound first.
void enumerate_plans(const MatmulOperands& o, const Roles& roles, const std::vector<int>& conflicts,
                     bool batch_misaligned, const MatmulContext& ctx, ShardedMatmul& result) {
  const std::size_t n = roles.contracting.size();
  for (int conflict_choice = 0; conflict_choice < (conflicts.empty() ? 1 : 2); ++conflict_choice)
    for (int batch_choice = 0; batch_choice < (batch_misaligned ? 2 : 1); ++batch_choice)
      for (std::size_t mask = 0; mask < (std::size_t{1} << n); ++mask) {
        Decisions dec{conflict_choice == 0, std::vector<bool>(n), batch_choice == 0};
        for (std::size_t i = 0; i < n; ++i) dec.reduce_instead[i] = (mask >> i) & 1;
        MatmulPlan plan = build_plan(o.a, o.b, o.want, roles, conflicts, dec, ctx);
        const bool seen = std::any_of(result.plans.begin(), result.plans.end(), [&](const MatmulPlan& p) {
          return p.local_op == plan.local_op && p.steps.size() == plan.steps.size();
        });
        if (!seen) result.plans.push_back(std::move(plan));
      }
  std::stable_sort(result.plans.begin(), result.plans.end(),
                   [](const MatmulPlan& x, const MatmulPlan& y) { return x.lower_bound_s < y.lower_bound_s; });
}

}  // namespace

std::optional<ShardedMatmul> analyse_sharded_matmul(std::string_view expression, const DimSizes& sizes, Dtype dtype,
                                                    const Hardware& hw, const Mesh& mesh,
                                                    const CollectiveOptions& options, const std::string& path,
                                                    const std::string& dims_path, Diagnostics& d) {
  const auto errors = [&] { return std::count_if(d.begin(), d.end(), [](const Diagnostic& x) { return !x.warning; }); };
  const auto errors_before = errors();
  const std::optional<MatmulOperands> operands = parse_operands(expression, sizes, mesh, path, dims_path, d);
  if (!operands) return std::nullopt;
  const MatmulOperands& o = *operands;
  const Roles roles = read_roles(o.a, o.b, o.want, path, d);
  if (errors() != errors_before) return std::nullopt;

  const std::vector<int> conflicts = conflicting_axes(o.a, o.b, roles);
  ShardedMatmul result;
  result.contracting_dims = roles.contracting;
  result.batch_dims = roles.batch;
  describe_book_case(o, roles, !conflicts.empty(), result);
  const std::vector<std::string> misaligned = misaligned_batch_dims(o, roles, result);
  result.total_flops = 2.0;
  for (const auto& dim : o.a.dims) result.total_flops *= sizes.at(dim.name);
  for (const auto& dim : o.b.dims)
    if (!o.a.dim(dim.name)) result.total_flops *= sizes.at(dim.name);
  const MatmulContext ctx{sizes, dtype, hw, mesh, options};
  enumerate_plans(o, roles, conflicts, !misaligned.empty(), ctx, result);
  return result;
}

}  // namespace scalescope
