#include "traces/trace_kernel_tables.h"

#include <algorithm>

namespace scalescope {

namespace {

// Kernel tables hold at most this many rows per op (kernel_fit's input is one call's JSON, 1 MB at most): the
// shapes with the most instances first.
constexpr std::size_t kMaxRowsPerTable = 2000;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The rows of one table: each key's columns and its median time, most-measured keys first.
template <typename Key, typename Columns>
Json rows_of(const std::map<Key, std::vector<double>>& samples, Columns columns, double& instances) {
  std::vector<const std::pair<const Key, std::vector<double>>*> order;
  for (const auto& entry : samples) order.push_back(&entry);
  std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->second.size() > b->second.size(); });
  Json rows = Json::array();
  instances = 0;
  for (const auto* entry : order) {
    instances += static_cast<double>(entry->second.size());
    if (rows.size() >= kMaxRowsPerTable) continue;
    Json row = columns(entry->first);
    row.push_back(median(entry->second));
    rows.push_back(std::move(row));
  }
  return rows;
}

Json table(const char* op, const Json& columns, Json rows, double instances) {
  return Json{{"op", op},
              {"path", "the trace"},
              {"backend", "pytorch"},
              {"version", "profiled"},
              {"upstream_rows", std::max(1.0, instances)},
              {"columns", columns},
              {"rows", std::move(rows)}};
}

}  // namespace

void TraceKernelTables::add_gemm(Dtype dtype, double batch, double m, double n, double k, double seconds) {
  if (dtype != Dtype::bf16 && dtype != Dtype::fp8) return;
  if (!(seconds > 0) || m < 1 || n < 1 || k < 1 || batch < 1) return;
  gemm_[{dtype == Dtype::bf16 ? "bf16" : "fp8", batch * m, n, k}].push_back(seconds);  // a batch folds into M
}

void TraceKernelTables::add_collective(Collective op, int gpus, double bytes, double seconds) {
  if (!(seconds > 0) || gpus < 2 || !(bytes > 0)) return;
  nccl_[{static_cast<int>(op), gpus, op == Collective::all_to_all ? bytes / gpus : bytes}].push_back(seconds);
}

void TraceKernelTables::add_one_shot_all_reduce(int gpus, double bytes, double seconds) {
  if (!(seconds > 0) || gpus < 2 || !(bytes > 0)) return;
  one_shot_[{gpus, bytes}].push_back(seconds);
}

Json TraceKernelTables::json(const std::string& hardware_id, const std::string& trace_name) const {
  Json tables = Json::array();
  double instances = 0;
  if (!gemm_.empty()) {
    Json rows = rows_of(
        gemm_,
        [](const auto& key) {
          const auto& [dtype, m, n, k] = key;
          return Json::array({dtype, m, n, k});
        },
        instances);
    tables.push_back(table("gemm", {"dtype", "m", "n", "k", "latency_s"}, std::move(rows), instances));
  }
  if (!nccl_.empty()) {
    Json rows = rows_of(
        nccl_,
        [](const auto& key) {
          const auto& [op, gpus, bytes] = key;
          return Json::array({collective_name(static_cast<Collective>(op)), gpus, bytes, "bf16"});
        },
        instances);
    tables.push_back(table("nccl", {"collective", "gpus", "bytes", "dtype", "latency_s"}, std::move(rows), instances));
  }
  if (!one_shot_.empty()) {
    Json rows = rows_of(
        one_shot_,
        [](const auto& key) {
          return Json::array({key.first, key.second});
        },
        instances);
    tables.push_back(table("custom_all_reduce", {"gpus", "bytes", "latency_s"}, std::move(rows), instances));
  }
  return Json{{"schema", "scalescope.kernel_tables/1"},
              {"hardware", hardware_id},
              {"source",
               {{"repository", "a PyTorch profiler trace"},
                {"commit", trace_name.empty() ? "unnamed" : trace_name},
                {"licence", "the trace owner's"},
                {"note", "each row a shape's median measured time over its instances in the trace"}}},
              {"tables", std::move(tables)}};
}

}  // namespace scalescope
