#include "specs/kernel_models.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace scalescope {

namespace {

constexpr std::array<const char*, kGemmKinds> kGemmKindNames = {"bf16", "fp8", "fp8_block", "fp4"};
constexpr std::array<const char*, kCollectiveKinds> kCollectiveNames = {"all_gather", "reduce_scatter", "all_reduce",
                                                                        "all_to_all", "custom_all_reduce"};

// One constant of a model that may have variants (a GEMM kind, a collective): `field` picks it in variant `v`. Its
// meaning is the comment above its row, and for users the schema's (schema/calibration-profile.schema.json).
struct Row {
  const char* op;
  std::span<const char* const> variants;  // empty: one model
  const char* name;
  double& (*field)(KernelModels&, std::size_t v);
  double lo, hi;
};

constexpr std::array<const char*, 2> kAttentionNames = {"", "mla"};  // standard (MHA, GQA, MQA), latent

constexpr std::span<const char* const> kOne{};
constexpr std::span<const char* const> kGemms{kGemmKindNames};
constexpr std::span<const char* const> kCollectives{kCollectiveNames};
constexpr std::span<const char* const> kAttention{kAttentionNames};

FlashAttentionModel& prefill(KernelModels& k, std::size_t v) { return v ? k.prefill_mla : k.prefill; }
DecodeAttentionModel& decode(KernelModels& k, std::size_t v) { return v ? k.decode_mla : k.decode; }

// Ranges: what a kernel on a real chip can take (the reader's and the fits' bounds).
const Row kRows[] = {
    // Fraction of the dtype's peak that large, well-tiled GEMMs reach.
    {"gemm", kGemms, "ceiling_frac", [](KernelModels& k, std::size_t v) -> double& { return k.gemm[v].ceiling_frac; },
     0.05, 1.0},
    // FLOPs at which a GEMM reaches half its ceiling (fill, tail, epilogue).
    {"gemm", kGemms, "half_rate_flops",
     [](KernelModels& k, std::size_t v) -> double& { return k.gemm[v].half_rate_flops; }, 1e3, 1e12},
    // Fraction of the HBM bandwidth a GEMM streams its operands at (GEMV-like shapes).
    {"gemm", kGemms, "hbm_frac", [](KernelModels& k, std::size_t v) -> double& { return k.gemm[v].hbm_frac; }, 0.05,
     1.0},
    // Seconds a GEMM takes at the least: launch, and any fixed-size kernel run with it.
    {"gemm", kGemms, "launch_s", [](KernelModels& k, std::size_t v) -> double& { return k.gemm[v].launch_s; }, 1e-7,
     1e-3},
    // Passes over the bf16 input a serving engine runs to quantise it for the GEMM (3 bytes an element).
    {"gemm", kGemms, "input_passes", [](KernelModels& k, std::size_t v) -> double& { return k.gemm[v].input_passes; },
     1e-4, 20.0},
    // Fraction of the dtype's peak that the MoE experts' grouped GEMMs reach.
    {"moe", kGemms, "ceiling_frac", [](KernelModels& k, std::size_t v) -> double& { return k.moe[v].ceiling_frac; },
     0.05, 1.0},
    // FLOPs at which one expert's GEMM reaches half the ceiling.
    {"moe", kGemms, "half_rate_flops",
     [](KernelModels& k, std::size_t v) -> double& { return k.moe[v].half_rate_flops; }, 1e3, 1e12},
    // Fraction of the HBM bandwidth the MoE kernel loads expert weights and token copies at.
    {"moe", kGemms, "hbm_frac", [](KernelModels& k, std::size_t v) -> double& { return k.moe[v].hbm_frac; }, 0.05, 1.0},
    // Seconds an MoE layer's expert kernels take at the least (routing, permutations, launches).
    {"moe", kGemms, "launch_s", [](KernelModels& k, std::size_t v) -> double& { return k.moe[v].launch_s; }, 1e-7,
     1e-3},
    // Passes over the routed token copies the fused MoE kernel runs (permute, quantise, unpermute; 3 bytes).
    {"moe", kGemms, "input_passes", [](KernelModels& k, std::size_t v) -> double& { return k.moe[v].input_passes; },
     1e-4, 50.0},
    // Fraction of the bf16 peak flash attention's matmuls reach.
    {"prefill_attention", kAttention, "ceiling_frac",
     [](KernelModels& k, std::size_t v) -> double& { return prefill(k, v).ceiling_frac; }, 0.05, 1.0},
    // The softmax's work per score in head-dimension units (MMA-equivalent).
    {"prefill_attention", kAttention, "softmax_head_dim",
     [](KernelModels& k, std::size_t v) -> double& { return prefill(k, v).softmax_head_dim; }, 1.0, 512.0},
    // MMA-equivalent FLOPs per 128-query tile (load Q, write O and its statistics).
    {"prefill_attention", kAttention, "tile_overhead_flops",
     [](KernelModels& k, std::size_t v) -> double& { return prefill(k, v).tile_overhead_flops; }, 1.0, 1e9},
    // Key blocks of 128 a query tile under a causal sliding window visits beyond its mean keys.
    {"prefill_attention", kOne, "window_blocks",
     [](KernelModels& k, std::size_t) -> double& { return k.prefill.window_blocks; }, 0.1, 8.0},
    // Fraction of the HBM bandwidth of the fused QKV preprocessing (rotary, KV-cache write) of serving engines.
    {"prefill_attention", kAttention, "preprocess_hbm_frac",
     [](KernelModels& k, std::size_t v) -> double& { return prefill(k, v).preprocess_hbm_frac; }, 0.01, 1.0},
    // Seconds a prefill attention op takes at the least.
    {"prefill_attention", kAttention, "launch_s",
     [](KernelModels& k, std::size_t v) -> double& { return prefill(k, v).launch_s; }, 1e-7, 1e-3},
    // Fraction of the fp8 peak an fp8 flash attention's matmuls reach.
    {"prefill_attention", kAttention, "fp8_ceiling_frac",
     [](KernelModels& k, std::size_t v) -> double& { return prefill(k, v).fp8_ceiling_frac; }, 0.05, 1.0},
    // Passes over the queries, keys and values (3 bytes an element) that a prefill with an fp8 KV cache runs to
    // quantise them.
    {"prefill_attention", kAttention, "fp8_kv_passes",
     [](KernelModels& k, std::size_t v) -> double& { return prefill(k, v).fp8_kv_passes; }, 1e-4, 20.0},
    // The backward kernel's rate relative to the forward's.
    {"prefill_attention", kOne, "backward_frac",
     [](KernelModels& k, std::size_t) -> double& { return k.prefill.backward_frac; }, 0.2, 1.0},
    // Fraction of the HBM bandwidth decode attention reads a bf16 KV cache at.
    {"decode_attention", kAttention, "hbm_frac",
     [](KernelModels& k, std::size_t v) -> double& { return decode(k, v).hbm_frac; }, 0.05, 1.0},
    // Fraction of the HBM bandwidth decode attention reads an fp8 KV cache at (dequantised in the kernel).
    {"decode_attention", kAttention, "fp8_kv_hbm_frac",
     [](KernelModels& k, std::size_t v) -> double& { return decode(k, v).fp8_kv_hbm_frac; }, 0.05, 1.0},
    // Bytes-equivalent of fixed work per (sequence, KV head) (the ramp of short contexts).
    {"decode_attention", kAttention, "split_bytes",
     [](KernelModels& k, std::size_t v) -> double& { return decode(k, v).split_bytes; }, 1.0, 1e8},
    // Seconds per sequence of a decode step's attention (scheduling, the split partials' reduction).
    {"decode_attention", kAttention, "sequence_s",
     [](KernelModels& k, std::size_t v) -> double& { return decode(k, v).sequence_s; }, 1e-12, 1e-5},
    // Fraction of the bf16 peak decode attention computes its scores at.
    {"decode_attention", kAttention, "ceiling_frac",
     [](KernelModels& k, std::size_t v) -> double& { return decode(k, v).ceiling_frac; }, 0.01, 1.0},
    // Seconds a decode attention op takes at the least.
    {"decode_attention", kAttention, "launch_s",
     [](KernelModels& k, std::size_t v) -> double& { return decode(k, v).launch_s; }, 1e-7, 1e-3},
    // Fraction of the NVLink (ICI) bandwidth the collective achieves, in the book's cost (scaling-book/sharding and
    // scaling-book/gpus, collective costs).
    {"collective", kCollectives, "link_frac",
     [](KernelModels& k, std::size_t v) -> double& { return k.collective[v].link_frac; }, 0.05, 1.0},
    // Seconds of software latency of the bandwidth protocol beyond the preset's hop or ring latency.
    {"collective", kCollectives, "latency_s",
     [](KernelModels& k, std::size_t v) -> double& { return k.collective[v].latency_s; }, 1e-8, 1e-3},
    // Fraction of the links the low-latency protocol achieves.
    {"collective", kCollectives, "low_latency_link_frac",
     [](KernelModels& k, std::size_t v) -> double& { return k.collective[v].low_latency_link_frac; }, 0.01, 1.0},
    // Seconds of software latency of the low-latency protocol.
    {"collective", kCollectives, "low_latency_s",
     [](KernelModels& k, std::size_t v) -> double& { return k.collective[v].low_latency_s; }, 1e-8, 1e-3},
    // A group of N GPUs achieves N / (N + span_penalty) of the link share (fewer channels for small groups).
    {"collective", kCollectives, "span_penalty",
     [](KernelModels& k, std::size_t v) -> double& { return k.collective[v].span_penalty; }, 1e-3, 10.0},
    // Fraction of the HBM bandwidth elementwise kernels stream at.
    {"memory", kOne, "stream_hbm_frac", [](KernelModels& k, std::size_t) -> double& { return k.stream_hbm_frac; }, 0.05,
     1.0},
};

// The flat list: one entry per constant and variant, each with a captureless accessor. A variant's accessor is
// the row's with its index bound; the index is kept beside it.
struct Flat {
  std::vector<KernelParameter> parameters;
  std::vector<const Row*> rows;
  std::vector<std::size_t> variants;
  std::vector<std::string> paths;  // each parameter's path, built once: the end-to-end fit looks them up per step
};

const Flat& flat() {
  static const Flat f = [] {
    Flat out;
    for (const Row& r : kRows) {
      const std::size_t n = r.variants.empty() ? 1 : r.variants.size();
      for (std::size_t v = 0; v < n; ++v) {
        out.rows.push_back(&r);
        out.variants.push_back(v);
        out.parameters.push_back(KernelParameter{r.op, r.variants.empty() ? "" : r.variants[v], r.name, r.lo, r.hi});
      }
    }
    for (const KernelParameter& p : out.parameters) out.paths.push_back(p.path());
    return out;
  }();
  return f;
}

}  // namespace

const char* gemm_kind_name(GemmKind kind) { return kGemmKindNames[static_cast<std::size_t>(kind)]; }

std::string KernelParameter::model() const { return *variant ? std::string(op) + "/" + variant : std::string(op); }

std::string KernelParameter::path() const { return model() + "/" + name; }

bool KernelSource::fitted(const std::string& model) const {
  return from_tables() && std::find(unfitted.begin(), unfitted.end(), model) == unfitted.end();
}

double& KernelParameter::at(KernelModels& k) const {
  const Flat& f = flat();
  const std::size_t i = static_cast<std::size_t>(this - f.parameters.data());
  return f.rows[i]->field(k, f.variants[i]);
}

std::span<const KernelParameter> kernel_parameters() { return flat().parameters; }

const KernelParameter* find_kernel_parameter(std::string_view path) {
  const Flat& f = flat();
  for (std::size_t i = 0; i < f.paths.size(); ++i)
    if (f.paths[i] == path) return &f.parameters[i];
  return nullptr;
}

namespace {

void read_source(JsonReader& r, KernelSource& s, Diagnostics& d) {
  const Json* node = r.object("source", true);
  if (!node) return;
  JsonReader q(*node, r.path_of("source"), d);
  s.repository = q.string("repository", false).value_or("");
  s.commit = q.string("commit", false).value_or("");
  s.licence = q.string("licence", false).value_or("");
  s.note = q.string("note", false).value_or("");
  for (auto [key, list] : {std::pair{"tables", &s.tables}, std::pair{"unfitted", &s.unfitted}})
    if (const Json* a = q.array(key, false))
      for (std::size_t i = 0; i < a->size(); ++i) {
        if ((*a)[i].is_string())
          list->push_back((*a)[i].get<std::string>());
        else
          add_diagnostic(d, json_pointer_child(q.path_of(key), i), "wrong_type", "expected a string");
      }
  q.finish();
}

}  // namespace

KernelModels read_kernel_models(const Json& node, const std::string& path, Diagnostics& d) {
  KernelModels k;
  JsonReader r(node, path, d);
  if (!r.ok_object()) return k;
  read_source(r, k.source, d);
  // Every constant, at its path under the op (and variant) objects.
  std::vector<std::string> ops;
  for (const KernelParameter& p : kernel_parameters())
    if (ops.empty() || ops.back() != p.op) ops.push_back(p.op);
  for (const std::string& op : ops) {
    const Json* op_node = r.object(op.c_str(), true);
    if (!op_node) continue;
    JsonReader o(*op_node, r.path_of(op.c_str()), d);
    std::vector<std::string> variants;
    for (const KernelParameter& p : kernel_parameters())
      if (p.op == op && *p.variant && (variants.empty() || variants.back() != p.variant)) {
        bool seen = false;
        for (const auto& v : variants) seen = seen || v == p.variant;
        if (!seen) variants.push_back(p.variant);
      }
    auto read_numbers = [&](JsonReader& reader, const char* variant) {
      for (const KernelParameter& p : kernel_parameters())
        if (p.op == op && std::string_view(p.variant) == variant)
          if (const auto v = reader.number(p.name, true, NumberRange{p.name, p.lo, p.hi, false, ""})) p.at(k) = *v;
    };
    // The op's own constants (a model without variants, the standard attention's), then each variant's object.
    read_numbers(o, "");
    for (const std::string& v : variants)
      if (const Json* vn = o.object(v.c_str(), true)) {
        JsonReader vr(*vn, o.path_of(v.c_str()), d);
        read_numbers(vr, v.c_str());
        vr.finish();
      }
    o.finish();
  }
  r.finish();
  return k;
}

Json kernel_models_json(const KernelModels& k) {
  Json out = Json::object();
  Json source = {{"repository", k.source.repository}, {"commit", k.source.commit},     {"licence", k.source.licence},
                 {"tables", k.source.tables},         {"unfitted", k.source.unfitted}, {"note", k.source.note}};
  out["source"] = source;
  for (const KernelParameter& p : kernel_parameters()) {
    Json& op = out[p.op];
    (*p.variant ? op[p.variant][p.name] : op[p.name]) = p.value(k);
  }
  return out;
}

}  // namespace scalescope
