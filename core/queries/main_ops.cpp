#include "queries/main_ops.h"

#include <iterator>
#include <utility>

#include "planners/calibrated_serving.h"
#include "planners/calibrated_training.h"
#include "planners/main_ops.h"

namespace scalescope {

namespace {

// Each op as an object of its numbers and words, written key by key: one loop over the numbers keeps the code small
// in the page's size-compiled module.
void add_ops(const MainOps& ops, const char* phase, Json& out) {
  static constexpr const char* kNumbers[] = {
      "layers", "flops", "hbm_bytes", "intensity_flops_per_byte", "attainable_flops_per_s", "time_s"};
  for (int i = 0; i < ops.count; ++i) {
    const MainOp& o = ops.op[i];
    const double numbers[] = {o.layers, o.flops, o.bytes, o.intensity_flops_per_byte, o.attainable_flops_per_s,
                              o.time_s};
    Json op = Json::object();
    op["name"] = o.name;
    op["kind"] = o.kind == OpKind::attention ? "attention" : "matmul";
    op["dtype"] = dtype_name(o.dtype);
    for (std::size_t k = 0; k < std::size(numbers); ++k) op[kNumbers[k]] = numbers[k];
    op["bound"] = o.compute_bound ? "compute" : "memory";
    if (phase) op["phase"] = phase;
    out.push_back(std::move(op));
  }
}

}  // namespace

Json training_main_ops_json(const TrainingInput& in, const TrainingStep& step) {
  Json out = Json::array();
  add_ops(main_ops(*in.model, *in.hw, microbatch_shape(in, step), {in.precision.matmul, false}), nullptr, out);
  return out;
}

Json serving_main_ops_json(const ServingInput& in, double batch, double context, double prompt_len) {
  // A serving engine's weight GEMMs run in its activations' dtype: bf16 activations with narrower weights are
  // weight-only quantised (bf16 matrix units), fp8 or 4-bit activations the low-precision kernels.
  const MainOpDtypes dtypes{bytes_per_element(in.activations) >= 2.0 ? Dtype::bf16 : in.activations, true,
                            bytes_per_element(in.kv)};
  Json out = Json::array();
  add_ops(main_ops(*in.model, *in.hw, serving_layer_shape(in, batch, context, false, true), dtypes), "decode", out);
  add_ops(main_ops(*in.model, *in.hw, serving_layer_shape(in, batch * prompt_len, prompt_len, true, false), dtypes),
          "prefill", out);
  return out;
}

}  // namespace scalescope
