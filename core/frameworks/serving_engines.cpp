// The serve commands of vLLM (`vllm serve`, docs.vllm.ai "Engine arguments"), SGLang (`python3 -m
// sglang.launch_server`, docs.sglang.ai "Server arguments") and TensorRT-LLM (`trtllm-serve` with an
// --extra_llm_api_options YAML). A replica is TP inside each attention rank and, with an expert axis, attention data
// parallel over it with the experts split across all of the replica's GPUs (the DeepSeek deployments' wide EP):
// vLLM spells it --data-parallel-size with --enable-expert-parallel, SGLang --dp-size with --enable-dp-attention
// inside a --tp-size of every GPU, TensorRT-LLM enable_attention_dp inside a tp_size of every GPU.
#include <algorithm>
#include <cmath>

#include "frameworks/framework.h"
#include "io/format.h"
#include "io/json_text.h"

namespace scalescope {

namespace {

enum class Engine { vllm, sglang, trtllm };

std::string header(const char* what, const ServingLaunch& p, const ModelConfig& m) {
  return std::string("# ") + what + ": " + m.name + " on " + format_count(p.chips()) +
         " GPUs per replica, the deployment Scalescope priced\n";
}

void common_notes(const ServingLaunch& p, LaunchNotes& notes, const char* model_flag) {
  notes.undecided = {std::string(model_flag) + ": the model's Hugging Face repository or local path",
                     "the replica count and the router in front of them; the host and port"};
  if (p.speculative)
    notes.undecided.push_back("the draft model or MTP head for " + config_value(p.lookahead) +
                              " speculative tokens (the engine priced the lookahead, not a method)");
  if (p.disaggregated)
    notes.undecided.push_back(
        "the disaggregated prefill servers: this launches the decode replica; launch the "
        "prefill pool as replicas of its own behind the router that hands over the KV caches");
}

// The batch the engine priced, per scheduler: vLLM and TensorRT-LLM schedule each attention rank alone.
double per_rank_batch(const ServingLaunch& p, double attention_ranks) { return std::ceil(p.batch / attention_ranks); }

// The experts' TP: the engine's default is the attention's TP; the serve commands split the experts over `ep` GPUs.
double expert_tensor(const ServingLaunch& p) { return p.expert_tensor > 0 ? p.expert_tensor : p.tensor; }
void experts_over_every_gpu(const ServingLaunch& p, LaunchNotes& notes, const char* engine) {
  if (p.expert > 1 && expert_tensor(p) != 1)
    notes.cannot("/parallelism/expert_tensor", std::string(engine) +
                                                   "'s expert parallelism puts whole experts on "
                                                   "each GPU (the experts' TP 1); the plan splits each expert over " +
                                                   config_value(expert_tensor(p)));
}

std::string write_vllm(const ServingLaunch& p, const ModelConfig& m, LaunchNotes& notes) {
  common_notes(p, notes, "<model>");
  std::string out = header("vLLM", p, m) + notes_comment(notes) + "vllm serve <model>";
  auto flag = [&](const std::string& f, const std::string& v = "") {
    out += " \\\n    --" + f + (v.empty() ? "" : " " + v);
  };
  flag("tensor-parallel-size", config_value(p.tensor));
  if (p.expert > 1) {
    flag("data-parallel-size", config_value(p.expert));
    flag("enable-expert-parallel");
  }
  experts_over_every_gpu(p, notes, "vLLM");
  flag("max-num-seqs", config_value(per_rank_batch(p, p.expert)));
  flag("max-model-len", config_value(p.prompt_len + p.generated_len));
  if (p.memory_frac > 0) flag("gpu-memory-utilization", config_value(p.memory_frac));
  if (p.weights == Dtype::fp8) flag("quantization", "fp8");
  if (p.kv == Dtype::fp8) flag("kv-cache-dtype", "fp8");
  if (p.speculative)
    flag("speculative-config",
         "'{\"method\": \"<draft>\", \"num_speculative_tokens\": " + config_value(p.lookahead) + "}'");
  return out + "\n";
}

std::string write_sglang(const ServingLaunch& p, const ModelConfig& m, LaunchNotes& notes) {
  common_notes(p, notes, "--model-path");
  std::string out =
      header("SGLang", p, m) + notes_comment(notes) + "python3 -m sglang.launch_server --model-path <model>";
  auto flag = [&](const std::string& f, const std::string& v = "") {
    out += " \\\n    --" + f + (v.empty() ? "" : " " + v);
  };
  flag("tp-size", config_value(p.chips()));
  if (p.expert > 1) {
    flag("dp-size", config_value(p.expert));
    flag("enable-dp-attention");
    flag("ep-size", config_value(p.chips() / expert_tensor(p)));
  }
  flag("max-running-requests", config_value(p.batch));
  flag("context-length", config_value(p.prompt_len + p.generated_len));
  if (p.memory_frac > 0) flag("mem-fraction-static", config_value(p.memory_frac));
  if (p.weights == Dtype::fp8) flag("quantization", "fp8");
  if (p.kv == Dtype::fp8) flag("kv-cache-dtype", "fp8_e4m3");
  if (p.speculative) {
    flag("speculative-algorithm", "EAGLE");
    flag("speculative-num-draft-tokens", config_value(p.lookahead));
  }
  return out + "\n";
}

// The command and its extra_llm_api_options YAML, written by a heredoc: one script that runs as it stands.
std::string write_trtllm(const ServingLaunch& p, const ModelConfig& m, LaunchNotes& notes) {
  common_notes(p, notes, "<model>");
  // Attention data parallel in TensorRT-LLM is one attention rank per GPU.
  const double attention_ranks = p.expert > 1 ? p.chips() : 1;
  if (p.expert > 1 && p.tensor > 1)
    notes.cannot("/parallelism/tensor",
                 "attention TP inside each attention-DP rank: TensorRT-LLM's "
                 "enable_attention_dp runs attention on one GPU per rank");
  experts_over_every_gpu(p, notes, "TensorRT-LLM");
  if (p.weights != m.weights_dtype.value_or(Dtype::bf16))
    notes.cannot("/dtypes/weights", std::string("weights in ") + std::string(dtype_name(p.weights)) +
                                        ": TensorRT-LLM serves the checkpoint's; quantize it first (ModelOpt)");
  std::string out = header("TensorRT-LLM", p, m) + notes_comment(notes) + "cat > extra_llm_api_options.yaml <<'EOF'\n";
  out += std::string("enable_attention_dp: ") + (p.expert > 1 ? "true" : "false") + "\n";
  if (p.kv == Dtype::fp8 || p.free_memory_frac > 0) out += "kv_cache_config:\n";
  if (p.kv == Dtype::fp8) out += "  dtype: fp8\n";
  if (p.free_memory_frac > 0) out += "  free_gpu_memory_fraction: " + config_value(p.free_memory_frac) + "\n";
  if (p.speculative)
    out += "speculative_config:\n  decoding_type: MTP\n  num_nextn_predict_layers: " + config_value(p.lookahead) + "\n";
  out += "EOF\ntrtllm-serve <model>";
  auto flag = [&](const std::string& f, const std::string& v) { out += " \\\n    --" + f + " " + v; };
  flag("tp_size", config_value(p.chips()));
  flag("ep_size", config_value(p.expert > 1 ? p.chips() / expert_tensor(p) : 1));
  flag("max_batch_size", config_value(per_rank_batch(p, attention_ranks)));
  flag("max_seq_len", config_value(p.prompt_len + p.generated_len));
  flag("extra_llm_api_options", "extra_llm_api_options.yaml");
  return out + "\n";
}

// The script above read back: the heredoc's YAML and the command's flags.
ConfigText read_trtllm_text(std::string_view text) {
  const std::size_t open = text.find("<<'EOF'");
  if (open == std::string_view::npos) return read_command_line(text);
  const std::size_t body = text.find('\n', open);
  const std::size_t close = body == std::string_view::npos ? body : text.find("\nEOF", body);
  if (close == std::string_view::npos) {
    ConfigText out;
    out.error = "the heredoc (<<'EOF') is not closed by a line EOF";
    return out;
  }
  const std::size_t line_start = text.rfind('\n', open);
  std::string command(text.substr(0, line_start == std::string_view::npos ? 0 : line_start));
  command += std::string(text.substr(std::min(text.size(), close + 4)));
  ConfigText out = read_command_line(command);
  ConfigText yaml = read_yaml(text.substr(body + 1, close - body - 1));
  if (!yaml.error.empty()) out.error = "extra_llm_api_options: " + yaml.error;
  out.entries.insert(out.entries.end(), yaml.entries.begin(), yaml.entries.end());
  return out;
}

std::string normalize(const std::string& key) {
  std::string name = key;
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

// The lengths a serve command gives only as their sum.
void read_lengths(ConfigSettings& c, const char* key, const ImportContext& ctx, ImportResult& out) {
  ServingLaunch& p = out.serving;
  double max_len = 0;
  c.positive_integer(key, "/prompt_len", max_len);
  p.prompt_len = ctx.prompt_len;
  p.generated_len = ctx.generated_len;
  if (p.prompt_len > 0 && p.generated_len > 0) return;
  if (max_len > 0 && p.prompt_len > 0)
    p.generated_len = max_len - p.prompt_len;
  else if (max_len > 0 && p.generated_len > 0)
    p.prompt_len = max_len - p.generated_len;
  if (p.prompt_len <= 0 || p.generated_len <= 0)
    out.problems.push_back(std::string("the command gives the longest sequence (") + key +
                           ") only: give the query's prompt_len and generated_len");
}

// vLLM's --speculative-config is a JSON object: its num_speculative_tokens.
bool vllm_speculative_tokens(ConfigSettings& c, double& lookahead) {
  const ConfigEntry* e = c.take("speculative_config", "/speculative/lookahead");
  if (!e) return false;
  Diagnostics d;
  const Json config = parse_document(e->value, d);
  const Json* tokens = d.empty() && config.is_object() && config.contains("num_speculative_tokens")
                           ? &config["num_speculative_tokens"]
                           : nullptr;
  if (tokens && tokens->is_number_integer() && *tokens >= 1 && *tokens <= 64) {
    lookahead = tokens->get<double>();
    return true;
  }
  c.refuse("speculative_config", "a JSON object whose num_speculative_tokens is a whole number from 1 to 64");
  return false;
}

void read_serve(ConfigSettings& c, const ImportContext& ctx, ImportResult& out, Engine engine) {
  ServingLaunch& p = out.serving;
  // Without a quantization flag the engines serve the checkpoint as published.
  if (ctx.model) p.weights = ctx.model->weights_dtype.value_or(Dtype::bf16);
  double tp = 1, dp = 1, batch = 0;
  bool ep = false;
  const char* tp_key = engine == Engine::vllm ? "tensor_parallel_size" : "tp_size";
  if (!c.positive_integer(tp_key, "/parallelism/tensor", tp) && engine == Engine::sglang)
    c.positive_integer("tp", "/parallelism/tensor", tp);
  if (engine == Engine::vllm) {
    c.positive_integer("data_parallel_size", "/parallelism/expert", dp);
    c.boolean("enable_expert_parallel", "/parallelism/expert", ep);
    p.tensor = tp;
    p.expert = ep ? dp : 1;
    if (ep && tp > 1) p.expert_tensor = 1;
    if (dp > 1 && !ep) out.assumed.push_back("data parallel without expert parallelism: separate replicas, one priced");
    c.positive_integer("max_num_seqs", "/batch", batch);
    batch *= p.expert;
  } else {
    const bool sglang = engine == Engine::sglang;
    c.positive_integer(sglang ? "dp_size" : "attention_dp_size", "/parallelism/expert", dp) ||
        (sglang && c.positive_integer("dp", "/parallelism/expert", dp));
    bool attention_dp = false;
    c.boolean(sglang ? "enable_dp_attention" : "enable_attention_dp", "/parallelism/expert", attention_dp);
    double ep_size = 1;
    c.positive_integer("ep_size", "/parallelism/expert_tensor", ep_size);
    if (!sglang && attention_dp) dp = tp;  // TensorRT-LLM: one attention rank on each GPU
    p.expert = attention_dp && dp > 1 ? dp : 1;
    p.tensor = tp / p.expert;
    if (p.expert > 1 && tp / ep_size != p.tensor) p.expert_tensor = tp / ep_size;
    c.positive_integer(sglang ? "max_running_requests" : "max_batch_size", "/batch", batch);
    if (!sglang) batch *= p.expert;
  }
  if (batch <= 0)
    out.problems.push_back("the command gives no batch (max-num-seqs, max-running-requests, max_batch_size)");
  p.batch = batch;
  read_lengths(c,
               engine == Engine::vllm     ? "max_model_len"
               : engine == Engine::sglang ? "context_length"
                                          : "max_seq_len",
               ctx, out);
  if (const ConfigEntry* e = c.take("quantization", "/dtypes/weights"))
    p.weights = e->value == "fp8" ? Dtype::fp8 : p.weights;
  if (const ConfigEntry* e = c.take("kv_cache_dtype", "/dtypes/kv"))
    p.kv = e->value.rfind("fp8", 0) == 0 ? Dtype::fp8 : Dtype::bf16;
  if (const ConfigEntry* e = c.take("kv_cache_config.dtype", "/dtypes/kv"))
    p.kv = e->value.rfind("fp8", 0) == 0 ? Dtype::fp8 : Dtype::bf16;
  // The memory budget, as each engine states it: a share of the whole, or the caches' share of what weights leave.
  static constexpr NumberRange kShare{"share", 0.05, 1, false, ""};
  c.number_in(engine == Engine::vllm ? "gpu_memory_utilization" : "mem_fraction_static", "/memory_frac", p.memory_frac,
              kShare) ||
      c.number_in("kv_cache_config.free_gpu_memory_fraction", "/free_memory_frac", p.free_memory_frac, kShare);
  double lookahead = 0;
  if (c.positive_integer("speculative_num_draft_tokens", "/speculative/lookahead", lookahead) ||
      c.positive_integer("speculative_config.num_nextn_predict_layers", "/speculative/lookahead", lookahead) ||
      vllm_speculative_tokens(c, lookahead)) {
    p.speculative = true, p.lookahead = lookahead;
    out.assumed.push_back("speculative decoding with " + config_value(lookahead) +
                          " tokens a step: give the query's "
                          "speculative.draft_model and acceptance_rate to price it (a config names no acceptance)");
  }
}

void read_vllm(ConfigSettings& c, const ImportContext& ctx, ImportResult& out) {
  read_serve(c, ctx, out, Engine::vllm);
}
void read_sglang(ConfigSettings& c, const ImportContext& ctx, ImportResult& out) {
  read_serve(c, ctx, out, Engine::sglang);
}
void read_trtllm(ConfigSettings& c, const ImportContext& ctx, ImportResult& out) {
  read_serve(c, ctx, out, Engine::trtllm);
}

}  // namespace

const Framework& vllm_framework() {
  static const Framework f{"vllm",  "vLLM (vllm serve)", "command_line",    false,     false,
                           nullptr, write_vllm,          read_command_line, normalize, read_vllm};
  return f;
}
const Framework& sglang_framework() {
  static const Framework f{"sglang",       "SGLang (sglang.launch_server)",
                           "command_line", false,
                           true,           nullptr,
                           write_sglang,   read_command_line,
                           normalize,      read_sglang};
  return f;
}
const Framework& trtllm_framework() {
  static const Framework f{"trtllm",       "TensorRT-LLM (trtllm-serve)",
                           "command_line", false,
                           true,           nullptr,
                           write_trtllm,   read_trtllm_text,
                           normalize,      read_trtllm};
  return f;
}

// By its writer: frameworks() holds copies of the entries, so the entry's address does not name it.
bool states_free_memory_frac(const Framework& f) { return f.write_serving == write_trtllm; }

}  // namespace scalescope
