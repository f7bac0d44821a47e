#include "calibration/kernel_tables.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

#include "io/format.h"
#include "io/json_text.h"
#include "io/text.h"
#include "physics/collectives.h"
#include "physics/efficiency.h"

namespace scalescope {

namespace {

struct OpName {
  KernelOp op;
  const char* name;
  std::vector<const char*> columns;  // besides latency_s
};

const std::vector<OpName>& op_names() {
  static const std::vector<OpName> names = {
      {KernelOp::gemm, "gemm", {"dtype", "m", "n", "k"}},
      {KernelOp::moe, "moe", {"dtype", "tokens", "hidden", "inter", "topk", "experts", "tp", "ep", "gated"}},
      {KernelOp::context_attention,
       "context_attention",
       {"batch", "seq_len", "heads", "kv_heads", "head_dim", "window", "dtype", "kv_dtype"}},
      {KernelOp::generation_attention,
       "generation_attention",
       {"batch", "kv_len", "heads", "kv_heads", "head_dim", "window", "kv_dtype"}},
      {KernelOp::context_mla, "context_mla", {"batch", "seq_len", "heads", "kv_dtype"}},
      {KernelOp::generation_mla, "generation_mla", {"batch", "kv_len", "heads", "kv_dtype"}},
      {KernelOp::nccl, "nccl", {"collective", "gpus", "bytes", "dtype"}},
      {KernelOp::custom_all_reduce, "custom_all_reduce", {"gpus", "bytes"}},
  };
  return names;
}

std::optional<GemmKind> parse_gemm_kind(std::string_view s) {
  for (std::size_t i = 0; i < kGemmKinds; ++i)
    if (s == gemm_kind_name(static_cast<GemmKind>(i))) return static_cast<GemmKind>(i);
  return std::nullopt;
}

// Sets column `name` of `s` from `v`; false when the value is not what the column holds.
bool set_column(KernelSample& s, std::string_view name, const Json& v) {
  if (name == "dtype" && v.is_string()) {
    const std::string t = v.get<std::string>();
    if (t == "int8") return true;  // NCCL's int8 messages: the bytes are what count
    const auto kind = parse_gemm_kind(t);
    if (!kind) return false;
    s.kind = *kind;
    s.fp8 = t == "fp8";
    return true;
  }
  if (name == "kv_dtype" && v.is_string()) {
    const std::string t = v.get<std::string>();
    if (t != "bf16" && t != "fp8") return false;
    s.kv_bytes = t == "fp8" ? 1.0 : 2.0;
    return true;
  }
  if (name == "collective" && v.is_string()) {
    const auto c = parse_collective(v.get<std::string>());
    if (!c) return false;
    s.collective = static_cast<int>(*c);
    return true;
  }
  if (!v.is_number()) return false;
  const double x = v.get<double>();
  // Each numeric column, its place in a sample and its range: what a measured kernel on a real chip can have, so
  // that no row can make a prediction or its error overflow (a shape of 1e308, a time of 5e-324).
  struct Column {
    const char* name;
    double KernelSample::*field;  // nullptr: `gated`
    double lo, hi;
  };
  static constexpr Column kColumns[] = {{"m", &KernelSample::m, 1, 1e7},
                                        {"n", &KernelSample::n, 1, 1e7},
                                        {"k", &KernelSample::k, 1, 1e7},
                                        {"tokens", &KernelSample::tokens, 1, 1e7},
                                        {"hidden", &KernelSample::hidden, 1, 1e6},
                                        {"inter", &KernelSample::inter, 1, 1e6},
                                        {"topk", &KernelSample::topk, 1, 1024},
                                        {"experts", &KernelSample::experts, 1, 1e5},
                                        {"tp", &KernelSample::tp, 1, 1e4},
                                        {"ep", &KernelSample::ep, 1, 1e4},
                                        {"batch", &KernelSample::batch, 1, 1e7},
                                        {"seq_len", &KernelSample::seq_len, 1, 1e7},
                                        {"kv_len", &KernelSample::kv_len, 1, 1e8},
                                        {"heads", &KernelSample::heads, 1, 1e4},
                                        {"kv_heads", &KernelSample::kv_heads, 1, 1e4},
                                        {"head_dim", &KernelSample::head_dim, 1, 4096},
                                        {"window", &KernelSample::window, 0, 1e8},
                                        {"gpus", &KernelSample::gpus, 1, 1e5},
                                        {"bytes", &KernelSample::bytes, 1, 1e13},
                                        {"latency_s", &KernelSample::latency_s, 1e-9, 1e4},
                                        {"gated", nullptr, 0, 1}};
  for (const Column& c : kColumns) {
    if (name != c.name) continue;
    if (!std::isfinite(x) || x < c.lo || x > c.hi) return false;
    if (c.field)
      s.*c.field = x;
    else
      s.gated = x != 0;
    return true;
  }
  return false;
}

void read_table(const Json& node, const std::string& at, KernelTables& out, Diagnostics& d) {
  JsonReader r(node, at, d);
  if (!r.ok_object()) return;
  KernelTable t;
  std::vector<std::string> choices;
  for (const OpName& o : op_names()) choices.push_back(o.name);
  const auto op = r.choice("op", true, choices);
  t.path = r.string("path", true).value_or("");
  t.backend = r.string("backend", true).value_or("");
  t.version = r.string("version", true).value_or("");
  t.upstream_rows = r.number("upstream_rows", true, NumberRange{"upstream_rows", 1, 1e12, true, "rows"}).value_or(0);
  const Json* columns = r.array("columns", true);
  const Json* rows = r.array("rows", true);
  r.finish();
  if (!op || !columns || !rows) return;
  const OpName* spec = nullptr;
  for (const OpName& o : op_names())
    if (*op == o.name) spec = &o;
  t.op = spec->op;
  std::vector<std::string> names;
  for (const Json& c : *columns) names.push_back(c.is_string() ? c.get<std::string>() : "");
  for (const char* need : spec->columns)
    if (std::find(names.begin(), names.end(), need) == names.end())
      add_diagnostic(d, at + "/columns", "missing_column",
                     std::string("the ") + *op + " table needs a column '" + need + "'");
  if (std::find(names.begin(), names.end(), "latency_s") == names.end())
    add_diagnostic(d, at + "/columns", "missing_column", "every table needs a column 'latency_s'");
  if (has_errors(d)) return;
  for (std::size_t i = 0; i < rows->size(); ++i) {
    const Json& row = (*rows)[i];
    const std::string row_at = json_pointer_child(at + "/rows", i);
    if (!row.is_array() || row.size() != names.size()) {
      add_diagnostic(d, row_at, "wrong_type", "expected an array of " + std::to_string(names.size()) + " values");
      continue;
    }
    KernelSample s;
    bool ok = true;
    for (std::size_t c = 0; c < names.size(); ++c)
      if (!set_column(s, names[c], row[c])) {
        add_diagnostic(d, json_pointer_child(row_at, c), "invalid_value",
                       "column " + quote(names[c]) + " holds " + quote(to_text(row[c])));
        ok = false;
      }
    if (ok && !(s.latency_s > 0)) {
      add_diagnostic(d, row_at, "invalid_value", "a measured time must be positive");
      ok = false;
    }
    if (ok) t.samples.push_back(s);
  }
  out.tables.push_back(std::move(t));
}

}  // namespace

const char* kernel_op_name(KernelOp op) {
  for (const OpName& o : op_names())
    if (o.op == op) return o.name;
  return "";
}

std::string KernelTable::describe() const {
  return std::string(kernel_op_name(op)) + ": " + backend + " " + version + ", " + path + " (" +
         std::to_string(samples.size()) + " of " + format_count(upstream_rows) + " rows)";
}

KernelTables read_kernel_tables(const Json& node, const std::string& path, Diagnostics& d) {
  KernelTables out;
  JsonReader r(node, path, d);
  if (!r.ok_object()) return out;
  r.accept("schema");
  out.hardware = r.string("hardware", true).value_or("");
  if (const Json* source = r.object("source", true)) {
    JsonReader s(*source, r.path_of("source"), d);
    out.source.repository = s.string("repository", true).value_or("");
    out.source.commit = s.string("commit", true).value_or("");
    out.source.licence = s.string("licence", true).value_or("");
    s.accept("system");
    s.accept("note");
    s.finish();
  }
  if (const Json* tables = r.array("tables", true))
    for (std::size_t i = 0; i < tables->size(); ++i)
      read_table((*tables)[i], json_pointer_child(r.path_of("tables"), i), out, d);
  r.finish();
  return out;
}

double predict_kernel_sample(KernelOp op, const KernelSample& s, const KernelModels& km, const MatmulTiling& tiling,
                             const Hardware& hw) {
  const double hbm = hw.hbm_bandwidth_bytes_per_s;
  const double bf16 = hw.peak(Dtype::bf16), fp8 = hw.peak(Dtype::fp8);
  auto kind_peak = [&](GemmKind k) {
    return k == GemmKind::bf16 ? bf16 : k == GemmKind::fp4 ? hw.peak(Dtype::fp4) : fp8;
  };
  // Operand bytes as the planners count them (physics/layer_ops matmul_bytes): bf16 activations in and out, the
  // weight in the kernel's storage format.
  auto weight_bytes = [](GemmKind k) { return k == GemmKind::bf16 ? 2.0 : k == GemmKind::fp4 ? 0.5 : 1.0; };
  switch (op) {
    case KernelOp::gemm: {
      const GemmModel& g = km.gemm[static_cast<std::size_t>(s.kind)];
      const double bytes = 2.0 * s.m * s.k + weight_bytes(s.kind) * s.k * s.n + 2.0 * s.m * s.n;
      return gemm_kernel_time(g, 2.0 * s.m * s.n * s.k, matmul_shape_efficiency(s.m, s.k, s.n, tiling), 1.0, bytes,
                              kind_peak(s.kind), hbm, s.m * s.k)
          .total();
    }
    case KernelOp::moe: {
      MoeKernelShape m;
      m.tokens = s.tokens;
      m.topk = s.topk;
      m.experts = s.experts;
      m.expert_degree = s.ep;
      m.hidden = s.hidden;
      m.inter = s.inter / s.tp;
      m.gated = s.gated;
      m.weight_bytes = weight_bytes(s.kind);
      return moe_kernel_time(km.moe[static_cast<std::size_t>(s.kind)], m, tiling, kind_peak(s.kind), hbm).total();
    }
    case KernelOp::context_attention:
    case KernelOp::context_mla: {
      const bool mla = op == KernelOp::context_mla;
      FlashAttentionShape a;
      a.sequences = s.batch;
      a.heads = s.heads;
      a.kv_heads = mla ? s.heads : s.kv_heads;
      a.query_len = s.seq_len;
      const double keys = s.window > 0 ? std::min(s.window, s.seq_len) : s.seq_len;
      a.mean_keys = s.window > 0 && s.window < s.seq_len ? s.window : (s.seq_len + 1.0) / 2.0;
      a.max_keys = keys;
      a.causal = true;
      a.window = s.window;
      a.qk_head_dim = mla ? kMlaNopeDim + kMlaRopeDim : s.head_dim;
      a.v_head_dim = mla ? kMlaValueDim : s.head_dim;
      a.fp8 = (s.fp8 || s.kv_bytes < 2.0) && fp8 > 0;
      a.activation_bytes = 2.0;
      a.kv_bytes = s.kv_bytes;
      a.cache_values = mla ? kMlaLatentRank + kMlaRopeDim : a.kv_heads * (a.qk_head_dim + a.v_head_dim);
      return flash_attention_time(mla ? km.prefill_mla : km.prefill, a, tiling.parallel_tiles, bf16,
                                  fp8 > 0 ? fp8 : bf16, hbm)
          .total();
    }
    case KernelOp::generation_attention:
    case KernelOp::generation_mla: {
      const bool mla = op == KernelOp::generation_mla;
      DecodeAttentionShape a;
      a.sequences = s.batch;
      a.kv_heads = mla ? 1.0 : s.kv_heads;
      a.kv_values = mla ? kMlaLatentRank + kMlaRopeDim : 2.0 * s.head_dim;
      a.mean_keys = s.window > 0 ? std::min(s.window, s.kv_len) : s.kv_len;
      a.kv_bytes = s.kv_bytes;
      // Scores and weighted sum per query head: 4 d per key; absorbed latent attention 2 (2 r + r_rope).
      a.flops = s.batch * s.heads * a.mean_keys * (mla ? 2.0 * (2.0 * kMlaLatentRank + kMlaRopeDim) : 4.0 * s.head_dim);
      return decode_attention_time(mla ? km.decode_mla : km.decode, a, bf16, hbm).total();
    }
    case KernelOp::nccl:
    case KernelOp::custom_all_reduce: {
      const auto c = op == KernelOp::nccl ? static_cast<Collective>(s.collective) : Collective::all_reduce;
      const CollectiveModel& model = km.collective[op == KernelOp::nccl ? s.collective : kCustomAllReduce];
      // nccl-tests' size is the whole array for the gathers and reductions, and each rank's buffer for all-to-all.
      const double array_bytes = c == Collective::all_to_all ? s.gpus * s.bytes : s.bytes;
      CollectiveCost book = gpu_collective(c, array_bytes, hw, s.gpus, 1.0, false);
      // A one-shot all-reduce is not NCCL's ring: its whole latency is its own.
      if (op == KernelOp::custom_all_reduce) book.latency_s = 0;
      return collective_kernel_s(model, book, s.gpus);
    }
  }
  return 0;
}

}  // namespace scalescope
