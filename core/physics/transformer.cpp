#include "physics/transformer.h"

namespace scalescope {

ParamCounts count_params(const ModelConfig& m) {
  ParamCounts p;
  const double dense_mlp = m.mlp_matrices() * m.d_model * m.d_ff;
  const double expert_mlp = m.mlp_matrices() * m.d_model * m.expert_d_ff;
  p.mlp = m.dense_mlp_layers() * dense_mlp + m.moe_layers() * (m.experts + m.shared_experts) * expert_mlp;
  p.mlp_active =
      m.dense_mlp_layers() * dense_mlp + m.moe_layers() * (m.active_experts + m.shared_experts) * expert_mlp;
  p.attention = m.layers * 2.0 * m.d_model * (m.heads + m.kv_heads) * m.head_dim;
  p.router = m.moe_layers() * m.d_model * m.experts;
  p.embeddings = (m.tied_embeddings ? 1.0 : 2.0) * m.vocab * m.d_model;
  p.norms = (2.0 * m.layers + 1.0) * m.d_model;
  p.total = p.mlp + p.attention + p.router + p.embeddings + p.norms;
  p.active = p.mlp_active + p.attention + p.router + p.embeddings + p.norms;
  return p;
}

FlopCounts count_flops(const ModelConfig& m, double tokens, double seq_len, bool causal, FlopAccount account) {
  const ParamCounts p = count_params(m);
  FlopCounts f;
  const double matmul_params =
      account == FlopAccount::six_nd ? p.active : p.mlp_active + p.attention + p.router + m.vocab * m.d_model;
  f.matmul_forward = 2.0 * tokens * matmul_params;
  const double keys_per_query = causal ? seq_len / 2.0 : seq_len;
  f.attention_forward =
      account == FlopAccount::six_nd ? 0.0 : 4.0 * tokens * keys_per_query * m.heads * m.head_dim * m.layers;
  f.forward = f.matmul_forward + f.attention_forward;
  f.training = 3.0 * f.forward;
  f.attention_fraction = f.forward > 0 ? f.attention_forward / f.forward : 0.0;
  return f;
}

double attention_equals_qkvo_seq_len(const ModelConfig& m, bool causal) {
  return (causal ? 2.0 : 1.0) * m.d_model * (m.heads + m.kv_heads) / m.heads;
}

double attention_equals_matmuls_seq_len(const ModelConfig& m, bool causal) {
  const ParamCounts p = count_params(m);
  const double per_layer_params = (p.mlp_active + p.attention) / m.layers;
  return (causal ? 2.0 : 1.0) * per_layer_params / (2.0 * m.heads * m.head_dim);
}

namespace {
constexpr std::string_view kRematNames[] = {"none", "block", "big_matmuls", "mlp_matmuls", "checkpoints"};
}

std::optional<Remat> parse_remat(std::string_view name) {
  for (int i = 0; i < 5; ++i)
    if (kRematNames[i] == name) return static_cast<Remat>(i);
  return std::nullopt;
}
std::string_view remat_name(Remat r) { return kRematNames[static_cast<int>(r)]; }
const char* remat_choices() { return "none, block, big_matmuls, mlp_matmuls, checkpoints"; }

RematCost remat_cost(const ModelConfig& m, Remat policy, double tokens, double seq_len, double k, Dtype act,
                     bool causal, FlopAccount account) {
  RematCost r;
  const double d = m.d_model, f = m.is_moe() ? m.expert_d_ff : m.d_ff;
  const double mlp_in = (m.mlp == MlpKind::gated ? 2.0 : 1.0) * f;
  const FlopCounts fwd = count_flops(m, tokens, seq_len, causal, account);
  const double layers_forward = fwd.forward - 2.0 * tokens * m.vocab * m.d_model;  // the unembedding is not redone
  switch (policy) {
    case Remat::none: r.saved_width_per_layer = 20.0 * d; break;  // §2.7 "≈20 intermediates per layer"
    case Remat::block:                                            // §2.7: 6ND -> 8ND
      r.saved_width_per_layer = d;
      r.extra_forward_flops = layers_forward;
      break;
    case Remat::big_matmuls:  // §2.7: QK^T and AV are recomputed, 4 B T^2 N H per layer
      r.saved_width_per_layer = (m.heads + 2.0 * m.kv_heads) * m.head_dim + d + mlp_in + d;
      r.extra_forward_flops = fwd.attention_forward;
      break;
    case Remat::mlp_matmuls:  // attention block recomputed from the saved MLP outputs
      r.saved_width_per_layer = d + mlp_in;
      r.extra_forward_flops = fwd.attention_forward + 2.0 * tokens * count_params(m).attention;
      break;
    case Remat::checkpoints:
      r.saved_width_per_layer = k * d;
      r.extra_forward_flops = layers_forward;
      break;
  }
  r.activation_bytes = bytes_per_element(act) * tokens * r.saved_width_per_layer * m.layers;
  return r;
}

}  // namespace scalescope
