#include "traces/op_costs.h"

#include <array>
#include <functional>
#include <numeric>

namespace scalescope {

namespace {

constexpr std::array<std::string_view, 7> kMatmulOps = {
    "aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::matmul", "aten::linear", "aten::_scaled_mm"};

bool is_in_place_all_reduce(std::string_view name) {
  return name.find("all_reduce") != std::string_view::npos && name.find("::") != std::string_view::npos;
}

double product(const std::vector<double>& dims, std::size_t from, std::size_t to) {
  double p = 1;
  for (std::size_t i = from; i < to && i < dims.size(); ++i) p *= dims[i];
  return p;
}

std::string text_of(double v) { return std::to_string(static_cast<long long>(v)); }

}  // namespace

bool op_has_cost_model(std::string_view op_name) {
  for (auto name : kMatmulOps)
    if (op_name == name) return true;
  return is_in_place_all_reduce(op_name);
}

std::optional<Dtype> dtype_of_type_name(std::string_view t) {
  if (t.substr(0, 5) == "c10::") t.remove_prefix(5);
  if (t == "BFloat16" || t == "Half") return Dtype::bf16;
  if (t == "float" || t == "Float") return Dtype::fp32;
  if (t.substr(0, 6) == "Float8") return Dtype::fp8;
  if (t == "signed char" || t == "Char" || t == "int8") return Dtype::int8;
  return std::nullopt;
}

std::optional<MatmulCost> matmul_cost(std::string_view op, const OpShape& shape) {
  // The operands' positions: addmm and baddbmm lead with the bias; linear's weight is [N, K].
  const bool with_bias = op == "aten::addmm" || op == "aten::baddbmm";
  const std::size_t a = with_bias ? 1 : 0, b = a + 1;
  if (shape.dims.size() <= b || shape.types.size() <= a) return std::nullopt;
  const auto& x = shape.dims[a];
  const auto& w = shape.dims[b];
  if (x.size() < 2 && !(op == "aten::linear" && x.size() == 1)) return std::nullopt;
  if (w.size() < 2) return std::nullopt;
  MatmulCost c;
  if (op == "aten::linear") {  // x [..., K] @ w[N, K]^T
    c.k = x.back(), c.n = w[0], c.m = product(x, 0, x.size() - 1);
    if (w[1] != c.k) return std::nullopt;
  } else if (w.size() == 2) {  // x [..., M, K] @ w [K, N]: the leading dims fold into M
    c.k = x.back(), c.n = w[1], c.m = product(x, 0, x.size() - 1);
    if (w[0] != c.k) return std::nullopt;
  } else {  // batched: x [..., M, K] @ w [..., K, N]
    if (x.size() != w.size()) return std::nullopt;
    c.batch = product(x, 0, x.size() - 2);
    c.m = x[x.size() - 2], c.k = x.back(), c.n = w.back();
    if (w[w.size() - 2] != c.k || product(w, 0, w.size() - 2) != c.batch) return std::nullopt;
  }
  const auto lhs = dtype_of_type_name(shape.types[a]);
  const auto rhs = shape.types.size() > b ? dtype_of_type_name(shape.types[b]) : lhs;
  if (!lhs || !rhs) return std::nullopt;
  c.dtype = *lhs;
  const double out_bytes = op == "aten::_scaled_mm" ? 2.0 : bytes_per_element(*lhs);  // fp8 matmuls write bf16
  c.flops = 2.0 * c.batch * c.m * c.n * c.k;
  c.bytes =
      c.batch * (c.m * c.k * bytes_per_element(*lhs) + c.k * c.n * bytes_per_element(*rhs) + c.m * c.n * out_bytes);
  const auto dims_text = [](const std::vector<double>& d) {
    std::string s;
    for (std::size_t i = 0; i < d.size(); ++i) s += (i ? "x" : "") + text_of(d[i]);
    return s;
  };
  c.shape = dims_text(x) + " @ " + dims_text(w);
  return c;
}

namespace {

double dtype_bytes(std::string_view profiler_dtype) {
  const auto d = dtype_of_type_name(profiler_dtype);
  if (d) return bytes_per_element(*d);
  if (profiler_dtype == "Int" || profiler_dtype == "UInt32") return 4;
  if (profiler_dtype == "Long" || profiler_dtype == "Double") return 8;
  if (profiler_dtype == "Byte" || profiler_dtype == "Bool") return 1;
  return 0;
}

}  // namespace

std::optional<CollectiveBytes> collective_bytes(const CollectiveRecord& record, std::string_view kernel_name) {
  auto op = collective_of(record.name);
  if (!op) op = collective_of(kernel_name);
  const double element_bytes = dtype_bytes(record.dtype);
  if (!op || element_bytes <= 0 || record.group_size < 2) return std::nullopt;
  // V: AllGather's output is the gathered array; the others' input is the whole array before it is reduced or sent.
  const double elements = *op == Collective::all_gather ? record.out_elements : record.in_elements;
  if (elements <= 0) return std::nullopt;
  return CollectiveBytes{*op, elements * element_bytes, record.group_size};
}

std::optional<CollectiveBytes> all_reduce_op_bytes(std::string_view op_name, const OpShape& shape, int world_size) {
  if (!is_in_place_all_reduce(op_name) || shape.dims.empty() || shape.types.empty() || world_size < 2)
    return std::nullopt;
  const auto d = dtype_of_type_name(shape.types[0]);
  const double elements = product(shape.dims[0], 0, shape.dims[0].size());
  if (!d || shape.dims[0].empty() || elements <= 0) return std::nullopt;
  return CollectiveBytes{Collective::all_reduce, elements * bytes_per_element(*d), world_size};
}

}  // namespace scalescope
