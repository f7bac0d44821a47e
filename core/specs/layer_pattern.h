// What each layer of a model is (docs/design.md "Models are described exactly"): its MLP, dense, mixture-of-experts or
// none (Nemotron-H runs some mixers with no MLP after them), and its attention span, full, sliding-window (gpt-oss,
// Gemma 2/3), chunked (Llama 4) or linear (a recurrent layer with a fixed-size state instead of a KV cache: Gated
// DeltaNet in Qwen3-Next and Qwen3.5, Mamba-2 in Nemotron-H). Models repeat a short cycle of layer kinds (Llama 4
// Maverick: dense, MoE; Gemma 3: five sliding, one full) after some leading dense layers (DeepSeek-V3: 3), or list
// every layer (Qwen's mlp_only_layers). The pattern is kept as runs of equal layers, so a question about any stretch
// of layers (a pipeline stage, a model chunk) costs a binary search.
#pragma once
#include <array>
#include <span>
#include <string>
#include <vector>

namespace scalescope {

enum class MlpLayer : unsigned char { dense, moe, none };
enum class AttentionSpan : unsigned char { full, sliding, chunked, linear };
constexpr int kMlpLayers = 3;
constexpr int kAttentionSpans = 4;
constexpr int kLayerKinds = kMlpLayers * kAttentionSpans;  // {dense, moe, none} x {full, sliding, chunked, linear}
constexpr int layer_kind(MlpLayer mlp, AttentionSpan span) {
  return static_cast<int>(mlp) * kAttentionSpans + static_cast<int>(span);
}
constexpr int layer_kind(bool moe, AttentionSpan span) {
  return layer_kind(moe ? MlpLayer::moe : MlpLayer::dense, span);
}
constexpr MlpLayer kind_mlp(int kind) { return static_cast<MlpLayer>(kind / kAttentionSpans); }
constexpr bool kind_is_moe(int kind) { return kind_mlp(kind) == MlpLayer::moe; }
constexpr AttentionSpan kind_span(int kind) { return static_cast<AttentionSpan>(kind % kAttentionSpans); }
const char* attention_span_name(AttentionSpan span);
const char* mlp_layer_name(MlpLayer mlp);
// "dense_full", "moe_sliding", "none_linear" (a linear layer without an MLP), ...: a kind's name in results.
std::string layer_kind_name(int kind);

// How many layers of each kind a stretch of layers holds.
// Inline: a plan search asks them of every plan it bounds.
struct LayerCounts {
  std::array<double, kLayerKinds> n{};

  double total() const {
    double t = 0;
    for (double x : n) t += x;
    return t;
  }
  double mlp(MlpLayer kind) const {
    double t = 0;
    for (int s = 0; s < kAttentionSpans; ++s) t += n[layer_kind(kind, static_cast<AttentionSpan>(s))];
    return t;
  }
  double moe() const { return mlp(MlpLayer::moe); }
  double dense() const { return mlp(MlpLayer::dense); }
  double no_mlp() const { return mlp(MlpLayer::none); }
  double span(AttentionSpan s) const {
    return n[layer_kind(MlpLayer::dense, s)] + n[layer_kind(MlpLayer::moe, s)] + n[layer_kind(MlpLayer::none, s)];
  }
  LayerCounts operator-(const LayerCounts& o) const {
    LayerCounts out;
    for (int k = 0; k < kLayerKinds; ++k) out.n[k] = n[k] - o.n[k];
    return out;
  }
  LayerCounts scaled(double f) const {
    LayerCounts out;
    for (int k = 0; k < kLayerKinds; ++k) out.n[k] = n[k] * f;
    return out;
  }
};

// The longest cycle of layer kinds a model may list, and the most layers a patterned model may have (a model whose
// layers are all alike, after leading dense ones, may have any number).
constexpr int kMaxPatternLength = 4096;
constexpr double kMaxPatternLayers = 4096;

struct LayerPattern {
  struct Run {
    double start = 0;  // first layer of the run
    int kind = 0;
  };
  std::vector<Run> runs;            // in order; a run lasts until the next one starts (the last one to `layers`)
  std::vector<LayerCounts> before;  // layers of each kind before each run
  double layers = 0;
  LayerCounts all;
  // The whole model's counts, kept so that the hot paths read them without summing.
  double moe_layers = 0, dense_layers = 0, no_mlp_layers = 0;
  std::array<double, kAttentionSpans> span_layers{};

  // The kinds of layers [0, n) and [first, last).
  LayerCounts first(double n) const;
  LayerCounts range(double first_layer, double last_layer) const { return first(last_layer) - first(first_layer); }
  bool any_moe() const { return moe_layers > 0; }
  // Bounded work (issue 22): what evaluating the model once costs, in units of half a microsecond to a microsecond of
  // CPU. A step prices every kind of layer the model has, and an MoE kind about twice a dense kind's ops (router,
  // permutes, grouped experts, dispatch): DeepSeek-V3 (dense and MoE layers) is 3 units, about 3x a dense LLaMA
  // (measured by tests/limits_check.cpp).
  long long evaluation_work() const;
  bool all_full() const { return span_layers[0] == layers; }
};

// Layer i's MLP is mlp[i mod its length] (empty: MoE when `moe_model`, dense otherwise), but dense where that is MoE
// and i < dense_layers; its attention is attention[i mod its length] (empty: full). Callers check that a
// pattern is short enough (kMaxPatternLength) and a patterned model shallow enough (kMaxPatternLayers).
LayerPattern build_layer_pattern(double layers, double dense_layers, bool moe_model, std::span<const MlpLayer> mlp,
                                 std::span<const AttentionSpan> attention);

}  // namespace scalescope
