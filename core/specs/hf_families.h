// The config.json families the reader knows (specs/hf_config.cpp): each model_type's rules for its experts and its
// windowed or chunked layers, the keys it may carry that change nothing the book models, and the readers of the
// expert and window fields those rules select.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "specs/hf_config_reader.h"
#include "specs/layer_pattern.h"

namespace scalescope::hf {

// The most Transformer blocks a config.json may have: a patterned model's limit (layer_pattern.h), far above any
// published model (DeepSeek-V3: 61, Llama 3.1 405B: 126).
constexpr std::int64_t kMaxConfigLayers = static_cast<std::int64_t>(kMaxPatternLayers);

// How a family lays out its experts (the keys differ per family; the book's E, k, shared experts, expert F).
// nemotron_h: read with the blocks (hf_hybrid_blocks.cpp).
// kimi: DeepSeek's layout under Kimi Linear's key names (num_experts, num_experts_per_token, num_shared_experts).
enum class Experts { none, mixtral, qwen, deepseek, llama4, gpt_oss, minimax, gemma4, nemotron_h, kimi };
// Which layers of a family attend to a window or a chunk instead of the whole sequence (`layer_types`, where a
// config lists it, overrides the family's rule; transformers' config classes give the same defaults).
enum class Windows {
  none,        // every layer full attention
  all,         // Mistral: `sliding_window` (when set) on every layer
  qwen,        // Qwen2/3: sliding from layer max_window_layers on, when use_sliding_window
  gemma2,      // even layers sliding, odd layers full
  gemma3,      // five sliding layers, then one full (sliding_window_pattern)
  llama4,      // chunked attention on RoPE layers, full on every no_rope_layer_interval-th (NoPE) layer
  layer_types  // gpt-oss: only what layer_types says
};

// The table below names a family's switches (designated initializers) where it sets any beyond the window rule.
struct Family {
  const char* model_type;
  Experts experts;
  bool tied_by_default;             // transformers' default for tie_word_embeddings in this family
  std::vector<const char*> silent;  // family keys that change nothing the book models
  std::int64_t default_vocab = 0;   // transformers' default vocab_size where configs leave it out (0: required)
  Windows windows = Windows::none;
  bool latent_attention = false;  // multi-head latent attention (DeepSeek-V2 §2.1)
  bool gated_deltanet = false;    // Gated DeltaNet layers beside gated softmax attention (Qwen3-Next, Qwen3.5)
  bool experts_only = false;      // every layer is MoE and the config has no dense intermediate_size (Qwen3.5)
  bool sparse_attention = false;  // DeepSeek Sparse Attention's indexer (DeepSeek-V3.2, GLM-5)
  bool hybrid_blocks = false;     // a list of mixer and MLP blocks, not of layers (Nemotron-H, Nemotron 3)
  bool kimi_delta = false;        // Kimi Delta Attention layers beside latent attention (Kimi Linear)
};

// Multimodal configs name the whole model; their text_config is the family's (Gemma 3, Llama 4).
inline constexpr std::pair<const char*, const char*> kModelTypeAliases[] = {{"gemma3", "gemma3_text"},
                                                                            {"llama4", "llama4_text"},
                                                                            {"qwen3_5_moe", "qwen3_5_moe_text"},
                                                                            {"qwen3_5", "qwen3_5_text"},
                                                                            {"gemma4", "gemma4_text"}};

// Keys every family's config.json may carry that change nothing in the book's model.
const std::vector<const char*>& common_silent_keys();
const std::vector<Family>& families();
// Every model_type the engine reads, the multimodal names too (the valid list a message gives, as schema/ does).
std::vector<std::string> model_types();
// `mlp_pattern` from each layer's MLP (true: MoE), unless every layer after the first `dense_layers` is MoE.
bool write_mlp_pattern(const std::vector<bool>& moe, std::int64_t dense_layers, Json& m);
// The expert fields of an MoE family into `m`; `d_ff` is the dense MLP width already read.
void read_experts(ConfigReader& r, Experts kind, std::int64_t layers, std::optional<std::int64_t>& d_ff, Json& m);
// Which layers attend to a window or a chunk, with their sizes, into `m` (attention_pattern, sliding_window,
// attention_chunk).
void read_windows(ConfigReader& r, const Family& family, std::int64_t layers, Json& m);
// Kimi Linear's linear_attn_config: the KDA layers' shape (linear_attention) and which layers they are
// (attention_pattern), the rest latent attention.
void read_kimi_delta(ConfigReader& r, std::int64_t layers, Json& m);

}  // namespace scalescope::hf
