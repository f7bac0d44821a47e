#include "physics/sharding.h"

#include <algorithm>
#include <cctype>

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

}  // namespace

double shard_count(const std::vector<int>& axes, const Mesh& mesh) {
  double n = 1;
  for (int a : axes) n *= mesh.axes[a].size;
  return n;
}

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
      add_diagnostic(d, path, "bad_sharding",
                     "after ']' only an unreduced mark like {U_X} may follow, got " + quote(rest));
    else
      split_axes(rest.substr(3, rest.size() - 4), mesh, arr.unreduced, path, d);
  }
  // scaling-book/sharding, notation: a mesh axis may appear at most once per array.
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
      add_diagnostic(d, dims_path, "missing_dim_size",
                     "no size for dimension '" + dim.name + "' of " + arr.name + "; add it to 'dims'");
      continue;
    }
    const double n = shard_count(dim.axes, mesh);
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
    m.local_shape.push_back(size / shard_count(dim.axes, mesh));
    local *= m.local_shape.back();
  }
  for (std::size_t a = 0; a < mesh.axes.size(); ++a)
    if (!arr.uses_axis(static_cast<int>(a))) m.replication *= mesh.axes[a].size;
  m.bytes_per_device = local * bytes_per_element(dtype);
  m.total_bytes_all_devices = m.bytes_per_device * mesh.chips;
  return m;
}

}  // namespace scalescope
