#include "planners/main_ops.h"

#include <string_view>

#include "physics/roofline.h"
#include "physics/transformer.h"

namespace scalescope {

namespace {

Dtype op_dtype(const LayerOp& o, const Hardware& hw, MainOpDtypes dtypes) {
  Dtype d = Dtype::bf16;
  if (dtypes.serving && o.fp8_serving)
    d = Dtype::fp8;
  else if (o.kind == OpKind::matmul && o.linear)
    d = dtypes.linear;
  return hw.peak(d) > 0 ? d : Dtype::bf16;
}

// The KV caches a decode attention op of a `kind` layer reads on this chip (scaling-book/inference: each sequence's
// cache once per step, the part its span keeps): its local KV heads, or latent attention's whole latent.
double decode_kv_bytes(const ModelConfig& m, int kind, const LayerOp& o, const LayerShape& s, double kv_bytes) {
  const double keys = mean_keys_per_query(m, kind_span(kind), s.seq_len, false, true);
  const DecodeKvRead kv = decode_kv_read(m, o.attention);  // as the calibrated decode step reads it
  return s.tokens * kv.heads * keys * kv.values_per_head * kv_bytes;
}

// Adds `layers` x op `o` (with `extra_bytes` more than it lists) to the list: into the op of its name if one is there
// (the sums are turned into means once every kind is in), else as a new op.
void accumulate(MainOps& out, const LayerOp& o, double extra_bytes, double layers, const Hardware& hw,
                MainOpDtypes dtypes) {
  int i = 0;
  while (i < out.count && std::string_view(out.op[i].name) != o.name) ++i;
  if (i == kMaxMainOps) return;
  MainOp& e = out.op[i];
  if (i == out.count) {
    ++out.count;
    e.name = o.name;
    e.kind = o.kind;
    e.dtype = op_dtype(o, hw, dtypes);
    e.layers = e.flops = e.bytes = 0;
  }
  e.layers += layers;
  e.flops += layers * o.flops;
  e.bytes += layers * (o.bytes + extra_bytes);
}

}  // namespace

MainOps main_ops(const ModelConfig& m, const Hardware& hw, const LayerShape& shape, MainOpDtypes dtypes) {
  MainOps out;
  for (int kind = 0; kind < kLayerKinds; ++kind) {
    const double layers = m.pattern.all.n[static_cast<std::size_t>(kind)];
    if (layers <= 0) continue;
    const LayerOps ops = layer_ops(m, kind, shape);
    for (int i = 0; i < ops.count; ++i) {
      const LayerOp& o = ops.op[i];
      if (o.kind == OpKind::elementwise) continue;
      const bool kv = o.kind == OpKind::attention && shape.at_end;
      accumulate(out, o, kv ? decode_kv_bytes(m, kind, o, shape, dtypes.kv_bytes) : 0.0, layers, hw, dtypes);
    }
  }
  const LayerOps head = head_ops(m, shape, false, true);
  for (int i = 0; i < head.count; ++i)
    if (head.op[i].kind != OpKind::elementwise) accumulate(out, head.op[i], 0.0, 1.0, hw, dtypes);
  // Each op at the roofline of its dtype (scaling-book/roofline: T = max(FLOPs / C, bytes / W_hbm); compute-bound
  // when the intensity FLOPs / bytes is above the chip's C / W_hbm).
  for (int i = 0; i < out.count; ++i) {
    MainOp& o = out.op[i];
    o.flops /= o.layers;
    o.bytes /= o.layers;
    const Roofline r = roofline(o.flops, o.bytes, hw.peak(o.dtype), hw.hbm_bandwidth_bytes_per_s);
    o.intensity_flops_per_byte = r.intensity_flops_per_byte;
    o.attainable_flops_per_s = r.attainable_flops_per_s;
    o.time_s = r.lower_bound_s;
    o.compute_bound = r.compute_bound;
  }
  return out;
}

}  // namespace scalescope
