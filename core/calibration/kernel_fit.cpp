#include "calibration/kernel_fit.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string_view>

#include "calibration/robust_fit.h"
#include "io/format.h"
#include "physics/portable_math.h"

namespace scalescope {

namespace {

// The rows one model is fitted and scored on, and which of them are held out.
struct Rows {
  KernelOp op = KernelOp::gemm;
  std::vector<const KernelSample*> samples;
  std::vector<char> held, family;  // per sample: every fifth row; the held-out shape family
};

// A model: its name (KernelParameter::model()), the table rows it is fitted on, the held-out family's rule.
struct ModelRows {
  std::string model, op, variant, family_words;
  Rows rows;
};

bool in_family(KernelOp op, const KernelSample& s) {
  switch (op) {
    case KernelOp::gemm:
      return s.n == 12288 || s.k == 12288;
    case KernelOp::moe:
      return s.hidden == 6144;
    case KernelOp::context_attention:
    case KernelOp::generation_attention:
      return s.heads == 40;
    case KernelOp::context_mla:
    case KernelOp::generation_mla:
      return s.heads == 32;
    case KernelOp::nccl:
    case KernelOp::custom_all_reduce:
      return s.bytes >= 1e6 && s.bytes <= 8.4e6;
  }
  return false;
}

const char* family_words(KernelOp op) {
  switch (op) {
    case KernelOp::gemm:
      return "N or K = 12288";
    case KernelOp::moe:
      return "hidden size 6144";
    case KernelOp::context_attention:
    case KernelOp::generation_attention:
      return "40 query heads";
    case KernelOp::context_mla:
    case KernelOp::generation_mla:
      return "32 query heads (DeepSeek's 128 over TP4)";
    case KernelOp::nccl:
    case KernelOp::custom_all_reduce:
      return "messages of 1 to 8 MB";
  }
  return "";
}

void add_rows(Rows& r, KernelOp op, const std::vector<KernelSample>& samples,
              const std::function<bool(const KernelSample&)>& keep) {
  r.op = op;
  std::size_t i = 0;
  for (const KernelSample& s : samples) {
    if (!keep(s)) continue;
    r.samples.push_back(&s);
    r.held.push_back(i % 5 == 0);
    r.family.push_back(in_family(op, s));
    ++i;
  }
}

// The models a chip's tables fit, each with its rows.
std::vector<ModelRows> model_rows(const KernelTables& tables) {
  std::vector<ModelRows> out;
  auto add = [&](std::string op, std::string variant, KernelOp kop, const std::vector<KernelSample>& samples,
                 const std::function<bool(const KernelSample&)>& keep) {
    ModelRows m;
    m.op = op;
    m.variant = variant;
    m.model = variant.empty() ? op : op + "/" + variant;
    m.family_words = family_words(kop);
    add_rows(m.rows, kop, samples, keep);
    if (!m.rows.samples.empty()) out.push_back(std::move(m));
  };
  for (const KernelTable& t : tables.tables) {
    switch (t.op) {
      case KernelOp::gemm:
      case KernelOp::moe:
        for (std::size_t k = 0; k < kGemmKinds; ++k)
          add(t.op == KernelOp::gemm ? "gemm" : "moe", gemm_kind_name(static_cast<GemmKind>(k)), t.op, t.samples,
              [k](const KernelSample& s) { return static_cast<std::size_t>(s.kind) == k; });
        break;
      case KernelOp::context_attention:
        add("prefill_attention", "", t.op, t.samples, [](const KernelSample&) { return true; });
        break;
      case KernelOp::generation_attention:
        add("decode_attention", "", t.op, t.samples, [](const KernelSample&) { return true; });
        break;
      case KernelOp::nccl:
        for (int c = 0; c < 4; ++c) {
          const char* names[] = {"all_gather", "reduce_scatter", "all_reduce", "all_to_all"};
          add("collective", names[c], t.op, t.samples, [c](const KernelSample& s) { return s.collective == c; });
        }
        break;
      case KernelOp::custom_all_reduce:
        add("collective", "custom_all_reduce", t.op, t.samples, [](const KernelSample&) { return true; });
        break;
      case KernelOp::context_mla:
        add("prefill_attention", "mla", t.op, t.samples, [](const KernelSample&) { return true; });
        break;
      case KernelOp::generation_mla:
        add("decode_attention", "mla", t.op, t.samples, [](const KernelSample&) { return true; });
        break;
    }
  }
  return out;
}

double quantile(std::vector<double> v, double q) {
  std::erase_if(v, [](double x) { return !std::isfinite(x); });
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(pos);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

double log_error(double predicted, double measured) { return portable_log(predicted / measured); }

// Fits the constants of model `m` (the kernel parameters whose model() it is) on its fit rows.
FitResult fit_model(const ModelRows& m, KernelModels& km, const MatmulTiling& tiling, const Hardware& hw) {
  std::vector<const KernelParameter*> params;
  for (const KernelParameter& p : kernel_parameters())
    if (p.model() == m.model) params.push_back(&p);
  // A constant that no fit row can move is left where it starts: the fp8 ceiling of a table without fp8 rows.
  const bool any_fp8 = std::any_of(m.rows.samples.begin(), m.rows.samples.end(),
                                   [](const KernelSample* s) { return s->fp8 || s->kv_bytes < 2.0; });
  const bool any_fp8_kv = std::any_of(m.rows.samples.begin(), m.rows.samples.end(),
                                      [](const KernelSample* s) { return s->kv_bytes < 2.0; });
  const bool any_window = std::any_of(m.rows.samples.begin(), m.rows.samples.end(),
                                      [](const KernelSample* s) { return s->window > 0 && s->window < s->seq_len; });
  std::erase_if(params, [&](const KernelParameter* p) {
    const std::string name = p->name;
    return name == "backward_frac" || (name == "fp8_ceiling_frac" && !any_fp8) ||
           ((name == "fp8_kv_hbm_frac" || name == "fp8_kv_passes") && !any_fp8_kv) ||
           (name == "window_blocks" && !any_window);
  });
  std::vector<const KernelSample*> fit;
  for (std::size_t i = 0; i < m.rows.samples.size(); ++i)
    if (!m.rows.held[i] && !m.rows.family[i]) fit.push_back(m.rows.samples[i]);
  FitProblem problem;
  for (const KernelParameter* p : params) {
    FitParameter f;
    f.lo = p->lo;
    f.hi = p->hi;
    f.value = f.prior = std::clamp(p->value(km), p->lo, p->hi);
    f.prior_log_sigma = 3.0;  // weak: thousands of rows decide
    problem.parameters.push_back(f);
  }
  problem.residual_count = fit.size();
  problem.max_iterations = 300;
  problem.residuals = [&](const std::vector<double>& values, std::vector<double>& r,
                          const std::vector<std::size_t>* only) {
    for (std::size_t j = 0; j < params.size(); ++j) params[j]->at(km) = values[j];
    auto one = [&](std::size_t i) {
      r[i] = log_error(predict_kernel_sample(m.rows.op, *fit[i], km, tiling, hw), fit[i]->latency_s);
    };
    if (only)
      for (std::size_t i : *only) one(i);
    else
      for (std::size_t i = 0; i < fit.size(); ++i) one(i);
  };
  if (fit.empty() || params.empty()) return FitResult{};
  // Piecewise models (a roofline's max, a protocol's min) leave local optima: three starts, the stated defaults and
  // every constant halved or doubled, and the lowest objective kept.
  FitResult best;
  for (double scale : {1.0, 0.5, 2.0}) {
    FitProblem start = problem;
    for (std::size_t j = 0; j < params.size(); ++j)
      start.parameters[j].value = std::clamp(problem.parameters[j].value * scale, params[j]->lo, params[j]->hi);
    FitResult r = robust_fit(start);
    if (best.values.empty() || r.cost < best.cost) best = r;
  }
  // Four significant digits: the tables scatter by more than that, and the profile files stay readable and small
  // (they ship in the page's engine).
  for (std::size_t j = 0; j < params.size(); ++j)
    params[j]->at(km) = std::clamp(round_significant(best.values[j], 4), params[j]->lo, params[j]->hi);
  return best;
}

KernelScore score_model(const ModelRows& m, const KernelModels& km, const MatmulTiling& tiling, const Hardware& hw) {
  KernelScore s;
  s.op = m.op;
  s.variant = m.variant;
  s.family = m.family_words;
  std::vector<double> fit, held, family, signed_out;
  for (std::size_t i = 0; i < m.rows.samples.size(); ++i) {
    const KernelSample& x = *m.rows.samples[i];
    const double e = predict_kernel_sample(m.rows.op, x, km, tiling, hw) / x.latency_s - 1.0;
    if (m.rows.family[i])
      family.push_back(std::fabs(e));
    else if (m.rows.held[i])
      held.push_back(std::fabs(e));
    else
      fit.push_back(std::fabs(e));
    if (m.rows.family[i] || m.rows.held[i]) signed_out.push_back(e);
  }
  s.fit_rows = fit.size();
  s.held_rows = held.size();
  s.family_rows = family.size();
  s.fit_median = quantile(fit, 0.5);
  s.held_median = quantile(held, 0.5);
  s.held_p90 = quantile(held, 0.9);
  s.family_median = quantile(family, 0.5);
  s.family_p90 = quantile(family, 0.9);
  s.signed_median = quantile(signed_out, 0.5);
  return s;
}

// The GEMM tilings the fit chooses among (on the fit rows of the bf16 GEMMs): thread-block tiles of 64 x 128,
// 128 x 128 and 128 x 256 (CUTLASS's and cuBLAS's common Hopper and Blackwell tiles), with whole waves over the
// SMs, or without wave quantisation (stream-K and persistent kernels spread the last wave's work).
std::vector<MatmulTiling> candidate_tilings(const Hardware& hw) {
  std::vector<MatmulTiling> out;
  const double sms = hw.sm_count > 0 ? hw.sm_count : 1;
  for (auto [m, n] : {std::pair{64.0, 128.0}, std::pair{128.0, 128.0}, std::pair{128.0, 256.0}})
    for (double waves : {sms, 1.0}) out.push_back(MatmulTiling{m, n, 64.0, waves});
  return out;
}

const char* stop_words(const FitResult& r) { return r.values.empty() ? "" : fit_stop_name(r.stop); }

}  // namespace

KernelFit fit_kernels(const KernelTables& tables, const Hardware& hw, const KernelModels& start) {
  KernelFit out;
  out.kernels = start;
  out.kernels.source = tables.source;
  out.kernels.source.tables.clear();
  out.kernels.source.unfitted.clear();
  for (const KernelTable& t : tables.tables) out.kernels.source.tables.push_back(t.describe());
  const std::vector<ModelRows> models = model_rows(tables);

  // The tiling: the candidate whose bf16 GEMM fit has the smallest median error on its own fit rows.
  out.tiling = candidate_tilings(hw).front();
  const ModelRows* bf16 = nullptr;
  for (const auto& m : models)
    if (m.model == "gemm/bf16") bf16 = &m;
  if (bf16) {
    double best = 1e300;
    for (const MatmulTiling& t : candidate_tilings(hw)) {
      KernelModels trial = start;
      fit_model(*bf16, trial, t, hw);
      const double e = score_model(*bf16, trial, t, hw).fit_median;
      if (e < best) {
        best = e;
        out.tiling = t;
      }
    }
  }

  for (const ModelRows& m : models) {
    const FitResult r = fit_model(m, out.kernels, out.tiling, hw);
    KernelScore s = score_model(m, out.kernels, out.tiling, hw);
    s.stop = stop_words(r);
    s.iterations = r.iterations;
    out.scores.push_back(s);
  }
  // Elementwise kernels stream at the best share any measured streaming kernel reaches (a GEMV's operands, decode
  // attention's cache, standard or latent): each does some work beside the stream, so a pure stream is at least as
  // fast (the book measures an H100 vector add at 0.94 of HBM).
  auto has = [&](std::string_view model) {
    return std::any_of(models.begin(), models.end(), [&](const ModelRows& m) { return m.model == model; });
  };
  const bool decode = has("decode_attention");
  if (decode)
    out.kernels.stream_hbm_frac =
        std::max({out.kernels.decode.hbm_frac, has("decode_attention/mla") ? out.kernels.decode_mla.hbm_frac : 0.0,
                  out.kernels.gemm[static_cast<std::size_t>(GemmKind::bf16)].hbm_frac});

  // The models no table fitted.
  std::vector<std::string> all;
  for (const KernelParameter& p : kernel_parameters())
    if (std::find(all.begin(), all.end(), p.model()) == all.end()) all.push_back(p.model());
  for (const std::string& model : all)
    if (!(model == "memory" ? decode : has(model))) out.kernels.source.unfitted.push_back(model);
  return out;
}

KernelFamily kernel_family(const std::vector<KernelModels>& chips) {
  KernelFamily out;
  out.chips = chips;
  if (chips.empty()) return out;
  out.family = chips.front();
  // The family's constants come from its chips' tables too (the same repository): no run refits them.
  out.family.source.tables.clear();
  out.family.source.unfitted.clear();
  out.family.source.note = "the geometric mean of the chips' fitted constants, each over the chips whose tables fit it";
  for (const KernelParameter& p : kernel_parameters()) {
    double log_sum = 0, n = 0;
    for (const KernelModels& c : chips)
      if (c.source.fitted(p.model())) {
        log_sum += portable_log(p.value(c));
        n += 1;
      }
    if (n > 0)
      p.at(out.family) = std::clamp(round_significant(portable_exp(log_sum / n), 4), p.lo, p.hi);
    else
      out.family.source.unfitted.push_back(p.model());
  }
  std::sort(out.family.source.unfitted.begin(), out.family.source.unfitted.end());
  out.family.source.unfitted.erase(std::unique(out.family.source.unfitted.begin(), out.family.source.unfitted.end()),
                                   out.family.source.unfitted.end());
  for (KernelModels& c : out.chips)
    for (const KernelParameter& p : kernel_parameters())
      if (!c.source.fitted(p.model())) p.at(c) = p.value(out.family);
  return out;
}

}  // namespace scalescope
