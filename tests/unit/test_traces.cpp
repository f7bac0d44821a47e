// Issue 37: a profiler trace against the roofline (core/traces/). The fixtures under tests/traces/ are cut from
// public traces (tests/traces/README.md names each source, commit and licence); the hand-made traces below are
// small enough to count by hand.
#include <cmath>
#include <map>

#include "test_helpers.h"
#include "traces/kernel_classes.h"
#include "traces/op_costs.h"
#include "traces/trace_session.h"

using namespace scalescope;
using namespace scalescope::test;

namespace {

std::string trace_fixture(const std::string& file) {
  std::ifstream in(std::string(SCALESCOPE_SOURCE_DIR) + "/tests/traces/" + file, std::ios::binary);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Json analyze(std::string_view trace, const Json& options = Json::object()) {
  return Json::parse(analyze_trace_json(trace, options.dump()));
}

bool has_code(const Json& answer, const std::string& code) {
  for (const auto& d : answer["diagnostics"])
    if (d["code"] == code) return true;
  return false;
}

// One kernel or copy, and optionally the runtime launch and the CPU op (with shapes) that started it.
Json kernel(double ts, double dur, const std::string& name, int stream, long long correlation = -1) {
  return {{"ph", "X"},     {"cat", "kernel"},
          {"name", name},  {"pid", 0},
          {"tid", stream}, {"ts", ts},
          {"dur", dur},    {"args", {{"device", 0}, {"stream", stream}, {"correlation", correlation}}}};
}
Json launch(double ts, long long correlation, long long external_id, int thread = 1) {
  return {{"ph", "X"},
          {"cat", "cuda_runtime"},
          {"name", "cudaLaunchKernel"},
          {"pid", 100},
          {"tid", thread},
          {"ts", ts},
          {"dur", 1},
          {"args", {{"correlation", correlation}, {"External id", external_id}}}};
}
Json cpu_op(double ts, double dur, const std::string& name, long long external_id, const Json& dims, const Json& types,
            int thread = 1) {
  return {{"ph", "X"},     {"cat", "cpu_op"},
          {"name", name},  {"pid", 100},
          {"tid", thread}, {"ts", ts},
          {"dur", dur},    {"args", {{"External id", external_id}, {"Input Dims", dims}, {"Input type", types}}}};
}
std::string trace_of(const Json& events, const std::string& device = "NVIDIA H100 80GB HBM3") {
  return Json{{"deviceProperties", {{{"id", 0}, {"name", device}}}}, {"traceEvents", events}}.dump();
}

const Json* op_row(const Json& result, const std::string& op, const std::string& shape) {
  for (const auto& row : result["ops"])
    if (row["op"] == op && row["shape"] == shape) return &row;
  return nullptr;
}

}  // namespace

TEST_CASE("trace: the two sample traces are classified, at least 95% of their kernel time (issue 37)", "[traces]") {
  // Cut from a vLLM gpt-oss trace on 8 B200s (TraceLens) and a recommender's 8-rank A100 trace (HTA).
  for (const char* file : {"b200_vllm_gpt_oss_tp8_rank0.json", "a100_dlrm_8rank_rank3.json"}) {
    INFO(file);
    const Json answer = analyze(trace_fixture(file));
    REQUIRE(answer["ok"] == true);
    CHECK(answer["result"]["classified_share"].get<double>() >= 0.95);
    double by_class = 0;
    for (const auto& c : answer["result"]["classes"]) by_class += c["time_s"].get<double>();
    CHECK(by_class == Approx(answer["result"]["kernel_time_s"].get<double>()).epsilon(1e-12));
  }
}

TEST_CASE("trace: each recorded GEMM's FLOPs are 2·M·N·K, its bytes each operand once (scaling-book/roofline)",
          "[traces]") {
  const Json r = analyze(trace_fixture("b200_vllm_gpt_oss_tp8_rank0.json"), {{"top", 100}})["result"];
  // aten::addmm(bias [640], x [888, 2880], w [2880, 640]) in bf16: M 888, K 2880, N 640.
  const Json* qkv = op_row(r, "aten::addmm", "888x2880 @ 2880x640");
  REQUIRE(qkv);
  const double calls = (*qkv)["calls"].get<double>();
  CHECK(calls == 36);  // one per layer of gpt-oss-120b's 36
  CHECK((*qkv)["flops"].get<double>() / calls == 2.0 * 888 * 640 * 2880);
  CHECK((*qkv)["bytes"].get<double>() / calls == 2.0 * (888 * 2880 + 2880 * 640 + 888 * 640));
  // The logits' aten::mm(x [1, 2880], w [2880, 25136]): one token's row against a vocabulary shard.
  const Json* logits = op_row(r, "aten::mm", "1x2880 @ 2880x25136");
  REQUIRE(logits);
  CHECK((*logits)["flops"].get<double>() == 2.0 * 1 * 2880 * 25136);
  CHECK((*logits)["reason"]["code"] == "small_shape");
  // An unpriced kernel is its own call: the MoE layers' expert GEMMs under vllm::moe_forward, once per layer.
  for (const auto& row : r["ops"])
    if (row["class"] == "moe" && row["kernel"].get<std::string>().rfind("bmm_MxE4m3", 0) == 0)
      CHECK(row["calls"] == 36);

  // Every matmul form the profiler records, by hand.
  auto flops = [](const char* op, const Json& dims, const Json& types) {
    OpShape s;
    for (const auto& d : dims) s.dims.push_back(d.get<std::vector<double>>());
    for (const auto& t : types) s.types.push_back(t.get<std::string>());
    const auto c = matmul_cost(op, s);
    return c ? c->flops : -1.0;
  };
  const Json bf16x2 = {"c10::BFloat16", "c10::BFloat16"};
  CHECK(flops("aten::mm", {{64, 32}, {32, 16}}, bf16x2) == 2.0 * 64 * 16 * 32);
  CHECK(flops("aten::bmm", {{8, 64, 32}, {8, 32, 16}}, bf16x2) == 2.0 * 8 * 64 * 16 * 32);
  CHECK(flops("aten::matmul", {{4, 64, 32}, {32, 16}}, bf16x2) == 2.0 * 256 * 16 * 32);
  CHECK(flops("aten::linear", {{2, 64, 32}, {16, 32}, {16}}, {"c10::BFloat16", "c10::BFloat16", "c10::BFloat16"}) ==
        2.0 * 128 * 16 * 32);
  CHECK(flops("aten::baddbmm", {{8, 64, 16}, {8, 64, 32}, {8, 32, 16}},
              {"c10::BFloat16", "c10::BFloat16", "c10::BFloat16"}) == 2.0 * 8 * 64 * 16 * 32);
  CHECK(flops("aten::mm", {{64, 32}, {33, 16}}, bf16x2) == -1);                // inner dimensions differ
  CHECK(flops("aten::mm", {{64, 32}, {32, 16}}, {"double", "double"}) == -1);  // no dtype the engine prices
  CHECK(flops("aten::mm", {{64}}, {"c10::BFloat16"}) == -1);
}

TEST_CASE("trace: a collective's bytes are its recorded element count times its dtype (scaling-book/gpus' V)",
          "[traces]") {
  const Json r = analyze(trace_fixture("b200_vllm_gpt_oss_tp8_rank0.json"), {{"top", 100}})["result"];
  // NCCL's AllGather records In msg nelems 25,136 and Out msg nelems 201,088 (8 ranks) of BFloat16: V is the
  // gathered array.
  bool found = false;
  for (const auto& row : r["ops"])
    if (row["class"] == "collective" && row["kernel"].get<std::string>().find("AllGather") != std::string::npos) {
      found = true;
      CHECK(row["bytes"].get<double>() == 201088.0 * 2);
      CHECK(row["exposed_s"].get<double>() == Approx(row["time_s"].get<double>()));  // nothing else ran then
      // scaling-book/gpus, intra-node collectives, on an 8-GPU NVLink domain: V (N-1)/N / W, here at most the latency
      // the preset states.
      CHECK(row["roofline_s"].get<double>() > 201088.0 * 2 * 7 / 8 / hardware("b200").scale_up.gpu_unidir_bytes_per_s);
    }
  CHECK(found);
  CollectiveRecord reduce{"allreduce", "Float", 1000, 1000, 4};
  const auto all_reduce = collective_bytes(reduce, "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
  REQUIRE(all_reduce);
  CHECK(all_reduce->op == Collective::all_reduce);
  CHECK(all_reduce->bytes == 4000);
  CHECK_FALSE(collective_bytes({"allreduce", "Float", 1000, 1000, 1}, ""));  // a group of one sends nothing
}

TEST_CASE("trace: exposed communication and idle time on a hand-made two-stream trace", "[traces]") {
  // Compute on stream 7 over [0, 100) and [300, 310); an all-reduce on stream 20 over [50, 200).
  const Json events = {kernel(1000, 100, "sm90_xmma_gemm_bf16bf16", 7),
                       kernel(1050, 150, "ncclDevKernel_AllReduce", 20),
                       kernel(1300, 10, "void at::native::vectorized_elementwise_kernel<4>", 7)};
  const Json r = analyze(trace_of(events))["result"];
  const Json& device = r["devices"][0];
  CHECK(device["window_s"].get<double>() == Approx(310e-6));
  CHECK(device["busy_s"].get<double>() == Approx(210e-6));
  CHECK(device["idle_s"].get<double>() == Approx(100e-6));
  CHECK(device["communication_s"].get<double>() == Approx(150e-6));
  CHECK(device["exposed_communication_s"].get<double>() == Approx(100e-6));
  CHECK(device["overlapped_communication_s"].get<double>() == Approx(50e-6));
  CHECK(r["idle_gaps"][0]["start_s"].get<double>() == Approx(200e-6));
  CHECK(r["idle_gaps"][0]["duration_s"].get<double>() == Approx(100e-6));
  CHECK(r["gaps"][0]["class"] == "idle");
}

TEST_CASE("trace: a GEMM's roofline on the trace's chip, linked by External id or by nesting", "[traces]") {
  const Hardware h100 = hardware("h100-sxm");
  const Json dims = {{4096, 4096}, {4096, 4096}};
  const Json types = {"c10::BFloat16", "c10::BFloat16"};
  const double flops = 2.0 * 4096 * 4096 * 4096, roofline_s = flops / h100.peak(Dtype::bf16);
  // PyTorch 2.x: the launch names the op's External id.
  const Json by_id = {cpu_op(0, 50, "aten::mm", 7, dims, types), launch(10, 500, 7),
                      kernel(100, 400, "sm90_xmma_gemm_bf16bf16_bf16f32", 7, 500)};
  // Older traces: the launch's External id is its correlation, and the op is the innermost one around it.
  const Json by_nesting = {cpu_op(0, 80, "aten::linear", 3, Json::array(), Json::array()),
                           cpu_op(5, 50, "aten::mm", 4, dims, types), launch(10, 500, 500),
                           kernel(100, 400, "sm90_xmma_gemm_bf16bf16_bf16f32", 7, 500)};
  for (const Json& events : {by_id, by_nesting}) {
    const Json answer = analyze(trace_of(events));
    REQUIRE(answer["ok"] == true);
    const Json& r = answer["result"];
    CHECK(r["hardware"]["id"] == "h100-sxm");
    CHECK(r["hardware"]["from"] == "deviceProperties");
    const Json* row = op_row(r, "aten::mm", "4096x4096 @ 4096x4096");
    REQUIRE(row);
    CHECK((*row)["flops"].get<double>() == flops);
    CHECK((*row)["roofline_s"].get<double>() == Approx(roofline_s).epsilon(1e-12));
    CHECK((*row)["achieved_fraction"].get<double>() == Approx(roofline_s / 400e-6).epsilon(1e-12));
    CHECK((*row)["reason"]["code"] == "below_peak");
    CHECK(r["priced_share"].get<double>() == 1);
  }
  // The chip the caller names wins over the trace's.
  const Json on_b200 = analyze(trace_of(by_id), {{"hardware", "b200"}})["result"];
  CHECK(on_b200["hardware"]["from"] == "query");
  CHECK(op_row(on_b200, "aten::mm", "4096x4096 @ 4096x4096")->at("roofline_s").get<double>() ==
        Approx(flops / hardware("b200").peak(Dtype::bf16)));
  // A device without a preset: classes and FLOPs, no roofline, and a warning that says how to get one.
  const Json v100 = analyze(trace_of(by_id, "Tesla V100-SXM2-32GB"));
  CHECK(v100["ok"] == true);
  CHECK(has_code(v100, "unknown_device"));
  CHECK(v100["result"]["hardware"].is_null());
  CHECK(op_row(v100["result"], "aten::mm", "4096x4096 @ 4096x4096")->at("flops").get<double>() == flops);
}

TEST_CASE("trace: kernels are classed by name, and by the op that launched them", "[traces]") {
  CHECK(classify_kernel("nvjet_tst_64x64_64x16_2x1_2cta_v_bz_bias_TNT", "kernel", "aten::addmm") == OpClass::matmul);
  CHECK(classify_kernel("Cijk_Alik_Bljk_BBS_BH_MT128x128x64", "kernel", "") == OpClass::matmul);
  CHECK(classify_kernel("bmm_MxE4m3_MxE2m1MxE4m3_Fp32_t128x16x256", "kernel", "vllm::moe_forward") == OpClass::moe);
  CHECK(classify_kernel("fmhaSm100aKernel_QkvE4m3OBfloat16H64PagedKv", "kernel", "") == OpClass::attention);
  CHECK(classify_kernel("flash_fwd_kernel<Flash_fwd_kernel_traits<128>>", "kernel", "") == OpClass::attention);
  CHECK(classify_kernel("ncclDevKernel_AllGather_RING_LL", "kernel", "") == OpClass::collective);
  CHECK(classify_kernel("Memcpy DtoD (Device -> Device)", "gpu_memcpy", "") == OpClass::memcpy);
  CHECK(classify_kernel("void vllm::rms_norm_kernel<c10::BFloat16>", "kernel", "") == OpClass::normalization);
  CHECK(classify_kernel("void vllm::rotary_embedding_kernel<c10::BFloat16>", "kernel", "") == OpClass::elementwise);
  CHECK(classify_kernel("void fbgemm_gpu::permute_2D_data_kernel<false>", "kernel", "") == OpClass::embedding);
  CHECK(classify_kernel("void multi_tensor_apply_kernel<TensorListMetadata<4>, AdamFunctor<float>>", "kernel", "") ==
        OpClass::optimizer);
  // "lambda" is not LAMB.
  CHECK(classify_kernel("void at::native::elementwise_kernel<128, 4, [lambda]>", "kernel", "") == OpClass::elementwise);
  CHECK(classify_kernel("my_custom_kernel", "kernel", "") == OpClass::other);
}

TEST_CASE("trace: read in chunks of any size, the answer is the same", "[traces]") {
  const std::string text = trace_fixture("b200_vllm_gpt_oss_tp8_rank0.json");
  const std::string whole = analyze_trace_json(text, "{}");
  for (std::size_t chunk : {std::size_t{1} << 16, std::size_t{7}}) {
    TraceSession session;
    bool fed = true;
    for (std::size_t at = 0; at < text.size(); at += chunk)
      fed = session.feed(std::string_view(text).substr(at, chunk)) && fed;
    CHECK(fed);
    CHECK(session.finish("{}") == whole);
  }
}

TEST_CASE("trace: malformed, truncated, deep and hostile traces get clear errors", "[traces]") {
  const std::string one_kernel = Json{{"traceEvents", {kernel(0, 5, "gemm", 7)}}}.dump();
  CHECK(analyze(one_kernel)["ok"] == true);
  // The array form, its closing bracket optional (the Trace Event Format allows it).
  CHECK(analyze("[" + kernel(0, 5, "gemm", 7).dump())["ok"] == true);
  const std::map<std::string, std::string> bad = {
      {"", "no_events"},
      {"not json", "not_a_trace"},
      {"{\"traceEvents\": 5}", "no_events"},
      {"{\"traceEvents\": []}", "no_events"},
      {"{\"traceEvents\": [1, 2]}", "bad_event"},
      {"{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"\xff\xfe\"}]}", "bad_event"},
      {"{\"traceEvents\": [{\"ph\": \"X\"}]} trailing", "trailing_text"},
      {"{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\"}]}", "no_kernels"},
      {"{\"traceEvents\": [" + std::string(100000, '[') + "]}", "too_deep"},
      {"{\"traceEvents\": [{\"a\": \"" + std::string(kMaxTraceValueBytes, 'x') + "\"}]}", "too_large"},
  };
  for (const auto& [text, code] : bad) {
    INFO(text.substr(0, 60));
    const Json answer = analyze(text);
    CHECK(answer["ok"] == false);
    CHECK(has_code(answer, code));
  }
  // Cut short mid-event: the whole events before the cut are read, with a warning.
  const std::string cut = one_kernel.substr(0, one_kernel.size() - 3);
  const std::string two = Json{{"traceEvents", {kernel(0, 5, "gemm", 7), kernel(9, 5, "gemm", 7)}}}.dump();
  const Json truncated = analyze(two.substr(0, two.size() - 20));
  CHECK(truncated["ok"] == true);
  CHECK(has_code(truncated, "truncated"));
  CHECK(analyze(cut)["ok"] == false);  // not one whole event
  // Options: a chip that is no preset, rows out of range, a key that is not an option; names non-ASCII.
  const Json options = analyze(one_kernel, {{"hardware", "h100-pcie"}, {"top", 0}, {"colour", "blue"}});
  CHECK(options["ok"] == false);
  CHECK(has_code(options, "unknown_preset"));
  CHECK(has_code(options, "unknown_key"));
  CHECK(analyze(Json{{"traceEvents", {kernel(0, 5, "カーネル", 7)}}}.dump())["result"]["ops"][0]["kernel"] ==
        "カーネル");
}

TEST_CASE("trace: against the plan, per step and device, part by part (issue 37 item 2)", "[traces]") {
  // Two ProfilerStep annotations around one device's kernels: 400 µs of GEMM and a 150 µs all-gather, 50 µs of it
  // beside the GEMM, per two steps.
  Json events = {kernel(1000, 400, "sm90_xmma_gemm_bf16bf16", 7), kernel(1350, 150, "ncclDevKernel_AllGather", 20)};
  for (int s : {1, 2})
    events.push_back({{"ph", "X"},
                      {"cat", "user_annotation"},
                      {"name", "ProfilerStep#" + std::to_string(s)},
                      {"pid", 100},
                      {"tid", 1},
                      {"ts", 900 + 300 * (s - 1)},
                      {"dur", 300}});
  const Json scenario = {{"hardware", {{"preset", "h100-sxm"}}},
                         {"model", {{"preset", "llama-3-8b"}}},
                         {"mesh", {{"shape", {8}}}},
                         {"query",
                          {{"kind", "training_step"},
                           {"batch_tokens", 65536},
                           {"seq_len", 4096},
                           {"parallelism", {{"fsdp", {"X"}}}},
                           {"fidelity", "calibrated"}}}};
  const Json step = Json::parse(evaluate_json(scenario.dump()));
  REQUIRE(step["ok"] == true);
  const Json answer = analyze(trace_of(events), {{"step", step}});
  REQUIRE(answer["ok"] == true);
  const Json& plan = answer["result"]["plan"];
  CHECK(plan["fidelity"] == "calibrated");
  CHECK(plan["steps"] == 2);
  CHECK(plan["steps_from"] == "ProfilerStep annotations");
  std::map<std::string, Json> rows;
  for (const auto& r : plan["rows"]) rows[r["part"]] = r;
  const Json& b = step["result"]["breakdown"];
  CHECK(rows["matmuls"]["measured_s"].get<double>() == Approx(200e-6));
  CHECK(rows["matmuls"]["predicted_s"].get<double>() == b["matmul_s"].get<double>() + b["head_s"].get<double>());
  CHECK(rows["communication"]["measured_s"].get<double>() == Approx(75e-6));
  CHECK(rows["exposed_communication"]["measured_s"].get<double>() == Approx(50e-6));
  CHECK(rows["step"]["measured_s"].get<double>() == Approx(250e-6));
  CHECK(rows["step"]["predicted_s"] == step["result"]["time"]["step_s"]);
  CHECK(rows["recompute"]["measured_s"].is_null());       // recomputed ops run as the classes above
  CHECK(plan["largest_gap"] == "exposed_communication");  // the only part measured above its prediction (0)
  // The book's step compares compute and communication; a fixed step count overrides the annotations.
  Json book = scenario;
  book["query"]["fidelity"] = "book";
  const Json on_book = analyze(trace_of(events), {{"step", Json::parse(evaluate_json(book.dump()))}, {"steps", 1}});
  CHECK(on_book["result"]["plan"]["rows"][0]["part"] == "compute");
  CHECK(on_book["result"]["plan"]["rows"][0]["measured_s"].get<double>() == Approx(400e-6));
  CHECK(on_book["result"]["plan"]["steps_from"] == "query");
  // Not a training step: refused, with the scenario's own reason where it has one.
  const Json chip = Json::parse(evaluate_json(R"({"hardware": {"preset": "h100-sxm"}, "query": {"kind": "chip"}})"));
  CHECK(has_code(analyze(trace_of(events), {{"step", chip}}), "not_a_training_step"));
}

TEST_CASE("trace: its kernels as kernel tables, which kernel_fit reads (issue 37 item 3)", "[traces]") {
  const Json answer = analyze(trace_fixture("b200_vllm_gpt_oss_tp8_rank0.json"), {{"kernel_tables", true}});
  REQUIRE(answer["ok"] == true);
  const Json& tables = answer["result"]["kernel_tables"];
  CHECK(tables["hardware"] == "b200");
  std::map<std::string, Json> by_op;
  for (const auto& t : tables["tables"]) by_op[t["op"]] = t;
  // The QKV projection's 36 instances (one per layer) are one row: its shape and their median time.
  bool qkv = false;
  for (const auto& row : by_op["gemm"]["rows"])
    if (row[0] == "bf16" && row[1] == 888 && row[2] == 640 && row[3] == 2880) qkv = row[4].get<double>() > 0;
  CHECK(qkv);
  // NCCL's all-gather of 201,088 bf16 values over 8 GPUs; the symmetric-memory all-reduces are one-shot, not NCCL.
  REQUIRE(by_op.count("nccl"));
  CHECK(by_op["nccl"]["rows"][0][0] == "all_gather");
  CHECK(by_op["nccl"]["rows"][0][1] == 8);
  CHECK(by_op["nccl"]["rows"][0][2] == 201088.0 * 2);
  CHECK(by_op.count("custom_all_reduce"));
  // kernel_fit reads them as aiconfigurator's tables: the chip's kernel models fitted to this cluster's kernels.
  const Json fit = Json::parse(evaluate_json(
      Json{{"hardware", {{"preset", "b200"}}}, {"query", {{"kind", "kernel_fit"}, {"tables", tables}}}}.dump()));
  INFO(fit.dump().substr(0, 600));
  CHECK(fit["ok"] == true);
  bool gemm_scored = false;
  for (const auto& s : fit["result"]["scores"]) gemm_scored = gemm_scored || (s["op"] == "gemm" && s["fit_rows"] > 0);
  CHECK(gemm_scored);
  // Without a chip there is nothing to name the tables by.
  const Json no_chip =
      analyze(trace_of(Json::array({kernel(0, 5, "gemm", 7)}), "Tesla V100-SXM2-32GB"), {{"kernel_tables", true}});
  CHECK(has_code(no_chip, "no_kernel_tables"));
}
