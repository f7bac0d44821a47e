#include "specs/layer_pattern.h"

#include <algorithm>
#include <cmath>

namespace scalescope {

const char* attention_span_name(AttentionSpan span) {
  switch (span) {
    case AttentionSpan::full:
      return "full";
    case AttentionSpan::sliding:
      return "sliding";
    case AttentionSpan::chunked:
      return "chunked";
    case AttentionSpan::linear:
      return "linear";
  }
  return "full";
}

const char* mlp_layer_name(MlpLayer mlp) {
  switch (mlp) {
    case MlpLayer::dense:
      return "dense";
    case MlpLayer::moe:
      return "moe";
    case MlpLayer::none:
      return "none";
  }
  return "dense";
}

std::string layer_kind_name(int kind) {
  return std::string(mlp_layer_name(kind_mlp(kind))) + "_" + attention_span_name(kind_span(kind));
}

LayerCounts LayerPattern::first(double n) const {
  n = std::clamp(n, 0.0, layers);
  if (runs.empty() || n <= 0) return {};
  // The last run that starts before layer n.
  const auto it = std::upper_bound(runs.begin(), runs.end(), n, [](double x, const Run& r) { return x <= r.start; });
  const std::size_t r = static_cast<std::size_t>(it - runs.begin()) - 1;
  LayerCounts out = before[r];
  out.n[runs[r].kind] += n - runs[r].start;
  return out;
}

LayerPattern build_layer_pattern(double layers, double dense_layers, bool moe_model, std::span<const MlpLayer> mlp,
                                 std::span<const AttentionSpan> attention) {
  LayerPattern p;
  p.layers = layers;
  auto push = [&](double start, int kind) {
    if (!p.runs.empty() && p.runs.back().kind == kind) return;
    LayerCounts before;
    if (!p.runs.empty()) {
      before = p.before.back();
      before.n[p.runs.back().kind] += start - p.runs.back().start;
    }
    p.runs.push_back({start, kind});
    p.before.push_back(before);
  };
  dense_layers = std::min(dense_layers, layers);
  const MlpLayer unlisted = moe_model ? MlpLayer::moe : MlpLayer::dense;
  // Layer i's MLP: the pattern's, an MoE one dense among the leading dense layers.
  auto mlp_at = [&](double i, MlpLayer listed) {
    return listed == MlpLayer::moe && i < dense_layers ? MlpLayer::dense : listed;
  };
  const bool uniform = mlp.size() <= 1 && attention.size() <= 1;
  if (uniform) {
    // Leading dense layers, then one kind to the end: any depth, two runs at most.
    const AttentionSpan span = attention.empty() ? AttentionSpan::full : attention[0];
    const MlpLayer rest = mlp.empty() ? unlisted : mlp[0];
    if (dense_layers > 0) push(0, layer_kind(mlp_at(0, rest), span));
    if (layers > dense_layers) push(dense_layers, layer_kind(rest, span));
  } else {
    const auto n = static_cast<std::size_t>(std::min(layers, kMaxPatternLayers));
    for (std::size_t i = 0; i < n; ++i) {
      const auto at = static_cast<double>(i);
      const MlpLayer kind = mlp_at(at, mlp.empty() ? unlisted : mlp[i % mlp.size()]);
      const AttentionSpan span = attention.empty() ? AttentionSpan::full : attention[i % attention.size()];
      push(at, layer_kind(kind, span));
    }
  }
  p.all = p.first(layers);
  p.moe_layers = p.all.moe();
  p.dense_layers = p.all.dense();
  p.no_mlp_layers = p.all.no_mlp();
  for (int k = 0; k < kAttentionSpans; ++k) p.span_layers[k] = p.all.span(static_cast<AttentionSpan>(k));
  return p;
}

long long LayerPattern::evaluation_work() const {
  long long units = 0;
  for (int k = 0; k < kLayerKinds; ++k)
    if (all.n[k] > 0) units += kind_is_moe(k) ? 2 : 1;
  return std::max(1LL, units);
}

}  // namespace scalescope
