// What the config.json reader (specs/hf_config.cpp) is made of: a typed reader that remembers which keys were read,
// so the rest can be named, and the readers of the architecture features several families share (latent, linear,
// sparse and global attention, multi-token prediction, a quantized checkpoint's dtype). Each writes the engine's
// model fields (docs/presets.md) into a JSON object.
#pragma once
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "io/diagnostics.h"
#include "io/json_reader.h"
#include "io/text.h"

namespace scalescope::hf {

constexpr std::int64_t kMaxDim = 1'000'000'000;  // as in model.cpp: any real model dimension is far below this
constexpr std::size_t kMaxUnknownReported = 20;  // a config full of unknown keys gets 20 diagnostics and a count

// One config.json object: typed reads that remember which keys were looked at, so the rest can be named.
class ConfigReader {
 public:
  ConfigReader(const Json& node, std::string path, std::string family, Diagnostics& d)
      : node_(node), path_(std::move(path)), family_(std::move(family)), d_(d) {}

  std::string path_of(const std::string& key) const { return json_pointer_child(path_, key); }
  Diagnostics& diagnostics() { return d_; }

  // The value of a key (marked as read); nullptr when absent or null (transformers writes null for "unset").
  const Json* get(const std::string& key) {
    seen_.insert(key);
    auto it = node_.find(key);
    return it == node_.end() || it->is_null() ? nullptr : &*it;
  }

  // A whole number >= min; `meaning` says what it is, for the message when a required key is missing.
  std::optional<std::int64_t> count(const std::string& key, const char* meaning, bool required, std::int64_t min = 1,
                                    std::int64_t max = kMaxDim) {
    const Json* v = get(key);
    if (!v) {
      if (required)
        add_diagnostic(d_, path_of(key), "missing_key",
                       "a " + family_ + " config.json needs '" + key + "' (" + meaning + ")");
      return std::nullopt;
    }
    return read_integer_value(*v, path_of(key), min, max, d_);
  }

  std::optional<bool> flag(const std::string& key) {
    const Json* v = get(key);
    if (!v) return std::nullopt;
    if (!v->is_boolean()) {
      add_diagnostic(d_, path_of(key), "wrong_type", "'" + key + "' must be true or false, got " + json_type_name(*v));
      return std::nullopt;
    }
    return v->get<bool>();
  }

  // A list of one entry per layer (`layers` of them), each read by `entry` (nullopt: a diagnostic was written).
  template <class T, class Read>
  std::optional<std::vector<T>> per_layer(const std::string& key, std::int64_t layers, Read entry) {
    const Json* v = get(key);
    if (!v) return std::nullopt;
    if (!v->is_array() || static_cast<std::int64_t>(v->size()) != layers) {
      add_diagnostic(d_, path_of(key), v->is_array() ? "inconsistent" : "wrong_type",
                     "'" + key + "' lists one entry per layer (" + std::to_string(layers) + ")");
      return std::nullopt;
    }
    std::vector<T> out;
    for (std::size_t i = 0; i < v->size(); ++i) {
      const std::optional<T> x = entry((*v)[i], json_pointer_child(path_of(key), i));
      if (!x) return std::nullopt;
      out.push_back(*x);
    }
    return out;
  }

  // Layer indices (each in [0, layers)), as `mlp_only_layers` and `moe_layers` list them.
  std::optional<std::vector<bool>> layer_set(const std::string& key, std::int64_t layers) {
    const Json* v = get(key);
    if (!v) return std::nullopt;
    if (!v->is_array()) {
      add_diagnostic(d_, path_of(key), "wrong_type", "'" + key + "' is a list of layer indices");
      return std::nullopt;
    }
    std::vector<bool> in(static_cast<std::size_t>(std::max<std::int64_t>(layers, 0)), false);
    for (std::size_t i = 0; i < v->size(); ++i) {
      const auto index = read_integer_value((*v)[i], json_pointer_child(path_of(key), i), 0, layers - 1, d_);
      if (!index) return std::nullopt;
      in[static_cast<std::size_t>(*index)] = true;
    }
    return in;
  }

  void silent(const std::vector<const char*>& keys) {
    for (const char* k : keys) seen_.insert(k);
  }

  // Every key nobody read is an error naming it: it may change the architecture in a way the engine cannot know.
  void report_unknown() {
    std::size_t unknown = 0;
    for (auto it = node_.begin(); it != node_.end(); ++it) {
      if (seen_.count(it.key())) continue;
      if (++unknown <= kMaxUnknownReported)
        add_diagnostic(d_, path_of(it.key()), "unknown_key",
                       "unknown key " + quote(it.key()) + " in a " + family_ +
                           " config.json: the engine does not know what it changes; remove it if it does not change "
                           "the model's shape");
    }
    if (unknown > kMaxUnknownReported)
      add_diagnostic(d_, path_, "unknown_key",
                     std::to_string(unknown - kMaxUnknownReported) + " more unknown keys in this config.json");
  }

 private:
  const Json& node_;
  std::string path_;
  std::string family_;
  Diagnostics& d_;
  std::set<std::string> seen_;
};

// The dtype a quantized checkpoint stores its weights in, from its quantization_config (transformers' quantizers:
// fp8 for DeepSeek-V3 and Kimi K2, mxfp4 for gpt-oss; GPTQ and AWQ their bit width; compressed-tensors' integer
// groups; NVIDIA ModelOpt's NVFP4 and FP8); empty for a method the engine has no dtype for, or for none.
std::optional<std::string> quantized_weights_dtype(const Json& config);

// Each feature's keys into the model fields `m` (latent attention: DeepSeek-V2/V3, Kimi K2; Gated DeltaNet and the
// gated softmax output: Qwen3-Next, Qwen3.5; the sparse attention indexer: DeepSeek-V3.2, GLM-5; the global layers'
// heads: Gemma 4; the multi-token prediction modules, as each family names them).
void read_latent_attention(ConfigReader& r, Json& m);
void read_gated_deltanet(ConfigReader& r, Json& m);
void read_sparse_attention(ConfigReader& r, Json& m);
void read_global_attention(ConfigReader& r, Json& m);
void read_mtp(ConfigReader& r, Json& m);
// A linear layer's state dtype from the config's `key` (float32, bfloat16 or float16) into the linear-attention
// shape `shape`; unset: the engine's default, fp32.
void read_state_dtype(ConfigReader& r, const std::string& key, Json& shape);

// A model given as a list of mixer and MLP blocks (Nemotron-H, Nemotron 3: hybrid_override_pattern or
// layers_block_type, as many as num_hidden_layers `blocks` where the config gives it, at most `max_blocks`): the
// layers, their patterns, the Mamba-2 shape and the experts into `m`, and what it leaves out into `not_modelled`
// (specs/hf_hybrid_blocks.cpp).
void read_hybrid_blocks(ConfigReader& r, std::optional<std::int64_t> blocks, std::int64_t max_blocks, Json& m,
                        Json& not_modelled);

// An always-on MLP of `width` (the config's `key`) as shared experts of the routed width `expert_ff`: how many,
// or a not_divisible diagnostic naming the key; 0 for none.
std::int64_t shared_experts_of_width(ConfigReader& r, const char* key, std::optional<std::int64_t> width,
                                     std::optional<std::int64_t> expert_ff);

// A per-layer list as the shortest cycle that repeats it (the engine's patterns are cyclic).
template <class T>
std::vector<T> shortest_cycle(const std::vector<T>& v) {
  for (std::size_t p = 1; p < v.size(); ++p) {
    if (v.size() % p != 0) continue;
    bool repeats = true;
    for (std::size_t i = p; i < v.size() && repeats; ++i) repeats = v[i] == v[i - p];
    if (repeats) return std::vector<T>(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(p));
  }
  return v;
}

}  // namespace scalescope::hf
