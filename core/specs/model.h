// A Transformer's shape in the book's symbols (spec/book.md §0, §4): L, D, F, N, K, H, V, E, k.
#pragma once
#include <string>

#include "io/diagnostics.h"
#include "io/json_reader.h"

namespace scalescope {

enum class MlpKind { gated, plain };

struct ModelConfig {
  std::string id, name;
  double layers = 0;      // L
  double d_model = 0;     // D
  double d_ff = 0;        // F of a dense MLP layer
  double heads = 0;       // N
  double kv_heads = 0;    // K
  double head_dim = 0;    // H
  double vocab = 0;       // V
  bool tied_embeddings = false;
  MlpKind mlp = MlpKind::gated;
  double experts = 0;         // E routed experts per MoE layer; 0 = dense model
  double active_experts = 0;  // k
  double shared_experts = 0;
  double expert_d_ff = 0;     // F of one expert
  double dense_layers = 0;    // leading dense layers of an MoE model

  bool is_moe() const { return experts > 0; }
  double moe_layers() const { return is_moe() ? layers - dense_layers : 0; }
  double dense_mlp_layers() const { return is_moe() ? dense_layers : layers; }
  double mlp_matrices() const { return mlp == MlpKind::gated ? 3.0 : 2.0; }
};

// Parses a model object: a preset file (`require_sources`), or a scenario's inline model / preset + overrides.
// Also checks the shape makes sense (heads divisible by kv heads, active <= routed experts, ...).
ModelConfig parse_model(const Json& node, const std::string& path, bool require_sources, Diagnostics& diagnostics);

}  // namespace scalescope
