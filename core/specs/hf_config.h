// A Hugging Face `config.json` (the file beside a checkpoint on the Hub) read as the engine's model, so a reader can
// paste any Llama (2-4), Mistral, Mixtral, Qwen (2, 3, MoE, 3-Next, 3.5), Gemma (1-4), DeepSeek (V2, V3, V3.2),
// Kimi K2 (and K2.5), GLM-5, MiniMax-M2 or gpt-oss config instead of writing the preset schema by hand:
//   {"model": {"hf_config": {...config.json...}, "overrides": {...}, "name": "..."}}   (docs/api.md "Scenario")
// The family comes from `model_type`; each family's keys map onto the book's symbols (jax-ml.github.io/scaling-book):
// num_hidden_layers L, hidden_size D, intermediate_size F, num_attention_heads N, num_key_value_heads K, head_dim H,
// vocab_size V, the MoE keys E, k, shared experts and expert F; latent attention's ranks and head widths; each
// layer's kind from the family's rule (first_k_dense_replace, moe_layer_freq, decoder_sparse_step, mlp_only_layers,
// interleave_moe_layer_step, moe_layers; sliding_window with Gemma's and Qwen's patterns, attention_chunk_size with
// Llama 4's NoPE layers, Gated DeltaNet every full_attention_interval) or from `layer_types`; the architecture
// features several families share (specs/hf_config_reader.h); multi-token prediction layers. A key the shape needs and
// the config lacks is a `missing_key` error; a key the engine does not know is an `unknown_key` error that names it (it
// might change the architecture; keys known to change nothing the book models — rope, norms, token ids, dtypes, dropout
// — are read silently). What the engine still leaves out (node-limited routing, attention sinks, a vision tower) is
// listed in the model's `not_modelled`, as the presets do.
#pragma once
#include <string>

#include "io/diagnostics.h"
#include "io/json_reader.h"
#include "specs/model.h"

namespace scalescope {

// The model-preset fields (docs/presets.md, without schema and sources) of a config.json; diagnostics carry JSON
// pointers below `path` (e.g. "/model/hf_config/num_hidden_layers").
Json hf_config_to_model(const Json& config, const std::string& path, Diagnostics& diagnostics);

// A scenario's {"hf_config": {...}, "overrides": {...}, "name": "..."} model object, validated like a preset.
ModelConfig resolve_hf_model(const Json& node, const std::string& path, Diagnostics& diagnostics);

}  // namespace scalescope
