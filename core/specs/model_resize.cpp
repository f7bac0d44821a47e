#include "specs/model_resize.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace scalescope {

namespace {

// A positive whole-number field of the model, if it is one.
std::optional<double> width(const Json& model, const char* key) {
  const auto it = model.find(key);
  if (it == model.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>();
  return v >= 1 && v == std::floor(v) ? std::optional<double>(v) : std::nullopt;
}

// The nearest multiple of `step`, at least one step (the widths kernels tile well).
double round_to(double x, double step) { return std::max(step, std::round(x / step) * step); }

// The MLP widths follow D from `old_d` to `new_d`, to multiples of `step`.
void scale_ff(Json& model, double old_d, double new_d, double step) {
  for (const char* key : {"d_ff", "expert_d_ff"})
    if (const auto f = width(model, key)) model[key] = round_to(*f * new_d / old_d, step);
}

// d_ff = ratio x D; each expert's width moves in the same proportion as d_ff.
void set_ff_ratio(Json& model, double ratio, double d_model) {
  const auto old_ff = width(model, "d_ff");
  const double ff = std::max(1.0, std::round(ratio * d_model));
  model["d_ff"] = ff;
  if (const auto expert = width(model, "expert_d_ff"); expert && old_ff)
    model["expert_d_ff"] = std::max(1.0, std::round(*expert * ff / *old_ff));
}

// Parameters x about `factor`: L and D each x its cube root, since a layer's matrices grow as D^2 at a fixed F/D and
// head width (scaling-book/transformers, counting parameters): L D^2 x factor^(1/3 + 2/3). The heads follow D at
// their own width, keeping the query heads per KV head; the MLP widths follow D.
void scale_params(Json& model, double factor) {
  const auto layers = width(model, "layers");
  const auto d = width(model, "d_model");
  const auto heads = width(model, "heads");
  if (!layers || !d || !heads) return;
  const double f = std::cbrt(factor);
  const double new_d = round_to(*d * f, 128);
  if (const auto kv = width(model, "kv_heads")) {
    const double group = std::max(1.0, std::round(*heads / *kv));
    const double new_kv = std::max(1.0, std::round(*heads * (new_d / *d) / group));
    model["kv_heads"] = new_kv;
    model["heads"] = new_kv * group;
  } else {  // latent attention: the heads alone, in eights as its models have them (their ranks and widths stay)
    model["heads"] = round_to(*heads * new_d / *d, std::min(8.0, *heads));
  }
  scale_ff(model, *d, new_d, 128);
  model["d_model"] = new_d;
  model["layers"] = std::max(1.0, std::round(*layers * f));
}

}  // namespace

Json resize_model(const Json& model, const std::string& path, Diagnostics& d) {
  if (!model.is_object() || !model.contains("resize")) return model;
  JsonReader r(model["resize"], json_pointer_child(path, "resize"), d);
  const auto d_model = r.number("d_model", false);
  const auto ff_ratio = r.number("ff_ratio", false);
  const auto params_factor = r.number("params_factor", false);
  r.finish();
  Json out = model;
  out.erase("resize");
  const auto old_d = width(out, "d_model");
  if (!old_d) return out;
  // D first, the MLP following it in proportion (to 64) unless a ratio sets it; then the whole model's scale.
  const double new_d = d_model.value_or(*old_d);
  if (ff_ratio)
    set_ff_ratio(out, *ff_ratio, new_d);
  else if (new_d != *old_d)
    scale_ff(out, *old_d, new_d, 64);
  out["d_model"] = new_d;
  if (params_factor && *params_factor != 1) scale_params(out, *params_factor);
  return out;
}

}  // namespace scalescope
